//! Runs one workload many times, for instruction counting:
//! `valgrind --tool=callgrind target/release/examples/count build_simple ours 10000`.

use std::hint::black_box;

use flatbuffers::FlatBufferBuilder;
use flatforge::Builder;
use flatforge_bench_runtime::{official, ours};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (workload, side) = (args[1].as_str(), args[2].as_str());
    let n: usize = args[3].parse().unwrap();
    let mut b = Builder::new();
    let simple = ours::build_simple(&mut b).unwrap().to_vec();
    for _ in 0..n {
        match (workload, side) {
            ("build_simple", "ours") => {
                black_box(
                    ours::build_simple(&mut Builder::with_capacity(256))
                        .unwrap()
                        .len(),
                );
            }
            ("build_simple", "official") => {
                black_box(official::build_simple(&mut FlatBufferBuilder::with_capacity(256)).len());
            }
            ("build_bytes", "ours") => {
                black_box(
                    ours::build_byte_vector(&mut Builder::with_capacity(256))
                        .unwrap()
                        .len(),
                );
            }
            ("build_bytes", "official") => {
                let mut fb = FlatBufferBuilder::with_capacity(256);
                black_box(official::build_byte_vector(&mut fb).len());
            }
            ("build_shared", "ours") => {
                let mut fb = Builder::with_capacity(256);
                black_box(ours::build_shared_strings(&mut fb).unwrap().len());
            }
            ("build_shared", "official") => {
                let mut fb = FlatBufferBuilder::with_capacity(256);
                black_box(official::build_shared_strings(&mut fb).len());
            }
            ("build_strings", "ours") => {
                let mut fb = Builder::with_capacity(256);
                black_box(ours::build_string_vector(&mut fb).unwrap().len());
            }
            ("build_strings", "official") => {
                let mut fb = FlatBufferBuilder::with_capacity(256);
                black_box(official::build_string_vector(&mut fb).len());
            }
            ("build_nested", "ours") => {
                black_box(
                    ours::build_nested(&mut Builder::with_capacity(256))
                        .unwrap()
                        .len(),
                );
            }
            ("build_nested", "official") => {
                let mut fb = FlatBufferBuilder::with_capacity(256);
                black_box(official::build_nested(&mut fb).len());
            }
            ("verify", "ours") => {
                black_box(ours::verify_simple(black_box(&simple)).is_ok());
            }
            ("verify", "official") => {
                black_box(official::verify_simple(black_box(&simple)).is_ok());
            }
            _ => {
                panic!("usage: count build_simple|build_strings|build_bytes|build_shared|build_nested|verify ours|official N")
            }
        }
    }
}
