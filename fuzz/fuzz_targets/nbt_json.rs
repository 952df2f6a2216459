//! The JSON -> NBT parser (`json::from_json`) on arbitrary text: never panics; what it accepts prints as
//! JSON that parses back to a tree that prints the same (a fixed point after one round, since JSON cannot
//! say Byte, Short, Float or the array types), in both layouts; and the tree writes as binary NBT in every
//! variant that reads back to the same tree.
#![no_main]

use flatforge_nbt::json::{from_json, to_json};
use flatforge_nbt::{Nbt, Variant};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(tag) = from_json(text) else {
        return;
    };
    for pretty in [false, true] {
        let printed = to_json(&tag, pretty).expect("a tree parsed from JSON prints");
        let again = from_json(&printed).expect("printed JSON parses");
        assert_eq!(to_json(&again, pretty).expect("prints again"), printed);
    }
    let nbt = Nbt {
        name: String::new(),
        tag,
    };
    for variant in Variant::ALL {
        if let Ok(bytes) = nbt.to_vec(variant) {
            let back = Nbt::read(&bytes, variant).expect("written NBT reads back");
            assert_eq!(back.tag, nbt.tag, "{variant}");
        }
    }
});
