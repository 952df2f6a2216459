//! flatbench (WORKLOADS.md §1) verify and verify+traverse: flatforge, Google's C++ and the official
//! crate on the same 344-byte buffer, in the same run. `cargo bench -p flatforge-bench-runtime
//! --bench flatbench`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use flatforge_bench_peers::flatbench::{self as peers, cpp, official, EXPECTED_SUM};
use flatforge_bench_runtime::flatbench as ours;

fn verify(c: &mut Criterion) {
    let buf = peers::buffer();
    assert_eq!(ours::verify_traverse(&buf).unwrap(), EXPECTED_SUM);
    assert_eq!(cpp::verify_traverse(&buf), Some(EXPECTED_SUM));
    assert_eq!(official::verify_traverse(&buf).unwrap(), EXPECTED_SUM);

    let mut g = c.benchmark_group("flatbench/verify");
    g.bench_function("flatforge", |b| {
        b.iter(|| black_box(ours::verify(black_box(&buf)).is_ok()))
    });
    g.bench_function("cpp", |b| b.iter_custom(|n| cpp::time_verify(&buf, n)));
    g.bench_function("official", |b| {
        b.iter(|| black_box(official::verify(black_box(&buf)).is_ok()))
    });
    g.finish();

    let mut g = c.benchmark_group("flatbench/verify_traverse");
    g.bench_function("flatforge", |b| {
        b.iter(|| black_box(ours::verify_traverse(black_box(&buf)).unwrap()))
    });
    g.bench_function("cpp", |b| {
        b.iter_custom(|n| cpp::time_verify_traverse(&buf, n))
    });
    g.bench_function("official", |b| {
        b.iter(|| black_box(official::verify_traverse(black_box(&buf)).unwrap()))
    });
    g.finish();
}

criterion_group!(benches, verify);
criterion_main!(benches);
