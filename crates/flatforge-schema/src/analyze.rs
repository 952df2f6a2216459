//! Semantic analysis: syntax trees to the resolved, laid-out [`Schema`].
//!
//! flatc resolves names in a single pass, in file order (included files first, depth first), and
//! several of its rules depend on that order: an enum must be declared before it is used, a
//! struct before it is embedded in a struct, and a type used before its definition is recorded
//! under the name as written and claimed by the next definition with that simple name. To give
//! exactly flatc's verdicts, this module replays that pass over the syntax trees, with the same
//! symbol tables and lookup order (see `lookup_struct_use` and `lookup_enum`), and checks every
//! rule of flatc's parser at the same point. Unlike flatc it does not stop at the first error:
//! it records the diagnostic and goes on, so all errors of a run are reported.
//!
//! It also runs after syntax errors and missing includes, over what did parse and load, and then
//! leaves out the errors that may only follow from what did not (as rustc does): a use of a name
//! whose declaration failed to parse, or of any name not defined when an include is missing
//! (which could define it), an attribute not declared when an `attribute` declaration failed
//! or an include is missing. A table or struct that lacks a field (which failed to parse, or was
//! left out for an error of its own) is not checked as a whole (`id`s, an empty struct), nor is
//! a struct that contains one.
//!
//! flatc's tables of structs, enums, types and services share one table keyed by name (borrowed
//! from the source where possible; a few names inline, more in a hash map), with a small filter
//! that skips lookups that cannot succeed. Built-in attributes are recognized once, as bits. Fields, attributes and per-file definition lists are built as model values from the
//! start, so the end of the analysis moves them into the [`Schema`] rather than copying them.
//!
//! Struct layout (offsets, padding, size, alignment, `force_align`) is computed as fields are
//! added, as in flatc. At the end, definitions are sorted by fully qualified name and every
//! reference (a slot during the analysis) becomes an index (see [`crate::model`]).

use std::borrow::Cow;
use std::cell::Cell;
use std::mem::ManuallyDrop;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::diagnostic::{Code, Diagnostic};
use crate::lexer::{is_ident_start, Tok, NO_SMALL_INT};
use crate::model::{
    AdvancedFeatures, AttrValue, Attribute, Attributes, BaseType, DefaultValue, Enum, EnumId,
    EnumVal, Field, HashKind, IdList, Name, Object, ObjectId, Presence, RpcCall, Schema,
    SchemaFile, Service, ServiceId, Type, TypeRef,
};
use crate::name_index::{cmp_names, NameIndex};
use crate::number::{int_max, int_range, parse_f64, parse_i64, parse_int_for, parse_u64, IntError};
use crate::one_or_many::OneOrMany;
use crate::parser::{
    AttrAst, Decl, Docs, EnumDecl, FieldDecl, FileAst, HeaderItem, ObjectDecl, QualName,
    ServiceDecl, StrLit, TypeAst, ValueAst, MAX_SPARE_BYTES,
};
use crate::source::{FileId, FileText, Span};
use crate::suggest::closest;
use crate::Loaded;

/// Whether fields may take [`Analyzer::quick_field`]: always, but in the test that holds it to
/// [`Analyzer::field`].
#[cfg(not(test))]
const fn quick_fields() -> bool {
    true
}

#[cfg(test)]
fn quick_fields() -> bool {
    tests::QUICK_FIELDS.get()
}

/// flatc's largest `force_align` (`FLATBUFFERS_MAX_ALIGNMENT`).
const MAX_ALIGNMENT: u32 = 32;

/// Defines [`Builtin`] from its variants and their names, in flatc's order.
macro_rules! builtins {
    ($($variant:ident = $name:literal,)*) => {
        /// An attribute flatc knows without an `attribute` declaration.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        enum Builtin {
            $($variant,)*
        }

        impl Builtin {
            /// All of them, in flatc's order.
            const ALL: &[Builtin] = &[$(Builtin::$variant,)*];

            fn name(self) -> &'static str {
                match self {
                    $(Builtin::$variant => $name,)*
                }
            }

            /// The built-in attribute `name` (a `match`, which compares one candidate).
            fn from_name(name: &str) -> Option<Builtin> {
                match name {
                    $($name => Some(Builtin::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

builtins! {
    Deprecated = "deprecated",
    Required = "required",
    Key = "key",
    Shared = "shared",
    Hash = "hash",
    Id = "id",
    ForceAlign = "force_align",
    BitFlags = "bit_flags",
    OriginalOrder = "original_order",
    NestedFlatbuffer = "nested_flatbuffer",
    CsharpPartial = "csharp_partial",
    Streaming = "streaming",
    Idempotent = "idempotent",
    CppType = "cpp_type",
    CppPtrType = "cpp_ptr_type",
    CppPtrTypeGet = "cpp_ptr_type_get",
    CppStrType = "cpp_str_type",
    CppStrFlexCtor = "cpp_str_flex_ctor",
    NativeInline = "native_inline",
    NativeCustomAlloc = "native_custom_alloc",
    NativeType = "native_type",
    NativeTypePackName = "native_type_pack_name",
    NativeDefault = "native_default",
    Flexbuffer = "flexbuffer",
    Private = "private",
    Offset64 = "offset64",
    Vector64 = "vector64",
}

/// The built-in attributes a definition has (one bit per [`Builtin`]), to test for them without
/// looking through its [`Attributes`].
#[derive(Clone, Copy, Debug, Default)]
struct Known(u32);

impl Known {
    fn insert(&mut self, b: Builtin) {
        self.0 |= 1 << b as u32;
    }

    fn has(self, b: Builtin) -> bool {
        self.0 & (1 << b as u32) != 0
    }

    /// The bits of the attributes in `list`.
    const fn of(list: &[Builtin]) -> Known {
        let mut bits = 0;
        let mut i = 0;
        while i < list.len() {
            bits |= 1 << list[i] as u32;
            i += 1;
        }
        Known(bits)
    }

    /// Whether any of the attributes of `other` is among these.
    fn any(self, other: Known) -> bool {
        self.0 & other.0 != 0
    }

    /// The attribute `b` of `attrs`, the attributes these bits describe.
    fn get(self, attrs: &Attributes, b: Builtin) -> Option<&Attribute> {
        if self.has(b) {
            attrs.get(b.name())
        } else {
            None
        }
    }
}

/// Runs the analysis over the `files` of a compilation (indexed by [`FileId`], the root file
/// first), which were `loaded` without error, or not (see the module documentation). Returns
/// the schema when there were no errors, and appends all diagnostics to `diagnostics`, then
/// sorts those from `first_new` on (the ones of the compilation) in source order. The schema's
/// [`SchemaFile::path`]s are copies of the files' (which the caller keeps for the diagnostics).
pub(crate) fn analyze<'s>(
    files: &'s OneOrMany<Loaded<'s>>,
    loaded: bool,
    diagnostics: &mut Vec<Diagnostic>,
    first_new: usize,
) -> Option<Schema> {
    let mut a = Analyzer::new(files);
    if !loaded {
        a.lost = Some(Box::new(Lost::of(files)));
    }
    // Definitions give most names (uses of types not defined yet give a few more).
    a.names
        .reserve(files.iter().map(|f| f.ast().decls.len()).sum());
    a.file_and_includes(FileId(0));
    a.finish(diagnostics, first_new)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    None,
    /// A slot in `Analyzer::structs` (32 bits keep a `DType` small enough to live in registers).
    Struct(u32),
    /// A slot in `Analyzer::enums`.
    Enum(u32),
}

/// A type during analysis (references are slots, not yet final indices).
#[derive(Clone, Copy, Debug)]
struct DType {
    base: BaseType,
    element: BaseType,
    target: Target,
    fixed_length: u16,
}

impl DType {
    fn scalar(base: BaseType) -> DType {
        DType {
            base,
            element: BaseType::None,
            target: Target::None,
            fixed_length: 0,
        }
    }

    fn is_vector(&self) -> bool {
        matches!(self.base, BaseType::Vector | BaseType::Vector64)
    }

    fn is_series(&self) -> bool {
        self.is_vector() || self.base == BaseType::Array
    }

    fn element_type(&self) -> DType {
        DType {
            base: self.element,
            element: BaseType::None,
            target: self.target,
            fixed_length: 0,
        }
    }

    fn struct_slot(&self) -> Option<usize> {
        match self.target {
            Target::Struct(s) => Some(s as usize),
            _ => None,
        }
    }

    fn enum_slot(&self) -> Option<usize> {
        match self.target {
            Target::Enum(e) => Some(e as usize),
            _ => None,
        }
    }
}

/// flatc's `Value::constant` for defaults and attribute values, without allocating for the
/// common cases.
#[derive(Clone, Debug, PartialEq)]
enum Constant<'s> {
    /// The implicit "0" of a field without default, or of an attribute without value.
    Zero,
    /// "null".
    Null,
    /// An integer (normalized, as flatc repacks integer constants).
    Int(i128),
    /// Text: float constants (as written), strings.
    Text(Cow<'s, str>),
    /// "[]".
    EmptyVector,
}

impl Constant<'_> {
    /// flatc's `constant == "0"`.
    fn is_zero(&self) -> bool {
        match self {
            Constant::Zero => true,
            Constant::Int(v) => *v == 0,
            Constant::Text(t) => t == "0",
            _ => false,
        }
    }

    fn text(&self) -> Cow<'_, str> {
        match self {
            Constant::Zero => "0".into(),
            Constant::Null => "null".into(),
            Constant::Int(v) => v.to_string().into(),
            Constant::Text(t) => Cow::Borrowed(t.as_ref()),
            Constant::EmptyVector => "[]".into(),
        }
    }
}

/// A table or struct of the analysis. What holds memory is [`Batched`]: the slot's `Drop` frees
/// it after one test of all the capacities, as most slots hold none once [`Analyzer::build`] has
/// taken their contents.
#[derive(Debug)]
struct StructSlot<'s> {
    name: Batched<Cow<'s, str>>,
    /// The fully qualified name (empty while the slot is pending).
    full: Batched<Cow<'s, str>>,
    predecl: bool,
    fixed: bool,
    /// The fields as the model has them, except that type references (`Type::index`,
    /// `Field::nested_flatbuffer`) are slots until [`Analyzer::build`] renumbers them.
    fields: Batched<Vec<Field>>,
    /// The value spans of the fields' `id` attributes (field index, span).
    id_spans: Batched<Vec<(usize, Span)>>,
    bytesize: u32,
    minalign: u32,
    has_key: bool,
    attrs: Batched<Attributes>,
    docs: Docs,
    file: FileId,
    span: Span,
    /// Where the type was used while it was not defined yet.
    refs: Batched<Vec<Span>>,
    /// The struct contains itself (already reported).
    circular: bool,
    /// A field is missing: it failed to parse, or was left out for an error (reported).
    partial: bool,
    /// The fields' names, for the duplicate check.
    field_index: Batched<DupIndex<Name>>,
    /// The [`field_bit`]s of the fields' names: a name whose bit is not set is not a duplicate
    /// (and needs no search).
    field_bits: u64,
    /// Some field's name ends with a suffix of [`CLASH_RULES`] (see
    /// [`Analyzer::check_clashes`]).
    suffixed: bool,
}

impl<'s> StructSlot<'s> {
    /// A slot for a type used (or being defined) but not defined yet.
    fn pending(name: Cow<'s, str>, file: FileId, span: Span, refs: Vec<Span>) -> StructSlot<'s> {
        StructSlot {
            name: Batched::new(name),
            full: Batched::new(Cow::Borrowed("")),
            predecl: true,
            fixed: false,
            fields: Batched::new(Vec::new()),
            id_spans: Batched::new(Vec::new()),
            bytesize: 0,
            minalign: 1,
            has_key: false,
            attrs: Batched::new(Attributes::default()),
            docs: (0, 0),
            file,
            span,
            refs: Batched::new(refs),
            circular: false,
            partial: false,
            field_index: Batched::new(DupIndex::default()),
            field_bits: 0,
            suffixed: false,
        }
    }

    /// Records the name of the field about to be added, `name`, whose [`field_bit`] is `bit`,
    /// for the duplicate and clash checks ([`StructSlot::field_bits`], [`StructSlot::suffixed`]).
    #[inline(always)]
    fn note_field_name(&mut self, name: &str, bit: u64) {
        self.field_bits |= bit;
        self.suffixed |= clash_rule(name).is_some();
    }

    /// Frees what the slot holds (see [`Batched`]).
    #[cold]
    #[inline(never)]
    fn free(&mut self) {
        self.name.free();
        self.full.free();
        self.fields.free();
        self.id_spans.free();
        self.attrs.free();
        self.refs.free();
        self.field_index.free();
    }
}

impl Drop for StructSlot<'_> {
    /// Frees the [`Batched`] values when one holds memory (one test of all their capacities).
    #[inline]
    fn drop(&mut self) {
        let capacities = self.name.capacity()
            | self.full.capacity()
            | self.fields.capacity()
            | self.id_spans.capacity()
            | self.attrs.capacity()
            | self.refs.capacity()
            | self.field_index.capacity();
        if capacities != 0 {
            self.free();
        }
    }
}

#[derive(Debug)]
struct DEnumVal<'s> {
    name: Cow<'s, str>,
    value: i64,
    union_type: Option<DType>,
    attrs: Attributes,
    docs: Docs,
    span: Span,
}

#[derive(Debug)]
struct EnumSlot<'s> {
    name: Cow<'s, str>,
    /// The fully qualified name.
    full: Cow<'s, str>,
    is_union: bool,
    underlying: DType,
    vals: Vec<DEnumVal<'s>>,
    /// The values left out for an error in their value (reported).
    lost_vals: Vec<Cow<'s, str>>,
    bit_flags: bool,
    attrs: Attributes,
    docs: Docs,
    file: FileId,
    span: Span,
}

#[derive(Debug)]
struct DCall<'s> {
    name: Cow<'s, str>,
    request: usize,
    response: usize,
    attrs: Attributes,
    docs: Docs,
    span: Span,
}

#[derive(Debug)]
struct ServiceSlot<'s> {
    name: Cow<'s, str>,
    /// The fully qualified name.
    full: Cow<'s, str>,
    calls: Vec<DCall<'s>>,
    attrs: Attributes,
    docs: Docs,
    file: FileId,
    span: Span,
}

struct FileState<'s> {
    text: FileText<'s>,
    /// The syntax tree, once the file is analyzed.
    ast: Option<&'s FileAst>,
    /// The files whose definitions this file uses.
    uses: FxHashSet<FileId>,
    /// The definitions of the file, in order (slots, until the model renumbers them).
    structs: IdList<ObjectId>,
    enums: IdList<EnumId>,
    services: IdList<ServiceId>,
    root: Option<usize>,
    /// The declarations few files make (none, mostly: then nothing is allocated for them).
    extras: Option<Box<FileExtras>>,
    includes: IdList<FileId>,
    include_spans: Vec<(FileId, Span)>,
}

/// The file identifier, file extension and native includes a file declares: apart from the
/// rest of its [`FileState`], which stays smaller to set up and move.
#[derive(Default)]
struct FileExtras {
    file_identifier: Option<String>,
    file_extension: Option<String>,
    native_includes: Vec<String>,
}

impl FileState<'_> {
    /// The file's [`FileExtras`], made empty if it had none.
    fn extras(&mut self) -> &mut FileExtras {
        self.extras.get_or_insert_default()
    }
}

/// The namespace part of a fully qualified name `full` of the definition `name`.
fn namespace_of<'a>(full: &'a str, name: &str) -> &'a str {
    full.len()
        .checked_sub(name.len() + 1)
        .map_or("", |end| &full[..end])
}

/// [`namespace_of`] as a model name (the empty one, of the global namespace, needs no
/// conversion).
fn model_namespace(full: &str, name: &str) -> Name {
    match namespace_of(full, name) {
        "" => Name::default(),
        namespace => Name::from(namespace),
    }
}

/// The model's names of a definition, `(namespace, name, full name)`, from its `name` and its
/// fully qualified name `full`. In the global namespace `full` is `name`, the same text (see
/// [`Analyzer::qualify`]): that is converted once, and copied.
#[inline(always)]
fn model_names(name: Cow<'_, str>, full: Cow<'_, str>) -> (Name, Name, Name) {
    // (The same address and length: the same text.)
    if std::ptr::eq::<str>(&*name, &*full) {
        let name = Name::from(name);
        return (Name::default(), name.clone(), name);
    }
    (
        model_namespace(&full, &name),
        Name::from(name),
        Name::from(full),
    )
}

/// What the less common attributes of a field give (see [`Analyzer::other_field_attributes`]).
#[derive(Default)]
struct OtherFieldAttrs {
    shared: bool,
    nested: Option<usize>,
    flexbuffer: bool,
}

impl OtherFieldAttrs {
    /// The attributes it covers.
    const ATTRIBUTES: Known = Known::of(&[
        Builtin::CppType,
        Builtin::Shared,
        Builtin::NativeCustomAlloc,
        Builtin::NativeInline,
        Builtin::NestedFlatbuffer,
        Builtin::Flexbuffer,
    ]);
}

/// What a name denotes in flatc's symbol tables `structs_`, `enums_`, `types_` and `services_`.
/// They are keyed by (mostly) the same fully qualified names, so they share one hash table.
#[derive(Clone, Copy, Debug, Default)]
struct Names {
    /// `structs_`: a table or struct slot (a pending one is under the name as written).
    struct_slot: Option<usize>,
    /// `enums_`: an enum or union slot.
    enum_slot: Option<usize>,
    /// `types_`: the finished definition (table, struct, enum or union) with this full name.
    type_span: Option<Span>,
    /// `services_`: the service with this full name.
    service_span: Option<Span>,
}

/// The shared table of [`Names`]. Most compilations define a handful of names: up to
/// [`INLINE_NAMES`] entries are kept inline and found by comparing names in turn (no allocation,
/// no hashing); a compilation that needs more uses a hash map.
#[allow(
    clippy::large_enum_variant,
    reason = "the inline entries are the point: the table lives in the analyzer, unmoved"
)]
enum NameTable<'s> {
    Inline {
        len: usize,
        /// The first `len` entries are `Some`, the others `None`: dropping the table drops the
        /// first `len` (see its `Drop`), not all of them.
        entries: ManuallyDrop<[NameEntry<'s>; INLINE_NAMES]>,
    },
    Map(FxHashMap<Cow<'s, str>, Names>),
}

/// An inline entry of a [`NameTable`]: a name and what it denotes, or none.
type NameEntry<'s> = Option<(Cow<'s, str>, Names)>;

impl Drop for NameTable<'_> {
    /// Drops the inline entries in use (the others are `None`, with nothing to drop).
    #[inline]
    fn drop(&mut self) {
        if let NameTable::Inline { len, entries } = self {
            for entry in &mut entries[..*len] {
                *entry = None;
            }
        }
    }
}

/// How many entries a [`NameTable`] keeps inline.
const INLINE_NAMES: usize = 8;

impl<'s> NameTable<'s> {
    /// An empty table. (Its entries are set one by one, in place: a constant table would be
    /// copied whole, 700 bytes, into each analyzer.)
    fn new() -> NameTable<'s> {
        NameTable::Inline {
            len: 0,
            entries: ManuallyDrop::new(std::array::from_fn(|_| None)),
        }
    }

    /// Makes room for about `capacity` names (an empty table only).
    fn reserve(&mut self, capacity: usize) {
        if capacity > INLINE_NAMES {
            *self = NameTable::Map(FxHashMap::with_capacity_and_hasher(
                capacity,
                Default::default(),
            ));
        }
    }

    fn get(&self, name: &str) -> Option<&Names> {
        match self {
            NameTable::Inline { len, entries } => entries[..*len]
                .iter()
                .flatten()
                .find(|(key, _)| key == name)
                .map(|(_, names)| names),
            NameTable::Map(map) => map.get(name),
        }
    }

    fn get_mut(&mut self, name: &str) -> Option<&mut Names> {
        match self {
            NameTable::Inline { len, entries } => entries[..*len]
                .iter_mut()
                .flatten()
                .find(|(key, _)| key == name)
                .map(|(_, names)| names),
            NameTable::Map(map) => map.get_mut(name),
        }
    }

    /// The entry for `name`, added (empty) if missing.
    fn entry(&mut self, name: Cow<'s, str>) -> &mut Names {
        let full = matches!(self, NameTable::Inline { len, .. } if *len == INLINE_NAMES);
        if full && self.get(&name).is_none() {
            if let NameTable::Inline { entries, .. } = self {
                let map = entries.iter_mut().filter_map(Option::take).collect();
                *self = NameTable::Map(map);
            }
        }
        match self {
            NameTable::Inline { len, entries } => {
                let found = entries[..*len]
                    .iter()
                    .position(|e| e.as_ref().is_some_and(|(key, _)| *key == name));
                let i = found.unwrap_or_else(|| {
                    // Not full: a full table without `name` became a map above.
                    entries[*len] = Some((name, Names::default()));
                    *len += 1;
                    *len - 1
                });
                // The first `len` entries are all `Some`.
                &mut entries[i].get_or_insert_default().1
            }
            NameTable::Map(map) => map.entry(name).or_default(),
        }
    }
}

/// What failed to parse or load, when something did (see the module documentation).
struct Lost<'s> {
    /// The names of the declarations that failed to parse.
    names: FxHashSet<&'s str>,
    /// Declarations of any name may be missing.
    any_name: bool,
    /// `attribute` declarations may be missing.
    attributes: bool,
}

impl<'s> Lost<'s> {
    fn of(files: &'s [Loaded<'s>]) -> Lost<'s> {
        let mut lost = Lost {
            names: FxHashSet::default(),
            any_name: false,
            attributes: false,
        };
        for f in files {
            let text = FileText::new(&f.bytes, f.text);
            lost.names
                .extend(f.ast().lost.names.iter().map(|&span| text.text(span)));
            let missing_include = f.includes.iter().any(Option::is_none);
            lost.any_name |= f.ast().lost.any_name || missing_include;
            lost.attributes |= f.ast().lost.attributes || missing_include;
        }
        lost
    }
}

