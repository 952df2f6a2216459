//! Every library in the benchmark reads every workload, and the writers produce NBT that flatforge reads
//! back to the same tree: the benchmarks compare equal work.

use flatforge_bench_nbt::workloads;
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
        let ours = Nbt::read(&w.data, Variant::Java).unwrap();
        assert_eq!(ours.to_vec(Variant::Java).unwrap(), w.data, "{}", w.name);

        let value: fastnbt::Value = fastnbt::from_bytes(&w.data).unwrap();
        let bytes = fastnbt::to_bytes(&value).unwrap();
        assert_eq!(
            sorted(&Nbt::read(&bytes, Variant::Java).unwrap().tag),
            sorted(&ours.tag),
            "fastnbt {}",
            w.name
        );

        let (compound, name) = valence_nbt::from_binary::<String>(&mut &w.data[..]).unwrap();
        let mut out = Vec::new();
        valence_nbt::to_binary(&compound, &mut out, &name).unwrap();
        assert_eq!(
            sorted(&Nbt::read(&out, Variant::Java).unwrap().tag),
            sorted(&ours.tag),
            "valence_nbt {}",
            w.name
        );
    }
}
