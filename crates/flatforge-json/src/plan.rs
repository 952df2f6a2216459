//! The schema compiled for JSON work: per object, its fields with resolved kinds, pre-quoted keys
//! and a hash table from names to fields; per enum, its values with pre-quoted names and a hash
//! table from names to values. Built once by [`Codec::new`](crate::Codec::new) and read by the
//! verifier, the printer and the parser, so that none of them interprets the schema model on the
//! hot path.

use flatforge_schema::{BaseType, DefaultValue, HashKind, Object, Presence, Schema, TypeRef};

/// A scalar's representation in a buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sc {
    Bool,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
}

impl Sc {
    pub(crate) fn from_base(b: BaseType) -> Option<Sc> {
        Some(match b {
            BaseType::Bool => Sc::Bool,
            BaseType::Byte => Sc::I8,
            BaseType::UByte | BaseType::UType => Sc::U8,
            BaseType::Short => Sc::I16,
            BaseType::UShort => Sc::U16,
            BaseType::Int => Sc::I32,
            BaseType::UInt => Sc::U32,
            BaseType::Long => Sc::I64,
            BaseType::ULong => Sc::U64,
            BaseType::Float => Sc::F32,
            BaseType::Double => Sc::F64,
            _ => return None,
        })
    }

    /// Size in bytes (also the alignment).
    #[inline]
    pub(crate) fn size(self) -> usize {
        match self {
            Sc::Bool | Sc::I8 | Sc::U8 => 1,
            Sc::I16 | Sc::U16 => 2,
            Sc::I32 | Sc::U32 | Sc::F32 => 4,
            Sc::I64 | Sc::U64 | Sc::F64 => 8,
        }
    }

    pub(crate) fn is_float(self) -> bool {
        matches!(self, Sc::F32 | Sc::F64)
    }

    pub(crate) fn is_signed(self) -> bool {
        matches!(self, Sc::I8 | Sc::I16 | Sc::I32 | Sc::I64)
    }

    /// The integer that raw bits (as [`Sc::read`] returns them) of an integer type stand for.
    pub(crate) fn int_value(self, bits: u64) -> i128 {
        if self.is_signed() {
            i128::from(bits as i64)
        } else {
            i128::from(bits)
        }
    }

    /// The schema name of the type, for error messages.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Sc::Bool => "bool",
            Sc::I8 => "byte",
            Sc::U8 => "ubyte",
            Sc::I16 => "short",
            Sc::U16 => "ushort",
            Sc::I32 => "int",
            Sc::U32 => "uint",
            Sc::I64 => "long",
            Sc::U64 => "ulong",
            Sc::F32 => "float",
            Sc::F64 => "double",
        }
    }

    /// Reads the little-endian value at `at` as raw 64 bits: integers sign- or zero-extended,
    /// floats as the bits of an `f64` (an `f32` widened).
    #[inline]
    pub(crate) fn read(self, buf: &[u8], at: usize) -> u64 {
        match self {
            Sc::Bool | Sc::U8 => u64::from(buf[at]),
            Sc::I8 => buf[at] as i8 as i64 as u64,
            Sc::I16 => i16::from_le_bytes([buf[at], buf[at + 1]]) as i64 as u64,
            Sc::U16 => u64::from(u16::from_le_bytes([buf[at], buf[at + 1]])),
            Sc::I32 => i32::from_le_bytes(arr(buf, at)) as i64 as u64,
            Sc::U32 => u64::from(u32::from_le_bytes(arr(buf, at))),
            Sc::F32 => f64::from(f32::from_le_bytes(arr(buf, at))).to_bits(),
            Sc::I64 | Sc::U64 | Sc::F64 => u64::from_le_bytes(arr(buf, at)),
        }
    }
}

#[inline(always)]
pub(crate) fn arr<const N: usize>(buf: &[u8], at: usize) -> [u8; N] {
    let mut a = [0; N];
    a.copy_from_slice(&buf[at..at + N]);
    a
}

/// `b` in each byte of a word (for reading text eight bytes at a time).
pub(crate) const fn lanes(b: u8) -> u64 {
    u64::from_le_bytes([b; 8])
}

