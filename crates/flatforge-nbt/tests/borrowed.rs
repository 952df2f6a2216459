//! The borrowed reader agrees with the owned one on every test file and every variant, and its lazy
//! accessors return the stored values.

use flatforge_nbt::borrowed::Document;
use flatforge_nbt::{decompress, Nbt, TagType, Variant};

fn files() -> Vec<(String, Vec<u8>)> {
    let dir = flatforge_testkit::testdata("nbt");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if matches!(p.extension().and_then(|e| e.to_str()), Some("nbt" | "dat")) {
            let data = std::fs::read(&p).unwrap();
            out.push((
                p.display().to_string(),
                decompress(&data).unwrap().0.into_owned(),
            ));
        }
    }
    assert!(!out.is_empty());
    out
}

#[test]
fn borrowed_matches_owned_in_every_variant() {
    for (name, java) in files() {
        let nbt = Nbt::read(&java, Variant::Java).unwrap();
        for variant in Variant::ALL {
            let bytes = nbt.to_vec(variant).unwrap();
            let doc = Document::parse(&bytes, variant)
                .unwrap_or_else(|e| panic!("{name} {variant}: {e}"));
            let back = doc.to_nbt().unwrap();
            assert_eq!(back.tag, nbt.tag, "{name} {variant}");
            for target in Variant::ALL {
                assert!(
                    doc.to_vec(target).unwrap() == back.to_vec(target).unwrap(),
                    "{name}: {variant} document written as {target}"
                );
            }
        }
    }
}

#[test]
fn lazy_accessors_on_bigtest() {
    let data = std::fs::read(flatforge_testkit::testdata("nbt/bigtest.nbt")).unwrap();
    let plain = decompress(&data).unwrap().0;
    for variant in Variant::ALL {
        let bytes = Nbt::read(&plain, Variant::Java)
            .unwrap()
            .to_vec(variant)
            .unwrap();
        let doc = Document::parse(&bytes, variant).unwrap();
        let root = doc.root().compound().unwrap();
        assert_eq!(root.len(), 11);
        assert_eq!(root.get("longTest").unwrap().long(), Some(i64::MAX));
        assert_eq!(root.get("intTest").unwrap().int(), Some(i32::MAX));
        assert_eq!(root.get("shortTest").unwrap().short(), Some(32767));
        assert_eq!(root.get("floatTest").unwrap().float(), Some(0.498_231_47));
        assert_eq!(
            root.get("doubleTest").unwrap().double(),
            Some(0.493_128_713_218_231_5)
        );
        assert_eq!(root.get("byteTest").unwrap().byte(), Some(127));
        assert!(
            root.get("stringTest").unwrap().string().unwrap()
                == "HELLO WORLD THIS IS A TEST STRING ÅÄÖ!"
        );
        let longs = root.get("listTest (long)").unwrap().list().unwrap();
        assert_eq!(longs.element_type(), TagType::Long);
        assert_eq!(
            longs.numbers::<i64>().unwrap().to_vec(),
            vec![11, 12, 13, 14, 15]
        );
        assert_eq!(longs.numbers::<i64>().unwrap().get(4), Some(15));
        assert_eq!(
            longs.iter().map(|t| t.long().unwrap()).collect::<Vec<_>>(),
            vec![11, 12, 13, 14, 15]
        );
        let compounds = root.get("listTest (compound)").unwrap().list().unwrap();
        for (i, c) in compounds.compounds().unwrap().enumerate() {
            assert!(
                c.get("name").unwrap().string().unwrap() == format!("Compound tag #{i}").as_str()
            );
            assert_eq!(c.get("created-on").unwrap().long(), Some(1264099775885));
        }
        let egg = root
            .get("nested compound test")
            .unwrap()
            .compound()
            .unwrap()
            .get("egg")
            .unwrap();
        assert_eq!(
            egg.compound().unwrap().get("value").unwrap().float(),
            Some(0.5)
        );
        let (_, bytes) = root
            .iter()
            .find(|(k, _)| k.as_bytes().starts_with(b"byteArrayTest"))
            .unwrap();
        let bytes = bytes.byte_array().unwrap();
        assert_eq!(bytes.len(), 1000);
        assert!(bytes
            .iter()
            .enumerate()
            .all(|(n, &b)| b as usize == (n * n * 255 + n * 7) % 100));
    }
}

#[test]
fn int_arrays_are_swapped_only_when_read() {
    let data = std::fs::read(flatforge_testkit::testdata("nbt/inttest1023.nbt")).unwrap();
    let doc = Document::parse(&data, Variant::Java).unwrap();
    let root = doc.root().compound().unwrap();
    let (_, tag) = root.iter().next().unwrap();
    let list = tag.list().unwrap();
    assert_eq!(list.len(), 1023);
    let ints = list.numbers::<i32>().unwrap();
    // The raw bytes are the input's own bytes, untouched.
    let raw = ints.raw_bytes();
    assert_eq!(
        raw.as_ptr_range().start,
        data[data.len() - 1 - 1023 * 4..].as_ptr()
    );
    assert_eq!(ints.to_vec(), ints.iter().collect::<Vec<_>>());
}
