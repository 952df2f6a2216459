//! Conformance against the reference flatc on FlatBuffers' own test files, in both directions:
//!
//! - JSON -> binary: our buffer is byte-identical to `flatc -b`'s (and flatc prints both alike);
//!   JSON that flatc rejects must be listed as rejected, and we must reject it too;
//! - binary -> JSON: with flatc's float text, our output is byte-identical to `flatc -t` (strict,
//!   non-strict, `--defaults-json`, `--natural-utf8`); with our default (shortest) floats it differs
//!   only in number lines, and every float we print reads back (`str::parse`) to exactly the bits
//!   in the buffer;
//! - round trips: golden files parse and print back to themselves;
//! - 64-bit offsets (`offset64`, `vector64`): the above where flatc 25.12.19 can do it; where it
//!   cannot print (`vector64` fields make its printer assert) or writes a wrong buffer (some
//!   `vector64` layouts, see [`sixty_four_bit_offsets`]), against the JSON the buffers were made
//!   from and against buffers written by flatc's C++ `FlatBufferBuilder64` (`tests/data/64bit`).

use std::path::{Path, PathBuf};
use std::process::Command;

use flatforge_json::{Codec, FloatFormat, NonFinite, ParseOptions, PrintOptions};
use flatforge_testkit::{flatc_path, testdata};

mod exact_floats;

struct Case {
    name: &'static str,
    schema: &'static str,
    includes: &'static [&'static str],
    json: &'static [&'static str],
    /// JSON written here (and to a file for flatc), with the test file its buffer must equal.
    texts: &'static [(&'static str, Option<&'static str>)],
    /// JSON files that flatc rejects and we must reject too, with a word both errors name.
    rejected: &'static [(&'static str, &'static str)],
    bins: &'static [&'static str],
    /// Whether flatc can print these buffers (flatc 25.12.19 asserts on `vector64` fields).
    flatc_prints: bool,
    /// Golden files: JSON that must survive parse -> print -> parse -> print; `true` for files that
    /// are flatc's own output (non-strict), which our output must equal.
    goldens: &'static [(&'static str, bool)],
    /// Whether our buffers are byte-identical to flatc's. Not so for unions with struct members
    /// aligned to less than 4: flatc writes them at their own alignment, our builder at 4.
    byte_exact: bool,
}

