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