thread_local! {
    /// The analyzer's list of table and struct slots, emptied: a thread keeps the one of its last
    /// compilation for the next one, so that compiling a small schema again allocates nothing for
    /// it. (A slot borrows its compilation's text: only the list's memory is kept.)
    static SPARE_STRUCTS: Cell<Vec<StructSlot<'static>>> = const { Cell::new(Vec::new()) };
}

/// `list` without its elements, as a list of `U` in the same memory (`T` and `U` differ in
/// lifetimes only, so they have the same size and alignment, which is checked at compile time).
/// A list holding more than [`MAX_SPARE_BYTES`] is freed.
fn emptied<T, U>(mut list: Vec<T>) -> Vec<U> {
    const {
        assert!(std::mem::size_of::<T>() == std::mem::size_of::<U>());
        assert!(std::mem::align_of::<T>() == std::mem::align_of::<U>());
    }
    let capacity = list.capacity();
    let bytes = capacity * std::mem::size_of::<T>();
    if bytes == 0 || bytes > MAX_SPARE_BYTES {
        return Vec::new();
    }
    list.clear();
    let mut list = ManuallyDrop::new(list);
    // SAFETY: the memory was allocated by the global allocator for `capacity` values of `T`,
    // which is `capacity` values of `U` (same size and alignment, checked above); the new list
    // has no elements, so none needs to be a valid `U`; and the old list, not dropped, gives up
    // the memory.
    unsafe { Vec::from_raw_parts(list.as_mut_ptr().cast::<U>(), 0, capacity) }
}

struct Analyzer<'s> {
    /// The files of the compilation, as loaded.
    inputs: &'s [Loaded<'s>],
    /// What failed to parse or load, if anything did.
    lost: Option<Box<Lost<'s>>>,
    diags: Batched<Vec<Diagnostic>>,
    /// Errors about a field whose type was not declared yet, with the type's slot: reported by
    /// `finish` if the type was declared later, dropped if it never was (the unknown type's
    /// error then says it all).
    on_undeclared: Batched<Vec<(usize, Diagnostic)>>,
    structs: Batched<Vec<StructSlot<'s>>>,
    enums: Batched<Vec<EnumSlot<'s>>>,
    services: Batched<Vec<ServiceSlot<'s>>>,
    /// flatc's symbol tables, by name.
    names: NameTable<'s>,
    /// The number of names with a `struct_slot` and with an `enum_slot`.
    struct_names: usize,
    enum_names: usize,
    /// The last components of the names ever given a `struct_slot` or an `enum_slot`.
    struct_filter: NameFilter,
    enum_filter: NameFilter,
    /// User-declared attributes: name -> declaring file.
    declared_attrs: Batched<FxHashMap<Cow<'s, str>, FileId>>,
    declared_order: Batched<Vec<String>>,
    /// The current namespace, dotted, and the positions of its dots.
    ns: Batched<String>,
    ns_dots: Batched<Vec<usize>>,
    file: FileId,
    /// The text of `file` (most spans are in it).
    file_text: FileText<'s>,
    advanced: AdvancedFeatures,
    files: OneOrMany<FileState<'s>>,
    /// The root type as flatc ends up with it (of the last file analyzed, the root file).
    root: Option<usize>,
    scratch: String,
}

fn docs_text(text: FileText<'_>, ast_docs: &[(u32, u32)], docs: Docs) -> Vec<String> {
    (docs.0..docs.1)
        .filter_map(|i| ast_docs.get(i as usize))
        .map(|&(s, e)| text.lossy(s, e))
        .collect()
}

/// A list (or map, or string) that its owner's `Drop` frees, not the drop glue: most analyses
/// leave these without memory, which one test of all their capacities tells (the glue tests each
/// one). The owners are the [`Analyzer`] (its list of slots is one too: the `Drop` keeps it for
/// the thread's next analysis) and its [`StructSlot`]s. It reads as what it holds. It has no
/// `Default`, so `std::mem::take` takes the value inside (`&mut *field`), never the wrapper,
/// whose drop would not free it. A `Batched` value dropped with memory (one its owner's `Drop`
/// left out) fails a debug assertion.
struct Batched<T: Capacity>(ManuallyDrop<T>);

impl<T: Capacity> Batched<T> {
    fn new(value: T) -> Batched<T> {
        Batched(ManuallyDrop::new(value))
    }

    /// Drops the value, leaving an empty one.
    fn free(&mut self)
    where
        T: Default,
    {
        drop(std::mem::take(&mut *self.0));
    }
}

impl<T: Capacity> Drop for Batched<T> {
    fn drop(&mut self) {
        debug_assert_eq!(
            self.0.capacity(),
            0,
            "a Drop leaves a Batched value with memory"
        );
    }
}

/// The memory a [`Batched`] value holds (0: none).
trait Capacity {
    fn capacity(&self) -> usize;
}

impl<T> Capacity for Vec<T> {
    fn capacity(&self) -> usize {
        Vec::capacity(self)
    }
}

impl Capacity for String {
    fn capacity(&self) -> usize {
        String::capacity(self)
    }
}

impl<K, V> Capacity for FxHashMap<K, V> {
    fn capacity(&self) -> usize {
        std::collections::HashMap::capacity(self)
    }
}

impl Capacity for Cow<'_, str> {
    #[inline]
    fn capacity(&self) -> usize {
        match self {
            Cow::Borrowed(_) => 0,
            Cow::Owned(s) => s.capacity(),
        }
    }
}

impl Capacity for Attributes {
    fn capacity(&self) -> usize {
        self.list.capacity()
    }
}

impl<K> Capacity for DupIndex<K> {
    fn capacity(&self) -> usize {
        self.map.capacity()
    }
}

impl<T: Capacity + std::fmt::Debug> std::fmt::Debug for Batched<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        T::fmt(&self.0, f)
    }
}

impl<T: Capacity> std::ops::Deref for Batched<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Capacity> std::ops::DerefMut for Batched<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

impl Drop for Analyzer<'_> {
    /// Keeps the memory of the list of table and struct slots for this thread's next analysis,
    /// and frees the [`Batched`] lists.
    #[inline]
    fn drop(&mut self) {
        let structs = emptied(std::mem::take(&mut *self.structs));
        // A thread being torn down keeps no spare.
        let _ = SPARE_STRUCTS.try_with(|spare| spare.set(structs));
        // The lists that most analyses leave without memory (see `Batched`).
        let capacities = self.diags.capacity()
            | self.on_undeclared.capacity()
            | self.enums.capacity()
            | self.services.capacity()
            | self.declared_order.capacity()
            | self.declared_attrs.capacity()
            | self.ns.capacity()
            | self.ns_dots.capacity();
        if capacities != 0 {
            self.diags.free();
            self.on_undeclared.free();
            self.enums.free();
            self.services.free();
            self.declared_order.free();
            self.declared_attrs.free();
            self.ns.free();
            self.ns_dots.free();
        }
    }
}

