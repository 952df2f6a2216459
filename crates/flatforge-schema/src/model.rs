//! The resolved, laid-out schema: the one model code generation, JSON, verification and
//! reflection read.
//!
//! It mirrors the information of flatc's `reflection.fbs`, so writing a `.bfbs` is a straight
//! walk:
//!
//! * [`Schema::objects`] (tables and structs) and [`Schema::enums`] (enums and unions) are sorted
//!   by fully qualified name, byte-wise, exactly as flatc orders them in `.bfbs`; an
//!   [`ObjectId`]/[`EnumId`] is an index into these vectors and equals the `index` flatc writes in
//!   a reflection `Type`. [`Schema::services`] are sorted the same way.
//! * [`Object::fields`] are in id order: for a table, field `i` has id `i` and vtable offset
//!   `4 + 2 * i`; for a struct, fields are in declaration (memory) order with their byte offsets.
//!   A union field is preceded by its hidden `NAME_type` field, as in flatc (marked
//!   [`Field::synthesized`]). [`Object::fields_by_name`] gives the name order `.bfbs` uses.
//! * [`Enum::values`] are sorted by value (ties by name), as in `.bfbs`; a union's first value is
//!   the implicit `NONE = 0`.
//! * Every definition records the file it was declared in ([`FileId`], an index into
//!   [`Schema::files`]) and its span; [`SchemaFile::includes`] is the include graph, and each file
//!   lists its own definitions in declaration order (one generated module per file).
//!
//! Lookups by fully qualified name are binary searches on the sorted vectors
//! ([`Schema::find_object`], [`Schema::find_enum`]); lookups of fields and enum values by name are
//! binary searches on the name-order permutations.
//!
//! ```
//! let schema = flatforge_schema::compile_str(
//!     "game.fbs",
//!     "namespace Game; struct Vec3 { x: float; y: float; z: float; }
//!      union Equipment { Weapon } table Weapon { damage: short; }
//!      table Monster { pos: Vec3; name: string (required); gear: Equipment; } root_type Monster;",
//! )
//! .unwrap();
//! let monster = schema.find_object("Game.Monster").unwrap();
//! let fields: Vec<&str> = schema[monster].fields.iter().map(|f| &*f.name).collect();
//! // Id order, the union's hidden type field before it.
//! assert_eq!(fields, ["pos", "name", "gear_type", "gear"]);
//! let vec3 = &schema[schema.find_object("Game.Vec3").unwrap()];
//! assert_eq!((vec3.bytesize, vec3.minalign), (12, 4));
//! let equipment = &schema[schema.find_enum("Game.Equipment").unwrap()];
//! assert_eq!(equipment.values[0].name, "NONE");
//! ```

use std::ops::Index;

pub use crate::file_path::FilePath;
pub use crate::id_list::IdList;
pub use crate::name::Name;
use crate::name_index::NameIndex;
use crate::source::{FileId, Span};

/// Index of a table or struct in [`Schema::objects`] (and its reflection `index`).
///
/// ```
/// use flatforge_schema::ObjectId;
/// let schema = flatforge_schema::compile_str("a.fbs", "table B {} table A { b: B; }")?;
/// let a = schema.find_object("A").unwrap();
/// assert_eq!(a, ObjectId(0)); // sorted by name: `A` before `B`
/// assert_eq!(schema[a].name, "A");
/// assert_eq!(schema[a].fields[0].ty.object(), Some(ObjectId(1)));
/// # Ok::<(), flatforge_schema::CompileError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectId(pub u32);

/// Index of an enum or union in [`Schema::enums`] (and its reflection `index`).
///
/// ```
/// use flatforge_schema::EnumId;
/// let schema = flatforge_schema::compile_str("a.fbs", "enum Z : byte { X } enum A : byte { Y }")?;
/// let a = schema.find_enum("A").unwrap();
/// assert_eq!(a, EnumId(0)); // sorted by name: `A` before `Z`
/// assert_eq!(schema[a].values[0].name, "Y");
/// # Ok::<(), flatforge_schema::CompileError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EnumId(pub u32);

/// Index of an `rpc_service` in [`Schema::services`].
///
/// ```
/// use flatforge_schema::ServiceId;
/// let schema = flatforge_schema::compile_str("a.fbs", "table Q {} rpc_service S { Get(Q): Q; }")?;
/// let s = schema.find_service("S").unwrap();
/// assert_eq!(s, ServiceId(0));
/// assert_eq!(schema[s].calls[0].name, "Get");
/// # Ok::<(), flatforge_schema::CompileError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ServiceId(pub u32);

/// A compiled schema: a root file and everything it includes.
///
/// ```
/// let schema = flatforge_schema::compile_str(
///     "monster.fbs",
///     "namespace Game; table Monster { name: string; hp: short = 100; } root_type Monster;",
/// )
/// .unwrap();
/// let id = schema.find_object("Game.Monster").unwrap();
/// let monster = &schema[id];
/// assert_eq!(schema.root_table, Some(id));
/// assert_eq!(monster.field("hp").unwrap().default, flatforge_schema::DefaultValue::Int(100));
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Schema {
    /// Tables and structs, sorted by fully qualified name.
    pub objects: Vec<Object>,
    /// Enums and unions, sorted by fully qualified name.
    pub enums: Vec<Enum>,
    /// RPC services, sorted by fully qualified name.
    pub services: Vec<Service>,
    /// The root file's `root_type` (root types of included files are in [`SchemaFile`]).
    pub root_table: Option<ObjectId>,
    /// The root file's `file_identifier` (exactly 4 bytes).
    pub file_identifier: Option<String>,
    /// The root file's `file_extension`.
    pub file_extension: Option<String>,
    /// All files of the compilation, indexed by [`FileId`]; the root file is `FileId(0)`.
    pub files: Vec<SchemaFile>,
    /// Names declared with `attribute "name";`, in declaration order.
    pub declared_attributes: Vec<String>,
    /// Language features used, as flatc records them in `.bfbs`.
    pub advanced_features: AdvancedFeatures,
}

impl Schema {
    /// The table or struct with the given fully qualified name.
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("a.fbs", "namespace A.B; struct S { x: int; }").unwrap();
    /// assert!(schema.find_object("A.B.S").is_some());
    /// assert!(schema.find_object("S").is_none());
    /// ```
    pub fn find_object(&self, full_name: &str) -> Option<ObjectId> {
        self.objects
            .binary_search_by(|o| o.full_name.as_str().cmp(full_name))
            .ok()
            .map(|i| ObjectId(i as u32))
    }

