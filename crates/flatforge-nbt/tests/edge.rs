//! Edge cases of the binary readers and writers: modified UTF-8, string limits, End lists, depth, bad
//! lengths, and errors that name the offset and path.

mod common;

use common::nested_compounds;
use flatforge_nbt::borrowed::Document;
use flatforge_nbt::{Compound, ErrorKind, Format, List, Nbt, Tag, Variant, MAX_DEPTH};

/// Reads with both the owned and the borrowed reader and checks that they agree, errors included.
fn read(bytes: &[u8], variant: Variant) -> flatforge_nbt::Result<Nbt> {
    let owned = Nbt::read(bytes, variant);
    let borrowed = Document::parse(bytes, variant).and_then(|d| d.to_nbt());
    assert_eq!(owned, borrowed, "owned and borrowed readers disagree");
    if let Ok(nbt) = &owned {
        let doc = Document::parse(bytes, variant).unwrap();
        assert_eq!(
            &Nbt::read(&doc.to_vec(variant).unwrap(), variant).unwrap(),
            nbt
        );
    }
    owned
}

fn java_root(payload: &[u8]) -> Vec<u8> {
    let mut v = vec![10, 0, 0];
    v.extend_from_slice(payload);
    v
}

#[test]
fn modified_utf8_nul_and_surrogate_pairs() {
    let s = "a\0\u{1F600}é";
    let nbt = Nbt {
        name: String::new(),
        tag: Tag::from(s),
    };
    let bytes = nbt.to_vec(Variant::Java).unwrap();
    // type, empty name, length 1 + 2 + 6 + 2 = 11, then the modified UTF-8.
    assert_eq!(
        bytes,
        [8, 0, 0, 0, 11, b'a', 0xC0, 0x80, 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80, 0xC3, 0xA9]
    );
    assert_eq!(read(&bytes, Variant::Java).unwrap(), nbt);
    // Bedrock strings are plain UTF-8.
    let le = nbt.to_vec(Variant::Bedrock).unwrap();
    assert_eq!(&le[5..], s.as_bytes());
    assert_eq!(read(&le, Variant::Bedrock).unwrap(), nbt);
}

/// Names and strings of every length around the writers' short path (up to 32 bytes), plain or with a
/// NUL or a character above U+FFFF at each position, are written byte for byte as the format says: modified
/// UTF-8 in Java, UTF-8 in Bedrock files; by the owned writer and by the borrowed one converting.
#[test]
fn names_and_strings_around_the_short_path_are_encoded_exactly() {
    let mut texts = Vec::new();
    for len in 0..=40 {
        let base: String = (0..len)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        texts.push(base.clone());
        for pos in 0..len {
            for odd in ["\0", "\u{1F600}", "é"] {
                let mut t = base.clone();
                t.replace_range(pos..pos + 1, odd);
                texts.push(t);
            }
        }
    }
    for (variant, java) in [(Variant::Java, true), (Variant::Bedrock, false)] {
        let put = |out: &mut Vec<u8>, text: &str| {
            let mut bytes = Vec::new();
            if java {
                flatforge_nbt::mutf8::encode(text, &mut bytes);
                out.extend_from_slice(&(bytes.len() as u16).to_be_bytes());
            } else {
                bytes.extend_from_slice(text.as_bytes());
                out.extend_from_slice(&(bytes.len() as u16).to_le_bytes());
            }
            out.extend_from_slice(&bytes);
        };
        for text in &texts {
            let mut root = Compound::new();
            root.push(text.as_str(), 7i32);
            root.push(text.as_str(), text.as_str());
            root.push("s", text.as_str());
            let nbt = Nbt::new(text.as_str(), root);
            let mut expected = vec![10];
            put(&mut expected, text);
            expected.push(3);
            put(&mut expected, text);
            expected.extend_from_slice(&if java {
                7i32.to_be_bytes()
            } else {
                7i32.to_le_bytes()
            });
            expected.push(8);
            put(&mut expected, text);
            put(&mut expected, text);
            expected.push(8);
            put(&mut expected, "s");
            put(&mut expected, text);
            expected.push(0);
            assert_eq!(nbt.to_vec(variant).unwrap(), expected, "{variant} {text:?}");
            // Read back (short ASCII names and strings are copied without decoding, others decoded).
            assert_eq!(read(&expected, variant).unwrap(), nbt, "{variant} {text:?}");
            let other = if java {
                Variant::Bedrock
            } else {
                Variant::Java
            };
            let converted = Document::parse(&nbt.to_vec(other).unwrap(), other)
                .unwrap()
                .to_vec(variant)
                .unwrap();
            assert_eq!(converted, expected, "{other} to {variant} {text:?}");
        }
    }
}

