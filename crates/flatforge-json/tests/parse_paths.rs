//! The parser's fast paths (field names matched in place, numbers read in one pass) give the same
//! buffers and the same errors as the general paths they stand in front of: each case is written
//! once in the form the fast path takes and once in a form that needs the general path.

use flatforge_json::{Codec, ParseErrorKind, ParseOptions};

const SCHEMA: &str = "
    struct P { x: short; y: int; }
    table T { name: string; name2: int; a: int; p: P; r: double; f: float; u: ulong; t: T; }
    root_type T;
";

fn parse_with(json: &str, opts: ParseOptions) -> Result<Vec<u8>, (ParseErrorKind, usize, usize)> {
    let schema = flatforge_schema::compile_str("t.fbs", SCHEMA).unwrap();
    let codec = Codec::new(&schema);
    let root = codec.root_type(None).unwrap();
    let mut parser = codec.parser(opts);
    parser
        .parse(root, json.as_bytes())
        .map(<[u8]>::to_vec)
        .map_err(|e| (e.kind, e.line, e.column))
}

fn parse(json: &str) -> Result<Vec<u8>, (ParseErrorKind, usize, usize)> {
    parse_with(json, ParseOptions::default())
}

#[test]
fn field_names_in_order_out_of_order_and_escaped_agree() {
    let plain = parse(
        r#"{ "name": "n", "name2": 7, "a": 1, "p": { "x": 2, "y": 3 }, "r": 0.5, "f": 1.5 }"#,
    )
    .unwrap();
    for json in [
        // Bare and single-quoted names.
        r#"{ name: "n", name2: 7, a: 1, p: { x: 2, y: 3 }, r: 0.5, f: 1.5 }"#,
        r#"{ 'name': "n", 'name2': 7, 'a': 1, 'p': { 'x': 2, 'y': 3 }, 'r': 0.5, 'f': 1.5 }"#,
        // Escaped names, which only the general path decodes.
        r#"{ "n\u0061me": "n", "name\u0032": 7, "\u0061": 1, "p": { "\u0078": 2, "y": 3 }, "r": 0.5, "f": 1.5 }"#,
        // Fields out of schema order, names that are prefixes of the next field's.
        r#"{ "f": 1.5, "r": 0.5, "p": { "y": 3, "x": 2 }, "a": 1, "name2": 7, "name": "n" }"#,
        r#"{ "name2": 7, "name": "n", "a": 1, "p": { "x": 2, "y": 3 }, "r": 0.5, "f": 1.5 }"#,
    ] {
        assert_eq!(parse(json).unwrap(), plain, "{json}");
    }
}

