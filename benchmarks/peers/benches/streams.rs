//! WORKLOADS.md §4, framed streams: groups `streams/<operation>` with the official-crate
//! `baseline` as the one peer function (flatstream-rs cannot be installed; its published figures are
//! in the report); flatforge joins each group as `flatforge`.
//!
//! Operations: `write_100` / `read_100` with no checksum, `_xxh3` and `_crc32c`; `write_1000` /
//! `read_1000`; `write_large_50` / `read_large_50` (4 KiB payloads); `cycle_50` (write 50, read them
//! back). Writers reuse one output `Vec`; readers read a stream built before timing and check the
//! result first.

use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use flatforge_bench_peers::streams::{baseline, Checksum, Summary};
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
        let mut group = c.benchmark_group(format!("streams/write_{name}"));
        bench_write(&mut group, count, large, Checksum::None);
        group.finish();
        let mut group = c.benchmark_group(format!("streams/read_{name}"));
        bench_read(&mut group, count, large, Checksum::None);
        group.finish();
    }
}

fn cycle(c: &mut Criterion) {
    let mut group = c.benchmark_group("streams/cycle_50");
    let mut writer = baseline::Writer::new(Checksum::None);
    let mut out = Vec::new();
    writer.write_events(&mut out, 50, false);
    let summary = baseline::read_events(&out, Checksum::None).unwrap();
    assert_eq!(summary, Summary::expected(50, false));
    group.throughput(Throughput::Bytes(out.len() as u64));
    group.bench_function("baseline", |b| {
        b.iter(|| {
            writer.write_events(&mut out, 50, false);
            baseline::read_events(black_box(&out), Checksum::None)
        })
    });
    group.finish();
}

criterion_group!(benches, hundred, thousand_and_large, cycle);
criterion_main!(benches);
