//! WORKLOADS.md §5: read, write and round trip of each workload with flatforge-nbt (owned tree and
//! borrowed tape) and the peers: simdnbt (borrowed and owned, nightly only: `--features simdnbt`),
//! fastnbt (its dynamic `Value`) and valence_nbt.
//!
//! What each one's read does (all check the structure and every length against the input):
//! - `flatforge_owned`: a tree of `Tag`s; every name and string validated and decoded from modified
//!   UTF-8 into a `String`; no byte may follow the root.
//! - `flatforge_borrowed`: a tape of entries pointing into the input; strings are validated and decoded
//!   only when asked (`Str::to_str`); no byte may follow the root.
//! - `simdnbt_borrow`: a tape pointing into the input; strings kept as undecoded `Mutf8Str`, validated
//!   only when converted; bytes after the root are not looked at.
//! - `simdnbt_owned`: a tree whose names and strings are copied as undecoded modified UTF-8 bytes.
//! - `fastnbt_value`: serde into `fastnbt::Value` (hash maps), strings decoded into `String`.
//! - `valence_nbt`: a `Compound<String>` (sorted maps), strings decoded into `String`.
//!
//! And each one's write: `flatforge_owned` encodes `String`s, checking each for characters modified UTF-8
//! spells differently and every length against its limit; `flatforge_borrowed` writes its tape in the
//! same variant, copying runs of input bytes; `simdnbt_borrow` writes its tape element by element;
//! `simdnbt_owned` copies its stored modified UTF-8 without checks; fastnbt and valence_nbt encode
//! `String`s.
//!
//! Ids are `nbt/<operation>/<workload>/<implementation>` (`nbt/read/complex_player/simdnbt_borrow`): the
//! report (benchmarks/report) takes `nbt` as the workload section and `<operation>/<workload>` as the
//! operation, apart from the FlatBuffers `read/...` groups of the other crates.
//!
//! Run: `cargo +nightly bench -p flatforge-bench-nbt --features simdnbt` (or without the feature on stable);
//! `scripts/bench` runs it that way. For instruction counts see `examples/profile.rs`.

use std::hint::black_box;
#[cfg(feature = "simdnbt")]
use std::io::Cursor;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use flatforge_bench_nbt::workloads;
use flatforge_nbt::borrowed::Document;
use flatforge_nbt::{Nbt, Variant};

fn read(c: &mut Criterion) {
    for w in workloads() {
        let data = w.data.as_slice();
        let mut g = c.benchmark_group(format!("nbt/read/{}", w.name));
        g.throughput(Throughput::Bytes(data.len() as u64));
        g.bench_function("flatforge_owned", |b| {
            b.iter(|| Nbt::read(black_box(data), Variant::Java).unwrap())
        });
        g.bench_function("flatforge_borrowed", |b| {
            b.iter(|| Document::parse(black_box(data), Variant::Java).unwrap())
        });
        #[cfg(feature = "simdnbt")]
        {
            g.bench_function("simdnbt_borrow", |b| {
                b.iter(|| simdnbt::borrow::read(&mut Cursor::new(black_box(data))).unwrap())
            });
            g.bench_function("simdnbt_owned", |b| {
                b.iter(|| simdnbt::owned::read(&mut Cursor::new(black_box(data))).unwrap())
            });
        }
        g.bench_function("fastnbt_value", |b| {
            b.iter(|| fastnbt::from_bytes::<fastnbt::Value>(black_box(data)).unwrap())
        });
        g.bench_function("valence_nbt", |b| {
            b.iter(|| valence_nbt::from_binary::<String>(&mut black_box(data)).unwrap())
        });
        g.finish();
    }
}

fn write(c: &mut Criterion) {
    for w in workloads() {
        let data = w.data.as_slice();
        let mut g = c.benchmark_group(format!("nbt/write/{}", w.name));
        g.throughput(Throughput::Bytes(data.len() as u64));
        let mut out = Vec::with_capacity(data.len() * 2);

        let nbt = Nbt::read(data, Variant::Java).unwrap();
        g.bench_function("flatforge_owned", |b| {
            b.iter(|| {
                out.clear();
                black_box(&nbt).write_to(Variant::Java, &mut out).unwrap();
            })
        });
        let doc = Document::parse(data, Variant::Java).unwrap();
        g.bench_function("flatforge_borrowed", |b| {
            b.iter(|| {
                out.clear();
                black_box(&doc).write_to(Variant::Java, &mut out).unwrap();
            })
        });
        #[cfg(feature = "simdnbt")]
        {
            let borrowed = simdnbt::borrow::read(&mut Cursor::new(data)).unwrap();
            g.bench_function("simdnbt_borrow", |b| {
                b.iter(|| {
                    out.clear();
                    black_box(&borrowed).write(&mut out);
                })
            });
            let owned = simdnbt::owned::read(&mut Cursor::new(data)).unwrap();
            g.bench_function("simdnbt_owned", |b| {
                b.iter(|| {
                    out.clear();
                    black_box(&owned).write(&mut out);
                })
            });
        }
        let value: fastnbt::Value = fastnbt::from_bytes(data).unwrap();
        g.bench_function("fastnbt_value", |b| {
            b.iter(|| {
                out.clear();
                fastnbt::to_writer(&mut out, black_box(&value)).unwrap();
            })
        });
        let (compound, name) = valence_nbt::from_binary::<String>(&mut &data[..]).unwrap();
        g.bench_function("valence_nbt", |b| {
            b.iter(|| {
                out.clear();
                valence_nbt::to_binary(black_box(&compound), &mut out, &name).unwrap();
            })
        });
        g.finish();
    }
}

fn round_trip(c: &mut Criterion) {
    for w in workloads() {
        let data = w.data.as_slice();
        let mut g = c.benchmark_group(format!("nbt/roundtrip/{}", w.name));
        g.throughput(Throughput::Bytes(data.len() as u64));
        let mut out = Vec::with_capacity(data.len() * 2);
        g.bench_function("flatforge_owned", |b| {
            b.iter(|| {
                out.clear();
                Nbt::read(black_box(data), Variant::Java)
                    .unwrap()
                    .write_to(Variant::Java, &mut out)
                    .unwrap();
            })
        });
        g.bench_function("flatforge_borrowed", |b| {
            b.iter(|| {
                out.clear();
                Document::parse(black_box(data), Variant::Java)
                    .unwrap()
                    .write_to(Variant::Java, &mut out)
                    .unwrap();
            })
        });
        #[cfg(feature = "simdnbt")]
        {
            g.bench_function("simdnbt_borrow", |b| {
                b.iter(|| {
                    out.clear();
                    simdnbt::borrow::read(&mut Cursor::new(black_box(data)))
                        .unwrap()
                        .write(&mut out);
                })
            });
            g.bench_function("simdnbt_owned", |b| {
                b.iter(|| {
                    out.clear();
                    simdnbt::owned::read(&mut Cursor::new(black_box(data)))
                        .unwrap()
                        .write(&mut out);
                })
            });
        }
        g.bench_function("fastnbt_value", |b| {
            b.iter(|| {
                out.clear();
                let v: fastnbt::Value = fastnbt::from_bytes(black_box(data)).unwrap();
                fastnbt::to_writer(&mut out, &v).unwrap();
            })
        });
        g.bench_function("valence_nbt", |b| {
            b.iter(|| {
                out.clear();
                let (compound, name) =
                    valence_nbt::from_binary::<String>(&mut black_box(data)).unwrap();
                valence_nbt::to_binary(&compound, &mut out, &name).unwrap();
            })
        });
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(2));
    targets = read, write, round_trip
}
criterion_main!(benches);
