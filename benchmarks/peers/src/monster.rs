//! monster_test.fbs (FlatBuffers' own test schema: unions, nested flatbuffers, flexbuffers,
//! vectors of every kind) under two verifiers, flatforge's generated one and Google's C++, for the
//! verifier differential test (`tests/flatforge_gen.rs`).
//!
//! ```
//! use flatforge_bench_peers::monster;
//! let buf = monster::buffer();
//! assert!(monster::verify(&buf).is_ok());
//! assert!(monster::cpp_verify(&buf));
//! assert!(!monster::cpp_verify(&buf[..buf.len() / 2]));
//! ```

use crate::cpp_ffi as ffi;

/// The generated code for monster_test.fbs and its includes.
#[allow(unreachable_pub, dead_code, clippy::all)]
mod generated {
    include!(concat!(
        env!("OUT_DIR"),
        "/flatforge/monster_test_generated.rs"
    ));
}

/// flatc's golden `Monster` buffer, `monsterdata_test.mon` of the shared test data.
pub fn buffer() -> Vec<u8> {
    let path = env!("MONSTER_MON");
    std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Verifies `buf` as a `Monster` with flatforge's generated verifier (default limits; the file
/// identifier is not checked, as in [`cpp_verify`]).
pub fn verify(buf: &[u8]) -> Result<(), flatforge::Error> {
    generated::my_game::example::Monster::root(buf).map(drop)
}

/// Verifies `buf` as a `Monster` with Google's C++ verifier (`VerifyBuffer<Monster>` with default
/// options and no file identifier), which also verifies the FlexBuffer in the `flex` field.
pub fn cpp_verify(buf: &[u8]) -> bool {
    // SAFETY: the verifier reads only `buf[..len]`.
    unsafe { ffi::ffb_monster_verify(buf.as_ptr(), buf.len()) }
}

/// Whether `buf` verifies as a `Monster` here but holds, in its `flex` field, bytes that Google's
/// C++ FlexBuffer verifier rejects: flatforge's verifier checks that field as bytes (`[ubyte]`).
///
/// ```
/// use flatforge_bench_peers::monster;
/// assert!(!monster::has_invalid_flexbuffer(&monster::buffer()));
/// ```
pub fn has_invalid_flexbuffer(buf: &[u8]) -> bool {
    let Ok(m) = generated::my_game::example::Monster::root(buf) else {
        return false;
    };
    m.flex().is_some_and(|flex| {
        let bytes = flex.bytes();
        // SAFETY: the verifier reads only `bytes[..len]`.
        !unsafe { ffi::ffb_flexbuffer_verify(bytes.as_ptr(), bytes.len()) }
    })
}
