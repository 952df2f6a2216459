//! Snapshot tests of rendered diagnostics for a corpus of invalid schemas.
//!
//! Each `tests/invalid/NAME.fbs` must be rejected, by us and by flatc; our rendered diagnostics
//! (no color) must equal `tests/invalid/NAME.stderr`. Run with `FLATFORGE_BLESS=1` to write the
//! expected files from the current output (then review the diff).

use std::path::{Path, PathBuf};

use flatforge_schema::{BaseType, Code, Compiler, MemoryLoader};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/invalid")
}

fn corpus() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("tests/invalid")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "fbs"))
        .collect();
    files.sort();
    assert!(files.len() >= 40, "the invalid corpus is missing files");
    files
}

/// Compiles with paths relative to the corpus directory, so snapshots do not depend on where
/// the repository lives.
fn render(path: &Path) -> String {
    let mut loader = MemoryLoader::new();
    for file in corpus() {
        let name = file.file_name().unwrap().to_str().unwrap().to_string();
        loader.insert(name, std::fs::read(&file).expect("read"));
    }
    let name = path.file_name().unwrap().to_str().unwrap();
    match Compiler::new(loader).compile(name) {
        Ok(_) => panic!("{name} was accepted"),
        Err(e) => e.render(false),
    }
}

#[test]
fn invalid_schemas_render_as_expected() {
    let bless = std::env::var_os("FLATFORGE_BLESS").is_some();
    let mut failures = Vec::new();
    for path in corpus() {
        let actual = render(&path);
        let expected_path = path.with_extension("stderr");
        if bless {
            std::fs::write(&expected_path, &actual).expect("write snapshot");
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_else(|_| {
            panic!(
                "{} is missing; run with FLATFORGE_BLESS=1 to create it",
                expected_path.display()
            )
        });
        if actual != expected {
            failures.push(format!(
                "--- {}\n--- expected\n{expected}\n--- actual\n{actual}",
                expected_path.display()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} snapshot(s) differ (FLATFORGE_BLESS=1 refreshes them):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn flatc_rejects_every_invalid_schema_too() {
    let out = std::env::temp_dir().join(format!("flatforge-invalid-{}", std::process::id()));
    std::fs::create_dir_all(&out).expect("temp dir");
    let mut accepted = Vec::new();
    for path in corpus() {
        let status = flatforge_testkit::flatc()
            .current_dir(&out)
            .args(["-b", "--schema", "-o"])
            .arg(&out)
            .arg("-I")
            .arg(corpus_dir())
            .arg(&path)
            .output()
            .expect("run flatc");
        if status.status.success() {
            accepted.push(path.display().to_string());
        }
    }
    let _ = std::fs::remove_dir_all(&out);
    assert!(accepted.is_empty(), "flatc accepts: {accepted:?}");
}

#[test]
fn every_error_has_a_location_and_the_corpus_reports_several_per_file() {
    let text = render(&corpus_dir().join("multiple_errors.fbs"));
    assert!(text.matches("error:").count() >= 5, "{text}");
    for path in corpus() {
        let text = render(&path);
        assert!(
            text.contains("-->"),
            "{}: no source location in\n{text}",
            path.display()
        );
    }
}

/// The code and message of each error of compiling `root` with the in-memory `files`.
fn errors(files: &[(&str, &[u8])], root: &str) -> Vec<(Code, String)> {
    let mut loader = MemoryLoader::new();
    for (name, text) in files {
        loader.insert(*name, *text);
    }
    let err = Compiler::new(loader)
        .compile(root)
        .expect_err("the schema is invalid");
    err.diagnostics
        .into_iter()
        .filter(|d| d.is_error())
        .map(|d| (d.code, d.message))
        .collect()
}

fn codes(errors: &[(Code, String)]) -> Vec<Code> {
    errors.iter().map(|e| e.0).collect()
}

#[test]
fn a_syntax_error_does_not_hide_the_semantic_errors() {
    let found = errors(
        &[("a.fbs", b"table B { y: int\ntable C { z: Nope; }")],
        "a.fbs",
    );
    assert_eq!(
        codes(&found),
        [Code::Syntax, Code::UnknownType],
        "{found:?}"
    );
    // A use of a declaration that failed to parse is not an unknown type.
    let src = b"table B (id: ) { y: int; }\ntable D { b: B; x: Nope; }";
    let found = errors(&[("a.fbs", src)], "a.fbs");
    assert_eq!(
        codes(&found),
        [Code::Syntax, Code::UnknownType],
        "{found:?}"
    );
    assert!(found[1].1.contains("`Nope`"), "{found:?}");
    // Three syntax errors, three reports, then the semantic error.
    let src = b"table T { a int; b: ; c: short = 70000; }\ntable U { x: [int }\nstruct";
    let found = errors(&[("a.fbs", src)], "a.fbs");
    let expected = [
        Code::Syntax,
        Code::Syntax,
        Code::InvalidDefault,
        Code::Syntax,
        Code::Syntax,
    ];
    assert_eq!(codes(&found), expected, "{found:?}");
}

#[test]
fn a_missing_include_does_not_hide_the_other_errors() {
    let main: &[u8] = b"include \"dep.fbs\";\ntable B { y: Nope2; hp: short = 70000; }";
    let found = errors(&[("a.fbs", main)], "a.fbs");
    // `Nope2` may be declared in the missing file.
    assert_eq!(codes(&found), [Code::Io, Code::InvalidDefault], "{found:?}");
    // When the include is there, `Nope2` is checked.
    let found = errors(&[("a.fbs", main), ("dep.fbs", b"table Dep {}")], "a.fbs");
    assert_eq!(
        codes(&found),
        [Code::UnknownType, Code::InvalidDefault],
        "{found:?}"
    );
}

#[test]
fn a_field_left_out_for_its_error_does_not_empty_its_struct() {
    for len in ["0", "65536", "4294967296"] {
        let src = format!("struct S {{ a: [int:{len}]; }}");
        let found = errors(&[("a.fbs", src.as_bytes())], "a.fbs");
        assert_eq!(codes(&found), [Code::InvalidFieldType], "{found:?}");
        assert!(found[0].1.contains("array length"), "{found:?}");
    }
}

/// flatc rejects a schema file with a NUL byte, and reads an included file up to its first
/// NUL byte; before, a NUL byte ended a root file too (so a valid schema followed by a NUL byte
/// was accepted), and one inside a declaration was reported as the end of the file.
#[test]
fn nul_bytes_get_flatcs_verdicts() {
    let found = errors(&[("a.fbs", b"table T { a: int; }\0")], "a.fbs");
    assert_eq!(
        found,
        [(Code::Syntax, "schema files cannot contain NUL bytes".into())]
    );
    let found = errors(&[("a.fbs", b"table T { a:\0 int; }")], "a.fbs");
    assert_eq!(
        found,
        [(Code::Syntax, "schema files cannot contain NUL bytes".into())]
    );

    let dir = std::env::temp_dir().join(format!("flatforge-nul-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let root: &[u8] = b"include \"dep.fbs\";\ntable T { d: Dep; }";
    let dep: &[u8] = b"table Dep {}\n\0 anything { at all";
    std::fs::write(dir.join("a.fbs"), root).expect("write");
    std::fs::write(dir.join("dep.fbs"), dep).expect("write");
    let flatc = flatforge_testkit::flatc()
        .current_dir(&dir)
        .args(["-b", "--schema", "a.fbs"])
        .output()
        .expect("run flatc");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        flatc.status.success(),
        "flatc rejects an include with a NUL byte"
    );
    let mut loader = MemoryLoader::new();
    loader.insert("a.fbs", root);
    loader.insert("dep.fbs", dep);
    let compiled = Compiler::new(loader).compile("a.fbs").expect("accepted");
    let warnings: Vec<&str> = compiled
        .warnings
        .iter()
        .map(|w| w.message.as_str())
        .collect();
    assert_eq!(
        warnings,
        ["this included file is read only up to its first NUL byte"]
    );
}

/// Struct fields past 64 KiB: flatc 25.12.19 accepts them and truncates their 16-bit offsets
/// (field `b` below lands at 14464 instead of 80000, and a struct of 2^32 + 8 bytes becomes 8
/// bytes); we refuse them instead of laying them out where they are not.
#[test]
fn struct_fields_beyond_16_bit_offsets_are_errors() {
    let found = errors(
        &[("a.fbs", b"struct S { a: [ulong:10000]; b: int; }")],
        "a.fbs",
    );
    assert_eq!(
        found,
        [(
            Code::InvalidStruct,
            "field `b` of struct `S` starts at byte 80000: struct fields must start within the first 65535 bytes (their offsets are 16-bit)".into()
        )]
    );
    // The multiplication of an array's size saturates instead of overflowing.
    let found = errors(
        &[(
            "a.fbs",
            b"struct A { a: [ulong:16384]; } struct B { b: [A:32768]; }",
        )],
        "a.fbs",
    );
    assert_eq!(
        found,
        [(
            Code::InvalidStruct,
            "struct `B` is larger than 4 GiB with field `b`".into()
        )]
    );
    // The last addressable start is fine.
    let schema = flatforge_schema::compile_str("a.fbs", "struct S { a: [ubyte:65535]; b: ubyte; }")
        .expect("valid");
    assert_eq!(schema.objects[0].fields[1].offset, 65535);
}

/// A table of more than 32,766 fields (ids past 32765 have no 16-bit vtable entry): flatc
/// 25.12.19 aborts on an assertion in `FieldIndexToOffset`; we report the first field beyond the
/// limit (ids and offsets used to wrap and clamp silently). 32,766 fields are fine, as for flatc.
#[test]
fn tables_beyond_16_bit_vtable_entries_are_errors() {
    let table = |n: usize, extra: &str| {
        let fields: String = (0..n).map(|i| format!("f{i}: int; ")).collect();
        format!("union U {{ T }} table T {{ {fields}{extra} }} root_type T;")
    };
    let schema = flatforge_schema::compile_str("a.fbs", &table(32766, "")).expect("valid");
    let last = schema.objects[0].fields.last().unwrap();
    assert_eq!((last.id, last.offset), (32765, 65534));
    let text = table(32766, "g: int; h: int;");
    let found = errors(&[("a.fbs", text.as_bytes())], "a.fbs");
    assert_eq!(
        found,
        [(
            Code::InvalidDeclaration,
            "table `T` has more than 32766 fields (a union counts twice): field `g` would have id 32766, whose vtable entry at byte 4 + 2 × id does not fit a 16-bit offset".into()
        )]
    );
    // A union's type field takes the first id beyond.
    let text = table(32765, "u: U;");
    let found = errors(&[("a.fbs", text.as_bytes())], "a.fbs");
    assert_eq!(found.len(), 1);
    assert!(
        found[0].1.contains("field `u` would have id 32766"),
        "{found:?}"
    );
}

/// Duplicate names among many fields or enum values (past the count at which their names are
/// indexed instead of scanned) are found as among few, with where each was first defined.
#[test]
fn duplicates_among_many_fields_and_values_are_found() {
    // Around the count (256) at which the names go into a map, and past it; the last name is
    // repeated too (it was added to the map, not read from the list when the map was built).
    for n in [10, 255, 256, 257, 300] {
        let last = n - 1;
        let fields: String = (0..n).map(|i| format!("f{i}: int; ")).collect();
        let values: String = (0..n).map(|i| format!("V{i}, ")).collect();
        let text = format!(
            "table T {{ {fields}f5: int; f{last}: long; }} enum E : int {{ {values}V7, V{last} }}"
        );
        let result = flatforge_schema::compile_str("a.fbs", &text);
        let diagnostics = result.expect_err("duplicates");
        let found: Vec<(Code, String, usize)> = diagnostics
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| {
                let first = d.secondary.first().map_or(0, |l| l.span.start as usize);
                (d.code, d.message.clone(), first)
            })
            .collect();
        let field = |name: &str| {
            (
                Code::Duplicate,
                format!("field `{name}` is defined twice in `T`"),
                text.find(&format!(" {name}: int")).unwrap() + 1,
            )
        };
        let value = |name: &str| {
            (
                Code::Duplicate,
                format!("`{name}` is defined twice in enum `E`"),
                text.find(&format!(" {name},")).unwrap() + 1,
            )
        };
        assert_eq!(
            found,
            [
                field("f5"),
                field(&format!("f{last}")),
                value("V7"),
                value(&format!("V{last}")),
            ],
            "{n}"
        );
    }
}

/// The rendered diagnostics of `text` (compiled as `a.fbs`), one string each.
fn rendered(text: &str) -> Vec<String> {
    let err = flatforge_schema::compile_str("a.fbs", text).expect_err("invalid");
    err.diagnostics
        .iter()
        .map(|d| flatforge_schema::render(std::slice::from_ref(d), &err.sources, false))
        .collect()
}

/// The text a rendered single-line snippet marks with `^`: the characters of the source line
/// above the carets (each character one column wide).
fn marked(rendered: &str) -> String {
    let lines: Vec<&str> = rendered.lines().collect();
    let carets = lines
        .iter()
        .position(|l| l.contains('^'))
        .unwrap_or_else(|| panic!("no carets in\n{rendered}"));
    let (source, marks) = (lines[carets - 1], lines[carets]);
    let bar = source.find(" | ").expect("a snippet line") + 3;
    let chars: Vec<char> = source.chars().collect();
    marks
        .char_indices()
        .filter(|&(i, c)| c == '^' && i >= bar)
        .map(|(i, _)| chars[i])
        .collect()
}

#[test]
fn a_long_line_is_shown_in_part_around_each_label() {
    // A minified schema: 2,000 unknown types on one 32 KB line. Each snippet used to show the
    // whole line (94 MB of output, 5 s).
    let n = 2000;
    let fields: String = (0..n).map(|i| format!("x{i}: Nope{i}; ")).collect();
    let text = format!("table U {{{fields}}}");
    let all = rendered(&text);
    assert_eq!(all.len(), n);
    for (i, r) in all.iter().enumerate() {
        let at = text.find(&format!(" Nope{i};")).unwrap() + 2;
        assert!(r.contains(&format!("--> a.fbs:1:{at}\n")), "{r}");
        assert_eq!(marked(r), format!("Nope{i}"), "{r}");
        assert!(r.len() < 400, "{} bytes:\n{r}", r.len());
    }
    // Left out text is marked, at the ends and between labels far apart.
    assert!(all[0].contains("| table U {x0: Nope0; x1: Nope1;") && all[0].contains("..."));
    assert!(all[n - 1].contains("| ...") && all[n - 1].contains("Nope1999; }\n"));
    let ids = format!("table U {{ x: int ({}); }}", ["id: 0"; 100].join(", "));
    let compiled = flatforge_schema::Compiler::new(flatforge_schema::MemoryLoader::new())
        .compile_text("a.fbs", &ids)
        .expect("duplicate attributes only warn");
    let last = compiled.warnings.last().expect("warnings");
    let r = flatforge_schema::render(std::slice::from_ref(last), &compiled.sources, false);
    assert!(
        r.contains("(id: 0, id: 0") && r.contains("...: 0, id: 0"),
        "{r}"
    );
    assert!(r.contains("first given here"), "{r}");
}

#[test]
fn short_lines_and_lines_cut_inside_characters_render_whole_characters() {
    // A line just short enough is shown whole, with no `...`.
    let short = format!("table T {{ x: Nope; }} /* {} */", "y".repeat(80));
    assert!(short.len() <= 120);
    let r = &rendered(&short)[0];
    assert!(!r.contains("..."), "{r}");
    assert_eq!(marked(r), "Nope");
    // Windows that start or end inside multi-byte characters widen to whole characters (of
    // 2, 3 and 4 bytes, each one column wide).
    for pad in 0..4 {
        let text = format!(
            "/* {}{} */ table T {{ x: Nope; }} /* {} */",
            "y".repeat(pad),
            "é€𝔸".repeat(40),
            "€".repeat(60)
        );
        let r = &rendered(&text)[0];
        assert_eq!(marked(r), "Nope", "{r}");
        assert!(r.contains("..."), "{r}");
    }
    // A label that spans lines, one of them long.
    let text = format!(
        "table T {{\n  x: int (id: 1);\n  y: int; /* {} */\n}}",
        "z".repeat(500)
    );
    let err = flatforge_schema::compile_str("a.fbs", &text).expect_err("ids");
    let r = err.render(false);
    assert!(r.contains("--> a.fbs:"), "{r}");
    assert!(r.len() < 2000, "{r}");
}

#[test]
fn an_enum_named_as_its_own_underlying_type_is_one_error() {
    // flatc takes this for `int` (it registers the enum before reading `: type`); we reject it,
    // with one error: the name used to be looked up as a table never declared, which added an
    // "unknown type" error, and another for a later use of a type of that name.
    for (files, message) in [
        (
            &[("a.fbs", &b"enum E : E { A }"[..])][..],
            "enum `E` cannot be its own underlying type",
        ),
        (
            &[("a.fbs", &b"namespace N; enum E : N.E { A }"[..])][..],
            "enum `E` cannot be its own underlying type",
        ),
        (
            &[(
                "a.fbs",
                &b"namespace A.B; table W { f: [ubyte] (nested_flatbuffer: \"A.B.C.X\"); }
                   enum X : X { } namespace A.B.C; table X { }"[..],
            )][..],
            "enum `X` cannot be its own underlying type",
        ),
    ] {
        let found = errors(files, "a.fbs");
        assert_eq!(found, [(Code::InvalidEnum, message.to_string())]);
    }
    // Another enum of the same name is a valid underlying type, also when the name would reach
    // this one in a namespace searched later (flatc looks innermost first: `N.E` in `A.N` is
    // `A.N.N.E`, found before `A.N.E`).
    // An enum named like a built-in type has that type as its underlying type.
    for ok in [
        "enum int : int { A }",
        "union int : int { T = 256 } table T {}",
        "namespace N; enum int : int { A } table T { e: N.int; }",
    ] {
        let schema = flatforge_schema::compile_str("a.fbs", ok)
            .unwrap_or_else(|e| panic!("{}", e.render(false)));
        assert_eq!(
            schema.enums[0].underlying_type.base_type,
            BaseType::Int,
            "{ok}"
        );
    }
    for ok in [
        "namespace N; enum E : int { A } namespace M; enum E : N.E { B }",
        "namespace A.N.N; enum E : byte { X } namespace A.N; enum E : N.E { Y }",
    ] {
        let schema = flatforge_schema::compile_str("a.fbs", ok).expect(ok);
        let byte = ok.contains("byte");
        let e = &schema.enums[schema
            .find_enum(if byte { "A.N.E" } else { "M.E" })
            .unwrap()
            .0 as usize];
        let want = if byte { BaseType::Byte } else { BaseType::Int };
        assert_eq!(e.underlying_type.base_type, want, "{ok}");
    }
}

#[test]
fn repeated_ulong_values_are_named_unsigned() {
    let text = "enum E : ulong { A = 0, B = 9223372036854775808, C = 9223372036854775808 }";
    let compiled = Compiler::new(MemoryLoader::new())
        .compile_text("a.fbs", text)
        .expect("a repeat above the smallest value only warns");
    let messages: Vec<&str> = compiled
        .warnings
        .iter()
        .map(|w| w.message.as_str())
        .collect();
    assert_eq!(
        messages,
        ["`B` and `C` of enum `E` have the same value 9223372036854775808"]
    );
    let err = flatforge_schema::compile_str("a.fbs", &text.replace("A = 0, ", "")).unwrap_err();
    assert!(
        err.diagnostics[0]
            .message
            .contains("same value 9223372036854775808;"),
        "{}",
        err.render(false)
    );
}

/// The warnings of compiling `root` with the in-memory `files`: (file of the include, message).
fn unused_includes(files: &[(&str, &str)], root: &str) -> Vec<(String, String)> {
    let mut loader = MemoryLoader::new();
    for (name, text) in files {
        loader.insert(*name, *text);
    }
    let compiled = Compiler::new(loader).compile(root).expect("valid");
    compiled
        .warnings
        .iter()
        .filter(|w| w.code == Code::UnusedInclude)
        .map(|w| {
            let file = w.primary.as_ref().unwrap().span.file;
            let path = compiled.sources.files[file.index()]
                .path
                .display()
                .to_string();
            (path, w.message.clone())
        })
        .collect()
}

#[test]
fn an_include_is_unused_when_nothing_it_brings_in_is_used() {
    let b_uses_c = [
        ("b.fbs", "include \"c.fbs\"; table B { c: C; }"),
        ("c.fbs", "table C {}"),
    ];
    // Used directly, or through what it includes: no warning.
    let direct = [
        &[("a.fbs", "include \"b.fbs\"; table A { b: B; }")][..],
        &b_uses_c,
    ]
    .concat();
    assert_eq!(unused_includes(&direct, "a.fbs"), []);
    let through = [
        &[("a.fbs", "include \"b.fbs\"; table A { c: C; }")][..],
        &b_uses_c,
    ]
    .concat();
    assert_eq!(unused_includes(&through, "a.fbs"), []);
    // Nothing used.
    let none = [&[("a.fbs", "include \"b.fbs\"; table A {}")][..], &b_uses_c].concat();
    assert_eq!(
        unused_includes(&none, "a.fbs"),
        [(
            "a.fbs".into(),
            "nothing from `b.fbs` is used in this file".into()
        )]
    );
    // A cycle: what comes back through the including file does not count.
    let cycle = [
        ("a.fbs", "include \"b.fbs\"; table A {}"),
        ("b.fbs", "include \"a.fbs\"; table B { a: A; }"),
    ];
    assert_eq!(
        unused_includes(&cycle, "a.fbs"),
        [(
            "a.fbs".into(),
            "nothing from `b.fbs` is used in this file".into()
        )]
    );
    // A chain of 3,000 includes, none used (one search of the chain per include took time cubic
    // in its length).
    let names: Vec<String> = (0..3000).map(|i| format!("f{i}.fbs")).collect();
    let texts: Vec<String> = (0..3000)
        .map(|i| match i {
            2999 => "table T2999 {}".to_string(),
            _ => format!("include \"f{}.fbs\"; table T{i} {{}}", i + 1),
        })
        .collect();
    let chain: Vec<(&str, &str)> = names
        .iter()
        .zip(&texts)
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    assert_eq!(unused_includes(&chain, "f0.fbs").len(), 2999);
}
