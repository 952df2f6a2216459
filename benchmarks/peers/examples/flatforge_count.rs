//! Runs one flatbench or objectbox operation N times, for instruction counts with callgrind (stable
//! on a noisy machine, unlike timings): the count of N+1 runs minus the count of 1 run, divided by
//! N, is the cost of one operation.
//!
//! ```text
//! cargo build --release -p flatforge-bench-peers --example flatforge_count
//! B=target/release/examples/flatforge_count
//! for n in 1 10001; do valgrind --tool=callgrind --callgrind-out-file=/dev/null $B encode_flatforge $n; done
//! ```
//!
//! Operations: `{encode,traverse,verify,verify_traverse}_{flatforge,official,planus}` (planus has
//! no separate verify; its traverse checks as it reads), `{encode,verify}_cpp`, and
//! `{write,read}_{flatforge,official}` for the ObjectBox workload (with bytes). Prints the wrapping
//! sum of the results (so nothing is optimized away) and the wall time per operation.

use flatforge_bench_peers::flatbench::{self, cpp, official, planus};
use flatforge_bench_peers::flatforge_gen::{flatbench as ours, objectbox as ours_ob};
use flatforge_bench_peers::objectbox::{self, Variant};
use std::hint::black_box;

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(op), Some(n)) = (args.next(), args.next().and_then(|n| n.parse::<u64>().ok())) else {
        eprintln!("usage: flatforge_count OPERATION ITERATIONS");
        std::process::exit(2);
    };
    let buf = flatbench::buffer();
    let ob = objectbox::official::Writer::new()
        .write(Variant::WithBytes)
        .to_vec();
    let mut ours_enc = ours::Encoder::new();
    let mut planus_enc = planus::Encoder::new();
    let mut official_enc = official::Encoder::new();
    let mut cpp_enc = cpp::Encoder::new();
    let mut ours_w = ours_ob::Writer::new();
    let mut official_w = objectbox::official::Writer::new();
    let mut sum = 0i64;
    let start = std::time::Instant::now();
    // C++ operations whose loop runs inside C++ (as criterion times them): one call for all N.
    let cpp_loop = match op.as_str() {
        "traverse_cpp" => Some(cpp::time_traverse(&buf, n).expect("the buffer verifies")),
        "verify_traverse_cpp" => Some(cpp::time_verify_traverse(&buf, n)),
        _ => None,
    };
    if cpp_loop.is_some() {
        let per_op = start.elapsed().as_nanos() as f64 / n.max(1) as f64;
        println!("{op}: {per_op:.1} ns per operation");
        return;
    }
    for _ in 0..n {
        let buf = black_box(buf.as_slice());
        let v: i64 = match op.as_str() {
            "encode_flatforge" => ours_enc.encode().len() as i64,
            "encode_planus" => planus_enc.encode().len() as i64,
            "encode_official" => official_enc.encode().len() as i64,
            "encode_cpp" => cpp_enc.encode().len() as i64,
            // SAFETY: the flatbench buffer is verified by the tests (and by verify_flatforge).
            "traverse_flatforge" => unsafe { ours::traverse(buf) },
            // SAFETY: as above.
            "traverse_official" => unsafe { official::traverse(buf) },
            "traverse_planus" => planus::traverse(buf).unwrap_or(0),
            "verify_flatforge" => i64::from(ours::verify(buf).is_ok()),
            "verify_official" => i64::from(official::verify(buf).is_ok()),
            "verify_cpp" => i64::from(cpp::verify(buf)),
            "verify_traverse_flatforge" => ours::verify_traverse(buf).unwrap_or(0),
            "verify_traverse_official" => official::verify_traverse(buf).unwrap_or(0),
            "write_flatforge" => ours_w.write(Variant::WithBytes).len() as i64,
            "write_official" => official_w.write(Variant::WithBytes).len() as i64,
            "read_flatforge" => ours_ob::read_verified(black_box(&ob)).map_or(0, |e| e.id),
            "read_official" => {
                objectbox::official::read_verified(black_box(&ob)).map_or(0, |e| e.id)
            }
            other => {
                eprintln!("unknown operation `{other}`");
                std::process::exit(2);
            }
        };
        sum = sum.wrapping_add(black_box(v));
    }
    let per_op = start.elapsed().as_nanos() as f64 / n.max(1) as f64;
    println!("{op}: sum {sum}, {per_op:.1} ns per operation");
}
