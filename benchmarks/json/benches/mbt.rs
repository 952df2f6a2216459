//! FlatBuffers.mbt's `json` of `simple_table` (WORKLOADS.md §2): the table {0: "TestName", 1: int32
//! 100, 2: int16 50} printed as JSON (verification included) and that JSON parsed back into a
//! buffer, as the groups `mbt/json_print/simple_table` and `mbt/json_parse/simple_table`. `cargo
//! bench -p flatforge-bench-json --bench mbt`. MoonBit publishes 0.60 µs (unknown
//! hardware) for its json workload.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use flatforge_json::{Codec, ParseOptions, PrintOptions};

fn simple_table(c: &mut Criterion) {
    let schema = flatforge_bench_json::simple_table_schema();
    let codec = Codec::new(&schema);
    let root = codec.root_type(None).unwrap();
    let text = flatforge_bench_json::SIMPLE_TABLE_JSON;
    let mut parser = codec.parser(ParseOptions::default());
    // The buffer is built before timing; it prints back to the same text.
    let buf = parser.parse(root, text.as_bytes()).unwrap().to_vec();
    let mut printer = codec.printer(PrintOptions::default());
    assert_eq!(printer.print(root, &buf).unwrap(), text);

    let mut g = c.benchmark_group("mbt/json_print/simple_table");
    g.bench_function("flatforge", |b| {
        b.iter(|| black_box(printer.print(root, black_box(&buf)).unwrap().len()))
    });
    g.finish();
    let mut g = c.benchmark_group("mbt/json_parse/simple_table");
    g.bench_function("flatforge", |b| {
        b.iter(|| {
            black_box(
                parser
                    .parse(root, black_box(text.as_bytes()))
                    .unwrap()
                    .len(),
            )
        })
    });
    g.finish();
}

criterion_group!(benches, simple_table);
criterion_main!(benches);
