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

/// The flatbench buffer (WORKLOADS.md §1) as flatforge prints it: strict JSON, 2-space indent.
pub const JSON: &str = r#"{
  "list": [
    {
      "sibling": {
        "parent": {
          "id": 12370766946607418110,
          "count": 10000,
          "prefix": 64,
          "length": 1000000
        },
        "time": 123456,
        "ratio": 3.14159,
        "size": 10000
      },
      "name": "Hello, World!",
      "rating": 3.1415432432445543,
      "postfix": 33
    },
    {
      "sibling": {
        "parent": {
          "id": 12370766946607418111,
          "count": 10001,
          "prefix": 65,
          "length": 1000001
        },
        "time": 123457,
        "ratio": 4.14159,
        "size": 10001
      },
      "name": "Hello, World!",
      "rating": 4.141543243244554,
      "postfix": 34
    },
    {
      "sibling": {
        "parent": {
          "id": 12370766946607418112,
          "count": 10002,
          "prefix": 66,
          "length": 1000002
        },
        "time": 123458,
        "ratio": 5.14159,
        "size": 10002
      },
      "name": "Hello, World!",
      "rating": 5.141543243244554,
      "postfix": 35
    }
  ],
  "initialized": true,
  "fruit": "Bananas",
  "location": "http://google.com/flatbuffers/"
}
"#;
