//! serde: user types through the direct serializer and the borrowed deserializer, in every variant.

use std::collections::BTreeMap;

use flatforge_nbt::serde_nbt::{from_bytes, to_vec, ByteArray, IntArray, LongArray};
use flatforge_nbt::{decompress, List, Nbt, Tag, Variant};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
enum Kind {
    Plain,
    Counted(u32),
    Pair(i8, i8),
    Named { x: f32, label: String },
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Item {
    id: String,
    count: u8,
    slot: i8,
    tags: Option<BTreeMap<String, i64>>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Everything {
    flag: bool,
    b: i8,
    s: i16,
    i: i32,
    l: i64,
    ub: u8,
    us: u16,
    ui: u32,
    ul: u64,
    f: f32,
    d: f64,
    c: char,
    text: String,
    bytes: ByteArray,
    ints: IntArray,
    longs: LongArray,
    list: Vec<i16>,
    nested: Vec<Vec<String>>,
    items: Vec<Item>,
    unit_kind: Kind,
    kinds: Vec<Kind>,
    absent: Option<i32>,
    present: Option<i32>,
    pos: (f64, f64, f64),
    empty: Vec<Item>,
}

fn sample() -> Everything {
    Everything {
        flag: true,
        b: -5,
        s: 300,
        i: -70000,
        l: i64::MIN,
        ub: 200,
        us: 60000,
        ui: 4_000_000_000,
        ul: u64::MAX,
        f: 0.25,
        d: -1e300,
        c: 'é',
        text: "a\0\u{1F600}".into(),
        bytes: ByteArray(vec![1, -2, 3]),
        ints: IntArray(vec![i32::MIN, 0, i32::MAX]),
        longs: LongArray(vec![1, -1]),
        list: vec![1, 2, 3],
        nested: vec![vec!["x".into()], vec![]],
        items: vec![
            Item {
                id: "minecraft:stone".into(),
                count: 64,
                slot: 0,
                tags: None,
            },
            Item {
                id: "minecraft:dirt".into(),
                count: 1,
                slot: 3,
                tags: Some([("a".to_owned(), 5)].into_iter().collect()),
            },
        ],
        unit_kind: Kind::Plain,
        kinds: vec![
            Kind::Counted(3),
            Kind::Pair(1, 2),
            Kind::Named {
                x: 1.5,
                label: "n".into(),
            },
        ],
        absent: None,
        present: Some(7),
        pos: (0.5, 64.0, -2.5),
        empty: vec![],
    }
}

#[test]
fn round_trip_in_every_variant() {
    let value = sample();
    for variant in Variant::ALL {
        let bytes = to_vec(&value, variant).unwrap();
        let back: Everything =
            from_bytes(&bytes, variant).unwrap_or_else(|e| panic!("{variant}: {e}"));
        assert_eq!(back, value, "{variant}");
        // The bytes are valid NBT that the tree reader understands, with the documented mapping.
        let nbt = Nbt::read(&bytes, variant).unwrap();
        let root = nbt.tag.as_compound().unwrap();
        assert_eq!(root["flag"], Tag::Byte(1));
        assert_eq!(root["ub"], Tag::Byte(200u8 as i8));
        assert_eq!(root["ui"], Tag::Int(4_000_000_000u32 as i32));
        assert_eq!(root["ul"], Tag::Long(-1));
        assert_eq!(root["c"], Tag::from("é"));
        assert_eq!(root["bytes"], Tag::ByteArray(vec![1, -2, 3]));
        assert_eq!(root["ints"], Tag::IntArray(vec![i32::MIN, 0, i32::MAX]));
        assert_eq!(root["longs"], Tag::LongArray(vec![1, -1]));
        assert_eq!(root["list"], Tag::List(List::Short(vec![1, 2, 3])));
        assert_eq!(root["pos"], Tag::List(List::Double(vec![0.5, 64.0, -2.5])));
        assert_eq!(root["empty"], Tag::List(List::End));
        assert!(root.get("absent").is_none());
        assert_eq!(root["present"], Tag::Int(7));
        assert_eq!(root["unit_kind"], Tag::from("Plain"));
        let counted = root["kinds"].as_list().unwrap().get(0).unwrap();
        assert_eq!(counted.as_compound().unwrap()["Counted"], Tag::Int(3));
        // Writing the tree back gives the same bytes as the serializer.
        assert_eq!(nbt.to_vec(variant).unwrap(), bytes, "{variant}");
    }
}

#[test]
fn strings_are_borrowed_from_the_input() {
    #[derive(Deserialize)]
    struct Hello<'a> {
        name: &'a str,
    }
    let data = std::fs::read(flatforge_testkit::testdata("nbt/hello_world.nbt")).unwrap();
    let hello: Hello = from_bytes(&data, Variant::Java).unwrap();
    assert_eq!(hello.name, "Bananrama");
    assert!(data.as_ptr_range().contains(&hello.name.as_ptr()));
}

#[test]
fn bigtest_into_a_struct() {
    #[derive(Deserialize)]
    struct Food {
        name: String,
        value: f32,
    }
    #[derive(Deserialize)]
    struct Nested {
        egg: Food,
        ham: Food,
    }
    #[derive(Deserialize)]
    struct Entry {
        name: String,
        #[serde(rename = "created-on")]
        created_on: i64,
    }
    #[derive(Deserialize)]
    struct Level {
        #[serde(rename = "longTest")]
        long_test: i64,
        #[serde(rename = "nested compound test")]
        nested: Nested,
        #[serde(rename = "listTest (long)")]
        longs: Vec<i64>,
        #[serde(rename = "listTest (compound)")]
        entries: Vec<Entry>,
        #[serde(
            rename = "byteArrayTest (the first 1000 values of (n*n*255+n*7)%100, starting with n=0 (0, 62, 34, 16, 8, ...))"
        )]
        bytes: ByteArray,
        #[serde(rename = "stringTest")]
        string: String,
    }
    let data = std::fs::read(flatforge_testkit::testdata("nbt/bigtest.nbt")).unwrap();
    let plain = decompress(&data).unwrap().0;
    let level: Level = from_bytes(&plain, Variant::Java).unwrap();
    assert_eq!(level.long_test, i64::MAX);
    assert_eq!(
        (level.nested.egg.name.as_str(), level.nested.egg.value),
        ("Eggbert", 0.5)
    );
    assert_eq!(
        (level.nested.ham.name.as_str(), level.nested.ham.value),
        ("Hampus", 0.75)
    );
    assert_eq!(level.longs, [11, 12, 13, 14, 15]);
    assert_eq!(level.entries[1].name, "Compound tag #1");
    assert_eq!(level.entries[1].created_on, 1264099775885);
    assert_eq!(level.bytes.0[1], 62);
    assert_eq!(level.string, "HELLO WORLD THIS IS A TEST STRING ÅÄÖ!");
}

