//! WORKLOADS.md §4, framed streams: groups `streams/<operation>` with the official-crate
//! `baseline` as the one peer function (flatstream-rs cannot be installed; its published figures are
//! in the report); flatforge joins each group as `flatforge`.
//!
//! Operations: `write_100` / `read_100` with no checksum, `_xxh3` and `_crc32c`; `write_1000` /
//! `read_1000`; `write_large_50` / `read_large_50` (4 KiB payloads); `cycle_50` (write 50, read them
//! back). Writers reuse one output `Vec`; readers read a stream built before timing and check the
//! result first.
//!
//! Every operation runs with each checksum. `read_large_50*` also has `flatforge_mmap` (the same
//! stream read from a memory map of a file) and `memcpy` (copying as many bytes as flatforge's
//! stream has, for the bandwidth a reader is measured against).
//!
//! `frames_100` / `frames_1000` (flatforge only, no checksum) deframe a stream and count its frames
//! without verifying or reading the payloads: the operation flatstream-rs publishes as its read
//! benchmark, so the one to set against its figures like for like. `write_vectors_100` /
//! `write_vectors_1000` (flatforge only, no checksum) are its write benchmark's operation: each
//! event's fields as 24 bytes in a `[ubyte]` vector that is the message's root.

use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use flatforge_bench_peers::flatforge_streams;
use flatforge_bench_peers::streams::{baseline, Checksum, Summary};
use flatforge_stream::{MappedStream, ReaderOptions};
use std::hint::black_box;

fn stream(count: u64, large: bool, checksum: Checksum) -> Vec<u8> {
    let mut out = Vec::new();
    baseline::Writer::new(checksum).write_events(&mut out, count, large);
    out
}

fn bench_write(
    group: &mut BenchmarkGroup<'_, WallTime>,
    count: u64,
    large: bool,
    checksum: Checksum,
) {
    let mut writer = baseline::Writer::new(checksum);
    let mut out = Vec::new();
    writer.write_events(&mut out, count, large);
    assert_eq!(
        baseline::read_events(&out, checksum).unwrap(),
        Summary::expected(count, large)
    );
    group.throughput(Throughput::Bytes(out.len() as u64));
    group.bench_function("baseline", |b| {
        b.iter(|| {
            writer.write_events(&mut out, count, large);
            black_box(&out).len()
        })
    });

    let mut writer = flatforge_streams::Writer::new(checksum);
    let written = writer.write_events(count, large);
    assert_eq!(
        flatforge_streams::read_events(written).unwrap(),
        Summary::expected(count, large)
    );
    group.throughput(Throughput::Bytes(written.len() as u64));
    group.bench_function("flatforge", |b| {
        b.iter(|| black_box(writer.write_events(count, large)).len())
    });
}

fn bench_read(
    group: &mut BenchmarkGroup<'_, WallTime>,
    count: u64,
    large: bool,
    checksum: Checksum,
) {
    let input = stream(count, large, checksum);
    assert_eq!(
        baseline::read_events(&input, checksum).unwrap(),
        Summary::expected(count, large)
    );
    group.throughput(Throughput::Bytes(input.len() as u64));
    group.bench_function("baseline", |b| {
        b.iter(|| baseline::read_events(black_box(&input), checksum))
    });

    let input = flatforge_streams::Writer::new(checksum)
        .write_events(count, large)
        .to_vec();
    assert_eq!(
        flatforge_streams::read_events(&input).unwrap(),
        Summary::expected(count, large)
    );
    group.throughput(Throughput::Bytes(input.len() as u64));
    group.bench_function("flatforge", |b| {
        b.iter(|| flatforge_streams::read_events(black_box(&input)))
    });
    if !large {
        return;
    }
    let path = std::env::temp_dir().join(format!("flatforge-bench-{}.ffs", std::process::id()));
    std::fs::write(&path, &input).unwrap();
    // SAFETY: the file is this process's own temporary file; nothing modifies it while mapped.
    let map = unsafe { MappedStream::open(&path, &ReaderOptions::default()) }.unwrap();
    assert_eq!(
        flatforge_streams::read_events(map.bytes()).unwrap(),
        Summary::expected(count, large)
    );
    group.bench_function("flatforge_mmap", |b| {
        b.iter(|| flatforge_streams::read_events(black_box(map.bytes())))
    });
    drop(map);
    std::fs::remove_file(&path).unwrap();
    let mut copy = vec![0u8; input.len()];
    group.bench_function("memcpy", |b| {
        b.iter(|| {
            copy.copy_from_slice(black_box(&input));
            black_box(&copy);
        })
    });
}

