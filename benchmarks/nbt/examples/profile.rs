//! Runs one reader or writer on one workload in a loop, for instruction counts under
//! `valgrind --tool=callgrind`:
//!
//! `cargo build --release -p flatforge-bench-nbt --example profile` then
//! `valgrind --tool=callgrind target/release/examples/profile complex_player borrowed 1000`.
//!
//! Operations: `owned`, `borrowed` (reads), `write_owned`, `write_borrowed` (writes); with
//! `--features simdnbt` (nightly) also `simdnbt_borrow` and `simdnbt_write` (its owned writer).

use std::hint::black_box;

use flatforge_bench_nbt::workloads;
use flatforge_nbt::borrowed::Document;
use flatforge_nbt::{Nbt, Variant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, workload, op, n] = args.as_slice() else {
        eprintln!("usage: profile WORKLOAD owned|borrowed|write_owned|write_borrowed ITERATIONS");
        std::process::exit(2);
    };
    let n: usize = n.parse().expect("ITERATIONS is a number");
    let w = workloads()
        .into_iter()
        .find(|w| w.name == workload)
        .unwrap_or_else(|| panic!("unknown workload {workload}"));
    let data = w.data.as_slice();
    let mut out = Vec::with_capacity(data.len() * 2);
    let nbt = Nbt::read(data, Variant::Java).expect("valid workload");
    let doc = Document::parse(data, Variant::Java).expect("valid workload");
    #[cfg(feature = "simdnbt")]
    let simd_doc = simdnbt::owned::read(&mut std::io::Cursor::new(data)).unwrap();
    for _ in 0..n {
        match op.as_str() {
            "owned" => drop(black_box(
                Nbt::read(black_box(data), Variant::Java).unwrap(),
            )),
            "borrowed" => drop(black_box(
                Document::parse(black_box(data), Variant::Java).unwrap(),
            )),
            "write_owned" => {
                out.clear();
                black_box(&nbt).write_to(Variant::Java, &mut out).unwrap();
            }
            "write_borrowed" => {
                out.clear();
                black_box(&doc).write_to(Variant::Java, &mut out).unwrap();
            }
            #[cfg(feature = "simdnbt")]
            "simdnbt_borrow" => drop(black_box(
                simdnbt::borrow::read(&mut std::io::Cursor::new(black_box(data))).unwrap(),
            )),
            #[cfg(feature = "simdnbt")]
            "simdnbt_write" => {
                out.clear();
                black_box(&simd_doc).write(&mut out);
            }
            other => panic!("unknown operation {other}"),
        }
    }
    black_box(&out);
}
