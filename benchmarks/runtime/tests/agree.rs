//! Both implementations of each workload build buffers that the other one verifies and reads the
//! same way, so the benchmarks compare equal work.

use flatbuffers::FlatBufferBuilder;
use flatforge::Builder;
use flatforge_bench_runtime::{official, ours};

#[test]
fn simple_table() {
    let mut b = Builder::new();
    let a = ours::build_simple(&mut b).unwrap().to_vec();
    let mut fb = FlatBufferBuilder::new();
    let o = official::build_simple(&mut fb).to_vec();
    for buf in [&a, &o] {
        ours::verify_simple(buf).unwrap();
        official::verify_simple(buf).unwrap();
        assert_eq!(ours::read_simple(buf), 8 + 100 + 50);
        assert_eq!(official::read_simple(buf), 8 + 100 + 50);
    }
}

#[test]
fn byte_vector() {
    let mut b = Builder::new();
    let a = ours::build_byte_vector(&mut b).unwrap().to_vec();
    let mut fb = FlatBufferBuilder::new();
    let o = official::build_byte_vector(&mut fb).to_vec();
    for buf in [&a, &o] {
        flatforge::root::<ours::Bytes>(buf).unwrap();
        assert_eq!(ours::read_bytes_each(buf), 0x42 * 100);
        assert_eq!(ours::read_bytes_slice(buf), 0x42 * 100);
        assert_eq!(official::read_bytes_each(buf), 0x42 * 100);
        assert_eq!(official::read_bytes_slice(buf), 0x42 * 100);
    }
}

#[test]
fn nested_table() {
    let mut b = Builder::new();
    let a = ours::build_nested(&mut b).unwrap().to_vec();
    let mut fb = FlatBufferBuilder::new();
    let o = official::build_nested(&mut fb).to_vec();
    for buf in [&a, &o] {
        flatforge::root::<ours::Outer>(buf).unwrap();
        assert_eq!(ours::read_nested(buf), 9 + 9 + 50);
        assert_eq!(official::read_nested(buf), 9 + 9 + 50);
    }
}

#[test]
fn string_vector_and_shared_strings() {
    let mut b = Builder::new();
    let a = ours::build_string_vector(&mut b).unwrap().to_vec();
    let mut fb = FlatBufferBuilder::new();
    let o = official::build_string_vector(&mut fb).to_vec();
    for buf in [&a, &o] {
        let t: flatforge::Table = flatforge::root(buf).unwrap();
        let v = t.get::<flatforge::Vector<&str>>(0).unwrap().unwrap();
        assert_eq!(v.iter().collect::<Vec<_>>(), ["Item1", "Item2", "Item3"]);
    }
    let mut b = Builder::new();
    let a = ours::build_shared_strings(&mut b).unwrap().to_vec();
    let mut fb = FlatBufferBuilder::new();
    let o = official::build_shared_strings(&mut fb).to_vec();
    assert_eq!(a.len(), o.len(), "both deduplicate the shared string");
    for buf in [&a, &o] {
        let t: flatforge::Table = flatforge::root(buf).unwrap();
        let names: Vec<_> = (0..4).map(|s| t.get::<&str>(s).unwrap().unwrap()).collect();
        assert_eq!(
            names,
            [
                "SharedString",
                "SharedString",
                "SharedString",
                "DifferentString"
            ]
        );
    }
}
