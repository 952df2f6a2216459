//! The NBT workloads of WORKLOADS.md §5 as uncompressed Java-edition bytes, shared by the benches and by
//! the tests that check every library reads them.
//!
//! Besides the files and generated tags WORKLOADS.md names, the `dotnet_*` workloads are the four tags of
//! the .NET benchmark whose figures WORKLOADS.md quotes (CoPokBl/NBT, `Benchmarks/NbtBenchmarks.cs`,
//! BenchmarkDotNet on .NET 8), rebuilt here with the same structure, names, types, sizes and values (see
//! [`dotnet_simple`], [`dotnet_complex`], [`dotnet_deeply_nested`], [`dotnet_large_array`]). That benchmark
//! serializes each with `CompoundTag.Serialise()` on a root compound whose name is null, which writes the
//! type byte and no root name: Java network NBT ([`Variant::JavaNetwork`]), uncompressed. Its reads are
//! `NbtReader.ReadNbt(bytes)` with the defaults (no compression, no implied root) and build a tree of tag
//! objects with decoded strings; its writes build a new byte array; its round trips write, then read.
#![deny(missing_docs)]

use flatforge_nbt::{decompress, Compound, List, Nbt, Tag, Variant};

/// One workload: a name and its uncompressed NBT.
pub struct Workload {
    /// Short name used in benchmark ids.
    pub name: &'static str,
    /// Uncompressed NBT in [`Workload::variant`].
    pub data: Vec<u8>,
    /// [`Variant::Java`] (a named root, as in files) or [`Variant::JavaNetwork`] (no root name, as the
    /// .NET benchmark writes its tags).
    pub variant: Variant,
}

impl Workload {
    /// The workload's tag with a root name, for readers that have no mode for a nameless root
    /// (valence_nbt): `data` itself for Java workloads; for network ones, `data` with an empty root name
    /// (two zero bytes) after the type byte.
    ///
    /// ```
    /// let w = flatforge_bench_nbt::workloads()
    ///     .into_iter()
    ///     .find(|w| w.name == "dotnet_simple")
    ///     .unwrap();
    /// let named = w.named();
    /// assert_eq!(named.len(), w.data.len() + 2);
    /// let a = flatforge_nbt::Nbt::read(&named, flatforge_nbt::Variant::Java).unwrap();
    /// let b = flatforge_nbt::Nbt::read(&w.data, w.variant).unwrap();
    /// assert_eq!(a, b);
    /// ```
    pub fn named(&self) -> Vec<u8> {
        match self.variant {
            Variant::JavaNetwork => {
                let mut named = Vec::with_capacity(self.data.len() + 2);
                named.push(self.data[0]);
                named.extend_from_slice(&[0, 0]);
                named.extend_from_slice(&self.data[1..]);
                named
            }
            _ => self.data.clone(),
        }
    }
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

/// The .NET benchmark's simple tag (`_simpleTag`): a nameless root compound of a string, an int, a
/// boolean (a Byte, 1) and a double.
///
/// ```
/// let c = flatforge_bench_nbt::dotnet_simple();
/// assert_eq!(c["score"], flatforge_nbt::Tag::Double(98.5));
/// ```
pub fn dotnet_simple() -> Compound {
    let mut c = Compound::new();
    c.push("name", "Test");
    c.push("age", 30i32);
    c.push("active", Tag::Byte(1));
    c.push("score", 98.5f64);
    c
}

/// The .NET benchmark's complex tag (`_complexTag`): a string, an int, a list of five ints, a compound of
/// two strings and an int, and a byte array of 1 to 10.
///
/// ```
/// let c = flatforge_bench_nbt::dotnet_complex();
/// assert_eq!(c["byteArray"], flatforge_nbt::Tag::ByteArray((1..=10).collect()));
/// ```
pub fn dotnet_complex() -> Compound {
    let mut nested = Compound::new();
    nested.push("field1", "value1");
    nested.push("field2", "value2");
    nested.push("field3", 42i32);
    let mut c = Compound::new();
    c.push("name", "ComplexTest");
    c.push("level", 15i32);
    c.push("scores", List::Int(vec![100, 200, 300, 400, 500]));
    c.push("nested", nested);
    c.push("byteArray", Tag::ByteArray((1..=10).collect()));
    c
}

/// The .NET benchmark's deeply nested tag (`_deeplyNestedTag`): a string and compounds `level1` to
/// `level5` nested in one another, the innermost holding a string and an int.
///
/// ```
/// let c = flatforge_bench_nbt::dotnet_deeply_nested();
/// let level1 = c["level1"].as_compound().unwrap();
/// assert_eq!(level1.len(), 1);
/// ```
pub fn dotnet_deeply_nested() -> Compound {
    let mut inner = Compound::new();
    inner.push("data", "innermost");
    inner.push("value", 999i32);
    for level in (1..5).rev() {
        let mut c = Compound::new();
        c.push(format!("level{}", level + 1), inner);
        inner = c;
    }
    let mut c = Compound::new();
    c.push("name", "DeeplyNested");
    c.push("level1", inner);
    c
}

/// The .NET benchmark's large array tag (`_largeArrayTag`): a string, an int array of 0 to 999 and a byte
/// array of 5,000 bytes `i % 128`.
///
/// ```
/// let c = flatforge_bench_nbt::dotnet_large_array();
/// assert_eq!(c["byteArray"], flatforge_nbt::Tag::ByteArray((0..5000).map(|i| (i % 128) as i8).collect()));
/// ```
pub fn dotnet_large_array() -> Compound {
    let mut c = Compound::new();
    c.push("name", "LargeArrays");
    c.push("intArray", Tag::IntArray((0..1000).collect()));
    c.push(
        "byteArray",
        Tag::ByteArray((0..5000).map(|i| (i % 128) as i8).collect()),
    );
    c
}

/// `root` as the .NET benchmark serializes it: Java network NBT (type byte, no root name), uncompressed.
///
/// ```
/// let bytes = flatforge_bench_nbt::network(flatforge_nbt::Compound::new());
/// assert_eq!(bytes, [10, 0]);
/// ```
pub fn network(root: Compound) -> Vec<u8> {
    Nbt::new("", root)
        .to_vec(Variant::JavaNetwork)
        .expect("encodable")
}

/// All workloads: hello_world, a compound nested 100 levels deep, complex_player.dat (decompressed), an
/// int array of 1,000,000 elements and inttest1023 (Java files), then the four tags of the .NET benchmark
/// (Java network NBT).
///
/// ```
/// assert_eq!(flatforge_bench_nbt::workloads().len(), 9);
/// ```
pub fn workloads() -> Vec<Workload> {
    let java = |name, data| Workload {
        name,
        data,
        variant: Variant::Java,
    };
    let dotnet = |name, root| Workload {
        name,
        data: network(root),
        variant: Variant::JavaNetwork,
    };
    vec![
        java("hello_world", file("hello_world.nbt")),
        java("nested_100", nested(100)),
        java("complex_player", file("complex_player.dat")),
        java("int_array_1m", int_array(1_000_000)),
        java("inttest1023", file("inttest1023.nbt")),
        dotnet("dotnet_simple", dotnet_simple()),
        dotnet("dotnet_complex", dotnet_complex()),
        dotnet("dotnet_deeply_nested", dotnet_deeply_nested()),
        dotnet("dotnet_large_array", dotnet_large_array()),
    ]
}
