//! Fuzzes the schema-driven verifier on arbitrary bytes against every root of FlatBuffers' test
//! schemas (plain and size-prefixed, with and without alignment checks). Nothing may panic, and an
//! error's byte offset lies in the buffer.
#![no_main]

use flatforge_json::{Codec, VerifyOptions};
use libfuzzer_sys::fuzz_target;

#[path = "json_schemas.rs"]
mod json_schemas;

fuzz_target!(|data: &[u8]| {
    for (schema, _) in json_schemas::schemas() {
        let codec = Codec::new(schema);
        for object in schema.objects.iter().filter(|o| !o.is_struct) {
            let root = codec.root_type(Some(&object.full_name)).expect("table");
            for flags in 0..4u8 {
                let mut opts = VerifyOptions::default();
                opts.size_prefixed = flags & 1 != 0;
                opts.check_identifier = false;
                opts.limits = opts.limits.with_check_alignment(flags & 2 == 0);
                if let Err(e) = codec.verify(root, data, &opts) {
                    assert!(e.offset() <= data.len(), "{e}");
                }
            }
        }
    }
});