impl<'s> Analyzer<'s> {
    fn new(inputs: &'s OneOrMany<Loaded<'s>>) -> Analyzer<'s> {
        let files = inputs.map(|f| FileState {
            text: FileText::new(&f.bytes, f.text),
            ast: None,
            uses: FxHashSet::default(),
            structs: IdList::new(),
            enums: IdList::new(),
            services: IdList::new(),
            root: None,
            extras: None,
            includes: IdList::new(),
            include_spans: Vec::new(),
        });
        let file_text = files[0].text;
        Analyzer {
            inputs,
            lost: None,
            diags: Batched::new(Vec::new()),
            on_undeclared: Batched::new(Vec::new()),
            structs: Batched::new(SPARE_STRUCTS.try_with(Cell::take).unwrap_or_default()),
            enums: Batched::new(Vec::new()),
            services: Batched::new(Vec::new()),
            names: NameTable::new(),
            struct_names: 0,
            enum_names: 0,
            struct_filter: NameFilter::default(),
            enum_filter: NameFilter::default(),
            declared_attrs: Batched::new(FxHashMap::default()),
            declared_order: Batched::new(Vec::new()),
            ns: Batched::new(String::new()),
            ns_dots: Batched::new(Vec::new()),
            file: FileId(0),
            file_text,
            advanced: AdvancedFeatures::default(),
            files,
            root: None,
            scratch: String::new(),
        }
    }

    /// The doc comments `docs` of the current file's syntax tree `ast`.
    fn docs(&self, ast: &FileAst, docs: Docs) -> Vec<String> {
        if docs.0 == docs.1 {
            return Vec::new();
        }
        docs_text(self.files[self.file.index()].text, &ast.docs, docs)
    }

    fn text(&self, span: Span) -> &'s str {
        if span.file == self.file {
            return self.file_text.text(span);
        }
        self.files[span.file.index()].text.text(span)
    }

    /// The dotted text of a name of `ast`: borrowed when written without spaces or comments.
    fn qual_text(&self, ast: &FileAst, q: &QualName) -> Cow<'s, str> {
        let rest = ast.get(q.rest);
        if rest.iter().map(|p| p.len() + 1).sum::<usize>() + q.first.len() == q.span.len() {
            // Only one `.` between consecutive components.
            return Cow::Borrowed(self.text(q.span));
        }
        let mut s = self.text(q.first).to_string();
        for part in rest {
            s.push('.');
            s.push_str(self.text(*part));
        }
        Cow::Owned(s)
    }

    fn str_value(&self, ast: &'s FileAst, lit: StrLit) -> Cow<'s, str> {
        Cow::Borrowed(ast.str_value(self.files[lit.span.file.index()].text.bytes(), lit))
    }

    fn error(&mut self, code: Code, message: impl Into<String>, span: Span) -> &mut Diagnostic {
        self.diags.push(Diagnostic::error(code, message, span));
        let last = self.diags.len() - 1;
        &mut self.diags[last]
    }

    /// Whether the definition of the type `name` (as written) may have failed to parse or load.
    fn may_be_lost(&self, name: &str) -> bool {
        self.lost.as_ref().is_some_and(|lost| {
            lost.any_name || lost.names.contains(name.rsplit('.').next().unwrap_or(name))
        })
    }

    /// Whether `attribute` declarations may have failed to parse or load.
    fn attributes_may_be_lost(&self) -> bool {
        self.lost.as_ref().is_some_and(|lost| lost.attributes)
    }

    fn warn(&mut self, code: Code, message: impl Into<String>, span: Span) -> &mut Diagnostic {
        self.diags.push(Diagnostic::warning(code, message, span));
        let last = self.diags.len() - 1;
        &mut self.diags[last]
    }

    // ----- namespaces and lookups, as flatc does them -----

    fn set_namespace(&mut self, parts: &[Span]) {
        self.ns.clear();
        self.ns_dots.clear();
        for (i, part) in parts.iter().enumerate() {
            if i > 0 {
                self.ns_dots.push(self.ns.len());
                self.ns.push('.');
            }
            let t = self.text(*part);
            self.ns.push_str(t);
        }
    }

    fn ns_components(&self) -> usize {
        if self.ns.is_empty() {
            0
        } else {
            self.ns_dots.len() + 1
        }
    }

    /// The first `n` components of the current namespace.
    fn ns_prefix(&self, n: usize) -> &str {
        if n == 0 {
            ""
        } else if n > self.ns_dots.len() {
            &self.ns
        } else {
            &self.ns[..self.ns_dots[n - 1]]
        }
    }

    /// `name` in the current namespace (inline: in the global namespace it is `name`).
    #[inline]
    fn qualify(&self, name: &'s str) -> Cow<'s, str> {
        if self.ns.is_empty() {
            Cow::Borrowed(name)
        } else {
            Cow::Owned(self.in_namespace(name))
        }
    }

    /// [`Analyzer::qualify`] in a namespace.
    fn in_namespace(&self, name: &str) -> String {
        let mut s = String::with_capacity(self.ns.len() + 1 + name.len());
        s.push_str(&self.ns);
        s.push('.');
        s.push_str(name);
        s
    }

    /// flatc's `structs_.Lookup(name)`.
    fn struct_named(&self, name: &str) -> Option<usize> {
        self.names.get(name).and_then(|n| n.struct_slot)
    }

    /// flatc's `enums_.Lookup(name)`.
    fn enum_named(&self, name: &str) -> Option<usize> {
        self.names.get(name).and_then(|n| n.enum_slot)
    }

    /// `name` in the current namespace, in `structs_` (without building the qualified name).
    fn struct_in_namespace(&mut self, name: &str) -> Option<usize> {
        if self.ns.is_empty() {
            return self.struct_named(name);
        }
        let mut key = std::mem::take(&mut self.scratch);
        key.clear();
        key.push_str(&self.ns);
        key.push('.');
        key.push_str(name);
        let hit = self.struct_named(&key);
        self.scratch = key;
        hit
    }

    /// flatc's `structs_.Add` (replacing any slot under the same name).
    fn set_struct_name(&mut self, name: Cow<'s, str>, slot: usize) {
        self.struct_filter.insert(&name);
        let entry = self.names.entry(name);
        if entry.struct_slot.replace(slot).is_none() {
            self.struct_names += 1;
        }
    }

    /// flatc's `LookupTableByName`: the current namespace (minus `skip_top` innermost
    /// components) and its parents, innermost first, then the global namespace. Note that with
    /// `skip_top` larger than the number of components nothing is found, as in flatc.
    fn lookup_by_name(&mut self, dict: DictKind, name: &str, skip_top: usize) -> Option<usize> {
        let n_components = self.ns_components();
        let (is_empty, filter) = match dict {
            DictKind::Structs => (self.struct_names == 0, &self.struct_filter),
            DictKind::Enums => (self.enum_names == 0, &self.enum_filter),
        };
        // Every candidate name ends with `name`: when no name in the table does, none is there.
        if is_empty || n_components < skip_top || !filter.may_contain(name) {
            return None;
        }
        let get = |names: &Names| match dict {
            DictKind::Structs => names.struct_slot,
            DictKind::Enums => names.enum_slot,
        };
        let n = n_components - skip_top;
        let mut key = std::mem::take(&mut self.scratch);
        let mut found = None;
        for i in (1..=n).rev() {
            key.clear();
            key.push_str(self.ns_prefix(i));
            key.push('.');
            key.push_str(name);
            if let Some(slot) = self.names.get(key.as_str()).and_then(get) {
                found = Some(slot);
                break;
            }
        }
        self.scratch = key;
        if found.is_some() {
            return found;
        }
        self.names.get(name).and_then(get)
    }

    fn lookup_enum(&mut self, name: &str) -> Option<usize> {
        self.lookup_by_name(DictKind::Enums, name, 0)
    }

    /// Whether `name`, used in the declaration of the enum `full` (in the current namespace),
    /// names that enum: flatc declares it before it reads the underlying type, so it is found
    /// when the name is no built-in type and no other enum comes first in
    /// [`lookup_by_name`](Self::lookup_by_name)'s order.
    fn names_itself(&self, name: &str, full: &str) -> bool {
        // A built-in type's name is that type, even for an enum named `int`.
        if builtin_type(name.as_bytes()).is_some() {
            return false;
        }
        let candidates = (1..=self.ns_components())
            .rev()
            .map(|i| Cow::Owned(format!("{}.{name}", self.ns_prefix(i))))
            .chain(std::iter::once(Cow::Borrowed(name)));
        for candidate in candidates {
            if *candidate == *full {
                return true;
            }
            if self.enum_named(&candidate).is_some() {
                return false;
            }
        }
        false
    }

    /// flatc's `LookupCreateStruct` for a use (not a definition) of `name`: a pending
    /// (predeclared) entry under the name as written, then the name in the current namespace,
    /// then the parent namespaces and the global namespace; when nothing is found and `create`,
    /// a pending entry under the name as written.
    fn lookup_struct_use(&mut self, name: Cow<'s, str>, span: Span, create: bool) -> Option<usize> {
        // Every candidate name ends with `name`: when no name in the table does, none is there.
        let found = if self.struct_filter.may_contain(&name) {
            self.find_struct_use(&name, span, create)
        } else {
            None
        };
        if found.is_none() && create {
            let slot = self.structs.len();
            let pending = StructSlot::pending(name.clone(), self.file, span, vec![span]);
            self.structs.push(pending);
            self.set_struct_name(name, slot);
            return Some(slot);
        }
        found
    }

    /// The lookups of [`Analyzer::lookup_struct_use`]; a pending entry found records the use
    /// when `create`.
    fn find_struct_use(&mut self, name: &str, span: Span, create: bool) -> Option<usize> {
        if let Some(slot) = self.struct_named(name) {
            if self.structs[slot].predecl {
                if create {
                    self.structs[slot].refs.push(span);
                }
                return Some(slot);
            }
        }
        let found = self.struct_in_namespace(name);
        if let Some(slot) = found {
            if self.structs[slot].predecl {
                if create {
                    self.structs[slot].refs.push(span);
                }
                return Some(slot);
            }
            return found;
        }
        self.lookup_by_name(DictKind::Structs, name, 1)
    }

    /// flatc's `LookupCreateStruct` for a definition of `name` at `span`: claims a pending entry
    /// under the simple name (moving it to the qualified name) or under the qualified name, or
    /// creates one, and puts there the slot that `define` makes of the qualified name and the
    /// uses of the pending slot (if any). The definition is also entered in flatc's `types_` in
    /// the same lookup, as [`Analyzer::add_type`] would enter it. Returns the slot and the span
    /// of the definition already in `types_`, if any, for the caller to report once the
    /// definition is analyzed (where flatc's `types_.Add` fails); or, when the slot is already
    /// defined, that slot and the qualified name, with nothing done.
    fn define_struct(
        &mut self,
        name: &'s str,
        span: Span,
        define: impl FnOnce(Cow<'s, str>, Vec<Span>) -> StructSlot<'s>,
    ) -> Result<(usize, Option<Span>), (usize, Cow<'s, str>)> {
        let qualified = self.qualify(name);
        // A pending entry under the name as written moves to the qualified name (in the global
        // namespace, the same name).
        let mut claimed = None;
        if !self.ns.is_empty() {
            if let Some(entry) = self.names.get_mut(name) {
                if let Some(slot) = entry.struct_slot.filter(|&s| self.structs[s].predecl) {
                    entry.struct_slot = None;
                    self.struct_names -= 1;
                    claimed = Some(slot);
                }
            }
        }
        let entry = self.names.entry(qualified.clone());
        let slot = match claimed.or(entry.struct_slot) {
            Some(slot) if !self.structs[slot].predecl => return Err((slot, qualified)),
            Some(slot) => slot,
            None => self.structs.len(),
        };
        if entry.struct_slot.replace(slot).is_none() {
            self.struct_names += 1;
        }
        let first = entry.type_span;
        if first.is_none() {
            entry.type_span = Some(span);
        }
        self.struct_filter.insert_ident(name);
        if slot < self.structs.len() {
            self.claim_uses(slot);
            let refs = std::mem::take(&mut *self.structs[slot].refs);
            self.structs[slot] = define(qualified, refs);
        } else {
            push_built(&mut self.structs, || define(qualified, Vec::new()));
        }
        Ok((slot, first))
    }

    /// A pending type is being defined in the current file: the files that used it use this one.
    fn claim_uses(&mut self, slot: usize) {
        let me = self.file;
        for i in 0..self.structs[slot].refs.len() {
            let user = self.structs[slot].refs[i].file;
            if user != me {
                self.files[user.index()].uses.insert(me);
            }
        }
    }

    fn note_use(&mut self, file: FileId) {
        if file != self.file {
            self.files[self.file.index()].uses.insert(file);
        }
    }

    // ----- files and declarations -----

    /// flatc's order: the included files (depth first, each once), then the file itself.
    fn file_and_includes(&mut self, id: FileId) {
        if self.files[id.index()].ast.is_some() {
            return;
        }
        let input = &self.inputs[id.index()];
        self.files[id.index()].ast = Some(input.ast());
        for &target in input.includes.iter().flatten() {
            self.file_and_includes(target);
        }
        self.file(id);
    }

    fn file(&mut self, id: FileId) {
        let input = &self.inputs[id.index()];
        let ast = input.ast();
        self.file = id;
        self.file_text = self.files[id.index()].text;
        self.set_namespace(&[]);
        let state = &mut self.files[id.index()];
        let mut include_index = 0;
        for item in &ast.header {
            match item {
                HeaderItem::Include(_, span) => {
                    if let Some(Some(target)) = input.includes.get(include_index) {
                        if !state.includes.contains(target) {
                            state.includes.push(*target);
                            state.include_spans.push((*target, *span));
                        }
                    }
                    include_index += 1;
                }
                HeaderItem::NativeInclude(lit) => {
                    let v = ast.str_value(state.text.bytes(), *lit);
                    state.extras().native_includes.push(v.to_string());
                }
            }
        }
        // Each file starts with no root type of its own (flatc resets it after includes).
        self.root = None;
        for decl in &ast.decls {
            match decl {
                Decl::Namespace(parts) => self.set_namespace(ast.get(*parts)),
                Decl::Object(o) => self.object(ast, o),
                Decl::Enum(e) => self.enum_decl(ast, e),
                Decl::RootType(name) => self.root_type(ast, name),
                Decl::FileIdentifier(lit) => {
                    let v = self.str_value(ast, *lit);
                    if v.len() != 4 {
                        let len = v.len();
                        self.error(
                            Code::InvalidDeclaration,
                            format!("file_identifier must be exactly 4 bytes, not {len}"),
                            lit.span,
                        )
                        .help
                        .push("a file identifier is the 4 bytes at offset 4 of a buffer, for example \"MONS\"".into());
                    }
                    self.files[self.file.index()].extras().file_identifier = Some(v.into_owned());
                }
                Decl::FileExtension(lit) => {
                    let v = self.str_value(ast, *lit).into_owned();
                    self.files[self.file.index()].extras().file_extension = Some(v);
                }
                Decl::Attribute(lit, is_string) => {
                    let name = if *is_string {
                        self.str_value(ast, *lit)
                    } else {
                        Cow::Borrowed(self.text(lit.span))
                    };
                    if !self.declared_attrs.contains_key(name.as_ref()) {
                        self.declared_order.push(name.to_string());
                    }
                    self.declared_attrs.insert(name, self.file);
                }
                Decl::Service(s) => self.service(ast, s),
            }
        }
        self.files[self.file.index()].root = self.root;
    }

    fn root_type(&mut self, ast: &FileAst, name: &QualName) {
        let text = self.qual_text(ast, name);
        let span = name.span;
        // flatc's SetRootType: the name as written, then in the current namespace (no parents).
        let slot = match self.struct_named(&text) {
            Some(slot) => Some(slot),
            None => self.struct_in_namespace(&text),
        };
        let Some(slot) = slot else {
            if self.may_be_lost(&text) {
                return;
            }
            let candidates = self.struct_candidates(false);
            let d = self.error(
                Code::InvalidDeclaration,
                format!("unknown root type `{text}`"),
                span,
            );
            if let Some(c) = closest(&text, candidates.iter().map(String::as_str)) {
                d.help.push(format!("did you mean `{c}`?"));
            }
            d.notes.push("the root type must be a table declared before `root_type`, named as written or relative to the current namespace".into());
            return;
        };
        if self.structs[slot].fixed {
            self.error(
                Code::InvalidDeclaration,
                format!("root type `{text}` is a struct, but must be a table"),
                span,
            )
            .help
            .push("wrap the struct in a table, or declare it as a `table`".into());
            return;
        }
        if self.structs[slot].predecl {
            self.structs[slot].refs.push(span);
        } else {
            let f = self.structs[slot].file;
            self.note_use(f);
        }
        self.root = Some(slot);
    }

    fn struct_candidates(&self, with_enums: bool) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for s in self.structs.iter().filter(|s| !s.predecl) {
            out.push(s.name.to_string());
            if *s.full != *s.name {
                out.push(s.full.to_string());
            }
        }
        if with_enums {
            for e in self.enums.iter() {
                out.push(e.name.to_string());
                if e.full != e.name {
                    out.push(e.full.to_string());
                }
            }
        }
        out
    }

    // ----- attributes and values -----

    /// The attributes of a declaration, checked, and which built-in ones are among them.
    /// (`builtin` is settled by [`Analyzer::build`], when all `attribute` declarations are
    /// known.)
    #[inline]
    fn attributes(&mut self, ast: &'s FileAst, list: &[AttrAst]) -> (Attributes, Known) {
        if list.is_empty() {
            return (Attributes::default(), Known::default());
        }
        self.attribute_list(ast, list)
    }

    /// [`Analyzer::attributes`] of a list that is not empty.
    fn attribute_list(&mut self, ast: &'s FileAst, list: &[AttrAst]) -> (Attributes, Known) {
        let mut out = Attributes::default();
        let mut known = Known::default();
        for attr in list {
            let name: Cow<'s, str> = if attr.name_is_string {
                self.str_value(
                    ast,
                    StrLit {
                        span: attr.name,
                        decoded: attr.name_decoded,
                    },
                )
            } else {
                Cow::Borrowed(self.text(attr.name))
            };
            let builtin = Builtin::from_name(&name);
            let declared = self.declared_attrs.get(name.as_ref()).copied();
            if builtin.is_none() && declared.is_none() {
                if self.attributes_may_be_lost() {
                    continue;
                }
                let mut candidates: Vec<&str> = Builtin::ALL.iter().map(|b| b.name()).collect();
                let declared_names: Vec<String> =
                    self.declared_attrs.keys().map(|k| k.to_string()).collect();
                candidates.extend(declared_names.iter().map(String::as_str));
                let suggestion = closest(&name, candidates).map(str::to_string);
                let d = self.error(
                    Code::UnknownAttribute,
                    format!("unknown attribute `{name}`"),
                    attr.name,
                );
                match suggestion {
                    Some(c) => d.help.push(format!("did you mean `{c}`?")),
                    None => d.help.push(format!(
                        "declare it before use with `attribute \"{name}\";`"
                    )),
                }
                continue;
            }
            if let Some(f) = declared {
                self.note_use(f);
            }
            let value = match &attr.value {
                None => None,
                Some(v) => match self.attr_value(ast, v, &name) {
                    Some(value) => Some(value),
                    None => continue,
                },
            };
            if let Some(first) = out.get(&name) {
                let first_span = first.span;
                self.diags.push(
                    Diagnostic::warning(
                        Code::DuplicateAttribute,
                        format!("attribute `{name}` is given twice; the first one is used"),
                        attr.name,
                    )
                    .with_secondary(first_span, "first given here"),
                );
                continue;
            }
            if let Some(b) = builtin {
                known.insert(b);
            }
            out.list.push(Attribute {
                name: Name::from(name),
                value,
                builtin: false,
                span: attr.name,
            });
        }
        (out, known)
    }

    /// An attribute value: flatc accepts an integer constant (that fits 32 bits) or a string.
    fn attr_value(&mut self, ast: &'s FileAst, v: &ValueAst, name: &str) -> Option<AttrValue> {
        match v {
            ValueAst::Token {
                kind: Tok::Int,
                span,
                sign: None,
                ..
            } => {
                let text = self.text(*span);
                match parse_int_for(text, BaseType::Int) {
                    Ok(i) => Some(AttrValue::Int(i as i64)),
                    Err(_) => {
                        self.error(
                            Code::InvalidAttribute,
                            format!("value `{text}` of attribute `{name}` does not fit a 32-bit integer"),
                            *span,
                        );
                        None
                    }
                }
            }
            ValueAst::Token {
                kind: Tok::Str,
                span,
                decoded,
                sign: None,
            } => Some(AttrValue::String(
                self.str_value(
                    ast,
                    StrLit {
                        span: *span,
                        decoded: *decoded,
                    },
                )
                .into_owned(),
            )),
            other => {
                let span = other.span();
                let shown = self.text(span).to_string();
                self.error(
                    Code::InvalidAttribute,
                    format!("attribute `{name}` has value `{shown}`, but attribute values must be integers or strings"),
                    span,
                )
                .help
                .push(format!("write it as a string: `{name}: \"{shown}\"`"));
                None
            }
        }
    }

    fn token_text(&self, ast: &'s FileAst, kind: Tok, span: Span, decoded: u32) -> Cow<'s, str> {
        if kind == Tok::Str {
            self.str_value(ast, StrLit { span, decoded })
        } else {
            Cow::Borrowed(self.text(span))
        }
    }

    /// flatc's `ParseSingleValue` for a field default (`check_now`): which tokens a type accepts
    /// and how the constant is normalized. `ty` is the field type (for enum-typed fields, the
    /// underlying integer type with the enum as target).
    #[inline]
    fn default_value(
        &mut self,
        ast: &'s FileAst,
        v: &ValueAst,
        ty: &DType,
        field: &str,
        check_now: bool,
    ) -> Option<Constant<'s>> {
        // The common case, an integer constant for an integer field, when it fits: what the
        // general path computes, without its steps.
        if let ValueAst::Token {
            kind: Tok::Int,
            span,
            sign: None,
            ..
        } = v
        {
            if check_now && ty.base.is_integer() {
                if let Ok(value) = parse_int_for(self.text(*span), ty.base) {
                    return Some(Constant::Int(value));
                }
            }
        }
        self.any_default_value(ast, v, ty, field, check_now)
    }

    /// [`Analyzer::default_value`] for any value. (Not inlined: the common case stays small.)
    #[inline(never)]
    fn any_default_value(
        &mut self,
        ast: &'s FileAst,
        v: &ValueAst,
        ty: &DType,
        field: &str,
        check_now: bool,
    ) -> Option<Constant<'s>> {
        let in_type = ty.base;
        let type_name = type_display(ty);
        match v {
            ValueAst::EmptyVector(span) => {
                if ty.is_vector() {
                    return Some(Constant::EmptyVector);
                }
                self.error(
                    Code::InvalidDefault,
                    format!(
                        "`[]` is not a valid default for field `{field}` of type `{type_name}`"
                    ),
                    *span,
                );
                None
            }
            ValueAst::Call { name, arg, span } => {
                let fname = self.text(*name);
                const FUNCTIONS: [&str; 8] =
                    ["deg", "rad", "sin", "cos", "tan", "asin", "acos", "atan"];
                if !FUNCTIONS.contains(&fname) {
                    let d = self.error(
                        Code::InvalidDefault,
                        format!("unknown conversion function `{fname}`"),
                        *name,
                    );
                    d.notes
                        .push("flatc knows deg, rad, sin, cos, tan, asin, acos and atan".into());
                    let unsigned = fname.trim_start_matches(['-', '+']);
                    // `nan(deprecated)`: attributes meant, a call read.
                    let attributes = ["nan", "inf", "infinity"].contains(&unsigned)
                        || matches!(
                            ast.item(*arg),
                            ValueAst::Token {
                                kind: Tok::Ident,
                                ..
                            }
                        );
                    if FUNCTIONS.contains(&unsigned) {
                        d.help.push(format!(
                            "a sign goes inside the call: `{unsigned}({}...)`",
                            &fname[..1]
                        ));
                    } else if attributes {
                        d.help.push(format!(
                            "a name right before `(` is a call: for attributes, write `{fname} (`"
                        ));
                    } else if let Some(c) = closest(fname, FUNCTIONS) {
                        d.help.push(format!("did you mean `{c}`?"));
                    }
                    return None;
                }
                if !in_type.is_float() {
                    self.error(
                        Code::InvalidDefault,
                        format!("`{fname}(...)` computes a floating-point value, but field `{field}` has type `{type_name}`"),
                        *span,
                    );
                    return None;
                }
                let arg = ast.item(*arg);
                let arg_const = self.default_value(ast, arg, ty, field, false)?;
                let x = match parse_f64(&arg_const.text()) {
                    Some(x) => x,
                    None => {
                        let t = arg_const.text().into_owned();
                        self.error(
                            Code::InvalidDefault,
                            format!("invalid number `{t}`"),
                            arg.span(),
                        );
                        return None;
                    }
                };
                let pi = std::f64::consts::PI;
                let y = match fname {
                    "deg" => x / pi * 180.0,
                    "rad" => x * pi / 180.0,
                    "sin" => x.sin(),
                    "cos" => x.cos(),
                    "tan" => x.tan(),
                    "asin" => x.asin(),
                    "acos" => x.acos(),
                    _ => x.atan(),
                };
                Some(Constant::Text(Cow::Owned(float_to_string(y))))
            }
            ValueAst::Token {
                kind,
                span,
                decoded,
                sign,
            } => {
                let kind = *kind;
                let mut attr: Cow<'s, str> = self.token_text(ast, kind, *span, *decoded);
                if let Some((c, _)) = sign {
                    attr = Cow::Owned(format!("{}{}", *c as char, attr));
                }
                let full_span = v.span();
                let is_str = kind == Tok::Str;
                let mut matched: Option<Constant<'s>> = None;
                let mut match_is_float_token_check = false;
                if kind == Tok::Ident || is_str {
                    if is_str && in_type == BaseType::String {
                        return Some(Constant::Text(attr));
                    }
                    if is_str && in_type.is_scalar() {
                        let trivial = *decoded == u32::MAX
                            && attr.bytes().all(|b| (b' '..=b'~').contains(&b));
                        if !trivial {
                            self.error(
                                Code::InvalidDefault,
                                format!("the default of field `{field}` ({type_name}) must be plain ASCII text without escapes"),
                                full_span,
                            );
                            return None;
                        }
                    }
                    if in_type == BaseType::Bool && (attr == "true" || attr == "false") {
                        matched = Some(Constant::Int(i128::from(attr == "true")));
                    }
                    if matched.is_none() && in_type.is_scalar() && attr == "null" {
                        return Some(Constant::Null);
                    }
                    if matched.is_none()
                        && in_type.is_integer()
                        && in_type != BaseType::Bool
                        && attr.bytes().next().is_some_and(is_ident_start)
                    {
                        let value = self.enum_from_string(ty, &attr, full_span, field)?;
                        matched = Some(Constant::Int(value));
                    }
                    if matched.is_none() && is_str && in_type.is_scalar() {
                        let trimmed = attr.trim_end_matches(' ').len();
                        if trimmed != attr.len() {
                            attr = match attr {
                                Cow::Borrowed(s) => Cow::Borrowed(&s[..trimmed]),
                                Cow::Owned(mut s) => {
                                    s.truncate(trimmed);
                                    Cow::Owned(s)
                                }
                            };
                        }
                        if in_type.is_float() && attr.contains(')') {
                            self.error(
                                Code::InvalidDefault,
                                format!("invalid number `{attr}`"),
                                full_span,
                            );
                            return None;
                        }
                    }
                    if matched.is_none() && in_type.is_float() {
                        match_is_float_token_check = true;
                        matched = Some(Constant::Text(attr.clone()));
                    }
                    if matched.is_none() && in_type.is_integer() {
                        matched = Some(Constant::Text(attr.clone()));
                    }
                    if matched.is_none() && is_str {
                        // flatc's forced string match: only string-typed fields (handled
                        // above) and attribute values accept it.
                        self.error(
                            Code::InvalidDefault,
                            format!("type mismatch: field `{field}` has type `{type_name}`, but its default is a string"),
                            full_span,
                        );
                        return None;
                    }
                } else if kind == Tok::Float {
                    if in_type.is_float() {
                        matched = Some(Constant::Text(attr.clone()));
                    }
                } else if kind == Tok::Int {
                    if !in_type.is_scalar() {
                        self.error(
                            Code::InvalidDefault,
                            format!("type mismatch: field `{field}` has type `{type_name}`, but its default is a number"),
                            full_span,
                        );
                        return None;
                    }
                    match_is_float_token_check = true;
                    matched = Some(Constant::Text(attr.clone()));
                }
                let Some(constant) = matched else {
                    let shown = self.text(full_span).to_string();
                    let d = self.error(
                        Code::InvalidDefault,
                        format!("`{shown}` is not a valid default for field `{field}` of type `{type_name}`"),
                        full_span,
                    );
                    if in_type == BaseType::Union {
                        d.notes
                            .push("union fields have no default (their default is NONE)".into());
                    } else if !in_type.is_scalar() {
                        d.notes.push("only scalars, strings (`= \"text\"`) and vectors (`= []`) can have defaults".into());
                    }
                    return None;
                };
                // A hex integer is not a float (flatc requires the `p` exponent).
                if match_is_float_token_check && in_type.is_float() && kind != Tok::Float {
                    let t = constant.text();
                    if let Some(k) = t.find(|c: char| c.is_ascii_digit() || c == '.') {
                        let b = t.as_bytes();
                        if b.len() > k + 1
                            && b[k] == b'0'
                            && (b[k + 1] == b'x' || b[k + 1] == b'X')
                            && !t[k + 2..].contains(['p', 'P'])
                        {
                            let t = t.into_owned();
                            self.error(
                                Code::InvalidDefault,
                                format!("`{t}` is a hex integer; hexadecimal floating-point constants need an exponent (`0x1p4`)"),
                                full_span,
                            );
                            return None;
                        }
                    }
                }
                if !check_now {
                    return Some(constant);
                }
                self.check_scalar(constant, ty, full_span, field)
            }
        }
    }

    /// flatc's `atot` check of a scalar constant against its type, and the normalization of
    /// integers.
    fn check_scalar(
        &mut self,
        constant: Constant<'s>,
        ty: &DType,
        span: Span,
        field: &str,
    ) -> Option<Constant<'s>> {
        let base = ty.base;
        if !base.is_scalar() {
            return Some(constant);
        }
        match &constant {
            Constant::Null | Constant::Zero | Constant::EmptyVector => Some(constant),
            Constant::Int(v) => {
                let (lo, hi) = int_range(base);
                if base.is_integer() && (*v < lo || *v > hi) {
                    self.error(
                        Code::InvalidDefault,
                        format!(
                            "default {v} of field `{field}` does not fit in `{}` ({lo}..={hi})",
                            base.name()
                        ),
                        span,
                    );
                    return None;
                }
                Some(constant)
            }
            Constant::Text(t) => {
                if base.is_float() {
                    if parse_f64(t).is_none() {
                        let d = self.error(
                            Code::InvalidDefault,
                            format!("invalid number `{t}` for field `{field}`"),
                            span,
                        );
                        d.notes.push("floating-point defaults are numbers, `inf`, `infinity` or `nan` (with an optional sign)".into());
                        return None;
                    }
                    return Some(constant);
                }
                match parse_int_for(t, base) {
                    Ok(v) => Some(Constant::Int(v)),
                    Err(e) => {
                        let (lo, hi) = int_range(base);
                        let msg = match e {
                            IntError::OutOfRange => format!(
                                "default `{t}` of field `{field}` does not fit in `{}` ({lo}..={hi})",
                                base.name()
                            ),
                            IntError::Invalid => {
                                format!("invalid integer `{t}` for field `{field}`")
                            }
                        };
                        self.error(Code::InvalidDefault, msg, span);
                        None
                    }
                }
            }
        }
    }

    /// flatc's `ParseEnumFromString`: space-separated enum value names (or `Enum.Value` for
    /// plain integer fields), OR-ed together.
    fn enum_from_string(
        &mut self,
        ty: &DType,
        text: &str,
        span: Span,
        field: &str,
    ) -> Option<i128> {
        let enum_slot = ty.enum_slot();
        let base = match enum_slot {
            Some(e) => self.enums[e].underlying.base,
            None => ty.base,
        };
        let mut bits: u64 = 0;
        for word in text.split(' ') {
            let value = if let Some(e) = enum_slot {
                match self.enums[e].vals.iter().find(|v| v.name == word) {
                    Some(v) => v.value,
                    None if self.enums[e].lost_vals.iter().any(|v| v == word) => return None,
                    None => {
                        let en = self.enums[e].name.to_string();
                        let names: Vec<String> = self.enums[e]
                            .vals
                            .iter()
                            .map(|v| v.name.to_string())
                            .collect();
                        let d = self.error(
                            Code::InvalidDefault,
                            format!("`{word}` is not a value of enum `{en}`"),
                            span,
                        );
                        if let Some(c) = closest(word, names.iter().map(String::as_str)) {
                            d.help.push(format!("did you mean `{c}`?"));
                        } else {
                            d.notes
                                .push(format!("the values of `{en}` are: {}", names.join(", ")));
                        }
                        return None;
                    }
                }
            } else {
                let Some(dot) = word.find('.') else {
                    self.error(
                        Code::InvalidDefault,
                        format!("`{word}` is not a number; field `{field}` is not an enum, so enum values must be qualified by their enum type (`Enum.Value`)"),
                        span,
                    );
                    return None;
                };
                let (enum_name, value_name) = (&word[..dot], &word[dot + 1..]);
                let Some(e) = self.lookup_enum(enum_name) else {
                    if self.may_be_lost(enum_name) {
                        return None;
                    }
                    self.error(
                        Code::InvalidDefault,
                        format!("unknown enum `{enum_name}`"),
                        span,
                    );
                    return None;
                };
                let f = self.enums[e].file;
                self.note_use(f);
                match self.enums[e].vals.iter().find(|v| v.name == value_name) {
                    Some(v) => v.value,
                    None if self.enums[e].lost_vals.iter().any(|v| v == value_name) => return None,
                    None => {
                        self.error(
                            Code::InvalidDefault,
                            format!("`{value_name}` is not a value of enum `{enum_name}`"),
                            span,
                        );
                        return None;
                    }
                }
            };
            bits |= value as u64;
        }
        Some(if base.is_unsigned() {
            i128::from(bits)
        } else {
            i128::from(bits as i64)
        })
    }

    // ----- types -----

    /// The type `ty` of `ast` (a file's tree) as written in the current file: a built-in type
    /// at once, anything else by [`Analyzer::resolve_named_type`].
    #[inline(always)]
    fn resolve_type(&mut self, ast: &FileAst, ty: &TypeAst) -> Option<DType> {
        match self.builtin_of(ty) {
            Some(b) => Some(DType::scalar(b)),
            None => self.resolve_named_type(ast, ty),
        }
    }

    /// The built-in type (scalar or `string`) that `ty` names in the current file, if it is one.
    #[inline(always)]
    fn builtin_of(&self, ty: &TypeAst) -> Option<BaseType> {
        match ty {
            TypeAst::Word(s) => builtin_type_at(self.file_text.bytes(), s.range()),
            _ => None,
        }
    }

    /// [`Analyzer::resolve_type`] for a type that is not a built-in name.
    fn resolve_named_type(&mut self, ast: &FileAst, ty: &TypeAst) -> Option<DType> {
        match ty {
            TypeAst::Word(s) => {
                let name = self.text(*s);
                Some(self.type_ident(Cow::Borrowed(name), *s))
            }
            TypeAst::Named(q) => {
                let name = self.qual_text(ast, q);
                Some(self.type_ident(name, q.span))
            }
            TypeAst::Vector(inner, span) | TypeAst::Array(inner, _, span) => {
                let sub = self.resolve_type(ast, ast.item(*inner))?;
                if sub.is_series() {
                    self.error(
                        Code::InvalidFieldType,
                        "nested vector types are not supported",
                        *span,
                    )
                    .help
                    .push("wrap the inner vector in a table: `table Row { items: [T]; }` and use `[Row]`".into());
                    return None;
                }
                let mut out = DType {
                    base: BaseType::Vector,
                    element: sub.base,
                    target: sub.target,
                    fixed_length: 0,
                };
                if let TypeAst::Array(_, len_span, _) = ty {
                    let text = self.text(*len_span);
                    let len = match parse_int_for(text, BaseType::UShort) {
                        Ok(n) if n >= 1 => n as u16,
                        _ => {
                            self.error(
                                Code::InvalidFieldType,
                                format!(
                                    "array length `{text}` must be positive and fit in 16 bits"
                                ),
                                *len_span,
                            );
                            return None;
                        }
                    };
                    out.base = BaseType::Array;
                    out.fixed_length = len;
                }
                Some(out)
            }
        }
    }

    /// flatc's `ParseTypeIdent`: an enum or union declared so far, else a table or struct
    /// (possibly not yet declared).
    fn type_ident(&mut self, name: Cow<'s, str>, span: Span) -> DType {
        if let Some(e) = self.lookup_enum(&name) {
            let f = self.enums[e].file;
            self.note_use(f);
            let mut t = self.enums[e].underlying;
            t.target = Target::Enum(e as u32);
            if self.enums[e].is_union {
                t.base = BaseType::Union;
            }
            return t;
        }
        let slot = self.lookup_struct_use(name, span, true).unwrap_or(0);
        if let Some(s) = self.structs.get(slot) {
            if !s.predecl {
                let f = s.file;
                self.note_use(f);
            }
        }
        DType {
            base: BaseType::Obj,
            element: BaseType::None,
            target: Target::Struct(slot as u32),
            fixed_length: 0,
        }
    }

    fn is_struct_type(&self, t: &DType) -> bool {
        t.base == BaseType::Obj && t.struct_slot().is_some_and(|s| self.structs[s].fixed)
    }

    fn is_incomplete(&self, t: &DType) -> bool {
        t.base == BaseType::Obj && t.struct_slot().is_some_and(|s| self.structs[s].predecl)
    }

    fn inline_size_align(&self, t: &DType) -> (u32, u32) {
        if self.is_struct_type(t) {
            let s = &self.structs[t.struct_slot().unwrap_or(0)];
            return (s.bytesize, s.minalign);
        }
        if t.base == BaseType::Array {
            let e = t.element_type();
            let (size, align) = self.inline_size_align(&e);
            // Saturating: a size that does not fit 32 bits is refused where the field is laid out.
            return (size.saturating_mul(u32::from(t.fixed_length)), align);
        }
        let size = t.base.size() as u32;
        (size, size)
    }

    // ----- tables and structs -----

    fn object(&mut self, ast: &'s FileAst, o: &ObjectDecl) {
        let name = self.text(o.name);
        let file = self.file;
        let fields = ast.get(o.fields).len();
        // (A slot is built in one piece: a `Drop` type takes no `..base`.)
        let define = |full, refs| StructSlot {
            name: Batched::new(Cow::Borrowed(name)),
            full: Batched::new(full),
            predecl: false,
            fixed: o.is_struct,
            fields: Batched::new(Vec::with_capacity(fields)),
            id_spans: Batched::new(Vec::new()),
            bytesize: 0,
            minalign: 1,
            has_key: false,
            attrs: Batched::new(Attributes::default()),
            docs: o.docs,
            file,
            span: o.name,
            refs: Batched::new(refs),
            circular: false,
            partial: o.partial,
            field_index: Batched::new(DupIndex::default()),
            field_bits: 0,
            suffixed: false,
        };
        let (slot, defined) = match self.define_struct(name, o.name, define) {
            Ok(defined) => defined,
            Err((slot, full)) => {
                let first = self.structs[slot].span;
                self.error(
                    Code::Duplicate,
                    format!("`{full}` is defined twice"),
                    o.name,
                )
                .secondary
                .push(crate::diagnostic::Label {
                    span: first,
                    message: "first defined here".into(),
                });
                return;
            }
        };
        self.files[file.index()].structs.push(ObjectId(slot as u32));
        // (The slot has no attributes yet: most definitions leave it so.)
        let attr_list = ast.get(o.attrs);
        let mut known = Known::default();
        if !attr_list.is_empty() {
            let attrs;
            (attrs, known) = self.attribute_list(ast, attr_list);
            *self.structs[slot].attrs = attrs;
        }
        // (A struct's fields take no quick path.)
        for f in ast.get(o.fields) {
            if o.is_struct || !self.quick_field(ast, slot, f) {
                self.field(ast, slot, f);
            }
        }
        let fixed = o.is_struct;
        if fixed {
            let force = known
                .get(&self.structs[slot].attrs, Builtin::ForceAlign)
                .map(|a| (attr_text(a).into_owned(), value_span(ast.get(o.attrs), a)));
            if let Some((text, span)) = force {
                let natural = self.structs[slot].minalign;
                match parse_int_for(&text, BaseType::UByte) {
                    Ok(v)
                        if (v as u32) >= natural
                            && (v as u32) <= MAX_ALIGNMENT
                            && (v as u32) & (v as u32).wrapping_sub(1) == 0 =>
                    {
                        self.structs[slot].minalign = v as u32;
                    }
                    _ => {
                        self.error(
                            Code::InvalidStruct,
                            format!("`force_align: {text}` is invalid: the alignment must be a power of two from the struct's natural alignment {natural} to {MAX_ALIGNMENT}"),
                            span,
                        );
                    }
                }
            }
            let s = &self.structs[slot];
            if s.bytesize == 0 && !s.circular && !s.partial {
                let full = &*self.structs[slot].full;
                let message = format!("struct `{full}` has size 0");
                self.error(Code::InvalidStruct, message, o.name).help.push(
                    "a struct needs at least one field; use a table for an empty type".into(),
                );
            }
        }
        let minalign = self.structs[slot].minalign;
        pad_last_field(&mut self.structs[slot], minalign);
        if !fixed && !self.structs[slot].partial {
            self.assign_ids(slot, o);
        }
        self.check_clashes(slot);
        if let Some(first) = defined {
            let full = &*self.structs[slot].full;
            let message = format!("`{full}` is defined twice");
            self.defined_twice(message, o.name, first);
        }
    }

    /// [`Analyzer::field`] for the most common fields, in fewer steps: a table field without
    /// attributes whose type is a built-in scalar or `string` and whose default, if it has one,
    /// is an integer of a few plain decimal digits ([`FieldDecl::small_default`]) that its
    /// integer type holds, named so that
    /// it is no table's or struct's name ([`NameFilter`]) and no other field's, and not beyond
    /// the [`MAX_TABLE_FIELDS`]. Such a field passes all of flatc's checks: what is left is its
    /// layout (that of [`Analyzer::place_field`] for a table field) and its default. `false`,
    /// with nothing done, for any other field. `slot` is a table's.
    #[inline(always)]
    fn quick_field(&mut self, ast: &'s FileAst, slot: usize, f: &FieldDecl) -> bool {
        if !quick_fields() || !f.attrs.is_empty() {
            return false;
        }
        let Some(base) = self.builtin_of(&f.ty) else {
            return false;
        };
        // (The name is in the current file, as the type is.)
        let name: &'s str = self.file_text.text(f.name);
        if self.struct_filter.may_contain_ident(name) {
            return false;
        }
        // The integer constant of the default: the implicit 0, or the small integer written.
        let value = match f.default {
            None => 0,
            // (`parse_int_for` reads it so.)
            Some(_)
                if f.small_default != NO_SMALL_INT
                    && base.is_integer()
                    && u64::from(f.small_default) <= int_max(base) =>
            {
                f.small_default
            }
            Some(_) => return false,
        };
        // (The slot is looked up once: what is left needs no more of the analyzer.)
        let s = &mut self.structs[slot];
        let bit = field_bit(name);
        let id = s.fields.len();
        if id == MAX_TABLE_FIELDS
            || s.field_bits & bit != 0
                && s.field_index
                    .find(&s.fields, |f| (&f.name, f.span), name)
                    .is_some()
        {
            return false;
        }
        s.note_field_name(name, bit);
        let ty = DType::scalar(base);
        // A scalar with a default; a string that is neither required nor has a default.
        let presence = if base.is_scalar() {
            Presence::Default
        } else {
            Presence::Optional
        };
        let name = Name::from(name);
        // (What `default_value` gives for it.)
        let default = int_default_value(base, value.into());
        push_built(&mut s.fields, || Field {
            name,
            ty: model_type(&ty),
            id: id as u16,
            // (`vtable_offset`, without its bound: `id` is below `MAX_TABLE_FIELDS` here.)
            offset: (4 + 2 * id) as u16,
            default,
            presence,
            deprecated: false,
            key: false,
            padding: 0,
            nested_flatbuffer: None,
            flexbuffer: false,
            hash: None,
            shared: false,
            offset64: false,
            synthesized: false,
            union_sibling: None,
            attributes: Attributes::default(),
            // (Its doc comments, when it has some, are read below.)
            docs: Vec::new(),
            span: f.name,
        });
        let field = &mut s.fields[id];
        s.field_index.added(&field.name, f.name);
        if f.docs.0 != f.docs.1 {
            field.docs = docs_text(self.files[self.file.index()].text, &ast.docs, f.docs);
        }
        true
    }

    /// A field of the table or struct in `slot`: its type, layout, default, attributes and
    /// presence, with flatc's checks in flatc's order. Most fields have no built-in attribute:
    /// the checks of each one are behind a test of its bit.
    fn field(&mut self, ast: &'s FileAst, slot: usize, f: &FieldDecl) {
        let name: &'s str = self.text(f.name);
        let fixed = self.structs[slot].fixed;
        // (A field name is an identifier.)
        if self.struct_filter.may_contain_ident(name) {
            self.check_field_name(name, f.name);
        }
        let Some(ty) = self.resolve_type(ast, &f.ty) else {
            self.structs[slot].partial = true;
            return;
        };
        if let Some(target) = ty.struct_slot() {
            let t = &self.structs[target];
            if t.predecl && self.may_be_lost(&t.name) {
                // Any error about this field could be wrong.
                self.structs[slot].partial = true;
                return;
            }
            if fixed && t.partial {
                // Its size is not known.
                self.structs[slot].partial = true;
            }
        }
        let mut ok = true;
        if fixed || ty.base == BaseType::Array {
            ok = self.check_inline_field_type(slot, name, &ty, f.ty.span(), fixed);
        }
        // A union field is preceded by its `_type` field.
        let typefield =
            if ty.base == BaseType::Union || (ty.is_vector() && ty.element == BaseType::Union) {
                self.add_union_type_field(slot, name, &ty, f.name)
            } else {
                None
            };
        if !self.check_new_field(slot, name, f.name, false) {
            self.structs[slot].partial = true;
            return;
        }
        // The field is appended when complete, at the end; nothing is appended before it.
        let fi = self.structs[slot].fields.len();
        if let Some(t) = typefield {
            self.structs[slot].fields[t].union_sibling = Some(fi as u16);
        }
        let declared_ty = ty;
        let mut ty = ty;
        let mut constant = Constant::Zero;
        if let Some(default) = &f.default {
            match self.field_default(ast, name, &ty, default, fixed) {
                Some(value) => constant = value,
                None => ok = false,
            }
        }
        let (mut attrs, known) = self.attributes(ast, ast.get(f.attrs));
        let deprecated = known.has(Builtin::Deprecated);
        let hash = if known.has(Builtin::Hash) {
            self.field_hash(ast, f, name, &ty, &attrs, known)
        } else {
            None
        };
        let mut offset64 = false;
        if known.any(Known::of(&[Builtin::Vector64, Builtin::Offset64])) {
            let vector64;
            (offset64, vector64) = self.field_offset64(f, name, &ty, &attrs, known);
            if vector64 {
                ty.base = BaseType::Vector64;
            }
        }
        // Presence: required, optional, or default.
        let key = known.has(Builtin::Key);
        let required = known.has(Builtin::Required) || (ty.base == BaseType::String && key);
        let default_str_or_vec =
            (ty.base == BaseType::String || ty.is_vector()) && !constant.is_zero();
        // Struct fields are always present (flatc 25.12.19 marks no struct field optional).
        let optional = if ty.base.is_scalar() {
            matches!(constant, Constant::Null)
        } else {
            !(required || default_str_or_vec || fixed)
        };
        if required {
            let span = known
                .get(&attrs, Builtin::Required)
                .map_or(f.name, |a| a.span);
            self.check_required(f, name, &ty, optional, fixed, span);
        }
        let presence = if required {
            Presence::Required
        } else if optional {
            Presence::Optional
        } else {
            Presence::Default
        };
        if key {
            self.check_key(slot, f, name, &ty, &attrs, known);
        }
        if ty.base.is_scalar() && matches!(constant, Constant::Null) {
            self.null_default(f, name, &ty, key, &attrs, known);
        }
        if ty.enum_slot().is_some() {
            self.check_enum_field_default(f, name, &ty, &constant, optional, ok);
        }
        if deprecated && fixed {
            self.error(
                Code::InvalidStruct,
                format!("struct field `{name}` cannot be deprecated"),
                known
                    .get(&attrs, Builtin::Deprecated)
                    .map_or(f.name, |a| a.span),
            )
            .notes
            .push("struct layouts cannot change; only table fields can be deprecated".into());
        }
        let mut other = OtherFieldAttrs::default();
        if known.any(OtherFieldAttrs::ATTRIBUTES) {
            other = self.other_field_attributes(ast, f, name, &ty, &mut attrs, known);
        }
        if let Some(t) = typefield {
            let type_field = &mut self.structs[slot].fields[t];
            if !type_field.ty.base_type.is_scalar() {
                type_field.presence = presence;
            }
            type_field.deprecated |= deprecated;
            if let Some(id) = known.get(&attrs, Builtin::Id) {
                self.union_type_field_id(ast, slot, t, f, id);
            }
        }
        if let Some(id) = known.get(&attrs, Builtin::Id) {
            let id_span = value_span(ast.get(f.attrs), id);
            self.structs[slot].id_spans.push((fi, id_span));
        }
        let (id, offset) = self.place_field(slot, name, field_bit(name), f.name, &declared_ty);
        let docs = self.docs(ast, f.docs);
        let (field_name, default) = (Name::from(name), default_value(&ty, constant));
        push_built(&mut self.structs[slot].fields, || Field {
            name: field_name,
            ty: model_type(&ty),
            id,
            offset,
            default,
            presence,
            deprecated,
            key,
            padding: 0,
            nested_flatbuffer: other.nested.map(|s| ObjectId(s as u32)),
            flexbuffer: other.flexbuffer,
            hash,
            shared: other.shared,
            offset64,
            synthesized: false,
            union_sibling: typefield.map(|t| t as u16),
            attributes: attrs,
            docs,
            span: f.name,
        });
        self.added_field(slot, f.name);
        if deprecated && required {
            let span = f.name;
            self.warn(
                Code::Questionable,
                format!("field `{name}` is both deprecated and required"),
                span,
            )
            .notes
            .push("readers reject buffers without a required field, but writers are told not to write a deprecated one; flatc accepts this".into());
        }
    }

    /// A field named like a table or struct declared so far.
    fn check_field_name(&mut self, name: &'s str, span: Span) {
        if self
            .lookup_struct_use(Cow::Borrowed(name), span, false)
            .is_some()
        {
            self.error(
                Code::NameClash,
                format!("field `{name}` has the same name as a table or struct"),
                span,
            )
            .help
            .push("rename the field (field names are usually snake_case)".into());
        }
    }

    /// The type of a struct field (`fixed`), or of an array field: whether it is valid.
    fn check_inline_field_type(
        &mut self,
        slot: usize,
        name: &str,
        ty: &DType,
        ty_span: Span,
        fixed: bool,
    ) -> bool {
        let mut ok = true;
        if fixed {
            let incomplete = self.is_incomplete(ty)
                || (ty.base == BaseType::Array && self.is_incomplete(&ty.element_type()));
            let self_ref = ty.struct_slot() == Some(slot)
                && (ty.base == BaseType::Obj || ty.base == BaseType::Array);
            if self_ref {
                let sname = self.structs[slot].name.to_string();
                self.error(
                    Code::InvalidStruct,
                    format!("struct `{sname}` contains itself"),
                    ty_span,
                )
                .notes
                .push("a struct is stored inline, so it cannot contain itself; use a table to build recursive data".into());
                self.structs[slot].circular = true;
                ok = false;
            } else if incomplete {
                let target = if ty.base == BaseType::Array {
                    ty.element_type()
                } else {
                    *ty
                };
                let tname = self.structs[target.struct_slot().unwrap_or(0)]
                    .name
                    .to_string();
                let d = self.error(
                    Code::InvalidStruct,
                    format!("struct field `{name}` uses `{tname}`, which is not declared yet"),
                    ty_span,
                );
                d.help.push(format!("declare struct `{tname}` before this struct (flatc requires structs to be declared before they are embedded)"));
                ok = false;
            } else {
                let valid = ty.base.is_scalar()
                    || self.is_struct_type(ty)
                    || (ty.base == BaseType::Array
                        && (ty.element.is_scalar() || self.is_struct_type(&ty.element_type())));
                if !valid {
                    let d = self.error(
                        Code::InvalidFieldType,
                        format!("struct field `{name}` has type `{}`, but structs may contain only scalars, structs and fixed-size arrays of them", self.type_name(ty)),
                        ty_span,
                    );
                    d.help
                        .push("declare the containing type as a `table` instead".into());
                    ok = false;
                }
            }
        }
        if !fixed && ty.base == BaseType::Array {
            self.error(
                Code::InvalidFieldType,
                format!("fixed-length array field `{name}` must be in a struct, not a table"),
                ty_span,
            )
            .help
            .push("wrap the array in a struct, or use a vector `[T]`".into());
            ok = false;
        }
        if ty.base == BaseType::Array {
            self.advanced
                .insert(AdvancedFeatures::ADVANCED_ARRAY_FEATURES);
        }
        ok
    }

    /// The hidden `NAME_type` field before a union field (or vector of unions) `name`.
    fn add_union_type_field(
        &mut self,
        slot: usize,
        name: &str,
        ty: &DType,
        span: Span,
    ) -> Option<usize> {
        if ty.base == BaseType::Union {
            let e = ty.enum_slot().unwrap_or(0);
            let mut ut = self.enums[e].underlying;
            ut.base = BaseType::UType;
            ut.target = Target::Enum(e as u32);
            self.add_field(slot, Cow::Owned(format!("{name}_type")), ut, span, true)
        } else {
            self.advanced
                .insert(AdvancedFeatures::ADVANCED_UNION_FEATURES);
            let ut = DType {
                base: BaseType::Vector,
                element: BaseType::UType,
                target: ty.target,
                fixed_length: 0,
            };
            self.add_field(slot, Cow::Owned(format!("{name}_type")), ut, span, true)
        }
    }

    /// The default written for field `name` of type `ty` (in a struct when `fixed`): its
    /// constant, or `None` when it is invalid (already reported).
    fn field_default(
        &mut self,
        ast: &'s FileAst,
        name: &str,
        ty: &DType,
        default: &ValueAst,
        fixed: bool,
    ) -> Option<Constant<'s>> {
        if ty.base == BaseType::Obj {
            let tname = self.type_name(ty);
            let d = Diagnostic::error(
                Code::InvalidDefault,
                format!("field `{name}` has type `{tname}`, a table or struct, which cannot have a default"),
                default.span(),
            );
            match ty.struct_slot().filter(|_| self.is_incomplete(ty)) {
                Some(slot) => self.on_undeclared.push((slot, d)),
                None => self.diags.push(d),
            }
            return None;
        }
        let value = self.default_value(ast, default, ty, name, true)?;
        let dspan = default.span();
        if self.is_struct_type(ty) {
            self.error(
                Code::InvalidDefault,
                format!("struct-typed field `{name}` cannot have a default"),
                dspan,
            );
        } else if fixed && !value.is_zero() {
            self.error(
                Code::InvalidDefault,
                format!("field `{name}` of a struct cannot have a default value"),
                dspan,
            )
            .notes
            .push("struct fields are always stored; only table fields have defaults".into());
        }
        if ty.base == BaseType::String || ty.is_vector() {
            self.advanced
                .insert(AdvancedFeatures::DEFAULT_VECTORS_AND_STRINGS);
        }
        if ty.is_vector() && !value.is_zero() && value != Constant::EmptyVector {
            self.error(
                Code::InvalidDefault,
                format!("the only supported default for vector field `{name}` is `[]`"),
                dspan,
            );
        }
        Some(value)
    }

    /// The `hash` attribute of field `name` (there is one): its algorithm, when it is valid.
    fn field_hash(
        &mut self,
        ast: &FileAst,
        f: &FieldDecl,
        name: &str,
        ty: &DType,
        attrs: &Attributes,
        known: Known,
    ) -> Option<HashKind> {
        let h = known.get(attrs, Builtin::Hash)?;
        let t = if ty.is_vector() { ty.element } else { ty.base };
        let bits = match t {
            BaseType::Short | BaseType::UShort => 16,
            BaseType::Int | BaseType::UInt => 32,
            BaseType::Long | BaseType::ULong => 64,
            _ => 0,
        };
        let hname = attr_text(h);
        if bits == 0 {
            self.error(
                Code::InvalidAttribute,
                format!("field `{name}` has type `{}`, but only short, ushort, int, uint, long and ulong fields (or vectors of them) can be hashed", self.type_name(ty)),
                h.span,
            );
            return None;
        }
        match HashKind::from_name(&hname) {
            Some(k) if k.bits() == bits => Some(k),
            _ => {
                let options = match bits {
                    16 => ["fnv1_16", "fnv1a_16"],
                    32 => ["fnv1_32", "fnv1a_32"],
                    _ => ["fnv1_64", "fnv1a_64"],
                };
                let d = self.error(
                    Code::InvalidAttribute,
                    format!("unknown hashing algorithm `{hname}` for {bits}-bit field `{name}`"),
                    value_span(ast.get(f.attrs), h),
                );
                d.help
                    .push(format!("use `{}` or `{}`", options[0], options[1]));
                None
            }
        }
    }

    /// The `vector64` and `offset64` attributes of field `name` of type `ty` (it has one of
    /// them): whether the field uses a 64-bit offset, and whether `vector64` makes its type a
    /// `Vector64`.
    fn field_offset64(
        &mut self,
        f: &FieldDecl,
        name: &str,
        ty: &DType,
        attrs: &Attributes,
        known: Known,
    ) -> (bool, bool) {
        let mut ty = *ty;
        let mut offset64 = false;
        let mut vector64 = false;
        if let Some(a) = known.get(attrs, Builtin::Vector64) {
            if !ty.is_vector() {
                self.error(
                    Code::InvalidAttribute,
                    format!(
                        "`vector64` applies only to vectors, but field `{name}` has type `{}`",
                        self.type_name(&ty)
                    ),
                    a.span,
                );
            } else {
                ty.base = BaseType::Vector64;
                vector64 = true;
                offset64 = true;
            }
        }
        if let Some(a) = known.get(attrs, Builtin::Offset64) {
            if ty.base == BaseType::Vector64 {
                self.warn(
                    Code::Questionable,
                    "attribute `vector64` implies `offset64`, which is not needed",
                    a.span,
                );
            }
            offset64 = true;
        }
        if offset64 {
            let span = known
                .get(attrs, Builtin::Offset64)
                .or_else(|| known.get(attrs, Builtin::Vector64))
                .map_or(f.name, |a| a.span);
            if ty.base != BaseType::String && !ty.is_vector() {
                self.error(
                    Code::InvalidAttribute,
                    format!("only strings and vectors can have `offset64`, but field `{name}` has type `{}`", self.type_name(&ty)),
                    span,
                );
            } else if ty.is_vector() {
                let elem = ty.element_type();
                let is_enum = elem.enum_slot().is_some() && elem.base.is_integer();
                if !((elem.base.is_scalar() && !is_enum) || self.is_struct_type(&elem)) {
                    self.error(
                        Code::InvalidAttribute,
                        format!("only vectors of scalars and structs can be 64-bit, but field `{name}` has type `{}`", self.type_name(&ty)),
                        span,
                    );
                }
            }
        }
        (offset64, vector64)
    }

    /// A required field (`required`, or a string `key`): whether it may be. `span` is its
    /// `required` attribute (or its name).
    fn check_required(
        &mut self,
        f: &FieldDecl,
        name: &str,
        ty: &DType,
        optional: bool,
        fixed: bool,
        span: Span,
    ) {
        if optional {
            self.error(
                Code::InvalidRequired,
                format!("field `{name}` cannot be both optional (`= null`) and required"),
                f.name,
            );
        }
        if fixed || ty.base.is_scalar() {
            let d = self.error(
                Code::InvalidRequired,
                format!("field `{name}` cannot be `required`: only non-scalar fields of tables can be required"),
                span,
            );
            if ty.base.is_scalar() && !fixed {
                d.notes
                    .push("a scalar field always has a value: its default when absent".into());
            }
        }
    }

    /// A `key` field of the table or struct in `slot`: whether it may be.
    fn check_key(
        &mut self,
        slot: usize,
        f: &FieldDecl,
        name: &str,
        ty: &DType,
        attrs: &Attributes,
        known: Known,
    ) {
        let key_span = known.get(attrs, Builtin::Key).map_or(f.name, |a| a.span);
        if self.structs[slot].has_key {
            let sname = self.structs[slot].name.to_string();
            self.error(
                Code::InvalidKey,
                format!("`{sname}` already has a `key` field; only one field may be the key"),
                key_span,
            );
        }
        self.structs[slot].has_key = true;
        let mut valid =
            ty.base.is_scalar() || ty.base == BaseType::String || self.is_struct_type(ty);
        if ty.base == BaseType::Array {
            valid |= ty.element.is_scalar() || self.is_struct_type(&ty.element_type());
        }
        if !valid {
            self.error(
                Code::InvalidKey,
                format!("key field `{name}` has type `{}`, but a key must be a string, a scalar, a struct or a fixed-size array of them", self.type_name(ty)),
                key_span,
            );
        }
    }

    /// A scalar field with default `null` (an optional scalar).
    fn null_default(
        &mut self,
        f: &FieldDecl,
        name: &str,
        ty: &DType,
        key: bool,
        attrs: &Attributes,
        known: Known,
    ) {
        self.advanced.insert(AdvancedFeatures::OPTIONAL_SCALARS);
        if let Some(e) = ty.enum_slot() {
            if self.enums[e].vals.iter().any(|v| v.name == "null") {
                let en = self.enums[e].name.to_string();
                self.error(
                    Code::InvalidDefault,
                    format!("the default `null` of field `{name}` conflicts with the value `null` of enum `{en}`"),
                    f.name,
                );
            }
        }
        if key {
            self.error(
                Code::InvalidKey,
                format!("optional field `{name}` cannot be a key"),
                known.get(attrs, Builtin::Key).map_or(f.name, |a| a.span),
            );
        }
    }

    /// The default of a field whose type involves an enum or union.
    fn check_enum_field_default(
        &mut self,
        f: &FieldDecl,
        name: &str,
        ty: &DType,
        constant: &Constant<'_>,
        optional: bool,
        ok: bool,
    ) {
        let Some(e) = ty.enum_slot() else {
            return;
        };
        let dspan = f.default.as_ref().map_or(f.name, |d| d.span());
        if ty.base == BaseType::Union {
            if !constant.is_zero() {
                self.error(
                    Code::InvalidDefault,
                    format!("union field `{name}` cannot have a default (it is always NONE)"),
                    dspan,
                );
            }
        } else if ty.is_vector() {
            if !constant.is_zero() && *constant != Constant::EmptyVector {
                self.error(
                    Code::InvalidDefault,
                    format!("the only supported default for vector field `{name}` is `[]`"),
                    dspan,
                );
            }
        } else if ty.base == BaseType::Array && !constant.is_zero() {
            self.error(
                Code::InvalidDefault,
                format!("array field `{name}` cannot have a default"),
                dspan,
            );
        } else if (ty.base.is_integer() || ty.base == BaseType::Array)
            // (An array's elements start as 0, which flatc checks as a scalar's default.)
            && !optional
            && !self.enums[e].bit_flags
            && self.enums[e].lost_vals.is_empty()
            && ok
        {
            let value = match constant {
                Constant::Int(v) => *v,
                _ => 0,
            };
            let unsigned64 = self.enums[e].underlying.base == BaseType::ULong;
            let found = self.enums[e].vals.iter().any(|v| {
                if unsigned64 {
                    i128::from(v.value as u64) == value
                } else {
                    i128::from(v.value) == value
                }
            });
            if !found {
                let en = self.enums[e].name.to_string();
                let first = self.enums[e].vals.first().map(|v| v.name.to_string());
                let d = self.error(
                    Code::InvalidDefault,
                    format!(
                        "default value {value} of field `{name}` is not a value of enum `{en}`"
                    ),
                    dspan,
                );
                if ty.base == BaseType::Array {
                    d.notes.push(format!(
                        "an array's elements start as 0, and `{en}` has no value 0"
                    ));
                    d.help
                        .push(format!("give `{en}` a value 0 (arrays take no default)"));
                } else {
                    if f.default.is_none() {
                        d.notes.push(format!(
                            "without `= ...` the default is 0, and `{en}` has no value 0"
                        ));
                    }
                    if let Some(first) = first {
                        d.help.push(format!("give the field a default that is a value of the enum, for example `= {first}`"));
                    }
                }
            }
        }
    }

    /// The attributes of field `name` among [`OtherFieldAttrs::ATTRIBUTES`] (it has one of
    /// them), in flatc's order. `cpp_type` adds flatc's implicit `cpp_ptr_type` to `attrs`.
    fn other_field_attributes(
        &mut self,
        ast: &FileAst,
        f: &FieldDecl,
        name: &str,
        ty: &DType,
        attrs: &mut Attributes,
        known: Known,
    ) -> OtherFieldAttrs {
        if let Some(ct) = known.get(attrs, Builtin::CppType) {
            let span = ct.span;
            // flatc's `cpp_ptr_type: "naked"`, with the type of `cpp_type`'s value.
            let naked = value_like(&ct.value, "naked".to_string());
            // (A `hash` attribute, valid or not, is enough.)
            if !known.has(Builtin::Hash) {
                self.error(
                    Code::InvalidAttribute,
                    format!("`cpp_type` on field `{name}` needs a `hash` attribute"),
                    span,
                );
            }
            if !known.has(Builtin::CppPtrType) {
                attrs.list.push(Attribute {
                    name: "cpp_ptr_type".into(),
                    value: naked,
                    builtin: false,
                    span,
                });
            }
        }
        let shared = known.has(Builtin::Shared);
        if shared && ty.base != BaseType::String {
            self.error(
                Code::InvalidAttribute,
                format!(
                    "`shared` applies only to strings, but field `{name}` has type `{}`",
                    self.type_name(ty)
                ),
                known.get(attrs, Builtin::Shared).map_or(f.name, |a| a.span),
            );
        }
        if let Some(a) = known.get(attrs, Builtin::NativeCustomAlloc) {
            self.error(
                Code::InvalidAttribute,
                "`native_custom_alloc` applies only to tables and structs, not to fields",
                a.span,
            );
        }
        if let Some(a) = known.get(attrs, Builtin::NativeInline) {
            let elem = ty.element_type();
            let is_table = |t: &DType| {
                t.base == BaseType::Obj && t.struct_slot().is_some_and(|s| !self.structs[s].fixed)
            };
            let valid = self.is_struct_type(ty)
                || (ty.is_vector() && (self.is_struct_type(&elem) || is_table(&elem)));
            if !valid {
                self.error(
                    Code::InvalidAttribute,
                    "`native_inline` applies only to structs, vectors of structs and vectors of tables",
                    a.span,
                );
            }
        }
        let mut nested = None;
        if let Some(a) = known.get(attrs, Builtin::NestedFlatbuffer) {
            if !matches!(a.value, Some(AttrValue::String(_))) {
                self.error(
                    Code::InvalidAttribute,
                    "`nested_flatbuffer` needs the name of the root table as a string: `nested_flatbuffer: \"Monster\"`",
                    value_span(ast.get(f.attrs), a),
                );
            } else if !ty.is_vector() || ty.element != BaseType::UByte {
                self.error(
                    Code::InvalidAttribute,
                    format!("`nested_flatbuffer` applies only to `[ubyte]` fields, but field `{name}` has type `{}`", self.type_name(ty)),
                    a.span,
                );
            } else {
                let target = Cow::Owned(attr_text(a).into_owned());
                nested = self.lookup_struct_use(target, value_span(ast.get(f.attrs), a), true);
                if let Some(s) = nested {
                    if !self.structs[s].predecl {
                        let file = self.structs[s].file;
                        self.note_use(file);
                    }
                }
            }
        }
        let flexbuffer = known.has(Builtin::Flexbuffer);
        if flexbuffer && (ty.base != BaseType::Vector || ty.element != BaseType::UByte) {
            self.error(
                Code::InvalidAttribute,
                format!("`flexbuffer` applies only to `[ubyte]` fields, but field `{name}` has type `{}`", self.type_name(ty)),
                known.get(attrs, Builtin::Flexbuffer).map_or(f.name, |a| a.span),
            );
        }
        OtherFieldAttrs {
            shared,
            nested,
            flexbuffer,
        }
    }

    /// The hidden `NAME_type` field `t` of union field `f`, which has `id`: the id before it.
    fn union_type_field_id(
        &mut self,
        ast: &FileAst,
        slot: usize,
        t: usize,
        f: &FieldDecl,
        id: &Attribute,
    ) {
        let name = self.text(f.name);
        let id_span = value_span(ast.get(f.attrs), id);
        match attr_int(id, BaseType::UShort) {
            Ok(v) if v > 0 => {
                // The type field's id: one less, with the type of the union field's.
                let value = value_like(&id.value, (v - 1).to_string());
                let s = &mut self.structs[slot];
                s.fields[t].attributes.list.push(Attribute {
                    name: "id".into(),
                    value,
                    builtin: false,
                    span: id.span,
                });
                s.id_spans.push((t, id_span));
            }
            _ => {
                let text = attr_text(id);
                let d = self.error(
                    Code::InvalidId,
                    format!("union field `{name}` has id {text}, but a union takes two ids: the hidden `{name}_type` field gets the id before it"),
                    id_span,
                );
                d.help.push("give the union field an id of at least 1, one more than the id reserved for its type field".into());
            }
        }
    }

    /// flatc's `AddField` for a hidden `NAME_type` field (`synthesized`, default 0): appends it
    /// unless the name is taken (reported). Returns its index.
    fn add_field(
        &mut self,
        slot: usize,
        name: Cow<'s, str>,
        ty: DType,
        span: Span,
        synthesized: bool,
    ) -> Option<usize> {
        if !self.check_new_field(slot, &name, span, synthesized) {
            return None;
        }
        let (id, offset) = self.place_field(slot, &name, field_bit(&name), span, &ty);
        let (name, default) = (Name::from(name), default_value(&ty, Constant::Zero));
        push_built(&mut self.structs[slot].fields, || Field {
            name,
            ty: model_type(&ty),
            id,
            offset,
            default,
            presence: Presence::Default,
            deprecated: false,
            key: false,
            padding: 0,
            nested_flatbuffer: None,
            flexbuffer: false,
            hash: None,
            shared: false,
            offset64: false,
            synthesized,
            union_sibling: None,
            attributes: Attributes::default(),
            docs: Vec::new(),
            span,
        });
        Some(self.added_field(slot, span))
    }

    /// The first half of flatc's `AddField`: whether the table or struct in `slot` has no field
    /// `name` yet (a duplicate is reported).
    #[inline(always)]
    fn check_new_field(&mut self, slot: usize, name: &str, span: Span, synthesized: bool) -> bool {
        let s = &mut self.structs[slot];
        if s.field_bits & field_bit(name) == 0 {
            return true;
        }
        let first = s.field_index.find(&s.fields, |f| (&f.name, f.span), name);
        let Some(first) = first else {
            return true;
        };
        self.duplicate_field(slot, name, span, first, synthesized);
        false
    }

    /// Reports the field `name` at `span`, first defined at `first`, of the table or struct in
    /// `slot`.
    #[cold]
    fn duplicate_field(
        &mut self,
        slot: usize,
        name: &str,
        span: Span,
        first: Span,
        synthesized: bool,
    ) {
        let sname = self.structs[slot].name.to_string();
        let d = self.error(
            Code::Duplicate,
            format!("field `{name}` is defined twice in `{sname}`"),
            span,
        );
        d.secondary.push(crate::diagnostic::Label {
            span: first,
            message: "first defined here".into(),
        });
        if synthesized || name.ends_with("_type") {
            d.notes
                .push("a union field `x` adds a hidden field `x_type`".into());
        }
    }

    /// The second half of flatc's `AddField`, before the field is appended: lays out the next
    /// field of the table or struct in `slot`, `name` at `span` (whose [`field_bit`] is `bit`), by
    /// its type as declared, `ty`, if the object is a struct, and returns its id and offset. The
    /// caller then appends the field (with [`push_built`]) and records its name with
    /// [`Analyzer::added_field`].
    #[inline(always)]
    fn place_field(
        &mut self,
        slot: usize,
        name: &str,
        bit: u64,
        span: Span,
        ty: &DType,
    ) -> (u16, u16) {
        let s = &mut self.structs[slot];
        let id = s.fields.len();
        s.note_field_name(name, bit);
        if s.fixed {
            return (id as u16, self.place_struct_field(slot, name, span, ty));
        }
        if id == MAX_TABLE_FIELDS {
            self.too_many_fields(slot, name, span);
        }
        (id as u16, vtable_offset(id))
    }

    /// Reports the field `name` at `span`, the first beyond [`MAX_TABLE_FIELDS`] of the table in
    /// `slot` (flatc 25.12.19 aborts on an assertion).
    #[cold]
    fn too_many_fields(&mut self, slot: usize, name: &str, span: Span) {
        let full = &*self.structs[slot].full;
        let message = format!(
            "table `{full}` has more than {MAX_TABLE_FIELDS} fields (a union counts twice): field `{name}` would have id {MAX_TABLE_FIELDS}, whose vtable entry at byte 4 + 2 × id does not fit a 16-bit offset",
        );
        self.error(Code::InvalidDeclaration, message, span);
    }

    /// [`Analyzer::place_field`] for a struct: lays the field out after the others, by its size
    /// and alignment, and returns its offset.
    fn place_struct_field(&mut self, slot: usize, name: &str, span: Span, ty: &DType) -> u16 {
        let (size, align) = self.inline_size_align(ty);
        let s = &mut self.structs[slot];
        s.minalign = s.minalign.max(align);
        pad_last_field(s, align);
        // flatc keeps struct field offsets in 16 bits and truncates larger ones (silently
        // laying the field out elsewhere); such a field cannot be addressed, so it is an error.
        let at = s.bytesize;
        s.bytesize = s.bytesize.saturating_add(size);
        if at > u32::from(u16::MAX) {
            let message = format!(
                "field `{}` of struct `{}` starts at byte {at}: struct fields must start within the first 65535 bytes (their offsets are 16-bit)",
                name, *s.full
            );
            self.error(Code::InvalidStruct, message, span);
        } else if s.bytesize == u32::MAX {
            let message = format!(
                "struct `{}` is larger than 4 GiB with field `{}`",
                *s.full, name
            );
            self.error(Code::InvalidStruct, message, span);
        }
        at.min(u32::from(u16::MAX)) as u16
    }

    /// Records the name of the field just appended to the table or struct in `slot`, at `span`,
    /// and returns its index (see [`Analyzer::place_field`]).
    #[inline(always)]
    fn added_field(&mut self, slot: usize, span: Span) -> usize {
        let s = &mut self.structs[slot];
        let index = s.fields.len() - 1;
        s.field_index.added(&s.fields[index].name, span);
        index
    }

    /// Tables: all fields or none have `id`; ids are 0, 1, 2... in some order. Fields are then
    /// ordered by id.
    fn assign_ids(&mut self, slot: usize, o: &ObjectDecl) {
        let fields = &self.structs[slot].fields;
        // Every field with an `id` has its span in `id_spans` (a union's `_type` field gets one
        // from its union field, which has one too): none there, no field has one.
        if fields.is_empty() || self.structs[slot].id_spans.is_empty() {
            return;
        }
        let has_id = |f: &Field| f.attributes.get("id").is_some();
        let with_id = fields.iter().filter(|f| has_id(f)).count();
        if with_id == 0 {
            return;
        }
        if with_id != fields.len() {
            // A union type field without id whose union field has one: its invalid id was
            // already reported.
            let reported = |f: &Field| {
                f.synthesized && f.union_sibling.is_some_and(|s| has_id(&fields[s as usize]))
            };
            let missing: Vec<(Name, Span)> = fields
                .iter()
                .filter(|f| !has_id(f) && !reported(f))
                .map(|f| (f.name.clone(), f.span))
                .collect();
            if missing.is_empty() {
                return;
            }
            let sname = self.structs[slot].name.to_string();
            let (first, span) = missing[0].clone();
            let union_involved = missing.iter().any(|(_, s)| {
                self.structs[slot]
                    .fields
                    .iter()
                    .any(|f| f.synthesized && f.span == *s)
            });
            let d = self.error(
                Code::InvalidId,
                format!("either all fields of `{sname}` or none must have an `id`, but `{first}` has none"),
                span,
            );
            if union_involved {
                d.notes.push("a union field needs an id too; its hidden `_type` field takes the id before it".into());
            }
            let _ = o;
            return;
        }
        let id_spans = &self.structs[slot].id_spans;
        let id_span = |i: usize, f: &Field| {
            id_spans
                .iter()
                .find(|&&(field, _)| field == i)
                .map_or(f.span, |&(_, span)| span)
        };
        let mut keyed: Vec<(i128, usize)> = Vec::with_capacity(fields.len());
        let mut bad = Vec::new();
        for (i, f) in fields.iter().enumerate() {
            let id = f.attributes.get("id");
            match id.map(|a| attr_int(a, BaseType::UShort)) {
                Some(Ok(v)) => keyed.push((v, i)),
                _ => {
                    let text = id.map(attr_text).unwrap_or_default().into_owned();
                    bad.push((f.name.clone(), text, id_span(i, f)));
                }
            }
        }
        if !bad.is_empty() {
            for (fname, text, span) in bad {
                self.error(
                    Code::InvalidId,
                    format!("id `{text}` of field `{fname}` is not a number from 0 to 65535"),
                    span,
                );
            }
            return;
        }
        keyed.sort_by_key(|&(v, i)| (v, i));
        for (pos, &(id, i)) in keyed.iter().enumerate() {
            if id != pos as i128 {
                let f = &fields[i];
                let (fname, span) = (f.name.clone(), id_span(i, f));
                let dup = keyed.iter().filter(|&&(v, _)| v == id).count() > 1
                    || (pos > 0 && keyed[pos - 1].0 == id);
                let msg = if dup || (pos > 0 && keyed[pos - 1].0 == pos as i128) {
                    format!("field ids must be consecutive from 0: id {pos} is set twice (field `{fname}` has id {id})")
                } else {
                    format!("field ids must be consecutive from 0: id {pos} is missing (field `{fname}` has id {id})")
                };
                self.error(Code::InvalidId, msg, span);
                return;
            }
        }
        // Reorder fields by id and fix sibling indices.
        let mut new_index = vec![0u16; keyed.len()];
        for (new, &(_, old)) in keyed.iter().enumerate() {
            new_index[old] = new as u16;
        }
        let s = &mut self.structs[slot];
        let mut old: Vec<Option<Field>> = std::mem::take(&mut *s.fields)
            .into_iter()
            .map(Some)
            .collect();
        for (new, &(_, o)) in keyed.iter().enumerate() {
            if let Some(mut f) = old[o].take() {
                f.id = new as u16;
                f.offset = (4 + 2 * new).min(u16::MAX as usize) as u16;
                f.union_sibling = f.union_sibling.map(|x| new_index[x as usize]);
                s.fields.push(f);
            }
        }
    }

    /// flatc's `CheckClash`: field names that collide with accessors generated for other fields.
    /// (Nothing to check when no field's name has a suffix of the rules.)
    fn check_clashes(&mut self, slot: usize) {
        if !self.structs[slot].suffixed {
            return;
        }
        let fields = &self.structs[slot].fields;
        // (rule, field) for the names with a suffix.
        let mut suffixed: Vec<(usize, usize)> = Vec::new();
        for (i, f) in fields.iter().enumerate() {
            if let Some(r) = clash_rule(&f.name) {
                if f.ty.base_type != BaseType::UType {
                    suffixed.push((r, i));
                }
            }
        }
        if suffixed.is_empty() {
            return;
        }
        // Reported rule by rule, then in field order.
        suffixed.sort_by_key(|&(r, _)| r);
        let mut found = Vec::new();
        for (r, i) in suffixed {
            let (suffix, base) = CLASH_RULES[r];
            let f = &fields[i];
            let stem = &f.name[..f.name.len() - suffix.len()];
            if let Some(other) = fields.iter().find(|g| g.name == stem) {
                if other.ty.base_type == base {
                    found.push((
                        f.name.to_string(),
                        f.span,
                        other.name.to_string(),
                        other.span,
                    ));
                }
            }
        }
        for (name, span, other, other_span) in found {
            self.error(
                Code::NameClash,
                format!("field `{name}` would clash with code generated for field `{other}`"),
                span,
            )
            .with_secondary_owned(other_span, "this field");
        }
    }

    // ----- enums and unions -----

    fn enum_decl(&mut self, ast: &'s FileAst, e: &EnumDecl) {
        let name: &'s str = self.text(e.name);
        let full = self.qualify(name);
        let slot = self.enums.len();
        let kind = if e.is_union { "union" } else { "enum" };
        let mut underlying = DType::scalar(if e.is_union {
            BaseType::UType
        } else {
            BaseType::Int
        });
        let mut ok = true;
        match &e.underlying {
            None => {
                if !e.is_union {
                    self.error(
                        Code::InvalidEnum,
                        format!("enum `{name}` needs an underlying integer type"),
                        e.name,
                    )
                    .help
                    .push(format!("write `enum {name} : ubyte {{ ... }}` (or byte, short, ushort, int, uint, long, ulong)"));
                    ok = false;
                }
            }
            Some(t)
                if match t {
                    TypeAst::Word(s) => self.names_itself(self.text(*s), &full),
                    TypeAst::Named(q) => self.names_itself(&self.qual_text(ast, q), &full),
                    _ => false,
                } =>
            {
                // Not looked up: that would declare a table of this name, never defined.
                self.error(
                    Code::InvalidEnum,
                    format!("{kind} `{name}` cannot be its own underlying type"),
                    t.span(),
                )
                .help
                .push(
                    "write an integer type: byte, ubyte, short, ushort, int, uint, long or ulong"
                        .into(),
                );
                ok = false;
            }
            Some(t) => {
                if let Some(u) = self.resolve_type(ast, t) {
                    if !u.base.is_integer() || u.base == BaseType::Bool || u.base == BaseType::UType
                    {
                        self.error(
                            Code::InvalidEnum,
                            format!("the underlying type of {kind} `{name}` must be an integer type, not `{}`", self.type_name(&u)),
                            t.span(),
                        );
                        ok = false;
                    } else {
                        underlying = DType::scalar(u.base);
                    }
                } else {
                    ok = false;
                }
            }
        }
        if let Some(first) = self.enum_named(&full) {
            let first_span = self.enums[first].span;
            self.error(
                Code::Duplicate,
                format!("`{full}` is defined twice"),
                e.name,
            )
            .with_secondary_owned(first_span, "first defined here");
            return;
        }
        underlying.target = Target::Enum(slot as u32);
        let (attrs, known) = self.attributes(ast, ast.get(e.attrs));
        let bit_flags = known.has(Builtin::BitFlags);
        if bit_flags && !underlying.base.is_unsigned() {
            let span = known
                .get(&attrs, Builtin::BitFlags)
                .map_or(e.name, |a| a.span);
            self.warn(
                Code::Questionable,
                format!("the underlying type of bit_flags enum `{name}` should be unsigned"),
                span,
            );
        }
        if let Some(a) = known.get(&attrs, Builtin::ForceAlign) {
            let span = a.span;
            self.error(
                Code::InvalidAttribute,
                format!("`force_align` is not a valid attribute for {kind}s"),
                span,
            );
        }
        // (`full` is `name` in the current namespace.)
        self.enum_filter.insert_ident(name);
        self.names.entry(full.clone()).enum_slot = Some(slot);
        self.enum_names += 1;
        self.enums.push(EnumSlot {
            name: Cow::Borrowed(name),
            full,
            is_union: e.is_union,
            underlying,
            vals: Vec::new(),
            lost_vals: Vec::new(),
            bit_flags,
            attrs,
            docs: e.docs,
            file: self.file,
            span: e.name,
        });
        let file = self.file.index();
        self.files[file].enums.push(EnumId(slot as u32));
        let base = underlying.base;
        if e.is_union || e.values.is_empty() {
            self.enums[slot].vals.push(DEnumVal {
                name: Cow::Borrowed("NONE"),
                value: 0,
                union_type: None,
                attrs: Attributes::default(),
                docs: (0, 0),
                span: e.open,
            });
        }
        // The values' names, for the duplicate check.
        let mut val_index: DupIndex<Cow<'s, str>> = DupIndex::default();
        for v in ast.get(e.values) {
            // A union member written `A.B.T` is named `A_B_T` (flatc's union value namespacing).
            let vname: Cow<'s, str> = if v.name.rest.is_empty() {
                Cow::Borrowed(self.text(v.name.first))
            } else {
                Cow::Owned(self.qual_text(ast, &v.name).replace('.', "_"))
            };
            let vspan = v.name.span;
            let mut union_type = None;
            if e.is_union {
                match &v.alias_type {
                    Some(t) => {
                        if let Some(ut) = self.resolve_type(ast, t) {
                            if ut.base != BaseType::Obj && ut.base != BaseType::String {
                                self.error(
                                    Code::InvalidEnum,
                                    format!("union member `{vname}` has type `{}`, but union members must be tables, structs or strings", self.type_name(&ut)),
                                    t.span(),
                                );
                                ok = false;
                            } else {
                                union_type = Some(ut);
                            }
                        }
                    }
                    None => {
                        let full_name = self.qual_text(ast, &v.name);
                        let s = self.lookup_struct_use(full_name, vspan, true).unwrap_or(0);
                        if !self.structs[s].predecl {
                            let f = self.structs[s].file;
                            self.note_use(f);
                        }
                        union_type = Some(DType {
                            base: BaseType::Obj,
                            element: BaseType::None,
                            target: Target::Struct(s as u32),
                            fixed_length: 0,
                        });
                    }
                }
            }
            // The value: explicit, or one more than the last one added.
            let (value, explicit) = match v.value {
                Some(span) => {
                    let text = self.text(span);
                    let parsed = if base == BaseType::ULong {
                        parse_u64(text).map(|u| u as i64)
                    } else {
                        parse_i64(text)
                    };
                    match parsed {
                        Ok(x) => (x, true),
                        Err(_) => {
                            self.error(
                                Code::InvalidEnum,
                                format!(
                                    "value `{text}` of `{vname}` does not fit in `{}`",
                                    base.name()
                                ),
                                span,
                            );
                            self.enums[slot].lost_vals.push(vname);
                            ok = false;
                            continue;
                        }
                    }
                }
                None => match self.enums[slot].vals.last() {
                    None => (0, true),
                    Some(last) => (last.value, false),
                },
            };
            let (lo, hi) = int_range(base);
            let as_wide = if base == BaseType::ULong {
                i128::from(value as u64)
            } else {
                i128::from(value)
            };
            let next = if explicit { as_wide } else { as_wide + 1 };
            if next < lo || next > hi {
                let span = v.value.unwrap_or(vspan);
                let d = self.error(
                    Code::InvalidEnum,
                    format!(
                        "value {next} of `{vname}` does not fit in `{}` ({lo}..={hi})",
                        base.name()
                    ),
                    span,
                );
                if !explicit {
                    d.notes
                        .push("a value without `= N` is one more than the previous value".into());
                }
                self.enums[slot].lost_vals.push(vname);
                ok = false;
                continue;
            }
            let value = next as i64;
            let (attrs, _) = self.attributes(ast, ast.get(v.attrs));
            let vals = &self.enums[slot].vals;
            let prev = val_index.find(vals, |x| (&x.name, x.span), &vname);
            if let Some(first) = prev {
                self.error(
                    Code::Duplicate,
                    format!("`{vname}` is defined twice in {kind} `{name}`"),
                    vspan,
                )
                .with_secondary_owned(first, "first defined here");
                ok = false;
                continue;
            }
            val_index.added(&vname, vspan);
            self.enums[slot].vals.push(DEnumVal {
                name: vname,
                value,
                union_type,
                attrs,
                docs: v.docs,
                span: vspan,
            });
        }
        if bit_flags {
            let width = (8 * base.size()) as u64;
            let mut vals = std::mem::take(&mut self.enums[slot].vals);
            for v in &mut vals {
                let u = v.value as u64;
                if !base.is_unsigned() && u == width - 1 {
                    self.error(
                        Code::InvalidEnum,
                        format!("bit flag `{}` uses the sign bit; the underlying type of a bit_flags enum must be unsigned", v.name),
                        v.span,
                    );
                    ok = false;
                } else if u >= width {
                    self.error(
                        Code::InvalidEnum,
                        format!(
                            "bit flag `{}` is bit {}, out of range of `{}` ({} bits)",
                            v.name,
                            v.value,
                            base.name(),
                            width
                        ),
                        v.span,
                    );
                    ok = false;
                } else {
                    v.value = (1u64 << u) as i64;
                }
            }
            self.enums[slot].vals = vals;
        }
        let unsigned64 = base == BaseType::ULong;
        self.enums[slot].vals.sort_by(|a, b| {
            let ka = if unsigned64 {
                i128::from(a.value as u64)
            } else {
                i128::from(a.value)
            };
            let kb = if unsigned64 {
                i128::from(b.value as u64)
            } else {
                i128::from(b.value)
            };
            ka.cmp(&kb).then_with(|| a.name.cmp(&b.name))
        });
        if ok {
            let vals = &self.enums[slot].vals;
            // Runs of equal values (the values are sorted by value, then name): (value, names
            // and spans in declaration order).
            let mut runs: Vec<(i64, Vec<(String, Span)>)> = Vec::new();
            for v in vals {
                match runs.last_mut() {
                    Some((value, names)) if *value == v.value => {
                        names.push((v.name.to_string(), v.span));
                    }
                    _ => runs.push((v.value, vec![(v.name.to_string(), v.span)])),
                }
            }
            for (i, (value, mut names)) in runs.into_iter().enumerate() {
                if names.len() < 2 {
                    continue;
                }
                // A reader shows the value by the name that sorts first.
                let shown = names[0].0.clone();
                let value = if unsigned64 {
                    (value as u64).to_string()
                } else {
                    value.to_string()
                };
                names.sort_by_key(|n| n.1.start);
                if i == 0 {
                    // flatc rejects a repeat of the smallest value (its check compares each value
                    // with the smallest one only).
                    for pair in names.windows(2) {
                        let ((first, first_span), (second, second_span)) = (&pair[0], &pair[1]);
                        self.error(
                            Code::InvalidEnum,
                            format!("`{first}` and `{second}` of {kind} `{name}` have the same value {value}; enum values must be unique"),
                            *second_span,
                        )
                        .with_secondary_owned(*first_span, "also has this value");
                    }
                    continue;
                }
                let list: Vec<String> = names.iter().map(|n| format!("`{}`", n.0)).collect();
                let (last, rest) = list.split_last().expect("two names or more");
                let d = self
                    .warn(
                        Code::Questionable,
                        format!(
                            "{} and {last} of {kind} `{name}` have the same value {value}",
                            rest.join(", ")
                        ),
                        names[1].1,
                    )
                    .with_secondary_owned(names[0].1, "also has this value");
                for n in &names[2..] {
                    d.with_secondary_owned(n.1, "and this one");
                }
                d.notes.push(format!("flatc accepts a repeated value unless it is the smallest one; readers show the value by the name that sorts first, `{shown}`"));
                d.help
                    .push("give each name its own value, unless they are meant as aliases".into());
            }
        }
        let full = std::mem::take(&mut self.enums[slot].full);
        self.add_type(&full, e.name);
        self.enums[slot].full = full;
    }

    /// flatc's `types_`: one definition per fully qualified name, tables, structs, enums and
    /// unions together.
    fn add_type(&mut self, full: &str, span: Span) {
        match self.names.get_mut(full) {
            Some(Names {
                type_span: Some(first),
                ..
            }) => {
                let first = *first;
                self.defined_twice(format!("`{full}` is defined twice"), span, first);
            }
            Some(names) => names.type_span = Some(span),
            None => {
                self.names.entry(Cow::Owned(full.to_string())).type_span = Some(span);
            }
        }
    }

    /// Reports a definition at `span` whose name is already in flatc's `types_`, from `first`.
    #[cold]
    fn defined_twice(&mut self, message: String, span: Span, first: Span) {
        self.error(Code::Duplicate, message, span)
            .with_secondary_owned(first, "first defined here");
    }

    // ----- services -----

    fn service(&mut self, ast: &'s FileAst, s: &ServiceDecl) {
        let name: &'s str = self.text(s.name);
        let full = self.qualify(name);
        if let Some(first) = self.names.get(full.as_ref()).and_then(|n| n.service_span) {
            self.error(
                Code::Duplicate,
                format!("service `{full}` is defined twice"),
                s.name,
            )
            .with_secondary_owned(first, "first defined here");
            return;
        }
        self.names.entry(full.clone()).service_span = Some(s.name);
        let (attrs, _) = self.attributes(ast, ast.get(s.attrs));
        let mut calls: Vec<DCall<'s>> = Vec::new();
        for c in ast.get(s.calls) {
            let cname: &'s str = self.text(c.name);
            let req = self.rpc_type(ast, &c.request);
            let resp = self.rpc_type(ast, &c.response);
            if let Some(prev) = calls.iter().find(|x| x.name == cname) {
                let first = prev.span;
                self.error(
                    Code::Duplicate,
                    format!("rpc method `{cname}` is defined twice in service `{name}`"),
                    c.name,
                )
                .with_secondary_owned(first, "first defined here");
                continue;
            }
            let (attrs, _) = self.attributes(ast, ast.get(c.attrs));
            if let (Some(request), Some(response)) = (req, resp) {
                calls.push(DCall {
                    name: Cow::Borrowed(cname),
                    request,
                    response,
                    attrs,
                    docs: c.docs,
                    span: c.name,
                });
            }
        }
        let slot = self.services.len();
        self.services.push(ServiceSlot {
            name: Cow::Borrowed(name),
            full,
            calls,
            attrs,
            docs: s.docs,
            file: self.file,
            span: s.name,
        });
        let file = self.file.index();
        self.files[file].services.push(ServiceId(slot as u32));
    }

    fn rpc_type(&mut self, ast: &FileAst, q: &QualName) -> Option<usize> {
        let t = self.type_ident(self.qual_text(ast, q), q.span);
        let slot = match t.target {
            Target::Struct(s) if t.base == BaseType::Obj && !self.structs[s as usize].fixed => {
                Some(s as usize)
            }
            _ => None,
        };
        if slot.is_none() {
            let what = if t.base == BaseType::Obj {
                "a struct"
            } else if t.base == BaseType::Union {
                "a union"
            } else {
                "an enum"
            };
            let name = self.qual_text(ast, q);
            self.error(
                Code::InvalidDeclaration,
                format!("rpc request and response types must be tables, but `{name}` is {what}"),
                q.span,
            );
        }
        slot
    }

    fn type_name(&self, t: &DType) -> String {
        let target_name = |t: &DType| match t.target {
            Target::Struct(s) => self.structs[s as usize].name.to_string(),
            Target::Enum(e) => self.enums[e as usize].name.to_string(),
            Target::None => String::new(),
        };
        match t.base {
            BaseType::Vector | BaseType::Vector64 => {
                format!("[{}]", self.type_name(&t.element_type()))
            }
            BaseType::Array => {
                format!("[{}:{}]", self.type_name(&t.element_type()), t.fixed_length)
            }
            BaseType::Obj | BaseType::Union => target_name(t),
            b if t.target != Target::None && b.is_integer() => target_name(t),
            b => b.name().to_string(),
        }
    }

    // ----- the end: unresolved names, then the model -----

    /// The last checks, then the model (unless there were errors); the diagnostics go to
    /// `diagnostics`, where those from `first_new` on are then sorted in source order.
    fn finish(&mut self, diagnostics: &mut Vec<Diagnostic>, first_new: usize) -> Option<Schema> {
        // Errors that depended on a type declared later (flatc's verdict); about one never
        // declared, the unknown type's error says all.
        if !self.on_undeclared.is_empty() {
            for (slot, d) in std::mem::take(&mut *self.on_undeclared) {
                if !self.structs[slot].predecl {
                    self.diags.push(d);
                }
            }
        }
        // Types used but never defined (none, mostly).
        if self.structs.iter().any(|s| s.predecl) {
            self.unknown_types();
        }
        // Unused includes (unless something failed to parse or load: a use may be lost).
        if self.lost.is_none() && self.files.iter().any(|f| !f.include_spans.is_empty()) {
            self.unused_includes();
        }
        let mut failed = self.lost.is_some();
        if !self.diags.is_empty() {
            failed |= self.diags.iter().any(Diagnostic::is_error);
            diagnostics.append(&mut self.diags);
        }
        // Source order: files in load order, then position. (Here, not after the analysis: the
        // schema, the result, is built in place, and left there.)
        if diagnostics.len() > first_new + 1 {
            diagnostics[first_new..]
                .sort_by_key(|d| d.primary.as_ref().map(|p| (p.span.file, p.span.start)));
        }
        if failed {
            return None;
        }
        Some(self.build())
    }

    /// The errors about types used but never defined (the slots still pending).
    #[inline(never)]
    fn unknown_types(&mut self) {
        let pending: Vec<usize> = (0..self.structs.len())
            .filter(|&i| self.structs[i].predecl)
            .collect();
        let candidates = self.struct_candidates(true);
        for slot in pending {
            let s = &self.structs[slot];
            let name = s.name.to_string();
            let refs = s.refs.clone();
            let Some(&first) = refs.first() else {
                continue;
            };
            if self.may_be_lost(&name) {
                continue;
            }
            let simple = name.rsplit('.').next().unwrap_or(&name).to_string();
            let later_enum = self
                .enums
                .iter()
                .any(|e| e.name == simple.as_str() || e.full == name.as_str());
            let d = self.error(Code::UnknownType, format!("unknown type `{name}`"), first);
            if let Some(p) = d.primary.as_mut() {
                p.message = "not defined (check the namespace)".into();
            }
            for r in refs.iter().skip(1).take(3) {
                d.secondary.push(crate::diagnostic::Label {
                    span: *r,
                    message: "also used here".into(),
                });
            }
            if later_enum {
                d.notes.push(format!("`{simple}` is an enum or union; enums and unions must be declared before they are used"));
            } else if let Some(c) = closest(
                &name,
                candidates.iter().map(String::as_str).chain(
                    // `shrot` for `short`.
                    BUILTIN_TYPE_NAMES
                        .iter()
                        .copied()
                        .filter(|_| !name.contains('.')),
                ),
            ) {
                d.help.push(format!("did you mean `{c}`?"));
            } else if let Some(c) = candidates
                .iter()
                .find(|c| c.rsplit('.').next() == Some(simple.as_str()))
            {
                d.help.push(format!("did you mean `{c}`?"));
            }
        }
    }

    /// The warnings about includes from which a file uses nothing.
    #[inline(never)]
    fn unused_includes(&mut self) {
        // (The order of the files does not matter: the caller sorts the diagnostics.)
        for f in 0..self.files.len() {
            let id = FileId(f as u32);
            if self.files[f].include_spans.is_empty() {
                continue;
            }
            let edges = self.files[f].include_spans.clone();
            for (target, span) in edges {
                if target == id {
                    continue;
                }
                if !self.provides_a_use(target, id) {
                    let path = self.inputs[target.index()].path.display().to_string();
                    self.warn(
                        Code::UnusedInclude,
                        format!("nothing from `{path}` is used in this file"),
                        span,
                    )
                    .help
                    .push("remove this include, unless the file is included only so its definitions are compiled along".into());
                }
            }
        }
    }

    /// Whether `start`, or a file it includes directly or not (but not through `from`), holds
    /// something `from` uses. A breadth-first search that stops at the first such file (usually
    /// `start` itself), with marks rather than a search of a list: over a chain of thousands of
    /// includes, full closures searched as lists took time cubic in the length.
    fn provides_a_use(&self, start: FileId, from: FileId) -> bool {
        let uses = &self.files[from.index()].uses;
        if uses.contains(&start) {
            return true;
        }
        if uses.is_empty() {
            return false;
        }
        let mut marked = vec![false; self.files.len()];
        marked[start.index()] = true;
        let mut queue = std::collections::VecDeque::from([start]);
        while let Some(file) = queue.pop_front() {
            if uses.contains(&file) {
                return true;
            }
            for &next in &self.files[file.index()].includes {
                if next != from && !std::mem::replace(&mut marked[next.index()], true) {
                    queue.push_back(next);
                }
            }
        }
        false
    }

    /// The model: definitions sorted by fully qualified name, slots turned into indices. The
    /// slots are emptied: their names, fields and attributes move into the model.
    #[inline(always)]
    fn build(&mut self) -> Schema {
        let struct_order = NameOrder::new(&self.structs, |s| &s.full);
        let enum_order = NameOrder::new(&self.enums, |e| &e.full);
        let service_order = NameOrder::new(&self.services, |s| &s.full);
        // Type references need new indices only when some definitions were not in name order.
        let renumbered = !(struct_order.is_identity() && enum_order.is_identity());
        let files = &self.files;
        let declared = &self.declared_attrs;

        let docs = |file: FileId, d: Docs| -> Vec<String> {
            if d.0 == d.1 {
                return Vec::new();
            }
            match files[file.index()].ast {
                Some(ast) => docs_text(files[file.index()].text, &ast.docs, d),
                None => Vec::new(),
            }
        };
        let renumber = |t: &mut Type| {
            t.index = match t.index {
                Some(TypeRef::Object(id)) => {
                    Some(TypeRef::Object(ObjectId(struct_order.index(id.0 as usize))))
                }
                Some(TypeRef::Enum(id)) => {
                    Some(TypeRef::Enum(EnumId(enum_order.index(id.0 as usize))))
                }
                None => None,
            }
        };
        let conv_type = |t: &DType| {
            let mut out = model_type(t);
            renumber(&mut out);
            out
        };
        let conv_attrs = |mut attrs: Attributes| {
            settle_builtin(&mut attrs, declared);
            attrs
        };

        let mut objects = Vec::with_capacity(self.structs.len());
        for old in struct_order.iter() {
            let s = &mut self.structs[old];
            let mut fields = std::mem::take(&mut *s.fields);
            if renumbered {
                for f in &mut fields {
                    renumber(&mut f.ty);
                    if let Some(n) = &mut f.nested_flatbuffer {
                        n.0 = struct_order.index(n.0 as usize);
                    }
                }
            }
            for f in &mut fields {
                settle_builtin(&mut f.attributes, declared);
            }
            let (namespace, name, full_name) =
                model_names(std::mem::take(&mut *s.name), std::mem::take(&mut *s.full));
            let by_name = NameIndex::sorted(fields.len(), |i| &fields[i].name);
            // (No field is the key unless one was declared so.)
            let key_field = if s.has_key {
                fields.iter().position(|f| f.key).map(|k| k as u16)
            } else {
                None
            };
            let attributes = conv_attrs(std::mem::take(&mut *s.attrs));
            let docs = docs(s.file, s.docs);
            push_built(&mut objects, || Object {
                namespace,
                name,
                full_name,
                is_struct: s.fixed,
                fields,
                by_name,
                minalign: s.minalign,
                bytesize: s.bytesize,
                key_field,
                attributes,
                docs,
                file: s.file,
                span: s.span,
            });
        }
        // Enums and unions, then services: out of line (and only where there are any), which
        // keeps the code of the objects and the schema, built for every schema, small.
        let out_enums = if self.enums.is_empty() {
            Vec::new()
        } else {
            out_of_line(|| {
                let mut out_enums = Vec::with_capacity(self.enums.len());
                for old in enum_order.iter() {
                    let e = &mut self.enums[old];
                    let values: Vec<EnumVal> = std::mem::take(&mut e.vals)
                        .into_iter()
                        .map(|v| EnumVal {
                            name: Name::from(v.name),
                            value: v.value,
                            union_type: v.union_type.as_ref().map(conv_type),
                            attributes: conv_attrs(v.attrs),
                            docs: docs(e.file, v.docs),
                            span: v.span,
                        })
                        .collect();
                    let by_name = NameIndex::sorted(values.len(), |i| &values[i].name);
                    let (namespace, name, full_name) =
                        model_names(std::mem::take(&mut e.name), std::mem::take(&mut e.full));
                    out_enums.push(Enum {
                        namespace,
                        name,
                        full_name,
                        is_union: e.is_union,
                        underlying_type: conv_type(&e.underlying),
                        values,
                        by_name,
                        bit_flags: e.bit_flags,
                        attributes: conv_attrs(std::mem::take(&mut e.attrs)),
                        docs: docs(e.file, e.docs),
                        file: e.file,
                        span: e.span,
                    });
                }
                out_enums
            })
        };
        let out_services = if self.services.is_empty() {
            Vec::new()
        } else {
            out_of_line(|| {
                let mut out_services = Vec::with_capacity(self.services.len());
                for old in service_order.iter() {
                    let s = &mut self.services[old];
                    let (namespace, name, full_name) =
                        model_names(std::mem::take(&mut s.name), std::mem::take(&mut s.full));
                    out_services.push(Service {
                        namespace,
                        name,
                        full_name,
                        calls: std::mem::take(&mut s.calls)
                            .into_iter()
                            .map(|c| RpcCall {
                                name: Name::from(c.name),
                                request: ObjectId(struct_order.index(c.request)),
                                response: ObjectId(struct_order.index(c.response)),
                                attributes: conv_attrs(c.attrs),
                                docs: docs(s.file, c.docs),
                                span: c.span,
                            })
                            .collect(),
                        attributes: conv_attrs(std::mem::take(&mut s.attrs)),
                        docs: docs(s.file, s.docs),
                        file: s.file,
                        span: s.span,
                    });
                }
                out_services
            })
        };
        let inputs = self.inputs;
        let schema_file = |(f, input): (&mut FileState, &Loaded)| {
            let extras = f.extras.take().map(|e| *e).unwrap_or_default();
            let mut objects = std::mem::take(&mut f.structs);
            if !struct_order.is_identity() {
                for id in &mut objects {
                    id.0 = struct_order.index(id.0 as usize);
                }
            }
            let mut enums = std::mem::take(&mut f.enums);
            if !enum_order.is_identity() {
                for id in &mut enums {
                    id.0 = enum_order.index(id.0 as usize);
                }
            }
            let mut services = std::mem::take(&mut f.services);
            if !service_order.is_identity() {
                for id in &mut services {
                    id.0 = service_order.index(id.0 as usize);
                }
            }
            SchemaFile {
                path: input.path.clone(),
                includes: std::mem::take(&mut f.includes),
                native_includes: extras.native_includes,
                objects,
                enums,
                services,
                root_table: f.root.map(|r| ObjectId(struct_order.index(r))),
                file_identifier: extras.file_identifier,
                file_extension: extras.file_extension,
            }
        };
        // A single file (the common case) is built in place in its list: `vec!` allocates first,
        // where a `push` built it aside and copied it in (232 bytes).
        let schema_files = match &mut self.files {
            OneOrMany::One(f) => vec![schema_file((f, &inputs[0]))],
            OneOrMany::Many(all) => all.iter_mut().zip(inputs).map(schema_file).collect(),
        };
        let root = &schema_files[0];
        Schema {
            root_table: root.root_table,
            file_identifier: root.file_identifier.clone(),
            file_extension: root.file_extension.clone(),
            objects,
            enums: out_enums,
            services: out_services,
            files: schema_files,
            declared_attributes: std::mem::take(&mut self.declared_order),
            advanced_features: self.advanced,
        }
    }
}

