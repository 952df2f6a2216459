//! Property tests on random trees: every binary variant (owned and borrowed readers), SNBT in both dialects
//! and JSON round-trip.

use flatforge_nbt::borrowed::Document;
use flatforge_nbt::snbt::{from_snbt, to_snbt, Dialect, SnbtOptions};
use flatforge_nbt::{json, Compound, List, Nbt, Tag, Variant};
use proptest::prelude::*;

fn finite_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        any::<f32>().prop_filter("finite", |f| f.is_finite()),
        Just(0.0f32),
        Just(-0.5f32)
    ]
}

fn finite_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>().prop_filter("finite", |f| f.is_finite()),
        Just(1.0f64),
        Just(-0.0f64)
    ]
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9_.+-]{0,8}",
        any::<String>(),
        Just("\0\u{1F600}\"'\\\n".to_owned())
    ]
}

fn list(inner: BoxedStrategy<Tag>) -> impl Strategy<Value = List> {
    let n = 0..4usize;
    prop_oneof![
        Just(List::End),
        prop::collection::vec(any::<i8>(), n.clone()).prop_map(List::Byte),
        prop::collection::vec(any::<i16>(), n.clone()).prop_map(List::Short),
        prop::collection::vec(any::<i32>(), n.clone()).prop_map(List::Int),
        prop::collection::vec(any::<i64>(), n.clone()).prop_map(List::Long),
        prop::collection::vec(finite_f32(), n.clone()).prop_map(List::Float),
        prop::collection::vec(finite_f64(), n.clone()).prop_map(List::Double),
        prop::collection::vec(prop::collection::vec(any::<i8>(), 0..3), n.clone())
            .prop_map(List::ByteArray),
        prop::collection::vec(text(), n.clone()).prop_map(List::String),
        prop::collection::vec(prop::collection::vec(any::<i32>(), 0..3), n.clone())
            .prop_map(List::IntArray),
        prop::collection::vec(prop::collection::vec(any::<i64>(), 0..3), n.clone())
            .prop_map(List::LongArray),
        prop::collection::vec(compound(inner.clone()), n.clone()).prop_map(List::Compound),
        prop::collection::vec(
            prop_oneof![
                prop::collection::vec(any::<i32>(), 0..3).prop_map(List::Int),
                prop::collection::vec(compound(inner), 0..3).prop_map(List::Compound),
            ],
            n
        )
        .prop_map(List::List),
    ]
}

fn compound(inner: BoxedStrategy<Tag>) -> impl Strategy<Value = Compound> {
    prop::collection::vec((text(), inner), 0..4).prop_map(|entries| {
        let mut c = Compound::new();
        for (k, v) in entries {
            c.push(k, v);
        }
        c
    })
}

fn tag() -> BoxedStrategy<Tag> {
    let leaf = prop_oneof![
        any::<i8>().prop_map(Tag::Byte),
        any::<i16>().prop_map(Tag::Short),
        any::<i32>().prop_map(Tag::Int),
        any::<i64>().prop_map(Tag::Long),
        finite_f32().prop_map(Tag::Float),
        finite_f64().prop_map(Tag::Double),
        text().prop_map(Tag::String),
        prop::collection::vec(any::<i8>(), 0..5).prop_map(Tag::ByteArray),
        prop::collection::vec(any::<i32>(), 0..5).prop_map(Tag::IntArray),
        prop::collection::vec(any::<i64>(), 0..5).prop_map(Tag::LongArray),
    ];
    leaf.prop_recursive(4, 48, 4, |inner| {
        prop_oneof![
            list(inner.clone()).prop_map(Tag::List),
            compound(inner).prop_map(Tag::Compound)
        ]
    })
    .boxed()
}

fn root() -> impl Strategy<Value = Nbt> {
    (text(), compound(tag())).prop_map(|(name, c)| Nbt::new(name, c))
}

/// Empty lists print as `[]` in SNBT and JSON, which reads back as a list of End.
fn empty_lists_to_end(tag: &Tag) -> Tag {
    match tag {
        Tag::List(l) => Tag::List(list_norm(l, empty_lists_to_end)),
        Tag::Compound(c) => Tag::Compound(c.iter().map(|(k, v)| (k, empty_lists_to_end(v))).fold(
            Compound::new(),
            |mut c, (k, v)| {
                c.push(k, v);
                c
            },
        )),
        t => t.clone(),
    }
}