/// Every truncation and many corruptions of a document with compounds in compounds and in lists, lists of
/// lists, arrays and strings give the same result from both readers: the same value, or the same error
/// kind, offset and path (the borrowed reader reads most entries on its fast path, the owned one does not).
/// The exception: the owned reader stops at the first invalid string, while the borrowed one decodes
/// strings only when asked and may first find a later error in the structure.
#[test]
fn readers_agree_on_every_truncation_and_corruption() {
    let read = |bytes: &[u8], variant| {
        let owned = Nbt::read(bytes, variant);
        let borrowed = Document::parse(bytes, variant).and_then(|d| d.to_nbt());
        match (&owned, &borrowed) {
            // Compared as bytes: a corrupted float may be a NaN, unequal to itself.
            (Ok(a), Ok(b)) => assert_eq!(a.to_vec(variant).unwrap(), b.to_vec(variant).unwrap()),
            (Err(e), _) if matches!(e.kind(), ErrorKind::InvalidString(_)) => {
                assert!(borrowed.is_err())
            }
            _ => assert_eq!(owned, borrowed, "{variant} {bytes:?}"),
        }
        owned
    };
    let mut item = Compound::new();
    item.insert("Slot", 3i8);
    item.insert("id", "minecraft:stone");
    item.insert("ints", Tag::IntArray(vec![1, -2, 3]));
    item.insert("bytes", Tag::ByteArray(vec![1, 2]));
    item.insert("longs", Tag::LongArray(vec![7]));
    let mut tag = Compound::new();
    tag.insert("Damage", 5i32);
    tag.insert(
        "lists",
        List::List(vec![List::Short(vec![1, 2]), List::End]),
    );
    item.insert("tag", tag);
    let mut player = Compound::new();
    player.insert("Health", 20.0f32);
    player.insert("Inventory", List::Compound(vec![item.clone(), item]));
    player.insert("Pos", List::Double(vec![0.5, 64.0, -3.25]));
    player.insert("names", List::String(vec!["a".into(), "bc".into()]));
    let nbt = Nbt::new("root", [("Player", player)].into_iter().collect());
    for variant in [Variant::Java, Variant::Bedrock] {
        let bytes = nbt.to_vec(variant).unwrap();
        assert_eq!(read(&bytes, variant).unwrap(), nbt);
        for cut in 0..bytes.len() {
            assert!(
                read(&bytes[..cut], variant).is_err(),
                "{variant} cut at {cut}"
            );
        }
        for at in 0..bytes.len() {
            for value in [0x00, 0x01, 0x08, 0x09, 0x0A, 0x0D, 0x7F, 0x80, 0xFF] {
                let mut bad = bytes.clone();
                bad[at] = value;
                // `read` asserts that both readers agree; either result is fine here.
                read(&bad, variant).ok();
            }
        }
    }
}

#[test]
fn plain_utf8_is_accepted_in_java_strings() {
    // A raw NUL and a 4-byte sequence are not canonical modified UTF-8 but are read as written.
    let mut bytes = vec![8, 0, 0, 0, 5, 0];
    bytes.extend_from_slice("😀".as_bytes());
    assert_eq!(read(&bytes, Variant::Java).unwrap().tag, Tag::from("\0😀"));
}