/// `f()`, in a function of its own: for work that is rare, or rarely in the hot path of its
/// caller, so that it leaves the caller's code small.
#[inline(never)]
fn out_of_line<T>(f: impl FnOnce() -> T) -> T {
    f()
}

/// Definitions in the order of their fully qualified names (byte-wise, as flatc sorts them).
enum NameOrder {
    /// The slots are in name order already (always so for a single definition).
    Identity(usize),
    /// `order[new] = old`, `index[old] = new`.
    Sorted { order: Vec<u32>, index: Vec<u32> },
}

impl NameOrder {
    fn new<T>(slots: &[T], full: impl Fn(&T) -> &str) -> NameOrder {
        if slots
            .windows(2)
            .all(|w| cmp_names(full(&w[0]), full(&w[1])).is_le())
        {
            return NameOrder::Identity(slots.len());
        }
        let mut order: Vec<u32> = (0..slots.len() as u32).collect();
        // Stable, so equal names (which only a failed compilation has) keep their order.
        order.sort_by(|&a, &b| cmp_names(full(&slots[a as usize]), full(&slots[b as usize])));
        let mut index = vec![0u32; slots.len()];
        for (new, &old) in order.iter().enumerate() {
            index[old as usize] = new as u32;
        }
        NameOrder::Sorted { order, index }
    }

