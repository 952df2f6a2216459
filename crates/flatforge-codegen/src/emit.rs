//! The emitter: walks the schema and writes Rust source text, unformatted, in chunks for `format`:
//! the items of one definition (or of the file's version check, or of a namespace's root
//! functions) at a time, between the openings and closings of the modules.
//!
//! Items are grouped into one module per namespace component; a type refers to another by a path
//! relative to its own module (`super::super::other::Type`), so the file can be included anywhere.
//! Every `unsafe` block is preceded by a safety marker that `format` turns into a `// SAFETY:`
//! comment, and either starts a `let` statement or is a function's tail expression, so that
//! `clippy::undocumented_unsafe_blocks` sees the comment.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::path::{Component, Path, PathBuf};

use flatforge_schema::{
    BaseType, Code, DefaultValue, Diagnostic, Enum, EnumId, Field, ObjectId, Presence, RpcCall,
    Schema, SourceMap, Span, Type,
};

use crate::docs::schema_docs;
use crate::format::{Chunk, SAFETY_MARKER};
use crate::names::{bare, camel, escape, screaming, snake, Scope};
use crate::{GenerateError, Options, MAX_NAMESPACE_DEPTH, VERSION};

/// Appends formatted text.
macro_rules! w {
    ($out:expr, $($arg:tt)*) => {{
        let _ = write!($out, $($arg)*);
    }};
}

/// Method names the generated code defines on views, builders and owned types, or that clippy
/// expects to implement a trait: schema fields with these names get a trailing underscore.
const RESERVED_METHODS: &[&str] = &[
    "create",
    "builder",
    "root",
    "root_with_options",
    "size_prefixed_root",
    "root_unchecked",
    "size_prefixed_root_unchecked",
    "unpack",
    "unpack_into",
    "pack",
    "lookup_by_key",
    "sort_by_key",
    "new",
    "finish",
    "default",
    "clone",
    "deref",
    "borrow",
    "as_ref",
    "as_mut",
    "table",
    "as_table",
    "fmt",
    "eq",
    "hash",
    "cmp",
    "partial_cmp",
    "to_owned",
    "to_string",
];

/// The module of the serde helpers for arrays longer than 32 elements.
const BIG_ARRAY: &str = "__flatforge_serde_big_array";

/// Prelude names that generated code uses unqualified, in expressions and patterns: a type of the
/// schema named so gets a `_` (`Some_`), as one named after a keyword does.
const PRELUDE_VALUES: &[&str] = &["Some", "None", "Ok", "Err"];

/// Struct methods that would collide with generated ones.
const RESERVED_STRUCT_METHODS: &[&str] =
    &["new", "default", "clone", "unpack", "fmt", "eq", "hash"];

/// What a table field holds, as the generated code sees it.
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// A scalar (`bool`, integers, floats), possibly an enum or a union's type field.
    Scalar {
        prim: &'static str,
        enum_id: Option<EnumId>,
    },
    Struct(ObjectId),
    String,
    Table(ObjectId),
    Union(EnumId),
    Vector(Elem),
    UnionVector(EnumId),
    /// A string behind a 64-bit offset (`offset64`).
    FarString,
    /// A vector with a 32-bit length behind a 64-bit offset (`offset64`); of scalars or structs.
    FarVector(Elem),
    /// A vector with a 64-bit length behind a 64-bit offset (`vector64`); of scalars or structs.
    Vector64(Elem),
}

/// The element of a vector.
#[derive(Clone, Copy, Debug)]
enum Elem {
    Scalar {
        prim: &'static str,
        enum_id: Option<EnumId>,
    },
    Struct(ObjectId),
    String,
    Table(ObjectId),
}

fn prim(bt: BaseType) -> &'static str {
    match bt {
        BaseType::Bool => "bool",
        BaseType::Byte => "i8",
        BaseType::UByte | BaseType::UType | BaseType::None => "u8",
        BaseType::Short => "i16",
        BaseType::UShort => "u16",
        BaseType::Int => "i32",
        BaseType::UInt => "u32",
        BaseType::Long => "i64",
        BaseType::ULong => "u64",
        BaseType::Float => "f32",
        BaseType::Double => "f64",
        _ => "u8",
    }
}

fn prim_size(p: &str) -> usize {
    match p {
        "bool" | "i8" | "u8" => 1,
        "i16" | "u16" => 2,
        "i32" | "u32" | "f32" => 4,
        _ => 8,
    }
}

/// A float literal that clippy accepts (`excessive_precision`, `approx_constant`).
fn float_lit(v: f64, is_f32: bool) -> String {
    let ty = if is_f32 { "f32" } else { "f64" };
    if v.is_nan() {
        return format!("{ty}::NAN");
    }
    if v.is_infinite() {
        return if v > 0.0 {
            format!("{ty}::INFINITY")
        } else {
            format!("{ty}::NEG_INFINITY")
        };
    }
    let s = if is_f32 {
        format!("{:?}", v as f32)
    } else {
        format!("{v:?}")
    };
    if approx_constant(s.trim_start_matches('-')) {
        if is_f32 {
            format!("f32::from_bits({:#x})", (v as f32).to_bits())
        } else {
            format!("f64::from_bits({:#x})", v.to_bits())
        }
    } else {
        s
    }
}

/// Whether clippy's `approx_constant` would flag the literal `s` (its own rule).
fn approx_constant(s: &str) -> bool {
    use std::f64::consts as c;
    let known: [(f64, usize); 19] = [
        (c::E, 4),
        (c::FRAC_1_PI, 4),
        (c::FRAC_1_SQRT_2, 5),
        (c::FRAC_2_PI, 5),
        (c::FRAC_2_SQRT_PI, 5),
        (c::FRAC_PI_2, 5),
        (c::FRAC_PI_3, 5),
        (c::FRAC_PI_4, 5),
        (c::FRAC_PI_6, 5),
        (c::FRAC_PI_8, 5),
        (c::LN_10, 5),
        (c::LN_2, 5),
        (c::LOG10_E, 5),
        (c::LOG2_E, 5),
        (c::LOG2_10, 5),
        (c::LOG10_2, 5),
        (c::PI, 3),
        (c::SQRT_2, 5),
        (c::TAU, 3),
    ];
    known.iter().any(|&(constant, min_digits)| {
        if s.len() <= min_digits {
            false
        } else if constant.to_string().starts_with(s) {
            true
        } else {
            format!("{constant:.*}", s.len() - 2) == s
        }
    })
}

/// An integer literal for a default value.
fn int_lit(prim: &str, d: &DefaultValue) -> String {
    match d {
        DefaultValue::Bool(b) => {
            if prim == "bool" {
                b.to_string()
            } else {
                u8::from(*b).to_string()
            }
        }
        DefaultValue::Int(i) => {
            if prim == "bool" {
                (*i != 0).to_string()
            } else if *i == i64::MIN {
                "i64::MIN".to_string()
            } else {
                i.to_string()
            }
        }
        DefaultValue::UInt(u) => {
            if prim == "bool" {
                (*u != 0).to_string()
            } else {
                u.to_string()
            }
        }
        DefaultValue::Float(f) => {
            if prim == "f32" || prim == "f64" {
                float_lit(*f, prim == "f32")
            } else {
                (*f as i64).to_string()
            }
        }
        _ => zero(prim).to_string(),
    }
}

fn zero(prim: &str) -> &'static str {
    match prim {
        "bool" => "false",
        "f32" | "f64" => "0.0",
        _ => "0",
    }
}

/// A scalar default literal for `prim` (floats handled), and whether it is the type's zero.
fn scalar_default(prim: &str, d: &DefaultValue) -> (String, bool) {
    let lit = match d {
        DefaultValue::Float(f) if prim == "f32" || prim == "f64" => float_lit(*f, prim == "f32"),
        DefaultValue::Float(_) | DefaultValue::Int(_) | DefaultValue::UInt(_) => int_lit(prim, d),
        DefaultValue::Bool(_) => int_lit(prim, d),
        _ => zero(prim).to_string(),
    };
    let is_zero = match d {
        DefaultValue::Bool(b) => !b,
        DefaultValue::Int(i) => *i == 0,
        DefaultValue::UInt(u) => *u == 0,
        DefaultValue::Float(f) => *f == 0.0 && f.is_sign_positive(),
        _ => true,
    };
    (lit, is_zero)
}

/// A string literal with Rust escapes.
fn str_lit(s: &str) -> String {
    format!("{s:?}")
}

/// Emits a doc attribute per line.
fn doc(out: &mut String, lines: &[String]) {
    for line in lines {
        w!(out, "#[doc = {}]", str_lit(line));
    }
}

fn doc1(out: &mut String, line: &str) {
    doc(out, &[line.to_string()]);
}

fn safety(out: &mut String, why: &str) {
    w!(out, "{SAFETY_MARKER}!({});", str_lit(why));
}

/// A chunk of the items `write` writes; `what` names them in errors.
fn items(what: String, write: impl FnOnce(&mut String)) -> Chunk {
    let mut text = String::new();
    write(&mut text);
    Chunk::Items { what, text }
}

/// Indices of the objects, enums and services of one namespace.
type NsItems = (Vec<usize>, Vec<usize>, Vec<usize>);

/// A type generated beside each table, struct or union, named after it.
#[derive(Clone, Copy, Debug)]
enum Suffix {
    /// The owned form (object API) of a table, struct or union: `MonsterT`.
    T,
    /// A table's `MonsterArgs`.
    Args,
    /// A table's `MonsterBuilder`.
    Builder,
    /// A union's discriminant, `AnyType`.
    Type,
    /// A union value written to a builder, `AnyOffset`.
    Offset,
}

impl Suffix {
    const ALL: [Suffix; 5] = [
        Suffix::T,
        Suffix::Args,
        Suffix::Builder,
        Suffix::Type,
        Suffix::Offset,
    ];

    fn as_str(self) -> &'static str {
        match self {
            Suffix::T => "T",
            Suffix::Args => "Args",
            Suffix::Builder => "Builder",
            Suffix::Type => "Type",
            Suffix::Offset => "Offset",
        }
    }
}

/// The names of the types generated beside one type, by [`Suffix`]: the type's name and the
/// suffix, with `_` appended while that is taken. Declared types keep their names: a table
/// `MonsterT` beside a table `Monster` makes the latter's owned form `MonsterT_`. Empty for the
/// suffixes a type does not have.
#[derive(Clone, Debug, Default)]
struct Derived([String; 5]);

impl Derived {
    fn get(&self, suffix: Suffix) -> &str {
        &self.0[suffix as usize]
    }
}

/// Namespaces and their parents, as their components, with the names of their modules.
type ModuleTree<'a> = BTreeMap<Vec<&'a str>, String>;

/// The path of a namespace's module, one name per component, per namespace.
type ModulePaths<'a> = BTreeMap<&'a str, Vec<String>>;

/// The scope of the type names of namespace `ns`.
fn ns_scope<'a>(scopes: &'a mut BTreeMap<String, Scope>, ns: &str) -> &'a mut Scope {
    scopes
        .entry(ns.to_string())
        .or_insert_with(|| Scope::with_reserved(PRELUDE_VALUES))
}

/// The emitter's state: names decided up front, then the output text.
struct Emitter<'s> {
    schema: &'s Schema,
    sources: &'s SourceMap,
    opts: &'s Options,
    root_dir: PathBuf,
    /// Rust type name per object, enum and service.
    obj_names: Vec<String>,
    enum_names: Vec<String>,
    service_names: Vec<String>,
    /// Per object and per enum: the type names derived from its name.
    obj_derived: Vec<Derived>,
    enum_derived: Vec<Derived>,
    /// Per object: the trait of each required field (by field index) that its builder's `finish`
    /// needs, implemented by the builder states where the field is set.
    required_traits: Vec<BTreeMap<usize, String>>,
    /// Every namespace and each of its parents, as its components, with the name of its module
    /// (empty for the file's top level). In order, the paths are a walk of the module tree: a
    /// path sorts right before its descendants.
    module_tree: ModuleTree<'s>,
    /// Module path (escaped identifiers) per namespace string.
    modules: ModulePaths<'s>,
    /// Per root type (a file's `root_type`): the stem of its functions and constants.
    root_stems: BTreeMap<ObjectId, String>,
    /// Per object: the accessor name of each field.
    field_names: Vec<Vec<String>>,
    /// Per object: the names of the other methods named after a field (`set_x`, `u_as_monster`,
    /// `n_nested_root`), by field index and the name they would have if nothing else took it.
    field_methods: Vec<BTreeMap<(usize, String), String>>,
    /// Per enum: the constant name of each value.
    value_consts: Vec<Vec<String>>,
    /// Per union: the variant name of each value (empty for NONE).
    variants: Vec<Vec<String>>,
    /// Per object: whether its owned form reaches objects behind 64-bit offsets (its own fields,
    /// or those of tables it holds), so that `pack` writes those first, in a pass of their own.
    far_objects: Vec<bool>,
    /// Per enum: whether a member of the union is such a table.
    far_unions: Vec<bool>,
    /// Whether some field of the schema has a 64-bit offset: size prefixes are then 64-bit, as
    /// in flatc's C++ code.
    size_prefix64: bool,
    /// Whether an object is used in a vector whose element type needs `Follow` (always for tables).
    serde_attr: String,
    /// Per source file: the byte offsets of its line breaks, for the line of a span.
    line_breaks: Vec<Vec<usize>>,
}

/// Emits the whole file (unformatted): its header comment, then its code in chunks.
pub(crate) fn emit(
    schema: &Schema,
    sources: &SourceMap,
    opts: &Options,
) -> Result<(String, Vec<Chunk>), GenerateError> {
    check_supported(schema)?;
    let mut e = Emitter::new(schema, sources, opts);
    Ok(e.file())
}

/// The most fields (vtable slots) a table can have: its vtable, `4 + 2 * slots` bytes, must fit
/// the vtable's 16-bit size.
const MAX_TABLE_SLOTS: usize = 32765;

/// Rejects what the generator (or the runtime) cannot express: namespaces of more than
/// [`MAX_NAMESPACE_DEPTH`] components and tables of more than [`MAX_TABLE_SLOTS`] fields (which
/// the front end accepts, as flatc does); 64-bit offsets to anything
/// but strings and vectors of scalars (not enums) or structs, and union types that are not
/// integers, which flatc rejects, and so does the front end, so only a schema model built by hand
/// gets there.
fn check_supported(schema: &Schema) -> Result<(), GenerateError> {
    let mut diagnostics = Vec::new();
    // Each namespace once, at its first definition.
    let definitions = schema
        .objects
        .iter()
        .map(|o| (&o.namespace, o.span))
        .chain(schema.enums.iter().map(|en| (&en.namespace, en.span)))
        .chain(schema.services.iter().map(|s| (&s.namespace, s.span)));
    let mut seen = BTreeMap::new();
    for (ns, span) in definitions {
        seen.entry(ns.as_str()).or_insert(span);
    }
    for (ns, span) in seen {
        let components = ns.split('.').filter(|c| !c.is_empty()).count();
        if components > MAX_NAMESPACE_DEPTH {
            diagnostics.push(
                Diagnostic::error(
                    Code::InvalidDeclaration,
                    format!(
                        "namespace `{}` has {components} components: the Rust generator \
                         supports at most {MAX_NAMESPACE_DEPTH} (one nested module each)",
                        abbreviated_namespace(ns)
                    ),
                    span,
                )
                .with_label("defined in that namespace"),
            );
        }
    }
    for o in schema.objects.iter().filter(|o| !o.is_struct) {
        // flatc accepts ids up to 32765, but a vtable's 16-bit size holds 32765 slots (0 to 32764).
        if o.fields.len() > MAX_TABLE_SLOTS {
            diagnostics.push(
                Diagnostic::error(
                    Code::InvalidDeclaration,
                    format!(
                        "table `{}` has {} fields: a vtable holds at most {MAX_TABLE_SLOTS} (ids 0 \
                         to {}), and a buffer with more would not verify",
                        o.full_name,
                        o.fields.len(),
                        MAX_TABLE_SLOTS - 1
                    ),
                    o.span,
                )
                .with_label("defined here"),
            );
        }
    }
    for o in &schema.objects {
        for f in &o.fields {
            if f.deprecated || !is_64bit(f) {
                continue;
            }
            let far_ok = match f.ty.base_type {
                BaseType::String => true,
                BaseType::Vector | BaseType::Vector64 => {
                    f.ty.element.is_scalar() && f.ty.enum_id().is_none()
                        || f.ty.element == BaseType::Obj
                            && f.ty.object().is_some_and(|id| schema[id].is_struct)
                }
                _ => false,
            };
            if !far_ok {
                diagnostics.push(Diagnostic::error(
                    Code::InvalidFieldType,
                    format!(
                        "field `{}.{}`: 64-bit offsets (`offset64`, `vector64`) may only point to \
                         strings and vectors of scalars (not enums) or structs",
                        o.full_name, f.name
                    ),
                    f.span,
                ));
            }
        }
    }
    for en in &schema.enums {
        if en.is_union
            && !(en.underlying_type.base_type.is_integer()
                && en.underlying_type.base_type != BaseType::Bool)
        {
            diagnostics.push(Diagnostic::error(
                Code::InvalidEnum,
                format!(
                    "union `{}` has the underlying type `{}`: union types must be integers",
                    en.full_name,
                    en.underlying_type.base_type.name()
                ),
                en.span,
            ));
        }
    }
    if diagnostics.is_empty() {
        Ok(())
    } else {
        Err(GenerateError::Unsupported { diagnostics })
    }
}

/// A namespace for a message: its first components, `…` and its last one when it is long.
fn abbreviated_namespace(ns: &str) -> String {
    const SHOWN: usize = 8;
    let components: Vec<&str> = ns.split('.').collect();
    match components.split_last() {
        Some((last, init)) if init.len() > SHOWN => {
            format!("{}.….{last}", init[..SHOWN].join("."))
        }
        _ => ns.to_string(),
    }
}

/// Whether a field has a 64-bit offset (`offset64`, or `vector64`, which implies it).
fn is_64bit(f: &Field) -> bool {
    f.offset64 || f.ty.base_type == BaseType::Vector64
}

/// Per object, whether its owned form reaches a field with a 64-bit offset: one of its own, or
/// one of a table it holds (directly, in a vector, or as a union member); and per enum, whether a
/// member of the union does. A fixpoint, as tables may refer to each other in cycles.
fn far_reach(schema: &Schema) -> (Vec<bool>, Vec<bool>) {
    let mut objects: Vec<bool> = schema
        .objects
        .iter()
        .map(|o| o.fields.iter().any(|f| !f.deprecated && is_64bit(f)))
        .collect();
    let mut unions = vec![false; schema.enums.len()];
    loop {
        let mut changed = false;
        for (i, en) in schema.enums.iter().enumerate() {
            let far = en.is_union
                && en.values.iter().any(|v| {
                    v.union_type
                        .and_then(|t| t.object())
                        .is_some_and(|id| objects[id.0 as usize])
                });
            if far && !unions[i] {
                unions[i] = true;
                changed = true;
            }
        }
        for (i, o) in schema.objects.iter().enumerate() {
            if objects[i] || o.is_struct {
                continue;
            }
            let far = o.fields.iter().any(|f| {
                if f.deprecated {
                    return false;
                }
                let target = match f.ty.base_type {
                    BaseType::Obj => f.ty.object().map(|id| objects[id.0 as usize]),
                    BaseType::Union => f.ty.enum_id().map(|id| unions[id.0 as usize]),
                    BaseType::Vector => match f.ty.element {
                        BaseType::Obj => f.ty.object().map(|id| objects[id.0 as usize]),
                        BaseType::Union => f.ty.enum_id().map(|id| unions[id.0 as usize]),
                        _ => None,
                    },
                    _ => None,
                };
                target == Some(true)
            });
            if far {
                objects[i] = true;
                changed = true;
            }
        }
        if !changed {
            return (objects, unions);
        }
    }
}