#[test]
fn lone_surrogate_is_an_error_with_offset_and_path() {
    let mut bytes = java_root(&[8, 0, 1, b's', 0, 3, 0xED, 0xA0, 0xBD]);
    bytes.push(0);
    let err = read(&bytes, Variant::Java).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::InvalidString("unpaired surrogate"));
    assert_eq!(err.offset(), Some(9));
    assert_eq!(err.path(), "s");
}

#[test]
fn a_lone_surrogate_met_while_writing_another_variant_says_where() {
    // The borrowed reader decodes strings only when asked: converting to Bedrock asks.
    let mut bytes = java_root(&[8, 0, 1, b's', 0, 3, 0xED, 0xA0, 0xBD]);
    bytes.push(0);
    let doc = Document::parse(&bytes, Variant::Java).unwrap();
    let err = doc.to_vec(Variant::Bedrock).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::InvalidString("unpaired surrogate"));
    assert_eq!((err.offset(), err.path()), (Some(9), "s".to_string()));
    // A bad root name is at 3, a bad field name at 6.
    let root = [10, 0, 3, 0xED, 0xA0, 0xBD, 0];
    let err = Document::parse(&root, Variant::Java)
        .unwrap()
        .to_vec(Variant::Bedrock)
        .unwrap_err();
    assert_eq!(err.offset(), Some(3));
    let mut name = java_root(&[1, 0, 3, 0xED, 0xA0, 0xBD, 7]);
    name.push(0);
    let err = Document::parse(&name, Variant::Java)
        .unwrap()
        .to_vec(Variant::Bedrock)
        .unwrap_err();
    assert_eq!(err.offset(), Some(6));
}

#[test]
fn strings_of_65535_bytes_and_one_more() {
    let ok = "x".repeat(65535);
    let nbt = Nbt::new("", [("s", ok.as_str())].into_iter().collect());
    for variant in [Variant::Java, Variant::Bedrock] {
        let bytes = nbt.to_vec(variant).unwrap();
        assert_eq!(read(&bytes, variant).unwrap(), nbt);
    }
    let too_long = Nbt::new("", [("s", "x".repeat(65536))].into_iter().collect());
    for variant in [Variant::Java, Variant::Bedrock] {
        let err = too_long.to_vec(variant).unwrap_err();
        assert_eq!(
            err.kind(),
            &ErrorKind::StringTooLong {
                len: 65536,
                max: 65535
            }
        );
        assert_eq!(err.path(), "s");
    }
    // 21,846 NULs take 43,692 bytes in modified UTF-8; 32,768 take 65,536.
    let nuls = Nbt::new("", [("n", "\0".repeat(32768))].into_iter().collect());
    assert!(matches!(
        nuls.to_vec(Variant::Java).unwrap_err().kind(),
        ErrorKind::StringTooLong { len: 65536, .. }
    ));
    // Bedrock network has no 16-bit limit.
    let bytes = too_long.to_vec(Variant::BedrockNetwork).unwrap();
    assert_eq!(read(&bytes, Variant::BedrockNetwork).unwrap(), too_long);
}

#[test]
fn empty_list_of_end_and_non_empty_list_of_end() {
    let bytes = java_root(&[9, 0, 1, b'l', 0, 0, 0, 0, 0, 0]);
    let nbt = read(&bytes, Variant::Java).unwrap();
    assert_eq!(nbt.root()["l"], Tag::List(List::End));
    assert_eq!(nbt.to_vec(Variant::Java).unwrap(), bytes);

    let bad = java_root(&[9, 0, 1, b'l', 0, 0, 0, 0, 2, 0]);
    let err = read(&bad, Variant::Java).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::EndListNotEmpty(2));
    assert_eq!((err.offset(), err.path().as_str()), (Some(8), "l"));
}

#[test]
fn empty_typed_list_keeps_its_type() {
    let bytes = java_root(&[9, 0, 1, b'l', 3, 0, 0, 0, 0, 0]);
    let nbt = read(&bytes, Variant::Java).unwrap();
    assert_eq!(nbt.root()["l"], Tag::List(List::Int(vec![])));
    assert_eq!(nbt.to_vec(Variant::Java).unwrap(), bytes);
}