    /// The enum or union with the given fully qualified name.
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("a.fbs", "enum E : byte { A }").unwrap();
    /// assert_eq!(schema.find_enum("E"), Some(flatforge_schema::EnumId(0)));
    /// ```
    pub fn find_enum(&self, full_name: &str) -> Option<EnumId> {
        self.enums
            .binary_search_by(|e| e.full_name.as_str().cmp(full_name))
            .ok()
            .map(|i| EnumId(i as u32))
    }

    /// The service with the given fully qualified name.
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str(
    ///     "a.fbs",
    ///     "table Q {} rpc_service S { Get(Q): Q; }",
    /// )
    /// .unwrap();
    /// assert!(schema.find_service("S").is_some());
    /// ```
    pub fn find_service(&self, full_name: &str) -> Option<ServiceId> {
        self.services
            .binary_search_by(|s| s.full_name.as_str().cmp(full_name))
            .ok()
            .map(|i| ServiceId(i as u32))
    }

    /// The root file of the compilation.
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("main.fbs", "table T {}").unwrap();
    /// assert_eq!(schema.root_file().path.to_str(), Some("main.fbs"));
    /// ```
    pub fn root_file(&self) -> &SchemaFile {
        &self.files[0]
    }
}

impl Index<ObjectId> for Schema {
    type Output = Object;
    fn index(&self, id: ObjectId) -> &Object {
        &self.objects[id.0 as usize]
    }
}

impl Index<EnumId> for Schema {
    type Output = Enum;
    fn index(&self, id: EnumId) -> &Enum {
        &self.enums[id.0 as usize]
    }
}

impl Index<ServiceId> for Schema {
    type Output = Service;
    fn index(&self, id: ServiceId) -> &Service {
        &self.services[id.0 as usize]
    }
}

impl Index<FileId> for Schema {
    type Output = SchemaFile;
    fn index(&self, id: FileId) -> &SchemaFile {
        &self.files[id.index()]
    }
}

/// One file of the compilation: what it includes and what it declares.
///
/// ```
/// let mut loader = flatforge_schema::MemoryLoader::new();
/// loader.insert("main.fbs", "include \"dep.fbs\"; table Main { d: Dep; }");
/// loader.insert("dep.fbs", "table Dep {}");
/// let schema = flatforge_schema::Compiler::new(loader).compile("main.fbs").unwrap().schema;
/// let main = schema.root_file();
/// assert_eq!(schema[main.includes[0]].path.to_str(), Some("dep.fbs"));
/// assert_eq!(schema[main.objects[0]].name, "Main");
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct SchemaFile {
    /// The path the file was loaded from (lexically normalized).
    pub path: FilePath,
    /// Files this file includes, in the order of its `include` statements, without repeats.
    pub includes: IdList<FileId>,
    /// Its `native_include` paths, in order.
    pub native_includes: Vec<String>,
    /// Tables and structs it declares, in declaration order.
    pub objects: IdList<ObjectId>,
    /// Enums and unions it declares, in declaration order.
    pub enums: IdList<EnumId>,
    /// Services it declares, in declaration order.
    pub services: IdList<ServiceId>,
    /// Its own `root_type`, if it has one.
    pub root_table: Option<ObjectId>,
    /// Its own `file_identifier`, if it has one.
    pub file_identifier: Option<String>,
    /// Its own `file_extension`, if it has one.
    pub file_extension: Option<String>,
}

/// A table or a struct.
///
/// ```
/// let schema = flatforge_schema::compile_str(
///     "a.fbs",
///     "struct S { a: byte; b: int; c: double; }",
/// )
/// .unwrap();
/// let v = &schema.objects[0];
/// assert!(v.is_struct);
/// assert_eq!((v.bytesize, v.minalign), (16, 8));
/// assert_eq!(v.fields[0].padding, 3);
/// assert_eq!(v.fields[1].offset, 4);
/// assert_eq!(v.fields[2].offset, 8);
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Object {
    /// The name as declared (`Monster`).
    pub name: Name,
    /// The dotted namespace (`MyGame.Example`), empty for the global namespace.
    pub namespace: Name,
    /// `namespace.name`, or `name` in the global namespace.
    pub full_name: Name,
    /// A struct (fixed layout, inline) rather than a table.
    pub is_struct: bool,
    /// The fields in id order (tables) or memory order (structs).
    pub fields: Vec<Field>,
    /// Indices into `fields`, sorted by field name (see [`Object::fields_by_name`]).
    pub(crate) by_name: NameIndex<u16, 11>,
    /// Alignment: the largest field alignment of a struct (or its `force_align`); 1 for tables.
    pub minalign: u32,
    /// Size in bytes of a struct, trailing padding included; 0 for tables.
    pub bytesize: u32,
    /// The index in `fields` of the `key` field, if any.
    pub key_field: Option<u16>,
    /// Attributes, in source order.
    pub attributes: Attributes,
    /// Doc comment lines (`///`), each without the slashes.
    pub docs: Vec<String>,
    /// The file that declares it.
    pub file: FileId,
    /// The span of its name in the declaration.
    pub span: Span,
}

impl Object {
    /// The field with the given name.
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("a.fbs", "table T { b: int; a: int; }").unwrap();
    /// assert_eq!(schema.objects[0].field("a").unwrap().id, 1);
    /// ```
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.field_index(name).map(|i| &self.fields[i])
    }

    /// The index in [`Object::fields`] of the field with the given name.
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("a.fbs", "table T { b: int; a: int; }").unwrap();
    /// assert_eq!(schema.objects[0].field_index("b"), Some(0));
    /// ```
    pub fn field_index(&self, name: &str) -> Option<usize> {
        self.by_name.find(name, |i| &self.fields[i].name)
    }

    /// Indices into [`Object::fields`], sorted by field name (byte-wise): the order of fields
    /// in `.bfbs`.
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("a.fbs", "table T { b: int; c: int; a: int; }")?;
    /// let t = &schema.objects[0];
    /// assert_eq!(t.fields_by_name(), [2, 0, 1]);
    /// let names: Vec<&str> = t.fields_by_name().iter().map(|&i| &*t.fields[i as usize].name).collect();
    /// assert_eq!(names, ["a", "b", "c"]);
    /// # Ok::<(), flatforge_schema::CompileError>(())
    /// ```
    pub fn fields_by_name(&self) -> &[u16] {
        self.by_name.as_slice()
    }

