//! Feeds arbitrary schema text to the front end and every schema it accepts to the Rust code
//! generator: no panic, and the generator accepts it and writes code that parses (an `Internal` or
//! `Unsupported` error is a bug).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(schema) = flatforge_schema::compile_str("fuzz.fbs", text) else {
        return;
    };
    let sources = flatforge_schema::SourceMap::default();
    if let Err(e) =
        flatforge_codegen::generate(&schema, &sources, &flatforge_codegen::Options::new())
    {
        panic!("{e}");
    }
});