/// The modules of `namespaces` (see `Emitter::module_tree` and `Emitter::modules`). A component's
/// module is named in `snake_case`, escaped, and takes a `_` (or more) while a sibling has that
/// name: siblings take their names in the byte order of their components, so `Foo` is `foo`
/// and `foo` is `foo_`, whatever the order of the declarations.
fn module_names<'a>(
    namespaces: impl Iterator<Item = &'a str>,
) -> (ModuleTree<'a>, ModulePaths<'a>) {
    let namespaces: BTreeSet<&str> = namespaces.collect();
    let components =
        |ns: &'a str| -> Vec<&'a str> { ns.split('.').filter(|c| !c.is_empty()).collect() };
    let paths: BTreeSet<Vec<&str>> = namespaces
        .iter()
        .flat_map(|&ns| {
            let comps = components(ns);
            (0..=comps.len()).map(move |i| comps[..i].to_vec())
        })
        .collect();
    // One scope per parent module; paths in order, so a parent is named before its children.
    let mut scopes: BTreeMap<&[&str], Scope> = BTreeMap::new();
    let mut tree = BTreeMap::new();
    for path in &paths {
        let name = match path.split_last() {
            Some((child, parent)) => scopes.entry(parent).or_default().take(snake(child)),
            None => String::new(),
        };
        tree.insert(path.clone(), name);
    }
    let modules = namespaces
        .into_iter()
        .map(|ns| {
            let comps = components(ns);
            let idents = (1..=comps.len())
                .map(|i| tree[&comps[..i]].clone())
                .collect();
            (ns, idents)
        })
        .collect();
    (tree, modules)
}

/// The functions and constants that `Emitter::root_items` defines for a root type whose stem is
/// `stem`.
fn root_values(stem: &str) -> [String; 10] {
    let up = stem.to_uppercase();
    [
        format!("root_as_{stem}"),
        format!("size_prefixed_root_as_{stem}"),
        format!("root_as_{stem}_unchecked"),
        format!("size_prefixed_root_as_{stem}_unchecked"),
        format!("{stem}_buffer_has_identifier"),
        format!("{stem}_size_prefixed_buffer_has_identifier"),
        format!("finish_{stem}_buffer"),
        format!("finish_size_prefixed_{stem}_buffer"),
        format!("{up}_IDENTIFIER"),
        format!("{up}_EXTENSION"),
    ]
}

/// The stems of the root types' functions and constants (`root_as_monster`, `MONSTER_IDENTIFIER`):
/// each file's `root_type`, in the order of the files (the root file first), named in
/// `snake_case`, with `_` appended while one of its names is taken in its namespace by an earlier
/// root type's (the roots `Monster` and `MONSTER` of two files are `monster` and `monster_`).
fn root_stems(schema: &Schema, obj_names: &[String]) -> BTreeMap<ObjectId, String> {
    let mut taken: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    let mut stems = BTreeMap::new();
    for id in schema.files.iter().filter_map(|f| f.root_table) {
        if stems.contains_key(&id) {
            continue;
        }
        let taken = taken.entry(schema[id].namespace.as_str()).or_default();
        let mut stem = snake(bare(&obj_names[id.0 as usize]));
        while root_values(&stem).iter().any(|v| taken.contains(v)) {
            stem.push('_');
        }
        taken.extend(root_values(&stem));
        stems.insert(id, stem);
    }
    stems
}

/// `path` relative to `base` when it lies below it, otherwise the path as given.
fn display_path(path: &Path, base: &Path) -> String {
    let rel = path.strip_prefix(base).unwrap_or(path);
    let parts: Vec<String> = rel
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            Component::ParentDir => Some("..".to_string()),
            _ => None,
        })
        .collect();
    parts.join("/")
}

impl<'s> Emitter<'s> {
    fn new(schema: &'s Schema, sources: &'s SourceMap, opts: &'s Options) -> Emitter<'s> {
        let root_dir = schema
            .root_file()
            .path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        // Type names, unique per namespace (after case conversion).
        let mut scopes: BTreeMap<String, Scope> = BTreeMap::new();
        let mut take =
            |ns: &str, name: &str| -> String { ns_scope(&mut scopes, ns).take(camel(name)) };
        let obj_names: Vec<String> = schema
            .objects
            .iter()
            .map(|o| take(&o.namespace, &o.name))
            .collect();
        let enum_names: Vec<String> = schema
            .enums
            .iter()
            .map(|en| take(&en.namespace, &en.name))
            .collect();
        let service_names: Vec<String> = schema
            .services
            .iter()
            .map(|s| take(&s.namespace, &s.name))
            .collect();
        // The derived names, after every declared one.
        let mut derive = |ns: &str, name: &str, has: &dyn Fn(Suffix) -> bool| {
            let scope = ns_scope(&mut scopes, ns);
            // (From `Self`, escaped as `Self_`, come `SelfT`, `SelfArgs`, ...)
            let base = bare(name).trim_end_matches('_');
            let mut d = Derived::default();
            for suffix in Suffix::ALL.into_iter().filter(|&s| has(s)) {
                d.0[suffix as usize] = scope.take(format!("{base}{}", suffix.as_str()));
            }
            d
        };
        let obj_derived: Vec<Derived> = schema
            .objects
            .iter()
            .zip(&obj_names)
            .map(|(o, name)| {
                derive(&o.namespace, name, &|s| match s {
                    Suffix::T => opts.object_api,
                    Suffix::Args | Suffix::Builder => !o.is_struct,
                    Suffix::Type | Suffix::Offset => false,
                })
            })
            .collect();
        let enum_derived: Vec<Derived> = schema
            .enums
            .iter()
            .zip(&enum_names)
            .map(|(en, name)| {
                derive(&en.namespace, name, &|s| match s {
                    Suffix::T => en.is_union && opts.object_api,
                    Suffix::Type | Suffix::Offset => en.is_union,
                    Suffix::Args | Suffix::Builder => false,
                })
            })
            .collect();
        // The traits that a builder's `finish` needs, one per required field, after every other
        // type name.
        let required_traits = schema
            .objects
            .iter()
            .zip(&obj_derived)
            .map(|(o, derived)| {
                let base = derived.get(Suffix::Builder).trim_end_matches('_');
                o.fields
                    .iter()
                    .enumerate()
                    .filter(|(_, f)| !o.is_struct && f.presence == Presence::Required)
                    .map(|(i, f)| {
                        let scope = ns_scope(&mut scopes, &o.namespace);
                        (i, scope.take(format!("{base}Has{}", camel(&f.name))))
                    })
                    .collect()
            })
            .collect();
        let (module_tree, modules) = module_names(
            schema
                .objects
                .iter()
                .map(|o| o.namespace.as_str())
                .chain(schema.enums.iter().map(|e| e.namespace.as_str()))
                .chain(schema.services.iter().map(|s| s.namespace.as_str())),
        );
        let root_stems = root_stems(schema, &obj_names);
        let variants: Vec<Vec<String>> = schema
            .enums
            .iter()
            .map(|en| {
                let mut scope = Scope::with_reserved(&["None"]);
                en.values
                    .iter()
                    .map(|v| {
                        if v.union_type.is_none() {
                            String::new()
                        } else {
                            scope.take(camel(&v.name))
                        }
                    })
                    .collect()
            })
            .collect();
        // Field accessors, then the other methods named after fields, unique per type.
        let (field_names, field_methods) = schema
            .objects
            .iter()
            .map(|o| {
                let reserved = if o.is_struct {
                    RESERVED_STRUCT_METHODS
                } else {
                    RESERVED_METHODS
                };
                let mut scope = Scope::with_reserved(reserved);
                let names: Vec<String> = o
                    .fields
                    .iter()
                    .map(|f| scope.take(snake(&f.name)))
                    .collect();
                let mut methods = BTreeMap::new();
                for (i, (f, name)) in o.fields.iter().zip(&names).enumerate() {
                    let name = bare(name);
                    let mut wanted = Vec::new();
                    if o.is_struct {
                        wanted.push(format!("set_{name}"));
                    }
                    if let (BaseType::Union, Some(uid)) = (f.ty.base_type, f.ty.enum_id()) {
                        let en = &schema[uid];
                        for (v, variant) in en.values.iter().zip(&variants[uid.0 as usize]) {
                            if v.union_type.is_some() {
                                wanted.push(format!("{name}_as_{}", snake(variant)));
                            }
                        }
                    }
                    if f.nested_flatbuffer.is_some() {
                        wanted.push(format!("{name}_nested_root"));
                    }
                    for w in wanted {
                        // Keyed by field too: `u` with a member `AsFoo` and `u_as` with `Foo`
                        // both want `u_as_as_foo`.
                        let taken = scope.take(w.clone());
                        methods.insert((i, w), taken);
                    }
                }
                (names, methods)
            })
            .unzip();
        let value_consts = schema
            .enums
            .iter()
            .map(|en| {
                let mut scope = Scope::with_reserved(&["VALUES", "NAMES", "ALL_FLAGS"]);
                en.values
                    .iter()
                    .map(|v| scope.take(screaming(&v.name)))
                    .collect()
            })
            .collect();
        let serde_attr = match &opts.serde_feature {
            Some(feature) => format!(
                "#[cfg_attr(feature = {}, derive(::serde::Serialize, ::serde::Deserialize))]",
                str_lit(feature)
            ),
            None => String::new(),
        };
        let (far_objects, far_unions) = far_reach(schema);
        let size_prefix64 = schema
            .objects
            .iter()
            .any(|o| o.fields.iter().any(|f| !f.deprecated && is_64bit(f)));
        Emitter {
            schema,
            sources,
            opts,
            root_dir,
            obj_names,
            enum_names,
            obj_derived,
            enum_derived,
            required_traits,
            service_names,
            module_tree,
            modules,
            root_stems,
            field_names,
            field_methods,
            value_consts,
            variants,
            serde_attr,
            far_objects,
            far_unions,
            size_prefix64,
            line_breaks: sources
                .files
                .iter()
                .map(|f| {
                    f.bytes
                        .iter()
                        .enumerate()
                        .filter(|&(_, &b)| b == b'\n')
                        .map(|(i, _)| i)
                        .collect()
                })
                .collect(),
        }
    }

    /// The serde attribute of an array field longer than serde's built-in 32 elements.
    fn big_array_attr(&self, ns: &str, n: usize) -> String {
        match &self.opts.serde_feature {
            Some(feature) if n > 32 => {
                let depth = self.modules.get(ns).map_or(0, Vec::len);
                format!(
                    "#[cfg_attr(feature = {}, serde(with = \"{}{BIG_ARRAY}\"))]",
                    str_lit(feature),
                    "super::".repeat(depth)
                )
            }
            _ => String::new(),
        }
    }

    /// The feature of the serde derives, when the code has any: enums always derive, owned types
    /// with the object API.
    fn serde_cfg(&self) -> Option<&str> {
        let derives = !self.schema.enums.is_empty()
            || self.opts.object_api && !self.schema.objects.is_empty();
        self.opts.serde_feature.as_deref().filter(|_| derives)
    }

    /// Whether some owned struct has an array longer than 32 elements.
    fn needs_big_array(&self) -> bool {
        self.opts.object_api
            && self.opts.serde_feature.is_some()
            && self.schema.objects.iter().any(|o| {
                o.is_struct
                    && o.fields
                        .iter()
                        .any(|f| f.ty.base_type == BaseType::Array && f.ty.fixed_length > 32)
            })
    }

    fn serde_default(&self) -> String {
        match &self.opts.serde_feature {
            Some(feature) => format!(
                "#[cfg_attr(feature = {}, serde(default))]",
                str_lit(feature)
            ),
            None => String::new(),
        }
    }

    // ---------------------------------------------------------------------------------------
    // Locations and paths

    /// `file.fbs:LINE` of a span (found among the file's line breaks: counting the breaks before
    /// each item made generation quadratic in the schema's size).
    fn location(&self, span: Span) -> String {
        let file = &self.sources.files.get(span.file.index());
        let (path, line) = match file {
            Some(f) => {
                let breaks = &self.line_breaks[span.file.index()];
                let line = breaks.partition_point(|&at| at < span.start as usize) + 1;
                (display_path(&f.path, &self.root_dir), line)
            }
            None => ("?".to_string(), 0),
        };
        format!("{path}:{line}")
    }

    /// Doc lines: the schema's doc comment, then where the item comes from.
    fn item_docs(&self, docs: &[String], what: &str, span: Span) -> Vec<String> {
        let mut lines = schema_docs(docs);
        if !lines.is_empty() {
            lines.push(String::new());
        }
        lines.push(format!(
            " Generated from {what} at `{}`.",
            self.location(span)
        ));
        lines
    }

    /// The path from the module of namespace `from` to the item `name` of namespace `to`.
    fn path(&self, from: &str, to: &str, name: &str) -> String {
        if from == to {
            return name.to_string();
        }
        let from_mods = self.modules.get(from).map_or(0, Vec::len);
        let mut p = String::new();
        for _ in 0..from_mods {
            p.push_str("super::");
        }
        if let Some(m) = self.modules.get(to) {
            for c in m {
                p.push_str(c);
                p.push_str("::");
            }
        }
        p.push_str(name);
        p
    }

    /// The name of a method named after a field of object `id` (see `field_methods`).
    fn field_method(&self, id: ObjectId, field: usize, wanted: String) -> String {
        let key = (field, wanted);
        match self.field_methods[id.0 as usize].get(&key) {
            Some(name) => name.clone(),
            None => escape(&key.1),
        }
    }

    fn obj_path(&self, from: &str, id: ObjectId) -> String {
        let o = &self.schema[id];
        self.path(from, &o.namespace, &self.obj_names[id.0 as usize])
    }

    fn obj_path_suffixed(&self, from: &str, id: ObjectId, suffix: Suffix) -> String {
        let o = &self.schema[id];
        self.path(
            from,
            &o.namespace,
            self.obj_derived[id.0 as usize].get(suffix),
        )
    }

    fn enum_path(&self, from: &str, id: EnumId) -> String {
        let en = &self.schema[id];
        self.path(from, &en.namespace, &self.enum_names[id.0 as usize])
    }

    fn enum_path_suffixed(&self, from: &str, id: EnumId, suffix: Suffix) -> String {
        let en = &self.schema[id];
        self.path(
            from,
            &en.namespace,
            self.enum_derived[id.0 as usize].get(suffix),
        )
    }

    /// The discriminant type of a union (`AnyType`).
    fn union_type_path(&self, from: &str, id: EnumId) -> String {
        self.enum_path_suffixed(from, id, Suffix::Type)
    }

    // ---------------------------------------------------------------------------------------
    // Types

    fn kind(&self, ty: &Type) -> Kind {
        match ty.base_type {
            BaseType::String => Kind::String,
            BaseType::Obj => {
                let id = ty.object().unwrap_or(ObjectId(0));
                if self.schema[id].is_struct {
                    Kind::Struct(id)
                } else {
                    Kind::Table(id)
                }
            }
            BaseType::Union => Kind::Union(ty.enum_id().unwrap_or(EnumId(0))),
            BaseType::Vector | BaseType::Vector64 => match ty.element {
                BaseType::String => Kind::Vector(Elem::String),
                BaseType::Obj => {
                    let id = ty.object().unwrap_or(ObjectId(0));
                    if self.schema[id].is_struct {
                        Kind::Vector(Elem::Struct(id))
                    } else {
                        Kind::Vector(Elem::Table(id))
                    }
                }
                BaseType::Union => Kind::UnionVector(ty.enum_id().unwrap_or(EnumId(0))),
                bt => Kind::Vector(Elem::Scalar {
                    prim: self.scalar_prim(bt, ty.enum_id()),
                    enum_id: ty.enum_id(),
                }),
            },
            bt => Kind::Scalar {
                prim: self.scalar_prim(bt, ty.enum_id()),
                enum_id: ty.enum_id(),
            },
        }
    }

    /// What a table field holds: [`kind`](Self::kind) of its type, with 64-bit offsets.
    fn field_kind(&self, f: &Field) -> Kind {
        match self.kind(&f.ty) {
            Kind::Vector(e) if f.ty.base_type == BaseType::Vector64 => Kind::Vector64(e),
            Kind::Vector(e) if f.offset64 => Kind::FarVector(e),
            Kind::String if f.offset64 => Kind::FarString,
            k => k,
        }
    }

    /// The primitive of a scalar of base type `bt`: for a union's type (`UType`), the union's
    /// underlying type (`u8` unless the schema gives another, as in `union U : int`).
    fn scalar_prim(&self, bt: BaseType, enum_id: Option<EnumId>) -> &'static str {
        match enum_id {
            Some(id) if bt == BaseType::UType => self.union_tag(id),
            _ => prim(bt),
        }
    }