    /// Whether the table keeps its fields in declaration order when flatc serializes JSON
    /// (`original_order`).
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("a.fbs", "table T (original_order) { a: int; }").unwrap();
    /// assert!(schema.objects[0].original_order());
    /// ```
    pub fn original_order(&self) -> bool {
        self.attributes.get("original_order").is_some()
    }
}

/// A field of a table or struct.
///
/// ```
/// let schema = flatforge_schema::compile_str(
///     "a.fbs",
///     "table T { name: string (required); hp: short = 100; mana: short = null; }",
/// )
/// .unwrap();
/// let t = &schema.objects[0];
/// use flatforge_schema::{BaseType, DefaultValue, Presence};
/// assert_eq!(t.fields[0].presence, Presence::Required);
/// assert_eq!(t.fields[1].ty.base_type, BaseType::Short);
/// assert_eq!((t.fields[1].id, t.fields[1].offset), (1, 6));
/// assert_eq!(t.fields[2].default, DefaultValue::Null);
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Field {
    /// The field name.
    pub name: Name,
    /// Its type.
    pub ty: Type,
    /// Its id: its position in [`Object::fields`].
    pub id: u16,
    /// Tables: the vtable offset `4 + 2 * id`. Structs: the byte offset in the struct.
    pub offset: u16,
    /// Its default value.
    pub default: DefaultValue,
    /// Required, optional or default (flatc's field presence).
    pub presence: Presence,
    /// `deprecated`: the slot stays reserved, nothing reads or writes it.
    pub deprecated: bool,
    /// `key`: vectors of this type can be sorted and searched by this field.
    pub key: bool,
    /// Struct fields: bytes of padding after this field.
    pub padding: u16,
    /// `nested_flatbuffer: "T"`: this `[ubyte]` holds a buffer whose root is this table.
    pub nested_flatbuffer: Option<ObjectId>,
    /// `flexbuffer`: this `[ubyte]` holds a FlexBuffer.
    pub flexbuffer: bool,
    /// `hash: "fnv1a_32"`: JSON strings for this integer field are hashed.
    pub hash: Option<HashKind>,
    /// `shared`: strings are deduplicated when building from JSON/object API.
    pub shared: bool,
    /// `offset64` (or `vector64`): the field uses a 64-bit offset.
    pub offset64: bool,
    /// Hidden field added by the compiler: the `NAME_type` field of a union field `NAME`.
    pub synthesized: bool,
    /// For a union field, the index of its `NAME_type` field, and the other way round.
    pub union_sibling: Option<u16>,
    /// Attributes, in source order (for a `NAME_type` field: the `id` flatc gives it).
    pub attributes: Attributes,
    /// Doc comment lines.
    pub docs: Vec<String>,
    /// The span of the field name (for a synthesized field, the union field's name).
    pub span: Span,
}

/// Whether a field must, may or by default does appear (flatc's `FieldDef::Presence`).
///
/// ```
/// use flatforge_schema::Presence;
/// let schema = flatforge_schema::compile_str(
///     "a.fbs",
///     "table T { hp: short = 100; mana: short = null; name: string (required); tag: string; }",
/// )?;
/// let presence: Vec<Presence> = schema.objects[0].fields.iter().map(|f| f.presence).collect();
/// assert_eq!(
///     presence,
///     [Presence::Default, Presence::Optional, Presence::Required, Presence::Optional]
/// );
/// # Ok::<(), flatforge_schema::CompileError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Presence {
    /// A scalar with a default value: absent means the default.
    Default,
    /// May be absent: optional scalars (`= null`) and non-scalars that are not required.
    Optional,
    /// Must be present (`required`, and string `key` fields).
    Required,
}

/// A field's default value, typed.
///
/// ```
/// use flatforge_schema::DefaultValue;
/// let schema = flatforge_schema::compile_str(
///     "a.fbs",
///     "table T { a: ulong = 18446744073709551615; b: float = -inf; c: string = \"x\"; d: [int] = []; }",
/// )
/// .unwrap();
/// let t = &schema.objects[0];
/// assert_eq!(t.fields[0].default, DefaultValue::UInt(u64::MAX));
/// assert_eq!(t.fields[1].default, DefaultValue::Float(f64::NEG_INFINITY));
/// assert_eq!(t.fields[2].default, DefaultValue::String("x".into()));
/// assert_eq!(t.fields[3].default, DefaultValue::EmptyVector);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum DefaultValue {
    /// No default: tables, structs, unions, arrays, vectors and strings without `= ...`.
    None,
    /// An optional scalar (`= null`): absent means "no value".
    Null,
    /// A `bool` field's default.
    Bool(bool),
    /// A signed integer field's default (enums: the value of the enumerator).
    Int(i64),
    /// An unsigned integer field's default, all 64 bits of `ulong` included.
    UInt(u64),
    /// A `float` or `double` field's default, as the text denotes it in double precision
    /// (NaN is always the positive quiet NaN, as flatc normalizes it).
    Float(f64),
    /// A string field's default (`= "text"`).
    String(String),
    /// A vector field's default `= []`.
    EmptyVector,
}

/// The fnv hash of a `hash` attribute.
///
/// ```
/// use flatforge_schema::HashKind;
/// assert_eq!(HashKind::from_name("fnv1a_32"), Some(HashKind::Fnv1a32));
/// assert_eq!(HashKind::Fnv1a32.hash(b""), 0x811c9dc5);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HashKind {
    /// `fnv1_16`
    Fnv1_16,
    /// `fnv1a_16`
    Fnv1a16,
    /// `fnv1_32`
    Fnv1_32,
    /// `fnv1a_32`
    Fnv1a32,
    /// `fnv1_64`
    Fnv1_64,
    /// `fnv1a_64`
    Fnv1a64,
}

impl HashKind {
    /// The kind for a `hash` attribute value.
    ///
    /// ```
    /// assert!(flatforge_schema::HashKind::from_name("md5").is_none());
    /// ```
    pub fn from_name(name: &str) -> Option<HashKind> {
        Some(match name {
            "fnv1_16" => HashKind::Fnv1_16,
            "fnv1a_16" => HashKind::Fnv1a16,
            "fnv1_32" => HashKind::Fnv1_32,
            "fnv1a_32" => HashKind::Fnv1a32,
            "fnv1_64" => HashKind::Fnv1_64,
            "fnv1a_64" => HashKind::Fnv1a64,
            _ => return None,
        })
    }

