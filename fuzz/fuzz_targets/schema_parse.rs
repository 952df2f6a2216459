//! Fuzzes the schema compiler with arbitrary bytes as one schema file: lexing, parsing,
//! analysis, layout and diagnostic rendering must never panic, and an accepted schema must be
//! internally consistent (every type reference in range). A compilation reuses memory its thread
//! kept from the one before (the syntax tree, the analyzer's slot list), so each input is compiled
//! again after another schema, and must give the same result.
#![no_main]

use flatforge_schema::{CompileError, Compiled, Compiler, MemoryLoader, Schema, TypeRef};
use libfuzzer_sys::fuzz_target;

/// A schema of every kind of definition, compiled between the two compilations of an input.
const OTHER: &str = "namespace A.B; attribute \"a\"; enum E:byte { X, Y = 3 } \
    struct S { a:int; b:[byte:3]; } table T { s:S; e:E = Y; v:[T]; n:string (required, a); } \
    union U { T, Alias: T } table R { u:U; us:[U]; f:float = nan; } root_type R; \
    rpc_service Q { Get(T): R; }";

fn compile(data: &[u8]) -> Result<Compiled, CompileError> {
    let mut loader = MemoryLoader::new();
    loader.insert("fuzz.fbs", data);
    Compiler::new(loader).compile("fuzz.fbs")
}

fuzz_target!(|data: &[u8]| {
    let result = compile(data);
    match &result {
        Ok(compiled) => {
            check(&compiled.schema);
            let _ = flatforge_schema::render(&compiled.warnings, &compiled.sources, false);
        }
        Err(err) => {
            assert!(err.error_count() > 0);
            let _ = err.render(true);
        }
    }
    let _ = compile(OTHER.as_bytes());
    let again = compile(data);
    assert_eq!(
        format!("{again:?}"),
        format!("{result:?}"),
        "compiling another schema first changed the result"
    );
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