    /// The type of a union's type field and of the elements of its vectors of types.
    fn union_tag(&self, id: EnumId) -> &'static str {
        prim(self.schema[id].underlying_type.base_type)
    }

    /// The Rust type of a scalar (the enum type, a union's discriminant type, or the primitive).
    fn scalar_type(&self, ns: &str, prim: &str, enum_id: Option<EnumId>) -> String {
        match enum_id {
            Some(id) if self.schema[id].is_union => self.union_type_path(ns, id),
            Some(id) => self.enum_path(ns, id),
            None => prim.to_string(),
        }
    }

    fn elem_view(&self, ns: &str, e: Elem, lt: &str) -> String {
        match e {
            Elem::Scalar { prim, enum_id } => self.scalar_type(ns, prim, enum_id),
            Elem::Struct(id) => format!("&{lt} {}", self.obj_path(ns, id)),
            Elem::String => format!("&{lt} str"),
            Elem::Table(id) => format!("{}<{lt}>", self.obj_path(ns, id)),
        }
    }

    /// The view type of a table field with lifetime `lt`.
    fn view_type(&self, ns: &str, k: Kind, lt: &str) -> String {
        match k {
            Kind::Scalar { prim, enum_id } => self.scalar_type(ns, prim, enum_id),
            Kind::Struct(id) => format!("&{lt} {}", self.obj_path(ns, id)),
            Kind::String => format!("&{lt} str"),
            Kind::Table(id) => format!("{}<{lt}>", self.obj_path(ns, id)),
            Kind::Union(id) => format!("{}<{lt}>", self.enum_path(ns, id)),
            Kind::Vector(e) => format!("::flatforge::Vector<{lt}, {}>", self.elem_view(ns, e, lt)),
            Kind::UnionVector(id) => format!(
                "::flatforge::gen_support::UnionVector<{lt}, {}<{lt}>>",
                self.enum_path(ns, id)
            ),
            Kind::FarString => format!("&{lt} str"),
            Kind::FarVector(e) | Kind::Vector64(e) => {
                format!("::flatforge::Vector<{lt}, {}>", self.elem_view(ns, e, lt))
            }
        }
    }

    /// The type a field is verified and read as: its view type, but for 64-bit offsets the
    /// wrapper that follows them (whose `.0` is the view).
    fn wire_type(&self, ns: &str, k: Kind, lt: &str) -> String {
        match k {
            Kind::FarString => format!("::flatforge::Far<&{lt} str>"),
            Kind::FarVector(e) => format!(
                "::flatforge::Far<::flatforge::Vector<{lt}, {}>>",
                self.elem_view(ns, e, lt)
            ),
            Kind::Vector64(e) => {
                format!("::flatforge::Vector64<{lt}, {}>", self.elem_view(ns, e, lt))
            }
            k => self.view_type(ns, k, lt),
        }
    }

    /// The element type of a vector's offset in `...Args` (`Offset<[E]>`, `Offset64<[E]>`).
    fn elem_offset(&self, ns: &str, e: Elem) -> String {
        match e {
            Elem::Scalar { prim, enum_id } => self.scalar_type(ns, prim, enum_id),
            Elem::Struct(id) => self.obj_path(ns, id),
            Elem::String => "::flatforge::Offset<str>".to_string(),
            Elem::Table(id) => format!("::flatforge::Offset<{}<'static>>", self.obj_path(ns, id)),
        }
    }

    /// The offset type an `Args` field holds for a non-scalar kind.
    fn offset_type(&self, ns: &str, k: Kind) -> String {
        match k {
            Kind::Scalar { prim, enum_id } => self.scalar_type(ns, prim, enum_id),
            Kind::Struct(id) => self.obj_path(ns, id),
            Kind::String => "::flatforge::Offset<str>".to_string(),
            Kind::Table(id) => format!("::flatforge::Offset<{}<'static>>", self.obj_path(ns, id)),
            Kind::Union(id) => self.enum_path_suffixed(ns, id, Suffix::Offset),
            Kind::Vector(e) => format!("::flatforge::Offset<[{}]>", self.elem_offset(ns, e)),
            Kind::UnionVector(id) => self.union_vector_offset(ns, id),
            Kind::FarString => "::flatforge::Offset64<str>".to_string(),
            Kind::FarVector(e) => format!("::flatforge::Offset64<[{}]>", self.elem_offset(ns, e)),
            Kind::Vector64(e) => format!(
                "::flatforge::Offset64<::flatforge::Vector64<'static, {}>>",
                self.elem_offset(ns, e)
            ),
        }
    }

    /// The offset type of a vector of `id` unions written to a builder.
    fn union_vector_offset(&self, ns: &str, id: EnumId) -> String {
        let offset = self.enum_path_suffixed(ns, id, Suffix::Offset);
        match self.union_tag(id) {
            "u8" => format!("::flatforge::gen_support::UnionVectorOffset<{offset}>"),
            tag => format!("::flatforge::gen_support::UnionVectorOffset<{offset}, {tag}>"),
        }
    }

    /// The inline size and alignment of a table field.
    fn inline_size_align(&self, k: Kind) -> (usize, usize) {
        match k {
            Kind::Scalar { prim, .. } => (prim_size(prim), prim_size(prim)),
            Kind::Struct(id) => {
                let o = &self.schema[id];
                (o.bytesize as usize, o.minalign as usize)
            }
            Kind::FarString | Kind::FarVector(_) | Kind::Vector64(_) => (8, 8),
            _ => (4, 4),
        }
    }

    // ---------------------------------------------------------------------------------------
    // The file

    fn file(&mut self) -> (String, Vec<Chunk>) {
        let root = display_path(&self.schema.root_file().path, &self.root_dir);
        let mut header = format!(
            "// @generated by flatforge-codegen {VERSION} from `{root}`. Do not edit: regenerate \
             it from the schema.\n\n"
        );
        if let Some(feature) = self.serde_cfg() {
            let feature = str_lit(feature);
            w!(
                header,
                "// The serde derives are behind `cfg(feature = {feature})`, a feature of the crate \
                 that includes\n\
                 // this file. In a crate without it, rustc warns (`unexpected_cfgs`) unless the cfg \
                 is declared\n\
                 // expected: flatforge-build does so from build.rs; otherwise add to Cargo.toml\n\
                 //     [lints.rust]\n\
                 //     unexpected_cfgs = {{ level = \"warn\", check-cfg = ['cfg(feature, \
                 values({feature}))'] }}\n\
                 // or generate the code without serde (`flatforge rust --no-serde`).\n\n"
            );
        }
        let mut chunks = vec![items("the runtime version check".to_string(), |out| {
            w!(
                out,
                "const _: () = ::core::assert!(::flatforge::gen_support::version_is({}), {});",
                str_lit(VERSION),
                str_lit(&format!(
                    "this code was generated by flatforge-codegen {VERSION}: it needs the \
                     flatforge runtime {VERSION}"
                ))
            )
        })];
        // Items per namespace.
        let mut by_ns: BTreeMap<&str, NsItems> = BTreeMap::new();
        for (i, o) in self.schema.objects.iter().enumerate() {
            by_ns.entry(&o.namespace).or_default().0.push(i);
        }
        for (i, en) in self.schema.enums.iter().enumerate() {
            by_ns.entry(&en.namespace).or_default().1.push(i);
        }
        for (i, s) in self.schema.services.iter().enumerate() {
            by_ns.entry(&s.namespace).or_default().2.push(i);
        }
        if self.needs_big_array() {
            let feature = str_lit(self.opts.serde_feature.as_deref().unwrap_or("serde"));
            chunks.push(items(format!("module `{BIG_ARRAY}`"), |out| w!(
                out,
                "#[cfg(feature = {feature})] #[doc(hidden)] mod {BIG_ARRAY} {{
                    pub(crate) fn serialize<S: ::serde::Serializer, T: ::serde::Serialize, const N: usize>(a: &[T; N], s: S) -> ::core::result::Result<S::Ok, S::Error> {{ s.collect_seq(a) }}
                    pub(crate) fn deserialize<'de, D: ::serde::Deserializer<'de>, T: ::serde::Deserialize<'de>, const N: usize>(d: D) -> ::core::result::Result<[T; N], D::Error> {{
                        let v = <::flatforge::gen_support::Vec<T> as ::serde::Deserialize>::deserialize(d)?;
                        let len = v.len();
                        v.try_into().map_err(|_| <D::Error as ::serde::de::Error>::invalid_length(len, &\"an array of the schema's length\"))
                    }}
                }}"
            )));
        }
        self.modules(&mut chunks, &by_ns);
        (header, chunks)
    }

    /// The chunks of the namespaces' modules, nested: in each, one per definition, then its root
    /// functions, then its child modules. The module tree's paths in order are that walk, so it
    /// needs no recursion per namespace component.
    fn modules(&self, chunks: &mut Vec<Chunk>, by_ns: &BTreeMap<&str, NsItems>) {
        let mut open: &[&str] = &[];
        for (path, name) in &self.module_tree {
            // The tree holds every parent of a path, so the open modules that are not its parent
            // close, and it opens.
            let parent = path.split_last().map_or(&path[..0], |(_, parent)| parent);
            for _ in parent.len()..open.len() {
                chunks.push(Chunk::Close);
            }
            if !path.is_empty() {
                let mut attrs = String::new();
                doc1(&mut attrs, &format!(" Namespace `{}`.", path.join(".")));
                if self.module_tree[parent] == *name {
                    w!(attrs, "#[allow(clippy::module_inception)]");
                }
                chunks.push(Chunk::Open {
                    attrs,
                    name: name.clone(),
                });
            }
            self.namespace_items(chunks, &path.join("."), by_ns);
            open = path;
        }
        for _ in 0..open.len() {
            chunks.push(Chunk::Close);
        }
    }

    /// The chunks of a namespace's own items: one per definition, then its root functions.
    fn namespace_items(&self, chunks: &mut Vec<Chunk>, ns: &str, by_ns: &BTreeMap<&str, NsItems>) {
        if let Some((objects, enums, services)) = by_ns.get(ns) {
            for &i in enums {
                let id = EnumId(i as u32);
                let en = &self.schema[id];
                let kind = if en.is_union { "union" } else { "enum" };
                chunks.push(items(format!("{kind} `{}`", en.full_name), |out| {
                    self.enum_items(out, id)
                }));
            }
            for &i in objects {
                let id = ObjectId(i as u32);
                let o = &self.schema[id];
                chunks.push(if o.is_struct {
                    items(format!("struct `{}`", o.full_name), |out| {
                        self.struct_items(out, id)
                    })
                } else {
                    items(format!("table `{}`", o.full_name), |out| {
                        self.table_items(out, id)
                    })
                });
            }
            for &i in services {
                let s = &self.schema.services[i];
                chunks.push(items(format!("rpc_service `{}`", s.full_name), |out| {
                    self.service(out, i)
                }));
            }
            chunks.push(items(
                format!("the root functions of namespace `{ns}`"),
                |out| self.root_items(out, ns),
            ));
        }
    }

    // ---------------------------------------------------------------------------------------
    // Enums and unions

    fn enum_items(&self, out: &mut String, id: EnumId) {
        let en = &self.schema[id];
        if en.is_union {
            self.union_items(out, id);
        } else {
            let name = self.enum_names[id.0 as usize].clone();
            let docs = self.item_docs(&en.docs, &format!("`enum {}`", en.name), en.span);
            self.open_enum(out, id, &name, &docs);
        }
    }

    /// The open newtype of an enum (or of a union's discriminant when `name` is `...Type`).
    fn open_enum(&self, out: &mut String, id: EnumId, name: &str, docs: &[String]) {
        let en = &self.schema[id];
        let p = prim(en.underlying_type.base_type);
        let consts = &self.value_consts[id.0 as usize];
        doc(out, docs);
        doc1(out, "");
        if en.bit_flags {
            doc1(
                out,
                " A set of bit flags: combine them with `|`; bits the schema does not name are kept.",
            );
        } else {
            doc1(
                out,
                " An open enum: values the schema does not name are kept (and printed as numbers).",
            );
        }
        w!(
            out,
            "#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)] {} #[repr(transparent)] pub struct {name}(pub {p});",
            self.serde_attr
        );
        // Constants.
        w!(out, "impl {name} {{");
        for (v, c) in en.values.iter().zip(consts) {
            let mut lines = schema_docs(&v.docs);
            if lines.is_empty() {
                lines.push(format!(" `{}`", v.name));
            }
            doc(out, &lines);
            w!(
                out,
                "pub const {c}: Self = Self({});",
                self.enum_value_lit(en, v.value)
            );
        }
        let all: Vec<String> = consts.iter().map(|c| format!("Self::{c}")).collect();
        doc1(out, " Every value the schema names, in increasing order.");
        w!(
            out,
            "pub const VALUES: [Self; {}] = [{}];",
            all.len(),
            all.join(", ")
        );
        if en.bit_flags {
            let names: Vec<String> = en.values.iter().map(|v| str_lit(&v.name)).collect();
            doc1(
                out,
                " The schema's names of [`Self::VALUES`], in the same order (flags that share a bit each keep their own name).",
            );
            w!(
                out,
                "pub const NAMES: [&'static str; {}] = [{}];",
                names.len(),
                names.join(", ")
            );
        }
        // name()
        doc1(
            out,
            " The schema's name of this value, or `None` for a value the schema does not name.",
        );
        w!(
            out,
            "pub const fn name(self) -> ::core::option::Option<&'static str> {{"
        );
        if en.values.is_empty() {
            w!(out, "let _ = self; None");
        } else {
            w!(out, "match self.0 {{");
            let mut seen = std::collections::HashSet::new();
            for v in &en.values {
                if seen.insert(v.value) {
                    w!(
                        out,
                        "{} => Some({}),",
                        self.enum_value_lit(en, v.value),
                        str_lit(&v.name)
                    );
                }
            }
            w!(out, "_ => None, }}");
        }
        w!(out, "}}");
        doc1(out, " The value with the given schema name.");
        w!(
            out,
            "pub fn from_name(name: &str) -> ::core::option::Option<Self> {{"
        );
        if en.values.is_empty() {
            w!(out, "let _ = name; None");
        } else {
            w!(out, "match name {{");
            for (v, c) in en.values.iter().zip(consts) {
                w!(out, "{} => Some(Self::{c}),", str_lit(&v.name));
            }
            w!(out, "_ => None, }}");
        }
        w!(out, "}}");
        if en.bit_flags {
            let mask: u64 = en.values.iter().fold(0, |m, v| m | v.value as u64);
            w!(
                out,
                "#[doc = \" All the flags the schema names.\"] pub const ALL_FLAGS: Self = Self({});",
                self.enum_value_lit(en, mask as i64)
            );
            w!(
                out,
                "#[doc = \" No flag set.\"] pub const fn empty() -> Self {{ Self(0) }}
                 #[doc = \" Whether no flag is set.\"] pub const fn is_empty(self) -> bool {{ self.0 == 0 }}
                 #[doc = \" Whether every flag of `other` is set.\"] pub const fn contains(self, other: Self) -> bool {{ self.0 & other.0 == other.0 }}
                 #[doc = \" Whether any flag of `other` is set.\"] pub const fn intersects(self, other: Self) -> bool {{ self.0 & other.0 != 0 }}
                 #[doc = \" Sets the flags of `other`.\"] pub fn insert(&mut self, other: Self) {{ self.0 |= other.0; }}
                 #[doc = \" Clears the flags of `other`.\"] pub fn remove(&mut self, other: Self) {{ self.0 &= !other.0; }}"
            );
        } else {
            doc1(out, " Whether the schema names this value.");
            w!(
                out,
                "pub const fn is_known(self) -> bool {{ self.name().is_some() }}"
            );
        }
        w!(out, "}}");
        if en.bit_flags {
            for (tr, op) in [("BitOr", "|"), ("BitAnd", "&"), ("BitXor", "^")] {
                let method = tr.to_lowercase();
                w!(
                    out,
                    "impl ::core::ops::{tr} for {name} {{ type Output = Self; fn {method}(self, rhs: Self) -> Self {{ Self(self.0 {op} rhs.0) }} }}"
                );
                w!(
                    out,
                    "impl ::core::ops::{tr}Assign for {name} {{ fn {method}_assign(&mut self, rhs: Self) {{ self.0 = self.0 {op} rhs.0; }} }}"
                );
            }
            w!(
                out,
                "impl ::core::ops::Not for {name} {{ type Output = Self; fn not(self) -> Self {{ Self(!self.0 & Self::ALL_FLAGS.0) }} }}"
            );
            // Display: names separated by spaces (flatc's JSON form), unknown bits as a number.
            w!(
                out,
                "impl ::core::fmt::Display for {name} {{ fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{
                    let mut rest = self.0; let mut first = true;
                    for (flag, name) in Self::VALUES.into_iter().zip(Self::NAMES) {{
                        if flag.0 != 0 && self.0 & flag.0 == flag.0 {{
                            if !first {{ f.write_str(\" \")?; }}
                            first = false;
                            f.write_str(name)?;
                            rest &= !flag.0;
                        }}
                    }}
                    if rest != 0 || first {{ if !first {{ f.write_str(\" \")?; }} ::core::write!(f, \"{{rest}}\")?; }}
                    Ok(())
                }} }}"
            );
            w!(
                out,
                "impl ::core::fmt::Debug for {name} {{ fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{ ::core::write!(f, \"{name}({{self}})\") }} }}"
            );
            w!(
                out,
                "impl ::core::convert::TryFrom<{p}> for {name} {{ type Error = ::flatforge::gen_support::UnknownEnumValue;
                    fn try_from(value: {p}) -> ::core::result::Result<Self, Self::Error> {{
                        if value & !Self::ALL_FLAGS.0 == 0 {{ Ok(Self(value)) }} else {{ Err(::flatforge::gen_support::UnknownEnumValue::new({}, value as i128)) }}
                    }} }}",
                str_lit(&en.name)
            );
        } else {
            w!(
                out,
                "impl ::core::fmt::Display for {name} {{ fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{
                    match self.name() {{ Some(n) => f.write_str(n), None => ::core::write!(f, \"{{}}\", self.0) }}
                }} }}"
            );
            w!(
                out,
                "impl ::core::fmt::Debug for {name} {{ fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{
                    match self.name() {{ Some(n) => ::core::write!(f, \"{name}::{{n}}\"), None => ::core::write!(f, \"{name}({{}})\", self.0) }}
                }} }}"
            );
            w!(
                out,
                "impl ::core::convert::TryFrom<{p}> for {name} {{ type Error = ::flatforge::gen_support::UnknownEnumValue;
                    fn try_from(value: {p}) -> ::core::result::Result<Self, Self::Error> {{
                        let v = Self(value);
                        if v.is_known() {{ Ok(v) }} else {{ Err(::flatforge::gen_support::UnknownEnumValue::new({}, value as i128)) }}
                    }} }}",
                str_lit(&en.name)
            );
        }
        w!(
            out,
            "impl ::core::convert::From<{name}> for {p} {{ fn from(value: {name}) -> {p} {{ value.0 }} }}"
        );
        // Runtime traits: read from tables, vectors and struct arrays.
        w!(
            out,
            "impl ::flatforge::Verify for {name} {{ const SIZE: usize = {size}; const ALIGN: usize = {size};
                #[inline(always)] fn verify_at(_: &mut ::flatforge::Verifier<'_>, _: usize) -> ::core::result::Result<(), ::flatforge::Error> {{ Ok(()) }} }}
             impl<'a> ::flatforge::Follow<'a> for {name} {{
                #[inline(always)] unsafe fn follow(buf: &'a [u8], pos: usize) -> Self {{",
            size = prim_size(p)
        );
        safety(
            out,
            "forwarded: the caller checked that the value's bytes lie in `buf`.",
        );
        w!(
            out,
            "let v = unsafe {{ <{p} as ::flatforge::Follow<'a>>::follow(buf, pos) }}; Self(v) }}
             #[inline(always)] unsafe fn follow_at(buf: &'a [u8], at: *const u8) -> Self {{"
        );
        safety(
            out,
            "forwarded: the caller checked that the value's bytes lie in `buf`.",
        );
        w!(
            out,
            "let v = unsafe {{ <{p} as ::flatforge::Follow<'a>>::follow_at(buf, at) }}; Self(v) }} }}
             impl<'a> ::flatforge::Inline<'a> for {name} {{ const SIZE: usize = {size};
                #[inline(always)] fn read_inline(bytes: &'a [u8], pos: usize) -> Self {{ Self(::flatforge::read_scalar::<{p}>(bytes, pos)) }} }}",
            size = prim_size(p)
        );
        // Vectors of enums.
        w!(
            out,
            "impl {name} {{ #[doc = \" Writes a vector of these values.\"]
                pub fn create_vector(b: &mut ::flatforge::Builder, values: &[Self]) -> ::core::result::Result<::flatforge::Offset<[Self]>, ::flatforge::BuildError> {{
                    Ok(b.create_vector_from_iter(values.iter().map(|v| v.0))?.cast())
                }} }}"
        );
    }

    /// An enum value as a literal of the underlying type.
    fn enum_value_lit(&self, en: &Enum, value: i64) -> String {
        let p = prim(en.underlying_type.base_type);
        if p == "u64" {
            (value as u64).to_string()
        } else if p == "bool" {
            (value != 0).to_string()
        } else if value == i64::MIN {
            "i64::MIN".to_string()
        } else {
            value.to_string()
        }
    }

    fn union_items(&self, out: &mut String, id: EnumId) {
        let en = &self.schema[id];
        let ns = en.namespace.as_str();
        let name = self.enum_names[id.0 as usize].clone();
        let ty_name = self.enum_derived[id.0 as usize]
            .get(Suffix::Type)
            .to_string();
        let offset_name = self.enum_derived[id.0 as usize]
            .get(Suffix::Offset)
            .to_string();
        let consts = &self.value_consts[id.0 as usize];
        let variants = &self.variants[id.0 as usize];
        let tag = self.union_tag(id);
        let docs = self.item_docs(&en.docs, &format!("`union {}`", en.name), en.span);
        // The discriminant.
        let mut tdocs = vec![format!(" The type of a `{}` union value.", en.name)];
        tdocs.push(String::new());
        tdocs.push(format!(
            " Generated from `union {}` at `{}`.",
            en.name,
            self.location(en.span)
        ));
        self.open_enum(out, id, &ty_name, &tdocs);
        // Members.
        struct Member {
            variant: String,
            konst: String,
            value: i64,
            kind: Kind,
            docs: Vec<String>,
            /// Whether readers see this member for its type value: the first member with that
            /// value (the schema lets members share one, as aliases; values are in order).
            read: bool,
        }
        let mut last = None;
        let members: Vec<Member> = en
            .values
            .iter()
            .enumerate()
            .filter_map(|(i, v)| {
                let ty = v.union_type?;
                let read = last != Some(v.value);
                last = Some(v.value);
                Some(Member {
                    variant: variants[i].clone(),
                    konst: consts[i].clone(),
                    value: v.value,
                    kind: self.kind(&ty),
                    docs: schema_docs(&v.docs),
                    read,
                })
            })
            .collect();
        // The view enum.
        doc(out, &docs);
        w!(
            out,
            "#[derive(Clone, Copy, Debug)] #[allow(clippy::enum_variant_names)] pub enum {name}<'a> {{"
        );
        for m in &members {
            let mut lines = m.docs.clone();
            if lines.is_empty() {
                lines.push(format!(" The `{}` member.", m.variant));
            }
            doc(out, &lines);
            w!(out, "{}({}),", m.variant, self.view_type(ns, m.kind, "'a"));
        }
        if members.is_empty() {
            // A union without members has no values; this variant cannot be built.
            w!(out, "#[doc = \" No value: the union has no members.\"] Never(::core::convert::Infallible, ::core::marker::PhantomData<&'a ()>),");
        }
        w!(out, "}}");
        w!(out, "impl {name}<'_> {{ #[doc = \" The type of this value.\"] pub fn ty(&self) -> {ty_name} {{ match self {{");
        for m in &members {
            w!(out, "Self::{}(_) => {ty_name}::{},", m.variant, m.konst);
        }
        if members.is_empty() {
            w!(out, "Self::Never(never, _) => match *never {{}},");
        }
        w!(out, "}} }} }}");
        // Union trait.
        if members.is_empty() {
            w!(
                out,
                "impl<'a> ::flatforge::gen_support::Union<'a> for {name}<'a> {{ type Tag = {tag};
                    #[inline] fn verify_member(v: &mut ::flatforge::Verifier<'_>, ty: {tag}, pos: usize) -> ::core::option::Option<::core::result::Result<(), ::flatforge::Error>> {{
                        let _ = (v, ty, pos); None }}
                    #[inline] unsafe fn follow_member(buf: &'a [u8], ty: {tag}, pos: usize) -> ::core::option::Option<Self> {{
                        let _ = (buf, ty, pos); None }} }}"
            );
        } else {
            w!(
            out,
            "impl<'a> ::flatforge::gen_support::Union<'a> for {name}<'a> {{ type Tag = {tag};
                #[inline] fn verify_member(v: &mut ::flatforge::Verifier<'_>, ty: {tag}, pos: usize) -> ::core::option::Option<::core::result::Result<(), ::flatforge::Error>> {{
                    match ty {{"
        );
            for m in members.iter().filter(|m| m.read) {
                let vt = match m.kind {
                    Kind::Struct(sid) => {
                        format!("::flatforge::Indirect<&{}>", self.obj_path(ns, sid))
                    }
                    k => self.view_type(ns, k, "'_"),
                };
                w!(
                    out,
                    "{} => Some(<{vt} as ::flatforge::Verify>::verify_at(v, pos)),",
                    m.value
                );
            }
            w!(
            out,
            "_ => None, }} }}
            #[inline] unsafe fn follow_member(buf: &'a [u8], ty: {tag}, pos: usize) -> ::core::option::Option<Self> {{
                match ty {{"
        );
            for m in members.iter().filter(|m| m.read) {
                w!(out, "{} => {{", m.value);
                safety(
                    out,
                    "forwarded: `verify_member` accepted this member type at `pos` in `buf`.",
                );
                match m.kind {
                Kind::Struct(sid) => w!(
                    out,
                    "let m = unsafe {{ <::flatforge::Indirect<&'a {}> as ::flatforge::Follow<'a>>::follow(buf, pos) }}; Some(Self::{}(m.0)) }}",
                    self.obj_path(ns, sid),
                    m.variant
                ),
                k => w!(
                    out,
                    "let m = unsafe {{ <{} as ::flatforge::Follow<'a>>::follow(buf, pos) }}; Some(Self::{}(m)) }}",
                    self.view_type(ns, k, "'a"),
                    m.variant
                ),
            }
            }
            w!(out, "_ => None, }} }} }}");
        }

        // Building: the offset of a member.
        doc1(out, &format!(" A `{}` union value written to a builder: its type and offset, for `...Args` fields.", en.name));
        w!(
            out,
            "#[derive(Clone, Copy, Debug, PartialEq, Eq)] pub struct {offset_name} {{ ty: {ty_name}, offset: u32 }}
             impl {offset_name} {{
                #[doc = \" No value (type NONE), for elements of vectors of unions.\"]
                pub const NONE: Self = Self {{ ty: {ty_name}(0), offset: 0 }};
                #[doc = \" The type of the value.\"] pub fn ty(&self) -> {ty_name} {{ self.ty }}
                #[doc = \" The offset of the value.\"] pub fn offset(&self) -> ::flatforge::Offset<()> {{ ::flatforge::Offset::new(self.offset) }}"
        );
        let mut ctor_scope = Scope::with_reserved(&["ty", "offset", "create_vector", "none"]);
        for m in &members {
            let ctor = ctor_scope.take(snake(&m.variant));
            let arg = match m.kind {
                Kind::Struct(sid) => format!("::flatforge::Offset<{}>", self.obj_path(ns, sid)),
                k => self.offset_type(ns, k),
            };
            match m.kind {
                Kind::Struct(_) => doc1(
                    out,
                    &format!(
                        " A `{}` member: a struct, written on its own for its offset by \
                         `flatforge::gen_support::create_struct(b, &value)`.",
                        m.variant
                    ),
                ),
                _ => doc1(out, &format!(" A `{}` member.", m.variant)),
            }
            w!(
                out,
                "pub fn {ctor}(offset: {arg}) -> Self {{ Self {{ ty: {ty_name}::{}, offset: offset.value() }} }}",
                m.konst
            );
        }
        let vector_offset = self.union_vector_offset(ns, id);
        w!(
            out,
            "#[doc = \" Writes a vector of union values (the types vector and the values vector).\"]
             pub fn create_vector(b: &mut ::flatforge::Builder, values: &[Self]) -> ::core::result::Result<{vector_offset}, ::flatforge::BuildError> {{
                let types = b.create_vector_from_iter(values.iter().map(|v| v.ty.0))?;
                b.start_vector(values.len(), 4, 4)?;
                for v in values.iter().rev() {{ b.push_offset(::flatforge::Offset::<()>::new(v.offset)); }}
                let offsets = b.end_vector::<::flatforge::Offset<()>>(values.len());
                Ok(::flatforge::gen_support::UnionVectorOffset::new(types, offsets))
             }} }}"
        );

        if self.opts.object_api {
            self.union_object(
                out,
                id,
                &name,
                &ty_name,
                &offset_name,
                &members
                    .iter()
                    .map(|m| (m.variant.clone(), m.konst.clone(), m.kind))
                    .collect::<Vec<_>>(),
            );
        }
    }

    fn union_object(
        &self,
        out: &mut String,
        id: EnumId,
        name: &str,
        ty_name: &str,
        offset_name: &str,
        members: &[(String, String, Kind)],
    ) {
        let en = &self.schema[id];
        let ns = en.namespace.as_str();
        let owned = self.enum_derived[id.0 as usize].get(Suffix::T).to_string();
        doc1(
            out,
            &format!(" An owned `{}` union value (object API).", en.name),
        );
        w!(
            out,
            "#[derive(Clone, Debug, PartialEq, Default)] {} #[allow(clippy::large_enum_variant, clippy::enum_variant_names)] pub enum {owned} {{
                #[doc = \" No value (type NONE).\"] #[default] None,",
            self.serde_attr
        );
        for (v, _, k) in members {
            let t = match k {
                Kind::Table(tid) => format!(
                    "::flatforge::gen_support::Box<{}>",
                    self.obj_path_suffixed(ns, *tid, Suffix::T)
                ),
                Kind::Struct(sid) => self.obj_path_suffixed(ns, *sid, Suffix::T),
                _ => "::flatforge::gen_support::String".to_string(),
            };
            doc1(out, &format!(" The `{v}` member."));
            w!(out, "{v}({t}),");
        }
        w!(out, "}}");
        if members.is_empty() {
            w!(
                out,
                "impl {owned} {{
                    #[doc = \" The type of this value: NONE.\"] pub fn ty(&self) -> {ty_name} {{ let _ = self; {ty_name}(0) }}
                    #[doc = \" Writes nothing: the union has no members.\"]
                    pub fn pack(&self, b: &mut ::flatforge::Builder) -> ::core::result::Result<::core::option::Option<{offset_name}>, ::flatforge::BuildError> {{ let _ = (self, b); Ok(None) }}
                    #[doc = \" Writes a vector of union values.\"]
                    pub fn pack_vector(b: &mut ::flatforge::Builder, values: &[Self]) -> ::core::result::Result<{}, ::flatforge::BuildError> {{
                        let offsets: ::flatforge::gen_support::Vec<{offset_name}> = values.iter().map(|_| {offset_name}::NONE).collect();
                        {offset_name}::create_vector(b, &offsets)
                    }} }}
                 impl {name}<'_> {{ #[doc = \" The owned form of this value (object API).\"] pub fn unpack(&self) -> {owned} {{ match self {{ Self::Never(never, _) => match *never {{}} }} }} }}",
                self.union_vector_offset(ns, id)
            );
            return;
        }
        w!(
            out,
            "impl {owned} {{
                #[doc = \" The type of this value.\"] pub fn ty(&self) -> {ty_name} {{ match self {{ Self::None => {ty_name}(0),"
        );
        for (v, c, _) in members {
            w!(out, "Self::{v}(_) => {ty_name}::{c},");
        }
        w!(
            out,
            "}} }}
             #[doc = \" Writes the value; `None` for NONE.\"]"
        );
        if self.far_unions[id.0 as usize] {
            w!(
                out,
                "pub fn pack(&self, b: &mut ::flatforge::Builder) -> ::core::result::Result<::core::option::Option<{offset_name}>, ::flatforge::BuildError> {{
                    let mut far = ::flatforge::gen_support::FarOffsets::new();
                    self.pack_far(b, &mut far)?;
                    self.pack_near(b, &mut far)
                 }}
                 #[doc = \" The second pass of [`pack`](Self::pack): writes the value, with the offsets `pack_far` recorded.\"]
                 pub fn pack_near(&self, b: &mut ::flatforge::Builder, far: &mut ::flatforge::gen_support::FarOffsets) -> ::core::result::Result<::core::option::Option<{offset_name}>, ::flatforge::BuildError> {{"
            );
        } else {
            w!(
                out,
                "pub fn pack(&self, b: &mut ::flatforge::Builder) -> ::core::result::Result<::core::option::Option<{offset_name}>, ::flatforge::BuildError> {{"
            );
        }
        w!(out, "Ok(Some(match self {{ Self::None => return Ok(None),");
        let mut ctor_scope = Scope::with_reserved(&["ty", "offset", "create_vector", "none"]);
        let far_union = self.far_unions[id.0 as usize];
        let far_member = |k: &Kind| match k {
            Kind::Table(tid) => self.far_objects[tid.0 as usize],
            _ => false,
        };
        let mut far_arms = String::new();
        for (v, _, k) in members {
            let ctor = ctor_scope.take(snake(v));
            let pack = match k {
                Kind::Table(_) if far_member(k) => {
                    w!(far_arms, "Self::{v}(x) => x.pack_far(b, far),");
                    "x.pack_near(b, far)?".to_string()
                }
                Kind::Table(_) => "x.pack(b)?".to_string(),
                Kind::Struct(_) => {
                    "::flatforge::gen_support::create_struct(b, &x.pack())?".to_string()
                }
                _ => "b.create_string(x)?".to_string(),
            };
            w!(out, "Self::{v}(x) => {offset_name}::{ctor}({pack}),");
        }
        let vector_offset = self.union_vector_offset(ns, id);
        if far_union {
            w!(
                out,
                "}})) }}
                 #[doc = \" The first pass of [`pack`](Self::pack): writes the objects behind 64-bit offsets that the value\"]
                 #[doc = \" holds, and records their offsets in `far`.\"]
                 pub fn pack_far(&self, b: &mut ::flatforge::Builder, far: &mut ::flatforge::gen_support::FarOffsets) -> ::core::result::Result<(), ::flatforge::BuildError> {{
                    match self {{ {far_arms} _ => Ok(()) }}
                 }}
                 #[doc = \" Writes a vector of union values.\"]
                 pub fn pack_vector(b: &mut ::flatforge::Builder, values: &[Self]) -> ::core::result::Result<{vector_offset}, ::flatforge::BuildError> {{
                    let mut far = ::flatforge::gen_support::FarOffsets::new();
                    Self::pack_vector_far(b, values, &mut far)?;
                    Self::pack_vector_near(b, values, &mut far)
                 }}
                 #[doc = \" The first pass of [`pack_vector`](Self::pack_vector), as [`pack_far`](Self::pack_far).\"]
                 pub fn pack_vector_far(b: &mut ::flatforge::Builder, values: &[Self], far: &mut ::flatforge::gen_support::FarOffsets) -> ::core::result::Result<(), ::flatforge::BuildError> {{
                    for v in values {{ v.pack_far(b, far)?; }}
                    Ok(())
                 }}
                 #[doc = \" The second pass of [`pack_vector`](Self::pack_vector), as [`pack_near`](Self::pack_near).\"]
                 pub fn pack_vector_near(b: &mut ::flatforge::Builder, values: &[Self], far: &mut ::flatforge::gen_support::FarOffsets) -> ::core::result::Result<{vector_offset}, ::flatforge::BuildError> {{
                    let mut offsets = ::flatforge::gen_support::Vec::with_capacity(values.len());
                    for v in values {{ offsets.push(v.pack_near(b, far)?.unwrap_or({offset_name}::NONE)); }}
                    {offset_name}::create_vector(b, &offsets)
                 }} }}"
            );
        } else {
            w!(
                out,
                "}})) }}
                 #[doc = \" Writes a vector of union values.\"]
                 pub fn pack_vector(b: &mut ::flatforge::Builder, values: &[Self]) -> ::core::result::Result<{vector_offset}, ::flatforge::BuildError> {{
                    let mut offsets = ::flatforge::gen_support::Vec::with_capacity(values.len());
                    for v in values {{ offsets.push(v.pack(b)?.unwrap_or({offset_name}::NONE)); }}
                    {offset_name}::create_vector(b, &offsets)
                 }} }}"
            );
        }
        w!(
            out,
            "impl {name}<'_> {{ #[doc = \" The owned form of this value (object API).\"] pub fn unpack(&self) -> {owned} {{ match self {{"
        );
        for (v, _, k) in members {
            let conv = match k {
                Kind::Table(_) => "::flatforge::gen_support::Box::new(x.unpack())",
                Kind::Struct(_) => "x.unpack()",
                _ => "::flatforge::gen_support::ToString::to_string(x)",
            };
            w!(out, "Self::{v}(x) => {owned}::{v}({conv}),");
        }
        w!(out, "}} }} }}");
    }

    // ---------------------------------------------------------------------------------------
    // Structs

    fn struct_items(&self, out: &mut String, id: ObjectId) {
        let o = &self.schema[id];
        let ns = o.namespace.as_str();
        let name = self.obj_names[id.0 as usize].clone();
        let names = &self.field_names[id.0 as usize];
        // In `new`, the struct being built is a local named unlike every parameter (the fields).
        let mut local = String::from("s");
        while names.contains(&local) {
            local.push('_');
        }
        let size = o.bytesize as usize;
        let docs = self.item_docs(&o.docs, &format!("`struct {}`", o.name), o.span);
        doc(out, &docs);
        doc1(out, "");
        doc1(
            out,
            &format!(
                " Stored inline as {size} bytes aligned to {}; this type is those bytes (alignment 1).",
                o.minalign
            ),
        );
        let default_derive = if size <= 32 { ", Default" } else { "" };
        w!(
            out,
            "#[derive(Clone, Copy, PartialEq, Eq, Hash{default_derive})] #[repr(transparent)] pub struct {name}(pub [u8; {size}]);"
        );
        if size > 32 {
            w!(
                out,
                "impl ::core::default::Default for {name} {{ fn default() -> Self {{ Self([0; {size}]) }} }}"
            );
        }
        safety(
            out,
            &format!("a `#[repr(transparent)]` wrapper of `[u8; {size}]`: alignment 1, no padding, any bytes valid."),
        );
        w!(
            out,
            "unsafe impl ::flatforge::Struct for {name} {{ const ALIGN: usize = {}; }}",
            o.minalign
        );
        // Accessors.
        w!(out, "impl {name} {{");
        let mut params = Vec::new();
        let mut sets = Vec::new();
        for (fi, (f, fname)) in o.fields.iter().zip(names).enumerate() {
            let off = f.offset as usize;
            let set = self.field_method(id, fi, format!("set_{}", bare(fname)));
            let mut lines = schema_docs(&f.docs);
            if lines.is_empty() {
                lines.push(format!(" `{}`", f.name));
            }
            let allow = method_allow(fname);
            let set_allow = method_allow(&set);
            match f.ty.base_type {
                BaseType::Obj => {
                    let sid = f.ty.object().unwrap_or(ObjectId(0));
                    let sp = self.obj_path(ns, sid);
                    let ssize = self.schema[sid].bytesize as usize;
                    doc(out, &lines);
                    w!(out, "{allow} #[inline] pub fn {fname}(&self) -> &{sp} {{ ::flatforge::Inline::read_inline(&self.0, {off}) }}");
                    doc1(out, &format!(" Sets `{}`.", f.name));
                    w!(out, "{set_allow} #[inline] pub fn {set}(&mut self, value: &{sp}) {{ self.0[{off}..{}].copy_from_slice(&value.0); }}", off + ssize);
                    params.push(format!("{fname}: &{sp}"));
                }
                BaseType::Array => {
                    let n = f.ty.fixed_length as usize;
                    let et = f.ty.element_type();
                    let (elem, esize, setter) = match et.base_type {
                        BaseType::Obj => {
                            let sid = et.object().unwrap_or(ObjectId(0));
                            let sp = self.obj_path(ns, sid);
                            let es = self.schema[sid].bytesize as usize;
                            (
                                format!("&{sp}"),
                                es,
                                "chunk.copy_from_slice(&v.0);".to_string(),
                            )
                        }
                        bt => {
                            let p = prim(bt);
                            let t = self.scalar_type(ns, p, et.enum_id());
                            let val = if et.enum_id().is_some() { "v.0" } else { "*v" };
                            (
                                t,
                                prim_size(p),
                                format!("::flatforge::write_scalar::<{p}>(chunk, 0, {val});"),
                            )
                        }
                    };
                    let owned_elem = elem.trim_start_matches('&').to_string();
                    doc(out, &lines);
                    w!(out, "{allow} #[inline] pub fn {fname}(&self) -> ::flatforge::Array<'_, {}> {{ ::flatforge::Array::new(&self.0[{off}..{}]) }}",
                        if elem.starts_with('&') { format!("&{}", owned_elem) } else { elem.clone() },
                        off + n * esize);
                    doc1(out, &format!(" Sets `{}`.", f.name));
                    w!(out, "{set_allow} #[inline] pub fn {set}(&mut self, value: &[{owned_elem}; {n}]) {{ for (chunk, v) in self.0[{off}..{}].chunks_exact_mut({esize}).zip(value) {{ {setter} }} }}", off + n * esize);
                    params.push(format!("{fname}: &[{owned_elem}; {n}]"));
                }
                bt => {
                    let p = prim(bt);
                    let t = self.scalar_type(ns, p, f.ty.enum_id());
                    doc(out, &lines);
                    if f.ty.enum_id().is_some() {
                        w!(out, "{allow} #[inline] pub fn {fname}(&self) -> {t} {{ {t}(::flatforge::read_scalar::<{p}>(&self.0, {off})) }}");
                        doc1(out, &format!(" Sets `{}`.", f.name));
                        w!(out, "{set_allow} #[inline] pub fn {set}(&mut self, value: {t}) {{ ::flatforge::write_scalar::<{p}>(&mut self.0, {off}, value.0); }}");
                    } else {
                        w!(out, "{allow} #[inline] pub fn {fname}(&self) -> {p} {{ ::flatforge::read_scalar::<{p}>(&self.0, {off}) }}");
                        doc1(out, &format!(" Sets `{}`.", f.name));
                        w!(out, "{set_allow} #[inline] pub fn {set}(&mut self, value: {p}) {{ ::flatforge::write_scalar::<{p}>(&mut self.0, {off}, value); }}");
                    }
                    params.push(format!("{fname}: {t}"));
                }
            }
            sets.push(format!("{local}.{set}({fname});"));
        }
        doc1(
            out,
            " A struct with the given field values (padding zeroed).",
        );
        if params.len() > 7 {
            w!(out, "#[allow(clippy::too_many_arguments)]");
        }
        w!(
            out,
            "{}",
            digits_param_allow(names.iter().map(String::as_str))
        );
        w!(
            out,
            "pub fn new({}) -> Self {{ let mut {local} = Self([0; {size}]); {} {local} }}",
            params.join(", "),
            sets.join(" ")
        );
        // Key lookup in a vector of structs.
        if let Some(k) = o.key_field {
            let kf = &o.fields[k as usize];
            let kname = &names[k as usize];
            if kf.ty.is_scalar() {
                let p = prim(kf.ty.base_type);
                let kt = self.scalar_type(ns, p, kf.ty.enum_id());
                // (`Self::` and not `e.`: a key named `into` would call `Into::into`.)
                let cmp = if p.starts_with('f') {
                    format!("::flatforge::key_cmp(&Self::{kname}(e), &key)")
                } else {
                    format!("Self::{kname}(e).cmp(&key)")
                };
                doc1(out, &format!(" Finds the element whose key `{}` equals `key` in a vector sorted by it (binary search).", kf.name));
                w!(
                    out,
                    "pub fn lookup_by_key<'a>(vector: ::flatforge::Vector<'a, &'a {name}>, key: {kt}) -> ::core::option::Option<&'a {name}> {{
                        vector.binary_search_by(|e| {cmp}).ok().and_then(|i| vector.get(i))
                    }}"
                );
            }
        }
        w!(out, "}}");
        // Debug.
        w!(
            out,
            "impl ::core::fmt::Debug for {name} {{ fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{ f.debug_struct({})",
            str_lit(&o.name)
        );
        for (f, fname) in o.fields.iter().zip(names) {
            w!(out, ".field({}, &self.{fname}())", str_lit(&f.name));
        }
        w!(out, ".finish() }} }}");

        if self.opts.object_api {
            self.struct_object(out, id);
        }
    }

    fn struct_object(&self, out: &mut String, id: ObjectId) {
        let o = &self.schema[id];
        let ns = o.namespace.as_str();
        let name = self.obj_names[id.0 as usize].clone();
        let owned = self.obj_derived[id.0 as usize].get(Suffix::T).to_string();
        let names = &self.field_names[id.0 as usize];
        doc1(
            out,
            &format!(" The owned form of `{}` (object API).", o.name),
        );
        // Arrays of more than 32 elements have no `Default`: spell it out then.
        let derive_default = !o
            .fields
            .iter()
            .any(|f| f.ty.base_type == BaseType::Array && f.ty.fixed_length > 32);
        w!(
            out,
            "#[derive(Clone, Copy, Debug, PartialEq{})] {} pub struct {owned} {{",
            if derive_default { ", Default" } else { "" },
            self.serde_attr
        );
        let mut defaults = Vec::new();
        let mut pack_args = Vec::new();
        let mut unpack_fields = Vec::new();
        for (f, fname) in o.fields.iter().zip(names) {
            let mut lines = schema_docs(&f.docs);
            if lines.is_empty() {
                lines.push(format!(" `{}`", f.name));
            }
            doc(out, &lines);
            match f.ty.base_type {
                BaseType::Obj => {
                    let sid = f.ty.object().unwrap_or(ObjectId(0));
                    w!(
                        out,
                        "pub {fname}: {},",
                        self.obj_path_suffixed(ns, sid, Suffix::T)
                    );
                    defaults.push(format!("{fname}: ::core::default::Default::default()"));
                    pack_args.push(format!("&self.{fname}.pack()"));
                    unpack_fields.push(format!("{fname}: self.{fname}().unpack()"));
                }
                BaseType::Array => {
                    let n = f.ty.fixed_length as usize;
                    let et = f.ty.element_type();
                    match et.base_type {
                        BaseType::Obj => {
                            let sid = et.object().unwrap_or(ObjectId(0));
                            w!(
                                out,
                                "{} pub {fname}: [{}; {n}],",
                                self.big_array_attr(ns, n),
                                self.obj_path_suffixed(ns, sid, Suffix::T)
                            );
                            defaults.push(format!("{fname}: ::core::array::from_fn(|_| ::core::default::Default::default())"));
                            pack_args.push(format!("&self.{fname}.map(|x| x.pack())"));
                            unpack_fields.push(format!(
                                "{fname}: ::core::array::from_fn(|i| self.{fname}().get(i).map(|x| x.unpack()).unwrap_or_default())"
                            ));
                        }
                        bt => {
                            let t = self.scalar_type(ns, prim(bt), et.enum_id());
                            w!(
                                out,
                                "{} pub {fname}: [{t}; {n}],",
                                self.big_array_attr(ns, n)
                            );
                            defaults.push(format!("{fname}: ::core::array::from_fn(|_| ::core::default::Default::default())"));
                            pack_args.push(format!("&self.{fname}"));
                            unpack_fields.push(format!(
                                "{fname}: ::core::array::from_fn(|i| self.{fname}().get(i).unwrap_or_default())"
                            ));
                        }
                    }
                }
                bt => {
                    let t = self.scalar_type(ns, prim(bt), f.ty.enum_id());
                    w!(out, "pub {fname}: {t},");
                    defaults.push(format!("{fname}: ::core::default::Default::default()"));
                    pack_args.push(format!("self.{fname}"));
                    unpack_fields.push(format!("{fname}: self.{fname}()"));
                }
            }
        }
        w!(out, "}}");
        if !derive_default {
            w!(
                out,
                "impl ::core::default::Default for {owned} {{ fn default() -> Self {{ Self {{ {} }} }} }}",
                defaults.join(", ")
            );
        }
        w!(
            out,
            "impl {owned} {{ #[doc = \" The struct's stored form.\"] pub fn pack(&self) -> {name} {{ {name}::new({}) }} }}
             impl {name} {{ #[doc = \" The owned form (object API).\"] pub fn unpack(&self) -> {owned} {{ {owned} {{ {} }} }} }}",
            pack_args.join(", "),
            unpack_fields.join(", ")
        );
    }

    // ---------------------------------------------------------------------------------------
    // Tables

    fn table_items(&self, out: &mut String, id: ObjectId) {
        let o = &self.schema[id];
        let ns = o.namespace.as_str();
        let name = self.obj_names[id.0 as usize].clone();
        let names = &self.field_names[id.0 as usize];
        let docs = self.item_docs(&o.docs, &format!("`table {}`", o.name), o.span);
        let fields: Vec<(usize, &Field, Kind)> = o
            .fields
            .iter()
            .enumerate()
            .filter(|(_, f)| !f.deprecated)
            .map(|(i, f)| (i, f, self.field_kind(f)))
            .collect();

        // The view.
        doc(out, &docs);
        doc1(out, "");
        doc1(
            out,
            " A view of the table in a verified buffer: accessors read without checks.",
        );
        w!(
            out,
            "#[derive(Clone, Copy)] pub struct {name}<'a>(::flatforge::Table<'a>);"
        );
        // Verify. A leaf table's checks (no table, union or vector of them below it) are a short
        // run of field checks, inlined where the table is the root of a buffer (a stream's
        // message, say), which then costs no call; its `verify_at` (a vector's elements) stays an
        // ordinary inlining candidate, as are other tables' checks, so that a schema's nesting
        // cannot multiply the code.
        let leaf = fields.iter().all(|(_, _, k)| {
            !matches!(
                k,
                Kind::Table(_)
                    | Kind::Union(_)
                    | Kind::UnionVector(_)
                    | Kind::Vector(Elem::Table(_))
            )
        });
        let checks = self.verify_fields(ns, &fields);
        let body = if checks.is_empty() {
            "v.follow_table(pos).map(|_| ())".to_string()
        } else {
            format!("let mut t = v.follow_table(pos)?; {checks} Ok(())")
        };
        let signature = "(v: &mut ::flatforge::Verifier<'_>, pos: usize) -> ::core::result::Result<(), ::flatforge::Error>";
        w!(
            out,
            "impl ::flatforge::Verify for {name}<'_> {{
                const SIZE: usize = 4; const ALIGN: usize = 4; const TYPE_NAME: &'static str = {};",
            str_lit(&o.name)
        );
        if leaf {
            w!(
                out,
                "#[inline] fn verify_at{signature} {{ <Self as ::flatforge::Verify>::verify_root_at(v, pos) }}
                #[inline(always)] fn verify_root_at{signature} {{ {body} }} }}"
            );
        } else {
            w!(out, "#[inline] fn verify_at{signature} {{ {body} }} }}");
        }
        // Follow.
        w!(
            out,
            "impl<'a> ::flatforge::Follow<'a> for {name}<'a> {{
                #[inline(always)] unsafe fn follow(buf: &'a [u8], pos: usize) -> Self {{"
        );
        safety(
            out,
            "forwarded: `verify_at` accepted `pos` in `buf`, so the table header is valid.",
        );
        w!(
            out,
            "let t = unsafe {{ <::flatforge::Table<'a> as ::flatforge::Follow<'a>>::follow(buf, pos) }}; Self(t) }}
             #[inline(always)] unsafe fn follow_at(buf: &'a [u8], at: *const u8) -> Self {{"
        );
        safety(
            out,
            "forwarded: `verify_at` accepted the position of `at` in `buf`.",
        );
        w!(
            out,
            "let t = unsafe {{ <::flatforge::Table<'a> as ::flatforge::Follow<'a>>::follow_at(buf, at) }}; Self(t) }} }}"
        );
        // Accessors.
        w!(out, "impl<'a> {name}<'a> {{");
        w!(out, "#[doc = \" The untyped table (to read fields the schema does not know, with checks).\"] #[inline] pub fn as_table(&self) -> ::flatforge::Table<'a> {{ self.0 }}");
        self.root_fns(out, &name);
        for &(i, f, k) in &fields {
            self.accessor(out, id, i, f, k, &names[i]);
        }
        // Key lookup, unless the key is deprecated (it has no accessor; flatc's generators skip
        // it too).
        if let Some(ki) = o
            .key_field
            .filter(|&k| !o.fields[usize::from(k)].deprecated)
        {
            let kf = &o.fields[ki as usize];
            let kname = &names[ki as usize];
            let k = self.kind(&kf.ty);
            // The key's accessor as `Self::key(&e)`: the closure gets the element by value, so
            // `e.into()` would call `Into::into` for a key named `into`.
            let key = format!("Self::{kname}(&e)");
            let (kt, cmp) = match k {
                Kind::String => ("&str".to_string(), format!("{key}.cmp(key)")),
                Kind::Scalar { prim: p, enum_id } => {
                    let t = self.scalar_type(ns, p, enum_id);
                    let get = if kf.presence == Presence::Optional {
                        format!("{key}.unwrap_or_default()")
                    } else {
                        key.clone()
                    };
                    if p.starts_with('f') {
                        (t, format!("::flatforge::key_cmp(&{get}, &key)"))
                    } else {
                        (t, format!("{get}.cmp(&key)"))
                    }
                }
                _ => (String::new(), String::new()),
            };
            if !kt.is_empty() {
                let s = if matches!(k, Kind::String) && kf.presence != Presence::Required {
                    // Optional string keys compare absent as "".
                    format!("{key}.unwrap_or_default().cmp(key)")
                } else {
                    cmp
                };
                doc1(out, &format!(" Finds the table whose key `{}` equals `key` in a vector sorted by it (binary search).", kf.name));
                w!(
                    out,
                    "pub fn lookup_by_key(vector: ::flatforge::Vector<'a, {name}<'a>>, key: {kt}) -> ::core::option::Option<{name}<'a>> {{
                        vector.binary_search_by(|e| {s}).ok().and_then(|i| vector.get(i))
                    }}"
                );
                doc1(out, &format!(" Sorts tables written by `b` by their key `{}`, for a vector `lookup_by_key` can search.", kf.name));
                let sort = match k {
                    Kind::String => format!("b.sort_by_string_field(offsets, {ki});"),
                    Kind::Scalar { prim: p, .. } => {
                        let (d, _) = scalar_default(p, &kf.default);
                        format!("b.sort_by_scalar_field::<_, {p}>(offsets, {ki}, {d});")
                    }
                    _ => String::new(),
                };
                w!(
                    out,
                    "pub fn sort_by_key(b: &::flatforge::Builder, offsets: &mut [::flatforge::Offset<{name}<'static>>]) {{ {sort} }}"
                );
            }
        }
        w!(out, "}}");
        // Debug.
        w!(
            out,
            "impl ::core::fmt::Debug for {name}<'_> {{ fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{ f.debug_struct({})",
            str_lit(&o.name)
        );
        for &(i, f, _) in &fields {
            w!(out, ".field({}, &self.{}())", str_lit(&f.name), names[i]);
        }
        w!(out, ".finish() }} }}");

        self.table_builder(out, id, &fields);
        if self.opts.object_api {
            self.table_object(out, id, &fields);
        }
    }

    /// The field checks of a table's `verify_at`, in the order `verify_rank` gives.
    fn verify_fields(&self, ns: &str, fields: &[(usize, &Field, Kind)]) -> String {
        let mut s = String::new();
        let mut fields = fields.to_vec();
        fields.sort_by_key(|&(i, f, k)| (verify_rank(f, k), i));
        for (i, f, k) in fields {
            if f.synthesized {
                continue; // checked with its union
            }
            let req = f.presence == Presence::Required;
            let fname = str_lit(&f.name);
            match k {
                Kind::Scalar { prim: p, .. } => {
                    w!(s, "t.field::<{p}>({i}, {fname}, false)?;");
                }
                Kind::Union(uid) | Kind::UnionVector(uid) => {
                    let ts = f.union_sibling.unwrap_or(0) as usize;
                    let method = match (matches!(k, Kind::Union(_)), self.union_tag(uid)) {
                        (true, "u8") => "union",
                        (false, "u8") => "union_vector",
                        (true, _) => "union_typed",
                        (false, _) => "union_vector_typed",
                    };
                    w!(
                        s,
                        "t.{method}({ts}, {i}, {fname}, {req}, <{}<'_> as ::flatforge::gen_support::Union<'_>>::verify_member)?;",
                        self.enum_path(ns, uid)
                    );
                }
                Kind::FarVector(_) | Kind::Vector64(_) if f.nested_flatbuffer.is_some() => {
                    let nid = f.nested_flatbuffer.unwrap_or(ObjectId(0));
                    let len64 = matches!(k, Kind::Vector64(_));
                    w!(
                        s,
                        "t.far_nested_root::<{}<'_>>({i}, {fname}, {req}, {len64})?;",
                        self.obj_path(ns, nid)
                    );
                }
                _ if f.nested_flatbuffer.is_some() => {
                    let nid = f.nested_flatbuffer.unwrap_or(ObjectId(0));
                    w!(
                        s,
                        "t.nested_root::<{}<'_>>({i}, {fname}, {req})?;",
                        self.obj_path(ns, nid)
                    );
                }
                k => {
                    w!(
                        s,
                        "t.field::<{}>({i}, {fname}, {req})?;",
                        self.wire_type(ns, k, "'_")
                    );
                }
            }
        }
        s
    }

    /// Root functions of every table. Size prefixes are 32-bit, or 64-bit in a schema with 64-bit
    /// offsets (as C++'s `FlatBufferBuilder64` writes them).
    fn root_fns(&self, out: &mut String, name: &str) {
        if snake(bare(name)) == "root" {
            w!(out, "#[allow(clippy::self_named_constructors)]");
        }
        let (bits, with, at) = if self.size_prefix64 {
            (64, "with_size_prefixed64", "follow(buf, 8)")
        } else {
            (32, "with_size_prefixed", "")
        };
        w!(
            out,
            "#[doc = \" Verifies `buf` (default limits) and returns its root as this table.\"]
             pub fn root(buf: &'a [u8]) -> ::core::result::Result<Self, ::flatforge::Error> {{ ::flatforge::root(buf) }}
             #[doc = \" Verifies `buf` with `opts` (limits, file identifier, size prefix) and returns its root.\"]
             pub fn root_with_options(buf: &'a [u8], opts: &::flatforge::VerifierOptions) -> ::core::result::Result<Self, ::flatforge::Error> {{ ::flatforge::root_with_options(buf, opts) }}
             #[doc = \" Verifies `buf`, which starts with a {bits}-bit size prefix, and returns its root.\"]
             pub fn size_prefixed_root(buf: &'a [u8]) -> ::core::result::Result<Self, ::flatforge::Error> {{
                ::flatforge::root_with_options(buf, &::flatforge::VerifierOptions::default().{with}(true))
             }}
             #[doc = \" The root of `buf` as this table, without verification.\"]
             #[doc = \"\"] #[doc = \" # Safety\"]
             #[doc = \" `buf` must pass [`{name}::root`].\"]
             pub unsafe fn root_unchecked(buf: &'a [u8]) -> Self {{"
        );
        safety(out, "forwarded to the caller.");
        w!(
            out,
            "unsafe {{ ::flatforge::root_unchecked(buf, false) }} }}
             #[doc = \" The root of a size-prefixed `buf` as this table, without verification.\"]
             #[doc = \"\"] #[doc = \" # Safety\"]
             #[doc = \" `buf` must pass [`{name}::size_prefixed_root`].\"]
             pub unsafe fn size_prefixed_root_unchecked(buf: &'a [u8]) -> Self {{"
        );
        safety(out, "forwarded to the caller.");
        if at.is_empty() {
            w!(
                out,
                "unsafe {{ ::flatforge::root_unchecked(buf, true) }} }}"
            );
        } else {
            w!(
                out,
                "unsafe {{ <Self as ::flatforge::Follow<'a>>::{at} }} }}"
            );
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn accessor(&self, out: &mut String, id: ObjectId, i: usize, f: &Field, k: Kind, fname: &str) {
        let ns = self.schema[id].namespace.as_str();
        let mut lines = schema_docs(&f.docs);
        if lines.is_empty() {
            lines.push(format!(" `{}`", f.name));
        }
        let allow = method_allow(fname);
        let vt = self.view_type(ns, k, "'a");
        let get = |ty: &str| format!("self.0.get_unchecked::<{ty}>({i})");
        let why = format!("`verify_at` checked slot {i} (`{}`) as this type.", f.name);
        match k {
            Kind::Scalar { prim: p, enum_id } => {
                let wrap = enum_id.is_some();
                if f.presence == Presence::Optional {
                    doc(out, &lines);
                    w!(out, "{allow} #[inline] pub fn {fname}(&self) -> ::core::option::Option<{vt}> {{");
                    safety(out, &why);
                    if wrap {
                        w!(out, "let v = unsafe {{ {} }}; v.map({vt}) }}", get(p));
                    } else {
                        w!(out, "unsafe {{ {} }} }}", get(p));
                    }
                } else {
                    let (d, _) = scalar_default(p, &f.default);
                    doc(out, &lines);
                    w!(out, "{allow} #[inline] pub fn {fname}(&self) -> {vt} {{");
                    safety(out, &why);
                    if wrap {
                        w!(
                            out,
                            "let v = unsafe {{ {} }}; {vt}(v.unwrap_or({d})) }}",
                            get(p)
                        );
                    } else {
                        w!(out, "let v = unsafe {{ {} }}; v.unwrap_or({d}) }}", get(p));
                    }
                }
            }
            Kind::Union(uid) => {
                let ts = f.union_sibling.unwrap_or(0) as usize;
                let up = self.enum_path(ns, uid);
                doc(out, &lines);
                if f.presence == Presence::Required {
                    w!(out, "{allow} #[inline] pub fn {fname}(&self) -> {vt} {{");
                    safety(
                        out,
                        &format!(
                            "`verify_at` checked slots {ts} and {i} as a required `{}` union.",
                            self.schema[uid].name
                        ),
                    );
                    w!(out, "unsafe {{ ::flatforge::gen_support::union_unchecked::<{up}<'a>>(self.0, {ts}, {i}).unwrap_unchecked() }} }}");
                } else {
                    w!(out, "{allow} #[inline] pub fn {fname}(&self) -> ::core::option::Option<{vt}> {{");
                    safety(
                        out,
                        &format!(
                            "`verify_at` checked slots {ts} and {i} as a `{}` union.",
                            self.schema[uid].name
                        ),
                    );
                    w!(out, "unsafe {{ ::flatforge::gen_support::union_unchecked::<{up}<'a>>(self.0, {ts}, {i}) }} }}");
                }
                // Typed shortcuts per member.
                let en = &self.schema[uid];
                let members: Vec<(usize, &str)> = en
                    .values
                    .iter()
                    .enumerate()
                    .filter(|(_, v)| v.union_type.is_some())
                    .map(|(j, _)| (j, self.variants[uid.0 as usize][j].as_str()))
                    .collect();
                let get = if f.presence == Presence::Required {
                    format!("Some(self.{fname}())")
                } else {
                    format!("self.{fname}()")
                };
                for &(j, variant) in &members {
                    let mt = en.values[j]
                        .union_type
                        .map(|t| self.kind(&t))
                        .unwrap_or(Kind::String);
                    let mname =
                        self.field_method(id, i, format!("{}_as_{}", bare(fname), snake(variant)));
                    let mvt = self.view_type(ns, mt, "'a");
                    doc1(out, &format!(" `{}` if it holds a `{variant}`.", f.name));
                    w!(out, "{}", method_allow(&mname));
                    if members.len() == 1 {
                        w!(out, "#[inline] pub fn {mname}(&self) -> ::core::option::Option<{mvt}> {{ {get}.map(|{up}::{variant}(x)| x) }}");
                    } else {
                        w!(out, "#[inline] pub fn {mname}(&self) -> ::core::option::Option<{mvt}> {{ match {get} {{ Some({up}::{variant}(x)) => Some(x), _ => None }} }}");
                    }
                }
            }
            Kind::UnionVector(uid) => {
                let ts = f.union_sibling.unwrap_or(0) as usize;
                let up = self.enum_path(ns, uid);
                doc(out, &lines);
                let uname = &self.schema[uid].name;
                if f.presence == Presence::Required {
                    // A plain value, as for other required fields.
                    w!(out, "{allow} #[inline] pub fn {fname}(&self) -> {vt} {{");
                    safety(
                        out,
                        &format!("`verify_at` checked slots {ts} and {i} as a required vector of `{uname}` unions: both are present."),
                    );
                    w!(out, "unsafe {{ ::flatforge::gen_support::union_vector_unchecked::<{up}<'a>>(self.0, {ts}, {i}).unwrap_unchecked() }} }}");
                } else {
                    w!(
                        out,
                        "{allow} #[inline] pub fn {fname}(&self) -> ::core::option::Option<{vt}> {{"
                    );
                    safety(
                        out,
                        &format!("`verify_at` checked slots {ts} and {i} as a vector of `{uname}` unions."),
                    );
                    w!(out, "unsafe {{ ::flatforge::gen_support::union_vector_unchecked::<{up}<'a>>(self.0, {ts}, {i}) }} }}");
                }
            }
            Kind::FarString | Kind::FarVector(_) | Kind::Vector64(_) => {
                let wt = self.wire_type(ns, k, "'a");
                doc(out, &lines);
                if f.presence == Presence::Required {
                    w!(out, "{allow} #[inline] pub fn {fname}(&self) -> {vt} {{");
                    safety(
                        out,
                        &format!(
                            "`verify_at` checked slot {i} (`{}`) as a required field of this type.",
                            f.name
                        ),
                    );
                    w!(
                        out,
                        "let v = unsafe {{ {}.unwrap_unchecked() }}; v.0 }}",
                        get(&wt)
                    );
                } else {
                    let (ret, map) = match &f.default {
                        DefaultValue::String(d) => {
                            (vt.clone(), format!("map_or({}, |v| v.0)", str_lit(d)))
                        }
                        DefaultValue::EmptyVector => (
                            vt.clone(),
                            "map_or_else(::flatforge::gen_support::empty_vector, |v| v.0)"
                                .to_string(),
                        ),
                        _ => (
                            format!("::core::option::Option<{vt}>"),
                            "map(|v| v.0)".to_string(),
                        ),
                    };
                    w!(out, "{allow} #[inline] pub fn {fname}(&self) -> {ret} {{");
                    safety(out, &why);
                    w!(out, "let v = unsafe {{ {} }}; v.{map} }}", get(&wt));
                }
                self.nested_accessor(out, id, i, f, fname);
            }
            k => {
                let gt = self.view_type(ns, k, "'a");
                let has_default = matches!(
                    f.default,
                    DefaultValue::String(_) | DefaultValue::EmptyVector
                );
                doc(out, &lines);
                if f.presence == Presence::Required {
                    w!(out, "{allow} #[inline] pub fn {fname}(&self) -> {vt} {{");
                    safety(
                        out,
                        &format!(
                            "`verify_at` checked slot {i} (`{}`) as a required field of this type.",
                            f.name
                        ),
                    );
                    w!(out, "unsafe {{ {}.unwrap_unchecked() }} }}", get(&gt));
                } else if has_default {
                    let d = match &f.default {
                        DefaultValue::String(s) => str_lit(s),
                        _ => "::flatforge::gen_support::empty_vector()".to_string(),
                    };
                    w!(out, "{allow} #[inline] pub fn {fname}(&self) -> {vt} {{");
                    safety(out, &why);
                    if matches!(f.default, DefaultValue::String(_)) {
                        w!(
                            out,
                            "let v = unsafe {{ {} }}; v.unwrap_or({d}) }}",
                            get(&gt)
                        );
                    } else {
                        w!(out, "let v = unsafe {{ {} }}; v.unwrap_or_else(::flatforge::gen_support::empty_vector) }}", get(&gt));
                    }
                } else {
                    w!(out, "{allow} #[inline] pub fn {fname}(&self) -> ::core::option::Option<{vt}> {{");
                    safety(out, &why);
                    w!(out, "unsafe {{ {} }} }}", get(&gt));
                }
                self.nested_accessor(out, id, i, f, fname);
            }
        }
    }

    /// For a `[ubyte]` field holding a nested flatbuffer, the accessor of its root table.
    fn nested_accessor(&self, out: &mut String, id: ObjectId, i: usize, f: &Field, fname: &str) {
        let ns = self.schema[id].namespace.as_str();
        let Some(nid) = f.nested_flatbuffer else {
            return;
        };
        let has_default = matches!(
            f.default,
            DefaultValue::String(_) | DefaultValue::EmptyVector
        );
        let np = self.obj_path(ns, nid);
        let nname = self.field_method(id, i, format!("{}_nested_root", bare(fname)));
        doc1(out, &format!(" The flatbuffer nested in `{}`, as its root table `{}` (verified with this table).", f.name, self.schema[nid].name));
        // A required field is always there; one with a default reads as empty when absent; other
        // fields may be absent.
        let (ret, bytes, none) = if f.presence == Presence::Required {
            (
                format!("{np}<'a>"),
                format!("self.{fname}().as_slice()"),
                "",
            )
        } else if has_default {
            let ret = format!("::core::option::Option<{np}<'a>>");
            let bytes = format!("self.{fname}().as_slice()");
            (ret, bytes, "if bytes.is_empty() { return None; }")
        } else {
            let ret = format!("::core::option::Option<{np}<'a>>");
            (ret, format!("self.{fname}()?.as_slice()"), "")
        };
        let read = "unsafe { ::flatforge::root_unchecked(bytes, false) }";
        let tail = if f.presence == Presence::Required {
            format!("{read} }}")
        } else {
            format!("let root = {read}; Some(root) }}")
        };
        w!(
            out,
            "{} #[inline] pub fn {nname}(&self) -> {ret} {{ let bytes = {bytes}; {none}",
            method_allow(&nname)
        );
        safety(
            out,
            &format!(
                "`verify_at` verified the bytes of `{}` as a buffer whose root is this table.",
                f.name
            ),
        );
        out.push_str(&tail);
    }

    /// `...Args`, `create` and the typestate builder.
    fn table_builder(&self, out: &mut String, id: ObjectId, fields: &[(usize, &Field, Kind)]) {
        let o = &self.schema[id];
        let ns = o.namespace.as_str();
        let name = &self.obj_names[id.0 as usize];
        let names = &self.field_names[id.0 as usize];
        let derived = &self.obj_derived[id.0 as usize];
        let args = derived.get(Suffix::Args);
        let builder = derived.get(Suffix::Builder);
        // Fields of Args: the union type fields are folded into their union.
        let arg_fields: Vec<(usize, &Field, Kind)> = fields
            .iter()
            .copied()
            .filter(|(_, f, _)| !f.synthesized)
            .collect();
        let required: Vec<(usize, &Field, Kind)> = arg_fields
            .iter()
            .copied()
            .filter(|(_, f, k)| {
                f.presence == Presence::Required && !matches!(k, Kind::Scalar { .. })
            })
            .collect();

        // Args.
        doc1(
            out,
            &format!(
                " The fields of a `{}` table for [`{name}::create`].",
                o.name
            ),
        );
        if !required.is_empty() {
            doc1(out, "");
            doc1(
                out,
                &format!(" Required fields have no default: start from [`{args}::new`]."),
            );
        }
        let mut all_zero = required.is_empty();
        let mut defaults = Vec::new();
        let args_zero = required.is_empty()
            && arg_fields.iter().all(|&(_, f, k)| match k {
                Kind::Scalar { prim: p, .. } => {
                    f.presence == Presence::Optional || scalar_default(p, &f.default).1
                }
                _ => true,
            });
        w!(
            out,
            "#[derive(Clone, Copy, Debug{})] pub struct {args} {{",
            if args_zero { ", Default" } else { "" }
        );
        for &(i, f, k) in &arg_fields {
            let fname = &names[i];
            let mut lines = schema_docs(&f.docs);
            if lines.is_empty() {
                lines.push(format!(" `{}`", f.name));
            }
            doc(out, &lines);
            let t = self.offset_type(ns, k);
            match k {
                Kind::Scalar { prim: p, enum_id } => {
                    if f.presence == Presence::Optional {
                        w!(out, "pub {fname}: ::core::option::Option<{t}>,");
                        defaults.push(format!("{fname}: None"));
                    } else {
                        let (d, z) = scalar_default(p, &f.default);
                        all_zero &= z;
                        w!(out, "pub {fname}: {t},");
                        if enum_id.is_some() {
                            defaults.push(format!("{fname}: {t}({d})"));
                        } else {
                            defaults.push(format!("{fname}: {d}"));
                        }
                    }
                }
                _ if f.presence == Presence::Required => {
                    w!(out, "pub {fname}: {t},");
                    defaults.push(fname.to_string());
                }
                _ => {
                    w!(out, "pub {fname}: ::core::option::Option<{t}>,");
                    defaults.push(format!("{fname}: None"));
                }
            }
        }
        w!(out, "}}");
        let req_params: Vec<String> = required
            .iter()
            .map(|&(i, _, k)| format!("{}: {}", names[i], self.offset_type(ns, k)))
            .collect();
        if required.is_empty() {
            debug_assert_eq!(all_zero, args_zero);
            if !args_zero {
                w!(out, "impl ::core::default::Default for {args} {{ fn default() -> Self {{ Self {{ {} }} }} }}", defaults.join(", "));
            }
        } else {
            if req_params.len() > 7 {
                w!(out, "impl {args} {{ #[doc = \" The required fields; the others take their defaults.\"] #[allow(clippy::too_many_arguments)]");
            } else {
                w!(out, "impl {args} {{ #[doc = \" The required fields; the others take their defaults.\"]");
            }
            let req_names = required.iter().map(|&(i, _, _)| names[i].as_str());
            w!(out, "{}", digits_param_allow(req_names));
            w!(
                out,
                "pub fn new({}) -> Self {{ Self {{ {} }} }} }}",
                req_params.join(", "),
                defaults.join(", ")
            );
        }

        // create: fields by decreasing alignment, each class in reverse id order (as flatc).
        let mut order: Vec<(usize, &Field, Kind, usize, usize)> = fields
            .iter()
            .map(|&(i, f, k)| {
                let (size, align) = self.inline_size_align(k);
                (i, f, k, size, align)
            })
            .collect();
        order.sort_by(|a, b| b.4.cmp(&a.4).then(b.0.cmp(&a.0)));
        let max_size: usize = order.iter().map(|x| x.3).sum();
        let max_align = order.iter().map(|x| x.4).max().unwrap_or(1);
        let vt = 4 + 2 * o.fields.len();
        w!(
            out,
            "impl {name}<'_> {{
                #[doc = \" Writes the table in one pass (fields largest first, vtable on the stack) and returns its offset.\"]
                #[inline]
                pub fn create(b: &mut ::flatforge::Builder, args: &{args}) -> ::core::result::Result<::flatforge::Offset<{name}<'static>>, ::flatforge::BuildError> {{"
        );
        // A required union given as NONE would write a value without a type: refused before the
        // table is opened.
        for (f, fname) in o.fields.iter().zip(names) {
            if f.presence == Presence::Required && matches!(self.kind(&f.ty), Kind::Union(_)) {
                w!(
                    out,
                    "if args.{fname}.ty().0 == 0 {{ return Err(::flatforge::BuildError::MissingRequired {{ table: {:?}, field: {:?} }}); }}",
                    o.full_name.as_str(),
                    f.name.as_str()
                );
            }
        }
        if order.is_empty() {
            w!(out, "let _ = args; let t = b.table_writer::<{vt}>(0, 1)?;");
        } else {
            w!(
                out,
                "let mut t = b.table_writer::<{vt}>({max_size}, {max_align})?;"
            );
        }
        for (i, f, k, _, _) in &order {
            let i = *i;
            if f.synthesized {
                // A union's type: written with its value.
                let vi = f.union_sibling.unwrap_or(0) as usize;
                let vname = &names[vi];
                let vf = &o.fields[vi];
                let tag = match k {
                    Kind::Scalar { prim, .. } => *prim,
                    _ => "u8",
                };
                if matches!(self.kind(&vf.ty), Kind::UnionVector(_)) {
                    if vf.presence == Presence::Required {
                        w!(out, "t.add_offset({i}, args.{vname}.types());");
                    } else {
                        w!(
                            out,
                            "if let Some(u) = args.{vname} {{ t.add_offset({i}, u.types()); }}"
                        );
                    }
                } else if vf.presence == Presence::Required {
                    w!(out, "t.add_scalar::<{tag}>({i}, args.{vname}.ty().0, 0);");
                } else {
                    w!(
                        out,
                        "if let Some(u) = args.{vname} {{ t.add_scalar::<{tag}>({i}, u.ty().0, 0); }}"
                    );
                }
                continue;
            }
            let fname = &names[i];
            let req = f.presence == Presence::Required;
            match *k {
                Kind::Scalar { prim: p, enum_id } => {
                    let val = if enum_id.is_some() { ".0" } else { "" };
                    if f.presence == Presence::Optional {
                        w!(out, "if let Some(v) = args.{fname} {{ t.add_scalar_always::<{p}>({i}, v{val}); }}");
                    } else if f.key {
                        // flatc always writes key fields, defaults included.
                        w!(out, "t.add_scalar_always::<{p}>({i}, args.{fname}{val});");
                    } else if p.starts_with('f')
                        && !matches!(f.default, DefaultValue::Float(d) if d.is_nan())
                    {
                        // `add_scalar` compares with `==`, which would drop the sign of a zero
                        // (-0.0 == 0.0): a value whose bits differ from the default's is written
                        // (one compare of integers), one equal to it only if defaults are forced.
                        // (A NaN default takes the `add_scalar` below: it leaves out every NaN.)
                        let (d, _) = scalar_default(p, &f.default);
                        w!(
                            out,
                            "{{ let v = args.{fname}; let d: {p} = {d};
                                if v.to_bits() != d.to_bits() {{ t.add_scalar_always::<{p}>({i}, v); }}
                                else {{ t.add_scalar::<{p}>({i}, v, d); }} }}"
                        );
                    } else {
                        let (d, _) = scalar_default(p, &f.default);
                        w!(out, "t.add_scalar::<{p}>({i}, args.{fname}{val}, {d});");
                    }
                }
                Kind::Struct(_) => {
                    if req {
                        w!(out, "t.add_struct({i}, &args.{fname});");
                    } else {
                        w!(
                            out,
                            "if let Some(v) = &args.{fname} {{ t.add_struct({i}, v); }}"
                        );
                    }
                }
                Kind::Union(_) => {
                    if req {
                        w!(out, "t.add_offset({i}, args.{fname}.offset());");
                    } else {
                        w!(
                            out,
                            "if let Some(u) = args.{fname} {{ t.add_offset({i}, u.offset()); }}"
                        );
                    }
                }
                Kind::UnionVector(_) => {
                    if req {
                        w!(out, "t.add_offset({i}, args.{fname}.values());");
                    } else {
                        w!(
                            out,
                            "if let Some(u) = args.{fname} {{ t.add_offset({i}, u.values()); }}"
                        );
                    }
                }
                Kind::FarString | Kind::FarVector(_) | Kind::Vector64(_) => {
                    if req {
                        w!(out, "t.add_offset64({i}, args.{fname});");
                    } else {
                        w!(
                            out,
                            "if let Some(v) = args.{fname} {{ t.add_offset64({i}, v); }}"
                        );
                    }
                }
                _ => {
                    if req {
                        w!(out, "t.add_offset({i}, args.{fname});");
                    } else {
                        w!(
                            out,
                            "if let Some(v) = args.{fname} {{ t.add_offset({i}, v); }}"
                        );
                    }
                }
            }
        }
        w!(out, "Ok(t.finish()?.cast()) }}");
        // builder()
        // One per required field, unique: `a_b` and `aB`, or `x` and `X`, would both be `R_A_B`.
        let mut const_scope = Scope::default();
        let consts: Vec<String> = required
            .iter()
            .map(|&(i, _, _)| const_scope.take(format!("R_{}", screaming(bare(&names[i])))))
            .collect();
        let unset: Vec<&str> = consts.iter().map(|_| "false").collect();
        let gen_unset = if consts.is_empty() {
            String::new()
        } else {
            format!(", {}", unset.join(", "))
        };
        doc1(
            out,
            &format!(
                " A builder for a `{}` table; its `finish` needs every required field set.",
                o.name
            ),
        );
        w!(out, "pub fn builder(b: &mut ::flatforge::Builder) -> {builder}<'_{gen_unset}> {{ {builder}::new(b) }} }}");

        // The typestate builder.
        let const_params: Vec<String> = consts.iter().map(|c| format!("const {c}: bool")).collect();
        let decl = if consts.is_empty() {
            String::new()
        } else {
            format!(", {}", const_params.join(", "))
        };
        let uses = if consts.is_empty() {
            String::new()
        } else {
            format!(", {}", consts.join(", "))
        };
        doc1(
            out,
            &format!(
                " Builds a `{}` table field by field; made by [`{name}::builder`].",
                o.name
            ),
        );
        if !consts.is_empty() {
            doc1(out, "");
            doc1(out, " Each `R_...` parameter records whether a required field is set: `finish` needs them all, each through a trait implemented where it is set (`...Has...`), so a missing required field is a compile error that names it.");
        }
        w!(
            out,
            "#[derive(Debug)] pub struct {builder}<'b{decl}> {{ b: &'b mut ::flatforge::Builder, args: {args} }}"
        );
        let init = if required.is_empty() {
            format!("{args}::default()")
        } else {
            let ph: Vec<String> = required
                .iter()
                .map(|&(_, _, k)| match k {
                    Kind::Struct(_) => "::core::default::Default::default()".to_string(),
                    Kind::Union(_) => format!("{}::NONE", self.enum_path_suffixed(ns, match k { Kind::Union(u) => u, _ => EnumId(0) }, Suffix::Offset)),
                    Kind::UnionVector(_) => "::flatforge::gen_support::UnionVectorOffset::new(::flatforge::Offset::new(0), ::flatforge::Offset::new(0))".to_string(),
                    Kind::FarString | Kind::FarVector(_) | Kind::Vector64(_) => "::flatforge::Offset64::new(0)".to_string(),
                    _ => "::flatforge::Offset::new(0)".to_string(),
                })
                .collect();
            format!("{args}::new({})", ph.join(", "))
        };
        w!(
            out,
            "impl<'b> {builder}<'b{gen_unset}> {{
                #[doc = \" A builder writing into `b`, with every field at its default.\"]
                pub fn new(b: &'b mut ::flatforge::Builder) -> Self {{ Self {{ b, args: {init} }} }} }}"
        );
        w!(out, "impl<'b{decl}> {builder}<'b{uses}> {{");
        for &(i, f, k) in &arg_fields {
            let fname = &names[i];
            let t = self.offset_type(ns, k);
            let is_req = f.presence == Presence::Required && !matches!(k, Kind::Scalar { .. });
            doc1(out, &format!(" Sets `{}`.", f.name));
            w!(out, "{}", method_allow(fname));
            if is_req {
                let pos = required.iter().position(|r| r.0 == i).unwrap_or(0);
                let after: Vec<&str> = consts
                    .iter()
                    .enumerate()
                    .map(|(j, c)| if j == pos { "true" } else { c.as_str() })
                    .collect();
                // (The other fields come from `self.args`, unless this one is the only field.)
                let rest = if arg_fields.len() > 1 {
                    ", ..self.args"
                } else {
                    ""
                };
                // (Shorthand for a field named `value`, as clippy wants.)
                let init = if fname == "value" {
                    "value".to_string()
                } else {
                    format!("{fname}: value")
                };
                w!(
                    out,
                    "pub fn {fname}(self, value: {t}) -> {builder}<'b, {}> {{ {builder} {{ b: self.b, args: {args} {{ {init}{rest} }} }} }}",
                    after.join(", ")
                );
            } else {
                let v = match k {
                    Kind::Scalar { .. } if f.presence != Presence::Optional => "value",
                    _ => "Some(value)",
                };
                w!(out, "pub fn {fname}(mut self, value: {t}) -> Self {{ self.args.{fname} = {v}; self }}");
            }
        }
        // `finish`, once every required field is set: with a trait per required field, so that
        // the error names the missing ones (rustc's own would be "no method named `finish`").
        let traits = &self.required_traits[id.0 as usize];
        let bounds: Vec<&str> = required
            .iter()
            .filter_map(|&(i, _, _)| traits.get(&i).map(String::as_str))
            .collect();
        let where_clause = if bounds.is_empty() {
            String::new()
        } else {
            format!("where Self: {}", bounds.join(" + "))
        };
        w!(
            out,
            "#[doc = \" Writes the table and returns its offset.\"]
            pub fn finish(self) -> ::core::result::Result<::flatforge::Offset<{name}<'static>>, ::flatforge::BuildError> {where_clause} {{ {name}::create(self.b, &self.args) }} }}"
        );
        for (pos, &(i, f, _)) in required.iter().enumerate() {
            let Some(tr) = traits.get(&i) else { continue };
            let fname = &names[i];
            let others: Vec<&str> = consts
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != pos)
                .map(|(_, c)| c.as_str())
                .collect();
            let decl: Vec<String> = others.iter().map(|c| format!("const {c}: bool")).collect();
            let state: Vec<&str> = consts
                .iter()
                .enumerate()
                .map(|(j, c)| if j == pos { "true" } else { c.as_str() })
                .collect();
            doc1(
                out,
                &format!(
                    " Implemented by the states of [`{builder}`] in which the required field `{}` is set: its `finish` needs it.",
                    f.name
                ),
            );
            w!(
                out,
                "#[diagnostic::on_unimplemented(message = {}, label = {})] pub trait {tr} {{}}
                impl<{}> {tr} for {builder}<'_, {}> {{}}",
                str_lit(&format!(
                    "field `{}` of `{}` is required: call `.{}(...)` before `.finish()`",
                    f.name, o.name, fname
                )),
                str_lit(&format!("`{}` is not set", f.name)),
                decl.join(", "),
                state.join(", ")
            );
        }
    }

    /// The expression (an `Offset64`) that writes `v`, the owned vector of a field `f` of kind `k`
    /// with a 64-bit offset, into the builder's 64-bit region: aligned to the field's
    /// `force_align`, or to 8 for a nested flatbuffer (whose bytes a 32-bit length leaves 4-aligned).
    fn far_vector_create(&self, f: &Field, k: Kind) -> String {
        let (e, suffix) = match k {
            Kind::Vector64(e) => (e, "64"),
            Kind::FarVector(e) => (e, ""),
            _ => unreachable!("only called for vectors behind 64-bit offsets"),
        };
        let (create, size, align) = match e {
            // Not of enums: `check_supported` rejects them.
            Elem::Scalar { prim: p, .. } => (
                format!("w.create_vector{suffix}(v)?"),
                prim_size(p),
                prim_size(p),
            ),
            Elem::Struct(sid) => {
                let o = &self.schema[sid];
                (
                    format!("{{ let s: ::flatforge::gen_support::Vec<_> = v.iter().map(|x| x.pack()).collect(); w.create_vector{suffix}_of_structs(&s)? }}"),
                    o.bytesize as usize,
                    o.minalign as usize,
                )
            }
            Elem::String | Elem::Table(_) => {
                unreachable!("`check_supported` rejects 64-bit vectors of strings and tables")
            }
        };
        let force = if f.nested_flatbuffer.is_some() && suffix.is_empty() {
            Some(8)
        } else {
            f.attributes
                .int("force_align")
                .and_then(|a| usize::try_from(a).ok())
                .filter(|&a| a > align)
        };
        match force {
            Some(a) => format!(
                "{{ let mut w = b.far()?; w.force_vector_alignment(v.len(), {size}, {a})?; {create} }}"
            ),
            None => format!("{{ let mut w = b.far()?; {create} }}"),
        }
    }

    /// Whether table `to` can be reached from table `from` through required table fields (`from`
    /// itself counts).
    fn required_path(&self, from: ObjectId, to: ObjectId) -> bool {
        let mut seen = vec![false; self.schema.objects.len()];
        let mut stack = vec![from];
        while let Some(id) = stack.pop() {
            if id == to {
                return true;
            }
            if std::mem::replace(&mut seen[id.0 as usize], true) {
                continue;
            }
            for f in &self.schema[id].fields {
                if f.presence == Presence::Required && !f.deprecated {
                    if let (BaseType::Obj, Some(next)) = (f.ty.base_type, f.ty.object()) {
                        if !self.schema[next].is_struct {
                            stack.push(next);
                        }
                    }
                }
            }
        }
        false
    }

    /// `...T`: the owned table, `pack`, `unpack`, `unpack_into`.
    fn table_object(&self, out: &mut String, id: ObjectId, fields: &[(usize, &Field, Kind)]) {
        let o = &self.schema[id];
        let ns = o.namespace.as_str();
        let name = &self.obj_names[id.0 as usize];
        let names = &self.field_names[id.0 as usize];
        let derived = &self.obj_derived[id.0 as usize];
        let owned = derived.get(Suffix::T);
        let args = derived.get(Suffix::Args);
        let fields: Vec<(usize, &Field, Kind)> = fields
            .iter()
            .copied()
            .filter(|(_, f, _)| !f.synthesized)
            .collect();
        let mut defaults = Vec::new();
        doc1(out, &format!(" The owned form of a `{}` table (object API): `pack` writes it, `unpack` reads it.", o.name));
        let zero_default = fields.iter().all(|&(_, f, k)| match k {
            Kind::Scalar { prim: p, .. } => {
                f.presence == Presence::Optional || scalar_default(p, &f.default).1
            }
            Kind::String => !matches!(f.default, DefaultValue::String(_)),
            _ => true,
        });
        w!(
            out,
            "#[derive(Clone, Debug, PartialEq{})] {} {} pub struct {owned} {{",
            if zero_default { ", Default" } else { "" },
            self.serde_attr,
            self.serde_default()
        );
        let mut pack_stmts = String::new();
        // Whether a local for a field is not snake case (`f__x` for a field `_`, whose name is
        // `_x`): the pack functions then allow it.
        let mut odd_locals = false;
        // Whether a required field leads back to this table through required tables (see below):
        // `unpack_into` then calls itself on every path, as no valid buffer holds such a table.
        let mut endless = false;
        let mut arg_inits = Vec::new();
        let mut unpack = String::new();
        let mut all_zero = true;
        // A table that reaches objects behind 64-bit offsets packs in two passes: `pack_far` writes
        // those objects (`far_stmts`), `pack_near` the rest, taking their offsets back in the same
        // order (the `pack_expr`s below then read `far`).
        let far_table = self.far_objects[id.0 as usize];
        let mut far_stmts = String::new();
        for &(i, f, k) in &fields {
            let fname = &names[i];
            let mut lines = schema_docs(&f.docs);
            if lines.is_empty() {
                lines.push(format!(" `{}`", f.name));
            }
            doc(out, &lines);
            let req = f.presence == Presence::Required;
            let has_default = matches!(
                f.default,
                DefaultValue::String(_) | DefaultValue::EmptyVector
            );
            let plain = req || has_default;
            let (t, pack_expr, unpack_stmt): (String, String, String) = match k {
                Kind::Scalar { prim: p, enum_id } => {
                    let st = self.scalar_type(ns, p, enum_id);
                    if f.presence == Presence::Optional {
                        defaults.push(format!("{fname}: None"));
                        (
                            format!("::core::option::Option<{st}>"),
                            format!("self.{fname}"),
                            format!("t.{fname} = self.{fname}();"),
                        )
                    } else {
                        let (d, z) = scalar_default(p, &f.default);
                        all_zero &= z;
                        defaults.push(if enum_id.is_some() {
                            format!("{fname}: {st}({d})")
                        } else {
                            format!("{fname}: {d}")
                        });
                        (
                            st,
                            format!("self.{fname}"),
                            format!("t.{fname} = self.{fname}();"),
                        )
                    }
                }
                Kind::Struct(sid) => {
                    let st = self.obj_path_suffixed(ns, sid, Suffix::T);
                    if req {
                        defaults.push(format!("{fname}: ::core::default::Default::default()"));
                        (
                            st,
                            format!("self.{fname}.pack()"),
                            format!("t.{fname} = self.{fname}().unpack();"),
                        )
                    } else {
                        defaults.push(format!("{fname}: None"));
                        (
                            format!("::core::option::Option<{st}>"),
                            format!("self.{fname}.as_ref().map(|x| x.pack())"),
                            format!("t.{fname} = self.{fname}().map(|x| x.unpack());"),
                        )
                    }
                }
                Kind::String | Kind::FarString => {
                    let far = matches!(k, Kind::FarString);
                    let create = if f.shared && !far {
                        "create_shared_string"
                    } else {
                        "create_string"
                    };
                    if plain {
                        let d = match &f.default {
                            DefaultValue::String(s) => {
                                all_zero = false;
                                format!("::flatforge::gen_support::String::from({})", str_lit(s))
                            }
                            _ => "::flatforge::gen_support::String::new()".to_string(),
                        };
                        defaults.push(format!("{fname}: {d}"));
                        let pe = if far {
                            // Written in `pack_far`; `pack_near` takes the offset.
                            w!(
                                far_stmts,
                                "far.push(b.far()?.create_string(&self.{fname})?);"
                            );
                            if req {
                                "far.take()".to_string()
                            } else {
                                "Some(far.take())".to_string()
                            }
                        } else if req {
                            format!("b.{create}(&self.{fname})?")
                        } else {
                            format!("Some(b.{create}(&self.{fname})?)")
                        };
                        ("::flatforge::gen_support::String".to_string(), pe, format!("::flatforge::gen_support::assign_str(&mut t.{fname}, self.{fname}());"))
                    } else {
                        defaults.push(format!("{fname}: None"));
                        let pe = if far {
                            w!(far_stmts, "if let Some(s) = &self.{fname} {{ far.push(b.far()?.create_string(s)?); }}");
                            format!("self.{fname}.as_ref().map(|_| far.take())")
                        } else {
                            format!("match &self.{fname} {{ Some(s) => Some(b.{create}(s)?), None => None }}")
                        };
                        (
                            "::core::option::Option<::flatforge::gen_support::String>".to_string(),
                            pe,
                            format!("::flatforge::gen_support::assign_opt_str(&mut t.{fname}, self.{fname}());"),
                        )
                    }
                }
                Kind::Table(tid) => {
                    let tt = self.obj_path_suffixed(ns, tid, Suffix::T);
                    let far = self.far_objects[tid.0 as usize];
                    let pack = if far { "pack_near(b, far)" } else { "pack(b)" };
                    // Required, but its table leads back here through required tables: no
                    // buffer can hold such a chain, and an owned value could not either (its
                    // `Box`es would never end), so it is an `Option` as if optional, whose `None`
                    // `pack` refuses.
                    let endless_field = req && self.required_path(tid, id);
                    endless |= endless_field;
                    if req && !endless_field {
                        if far {
                            w!(far_stmts, "self.{fname}.pack_far(b, far)?;");
                        }
                        defaults.push(format!("{fname}: ::core::default::Default::default()"));
                        (
                            format!("::flatforge::gen_support::Box<{tt}>"),
                            format!("self.{fname}.{pack}?"),
                            format!("self.{fname}().unpack_into(&mut t.{fname});"),
                        )
                    } else {
                        if far {
                            w!(
                                far_stmts,
                                "if let Some(x) = &self.{fname} {{ x.pack_far(b, far)?; }}"
                            );
                        }
                        defaults.push(format!("{fname}: None"));
                        let (pack_expr, unpack_stmt) = if endless_field {
                            (
                                format!(
                                    "match &self.{fname} {{ Some(x) => x.{pack}?, None => return Err(::flatforge::BuildError::MissingRequired {{ table: {:?}, field: {:?} }}) }}",
                                    o.full_name.as_str(),
                                    f.name.as_str()
                                ),
                                format!("self.{fname}().unpack_into(t.{fname}.get_or_insert_with(::core::default::Default::default));"),
                            )
                        } else {
                            (
                                format!("match &self.{fname} {{ Some(x) => Some(x.{pack}?), None => None }}"),
                                format!("match self.{fname}() {{ Some(x) => x.unpack_into(t.{fname}.get_or_insert_with(::core::default::Default::default)), None => t.{fname} = None }}"),
                            )
                        };
                        (
                            format!("::core::option::Option<::flatforge::gen_support::Box<{tt}>>"),
                            pack_expr,
                            unpack_stmt,
                        )
                    }
                }
                Kind::Union(uid) => {
                    let ut = self.enum_path_suffixed(ns, uid, Suffix::T);
                    defaults.push(format!("{fname}: {ut}::None"));
                    let pack = if self.far_unions[uid.0 as usize] {
                        w!(far_stmts, "self.{fname}.pack_far(b, far)?;");
                        "pack_near(b, far)"
                    } else {
                        "pack(b)"
                    };
                    let pe = if req {
                        format!(
                            "self.{fname}.{pack}?.unwrap_or({}::NONE)",
                            self.enum_path_suffixed(ns, uid, Suffix::Offset)
                        )
                    } else {
                        format!("self.{fname}.{pack}?")
                    };
                    let us = if req {
                        format!("t.{fname} = self.{fname}().unpack();")
                    } else {
                        format!("t.{fname} = self.{fname}().map_or({ut}::None, |u| u.unpack());")
                    };
                    (ut, pe, us)
                }
                Kind::UnionVector(uid) => {
                    let ut = self.enum_path_suffixed(ns, uid, Suffix::T);
                    let vt = format!("::flatforge::gen_support::Vec<{ut}>");
                    let far = self.far_unions[uid.0 as usize];
                    let (pack, extra) = if far {
                        ("pack_vector_near", ", far")
                    } else {
                        ("pack_vector", "")
                    };
                    if req {
                        if far {
                            w!(far_stmts, "{ut}::pack_vector_far(b, &self.{fname}, far)?;");
                        }
                        defaults.push(format!("{fname}: ::flatforge::gen_support::Vec::new()"));
                        (vt, format!("{ut}::{pack}(b, &self.{fname}{extra})?"), format!("t.{fname} = self.{fname}().iter().map(|u| u.map_or({ut}::None, |u| u.unpack())).collect();"))
                    } else {
                        if far {
                            w!(far_stmts, "if let Some(v) = &self.{fname} {{ {ut}::pack_vector_far(b, v, far)?; }}");
                        }
                        defaults.push(format!("{fname}: None"));
                        (
                            format!("::core::option::Option<{vt}>"),
                            format!("match &self.{fname} {{ Some(v) => Some({ut}::{pack}(b, v{extra})?), None => None }}"),
                            format!("t.{fname} = self.{fname}().map(|v| v.iter().map(|u| u.map_or({ut}::None, |u| u.unpack())).collect());"),
                        )
                    }
                }
                Kind::Vector(e) | Kind::FarVector(e) | Kind::Vector64(e) => {
                    let (et, pack_v, unpack_v, copy) = match e {
                        Elem::Scalar { prim: p, enum_id } => {
                            let st = self.scalar_type(ns, p, enum_id);
                            let pv = if enum_id.is_some() {
                                format!("{st}::create_vector(b, v)?")
                            } else {
                                "b.create_vector(v)?".to_string()
                            };
                            (st, pv, "v.iter()".to_string(), true)
                        }
                        Elem::Struct(sid) => {
                            let st = self.obj_path_suffixed(ns, sid, Suffix::T);
                            (
                                st,
                                "{ let s: ::flatforge::gen_support::Vec<_> = v.iter().map(|x| x.pack()).collect(); b.create_vector_of_structs(&s)? }".to_string(),
                                "v.iter().map(|x| x.unpack())".to_string(),
                                true,
                            )
                        }
                        Elem::String => (
                            "::flatforge::gen_support::String".to_string(),
                            "{ let mut s = ::flatforge::gen_support::Vec::with_capacity(v.len()); for x in v { s.push(b.create_string(x)?); } b.create_vector_of_offsets(&s)? }".to_string(),
                            "v.iter().map(::flatforge::gen_support::ToString::to_string)".to_string(),
                            true,
                        ),
                        Elem::Table(tid) => {
                            let far = self.far_objects[tid.0 as usize];
                            if far {
                                if plain {
                                    w!(far_stmts, "for x in self.{fname}.iter() {{ x.pack_far(b, far)?; }}");
                                } else {
                                    w!(far_stmts, "if let Some(v) = &self.{fname} {{ for x in v {{ x.pack_far(b, far)?; }} }}");
                                }
                            }
                            let pack = if far { "pack_near(b, far)" } else { "pack(b)" };
                            (
                                self.obj_path_suffixed(ns, tid, Suffix::T),
                                format!("{{ let mut s = ::flatforge::gen_support::Vec::with_capacity(v.len()); for x in v {{ s.push(x.{pack}?); }} b.create_vector_of_offsets(&s)? }}"),
                                String::new(),
                                false,
                            )
                        }
                    };
                    let vt = format!("::flatforge::gen_support::Vec<{et}>");
                    let nested = if f.nested_flatbuffer.is_some() {
                        "b.create_nested_flatbuffer(v, 8)?".to_string()
                    } else {
                        pack_v.clone()
                    };
                    let far_create = match k {
                        Kind::FarVector(_) | Kind::Vector64(_) => {
                            Some(self.far_vector_create(f, k))
                        }
                        _ => None,
                    };
                    let (pe, us) = if let Some(create) = far_create {
                        // Written in `pack_far`; `pack_near` takes the offset.
                        let (pe, us) = if plain {
                            w!(
                                far_stmts,
                                "{{ let v = &self.{fname}; far.push({create}); }}"
                            );
                            defaults.push(format!("{fname}: ::flatforge::gen_support::Vec::new()"));
                            let pe = if req {
                                "far.take()".to_string()
                            } else {
                                "Some(far.take())".to_string()
                            };
                            let us = if copy {
                                format!("{{ let v = self.{fname}(); ::flatforge::gen_support::assign_vec(&mut t.{fname}, {unpack_v}); }}")
                            } else {
                                format!("::flatforge::gen_support::assign_vec_with(&mut t.{fname}, self.{fname}().iter(), |x, y| x.unpack_into(y));")
                            };
                            (pe, us)
                        } else {
                            w!(
                                far_stmts,
                                "if let Some(v) = &self.{fname} {{ far.push({create}); }}"
                            );
                            defaults.push(format!("{fname}: None"));
                            let pe = format!("self.{fname}.as_ref().map(|_| far.take())");
                            let us = format!("match self.{fname}() {{ Some(v) => ::flatforge::gen_support::assign_vec(t.{fname}.get_or_insert_with(::flatforge::gen_support::Vec::new), {unpack_v}), None => t.{fname} = None }}");
                            (pe, us)
                        };
                        (pe, us)
                    } else if plain {
                        defaults.push(format!("{fname}: ::flatforge::gen_support::Vec::new()"));
                        let pe = if req {
                            format!("{{ let v = &self.{fname}; {nested} }}")
                        } else {
                            format!("{{ let v = &self.{fname}; Some({nested}) }}")
                        };
                        let us = if copy {
                            format!("{{ let v = self.{fname}(); ::flatforge::gen_support::assign_vec(&mut t.{fname}, {unpack_v}); }}")
                        } else {
                            format!("::flatforge::gen_support::assign_vec_with(&mut t.{fname}, self.{fname}().iter(), |x, y| x.unpack_into(y));")
                        };
                        (pe, us)
                    } else {
                        defaults.push(format!("{fname}: None"));
                        let pe = format!(
                            "match &self.{fname} {{ Some(v) => Some({nested}), None => None }}"
                        );
                        let us = if copy {
                            format!("match self.{fname}() {{ Some(v) => ::flatforge::gen_support::assign_vec(t.{fname}.get_or_insert_with(::flatforge::gen_support::Vec::new), {unpack_v}), None => t.{fname} = None }}")
                        } else {
                            format!("match self.{fname}() {{ Some(v) => ::flatforge::gen_support::assign_vec_with(t.{fname}.get_or_insert_with(::flatforge::gen_support::Vec::new), v.iter(), |x, y| x.unpack_into(y)), None => t.{fname} = None }}")
                        };
                        (pe, us)
                    };
                    let t = if plain {
                        vt
                    } else {
                        format!("::core::option::Option<{vt}>")
                    };
                    (t, pe, us)
                }
            };
            w!(out, "pub {fname}: {t},");
            // Children are written first, in field order.
            if matches!(k, Kind::Scalar { .. } | Kind::Struct(_)) {
                arg_inits.push(format!("{fname}: {pack_expr}"));
            } else {
                let local = bare_local(fname);
                odd_locals |= local.contains("__");
                w!(pack_stmts, "let {local} = {pack_expr};");
                arg_inits.push(format!("{fname}: {local}"));
            }
            w!(unpack, "{unpack_stmt}");
        }
        w!(out, "}}");
        debug_assert_eq!(zero_default, all_zero);
        if !zero_default {
            w!(out, "impl ::core::default::Default for {owned} {{ fn default() -> Self {{ Self {{ {} }} }} }}", defaults.join(", "));
        }
        let pack_body = if fields.is_empty() {
            format!("{name}::create(b, &{args} {{}})")
        } else {
            format!(
                "{pack_stmts} {name}::create(b, &{args} {{ {} }})",
                arg_inits.join(", ")
            )
        };
        if odd_locals {
            w!(out, "#[allow(non_snake_case)]");
        }
        if far_table {
            w!(
                out,
                "impl {owned} {{
                    #[doc = \" Writes the table and everything it refers to; returns its offset. The objects behind\"]
                    #[doc = \" 64-bit offsets (of this table and of the tables it holds) go first, into the builder's\"]
                    #[doc = \" 64-bit region ([`pack_far`](Self::pack_far)), then the rest ([`pack_near`](Self::pack_near)).\"]
                    pub fn pack(&self, b: &mut ::flatforge::Builder) -> ::core::result::Result<::flatforge::Offset<{name}<'static>>, ::flatforge::BuildError> {{
                        let mut far = ::flatforge::gen_support::FarOffsets::new();
                        self.pack_far(b, &mut far)?;
                        self.pack_near(b, &mut far)
                    }}
                    #[doc = \" The first pass of [`pack`](Self::pack): writes the objects behind 64-bit offsets and records\"]
                    #[doc = \" their offsets in `far` (an error once the builder holds other data).\"]
                    pub fn pack_far(&self, b: &mut ::flatforge::Builder, far: &mut ::flatforge::gen_support::FarOffsets) -> ::core::result::Result<(), ::flatforge::BuildError> {{ {far_stmts} Ok(()) }}
                    #[doc = \" The second pass of [`pack`](Self::pack): writes the rest, with the offsets `pack_far` recorded.\"]
                    pub fn pack_near(&self, b: &mut ::flatforge::Builder, far: &mut ::flatforge::gen_support::FarOffsets) -> ::core::result::Result<::flatforge::Offset<{name}<'static>>, ::flatforge::BuildError> {{ {pack_body} }} }}"
            );
        } else {
            w!(
                out,
                "impl {owned} {{ #[doc = \" Writes the table and everything it refers to; returns its offset.\"]
                    pub fn pack(&self, b: &mut ::flatforge::Builder) -> ::core::result::Result<::flatforge::Offset<{name}<'static>>, ::flatforge::BuildError> {{ {pack_body} }} }}"
            );
        }
        let unpack_into_body = if fields.is_empty() {
            "let _ = t;".to_string()
        } else {
            unpack
        };
        if endless {
            w!(out, "#[allow(unconditional_recursion)]");
        }
        w!(
            out,
            "impl {name}<'_> {{
                #[doc = \" The owned form of the table (object API).\"]
                pub fn unpack(&self) -> {owned} {{ let mut t = {owned}::default(); self.unpack_into(&mut t); t }}
                #[doc = \" Reads the table into `t`, reusing its allocations (strings, vectors, boxes).\"]
                pub fn unpack_into(&self, t: &mut {owned}) {{ {unpack_into_body} }} }}"
        );
    }

    // ---------------------------------------------------------------------------------------
    // Root types and services

    /// The functions and constants of the root types of namespace `ns` (see [`root_stems`]).
    fn root_items(&self, out: &mut String, ns: &str) {
        let mut done = std::collections::HashSet::new();
        for file in &self.schema.files {
            let Some(id) = file.root_table else { continue };
            let o = &self.schema[id];
            if o.namespace != ns || !done.insert(id) {
                continue;
            }
            let sn = &self.root_stems[&id];
            let name = &self.obj_names[id.0 as usize];
            let up = sn.to_uppercase();
            // A stem that took a `_` makes names like `finish_monster__buffer`.
            let allow = if sn.ends_with('_') {
                "#[allow(non_snake_case)]"
            } else {
                ""
            };
            // The identifier is the caller's to check, as with flatc's code.
            let ident_note = if file.file_identifier.is_some() {
                format!(
                    "#[doc = \"\"] #[doc = \" The file identifier is not checked: [`{sn}_buffer_has_identifier`] checks it.\"]"
                )
            } else {
                String::new()
            };
            w!(
                out,
                "#[doc = \" Verifies `buf` and returns its root `{0}` (the schema's `root_type`).\"] {ident_note}
                 {allow}pub fn root_as_{sn}(buf: &[u8]) -> ::core::result::Result<{name}<'_>, ::flatforge::Error> {{ {name}::root(buf) }}
                 #[doc = \" Verifies the size-prefixed `buf` and returns its root `{0}`.\"]
                 {allow}pub fn size_prefixed_root_as_{sn}(buf: &[u8]) -> ::core::result::Result<{name}<'_>, ::flatforge::Error> {{ {name}::size_prefixed_root(buf) }}
                 #[doc = \" The root `{0}` of `buf`, without verification.\"] #[doc = \"\"] #[doc = \" # Safety\"] #[doc = \" `buf` must pass [`root_as_{sn}`].\"]
                 {allow}pub unsafe fn root_as_{sn}_unchecked(buf: &[u8]) -> {name}<'_> {{",
                o.name
            );
            safety(out, "forwarded to the caller.");
            w!(
                out,
                "unsafe {{ {name}::root_unchecked(buf) }} }}
                 #[doc = \" The size-prefixed root `{0}` of `buf`, without verification.\"] #[doc = \"\"] #[doc = \" # Safety\"] #[doc = \" `buf` must pass [`size_prefixed_root_as_{sn}`].\"]
                 {allow}pub unsafe fn size_prefixed_root_as_{sn}_unchecked(buf: &[u8]) -> {name}<'_> {{",
                o.name
            );
            safety(out, "forwarded to the caller.");
            w!(
                out,
                "unsafe {{ {name}::size_prefixed_root_unchecked(buf) }} }}"
            );
            let ident = match &file.file_identifier {
                Some(id) => {
                    let bytes: Vec<String> = id.bytes().map(|b| b.to_string()).collect();
                    w!(
                        out,
                        "#[doc = \" The file identifier of `{0}` buffers: `{1}`.\"] pub const {up}_IDENTIFIER: [u8; 4] = [{2}];
                         #[doc = \" Whether `buf` carries the `{0}` file identifier.\"]
                         {allow}pub fn {sn}_buffer_has_identifier(buf: &[u8]) -> bool {{ ::flatforge::buffer_has_identifier(buf, &{up}_IDENTIFIER, false) }}
                         #[doc = \" Whether the size-prefixed `buf` carries the `{0}` file identifier.\"]",
                        o.name,
                        id.escape_default(),
                        bytes.join(", ")
                    );
                    if self.size_prefix64 {
                        w!(out, "{allow}pub fn {sn}_size_prefixed_buffer_has_identifier(buf: &[u8]) -> bool {{ buf.get(12..16) == Some(&{up}_IDENTIFIER[..]) }}");
                    } else {
                        w!(out, "{allow}pub fn {sn}_size_prefixed_buffer_has_identifier(buf: &[u8]) -> bool {{ ::flatforge::buffer_has_identifier(buf, &{up}_IDENTIFIER, true) }}");
                    }
                    format!("Some(&{up}_IDENTIFIER)")
                }
                None => "None".to_string(),
            };
            if let Some(ext) = &file.file_extension {
                w!(
                    out,
                    "#[doc = \" The file extension of `{}` buffers.\"] pub const {up}_EXTENSION: &str = {};",
                    o.name,
                    str_lit(ext)
                );
            }
            w!(
                out,
                "#[doc = \" Finishes the buffer with `root` as its root `{0}` (and the file identifier, if the schema has one).\"]
                 {allow}pub fn finish_{sn}_buffer<'b>(b: &'b mut ::flatforge::Builder, root: ::flatforge::Offset<{name}<'static>>) -> ::core::result::Result<&'b [u8], ::flatforge::BuildError> {{ b.finish(root, {ident}) }}
                 #[doc = \" Finishes the buffer with `root` as its root `{0}`, preceded by its size ({bits} bits).\"]
                 {allow}pub fn finish_size_prefixed_{sn}_buffer<'b>(b: &'b mut ::flatforge::Builder, root: ::flatforge::Offset<{name}<'static>>) -> ::core::result::Result<&'b [u8], ::flatforge::BuildError> {{ b.{finish}(root, {ident}) }}",
                o.name,
                bits = if self.size_prefix64 { 64 } else { 32 },
                finish = if self.size_prefix64 { "finish_size_prefixed64" } else { "finish_size_prefixed" },
            );
        }
    }

    fn service(&self, out: &mut String, i: usize) {
        let s = &self.schema.services[i];
        let ns = s.namespace.as_str();
        let name = &self.service_names[i];
        let docs = self.item_docs(&s.docs, &format!("`rpc_service {}`", s.name), s.span);
        doc(out, &docs);
        doc1(out, "");
        doc1(out, " Implement it to serve the calls: each method reads the request and builds the response in `response`.");
        if s.calls.iter().any(|c| streaming(c) != Streaming::None) {
            doc1(out, "");
            doc1(out, " A method streaming from the client takes its requests as an iterator; one streaming from the server builds");
            doc1(out, " each response in `response` and passes its root to `send`, which finishes it, sends it and clears");
            doc1(out, " `response` for the next.");
        }
        w!(
            out,
            "pub trait {name} {{
                #[doc = \" The service's fully qualified name.\"] const NAME: &'static str = {};
                #[doc = \" What a method returns when it fails.\"] type Error;",
            str_lit(&s.full_name)
        );
        let mut scope = Scope::with_reserved(&["NAME", "Error"]);
        for call in &s.calls {
            let m = scope.take(snake(&call.name));
            let mut lines = schema_docs(&call.docs);
            if !lines.is_empty() {
                lines.push(String::new());
            }
            lines.push(format!(
                " `{}({}): {}`{} at `{}`.",
                call.name,
                self.schema[call.request].name,
                self.schema[call.response].name,
                call.attributes
                    .string("streaming")
                    .map(|k| format!(", streaming: {k}"))
                    .unwrap_or_default(),
                self.location(call.span)
            ));
            doc(out, &lines);
            let kind = streaming(call);
            let request = self.obj_path(ns, call.request);
            let request = if matches!(kind, Streaming::Client | Streaming::Bidi) {
                format!("requests: &mut dyn ::core::iter::Iterator<Item = {request}<'_>>")
            } else {
                format!("request: {request}<'_>")
            };
            let response = self.obj_path(ns, call.response);
            if matches!(kind, Streaming::Server | Streaming::Bidi) {
                w!(
                    out,
                    "fn {m}(&mut self, {request}, response: &mut ::flatforge::Builder, send: &mut ::flatforge::SendResponse<'_, {response}<'static>, Self::Error>) -> ::core::result::Result<(), Self::Error>;"
                );
            } else {
                w!(
                    out,
                    "fn {m}(&mut self, {request}, response: &mut ::flatforge::Builder) -> ::core::result::Result<::flatforge::Offset<{response}<'static>>, Self::Error>;"
                );
            }
        }
        w!(out, "}}");
    }
}

