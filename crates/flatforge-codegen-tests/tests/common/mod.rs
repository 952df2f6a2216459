//! Shared by the integration tests: running the reference flatc on buffers and JSON.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// `../shared/testdata/<rel>`, checked to exist.
pub(crate) fn testdata(rel: &str) -> PathBuf {
    flatforge_testkit::testdata(rel)
}

/// The include directories flatc's own tests use (as the build script passes them).
pub(crate) fn include_dirs() -> Vec<PathBuf> {
    let t = flatforge_testkit::testdata_dir();
    vec![
        t.join("flatbuffers/tests/include_test"),
        t.join("flatbuffers/tests"),
        t.join("flatbuffers/tests/flatc"),
        t.join("flatbuffers"),
    ]
}

/// A fresh temporary directory for one test.
pub(crate) fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "flatforge-codegen-tests-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// flatc's strict JSON for a binary buffer of `schema` (`--raw-binary -t --strict-json`), parsed.
/// Non-finite floats, which flatc prints bare, become strings.
pub(crate) fn flatc_json(
    schema: &Path,
    bin: &[u8],
    dir: &Path,
    extra: &[&str],
) -> serde_json::Value {
    let file = dir.join("buffer.bin");
    std::fs::write(&file, bin).expect("write buffer");
    let mut cmd = flatforge_testkit::flatc();
    cmd.args(["--raw-binary", "-t", "--strict-json"])
        .args(extra);
    for d in include_dirs() {
        cmd.arg("-I").arg(d);
    }
    cmd.arg("-o").arg(dir).arg(schema).arg("--").arg(&file);
    let out = cmd.output().expect("run flatc");
    assert!(
        out.status.success(),
        "flatc could not read the buffer: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(dir.join("buffer.json")).expect("flatc wrote JSON");
    parse_flatc_json(&text)
}

/// Parses flatc's strict JSON output (bare `nan`, `inf`, `-inf` become strings).
pub(crate) fn parse_flatc_json(text: &str) -> serde_json::Value {
    let text = text
        .replace(": nan", ": \"nan\"")
        .replace(": -nan", ": \"nan\"")
        .replace(": -inf", ": \"-inf\"")
        .replace(": inf", ": \"inf\"")
        .replace(": +inf", ": \"inf\"");
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("flatc's JSON does not parse: {e}\n{text}"))
}

/// flatc's binary for a JSON file of `schema` (`-b`).
pub(crate) fn flatc_binary(schema: &Path, json: &Path, dir: &Path, extra: &[&str]) -> Vec<u8> {
    let mut cmd = flatforge_testkit::flatc();
    cmd.arg("-b").args(extra);
    for d in include_dirs() {
        cmd.arg("-I").arg(d);
    }
    cmd.arg("-o").arg(dir).arg(schema).arg(json);
    let out = cmd.output().expect("run flatc");
    assert!(
        out.status.success(),
        "flatc -b failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stem = json.file_stem().expect("file name").to_string_lossy();
    let bin = std::fs::read_dir(dir)
        .expect("read dir")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| {
            p.file_stem().is_some_and(|s| s.to_string_lossy() == stem)
                && p.extension().is_some_and(|e| e != "json")
        })
        .expect("flatc wrote a binary");
    std::fs::read(bin).expect("read binary")
}

/// flatc's binary for JSON text of `schema`.
pub(crate) fn flatc_binary_from_text(
    schema: &Path,
    json: &str,
    dir: &Path,
    name: &str,
    extra: &[&str],
) -> Vec<u8> {
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, json).expect("write JSON");
    flatc_binary(schema, &path, dir, extra)
}
