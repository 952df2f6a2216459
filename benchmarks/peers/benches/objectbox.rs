//! WORKLOADS.md §3, the ObjectBox builder/reader workload, for every peer: groups
//! `objectbox/write_<variant>` and `objectbox/read_<variant>` (variant `with_bytes` or
//! `without_bytes`) with one function per implementation (`official`, `planus`, `cpp`, and
//! `flatforge` with its generated code).
//!
//! Readers all read the same bytes (the official crate's, which are the C++ bytes). Results are
//! checked before timing; the C++ functions time loops run inside C++.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use flatforge_bench_peers::flatforge_gen::objectbox as flatforge;
use flatforge_bench_peers::objectbox::{cpp, official, planus, Variant};
use std::hint::black_box;

fn bytes(len: usize) -> Throughput {
    Throughput::Bytes(len as u64)
}

fn write(c: &mut Criterion) {
    for variant in Variant::ALL {
        let expected = variant.expected();
        let mut group = c.benchmark_group(format!("objectbox/write_{}", variant.name()));

        let mut writer = official::Writer::new();
        let buf = writer.write(variant);
        assert_eq!(official::read_verified(buf).unwrap(), expected);
        group.throughput(bytes(buf.len()));
        group.bench_function("official", |b| {
            b.iter(|| black_box(writer.write(variant)).len())
        });

        let mut writer = planus::Writer::new();
        let buf = writer.write(variant);
        assert_eq!(planus::read(buf).unwrap(), expected);
        group.throughput(bytes(buf.len()));
        group.bench_function("planus", |b| {
            b.iter(|| black_box(writer.write(variant)).len())
        });

        let mut writer = cpp::Writer::new();
        let buf = writer.write(variant);
        assert_eq!(cpp::read(buf).unwrap(), expected);
        group.throughput(bytes(buf.len()));
        group.bench_function("cpp", |b| {
            b.iter_custom(|iters| writer.time_write(variant, iters))
        });

        let mut writer = flatforge::Writer::new();
        let buf = writer.write(variant);
        assert_eq!(flatforge::read_verified(buf).unwrap(), expected);
        group.throughput(bytes(buf.len()));
        group.bench_function("flatforge", |b| {
            b.iter(|| black_box(writer.write(variant)).len())
        });

        group.finish();
    }
}

fn read(c: &mut Criterion) {
    for variant in Variant::ALL {
        let expected = variant.expected();
        let buf = official::Writer::new().write(variant).to_vec();
        let mut group = c.benchmark_group(format!("objectbox/read_{}", variant.name()));
        group.throughput(bytes(buf.len()));

        assert_eq!(official::read_verified(&buf).unwrap(), expected);
        group.bench_function("official", |b| {
            // SAFETY: verified just above.
            b.iter(|| unsafe { official::read(black_box(&buf)) })
        });
        assert_eq!(planus::read(&buf).unwrap(), expected);
        group.bench_function("planus", |b| b.iter(|| planus::read(black_box(&buf))));
        assert_eq!(cpp::read(&buf).unwrap(), expected);
        group.bench_function("cpp", |b| {
            b.iter_custom(|iters| cpp::time_read(&buf, iters).expect("verified"))
        });
        assert_eq!(flatforge::read_verified(&buf).unwrap(), expected);
        group.bench_function("flatforge", |b| {
            // SAFETY: verified just above.
            b.iter(|| unsafe { flatforge::read(black_box(&buf)) })
        });

        group.finish();
    }
}

criterion_group!(benches, write, read);
criterion_main!(benches);