    /// Whether the slots are in name order already.
    fn is_identity(&self) -> bool {
        matches!(self, NameOrder::Identity(_))
    }

    /// The final index of slot `old`.
    fn index(&self, old: usize) -> u32 {
        match self {
            NameOrder::Identity(_) => old as u32,
            NameOrder::Sorted { index, .. } => index[old],
        }
    }

    /// The slots in name order.
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        let (len, order) = match self {
            NameOrder::Identity(len) => (*len, None),
            NameOrder::Sorted { order, .. } => (order.len(), Some(order)),
        };
        (0..len).map(move |new| order.map_or(new, |o| o[new] as usize))
    }
}

/// A filter over the last components of names (after the last `.`): a name whose last
/// component was never inserted is certainly not among the names inserted (the converse does
/// not hold). flatc's lookups try a name in several namespaces; this skips them when they cannot
/// succeed, as for most field names and scalar types.
#[derive(Default)]
struct NameFilter([u64; 4]);

impl NameFilter {
    fn bit(name: &str) -> usize {
        let bytes = name.as_bytes();
        let last = match bytes.iter().rposition(|&b| b == b'.') {
            Some(dot) => &bytes[dot + 1..],
            None => bytes,
        };
        Self::component_bit(last)
    }

    /// The bit of a last component.
    fn component_bit(last: &[u8]) -> usize {
        let first = usize::from(last.first().copied().unwrap_or(0));
        let end = usize::from(last.last().copied().unwrap_or(0));
        (last.len().wrapping_mul(37) ^ first.wrapping_mul(7) ^ end) & 255
    }

