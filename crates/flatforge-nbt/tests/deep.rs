//! Nesting at the limit on a 2 MiB stack (the default for spawned threads, `cargo test` threads and
//! tokio workers) in the debug profile: every reader, writer and conversion must get through depth
//! [`MAX_DEPTH`] without overflowing the stack, which would abort the whole process.

mod common;

use common::nested_compounds;
use flatforge_nbt::borrowed::Document;
use flatforge_nbt::snbt::{from_snbt, to_snbt, Dialect, SnbtOptions};
use flatforge_nbt::{json, serde_nbt, Compound, List, Nbt, Tag, Variant, MAX_DEPTH};

/// Runs `f` in a thread with a 2 MiB stack.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

/// Java NBT: `depth` lists, each the single element of the one around it.
fn nested_lists(depth: usize) -> Vec<u8> {
    let mut v = vec![9, 0, 0];
    for _ in 1..depth {
        v.extend_from_slice(&[9, 0, 0, 0, 1]);
    }
    v.extend_from_slice(&[0, 0, 0, 0, 0]);
    v
}

/// Java NBT: `depth` containers alternating compound and list of compounds, the innermost an empty
/// list when `depth` is even.
fn nested_mixed(depth: usize) -> Vec<u8> {
    let pairs = (depth - 1) / 2;
    let mut v = vec![10, 0, 0];
    for _ in 0..pairs {
        v.extend_from_slice(&[9, 0, 1, b'l', 10, 0, 0, 0, 1]);
    }
    if depth % 2 == 0 {
        v.extend_from_slice(&[9, 0, 1, b'e', 0, 0, 0, 0, 0]);
    }
    v.extend(std::iter::repeat_n(0, pairs + 1));
    v
}

/// `depth` compounds built by hand, each the entry `a` of the one around it; `leaf` innermost.
fn owned_compounds(depth: usize, leaf: Tag) -> Tag {
    let mut c = Compound::new();
    c.insert("x", leaf);
    let mut t = Tag::Compound(c);
    for _ in 1..depth {
        let mut c = Compound::new();
        c.insert("a", t);
        t = Tag::Compound(c);
    }
    t
}

/// `depth` lists built by hand, the innermost empty.
fn owned_lists(depth: usize) -> Tag {
    let mut l = List::End;
    for _ in 1..depth {
        l = List::List(vec![l]);
    }
    Tag::List(l)
}

fn inputs() -> Vec<Vec<u8>> {
    vec![
        nested_compounds(MAX_DEPTH),
        nested_lists(MAX_DEPTH),
        nested_mixed(MAX_DEPTH),
    ]
}

#[test]
fn borrowed_document_at_the_limit() {
    on_small_stack(|| {
        for bytes in inputs() {
            let doc = Document::parse(&bytes, Variant::Java).unwrap();
            assert_eq!(doc.to_vec(Variant::Java).unwrap(), bytes);
            let nbt = doc.to_nbt().unwrap();
            assert_eq!(doc.root().to_tag().unwrap(), nbt.tag);
            assert!(format!("{doc:?}").starts_with("Document { variant: Java"));
        }
        for deeper in [nested_compounds(MAX_DEPTH + 1), nested_lists(MAX_DEPTH + 1)] {
            assert!(Document::parse(&deeper, Variant::Java).is_err());
        }
    });
}

#[test]
fn serde_at_the_limit() {
    on_small_stack(|| {
        for bytes in inputs() {
            let tag: Tag = serde_nbt::from_bytes(&bytes, Variant::Java).unwrap();
            let _: serde::de::IgnoredAny = serde_nbt::from_bytes(&bytes, Variant::Java).unwrap();
            assert_eq!(serde_nbt::to_vec(&tag, Variant::Java).unwrap(), bytes);
        }
    });
}

#[test]
fn owned_reader_and_writer_at_the_limit() {
    on_small_stack(|| {
        for bytes in inputs() {
            let nbt = Nbt::read(&bytes, Variant::Java).unwrap();
            assert_eq!(nbt.to_vec(Variant::Java).unwrap(), bytes);
            for variant in [Variant::BedrockNetwork, Variant::Bedrock] {
                let other = nbt.to_vec(variant).unwrap();
                assert_eq!(Nbt::read(&other, variant).unwrap(), nbt);
            }
        }
        let nbt = Nbt {
            name: String::new(),
            tag: owned_lists(MAX_DEPTH),
        };
        assert!(nbt.to_vec(Variant::Java).is_ok());
    });
}

#[test]
fn owned_tree_traits_at_the_limit() {
    on_small_stack(|| {
        for tag in [
            owned_compounds(MAX_DEPTH, Tag::Int(1)),
            owned_lists(MAX_DEPTH),
        ] {
            let copy = tag.clone();
            assert_eq!(copy, tag);
            assert!(!format!("{tag:?}").is_empty());
            drop(copy);
        }
    });
}

#[test]
fn snbt_at_the_limit() {
    on_small_stack(|| {
        for tag in [
            owned_compounds(MAX_DEPTH, Tag::Int(1)),
            owned_lists(MAX_DEPTH),
        ] {
            for dialect in [Dialect::Classic, Dialect::Modern] {
                for pretty in [false, true] {
                    let options = SnbtOptions::default()
                        .with_dialect(dialect)
                        .with_pretty(pretty);
                    let text = to_snbt(&tag, options);
                    assert_eq!(from_snbt(&text, dialect).unwrap(), tag);
                }
            }
        }
    });
}

#[test]
fn json_at_the_limit() {
    on_small_stack(|| {
        let tag = owned_compounds(MAX_DEPTH, Tag::Double(0.5));
        for pretty in [false, true] {
            assert!(json::to_json(&tag, pretty).is_ok());
        }
        // serde_json stops reading at 128 levels.
        let tag = owned_compounds(127, Tag::Double(0.5));
        assert_eq!(
            json::from_json(&json::to_json(&tag, false).unwrap()).unwrap(),
            tag
        );
        let tag = owned_lists(MAX_DEPTH);
        assert!(json::to_json(&tag, true).is_ok());
    });
}