/// What a table field, struct field, vector element or union member holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ty {
    /// A scalar, possibly of an enum type.
    Scalar(Sc, Option<u32>),
    /// The hidden type field of a union (a `u8`), with the union. Unions whose types are not `u8`s
    /// are [`Ty::Wide`].
    UType(u32),
    String,
    Struct(u32),
    Table(u32),
    /// A union value; its type is in the sibling field.
    Union(u32),
    /// A vector; the element kind is in [`Field::elem`].
    Vector,
    /// The hidden types vector of a vector of unions.
    UTypeVector(u32),
    /// A vector of unions; the types vector is the sibling field.
    UnionVector(u32),
    /// A fixed-length array in a struct; element kind in [`Field::elem`], length in
    /// [`Field::array_len`].
    Array,
    /// A `[ubyte]` holding a flatbuffer whose root is this table.
    Nested(u32),
    /// A `[ubyte]` holding a FlexBuffer.
    Flex,
    /// A string or vector behind a 64-bit offset (`offset64`, `vector64`).
    Far(Far),
    /// A part of a union whose types are not `u8`s but its underlying type (`union U : int`), with
    /// that type and the union.
    Wide(Wide, Sc, u32),
    /// A type no schema read from text gives a table field (only a schema built by hand can): the
    /// verifier checks that a required one is present, the printer and the parser refuse it.
    Unsupported,
}

impl Ty {
    /// Whether the field holds a scalar inline (a scalar, or the type of a union), as opposed to
    /// an offset or a struct.
    pub(crate) fn is_scalar(self) -> bool {
        matches!(
            self,
            Ty::Scalar(..) | Ty::UType(_) | Ty::Wide(Wide::UType, ..)
        )
    }
}

/// What a 64-bit offset (an 8-byte, 8-aligned field) points to. flatc allows `offset64` on strings
/// and on vectors of scalars and structs; `vector64` also gives the vector a 64-bit length, whose
/// data follows it (so both are 8-aligned).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Far {
    /// An ordinary string.
    String,
    /// An ordinary vector (32-bit length) of [`Field::elem`].
    Vector,
    /// A vector of [`Field::elem`] with a 64-bit length (`vector64`).
    Vector64,
    /// An ordinary `[ubyte]` holding a flatbuffer whose root is this table.
    Nested(u32),
    /// A `[ubyte]` with a 64-bit length holding a flatbuffer whose root is this table.
    Nested64(u32),
    /// An ordinary `[ubyte]` holding a FlexBuffer.
    Flex,
}

/// The parts of a union with an underlying type (`union U : int`), which flatc's C++ code writes
/// as for other unions but with types of that type. Kept apart from [`Ty::UType`], [`Ty::Union`],
/// [`Ty::UTypeVector`] and [`Ty::UnionVector`], which are what they are in wide unions too, so
/// that the common unions' code is not burdened with rare ones, as with [`Far`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Wide {
    /// The hidden type field.
    UType,
    /// The value; its type is in the sibling field.
    Union,
    /// The hidden types vector of a vector of unions.
    UTypeVector,
    /// A vector of unions; the types vector is the sibling field.
    UnionVector,
}

/// Vector and array elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Elem {
    Scalar(Sc, Option<u32>),
    String,
    Struct(u32),
    Table(u32),
    /// Not an element (the field is not a vector or array).
    None,
}

impl Elem {
    /// Size and alignment of one element in a vector (offsets for strings and tables).
    pub(crate) fn layout(self, plan: &Plan) -> (usize, usize) {
        match self {
            Elem::Scalar(sc, _) => (sc.size(), sc.size()),
            Elem::Struct(s) => {
                let o = &plan.objects[s as usize];
                (o.bytesize, o.minalign)
            }
            Elem::String | Elem::Table(_) => (4, 4),
            Elem::None => (1, 1),
        }
    }
}

