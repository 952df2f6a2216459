//! The workload's JSON text is exactly what flatforge prints for the 344-byte flatbench buffer
//! (as Google's C++ builds it), and flatc's C++ printer prints the same but for float digits.

use flatforge_bench_peers::flatbench::{self as peers, cpp};
use flatforge_json::{Codec, PrintOptions};

#[test]
fn json_is_the_printed_flatbench_buffer() {
    let schema = flatforge_bench_json::schema();
    let codec = Codec::new(&schema);
    let root = codec
        .root_type(Some("benchmarks_flatbuffers.FooBarContainer"))
        .unwrap();
    let buf = peers::buffer();
    let mut printer = codec.printer(PrintOptions::default());
    let ours = printer.print(root, &buf).unwrap().to_string();
    if std::env::var_os("FLATFORGE_PRINT").is_some() {
        println!("{ours}");
    }
    assert_eq!(ours, flatforge_bench_json::JSON);
    let mut flatc = cpp::Json::new().unwrap();
    let theirs = flatc.print(&buf).unwrap();
    assert_eq!(ours.lines().count(), theirs.lines().count());
}
