//! WORKLOADS.md §1, flatbench, for every peer: groups `flatbench/<operation>` with one function per
//! implementation (`official`, `planus`, `cpp`, and `flatforge` with its generated code).
//!
//! Readers all read the same bytes, `flatbench::buffer()`. Each implementation's result is checked
//! before it is timed, so a wrong peer stops the run. The C++ functions time loops run inside C++
//! (`iter_custom`), so the FFI call is not what is measured.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use flatforge_bench_peers::flatbench::{self, cpp, official, planus, EXPECTED_SUM};
use flatforge_bench_peers::flatforge_gen::flatbench as flatforge;
use std::ffi::CString;
use std::hint::black_box;

fn bytes(len: usize) -> Throughput {
    Throughput::Bytes(len as u64)
}

fn encode(c: &mut Criterion) {
    let mut group = c.benchmark_group("flatbench/encode");

    let mut encoder = official::Encoder::new();
    let buf = encoder.encode();
    assert_eq!(official::verify_traverse(buf).unwrap(), EXPECTED_SUM);
    group.throughput(bytes(buf.len()));
    group.bench_function("official", |b| b.iter(|| black_box(encoder.encode()).len()));

    let mut encoder = planus::Encoder::new();
    let buf = encoder.encode();
    assert_eq!(planus::traverse(buf).unwrap(), EXPECTED_SUM);
    group.throughput(bytes(buf.len()));
    group.bench_function("planus", |b| b.iter(|| black_box(encoder.encode()).len()));

    let mut encoder = cpp::Encoder::new();
    let buf = encoder.encode();
    assert_eq!(cpp::traverse(buf).unwrap(), EXPECTED_SUM);
    group.throughput(bytes(buf.len()));
    group.bench_function("cpp", |b| b.iter_custom(|iters| encoder.time_encode(iters)));

    let mut encoder = flatforge::Encoder::new();
    let buf = encoder.encode();
    assert_eq!(flatforge::verify_traverse(buf).unwrap(), EXPECTED_SUM);
    group.throughput(bytes(buf.len()));
    group.bench_function("flatforge", |b| {
        b.iter(|| black_box(encoder.encode()).len())
    });

    group.finish();
}

fn traverse(c: &mut Criterion) {
    let buf = flatbench::buffer();
    let mut group = c.benchmark_group("flatbench/traverse");
    group.throughput(bytes(buf.len()));

    assert_eq!(official::verify_traverse(&buf).unwrap(), EXPECTED_SUM);
    group.bench_function("official", |b| {
        // SAFETY: verified just above.
        b.iter(|| unsafe { official::traverse(black_box(&buf)) })
    });
    assert_eq!(planus::traverse(&buf).unwrap(), EXPECTED_SUM);
    group.bench_function("planus", |b| b.iter(|| planus::traverse(black_box(&buf))));
    assert_eq!(cpp::traverse(&buf).unwrap(), EXPECTED_SUM);
    group.bench_function("cpp", |b| {
        b.iter_custom(|iters| cpp::time_traverse(&buf, iters).expect("verified"))
    });
    assert_eq!(flatforge::verify_traverse(&buf).unwrap(), EXPECTED_SUM);
    group.bench_function("flatforge", |b| {
        // SAFETY: verified just above.
        b.iter(|| unsafe { flatforge::traverse(black_box(&buf)) })
    });

    group.finish();
}

fn verify(c: &mut Criterion) {
    let buf = flatbench::buffer();
    let mut group = c.benchmark_group("flatbench/verify");
    group.throughput(bytes(buf.len()));

    official::verify(&buf).unwrap();
    group.bench_function("official", |b| b.iter(|| official::verify(black_box(&buf))));
    assert!(cpp::verify(&buf));
    group.bench_function("cpp", |b| {
        b.iter_custom(|iters| cpp::time_verify(&buf, iters))
    });
    flatforge::verify(&buf).unwrap();
    group.bench_function("flatforge", |b| {
        b.iter(|| flatforge::verify(black_box(&buf)))
    });

    group.finish();
}

fn verify_traverse(c: &mut Criterion) {
    let buf = flatbench::buffer();
    let mut group = c.benchmark_group("flatbench/verify_traverse");
    group.throughput(bytes(buf.len()));

    assert_eq!(official::verify_traverse(&buf).unwrap(), EXPECTED_SUM);
    group.bench_function("official", |b| {
        b.iter(|| official::verify_traverse(black_box(&buf)))
    });
    // planus checks as it reads: its traverse is its verify+traverse.
    assert_eq!(planus::traverse(&buf).unwrap(), EXPECTED_SUM);
    group.bench_function("planus", |b| b.iter(|| planus::traverse(black_box(&buf))));
    assert_eq!(cpp::verify_traverse(&buf), Some(EXPECTED_SUM));
    group.bench_function("cpp", |b| {
        b.iter_custom(|iters| cpp::time_verify_traverse(&buf, iters))
    });
    assert_eq!(flatforge::verify_traverse(&buf).unwrap(), EXPECTED_SUM);
    group.bench_function("flatforge", |b| {
        b.iter(|| flatforge::verify_traverse(black_box(&buf)))
    });

    group.finish();
}

fn json(c: &mut Criterion) {
    let buf = flatbench::buffer();
    let mut json = cpp::Json::new().expect("flatc's parser reads bench.fbs");
    let text = json
        .print(&buf)
        .expect("flatc prints the buffer")
        .to_owned();
    let c_text = CString::new(text.clone()).expect("JSON has no NUL byte");
    let parsed = json.parse(&c_text).expect("flatc parses its own JSON");
    assert_eq!(cpp::traverse(parsed).unwrap(), EXPECTED_SUM);

    let mut group = c.benchmark_group("flatbench/json_print");
    group.throughput(bytes(text.len()));
    group.bench_function("cpp", |b| {
        b.iter_custom(|iters| json.time_print(&buf, iters).expect("verified"))
    });
    group.finish();

    let mut group = c.benchmark_group("flatbench/json_parse");
    group.throughput(bytes(text.len()));
    group.bench_function("cpp", |b| {
        b.iter_custom(|iters| json.time_parse(&c_text, iters))
    });
    group.finish();
}

criterion_group!(benches, encode, traverse, verify, verify_traverse, json);
criterion_main!(benches);