/// One field, with everything the printer and the parser need.
#[derive(Clone, Debug)]
pub(crate) struct Field {
    pub(crate) name: Box<str>,
    /// The name is an identifier (`[A-Za-z_][A-Za-z0-9_]*`, as every name of a schema read from
    /// text): JSON that writes it without escapes can be matched byte for byte.
    pub(crate) ident: bool,
    /// `"name": ` (strict JSON).
    pub(crate) key_strict: Box<[u8]>,
    /// `name: ` (flatc's default).
    pub(crate) key_plain: Box<[u8]>,
    /// Tables: the vtable slot (the id). Structs: the byte offset.
    pub(crate) slot: u16,
    pub(crate) ty: Ty,
    pub(crate) elem: Elem,
    pub(crate) array_len: u16,
    /// Scalars: the default's raw 64 bits (as [`Sc::read`] returns them).
    pub(crate) default: u64,
    /// Optional scalars (`= null`).
    pub(crate) optional: bool,
    pub(crate) required: bool,
    pub(crate) deprecated: bool,
    pub(crate) key: bool,
    pub(crate) shared: bool,
    pub(crate) hash: Option<HashKind>,
    /// Unions: the index of the sibling field (type field of a value, value of a type field).
    pub(crate) sibling: u16,
    /// `force_align` of a vector, 0 if none.
    pub(crate) force_align: u16,
    /// Table fields: where the parser writes the field among the others, as flatc does (sorted
    /// ascending on this key: largest size class first, unless the table keeps its original
    /// order, then highest id first).
    pub(crate) order: u32,
}

impl Field {
    /// Inline size and alignment in a table (offsets for non-scalars). Always inlined: the
    /// verifier calls it for every inline field, and its match folds into the caller's on `ty`.
    #[inline(always)]
    pub(crate) fn inline(&self, plan: &Plan) -> (usize, usize) {
        match self.ty {
            Ty::Scalar(sc, _) => (sc.size(), sc.size()),
            Ty::UType(_) => (1, 1),
            Ty::Wide(Wide::UType, sc, _) => (sc.size(), sc.size()),
            Ty::Struct(s) => {
                let o = &plan.objects[s as usize];
                (o.bytesize, o.minalign)
            }
            Ty::Far(_) => (8, 8),
            Ty::Unsupported => (0, 1),
            _ => (4, 4),
        }
    }
}

/// Open-addressing table from names to small indices.
#[derive(Clone, Debug, Default)]
pub(crate) struct NameMap {
    /// `index + 1`, 0 for empty slots.
    slots: Box<[u16]>,
    mask: usize,
}

/// FNV-1a over the bytes: names are short, and this is cheap and well mixed in the low bits.
#[inline]
pub(crate) fn name_hash(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for &b in bytes {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    h ^ (h >> 15)
}

impl NameMap {
    fn new<'a>(names: impl ExactSizeIterator<Item = &'a str>) -> NameMap {
        let n = names.len();
        let cap = (n * 2).next_power_of_two().max(4);
        let mut slots = vec![0u16; cap].into_boxed_slice();
        let mask = cap - 1;
        for (i, name) in names.enumerate() {
            let mut at = name_hash(name.as_bytes()) as usize & mask;
            while slots[at] != 0 {
                at = (at + 1) & mask;
            }
            slots[at] = i as u16 + 1;
        }
        NameMap { slots, mask }
    }

    /// The index whose name (given by `name_of`) equals `key`.
    #[inline]
    pub(crate) fn find<'a>(&self, key: &[u8], name_of: impl Fn(usize) -> &'a str) -> Option<usize> {
        let mut at = name_hash(key) as usize & self.mask;
        loop {
            let s = self.slots[at];
            if s == 0 {
                return None;
            }
            let i = usize::from(s - 1);
            if name_of(i).as_bytes() == key {
                return Some(i);
            }
            at = (at + 1) & self.mask;
        }
    }
}

/// A table or struct.
#[derive(Clone, Debug)]
pub(crate) struct Obj {
    /// The fully qualified name.
    pub(crate) name: Box<str>,
    pub(crate) bytesize: usize,
    pub(crate) minalign: usize,
    pub(crate) fields: Box<[Field]>,
    pub(crate) by_name: NameMap,
    /// The index of the `key` field.
    pub(crate) key: Option<u16>,
    /// The indices of union and vector-of-union fields (their types must match their values).
    pub(crate) unions: Box<[u16]>,
    /// The indices of required fields.
    pub(crate) required: Box<[u16]>,
}