    fn insert(&mut self, name: &str) {
        self.set_bit(Self::bit(name));
    }

    /// [`NameFilter::insert`] for an identifier (a name without dots).
    fn insert_ident(&mut self, ident: &str) {
        self.set_bit(Self::component_bit(ident.as_bytes()));
    }

    fn set_bit(&mut self, bit: usize) {
        self.0[bit / 64] |= 1 << (bit % 64);
    }

    fn may_contain(&self, name: &str) -> bool {
        self.has_bit(Self::bit(name))
    }

    /// [`NameFilter::may_contain`] for an identifier (a name without dots), without looking for
    /// them.
    fn may_contain_ident(&self, ident: &str) -> bool {
        self.has_bit(Self::component_bit(ident.as_bytes()))
    }

    fn has_bit(&self, bit: usize) -> bool {
        self.0[bit / 64] & (1 << (bit % 64)) != 0
    }
}

#[derive(Clone, Copy)]
enum DictKind {
    Structs,
    Enums,
}

trait WithSecondary {
    fn with_secondary_owned(&mut self, span: Span, message: &str) -> &mut Self;
}

impl WithSecondary for Diagnostic {
    fn with_secondary_owned(&mut self, span: Span, message: &str) -> &mut Self {
        self.secondary.push(crate::diagnostic::Label {
            span,
            message: message.to_string(),
        });
        self
    }
}

