//! Random schemas for differential tests (the schema compiler against flatc, code generation
//! against rustc and clippy): enums (every integer type, bit
//! flags, implicit and explicit values), structs (nested structs, fixed-size arrays,
//! `force_align`), tables (defaults of every kind, optional scalars, `required`, `key`, `id`,
//! `deprecated`, `hash`, `nested_flatbuffer`, `flexbuffer`, vectors, unions, vectors of unions),
//! unions (aliases, struct and string members, underlying types), namespaces, user attributes,
//! root types, file identifiers and rpc services (calls of every streaming kind), declared in a
//! random order, in one file or split over up to four that include each other (chains, cycles,
//! diamonds, a file included twice, a subdirectory, a library found through an include directory:
//! see [`schema_files`]). References may name a type declared further
//! down, in the same file or another; namespaces may differ only in case (`Game`, `game`), and
//! types in different namespaces may share a name.
//!
//! Most choices are valid; a few percent are mistakes that flatc rejects (a duplicate name, an
//! enum value out of range or going backwards, a default that does not fit, ids with a gap, a
//! struct holding a string, `required` on a scalar, an enum or a union used before its
//! declaration, an included file with no tokens, ...), so that about 60% of the schemas are
//! invalid somewhere. A test needs flatc's verdict (or the front end's) to tell, not the
//! generator's opinion of validity. (Never a struct that contains itself: flatc accepts one after
//! other fields, with a meaningless layout, where flatforge rejects it on purpose.)

use crate::SplitMix64;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const INTS: &[(&str, i128, i128)] = &[
    ("byte", -128, 127),
    ("ubyte", 0, 255),
    ("short", -32768, 32767),
    ("ushort", 0, 65535),
    ("int", -2147483648, 2147483647),
    ("uint", 0, 4294967295),
    ("long", -9223372036854775808, 9223372036854775807),
    ("ulong", 0, 18446744073709551615),
    ("int8", -128, 127),
    ("uint16", 0, 65535),
    ("int32", -2147483648, 2147483647),
    ("uint64", 0, 18446744073709551615),
];

const FLOATS: &[&str] = &["float", "double", "float32", "float64"];

/// The kinds of declaration, as `type_ns` and the declaration order name them.
const ENUM: u8 = 0;
const STRUCT: u8 = 1;
const TABLE: u8 = 2;
const UNION: u8 = 3;

/// Type names that Rust or the generated code may trip on: keywords, prelude and `core` names,
/// the runtime's types.
const TYPE_NAMES: &[&str] = &[
    "Option",
    "Result",
    "String",
    "Vec",
    "Box",
    "Some",
    "None",
    "Ok",
    "Err",
    "Default",
    "Debug",
    "Clone",
    "Copy",
    "Send",
    "Sized",
    "Drop",
    "Fn",
    "Into",
    "From",
    "Iterator",
    "Builder",
    "Table",
    "Offset",
    "Vector",
    "Verifier",
    "Struct",
    "Scalar",
    "Error",
    "BuildError",
    "Type",
    "T",
    "Args",
    "type",
    "match",
    "fn",
    "mod",
    "crate",
    "super",
    "self",
    "move",
    "ref",
    "loop",
    "where",
    "impl",
    "trait",
    "dyn",
    "async",
    "await",
    "try",
    "yield",
    "abstract",
    "final",
    "flatforge",
    "core",
    "std",
    "alloc",
    "serde",
];

/// Field names of the same kind, and the names of generated methods.
const FIELD_NAMES: &[&str] = &[
    "type",
    "self",
    "Self",
    "match",
    "fn",
    "mod",
    "crate",
    "super",
    "async",
    "await",
    "try",
    "dyn",
    "box",
    "yield",
    "loop",
    "ref",
    "move",
    "impl",
    "trait",
    "use",
    "pub",
    "static",
    "const",
    "extern",
    "unsafe",
    "where",
    "new",
    "create",
    "builder",
    "finish",
    "pack",
    "unpack",
    "unpack_into",
    "verify",
    "default",
    "args",
    "b",
    "t",
    "value",
    "key",
    "len",
    "get",
    "iter",
    "as_table",
    "root",
    "clone",
    "fmt",
    "into",
    "from",
    "_",
    "__",
    "r",
    "f0_type",
    "is_none",
    "into",
    "try_into",
    "as_ref",
    "next",
    "_1",
    "a_b",
    "aB",
    "X",
    "x",
];

/// Enum value names of the same kind.
const VALUE_NAMES: &[&str] = &[
    "None", "NONE", "Some", "Self", "self", "type", "Default", "MIN", "MAX", "ENUM_MIN",
    "ENUM_MAX", "Ok", "Err", "match", "value", "_", "A", "a", "fn", "crate", "super",
];

struct EnumDecl {
    /// Its index among the enums (declared in any order).
    index: usize,
    values: Vec<String>,
    bit_flags: bool,
}

/// One schema being generated.
struct Gen {
    r: SplitMix64,
    /// The enums, structs, tables and unions declared so far, in flatc's order (the included
    /// files first), by index.
    enums: Vec<EnumDecl>,
    structs: Vec<usize>,
    tables: Vec<usize>,
    unions: Vec<usize>,
    /// Whether `attribute "priority";` is declared.
    priority: bool,
    /// The names of the enums, structs, tables and unions to declare, by index (some are Rust
    /// keywords, prelude names or names the generated code uses, to try the code generator's
    /// escaping).
    table_names: Vec<String>,
    struct_names: Vec<String>,
    enum_names: Vec<String>,
    union_names: Vec<String>,
    /// The namespaces (the first may be empty, the root one; two may differ only in case), each
    /// type's (by kind and index), and the current one: references to a type of another
    /// namespace are qualified.
    namespaces: Vec<String>,
    type_ns: Vec<((u8, usize), usize)>,
    ns: usize,
}

