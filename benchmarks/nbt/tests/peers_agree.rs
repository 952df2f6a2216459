//! Every library in the benchmark reads every workload, and the writers produce NBT that flatforge reads
//! back to the same tree: the benchmarks compare equal work. The .NET tags are serialized as the .NET
//! benchmark does.

use fastnbt::{DeOpts, SerOpts};
use flatforge_bench_nbt::{
    dotnet_complex, dotnet_deeply_nested, dotnet_large_array, dotnet_simple, network, workloads,
};
use flatforge_nbt::{Compound, List, Nbt, Tag, Variant};

/// The tree with compound entries sorted by name: fastnbt's `Value` and valence_nbt's default `Compound`
/// do not keep insertion order.
fn sorted(tag: &Tag) -> Tag {
    match tag {
        Tag::Compound(c) => {
            let mut entries: Vec<_> = c.iter().map(|(k, v)| (k.to_owned(), sorted(v))).collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            let mut out = Compound::new();
            for (k, v) in entries {
                out.push(k, v);
            }
            Tag::Compound(out)
        }
        Tag::List(List::Compound(v)) => Tag::List(List::Compound(
            v.iter()
                .map(|c| match sorted(&Tag::Compound(c.clone())) {
                    Tag::Compound(c) => c,
                    _ => unreachable!(),
                })
                .collect(),
        )),
        Tag::List(List::List(v)) => Tag::List(List::List(
            v.iter()
                .map(|l| match sorted(&Tag::List(l.clone())) {
                    Tag::List(l) => l,
                    _ => unreachable!(),
                })
                .collect(),
        )),
        t => t.clone(),
    }
}

#[test]
fn every_library_reads_and_writes_every_workload() {
    for w in workloads() {
        let ours = Nbt::read(&w.data, w.variant).unwrap();
        assert_eq!(ours.to_vec(w.variant).unwrap(), w.data, "{}", w.name);
        let check = |bytes: &[u8], variant: Variant, who: &str| {
            assert_eq!(
                sorted(&Nbt::read(bytes, variant).unwrap().tag),
                sorted(&ours.tag),
                "{who} {}",
                w.name
            );
        };

        let (de, ser) = if w.variant.named_root() {
            (DeOpts::new(), SerOpts::new())
        } else {
            (DeOpts::network_nbt(), SerOpts::network_nbt())
        };
        let value: fastnbt::Value = fastnbt::from_bytes_with_opts(&w.data, de).unwrap();
        check(
            &fastnbt::to_bytes_with_opts(&value, ser).unwrap(),
            w.variant,
            "fastnbt",
        );

        let (compound, name) = valence_nbt::from_binary::<String>(&mut &w.named()[..]).unwrap();
        let mut out = Vec::new();
        valence_nbt::to_binary(&compound, &mut out, &name).unwrap();
        check(&out, Variant::Java, "valence_nbt");

        #[cfg(feature = "simdnbt")]
        {
            use std::io::Cursor;
            let mut out = Vec::new();
            if w.variant.named_root() {
                simdnbt::borrow::read(&mut Cursor::new(&w.data[..]))
                    .unwrap()
                    .write(&mut out);
                // simdnbt 0.10's borrowed `BaseNbt::write` writes the root compound's End twice (its
                // compound writer already ends with one): one byte more than the NBT, and no more work
                // to speak of in the write benchmarks.
                assert_eq!(out.pop(), Some(0), "simdnbt_borrow {}", w.name);
            } else {
                out.push(10);
                simdnbt::borrow::read_unnamed(&mut Cursor::new(&w.data[..]))
                    .unwrap()
                    .unwrap()
                    .as_compound()
                    .write(&mut out);
            }
            check(&out, w.variant, "simdnbt_borrow");
            out.clear();
            let owned = if w.variant.named_root() {
                simdnbt::owned::read(&mut Cursor::new(&w.data[..])).unwrap()
            } else {
                simdnbt::owned::read_unnamed(&mut Cursor::new(&w.data[..])).unwrap()
            };
            if w.variant.named_root() {
                owned.write(&mut out);
            } else {
                owned.write_unnamed(&mut out);
            }
            check(&out, w.variant, "simdnbt_owned");
        }
    }
}

/// The bytes of the .NET benchmark's simple tag as its serializer writes them (`CompoundTag.Serialise()`
/// on a root without a name: the type byte, the entries each as type, name and payload, big-endian, then
/// End), written out by hand.
#[test]
fn dotnet_simple_is_serialized_as_the_dotnet_benchmark_does() {
    let mut expected = vec![10];
    expected.extend_from_slice(&[8, 0, 4]);
    expected.extend_from_slice(b"name");
    expected.extend_from_slice(&[0, 4]);
    expected.extend_from_slice(b"Test");
    expected.extend_from_slice(&[3, 0, 3]);
    expected.extend_from_slice(b"age");
    expected.extend_from_slice(&30i32.to_be_bytes());
    expected.extend_from_slice(&[1, 0, 6]);
    expected.extend_from_slice(b"active");
    expected.push(1);
    expected.extend_from_slice(&[6, 0, 5]);
    expected.extend_from_slice(b"score");
    expected.extend_from_slice(&98.5f64.to_be_bytes());
    expected.push(0);
    assert_eq!(network(dotnet_simple()), expected);
}

/// The sizes of the other .NET tags, counted from their structure.
#[test]
fn dotnet_tags_have_the_dotnet_sizes() {
    let entry = |name: &str| 1 + 2 + name.len();
    let string = |s: &str| 2 + s.len();
    let complex = 1
        + entry("name")
        + string("ComplexTest")
        + entry("level")
        + 4
        + entry("scores")
        + 1
        + 4
        + 5 * 4
        + entry("nested")
        + entry("field1")
        + string("value1")
        + entry("field2")
        + string("value2")
        + entry("field3")
        + 4
        + 1
        + entry("byteArray")
        + 4
        + 10
        + 1;
    assert_eq!(network(dotnet_complex()).len(), complex);
    let nested = 1
        + entry("name")
        + string("DeeplyNested")
        + (1..=5)
            .map(|i| entry(&format!("level{i}")) + 1)
            .sum::<usize>()
        + entry("data")
        + string("innermost")
        + entry("value")
        + 4
        + 1;
    assert_eq!(network(dotnet_deeply_nested()).len(), nested);
    let large = 1
        + entry("name")
        + string("LargeArrays")
        + entry("intArray")
        + 4
        + 4000
        + entry("byteArray")
        + 4
        + 5000
        + 1;
    let bytes = network(dotnet_large_array());
    assert_eq!(bytes.len(), large);
    let tag = Nbt::read(&bytes, Variant::JavaNetwork).unwrap().tag;
    let c = tag.as_compound().unwrap();
    assert_eq!(c["intArray"], Tag::IntArray((0..1000).collect()));
    assert_eq!(
        c.keys().collect::<Vec<_>>(),
        ["name", "intArray", "byteArray"]
    );
}
