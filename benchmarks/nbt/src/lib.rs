//! The NBT workloads of WORKLOADS.md §5 as uncompressed Java-edition bytes, shared by the benches and by
//! the tests that check every library reads them.
#![deny(missing_docs)]

use flatforge_nbt::{decompress, Compound, Nbt, Tag, Variant};

/// One workload: a name and its uncompressed Java NBT.
pub struct Workload {
    /// Short name used in benchmark ids.
    pub name: &'static str,
    /// Uncompressed Java-edition NBT.
    pub data: Vec<u8>,
}

fn file(name: &str) -> Vec<u8> {
    let raw = std::fs::read(flatforge_testkit::testdata(&format!("nbt/{name}")))
        .unwrap_or_else(|e| panic!("reading {name}: {e}"));
    decompress(&raw).expect("decompress").0.into_owned()
}

/// A root compound with compounds nested `depth` levels deep, each holding an int and a string.
///
/// ```
/// let bytes = flatforge_bench_nbt::nested(100);
/// assert!(flatforge_nbt::Nbt::read(&bytes, flatforge_nbt::Variant::Java).is_ok());
/// ```
pub fn nested(depth: usize) -> Vec<u8> {
    let mut tag = Compound::new();
    tag.insert("leaf", 1i32);
    for level in (1..depth).rev() {
        let mut c = Compound::new();
        c.insert("level", level as i32);
        c.insert("name", format!("level {level}"));
        c.insert("child", tag);
        tag = c;
    }
    Nbt::new("", tag).to_vec(Variant::Java).expect("encodable")
}

/// A root compound holding one int array of `n` elements.
///
/// ```
/// let bytes = flatforge_bench_nbt::int_array(10);
/// assert_eq!(bytes.len(), 3 + 7 + 4 + 40 + 1); // root header, entry header, length, ints, End
/// ```
pub fn int_array(n: usize) -> Vec<u8> {
    let mut c = Compound::new();
    c.insert(
        "data",
        Tag::IntArray(
            (0..n as i32)
                .map(|i| i.wrapping_mul(2_654_435_761u32 as i32))
                .collect(),
        ),
    );
    Nbt::new("", c).to_vec(Variant::Java).expect("encodable")
}

/// All workloads: hello_world, a compound nested 100 levels deep, complex_player.dat (decompressed), an
/// int array of 1,000,000 elements and inttest1023.
///
/// ```
/// assert_eq!(flatforge_bench_nbt::workloads().len(), 5);
/// ```
pub fn workloads() -> Vec<Workload> {
    vec![
        Workload {
            name: "hello_world",
            data: file("hello_world.nbt"),
        },
        Workload {
            name: "nested_100",
            data: nested(100),
        },
        Workload {
            name: "complex_player",
            data: file("complex_player.dat"),
        },
        Workload {
            name: "int_array_1m",
            data: int_array(1_000_000),
        },
        Workload {
            name: "inttest1023",
            data: file("inttest1023.nbt"),
        },
    ]
}
