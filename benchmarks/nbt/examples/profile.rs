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
//! `simdnbt_owned`. Workloads: those of the library, `dotnet_*` among them (read as network NBT as in
//! the benches; valence_nbt with an empty root name).

use std::hint::black_box;
#[cfg(feature = "simdnbt")]
use std::io::Cursor;
use std::time::Instant;

use fastnbt::{DeOpts, SerOpts};
use flatforge_bench_nbt::{workloads, Workload};
use flatforge_nbt::borrowed::Document;
use flatforge_nbt::Nbt;

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
    let named = w.named();
    let mut out = Vec::with_capacity(w.data.len() * 2);
    let mut runs: Vec<_> = implementations
        .split(',')
        .map(|implementation| {
            (
                implementation,
                runner(&w, &named, op, implementation),
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

/// The benchmark `op` of `implementation` on workload `w` (`named`: its tag with a root name, for
/// valence_nbt).
fn runner<'a>(w: &'a Workload, named: &'a [u8], op: &str, implementation: &str) -> Run<'a> {
    let data = w.data.as_slice();
    let variant = w.variant;
    let network = !variant.named_root();
    let (de, ser) = if network {
        (DeOpts::network_nbt(), SerOpts::network_nbt())
    } else {
        (DeOpts::new(), SerOpts::new())
    };
    match (op, implementation) {
        ("read", "flatforge_owned") => {
            Box::new(move |_| drop(black_box(Nbt::read(black_box(data), variant).unwrap())))
        }
        ("read", "flatforge_borrowed") => Box::new(move |_| {
            drop(black_box(
                Document::parse(black_box(data), variant).unwrap(),
            ))
        }),
        #[cfg(feature = "simdnbt")]
        ("read", "simdnbt_borrow") if network => Box::new(|_| {
            drop(black_box(
                simdnbt::borrow::read_unnamed(&mut Cursor::new(black_box(data))).unwrap(),
            ))
        }),
        #[cfg(feature = "simdnbt")]
        ("read", "simdnbt_borrow") => Box::new(|_| {
            drop(black_box(
                simdnbt::borrow::read(&mut Cursor::new(black_box(data))).unwrap(),
            ))
        }),
        #[cfg(feature = "simdnbt")]
        ("read", "simdnbt_owned") if network => Box::new(|_| {
            drop(black_box(
                simdnbt::owned::read_unnamed(&mut Cursor::new(black_box(data))).unwrap(),
            ))
        }),
        #[cfg(feature = "simdnbt")]
        ("read", "simdnbt_owned") => Box::new(|_| {
            drop(black_box(
                simdnbt::owned::read(&mut Cursor::new(black_box(data))).unwrap(),
            ))
        }),
        ("read", "fastnbt_value") => Box::new(move |_| {
            drop(black_box(
                fastnbt::from_bytes_with_opts::<fastnbt::Value>(black_box(data), de.clone())
                    .unwrap(),
            ))
        }),
        ("read", "valence_nbt") => Box::new(|_| {
            drop(black_box(
                valence_nbt::from_binary::<String>(&mut black_box(named)).unwrap(),
            ))
        }),
        ("write", "flatforge_owned") => {
            let nbt = Nbt::read(data, variant).unwrap();
            Box::new(move |out| black_box(&nbt).write_to(variant, out).unwrap())
        }
        ("write", "flatforge_borrowed") => {
            let doc = Document::parse(data, variant).unwrap();
            Box::new(move |out| black_box(&doc).write_to(variant, out).unwrap())
        }
        #[cfg(feature = "simdnbt")]
        ("write", "simdnbt_borrow") if network => {
            let nbt = simdnbt::borrow::read_unnamed(&mut Cursor::new(data))
                .unwrap()
                .unwrap();
            Box::new(move |out| {
                out.push(10);
                black_box(&nbt).as_compound().write(out)
            })
        }
        #[cfg(feature = "simdnbt")]
        ("write", "simdnbt_borrow") => {
            let nbt = simdnbt::borrow::read(&mut Cursor::new(data)).unwrap();
            Box::new(move |out| black_box(&nbt).write(out))
        }
        #[cfg(feature = "simdnbt")]
        ("write", "simdnbt_owned") if network => {
            let nbt = simdnbt::owned::read_unnamed(&mut Cursor::new(data)).unwrap();
            Box::new(move |out| black_box(&nbt).write_unnamed(out))
        }
        #[cfg(feature = "simdnbt")]
        ("write", "simdnbt_owned") => {
            let nbt = simdnbt::owned::read(&mut Cursor::new(data)).unwrap();
            Box::new(move |out| black_box(&nbt).write(out))
        }
        ("write", "fastnbt_value") => {
            let value: fastnbt::Value = fastnbt::from_bytes_with_opts(data, de).unwrap();
            Box::new(move |out| {
                fastnbt::to_writer_with_opts(out, black_box(&value), ser.clone()).unwrap()
            })
        }
        ("write", "valence_nbt") => {
            let (compound, name) = valence_nbt::from_binary::<String>(&mut &named[..]).unwrap();
            Box::new(move |out| valence_nbt::to_binary(black_box(&compound), out, &name).unwrap())
        }
        ("roundtrip", "flatforge_owned") => Box::new(move |out| {
            Nbt::read(black_box(data), variant)
                .unwrap()
                .write_to(variant, out)
                .unwrap()
        }),
        ("roundtrip", "flatforge_borrowed") => Box::new(move |out| {
            Document::parse(black_box(data), variant)
                .unwrap()
                .write_to(variant, out)
                .unwrap()
        }),
        #[cfg(feature = "simdnbt")]
        ("roundtrip", "simdnbt_borrow") if network => Box::new(|out| {
            let nbt = simdnbt::borrow::read_unnamed(&mut Cursor::new(black_box(data)))
                .unwrap()
                .unwrap();
            out.push(10);
            nbt.as_compound().write(out)
        }),
        #[cfg(feature = "simdnbt")]
        ("roundtrip", "simdnbt_borrow") => Box::new(|out| {
            simdnbt::borrow::read(&mut Cursor::new(black_box(data)))
                .unwrap()
                .write(out)
        }),
        #[cfg(feature = "simdnbt")]
        ("roundtrip", "simdnbt_owned") if network => Box::new(|out| {
            simdnbt::owned::read_unnamed(&mut Cursor::new(black_box(data)))
                .unwrap()
                .write_unnamed(out)
        }),
        #[cfg(feature = "simdnbt")]
        ("roundtrip", "simdnbt_owned") => Box::new(|out| {
            simdnbt::owned::read(&mut Cursor::new(black_box(data)))
                .unwrap()
                .write(out)
        }),
        ("roundtrip", "fastnbt_value") => Box::new(move |out| {
            let v: fastnbt::Value =
                fastnbt::from_bytes_with_opts(black_box(data), de.clone()).unwrap();
            fastnbt::to_writer_with_opts(out, &v, ser.clone()).unwrap();
        }),
        ("roundtrip", "valence_nbt") => Box::new(|out| {
            let (compound, name) =
                valence_nbt::from_binary::<String>(&mut black_box(named)).unwrap();
            valence_nbt::to_binary(&compound, out, &name).unwrap();
        }),
        (op, implementation) => panic!("unknown benchmark {op} {implementation}"),
    }
}
