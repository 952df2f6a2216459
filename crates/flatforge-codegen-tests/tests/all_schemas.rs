//! Every shared schema the front end accepts is generated and compiled by this crate's build
//! script (clippy-clean: see the crate docs), and so are random ones. Here: which schemas are
//! declined or rejected is pinned, random schemas were generated, and generation is
//! deterministic: generating a schema again, in this process, gives the bytes the build script
//! wrote.

mod common;

use std::path::Path;

#[test]
fn the_generated_and_declined_schemas_are_the_expected_ones() {
    // The generator declines none: 64-bit offsets (64bit/test_64bit.fbs, 64bit/evolution/v2.fbs,
    // default_vectors_strings_test.fbs) and a union with an `int` type field
    // (union_underlying_type_test.fbs) are generated like the rest.
    assert_eq!(flatforge_codegen_tests::UNSUPPORTED, [] as [&str; 0]);
    // Rejected by the front end, as flatc rejects them (the schema crate's conformance test checks
    // that verdict against flatc).
    assert_eq!(
        flatforge_codegen_tests::REJECTED,
        [
            "flatbuffers/tests/include_test/order.fbs",
            "flatbuffers/tests/name_clash_test/invalid_test1.fbs",
            "flatbuffers/tests/prototest/test_include.golden.fbs",
            "flatbuffers/tests/prototest/test_include_id.golden.fbs",
            "flatbuffers/tests/prototest/test_union_include.golden.fbs",
            "flatbuffers/tests/prototest/test_union_include_id.golden.fbs",
            "flatbuffers/tests/test.fbs",
        ]
    );
    assert_eq!(flatforge_codegen_tests::GENERATED, 74);
}

/// The random schemas the build script generated code for: a good part of the 40 (about 40% of
/// random schemas are valid), unless `FLATFORGE_RANDOM_SCHEMAS` asked for another number.
#[test]
fn random_schemas_were_generated() {
    let accepted = flatforge_codegen_tests::RANDOM_ACCEPTED;
    if std::env::var_os("FLATFORGE_RANDOM_SCHEMAS").is_none() {
        assert!(
            (8..=32).contains(&accepted.len()),
            "{} of 40 random schemas accepted: {accepted:?}",
            accepted.len()
        );
    }
}

#[test]
fn generation_is_deterministic() {
    let testdata = flatforge_testkit::testdata_dir()
        .canonicalize()
        .expect("testdata");
    let schemas = flatforge_testkit::shared_schema_files(&testdata);
    let compiler = common::include_dirs()
        .into_iter()
        .map(|d| d.canonicalize().expect("include dir"))
        .fold(
            flatforge_schema::Compiler::new(flatforge_schema::FsLoader),
            |c, d| c.include_dir(d),
        );
    let options = flatforge_codegen::Options::new();
    let mut compared = 0;
    for schema in &schemas {
        let Ok(compiled) = compiler.compile(schema) else {
            continue;
        };
        let Ok(first) = flatforge_codegen::generate(&compiled.schema, &compiled.sources, &options)
        else {
            continue;
        };
        let second = flatforge_codegen::generate(&compiled.schema, &compiled.sources, &options)
            .expect("second run");
        assert_eq!(first, second, "{}", schema.display());
        let rel = schema
            .strip_prefix(&testdata)
            .expect("below testdata")
            .to_string_lossy();
        let module: String = rel
            .trim_end_matches(".fbs")
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '_'
                }
            })
            .collect();
        let built = Path::new(env!("OUT_DIR")).join(module).join(&first.name);
        let built = std::fs::read_to_string(&built).expect("the build script's file");
        assert!(
            built == first.code,
            "{} differs from the build script's output",
            schema.display()
        );
        compared += 1;
    }
    assert_eq!(compared, flatforge_codegen_tests::GENERATED);
}