const CASES: &[Case] = &[
    Case {
        name: "monster",
        schema: "flatbuffers/tests/monster_test.fbs",
        includes: &["flatbuffers/tests/include_test"],
        json: &[
            "flatbuffers/tests/monsterdata_test.json",
            "flatbuffers/tests/monsterdata_test.golden",
        ],
        texts: &[],
        rejected: &[],
        bins: &["flatbuffers/tests/monsterdata_test.mon"],
        flatc_prints: true,
        goldens: &[("flatbuffers/tests/monsterdata_test.golden", true)],
        byte_exact: true,
    },
    Case {
        name: "unicode",
        schema: "flatbuffers/tests/monster_test.fbs",
        includes: &["flatbuffers/tests/include_test"],
        json: &["flatbuffers/tests/unicode_test.json"],
        texts: &[],
        rejected: &[],
        bins: &["flatbuffers/tests/unicode_test.mon"],
        flatc_prints: true,
        goldens: &[],
        byte_exact: true,
    },
    Case {
        name: "optional_scalars",
        schema: "flatbuffers/tests/optional_scalars.fbs",
        includes: &[],
        json: &[
            "flatbuffers/tests/optional_scalars.json",
            "flatbuffers/tests/optional_scalars_defaults.json",
        ],
        texts: &[],
        rejected: &[],
        bins: &[],
        flatc_prints: true,
        goldens: &[],
        byte_exact: true,
    },
    Case {
        name: "arrays",
        schema: "flatbuffers/tests/arrays_test.fbs",
        includes: &[],
        json: &["flatbuffers/tests/arrays_test.golden"],
        texts: &[],
        rejected: &[],
        bins: &[],
        flatc_prints: true,
        goldens: &[("flatbuffers/tests/arrays_test.golden", false)],
        byte_exact: true,
    },
    Case {
        name: "union_vector",
        schema: "flatbuffers/tests/union_vector/union_vector.fbs",
        includes: &[],
        json: &["flatbuffers/tests/union_vector/union_vector.json"],
        texts: &[],
        rejected: &[],
        bins: &[],
        flatc_prints: true,
        goldens: &[],
        byte_exact: true,
    },
    Case {
        name: "monster_extra",
        schema: "flatbuffers/tests/monster_extra.fbs",
        includes: &[],
        json: &["flatbuffers/tests/monsterdata_extra.json"],
        texts: &[],
        rejected: &[],
        bins: &[],
        flatc_prints: true,
        goldens: &[],
        byte_exact: true,
    },
    Case {
        name: "alignment",
        schema: "flatbuffers/tests/alignment_test.fbs",
        includes: &[],
        json: &[],
        // The JSON file of the test suite names a field (`small_structs`) that the schema no longer
        // has; with `even_structs` the same data gives `alignment_test_after_fix.bin`.
        texts: &[
            (
                r#"{ "even_structs": [{ "var_0": 2, "var_1": 1 }, { "var_0": 3, "var_1": 1 },
                    { "var_0": 4, "var_1": 1 }] }"#,
                Some("flatbuffers/tests/alignment_test_after_fix.bin"),
            ),
            (
                r#"{ "odd_structs": [{ "var_0": 1, "var_1": 2, "var_2": 3 },
                    { "var_0": 4, "var_1": 5, "var_2": 6 }], "even_structs": [] }"#,
                None,
            ),
        ],
        rejected: &[("flatbuffers/tests/alignment_test.json", "small_structs")],
        bins: &[
            "flatbuffers/tests/alignment_test_before_fix.bin",
            "flatbuffers/tests/alignment_test_after_fix.bin",
        ],
        flatc_prints: true,
        goldens: &[],
        byte_exact: true,
    },
    Case {
        name: "annotated_binary",
        schema: "flatbuffers/tests/annotated_binary/annotated_binary.fbs",
        includes: &[],
        json: &["flatbuffers/tests/annotated_binary/annotated_binary.json"],
        texts: &[],
        rejected: &[],
        bins: &["flatbuffers/tests/annotated_binary/annotated_binary.bin"],
        flatc_prints: true,
        goldens: &[],
        byte_exact: false,
    },
    Case {
        name: "64bit",
        schema: "flatbuffers/tests/64bit/test_64bit.fbs",
        includes: &[],
        json: &["flatbuffers/tests/64bit/test_64bit.json"],
        texts: &[],
        rejected: &[],
        bins: &["flatbuffers/tests/64bit/test_64bit.bin"],
        flatc_prints: false,
        goldens: &[],
        byte_exact: true,
    },
    Case {
        name: "64bit_offset64",
        schema: "flatbuffers/tests/64bit/test_64bit.fbs",
        includes: &[],
        json: &[],
        // Only `offset64` fields (ordinary strings and vectors behind 64-bit offsets), which flatc
        // prints.
        texts: &[
            (
                r#"{ far_vector: [1, 2, 3], a: 1234, far_string: "far \u00e9",
                    near_string: "near", far_struct_vector: [{ a: 1, b: 0.1 }, { a: -2, b: 1e-20 }],
                    many_vectors: [{ vector: [-128, 127] }, {}, { vector: [] }] }"#,
                None,
            ),
            (r#"{ far_string: "", far_vector: [], a: -1 }"#, None),
            (
                r#"{ far_struct_vector: [{ a: 7, b: -3.5 }], far_string: "x" }"#,
                None,
            ),
        ],
        rejected: &[],
        bins: &[],
        flatc_prints: true,
        goldens: &[],
        byte_exact: true,
    },
    Case {
        name: "default_vectors_strings",
        schema: "flatbuffers/tests/default_vectors_strings_test.fbs",
        includes: &[],
        json: &[],
        texts: &[(
            r#"{ int_vec_offset64: [1, -2, 3], double_vec: [0.5], some_string: "s", regular_int: 7 }"#,
            None,
        )],
        rejected: &[],
        bins: &[],
        flatc_prints: true,
        goldens: &[],
        byte_exact: true,
    },
];

fn temp_dir(name: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "flatforge-json-conf-{}-{n}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Writes `text` as `NAME.fbs` into a new temporary directory and compiles it: the directory (for
/// the caller to remove), the schema as flatc reads it, and our model of it.
fn temp_schema(name: &str, text: &str) -> (PathBuf, Flatc, flatforge_schema::Schema) {
    let dir = temp_dir(&format!("{name}-schema"));
    let path = dir.join(format!("{name}.fbs"));
    std::fs::write(&path, text).unwrap();
    let schema = flatforge_schema::Compiler::new(flatforge_schema::FsLoader)
        .compile(&path)
        .unwrap_or_else(|e| panic!("{}", e.render(false)))
        .schema;
    let fc = Flatc {
        name: name.into(),
        schema: path,
        includes: Vec::new(),
    };
    (dir, fc, schema)
}

/// The schema flatc reads, with its include directories.
struct Flatc {
    name: String,
    schema: PathBuf,
    includes: Vec<PathBuf>,
}

impl Case {
    fn flatc(&self) -> Flatc {
        Flatc {
            name: self.name.to_string(),
            schema: testdata(self.schema),
            includes: self.includes.iter().map(|d| testdata(d)).collect(),
        }
    }
}

fn flatc(fc: &Flatc, args: &[&str], inputs: &[&Path], out: &Path) -> Result<(), String> {
    let mut cmd = Command::new(flatc_path());
    cmd.args(args).arg("-o").arg(out);
    for inc in &fc.includes {
        cmd.arg("-I").arg(inc);
    }
    cmd.arg(&fc.schema);
    for i in inputs {
        cmd.arg(i);
    }
    let res = cmd.output().expect("run flatc");
    if res.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&res.stderr).into_owned())
    }
}

