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
//! `String`s. (simdnbt 0.10's borrowed write of a named root ends with one End byte too many;
//! `tests/peers_agree.rs` checks that it is only that.)
//!
//! The `dotnet_*` workloads (the tags of the .NET benchmark WORKLOADS.md quotes; see the library's docs)
//! are Java network NBT, a root without a name: flatforge reads and writes them as
//! `Variant::JavaNetwork`, simdnbt with `read_unnamed` and unnamed writes, fastnbt with its
//! `network_nbt` options. valence_nbt has no nameless root, so it reads and writes the same tag with an
//! empty root name (two bytes more).
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
use fastnbt::{DeOpts, SerOpts};
use flatforge_bench_nbt::workloads;
use flatforge_nbt::borrowed::Document;
use flatforge_nbt::{Nbt, Variant};

/// fastnbt's options for a workload: network NBT (no root name) or the default.
fn fastnbt_opts(variant: Variant) -> (DeOpts, SerOpts) {
    if variant.named_root() {
        (DeOpts::new(), SerOpts::new())
    } else {
        (DeOpts::network_nbt(), SerOpts::network_nbt())
    }
}

fn read(c: &mut Criterion) {
    for w in workloads() {
        let data = w.data.as_slice();
        let variant = w.variant;
        let named = w.named();
        let mut g = c.benchmark_group(format!("nbt/read/{}", w.name));
        g.throughput(Throughput::Bytes(data.len() as u64));
        g.bench_function("flatforge_owned", |b| {
            b.iter(|| Nbt::read(black_box(data), variant).unwrap())
        });
        g.bench_function("flatforge_borrowed", |b| {
            b.iter(|| Document::parse(black_box(data), variant).unwrap())
        });
        #[cfg(feature = "simdnbt")]
        if variant.named_root() {
            g.bench_function("simdnbt_borrow", |b| {
                b.iter(|| simdnbt::borrow::read(&mut Cursor::new(black_box(data))).unwrap())
            });
            g.bench_function("simdnbt_owned", |b| {
                b.iter(|| simdnbt::owned::read(&mut Cursor::new(black_box(data))).unwrap())
            });
        } else {
            g.bench_function("simdnbt_borrow", |b| {
                b.iter(|| simdnbt::borrow::read_unnamed(&mut Cursor::new(black_box(data))).unwrap())
            });
            g.bench_function("simdnbt_owned", |b| {
                b.iter(|| simdnbt::owned::read_unnamed(&mut Cursor::new(black_box(data))).unwrap())
            });
        }
        let (de, _) = fastnbt_opts(variant);
        g.bench_function("fastnbt_value", |b| {
            b.iter(|| {
                fastnbt::from_bytes_with_opts::<fastnbt::Value>(black_box(data), de.clone())
                    .unwrap()
            })
        });
        g.bench_function("valence_nbt", |b| {
            b.iter(|| valence_nbt::from_binary::<String>(&mut black_box(&named[..])).unwrap())
        });
        g.finish();
    }
}

fn write(c: &mut Criterion) {
    for w in workloads() {
        let data = w.data.as_slice();
        let variant = w.variant;
        let mut g = c.benchmark_group(format!("nbt/write/{}", w.name));
        g.throughput(Throughput::Bytes(data.len() as u64));
        let mut out = Vec::with_capacity(data.len() * 2);

        let nbt = Nbt::read(data, variant).unwrap();
        g.bench_function("flatforge_owned", |b| {
            b.iter(|| {
                out.clear();
                black_box(&nbt).write_to(variant, &mut out).unwrap();
            })
        });
        let doc = Document::parse(data, variant).unwrap();
        g.bench_function("flatforge_borrowed", |b| {
            b.iter(|| {
                out.clear();
                black_box(&doc).write_to(variant, &mut out).unwrap();
            })
        });
        #[cfg(feature = "simdnbt")]
        if variant.named_root() {
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
        } else {
            let borrowed = simdnbt::borrow::read_unnamed(&mut Cursor::new(data))
                .unwrap()
                .unwrap();
            g.bench_function("simdnbt_borrow", |b| {
                b.iter(|| {
                    out.clear();
                    out.push(10);
                    black_box(&borrowed).as_compound().write(&mut out);
                })
            });
            let owned = simdnbt::owned::read_unnamed(&mut Cursor::new(data)).unwrap();
            g.bench_function("simdnbt_owned", |b| {
                b.iter(|| {
                    out.clear();
                    black_box(&owned).write_unnamed(&mut out);
                })
            });
        }
        let (de, ser) = fastnbt_opts(variant);
        let value: fastnbt::Value = fastnbt::from_bytes_with_opts(data, de).unwrap();
        g.bench_function("fastnbt_value", |b| {
            b.iter(|| {
                out.clear();
                fastnbt::to_writer_with_opts(&mut out, black_box(&value), ser.clone()).unwrap();
            })
        });
        let (compound, name) = valence_nbt::from_binary::<String>(&mut &w.named()[..]).unwrap();
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
        let variant = w.variant;
        let named = w.named();
        let mut g = c.benchmark_group(format!("nbt/roundtrip/{}", w.name));
        g.throughput(Throughput::Bytes(data.len() as u64));
        let mut out = Vec::with_capacity(data.len() * 2);
        g.bench_function("flatforge_owned", |b| {
            b.iter(|| {
                out.clear();
                Nbt::read(black_box(data), variant)
                    .unwrap()
                    .write_to(variant, &mut out)
                    .unwrap();
            })
        });
        g.bench_function("flatforge_borrowed", |b| {
            b.iter(|| {
                out.clear();
                Document::parse(black_box(data), variant)
                    .unwrap()
                    .write_to(variant, &mut out)
                    .unwrap();
            })
        });
        #[cfg(feature = "simdnbt")]
        if variant.named_root() {
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
        } else {
            g.bench_function("simdnbt_borrow", |b| {
                b.iter(|| {
                    out.clear();
                    let nbt = simdnbt::borrow::read_unnamed(&mut Cursor::new(black_box(data)))
                        .unwrap()
                        .unwrap();
                    out.push(10);
                    nbt.as_compound().write(&mut out);
                })
            });
            g.bench_function("simdnbt_owned", |b| {
                b.iter(|| {
                    out.clear();
                    simdnbt::owned::read_unnamed(&mut Cursor::new(black_box(data)))
                        .unwrap()
                        .write_unnamed(&mut out);
                })
            });
        }
        let (de, ser) = fastnbt_opts(variant);
        g.bench_function("fastnbt_value", |b| {
            b.iter(|| {
                out.clear();
                let v: fastnbt::Value =
                    fastnbt::from_bytes_with_opts(black_box(data), de.clone()).unwrap();
                fastnbt::to_writer_with_opts(&mut out, &v, ser.clone()).unwrap();
            })
        });
        g.bench_function("valence_nbt", |b| {
            b.iter(|| {
                out.clear();
                let (compound, name) =
                    valence_nbt::from_binary::<String>(&mut black_box(&named[..])).unwrap();
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
