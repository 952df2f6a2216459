//! Fuzzes the printer: arbitrary bytes are verified against a schema (the first byte picks it and
//! the options); whatever verifies must print without error or panic, in every style, but for a
//! union type the schema does not list (verified unchecked, as a newer schema's member, but not
//! printable): that error only where strict verification rejects the buffer. Strict output must
//! be JSON.
#![no_main]

use flatforge_json::{Codec, FloatFormat, PrintError, PrintOptions};
use libfuzzer_sys::fuzz_target;

#[path = "json_schemas.rs"]
mod json_schemas;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    let schemas = json_schemas::schemas();
    let (schema, root) = &schemas[usize::from(selector) % schemas.len()];
    let codec = Codec::new(schema);
    let root = codec.root_type(*root).expect("root type");
    let mut opts = PrintOptions::default();
    opts.verify.size_prefixed = selector & 0x10 != 0;
    opts.verify.check_identifier = false;
    opts.verify.limits = opts
        .verify
        .limits
        .with_check_alignment(selector & 0x20 == 0);
    opts.strict_json = selector & 0x40 != 0;
    opts.defaults = selector & 0x80 != 0;
    if codec.verify(root, bytes, &opts.verify).is_err() {
        return;
    }
    for (natural, float_format) in [(false, FloatFormat::Shortest), (true, FloatFormat::Flatc)] {
        opts.natural_utf8 = natural;
        opts.float_format = float_format;
        match codec.printer(opts.clone()).print(root, bytes) {
            Ok(text) => {
                if opts.strict_json {
                    if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(text) {
                        panic!("strict output is not JSON ({e}): {text}");
                    }
                }
            }
            Err(PrintError::UnknownUnionType { .. }) => {
                let mut strict = opts.verify.clone();
                strict.limits = strict.limits.with_unknown_union_types(false);
                assert!(
                    codec.verify(root, bytes, &strict).is_err(),
                    "an unknown union type that strict verification accepts"
                );
            }
            Err(e) => panic!("a verified buffer does not print: {e}"),
        }
    }
});
