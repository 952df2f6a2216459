//! The flatbench JSON workload (WORKLOADS.md §1): the schema `bench.fbs` compiled for
//! flatforge-json. The benches are in `benches/flatbench.rs`:
//! `cargo bench -p flatforge-bench-json`.
#![deny(missing_docs)]

use flatforge_schema::Schema;

/// `benchmarks/cpp/flatbuffers/bench.fbs` from the shared test data, compiled.
///
/// ```
/// let schema = flatforge_bench_json::schema();
/// assert!(schema.find_object("benchmarks_flatbuffers.FooBarContainer").is_some());
/// ```
pub fn schema() -> Schema {
    let path = flatforge_testkit::testdata("flatbuffers/benchmarks/cpp/flatbuffers/bench.fbs");
    flatforge_schema::Compiler::new(flatforge_schema::FsLoader)
        .compile(&path)
        .unwrap_or_else(|e| panic!("{}: {}", path.display(), e.render(false)))
        .schema
}
