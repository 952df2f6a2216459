//! The SNBT parser in both grammars on arbitrary text: never panics, and whatever it accepts prints to
//! text that parses back to the same printout.
#![no_main]

use flatforge_nbt::snbt::{from_snbt, to_snbt, Dialect, SnbtOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for dialect in [Dialect::Classic, Dialect::Modern] {
        if let Ok(tag) = from_snbt(text, dialect) {
            let options = SnbtOptions::default().with_dialect(dialect);
            let printed = to_snbt(&tag, options);
            let again = from_snbt(&printed, dialect).expect("printed SNBT parses");
            assert_eq!(to_snbt(&again, options), printed);
        }
    }
});