impl Gen {
    fn below(&mut self, n: usize) -> usize {
        self.r.below(n)
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// Table `i` (a name no table has when `i` is past them all).
    fn table(&self, i: usize) -> String {
        self.table_names
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("Thing{i}"))
    }

    /// Struct `i` (a name no struct has when `i` is past them all).
    fn struct_name(&self, i: usize) -> String {
        self.struct_names
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("Vec{i}"))
    }

    /// `name`, the name of the type of `kind` (`ENUM`, ...) and index `i`, as written in the
    /// current namespace: qualified if the type lies in another one.
    fn qualify(&self, kind: u8, i: usize, name: String) -> String {
        match self.type_ns.iter().find(|(k, _)| *k == (kind, i)) {
            Some(&(_, ns)) if ns != self.ns && !self.namespaces[ns].is_empty() => {
                format!("{}.{name}", self.namespaces[ns])
            }
            _ => name,
        }
    }

    /// A reference to table `i`.
    fn table_ref(&self, i: usize) -> String {
        self.qualify(TABLE, i, self.table(i))
    }

    /// A reference to struct `i`.
    fn struct_ref(&self, i: usize) -> String {
        self.qualify(STRUCT, i, self.struct_name(i))
    }

    /// A reference to union `i`.
    fn union_ref(&self, i: usize) -> String {
        self.qualify(UNION, i, self.union_names[i].clone())
    }

    /// A reference to enum `i` (declared or not).
    fn enum_index_ref(&self, i: usize) -> String {
        self.qualify(ENUM, i, self.enum_names[i].clone())
    }

    /// The first of `count` indices not in `declared` (a type declared further down), if any.
    fn undeclared(declared: impl Iterator<Item = usize> + Clone, count: usize) -> Option<usize> {
        (0..count).find(|i| !declared.clone().any(|d| d == *i))
    }

    /// A reference to a struct declared further down, if there is one.
    fn later_struct(&self) -> Option<String> {
        Self::undeclared(self.structs.iter().copied(), self.struct_names.len())
            .map(|i| self.struct_ref(i))
    }

    /// A reference to an enum declared further down, if there is one.
    fn later_enum(&self) -> Option<String> {
        Self::undeclared(self.enums.iter().map(|e| e.index), self.enum_names.len())
            .map(|i| self.enum_index_ref(i))
    }

    /// A reference to a union declared further down, if there is one.
    fn later_union(&self) -> Option<String> {
        Self::undeclared(self.unions.iter().copied(), self.union_names.len())
            .map(|i| self.union_ref(i))
    }

    /// A reference to a table below `n` (past them all: a name no table has).
    fn table_below(&mut self, n: usize) -> String {
        let i = self.below(n);
        self.table_ref(i)
    }

    /// A reference to a struct below `n`.
    fn struct_below(&mut self, n: usize) -> String {
        let i = self.below(n);
        self.struct_ref(i)
    }

    /// A reference to one of the structs declared so far.
    fn declared_struct(&mut self) -> String {
        let i = self.below(self.structs.len());
        self.struct_ref(self.structs[i])
    }

    /// A reference to the `e`th enum declared so far.
    fn enum_ref(&self, e: usize) -> String {
        self.enum_index_ref(self.enums[e].index)
    }

    /// A name for the `i`th of a scope (field, enum value): usually `plain{i}`, now and then one
    /// of `hostile` not used yet in the scope.
    fn scoped_name(
        &mut self,
        plain: &str,
        i: usize,
        hostile: &[&str],
        used: &mut Vec<String>,
    ) -> String {
        let name = if self.chance(12) {
            self.pick(hostile).to_string()
        } else {
            format!("{plain}{i}")
        };
        let name = if used.contains(&name) {
            format!("{plain}{i}")
        } else {
            name
        };
        used.push(name.clone());
        name
    }

    /// A mistake, at the given rate in tenths of a percent.
    fn mistake(&mut self, per_mille: usize) -> bool {
        self.below(1000) < per_mille
    }

    fn docs(&mut self, out: &mut String, indent: &str) {
        if self.chance(15) {
            let n = self.below(1000);
            writeln!(out, "{indent}/// Doc {n} with `code`.").unwrap();
        }
    }

    fn int_text(&mut self, lo: i128, hi: i128) -> String {
        let v = match self.below(4) {
            0 => lo,
            1 => hi,
            _ => lo + (self.r.next_u64() as i128).rem_euclid(hi - lo + 1),
        };
        // A value one past the range now and then.
        let v = if self.mistake(30) {
            if self.chance(50) {
                hi + 1
            } else {
                lo - 1
            }
        } else {
            v
        };
        if v >= 0 && self.chance(20) {
            format!("0x{v:X}")
        } else {
            v.to_string()
        }
    }

    fn float_text(&mut self) -> String {
        match self.below(9) {
            0 => "nan".into(),
            1 => "inf".into(),
            2 => "-inf".into(),
            3 => "+inf".into(),
            4 => "0x1.8p3".into(),
            5 => "1e10".into(),
            6 => "-0.5".into(),
            7 => (self.below(200) as i64 - 100).to_string(),
            _ => format!("{}.{}", self.below(100), self.below(1000)),
        }
    }

    fn enum_decl(&mut self, i: usize, out: &mut String) {
        let name = self.enum_names[i].clone();
        let (ty, lo, hi) = *self.pick(INTS);
        let bit_flags = self.chance(25);
        let bits: i128 = 8 * match ty.trim_start_matches('u') {
            "byte" | "int8" => 1,
            "short" | "int16" => 2,
            "int" | "int32" => 4,
            _ => 8,
        };
        self.docs(out, "");
        let ty_text = if self.mistake(10) {
            " : float".to_string()
        } else {
            format!(" : {ty}")
        };
        write!(out, "enum {name}{ty_text}").unwrap();
        if bit_flags {
            out.push_str(" (bit_flags)");
        }
        out.push_str(" {\n");
        let count = 1 + self.below(5);
        let mut values = Vec::new();
        let mut used = Vec::new();
        let mut next: i128 = if bit_flags { 0 } else { lo.max(-3) };
        for v in 0..count {
            let vname = self.scoped_name("V", v, VALUE_NAMES, &mut used);
            self.docs(out, "  ");
            write!(out, "  {vname}").unwrap();
            if self.chance(40) || self.mistake(20) {
                let value = if self.mistake(30) {
                    // Backwards, repeated, or beyond the type (or the flags' bits).
                    match self.below(3) {
                        0 => next - 1,
                        1 => next - 1 + i128::from(v == 0),
                        _ => {
                            if bit_flags {
                                bits
                            } else {
                                hi + 1
                            }
                        }
                    }
                } else if bit_flags {
                    (next + self.below(3) as i128).min(bits - 1)
                } else {
                    next + self.below(4) as i128
                };
                write!(out, " = {value}").unwrap();
                next = value + 1;
            } else {
                next += 1;
            }
            out.push_str(",\n");
            values.push(vname);
        }
        out.push_str("}\n\n");
        self.enums.push(EnumDecl {
            index: i,
            values,
            bit_flags,
        });
    }

    /// A struct field's type: a scalar, an enum, an earlier struct, or an array of one.
    fn struct_field_type(&mut self, own: usize) -> String {
        let element = match self.below(10) {
            0..=4 => {
                if self.chance(70) {
                    self.pick(INTS).0.to_string()
                } else {
                    self.pick(FLOATS).to_string()
                }
            }
            5 | 6 if !self.enums.is_empty() => {
                let e = self.below(self.enums.len());
                self.enum_ref(e)
            }
            7 if own > 0 || self.mistake(100) => {
                // An earlier struct; a later one is a mistake (never itself).
                if own > 0 && !self.mistake(100) {
                    self.struct_below(own)
                } else {
                    self.struct_ref(own + 1)
                }
            }
            8 if self.mistake(80) => match self.below(3) {
                0 => "string".into(),
                1 => "[int]".into(),
                _ => self.table_ref(0),
            },
            _ => "bool".to_string(),
        };
        if self.chance(15) {
            let n = if self.mistake(50) {
                0
            } else {
                1 + self.below(4)
            };
            format!("[{element}:{n}]")
        } else {
            element
        }
    }

    fn struct_decl(&mut self, i: usize, out: &mut String) {
        let name = self.struct_name(i);
        self.docs(out, "");
        write!(out, "struct {name}").unwrap();
        if self.chance(15) {
            let align = *self.pick(&[1, 2, 4, 8, 16, 32, 3]);
            write!(out, " (force_align: {align})").unwrap();
        }
        out.push_str(" {\n");
        let count = if self.mistake(30) {
            0
        } else {
            1 + self.below(4)
        };
        let mut used = Vec::new();
        for f in 0..count {
            let ty = self.struct_field_type(i);
            let fname = self.scoped_name("f", f, FIELD_NAMES, &mut used);
            self.docs(out, "  ");
            write!(out, "  {fname}: {ty}").unwrap();
            if self.mistake(15) {
                out.push_str(" = 1");
            }
            if self.mistake(15) {
                out.push_str(" (deprecated)");
            }
            out.push_str(";\n");
        }
        out.push_str("}\n\n");
        self.structs.push(i);
    }

    /// A default for a scalar of `ty` (or `None` to leave it out).
    fn scalar_default(&mut self, ty: &str) -> Option<String> {
        if !self.chance(50) {
            return None;
        }
        if let Some(&(_, lo, hi)) = INTS.iter().find(|(n, _, _)| *n == ty) {
            return Some(if self.mistake(20) {
                self.float_text()
            } else {
                self.int_text(lo, hi)
            });
        }
        if ty == "bool" {
            return Some(self.pick(&["true", "false", "0", "1", "2"]).to_string());
        }
        Some(self.float_text())
    }

    /// A table field: its type, default and attributes, with the next free `id` (the caller
    /// removes the ids if the table does not use them).
    fn table_field(
        &mut self,
        t: usize,
        f: usize,
        next_id: &mut usize,
        used: &mut Vec<String>,
        out: &mut String,
    ) {
        let mut attrs: Vec<String> = Vec::new();
        let mut default: Option<String> = None;
        let mut is_union = false;
        let ty = match self.below(16) {
            0..=3 => {
                let ty = if self.chance(75) {
                    self.pick(INTS).0
                } else if self.chance(50) {
                    "bool"
                } else {
                    self.pick(FLOATS)
                };
                if self.chance(10) {
                    default = Some("null".into());
                } else {
                    default = self.scalar_default(ty);
                }
                if self.chance(8) {
                    attrs.push("key".into());
                }
                if self.chance(8) {
                    // 32-bit hashes for 32-bit types, 64-bit ones for 64-bit types, 16-bit ones
                    // for 16-bit types (which flatc has none of); another size now and then.
                    let bits = match ty {
                        "short" | "ushort" | "uint16" => "16",
                        "int" | "uint" | "int32" => "32",
                        _ => "64",
                    };
                    let bits = if self.mistake(100) { "32" } else { bits };
                    let kind = *self.pick(&["fnv1", "fnv1a"]);
                    attrs.push(format!("hash: \"{kind}_{bits}\""));
                }
                if self.mistake(20) {
                    attrs.push("required".into());
                }
                ty.to_string()
            }
            4 | 5 if !self.enums.is_empty() => {
                let e = self.below(self.enums.len());
                let (name, bit_flags) = (self.enum_ref(e), self.enums[e].bit_flags);
                if self.chance(50) {
                    let values = self.enums[e].values.clone();
                    let mut v = self.pick(&values).clone();
                    if bit_flags && self.chance(40) {
                        v = format!("\"{v} {}\"", self.pick(&values));
                    } else if self.mistake(30) {
                        v = "Purple".into();
                    } else if self.chance(20) {
                        v = self.below(3).to_string();
                    }
                    default = Some(v);
                } else if self.chance(8) {
                    default = Some("null".into());
                }
                name
            }
            6 => {
                if self.chance(30) {
                    attrs.push("required".into());
                }
                if self.chance(10) {
                    attrs.push("key".into());
                }
                if self.chance(8) {
                    default = Some("\"text\"".into());
                }
                if self.mistake(20) {
                    attrs.push("hash: \"fnv1_32\"".into());
                }
                "string".into()
            }
            7 if !self.structs.is_empty() => {
                if self.chance(20) {
                    attrs.push("required".into());
                }
                self.declared_struct()
            }
            8 => {
                if self.chance(20) {
                    attrs.push("required".into());
                }
                let n = (self.tables.len() + 1).max(t + 2);
                self.table_below(n)
            }
            9 | 10 => {
                let element = match self.below(7) {
                    0 => "string".to_string(),
                    // A struct or an enum declared so far, or further down (in this file or one
                    // parsed later): a struct may be, an enum may not.
                    1 if !self.struct_names.is_empty() => {
                        let later = self.later_struct();
                        match later {
                            Some(s) if self.structs.is_empty() || self.chance(25) => s,
                            _ => self.declared_struct(),
                        }
                    }
                    2 => self.table_below(t + 2),
                    3 if !self.enum_names.is_empty() => {
                        let later = self.later_enum();
                        let use_later = if self.enums.is_empty() {
                            self.mistake(250)
                        } else {
                            self.mistake(40)
                        };
                        match later {
                            Some(e) if use_later => e,
                            _ if !self.enums.is_empty() => {
                                let e = self.below(self.enums.len());
                                self.enum_ref(e)
                            }
                            _ => "int".into(),
                        }
                    }
                    4 if self.mistake(200) => "[int]".into(),
                    5 => {
                        if self.chance(30) {
                            let nested = self.table_below(t + 2);
                            attrs.push(format!("nested_flatbuffer: \"{nested}\""));
                        } else if self.chance(30) {
                            attrs.push("flexbuffer".into());
                        }
                        "ubyte".into()
                    }
                    _ => self.pick(INTS).0.to_string(),
                };
                if self.chance(5) {
                    default = Some("[]".into());
                } else if self.chance(15) {
                    attrs.push("required".into());
                }
                format!("[{element}]")
            }
            11 if !self.unions.is_empty() || !self.union_names.is_empty() && self.mistake(150) => {
                is_union = true;
                if self.chance(15) {
                    attrs.push("required".into());
                }
                // Now and then a union declared further down (which flatc rejects).
                let later = self.later_union();
                let use_later = self.unions.is_empty() || self.mistake(60);
                let u = match later {
                    Some(later) if use_later => later,
                    _ => {
                        let u = *self.pick(&self.unions.clone());
                        self.union_ref(u)
                    }
                };
                if self.chance(20) {
                    format!("[{u}]")
                } else {
                    u
                }
            }
            // An enum or a struct declared further down.
            12 if self.enums.len() < self.enum_names.len() => self.later_enum().unwrap(),
            13 if self.structs.len() < self.struct_names.len() => self.later_struct().unwrap(),
            _ => "short".into(),
        };
        if self.chance(10) {
            attrs.push("deprecated".into());
        }
        if self.priority && self.chance(10) || self.mistake(10) {
            attrs.push(format!("priority: {}", self.below(5)));
        }
        // A union takes two ids: its `_type` field's and its own, the higher.
        let id = *next_id + usize::from(is_union);
        *next_id = id + 1;
        attrs.push(format!("id: {id}"));
        self.docs(out, "  ");
        let name = if self.mistake(10) {
            format!("f{}", f.saturating_sub(1))
        } else {
            self.scoped_name("f", f, FIELD_NAMES, used)
        };
        write!(out, "  {name}: {ty}").unwrap();
        if let Some(d) = default {
            write!(out, " = {d}").unwrap();
        }
        write!(out, " ({})", attrs.join(", ")).unwrap();
        out.push_str(";\n");
    }

    fn table_decl(&mut self, i: usize, out: &mut String) {
        let name = self.table(i);
        self.docs(out, "");
        write!(out, "table {name}").unwrap();
        if self.chance(5) {
            out.push_str(" (original_order)");
        }
        out.push_str(" {\n");
        let count = self.below(7);
        let mut fields = String::new();
        let (mut next_id, mut used) = (0, Vec::new());
        for f in 0..count {
            self.table_field(i, f, &mut next_id, &mut used, &mut fields);
        }
        // Ids on all fields, none, or (a mistake) some; now and then one with a gap.
        let use_ids = self.chance(30);
        let fields = if use_ids {
            if self.mistake(60) {
                // (`id` is each field's last attribute.)
                fields.replacen("id: 0)", "id: 7)", 1)
            } else {
                fields
            }
        } else {
            strip_ids(&fields, self.mistake(60))
        };
        out.push_str(&fields);
        out.push_str("}\n\n");
        self.tables.push(i);
    }

    fn union_decl(&mut self, i: usize, tables: usize, out: &mut String) {
        let name = self.union_names[i].clone();
        self.docs(out, "");
        write!(out, "union {name}").unwrap();
        if self.chance(20) {
            let ty = *self.pick(&["ubyte", "ushort", "int", "uint", "byte"]);
            write!(out, " : {ty}").unwrap();
        }
        out.push_str(" {\n");
        let count = 1 + self.below(3);
        let mut named = Vec::new();
        for m in 0..count {
            // Tables and structs declared so far or further down.
            let member = match self.below(8) {
                0 if !self.struct_names.is_empty() => {
                    let later = self.later_struct();
                    match later {
                        Some(s) if self.structs.is_empty() || self.chance(30) => s,
                        _ => self.declared_struct(),
                    }
                }
                1 if self.chance(50) => "string".into(),
                _ => self.table_below(tables.max(1)),
            };
            // A member named twice is a mistake: the second needs an alias.
            let repeated = named.contains(&member) && !self.mistake(100);
            if self.chance(30) || member == "string" || repeated {
                write!(out, "  M{m}: {member}").unwrap();
            } else {
                write!(out, "  {member}").unwrap();
                named.push(member);
            }
            if self.chance(10) {
                write!(out, " = {}", 1 + m * 2).unwrap();
            }
            out.push_str(",\n");
        }
        out.push_str("}\n\n");
        self.unions.push(i);
    }
}

