//! Generates Rust code for every schema of `../shared/testdata` that the front end accepts, with
//! `flatforge-build`, and writes `all_schemas.rs`: one module per schema (named after its path)
//! including its generated file, plus the list of schemas the generator declines (see
//! `UNSUPPORTED` in the crate docs), and the same for the codegen crate's snapshot schemas and
//! for random schemas.

use std::fmt::Write;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo"));
    let testdata = manifest.join("../../../shared/testdata");
    if !testdata.is_dir() {
        eprintln!(
            "error: shared test data not found at {}: this crate needs ../shared/testdata beside \
             the repository",
            testdata.display()
        );
        std::process::exit(1);
    }
    let testdata = testdata.canonicalize().expect("the directory exists");
    println!("cargo:rerun-if-changed={}", testdata.display());
    let fb = testdata.join("flatbuffers");
    let include_dirs = [
        fb.join("tests/include_test"),
        fb.join("tests"),
        fb.join("tests/flatc"),
        fb.clone(),
    ];
    let schemas = flatforge_testkit::shared_schema_files(&testdata);

    let mut modules = String::new();
    let mut unsupported = Vec::new();
    let mut rejected = Vec::new();
    for schema in &schemas {
        let rel = schema.strip_prefix(&testdata).expect("below testdata");
        let rel_str = rel.to_string_lossy().replace('\\', "/");
        let module: String = rel_str
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
        let dir = out_dir.join(&module);
        std::fs::create_dir_all(&dir).expect("OUT_DIR is writable");
        let config = include_dirs
            .iter()
            .fold(flatforge_build::Config::new(), |c, d| c.include_dir(d))
            .out_dir(&dir)
            .print_warnings(false);
        match config.compile(&[schema]) {
            Ok(files) => {
                let file = files[0].strip_prefix(&out_dir).expect("below OUT_DIR");
                let _ = writeln!(
                    modules,
                    "#[doc = \" Generated from `{rel_str}`.\"]\npub mod {module} {{\n    include!(concat!(env!(\"OUT_DIR\"), \"/{}\"));\n}}",
                    file.to_string_lossy().replace('\\', "/")
                );
            }
            Err(flatforge_build::Error::Generate { .. }) => unsupported.push(rel_str),
            Err(flatforge_build::Error::Schema { .. }) => rejected.push(rel_str),
            Err(e) => panic!("{e}"),
        }
    }
    // The codegen crate's snapshot schemas (keywords, includes, services) are compiled too, and
    // included once more in a private module, as in a binary (see `examples/build-rs-demo`).
    // Clippy skips some lints on a crate's exported API; `clippy.toml` has it check them on the
    // public modules, and the private one checks that the code needs no more than that.
    let mut private = String::new();
    let snapshots = manifest.join("../flatforge-codegen/tests/snapshots");
    println!("cargo:rerun-if-changed={}", snapshots.display());
    for name in ["tables", "unions", "wide", "names", "aliases", "namespaces"] {
        let schema = snapshots.join(format!("{name}.fbs"));
        let module = format!("snapshot_{name}");
        let dir = out_dir.join(&module);
        std::fs::create_dir_all(&dir).expect("OUT_DIR is writable");
        let files = flatforge_build::Config::new()
            .out_dir(&dir)
            .print_warnings(false)
            .compile(&[&schema])
            .unwrap_or_else(|e| panic!("{e}"));
        let file = files[0].strip_prefix(&out_dir).expect("below OUT_DIR");
        let file = file.to_string_lossy().replace('\\', "/");
        let _ = writeln!(
            modules,
            "#[doc = \" Generated from the snapshot schema `{name}.fbs`.\"]\npub mod {module} {{\n    include!(concat!(env!(\"OUT_DIR\"), \"/{file}\"));\n}}",
        );
        let _ = writeln!(
            private,
            "    mod {module} {{\n        include!(concat!(env!(\"OUT_DIR\"), \"/{file}\"));\n    }}",
        );
    }
    let _ = writeln!(
        modules,
        "#[allow(dead_code, unreachable_pub)]\nmod private {{\n{private}}}"
    );
    // Code whose serde derives are behind a feature this crate does not have, as in a crate
    // without a `serde` feature: it compiles without warnings (the crate denies
    // `unexpected_cfgs`) because flatforge-build declares the cfg expected. monster_test has
    // every kind of derive, arrays_test the helper module of long arrays.
    let mut absent = String::new();
    for rel in [
        "flatbuffers/tests/monster_test.fbs",
        "flatbuffers/tests/arrays_test.fbs",
    ] {
        let module = rel
            .trim_start_matches("flatbuffers/tests/")
            .trim_end_matches(".fbs");
        let dir = out_dir.join("without_serde_feature").join(module);
        std::fs::create_dir_all(&dir).expect("OUT_DIR is writable");
        let files = include_dirs
            .iter()
            .fold(flatforge_build::Config::new(), |c, d| c.include_dir(d))
            .serde_feature(Some(ABSENT_FEATURE))
            .out_dir(&dir)
            .print_warnings(false)
            .compile(&[testdata.join(rel)])
            .unwrap_or_else(|e| panic!("{e}"));
        let file = files[0].strip_prefix(&out_dir).expect("below OUT_DIR");
        let file = file.to_string_lossy().replace('\\', "/");
        let _ = writeln!(
            absent,
            "    mod {module} {{\n        include!(concat!(env!(\"OUT_DIR\"), \"/{file}\"));\n    }}",
        );
    }
    let _ = writeln!(
        modules,
        "#[allow(dead_code, unreachable_pub)]\nmod without_serde_feature {{\n{absent}}}"
    );
    random_schemas(&out_dir, &mut modules);
    let list = |v: &[String]| {
        v.iter()
            .map(|s| format!("{s:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(
        modules,
        "/// Schemas the front end accepts but the generator declines.\npub const UNSUPPORTED: &[&str] = &[{}];\n/// Schemas the front end rejects (as flatc does).\npub const REJECTED: &[&str] = &[{}];\n/// How many schemas were generated.\npub const GENERATED: usize = {};",
        list(&unsupported),
        list(&rejected),
        schemas.len() - unsupported.len() - rejected.len()
    );
    let path = out_dir.join("all_schemas.rs");
    if std::fs::read_to_string(&path).ok().as_deref() != Some(modules.as_str()) {
        std::fs::write(&path, modules).expect("OUT_DIR is writable");
    }
}

/// How many random schemas to generate code for, unless `FLATFORGE_RANDOM_SCHEMAS` says.
const RANDOM_SCHEMAS: u64 = 40;

/// Generates code for random schemas (`flatforge_testkit::random_schema`, seeds from 0, or from
/// `FLATFORGE_RANDOM_SEED`) that the front end accepts, one public module each (`random_SEED`),
/// so that it compiles under the crate's lints; `RANDOM_ACCEPTED` lists their seeds. A schema the
/// front end accepts but the generator declines stops the build, with its text.
fn random_schemas(out_dir: &Path, modules: &mut String) {
    println!("cargo:rerun-if-env-changed=FLATFORGE_RANDOM_SCHEMAS");
    println!("cargo:rerun-if-env-changed=FLATFORGE_RANDOM_SEED");
    let first = flatforge_testkit::env_number("FLATFORGE_RANDOM_SEED", 0);
    let count = flatforge_testkit::env_number("FLATFORGE_RANDOM_SCHEMAS", RANDOM_SCHEMAS);
    let dir = out_dir.join("random");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("OUT_DIR is writable");
    let mut accepted = Vec::new();
    for seed in first..first + count {
        let stem = format!("random_{seed}");
        let files = flatforge_testkit::random_schema::schema_files(seed, &stem);
        let (schema, text) = flatforge_testkit::random_schema::write_files(&dir, &files)
            .expect("OUT_DIR is writable");
        let mut config = flatforge_build::Config::new()
            .out_dir(&dir)
            .print_warnings(false);
        // Files in the schema's library are found through an include directory only.
        let library = dir.join(flatforge_testkit::random_schema::library_dir(&stem));
        if library.is_dir() {
            config = config.include_dir(library);
        }
        match config.compile(&[&schema]) {
            Ok(files) => {
                let file = files[0].strip_prefix(out_dir).expect("below OUT_DIR");
                let _ = writeln!(
                    modules,
                    "#[doc = \" Generated from the random schema of seed {seed}.\"]\npub mod random_{seed} {{\n    include!(concat!(env!(\"OUT_DIR\"), \"/{}\"));\n}}",
                    file.to_string_lossy().replace('\\', "/")
                );
                accepted.push(seed.to_string());
            }
            Err(flatforge_build::Error::Schema { .. }) => {}
            Err(e) => panic!("random schema of seed {seed}: {e}\n{text}"),
        }
    }
    let _ = writeln!(
        modules,
        "/// The seeds of the random schemas the front end accepts, each with its module.\npub const RANDOM_ACCEPTED: &[u64] = &[{}];",
        accepted.join(", ")
    );
}

/// A feature that `Cargo.toml` does not declare.
const ABSENT_FEATURE: &str = "not-a-feature-of-this-crate";