impl Obj {
    /// The field named `key`.
    #[inline]
    pub(crate) fn field_index(&self, key: &[u8]) -> Option<usize> {
        self.by_name.find(key, |i| &self.fields[i].name)
    }
}

/// One enum value.
#[derive(Clone, Debug)]
pub(crate) struct Val {
    pub(crate) name: Box<str>,
    /// `"Name"`.
    pub(crate) quoted: Box<[u8]>,
    pub(crate) value: i64,
    /// Union members: what the member holds.
    pub(crate) member: Elem,
}

/// An enum or union.
#[derive(Clone, Debug)]
pub(crate) struct EnumPlan {
    pub(crate) name: Box<str>,
    /// The short name (for `Enum.Value` lookups).
    pub(crate) short_name: Box<str>,
    pub(crate) values: Box<[Val]>,
    pub(crate) by_name: NameMap,
    pub(crate) bit_flags: bool,
    pub(crate) underlying: Sc,
}

impl EnumPlan {
    /// The first value equal to `value` (unions: skipping `NONE` when `skip_none`).
    #[inline]
    pub(crate) fn by_value(&self, value: i64) -> Option<&Val> {
        let i = self.values.partition_point(|v| self.less(v.value, value));
        self.values.get(i).filter(|v| v.value == value)
    }

    /// Orders values as the model sorts them (as `u64` for unsigned enums).
    #[inline]
    fn less(&self, a: i64, b: i64) -> bool {
        if self.underlying == Sc::U64 {
            (a as u64) < (b as u64)
        } else {
            a < b
        }
    }

    #[inline]
    pub(crate) fn by_name(&self, name: &[u8]) -> Option<&Val> {
        self.by_name
            .find(name, |i| &self.values[i].name)
            .map(|i| &self.values[i])
    }
}

/// The compiled schema.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    pub(crate) objects: Box<[Obj]>,
    pub(crate) enums: Box<[EnumPlan]>,
    /// Enums by fully qualified name and by short name, for `Enum.Value` strings.
    pub(crate) enums_by_name: NameMap,
    pub(crate) enum_names: Box<[Box<str>]>,
    pub(crate) file_identifier: Option<[u8; 4]>,
}

fn elem_of(schema: &Schema, base: BaseType, index: Option<TypeRef>) -> Elem {
    let en = match index {
        Some(TypeRef::Enum(e)) => Some(e.0),
        _ => None,
    };
    match base {
        BaseType::String => Elem::String,
        BaseType::Obj => match index {
            Some(TypeRef::Object(o)) if schema[o].is_struct => Elem::Struct(o.0),
            Some(TypeRef::Object(o)) => Elem::Table(o.0),
            _ => Elem::None,
        },
        b => match Sc::from_base(b) {
            Some(sc) => Elem::Scalar(sc, en),
            None => Elem::None,
        },
    }
}

/// The integer type of the types of union `en`, if not `u8`: its underlying type (`None` also for
/// what only a schema built by hand can give: no union, or a type that is not an integer).
fn wide_tag(schema: &Schema, en: Option<u32>) -> Option<Sc> {
    let e = schema.enums.get(en? as usize)?;
    Sc::from_base(e.underlying_type.base_type)
        .filter(|&sc| !matches!(sc, Sc::U8 | Sc::Bool | Sc::F32 | Sc::F64))
}

fn quote(name: &str) -> Box<[u8]> {
    format!("\"{name}\"").into_bytes().into_boxed_slice()
}

fn default_bits(sc: Sc, d: &DefaultValue) -> u64 {
    match *d {
        DefaultValue::Bool(b) => u64::from(b),
        DefaultValue::Int(i) => i as u64,
        DefaultValue::UInt(u) => u,
        DefaultValue::Float(f) if sc == Sc::F32 => f64::from(f as f32).to_bits(),
        DefaultValue::Float(f) => f.to_bits(),
        _ => 0,
    }
}