/// A root compound holding `depth - 1` lists nested inside each other.
fn nested_lists(depth: usize) -> Vec<u8> {
    let mut v = vec![10, 0, 0, 9, 0, 1, b'l'];
    for _ in 2..depth {
        v.extend_from_slice(&[9, 0, 0, 0, 1]);
    }
    v.extend_from_slice(&[0, 0, 0, 0, 0, 0]);
    v
}

/// Runs `f` on a thread with a 16 MiB stack: unoptimised builds use up to 8 KiB of stack per nesting level
/// (about 4 MiB at depth 512, more than a default 2 MiB test thread); optimised builds need under 256 KiB.
fn with_big_stack(f: fn()) {
    std::thread::Builder::new()
        .stack_size(16 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn depth_512_is_accepted_and_513_rejected() {
    with_big_stack(depth_512_is_accepted_and_513_rejected_inner);
}

fn depth_512_is_accepted_and_513_rejected_inner() {
    for make in [nested_compounds, nested_lists] {
        let ok = make(MAX_DEPTH);
        let nbt = read(&ok, Variant::Java).unwrap();
        assert_eq!(nbt.to_vec(Variant::Java).unwrap(), ok);
        let err = read(&make(MAX_DEPTH + 1), Variant::Java).unwrap_err();
        assert_eq!(err.kind(), &ErrorKind::TooDeep(512));
        // The message shows the ends of the 512-step path, not all of it.
        let message = err.to_string();
        assert!(message.len() < 200, "{message}");
        assert!(message.contains("…(496 more)…"), "{message}");
        assert!(err.path().len() > 1000);
    }
    // Writing a tree that is too deep fails too.
    let mut tag = Tag::Compound(Compound::new());
    for _ in 0..MAX_DEPTH {
        let mut c = Compound::new();
        c.insert("a", tag);
        tag = Tag::Compound(c);
    }
    let nbt = Nbt {
        name: String::new(),
        tag,
    };
    assert_eq!(
        nbt.to_vec(Variant::Java).unwrap_err().kind(),
        &ErrorKind::TooDeep(512)
    );
}

#[test]
fn lengths_larger_than_the_input_fail_before_allocating() {
    for ty in [7u8, 11, 12] {
        // A 2-billion-element array backed by 3 bytes.
        let bytes = java_root(&[ty, 0, 1, b'a', 0x7f, 0xff, 0xff, 0xff, 1, 2, 3]);
        let err = read(&bytes, Variant::Java).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::UnexpectedEof { .. }),
            "{err}"
        );
        // The length is at 7..11; the missing elements would start at 11.
        assert_eq!((err.offset(), err.path().as_str()), (Some(11), "a"));
    }
    for ety in 1u8..=12 {
        let bytes = java_root(&[9, 0, 1, b'l', ety, 0x7f, 0xff, 0xff, 0xff, 0]);
        let err = read(&bytes, Variant::Java).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::UnexpectedEof { .. }),
            "{ety}: {err}"
        );
    }
    // A string longer than what is left.
    let err = read(
        &java_root(&[8, 0, 1, b's', 0xff, 0xff, b'x']),
        Variant::Java,
    )
    .unwrap_err();
    assert!(matches!(
        err.kind(),
        ErrorKind::UnexpectedEof {
            needed: 65535,
            remaining: 1
        }
    ));
}

#[test]
fn negative_lengths_are_rejected() {
    for ty in [7u8, 11, 12] {
        let bytes = java_root(&[ty, 0, 1, b'a', 0xff, 0xff, 0xff, 0xfe, 0]);
        let err = read(&bytes, Variant::Java).unwrap_err();
        assert_eq!(err.kind(), &ErrorKind::NegativeLength(-2));
        assert_eq!(err.offset(), Some(7));
    }
    let bytes = java_root(&[9, 0, 1, b'l', 1, 0x80, 0, 0, 0, 0]);
    let err = read(&bytes, Variant::Java).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::NegativeLength(i32::MIN.into()));
    // Bedrock network: zigzag 3 is -2.
    let err = read(&[10, 0, 7, 0, 3, 0], Variant::BedrockNetwork).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::NegativeLength(-2));
}