#[test]
fn field_names_that_only_start_like_the_expected_one_are_errors() {
    for (json, field) in [
        (r#"{ "nam": "n" }"#, "nam"),
        (r#"{ "names": "n" }"#, "names"),
        (r#"{ name22: 1 }"#, "name22"),
        (r#"{ "name"2: 1 }"#, ""),
    ] {
        match parse(json).unwrap_err().0 {
            ParseErrorKind::UnknownField { field: f, .. } => assert_eq!(f, field, "{json}"),
            ParseErrorKind::Unexpected { .. } => assert_eq!(field, "", "{json}"),
            e => panic!("{json}: {e}"),
        }
    }
    let mut strict = ParseOptions::default();
    strict.strict_json = true;
    let err = parse_with("{ name: \"n\" }", strict).unwrap_err();
    assert!(
        matches!(err.0, ParseErrorKind::Unexpected { expected, .. } if expected == "a quoted field name"),
        "{err:?}"
    );
}

#[test]
fn numbers_agree_with_their_general_forms() {
    let fast =
        parse(r#"{ a: -100, p: { x: 2, y: -3 }, r: 0.25, f: 3.14159, u: 18446744073709551615 }"#)
            .unwrap();
    let general = parse(
        r#"{ a: "-100", p: { x: +2, y: -0x3 }, r: 2.5e-1, f: "3.14159", u: 0xFFFFFFFFFFFFFFFF }"#,
    )
    .unwrap();
    assert_eq!(fast, general);
}

#[test]
fn number_errors_keep_their_kind_and_position() {
    for (json, kind) in [
        ("{\n  a: 2147483648 }", "OutOfRange"),
        ("{\n  a: 1.5 }", "NotAnInteger"),
        ("{\n  a: 12abc }", "InvalidNumber"),
        ("{\n  r: 1e }", "InvalidNumber"),
        ("{\n  u: 18446744073709551616 }", "OutOfRange"),
    ] {
        let (err, line, column) = parse(json).unwrap_err();
        assert!(format!("{err:?}").starts_with(kind), "{json}: {err:?}");
        assert_eq!((line, column), (2, 6), "{json}");
    }
}

#[test]
fn a_field_set_twice_is_reported_at_its_second_name() {
    // Through the in-place match (schema order) and the general path (escaped or out of order).
    for json in [
        "{ a: 1,\n  a: 2 }",
        "{ \"a\": 1,\n  \"\\u0061\": 2 }",
        "{ p: { x: 1, y: 2 },\n  a: 1, p: { x: 3 } }",
    ] {
        let (kind, line, column) = parse(json).unwrap_err();
        let field = if json.contains("p: { x: 3") { "p" } else { "a" };
        assert_eq!(kind, ParseErrorKind::DuplicateField(field.into()), "{json}");
        let expected = if field == "p" { (2, 9) } else { (2, 3) };
        assert_eq!((line, column), expected, "{json}");
    }
    let (kind, line, column) = parse("{ p: { x: 1,\n y: 2, x: 3 } }").unwrap_err();
    assert_eq!(kind, ParseErrorKind::DuplicateField("x".into()));
    assert_eq!((line, column), (2, 8));
}

#[test]
fn whitespace_runs_of_every_length_and_comments_are_skipped() {
    let compact = parse(r#"{"name":"n","a":1,"p":{"x":2,"y":3},"r":0.5}"#).unwrap();
    for n in 0..20 {
        let sp = " ".repeat(n);
        let json = format!(
            "{sp}{{\n{sp}\"name\":{sp}\"n\",\r\n\t{sp}a{sp}:{sp}1{sp},{sp}// a: 2\n\
             {sp}p: /* {{ */{sp}{{{sp}x: 2,\t\ty:{sp}3{sp}}}{sp},\n{sp}r: 0.5{sp}}}{sp}"
        );
        assert_eq!(parse(&json).unwrap(), compact, "{json:?}");
    }
    let (kind, line, column) = parse("{\n  a: 1, /* no end\n}").unwrap_err();
    assert_eq!(kind, ParseErrorKind::UnterminatedComment);
    assert_eq!((line, column), (2, 9));
    let (kind, ..) = parse("{ a: 1 }        \u{1}").unwrap_err();
    assert!(matches!(kind, ParseErrorKind::Trailing(_)), "{kind:?}");
}

#[test]
fn tables_and_structs_in_array_form_skip_whitespace_between_values() {
    let object = parse(
        r#"{ t: { name: "n", name2: 7, a: 1, p: { x: 2, y: 3 }, r: 0.5, f: 1.5, u: 9, t: null } }"#,
    )
    .unwrap();
    for json in [
        r#"{t:["n",7,1,[2,3],0.5,1.5,9,null]}"#,
        "{ t: [\n  \"n\" ,\n  7,\t1 , [ 2 ,\n 3 ] , 0.5,1.5 ,\n  9, null\n] }",
        "{ t: [ \"n\", 7, 1, [2, 3,], 0.5, 1.5, 9, null, ] }",
    ] {
        assert_eq!(parse(json).unwrap(), object, "{json:?}");
    }
}

/// flatc's buffer for `json` under `schema` (`flatc -b`).
fn flatc_buffer(name: &str, schema: &str, json: &str) -> Vec<u8> {
    let dir = std::env::temp_dir().join(format!(
        "flatforge-json-paths-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("s.fbs"), schema).unwrap();
    std::fs::write(dir.join("d.json"), json).unwrap();
    let out = std::process::Command::new(flatforge_testkit::flatc_path())
        .current_dir(&dir)
        .args(["-b", "s.fbs", "d.json"])
        .output()
        .expect("run flatc");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(dir.join("d.bin")).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    bytes
}

#[test]
fn fields_are_written_in_flatcs_order_with_and_without_original_order() {
    let json = r#"{ a: 1, b: 2, c: 3, d: 4, e: "x", f: { x: 5, y: 6 }, g: 7 }"#;
    for attr in ["", "(original_order)"] {
        let schema = format!(
            "struct P {{ x: short; y: int; }}
             table T {attr} {{ a: byte; b: long; c: short; d: int; e: string; f: P; g: double; }}
             root_type T;"
        );
        let compiled = flatforge_schema::compile_str("s.fbs", &schema).unwrap();
        let codec = Codec::new(&compiled);
        let root = codec.root_type(None).unwrap();
        let ours = codec
            .parser(ParseOptions::default())
            .parse(root, json.as_bytes())
            .unwrap()
            .to_vec();
        let name = if attr.is_empty() {
            "sorted"
        } else {
            "original"
        };
        assert_eq!(ours, flatc_buffer(name, &schema, json), "{attr}");
    }
}

#[test]
fn strings_of_every_length_with_a_special_byte_anywhere() {
    for n in 0..40 {
        for at in 0..n {
            let text = |c: &str| format!("{}{c}{}", "a".repeat(at), "b".repeat(n - at - 1));
            // A quote of the other kind is plain text; the same text through escapes agrees.
            let plain = parse(&format!(r#"{{ "name": "{}" }}"#, text("'"))).unwrap();
            let escaped = parse(&format!(r#"{{ "name": "{}" }}"#, text(r"\u0027"))).unwrap();
            assert_eq!(plain, escaped, "{n} {at}");
            let plain = parse(&format!(r#"{{ "name": '{}' }}"#, text("\""))).unwrap();
            let escaped = parse(&format!(r#"{{ "name": "{}" }}"#, text(r#"\""#))).unwrap();
            assert_eq!(plain, escaped, "{n} {at}");
            // A control character is refused where it is.
            let (kind, line, column) =
                parse(&format!("{{ \"name\": \"{}\" }}", text("\u{1}"))).unwrap_err();
            assert_eq!(kind, ParseErrorKind::ControlCharacter(1), "{n} {at}");
            assert_eq!((line, column), (1, 12 + at), "{n} {at}");
        }
        let (kind, ..) = parse(&format!(r#"{{ "name": "{}"#, "a".repeat(n))).unwrap_err();
        assert_eq!(kind, ParseErrorKind::UnterminatedString, "{n}");
    }
}

/// Parses 3000 random mutations of `base`: each gives an error, or a buffer that verifies and
/// prints. Returns how many parsed.
fn mutations_parse_or_fail(codec: &Codec<'_>, base: &[u8]) -> usize {
    let root = codec.root_type(None).unwrap();
    let alphabet = b" \n\t{}[]:,\"'\\/*-+.0123456789eExab_\x01\xff";
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move |n: usize| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s % n as u64) as usize
    };
    let mut parser = codec.parser(ParseOptions::default());
    let mut printer = codec.printer(Default::default());
    let mut parsed = 0;
    for _ in 0..3000 {
        let mut json = base.to_vec();
        for _ in 0..1 + next(3) {
            if json.is_empty() {
                break;
            }
            let at = next(json.len());
            match next(4) {
                0 => {
                    json.remove(at);
                }
                1 => json.insert(at, alphabet[next(alphabet.len())]),
                2 => json[at] = alphabet[next(alphabet.len())],
                _ => json.truncate(at),
            }
        }
        if let Ok(bytes) = parser.parse(root, &json) {
            let bytes = bytes.to_vec();
            printer.print(root, &bytes).unwrap();
            parsed += 1;
        }
    }
    parsed
}

#[test]
fn mutated_json_gives_an_error_or_a_buffer_that_verifies() {
    let dir = flatforge_testkit::testdata("flatbuffers/tests");
    let schema = flatforge_schema::Compiler::new(flatforge_schema::FsLoader)
        .include_dir(dir.join("include_test"))
        .compile(dir.join("monster_test.fbs"))
        .unwrap()
        .schema;
    let base = std::fs::read(dir.join("monsterdata_test.golden")).unwrap();
    let parsed = mutations_parse_or_fail(&Codec::new(&schema), &base);
    // Some mutations (in whitespace, digits, strings) still parse.
    assert!(parsed > 100, "{parsed}");
    // Strings and vectors behind 64-bit offsets.
    let schema = flatforge_schema::Compiler::new(flatforge_schema::FsLoader)
        .compile(dir.join("64bit/test_64bit.fbs"))
        .unwrap()
        .schema;
    let base = std::fs::read(dir.join("64bit/test_64bit.json")).unwrap();
    let parsed = mutations_parse_or_fail(&Codec::new(&schema), &base);
    assert!(parsed > 100, "{parsed}");
}

/// A byte order mark before the text takes no column in error positions.
#[test]
fn a_byte_order_mark_takes_no_column() {
    let (_, line, column) = parse("{ name: 5 }").unwrap_err();
    assert_eq!((line, column), (1, 9));
    let (_, line, column) = parse("\u{feff}{ name: 5 }").unwrap_err();
    assert_eq!((line, column), (1, 9));
    let (_, line, column) = parse("\u{feff}{\n  name: 5 }").unwrap_err();
    assert_eq!((line, column), (2, 9));
}