    /// The attribute value naming this kind.
    ///
    /// ```
    /// assert_eq!(flatforge_schema::HashKind::Fnv1_64.name(), "fnv1_64");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            HashKind::Fnv1_16 => "fnv1_16",
            HashKind::Fnv1a16 => "fnv1a_16",
            HashKind::Fnv1_32 => "fnv1_32",
            HashKind::Fnv1a32 => "fnv1a_32",
            HashKind::Fnv1_64 => "fnv1_64",
            HashKind::Fnv1a64 => "fnv1a_64",
        }
    }

    /// The width of the hash in bits (16, 32 or 64).
    ///
    /// ```
    /// assert_eq!(flatforge_schema::HashKind::Fnv1a16.bits(), 16);
    /// ```
    pub fn bits(self) -> u32 {
        match self {
            HashKind::Fnv1_16 | HashKind::Fnv1a16 => 16,
            HashKind::Fnv1_32 | HashKind::Fnv1a32 => 32,
            HashKind::Fnv1_64 | HashKind::Fnv1a64 => 64,
        }
    }

    /// Hashes `bytes` exactly as flatc does: hashing stops at a NUL byte, 16-bit hashes fold the
    /// 32-bit hash (`(h >> 16) ^ (h & 0xffff)`), and the 64-bit offset basis is flatc's
    /// `0xcbf29ce484222645`.
    ///
    /// ```
    /// use flatforge_schema::HashKind;
    /// assert_eq!(HashKind::Fnv1a64.hash(b"a"), 0xaf66bc4c8606cf2c);
    /// assert_eq!(HashKind::Fnv1_32.hash(b"a"), 0x050c5d7e);
    /// ```
    pub fn hash(self, bytes: &[u8]) -> u64 {
        const P32: u32 = 0x0100_0193;
        const B32: u32 = 0x811c_9dc5;
        const P64: u64 = 0x0000_0100_0000_01b3;
        const B64: u64 = 0xcbf2_9ce4_8422_2645;
        let bytes = bytes.split(|&b| b == 0).next().unwrap_or_default();
        let fnv1_32 = |a: bool| {
            let mut h = B32;
            for &b in bytes {
                if a {
                    h = (h ^ u32::from(b)).wrapping_mul(P32);
                } else {
                    h = h.wrapping_mul(P32) ^ u32::from(b);
                }
            }
            h
        };
        let fnv1_64 = |a: bool| {
            let mut h = B64;
            for &b in bytes {
                if a {
                    h = (h ^ u64::from(b)).wrapping_mul(P64);
                } else {
                    h = h.wrapping_mul(P64) ^ u64::from(b);
                }
            }
            h
        };
        match self {
            HashKind::Fnv1_16 => u64::from(fold16(fnv1_32(false))),
            HashKind::Fnv1a16 => u64::from(fold16(fnv1_32(true))),
            HashKind::Fnv1_32 => u64::from(fnv1_32(false)),
            HashKind::Fnv1a32 => u64::from(fnv1_32(true)),
            HashKind::Fnv1_64 => fnv1_64(false),
            HashKind::Fnv1a64 => fnv1_64(true),
        }
    }
}

fn fold16(h: u32) -> u16 {
    ((h >> 16) ^ (h & 0xffff)) as u16
}

/// The base types of reflection.fbs, with the same numbering.
///
/// ```
/// use flatforge_schema::BaseType;
/// assert_eq!(BaseType::Obj as u8, 15);
/// assert_eq!(BaseType::Double.size(), 8);
/// assert!(BaseType::UShort.is_unsigned());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum BaseType {
    /// No type (the `element` of a non-vector, a union's `NONE` member type).
    None = 0,
    /// The type of a union's hidden `_type` field.
    UType,
    /// `bool`
    Bool,
    /// `byte` / `int8`
    Byte,
    /// `ubyte` / `uint8`
    UByte,
    /// `short` / `int16`
    Short,
    /// `ushort` / `uint16`
    UShort,
    /// `int` / `int32`
    Int,
    /// `uint` / `uint32`
    UInt,
    /// `long` / `int64`
    Long,
    /// `ulong` / `uint64`
    ULong,
    /// `float` / `float32`
    Float,
    /// `double` / `float64`
    Double,
    /// `string`
    String,
    /// `[T]`
    Vector,
    /// A table or a struct.
    Obj,
    /// A union value.
    Union,
    /// `[T:N]` (structs only).
    Array,
    /// `[T]` with `vector64`.
    Vector64,
}

impl BaseType {
    /// Size in bytes of a value of this type as stored inline (offsets for non-scalars), as
    /// flatc's `SizeOf`.
    ///
    /// ```
    /// use flatforge_schema::BaseType;
    /// assert_eq!(BaseType::String.size(), 4);
    /// assert_eq!(BaseType::Vector64.size(), 8);
    /// assert_eq!(BaseType::None.size(), 1);
    /// ```
    pub fn size(self) -> usize {
        match self {
            BaseType::None
            | BaseType::UType
            | BaseType::Bool
            | BaseType::Byte
            | BaseType::UByte => 1,
            BaseType::Short | BaseType::UShort => 2,
            BaseType::Int | BaseType::UInt | BaseType::Float => 4,
            BaseType::Long | BaseType::ULong | BaseType::Double | BaseType::Vector64 => 8,
            BaseType::String
            | BaseType::Vector
            | BaseType::Obj
            | BaseType::Union
            | BaseType::Array => 4,
        }
    }

    /// `UType` through `Double`.
    ///
    /// ```
    /// assert!(flatforge_schema::BaseType::Bool.is_scalar());
    /// assert!(!flatforge_schema::BaseType::String.is_scalar());
    /// ```
    pub fn is_scalar(self) -> bool {
        (BaseType::UType..=BaseType::Double).contains(&self)
    }

    /// `UType` through `ULong` (bool included, as in flatc).
    ///
    /// ```
    /// assert!(flatforge_schema::BaseType::ULong.is_integer());
    /// assert!(!flatforge_schema::BaseType::Float.is_integer());
    /// ```
    pub fn is_integer(self) -> bool {
        (BaseType::UType..=BaseType::ULong).contains(&self)
    }

