//! SNBT (both grammars) and JSON: the test files round-trip, and the grammar differences are honoured.

use flatforge_nbt::snbt::{from_snbt, to_snbt, Dialect, SnbtOptions};
use flatforge_nbt::{json, ErrorKind, List, Nbt, Tag};

fn parse(text: &str, dialect: Dialect) -> Tag {
    from_snbt(text, dialect).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn test_files_round_trip_through_snbt() {
    for name in [
        "bigtest.nbt",
        "complex_player.dat",
        "level.dat",
        "hypixel.nbt",
        "inttest1023.nbt",
        "arrays.nbt",
    ] {
        let data = std::fs::read(flatforge_testkit::testdata(&format!("nbt/{name}"))).unwrap();
        let (nbt, _) = Nbt::from_file_bytes(&data).unwrap();
        for dialect in [Dialect::Classic, Dialect::Modern] {
            for pretty in [false, true] {
                let text = to_snbt(
                    &nbt.tag,
                    SnbtOptions::default()
                        .with_dialect(dialect)
                        .with_pretty(pretty),
                );
                assert_eq!(
                    parse(&text, dialect),
                    nbt.tag,
                    "{name} {dialect:?} pretty={pretty}"
                );
            }
        }
    }
}

#[test]
fn bigtest_snbt_and_json_show_known_values() {
    let data = std::fs::read(flatforge_testkit::testdata("nbt/bigtest.nbt")).unwrap();
    let (nbt, _) = Nbt::from_file_bytes(&data).unwrap();
    let text = to_snbt(&nbt.tag, SnbtOptions::default());
    assert!(text.contains("longTest:9223372036854775807L"), "{text}");
    assert!(text.contains("floatTest:0.49823147f"), "{text}");
    assert!(text.contains("doubleTest:0.4931287132182315d"), "{text}");
    assert!(
        text.contains(r#""nested compound test":{egg:{name:"Eggbert",value:0.5f}"#)
            || text.contains(r#""nested compound test":{ham:"#),
        "{text}"
    );
    let j = json::to_json(&nbt.tag, false).unwrap();
    assert!(j.contains(r#""shortTest":32767"#), "{j}");
    assert!(
        j.contains(r#""stringTest":"HELLO WORLD THIS IS A TEST STRING ÅÄÖ!""#),
        "{j}"
    );
}

#[test]
fn classic_grammar() {
    let t = parse("{a:1b,b:2s,c:3,d:4L,e:5.5f,f:6.5,g:7d,h:true,i:abc,j:\"q\\\"\",k:[B;1b,2B],l:[I;],m:[L;1L]}", Dialect::Classic);
    let c = t.as_compound().unwrap();
    assert_eq!(c["a"], Tag::Byte(1));
    assert_eq!(c["b"], Tag::Short(2));
    assert_eq!(c["c"], Tag::Int(3));
    assert_eq!(c["d"], Tag::Long(4));
    assert_eq!(c["e"], Tag::Float(5.5));
    assert_eq!(c["f"], Tag::Double(6.5));
    assert_eq!(c["g"], Tag::Double(7.0));
    assert_eq!(c["h"], Tag::Byte(1));
    assert_eq!(c["i"], Tag::from("abc"));
    assert_eq!(c["j"], Tag::from("q\""));
    assert_eq!(c["k"], Tag::ByteArray(vec![1, 2]));
    assert_eq!(c["l"], Tag::IntArray(vec![]));
    assert_eq!(c["m"], Tag::LongArray(vec![1]));
    // Out-of-range and malformed numbers are strings in the classic grammar.
    assert_eq!(parse("300b", Dialect::Classic), Tag::from("300b"));
    assert_eq!(parse("0x10", Dialect::Classic), Tag::from("0x10"));
    assert_eq!(parse("1_000", Dialect::Classic), Tag::from("1_000"));
    // Lists must be homogeneous; only \\ and quotes are escapes.
    let err = from_snbt("[1, 2b]", Dialect::Classic).unwrap_err();
    assert_eq!(err.offset(), Some(0));
    assert!(from_snbt(r#""a\nb""#, Dialect::Classic).is_err());
    assert!(from_snbt("[I; 1b]", Dialect::Classic).is_err());
}

#[test]
fn modern_grammar() {
    assert_eq!(parse("0x1F", Dialect::Modern), Tag::Int(31));
    assert_eq!(parse("0b101", Dialect::Modern), Tag::Int(5));
    assert_eq!(parse("1_000_000", Dialect::Modern), Tag::Int(1_000_000));
    assert_eq!(parse("255ub", Dialect::Modern), Tag::Byte(-1));
    assert_eq!(parse("-1sb", Dialect::Modern), Tag::Byte(-1));
    assert_eq!(parse("0xFFFFFFFF", Dialect::Modern), Tag::Int(-1));
    assert_eq!(
        parse("4000000000ul", Dialect::Modern),
        Tag::Long(4_000_000_000)
    );
    assert_eq!(parse("1e3", Dialect::Modern), Tag::Double(1000.0));
    assert_eq!(parse("1.5e-1f", Dialect::Modern), Tag::Float(0.15));
    assert_eq!(parse("bool(5)", Dialect::Modern), Tag::Byte(1));
    assert_eq!(parse("bool(false)", Dialect::Modern), Tag::Byte(0));
    assert_eq!(
        parse(
            "uuid(\"f81d4fae-7dec-11d0-a765-00a0c91e6bf6\")",
            Dialect::Modern
        ),
        Tag::IntArray(vec![
            0xf81d4faeu32 as i32,
            0x7dec11d0,
            0xa76500a0u32 as i32,
            0xc91e6bf6u32 as i32
        ])
    );
    assert_eq!(
        parse(r#""a\tb\u00e9\x41\U0001F600\s""#, Dialect::Modern),
        Tag::from("a\tbéA😀 ")
    );
    assert_eq!(
        parse("[B; 1, 2b, 255ub]", Dialect::Modern),
        Tag::ByteArray(vec![1, 2, -1])
    );
    assert_eq!(
        parse("{a: 1, b: [1, 2,],}", Dialect::Modern)
            .as_compound()
            .unwrap()
            .len(),
        2
    );
    // Heterogeneous lists become lists of compounds, non-compounds wrapped under the empty key.
    let Tag::List(List::Compound(items)) = parse("[1, 'x', {a: 1b}, {'': 2}]", Dialect::Modern)
    else {
        panic!("expected a list of compounds");
    };
    assert_eq!(items[0][""], Tag::Int(1));
    assert_eq!(items[1][""], Tag::from("x"));
    assert_eq!(items[2]["a"], Tag::Byte(1));
    assert_eq!(items[3][""].as_compound().unwrap()[""], Tag::Int(2));
    // Malformed or out-of-range numbers are errors, not strings.
    for bad in ["300b", "1_", "0xZZ", "-1ub", "99999999999", "1.2.3"] {
        let err = from_snbt(bad, Dialect::Modern).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Snbt(_)), "{bad}: {err}");
    }
}

#[test]
fn snbt_errors_name_offset_and_path() {
    let err = from_snbt("{a: {b: [1, 2, x]}}", Dialect::Classic).unwrap_err();
    assert_eq!(err.path(), "a.b");
    let err = from_snbt("{a: [{}, {c: 1b, d: ]}", Dialect::Modern).unwrap_err();
    assert_eq!(err.path(), "a[1].d");
    assert_eq!(err.offset(), Some(20));
    let deep = "[".repeat(600) + &"]".repeat(600);
    assert_eq!(
        from_snbt(&deep, Dialect::Modern).unwrap_err().kind(),
        &ErrorKind::TooDeep(512)
    );
    let ok = "[".repeat(512) + &"]".repeat(512);
    assert!(from_snbt(&ok, Dialect::Modern).is_ok());
    assert!(from_snbt("{a:1} x", Dialect::Modern).is_err());
    assert!(from_snbt("\"abc", Dialect::Modern).is_err());
}

#[test]
fn classic_booleans_ignore_case_as_minecraft_does() {
    // Minecraft up to 1.21.4 tests `"true".equalsIgnoreCase(value)`; found by comparing with its rules.
    for (text, byte) in [("true", 1), ("TRUE", 1), ("True", 1), ("fAlSe", 0)] {
        assert_eq!(parse(text, Dialect::Classic), Tag::Byte(byte), "{text}");
        assert_eq!(
            parse(&format!("[{text},1b]"), Dialect::Classic),
            Tag::List(List::Byte(vec![byte, 1])),
            "{text}"
        );
    }
    assert_eq!(parse("truer", Dialect::Classic), Tag::from("truer"));
    assert_eq!(parse("true", Dialect::Modern), Tag::Byte(1));
}

#[test]
fn classic_strings_escape_only_their_own_quote_as_minecraft_does() {
    // Brigadier's `readStringUntil` takes `\\` and the opening quote after a backslash, nothing else;
    // found by reading amulet-nbt's SNBT, which leaves a backslash in a key unescaped (`"a\'"`).
    assert_eq!(parse(r#""a\"b\\""#, Dialect::Classic), Tag::from("a\"b\\"));
    assert_eq!(parse(r"'a\'b'", Dialect::Classic), Tag::from("a'b"));
    for text in [r#""a\'b""#, r#"'a\"b'"#, r#"{"k\'":1}"#] {
        let err = from_snbt(text, Dialect::Classic).unwrap_err();
        assert!(err.to_string().contains("invalid escape"), "{text}: {err}");
    }
    // 1.21.5+ takes either quote in either kind of string.
    assert_eq!(parse(r#""a\'b""#, Dialect::Modern), Tag::from("a'b"));
    assert_eq!(parse(r#"'a\"b'"#, Dialect::Modern), Tag::from("a\"b"));
}

#[test]
fn classic_arrays_start_right_after_the_bracket_as_minecraft_does() {
    // Minecraft's classic TagParser peeks at the two characters after `[` for `B;`: with a space
    // between, it reads a list, whose element `B` is followed by a `;`, which is an error.
    let t = parse("[B;1b, 2b]", Dialect::Classic);
    assert_eq!(t, Tag::ByteArray(vec![1, 2]));
    assert_eq!(parse("[I; 3]", Dialect::Classic), Tag::IntArray(vec![3]));
    for text in ["[ B;1b]", "[\tI;1]", "[ L; 1L]"] {
        let err = from_snbt(text, Dialect::Classic).unwrap_err();
        assert!(
            err.to_string().contains("expected ',' or ']'"),
            "{text}: {err}"
        );
    }
    // A list of the strings `B` and `I` is still a list.
    assert_eq!(
        parse("[ B, I]", Dialect::Classic),
        Tag::List(List::String(vec!["B".into(), "I".into()]))
    );
    // The 1.21.5 grammar skips the space (unchanged).
    assert_eq!(parse("[ B;1b]", Dialect::Modern), Tag::ByteArray(vec![1]));
}

#[test]
fn both_grammars_take_a_trailing_comma_as_minecraft_does() {
    // Minecraft's classic TagParser loops on `peek() != '}'` (or `']'`) after each comma, so a last comma
    // is accepted; a comma alone is not.
    for dialect in [Dialect::Classic, Dialect::Modern] {
        let t = parse("{a: [1, 2,], b: [I; 3,], c: [B; 4b ,],}", dialect);
        let c = t.as_compound().unwrap();
        assert_eq!(c["a"], Tag::List(List::Int(vec![1, 2])));
        assert_eq!(c["b"], Tag::IntArray(vec![3]));
        assert_eq!(c["c"], Tag::ByteArray(vec![4]));
        for text in ["{,}", "[,]", "[I;,]", "{a:1,,}", "[1,,]", "{a:1,"] {
            assert!(from_snbt(text, dialect).is_err(), "{text} {dialect:?}");
        }
    }
}

#[test]
fn special_floats_round_trip_in_snbt_but_not_json() {
    let t = Tag::List(List::Double(vec![f64::INFINITY, f64::NEG_INFINITY]));
    let text = to_snbt(&t, SnbtOptions::default());
    assert_eq!(text, "[Infinityd,-Infinityd]");
    assert_eq!(parse(&text, Dialect::Modern), t);
    let Tag::Float(nan) = parse("NaNf", Dialect::Classic) else {
        panic!("NaNf is a float")
    };
    assert!(nan.is_nan());
    let err = json::to_json(
        &Tag::Compound([("x", f32::NAN)].into_iter().collect()),
        false,
    )
    .unwrap_err();
    assert_eq!(err.path(), "x");
}

#[test]
fn json_errors() {
    assert!(json::from_json("{\"a\": null}").is_err());
    assert!(json::from_json("[1, \"a\"]").is_err());
    assert!(json::from_json("18446744073709551615").is_err());
    assert!(json::from_json("{").is_err());
    assert_eq!(
        json::from_json("[1, 3000000000, 2.5]").unwrap(),
        Tag::List(List::Double(vec![1.0, 3e9, 2.5]))
    );
}

/// The string tag `text` parses to in the modern grammar, or the error's message and offset.
#[cfg(feature = "unicode-names")]
fn modern_string(text: &str) -> Result<String, (String, Option<usize>)> {
    match from_snbt(text, Dialect::Modern) {
        Ok(Tag::String(s)) => Ok(s),
        Ok(other) => panic!("{text}: not a string: {other:?}"),
        Err(e) => Err((e.to_string(), e.offset())),
    }
}

#[cfg(feature = "unicode-names")]
#[test]
fn named_escapes_as_minecraft_takes_them() {
    // Names as the Unicode Character Database gives them, in any case, spaces around them ignored (Java's
    // Character.codePointOf trims and upper-cases).
    assert_eq!(
        modern_string(r#""\N{LATIN SMALL LETTER A}""#),
        Ok("a".into())
    );
    assert_eq!(
        modern_string(r#""\N{snowman}\N{Grinning Face}""#),
        Ok("☃😀".into())
    );
    assert_eq!(
        modern_string(r#"'x\N{  HYPHEN-MINUS }y'"#),
        Ok("x-y".into())
    );
    assert_eq!(
        modern_string(r#""\N{CJK COMPATIBILITY IDEOGRAPH-F900}""#),
        Ok("\u{F900}".into())
    );
    assert_eq!(modern_string(r#""\N{SPACE}""#), Ok(" ".into()));
    // Refused as Java refuses them: UAX #44 loose matching, name aliases, the computed names of CJK
    // ideographs and Hangul syllables, unknown names. Refused though Java takes it: "NULL", the Unicode
    // 1.0 name Java gives U+0000 (control characters are written with \x or \u).
    for name in [
        "LATINSMALLLETTERA",
        "LATIN SMALL LETTER-A",
        "BYTE ORDER MARK",
        "CJK UNIFIED IDEOGRAPH-4E00",
        "HANGUL SYLLABLE GA",
        "NULL",
        "NO SUCH CHARACTER",
        // Found by nbt_snbt: a leading hyphen made unicode_names2 subtract past zero (a panic with
        // overflow checks on).
        "-lat",
        " -A",
        "-",
    ] {
        let text = format!(r#""ab\N{{{name}}}""#);
        let (msg, offset) = modern_string(&text).unwrap_err();
        assert!(msg.contains("unknown character name"), "{name}: {msg}");
        assert_eq!(offset, Some(6), "{name}: the error points at the name");
    }
    // The name is a run of ASCII letters, digits, spaces and hyphens closed by '}'.
    let (msg, offset) = modern_string(r#""\N{LATIN_SMALL_LETTER_A}""#).unwrap_err();
    assert!(msg.contains("'}'"), "{msg}");
    assert_eq!(offset, Some(9));
    let (msg, offset) = modern_string(r#""\N{}""#).unwrap_err();
    assert!(msg.contains("expected a character name"), "{msg}");
    assert_eq!(offset, Some(4));
    let (msg, offset) = modern_string(r#""\NA""#).unwrap_err();
    assert!(msg.contains("expected '{'"), "{msg}");
    assert_eq!(offset, Some(3));
    let (_, offset) = modern_string(r#""\N{SNOWMAN"#).unwrap_err();
    assert_eq!(offset, Some(11));
    // The classic grammar has no such escape.
    assert!(from_snbt(r#""\N{SNOWMAN}""#, Dialect::Classic).is_err());
}

#[cfg(not(feature = "unicode-names"))]
#[test]
fn named_escapes_need_the_feature() {
    let e = from_snbt(r#""\N{SNOWMAN}""#, Dialect::Modern).unwrap_err();
    assert!(e.to_string().contains("unicode-names"), "{e}");
    assert_eq!(e.offset(), Some(4));
}
