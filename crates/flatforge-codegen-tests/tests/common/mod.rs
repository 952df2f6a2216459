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

/// What `flatc --annotate` finds in `bin` read as the root of `schema` (`extra` goes before
/// `--annotate`, for `--root-type`): its `.afb` text. flatc 25.12.19's JSON printer aborts on
/// buffers with 64-bit offsets; its annotator reads them.
pub(crate) fn flatc_annotation(schema: &Path, bin: &[u8], dir: &Path, extra: &[&str]) -> String {
    let file = dir.join("annotated.bin");
    std::fs::write(&file, bin).expect("write buffer");
    let mut cmd = flatforge_testkit::flatc();
    cmd.args(extra).arg("--annotate").arg(schema);
    for d in include_dirs() {
        cmd.arg("-I").arg(d);
    }
    let out = cmd.arg("--").arg(&file).output().expect("run flatc");
    assert!(
        out.status.success(),
        "flatc could not annotate the buffer: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read_to_string(dir.join("annotated.afb")).expect("flatc wrote an annotation")
}

/// The values of an annotation, apart from where the buffer put them: per region (a table, a
/// string, a vector, by its name such as `string (RootTable.far_string)`), its lines without the
/// position, the bytes, offsets' values and padding; a table's lines sorted (its fields' order
/// in memory is the builder's choice). The header, vtables and padding regions are left out.
///
/// # Panics
/// When flatc reports an error in the buffer or bytes that nothing refers to.
pub(crate) fn annotated_values(afb: &str) -> Vec<(String, Vec<String>)> {
    let mut regions: Vec<(String, Vec<String>)> = Vec::new();
    for line in afb.lines() {
        assert!(!line.contains("ERROR"), "flatc found an error: {line}");
        if line.starts_with("//") || line.trim().is_empty() {
            continue;
        }
        if !line.starts_with(' ') {
            let title = line.trim_end_matches(':').to_string();
            assert!(
                !title.starts_with("unknown"),
                "bytes nothing refers to: {afb}"
            );
            regions.push((title, Vec::new()));
            continue;
        }
        let Some((title, lines)) = regions.last_mut() else {
            panic!("an annotation line outside a region: {line}")
        };
        if title == "header" || title == "padding" || title.starts_with("vtable") {
            continue;
        }
        // `+0xPOS | BYTES | TYPE | VALUE | DESCRIPTION`.
        let cols: Vec<&str> = line.split('|').map(str::trim).collect();
        let (ty, value, what) = (cols[2], cols.get(3).copied().unwrap_or(""), cols.get(4));
        if what == Some(&"padding") {
            continue;
        }
        let value = if ty.starts_with("UOffset") || ty.starts_with("SOffset") {
            ""
        } else {
            value
        };
        lines.push(format!("{ty} | {value} | {}", what.unwrap_or(&"")));
    }
    for (title, lines) in &mut regions {
        if title.contains("table (") {
            lines.sort();
        }
    }
    regions.retain(|(title, _)| {
        title != "header" && title != "padding" && !title.starts_with("vtable")
    });
    regions.sort();
    regions
}
