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

/// A little-endian `u32`/`i32`/`u16` at `at`.
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes(b[at..at + 2].try_into().unwrap())
}

#[test]
fn simple_table_json_is_the_mbt_table_and_prints_back() {
    let schema = flatforge_bench_json::simple_table_schema();
    let codec = Codec::new(&schema);
    let root = codec.root_type(None).unwrap();
    let text = flatforge_bench_json::SIMPLE_TABLE_JSON;
    let buf = codec
        .parser(Default::default())
        .parse(root, text.as_bytes())
        .unwrap()
        .to_vec();
    // Slot k is vtable field k: 0 the string, 1 the int, 2 the short.
    let table = u32_at(&buf, 0) as usize;
    let vtable = (table as i64 - i64::from(u32_at(&buf, table) as i32)) as usize;
    let field = |slot: usize| table + usize::from(u16_at(&buf, vtable + 4 + 2 * slot));
    let name = field(0) + u32_at(&buf, field(0)) as usize;
    let len = u32_at(&buf, name) as usize;
    assert_eq!(&buf[name + 4..name + 4 + len], b"TestName");
    assert_eq!(u32_at(&buf, field(1)) as i32, 100);
    assert_eq!(u16_at(&buf, field(2)) as i16, 50);
    let mut printer = codec.printer(PrintOptions::default());
    assert_eq!(printer.print(root, &buf).unwrap(), text);
}