/// flatc's JSON for a buffer.
fn flatc_text(fc: &Flatc, bin: &[u8], args: &[&str], tag: &str) -> String {
    let dir = temp_dir(&format!("{}-t-{tag}", fc.name));
    let input = dir.join("input.bin");
    std::fs::write(&input, bin).unwrap();
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let mut all = vec!["-t", "--raw-binary"];
    all.extend_from_slice(args);
    flatc(fc, &all, &[Path::new("--"), &input], &out).expect("flatc -t");
    let text = String::from_utf8(flatforge_testkit::only_file_in(&out)).expect("flatc wrote UTF-8");
    let _ = std::fs::remove_dir_all(&dir);
    text
}

/// flatc's buffer for a JSON file.
fn flatc_bin(fc: &Flatc, json: &Path, tag: &str) -> Result<Vec<u8>, String> {
    let dir = temp_dir(&format!("{}-b-{tag}", fc.name));
    flatc(fc, &["-b"], &[json], &dir)?;
    let bytes = flatforge_testkit::only_file_in(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(bytes)
}

/// flatc's buffer for JSON text.
fn flatc_bin_text(fc: &Flatc, json: &str, tag: &str) -> Result<Vec<u8>, String> {
    let dir = temp_dir(&format!("{}-in-{tag}", fc.name));
    let path = dir.join(format!("{tag}.json"));
    std::fs::write(&path, json).unwrap();
    let r = flatc_bin(fc, &path, tag);
    let _ = std::fs::remove_dir_all(&dir);
    r
}

fn compile(case: &Case) -> flatforge_schema::Schema {
    let compiler = case.includes.iter().fold(
        flatforge_schema::Compiler::new(flatforge_schema::FsLoader),
        |c, d| c.include_dir(testdata(d)),
    );
    compiler
        .compile(testdata(case.schema))
        .unwrap_or_else(|e| panic!("{}: {}", case.schema, e.render(false)))
        .schema
}

fn flatc_like(strict: bool) -> PrintOptions {
    let mut o = PrintOptions::default();
    o.strict_json = strict;
    o.float_format = FloatFormat::Flatc;
    o.non_finite = NonFinite::Bare;
    o.verify.check_identifier = false;
    o
}

/// Our printing of `bin` agrees with flatc's in every mode (when flatc can print it), every float
/// we print reads back to the bits in the buffer, and our JSON reads back to itself.
fn check_print(fc: &Flatc, flatc_prints: bool, codec: &Codec<'_>, bin: &[u8], what: &str) {
    let root = codec.root_type(None).unwrap();
    // Our default float text.
    let mut opts = PrintOptions::default();
    opts.verify.check_identifier = false;
    opts.non_finite = NonFinite::Bare;
    let ours = codec
        .printer(opts)
        .print(root, bin)
        .unwrap_or_else(|e| panic!("{what}: {e}"))
        .to_string();
    if flatc_prints {
        check_print_like_flatc(fc, codec, bin, &ours, what);
    }
    // Every float reads back to exactly the bits in the buffer.
    let schema = codec.schema();
    let root_id = schema.root_table.expect("root_type");
    exact_floats::check(schema, root_id, bin, &ours, what);
    // Ours reads back to the very same values: print(parse(ours)) == ours.
    let mut parser = codec.parser(ParseOptions::default());
    let again = parser.parse(root, ours.as_bytes()).unwrap().to_vec();
    let mut opts = PrintOptions::default();
    opts.non_finite = NonFinite::Bare;
    let printed = codec.printer(opts).print(root, &again).unwrap().to_string();
    assert_eq!(
        printed, ours,
        "{what}: our JSON does not read back to itself"
    );
}

/// With flatc's float text, our printing of `bin` is flatc's in every mode; with ours (`ours`), it
/// differs only in number lines, where both are the same number up to flatc's rounding.
fn check_print_like_flatc(fc: &Flatc, codec: &Codec<'_>, bin: &[u8], ours: &str, what: &str) {
    let root = codec.root_type(None).unwrap();
    let modes: [(&str, &[&str], PrintOptions); 4] = [
        ("strict", &["--strict-json"], flatc_like(true)),
        ("plain", &[], flatc_like(false)),
        ("defaults", &["--strict-json", "--defaults-json"], {
            let mut o = flatc_like(true);
            o.defaults = true;
            o
        }),
        ("natural", &["--natural-utf8"], {
            let mut o = flatc_like(false);
            o.natural_utf8 = true;
            o
        }),
    ];
    for (tag, args, opts) in modes {
        let theirs = flatc_text(fc, bin, args, tag);
        let ours = codec
            .printer(opts)
            .print(root, bin)
            .unwrap_or_else(|e| panic!("{what} ({tag}): {e}"))
            .to_string();
        assert_eq!(ours, theirs, "{what}: printing ({tag}) differs from flatc");
    }
    let theirs = flatc_text(fc, bin, &["--strict-json"], "shortest");
    let ours_lines: Vec<&str> = ours.lines().collect();
    let their_lines: Vec<&str> = theirs.lines().collect();
    assert_eq!(
        ours_lines.len(),
        their_lines.len(),
        "{what}: line counts differ"
    );
    for (a, b) in ours_lines.iter().zip(&their_lines) {
        if a == b {
            continue;
        }
        let num = |s: &str| -> Option<(String, f64)> {
            let t = s.trim().trim_end_matches(',');
            let (prefix, value) = match t.rsplit_once(": ") {
                Some((k, v)) => (k.to_string(), v),
                None => (String::new(), t),
            };
            value.parse::<f64>().ok().map(|v| (prefix, v))
        };
        let (Some((ka, va)), Some((kb, vb))) = (num(a), num(b)) else {
            panic!("{what}: non-numeric difference:\n ours:  {a}\n flatc: {b}");
        };
        assert_eq!(ka, kb, "{what}: keys differ");
        // flatc prints 6 or 12 decimals: its value is ours rounded.
        let scale = va.abs().max(1e-300);
        assert!(
            (va - vb).abs() <= scale * 1e-6 + 1e-6,
            "{what}: {a} vs {b} are not the same number"
        );
    }
}

/// Parses the JSON in `path` with us and with flatc: both must accept it, our buffer must be
/// flatc's (byte for byte, or as flatc prints it), and `expect`'s bytes if given; then flatc's
/// buffer must print as flatc prints it.
fn check_json(case: &Case, codec: &Codec<'_>, path: &Path, what: &str, expect: Option<&str>) {
    let fc = case.flatc();
    let root = codec.root_type(None).unwrap();
    let theirs = flatc_bin(&fc, path, "json");
    let text = std::fs::read(path).unwrap();
    let mut opts = ParseOptions::default();
    opts.unknown_fields = false;
    let ours = codec.parser(opts).parse(root, &text).map(<[u8]>::to_vec);
    let (theirs, ours) = match (theirs, ours) {
        (Ok(theirs), Ok(ours)) => (theirs, ours),
        (theirs, ours) => panic!(
            "{what}: flatc and flatforge must both accept it: flatc {:?}, ours {:?}",
            theirs.map(|b| b.len()),
            ours.map(|b| b.len())
        ),
    };
    if case.byte_exact {
        assert!(
            ours == theirs,
            "{what}: our buffer differs from flatc -b's ({} vs {} bytes)",
            ours.len(),
            theirs.len()
        );
    } else {
        assert!(case.flatc_prints, "{what}: nothing to compare with");
        let a = flatc_text(&fc, &ours, &["--strict-json"], "ours");
        let b = flatc_text(&fc, &theirs, &["--strict-json"], "theirs");
        assert_eq!(a, b, "{what}: flatc reads our buffer differently");
    }
    if let Some(bin) = expect {
        let expected = std::fs::read(testdata(bin)).unwrap();
        assert!(ours == expected, "{what}: our buffer is not {bin}");
    }
    check_print(&fc, case.flatc_prints, codec, &theirs, what);
}

#[test]
fn flatc_test_files() {
    for case in CASES {
        let schema = compile(case);
        let codec = Codec::new(&schema);
        let root = codec.root_type(None).unwrap();
        let fc = case.flatc();
        for json in case.json {
            check_json(case, &codec, &testdata(json), json, None);
        }
        for (i, &(text, expect)) in case.texts.iter().enumerate() {
            let dir = temp_dir(&format!("{}-text-{i}", case.name));
            let path = dir.join("in.json");
            std::fs::write(&path, text).unwrap();
            check_json(
                case,
                &codec,
                &path,
                &format!("{} text {i}", case.name),
                expect,
            );
            let _ = std::fs::remove_dir_all(&dir);
        }
        for &(json, word) in case.rejected {
            let path = testdata(json);
            let theirs = flatc_bin(&fc, &path, "rejected");
            let text = std::fs::read(&path).unwrap();
            let ours = codec
                .parser(ParseOptions::default())
                .parse(root, &text)
                .map(<[u8]>::to_vec);
            match (theirs, ours) {
                (Err(flatc_err), Err(our_err)) => {
                    let our_err = our_err.to_string();
                    assert!(
                        flatc_err.contains(word) && our_err.contains(word),
                        "{json}: both must reject it for `{word}`: flatc: {flatc_err}; ours: {our_err}"
                    );
                }
                (theirs, ours) => panic!(
                    "{json}: flatc and flatforge must both reject it: flatc {:?}, ours {:?}",
                    theirs.map(|b| b.len()),
                    ours.map(|b| b.len())
                ),
            }
        }
        for bin in case.bins {
            let bytes = std::fs::read(testdata(bin)).unwrap();
            check_print(&fc, case.flatc_prints, &codec, &bytes, bin);
        }
        for &(golden, exact) in case.goldens {
            let text = std::fs::read_to_string(testdata(golden)).unwrap();
            let mut parser = codec.parser(ParseOptions::default());
            let mut printer = codec.printer(flatc_like(false));
            let bytes = parser
                .parse(root, text.as_bytes())
                .unwrap_or_else(|e| panic!("{golden}: {e}"))
                .to_vec();
            let printed = printer.print(root, &bytes).unwrap().to_string();
            if exact {
                assert_eq!(printed, text, "{golden} does not round-trip");
            }
            let again = parser.parse(root, printed.as_bytes()).unwrap().to_vec();
            let reprinted = printer.print(root, &again).unwrap();
            assert_eq!(reprinted, printed, "{golden}: print(parse(print)) differs");
        }
    }
}
/// FlexBuffer fields: every kind of value, shared keys and strings, widths growing with offsets.
#[test]
fn flexbuffers_match_flatc() {
    let case = &CASES[0];
    let fc = case.flatc();
    let schema = compile(case);
    let codec = Codec::new(&schema);
    let root = codec.root_type(None).unwrap();
    let long = "x".repeat(300);
    let values = [
        "1234".to_string(),
        "-5".to_string(),
        "3.5".to_string(),
        "0.1".to_string(),
        "true".to_string(),
        "null".to_string(),
        "\"text\"".to_string(),
        "[]".to_string(),
        "{}".to_string(),
        "[1, -70000, 2.5, \"a\", \"a\", null, false, [1, [2]], {k: 1}]".to_string(),
        "{b: 1, a: [\"s\", \"s\"], c: {a: 2, b: \"s\"}, d: 9007199254740993}".to_string(),
        format!("{{a: \"{long}\", b: [\"{long}\", 1, 100000000000], c: {{a: 1}}}}"),
    ];
    for (i, v) in values.iter().enumerate() {
        let json = format!("{{ name: \"m\", flex: {v} }}");
        let dir = temp_dir(&format!("flex-{i}"));
        let path = dir.join("in.json");
        std::fs::write(&path, &json).unwrap();
        let theirs = flatc_bin(&fc, &path, &format!("flex-{i}")).expect("flatc -b");
        let ours = codec
            .parser(ParseOptions::default())
            .parse(root, json.as_bytes())
            .unwrap_or_else(|e| panic!("{json}: {e}"))
            .to_vec();
        assert!(
            ours == theirs,
            "{json}: our FlexBuffer differs from flatc's"
        );
        check_print(&fc, true, &codec, &theirs, &json);
    }
}

/// JSON text as a value, to compare printed JSON with the JSON a buffer was made from whatever the
/// field order and number spelling.
fn value(json: &str) -> serde_json::Value {
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"))
}

/// Strict JSON for `buf`, with our default (shortest) floats.
fn print(codec: &Codec<'_>, buf: &[u8]) -> Result<String, flatforge_json::PrintError> {
    let root = codec.root_type(None).unwrap();
    let mut opts = PrintOptions::default();
    opts.verify.check_identifier = false;
    codec.printer(opts).print(root, buf).map(str::to_string)
}

/// A buffer for JSON text.
fn parse(codec: &Codec<'_>, json: &str) -> Vec<u8> {
    let root = codec.root_type(None).unwrap();
    codec
        .parser(ParseOptions::default())
        .parse(root, json.as_bytes())
        .unwrap_or_else(|e| panic!("{json}: {e}"))
        .to_vec()
}

/// Buffers written by the C++ library of flatc 25.12.19 (`FlatBufferBuilder64`, which puts the
/// 64-bit-addressed objects at the end of the buffer; `tests/data/64bit/ref64.cpp`).
fn builder64(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/64bit")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// 64-bit offsets against flatc and its C++ library. flatc 25.12.19 cannot print `vector64` fields
/// (its printer asserts), and its JSON parser writes some of them wrongly: it aligns the data of a
/// `vector64` for a 32-bit length and then 8-aligns the 64-bit length, leaving padding between the
/// two unless the data happened to be 8-aligned (so the vector reads as other bytes); it sorts a
/// `vector64` of keyed structs 4 bytes off, over its length; and it writes a `vector64` nested
/// flatbuffer with a 32-bit length, which flatc's own generated verifier rejects. We write them as
/// the C++ library does: where flatc gets the layout right, our bytes are its bytes.
#[test]
fn sixty_four_bit_offsets() {
    let case = CASES.iter().find(|c| c.name == "64bit").unwrap();
    let fc = case.flatc();
    let schema = compile(case);
    let codec = Codec::new(&schema);
    let root = codec.root_type(None).unwrap();

    // The test suite's buffer is flatc's (and our) buffer for its JSON, and prints as that JSON.
    let json =
        std::fs::read_to_string(testdata("flatbuffers/tests/64bit/test_64bit.json")).unwrap();
    let bin = std::fs::read(testdata("flatbuffers/tests/64bit/test_64bit.bin")).unwrap();
    assert!(
        parse(&codec, &json) == bin,
        "test_64bit.json does not give test_64bit.bin"
    );
    assert_eq!(value(&print(&codec, &bin).unwrap()), value(&json));

    // FlatBufferBuilder64's buffers: only `offset64` fields, which flatc prints as we do ...
    check_print(
        &fc,
        true,
        &codec,
        &builder64("builder64_offset64.bin"),
        "builder64_offset64",
    );
    // ... and every kind of field, which it cannot print: they hold what ref64.cpp put there.
    let full = builder64("builder64_full.bin");
    let expected = r#"{
        "far_vector": [10, 20, 30, 40, 50], "a": 1234, "far_string": "far \u00e9 string",
        "big_bool_vector": [1, 0, 1], "big_vector": [5, 6, 7], "near_string": "near",
        "nested_root": { "a": -7, "big_vector": [9, 8, 7], "near_string": "inner" },
        "far_struct_vector": [{ "a": 1, "b": 1.5 }, { "a": -2, "b": -0.25 }],
        "big_struct_vector": [{ "a": 1, "b": 1.5 }, { "a": -2, "b": -0.25 }, { "a": 3, "b": 1e-20 }],
        "many_vectors": [{ "vector": [-1, 2] }, {}],
        "forced_aligned_vector": [1, 2, 3, 4, 5]
    }"#;
    assert_eq!(value(&print(&codec, &full).unwrap()), value(expected));
    check_print(&fc, false, &codec, &full, "builder64_full");
    let empty = builder64("builder64_empty.bin");
    let expected =
        r#"{ "far_vector": [], "far_string": "", "big_vector": [], "big_struct_vector": [] }"#;
    assert_eq!(value(&print(&codec, &empty).unwrap()), value(expected));
    check_print(&fc, false, &codec, &empty, "builder64_empty");

    // Our buffers against flatc's, with the JSON they must hold: `true` where flatc's layout is
    // right (and so are its bytes ours), `false` where its buffer does not hold the JSON.
    let shapes: &[(&str, bool)] = &[
        (r#"{ "big_vector": [1, 2, 3, 4, 5, 6, 7, 8] }"#, true),
        (
            r#"{ "big_vector": [1, 2, 3, 4, 5, 6, 7], "near_string": "abc" }"#,
            true,
        ),
        (r#"{ "big_vector": [] }"#, true),
        (r#"{ "big_struct_vector": [{ "a": 1, "b": 0.5 }] }"#, true),
        (r#"{ "forced_aligned_vector": [1, 2, 3] }"#, true),
        (r#"{ "forced_aligned_vector": [] }"#, true),
        (r#"{ "big_vector": [1, 2] }"#, false),
        (r#"{ "big_vector": [1, 2, 3, 4] }"#, false),
        (r#"{ "big_bool_vector": [1, 0, 1] }"#, false),
        (
            r#"{ "a": 3, "big_vector": [9], "far_string": "s", "big_bool_vector": [0, 1, 1, 0, 1, 1, 0] }"#,
            false,
        ),
        (
            r#"{ "nested_root": { "a": 5, "near_string": "x" } }"#,
            false,
        ),
        (
            r#"{ "nested_root": { "big_vector": [1], "far_vector": [2], "nested_root": { "a": 1 } } }"#,
            false,
        ),
    ];
    for (i, &(json, flatc_right)) in shapes.iter().enumerate() {
        let ours = parse(&codec, json);
        assert_eq!(value(&print(&codec, &ours).unwrap()), value(json), "{json}");
        check_print(&fc, false, &codec, &ours, json);
        let theirs = flatc_bin_text(&fc, json, &format!("shape-{i}")).expect("flatc -b");
        if flatc_right {
            assert!(ours == theirs, "{json}: our buffer differs from flatc -b's");
        } else {
            let holds = print(&codec, &theirs).is_ok_and(|t| value(&t) == value(json));
            assert!(
                !holds,
                "{json}: flatc's buffer holds the JSON, ours should be flatc's"
            );
        }
    }
    let mut opts = ParseOptions::default();
    opts.nested_bytes = true;
    let nested = parse(&codec, r#"{ "a": 1, "near_string": "n" }"#);
    let json = format!("{{ \"nested_root\": {nested:?} }}");
    let ours = codec
        .parser(opts)
        .parse(root, json.as_bytes())
        .unwrap()
        .to_vec();
    assert!(
        ours == parse(
            &codec,
            r#"{ "nested_root": { "a": 1, "near_string": "n" } }"#
        ),
        "a nested flatbuffer given as bytes"
    );
}

/// `offset64` and `vector64` on what test_64bit.fbs does not have: nested flatbuffers and
/// FlexBuffers behind 64-bit offsets, keyed structs (which flatc sorts), `force_align` on a
/// `vector64` of structs, vectors of floats; evolution from a schema without 64-bit fields.
#[test]
fn sixty_four_bit_offsets_on_more_types() {
    let (dir, fc, schema) = temp_schema(
        "far",
        "struct Pair { k: ushort (key); v: float; }
         struct Wide { x: double; y: byte; }
         table Inner { n: int; s: string; far: string (offset64); }
         table Far {
           nested: [ubyte] (offset64, nested_flatbuffer: \"Inner\");
           flex: [ubyte] (offset64, flexbuffer);
           pairs: [Pair] (offset64);
           big_pairs: [Pair] (vector64);
           aligned: [Wide] (vector64, force_align: 16);
           doubles: [double] (vector64);
           name: string (offset64);
           id: int;
         }
         root_type Far;",
    );
    let codec = Codec::new(&schema);
    // Without `vector64` fields: flatc's bytes, and flatc prints them as we do.
    let json = r#"{ "nested": { "n": 7, "s": "in", "far": "far in" }, "flex": { "a": [1, 2.5, "x"] },
        "pairs": [{ "k": 3, "v": 0.1 }, { "k": 1, "v": 2.5 }, { "k": 2, "v": -1e-20 }],
        "name": "n", "id": 5 }"#;
    let ours = parse(&codec, json);
    let theirs = flatc_bin_text(&fc, json, "offset64").expect("flatc -b");
    assert!(ours == theirs, "our buffer differs from flatc -b's");
    check_print(&fc, true, &codec, &theirs, "offset64 fields");
    let printed = value(&print(&codec, &ours).unwrap());
    assert_eq!(printed["pairs"][0]["k"], 1, "keyed structs are sorted");
    // With them: the JSON read back; flatc's bytes where its layout is right.
    let json = r#"{ "aligned": [{ "x": 1.5, "y": -1 }, { "x": -0.0, "y": 2 }], "doubles": [0.1, 1e300],
        "id": 1 }"#;
    let ours = parse(&codec, json);
    assert_eq!(value(&print(&codec, &ours).unwrap()), value(json));
    check_print(&fc, false, &codec, &ours, "vector64 fields");
    assert!(ours == flatc_bin_text(&fc, json, "vector64").expect("flatc -b"));
    let json =
        r#"{ "big_pairs": [{ "k": 3, "v": 0.1 }, { "k": 1, "v": 2.5 }, { "k": 2, "v": 0.5 }] }"#;
    let sorted =
        r#"{ "big_pairs": [{ "k": 1, "v": 2.5 }, { "k": 2, "v": 0.5 }, { "k": 3, "v": 0.1 }] }"#;
    let ours = parse(&codec, json);
    assert_eq!(value(&print(&codec, &ours).unwrap()), value(sorted));
    let theirs = flatc_bin_text(&fc, json, "keyed").expect("flatc -b");
    let holds = print(&codec, &theirs).is_ok_and(|t| value(&t) == value(sorted));
    assert!(
        !holds,
        "flatc's buffer holds the sorted JSON, ours should be flatc's"
    );
    let _ = std::fs::remove_dir_all(&dir);

    // A field added as `vector64`: old readers skip it, new readers of old data do not see it.
    let evolution = |v: &str| Flatc {
        name: format!("evolution-{v}"),
        schema: testdata(&format!("flatbuffers/tests/64bit/evolution/{v}.fbs")),
        includes: Vec::new(),
    };
    let (v1, v2) = (evolution("v1"), evolution("v2"));
    let compile_at = |fc: &Flatc| {
        flatforge_schema::Compiler::new(flatforge_schema::FsLoader)
            .compile(&fc.schema)
            .unwrap_or_else(|e| panic!("{}", e.render(false)))
            .schema
    };
    let (s1, s2) = (compile_at(&v1), compile_at(&v2));
    let (c1, c2) = (Codec::new(&s1), Codec::new(&s2));
    let new = parse(
        &c2,
        r#"{ "a": 1.5, "b": [1, 2], "big_vector": [3, 4, 5, 6, 7, 8, 9, 10] }"#,
    );
    assert!(
        new == flatc_bin_text(
            &v2,
            r#"{ a: 1.5, b: [1, 2], big_vector: [3, 4, 5, 6, 7, 8, 9, 10] }"#,
            "v2"
        )
        .unwrap()
    );
    check_print(&v1, true, &c1, &new, "v2 data, v1 schema");
    let old = parse(&c1, r#"{ "a": 1.5, "b": [1, 2] }"#);
    check_print(&v2, true, &c2, &old, "v1 data, v2 schema");
}

/// Keyed vectors are sorted as flatc sorts them: byte-identical buffers for vectors in descending
/// order, shuffled, and with equal keys up to 1,024 elements (flatc's own quicksort order); longer
/// vectors with equal keys (where that quicksort takes quadratic time) come out sorted by key with
/// every element kept.
#[test]
fn long_keyed_vectors() {
    let (dir, fc, schema) = temp_schema(
        "keyed",
        "struct Pair { k: ushort (key); v: uint; }
         table Item { name: string (key); n: int; }
         table Num { k: int (key); n: int; }
         table Root { pairs: [Pair]; items: [Item]; nums: [Num]; }
         root_type Root;",
    );
    let codec = Codec::new(&schema);
    // Keys for element i of n: descending, a shuffle (3001 is prime), or 37 distinct keys repeated.
    type Key = fn(usize, usize) -> usize;
    let orders: [(&str, Key); 3] = [
        ("descending", |i, n| n - 1 - i),
        ("shuffled", |i, n| i * 3001 % n),
        ("repeated", |i, _| i * 7919 % 37),
    ];
    let json = |n: usize, key: Key| {
        let pairs: Vec<String> = (0..n)
            .map(|i| format!(r#"{{ "k": {}, "v": {i} }}"#, key(i, n)))
            .collect();
        let items: Vec<String> = (0..n)
            .map(|i| format!(r#"{{ "name": "i{:05}", "n": {} }}"#, key(i, n), i + 1))
            .collect();
        let nums: Vec<String> = (0..n)
            .map(|i| format!(r#"{{ "k": {}, "n": {} }}"#, key(i, n), i + 1))
            .collect();
        format!(
            r#"{{ "pairs": [{}], "items": [{}], "nums": [{}] }}"#,
            pairs.join(","),
            items.join(","),
            nums.join(",")
        )
    };
    for (name, key) in orders {
        for n in [1000, 1024, 1025, 4000] {
            let text = json(n, key);
            let ours = parse(&codec, &text);
            let printed = value(&print(&codec, &ours).unwrap());
            let input = value(&text);
            for (vector, k) in [("pairs", "k"), ("items", "name"), ("nums", "k")] {
                let got = printed[vector].as_array().unwrap();
                let keys: Vec<String> = got.iter().map(|e| e[k].to_string()).collect();
                let numeric = k == "k";
                let sorted = keys.windows(2).all(|w| {
                    if numeric {
                        w[0].parse::<u64>().unwrap() <= w[1].parse::<u64>().unwrap()
                    } else {
                        w[0] <= w[1]
                    }
                });
                assert!(sorted, "{name} {n}: {vector} not sorted by {k}");
                let mut a: Vec<String> = got.iter().map(|e| e.to_string()).collect();
                let mut b: Vec<String> = input[vector]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|e| e.to_string())
                    .collect();
                a.sort();
                b.sort();
                assert!(a == b, "{name} {n}: {vector} lost or changed elements");
            }
            if name != "repeated" || n <= 1024 {
                let theirs = flatc_bin_text(&fc, &text, &format!("{name}-{n}")).expect("flatc -b");
                assert!(
                    ours == theirs,
                    "{name} {n}: our buffer differs from flatc -b's"
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
