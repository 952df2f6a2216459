//! Criterion benchmarks of the schema front end (`flatforge-schema`) and of Rust code generation
//! from a compiled schema (`flatforge-codegen`); see `benches/schema.rs`.
//!
//! This library only provides the benchmark inputs, so the numbers can be reproduced with
//! `cargo bench -p flatforge-bench-schema`, and instruction counts with the `compile_loop`
//! example under callgrind (see `examples/compile_loop.rs`).
#![deny(missing_docs)]

use flatforge_schema::{Compiled, Compiler, MemoryLoader};

/// The MoonBit workload schema (WORKLOADS.md, schema_parse): a table with three fields.
///
/// ```
/// assert!(flatforge_bench_schema::MONSTER_SMALL.contains("table Monster"));
/// ```
pub const MONSTER_SMALL: &str = "table Monster { name:string; hp:short = 100; mana:short = 50; }";

/// The path [`small_monster_compiled`] compiles [`MONSTER_SMALL`] as.
pub const MONSTER_SMALL_PATH: &str = "monster.fbs";

/// [`MONSTER_SMALL`] compiled, with its source kept (the code generator quotes `file:line` of
/// each definition), as `flatforge rust` has it before generating code.
///
/// # Panics
/// Never: the schema is valid.
///
/// ```
/// let compiled = flatforge_bench_schema::small_monster_compiled();
/// assert_eq!(compiled.schema.objects[0].fields.len(), 3);
/// assert_eq!(compiled.sources.files.len(), 1);
/// ```
pub fn small_monster_compiled() -> Compiled {
    let mut loader = MemoryLoader::new();
    loader.insert(MONSTER_SMALL_PATH, MONSTER_SMALL);
    Compiler::new(loader)
        .compile(MONSTER_SMALL_PATH)
        .expect("the small monster schema compiles")
}

/// The path to compile with [`monster_test_compiler`].
pub const MONSTER_TEST_PATH: &str = "tests/monster_test.fbs";

/// A compiler over an in-memory copy of flatc's `monster_test.fbs` and its two includes (read
/// from `../shared/testdata`), with `tests/include_test` as include directory, as flatc's own
/// tests compile it.
///
/// # Panics
/// When the shared test data is missing.
///
/// ```
/// let compiler = flatforge_bench_schema::monster_test_compiler();
/// let compiled = compiler.compile(flatforge_bench_schema::MONSTER_TEST_PATH).unwrap();
/// assert_eq!(compiled.schema.files.len(), 3);
/// ```
pub fn monster_test_compiler() -> Compiler<MemoryLoader> {
    let read = |p: &str| std::fs::read(flatforge_testkit::testdata(p)).expect("read test data");
    let mut loader = MemoryLoader::new();
    loader.insert(
        MONSTER_TEST_PATH,
        read("flatbuffers/tests/monster_test.fbs"),
    );
    loader.insert(
        "tests/include_test/include_test1.fbs",
        read("flatbuffers/tests/include_test/include_test1.fbs"),
    );
    loader.insert(
        "tests/include_test/sub/include_test2.fbs",
        read("flatbuffers/tests/include_test/sub/include_test2.fbs"),
    );
    Compiler::new(loader).include_dir("tests/include_test")
}