#[test]
fn errors_name_the_path() {
    // Level.Data.Player.Inventory[3].id where id has an invalid tag type inside a compound.
    let mut inv = Vec::new();
    for i in 0..4 {
        let mut c = Compound::new();
        c.insert("Slot", i as i8);
        c.insert("id", "minecraft:stone");
        inv.push(c);
    }
    let mut player = Compound::new();
    player.insert("Inventory", List::Compound(inv));
    let mut data = Compound::new();
    data.insert("Player", player);
    let mut level = Compound::new();
    level.insert("Data", data);
    let nbt = Nbt::new("", [("Level", level)].into_iter().collect());
    let mut bytes = nbt.to_vec(Variant::Java).unwrap();
    let needle = b"minecraft:stone";
    let last = bytes
        .windows(needle.len())
        .rposition(|w| w == needle)
        .unwrap();
    bytes[last] = 0xFF; // not valid (modified) UTF-8
    let err = read(&bytes, Variant::Java).unwrap_err();
    assert_eq!(err.path(), "Level.Data.Player.Inventory[3].id");
    assert_eq!(err.offset(), Some(last));
    assert_eq!(
        err.to_string(),
        format!(
            "invalid string: invalid lead byte at byte {} in Level.Data.Player.Inventory[3].id",
            last
        )
    );
}

#[test]
fn write_errors_name_the_path_through_compounds_in_compounds_and_lists() {
    let mut item = Compound::new();
    item.insert("id", "minecraft:stone");
    let mut bad = Compound::new();
    bad.insert("ok", 1i8);
    bad.insert("s", "x".repeat(65536));
    let mut data = Compound::new();
    data.insert("Inventory", List::Compound(vec![item, bad]));
    let nbt = Nbt::new(
        "",
        [("Level", [("Data", data)].into_iter().collect::<Compound>())]
            .into_iter()
            .collect(),
    );
    for variant in Variant::ALL {
        if variant == Variant::BedrockNetwork {
            // No 16-bit string limit there.
            assert!(nbt.to_vec(variant).is_ok());
            continue;
        }
        let err = nbt.to_vec(variant).unwrap_err();
        assert_eq!(err.path(), "Level.Data.Inventory[1].s", "{variant}");
    }
}

#[test]
fn a_failed_read_leaves_nothing_for_the_next_one() {
    // Entries of compounds that were being read when the error came must not turn up in the compounds of
    // a later read on the same thread (the owned reader gathers entries on a stack kept between reads).
    let mut inner = Compound::new();
    inner.insert("a", 1i32);
    inner.insert("b", "two");
    inner.insert("c", Tag::Compound([("d", 4i64)].into_iter().collect()));
    let nbt = Nbt::new(
        "root",
        [("x", inner.clone()), ("y", inner)].into_iter().collect(),
    );
    let good = nbt.to_vec(Variant::Java).unwrap();
    for cut in 0..good.len() {
        assert!(Nbt::read(&good[..cut], Variant::Java).is_err(), "{cut}");
        assert_eq!(
            Nbt::read(&good, Variant::Java).unwrap(),
            nbt,
            "after a read cut at {cut}"
        );
    }
}

#[test]
fn invalid_tag_types_truncation_and_trailing_bytes() {
    let err = read(&java_root(&[13, 0, 0, 0]), Variant::Java).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (&ErrorKind::InvalidTagType(13), Some(3))
    );
    let err = read(&[0], Variant::Java).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::InvalidTagType(0));
    let err = read(&[], Variant::Java).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::UnexpectedEof { .. }));
    let err = read(&java_root(&[0, 0]), Variant::Java).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (&ErrorKind::TrailingBytes(1), Some(4))
    );
    for cut in 0..11 {
        let full = java_root(&[3, 0, 1, b'i', 0, 0, 0, 1, 0]);
        assert!(read(&full[..cut], Variant::Java).is_err());
    }
}