fn hundred(c: &mut Criterion) {
    for checksum in Checksum::ALL {
        let mut group = c.benchmark_group(format!("streams/write_100{}", checksum.suffix()));
        bench_write(&mut group, 100, false, checksum);
        group.finish();
        let mut group = c.benchmark_group(format!("streams/read_100{}", checksum.suffix()));
        bench_read(&mut group, 100, false, checksum);
        group.finish();
    }
}

fn thousand_and_large(c: &mut Criterion) {
    for (name, count, large) in [("1000", 1000, false), ("large_50", 50, true)] {
        for checksum in Checksum::ALL {
            let suffix = checksum.suffix();
            let mut group = c.benchmark_group(format!("streams/write_{name}{suffix}"));
            bench_write(&mut group, count, large, checksum);
            group.finish();
            let mut group = c.benchmark_group(format!("streams/read_{name}{suffix}"));
            bench_read(&mut group, count, large, checksum);
            group.finish();
        }
    }
}

fn cycle(c: &mut Criterion) {
    for checksum in Checksum::ALL {
        let mut group = c.benchmark_group(format!("streams/cycle_50{}", checksum.suffix()));
        let mut writer = baseline::Writer::new(checksum);
        let mut out = Vec::new();
        writer.write_events(&mut out, 50, false);
        let summary = baseline::read_events(&out, checksum).unwrap();
        assert_eq!(summary, Summary::expected(50, false));
        group.throughput(Throughput::Bytes(out.len() as u64));
        group.bench_function("baseline", |b| {
            b.iter(|| {
                writer.write_events(&mut out, 50, false);
                baseline::read_events(black_box(&out), checksum)
            })
        });
        let mut writer = flatforge_streams::Writer::new(checksum);
        let len = writer.write_events(50, false).len();
        group.throughput(Throughput::Bytes(len as u64));
        group.bench_function("flatforge", |b| {
            b.iter(|| {
                let stream = writer.write_events(50, false);
                flatforge_streams::read_events(black_box(stream))
            })
        });
        group.finish();
    }
}

fn frames(c: &mut Criterion) {
    for count in [100, 1000] {
        let mut group = c.benchmark_group(format!("streams/frames_{count}"));
        let input = flatforge_streams::Writer::new(Checksum::None)
            .write_events(count, false)
            .to_vec();
        assert_eq!(flatforge_streams::count_frames(&input).unwrap(), count);
        group.throughput(Throughput::Bytes(input.len() as u64));
        group.bench_function("flatforge", |b| {
            b.iter(|| flatforge_streams::count_frames(black_box(&input)))
        });
        group.finish();
    }
}

fn write_vectors(c: &mut Criterion) {
    for count in [100, 1000] {
        let mut group = c.benchmark_group(format!("streams/write_vectors_{count}"));
        let mut writer = flatforge_streams::Writer::new(Checksum::None);
        let len = writer.write_vector_events(count).len();
        assert_eq!(
            flatforge_streams::count_frames(writer.write_vector_events(count)).unwrap(),
            count
        );
        group.throughput(Throughput::Bytes(len as u64));
        group.bench_function("flatforge", |b| {
            b.iter(|| black_box(writer.write_vector_events(count)).len())
        });
        group.finish();
    }
}

criterion_group!(
    benches,
    hundred,
    thousand_and_large,
    cycle,
    frames,
    write_vectors
);
criterion_main!(benches);
