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
//! Operations: `{encode,traverse,verify,verify_traverse}_{flatforge,official,planus,cpp}` (planus
//! has no separate verify; its traverse checks as it reads), `traverse_flatforge_as_cpp` (the
//! generated views under the C++ reader's assumptions: fields present, truncating float casts),
//! and for the ObjectBox workload (with bytes) `{write,read,read_unchecked}_{flatforge,official}`,
//! `read_unchecked_planus` (which checks as it reads) and `read_unchecked_cpp`. Prints the wrapping
//! sum of the results (so nothing is optimized away) and the wall time per operation.
//!
//! The operation is chosen once; each runs in a loop of its own, with the input and the result
//! passed through `black_box`, as criterion runs it (readers return every field they read, so none
//! is optimized away). The C++ traverse, verify, verify+traverse and
//! read run their loops inside C++ (as the benches time them), so no FFI call is counted.

use flatforge_bench_peers::flatbench::{self, cpp, official, planus};
use flatforge_bench_peers::flatforge_gen::{flatbench as ours, objectbox as ours_ob};
use flatforge_bench_peers::objectbox::{self, Variant};
use std::hint::black_box;

/// Runs `f` on `buf` `n` times and returns the wrapping sum of its results.
#[inline(always)]
fn run(n: u64, buf: &[u8], mut f: impl FnMut(&[u8]) -> i64) -> i64 {
    let mut sum = 0i64;
    for _ in 0..n {
        sum = sum.wrapping_add(black_box(f(black_box(buf))));
    }
    sum
}

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
    let start = std::time::Instant::now();
    // C++ operations whose loop runs inside C++ (as criterion times them): one call for all N.
    let cpp_loop = match op.as_str() {
        "traverse_cpp" => Some(cpp::time_traverse(&buf, n).is_ok()),
        "verify_cpp" => Some(cpp::time_verify(&buf, n) > std::time::Duration::ZERO),
        "verify_traverse_cpp" => {
            Some(cpp::time_verify_traverse(&buf, n) > std::time::Duration::ZERO)
        }
        "read_unchecked_cpp" => Some(objectbox::cpp::time_read(&ob, n).is_ok()),
        _ => None,
    };
    if let Some(ok) = cpp_loop {
        let per_op = start.elapsed().as_nanos() as f64 / n.max(1) as f64;
        println!("{op}: ok {ok}, {per_op:.1} ns per operation");
        return;
    }
    let sum = match op.as_str() {
        "encode_flatforge" => run(n, &buf, |_| ours_enc.encode().len() as i64),
        "encode_planus" => run(n, &buf, |_| planus_enc.encode().len() as i64),
        "encode_official" => run(n, &buf, |_| official_enc.encode().len() as i64),
        "encode_cpp" => run(n, &buf, |_| cpp_enc.encode().len() as i64),
        // SAFETY: the flatbench buffer is verified by the tests (and by verify_flatforge).
        "traverse_flatforge" => run(n, &buf, |b| unsafe { ours::traverse(b) }),
        // SAFETY: as above; the flatbench buffer has every field.
        #[cfg(target_arch = "x86_64")]
        "traverse_flatforge_as_cpp" => run(n, &buf, |b| unsafe { ours::traverse_as_cpp(b) }),
        // SAFETY: as above.
        "traverse_official" => run(n, &buf, |b| unsafe { official::traverse(b) }),
        "traverse_planus" => run(n, &buf, |b| planus::traverse(b).unwrap_or(0)),
        "verify_flatforge" => run(n, &buf, |b| i64::from(ours::verify(b).is_ok())),
        "verify_official" => run(n, &buf, |b| i64::from(official::verify(b).is_ok())),
        "verify_traverse_flatforge" => run(n, &buf, |b| ours::verify_traverse(b).unwrap_or(0)),
        "verify_traverse_official" => run(n, &buf, |b| official::verify_traverse(b).unwrap_or(0)),
        "write_flatforge" => run(n, &buf, |_| ours_w.write(Variant::WithBytes).len() as i64),
        "write_official" => run(n, &buf, |_| {
            official_w.write(Variant::WithBytes).len() as i64
        }),
        "read_flatforge" => run(n, &ob, |b| {
            black_box(ours_ob::read_verified(b)).map_or(0, |e| e.id)
        }),
        "read_official" => run(n, &ob, |b| {
            black_box(objectbox::official::read_verified(b)).map_or(0, |e| e.id)
        }),
        // SAFETY: the objectbox buffer is verified by the tests (and by read_flatforge).
        "read_unchecked_flatforge" => run(n, &ob, |b| black_box(unsafe { ours_ob::read(b) }).id),
        "read_unchecked_official" => run(n, &ob, |b| {
            // SAFETY: as above.
            black_box(unsafe { objectbox::official::read(b) }).id
        }),
        "read_unchecked_planus" => run(n, &ob, |b| {
            black_box(objectbox::planus::read(b)).map_or(0, |e| e.id)
        }),
        other => {
            eprintln!("unknown operation `{other}`");
            std::process::exit(2);
        }
    };
    let per_op = start.elapsed().as_nanos() as f64 / n.max(1) as f64;
    println!("{op}: sum {sum}, {per_op:.1} ns per operation");
}
