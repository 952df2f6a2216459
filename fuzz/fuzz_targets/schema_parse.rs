//! Fuzzes the schema compiler with arbitrary bytes as one schema file: lexing, parsing,
//! analysis, layout and diagnostic rendering must never panic, and an accepted schema must be
//! internally consistent (every type reference in range).
#![no_main]

use flatforge_schema::{Compiler, MemoryLoader, Schema, TypeRef};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut loader = MemoryLoader::new();
    loader.insert("fuzz.fbs", data);
    match Compiler::new(loader).compile("fuzz.fbs") {
        Ok(compiled) => {
            check(&compiled.schema);
            let _ = flatforge_schema::render(&compiled.warnings, &compiled.sources, false);
        }
        Err(err) => {
            assert!(err.error_count() > 0);
            let _ = err.render(true);
        }
    }
});

fn check(schema: &Schema) {
    let ok = |r: Option<TypeRef>| match r {
        Some(TypeRef::Object(id)) => (id.0 as usize) < schema.objects.len(),
        Some(TypeRef::Enum(id)) => (id.0 as usize) < schema.enums.len(),
        None => true,
    };
    for o in &schema.objects {
        for f in &o.fields {
            assert!(ok(f.ty.index));
            let _ = f.ty.inline_size(schema);
        }
    }
    for e in &schema.enums {
        assert!(ok(e.underlying_type.index));
        for v in &e.values {
            assert!(ok(v.union_type.and_then(|t| t.index)));
        }
    }
}
