//! Feeds arbitrary bytes to the verifier as a `Monster` (monster_test.fbs), plain and size-prefixed,
//! and reads every field of whatever verifies; also drives the checked raw `Table` API, with 32- and
//! 64-bit offsets and 64-bit size prefixes.
#![no_main]

use flatforge::{Far, Table, Vector, Vector64, VerifierOptions};
use libfuzzer_sys::fuzz_target;

#[path = "../../crates/flatforge/tests/common/monster.rs"]
mod monster;

fuzz_target!(|data: &[u8]| {
    for size_prefixed in [false, true] {
        let opts = VerifierOptions::default().with_size_prefixed(size_prefixed);
        if let Ok(m) = flatforge::root_with_options::<monster::Monster>(data, &opts) {
            std::hint::black_box(monster::read_all(m));
        }
    }
    let lenient = VerifierOptions::default().with_check_alignment(false);
    if let Ok(m) = flatforge::root_with_options::<monster::Monster>(data, &lenient) {
        std::hint::black_box(monster::read_all(m));
    }
    let prefixed64 = VerifierOptions::default().with_size_prefixed64(true);
    for opts in [VerifierOptions::default(), prefixed64] {
        let Ok(t) = flatforge::root_with_options::<Table>(data, &opts) else {
            continue;
        };
        for slot in 0..64 {
            std::hint::black_box(t.get::<&str>(slot).ok());
            std::hint::black_box(t.get::<u64>(slot).ok());
            if let Ok(Some(v)) = t.get::<Vector<Table>>(slot) {
                for inner in v.iter() {
                    std::hint::black_box(inner.get::<Vector<u8>>(0).ok());
                }
            }
            std::hint::black_box(t.get::<Far<&str>>(slot).ok());
            if let Ok(Some(v)) = t.get::<Far<Vector<u16>>>(slot) {
                std::hint::black_box(v.0.iter().fold(0, u16::wrapping_add));
            }
            if let Ok(Some(v)) = t.get::<Vector64<u64>>(slot) {
                std::hint::black_box(v.0.iter().fold(0, u64::wrapping_add));
            }
        }
    }
});
