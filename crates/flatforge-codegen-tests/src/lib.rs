//! Generated code for every schema of `../shared/testdata` that the front end accepts
//! (`flatbuffers/tests/**`, the benchmark and reflection schemas, and Arrow's), one module per
//! schema, compiled with the workspace's lints (`cargo clippy -p flatforge-codegen-tests
//! --all-targets -- -D warnings` must pass). The tests in `tests/` read and build buffers with it
//! and compare with the reference flatc.
//!
//! [`UNSUPPORTED`] lists the schemas the generator declines (none) and [`REJECTED`] those the front
//! end rejects; the `all_schemas` test pins both lists.
//!
//! Modules `random_SEED` hold the code for random schemas (`flatforge_testkit::random_schema`)
//! that the front end accepts, listed in [`RANDOM_ACCEPTED`]: 40 seeds from 0, or as many as
//! `FLATFORGE_RANDOM_SCHEMAS` says from `FLATFORGE_RANDOM_SEED` (to search for generator bugs
//! with `cargo clippy -p flatforge-codegen-tests --all-targets -- -D warnings`).
//!
//! Private modules hold more generated code: the snapshot schemas again (clippy checks some lints
//! only outside a crate's exported API), and monster_test and arrays_test with their serde derives
//! behind a feature this crate does not have, which must compile without `unexpected_cfgs`
//! warnings (denied here, for `cargo test` too), as in a crate without a `serde` feature.
#![deny(missing_docs, unexpected_cfgs)]

include!(concat!(env!("OUT_DIR"), "/all_schemas.rs"));