/// A type as the model has it, with slots for references (see [`StructSlot::fields`]).
fn model_type(t: &DType) -> Type {
    Type {
        base_type: t.base,
        element: t.element,
        index: match t.target {
            Target::None => None,
            Target::Struct(s) => Some(TypeRef::Object(ObjectId(s))),
            Target::Enum(e) => Some(TypeRef::Enum(EnumId(e))),
        },
        fixed_length: t.fixed_length,
    }
}

/// A value of the same type as `like` (flatc copies the type of the attribute it derives one
/// from): a string as it is, an integer from `text` (0 when `text` is not one).
fn value_like(like: &Option<AttrValue>, text: String) -> Option<AttrValue> {
    match like {
        None => None,
        Some(AttrValue::Int(_)) => Some(AttrValue::Int(parse_i64(&text).unwrap_or(0))),
        Some(AttrValue::String(_)) => Some(AttrValue::String(text)),
    }
}

/// The value of an attribute as an integer of type `base` (flatc's `StringToNumber` of its
/// text).
fn attr_int(a: &Attribute, base: BaseType) -> Result<i128, IntError> {
    match &a.value {
        Some(AttrValue::Int(v)) => {
            let (lo, hi) = int_range(base);
            let v = i128::from(*v);
            if v < lo || v > hi {
                Err(IntError::OutOfRange)
            } else {
                Ok(v)
            }
        }
        Some(AttrValue::String(s)) => parse_int_for(s, base),
        None => Ok(0),
    }
}

/// Where the value of attribute `a` (one of `list`'s) is written, or its name when it has none.
fn value_span(list: &[AttrAst], a: &Attribute) -> Span {
    list.iter()
        .find(|x| x.name == a.span)
        .and_then(|x| x.value.as_ref())
        .map_or(a.span, ValueAst::span)
}

/// flatc's text of an attribute value (`Value::constant`): "0" when it has none.
fn attr_text(a: &Attribute) -> Cow<'_, str> {
    match &a.value {
        None => Cow::Borrowed("0"),
        Some(AttrValue::Int(v)) => Cow::Owned(v.to_string()),
        Some(AttrValue::String(s)) => Cow::Borrowed(s),
    }
}

/// Marks the built-in attributes that no `attribute` declaration redeclares.
fn settle_builtin(attrs: &mut Attributes, declared: &FxHashMap<Cow<'_, str>, FileId>) {
    for a in &mut attrs.list {
        a.builtin =
            Builtin::from_name(&a.name).is_some() && !declared.contains_key(a.name.as_str());
    }
}

/// How many fields a table or struct (or values an enum) has before their names are indexed
/// for the duplicate check ([`DupIndex`]).
const INDEXED_FIELDS: usize = 256;

/// The names of a growing list of named items (fields, enum values) with the span of the first
/// of each, for the duplicate check. Below [`INDEXED_FIELDS`] items a scan of the list is faster;
/// from there on the names are kept in a map, built at the first lookup, so that a duplicate is
/// one lookup away (a scan made a table of many fields take quadratic time).
#[derive(Debug)]
struct DupIndex<K> {
    map: FxHashMap<K, Span>,
}

impl<K> Default for DupIndex<K> {
    fn default() -> Self {
        DupIndex {
            map: FxHashMap::default(),
        }
    }
}

impl<K: std::borrow::Borrow<str> + std::hash::Hash + Eq + Clone> DupIndex<K> {
    /// The span of the item of `items` named `name`, if any; `key` gives an item's name and span.
    #[inline]
    fn find<T>(&mut self, items: &[T], key: impl Fn(&T) -> (&K, Span), name: &str) -> Option<Span> {
        if items.len() < INDEXED_FIELDS {
            return items
                .iter()
                .map(&key)
                .find(|(k, _)| (*k).borrow() == name)
                .map(|(_, span)| span);
        }
        if self.map.is_empty() {
            self.map = items
                .iter()
                .map(|item| {
                    let (k, span) = key(item);
                    (k.clone(), span)
                })
                .collect();
        }
        self.map.get(name).copied()
    }

    /// Records an item just appended to the list, once the names are kept in the map.
    #[inline]
    fn added(&mut self, name: &K, span: Span) {
        if !self.map.is_empty() {
            self.map.insert(name.clone(), span);
        }
    }
}

/// `list.push(make())`, with the item built where it is stored when the list has room for it
/// and `make` calls nothing that may panic (it puts together values at hand). An item built
/// before `push` is built on the stack and copied to the list: `push` may grow the list, and a
/// panic there drops the item, which must be whole in memory until then (for a [`Field`], 152
/// bytes, the copy is a call to `memcpy`).
#[inline(always)]
fn push_built<T>(list: &mut Vec<T>, make: impl FnOnce() -> T) {
    if list.len() < list.capacity() {
        list.push(make());
    } else {
        let item = make();
        list.push(item);
    }
}

/// The offset of the table field with id `id`: that of its vtable entry (16 bits; an id beyond
/// [`MAX_TABLE_FIELDS`], an error, gets the largest).
#[inline(always)]
fn vtable_offset(id: usize) -> u16 {
    (4 + 2 * id).min(usize::from(u16::MAX)) as u16
}

/// A bit (of 64) for a field named `name`, from its length and its first and last bytes (see
/// [`StructSlot::field_bits`]).
fn field_bit(name: &str) -> u64 {
    let b = name.as_bytes();
    let (first, last) = (b.first().copied(), b.last().copied());
    let mix = b.len() * 7 + usize::from(first.unwrap_or(0)) * 3 + usize::from(last.unwrap_or(0));
    1 << (mix % 64)
}

/// flatc's `CheckClash` rules: a field named with the suffix clashes with code generated for a
/// field of the type named without it.
const CLASH_RULES: [(&str, BaseType); 6] = [
    ("_type", BaseType::Union),
    ("Type", BaseType::Union),
    ("_length", BaseType::Vector),
    ("Length", BaseType::Vector),
    ("_byte_vector", BaseType::String),
    ("ByteVector", BaseType::String),
];

/// The rule of [`CLASH_RULES`] whose suffix `name` ends with (and is longer than), if any. No
/// suffix ends another, so a name has at most one; all end with `ype`, `gth` or `tor`, and the
/// last three bytes tell which two rules to try, so most names need no more than a look at them.
#[inline(always)]
fn clash_rule(name: &str) -> Option<usize> {
    let rules = match name.as_bytes() {
        [.., b'y', b'p', b'e'] => 0..2,
        [.., b'g', b't', b'h'] => 2..4,
        [.., b't', b'o', b'r'] => 4..6,
        _ => return None,
    };
    clash_rule_of(name, rules)
}

/// [`clash_rule`] past the look at the last bytes: the one of `rules` that `name` ends with.
#[inline(never)]
fn clash_rule_of(name: &str, rules: std::ops::Range<usize>) -> Option<usize> {
    rules.into_iter().find(|&r| {
        let suffix = CLASH_RULES[r].0;
        name.len() > suffix.len() && name.ends_with(suffix)
    })
}

/// The most fields (ids 0 to 32765) a table can have: field `id`'s vtable entry is at byte
/// 4 + 2 × id, and flatc keeps that below 65535.
const MAX_TABLE_FIELDS: usize = 32766;

/// flatc's `PadLastField`: pads the struct to `align` and records the padding on its last field.
fn pad_last_field(s: &mut StructSlot<'_>, align: u32) {
    let padding = (!s.bytesize).wrapping_add(1) & align.wrapping_sub(1);
    s.bytesize = s.bytesize.saturating_add(padding);
    if let Some(last) = s.fields.last_mut() {
        last.padding = padding as u16;
    }
}

/// The built-in type named `name` (`int`, `float64`, `string`...).
fn builtin_type(name: &[u8]) -> Option<BaseType> {
    // The names are 3 to 7 bytes long: packed as one word each, the bytes in order from the low
    // end and the length in the high byte, and compared with the one name in the word's slot of
    // `BUILTIN_TYPE_SLOTS`. (One arm per length: constant-length copies are
    // moves, where `word[..name.len()]` would call `memcpy`; 28 instructions a compile of the
    // small schema.)
    let mut word = [0u8; 8];
    match name.len() {
        3 => word[..3].copy_from_slice(name),
        4 => word[..4].copy_from_slice(name),
        5 => word[..5].copy_from_slice(name),
        6 => word[..6].copy_from_slice(name),
        7 => word[..7].copy_from_slice(name),
        _ => return None,
    }
    word[7] = name.len() as u8;
    builtin_type_of_word(u64::from_le_bytes(word))
}

/// [`builtin_type`] of the bytes `range` of `bytes`: read as one word with the 8 bytes from the
/// start of the range on, where there are that many (the bytes past the name masked off), not
/// by the name's length.
#[inline(always)]
fn builtin_type_at(bytes: &[u8], range: std::ops::Range<usize>) -> Option<BaseType> {
    let len = range.end.wrapping_sub(range.start);
    if !(3..=7).contains(&len) {
        return None;
    }
    // (One compare of the word's end with the length of the bytes.)
    match bytes.get(range.start..range.start.saturating_add(8)) {
        Some(eight) => {
            let eight: [u8; 8] = eight.try_into().unwrap_or_default();
            let name = u64::from_le_bytes(eight) & (u64::MAX >> (64 - 8 * len));
            builtin_type_of_word(name | (len as u64) << 56)
        }
        None => bytes.get(range).and_then(builtin_type),
    }
}

/// The built-in type of the name packed as `word` (see [`builtin_type`]).
#[inline(always)]
fn builtin_type_of_word(word: u64) -> Option<BaseType> {
    // (An empty slot's word, 0, is no name's.)
    let (slot_word, t) = BUILTIN_TYPE_SLOTS[type_slot(word)];
    (slot_word == word).then_some(t)
}

/// How many slots [`BUILTIN_TYPE_SLOTS`] has.
const TYPE_SLOTS: usize = 32;

/// The slot of [`BUILTIN_TYPE_SLOTS`] for the name `word` (as [`name_word`] packs it): the top
/// bits of the word times a constant chosen so that no two built-in type names share a slot
/// (which [`type_slots`] checks when the crate is compiled).
const fn type_slot(word: u64) -> usize {
    (word.wrapping_mul(0xe169_14e5_d601_b05f) >> (64 - TYPE_SLOTS.trailing_zeros())) as usize
}

/// The slots of the built-in `types`: each name's word and type in the name's [`type_slot`], the
/// others empty (word 0, which no name of 3 to 7 bytes has). Panics (a compilation error, in a
/// constant) when two names share a slot.
const fn type_slots(types: &[(&str, BaseType)]) -> [(u64, BaseType); TYPE_SLOTS] {
    let mut slots = [(0, BaseType::None); TYPE_SLOTS];
    let mut i = 0;
    while i < types.len() {
        let (name, t) = types[i];
        let word = name_word(name);
        let slot = type_slot(word);
        assert!(slots[slot].0 == 0, "two built-in type names share a slot");
        slots[slot] = (word, t);
        i += 1;
    }
    slots
}

