//! Every NBT reader on arbitrary bytes: the owned and borrowed readers of each variant must agree
//! (errors included), never panic, and what they accept must write back and re-read identically.
#![no_main]

use flatforge_nbt::borrowed::Document;
use flatforge_nbt::{Nbt, Variant};
use libfuzzer_sys::fuzz_target;

/// Equal trees, comparing floats bit for bit (NaN is not equal to itself under `PartialEq`).
fn same(a: &Nbt, b: &Nbt) -> bool {
    a.name == b.name && same_tag(a, b)
}

/// Equal root tags (names ignored), floats compared bit for bit.
fn same_tag(a: &Nbt, b: &Nbt) -> bool {
    a.to_vec(Variant::JavaNetwork).ok() == b.to_vec(Variant::JavaNetwork).ok()
}

fuzz_target!(|data: &[u8]| {
    for variant in Variant::ALL {
        let owned = Nbt::read(data, variant);
        let doc = Document::parse(data, variant);
        let borrowed = doc.as_ref().map_err(Clone::clone).and_then(|d| d.to_nbt());
        // Both accept or both reject; the first error may differ, because the borrowed reader checks
        // strings only when they are decoded.
        assert_eq!(
            owned.is_ok(),
            borrowed.is_ok(),
            "readers disagree in {variant}: {owned:?} {borrowed:?}"
        );
        if let (Ok(a), Ok(b)) = (&owned, &borrowed) {
            assert!(same(a, b), "readers disagree in {variant}");
        }
        if let (Ok(nbt), Ok(doc)) = (&owned, &doc) {
            let bytes = nbt
                .to_vec(variant)
                .expect("a tree that was read can be written");
            assert!(same(&Nbt::read(&bytes, variant).expect("re-read"), nbt));
            for target in Variant::ALL {
                if let Ok(converted) = doc.to_vec(target) {
                    let back = Nbt::read(&converted, target).expect("converted document re-reads");
                    assert!(same_tag(&back, nbt));
                }
            }
        }
    }
    let _ = Nbt::from_file_bytes(data);
});
