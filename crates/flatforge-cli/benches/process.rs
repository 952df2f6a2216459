//! Whole processes: `flatforge check` against `flatc -b --schema` (flatc's binary schema, `.bfbs`)
//! on the same files, as a user runs them from a shell or a build script. Each iteration starts
//! the process, waits for it and checks its exit status, so start-up, loading the files from disk,
//! compiling and exiting are all timed.
//!
//! * `schema/process_monster_test`: flatc's `monster_test.fbs` with its two includes (read from
//!   `../shared/testdata`, `-I include_test` as flatc's own tests compile it).
//! * `schema/process_small_monster`: the MoonBit schema
//!   `table Monster { name:string; hp:short = 100; mana:short = 50; }`, from a file.
//!
//! flatc must produce something: `-b --schema` writes the `.bfbs` (into a temporary directory)
//! and is the cheapest output it has; `flatforge check` compiles the schema to the same resolved,
//! laid-out model and writes nothing (with `-q`; the unused-include warning of monster_test.fbs
//! goes to a discarded stderr).
//!
//! Run with `cargo bench -p flatforge-cli --bench process` (`scripts/bench` runs it with the
//! others); it needs the reference flatc (`scripts/setup` installs it).

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use criterion::{criterion_group, criterion_main, Criterion};

/// The MoonBit workload schema (WORKLOADS.md §2, schema_parse).
const MONSTER_SMALL: &str = "table Monster { name:string; hp:short = 100; mana:short = 50; }\n";

/// Runs `cmd` to completion with its output discarded, and panics unless it succeeded.
fn run(cmd: &mut Command) {
    let status = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    assert!(status.success(), "{cmd:?} failed: {status}");
}

/// A `flatforge check -q` of `schema` with the include directories `includes`.
fn flatforge(schema: &Path, includes: &[PathBuf]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_flatforge"));
    cmd.args(["check", "-q"]);
    for dir in includes {
        cmd.arg("-I").arg(dir);
    }
    cmd.arg(schema);
    cmd
}

/// A `flatc -b --schema -o out` of `schema` with the include directories `includes`.
fn flatc(schema: &Path, includes: &[PathBuf], out: &Path) -> Command {
    let mut cmd = flatforge_testkit::flatc();
    cmd.args(["-b", "--schema", "-o"]).arg(out);
    for dir in includes {
        cmd.arg("-I").arg(dir);
    }
    cmd.arg(schema);
    cmd
}

/// Times both compilers on `schema` as the group `schema/process_<name>`; each is run once
/// first, so a failure stops the benchmark before anything is timed.
fn compare(c: &mut Criterion, name: &str, schema: &Path, includes: &[PathBuf], out: &Path) {
    let mut ours = flatforge(schema, includes);
    let mut theirs = flatc(schema, includes, out);
    run(&mut ours);
    run(&mut theirs);
    assert!(
        out.join(format!(
            "{}.bfbs",
            schema.file_stem().expect("a file name").to_string_lossy()
        ))
        .is_file(),
        "flatc wrote no .bfbs for {}",
        schema.display()
    );
    let mut group = c.benchmark_group(format!("schema/process_{name}"));
    group.bench_function("flatforge", |b| b.iter(|| run(black_box(&mut ours))));
    group.bench_function("flatc", |b| b.iter(|| run(black_box(&mut theirs))));
    group.finish();
}

fn processes(c: &mut Criterion) {
    let tmp = std::env::temp_dir().join(format!("flatforge-bench-process-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("create a temporary directory");

    let tests = flatforge_testkit::testdata("flatbuffers/tests");
    compare(
        c,
        "monster_test",
        &tests.join("monster_test.fbs"),
        &[tests.join("include_test")],
        &tmp,
    );

    let small = tmp.join("monster.fbs");
    std::fs::write(&small, MONSTER_SMALL).expect("write the small schema");
    compare(c, "small_monster", &small, &[], &tmp);

    // Best effort: a leftover temporary directory is harmless.
    let _ = std::fs::remove_dir_all(&tmp);
}

criterion_group!(benches, processes);
criterion_main!(benches);