/// Declares [`BUILTIN_TYPE_NAMES`] and [`BUILTIN_TYPE_SLOTS`] from one list of names.
macro_rules! builtin_types {
    ($($name:literal => $t:ident,)*) => {
        /// Every built-in type name (aliases included), for suggestions.
        const BUILTIN_TYPE_NAMES: &[&str] = &[$($name),*];

        /// The built-in types by the slots of their names (see [`type_slot`]).
        const BUILTIN_TYPE_SLOTS: [(u64, BaseType); TYPE_SLOTS] =
            type_slots(&[$(($name, BaseType::$t)),*]);
    };
}

builtin_types! {
    "bool" => Bool,
    "byte" => Byte,
    "int8" => Byte,
    "ubyte" => UByte,
    "uint8" => UByte,
    "short" => Short,
    "int16" => Short,
    "ushort" => UShort,
    "uint16" => UShort,
    "int" => Int,
    "int32" => Int,
    "uint" => UInt,
    "uint32" => UInt,
    "long" => Long,
    "int64" => Long,
    "ulong" => ULong,
    "uint64" => ULong,
    "float" => Float,
    "float32" => Float,
    "double" => Double,
    "float64" => Double,
    "string" => String,
}

/// The word [`builtin_type`] compares a name of 3 to 7 bytes as.
const fn name_word(name: &str) -> u64 {
    let b = name.as_bytes();
    let mut word = 0;
    let mut i = b.len();
    while i > 0 {
        i -= 1;
        word = word << 8 | b[i] as u64;
    }
    word | (b.len() as u64) << 56
}

/// How a field type is named in messages about defaults (formatted only when one is reported).
fn type_display(t: &DType) -> impl std::fmt::Display {
    struct Shown(BaseType, BaseType);
    impl std::fmt::Display for Shown {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            match self.0 {
                BaseType::Vector | BaseType::Vector64 => write!(f, "[{}]", self.1.name()),
                BaseType::Obj => f.write_str("table or struct"),
                BaseType::Union => f.write_str("union"),
                b => f.write_str(b.name()),
            }
        }
    }
    Shown(t.base, t.element)
}

/// flatc's `NumToString(double)`: up to 12 significant fractional digits, trailing zeros removed.
fn float_to_string(v: f64) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let mut s = format!("{v:.12}");
    if s.contains('.') {
        while s.ends_with('0') {
            s.pop();
        }
        if s.ends_with('.') {
            s.pop();
        }
    }
    if s == "-0" {
        s = "0".into();
    }
    s
}

/// The typed default of a field from flatc's constant. (Its common cases inline, the others
/// in [`any_default_value`].)
#[inline(always)]
fn default_value(ty: &DType, c: Constant<'_>) -> DefaultValue {
    // The common cases first: an integer, or the implicit 0 of a field without default, of any
    // type but a float (whose value is read from the constant's text).
    let v = match c {
        Constant::Zero => 0,
        Constant::Int(v) if !ty.base.is_float() => v,
        _ => return any_default_value(ty, c),
    };
    int_default_value(ty.base, v)
}

/// [`default_value`] of the constant `v`, an integer (the implicit 0, or any integer but for a
/// float), for a field of type `base`.
#[inline(always)]
fn int_default_value(base: BaseType, v: i128) -> DefaultValue {
    match base {
        BaseType::Float | BaseType::Double => DefaultValue::Float(0.0),
        BaseType::Bool => DefaultValue::Bool(v != 0),
        BaseType::UType | BaseType::UByte | BaseType::UShort | BaseType::UInt | BaseType::ULong => {
            DefaultValue::UInt(v as u64)
        }
        BaseType::Byte | BaseType::Short | BaseType::Int | BaseType::Long => {
            DefaultValue::Int(v as i64)
        }
        _ => DefaultValue::None,
    }
}

/// [`default_value`] of any constant.
#[inline(never)]
fn any_default_value(ty: &DType, c: Constant<'_>) -> DefaultValue {
    if ty.base.is_scalar() {
        if matches!(c, Constant::Null) {
            return DefaultValue::Null;
        }
        if ty.base.is_float() {
            let value = match c {
                Constant::Zero => 0.0,
                _ => parse_f64(&c.text()).unwrap_or(0.0),
            };
            return DefaultValue::Float(value);
        }
        let v: i128 = match c {
            Constant::Int(v) => v,
            Constant::Zero => 0,
            _ => parse_int_for(&c.text(), ty.base).unwrap_or(0),
        };
        if ty.base == BaseType::Bool {
            return DefaultValue::Bool(v != 0);
        }
        if ty.base.is_unsigned() {
            return DefaultValue::UInt(v as u64);
        }
        return DefaultValue::Int(v as i64);
    }
    match (ty.base, c) {
        (BaseType::String, Constant::Text(t)) if t != "0" => DefaultValue::String(t.into_owned()),
        (BaseType::Vector | BaseType::Vector64, Constant::EmptyVector) => DefaultValue::EmptyVector,
        _ => DefaultValue::None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        /// Whether fields may take [`Analyzer::quick_field`] (see [`quick_fields`]).
        pub(super) static QUICK_FIELDS: Cell<bool> = const { Cell::new(true) };
    }

    /// The quick path for fields ([`Analyzer::quick_field`]) against [`Analyzer::field`]: the same
    /// schema and the same diagnostics for what it takes, what is next to it that it must leave
    /// alone, every shared schema and random schemas.
    #[test]
    fn quick_fields_analyze_as_the_general_path_does() {
        let both_ways = |compile: &dyn Fn() -> String| {
            let quick = compile();
            QUICK_FIELDS.set(false);
            let general = compile();
            QUICK_FIELDS.set(true);
            assert_eq!(quick, general);
        };
        let texts = [
            "table T { a:int; b:short = 100; c:string; d:bool = 1; e:ubyte = 255; f:int8 = -8; }",
            "table T { g:long = -9223372036854775808; h:ulong = 18446744073709551615; i:uint64; }",
            "table T { a:byte = 128; b:ubyte = -1; c:bool = 2; d:int = 99999999999; e:short = 1.5; }",
            "table T { a:int = 0x10; b:int = 0X7fffffff; c:uint = 0xffffffff1; d:int = 007; }",
            "table T { a:ulong = 0000000000000000001; b:long = 9223372036854775807; c:int = 1e2; }",
            "table T { a:ubyte = 256; b:ushort = 65535; c:uint = 4294967296; d:byte = 127; }",
            "table T { a:uint = 999999999; b:uint = 1000000000; c:int = 0000000001; d:int = 00; }",
            "table T { a:float = 1; b:double = 2; c:float32 = nan; d:string = 5; e:string = \"x\"; }",
            "table T { a:int = null; b:int = A; c:int = -A; d:int = x(1); e:[int] = []; f:int = +1; }",
            "table T { a:int; b:int; a:string; c:int; c:int = 1; }",
            "table a {} table T { a:int; T:int; b:a; }",
            "table T { x:int; } table U { T:int; t:T; x:int; }",
            "struct S { a:int; b:byte = 0; c:short = 1; } table T { s:S; x:int; y:short = 2; }",
            "table T { a:[int]; a_length:int; b:string; b_byte_vector:int; uType:int; u_type:int; }",
            "union U { T } table T { u:U; u_type:int; v:int; }",
            "namespace A.B; table T { a:int; } table U { t:A.B.T; x:int = 1; }",
            "table T { /// doc\n a:int; /// more\n b:int = 1; c:string (required); d:int (id: 3); }",
            "table T { a:int (deprecated); b:int; } table U { a:int (id: 1); b:int (id: 0); }",
            "enum E : byte { A } table T { e:E; f:int = 1; g:E = A; h:ubyte = 1; }",
            "table T { a:int; b:Undeclared; c:int = 5; } table V { a:int; }",
            "table T { a:int; b:int; c:int; } root_type T; table U { d:long = 3; }",
        ];
        for text in texts {
            both_ways(&|| format!("{:?}", crate::compile_str("a.fbs", text)));
        }
        let many: String = (0..300)
            .map(|i| format!("f{i}: int; g{i}: short = {i}; "))
            .collect();
        for extra in ["", "f7: int;", "g299: string;", "h: int;"] {
            let text = format!("table T {{ {many}{extra} }}");
            both_ways(&|| format!("{:?}", crate::compile_str("a.fbs", &text)));
        }
        // One field more than a table may have.
        let most: String = (0..=MAX_TABLE_FIELDS)
            .map(|i| format!("f{i}:int;"))
            .collect();
        let text = format!("table T {{ {most} }}");
        both_ways(&|| format!("{:?}", crate::compile_str("a.fbs", &text)));
        let testdata = flatforge_testkit::testdata_dir();
        for path in flatforge_testkit::shared_schema_files(&testdata) {
            let compiler = crate::Compiler::new(crate::FsLoader).include_dir(&testdata);
            both_ways(&|| format!("{:?}", compiler.compile(&path)));
        }
        for seed in 0..300 {
            let files = flatforge_testkit::random_schema::schema_files(seed, "r");
            let mut loader = crate::MemoryLoader::new();
            for (name, text) in &files {
                loader.insert(name, text.as_str());
            }
            let compiler = crate::Compiler::new(loader)
                .include_dir(flatforge_testkit::random_schema::library_dir("r"));
            both_ways(&|| format!("{:?}", compiler.compile(&files[0].0)));
        }
    }

    /// The common cases that [`default_value`] takes itself against [`any_default_value`], which
    /// takes every constant: each type with the implicit 0 and with integers.
    #[test]
    fn default_values_are_those_of_any_constant() {
        let ints: [i128; 7] = [0, 1, -1, 255, 256, i64::MIN.into(), u64::MAX.into()];
        for base in crate::number::ALL_BASE_TYPES {
            let ty = DType::scalar(base);
            let constants = ints.iter().map(|&v| Constant::Int(v));
            for c in std::iter::once(Constant::Zero).chain(constants) {
                let expected = any_default_value(&ty, c.clone());
                assert_eq!(default_value(&ty, c.clone()), expected, "{base:?} {c:?}");
            }
        }
    }

    #[test]
    fn a_thread_keeps_the_slot_list_of_its_last_analysis() {
        SPARE_STRUCTS.take();
        crate::compile_str("a.fbs", "table A {} table B { a: A; } struct C { x: int; }").unwrap();
        let spare = SPARE_STRUCTS.take();
        assert!(spare.is_empty());
        assert!(spare.capacity() >= 3, "{}", spare.capacity());
        SPARE_STRUCTS.set(spare);
        // The next analysis starts from the spare list, empty, and keeps it again after errors.
        let schema = crate::compile_str("b.fbs", "table D { e: int; }").unwrap();
        assert_eq!(schema.objects.len(), 1);
        assert_eq!(schema.objects[0].name, "D");
        crate::compile_str("c.fbs", "table E { f: F; }").unwrap_err();
        assert!(SPARE_STRUCTS.take().capacity() >= 3);
    }

    #[test]
    fn the_key_field_is_the_one_declared_key() {
        let schema = crate::compile_str(
            "a.fbs",
            "table A { x:int; y:string (key); } table B { x:int; } struct C { a:int (key); b:int; } \
             table D { a:int; b:int; c:long (key); }",
        )
        .unwrap();
        let keys: Vec<_> = schema.objects.iter().map(|o| o.key_field).collect();
        assert_eq!(keys, [Some(1), None, Some(0), Some(2)]);
    }

    #[test]
    fn definitions_are_named_in_and_out_of_namespaces() {
        let schema = crate::compile_str(
            "a.fbs",
            "table A {} enum E : byte { X } rpc_service S { G(A): A; } \
             namespace N.O; table B {} enum F : byte { Y } rpc_service T { G(B): B; }",
        )
        .unwrap();
        let names = |namespace: &Name, name: &Name, full_name: &Name| {
            format!("{namespace}|{name}|{full_name}")
        };
        let objects: Vec<_> = schema
            .objects
            .iter()
            .map(|o| names(&o.namespace, &o.name, &o.full_name))
            .collect();
        assert_eq!(objects, ["|A|A", "N.O|B|N.O.B"]);
        let enums: Vec<_> = schema
            .enums
            .iter()
            .map(|e| names(&e.namespace, &e.name, &e.full_name))
            .collect();
        assert_eq!(enums, ["|E|E", "N.O|F|N.O.F"]);
        let services: Vec<_> = schema
            .services
            .iter()
            .map(|s| names(&s.namespace, &s.name, &s.full_name))
            .collect();
        assert_eq!(services, ["N.O|T|N.O.T", "|S|S"]);
    }

    #[test]
    fn builtin_attributes_are_named_and_numbered() {
        assert_eq!(Builtin::ALL.len(), 27);
        for (i, &b) in Builtin::ALL.iter().enumerate() {
            assert_eq!(Builtin::from_name(b.name()), Some(b), "{b:?}");
            assert_eq!(b as usize, i, "{b:?}");
        }
        for name in ["", "ID", "idx", "priority", "native", "cpp", "hash_"] {
            assert_eq!(Builtin::from_name(name), None, "{name}");
        }
    }

    #[test]
    fn clash_suffixes_are_recognized_in_longer_names_only() {
        for (r, (suffix, _)) in CLASH_RULES.iter().enumerate() {
            assert_eq!(clash_rule(&format!("a{suffix}")), Some(r), "{suffix}");
            assert_eq!(clash_rule(suffix), None, "{suffix}");
            assert_eq!(clash_rule(&format!("a{suffix}s")), None, "{suffix}");
        }
        for name in [
            "", "e", "name", "type", "length", "vector", "hp", "mana", "ype", "hype", "month",
            "actor", "a_tyPe",
        ] {
            assert_eq!(clash_rule(name), None, "{name}");
        }
    }

    #[test]
    fn generated_accessor_clashes_are_found_for_each_suffix() {
        let src = "table T {} union U { T } table X { \
            a: U; a_type: int; aType: int; v: [int]; v_length: int; vLength: int; \
            s: string; s_byte_vector: int; sByteVector: int; \
            w: int; w_type: int; wLength: int; sType: int; e: U; type: int; }";
        let err = crate::compile_str("a.fbs", src).unwrap_err();
        let clashes: Vec<&str> = err
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::NameClash)
            .map(|d| d.message.as_str())
            .collect();
        // (`a_type` is the hidden type field of union field `a`: declared again, it is a
        // duplicate.)
        assert!(err
            .diagnostics
            .iter()
            .any(|d| d.message == "field `a_type` is defined twice in `X`"));
        let expected: Vec<String> = [
            ("aType", "a"),
            ("v_length", "v"),
            ("vLength", "v"),
            ("s_byte_vector", "s"),
            ("sByteVector", "s"),
        ]
        .iter()
        .map(|(f, o)| format!("field `{f}` would clash with code generated for field `{o}`"))
        .collect();
        assert_eq!(clashes, expected);
    }

    #[test]
    fn the_name_table_keeps_its_entries_when_it_grows() {
        let names: Vec<String> = (0..3 * INLINE_NAMES).map(|i| format!("N{i}")).collect();
        let mut table = NameTable::new();
        for (i, name) in names.iter().enumerate() {
            assert!(table.get(name).is_none());
            let entry = table.entry(Cow::Borrowed(name.as_str()));
            assert!(entry.struct_slot.is_none());
            entry.struct_slot = Some(i);
            assert!(matches!(table, NameTable::Inline { .. }) == (i < INLINE_NAMES));
            for (j, earlier) in names[..=i].iter().enumerate() {
                assert_eq!(table.get(earlier).and_then(|n| n.struct_slot), Some(j));
                assert_eq!(table.entry(Cow::Borrowed(earlier)).struct_slot, Some(j));
            }
        }
        if let Some(n) = table.get_mut("N1") {
            n.enum_slot = Some(7);
        }
        assert_eq!(table.get("N1").and_then(|n| n.enum_slot), Some(7));
        assert!(table.get("N").is_none() && table.get_mut("N10x").is_none());
        // A full inline table takes a name it has without growing.
        let mut table = NameTable::new();
        for name in &names[..INLINE_NAMES] {
            table.entry(Cow::Borrowed(name.as_str()));
        }
        table.entry(Cow::Borrowed("N0")).type_span = Some(Span::new(FileId(0), 1, 2));
        assert!(matches!(table, NameTable::Inline { .. }));
        let mut big = NameTable::new();
        big.reserve(INLINE_NAMES + 1);
        assert!(matches!(big, NameTable::Map(_)));
    }

    #[test]
    fn a_definition_of_a_taken_name_is_reported_with_the_first_one() {
        let cases = [
            (
                "enum E : byte { A }\ntable E { a: int; a: int; }",
                &[
                    ("`E` is defined twice", 26, Some(5)),
                    ("field `a` is defined twice in `E`", 38, Some(30)),
                ][..],
            ),
            (
                "table U { x: T; }\nunion T { U }\ntable T { b: Q; }\nstruct T { a: int; }",
                &[
                    ("`T` is defined twice", 38, Some(24)),
                    ("unknown type `Q`", 45, None),
                    ("`T` is defined twice", 57, Some(38)),
                ],
            ),
            (
                "namespace N;\ntable U { t: T; x: N.T; }\ntable T { a: int; }\ntable T { b: int; }",
                &[
                    ("unknown type `N.T`", 32, None),
                    ("`N.T` is defined twice", 65, Some(45)),
                ],
            ),
            (
                "namespace N;\ntable U { x: N.T; }\nenum T : byte { A }\ntable T { b: Q; }\n\
                 struct U { a: int; }",
                &[
                    ("`N.T` is defined twice", 59, Some(38)),
                    ("unknown type `Q`", 66, None),
                    ("`N.U` is defined twice", 78, Some(19)),
                ],
            ),
        ];
        for (src, expected) in cases {
            let err = crate::compile_str("a.fbs", src).unwrap_err();
            let found: Vec<(&str, u32, Option<u32>)> = err
                .diagnostics
                .iter()
                .map(|d| {
                    let at = |l: &crate::diagnostic::Label| l.span.start;
                    let primary = d.primary.as_ref().map_or(0, at);
                    (d.message.as_str(), primary, d.secondary.first().map(at))
                })
                .collect();
            assert_eq!(found, expected, "{src}");
        }
    }

    #[test]
    fn dotted_names_are_the_same_with_spaces_and_comments() {
        for name in ["A.B.T", "A . B.T", "A./* c */B\n.T"] {
            let src = format!(
                "namespace A.B; table T {{}} namespace C; union Un {{ {name} }} \
                 table U {{ t: {name}; v: [{name}]; u: Un; }} root_type {name};"
            );
            let schema = crate::compile_str("a.fbs", &src).expect(&src);
            let t = schema.find_object("A.B.T");
            let u = &schema[schema.find_object("C.U").expect("C.U")];
            assert_eq!(u.fields[0].ty.object(), t, "{src}");
            assert_eq!(u.fields[1].ty.object(), t, "{src}");
            assert_eq!(schema.root_table, t, "{src}");
            let un = &schema[schema.find_enum("C.Un").expect("C.Un")];
            assert_eq!(un.values[1].name, "A_B_T", "{src}");
        }
        let err = crate::compile_str("a.fbs", "table U { t: A . B; }").unwrap_err();
        assert!(err.render(false).contains("unknown type `A.B`"));
    }

    #[test]
    fn builtin_types_are_recognized_by_their_exact_names() {
        let names = [
            ("bool", BaseType::Bool),
            ("byte", BaseType::Byte),
            ("int8", BaseType::Byte),
            ("ubyte", BaseType::UByte),
            ("uint8", BaseType::UByte),
            ("short", BaseType::Short),
            ("int16", BaseType::Short),
            ("ushort", BaseType::UShort),
            ("uint16", BaseType::UShort),
            ("int", BaseType::Int),
            ("int32", BaseType::Int),
            ("uint", BaseType::UInt),
            ("uint32", BaseType::UInt),
            ("long", BaseType::Long),
            ("int64", BaseType::Long),
            ("ulong", BaseType::ULong),
            ("uint64", BaseType::ULong),
            ("float", BaseType::Float),
            ("float32", BaseType::Float),
            ("double", BaseType::Double),
            ("float64", BaseType::Double),
            ("string", BaseType::String),
        ];
        for (name, t) in names {
            assert_eq!(builtin_type(name.as_bytes()), Some(t), "{name}");
        }
        for name in [
            "",
            "b",
            "in",
            "bolt",
            "Int",
            "int0",
            "uint128",
            "strinG",
            "floatxx",
            "Monster",
            "float32x",
            "float64\0",
            "stringss",
            "éint",
            "int\0",
        ] {
            assert_eq!(builtin_type(name.as_bytes()), None, "{name}");
        }
    }

    #[test]
    fn builtin_types_are_recognized_in_a_file_as_alone() {
        let names = [
            "int", "float64", "string", "in", "uint128", "strinG", "Monster", "int\0",
        ];
        for name in names {
            for after in ["", ";", "; x:int; }", "\0\0\0\0\0\0\0\0"] {
                let text = format!(" {name}{after}");
                let range = 1..1 + name.len();
                let expected = builtin_type(name.as_bytes());
                assert_eq!(
                    builtin_type_at(text.as_bytes(), range),
                    expected,
                    "{text:?}"
                );
            }
        }
        let text = b"int;";
        let reversed = std::ops::Range { start: 3, end: 0 };
        for range in [0..0, reversed, 0..4, 1..4, 0..5, 2..9] {
            let expected = text.get(range.clone()).and_then(builtin_type);
            assert_eq!(builtin_type_at(text, range.clone()), expected, "{range:?}");
        }
    }
}
