//! Every file in ../shared/testdata/nbt reads and writes back byte-identical (after decompression), in its
//! own variant and through every other variant; bigtest.nbt's well-known values are checked field by field.

use flatforge_nbt::{decompress, Compression, List, Nbt, Tag, Variant};

fn nbt_files() -> Vec<(String, Vec<u8>)> {
    let dir = flatforge_testkit::testdata("nbt");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("nbt" | "dat")))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    files.sort();
    assert!(
        files.len() >= 6,
        "expected the NBT test files in {}",
        dir.display()
    );
    files
}

#[test]
fn every_file_round_trips_byte_identical() {
    for (name, data) in nbt_files() {
        let (plain, compression) = decompress(&data).unwrap();
        let (nbt, format) = Nbt::from_file_bytes(&data).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(format.compression, compression, "{name}");
        assert_eq!(format.variant, Variant::Java, "{name}");
        assert_eq!(nbt.to_vec(Variant::Java).unwrap(), &*plain, "{name}");
        // Through the file API, compression included.
        let again = nbt.to_file_bytes(&format).unwrap();
        let (plain_again, c) = decompress(&again).unwrap();
        assert_eq!((c, &*plain_again), (compression, &*plain), "{name}");
    }
}

#[test]
fn every_file_round_trips_through_every_variant() {
    for (name, data) in nbt_files() {
        let (nbt, _) = Nbt::from_file_bytes(&data).unwrap();
        for variant in Variant::ALL {
            let bytes = nbt.to_vec(variant).unwrap();
            let back =
                Nbt::read(&bytes, variant).unwrap_or_else(|e| panic!("{name} {variant}: {e}"));
            if variant.named_root() {
                assert_eq!(back, nbt, "{name} via {variant}");
            } else {
                assert_eq!(back.tag, nbt.tag, "{name} via {variant}");
            }
            assert_eq!(
                back.to_vec(variant).unwrap(),
                bytes,
                "{name} rewritten in {variant}"
            );
            let (detected, format) = Nbt::from_file_bytes(&bytes).unwrap();
            assert_eq!(detected.tag, nbt.tag, "{name}: detection of {variant}");
            assert_eq!(format.variant, variant, "{name}: detected variant");
        }
    }
}

#[test]
fn every_file_round_trips_through_each_compression() {
    for (name, data) in nbt_files() {
        let (nbt, mut format) = Nbt::from_file_bytes(&data).unwrap();
        for compression in [Compression::None, Compression::Gzip, Compression::Zlib] {
            format.compression = compression;
            let bytes = nbt.to_file_bytes(&format).unwrap();
            let (back, found) = Nbt::from_file_bytes(&bytes).unwrap();
            assert_eq!(
                (back, found.compression),
                (nbt.clone(), compression),
                "{name}"
            );
        }
    }
}

fn bigtest() -> Nbt {
    let data = std::fs::read(flatforge_testkit::testdata("nbt/bigtest.nbt")).unwrap();
    let (nbt, format) = Nbt::from_file_bytes(&data).unwrap();
    assert_eq!(format.compression, Compression::Gzip);
    nbt
}

#[test]
fn bigtest_known_values() {
    let nbt = bigtest();
    assert_eq!(nbt.name, "Level");
    let root = nbt.root();
    assert_eq!(root.len(), 11);
    assert_eq!(root["longTest"], Tag::Long(9223372036854775807));
    assert_eq!(root["shortTest"], Tag::Short(32767));
    assert_eq!(
        root["stringTest"],
        Tag::from("HELLO WORLD THIS IS A TEST STRING ÅÄÖ!")
    );
    assert_eq!(root["floatTest"], Tag::Float(0.498_231_47));
    assert_eq!(root["intTest"], Tag::Int(2147483647));
    assert_eq!(root["byteTest"], Tag::Byte(127));
    assert_eq!(root["doubleTest"], Tag::Double(0.493_128_713_218_231_5));

    let nested = root["nested compound test"].as_compound().unwrap();
    let ham = nested["ham"].as_compound().unwrap();
    assert_eq!(ham["name"], Tag::from("Hampus"));
    assert_eq!(ham["value"], Tag::Float(0.75));
    let egg = nested["egg"].as_compound().unwrap();
    assert_eq!(egg["name"], Tag::from("Eggbert"));
    assert_eq!(egg["value"], Tag::Float(0.5));

    assert_eq!(
        root["listTest (long)"],
        Tag::List(List::Long(vec![11, 12, 13, 14, 15]))
    );
    let Tag::List(List::Compound(items)) = &root["listTest (compound)"] else {
        panic!("listTest (compound) is not a list of compounds");
    };
    assert_eq!(items.len(), 2);
    for (i, item) in items.iter().enumerate() {
        assert_eq!(item["name"], Tag::String(format!("Compound tag #{i}")));
        assert_eq!(item["created-on"], Tag::Long(1264099775885));
    }

    let key = "byteArrayTest (the first 1000 values of (n*n*255+n*7)%100, starting with n=0 (0, 62, 34, 16, 8, ...))";
    let Tag::ByteArray(bytes) = &root[key] else {
        panic!("byteArrayTest is not a byte array");
    };
    let expected: Vec<i8> = (0..1000i32)
        .map(|n| ((n * n * 255 + n * 7) % 100) as i8)
        .collect();
    assert_eq!(bytes, &expected);
}
