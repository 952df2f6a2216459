//! Fuzzes the JSON parser: the first byte picks a schema and options, the rest is JSON text.
//! Whatever parses must verify against the schema and print, and the printed JSON must parse
//! back. Nothing may panic.
#![no_main]

use flatforge_json::{Codec, ParseOptions, PrintOptions};
use libfuzzer_sys::fuzz_target;

#[path = "json_schemas.rs"]
mod json_schemas;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, text)) = data.split_first() else {
        return;
    };
    let schemas = json_schemas::schemas();
    let (schema, root) = &schemas[usize::from(selector) % schemas.len()];
    let codec = Codec::new(schema);
    let root = codec.root_type(*root).expect("root type");
    let mut opts = ParseOptions::default();
    opts.strict_json = selector & 0x10 != 0;
    opts.unknown_fields = selector & 0x20 != 0;
    opts.force_defaults = selector & 0x40 != 0;
    opts.size_prefixed = selector & 0x80 != 0;
    opts.max_size = 1 << 20;
    let mut parser = codec.parser(opts.clone());
    let Ok(bytes) = parser.parse(root, text) else {
        return;
    };
    let bytes = bytes.to_vec();
    let mut popts = PrintOptions::default();
    popts.verify.size_prefixed = opts.size_prefixed;
    let mut printer = codec.printer(popts);
    let json = printer
        .print(root, &bytes)
        .unwrap_or_else(|e| panic!("a parsed buffer does not print: {e}"))
        .to_string();
    let mut again = codec.parser(ParseOptions::default());
    if let Err(e) = again.parse(root, json.as_bytes()) {
        panic!("printed JSON does not parse back: {e}\n{json}");
    }
});