#[test]
fn bedrock_network_uses_zigzag_varints() {
    let mut c = Compound::new();
    c.insert("i", -1i32);
    c.insert("l", 300i64);
    c.insert("s", "é");
    c.insert("a", vec![1i32, -2]);
    let nbt = Nbt::new("", c);
    let bytes = nbt.to_vec(Variant::BedrockNetwork).unwrap();
    assert_eq!(
        bytes,
        [
            10, 0, // root compound, empty name
            3, 1, b'i', 1, // int -1 -> zigzag 1
            4, 1, b'l', 0xD8, 0x04, // long 300 -> zigzag 600
            8, 1, b's', 2, 0xC3, 0xA9, // string, varuint length
            11, 1, b'a', 4, 2, 3, // int array: zigzag length 2, elements 1 and -2
            0
        ]
    );
    assert_eq!(read(&bytes, Variant::BedrockNetwork).unwrap(), nbt);
    // Over-long varints are rejected.
    let err = read(
        &[3, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
        Variant::BedrockNetwork,
    )
    .unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::VarIntTooLong);
}

#[test]
fn bedrock_level_dat_header() {
    let mut c = Compound::new();
    c.insert("LevelName", "My World");
    let nbt = Nbt::new("", c);
    let format = Format::new(Variant::Bedrock, flatforge_nbt::Compression::None)
        .with_bedrock_header(Some(10));
    let bytes = nbt.to_file_bytes(&format).unwrap();
    assert_eq!(&bytes[..4], &10i32.to_le_bytes());
    assert_eq!(&bytes[4..8], &((bytes.len() - 8) as u32).to_le_bytes());
    let (back, found) = Nbt::from_file_bytes(&bytes).unwrap();
    assert_eq!((back, found), (nbt.clone(), format));
    let (back, found) = Nbt::from_file_bytes_as(&bytes, Variant::Bedrock).unwrap();
    assert_eq!((back, found), (nbt, format));
    // An error after the header reports the offset in the file.
    let mut bad = bytes.clone();
    bad[9] = 0xff;
    bad[10] = 0xff;
    let err = Nbt::from_file_bytes_as(&bad, Variant::Bedrock).unwrap_err();
    // The name length 0xFFFF is read at 9; the missing bytes would start at 11.
    assert_eq!(err.offset(), Some(11));
}

#[test]
fn java_network_has_no_root_name_and_any_root() {
    let nbt = Nbt {
        name: String::new(),
        tag: Tag::List(List::Int(vec![1])),
    };
    let bytes = nbt.to_vec(Variant::JavaNetwork).unwrap();
    assert_eq!(bytes, [9, 3, 0, 0, 0, 1, 0, 0, 0, 1]);
    assert_eq!(read(&bytes, Variant::JavaNetwork).unwrap(), nbt);
}

#[test]
fn garbage_is_not_detected_as_nbt() {
    let err = Nbt::from_file_bytes(b"hello, this is not NBT").unwrap_err();
    assert!(err.offset().is_some(), "{err}");
    let err = Nbt::from_file_bytes(&[0x1f, 0x8b, 8, 0, 1, 2]).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Compression(_)), "{err}");
}

/// A cut gzip file said only "decompression failed: incomplete deflate stream": it now says how
/// far decompression got, and from how many compressed bytes (no byte offset can be exact: the
/// decoder reads ahead).
#[test]
fn cut_compressed_data_says_how_far_it_got() {
    let plain = flatforge_nbt::Nbt::new("", flatforge_nbt::Compound::new())
        .to_vec(flatforge_nbt::Variant::Java)
        .unwrap();
    for compression in [
        flatforge_nbt::Compression::Gzip,
        flatforge_nbt::Compression::Zlib,
    ] {
        let packed = flatforge_nbt::compress(&plain, compression).unwrap();
        let cut = &packed[..packed.len() - 6];
        let err = flatforge_nbt::decompress(cut).unwrap_err().to_string();
        assert!(
            err.starts_with(&format!(
                "decompression failed: {compression} data cut short or corrupt ("
            )),
            "{err}"
        );
        assert!(
            err.ends_with(&format!("from {} compressed bytes", cut.len())),
            "{err}"
        );
    }
}