    /// `Float` or `Double`.
    ///
    /// ```
    /// assert!(flatforge_schema::BaseType::Double.is_float());
    /// ```
    pub fn is_float(self) -> bool {
        matches!(self, BaseType::Float | BaseType::Double)
    }

    /// Unsigned integer types (`UType`, `Bool`, `UByte`, `UShort`, `UInt`, `ULong`).
    ///
    /// ```
    /// assert!(!flatforge_schema::BaseType::Byte.is_unsigned());
    /// ```
    pub fn is_unsigned(self) -> bool {
        matches!(
            self,
            BaseType::UType
                | BaseType::Bool
                | BaseType::UByte
                | BaseType::UShort
                | BaseType::UInt
                | BaseType::ULong
        )
    }

    /// The name in schema syntax (`"ushort"`, `"string"`), or the reflection name for types that
    /// have no keyword (`"Vector"`, `"Obj"`...).
    ///
    /// ```
    /// assert_eq!(flatforge_schema::BaseType::UByte.name(), "ubyte");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            BaseType::None => "none",
            BaseType::UType => "utype",
            BaseType::Bool => "bool",
            BaseType::Byte => "byte",
            BaseType::UByte => "ubyte",
            BaseType::Short => "short",
            BaseType::UShort => "ushort",
            BaseType::Int => "int",
            BaseType::UInt => "uint",
            BaseType::Long => "long",
            BaseType::ULong => "ulong",
            BaseType::Float => "float",
            BaseType::Double => "double",
            BaseType::String => "string",
            BaseType::Vector => "Vector",
            BaseType::Obj => "Obj",
            BaseType::Union => "Union",
            BaseType::Array => "Array",
            BaseType::Vector64 => "Vector64",
        }
    }

    /// The reflection.fbs enumerator name (`"UShort"`, `"Obj"`).
    ///
    /// ```
    /// assert_eq!(flatforge_schema::BaseType::UType.reflection_name(), "UType");
    /// ```
    pub fn reflection_name(self) -> &'static str {
        match self {
            BaseType::None => "None",
            BaseType::UType => "UType",
            BaseType::Bool => "Bool",
            BaseType::Byte => "Byte",
            BaseType::UByte => "UByte",
            BaseType::Short => "Short",
            BaseType::UShort => "UShort",
            BaseType::Int => "Int",
            BaseType::UInt => "UInt",
            BaseType::Long => "Long",
            BaseType::ULong => "ULong",
            BaseType::Float => "Float",
            BaseType::Double => "Double",
            BaseType::String => "String",
            BaseType::Vector => "Vector",
            BaseType::Obj => "Obj",
            BaseType::Union => "Union",
            BaseType::Array => "Array",
            BaseType::Vector64 => "Vector64",
        }
    }
}

/// What a [`Type`] refers to.
///
/// ```
/// use flatforge_schema::TypeRef;
/// let schema = flatforge_schema::compile_str(
///     "a.fbs",
///     "enum E : byte { A } struct S { x: int; } table T { e: E; s: S; n: int; }",
/// )?;
/// let t = &schema[schema.find_object("T").unwrap()];
/// assert_eq!(t.fields[0].ty.index, Some(TypeRef::Enum(schema.find_enum("E").unwrap())));
/// assert_eq!(t.fields[1].ty.index, Some(TypeRef::Object(schema.find_object("S").unwrap())));
/// assert_eq!(t.fields[2].ty.index, None);
/// # Ok::<(), flatforge_schema::CompileError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TypeRef {
    /// A table or struct.
    Object(ObjectId),
    /// An enum or union.
    Enum(EnumId),
}

/// A field's (or enum's, or union member's) type, as reflection.fbs describes it.
///
/// * Scalars: `base_type` is the scalar; `index` is the enum for enum-typed fields.
/// * `string`: `base_type` is `String`.
/// * Tables and structs: `base_type` is `Obj`, `index` the object.
/// * Unions: `base_type` is `Union` (the hidden type field: `UType`), `index` the union.
/// * Vectors and arrays: `base_type` is `Vector`/`Vector64`/`Array`, `element` the element's base
///   type, `index` the element's object or enum, `fixed_length` the array length.
///
/// ```
/// use flatforge_schema::{BaseType, TypeRef};
/// let schema = flatforge_schema::compile_str(
///     "a.fbs",
///     "enum E : ubyte { A } struct S { a: [E:3]; } table T { s: [S]; e: E; }",
/// )
/// .unwrap();
/// let t = &schema[schema.find_object("T").unwrap()];
/// assert_eq!(t.fields[0].ty.base_type, BaseType::Vector);
/// assert_eq!(t.fields[0].ty.element, BaseType::Obj);
/// assert_eq!(t.fields[0].ty.element_size(&schema), 3);
/// assert_eq!(t.fields[1].ty.index, Some(TypeRef::Enum(schema.find_enum("E").unwrap())));
/// let s = &schema[schema.find_object("S").unwrap()];
/// assert_eq!((s.fields[0].ty.base_type, s.fields[0].ty.fixed_length), (BaseType::Array, 3));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Type {
    /// The type itself.
    pub base_type: BaseType,
    /// The element type of vectors and arrays; `None` otherwise.
    pub element: BaseType,
    /// The referenced object or enum.
    pub index: Option<TypeRef>,
    /// The length of an array; 0 otherwise.
    pub fixed_length: u16,
}

impl Type {
    /// A type without element or reference.
    ///
    /// ```
    /// let t = flatforge_schema::Type::scalar(flatforge_schema::BaseType::Int);
    /// assert!(t.is_scalar());
    /// ```
    pub fn scalar(base_type: BaseType) -> Type {
        Type {
            base_type,
            element: BaseType::None,
            index: None,
            fixed_length: 0,
        }
    }

    /// The referenced table or struct (of the type or of its elements).
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("a.fbs", "table A {} table B { a: [A]; }").unwrap();
    /// let b = &schema.objects[1];
    /// assert_eq!(b.fields[0].ty.object(), Some(flatforge_schema::ObjectId(0)));
    /// ```
    pub fn object(&self) -> Option<ObjectId> {
        match self.index {
            Some(TypeRef::Object(id)) => Some(id),
            _ => None,
        }
    }