fn field_plan(schema: &Schema, obj: &Object, f: &flatforge_schema::Field) -> Field {
    let ty = f.ty;
    let en = ty.enum_id().map(|e| e.0);
    let mut elem = Elem::None;
    let kind = if f.offset64 || ty.base_type == BaseType::Vector64 {
        match far_plan(schema, f) {
            Some((far, e)) => {
                elem = e;
                Ty::Far(far)
            }
            None => Ty::Unsupported,
        }
    } else {
        match ty.base_type {
            BaseType::UType => Ty::UType(en.unwrap_or(0)),
            BaseType::String => Ty::String,
            BaseType::Obj => match ty.object() {
                Some(o) if schema[o].is_struct => Ty::Struct(o.0),
                Some(o) => Ty::Table(o.0),
                None => Ty::Unsupported,
            },
            BaseType::Union => Ty::Union(en.unwrap_or(0)),
            BaseType::Vector => match ty.element {
                BaseType::UType => Ty::UTypeVector(en.unwrap_or(0)),
                BaseType::Union => Ty::UnionVector(en.unwrap_or(0)),
                _ if f.flexbuffer => Ty::Flex,
                _ => match f.nested_flatbuffer {
                    Some(o) => Ty::Nested(o.0),
                    None => {
                        elem = elem_of(schema, ty.element, ty.index);
                        Ty::Vector
                    }
                },
            },
            BaseType::Array => {
                elem = elem_of(schema, ty.element, ty.index);
                Ty::Array
            }
            b => match Sc::from_base(b) {
                Some(sc) => Ty::Scalar(sc, en),
                None => Ty::Unsupported,
            },
        }
    };
    let kind = match (kind, wide_tag(schema, en)) {
        (Ty::UType(u), Some(sc)) => Ty::Wide(Wide::UType, sc, u),
        (Ty::Union(u), Some(sc)) => Ty::Wide(Wide::Union, sc, u),
        (Ty::UTypeVector(u), Some(sc)) => Ty::Wide(Wide::UTypeVector, sc, u),
        (Ty::UnionVector(u), Some(sc)) => Ty::Wide(Wide::UnionVector, sc, u),
        (kind, _) => kind,
    };
    let default = match kind {
        Ty::Scalar(sc, _) => default_bits(sc, &f.default),
        _ => 0,
    };
    let slot = if obj.is_struct { f.offset } else { f.id };
    let force_align = f
        .attributes
        .int("force_align")
        .and_then(|a| u16::try_from(a).ok())
        .unwrap_or(0);
    let ident = f
        .name
        .bytes()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
        && f.name
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'_');
    let order = 0xFFFF - u32::from(slot);
    let order = if obj.original_order() {
        order
    } else {
        size_rank(kind) << 16 | order
    };
    Field {
        name: f.name.as_str().into(),
        ident,
        key_strict: format!("\"{}\": ", f.name).into_bytes().into_boxed_slice(),
        key_plain: format!("{}: ", f.name).into_bytes().into_boxed_slice(),
        slot,
        ty: kind,
        elem,
        array_len: ty.fixed_length,
        default,
        optional: matches!(f.default, DefaultValue::Null),
        required: f.presence == Presence::Required,
        deprecated: f.deprecated,
        key: f.key,
        shared: f.shared,
        hash: f.hash,
        sibling: f.union_sibling.unwrap_or(0),
        force_align,
        order,
    }
}

/// What a field with a 64-bit offset points to, and its element kind; `None` for what flatc does
/// not allow (vectors of strings, tables or unions; `vector64` FlexBuffers).
fn far_plan(schema: &Schema, f: &flatforge_schema::Field) -> Option<(Far, Elem)> {
    let ty = f.ty;
    let len64 = match ty.base_type {
        BaseType::String => return Some((Far::String, Elem::None)),
        BaseType::Vector => false,
        BaseType::Vector64 => true,
        _ => return None,
    };
    if f.flexbuffer {
        return (!len64).then_some((Far::Flex, Elem::None));
    }
    if let Some(o) = f.nested_flatbuffer {
        let far = if len64 {
            Far::Nested64(o.0)
        } else {
            Far::Nested(o.0)
        };
        return Some((far, Elem::None));
    }
    let elem = elem_of(schema, ty.element, ty.index);
    let far = if len64 { Far::Vector64 } else { Far::Vector };
    matches!(elem, Elem::Scalar(..) | Elem::Struct(_)).then_some((far, elem))
}

