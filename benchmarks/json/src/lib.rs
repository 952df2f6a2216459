//! The JSON workloads: flatbench (WORKLOADS.md §1, the schema `bench.fbs` and its buffer as JSON)
//! and the FlatBuffers.mbt `simple_table` (§2), compiled for flatforge-json. The benches are in
//! `benches/flatbench.rs` and `benches/mbt.rs`: `cargo bench -p flatforge-bench-json`.
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

/// The FlatBuffers.mbt `simple_table` (WORKLOADS.md §2): slot 0 a string, 1 an `int`, 2 a `short`.
pub const SIMPLE_TABLE_SCHEMA: &str = "table T { name: string; a: int; b: short; } root_type T;";

/// [`SIMPLE_TABLE_SCHEMA`], compiled.
///
/// ```
/// let schema = flatforge_bench_json::simple_table_schema();
/// let t = &schema[schema.find_object("T").unwrap()];
/// let ids: Vec<_> = t.fields.iter().map(|f| (f.name.as_str(), f.id)).collect();
/// assert_eq!(ids, [("name", 0), ("a", 1), ("b", 2)]);
/// ```
pub fn simple_table_schema() -> Schema {
    flatforge_schema::compile_str("simple_table.fbs", SIMPLE_TABLE_SCHEMA)
        .unwrap_or_else(|e| panic!("simple_table.fbs: {}", e.render(false)))
}

/// The `simple_table` buffer (name "TestName", a 100, b 50) as flatforge prints it: strict JSON,
/// 2-space indent.
pub const SIMPLE_TABLE_JSON: &str = r#"{
  "name": "TestName",
  "a": 100,
  "b": 50
}
"#;