/// Removes the `id` attributes (all of them, or all but one).
fn strip_ids(fields: &str, keep_one: bool) -> String {
    let mut kept = false;
    let mut out = String::new();
    for line in fields.lines() {
        let mut line = line.to_string();
        if let Some(at) = line.find("id: ") {
            if keep_one && !kept {
                kept = true;
            } else {
                let end = line[at..].find([',', ')']).map_or(line.len(), |e| at + e);
                line.replace_range(at..end, "");
                line = line
                    .replace("(, ", "(")
                    .replace(", )", ")")
                    .replace(" ()", "");
            }
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The shapes of the include graph: for each file (the root file first), the files it includes.
const SHAPES: &[&[&[usize]]] = &[
    // root → a
    &[&[1], &[]],
    // root → a, b
    &[&[1, 2], &[], &[]],
    // root → a → b
    &[&[1], &[2], &[]],
    // A cycle through the root file: root → a → root.
    &[&[1], &[0]],
    // A cycle among included files: root → a → b → a, and root → b.
    &[&[1, 2], &[2], &[1]],
    // A diamond: root → a, b; a → c; b → c.
    &[&[1, 2], &[3], &[3], &[]],
    // A file included twice: root → a, b; b → a.
    &[&[1, 2], &[], &[1]],
];

/// The name of file `f` of the schema: the root file `{stem}.fbs`, then `{stem}_inc.fbs`,
/// `{stem}_inc2.fbs`, ...
fn file_name(stem: &str, f: usize) -> String {
    match f {
        0 => format!("{stem}.fbs"),
        1 => format!("{stem}_inc.fbs"),
        _ => format!("{stem}_inc{f}.fbs"),
    }
}

/// flatc's order of parsing: the included files depth first, each once (a file being parsed is
/// not entered again), each before the file that includes it.
fn parse_order(includes: &[Vec<usize>], f: usize, seen: &mut Vec<bool>, order: &mut Vec<usize>) {
    if seen[f] {
        return;
    }
    seen[f] = true;
    for &i in &includes[f] {
        parse_order(includes, i, seen, order);
    }
    order.push(f);
}

/// `ns` with the case of one component's first letter switched (`Game.Sample` → `game.Sample`).
fn case_variant(g: &mut Gen, ns: &str) -> String {
    let parts: Vec<&str> = ns.split('.').collect();
    let at = g.below(parts.len());
    parts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut c = p.chars();
            match c.next() {
                Some(first) if i == at => {
                    let first = if first.is_uppercase() {
                        first.to_lowercase().collect::<String>()
                    } else {
                        first.to_uppercase().collect::<String>()
                    };
                    first + c.as_str()
                }
                _ => p.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// The files of the schema for `seed` (the same for the same seed), as (path, text): the root
/// file `{stem}.fbs` first, then, for some seeds, the files it includes (`{stem}_inc.fbs`,
/// `{stem}_inc2.fbs`, `{stem}_inc3.fbs`), beside it or now and then in a subdirectory
/// `{stem}_dir` (the path says, relative to the root file's directory: a test creates the
/// directory). Includes name files relative to the including file (now and then as `./name`, or
/// twice); from the subdirectory, a file beside the root file as `../name` or as `name`, which
/// flatc finds in the root file's directory.
///
/// The include graph is one of a few shapes: one file, two, a chain, a cycle (through the root
/// file or among the included ones), a diamond (two files that include a common one), a file
/// included by two others. The declarations are split over the files in flatc's order of
/// parsing (depth first, each file once), so that "declared so far" means what it means to
/// flatc; each file states its namespace again (each starts in the root one). References to
/// tables, structs and unions, union members and vector elements among them, may name a type
/// declared further down, in the same file or in one parsed later; now and then (a mistake) an
/// enum or a union too. Two namespaces may differ only in case (`Game` and `game`), and now and
/// then two types in different namespaces share a name.
///
/// ```
/// use flatforge_testkit::random_schema::schema_files;
/// assert_eq!(schema_files(7, "s"), schema_files(7, "s"));
/// let files = schema_files(7, "s");
/// assert_eq!(files[0].0, "s.fbs");
/// assert!(files.iter().any(|(_, text)| text.contains("table ")));
/// // Some seeds split the schema over included files, each named in an include.
/// let seed = (0..100).find(|&seed| schema_files(seed, "s").len() == 4).unwrap();
/// let files = schema_files(seed, "s");
/// assert!(files[3].0.ends_with("s_inc3.fbs"));
/// for (path, _) in &files[1..] {
///     let name = path.rsplit('/').next().unwrap();
///     assert!(files.iter().any(|(_, text)| text.contains(&format!("{name}\";"))));
/// }
/// ```
pub fn schema_files(seed: u64, stem: &str) -> Vec<(String, String)> {
    let mut g = Gen {
        r: SplitMix64::new(seed),
        enums: Vec::new(),
        structs: Vec::new(),
        tables: Vec::new(),
        unions: Vec::new(),
        priority: false,
        table_names: Vec::new(),
        struct_names: Vec::new(),
        enum_names: Vec::new(),
        union_names: Vec::new(),
        namespaces: Vec::new(),
        type_ns: Vec::new(),
        ns: 0,
    };
    const NAMESPACES: &[&str] = &["Game", "Game.Sample", "a.b.c", "Deep.Name.Space", "Other"];
    let first = if g.chance(40) {
        g.pick(NAMESPACES).to_string()
    } else {
        String::new()
    };
    g.namespaces.push(first);
    // Now and then the declarations switch to a second namespace partway.
    if g.chance(30) {
        let second = g.pick(NAMESPACES).to_string();
        if second != g.namespaces[0] {
            g.namespaces.push(second);
        }
    }
    // Now and then one that differs from another only in case (both used, below).
    let mut case_pair = None;
    if g.chance(20) {
        let named: Vec<String> = g
            .namespaces
            .iter()
            .filter(|n| !n.is_empty())
            .cloned()
            .collect();
        let base = if named.is_empty() {
            let base = g.pick(NAMESPACES).to_string();
            g.namespaces.push(base.clone());
            base
        } else {
            g.pick(&named).clone()
        };
        let variant = case_variant(&mut g, &base);
        if !g.namespaces.contains(&variant) {
            let base = g.namespaces.iter().position(|n| *n == base).unwrap();
            case_pair = Some((base, g.namespaces.len()));
            g.namespaces.push(variant);
        }
    }
    g.priority = g.chance(30);
    let enums = g.below(3);
    let structs = g.below(3);
    let tables = 1 + g.below(4);
    let unions = g.below(3);
    // Type names share one scope.
    let mut used = Vec::new();
    g.enum_names = (0..enums)
        .map(|i| g.scoped_name("Color", i, TYPE_NAMES, &mut used))
        .collect();
    g.struct_names = (0..structs)
        .map(|i| g.scoped_name("Vec", i, TYPE_NAMES, &mut used))
        .collect();
    g.table_names = (0..tables)
        .map(|i| g.scoped_name("Thing", i, TYPE_NAMES, &mut used))
        .collect();
    g.union_names = (0..unions)
        .map(|i| g.scoped_name("Any", i, TYPE_NAMES, &mut used))
        .collect();
    // Declarations in a random order, enums and structs mostly first.
    let mut order: Vec<(u8, usize)> = Vec::new();
    order.extend((0..enums).map(|i| (ENUM, i)));
    order.extend((0..structs).map(|i| (STRUCT, i)));
    let mut rest: Vec<(u8, usize)> = (0..tables).map(|i| (TABLE, i)).collect();
    rest.extend((0..unions).map(|i| (UNION, i)));
    if g.chance(20) {
        rest.append(&mut order);
    }
    for i in (1..rest.len()).rev() {
        let j = g.below(i + 1);
        rest.swap(i, j);
    }
    order.extend(rest);
    // The files and their includes (now and then an include named twice, or as `./name`), and
    // the declarations of each, in flatc's order of parsing.
    let shape: &[&[usize]] = if g.chance(40) {
        SHAPES[g.below(SHAPES.len())]
    } else {
        &[&[]]
    };
    let mut includes: Vec<Vec<usize>> = shape.iter().map(|i| i.to_vec()).collect();
    for list in &mut includes {
        if list.len() > 1 && g.chance(30) {
            list.reverse();
        }
        if !list.is_empty() && g.chance(8) {
            let again = *g.pick(list);
            list.push(again);
        }
    }
    let mut parsed = Vec::new();
    parse_order(&includes, 0, &mut vec![false; includes.len()], &mut parsed);
    let mut cuts: Vec<usize> = (1..parsed.len())
        .map(|_| g.below(order.len() + 1))
        .collect();
    cuts.sort_unstable();
    cuts.insert(0, 0);
    cuts.push(order.len());
    // Each declaration's namespace: the first one's at first; at a new file now and then
    // another, and in a file now and then a switch partway.
    let mut decl_ns = vec![0; order.len()];
    let mut ns = 0;
    let count = g.namespaces.len();
    for k in 0..parsed.len() {
        if k > 0 && count > 1 && g.chance(50) {
            ns = g.below(count);
        }
        let (start, end) = (cuts[k], cuts[k + 1]);
        let switch = if count > 1 && g.chance(60) {
            start + g.below(end - start + 1)
        } else {
            usize::MAX
        };
        for (at, slot) in decl_ns.iter_mut().enumerate().take(end).skip(start) {
            if at == switch {
                ns = (ns + 1 + g.below(count - 1)) % count;
            }
            *slot = ns;
        }
    }
    // Two namespaces that differ only in case each hold a declaration (at `a` and `b`).
    let mut pair = None;
    if let Some((base, variant)) = case_pair.filter(|_| order.len() > 1) {
        let a = g.below(order.len() - 1);
        let b = a + 1 + g.below(order.len() - 1 - a);
        let (a, b) = if g.chance(50) { (a, b) } else { (b, a) };
        decl_ns[a] = base;
        decl_ns[b] = variant;
        pair = Some((a, b));
    }
    for (&(kind, i), &ns) in order.iter().zip(&decl_ns) {
        g.type_ns.push(((kind, i), ns));
    }
    // Now and then a type takes the name of one in another namespace (often of one in a
    // namespace that differs only in case).
    let rename = match pair {
        Some(pair) if g.chance(50) => Some(pair),
        _ if count > 1 && order.len() > 1 && g.chance(20) => {
            Some((g.below(order.len()), g.below(order.len())))
        }
        _ => None,
    };
    if let Some((a, b)) = rename {
        if decl_ns[a] != decl_ns[b] {
            fn names(g: &mut Gen, kind: u8) -> &mut Vec<String> {
                match kind {
                    ENUM => &mut g.enum_names,
                    STRUCT => &mut g.struct_names,
                    TABLE => &mut g.table_names,
                    _ => &mut g.union_names,
                }
            }
            let (ka, ia) = order[a];
            let (kb, ib) = order[b];
            let name = names(&mut g, ka)[ia].clone();
            names(&mut g, kb)[ib] = name;
        }
    }
    // Each file's text, and the namespace it is in (each file starts in the root one).
    // Now and then included files in a subdirectory, `{stem}_dir`, or in the library directory
    // (`library_dir`), which only an include directory reaches. (The library draws come from a
    // second generator, so that the rest of each seed's schema is what it was before them.)
    let in_dir: Vec<bool> = (0..includes.len()).map(|f| f > 0 && g.chance(25)).collect();
    let mut lib_draws = SplitMix64::new(seed ^ 0x6c69_6272_6172_7921);
    let mut lib_chance = |percent| lib_draws.below(100) < percent;
    let place: Vec<Place> = (0..includes.len())
        .map(|f| match f {
            0 => Place::Root,
            _ if in_dir[f] => Place::Dir,
            _ if lib_chance(25) => Place::Lib,
            _ => Place::Root,
        })
        .collect();
    let mut names: Vec<String> = (0..includes.len()).map(|f| file_name(stem, f)).collect();
    // Now and then a file of the subdirectory has the name of one in the library: each is found
    // by where it is looked for first (beside the including file, then the include directories).
    let first_in = |p| place.iter().position(|&q| q == p);
    if let (Some(d), Some(l)) = (first_in(Place::Dir), first_in(Place::Lib)) {
        if lib_chance(50) {
            names[d] = names[l].clone();
        }
    }
    let lib = library_dir(stem);
    let mut texts: Vec<String> = includes
        .iter()
        .enumerate()
        .map(|(from, list)| {
            let mut text = String::new();
            for &f in list {
                let name = names[f].clone();
                // Relative to the including file; from the subdirectory, a file beside the root
                // file as `../name`, or as `name` (flatc looks in the root file's directory
                // last). A library file by its name alone (found through the include
                // directory), or by its path; by its path from the subdirectory when a file
                // there has its name.
                let path = match (place[from], place[f]) {
                    (Place::Root, Place::Dir) => format!("{stem}_dir/{name}"),
                    (Place::Lib, Place::Dir) => format!("../{stem}_dir/{name}"),
                    (Place::Dir, Place::Root) if g.chance(50) => format!("../{name}"),
                    (Place::Dir, Place::Root) => name,
                    (Place::Lib, Place::Root) if lib_chance(50) => format!("../{name}"),
                    (Place::Lib, Place::Root) => name,
                    (Place::Root, Place::Lib) if lib_chance(20) => format!("{lib}/{name}"),
                    (Place::Dir, Place::Lib)
                        if names.iter().filter(|n| **n == name).count() > 1 || lib_chance(20) =>
                    {
                        format!("../{lib}/{name}")
                    }
                    (_, Place::Lib) => name,
                    _ if g.chance(10) => format!("./{name}"),
                    _ => name,
                };
                writeln!(text, "include \"{path}\";").unwrap();
            }
            if !list.is_empty() {
                text.push('\n');
            }
            text
        })
        .collect();
    let mut file_ns: Vec<String> = vec![String::new(); includes.len()];
    // (The user attribute is declared before any use: in the file parsed first.)
    if g.priority {
        texts[parsed[0]].push_str("attribute \"priority\";\n\n");
    }
    // Writes a namespace declaration for namespace `ns` in file `f` if it is not in it.
    let enter =
        |g: &mut Gen, texts: &mut Vec<String>, file_ns: &mut Vec<String>, f: usize, ns: usize| {
            g.ns = ns;
            let name = &g.namespaces[ns];
            if file_ns[f] != *name {
                writeln!(texts[f], "namespace {name};\n").unwrap();
                file_ns[f] = name.clone();
            }
        };
    for (k, &f) in parsed.iter().enumerate() {
        for at in cuts[k]..cuts[k + 1] {
            enter(&mut g, &mut texts, &mut file_ns, f, decl_ns[at]);
            let (kind, i) = order[at];
            let out = &mut texts[f];
            match kind {
                ENUM => g.enum_decl(i, out),
                STRUCT => g.struct_decl(i, out),
                TABLE => g.table_decl(i, out),
                _ => g.union_decl(i, tables, out),
            }
        }
        // An included file's own root type, a table declared so far (which flatc forgets after
        // the include; one declared further down is a mistake).
        if f != 0 && !g.tables.is_empty() && g.chance(15) {
            match g.namespaces.iter().position(|n| *n == file_ns[f]) {
                Some(ns) => g.ns = ns,
                None => enter(&mut g, &mut texts, &mut file_ns, f, 0),
            }
            let root = if g.mistake(100) {
                g.table_below(tables)
            } else {
                let i = g.below(g.tables.len());
                g.table_ref(g.tables[i])
            };
            writeln!(texts[f], "root_type {root};").unwrap();
        }
    }
    // The root file's trailing declarations, in the namespace it ends in (or the first one).
    match g.namespaces.iter().position(|n| *n == file_ns[0]) {
        Some(ns) => g.ns = ns,
        None => enter(&mut g, &mut texts, &mut file_ns, 0, 0),
    }
    let mut out = std::mem::take(&mut texts[0]);
    if g.chance(80) {
        let root = if g.mistake(30) && structs > 0 {
            g.struct_ref(0)
        } else {
            // (One past the tables names none.)
            let past = usize::from(g.mistake(30));
            g.table_below(tables + past)
        };
        writeln!(out, "root_type {root};").unwrap();
    }
    if g.chance(30) {
        let id = if g.mistake(50) { "ABC" } else { "ABCD" };
        writeln!(out, "file_identifier \"{id}\";").unwrap();
    }
    if g.chance(20) {
        out.push_str("file_extension \"thing\";\n");
    }
    if g.chance(15) {
        let req = if g.mistake(100) && structs > 0 {
            g.struct_ref(0)
        } else {
            g.table_below(tables)
        };
        let resp = g.table_below(tables);
        // Every kind of call (from a generator of its own, so the rest of the schema is what it
        // was before these draws).
        const KINDS: &[&str] = &[
            " (streaming: \"none\")",
            " (streaming: \"client\")",
            " (streaming: \"bidi\")",
            "",
        ];
        let mut kinds = SplitMix64::new(seed ^ 0x7270_635f_6b69_6e64);
        let put = KINDS[kinds.below(KINDS.len())];
        writeln!(
            out,
            "rpc_service Service {{\n  Get({req}): {resp} (streaming: \"server\");\n  Put({resp}): {req}{put};\n}}"
        )
        .unwrap();
    }
    texts[0] = out;
    // An included file with nothing in it states a namespace: flatc rejects a file with no
    // tokens (a mistake now and then: empty, or only a comment).
    for text in &mut texts[1..] {
        if text.is_empty() {
            if g.chance(50) || g.mistake(150) {
                text.push_str("// Nothing declared here.\n");
            }
            if !g.mistake(150) {
                let ns = g.pick(NAMESPACES);
                writeln!(text, "namespace {ns};").unwrap();
            }
        }
    }
    texts
        .into_iter()
        .enumerate()
        .map(|(f, text)| {
            let name = &names[f];
            let path = match place[f] {
                Place::Root => name.clone(),
                Place::Dir => format!("{stem}_dir/{name}"),
                Place::Lib => format!("{lib}/{name}"),
            };
            (path, text)
        })
        .collect()
}

/// Where a file of a random schema lies: beside the root file, in its subdirectory
/// (`{stem}_dir`), or in the library directory ([`library_dir`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    Root,
    Dir,
    Lib,
}

/// The directory, beside the root file of the schema `stem`, that holds the files [`schema_files`]
/// puts in a library: they are included by name alone (or now and then by their path), so a test
/// must pass this directory as an include directory (`-I`) when it exists.
///
/// ```
/// use flatforge_testkit::random_schema::{library_dir, schema_files};
/// assert_eq!(library_dir("s"), "s_lib");
/// // Some seeds put an included file there.
/// let seed = (0..200)
///     .find(|&seed| schema_files(seed, "s").iter().any(|(path, _)| path.starts_with("s_lib/")))
///     .unwrap();
/// assert!(schema_files(seed, "s").len() > 1);
/// ```
pub fn library_dir(stem: &str) -> String {
    format!("{stem}_lib")
}

/// Writes `files` (as [`schema_files`] makes them) under `dir`, with the subdirectories they need.
/// Returns the root file's path, and every file's text after a `// name` line (for a failure's
/// message).
///
/// ```
/// use flatforge_testkit::random_schema::{schema_files, write_files};
/// let dir = std::env::temp_dir().join(format!("random-schema-doc-{}", std::process::id()));
/// let files = schema_files(7, "s");
/// let (root, text) = write_files(&dir, &files)?;
/// assert_eq!(root, dir.join("s.fbs"));
/// assert_eq!(std::fs::read_to_string(&root)?, files[0].1);
/// assert!(text.starts_with("// s.fbs\n"));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn write_files(dir: &Path, files: &[(String, String)]) -> std::io::Result<(PathBuf, String)> {
    for (name, text) in files {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(path, text)?;
    }
    let text = files
        .iter()
        .map(|(name, text)| format!("// {name}\n{text}"))
        .collect();
    Ok((dir.join(&files[0].0), text))
}
