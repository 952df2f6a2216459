//! Integration tests of `flatforge rust`: what a new user runs into.

use std::path::PathBuf;
use std::process::{Command, Output};

fn flatforge(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flatforge"))
        .args(args)
        .current_dir(flatforge_testkit::workspace_root())
        .env_remove("NO_COLOR")
        .output()
        .expect("run flatforge")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh directory for one test.
fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("flatforge-cli-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn a_namespace_too_deep_for_rust_is_an_error_not_a_stack_overflow() {
    let dir = temp_dir("rust-deep-namespace");
    let components: Vec<String> = (0..3000).map(|i| format!("n{i}")).collect();
    let schema = dir.join("deepns.fbs");
    std::fs::write(
        &schema,
        format!(
            "namespace {};\ntable T {{ x: int; }} root_type T;\n",
            components.join(".")
        ),
    )
    .expect("write");
    let out_dir = dir.join("out");
    let (schema, out_dir) = (schema.to_str().unwrap(), out_dir.to_str().unwrap());
    // `check` accepts it; `rust` aborted with a stack overflow (exit status 134).
    let out = flatforge(&["check", schema]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = flatforge(&["rust", "--rustfmt", "never", "-o", out_dir, schema]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "error: namespace `n0.n1.n2.n3.n4.n5.n6.n7.….n2999` has 3000 components: the Rust \
             generator supports at most 256 (one nested module each)"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("deepns.fbs:2:7"), "{stderr}");
    assert!(
        stderr.contains("cannot generate Rust code for this schema"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn help_says_how_included_types_are_shared() {
    let out = flatforge(&["rust", "--help"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let help = text(&out.stdout);
    assert!(
        help.contains("Schemas generated separately each get their own copy of what they include"),
        "{help}"
    );
    assert!(help.contains("For shared types, generate one schema that includes the others"));
    assert!(
        help.contains("declares the cfg expected in its Cargo.toml"),
        "{help}"
    );
}

/// How many times `code` defines the view `name`.
fn definitions(code: &str, name: &str) -> usize {
    code.matches(&format!("pub struct {name}<'a>")).count()
}

#[test]
fn separately_generated_schemas_duplicate_includes_and_an_umbrella_shares_them() {
    // What the help says, on Arrow's schemas.
    let arrow = flatforge_testkit::testdata("real-world/arrow");
    let dir = temp_dir("rust-umbrella");
    let (file, message) = (arrow.join("File.fbs"), arrow.join("Message.fbs"));
    let separate = dir.join("separate");
    let out = flatforge(&[
        "rust",
        "-q",
        "--rustfmt",
        "never",
        "-o",
        separate.to_str().unwrap(),
        file.to_str().unwrap(),
        message.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for name in ["File", "Message"] {
        let code = std::fs::read_to_string(separate.join(format!("{name}_generated.rs"))).unwrap();
        assert_eq!(definitions(&code, "Schema"), 1, "{name}");
        assert_eq!(definitions(&code, "Field"), 1, "{name}");
    }
    let umbrella = dir.join("arrow.fbs");
    std::fs::write(
        &umbrella,
        "include \"File.fbs\";\ninclude \"Message.fbs\";\n",
    )
    .unwrap();
    let shared = dir.join("shared");
    let out = flatforge(&[
        "rust",
        "-q",
        "--rustfmt",
        "never",
        "-I",
        arrow.to_str().unwrap(),
        "-o",
        shared.to_str().unwrap(),
        umbrella.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("nothing from"),
        "the expected warnings"
    );
    let code = std::fs::read_to_string(shared.join("arrow_generated.rs")).unwrap();
    for name in ["Schema", "Field", "Footer", "Message"] {
        assert_eq!(definitions(&code, name), 1, "{name}");
    }
    assert!(code.contains("pub fn root_as_footer("));
    assert!(code.contains("pub fn root_as_message("));
    std::fs::remove_dir_all(&dir).expect("clean up");
}

/// `-o` naming a file said "File exists"; a missing `-I` directory passed silently.
#[test]
fn out_dir_that_is_a_file_and_missing_include_dirs_are_reported() {
    let dir = temp_dir("out-is-file");
    let file = dir.join("not_a_dir.rs");
    std::fs::write(&file, "").unwrap();
    let out = flatforge(&["rust", "-o", file.to_str().unwrap(), "examples/monster.fbs"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("is a file: -o names the directory the code goes to"),
        "{}",
        text(&out.stderr)
    );
    let out = flatforge(&[
        "rust",
        "-I",
        "no/such/dir",
        "-o",
        dir.join("gen").to_str().unwrap(),
        "examples/monster.fbs",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("warning: -I `no/such/dir` is not a directory"));
}

#[test]
fn a_run_that_writes_nothing_creates_no_out_dir() {
    let dir = temp_dir("rust-no-out-dir");
    let bad = dir.join("bad.fbs");
    std::fs::write(&bad, "table T { x: Nope; }").unwrap();
    let unsupported = dir.join("deep.fbs");
    let components: Vec<String> = (0..300).map(|i| format!("n{i}")).collect();
    std::fs::write(
        &unsupported,
        format!("namespace {}; table T {{}}", components.join(".")),
    )
    .unwrap();
    let out_dir = dir.join("newdir/a/b");
    let o = out_dir.to_str().unwrap();
    let missing = dir.join("missing.fbs");
    for (schema, why) in [
        (&missing, "a missing schema"),
        (&bad, "an invalid schema"),
        (&unsupported, "a schema the generator declines"),
    ] {
        let out = flatforge(&[
            "rust",
            "--rustfmt",
            "never",
            "-o",
            o,
            schema.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(1), "{why}: {}", text(&out.stderr));
        assert!(!dir.join("newdir").exists(), "{why} created the out dir");
    }
    // With something to write, it is created, parents and all.
    let good = dir.join("good.fbs");
    std::fs::write(&good, "table T { x: int; }").unwrap();
    let out = flatforge(&[
        "rust",
        "--rustfmt",
        "never",
        "-o",
        o,
        good.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out_dir.join("good_generated.rs").is_file());
    std::fs::remove_dir_all(&dir).expect("clean up");
}
