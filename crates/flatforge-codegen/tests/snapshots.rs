//! Snapshot tests: the generated code of a few small schemas in `tests/snapshots/` (`X.fbs` gives
//! `X.rs`). `FLATFORGE_BLESS=1 cargo test -p flatforge-codegen --test snapshots` refreshes them.

use std::path::Path;

fn check(name: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let compiled = flatforge_schema::Compiler::new(flatforge_schema::FsLoader)
        .compile(dir.join(format!("{name}.fbs")))
        .unwrap_or_else(|e| panic!("{}", e.render(false)));
    let file = flatforge_codegen::generate(
        &compiled.schema,
        &compiled.sources,
        &flatforge_codegen::Options::new(),
    )
    .expect("generates");
    // The header names the version; snapshots stay valid across version bumps.
    let code = file.code.replace(flatforge_codegen::VERSION, "VERSION");
    let path = dir.join(format!("{name}.rs"));
    if std::env::var_os("FLATFORGE_BLESS").is_some() {
        std::fs::write(&path, &code).expect("write snapshot");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with FLATFORGE_BLESS=1 to create it)",
            path.display()
        )
    });
    if expected != code {
        let line = expected
            .lines()
            .zip(code.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| expected.lines().count().min(code.lines().count()));
        panic!(
            "{name}.rs differs from the generated code at line {}:\n  snapshot:  {}\n  generated: {}\n\
             (run with FLATFORGE_BLESS=1 to accept the new output)",
            line + 1,
            expected.lines().nth(line).unwrap_or("<end>"),
            code.lines().nth(line).unwrap_or("<end>")
        );
    }
}

#[test]
fn aliases() {
    check("aliases");
}

#[test]
fn tables() {
    check("tables");
}

#[test]
fn unions() {
    check("unions");
}

#[test]
fn wide() {
    check("wide");
}

#[test]
fn sixty_four_bit_offsets_and_wide_union_types_are_generated() {
    let schema = flatforge_schema::compile_str(
        "big.fbs",
        "table T { v: [ubyte] (vector64); s: string (offset64); } union U : int { T }",
    )
    .unwrap();
    let file = flatforge_codegen::generate(
        &schema,
        &flatforge_schema::SourceMap::default(),
        &Default::default(),
    )
    .unwrap();
    assert!(file
        .code
        .contains("t.field::<::flatforge::Vector64<'_, u8>>(0, \"v\", false)?;"));
    assert!(file
        .code
        .contains("t.field::<::flatforge::Far<&'_ str>>(1, \"s\", false)?;"));
    assert!(file.code.contains("type Tag = i32;"));
}

#[test]
fn unsupported_features_are_diagnostics() {
    // The front end rejects both, as flatc does; a schema model built by hand still gets
    // diagnostics rather than code that does not compile.
    let mut schema =
        flatforge_schema::compile_str("big.fbs", "table T { v: [string]; } union U : int { T }")
            .unwrap();
    schema.objects[0].fields[0].offset64 = true;
    schema.enums[0].underlying_type.base_type = flatforge_schema::BaseType::Float;
    let diagnostics = unsupported(&schema);
    assert_eq!(diagnostics.len(), 2);
    assert!(diagnostics[0].message.contains("64-bit offsets"));
    assert!(diagnostics[1].message.contains("`float`"));
}

/// The diagnostics of a schema the generator refuses (it must refuse it).
fn unsupported(schema: &flatforge_schema::Schema) -> Vec<flatforge_schema::Diagnostic> {
    let err = flatforge_codegen::generate(
        schema,
        &flatforge_schema::SourceMap::default(),
        &Default::default(),
    )
    .unwrap_err();
    let flatforge_codegen::GenerateError::Unsupported { diagnostics } = err else {
        panic!("expected unsupported: {err}")
    };
    diagnostics
}

/// A schema with a namespace of `depth` components holding `tables` tables, and a sibling
/// namespace that refers to one of them.
fn deep_namespace_schema(depth: usize, tables: usize) -> String {
    let ns: Vec<String> = (0..depth).map(|i| format!("n{i}")).collect();
    let mut src = format!("namespace {};\nenum E : byte {{ A, B }}\n", ns.join("."));
    for t in 0..tables {
        src.push_str(&format!(
            "table T{t} {{ e: E = B; name: string (required); v: [int]; }}\n"
        ));
    }
    src.push_str(&format!(
        "namespace n0.other;\ntable U {{ t: {}.T0; }}\nroot_type U;\n",
        ns.join(".")
    ));
    src
}

#[test]
fn deep_namespaces_generate_up_to_the_limit_and_are_a_diagnostic_beyond() {
    // 256 nested modules: formatted on threads with a stack sized for them (the test thread's
    // 2 MiB overflowed at about 100 in a debug build), on one and on several threads.
    for tables in [1, 12] {
        let schema =
            flatforge_schema::compile_str("deep.fbs", &deep_namespace_schema(256, tables)).unwrap();
        let file = flatforge_codegen::generate(
            &schema,
            &flatforge_schema::SourceMap::default(),
            &Default::default(),
        )
        .unwrap();
        let indent = " ".repeat(4 * 255);
        assert!(file.code.contains(&format!("\n{indent}pub mod n255 {{\n")));
        assert!(file
            .code
            .contains(&format!("pub struct T{}<'a>", tables - 1)));
        // The path from `n0.other` to `T0` (wrapped over lines).
        assert!(file.code.contains("super::super::n0::n1::n2::"));
        assert!(file.code.contains("::n254::n255::T0<"));
    }
    // The reviewer's schema: 3,000 components aborted with a stack overflow.
    let schema =
        flatforge_schema::compile_str("deep.fbs", &deep_namespace_schema(3000, 1)).unwrap();
    let diagnostics = unsupported(&schema);
    assert_eq!(
        diagnostics.len(),
        1,
        "one per namespace, not per definition"
    );
    assert_eq!(
        diagnostics[0].message,
        "namespace `n0.n1.n2.n3.n4.n5.n6.n7.….n2999` has 3000 components: the Rust generator \
         supports at most 256 (one nested module each)"
    );
    // One component more than the limit is enough.
    let schema = flatforge_schema::compile_str("deep.fbs", &deep_namespace_schema(257, 1)).unwrap();
    assert!(flatforge_codegen::generate(
        &schema,
        &flatforge_schema::SourceMap::default(),
        &Default::default(),
    )
    .is_err());
}

/// flatc accepts a table of 32,766 fields, whose vtable would not fit its 16-bit size: the
/// generator refuses it.
#[test]
fn a_table_whose_vtable_would_not_fit_is_refused() {
    let body: String = (0..32766).map(|i| format!("f{i}: byte; ")).collect();
    let schema =
        flatforge_schema::compile_str("wide.fbs", &format!("table Wide {{ {body}}}")).unwrap();
    let diagnostics = unsupported(&schema);
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(
        diagnostics[0].message,
        "table `Wide` has 32766 fields: a vtable holds at most 32765 (ids 0 to 32764), and a \
         buffer with more would not verify"
    );
}

#[test]
fn names() {
    check("names");
}

#[test]
fn namespaces() {
    check("namespaces");
}
