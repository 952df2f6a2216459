//! The schema hash flatforge's tools write into stream headers (feature `schema`): XXH3-64 of a
//! canonical description of the root table and of every type reachable from it.
//!
//! The description lists, for each table and struct (in the order they are first reached from the
//! root): its full name, kind and layout, and each field by id with its name, type (base type,
//! element type, referenced type's full name, array length), default and presence; for each enum
//! and union: its full name, underlying type and values (union members with their types). Comments,
//! attributes that do not change the binary, declaration order and unrelated types do not change
//! the hash; renaming, retyping, renumbering or adding a field does.

use std::fmt::Write;

use flatforge_schema::{ObjectId, Schema, Type, TypeRef};

/// The hash of `schema` as seen from the table `root`.
///
/// ```
/// use flatforge_stream::schema_hash;
/// let hash = |text| {
///     let schema = flatforge_schema::compile_str("a.fbs", text).unwrap();
///     schema_hash(&schema, schema.root_table.unwrap())
/// };
/// let base = hash("table T { a: int; b: string; } root_type T;");
/// // Comments and unrelated types do not matter ...
/// assert_eq!(base, hash("// v2\ntable U { x: int; } table T { a: int; b: string; } root_type T;"));
/// // ... field names, types and defaults do.
/// assert_ne!(base, hash("table T { a: int; c: string; } root_type T;"));
/// assert_ne!(base, hash("table T { a: long; b: string; } root_type T;"));
/// assert_ne!(base, hash("table T { a: int = 1; b: string; } root_type T;"));
/// ```
pub fn schema_hash(schema: &Schema, root: ObjectId) -> u64 {
    let mut text = String::new();
    let mut queue = vec![TypeRef::Object(root)];
    let mut seen = vec![TypeRef::Object(root)];
    let mut i = 0;
    while i < queue.len() {
        let mut refs = Vec::new();
        describe(schema, queue[i], &mut text, &mut refs);
        for r in refs {
            if !seen.contains(&r) {
                seen.push(r);
                queue.push(r);
            }
        }
        i += 1;
    }
    xxhash_rust::xxh3::xxh3_64(text.as_bytes())
}

fn describe(schema: &Schema, what: TypeRef, out: &mut String, refs: &mut Vec<TypeRef>) {
    match what {
        TypeRef::Object(id) => {
            let o = &schema[id];
            let kind = if o.is_struct { "struct" } else { "table" };
            let _ = writeln!(out, "{kind} {} {} {}", o.full_name, o.bytesize, o.minalign);
            let mut fields: Vec<_> = o.fields.iter().collect();
            fields.sort_by_key(|f| f.id);
            for f in fields {
                let _ = write!(out, "  {} {} {} ", f.id, f.offset, f.name);
                ty(schema, &f.ty, out, refs);
                let _ = writeln!(out, " = {:?} {:?}", f.default, f.presence);
            }
        }
        TypeRef::Enum(id) => {
            let e = &schema[id];
            let kind = if e.is_union { "union" } else { "enum" };
            let _ = write!(out, "{kind} {} ", e.full_name);
            ty(schema, &e.underlying_type, out, refs);
            out.push('\n');
            for v in &e.values {
                let _ = write!(out, "  {} = {}", v.name, v.value);
                if let Some(t) = &v.union_type {
                    out.push(' ');
                    ty(schema, t, out, refs);
                }
                out.push('\n');
            }
        }
    }
}

fn ty(schema: &Schema, t: &Type, out: &mut String, refs: &mut Vec<TypeRef>) {
    let _ = write!(out, "{:?}/{:?}/{}", t.base_type, t.element, t.fixed_length);
    if let Some(r) = t.index {
        let name = match r {
            TypeRef::Object(id) => &schema[id].full_name,
            TypeRef::Enum(id) => &schema[id].full_name,
        };
        let _ = write!(out, "/{name}");
        refs.push(r);
    }
}
