//! Corners of flatc's JSON dialect found by differential testing against flatc 25.12.19, each
//! checked by running flatc on the same input: where flatc accepts, our buffer must be
//! byte-identical to its buffer, and our printing with flatc's float text must equal its text.

use std::path::PathBuf;
use std::process::Command;

use flatforge_json::{
    Codec, FloatFormat, NonFinite, ParseError, ParseErrorKind, ParseOptions, PrintOptions,
};
use flatforge_testkit::{flatc_path, testdata};

/// A schema as flatc reads it (with its include directories) and as we compile it.
struct Fixture {
    schema: PathBuf,
    includes: Vec<PathBuf>,
    root: Option<&'static str>,
    model: flatforge_schema::Schema,
}

impl Fixture {
    fn new(schema: &str, includes: &[&str], root: Option<&'static str>) -> Fixture {
        let includes: Vec<PathBuf> = includes.iter().map(|d| testdata(d)).collect();
        let schema = testdata(schema);
        let model = includes
            .iter()
            .fold(
                flatforge_schema::Compiler::new(flatforge_schema::FsLoader),
                |c, d| c.include_dir(d),
            )
            .compile(&schema)
            .unwrap_or_else(|e| panic!("{}", e.render(false)))
            .schema;
        Fixture {
            schema,
            includes,
            root,
            model,
        }
    }

    /// A schema given as text (written to a temporary file, for flatc).
    fn inline(text: &str) -> Fixture {
        let path = temp_dir().join("schema.fbs");
        std::fs::write(&path, text).unwrap();
        let model = flatforge_schema::Compiler::new(flatforge_schema::FsLoader)
            .compile(&path)
            .unwrap_or_else(|e| panic!("{}", e.render(false)))
            .schema;
        Fixture {
            schema: path,
            includes: Vec::new(),
            root: None,
            model,
        }
    }

    fn monster() -> Fixture {
        Fixture::new(
            "flatbuffers/tests/monster_test.fbs",
            &["flatbuffers/tests/include_test"],
            None,
        )
    }

    fn optional_scalars() -> Fixture {
        Fixture::new("flatbuffers/tests/optional_scalars.fbs", &[], None)
    }

    /// The id of field `field` of table `object`.
    fn field_id(&self, object: &str, field: &str) -> usize {
        let o = self
            .model
            .objects
            .iter()
            .find(|o| o.name.as_str() == object);
        let f = o.and_then(|o| o.fields.iter().find(|f| f.name.as_str() == field));
        usize::from(f.expect("field").id)
    }

    /// Runs flatc with `args` on `input` (written to a file; a buffer if `binary`) and returns
    /// the one file it wrote.
    fn flatc(&self, args: &[&str], input: &[u8], binary: bool) -> Result<Vec<u8>, String> {
        let dir = temp_dir();
        let path = dir.join(if binary { "input.bin" } else { "input.json" });
        std::fs::write(&path, input).unwrap();
        let out = dir.join("out");
        std::fs::create_dir_all(&out).unwrap();
        let mut cmd = Command::new(flatc_path());
        cmd.args(args).arg("-o").arg(&out);
        for inc in &self.includes {
            cmd.arg("-I").arg(inc);
        }
        if let Some(root) = self.root {
            cmd.args(["--root-type", root]);
        }
        cmd.arg(&self.schema);
        if binary {
            // Files after `--` are buffers.
            cmd.arg("--");
        }
        cmd.arg(&path);
        let res = cmd.output().expect("run flatc");
        let r = if res.status.success() {
            Ok(flatforge_testkit::only_file_in(&out))
        } else {
            Err(String::from_utf8_lossy(&res.stderr).into_owned())
        };
        let _ = std::fs::remove_dir_all(&dir);
        r
    }

    /// flatc's buffer for `json` (`flatc -b` with `args`).
    fn flatc_bin(&self, args: &[&str], json: &[u8]) -> Result<Vec<u8>, String> {
        let mut all = vec!["-b"];
        all.extend_from_slice(args);
        self.flatc(&all, json, false)
    }

    /// Our buffer for `json`.
    fn ours(&self, opts: ParseOptions, json: &[u8]) -> Result<Vec<u8>, ParseError> {
        let codec = Codec::new(&self.model);
        let root = codec.root_type(self.root).unwrap();
        let mut parser = codec.parser(opts);
        parser.parse(root, json).map(<[u8]>::to_vec)
    }