/// Which side of an rpc call sends a stream of messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Streaming {
    None,
    Client,
    Server,
    Bidi,
}

/// The call's `streaming` attribute; as flatc's gRPC generators read it, any value but `client`,
/// `server` and `bidi` (`none`, or one flatc accepts without meaning) is a plain call.
fn streaming(call: &RpcCall) -> Streaming {
    match call.attributes.string("streaming") {
        Some("client") => Streaming::Client,
        Some("server") => Streaming::Server,
        Some("bidi") => Streaming::Bidi,
        _ => Streaming::None,
    }
}

/// The order in which a table's verifier checks its fields: fields stored in the table first, then
/// strings and vectors of scalars or structs, then what recurses (tables, unions, vectors of tables
/// or strings, nested flatbuffers), each group in slot order. Checking what recurses last means the
/// table's own state (its position, vtable and size) is no longer needed while a nested object is
/// checked, so it need not be kept in registers (or spilled) meanwhile.
fn verify_rank(f: &Field, k: Kind) -> u8 {
    match k {
        _ if f.nested_flatbuffer.is_some() => 2,
        Kind::Scalar { .. } | Kind::Struct(_) => 0,
        Kind::String
        | Kind::FarString
        | Kind::FarVector(_)
        | Kind::Vector64(_)
        | Kind::Vector(Elem::Scalar { .. } | Elem::Struct(_)) => 1,
        Kind::Table(_)
        | Kind::Union(_)
        | Kind::UnionVector(_)
        | Kind::Vector(Elem::String | Elem::Table(_)) => 2,
    }
}

