//! Conformance against the reference flatc on FlatBuffers' own test files, in both directions:
//!
//! - JSON -> binary: our buffer is byte-identical to `flatc -b`'s (and flatc prints both alike);
//!   JSON that flatc rejects must be listed as rejected, and we must reject it too;
//! - binary -> JSON: with flatc's float text, our output is byte-identical to `flatc -t` (strict,
//!   non-strict, `--defaults-json`, `--natural-utf8`); with our default (shortest) floats it differs
//!   only in number lines, and every float we print reads back (`str::parse`) to exactly the bits
//!   in the buffer;
//! - round trips: golden files parse and print back to themselves.

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
        goldens: &[],
        byte_exact: false,
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

fn flatc(case: &Case, args: &[&str], inputs: &[&Path], out: &Path) -> Result<(), String> {
    let mut cmd = Command::new(flatc_path());
    cmd.args(args).arg("-o").arg(out);
    for inc in case.includes {
        cmd.arg("-I").arg(testdata(inc));
    }
    cmd.arg(testdata(case.schema));
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

/// The single file flatc wrote into `dir`.
fn written(dir: &Path) -> Vec<u8> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").path())
        .collect();
    assert_eq!(files.len(), 1, "flatc wrote {files:?}");
    std::fs::read(files.pop().unwrap()).expect("read flatc output")
}

/// flatc's JSON for a buffer.
fn flatc_text(case: &Case, bin: &[u8], args: &[&str], tag: &str) -> String {
    let dir = temp_dir(&format!("{}-t-{tag}", case.name));
    let input = dir.join("input.bin");
    std::fs::write(&input, bin).unwrap();
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let mut all = vec!["-t", "--raw-binary"];
    all.extend_from_slice(args);
    flatc(case, &all, &[Path::new("--"), &input], &out).expect("flatc -t");
    let text = String::from_utf8(written(&out)).expect("flatc wrote UTF-8");
    let _ = std::fs::remove_dir_all(&dir);
    text
}

/// flatc's buffer for a JSON file.
fn flatc_bin(case: &Case, json: &Path, tag: &str) -> Result<Vec<u8>, String> {
    let dir = temp_dir(&format!("{}-b-{tag}", case.name));
    flatc(case, &["-b"], &[json], &dir)?;
    let bytes = written(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(bytes)
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

/// Our printing of `bin` agrees with flatc's in every mode.
fn check_print(case: &Case, codec: &Codec<'_>, bin: &[u8], what: &str) {
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
        let theirs = flatc_text(case, bin, args, tag);
        let ours = codec
            .printer(opts)
            .print(root, bin)
            .unwrap_or_else(|e| panic!("{what} ({tag}): {e}"))
            .to_string();
        assert_eq!(ours, theirs, "{what}: printing ({tag}) differs from flatc");
    }
    // Our default float text: differences only in number lines, and ours reads back exactly.
    let mut opts = PrintOptions::default();
    opts.verify.check_identifier = false;
    opts.non_finite = NonFinite::Bare;
    let ours = codec.printer(opts).print(root, bin).unwrap().to_string();
    let theirs = flatc_text(case, bin, &["--strict-json"], "shortest");
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

/// Parses the JSON in `path` with us and with flatc: both must accept it, our buffer must be
/// flatc's (byte for byte, or as flatc prints it), and `expect`'s bytes if given; then flatc's
/// buffer must print as flatc prints it.
fn check_json(case: &Case, codec: &Codec<'_>, path: &Path, what: &str, expect: Option<&str>) {
    let root = codec.root_type(None).unwrap();
    let theirs = flatc_bin(case, path, "json");
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
        let a = flatc_text(case, &ours, &["--strict-json"], "ours");
        let b = flatc_text(case, &theirs, &["--strict-json"], "theirs");
        assert_eq!(a, b, "{what}: flatc reads our buffer differently");
    }
    if let Some(bin) = expect {
        let expected = std::fs::read(testdata(bin)).unwrap();
        assert!(ours == expected, "{what}: our buffer is not {bin}");
    }
    check_print(case, codec, &theirs, what);
}

#[test]
fn flatc_test_files() {
    for case in CASES {
        let schema = compile(case);
        let codec = Codec::new(&schema);
        let root = codec.root_type(None).unwrap();
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
            let theirs = flatc_bin(case, &path, "rejected");
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
            check_print(case, &codec, &bytes, bin);
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
        let theirs = flatc_bin(case, &path, &format!("flex-{i}")).expect("flatc -b");
        let ours = codec
            .parser(ParseOptions::default())
            .parse(root, json.as_bytes())
            .unwrap_or_else(|e| panic!("{json}: {e}"))
            .to_vec();
        assert!(
            ours == theirs,
            "{json}: our FlexBuffer differs from flatc's"
        );
        check_print(case, &codec, &theirs, &json);
    }
}
