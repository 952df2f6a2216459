//! Runs one benchmark of `benches/nbt.rs` (the same workload, operation and implementation, named as
//! there) in a loop, for instruction counts under `valgrind --tool=callgrind`:
//!
//! ```text
//! cargo +nightly build --release -p flatforge-bench-nbt --features simdnbt --example profile
//! valgrind --tool=callgrind target/release/examples/profile complex_player read flatforge_borrowed 1000
//! ```
//!
//! Run it with N+1 and with 1 iterations and subtract to get the instructions of one operation (the
//! setup, reading the workloads and preparing what the writers write, is the same in both runs):
//! `scripts/instructions` does that. With `--time` last it prints the time per operation of the fastest
//! of 200 batches, a wall-clock figure that resists the noise of a loaded machine better than a median;
//! several implementations separated by commas take turns batch by batch, to compare under the same
//! load: `profile complex_player read flatforge_borrowed,simdnbt_borrow 100000 --time`.
//!
//! Operations: `read`, `write`, `roundtrip`. Implementations: `flatforge_owned`, `flatforge_borrowed`,
//! `fastnbt_value`, `valence_nbt`, and with `--features simdnbt` (nightly) `simdnbt_borrow` and
//! `simdnbt_owned`.

use std::hint::black_box;
#[cfg(feature = "simdnbt")]
use std::io::Cursor;
use std::time::Instant;

use flatforge_bench_nbt::workloads;
use flatforge_nbt::borrowed::Document;
use flatforge_nbt::{Nbt, Variant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (timed, args) = match args.split_last() {
        Some((last, rest)) if last == "--time" => (true, rest),
        _ => (false, &args[..]),
    };
    let [_, workload, op, implementations, n] = args else {
        eprintln!(
            "usage: profile WORKLOAD read|write|roundtrip IMPLEMENTATION[,IMPLEMENTATION...] ITERATIONS [--time]"
        );
        std::process::exit(2);
    };
    let n: usize = n.parse().expect("ITERATIONS is a number");
    let w = workloads()
        .into_iter()
        .find(|w| w.name == workload)
        .unwrap_or_else(|| panic!("unknown workload {workload}"));
    let data = w.data.as_slice();
    let mut out = Vec::with_capacity(data.len() * 2);
    let mut runs: Vec<_> = implementations
        .split(',')
        .map(|implementation| {
            (
                implementation,
                runner(data, op, implementation),
                f64::INFINITY,
            )
        })
        .collect();
    // With --time, a wall-clock figure that resists a loaded machine: each implementation runs its
    // ITERATIONS in 200 batches, the implementations taking turns batch by batch (so that they see the
    // same load); the fastest batch of each is reported per operation. Without, one batch and no clock,
    // for instruction counts.
    let batch = if timed {
        n.div_ceil(200).max(1)
    } else {
        n.max(1)
    };
    let mut left = n;
    while left > 0 {
        let k = batch.min(left);
        for (_, run, best) in &mut runs {
            let start = Instant::now();
            for _ in 0..k {
                out.clear();
                run(&mut out);
            }
            *best = best.min(start.elapsed().as_nanos() as f64 / k as f64);
        }
        left -= k;
    }
    black_box(&out);
    if timed {
        for (implementation, _, best) in runs {
            eprintln!(
                "{workload} {op} {implementation}: {best:.1} ns per operation (fastest batch of {batch})"
            );
        }
    }
}

/// One benchmark: one operation, writing (if it writes) to the buffer it is given.
type Run<'a> = Box<dyn FnMut(&mut Vec<u8>) + 'a>;