    /// The referenced enum or union (of the type or of its elements).
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("a.fbs", "enum E : int { A } table B { e: E; }").unwrap();
    /// assert_eq!(schema.objects[0].fields[0].ty.enum_id(), Some(flatforge_schema::EnumId(0)));
    /// ```
    pub fn enum_id(&self) -> Option<EnumId> {
        match self.index {
            Some(TypeRef::Enum(id)) => Some(id),
            _ => None,
        }
    }

    /// Whether the type is a scalar (enums included).
    ///
    /// ```
    /// assert!(!flatforge_schema::Type::scalar(flatforge_schema::BaseType::String).is_scalar());
    /// ```
    pub fn is_scalar(&self) -> bool {
        self.base_type.is_scalar()
    }

    /// `Vector` or `Vector64`.
    ///
    /// ```
    /// assert!(!flatforge_schema::Type::scalar(flatforge_schema::BaseType::Int).is_vector());
    /// ```
    pub fn is_vector(&self) -> bool {
        matches!(self.base_type, BaseType::Vector | BaseType::Vector64)
    }

    /// The type of the elements of a vector or array (the type itself otherwise).
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("a.fbs", "table T { v: [short]; }").unwrap();
    /// let v = schema.objects[0].fields[0].ty;
    /// assert_eq!(v.element_type().base_type, flatforge_schema::BaseType::Short);
    /// ```
    pub fn element_type(&self) -> Type {
        match self.base_type {
            BaseType::Vector | BaseType::Vector64 | BaseType::Array => Type {
                base_type: self.element,
                element: BaseType::None,
                index: self.index,
                fixed_length: 0,
            },
            _ => *self,
        }
    }

    /// Whether the type is a struct (stored inline).
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("a.fbs", "struct S { a: int; } table T { s: S; }").unwrap();
    /// let t = &schema.objects[1];
    /// assert!(t.fields[0].ty.is_struct(&schema));
    /// ```
    pub fn is_struct(&self, schema: &Schema) -> bool {
        self.base_type == BaseType::Obj && self.object().is_some_and(|id| schema[id].is_struct)
    }

    /// Bytes the value takes inline: a struct's size, an array's total size, an offset for
    /// other non-scalars (flatc's `InlineSize`).
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("a.fbs", "struct S { a: [long:3]; }").unwrap();
    /// assert_eq!(schema.objects[0].fields[0].ty.inline_size(&schema), 24);
    /// ```
    pub fn inline_size(&self, schema: &Schema) -> usize {
        if self.is_struct(schema) {
            return self.object().map_or(0, |id| schema[id].bytesize as usize);
        }
        if self.base_type == BaseType::Array {
            return self.element_type().inline_size(schema) * usize::from(self.fixed_length);
        }
        self.base_type.size()
    }

    /// Alignment of the value inline (flatc's `InlineAlignment`).
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("a.fbs", "struct S { a: [short:3]; }").unwrap();
    /// assert_eq!(schema.objects[0].fields[0].ty.inline_alignment(&schema), 2);
    /// ```
    pub fn inline_alignment(&self, schema: &Schema) -> usize {
        if self.is_struct(schema)
            || (self.base_type == BaseType::Array && self.element == BaseType::Obj)
        {
            return self.object().map_or(1, |id| schema[id].minalign as usize);
        }
        if self.base_type == BaseType::Array {
            return self.element.size();
        }
        self.base_type.size()
    }

    /// The reflection `base_size`: the size of `base_type`.
    ///
    /// ```
    /// assert_eq!(flatforge_schema::Type::scalar(flatforge_schema::BaseType::Short).base_size(), 2);
    /// ```
    pub fn base_size(&self) -> usize {
        self.base_type.size()
    }

    /// The reflection `element_size`: the size of `element`, or a struct's size for vectors of
    /// structs (as flatc computes it: arrays of structs give 4).
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("a.fbs", "table T { v: [long]; }").unwrap();
    /// assert_eq!(schema.objects[0].fields[0].ty.element_size(&schema), 8);
    /// ```
    pub fn element_size(&self, schema: &Schema) -> usize {
        if self.base_type == BaseType::Vector && self.element == BaseType::Obj {
            if let Some(id) = self.object() {
                if schema[id].is_struct {
                    return schema[id].bytesize as usize;
                }
            }
        }
        self.element.size()
    }

    /// The reflection `index`: the object or enum index, or -1.
    ///
    /// ```
    /// assert_eq!(flatforge_schema::Type::scalar(flatforge_schema::BaseType::Int).reflection_index(), -1);
    /// ```
    pub fn reflection_index(&self) -> i32 {
        match self.index {
            Some(TypeRef::Object(id)) => id.0 as i32,
            Some(TypeRef::Enum(id)) => id.0 as i32,
            None => -1,
        }
    }
}

/// An enum or a union.
///
/// ```
/// let schema = flatforge_schema::compile_str(
///     "a.fbs",
///     "enum Color : ubyte (bit_flags) { Red, Green, Blue = 3 } table T {} union U { T }",
/// )
/// .unwrap();
/// let color = &schema[schema.find_enum("Color").unwrap()];
/// assert!(color.bit_flags);
/// let values: Vec<i64> = color.values.iter().map(|v| v.value).collect();
/// assert_eq!(values, [1, 2, 8]);
/// let u = &schema[schema.find_enum("U").unwrap()];
/// assert!(u.is_union);
/// assert_eq!(u.values[0].name, "NONE");
/// assert_eq!(u.values[1].union_type.unwrap().object(), schema.find_object("T"));
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Enum {
    /// The name as declared.
    pub name: Name,
    /// The dotted namespace, empty for the global namespace.
    pub namespace: Name,
    /// `namespace.name`, or `name` in the global namespace.
    pub full_name: Name,
    /// A union rather than an enum.
    pub is_union: bool,
    /// The underlying integer type (for unions `UType` unless declared), with `index` this enum.
    pub underlying_type: Type,
    /// The values, sorted by value (ties by name); for bit flags, the flag values (`1 << n`).
    pub values: Vec<EnumVal>,
    /// Indices into `values`, sorted by name (see [`Enum::values_by_name`]).
    pub(crate) by_name: NameIndex<u32, 5>,
    /// `bit_flags`.
    pub bit_flags: bool,
    /// Attributes, in source order.
    pub attributes: Attributes,
    /// Doc comment lines.
    pub docs: Vec<String>,
    /// The file that declares it.
    pub file: FileId,
    /// The span of its name.
    pub span: Span,
}

