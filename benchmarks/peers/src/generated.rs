//! The peers' code, generated at build time by `flatc --rust` and `planus rust` into `OUT_DIR`.
//!
//! Generated code follows its generator's style, not this workspace's lints, so the lints it trips
//! are allowed here, one by one, on these modules only: `unreachable_pub` (its items are `pub` in a
//! private module), `unsafe_op_in_unsafe_fn` and `clippy::undocumented_unsafe_blocks` (flatc and
//! planus write unsafe code without `// SAFETY:` comments), `dead_code` (planus's unused builder
//! API), `clippy::derivable_impls` and `clippy::extra_unused_lifetimes` (flatc's style) and
//! `clippy::possible_missing_else` (planus's code is left unformatted, so that building needs
//! no rustfmt).

/// `flatc --rust` for `bench.fbs`.
#[allow(
    unreachable_pub,
    unsafe_op_in_unsafe_fn,
    clippy::undocumented_unsafe_blocks,
    clippy::derivable_impls,
    clippy::extra_unused_lifetimes
)]
pub(crate) mod official_bench {
    include!(concat!(env!("OUT_DIR"), "/official/bench_generated.rs"));
}

/// `flatc --rust` for `schemas/objectbox.fbs`.
#[allow(
    unreachable_pub,
    unsafe_op_in_unsafe_fn,
    clippy::undocumented_unsafe_blocks,
    clippy::derivable_impls,
    clippy::extra_unused_lifetimes
)]
pub(crate) mod official_objectbox {
    include!(concat!(env!("OUT_DIR"), "/official/objectbox_generated.rs"));
}

/// `flatc --rust` for `schemas/telemetry.fbs`.
#[allow(
    unreachable_pub,
    unsafe_op_in_unsafe_fn,
    clippy::undocumented_unsafe_blocks,
    clippy::derivable_impls,
    clippy::extra_unused_lifetimes
)]
pub(crate) mod official_telemetry {
    include!(concat!(env!("OUT_DIR"), "/official/telemetry_generated.rs"));
}

/// `planus rust` for `bench.fbs`.
#[allow(
    unreachable_pub,
    dead_code,
    clippy::undocumented_unsafe_blocks,
    clippy::possible_missing_else
)]
pub(crate) mod planus_bench {
    include!(concat!(env!("OUT_DIR"), "/planus/bench.rs"));
}

/// `planus rust` for `schemas/objectbox.fbs`.
#[allow(
    unreachable_pub,
    dead_code,
    clippy::undocumented_unsafe_blocks,
    clippy::possible_missing_else
)]
pub(crate) mod planus_objectbox {
    include!(concat!(env!("OUT_DIR"), "/planus/objectbox.rs"));
}

/// `flatc --rust --gen-object-api` for `schemas/person.fbs`.
#[allow(
    unreachable_pub,
    unsafe_op_in_unsafe_fn,
    clippy::undocumented_unsafe_blocks,
    clippy::derivable_impls,
    clippy::extra_unused_lifetimes
)]
pub(crate) mod official_person {
    include!(concat!(env!("OUT_DIR"), "/official/person_generated.rs"));
}

/// `planus rust` for `schemas/person.fbs`.
#[allow(
    unreachable_pub,
    dead_code,
    clippy::undocumented_unsafe_blocks,
    clippy::possible_missing_else
)]
pub(crate) mod planus_person {
    include!(concat!(env!("OUT_DIR"), "/planus/person.rs"));
}