    /// flatc's text for `bin` (`flatc -t` with `args`).
    fn flatc_text(&self, args: &[&str], bin: &[u8]) -> String {
        let mut all = vec!["-t", "--raw-binary"];
        all.extend_from_slice(args);
        let text = self.flatc(&all, bin, true).expect("flatc -t");
        String::from_utf8(text).expect("flatc wrote UTF-8")
    }

    /// Our text for `bin`.
    fn print(&self, opts: PrintOptions, bin: &[u8]) -> String {
        let codec = Codec::new(&self.model);
        let root = codec.root_type(self.root).unwrap();
        let mut printer = codec.printer(opts);
        printer.print(root, bin).unwrap().to_string()
    }

    /// Both flatc and we accept `json`, with identical bytes; returns them.
    fn same_bytes(&self, json: &[u8]) -> Vec<u8> {
        let shown = String::from_utf8_lossy(json);
        let theirs = self
            .flatc_bin(&[], json)
            .unwrap_or_else(|e| panic!("flatc refuses {shown}: {e}"));
        let ours = self
            .ours(ParseOptions::default(), json)
            .unwrap_or_else(|e| panic!("we refuse {shown}: {e}"));
        assert_eq!(hex(&ours), hex(&theirs), "{shown}: our bytes differ");
        ours
    }
}