impl Enum {
    /// The value with the given name.
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("a.fbs", "enum E : short { A = -3, B }").unwrap();
    /// assert_eq!(schema.enums[0].value_by_name("B").unwrap().value, -2);
    /// ```
    pub fn value_by_name(&self, name: &str) -> Option<&EnumVal> {
        self.by_name
            .find(name, |i| &self.values[i].name)
            .map(|i| &self.values[i])
    }

    /// Indices into [`Enum::values`], sorted by name (byte-wise): the order `.bfbs` does not
    /// use (it lists values by value), handy to list them alphabetically.
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("a.fbs", "enum E : byte { C, A, B }")?;
    /// assert_eq!(schema.enums[0].values_by_name(), [1, 2, 0]);
    /// # Ok::<(), flatforge_schema::CompileError>(())
    /// ```
    pub fn values_by_name(&self) -> &[u32] {
        self.by_name.as_slice()
    }

    /// The (first) value equal to `value` (compare `ulong` values by their bits).
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("a.fbs", "enum E : byte { A = 1, B = 5 }").unwrap();
    /// assert_eq!(schema.enums[0].value_by_number(5).unwrap().name, "B");
    /// ```
    pub fn value_by_number(&self, value: i64) -> Option<&EnumVal> {
        self.values.iter().find(|v| v.value == value)
    }

    /// Whether the underlying type is unsigned (compare values as `u64` then).
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("a.fbs", "enum E : ulong { A }").unwrap();
    /// assert!(schema.enums[0].is_unsigned());
    /// ```
    pub fn is_unsigned(&self) -> bool {
        self.underlying_type.base_type.is_unsigned()
    }
}

/// One value of an enum, or one member of a union.
///
/// ```
/// use flatforge_schema::BaseType;
/// let schema = flatforge_schema::compile_str(
///     "a.fbs",
///     "enum Color : byte { Red = 2, Green } table Sword {} union Weapon { Sword }",
/// )?;
/// let color = &schema[schema.find_enum("Color").unwrap()];
/// let green = &color.values[1];
/// assert_eq!((green.name.as_str(), green.value, green.union_type), ("Green", 3, None));
/// let weapon = &schema[schema.find_enum("Weapon").unwrap()];
/// let sword = weapon.value_by_name("Sword").unwrap();
/// assert_eq!(sword.value, 1); // after the implicit `NONE = 0`
/// assert_eq!(sword.union_type.unwrap().base_type, BaseType::Obj);
/// # Ok::<(), flatforge_schema::CompileError>(())
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct EnumVal {
    /// The name (a union member written `A.B.T` is named `A_B_T`, as flatc names it).
    pub name: Name,
    /// The value; for a `ulong` enum, the bits of the `u64` value.
    pub value: i64,
    /// For union members: the member type (`Obj` table or struct, or `String`); `None` for
    /// enums and for a union's `NONE`.
    pub union_type: Option<Type>,
    /// Attributes, in source order.
    pub attributes: Attributes,
    /// Doc comment lines.
    pub docs: Vec<String>,
    /// The span of its name (for the implicit `NONE`, the enum's opening brace).
    pub span: Span,
}

/// An `rpc_service`.
///
/// ```
/// let schema = flatforge_schema::compile_str(
///     "a.fbs",
///     "table Req {} table Resp {} rpc_service Svc { Call(Req): Resp (streaming: \"server\"); }",
/// )
/// .unwrap();
/// let call = &schema.services[0].calls[0];
/// assert_eq!(schema[call.request].name, "Req");
/// assert_eq!(call.attributes.string("streaming"), Some("server"));
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Service {
    /// The name as declared.
    pub name: Name,
    /// The dotted namespace.
    pub namespace: Name,
    /// `namespace.name`.
    pub full_name: Name,
    /// Its methods, in declaration order.
    pub calls: Vec<RpcCall>,
    /// Attributes.
    pub attributes: Attributes,
    /// Doc comment lines.
    pub docs: Vec<String>,
    /// The file that declares it.
    pub file: FileId,
    /// The span of its name.
    pub span: Span,
}

/// One method of an `rpc_service`.
///
/// ```
/// let schema = flatforge_schema::compile_str(
///     "a.fbs",
///     "table Req {} table Resp {} rpc_service Svc { Get(Req): Resp (idempotent); }",
/// )?;
/// let get = &schema.services[0].calls[0];
/// assert_eq!(get.name, "Get");
/// assert_eq!(schema[get.request].name, "Req");
/// assert_eq!(schema[get.response].name, "Resp");
/// assert!(get.attributes.get("idempotent").is_some());
/// # Ok::<(), flatforge_schema::CompileError>(())
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct RpcCall {
    /// The method name.
    pub name: Name,
    /// The request table.
    pub request: ObjectId,
    /// The response table.
    pub response: ObjectId,
    /// Attributes (`streaming`, `idempotent`...).
    pub attributes: Attributes,
    /// Doc comment lines.
    pub docs: Vec<String>,
    /// The span of its name.
    pub span: Span,
}

/// The attributes of a definition, in source order (the first of duplicates wins, as in flatc).
///
/// ```
/// let schema = flatforge_schema::compile_str(
///     "a.fbs",
///     "attribute \"priority\"; table T { a: int (priority: 3, deprecated); }",
/// )
/// .unwrap();
/// let attrs = &schema.objects[0].fields[0].attributes;
/// assert_eq!(attrs.int("priority"), Some(3));
/// assert!(attrs.get("deprecated").unwrap().builtin);
/// assert!(!attrs.get("priority").unwrap().builtin);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Attributes {
    /// The attributes.
    pub list: Vec<Attribute>,
}

impl Attributes {
    /// The attribute with the given name.
    ///
    /// ```
    /// assert!(flatforge_schema::Attributes::default().get("id").is_none());
    /// ```
    pub fn get(&self, name: &str) -> Option<&Attribute> {
        self.list.iter().find(|a| a.name == name)
    }

    /// The value of a string-valued attribute.
    ///
    /// ```
    /// assert!(flatforge_schema::Attributes::default().string("hash").is_none());
    /// ```
    pub fn string(&self, name: &str) -> Option<&str> {
        match &self.get(name)?.value {
            Some(AttrValue::String(s)) => Some(s),
            _ => None,
        }
    }