/// The benchmark `op` of `implementation` on `data`.
fn runner<'a>(data: &'a [u8], op: &str, implementation: &str) -> Run<'a> {
    match (op, implementation) {
        ("read", "flatforge_owned") => Box::new(|_| {
            drop(black_box(
                Nbt::read(black_box(data), Variant::Java).unwrap(),
            ))
        }),
        ("read", "flatforge_borrowed") => Box::new(|_| {
            drop(black_box(
                Document::parse(black_box(data), Variant::Java).unwrap(),
            ))
        }),
        #[cfg(feature = "simdnbt")]
        ("read", "simdnbt_borrow") => Box::new(|_| {
            drop(black_box(
                simdnbt::borrow::read(&mut Cursor::new(black_box(data))).unwrap(),
            ))
        }),
        #[cfg(feature = "simdnbt")]
        ("read", "simdnbt_owned") => Box::new(|_| {
            drop(black_box(
                simdnbt::owned::read(&mut Cursor::new(black_box(data))).unwrap(),
            ))
        }),
        ("read", "fastnbt_value") => Box::new(|_| {
            drop(black_box(
                fastnbt::from_bytes::<fastnbt::Value>(black_box(data)).unwrap(),
            ))
        }),
        ("read", "valence_nbt") => Box::new(|_| {
            drop(black_box(
                valence_nbt::from_binary::<String>(&mut black_box(data)).unwrap(),
            ))
        }),
        ("write", "flatforge_owned") => {
            let nbt = Nbt::read(data, Variant::Java).unwrap();
            Box::new(move |out| black_box(&nbt).write_to(Variant::Java, out).unwrap())
        }
        ("write", "flatforge_borrowed") => {
            let doc = Document::parse(data, Variant::Java).unwrap();
            Box::new(move |out| black_box(&doc).write_to(Variant::Java, out).unwrap())
        }
        #[cfg(feature = "simdnbt")]
        ("write", "simdnbt_borrow") => {
            let nbt = simdnbt::borrow::read(&mut Cursor::new(data)).unwrap();
            Box::new(move |out| black_box(&nbt).write(out))
        }
        #[cfg(feature = "simdnbt")]
        ("write", "simdnbt_owned") => {
            let nbt = simdnbt::owned::read(&mut Cursor::new(data)).unwrap();
            Box::new(move |out| black_box(&nbt).write(out))
        }
        ("write", "fastnbt_value") => {
            let value: fastnbt::Value = fastnbt::from_bytes(data).unwrap();
            Box::new(move |out| fastnbt::to_writer(out, black_box(&value)).unwrap())
        }
        ("write", "valence_nbt") => {
            let (compound, name) = valence_nbt::from_binary::<String>(&mut &data[..]).unwrap();
            Box::new(move |out| valence_nbt::to_binary(black_box(&compound), out, &name).unwrap())
        }
        ("roundtrip", "flatforge_owned") => Box::new(|out| {
            Nbt::read(black_box(data), Variant::Java)
                .unwrap()
                .write_to(Variant::Java, out)
                .unwrap()
        }),
        ("roundtrip", "flatforge_borrowed") => Box::new(|out| {
            Document::parse(black_box(data), Variant::Java)
                .unwrap()
                .write_to(Variant::Java, out)
                .unwrap()
        }),
        #[cfg(feature = "simdnbt")]
        ("roundtrip", "simdnbt_borrow") => Box::new(|out| {
            simdnbt::borrow::read(&mut Cursor::new(black_box(data)))
                .unwrap()
                .write(out)
        }),
        #[cfg(feature = "simdnbt")]
        ("roundtrip", "simdnbt_owned") => Box::new(|out| {
            simdnbt::owned::read(&mut Cursor::new(black_box(data)))
                .unwrap()
                .write(out)
        }),
        ("roundtrip", "fastnbt_value") => Box::new(|out| {
            let v: fastnbt::Value = fastnbt::from_bytes(black_box(data)).unwrap();
            fastnbt::to_writer(out, &v).unwrap();
        }),
        ("roundtrip", "valence_nbt") => Box::new(|out| {
            let (compound, name) =
                valence_nbt::from_binary::<String>(&mut black_box(data)).unwrap();
            valence_nbt::to_binary(&compound, out, &name).unwrap();
        }),
        (op, implementation) => panic!("unknown benchmark {op} {implementation}"),
    }
}
