//! Runs a JSON print or parse in a loop, for profilers (`valgrind --tool=callgrind`): the flatbench
//! buffer (the default) or the FlatBuffers.mbt `simple_table`.
//! `cargo run --release -p flatforge-bench-json --example json_profile -- print|parse [ITERATIONS]
//! [flatbench|simple_table]`.

use flatforge_json::{Codec, ParseOptions, PrintOptions};

fn main() {
    let mut args = std::env::args().skip(1);
    let what = args.next().unwrap_or_else(|| "print".into());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let (schema, root_name, text) = match args.next().as_deref() {
        Some("simple_table") => (
            flatforge_bench_json::simple_table_schema(),
            "T",
            flatforge_bench_json::SIMPLE_TABLE_JSON,
        ),
        _ => (
            flatforge_bench_json::schema(),
            "benchmarks_flatbuffers.FooBarContainer",
            flatforge_bench_json::JSON,
        ),
    };
    let codec = Codec::new(&schema);
    let root = codec.root_type(Some(root_name)).unwrap();
    let mut parser = codec.parser(ParseOptions::default());
    let buf = parser.parse(root, text.as_bytes()).unwrap().to_vec();
    let mut printer = codec.printer(PrintOptions::default());
    let mut total = 0;
    for _ in 0..n {
        total += match what.as_str() {
            "parse" => parser.parse(root, text.as_bytes()).unwrap().len(),
            _ => printer.print(root, &buf).unwrap().len(),
        };
    }
    println!("{total}");
}
