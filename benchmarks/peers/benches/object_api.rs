//! WORKLOADS.md §2, the FlatBuffers.mbt object API workload (`schemas/person.fbs`): groups
//! `mbt/build/object_api_person` (pack an owned Person and finish) and `mbt/read/object_api_person`
//! (verify and unpack into a new owned Person), one function per implementation.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use flatforge_bench_peers::person::{flatforge, official, planus};

fn build(c: &mut Criterion) {
    let mut g = c.benchmark_group("mbt/build/object_api_person");
    let mut w = flatforge::Writer::new();
    g.bench_function("flatforge", |b| b.iter(|| black_box(w.write()).len()));
    let mut w = official::Writer::new();
    g.bench_function("official", |b| b.iter(|| black_box(w.write()).len()));
    let mut w = planus::Writer::new();
    g.bench_function("planus", |b| b.iter(|| black_box(w.write()).len()));
    g.finish();
}

fn read(c: &mut Criterion) {
    // Every implementation reads the same buffer, written by the official crate.
    let buf = official::Writer::new().write().to_vec();
    assert!(flatforge::matches(&flatforge::read(&buf).unwrap()));
    assert!(official::matches(&official::read(&buf).unwrap()));
    assert!(planus::matches(&planus::read(&buf).unwrap()));
    let mut g = c.benchmark_group("mbt/read/object_api_person");
    g.bench_function("flatforge", |b| {
        b.iter(|| flatforge::read(black_box(&buf)).unwrap())
    });
    g.bench_function("official", |b| {
        b.iter(|| official::read(black_box(&buf)).unwrap())
    });
    g.bench_function("planus", |b| {
        b.iter(|| planus::read(black_box(&buf)).unwrap())
    });
    g.finish();
}

criterion_group!(benches, build, read);
criterion_main!(benches);
