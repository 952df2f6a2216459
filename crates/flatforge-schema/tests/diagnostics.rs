//! Snapshot tests of rendered diagnostics for a corpus of invalid schemas.
//!
//! Each `tests/invalid/NAME.fbs` must be rejected, by us and by flatc; our rendered diagnostics
//! (no color) must equal `tests/invalid/NAME.stderr`. Run with `FLATFORGE_BLESS=1` to write the
//! expected files from the current output (then review the diff).

use std::path::{Path, PathBuf};

use flatforge_schema::{Compiler, MemoryLoader};

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
