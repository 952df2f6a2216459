//! flatbench JSON (WORKLOADS.md §1, flatcc's JSON benchmark): the 344-byte flatbench buffer printed
//! as strict JSON (verification included) and that JSON parsed back into a buffer; flatforge against
//! flatc's own C++ JSON printer and parser (`cpp`) in the same run. `flatbench/json_print_compact`
//! prints without indentation, which flatc's printer cannot.
//! `cargo bench -p flatforge-bench-json`. flatcc's generated JSON code, measured on this kind of
//! machine: print 0.94 µs, parse 1.58 µs.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use flatforge_bench_peers::flatbench::{self as peers, cpp};
use flatforge_json::{Codec, ParseOptions, PrintOptions};

fn json(c: &mut Criterion) {
    let schema = flatforge_bench_json::schema();
    let codec = Codec::new(&schema);
    let root = codec
        .root_type(Some("benchmarks_flatbuffers.FooBarContainer"))
        .unwrap();
    let buf = peers::buffer();
    let mut printer = codec.printer(PrintOptions::default());
    let text = printer.print(root, &buf).unwrap().to_string();
    let mut compact_opts = PrintOptions::default();
    compact_opts.indent = None;
    let mut compact = codec.printer(compact_opts);
    let mut parser = codec.parser(ParseOptions::default());
    // The JSON reads back to a buffer that prints the same.
    let again = parser.parse(root, text.as_bytes()).unwrap().to_vec();
    assert_eq!(printer.print(root, &again).unwrap(), text);

    let mut g = c.benchmark_group("flatbench/json_print");
    g.bench_function("flatforge", |b| {
        b.iter(|| black_box(printer.print(root, black_box(&buf)).unwrap().len()))
    });
    let mut flatc = cpp::Json::new().unwrap();
    g.bench_function("cpp", |b| {
        b.iter_custom(|n| flatc.time_print(&buf, n).unwrap())
    });
    g.finish();

    // Without indentation: a group of its own, since flatc's printer indents.
    let mut g = c.benchmark_group("flatbench/json_print_compact");
    g.bench_function("flatforge", |b| {
        b.iter(|| black_box(compact.print(root, black_box(&buf)).unwrap().len()))
    });
    g.finish();

    let mut g = c.benchmark_group("flatbench/json_parse");
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
    let c_text = std::ffi::CString::new(text.clone()).unwrap();
    flatc.parse(&c_text).expect("flatc parses our JSON");
    g.bench_function("cpp", |b| b.iter_custom(|n| flatc.time_parse(&c_text, n)));
    g.finish();
}

criterion_group!(benches, json);
criterion_main!(benches);
