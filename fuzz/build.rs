//! Generates the Rust code the `generated_*` fuzz targets read buffers with (monster_test,
//! union_vector, arrays_test, test_64bit and union_underlying_type_test from ../shared/testdata),
//! with flatforge-build.

fn main() -> Result<(), flatforge_build::Error> {
    let manifest = std::path::PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo"));
    let tests = manifest.join("../../shared/testdata/flatbuffers/tests");
    if !tests.is_dir() {
        eprintln!("error: ../shared/testdata is missing beside the repository");
        std::process::exit(1);
    }
    flatforge_build::Config::new()
        .include_dir(tests.join("include_test"))
        .serde_feature(None)
        .print_warnings(false)
        .compile(&[
            tests.join("monster_test.fbs"),
            tests.join("union_vector/union_vector.fbs"),
            tests.join("arrays_test.fbs"),
            tests.join("64bit/test_64bit.fbs"),
            tests.join("union_underlying_type_test.fbs"),
        ])?;
    Ok(())
}