fn list_norm(l: &List, f: fn(&Tag) -> Tag) -> List {
    if l.is_empty() {
        return List::End;
    }
    List::from_tags(l.clone().into_tags().iter().map(f).collect())
        .unwrap_or_else(|| panic!("normalised list of mixed types: {l:?}"))
}

/// What JSON keeps: integers as Int when they fit in 32 bits, Long otherwise (widened per list), floats as
/// Double, arrays as lists.
fn json_norm(tag: &Tag) -> Tag {
    fn ints(v: Vec<i64>) -> Tag {
        if v.is_empty() {
            Tag::List(List::End)
        } else if v.iter().all(|&x| i32::try_from(x).is_ok()) {
            Tag::List(List::Int(v.into_iter().map(|x| x as i32).collect()))
        } else {
            Tag::List(List::Long(v))
        }
    }
    /// The f64 whose shortest form is the JSON text of the f32 (ryu may pick another shortest form than
    /// Display when two are equally short).
    fn f32_to_f64(v: f32) -> f64 {
        json::to_json(&Tag::Float(v), false)
            .unwrap()
            .parse()
            .unwrap()
    }
    match tag {
        Tag::Byte(_) | Tag::Short(_) | Tag::Int(_) | Tag::Long(_) => {
            let v = tag.as_i64().unwrap();
            i32::try_from(v).map_or(Tag::Long(v), Tag::Int)
        }
        Tag::Float(v) => Tag::Double(f32_to_f64(*v)),
        Tag::ByteArray(v) => ints(v.iter().map(|&x| x.into()).collect()),
        Tag::IntArray(v) => ints(v.iter().map(|&x| x.into()).collect()),
        Tag::LongArray(v) => ints(v.clone()),
        Tag::List(List::Byte(v)) => ints(v.iter().map(|&x| x.into()).collect()),
        Tag::List(List::Short(v)) => ints(v.iter().map(|&x| x.into()).collect()),
        Tag::List(List::Int(v)) => ints(v.iter().map(|&x| x.into()).collect()),
        Tag::List(List::Long(v)) => ints(v.clone()),
        Tag::List(List::Float(v)) if !v.is_empty() => {
            Tag::List(List::Double(v.iter().map(|&x| f32_to_f64(x)).collect()))
        }
        Tag::List(l) => Tag::List(list_norm(l, json_norm)),
        Tag::Compound(c) => Tag::Compound(c.iter().fold(Compound::new(), |mut c, (k, v)| {
            c.push(k, json_norm(v));
            c
        })),
        t => t.clone(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn binary_round_trip_in_every_variant(nbt in root()) {
        for variant in Variant::ALL {
            let bytes = nbt.to_vec(variant).unwrap();
            let owned = Nbt::read(&bytes, variant).unwrap();
            let doc = Document::parse(&bytes, variant).unwrap();
            let borrowed = doc.to_nbt().unwrap();
            if variant.named_root() {
                prop_assert_eq!(&owned, &nbt);
            }
            prop_assert_eq!(&owned.tag, &nbt.tag);
            prop_assert_eq!(&borrowed, &owned);
            prop_assert_eq!(doc.to_vec(variant).unwrap(), bytes.clone());
            for other in Variant::ALL {
                let converted = doc.to_vec(other).unwrap();
                prop_assert_eq!(Nbt::read(&converted, other).unwrap().tag, nbt.tag.clone());
            }
        }
    }

    #[test]
    fn truncated_input_is_an_error_not_a_panic(nbt in root(), cut in any::<prop::sample::Index>()) {
        for variant in Variant::ALL {
            let bytes = nbt.to_vec(variant).unwrap();
            let at = cut.index(bytes.len());
            prop_assert!(Nbt::read(&bytes[..at], variant).is_err());
            prop_assert!(Document::parse(&bytes[..at], variant).is_err());
        }
    }

    #[test]
    fn snbt_round_trip(t in tag()) {
        for dialect in [Dialect::Classic, Dialect::Modern] {
            for pretty in [false, true] {
                let text = to_snbt(&t, SnbtOptions::default().with_dialect(dialect).with_pretty(pretty));
                let back = from_snbt(&text, dialect).map_err(|e| TestCaseError::fail(format!("{e}: {text}")))?;
                prop_assert_eq!(empty_lists_to_end(&back), empty_lists_to_end(&t), "{}", text);
            }
        }
    }

    #[test]
    fn json_round_trip(t in tag()) {
        let text = json::to_json(&t, true).unwrap();
        let back = json::from_json(&text).unwrap();
        prop_assert_eq!(back, json_norm(&t), "{}", text);
    }
}
