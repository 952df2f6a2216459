//! The serde Deserializer (`serde_nbt::from_bytes`) on arbitrary bytes in every variant, into user types
//! and into the crate's own `Tag` and `Compound`: never panics; a user type that deserializes serializes,
//! and what it writes deserializes to a value that writes the same bytes; `Tag` deserializes exactly when
//! the owned reader reads the input, to the tree that reader gives seen as plain data (arrays as lists,
//! integers as the narrowest of Int and Long, empty lists as lists of End).
#![no_main]

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use flatforge_nbt::serde_nbt::{from_bytes, to_vec, ByteArray, IntArray, LongArray};
use flatforge_nbt::{Compound, List, Nbt, Tag, Variant};
use libfuzzer_sys::fuzz_target;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// A player-like record: nested structs, vectors, maps, options, strings, arrays, an enum, unsigned and
/// boolean fields.
#[derive(Serialize, Deserialize, Debug)]
struct Player {
    name: String,
    health: Option<f32>,
    pos: Vec<f64>,
    inventory: Vec<Item>,
    scores: BTreeMap<String, i32>,
    uuid: Option<IntArray>,
    seed: Option<LongArray>,
    blob: Option<ByteArray>,
    grid: Option<Vec<Vec<i16>>>,
    kind: Option<Kind>,
    flag: Option<bool>,
    xp: Option<u64>,
    level: Option<u8>,
}

/// A recursive record.
#[derive(Serialize, Deserialize, Debug)]
struct Item {
    id: String,
    count: i8,
    inner: Option<Box<Item>>,
    lore: Option<Vec<String>>,
}

/// Every kind of enum variant.
#[derive(Serialize, Deserialize, Debug)]
enum Kind {
    Unit,
    Newtype(i64),
    Tuple(i32, i32),
    Struct { x: f64, label: String },
}

/// Fields that borrow from the input when they can.
#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Borrowed<'a> {
    name: &'a str,
    #[serde(borrow)]
    title: Cow<'a, str>,
    bytes: Option<&'a [u8]>,
    map: Option<HashMap<&'a str, Vec<u8>>>,
    pair: Option<(i32, String)>,
    ch: Option<char>,
}

/// Deserializes a `T`; when it does, checks that it writes bytes that deserialize to a value that writes
/// the same bytes.
fn round_trip<T: Serialize + DeserializeOwned>(data: &[u8], variant: Variant) {
    if let Ok(value) = from_bytes::<T>(data, variant) {
        let bytes = to_vec(&value, variant).expect("a deserialized value serializes");
        let again: T = from_bytes(&bytes, variant).expect("written bytes deserialize");
        assert_eq!(to_vec(&again, variant).expect("serializes again"), bytes);
    }
}

/// The tree as serde's plain data model sees it (see the module docs).
fn plain(tag: &Tag) -> Tag {
    match tag {
        Tag::Long(v) => narrow(*v),
        Tag::ByteArray(v) => Tag::List(plain_list(&List::Byte(v.clone()))),
        Tag::IntArray(v) => Tag::List(plain_list(&List::Int(v.clone()))),
        Tag::LongArray(v) => Tag::List(plain_list(&List::Long(v.clone()))),
        Tag::List(l) => Tag::List(plain_list(l)),
        Tag::Compound(c) => Tag::Compound(plain_compound(c)),
        t => t.clone(),
    }
}

fn narrow(v: i64) -> Tag {
    i32::try_from(v).map_or(Tag::Long(v), Tag::Int)
}

fn plain_compound(c: &Compound) -> Compound {
    let mut out = Compound::new();
    for (k, v) in c.iter() {
        out.push(k, plain(v));
    }
    out
}

fn plain_list(l: &List) -> List {
    if l.is_empty() {
        return List::End;
    }
    match l {
        List::Long(v) if v.iter().all(|x| i32::try_from(*x).is_ok()) => {
            List::Int(v.iter().map(|&x| x as i32).collect())
        }
        List::ByteArray(v) => List::List(
            v.iter()
                .map(|a| plain_list(&List::Byte(a.clone())))
                .collect(),
        ),
        List::IntArray(v) => List::List(
            v.iter()
                .map(|a| plain_list(&List::Int(a.clone())))
                .collect(),
        ),
        List::LongArray(v) => List::List(
            v.iter()
                .map(|a| plain_list(&List::Long(a.clone())))
                .collect(),
        ),
        List::List(v) => List::List(v.iter().map(plain_list).collect()),
        List::Compound(v) => List::Compound(v.iter().map(plain_compound).collect()),
        l => l.clone(),
    }
}

/// Equal trees, floats compared bit for bit.
fn same(a: &Tag, b: &Tag) -> bool {
    let bytes = |t: &Tag| {
        Nbt {
            name: String::new(),
            tag: t.clone(),
        }
        .to_vec(Variant::JavaNetwork)
        .ok()
    };
    bytes(a) == bytes(b)
}

fuzz_target!(|data: &[u8]| {
    for variant in Variant::ALL {
        round_trip::<Player>(data, variant);
        round_trip::<Item>(data, variant);
        round_trip::<Kind>(data, variant);
        round_trip::<BTreeMap<String, Vec<Option<String>>>>(data, variant);
        let _ = from_bytes::<Borrowed>(data, variant);
        let _ = from_bytes::<Vec<u8>>(data, variant);
        let _ = from_bytes::<(u16, char, String)>(data, variant);

        let owned = Nbt::read(data, variant);
        let tag = from_bytes::<Tag>(data, variant);
        assert_eq!(
            owned.is_ok(),
            tag.is_ok(),
            "owned reader and Tag disagree in {variant}: {owned:?} {tag:?}"
        );
        if let (Ok(nbt), Ok(tag)) = (&owned, &tag) {
            assert!(
                same(&plain(&nbt.tag), tag),
                "Tag is not the tree in {variant}"
            );
        }
        let compound = from_bytes::<Compound>(data, variant);
        assert_eq!(
            compound.is_ok(),
            matches!(&tag, Ok(Tag::Compound(_))),
            "Compound and Tag disagree in {variant}"
        );
    }
});
