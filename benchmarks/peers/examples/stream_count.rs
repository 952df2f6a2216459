//! Runs one stream operation of WORKLOADS.md §4 N times, for instruction counts with callgrind
//! (stable on a noisy machine, unlike timings): the count of N+1 runs minus the count of 1 run,
//! divided by N, is the cost of one operation (divide by the event count for one message).
//!
//! ```text
//! cargo build --release -p flatforge-bench-peers --example stream_count
//! B=target/release/examples/stream_count
//! for n in 1 1001; do valgrind --tool=callgrind --callgrind-out-file=/dev/null $B write 100 none $n; done
//! ```
//!
//! Arguments: `write` or `read` (flatforge, as the `flatforge` function of `benches/streams.rs`
//! runs it), `frames` (deframe and count, as `streams/frames_*`) or `write_vectors` (events as
//! 24-byte vectors, as `streams/write_vectors_*`), or `baseline_write` / `baseline_read` (the
//! official-crate baseline); the event count
//! (`100`, `1000`, or `large` for 50 events of 4 KiB); the checksum (`none`, `xxh3`, `crc32c`); the
//! iterations. Prints a digest of the results (so nothing is optimized away) and the wall time per
//! operation.

use flatforge_bench_peers::flatforge_streams;
use flatforge_bench_peers::streams::{baseline, Checksum, Summary};
use std::hint::black_box;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [op, count, checksum, n] = &args[..] else {
        eprintln!("usage: stream_count write|read|baseline_write|baseline_read 100|1000|large none|xxh3|crc32c ITERATIONS");
        std::process::exit(2);
    };
    let (count, large) = match count.as_str() {
        "large" => (50, true),
        c => (c.parse().expect("an event count"), false),
    };
    let checksum = match checksum.as_str() {
        "none" => Checksum::None,
        "xxh3" => Checksum::Xxh3,
        "crc32c" => Checksum::Crc32c,
        other => panic!("unknown checksum {other}"),
    };
    let n: u64 = n.parse().expect("an iteration count");
    let expected = Summary::expected(count, large);

    let mut ours = flatforge_streams::Writer::new(checksum);
    let ours_stream = ours.write_events(count, large).to_vec();
    assert_eq!(
        flatforge_streams::read_events(&ours_stream).unwrap(),
        expected
    );
    let mut theirs = baseline::Writer::new(checksum);
    let mut theirs_stream = Vec::new();
    theirs.write_events(&mut theirs_stream, count, large);
    assert_eq!(
        baseline::read_events(&theirs_stream, checksum).unwrap(),
        expected
    );

    let mut digest = 0u64;
    let start = std::time::Instant::now();
    for _ in 0..n {
        digest = digest.wrapping_add(match op.as_str() {
            "write" => black_box(ours.write_events(count, large)).len() as u64,
            "read" => {
                let s = flatforge_streams::read_events(black_box(&ours_stream)).unwrap();
                s.device_ids
            }
            "write_vectors" => black_box(ours.write_vector_events(count)).len() as u64,
            "frames" => flatforge_streams::count_frames(black_box(&ours_stream)).unwrap(),
            "baseline_write" => {
                theirs.write_events(&mut theirs_stream, count, large);
                black_box(&theirs_stream).len() as u64
            }
            "baseline_read" => {
                let s = baseline::read_events(black_box(&theirs_stream), checksum).unwrap();
                s.device_ids
            }
            other => panic!("unknown operation {other}"),
        });
    }
    let per_op = start.elapsed().as_nanos() as f64 / n.max(1) as f64;
    println!("{digest} {per_op:.0} ns per operation");
}
