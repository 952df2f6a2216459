//! Feeds arbitrary schema text to the front end and every schema it accepts to the Rust code
//! generator: no panic, and the generator accepts it and writes code that parses (an `Internal` or
//! `Unsupported` error is a bug), unless a namespace has more components than the generator
//! supports, which must be `Unsupported`.
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
    let too_deep = schema
        .objects
        .iter()
        .map(|o| &o.namespace)
        .chain(schema.enums.iter().map(|e| &e.namespace))
        .chain(schema.services.iter().map(|s| &s.namespace))
        .any(|ns| {
            ns.split('.').filter(|c| !c.is_empty()).count() > flatforge_codegen::MAX_NAMESPACE_DEPTH
        });
    match flatforge_codegen::generate(&schema, &sources, &flatforge_codegen::Options::new()) {
        Ok(_) if !too_deep => {}
        Err(flatforge_codegen::GenerateError::Unsupported { .. }) if too_deep => {}
        Ok(_) => panic!("a namespace too deep for the generator was accepted"),
        Err(e) => panic!("{e}"),
    }
});