/// Counts of one say "byte": "1 more bytes needed" read badly.
#[test]
fn one_byte_is_singular() {
    let packed = flatforge_nbt::compress(&[7], flatforge_nbt::Compression::Zlib).unwrap();
    let err = flatforge_nbt::decompress(&packed[..packed.len() - 4])
        .unwrap_err()
        .to_string();
    assert!(err.contains("after 1 decompressed byte from"), "{err}");
    for (data, message) in [
        (
            &[1, 0, 0][..],
            "unexpected end of input: 1 more byte needed, 0 left at byte 3",
        ),
        (
            &[1, 0, 0, 5, 5],
            "1 trailing byte after the root tag at byte 4",
        ),
    ] {
        let err = flatforge_nbt::Nbt::read(data, flatforge_nbt::Variant::Java).unwrap_err();
        assert_eq!(err.to_string(), message);
    }
}

/// A level.dat whose header's length disagrees with the file was read without the header, and the
/// error said "13 trailing bytes after the root tag at byte 4": it now blames the header.
#[test]
fn level_dat_header_with_a_wrong_length_is_blamed() {
    let mut c = Compound::new();
    c.insert("a", 5i32);
    let format = Format::new(Variant::Bedrock, flatforge_nbt::Compression::None)
        .with_bedrock_header(Some(10));
    let ok = Nbt::new("", c).to_file_bytes(&format).unwrap();
    assert_eq!(ok.len(), 20);
    let mut junk = ok.clone();
    junk.extend_from_slice(b"xyz");
    for (data, expected) in [
        (
            &ok[..17],
            "invalid header: Bedrock level.dat header (version 10) claims 12 bytes of NBT, but the \
             file has 9 after it (reading them: unexpected end of input: 4 more bytes needed, 2 \
             left at byte 15 in a) at byte 4",
        ),
        (
            &junk[..],
            "invalid header: Bedrock level.dat header (version 10) claims 12 bytes of NBT, but the \
             file has 15 after it (a root tag of 12 then trailing bytes) at byte 4",
        ),
    ] {
        for err in [
            Nbt::from_file_bytes(data).unwrap_err(),
            Nbt::from_file_bytes_as(data, Variant::Bedrock).unwrap_err(),
        ] {
            assert!(matches!(err.kind(), ErrorKind::InvalidHeader(_)), "{err}");
            assert_eq!(err.to_string(), expected);
        }
        // Read as Java, there is no header to blame.
        let err = Nbt::from_file_bytes_as(data, Variant::Java).unwrap_err();
        assert!(!matches!(err.kind(), ErrorKind::InvalidHeader(_)), "{err}");
    }

    // A right header before a broken compound: the error is from reading after the header.
    let mut bad = ok.clone();
    bad[11] = 99;
    let err = Nbt::from_file_bytes(&bad).unwrap_err();
    assert_eq!(err.to_string(), "invalid tag type 99 at byte 11");

    // Java NBT whose root is named with 5 letters and holds a compound first has a compound tag at
    // byte 8 too; broken further on, it is no header's fault.
    let mut inner = Compound::new();
    inner.insert("x", 1i8);
    let mut root = Compound::new();
    root.insert("inner", inner);
    let mut java = Nbt::new("hello", root).to_vec(Variant::Java).unwrap();
    assert_eq!(java[8], 10);
    let last = java.len() - 1;
    java[last] = 42;
    let err = Nbt::from_file_bytes(&java).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("invalid tag type 42 at byte {last}")
    );
}
