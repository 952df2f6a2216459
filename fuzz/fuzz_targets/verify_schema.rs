//! Fuzzes the schema-driven verifier on arbitrary bytes against every root of FlatBuffers' test
//! schemas (plain and with a 32- or 64-bit size prefix, with and without alignment checks). Nothing
//! may panic, and an error's byte offset lies in the buffer.
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
            for flags in 0..6u8 {
                let mut opts = VerifyOptions::default();
                // No size prefix, a 32-bit one or a 64-bit one.
                opts.size_prefixed = flags % 3 != 0;
                opts.size_prefix64 = flags % 3 == 2;
                opts.check_identifier = false;
                opts.limits = opts.limits.with_check_alignment(flags < 3);
                if let Err(e) = codec.verify(root, data, &opts) {
                    assert!(e.offset() <= data.len(), "{e}");
                }
            }
        }
    }
});
