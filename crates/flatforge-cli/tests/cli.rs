//! Integration tests of the `flatforge` binary: exit codes, output streams, help.

use std::path::{Path, PathBuf};
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

fn temp_file(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("flatforge-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("write");
    path
}

#[test]
fn the_readme_example_checks_ok() {
    let out = flatforge(&["check", "examples/monster.fbs"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("ok: examples/monster.fbs"));
    assert!(text(&out.stderr).is_empty(), "{}", text(&out.stderr));
}

#[test]
fn every_example_schema_is_valid() {
    let dir = flatforge_testkit::workspace_root().join("examples");
    for entry in std::fs::read_dir(&dir).expect("examples") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "fbs") {
            let out = flatforge(&["check", "-q", path.to_str().unwrap()]);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{}: {}",
                path.display(),
                text(&out.stderr)
            );
        }
    }
}

#[test]
fn invalid_schema_exits_1_with_diagnostics_on_stderr() {
    let path = temp_file("bad.fbs", "table T { a: Nope; b: short = 99999; }\n");
    let out = flatforge(&["check", "--color", "never", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("error: unknown type `Nope`"), "{err}");
    assert!(err.contains("bad.fbs:1:14"), "{err}");
    assert!(err.contains("does not fit in `short`"), "{err}");
    assert!(err.contains("2 errors"), "{err}");
    assert!(!err.contains('\x1b'), "no color when asked for none");
    assert!(text(&out.stdout).is_empty());
}

#[test]
fn color_is_used_only_when_asked_or_on_a_terminal() {
    let path = temp_file("bad2.fbs", "table T { a: Nope; }\n");
    let piped = flatforge(&["check", path.to_str().unwrap()]);
    assert!(
        !text(&piped.stderr).contains('\x1b'),
        "piped output must not be colored"
    );
    let forced = flatforge(&["check", "--color", "always", path.to_str().unwrap()]);
    assert!(text(&forced.stderr).contains('\x1b'));
}

#[test]
fn all_schemas_are_checked_and_one_failure_fails_the_run() {
    let good = temp_file("good.fbs", "table G {}\n");
    let bad = temp_file("bad3.fbs", "table B { x: [[int]]; }\n");
    let out = flatforge(&["check", good.to_str().unwrap(), bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("good.fbs"));
    assert!(text(&out.stderr).contains("nested vector"));
}

#[test]
fn include_dirs_are_searched() {
    let data = flatforge_testkit::testdata("flatbuffers/tests/monster_test.fbs");
    let include = data.parent().unwrap().join("include_test");
    let without = flatforge(&["check", "-q", data.to_str().unwrap()]);
    assert_eq!(without.status.code(), Some(1));
    assert!(text(&without.stderr).contains("cannot find included file `include_test1.fbs`"));
    let with = flatforge(&[
        "check",
        "-q",
        "-I",
        include.to_str().unwrap(),
        data.to_str().unwrap(),
    ]);
    assert_eq!(with.status.code(), Some(0), "{}", text(&with.stderr));
}

/// An include that names a directory is reported as such, not as a file that cannot be found.
#[test]
fn an_include_naming_a_directory_says_so() {
    let main = temp_file("includes_a_dir.fbs", "include \"a_dir\";\ntable Main {}\n");
    std::fs::create_dir_all(main.with_file_name("a_dir")).unwrap();
    let out = flatforge(&["check", main.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("included `a_dir` is not a schema file") && stderr.contains("a directory"),
        "{stderr}"
    );
    assert!(!stderr.contains("cannot find"), "{stderr}");
}

#[test]
fn missing_file_exits_1() {
    let out = flatforge(&["check", "no/such/file.fbs"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("cannot read schema `no/such/file.fbs`"));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(flatforge(&[]).status.code(), Some(2));
    assert_eq!(flatforge(&["check"]).status.code(), Some(2));
    assert_eq!(flatforge(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(
        flatforge(&["check", "--bogus", "a.fbs"]).status.code(),
        Some(2)
    );
}

#[test]
fn help_is_complete() {
    let out = flatforge(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    assert!(help.contains("check"), "{help}");
    assert!(help.contains("--color"), "{help}");
    let out = flatforge(&["check", "--help"]);
    let help = text(&out.stdout);
    for needle in [
        "-I, --include <DIR>",
        "--quiet",
        "<SCHEMA>...",
        "Exit status: 0",
        "-I directory",
    ] {
        assert!(help.contains(needle), "missing {needle:?} in:\n{help}");
    }
    let version = flatforge(&["--version"]);
    assert!(text(&version.stdout).starts_with("flatforge "));
}

#[test]
fn warnings_do_not_fail_the_check() {
    let dir = temp_file("dep.fbs", "table Dep {}\n");
    let main = temp_file("main.fbs", "include \"dep.fbs\";\ntable Main {}\n");
    let _ = dir;
    let out = flatforge(&["check", "--color", "never", main.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stderr).contains("warning: nothing from"),
        "{}",
        text(&out.stderr)
    );
    assert!(Path::new(&main).exists());
}

/// Whether a rustfmt can be run (CI installs it; a machine without it skips the rustfmt checks,
/// saying so).
fn have_rustfmt() -> bool {
    Command::new("rustfmt")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn rust_output_is_rustfmt_formatted() {
    if !have_rustfmt() {
        eprintln!("rustfmt is not installed: skipping the rustfmt checks of `flatforge rust`");
        return;
    }
    let tests = flatforge_testkit::testdata("flatbuffers/tests");
    let out_dir =
        std::env::temp_dir().join(format!("flatforge-cli-rustfmt-{}", std::process::id()));
    let (out_fmt, out_raw) = (out_dir.join("fmt"), out_dir.join("raw"));
    let schema = tests.join("monster_test.fbs");
    let include = tests.join("include_test");
    for (dir, when) in [(&out_fmt, "always"), (&out_raw, "never")] {
        let args = [
            "rust",
            "-q",
            "--rustfmt",
            when,
            "-I",
            include.to_str().unwrap(),
            "-o",
            dir.to_str().unwrap(),
            schema.to_str().unwrap(),
        ];
        let out = flatforge(&args);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
    let formatted = out_fmt.join("monster_test_generated.rs");
    let check = Command::new("rustfmt")
        .args(["--edition", "2021", "--check"])
        .arg(&formatted)
        .output()
        .expect("run rustfmt");
    assert!(check.status.success(), "{}", text(&check.stdout));
    // `never` keeps the generator's own formatting, which rustfmt would change.
    let raw = std::fs::read_to_string(out_raw.join("monster_test_generated.rs")).unwrap();
    let fmt = std::fs::read_to_string(&formatted).unwrap();
    assert_ne!(raw, fmt);
    assert!(fmt.contains("pub fn root_as_monster("), "{fmt}");
    std::fs::remove_dir_all(&out_dir).unwrap();
}

#[test]
fn rustfmt_always_without_rustfmt_is_an_error() {
    let schema = flatforge_testkit::workspace_root().join("examples/monster.fbs");
    let out_dir = std::env::temp_dir().join(format!("flatforge-cli-nofmt-{}", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_flatforge"))
        .args(["rust", "-q", "--rustfmt", "always", "-o"])
        .arg(&out_dir)
        .arg(&schema)
        .env("RUSTFMT", "/nonexistent/rustfmt")
        .output()
        .expect("run flatforge");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("is not installed"),
        "{}",
        text(&out.stderr)
    );
    // `auto` falls back to the generator's formatting.
    let out = Command::new(env!("CARGO_BIN_EXE_flatforge"))
        .args(["rust", "-q", "--rustfmt", "auto", "-o"])
        .arg(&out_dir)
        .arg(&schema)
        .env("RUSTFMT", "/nonexistent/rustfmt")
        .output()
        .expect("run flatforge");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out_dir.join("monster_generated.rs").is_file());
    std::fs::remove_dir_all(&out_dir).unwrap();
}

/// Runs `flatforge` with more output than a pipe holds, reads a little of it and closes the pipe.
fn closed_early(args: &[&str]) -> Output {
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_flatforge"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run flatforge");
    let mut head = [0u8; 16];
    child
        .stdout
        .take()
        .expect("stdout")
        .read_exact(&mut head)
        .expect("the first bytes");
    child.wait_with_output().expect("wait")
}

#[test]
fn a_reader_closing_the_pipe_ends_the_output_quietly() {
    // An NBT compound with an int array of 100,000 elements: about 300 KB of SNBT, more than a
    // pipe buffers, so the writer is still writing when the pipe closes.
    let mut nbt = vec![10, 0, 0, 11, 0, 1, b'a'];
    nbt.extend_from_slice(&100_000i32.to_be_bytes());
    nbt.extend(std::iter::repeat_n(0, 400_000));
    nbt.push(0);
    let nbt_path = temp_file("big.nbt", "");
    std::fs::write(&nbt_path, &nbt).expect("write");
    // The same through `json`: a FlatBuffer with a vector of 100,000 ints.
    let schema = temp_file("big.fbs", "table T { v: [int]; } root_type T;");
    let values = vec!["12345"; 100_000].join(",");
    let json = temp_file("big.json", &format!("{{ v: [{values}] }}"));
    let bin = schema.with_file_name("big.bin");
    let made = flatforge(&[
        "binary",
        "-s",
        schema.to_str().unwrap(),
        json.to_str().unwrap(),
        "-o",
        bin.to_str().unwrap(),
    ]);
    assert_eq!(made.status.code(), Some(0), "{}", text(&made.stderr));
    // And through `stream cat`: 20,000 frames.
    let lines = temp_file("big.jsonl", &"{ v: [1, 2, 3] }\n".repeat(20_000));
    let stream = schema.with_file_name("big.ffs");
    let packed = flatforge(&[
        "stream",
        "pack",
        "-s",
        schema.to_str().unwrap(),
        lines.to_str().unwrap(),
        "-o",
        stream.to_str().unwrap(),
    ]);
    assert_eq!(packed.status.code(), Some(0), "{}", text(&packed.stderr));
    let schema = schema.to_str().unwrap();
    for args in [
        vec!["nbt", "show", nbt_path.to_str().unwrap()],
        vec!["json", "-s", schema, bin.to_str().unwrap()],
        vec!["stream", "cat", "-s", schema, stream.to_str().unwrap()],
    ] {
        let out = closed_early(&args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).is_empty(),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    // A pipe closed before the first line (`println!` would panic): `check`, whose reader is
    // gone before it has compiled its schema.
    let mut child = Command::new(env!("CARGO_BIN_EXE_flatforge"))
        .args(["check", "examples/monster.fbs", "examples/monster.fbs"])
        .current_dir(flatforge_testkit::workspace_root())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run flatforge");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).is_empty(), "{}", text(&out.stderr));
}

#[test]
fn rust_refuses_two_schemas_that_would_write_the_same_file() {
    let root = temp_file("same.txt", "").with_file_name("same");
    let (a, b) = (root.join("a/x.fbs"), root.join("b/x.fbs"));
    for (path, text) in [
        (&a, "namespace A; table X { a: int; }"),
        (&b, "namespace B; table X { b: int; }"),
    ] {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let out_dir = root.join("out");
    let rust = |first: &Path, second: &Path| {
        flatforge(&[
            "rust",
            "--rustfmt",
            "never",
            "-o",
            out_dir.to_str().unwrap(),
            first.to_str().unwrap(),
            second.to_str().unwrap(),
        ])
    };
    let out = rust(&a, &b);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("would both be written to"), "{err}");
    // The first one is written, and not replaced by the second.
    let code = std::fs::read_to_string(out_dir.join("x_generated.rs")).unwrap();
    assert!(code.contains("pub mod a {"), "{code}");
    // One schema named two ways is no clash.
    let out = rust(&a, &root.join("b/../a/x.fbs"));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn binary_output_is_not_written_to_a_terminal() {
    // `script` (util-linux) gives the command a terminal as stdout.
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: `script` is not installed");
        return;
    }
    let cmd = format!(
        "{} binary -s examples/monster.fbs examples/monster.json",
        env!("CARGO_BIN_EXE_flatforge")
    );
    let out = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .current_dir(flatforge_testkit::workspace_root())
        .output()
        .expect("run script");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("not writing a binary FlatBuffer to the terminal"));
    // Piped, it is written.
    let piped = flatforge(&[
        "binary",
        "-s",
        "examples/monster.fbs",
        "examples/monster.json",
    ]);
    assert_eq!(piped.status.code(), Some(0));
    assert!(!piped.stdout.is_empty());
}

/// `flatforge check -` reads the schema from stdin, named `<stdin>` in diagnostics, with includes
/// relative to the current directory (found with `-I` too); `-` twice is a usage error.
#[test]
fn check_reads_a_schema_from_stdin() {
    let check = |args: &[&str], schema: &[u8]| {
        use std::io::Write;
        let mut child = Command::new(env!("CARGO_BIN_EXE_flatforge"))
            .args(args)
            .current_dir(flatforge_testkit::workspace_root())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("run flatforge");
        let input = schema.to_vec();
        let mut pipe = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || pipe.write_all(&input));
        let out = child.wait_with_output().expect("wait");
        writer.join().unwrap().unwrap();
        out
    };
    let out = check(&["check", "-"], b"table T { a: int; }");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "ok: <stdin> (1 table, 0 structs, 0 enums, 0 unions)\n"
    );

    let out = check(&["check", "--color", "never", "-"], b"table T { a: Foo; }");
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("--> <stdin>:1:14"), "{stderr}");
    assert!(stderr.contains("error: <stdin>: 1 error"), "{stderr}");

    let include = temp_file("stdin_dep.fbs", "enum E : byte { A }");
    let uses = b"include \"stdin_dep.fbs\"; table T { e: E; }";
    assert_eq!(check(&["check", "-"], uses).status.code(), Some(1));
    let dir = include.parent().unwrap().to_str().unwrap();
    let out = check(&["check", "-I", dir, "-"], uses);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    let out = check(&["check", "-", "-"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("`-` (stdin) given more than once"));
}

/// An `-I` that is not a directory (a typo) is worth a warning; the run goes on.
#[test]
fn an_include_dir_that_does_not_exist_gets_a_warning() {
    let out = flatforge(&["check", "-I", "no/such/dir", "examples/monster.fbs"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stderr).contains("warning: -I `no/such/dir` is not a directory"));
    let out = flatforge(&["check", "-I", "examples", "examples/monster.fbs"]);
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}