    /// The value of an integer-valued attribute.
    ///
    /// ```
    /// assert!(flatforge_schema::Attributes::default().int("id").is_none());
    /// ```
    pub fn int(&self, name: &str) -> Option<i64> {
        match &self.get(name)?.value {
            Some(AttrValue::Int(i)) => Some(*i),
            _ => None,
        }
    }

    /// Whether there are no attributes.
    ///
    /// ```
    /// assert!(flatforge_schema::Attributes::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// One attribute: `name` or `name: value`.
///
/// ```
/// use flatforge_schema::AttrValue;
/// let schema = flatforge_schema::compile_str(
///     "a.fbs",
///     "attribute \"priority\"; table T { a: int (priority: 3, deprecated); }",
/// )?;
/// let attrs = &schema.objects[0].fields[0].attributes;
/// let priority = &attrs.list[0];
/// assert_eq!(priority.name, "priority");
/// assert_eq!(priority.value, Some(AttrValue::Int(3)));
/// assert!(!priority.builtin);
/// assert_eq!((attrs.list[1].name.as_str(), attrs.list[1].builtin), ("deprecated", true));
/// # Ok::<(), flatforge_schema::CompileError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Attribute {
    /// The name.
    pub name: Name,
    /// The value, if one was given.
    pub value: Option<AttrValue>,
    /// Whether flatc knows this attribute (`id`, `deprecated`, `native_type`...), rather than
    /// it being declared with `attribute`. `.bfbs` files carry only non-builtin attributes unless
    /// flatc is given `--bfbs-builtins`.
    pub builtin: bool,
    /// The span of the name (of the original attribute, for attributes flatc adds).
    pub span: Span,
}

impl Attribute {
    /// The value as flatc stores it in `.bfbs` (`"0"` when there is no value).
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("a.fbs", "table T { a: int (id: 0x0); }").unwrap();
    /// let id = schema.objects[0].fields[0].attributes.get("id").unwrap();
    /// assert_eq!(id.reflection_value(), "0");
    /// ```
    pub fn reflection_value(&self) -> String {
        match &self.value {
            None => "0".to_string(),
            Some(AttrValue::Int(i)) => i.to_string(),
            Some(AttrValue::String(s)) => s.clone(),
        }
    }
}

/// An attribute value: flatc accepts integer constants (that fit 32 bits) and strings.
///
/// ```
/// use flatforge_schema::AttrValue;
/// let schema = flatforge_schema::compile_str(
///     "a.fbs",
///     "table T { a: int (id: 0x1); b: uint (id: 0, hash: \"fnv1a_32\"); }",
/// )?;
/// let t = &schema.objects[0];
/// let a = t.field("a").unwrap();
/// assert_eq!(a.attributes.get("id").unwrap().value, Some(AttrValue::Int(1)));
/// let b = t.field("b").unwrap();
/// assert_eq!(b.attributes.get("hash").unwrap().value, Some(AttrValue::String("fnv1a_32".into())));
/// # Ok::<(), flatforge_schema::CompileError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttrValue {
    /// An integer, written in decimal or hex.
    Int(i64),
    /// A string constant.
    String(String),
}

/// Schema features that old code generators do not support (reflection's `AdvancedFeatures`).
///
/// ```
/// let schema = flatforge_schema::compile_str("a.fbs", "table T { a: int = null; }").unwrap();
/// assert!(schema.advanced_features.contains(flatforge_schema::AdvancedFeatures::OPTIONAL_SCALARS));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AdvancedFeatures(pub u64);

impl AdvancedFeatures {
    /// Fixed-length arrays in structs.
    ///
    /// ```
    /// use flatforge_schema::AdvancedFeatures as F;
    /// let schema = flatforge_schema::compile_str("a.fbs", "struct S { a: [int:2]; }")?;
    /// assert_eq!(schema.advanced_features, F::ADVANCED_ARRAY_FEATURES);
    /// # Ok::<(), flatforge_schema::CompileError>(())
    /// ```
    pub const ADVANCED_ARRAY_FEATURES: AdvancedFeatures = AdvancedFeatures(1);
    /// Vectors of unions.
    ///
    /// ```
    /// use flatforge_schema::AdvancedFeatures as F;
    /// let schema =
    ///     flatforge_schema::compile_str("a.fbs", "table A {} union U { A } table T { u: [U]; }")?;
    /// assert_eq!(schema.advanced_features, F::ADVANCED_UNION_FEATURES);
    /// # Ok::<(), flatforge_schema::CompileError>(())
    /// ```
    pub const ADVANCED_UNION_FEATURES: AdvancedFeatures = AdvancedFeatures(2);
    /// Optional scalars (`= null`).
    ///
    /// ```
    /// use flatforge_schema::AdvancedFeatures as F;
    /// let schema = flatforge_schema::compile_str("a.fbs", "table T { a: int = null; }")?;
    /// assert_eq!(schema.advanced_features, F::OPTIONAL_SCALARS);
    /// # Ok::<(), flatforge_schema::CompileError>(())
    /// ```
    pub const OPTIONAL_SCALARS: AdvancedFeatures = AdvancedFeatures(4);
    /// Defaults for strings and vectors.
    ///
    /// ```
    /// use flatforge_schema::AdvancedFeatures as F;
    /// let schema = flatforge_schema::compile_str("a.fbs", "table T { s: string = \"x\"; }")?;
    /// assert_eq!(schema.advanced_features, F::DEFAULT_VECTORS_AND_STRINGS);
    /// # Ok::<(), flatforge_schema::CompileError>(())
    /// ```
    pub const DEFAULT_VECTORS_AND_STRINGS: AdvancedFeatures = AdvancedFeatures(8);

    /// Whether all bits of `other` are set.
    ///
    /// ```
    /// use flatforge_schema::AdvancedFeatures as F;
    /// assert!(F(5).contains(F::OPTIONAL_SCALARS));
    /// ```
    pub fn contains(self, other: AdvancedFeatures) -> bool {
        self.0 & other.0 == other.0
    }

    /// Sets the bits of `other`.
    ///
    /// ```
    /// let mut f = flatforge_schema::AdvancedFeatures::default();
    /// f.insert(flatforge_schema::AdvancedFeatures::ADVANCED_UNION_FEATURES);
    /// assert_eq!(f.0, 2);
    /// ```
    pub fn insert(&mut self, other: AdvancedFeatures) {
        self.0 |= other.0;
    }
}
