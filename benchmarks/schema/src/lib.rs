//! Criterion benchmarks of the schema front end (`flatforge-schema`); see `benches/schema.rs`.
//!
//! This library only exposes the benchmark inputs, so the numbers can be reproduced with
//! `cargo bench -p flatforge-bench-schema`.
#![deny(missing_docs)]

/// The MoonBit workload schema (WORKLOADS.md, schema_parse): a table with three fields.
///
/// ```
/// assert!(flatforge_bench_schema::MONSTER_SMALL.contains("table Monster"));
/// ```
pub const MONSTER_SMALL: &str = "table Monster { name:string; hp:short = 100; mana:short = 50; }";