#[test]
fn errors_name_the_path() {
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Inv {
        items: Vec<Item>,
    }
    let mut bad = sample().items;
    bad.push(Item {
        id: "x".into(),
        count: 1,
        slot: 1,
        tags: None,
    });
    #[derive(Serialize)]
    struct WrongItem {
        id: i32,
    }
    #[derive(Serialize)]
    struct WrongInv {
        items: Vec<WrongItem>,
    }
    let bytes = to_vec(
        &WrongInv {
            items: vec![WrongItem { id: 1 }],
        },
        Variant::Java,
    )
    .unwrap();
    let err = from_bytes::<Inv>(&bytes, Variant::Java).unwrap_err();
    assert_eq!(err.path(), "items[0].id", "{err}");

    #[derive(Serialize)]
    struct Mixed {
        v: Vec<Tag>,
    }
    let err = to_vec(
        &Mixed {
            v: vec![Tag::Int(1), Tag::from("x")],
        },
        Variant::Java,
    )
    .unwrap_err();
    assert_eq!(err.path(), "v[1]");
    let err = to_vec(&vec![Some(1), None], Variant::JavaNetwork).unwrap_err();
    assert_eq!(err.path(), "[1]");
    assert!(to_vec(&IntArray(vec![1]), Variant::Java).is_ok());
    assert!(to_vec(&1u128, Variant::Java).is_err());
    let m: BTreeMap<i32, i32> = [(1, 1)].into_iter().collect();
    assert!(to_vec(&m, Variant::Java).is_err());
}

#[test]
fn the_tree_serializes_through_serde_nbt_too() {
    let data = std::fs::read(flatforge_testkit::testdata("nbt/complex_player.dat")).unwrap();
    let (nbt, _) = Nbt::from_file_bytes(&data).unwrap();
    // Tag's Serialize is the plain mapping, so arrays become lists; compare against that tree.
    let bytes = to_vec(&nbt.tag, Variant::Java).unwrap();
    let back: Tag = from_bytes(&bytes, Variant::Java).unwrap();
    assert_eq!(back.as_compound().unwrap().len(), nbt.root().len());
}