/// Methods of standard traits that clippy's `should_implement_trait` looks for. (`clone`,
/// `default`, `eq` and `hash` are not here: fields so named are renamed, on tables and structs.)
const TRAIT_METHODS: &[&str] = &[
    "add",
    "as_mut",
    "as_ref",
    "bitand",
    "bitor",
    "bitxor",
    "borrow",
    "borrow_mut",
    "cmp",
    "deref",
    "deref_mut",
    "div",
    "drop",
    "from_iter",
    "from_str",
    "index",
    "index_mut",
    "into_iter",
    "mul",
    "neg",
    "next",
    "not",
    "rem",
    "shl",
    "shr",
    "sub",
];

/// The lints to allow on a method named after a schema field. `clippy::wrong_self_convention` when
/// the name starts like one of the conventions that lint checks (`as_`, `from_`, `into_`, `is_`,
/// `to_`): each wants `self` taken in a certain way, and generated methods take it as their kind
/// needs (`&self` for accessors of `Copy` views and structs, `self` for builder setters). Clippy
/// checks it only outside the crate's exported API, such as in a private module that includes the
/// code. `clippy::len_without_is_empty` for a field named `len`: its accessor is no length;
/// `clippy::should_implement_trait` for one named like a standard trait's method (`as_ref`).
/// `non_snake_case` for a name derived from a field's that begins or ends with an underscore
/// (`set__x` for a field `_`, whose name is `_x`; `pack__as_foo` for a union `pack`, whose name
/// is `pack_`): derived the same way as every other, not squeezed into a name another field's
/// method may want.
fn method_allow(method: &str) -> String {
    const PREFIXES: [&str; 5] = ["as_", "from_", "into_", "is_", "to_"];
    let n = bare(method);
    let mut allow = Vec::new();
    if PREFIXES.iter().any(|p| n.starts_with(p)) {
        allow.push("clippy::wrong_self_convention");
    }
    if n == "len" {
        allow.push("clippy::len_without_is_empty");
    }
    if TRAIT_METHODS.contains(&n) {
        allow.push("clippy::should_implement_trait");
    }
    if n.trim_matches('_').contains("__") {
        allow.push("non_snake_case");
    }
    if allow.is_empty() {
        String::new()
    } else {
        format!("#[allow({})]", allow.join(", "))
    }
}

/// `#[allow(clippy::just_underscores_and_digits)]` for a function whose parameters are named after
/// fields, when one is such a name (`_1`, for a schema field `_1`).
fn digits_param_allow<'n>(mut names: impl Iterator<Item = &'n str>) -> &'static str {
    if names.any(|n| n.chars().all(|c| c == '_' || c.is_ascii_digit())) {
        "#[allow(clippy::just_underscores_and_digits)]"
    } else {
        ""
    }
}

/// A local variable name for a field (keywords stay raw; `self_` stays as is).
fn bare_local(fname: &str) -> String {
    format!("f_{}", bare(fname))
}
