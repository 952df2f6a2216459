//! FlatBuffers.mbt micro-workloads (WORKLOADS.md §2): flatforge against the official `flatbuffers`
//! crate in the same run, as the groups `mbt/<operation>/<workload>`. `cargo bench -p
//! flatforge-bench-runtime`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use flatbuffers::FlatBufferBuilder;
use flatforge::Builder;
use flatforge_bench_runtime::{official, ours};

macro_rules! build {
    ($c:expr, $name:literal, $f:ident) => {{
        let mut g = $c.benchmark_group(concat!("mbt/build/", $name));
        g.bench_function("flatforge", |b| {
            b.iter(|| {
                let mut fb = Builder::with_capacity(256);
                black_box(ours::$f(&mut fb).unwrap().len())
            })
        });
        g.bench_function("official", |b| {
            b.iter(|| {
                let mut fb = FlatBufferBuilder::with_capacity(256);
                black_box(official::$f(&mut fb).len())
            })
        });
        g.finish();
    }};
}

fn builds(c: &mut Criterion) {
    build!(c, "simple_table", build_simple);
    build!(c, "string_vector", build_string_vector);
    build!(c, "byte_vector", build_byte_vector);
    build!(c, "shared_strings", build_shared_strings);
    build!(c, "nested_table", build_nested);
}

fn buffer(f: fn(&mut Builder) -> Result<&[u8], flatforge::BuildError>) -> Vec<u8> {
    let mut b = Builder::new();
    f(&mut b).unwrap().to_vec()
}

macro_rules! read {
    ($c:expr, $name:literal, $buf:expr, $f:ident) => {{
        let buf = $buf;
        assert_eq!(ours::$f(&buf) as i128, official::$f(&buf) as i128);
        let mut g = $c.benchmark_group(concat!("mbt/read/", $name));
        g.bench_function("flatforge", |b| {
            b.iter(|| black_box(ours::$f(black_box(&buf))))
        });
        g.bench_function("official", |b| {
            b.iter(|| black_box(official::$f(black_box(&buf))))
        });
        g.finish();
    }};
}

fn reads(c: &mut Criterion) {
    let simple = buffer(ours::build_simple);
    let bytes = buffer(ours::build_byte_vector);
    let nested = buffer(ours::build_nested);
    // Both readers must accept the buffer before the unchecked reads are timed.
    ours::verify_simple(&simple).unwrap();
    official::verify_simple(&simple).unwrap();
    flatforge::root::<ours::Bytes>(&bytes).unwrap();
    flatforge::root::<ours::Outer>(&nested).unwrap();
    read!(c, "simple_table", simple.clone(), read_simple);
    read!(c, "byte_vector_each", bytes.clone(), read_bytes_each);
    read!(c, "byte_vector_slice", bytes.clone(), read_bytes_slice);
    read!(c, "nested_table", nested, read_nested);

    let mut g = c.benchmark_group("mbt/verify/simple_table");
    g.bench_function("flatforge", |b| {
        b.iter(|| black_box(ours::verify_simple(black_box(&simple)).is_ok()))
    });
    g.bench_function("official", |b| {
        b.iter(|| black_box(official::verify_simple(black_box(&simple)).is_ok()))
    });
    g.finish();
}

criterion_group!(benches, builds, reads);
criterion_main!(benches);