/// The size class flatc orders table fields by (`SizeOf` of the base type): 0 for 8 bytes, 1 for
/// 4 (offsets and structs too), 2 for 2, 3 for 1. A string or an ordinary vector behind a 64-bit
/// offset is in the class of 4 (its base type's), though its field takes 8 bytes. A union's type
/// field is in the class of 1 whatever its integer type: its base type is `UType` (and flatc's C++
/// builders add an `int` one among the bytes too).
fn size_rank(ty: Ty) -> u32 {
    let size = match ty {
        Ty::Scalar(sc, _) => sc.size(),
        Ty::UType(_) | Ty::Wide(Wide::UType, ..) => 1,
        Ty::Far(Far::Vector64 | Far::Nested64(_)) => 8,
        _ => 4,
    };
    match size {
        8 => 0,
        4 => 1,
        2 => 2,
        _ => 3,
    }
}

impl Plan {
    pub(crate) fn new(schema: &Schema) -> Plan {
        let objects: Box<[Obj]> = schema
            .objects
            .iter()
            .map(|o| {
                let fields: Box<[Field]> =
                    o.fields.iter().map(|f| field_plan(schema, o, f)).collect();
                let by_name = NameMap::new(fields.iter().map(|f| &*f.name));
                let unions = (0..fields.len() as u16)
                    .filter(|&i| {
                        matches!(
                            fields[usize::from(i)].ty,
                            Ty::Union(_)
                                | Ty::UnionVector(_)
                                | Ty::Wide(Wide::Union | Wide::UnionVector, ..)
                        )
                    })
                    .collect();
                let required = (0..fields.len() as u16)
                    .filter(|&i| fields[usize::from(i)].required)
                    .collect();
                Obj {
                    name: o.full_name.as_str().into(),
                    bytesize: o.bytesize as usize,
                    minalign: o.minalign.max(1) as usize,
                    by_name,
                    key: o.key_field,
                    unions,
                    required,
                    fields,
                }
            })
            .collect();
        let enums: Box<[EnumPlan]> = schema
            .enums
            .iter()
            .map(|e| {
                let values: Box<[Val]> = e
                    .values
                    .iter()
                    .map(|v| Val {
                        name: v.name.as_str().into(),
                        quoted: quote(&v.name),
                        value: v.value,
                        member: v
                            .union_type
                            .map_or(Elem::None, |t| elem_of(schema, t.base_type, t.index)),
                    })
                    .collect();
                EnumPlan {
                    name: e.full_name.as_str().into(),
                    short_name: e.name.as_str().into(),
                    by_name: NameMap::new(values.iter().map(|v| &*v.name)),
                    values,
                    bit_flags: e.bit_flags,
                    underlying: Sc::from_base(e.underlying_type.base_type).unwrap_or(Sc::U8),
                }
            })
            .collect();
        let enum_names: Box<[Box<str>]> = enums
            .iter()
            .map(|e| e.name.clone())
            .chain(enums.iter().map(|e| e.short_name.clone()))
            .collect();
        let enums_by_name = NameMap::new(enum_names.iter().map(|n| &**n));
        let file_identifier = schema.file_identifier.as_deref().and_then(|s| {
            let b = s.as_bytes();
            (b.len() == 4).then(|| [b[0], b[1], b[2], b[3]])
        });
        Plan {
            objects,
            enums,
            enums_by_name,
            enum_names,
            file_identifier,
        }
    }

    /// The enum named `name` (fully qualified, or its short name).
    pub(crate) fn enum_named(&self, name: &[u8]) -> Option<&EnumPlan> {
        let n = self.enums.len();
        self.enums_by_name
            .find(name, |i| &self.enum_names[i])
            .map(|i| &self.enums[if i >= n { i - n } else { i }])
    }
}