fn temp_dir() -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir =
        std::env::temp_dir().join(format!("flatforge-json-dialect-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A bool given as an integer keeps its value, as flatc keeps it (it used to be stored as 1), in
/// fields, vectors and optional fields; [0, 255] is still the range.
#[test]
fn bools_keep_the_integer_given() {
    let monster = Fixture::monster();
    for json in [
        "{name: \"\", testbool: 2}",
        "{name: \"\", testbool: 255}",
        "{name: \"\", testbool: 0x1F}",
        "{name: \"\", testbool: \"7\"}",
        "{name: \"\", testbool: true}",
        "{name: \"\", testarrayofbools: [2, \"0x1F\", true, 0, false, 1]}",
    ] {
        monster.same_bytes(json.as_bytes());
    }
    let bytes = monster.same_bytes(b"{name: \"\", testbool: 2}");
    let table = flatforge::root::<flatforge::Table>(&bytes).unwrap();
    assert_eq!(
        table
            .get::<u8>(monster.field_id("Monster", "testbool"))
            .unwrap(),
        Some(2)
    );
    for json in ["{name: \"\", testbool: 256}", "{name: \"\", testbool: -1}"] {
        assert!(monster.flatc_bin(&[], json.as_bytes()).is_err());
        assert!(monster
            .ours(ParseOptions::default(), json.as_bytes())
            .is_err());
    }
    let optional = Fixture::optional_scalars();
    for json in [
        "{just_bool: 255}",
        "{maybe_bool: \"7\"}",
        "{default_bool: 2}",
        "{default_bool: 1}",
        "{default_bool: 0}",
    ] {
        optional.same_bytes(json.as_bytes());
    }
}

/// A hashed field given the word `null`, bare or quoted, holds the hash of `null`, as in flatc (the
/// field was left out for a bare `null`).
#[test]
fn hashed_fields_hash_the_word_null() {
    let monster = Fixture::monster();
    for field in ["testhashu32_fnv1", "testhashs64_fnv1a", "testhashu64_fnv1"] {
        let bare = monster.same_bytes(format!("{{name: \"\", {field}: null}}").as_bytes());
        let quoted = monster.same_bytes(format!("{{name: \"\", {field}: \"null\"}}").as_bytes());
        assert_eq!(bare, quoted, "{field}");
    }
    let bytes = monster.same_bytes(b"{name: \"\", testhashu32_fnv1: null}");
    let table = flatforge::root::<flatforge::Table>(&bytes).unwrap();
    let id = monster.field_id("Monster", "testhashu32_fnv1");
    // FNV-1 (32 bits) of "null".
    assert_eq!(table.get::<u32>(id).unwrap(), Some(0x2ebc_d6a6));
    // Given twice, it is a duplicate as any other value.
    let twice = b"{name: \"\", testhashu32_fnv1: 1, testhashu32_fnv1: null}";
    assert!(monster.flatc_bin(&[], twice).is_err());
    let err = monster.ours(ParseOptions::default(), twice).unwrap_err();
    assert!(
        matches!(err.kind, ParseErrorKind::DuplicateField(_)),
        "{err}"
    );
}

/// A hashed vector (`[uint] (hash: ...)`) given `null` is left out, as any vector: only a hashed
/// scalar hashes the word.
#[test]
fn a_hashed_vector_given_null_is_left_out() {
    let schema =
        "table T { hv: [uint] (hash: \"fnv1_32\"); h: uint (hash: \"fnv1_32\"); } root_type T;";
    let t = Fixture::inline(schema);
    let empty = t.same_bytes(b"{}");
    assert_eq!(t.same_bytes(b"{hv: null}"), empty);
    t.same_bytes(b"{hv: [\"a\", 7], h: null}");
    t.same_bytes(b"{hv: null, hv: [\"b\"]}");
}

/// flatc ignores `null` for a field that is not a scalar, so `null` is no duplicate of a value
/// and a value no duplicate of `null`; a required field left out by `null` alone is still
/// missing. Scalars given twice stay duplicates, `null` or not, and the type of a union is a
/// scalar: `null` for it is an invalid number.
#[test]
fn null_for_a_reference_is_ignored_as_by_flatc() {
    let monster = Fixture::monster();
    for json in [
        "{name: \"\", name: null}",
        "{name: null, name: \"x\"}",
        "{name: \"x\", enemy: {name: \"a\"}, enemy: null}",
        "{name: \"x\", enemy: null, enemy: null}",
        "{name: \"x\", pos: null, pos: null}",
        "{name: \"x\", testarrayoftables: null, testarrayoftables: []}",
        "{name: \"x\", test_type: Monster, test: {name: \"a\"}, test: null}",
        "{name: \"x\", test: null, test_type: Monster, test: {name: \"a\"}}",
    ] {
        monster.same_bytes(json.as_bytes());
    }
    let optional = Fixture::optional_scalars();
    for (fixture, json, word) in [
        (&monster, "{name: \"x\", name: \"y\"}", "name"),
        (
            &monster,
            "{name: \"x\", enemy: {name: \"a\"}, enemy: null, enemy: {name: \"b\"}}",
            "enemy",
        ),
        (&optional, "{just_i8: 1, just_i8: null}", "just_i8"),
        (&optional, "{maybe_i8: null, maybe_i8: 1}", "maybe_i8"),
        (&optional, "{maybe_i8: null, maybe_i8: null}", "maybe_i8"),
    ] {
        let theirs = fixture.flatc_bin(&[], json.as_bytes()).unwrap_err();
        assert!(
            theirs.contains("field set more than once"),
            "{json}: {theirs}"
        );
        let err = fixture
            .ours(ParseOptions::default(), json.as_bytes())
            .unwrap_err();
        assert_eq!(
            err.kind,
            ParseErrorKind::DuplicateField(word.into()),
            "{json}"
        );
    }
    for (json, at) in [
        ("{name: null}", 7),
        ("{name: null, hp: 1}", 7),
        ("{hp: 1, name: null, name: null}", 14),
    ] {
        assert!(monster.flatc_bin(&[], json.as_bytes()).is_err(), "{json}");
        let err = monster
            .ours(ParseOptions::default(), json.as_bytes())
            .unwrap_err();
        assert!(
            matches!(&err.kind, ParseErrorKind::MissingRequired { field, .. } if field == "name"),
            "{json}: {err}"
        );
        assert_eq!(err.offset, at, "{json}: at the first null");
    }
    let json = b"{name: \"\", test_type: null}";
    assert!(monster.flatc_bin(&[], json).is_err());
    let err = monster.ours(ParseOptions::default(), json).unwrap_err();
    assert!(
        matches!(&err.kind, ParseErrorKind::InvalidNumber { value, .. } if value == "null"),
        "{err}"
    );
}

/// Comments may hold bytes that are not UTF-8 (flatc skips them unread); strings, keys and
/// skipped values still may not, nor may the bytes between tokens. Errors point at the bad byte.
#[test]
fn comments_may_hold_any_bytes_but_strings_may_not() {
    let monster = Fixture::monster();
    for json in [
        &b"{name: \"\" // \xff\n}"[..],
        b"{name: \"\" /* \xff\xfe */}",
        b"// \xc3\n{name: \"\xc3\xa9\"}",
        b"{name: \"\xc3\xa9\", /* \x80 */ hp: 1 // \xf0\x9f\n}",
        b"{name: \"x\", hp: 1} // \xff",
        // Numbers and names too are read as usual when the input is not all UTF-8.
        b"{name: \"x\", hp: -12, testf: 3.14159265358979323846, color: Blue} // \xff",
    ] {
        monster.same_bytes(json);
    }
    let mut unknown = ParseOptions::default();
    unknown.unknown_fields = true;
    for (json, at) in [
        (&b"{name: \"\xff\"}"[..], 8),
        (b"{\"na\xffme\": \"\"}", 4),
        (b"{name: \"a\\n\xff\"} // \xff", 11),
        (b"{name: \"\", \xff: 1} // \xff", 11),
        (b"{name: \"\", hp: 1\xff} // \xff", 16),
        (b"{name: \"\", flex: {\"\xff\": 1}} // \xff", 19),
        (
            b"{name: \"\", testarrayofstring: [\"a\", \"\xe9\"]} // \xff",
            37,
        ),
        (b"{name: \"\", color: \"\xff\"} // \xff", 19),
        (b"{name: \"\", zz: [\"\xff\"]} // \xff", 17),
        (b"{name: \"\"} \xff", 11),
    ] {
        let shown = String::from_utf8_lossy(json);
        assert!(
            monster.flatc_bin(&["--unknown-json"], json).is_err(),
            "{shown}"
        );
        let err = monster.ours(unknown.clone(), json).unwrap_err();
        assert_eq!(err.kind, ParseErrorKind::InvalidUtf8, "{shown}: {err}");
        assert_eq!(err.offset, at, "{shown}: {err}");
    }
}

/// `nan`, `inf` and `infinity`, signed or not, are FlexBuffer doubles as in flatc (`-nan` is the
/// positive quiet NaN there too); other spellings are not values. Integers beyond 64-bit signed
/// stay refused (flatc stores 0 for them), with an error that says so.
#[test]
fn flexbuffer_special_floats_and_big_integers() {
    let monster = Fixture::monster();
    for value in [
        "nan",
        "-nan",
        "+nan",
        "inf",
        "+inf",
        "-inf",
        "infinity",
        "-infinity",
        "[inf, -inf, nan, 1, -nan]",
        "{a: -nan, b: +infinity, c: [infinity]}",
    ] {
        monster.same_bytes(format!("{{name: \"\", flex: {value}}}").as_bytes());
    }
    for value in ["NaN", "Infinity", "nanx", "-x", "-nanx", "- inf"] {
        let json = format!("{{name: \"\", flex: {value}}}");
        assert!(monster.flatc_bin(&[], json.as_bytes()).is_err(), "{json}");
        assert!(
            monster
                .ours(ParseOptions::default(), json.as_bytes())
                .is_err(),
            "{json}"
        );
    }
    for value in [
        "9223372036854775808",
        "-9223372036854775809",
        "18446744073709551615",
        "0x8000000000000000",
    ] {
        let json = format!("{{name: \"\", flex: [1, {value}]}}");
        let err = monster
            .ours(ParseOptions::default(), json.as_bytes())
            .unwrap_err();
        assert_eq!(
            err.kind,
            ParseErrorKind::FlexIntegerRange(value.into()),
            "{json}"
        );
        assert_eq!(err.offset, 21, "{json}");
        assert!(err.to_string().contains("flatc would store 0"), "{err}");
    }
}

/// A NaN with its sign bit set prints as `-nan` with flatc's float text, as flatc prints it, in
/// fields and in FlexBuffers; our default text keeps `nan` (the sign of a NaN means nothing to
/// parsers), quoted in strict JSON, FlexBuffers included (so the text stays valid JSON). Every
/// text reads back to a NaN, but for a quoted one in a FlexBuffer, which reads back as a string.
#[test]
fn negative_nan_prints_as_flatc_prints_it() {
    let aliases = Fixture::new(
        "flatbuffers/tests/monster_test.fbs",
        &["flatbuffers/tests/include_test"],
        Some("MyGame.Example.TypeAliases"),
    );
    let monster = Fixture::monster();
    // Sets the sign bit of every NaN (as flatc's parser writes them) in `bin`.
    let negate_nans = |mut bin: Vec<u8>| {
        let mut found = 0;
        for nan in [&f64::NAN.to_le_bytes()[..], &f32::NAN.to_le_bytes()[..]] {
            let mut at = 0;
            while let Some(i) = bin[at..].windows(nan.len()).position(|w| w == nan) {
                at += i + nan.len();
                bin[at - 1] |= 0x80;
                found += 1;
            }
        }
        assert!(found > 0, "no NaN");
        bin
    };
    let fields = negate_nans(aliases.same_bytes(b"{f32: nan, f64: nan}"));
    let flex = negate_nans(monster.same_bytes(b"{name: \"\", flex: [nan, 0.5, nan, 1e300]}"));
    for (fixture, bin) in [(&aliases, &fields), (&monster, &flex)] {
        for strict in [false, true] {
            let mut opts = PrintOptions::default();
            opts.strict_json = strict;
            opts.float_format = FloatFormat::Flatc;
            opts.non_finite = NonFinite::Bare;
            opts.verify.check_identifier = false;
            let args: &[&str] = if strict { &["--strict-json"] } else { &[] };
            let theirs = fixture.flatc_text(args, bin);
            assert!(theirs.contains("-nan"), "{theirs}");
            assert_eq!(fixture.print(opts.clone(), bin), theirs);
            // With flatc's float text but our quoting, and with our default text.
            opts.non_finite = NonFinite::Auto;
            let flatc_floats = fixture.print(opts.clone(), bin);
            opts.float_format = FloatFormat::Shortest;
            let shortest = fixture.print(opts, bin);
            assert!(!shortest.contains("-nan"), "{shortest}");
            for text in [flatc_floats, shortest] {
                if strict {
                    serde_json::from_str::<serde_json::Value>(&text).expect("valid JSON");
                }
                let again = fixture
                    .ours(ParseOptions::default(), text.as_bytes())
                    .unwrap();
                if strict && std::ptr::eq(fixture, &monster) {
                    // Quoted, a FlexBuffer's NaN reads back as a string: no schema says it
                    // was a number.
                    assert!(again.windows(4).any(|w| w == b"nan\0"), "{text}");
                } else {
                    assert_eq!(again.len(), bin.len(), "{text}");
                }
            }
        }
    }
    let mut strict = PrintOptions::default();
    strict.float_format = FloatFormat::Flatc;
    strict.verify.check_identifier = false;
    let text = aliases.print(strict, &fields);
    assert!(text.contains("\"f64\": \"-nan\""), "{text}");
    serde_json::from_str::<serde_json::Value>(&text).expect("valid JSON");
}

/// FlexBuffer offsets get the width flatc's builder gives them near the 1-byte/2-byte boundary:
/// flatc sizes each element's offset from its index counted from the vector's first value on
/// the builder's stack (we counted from the bottom of the stack, so nested vectors and maps came
/// out wider than flatc's at some lengths, as `L` = 239 and 246 to 248 below).
#[test]
fn flexbuffer_offset_widths_match_flatc_near_the_byte_boundary() {
    let monster = Fixture::monster();
    for len in 230..=262 {
        let x = "x".repeat(len);
        for json in [
            format!("{{name: \"\", flex: {{a: \"{x}\", b: {{a: 1}}}}}}"),
            format!("{{name: \"\", flex: [{{a: 1}}, \"{x}\", {{a: 2}}]}}"),
            format!("{{name: \"\", flex: [[1, \"{x}\"], {{k: \"{x}y\", j: [1, 2], a: {{b: 1}}}}, 300]}}"),
        ] {
            monster.same_bytes(json.as_bytes());
        }
    }
}

/// The depth limit counts what flatc counts: tables and structs, and every FlexBuffer value and
/// every skipped value (scalars too); vectors and fixed arrays do not count. So the deepest input
/// flatc accepts is accepted (with identical bytes) and one level more is refused by both, for
/// each way to nest. The recursion stays bounded: a vector's elements are tables, structs or
/// unions, which count. The checks run on a thread of 2 MiB, the size Rust gives spawned threads:
/// the deepest input must fit it in an unoptimized build too (about 13 KiB a level of vectors of
/// tables; it overflowed at 43 KiB a level while errors were returned unboxed).
#[test]
fn depth_limit_counts_as_flatc_counts() {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(deepest_inputs_like_flatc)
        .unwrap()
        .join()
        .unwrap();
}

fn deepest_inputs_like_flatc() {
    let monster = Fixture::monster();
    type Shape = fn(usize) -> String;
    let shapes: [(&str, usize, bool, Shape); 9] = [
        ("enemy", 63, false, |n| {
            format!(
                "{{name: \"a\", {}hp: 1{}}}",
                "enemy: {name: \"b\", ".repeat(n),
                "}".repeat(n)
            )
        }),
        ("testarrayoftables", 62, false, |n| {
            let open = "{name: \"b\", testarrayoftables: [".repeat(n);
            format!(
                "{{name: \"a\", testarrayoftables: [{open}{{name: \"c\"}}{}]}}",
                "]}".repeat(n)
            )
        }),
        ("union", 62, false, |n| {
            let open = "{name: \"b\", test_type: Monster, test: ".repeat(n);
            format!(
                "{{name: \"a\", test_type: Monster, test: {open}{{name: \"c\"}}{}}}",
                "}".repeat(n)
            )
        }),
        ("testnestedflatbuffer", 61, false, |n| {
            let open = "{name: \"b\", testnestedflatbuffer: ".repeat(n);
            format!(
                "{{name: \"a\", testnestedflatbuffer: {open}{{name: \"c\"}}{}}}",
                "}".repeat(n)
            )
        }),
        ("flex vectors", 62, false, |n| {
            format!("{{name: \"a\", flex: {}1{}}}", "[".repeat(n), "]".repeat(n))
        }),
        ("flex maps", 62, false, |n| {
            format!(
                "{{name: \"a\", flex: {}[1, 2]{}}}",
                "{a: 0, b: ".repeat(n - 1),
                "}".repeat(n - 1)
            )
        }),
        ("unknown field", 62, true, |n| {
            format!("{{name: \"a\", zz: {}1{}}}", "[".repeat(n), "]".repeat(n))
        }),
        ("flex under tables", 31, false, |n| {
            let tables = "{name: \"b\", testarrayoftables: [".repeat(30);
            let flex = format!("{}1{}", "[".repeat(n), "]".repeat(n));
            format!(
                "{{name: \"a\", testarrayoftables: [{tables}{{name: \"c\", flex: {flex}}}{}]}}",
                "]}".repeat(30)
            )
        }),
        ("structs under tables", 60, false, |n| {
            let open = "{name: \"b\", testarrayoftables: [".repeat(n);
            let pos = "pos: {x: 1, y: 2, z: 3, test1: 0, test2: Red, test3: {a: 1, b: 2}}";
            format!(
                "{{name: \"a\", testarrayoftables: [{open}{{name: \"c\", {pos}}}{}]}}",
                "]}".repeat(n)
            )
        }),
    ];
    let mut opts = ParseOptions::default();
    opts.unknown_fields = true;
    for (what, deepest, unknown, shape) in shapes {
        let args: &[&str] = if unknown { &["--unknown-json"] } else { &[] };
        let ok = shape(deepest);
        let theirs = monster
            .flatc_bin(args, ok.as_bytes())
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        let ours = monster
            .ours(opts.clone(), ok.as_bytes())
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(hex(&ours), hex(&theirs), "{what}");
        let deeper = shape(deepest + 1);
        assert!(
            monster.flatc_bin(args, deeper.as_bytes()).is_err(),
            "{what}: flatc takes {}",
            deepest + 1
        );
        let err = monster.ours(opts.clone(), deeper.as_bytes()).unwrap_err();
        assert_eq!(err.kind, ParseErrorKind::DepthLimit(64), "{what}");
    }
}

/// `characters: []` with no `characters_type`: flatc writes the empty vector of values alone (and
/// so do we, byte for byte). Such a buffer verifies and prints as flatc prints it, though C++'s
/// generated verifiers reject it; a half alone that is not empty is an error.
#[test]
fn an_empty_union_vector_without_types_reads_back() {
    let uv = Fixture::new("flatbuffers/tests/union_vector/union_vector.fbs", &[], None);
    let bin = uv.same_bytes(b"{ characters: [] }");
    let text = uv.print(PrintOptions::default(), &bin);
    assert_eq!(text, uv.flatc_text(&["--strict-json"], &bin));
    let codec = Codec::new(&uv.model);
    let root = codec.root_type(None).unwrap();
    assert!(codec.verify(root, &bin, &Default::default()).is_ok());
    let err = uv
        .ours(
            ParseOptions::default(),
            b"{ characters: [{books_read: 1}] }",
        )
        .unwrap_err();
    assert!(err.to_string().contains("characters"), "{err}");
}
