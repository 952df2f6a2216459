//! JSON to binary, straight into the builder, without a document tree.
//!
//! A FlatBuffer is written back to front, so a table can only be written once all its children
//! are: while an object is parsed, its children (strings, vectors, sub-tables) are written as they
//! come, and its scalar, struct and offset values wait on a stack of pending fields. When the
//! object closes, its pending fields are added in flatc's order (largest first, then highest id
//! first) and the table is ended. Vectors collect their elements the same way (scalars and structs
//! as bytes in an arena, offsets on a stack) and are written when the array closes. Buffers come
//! out byte for byte as flatc writes them, except that struct members of unions are 4-aligned, and
//! that `vector64` fields are laid out as flatc's C++ library lays them out (its JSON parser leaves
//! padding between the length and the data of some, sorts keyed structs in them 4 bytes off and
//! gives nested flatbuffers in them a 32-bit length), and that a keyed vector longer than 1,024
//! elements with equal keys may order those equal elements differently (flatc's quicksort takes
//! quadratic time there; we heap-sort, see [`sort_like_flatc`]). Strings and vectors behind 64-bit offsets are
//! written where they come in the JSON, as flatc's parser writes them (its C++ `FlatBufferBuilder64`
//! would put them at the end of the buffer; readers accept both).
//!
//! A union value whose `_type` field comes later in the object is handled as flatc does: the
//! parser looks ahead in the object for the type, then comes back and parses the value in place.
//!
//! The common shapes of JSON take fast paths in front of the general code, which still handles
//! everything else and reports every error: a field name is first matched in place against the
//! field after the previous one (JSON usually follows the schema's order), plain decimal numbers
//! are read in one pass ([`fast_decimal`]), and runs of spaces, string contents and digits are
//! scanned eight bytes at a time. Error positions are byte offsets, turned into a line and column
//! only when an error is made.

use std::fmt;

use flatforge::{BuildError, Builder, Offset, Offset64};
use flatforge_schema::{closest, listed, HashKind};

use crate::flex::FlexBuilder;
use crate::number::{fast_decimal, int_range, parse_float, parse_integer, NumError};
use crate::plan::{arr, lanes, Elem, Far, Field, Obj, Plan, Sc, Ty, Wide};
use crate::ParseOptions;

/// What is wrong with the JSON.
///
/// ```
/// use flatforge_json::{Codec, ParseErrorKind, ParseOptions};
/// let schema = flatforge_schema::compile_str("m.fbs", "table Monster { hp: short; } root_type Monster;")?;
/// let codec = Codec::new(&schema);
/// let root = codec.root_type(None)?;
/// let err = codec.parser(ParseOptions::default()).parse(root, b"{ hp: 1, mana: 2 }").unwrap_err();
/// assert_eq!(err.kind, ParseErrorKind::UnknownField { field: "mana".into(), object: "Monster".into() });
/// assert_eq!((err.line, err.column, err.offset), (1, 10, 9));
/// // With unknown fields allowed (flatc's --unknown-json), `mana` is skipped.
/// let mut lenient = ParseOptions::default();
/// lenient.unknown_fields = true;
/// assert!(codec.parser(lenient).parse(root, b"{ hp: 1, mana: 2 }").is_ok());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The input holds nothing but whitespace and comments.
    #[error("the input is empty")]
    Empty,
    /// Something else than what the grammar allows here.
    #[error("expected {expected}, found {found}")]
    Unexpected {
        /// What was expected.
        expected: &'static str,
        /// What was found (a token, or "end of input").
        found: String,
    },
    /// A field the table or struct does not have (see `--unknown-json`).
    #[error("unknown field `{field}` in `{object}`")]
    UnknownField {
        /// The field name.
        field: String,
        /// The table or struct.
        object: String,
    },
    /// A field given twice in one object.
    #[error("field `{0}` is set more than once")]
    DuplicateField(String),
    /// A required field is absent.
    #[error("required field `{field}` of `{object}` is missing")]
    MissingRequired {
        /// The field.
        field: String,
        /// The table.
        object: String,
    },
    /// A struct given without all its fields.
    #[error("struct `{object}` needs all its {expected} fields, found {found}")]
    StructFields {
        /// The struct.
        object: String,
        /// Its field count.
        expected: usize,
        /// Fields given.
        found: usize,
    },
    /// A fixed-length array of the wrong length.
    #[error("array `{field}` needs exactly {expected} elements, found {found}")]
    ArrayLength {
        /// The field.
        field: String,
        /// The array's length.
        expected: usize,
        /// Elements given.
        found: usize,
    },
    /// A number outside the range of its type.
    #[error("{value} does not fit `{ty}` [{min}; {max}]")]
    OutOfRange {
        /// The value as written.
        value: String,
        /// The type.
        ty: &'static str,
        /// The smallest value of the type.
        min: i128,
        /// The largest value of the type.
        max: i128,
    },
    /// Text that is not a valid number (or `true`/`false`) for the type.
    #[error("invalid value `{value}` for type `{ty}`")]
    InvalidNumber {
        /// The value as written.
        value: String,
        /// The type.
        ty: &'static str,
    },
    /// A hex number given for a float without the mandatory `p` exponent.
    #[error("hex float `{0}` needs its binary exponent (`p`)")]
    HexFloatExponent(String),
    /// A float given for an integer field.
    #[error("`{value}` is not an integer (type `{ty}`)")]
    NotAnInteger {
        /// The value as written.
        value: String,
        /// The type.
        ty: &'static str,
    },
    /// A name that is not a value of the enum.
    #[error("`{name}` is not a value of `{ty}`")]
    UnknownEnumValue {
        /// The name.
        name: String,
        /// The enum (or the integer type, for `Enum.Value` names).
        ty: String,
    },
    /// A quoted scalar with escapes or non-ASCII characters (flatc refuses them too).
    #[error("a quoted value for type `{0}` must be plain ASCII without escapes")]
    QuotedScalar(&'static str),
    /// A union value whose `_type` field is absent.
    #[error("union `{0}` has a value but no `{0}_type` field")]
    UnionWithoutType(String),
    /// A union type that names no member (or NONE, with a value given).
    #[error("union `{field}` has no member with type {value}")]
    UnknownUnionType {
        /// The union field.
        field: String,
        /// The type value, of the union's underlying integer type (`ubyte` unless the schema
        /// gives another, as in `union U : int`).
        value: i128,
    },
    /// A vector of unions with fewer types than values.
    #[error("union vector `{0}` has more values than types")]
    UnionTypesTooShort(String),
    /// A union whose type is set but whose value is `null` or absent.
    #[error("union `{0}` has a type but no value")]
    UnionNullValue(String),
    /// A vector of unions whose types and values differ in number.
    #[error("union vector `{field}` has {types} types but {values} values")]
    UnionVectorLength {
        /// The field.
        field: String,
        /// Number of types.
        types: usize,
        /// Number of values.
        values: usize,
    },
    /// A string without its closing quote.
    #[error("unterminated string")]
    UnterminatedString,
    /// An unknown or malformed escape sequence.
    #[error("invalid escape sequence: {0}")]
    InvalidEscape(&'static str),
    /// A control character inside a string.
    #[error("control character {0:#04x} in a string (escape it)")]
    ControlCharacter(u8),
    /// Bytes that are not UTF-8 (in the input outside comments, or made by `\x` escapes).
    #[error("invalid UTF-8")]
    InvalidUtf8,
    /// A `/* */` comment without its end.
    #[error("unterminated comment")]
    UnterminatedComment,
    /// Values nested deeper than the limit ([`ParseOptions::max_depth`](crate::ParseOptions)).
    #[error("nesting deeper than the limit of {0}")]
    DepthLimit(u32),
    /// Something after the root object.
    #[error("unexpected {0} after the root object")]
    Trailing(String),
    /// The builder refused (size limits).
    #[error("{0}")]
    Build(BuildError),
    /// An integer in a FlexBuffer beyond its 64-bit signed integers. flatc stores 0 for it; we
    /// refuse it rather than lose it (written as a float, `1e19`, it fits a FlexBuffer double).
    #[error("integer {0} does not fit a FlexBuffer, whose integers are 64-bit signed (flatc would store 0)")]
    FlexIntegerRange(String),
    /// A schema feature this converter does not handle.
    #[error("field `{field}` uses {what}, which is not supported")]
    Unsupported {
        /// The feature.
        what: &'static str,
        /// The field.
        field: String,
    },
}

/// JSON that could not be converted: where (1-based line and column, counted in characters, and
/// the byte offset) and what.
///
/// ```
/// let schema = flatforge_schema::compile_str("a.fbs", "table T { a: byte; } root_type T;")?;
/// let codec = flatforge_json::Codec::new(&schema);
/// let root = codec.root_type(None)?;
/// let err = codec.parser(Default::default()).parse(root, b"{ a: 300 }").unwrap_err();
/// assert_eq!(err.to_string(), "1:6: 300 does not fit `byte` [-128; 127]");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// Byte offset in the input.
    pub offset: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
    /// Help, behind a thin pointer to keep the error small: see [`ParseError::help`].
    help: Option<Box<Help>>,
}

/// The text of [`ParseError::help`].
#[derive(Debug, Clone, PartialEq, Eq)]
struct Help(String);

impl ParseError {
    pub(crate) fn new(src: &[u8], offset: usize, kind: ParseErrorKind) -> ParseError {
        let offset = offset.min(src.len());
        let before = &src[..offset];
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        // A byte order mark at the start of the text takes no column.
        let bom = usize::from(line_start == 0 && before.starts_with(b"\xEF\xBB\xBF"));
        let column = 1 + before[line_start..]
            .iter()
            .filter(|&&b| b & 0xC0 != 0x80)
            .count()
            - bom;
        ParseError {
            line,
            column,
            offset,
            kind,
            help: None,
        }
    }

    /// How to fix it, where the schema tells: for a name it lacks, the closest name it has
    /// ("did you mean `name`?") or the names it has. [`Display`](fmt::Display) shows it in
    /// parentheses after the message.
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("m.fbs", "table M { name: string; hp: short; } root_type M;")?;
    /// let codec = flatforge_json::Codec::new(&schema);
    /// let root = codec.root_type(None)?;
    /// let err = codec.parser(Default::default()).parse(root, b"{ nmae: \"Orc\" }").unwrap_err();
    /// assert_eq!(err.help(), Some("did you mean `name`?"));
    /// assert_eq!(err.to_string(), "1:3: unknown field `nmae` in `M` (did you mean `name`?)");
    /// let err = codec.parser(Default::default()).parse(root, b"{ mana: 1 }").unwrap_err();
    /// assert_eq!(err.help(), Some("its fields: name, hp"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn help(&self) -> Option<&str> {
        self.help.as_ref().map(|h| h.0.as_str())
    }

    /// Adds help.
    fn with_help(mut self: Box<Self>, help: Option<String>) -> Box<Self> {
        self.help = help.map(|h| Box::new(Help(h)));
        self
    }

    pub(crate) fn at_end(src: &[u8], kind: ParseErrorKind) -> ParseError {
        ParseError::new(src, src.len(), kind)
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.kind)?;
        match self.help() {
            Some(help) => write!(f, " ({help})"),
            None => Ok(()),
        }
    }
}

/// Help for `name`, which is not among `names`: the closest of them, or all of them (`what`
/// introduces the list); `None` when there are none.
#[cold]
fn name_help(name: &str, names: &[&str], what: &str) -> Option<String> {
    if names.is_empty() {
        return None;
    }
    Some(match closest(name, names.iter().copied()) {
        Some(c) => format!("did you mean `{c}`?"),
        None => format!("{what}: {}", listed(names, 20)),
    })
}

impl std::error::Error for ParseError {}

/// A table field waiting for its table to close.
#[derive(Clone, Copy, Debug)]
struct Pending {
    /// flatc's order: size class, then id, descending (sorted ascending on this key).
    order: u32,
    slot: u16,
    value: Value,
}

#[derive(Clone, Copy, Debug)]
enum Value {
    Scalar {
        sc: Sc,
        bits: u64,
        default: u64,
        always: bool,
    },
    /// An offset to the object at this offset: 64-bit (`offset64`, `vector64`) if `true`.
    Offset(u32, bool),
    /// Struct bytes in the arena.
    Struct { start: u32, len: u32, align: u32 },
}

/// Buffers reused from one parse to the next.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    pending: Vec<Pending>,
    arena: Vec<u8>,
    offsets: Vec<Offset<()>>,
    text: Vec<u8>,
    nested: Vec<Builder>,
    flex: FlexBuilder,
}

/// Where a string's contents are.
#[derive(Clone, Copy)]
enum Str {
    /// `src[start..end]`, no escapes.
    Src(usize, usize),
    /// In `Scratch::text` (had escapes).
    Text,
}

struct P<'a, 'b> {
    plan: &'a Plan,
    opts: &'a ParseOptions,
    src: &'a [u8],
    /// The input as text when all of it is UTF-8 (the common case), else empty: comments may hold
    /// any bytes (flatc skips them unread), and then each string is checked when it is read, and
    /// numbers take the general path ([`fast_decimal`] finds no number in an empty text).
    text: &'a str,
    pos: usize,
    s: &'b mut Scratch,
    b: &'b mut Builder,
    depth: u32,
    /// The largest alignment written to the current buffer (for nested flatbuffers).
    align: usize,
    /// Whether the text being parsed is inside a nested flatbuffer that was skipped once already
    /// (see [`nested`](Self::nested)).
    in_skipped: bool,
}

type R<T> = Result<T, Box<ParseError>>;

pub(crate) fn parse_root(
    plan: &Plan,
    opts: &ParseOptions,
    s: &mut Scratch,
    b: &mut Builder,
    root: u32,
    json: &[u8],
) -> R<Offset<()>> {
    let text = simdutf8::basic::from_utf8(json).unwrap_or_default();
    s.pending.clear();
    s.arena.clear();
    s.offsets.clear();
    let mut p = P {
        plan,
        opts,
        src: json,
        text,
        pos: 0,
        s,
        b,
        depth: 0,
        align: 1,
        in_skipped: false,
    };
    if json.starts_with(b"\xEF\xBB\xBF") {
        p.pos = 3;
    }
    p.ws()?;
    match p.peek() {
        b'{' => {}
        0 if p.pos >= json.len() => return Err(p.err_at(p.pos, ParseErrorKind::Empty)),
        _ => return Err(p.unexpected("`{` (the root table)")),
    }
    let root = p.table(root)?;
    p.ws()?;
    if p.pos < json.len() {
        if p.at_invalid_utf8() {
            return Err(p.err_at(p.pos, ParseErrorKind::InvalidUtf8));
        }
        let found = p.describe();
        return Err(p.err_at(p.pos, ParseErrorKind::Trailing(found)));
    }
    Ok(Offset::new(root))
}

/// Bytes that end the fast scan of a string: quotes, backslash and control characters.
const SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\'' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

#[inline]
pub(crate) fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

#[inline]
pub(crate) fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The high bit of the first byte of `w` (eight bytes of text, little-endian) that is [`SPECIAL`]
/// (a quote, a backslash or a control character), and maybe of later bytes; 0 if none is.
/// `(x - 0x01..) & !x & 0x80..` marks the zero bytes of `x`, and `(w - 0x20..) & !w & 0x80..` the
/// bytes below 0x20; a borrow only goes from a marked byte into the ones after it, so the lowest
/// mark is exact.
#[inline(always)]
fn special_bytes(w: u64) -> u64 {
    let zero = |x: u64| x.wrapping_sub(lanes(1)) & !x;
    (zero(w ^ lanes(b'"'))
        | zero(w ^ lanes(b'\''))
        | zero(w ^ lanes(b'\\'))
        | (w.wrapping_sub(lanes(0x20)) & !w))
        & lanes(0x80)
}

/// `a == b`, inline: short names compare as two overlapping words rather than through a `memcmp`
/// call.
#[inline(always)]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n >= 8 {
        let mut i = 0;
        while i + 8 < n {
            if arr::<8>(a, i) != arr::<8>(b, i) {
                return false;
            }
            i += 8;
        }
        arr::<8>(a, n - 8) == arr::<8>(b, n - 8)
    } else if n >= 4 {
        arr::<4>(a, 0) == arr::<4>(b, 0) && arr::<4>(a, n - 4) == arr::<4>(b, n - 4)
    } else if n >= 2 {
        arr::<2>(a, 0) == arr::<2>(b, 0) && arr::<2>(a, n - 2) == arr::<2>(b, n - 2)
    } else {
        a.first() == b.first()
    }
}

/// Writes `bits` (see [`Sc::read`]) as the little-endian bytes of `sc` at the start of `dst`.
#[inline]
fn put_scalar(dst: &mut [u8], sc: Sc, bits: u64) {
    match sc.size() {
        1 => dst[0] = bits as u8,
        2 => dst[..2].copy_from_slice(&(bits as u16).to_le_bytes()),
        4 if sc == Sc::F32 => {
            dst[..4].copy_from_slice(&(f64::from_bits(bits) as f32).to_bits().to_le_bytes())
        }
        4 => dst[..4].copy_from_slice(&(bits as u32).to_le_bytes()),
        _ => dst[..8].copy_from_slice(&bits.to_le_bytes()),
    }
}

/// Pushes `bytes` into a vector or struct started with `start_vector`, last bytes first.
fn push_rev(b: &mut Builder, bytes: &[u8]) {
    let mut end = bytes.len();
    while end >= 8 {
        b.push(u64::from_le_bytes(arr(bytes, end - 8)));
        end -= 8;
    }
    if end >= 4 {
        b.push(u32::from_le_bytes(arr(bytes, end - 4)));
        end -= 4;
    }
    if end >= 2 {
        b.push(u16::from_le_bytes(arr(bytes, end - 2)));
        end -= 2;
    }
    if end == 1 {
        b.push(bytes[0]);
    }
}

/// The longest keyed vector sorted with flatc's quicksort when it is not already in order: the
/// quicksort takes quadratic time on many equal keys (and on crafted orders), so longer vectors
/// are heap-sorted instead.
const QSORT_MAX: usize = 1024;

/// Sorts `len` elements by key as flatc does: `less(i, j)` compares elements, `swap(i, j)`
/// exchanges them. Elements already in strictly ascending order stay where they are; other vectors
/// of up to [`QSORT_MAX`] elements go through flatc's quicksort ([`simple_qsort`], so that equal
/// keys end up in the order flatc puts them in), longer ones through a heapsort, which takes
/// O(n log n) time whatever the input. Both give flatc's order when the keys are distinct; with
/// equal keys in a vector longer than [`QSORT_MAX`], equal elements may be ordered differently.
fn sort_like_flatc(
    len: usize,
    mut less: impl FnMut(usize, usize) -> bool,
    swap: impl FnMut(usize, usize),
) {
    if (1..len).all(|i| less(i - 1, i)) {
        // Distinct keys in order: the one sorted order, which flatc's quicksort also reaches.
        return;
    }
    if len <= QSORT_MAX {
        simple_qsort(len, less, swap);
    } else {
        heap_sort(len, less, swap);
    }
}

/// An in-place heapsort over `less` and `swap`: O(n log n) comparisons for any input (and no
/// panic when `less` is not a total order, as with NaN keys: the order is then unspecified).
fn heap_sort(
    len: usize,
    mut less: impl FnMut(usize, usize) -> bool,
    mut swap: impl FnMut(usize, usize),
) {
    for start in (0..len / 2).rev() {
        sift_down(&mut less, &mut swap, start, len);
    }
    for end in (1..len).rev() {
        // The largest element goes to `end`; the heap shrinks to `0..end`.
        swap(0, end);
        sift_down(&mut less, &mut swap, 0, end);
    }
}

/// Moves the element at `root` down the max-heap `0..end` to where it belongs.
fn sift_down(
    less: &mut impl FnMut(usize, usize) -> bool,
    swap: &mut impl FnMut(usize, usize),
    mut root: usize,
    end: usize,
) {
    loop {
        let mut child = 2 * root + 1;
        if child >= end {
            return;
        }
        if child + 1 < end && less(child, child + 1) {
            child += 1;
        }
        if !less(root, child) {
            return;
        }
        swap(root, child);
        root = child;
    }
}

/// flatc's `SimpleQsort` (so that equal keys end up in the same order as flatc puts them), without
/// recursion: `less(i, j)` compares elements, `swap(i, j)` exchanges them.
fn simple_qsort(
    len: usize,
    mut less: impl FnMut(usize, usize) -> bool,
    mut swap: impl FnMut(usize, usize),
) {
    let mut stack = vec![(0usize, len)];
    while let Some((begin, end)) = stack.pop() {
        if end - begin <= 1 {
            continue;
        }
        let mut l = begin + 1;
        let mut r = end;
        while l < r {
            if less(begin, l) {
                r -= 1;
                swap(l, r);
            } else {
                l += 1;
            }
        }
        l -= 1;
        swap(begin, l);
        stack.push((r, end));
        stack.push((begin, l));
    }
}

/// The position of the field in `slot` of the table at `pos` in a buffer being built, if present.
fn built_field(data: &[u8], pos: usize, slot: usize) -> Option<usize> {
    let soffset = i32::from_le_bytes(arr(data, pos));
    let vt = (pos as i64 - i64::from(soffset)) as usize;
    let vt_len = usize::from(u16::from_le_bytes(arr(data, vt)));
    let entry = 4 + 2 * slot;
    if entry + 2 > vt_len {
        return None;
    }
    let off = u16::from_le_bytes(arr(data, vt + entry));
    (off != 0).then(|| pos + usize::from(off))
}

/// Compares scalar bits of type `sc` with `<`.
fn scalar_less(sc: Sc, a: u64, b: u64) -> bool {
    if sc.is_float() {
        f64::from_bits(a) < f64::from_bits(b)
    } else if sc.is_signed() {
        (a as i64) < (b as i64)
    } else {
        a < b
    }
}

fn hash_bits(h: HashKind, sc: Sc, bytes: &[u8]) -> u64 {
    let v = h.hash(bytes);
    match sc {
        Sc::I16 => v as u16 as i16 as i64 as u64,
        Sc::U16 => u64::from(v as u16),
        Sc::I32 => v as u32 as i32 as i64 as u64,
        Sc::U32 => u64::from(v as u32),
        _ => v,
    }
}

impl<'a> P<'a, '_> {
    #[cold]
    fn err_at(&self, pos: usize, kind: ParseErrorKind) -> Box<ParseError> {
        Box::new(ParseError::new(self.src, pos, kind))
    }

    #[inline(always)]
    fn peek(&self) -> u8 {
        self.src.get(self.pos).copied().unwrap_or(0)
    }

    /// A short description of the token at the current position, for errors.
    #[cold]
    fn describe(&self) -> String {
        let rest = &self.src[self.pos.min(self.src.len())..];
        match rest.first() {
            None => "end of input".to_string(),
            Some(&c) if c.is_ascii_alphanumeric() || c == b'_' => {
                let word: String = rest
                    .iter()
                    .take_while(|&&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.')
                    .take(40)
                    .map(|&c| char::from(c))
                    .collect();
                format!("`{word}`")
            }
            Some(_) => {
                let c = rest
                    .utf8_chunks()
                    .next()
                    .and_then(|c| c.valid().chars().next())
                    .unwrap_or(char::REPLACEMENT_CHARACTER);
                // A control character is named, not written (it could drive a terminal).
                if c.is_control() {
                    format!("{:?}", c)
                } else {
                    format!("`{c}`")
                }
            }
        }
    }

    /// The error for a token that is not `expected` (bytes that are not UTF-8 are said to be).
    #[cold]
    fn unexpected(&self, expected: &'static str) -> Box<ParseError> {
        if self.at_invalid_utf8() {
            return self.err_at(self.pos, ParseErrorKind::InvalidUtf8);
        }
        let found = self.describe();
        self.err_at(self.pos, ParseErrorKind::Unexpected { expected, found })
    }

    /// Whether the text at `pos` starts with bytes that are not UTF-8.
    fn at_invalid_utf8(&self) -> bool {
        let rest = &self.src[self.pos.min(self.src.len())..];
        rest.utf8_chunks()
            .next()
            .is_some_and(|c| c.valid().is_empty())
    }

    /// Whether all the input is UTF-8 (as [`text`](Self::text)).
    #[inline(always)]
    fn all_utf8(&self) -> bool {
        self.text.len() == self.src.len()
    }

    /// Checks that `src[start..end]`, the contents of a string without escapes, is UTF-8: already
    /// known if all the input is.
    #[inline(always)]
    fn check_utf8(&self, start: usize, end: usize) -> R<()> {
        if self.all_utf8() {
            return Ok(());
        }
        match std::str::from_utf8(&self.src[start..end]) {
            Ok(_) => Ok(()),
            Err(e) => Err(self.err_at(start + e.valid_up_to(), ParseErrorKind::InvalidUtf8)),
        }
    }

    /// Skips whitespace and comments.
    #[inline(always)]
    fn ws(&mut self) -> R<()> {
        loop {
            let c = self.peek();
            if c > b' ' {
                // A token (most calls), or a comment.
                if c != b'/' || !self.comment()? {
                    return Ok(());
                }
                continue;
            }
            match c {
                b' ' => match self.src.get(self.pos..self.pos + 8) {
                    // Runs of spaces (indentation) eight bytes at a time: zero bytes are spaces,
                    // the lowest nonzero byte is the first other one (8 if there is none).
                    Some(chunk) => {
                        let other = u64::from_le_bytes(arr(chunk, 0)) ^ lanes(b' ');
                        self.pos += (other.trailing_zeros() / 8) as usize;
                    }
                    None => self.pos += 1,
                },
                b'\n' | b'\r' | b'\t' => self.pos += 1,
                _ => return Ok(()),
            }
        }
    }

    /// Skips the comment at the current position (a `/`), if it is one; returns whether it was.
    #[inline(never)]
    fn comment(&mut self) -> R<bool> {
        match self.src.get(self.pos + 1) {
            Some(b'/') => {
                // To the end of the line: a line feed or, as flatc has it, a carriage return.
                while self.pos < self.src.len() && !matches!(self.src[self.pos], b'\n' | b'\r') {
                    self.pos += 1;
                }
            }
            Some(b'*') => {
                let start = self.pos;
                self.pos += 2;
                loop {
                    if self.pos + 1 >= self.src.len() {
                        return Err(self.err_at(start, ParseErrorKind::UnterminatedComment));
                    }
                    if self.src[self.pos] == b'*' && self.src[self.pos + 1] == b'/' {
                        self.pos += 2;
                        break;
                    }
                    self.pos += 1;
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Goes one level deeper (the caller goes back up with `self.depth -= 1` when it is done),
    /// or fails past the limit. As flatc counts: each table and struct, each FlexBuffer value and
    /// each skipped value; not vectors, whose elements count (vectors do not nest, so the limit
    /// also bounds the recursion).
    fn enter(&mut self) -> R<()> {
        if self.depth >= self.opts.max_depth {
            return Err(self.err_at(self.pos, ParseErrorKind::DepthLimit(self.opts.max_depth)));
        }
        self.depth += 1;
        Ok(())
    }

    #[inline]
    fn track_align(&mut self, align: usize) {
        if align > self.align {
            self.align = align;
        }
    }

    fn build<T>(&self, r: Result<T, BuildError>) -> R<T> {
        r.map_err(|e| self.err_at(self.pos, ParseErrorKind::Build(e)))
    }

    /// Whether the next token is the identifier `null` (and consumes it if so).
    #[inline]
    fn null(&mut self) -> bool {
        let null = self.at_null();
        if null {
            self.pos += b"null".len();
        }
        null
    }

    /// Whether the next token is the identifier `null`.
    #[inline]
    fn at_null(&self) -> bool {
        self.src[self.pos..].starts_with(b"null")
            && !self.src.get(self.pos + 4).copied().is_some_and(is_ident)
    }

    fn ident(&mut self) -> (usize, usize) {
        let start = self.pos;
        while self.pos < self.src.len() && is_ident(self.src[self.pos]) {
            self.pos += 1;
        }
        (start, self.pos)
    }

    /// Reads a string token (double or single quotes) at the current position.
    fn string(&mut self) -> R<Str> {
        let quote = self.src[self.pos];
        let start = self.pos + 1;
        let mut i = start;
        let src = self.src;
        // Fast path: no escapes.
        loop {
            if let Some(chunk) = src.get(i..i + 8) {
                let special = special_bytes(u64::from_le_bytes(arr(chunk, 0)));
                // The lowest marked byte is the first special one (8 if there is none).
                i += (special.trailing_zeros() / 8) as usize;
                if special == 0 {
                    continue;
                }
            }
            let Some(&c) = src.get(i) else {
                return Err(self.err_at(start - 1, ParseErrorKind::UnterminatedString));
            };
            if !SPECIAL[usize::from(c)] {
                i += 1;
                continue;
            }
            if c == quote {
                self.check_utf8(start, i)?;
                self.pos = i + 1;
                return Ok(Str::Src(start, i));
            }
            if c == b'\\' {
                break;
            }
            if c < 0x20 {
                return Err(self.err_at(i, ParseErrorKind::ControlCharacter(c)));
            }
            i += 1;
        }
        self.s.text.clear();
        self.s.text.extend_from_slice(&src[start..i]);
        let mut high: Option<u32> = None;
        loop {
            let Some(&c) = src.get(i) else {
                return Err(self.err_at(start - 1, ParseErrorKind::UnterminatedString));
            };
            if c == quote {
                break;
            }
            if c < 0x20 {
                return Err(self.err_at(i, ParseErrorKind::ControlCharacter(c)));
            }
            if c != b'\\' {
                if high.is_some() {
                    return Err(
                        self.err_at(i, ParseErrorKind::InvalidEscape("unpaired high surrogate"))
                    );
                }
                self.s.text.push(c);
                i += 1;
                continue;
            }
            let esc_at = i;
            let e = src.get(i + 1).copied().unwrap_or(0);
            if high.is_some() && e != b'u' {
                return Err(self.err_at(
                    esc_at,
                    ParseErrorKind::InvalidEscape("unpaired high surrogate"),
                ));
            }
            i += 2;
            let byte = match e {
                b'n' => b'\n',
                b't' => b'\t',
                b'r' => b'\r',
                b'b' => 8,
                b'f' => 12,
                b'"' => b'"',
                b'\'' => b'\'',
                b'\\' => b'\\',
                b'/' => b'/',
                b'x' => {
                    let v = self.hex_digits(i, 2, esc_at)?;
                    i += 2;
                    v as u8
                }
                b'u' => {
                    let v = self.hex_digits(i, 4, esc_at)?;
                    i += 4;
                    let c = match (v, high) {
                        (0xD800..=0xDBFF, None) => {
                            high = Some(v);
                            continue;
                        }
                        (0xD800..=0xDBFF, Some(_)) => {
                            return Err(self.err_at(
                                esc_at,
                                ParseErrorKind::InvalidEscape("two high surrogates in a row"),
                            ))
                        }
                        (0xDC00..=0xDFFF, Some(h)) => {
                            high = None;
                            0x10000 + ((h & 0x3FF) << 10) + (v & 0x3FF)
                        }
                        (0xDC00..=0xDFFF, None) => {
                            return Err(self.err_at(
                                esc_at,
                                ParseErrorKind::InvalidEscape("unpaired low surrogate"),
                            ))
                        }
                        (_, Some(_)) => {
                            return Err(self.err_at(
                                esc_at,
                                ParseErrorKind::InvalidEscape("unpaired high surrogate"),
                            ))
                        }
                        (v, None) => v,
                    };
                    let ch = char::from_u32(c).unwrap_or('\u{FFFD}');
                    let mut buf = [0; 4];
                    self.s
                        .text
                        .extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                    continue;
                }
                _ => {
                    return Err(self.err_at(esc_at, ParseErrorKind::InvalidEscape("unknown escape")))
                }
            };
            self.s.text.push(byte);
        }
        if high.is_some() {
            return Err(self.err_at(i, ParseErrorKind::InvalidEscape("unpaired high surrogate")));
        }
        // The bytes between escapes first, for the position of a bad one (escapes are ASCII, so
        // they are UTF-8 exactly when the whole contents are), then what the escapes made.
        self.check_utf8(start, i)?;
        if std::str::from_utf8(&self.s.text).is_err() {
            return Err(self.err_at(start, ParseErrorKind::InvalidUtf8));
        }
        self.pos = i + 1;
        Ok(Str::Text)
    }

    fn hex_digits(&self, at: usize, n: usize, esc_at: usize) -> R<u32> {
        let digits = self.src.get(at..at + n).unwrap_or_default();
        if digits.len() != n || !digits.iter().all(u8::is_ascii_hexdigit) {
            return Err(self.err_at(esc_at, ParseErrorKind::InvalidEscape("expected hex digits")));
        }
        let mut v = 0;
        for &d in digits {
            v = v * 16 + (d as char).to_digit(16).unwrap_or(0);
        }
        Ok(v)
    }

    fn str_bytes(&self, s: Str) -> &[u8] {
        match s {
            Str::Src(a, b) => &self.src[a..b],
            Str::Text => &self.s.text,
        }
    }

    /// Writes a string (its contents checked as UTF-8 already) and returns its offset.
    fn create_string(&mut self, s: Str, shared: bool) -> R<u32> {
        let text: &str = match s {
            Str::Src(a, b) if self.all_utf8() => &self.text[a..b],
            // Checked by `string` (the default is never taken).
            Str::Src(a, b) => std::str::from_utf8(&self.src[a..b]).unwrap_or_default(),
            Str::Text => std::str::from_utf8(&self.s.text).unwrap_or_default(),
        };
        let r = if shared {
            self.b.create_shared_string(text)
        } else {
            self.b.create_string(text)
        };
        self.track_align(4);
        self.build(r).map(Offset::value)
    }

    /// Whether the field name at the current position is the identifier `name` written plainly
    /// (quoted without escapes, or bare unless strict); if so, consumes it. Reading it with
    /// [`key`](Self::key) would give the same name: an identifier has no quotes, escapes or
    /// control characters.
    #[inline(always)]
    fn key_is(&mut self, name: &str) -> bool {
        let name = name.as_bytes();
        let (src, at) = (self.src, self.pos);
        let Some(&c) = src.get(at) else {
            return false;
        };
        let quoted = c == b'"' || c == b'\'';
        let start = at + usize::from(quoted);
        let end = start + name.len();
        let Some(text) = src.get(start..end) else {
            return false;
        };
        let after = src.get(end).copied();
        let ends = if quoted {
            after == Some(c)
        } else {
            !self.opts.strict_json && !after.is_some_and(is_ident)
        };
        if ends && same_bytes(text, name) {
            self.pos = end + usize::from(quoted);
            true
        } else {
            false
        }
    }

    /// Reads a field name (quoted, or bare unless strict) at the current position.
    fn key(&mut self) -> R<Str> {
        match self.peek() {
            b'"' | b'\'' => self.string(),
            c if is_ident_start(c) && !self.opts.strict_json => {
                let (a, b) = self.ident();
                Ok(Str::Src(a, b))
            }
            _ => Err(self.unexpected(if self.opts.strict_json {
                "a quoted field name"
            } else {
                "a field name"
            })),
        }
    }

    /// Expects `c` (after whitespace).
    #[inline(always)]
    fn expect(&mut self, c: u8, what: &'static str) -> R<()> {
        self.ws()?;
        if self.peek() == c {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.unexpected(what))
        }
    }

    /// After a value in an object or array: `,` (then `true` unless the next token closes it in
    /// non-strict mode) or the closing bracket (`false`).
    #[inline(always)]
    fn next_item(&mut self, close: u8) -> R<bool> {
        self.ws()?;
        match self.peek() {
            b',' => {
                self.pos += 1;
                self.ws()?;
                if self.peek() == close && !self.opts.strict_json {
                    self.pos += 1;
                    return Ok(false);
                }
                Ok(true)
            }
            c if c == close => {
                self.pos += 1;
                Ok(false)
            }
            _ => Err(self.unexpected(if close == b'}' {
                "`,` or `}`"
            } else {
                "`,` or `]`"
            })),
        }
    }

    /// Opens an object or array form of a table/struct: returns whether it is the array form.
    fn open_object(&mut self) -> R<bool> {
        self.ws()?;
        match self.peek() {
            b'{' => {
                self.pos += 1;
                Ok(false)
            }
            b'[' => {
                self.pos += 1;
                Ok(true)
            }
            _ => Err(self.unexpected("`{`")),
        }
    }

    /// Parses a table and writes it; returns its offset.
    fn table(&mut self, obj: u32) -> R<u32> {
        let plan = self.plan;
        let o = &plan.objects[obj as usize];
        self.enter()?;
        let frame = self.s.pending.len();
        let arena_mark = self.s.arena.len();
        let as_array = self.open_object()?;
        let close = if as_array { b']' } else { b'}' };
        let mut seen = Seen::new(o.fields.len());
        // The first field left out by an ignored `null`, and where (for errors): a required field
        // missing at the end is reported there.
        let mut null_at = None;
        let mut n = 0usize;
        let mut guess = 0usize;
        self.ws()?;
        if self.peek() == close {
            self.pos += 1;
        } else {
            // Each field starts at a token: whitespace was skipped before the first, and
            // `next_item` skips it before the others.
            loop {
                let key_at = self.pos;
                let fi = if as_array {
                    if n >= o.fields.len() {
                        return Err(self.unexpected("`]` (all fields of the table are given)"));
                    }
                    Some(n)
                } else if o
                    .fields
                    .get(guess)
                    .is_some_and(|f| f.ident && self.key_is(&f.name))
                {
                    // JSON usually lists fields in schema order: try the one after the last.
                    self.expect(b':', "`:`")?;
                    self.ws()?;
                    Some(guess)
                } else {
                    let key = self.key()?;
                    self.expect(b':', "`:`")?;
                    self.ws()?;
                    let name = self.str_bytes(key);
                    match o.field_index(name) {
                        Some(i) => Some(i),
                        None if name == b"$schema" && matches!(key, Str::Src(..)) => {
                            if !matches!(self.peek(), b'"' | b'\'') {
                                return Err(self.unexpected("a string"));
                            }
                            self.string()?;
                            None
                        }
                        None if self.opts.unknown_fields => {
                            self.skip_value()?;
                            None
                        }
                        None => return Err(self.unknown_field(o, name, key_at)),
                    }
                };
                if let Some(fi) = fi {
                    guess = fi + 1;
                    let f = &o.fields[fi];
                    // A hashed scalar hashes the word `null` as any other (flatc does).
                    if self.at_null() && !(f.hash.is_some() && f.ty.is_scalar()) {
                        let value_at = self.pos;
                        self.pos += b"null".len();
                        // flatc ignores `null` for a field that is not a scalar: the field stays
                        // unset, so it repeats no earlier value and no later value repeats it.
                        // In the array form, `null` still takes the field's place.
                        if !as_array && !f.ty.is_scalar() {
                            null_at.get_or_insert((fi, value_at));
                        } else if !seen.insert(fi) {
                            return Err(self.duplicate(key_at, f));
                        }
                        self.null_field(o, fi, frame, value_at, as_array)?;
                    } else {
                        if !seen.insert(fi) {
                            return Err(self.duplicate(key_at, f));
                        }
                        self.table_field(o, fi, frame)?;
                    }
                    n += 1;
                }
                if !self.next_item(close)? {
                    break;
                }
            }
        }
        if as_array && n != o.fields.len() {
            return Err(self.unexpected("a value for every field of the table"));
        }
        for &i in o.required.iter() {
            let (i, f) = (usize::from(i), &o.fields[usize::from(i)]);
            if !seen.contains(i) {
                let field = f.name.to_string();
                let object = o.name.to_string();
                // At the `null` that left it out, if one did; else at the end of the object.
                let at = match null_at {
                    Some((j, at)) if j == i => at,
                    _ => self.pos - 1,
                };
                return Err(self.err_at(at, ParseErrorKind::MissingRequired { field, object }));
            }
        }
        for &i in o.unions.iter() {
            self.check_union(o, usize::from(i), frame)?;
        }
        let off = self.end_table(frame)?;
        self.s.pending.truncate(frame);
        self.s.arena.truncate(arena_mark);
        self.depth -= 1;
        Ok(off)
    }

    /// Writes the table whose fields are pending from `frame` on.
    fn end_table(&mut self, frame: usize) -> R<u32> {
        let fields = &mut self.s.pending[frame..];
        if fields.len() > 1 {
            fields.sort_unstable_by_key(|p| p.order);
        }
        self.b.start_table();
        for i in frame..self.s.pending.len() {
            let p = self.s.pending[i];
            let slot = usize::from(p.slot);
            let r = match p.value {
                Value::Offset(o, false) => self.b.add_offset(slot, Offset::<()>::new(o)),
                Value::Offset(o, true) => add_offset64(self.b, slot, o),
                Value::Struct { start, len, align } => {
                    let (start, len) = (start as usize, len as usize);
                    self.b
                        .add_bytes(slot, &self.s.arena[start..start + len], align as usize)
                }
                Value::Scalar {
                    sc,
                    bits,
                    default,
                    always,
                } => add_scalar(self.b, slot, sc, bits, default, always),
            };
            if let Err(e) = r {
                // Close the table so the builder stays usable, then report.
                let _ = self.b.end_table();
                return Err(self.err_at(self.pos, ParseErrorKind::Build(e)));
            }
        }
        self.track_align(4);
        let r = self.b.end_table();
        self.build(r).map(Offset::value)
    }

    /// The error for `null` given to a scalar field that is not optional (`= null`): flatc's
    /// "invalid number", as only optional scalars can be left out by `null`.
    #[cold]
    fn null_scalar(&self, at: usize, sc: Sc) -> Box<ParseError> {
        let kind = ParseErrorKind::InvalidNumber {
            value: "null".into(),
            ty: sc.name(),
        };
        self.err_at(at, kind)
    }

    /// The error for field `f` given again (its key at `key_at`).
    #[cold]
    fn duplicate(&self, key_at: usize, f: &Field) -> Box<ParseError> {
        let name = f.name.to_string();
        self.err_at(key_at, ParseErrorKind::DuplicateField(name))
    }

    /// Checks `null` (at `value_at`, consumed) given for field `fi` of table `o`: it leaves the
    /// field out, which is an error for a required field given in the array form, for a scalar
    /// that is not optional (flatc's "invalid number"), and for a union whose type is set (that
    /// makes an invalid buffer). A required field left out by `null` in the object form is
    /// reported when the object ends (unless a later value sets it), as flatc reports it.
    #[inline(never)]
    fn null_field(
        &self,
        o: &Obj,
        fi: usize,
        frame: usize,
        value_at: usize,
        in_array: bool,
    ) -> R<()> {
        let f = &o.fields[fi];
        if in_array && o.required.iter().any(|&i| usize::from(i) == fi) {
            let field = f.name.to_string();
            let object = o.name.to_string();
            return Err(self.err_at(value_at, ParseErrorKind::MissingRequired { field, object }));
        }
        match f.ty {
            Ty::Scalar(sc, _) if !f.optional => Err(self.null_scalar(value_at, sc)),
            Ty::UType(_) => Err(self.null_scalar(value_at, Sc::U8)),
            Ty::Wide(Wide::UType, sc, _) => Err(self.null_scalar(value_at, sc)),
            Ty::Union(_) | Ty::Wide(Wide::Union, ..) => {
                // The type set and no value before: this `null` is why it has none.
                let sib = &o.fields[usize::from(f.sibling)];
                let has_value = self.s.pending[frame..].iter().any(|p| p.slot == f.slot);
                if !has_value && self.pending_scalar(frame, sib.slot).is_some_and(|t| t != 0) {
                    let kind = ParseErrorKind::UnionNullValue(f.name.to_string());
                    return Err(self.err_at(value_at, kind));
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Parses the value of field `fi` of table `o` and pushes it as pending.
    fn table_field(&mut self, o: &'a Obj, fi: usize, frame: usize) -> R<()> {
        let f = &o.fields[fi];
        let value_at = self.pos;
        let value = match f.ty {
            Ty::Scalar(sc, en) => {
                let Some(bits) = self.scalar(sc, en, f.hash)? else {
                    // `"null"`, quoted.
                    if !f.optional {
                        return Err(self.null_scalar(value_at, sc));
                    }
                    return Ok(());
                };
                Value::Scalar {
                    sc,
                    bits,
                    default: f.default,
                    always: f.optional,
                }
            }
            Ty::UType(u) => {
                let Some(bits) = self.scalar(Sc::U8, Some(u), None)? else {
                    return Ok(());
                };
                Value::Scalar {
                    sc: Sc::U8,
                    bits,
                    default: 0,
                    always: false,
                }
            }
            Ty::String => {
                if !matches!(self.peek(), b'"' | b'\'') {
                    return Err(self.unexpected("a string"));
                }
                let s = self.string()?;
                Value::Offset(self.create_string(s, f.shared)?, false)
            }
            Ty::Struct(s) => {
                let obj = &self.plan.objects[s as usize];
                let start = self.s.arena.len();
                self.s.arena.resize(start + obj.bytesize, 0);
                self.struct_fields(s, start)?;
                self.track_align(obj.minalign);
                Value::Struct {
                    start: start as u32,
                    len: obj.bytesize as u32,
                    align: obj.minalign as u32,
                }
            }
            Ty::Table(t) => Value::Offset(self.table(t)?, false),
            Ty::Union(u) => Value::Offset(self.union_field(o, f, frame, Sc::U8, u)?, false),
            Ty::Vector => Value::Offset(self.vector(f, f.elem)?, false),
            Ty::UTypeVector(u) => {
                Value::Offset(self.vector(f, Elem::Scalar(Sc::U8, Some(u)))?, false)
            }
            Ty::UnionVector(u) => {
                let sib = &o.fields[usize::from(f.sibling)];
                let types = self.union_types(frame, sib)?;
                Value::Offset(self.union_vector(f, Sc::U8, u, &types)?, false)
            }
            Ty::Wide(part, sc, u) => match self.wide(o, f, frame, (part, sc, u))? {
                Some(value) => value,
                None => return Ok(()),
            },
            Ty::Nested(t) => Value::Offset(self.nested(f, t)?, false),
            Ty::Flex => Value::Offset(self.flex()?, false),
            Ty::Far(far) => Value::Offset(self.far(f, far)?, true),
            Ty::Unsupported | Ty::Array => {
                return Err(self.err_at(
                    value_at,
                    ParseErrorKind::Unsupported {
                        what: "a type without a JSON form",
                        field: f.name.to_string(),
                    },
                ))
            }
        };
        self.s.pending.push(Pending {
            order: f.order,
            slot: f.slot,
            value,
        });
        Ok(())
    }

    /// Parses the value of field `f`, a string or vector behind a 64-bit offset, and writes it;
    /// returns its offset. Out of line: such fields are rare, and the common ones parse faster
    /// without this code.
    #[inline(never)]
    fn far(&mut self, f: &Field, far: Far) -> R<u32> {
        let off = match far {
            Far::String => {
                if !matches!(self.peek(), b'"' | b'\'') {
                    return Err(self.unexpected("a string"));
                }
                let s = self.string()?;
                self.create_string(s, f.shared)?
            }
            Far::Vector => self.vector(f, f.elem)?,
            Far::Vector64 => self.vector64(f, f.elem)?,
            Far::Nested(t) | Far::Nested64(t) => self.nested(f, t)?,
            Far::Flex => self.flex()?,
        };
        // The field itself is 8-aligned.
        self.track_align(8);
        Ok(off)
    }

    /// Parses the value of field `f` of table `o`, `part` of union `u` whose types are `sc`s (not
    /// `u8`s), as the parts of other unions parse; `None` for a type given as `null`. Out of line:
    /// such unions are rare, and the common fields parse faster without this code.
    #[inline(never)]
    fn wide(
        &mut self,
        o: &Obj,
        f: &Field,
        frame: usize,
        (part, sc, u): (Wide, Sc, u32),
    ) -> R<Option<Value>> {
        Ok(Some(match part {
            Wide::UType => {
                let Some(bits) = self.scalar(sc, Some(u), None)? else {
                    return Ok(None);
                };
                Value::Scalar {
                    sc,
                    bits,
                    default: 0,
                    always: false,
                }
            }
            Wide::Union => Value::Offset(self.union_field(o, f, frame, sc, u)?, false),
            Wide::UTypeVector => Value::Offset(self.vector(f, Elem::Scalar(sc, Some(u)))?, false),
            Wide::UnionVector => {
                let sib = &o.fields[usize::from(f.sibling)];
                let types = self.union_types(frame, sib)?;
                Value::Offset(self.union_vector(f, sc, u, &types)?, false)
            }
        }))
    }

    /// Parses the value of union field `f` of table `o` (of union `u`, whose types are `sc`s) and
    /// writes it; returns its offset. Its type is the one pending in the sibling field, or read
    /// ahead in the object.
    fn union_field(&mut self, o: &Obj, f: &Field, frame: usize, sc: Sc, u: u32) -> R<u32> {
        let value_at = self.pos;
        let sib = &o.fields[usize::from(f.sibling)];
        let ty = match self.pending_scalar(frame, sib.slot) {
            Some(t) => t,
            None => match self.lookahead(&sib.name)? {
                Some(at) => {
                    let back = self.pos;
                    self.pos = at;
                    let t = self.scalar(sc, Some(u), None)?;
                    self.pos = back;
                    t.unwrap_or(0)
                }
                None => {
                    let help = format!(
                        "`{}` names the member: {}",
                        sib.name,
                        self.union_members(u, false)
                    );
                    return Err(self
                        .err_at(
                            value_at,
                            ParseErrorKind::UnionWithoutType(f.name.to_string()),
                        )
                        .with_help(Some(help)));
                }
            },
        };
        self.union_value(f, sc, u, ty)
    }

    /// Refuses a union type without its value, and a vector of union types whose length differs
    /// from its vector of values: both make buffers that do not verify.
    fn check_union(&self, o: &Obj, i: usize, frame: usize) -> R<()> {
        let f = &o.fields[i];
        let sib = &o.fields[usize::from(f.sibling)];
        let pending = |slot: u16| self.s.pending[frame..].iter().find(|p| p.slot == slot);
        let value = pending(f.slot);
        match f.ty {
            Ty::Union(_) | Ty::Wide(Wide::Union, ..) => {
                let ty = self.pending_scalar(frame, sib.slot).unwrap_or(0);
                if ty != 0 && value.is_none() {
                    let kind = ParseErrorKind::UnionNullValue(f.name.to_string());
                    return Err(self.err_at(self.pos - 1, kind));
                }
            }
            _ => {
                let len = |p: Option<&Pending>| match p.map(|p| p.value) {
                    Some(Value::Offset(off, false)) => {
                        let data = self.b.finished_data();
                        let pos = data.len() - off as usize;
                        u32::from_le_bytes(arr(data, pos)) as usize
                    }
                    _ => 0,
                };
                let (types, values) = (len(pending(sib.slot)), len(value));
                if types != values {
                    let kind = ParseErrorKind::UnionVectorLength {
                        field: f.name.to_string(),
                        types,
                        values,
                    };
                    return Err(self.err_at(self.pos - 1, kind));
                }
            }
        }
        Ok(())
    }

    /// The bits of the scalar pending in `slot` of the current table, if any.
    fn pending_scalar(&self, frame: usize, slot: u16) -> Option<u64> {
        self.s.pending[frame..]
            .iter()
            .find(|p| p.slot == slot)
            .and_then(|p| match p.value {
                Value::Scalar { bits, .. } => Some(bits),
                _ => None,
            })
    }

    /// The types of a vector of unions (raw bits, as [`Sc::read`] returns them), typed by `sib`, its
    /// types vector: from that vector written before in this table, or read ahead in the object.
    fn union_types(&mut self, frame: usize, sib: &Field) -> R<Vec<u64>> {
        let (sc, u) = match sib.ty {
            Ty::UTypeVector(u) => (Sc::U8, u),
            Ty::Wide(Wide::UTypeVector, sc, u) => (sc, u),
            _ => return Ok(Vec::new()),
        };
        let written = self.s.pending[frame..]
            .iter()
            .find(|p| p.slot == sib.slot)
            .and_then(|p| match p.value {
                Value::Offset(o, false) => Some(o),
                _ => None,
            });
        if let Some(off) = written {
            let data = self.b.finished_data();
            let pos = data.len() - off as usize;
            let len = u32::from_le_bytes(arr(data, pos)) as usize;
            let size = sc.size();
            return Ok((0..len)
                .map(|i| sc.read(data, pos + 4 + size * i))
                .collect());
        }
        let Some(at) = self.lookahead(&sib.name)? else {
            return Ok(Vec::new());
        };
        let back = self.pos;
        self.pos = at;
        let mut types = Vec::new();
        if !self.null() {
            self.expect(b'[', "`[`")?;
            self.ws()?;
            if self.peek() == b']' {
                self.pos += 1;
            } else {
                loop {
                    self.ws()?;
                    types.push(self.scalar(sc, Some(u), None)?.unwrap_or(0));
                    if !self.next_item(b']')? {
                        break;
                    }
                }
            }
        }
        self.pos = back;
        Ok(types)
    }

    /// Looks ahead in the current object, past the value at the current position, for the field
    /// `name`; returns the position of its value. The position is left unchanged.
    fn lookahead(&mut self, name: &str) -> R<Option<usize>> {
        let back = self.pos;
        let mut found = None;
        self.skip_value()?;
        loop {
            self.ws()?;
            if self.peek() == b',' {
                self.pos += 1;
                self.ws()?;
            }
            if matches!(self.peek(), b'}' | b']' | 0) {
                break;
            }
            let key = self.key()?;
            let is_it = self.str_bytes(key) == name.as_bytes();
            self.expect(b':', "`:`")?;
            self.ws()?;
            if is_it {
                found = Some(self.pos);
                break;
            }
            self.skip_value()?;
        }
        self.pos = back;
        Ok(found)
    }

    /// Skips one JSON value of any shape, checked as the parser checks values: objects of
    /// `key: value` pairs and arrays, separated as [`next_item`](Self::next_item) has it,
    /// strings, numbers, and bare words (names, `true`, `nan`, `-inf`; flatc's skipper refuses
    /// those, ours takes them as a value would). Each value skipped counts toward the depth
    /// limit, scalars too, as in flatc's skipper.
    fn skip_value(&mut self) -> R<()> {
        self.ws()?;
        self.enter()?;
        self.skip_token()?;
        self.depth -= 1;
        Ok(())
    }

    /// The body of [`skip_value`](Self::skip_value), at the value's first token.
    fn skip_token(&mut self) -> R<()> {
        let c = self.peek();
        match c {
            b'{' | b'[' => {
                let close = if c == b'{' { b'}' } else { b']' };
                self.pos += 1;
                self.ws()?;
                if self.peek() == close {
                    self.pos += 1;
                    return Ok(());
                }
                loop {
                    if c == b'{' {
                        self.key()?;
                        self.expect(b':', "`:`")?;
                    }
                    self.skip_value()?;
                    if !self.next_item(close)? {
                        return Ok(());
                    }
                    self.ws()?;
                }
            }
            b'"' | b'\'' => self.string().map(drop),
            b'+' | b'-'
                if self
                    .src
                    .get(self.pos + 1)
                    .copied()
                    .is_some_and(is_ident_start) =>
            {
                self.pos += 1;
                self.ident();
                Ok(())
            }
            c if c.is_ascii_digit() || matches!(c, b'+' | b'-' | b'.') => {
                self.number()?;
                if self.src.get(self.pos).copied().is_some_and(is_ident) {
                    return Err(self.unexpected("the end of the number"));
                }
                Ok(())
            }
            c if is_ident_start(c) => {
                self.ident();
                Ok(())
            }
            _ => Err(self.unexpected("a value")),
        }
    }

    /// Reads a number token at the current position: `(start, end, is_float)`.
    fn number(&mut self) -> R<(usize, usize, bool)> {
        let start = self.pos;
        let src = self.src;
        // Fast path: plain decimal digits followed by a delimiter.
        let mut i = start + usize::from(src[start] == b'-');
        let digits = i;
        while i < src.len() && src[i].is_ascii_digit() {
            i += 1;
        }
        if i > digits
            && (i - digits == 1 || src[digits] != b'0')
            && !src.get(i).is_some_and(|&c| is_ident(c) || c == b'.')
        {
            self.pos = i;
            return Ok((start, i, false));
        }
        let mut i = self.pos;
        if matches!(src.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let mut is_float = false;
        let hex = src.get(i) == Some(&b'0') && matches!(src.get(i + 1), Some(b'x' | b'X'));
        let digit = |c: u8| {
            if hex {
                c.is_ascii_hexdigit()
            } else {
                c.is_ascii_digit()
            }
        };
        if hex {
            i += 2;
        }
        let mant_start = i;
        let mut digits = 0;
        while i < src.len() && digit(src[i]) {
            i += 1;
            digits += 1;
        }
        if src.get(i) == Some(&b'.') {
            is_float = true;
            i += 1;
            while i < src.len() && digit(src[i]) {
                i += 1;
                digits += 1;
            }
        }
        let exp = if hex { b'p' } else { b'e' };
        if digits > 0 && src.get(i).is_some_and(|&c| c | 0x20 == exp) {
            is_float = true;
            i += 1;
            if matches!(src.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            let e = i;
            while i < src.len() && src[i].is_ascii_digit() {
                i += 1;
            }
            if i == e {
                digits = 0;
            }
        }
        if digits == 0 || i == mant_start || src.get(i).is_some_and(|&c| is_ident(c) || c == b'.') {
            while i < src.len() && (is_ident(src[i]) || src[i] == b'.') {
                i += 1;
            }
            let text = String::from_utf8_lossy(&src[start..i]).into_owned();
            return Err(self.err_at(
                start,
                ParseErrorKind::InvalidNumber {
                    value: text,
                    ty: "number",
                },
            ));
        }
        self.pos = i;
        Ok((start, i, is_float))
    }

    /// Parses a scalar of type `sc` (enum `en`, hashed with `hash` when given a string) at the
    /// current position, where the caller has skipped whitespace; `None` for `null`.
    #[inline(always)]
    fn scalar(&mut self, sc: Sc, en: Option<u32>, hash: Option<HashKind>) -> R<Option<u64>> {
        let c = self.peek();
        if c.is_ascii_digit() || c == b'-' {
            if let Some((bits, end)) = fast_decimal(self.text, self.pos, sc) {
                self.pos = end.get();
                return Ok(Some(bits));
            }
        }
        self.scalar_general(sc, en, hash)
    }

    /// What [`scalar`](Self::scalar) leaves to the general path: quoted scalars, names, `null`,
    /// numbers of other shapes, and every error.
    #[inline(never)]
    fn scalar_general(
        &mut self,
        sc: Sc,
        en: Option<u32>,
        hash: Option<HashKind>,
    ) -> R<Option<u64>> {
        let at = self.pos;
        let c = self.peek();
        if c == b'"' || c == b'\'' {
            let s = self.string()?;
            if let Some(h) = hash {
                return Ok(Some(hash_bits(h, sc, self.str_bytes(s))));
            }
            let Str::Src(a, b) = s else {
                return Err(self.err_at(at, ParseErrorKind::QuotedScalar(sc.name())));
            };
            if !self.src[a..b].iter().all(|c| (b' '..=b'~').contains(c)) {
                return Err(self.err_at(at, ParseErrorKind::QuotedScalar(sc.name())));
            }
            let text = &self.src[a..b];
            if text == b"null" {
                return Ok(None);
            }
            let trimmed = text.trim_ascii();
            return self.scalar_text(trimmed, sc, en, at, true).map(Some);
        }
        if is_ident_start(c) {
            let (a, b) = self.ident();
            let text = &self.src[a..b];
            if let Some(h) = hash {
                return Ok(Some(hash_bits(h, sc, text)));
            }
            if text == b"null" {
                return Ok(None);
            }
            return self.scalar_text(text, sc, en, at, false).map(Some);
        }
        if (c == b'+' || c == b'-')
            && self
                .src
                .get(self.pos + 1)
                .copied()
                .is_some_and(is_ident_start)
        {
            self.pos += 1;
            let (_, b) = self.ident();
            let text = &self.src[at..b];
            if !sc.is_float() {
                return Err(self.err_at(
                    at,
                    ParseErrorKind::InvalidNumber {
                        value: String::from_utf8_lossy(text).into_owned(),
                        ty: sc.name(),
                    },
                ));
            }
            return self.scalar_text(text, sc, en, at, false).map(Some);
        }
        if c.is_ascii_digit() || c == b'+' || c == b'-' || c == b'.' {
            let (a, b, is_float) = self.number()?;
            let text = &self.src[a..b];
            if is_float && !sc.is_float() {
                return Err(self.err_at(
                    at,
                    ParseErrorKind::NotAnInteger {
                        value: String::from_utf8_lossy(text).into_owned(),
                        ty: sc.name(),
                    },
                ));
            }
            return self.number_text(text, sc, at).map(Some);
        }
        Err(self.unexpected(match sc {
            Sc::Bool => "a boolean",
            Sc::F32 | Sc::F64 => "a number",
            _ if en.is_some() => "a number or an enum name",
            _ => "an integer",
        }))
    }

    /// Parses number text for `sc`.
    fn number_text(&self, text: &[u8], sc: Sc, at: usize) -> R<u64> {
        let r = if sc.is_float() {
            parse_float(text, sc)
        } else {
            parse_integer(text, sc)
        };
        r.map_err(|e| {
            let value = String::from_utf8_lossy(text).into_owned();
            let kind = match e {
                NumError::Range => {
                    let (min, max) = int_range(sc);
                    ParseErrorKind::OutOfRange {
                        value,
                        ty: sc.name(),
                        min,
                        max,
                    }
                }
                NumError::HexFloatExponent => ParseErrorKind::HexFloatExponent(value),
                NumError::Syntax if !sc.is_float() && is_float_text(text) => {
                    ParseErrorKind::NotAnInteger {
                        value,
                        ty: sc.name(),
                    }
                }
                NumError::Syntax => ParseErrorKind::InvalidNumber {
                    value,
                    ty: sc.name(),
                },
            };
            self.err_at(at, kind)
        })
    }

    /// Parses an identifier or the contents of a quoted scalar for `sc`.
    fn scalar_text(&self, text: &[u8], sc: Sc, en: Option<u32>, at: usize, quoted: bool) -> R<u64> {
        match sc {
            Sc::Bool => match text {
                b"true" => return Ok(1),
                b"false" => return Ok(0),
                _ => {}
            },
            Sc::F32 | Sc::F64 => return self.number_text(text, sc, at),
            _ => {}
        }
        if sc != Sc::Bool && text.first().copied().is_some_and(is_ident_start) {
            return self.enum_value(text, sc, en, at);
        }
        if !quoted {
            return Err(self.err_at(
                at,
                ParseErrorKind::InvalidNumber {
                    value: String::from_utf8_lossy(text).into_owned(),
                    ty: sc.name(),
                },
            ));
        }
        self.number_text(text, sc, at)
    }

    /// Parses enum names (`A`, `A B` for bit flags, `Enum.A`) for an integer of type `sc`.
    fn enum_value(&self, text: &[u8], sc: Sc, en: Option<u32>, at: usize) -> R<u64> {
        let plan = self.plan;
        let mut value: u64 = 0;
        for word in text.split(|&c| c == b' ') {
            let (owner, name) = match word.iter().rposition(|&c| c == b'.') {
                Some(dot) => (Some(&word[..dot]), &word[dot + 1..]),
                None => (None, word),
            };
            let e = match owner {
                Some(owner) => {
                    let named = plan.enum_named(owner);
                    let ok = match (named, en) {
                        (Some(n), Some(e)) => n.name == plan.enums[e as usize].name,
                        (Some(_), None) => true,
                        _ => false,
                    };
                    if !ok {
                        return Err(self.unknown_enum(word, sc, en, at));
                    }
                    named
                }
                None => en.map(|e| &plan.enums[e as usize]),
            };
            let Some(e) = e else {
                return Err(self.unknown_enum(word, sc, en, at));
            };
            match e.by_name(name) {
                Some(v) => value |= v.value as u64,
                None => return Err(self.unknown_enum(word, sc, en, at)),
            }
        }
        let (min, max) = int_range(sc);
        let v = sc.int_value(value);
        if v < min || v > max {
            return Err(self.err_at(
                at,
                ParseErrorKind::OutOfRange {
                    value: String::from_utf8_lossy(text).into_owned(),
                    ty: sc.name(),
                    min,
                    max,
                },
            ));
        }
        Ok(value)
    }

    #[cold]
    fn unknown_field(&self, o: &Obj, name: &[u8], at: usize) -> Box<ParseError> {
        let field = String::from_utf8_lossy(name).into_owned();
        let names: Vec<&str> = o.fields.iter().map(|f| &*f.name).collect();
        let help = name_help(&field, &names, "its fields");
        let object = o.name.to_string();
        self.err_at(at, ParseErrorKind::UnknownField { field, object })
            .with_help(help)
    }

    /// The members of union `u` (with their type values if `values`), for help.
    #[cold]
    fn union_members(&self, u: u32, values: bool) -> String {
        let members: Vec<String> = self.plan.enums[u as usize]
            .values
            .iter()
            .filter(|v| v.value != 0)
            .map(|v| match values {
                true => format!("{} = {}", v.name, v.value),
                false => v.name.to_string(),
            })
            .collect();
        let members: Vec<&str> = members.iter().map(String::as_str).collect();
        listed(&members, 20)
    }

    #[cold]
    fn unknown_enum(&self, word: &[u8], sc: Sc, en: Option<u32>, at: usize) -> Box<ParseError> {
        let ty = en.map_or_else(
            || sc.name().to_string(),
            |e| self.plan.enums[e as usize].name.to_string(),
        );
        let name = String::from_utf8_lossy(word).into_owned();
        let help = en.and_then(|e| {
            let names: Vec<&str> = self.plan.enums[e as usize]
                .values
                .iter()
                .map(|v| &*v.name)
                .collect();
            name_help(&name, &names, "its values")
        });
        self.err_at(at, ParseErrorKind::UnknownEnumValue { name, ty })
            .with_help(help)
    }

    /// Parses a struct's fields into `arena[at..at + bytesize]` (zeroed by the caller).
    fn struct_fields(&mut self, s: u32, at: usize) -> R<()> {
        let plan = self.plan;
        let o = &plan.objects[s as usize];
        self.enter()?;
        let as_array = self.open_object()?;
        let close = if as_array { b']' } else { b'}' };
        let mut seen = Seen::new(o.fields.len());
        let mut n = 0;
        let mut guess = 0usize;
        self.ws()?;
        if self.peek() == close {
            self.pos += 1;
        } else {
            // Each field starts at a token: whitespace was skipped before the first, and
            // `next_item` skips it before the others.
            loop {
                let key_at = self.pos;
                let fi = if as_array {
                    if n >= o.fields.len() {
                        return Err(self.unexpected("`]` (all fields of the struct are given)"));
                    }
                    Some(n)
                } else if o
                    .fields
                    .get(guess)
                    .is_some_and(|f| f.ident && self.key_is(&f.name))
                {
                    self.expect(b':', "`:`")?;
                    self.ws()?;
                    Some(guess)
                } else {
                    let key = self.key()?;
                    self.expect(b':', "`:`")?;
                    self.ws()?;
                    let name = self.str_bytes(key);
                    match o.field_index(name) {
                        Some(i) => Some(i),
                        None if self.opts.unknown_fields => {
                            self.skip_value()?;
                            None
                        }
                        None => return Err(self.unknown_field(o, name, key_at)),
                    }
                };
                if let Some(fi) = fi {
                    guess = fi + 1;
                    let f = &o.fields[fi];
                    if !seen.insert(fi) {
                        return Err(
                            self.err_at(key_at, ParseErrorKind::DuplicateField(f.name.to_string()))
                        );
                    }
                    self.struct_field(f, at + usize::from(f.slot))?;
                    n += 1;
                }
                if !self.next_item(close)? {
                    break;
                }
            }
        }
        if n != o.fields.len() {
            return Err(self.err_at(
                self.pos - 1,
                ParseErrorKind::StructFields {
                    object: o.name.to_string(),
                    expected: o.fields.len(),
                    found: n,
                },
            ));
        }
        self.depth -= 1;
        // flatc builds each struct value in its builder (then moves the bytes out), which leaves
        // the buffer aligned to the struct's alignment: do the same, for identical buffers.
        // Between objects our buffer length is always even, so alignments below 4 need nothing.
        if o.minalign >= 4 {
            let r = self.b.start_vector(0, 1, o.minalign);
            self.build(r)?;
            self.track_align(o.minalign);
        }
        Ok(())
    }

    fn struct_field(&mut self, f: &Field, at: usize) -> R<()> {
        match f.ty {
            Ty::Scalar(sc, en) => {
                let value_at = self.pos;
                let Some(bits) = self.scalar(sc, en, f.hash)? else {
                    return Err(self.err_at(
                        value_at,
                        ParseErrorKind::InvalidNumber {
                            value: "null".into(),
                            ty: sc.name(),
                        },
                    ));
                };
                put_scalar(&mut self.s.arena[at..], sc, bits);
            }
            Ty::Struct(s) => self.struct_fields(s, at)?,
            Ty::Array => {
                self.expect(b'[', "`[`")?;
                let len = usize::from(f.array_len);
                let mut n = 0;
                self.ws()?;
                if self.peek() == b']' {
                    self.pos += 1;
                } else {
                    loop {
                        self.ws()?;
                        if n >= len {
                            return Err(self.err_at(
                                self.pos,
                                ParseErrorKind::ArrayLength {
                                    field: f.name.to_string(),
                                    expected: len,
                                    found: n + 1,
                                },
                            ));
                        }
                        match f.elem {
                            Elem::Scalar(sc, en) => {
                                let value_at = self.pos;
                                let Some(bits) = self.scalar(sc, en, None)? else {
                                    return Err(self.err_at(
                                        value_at,
                                        ParseErrorKind::InvalidNumber {
                                            value: "null".into(),
                                            ty: sc.name(),
                                        },
                                    ));
                                };
                                put_scalar(&mut self.s.arena[at + n * sc.size()..], sc, bits);
                            }
                            Elem::Struct(s) => {
                                let size = self.plan.objects[s as usize].bytesize;
                                self.struct_fields(s, at + n * size)?;
                            }
                            _ => return Err(self.unexpected("`]`")),
                        }
                        n += 1;
                        if !self.next_item(b']')? {
                            break;
                        }
                    }
                }
                if n != len {
                    return Err(self.err_at(
                        self.pos - 1,
                        ParseErrorKind::ArrayLength {
                            field: f.name.to_string(),
                            expected: len,
                            found: n,
                        },
                    ));
                }
            }
            _ => return Err(self.unexpected("a struct field")),
        }
        Ok(())
    }

    /// Parses a member of union `u` (whose types are `sc`s) of type `ty` (raw bits, as [`Sc::read`]
    /// returns them) and writes it; returns its offset.
    fn union_value(&mut self, f: &Field, sc: Sc, u: u32, ty: u64) -> R<u32> {
        let plan = self.plan;
        let at = self.pos;
        let member = if ty == 0 {
            None
        } else {
            plan.enums[u as usize].by_value(ty as i64).map(|v| v.member)
        };
        match member {
            Some(Elem::Table(t)) => self.table(t),
            Some(Elem::Struct(s)) => {
                let obj = &plan.objects[s as usize];
                let start = self.s.arena.len();
                self.s.arena.resize(start + obj.bytesize, 0);
                self.struct_fields(s, start)?;
                let r = self.b.start_vector(1, obj.bytesize, obj.minalign);
                self.build(r)?;
                push_rev(self.b, &self.s.arena[start..]);
                self.s.arena.truncate(start);
                self.track_align(obj.minalign.max(4));
                Ok(self.b.len() as u32)
            }
            Some(Elem::String) => {
                if !matches!(self.peek(), b'"' | b'\'') {
                    return Err(self.unexpected("a string"));
                }
                let s = self.string()?;
                self.create_string(s, f.shared)
            }
            _ => {
                let e = self.err_at(
                    at,
                    ParseErrorKind::UnknownUnionType {
                        field: f.name.to_string(),
                        value: sc.int_value(ty),
                    },
                );
                Err(e.with_help(Some(format!(
                    "its members: {}",
                    self.union_members(u, true)
                ))))
            }
        }
    }

    /// Opens an array; returns false if it is empty (and consumed). A vector does not count
    /// toward the depth limit, as in flatc: its elements are tables, unions or structs, which do
    /// (vectors do not nest), so the depth of tables still bounds the recursion.
    fn open_array(&mut self) -> R<bool> {
        self.expect(b'[', "`[`")?;
        self.ws()?;
        if self.peek() == b']' {
            self.pos += 1;
            return Ok(false);
        }
        Ok(true)
    }

    /// Parses a vector of `elem` and writes it; returns its offset.
    fn vector(&mut self, f: &Field, elem: Elem) -> R<u32> {
        let plan = self.plan;
        let non_empty = self.open_array()?;
        let mut count = 0usize;
        let off = match elem {
            Elem::Scalar(sc, en) => {
                let mark = self.s.arena.len();
                let size = sc.size();
                if non_empty {
                    loop {
                        let value_at = self.pos;
                        let Some(bits) = self.scalar(sc, en, f.hash)? else {
                            return Err(self.err_at(
                                value_at,
                                ParseErrorKind::InvalidNumber {
                                    value: "null".into(),
                                    ty: sc.name(),
                                },
                            ));
                        };
                        let at = self.s.arena.len();
                        self.s.arena.resize(at + size, 0);
                        put_scalar(&mut self.s.arena[at..], sc, bits);
                        count += 1;
                        if !self.next_item(b']')? {
                            break;
                        }
                    }
                }
                let off = self.write_bytes_vector(
                    count,
                    size,
                    size.max(usize::from(f.force_align)),
                    mark,
                )?;
                self.s.arena.truncate(mark);
                off
            }
            Elem::Struct(s) => {
                let obj = &plan.objects[s as usize];
                let mark = self.s.arena.len();
                if non_empty {
                    loop {
                        self.ws()?;
                        let at = self.s.arena.len();
                        self.s.arena.resize(at + obj.bytesize, 0);
                        self.struct_fields(s, at)?;
                        count += 1;
                        if !self.next_item(b']')? {
                            break;
                        }
                    }
                }
                if let Some(k) = obj.key {
                    self.sort_structs(obj, &obj.fields[usize::from(k)], mark, count);
                }
                let align = obj.minalign.max(usize::from(f.force_align));
                let off = self.write_bytes_vector(count, obj.bytesize, align, mark)?;
                self.s.arena.truncate(mark);
                off
            }
            Elem::String | Elem::Table(_) => {
                let mark = self.s.offsets.len();
                if non_empty {
                    loop {
                        self.ws()?;
                        let off = match elem {
                            Elem::Table(t) => self.table(t)?,
                            _ => {
                                if !matches!(self.peek(), b'"' | b'\'') {
                                    return Err(self.unexpected("a string"));
                                }
                                let s = self.string()?;
                                self.create_string(s, false)?
                            }
                        };
                        self.s.offsets.push(Offset::new(off));
                        if !self.next_item(b']')? {
                            break;
                        }
                    }
                }
                if let Elem::Table(t) = elem {
                    let obj = &plan.objects[t as usize];
                    if let Some(k) = obj.key {
                        self.sort_tables(&obj.fields[usize::from(k)], mark);
                    }
                }
                let r = self.b.create_vector_of_offsets(&self.s.offsets[mark..]);
                self.s.offsets.truncate(mark);
                self.track_align(4);
                self.build(r)?.value()
            }
            Elem::None => return Err(self.unexpected("`]`")),
        };
        Ok(off)
    }

    /// Writes `count` elements of `size` bytes from `arena[mark..]` as a vector aligned to `align`.
    fn write_bytes_vector(
        &mut self,
        count: usize,
        size: usize,
        align: usize,
        mark: usize,
    ) -> R<u32> {
        // flatc aligns nothing for an empty vector (its `PreAlign` skips zero lengths): only the
        // length is aligned, to 4.
        let align = if count == 0 { 1 } else { align };
        let r = self.b.start_vector(count, size, align);
        self.build(r)?;
        push_rev(self.b, &self.s.arena[mark..]);
        self.track_align(align.max(4));
        Ok(self.b.end_vector::<u8>(count).value())
    }

    /// Parses a vector of `elem` with a 64-bit length (`vector64`) and writes it; returns its
    /// offset. [`vector`](Self::vector) parses (and sorts, for keyed structs) the elements into a
    /// builder of its own as an ordinary vector; they are copied from there behind the 64-bit
    /// length.
    #[inline(never)]
    fn vector64(&mut self, f: &Field, elem: Elem) -> R<u32> {
        let mut nb = self.s.nested.pop().unwrap_or_default();
        nb.reset();
        nb.set_max_size(self.opts.max_size);
        std::mem::swap(self.b, &mut nb);
        let parsed = self.vector(f, elem);
        std::mem::swap(self.b, &mut nb);
        let result = parsed.and_then(|off| {
            let data = nb.finished_data();
            let at = data.len() - off as usize;
            let count = u32::from_le_bytes(arr(data, at)) as usize;
            let (size, align) = elem.layout(self.plan);
            // As for other vectors, an empty one aligns nothing but its length.
            let align = if count == 0 {
                1
            } else {
                align.max(usize::from(f.force_align))
            };
            let elements = &data[at + 4..at + 4 + count * size];
            let r = write_vector64(self.b, elements, count, size, align);
            self.track_align(align.max(8));
            self.build(r)
        });
        self.s.nested.push(nb);
        result
    }

    /// Sorts `count` structs at `arena[mark..]` by their scalar key, as flatc does.
    fn sort_structs(&mut self, obj: &Obj, key: &Field, mark: usize, count: usize) {
        let Ty::Scalar(sc, _) = key.ty else {
            return;
        };
        let size = obj.bytesize;
        let off = usize::from(key.slot);
        let arena = &mut self.s.arena;
        let cell = std::cell::RefCell::new(arena);
        sort_like_flatc(
            count,
            |a, b| {
                let arena = cell.borrow();
                let va = sc.read(&arena[mark + a * size..], off);
                let vb = sc.read(&arena[mark + b * size..], off);
                scalar_less(sc, va, vb)
            },
            |a, b| {
                if a != b {
                    let mut arena = cell.borrow_mut();
                    let (lo, hi) = (a.min(b), a.max(b));
                    let (x, y) = arena[mark + lo * size..].split_at_mut((hi - lo) * size);
                    x[..size].swap_with_slice(&mut y[..size]);
                }
            },
        );
    }

    /// Sorts the table offsets from `offsets[mark..]` by their key, as flatc does.
    fn sort_tables(&mut self, key: &Field, mark: usize) {
        let data = self.b.finished_data();
        let slot = usize::from(key.slot);
        let offs = &mut self.s.offsets[mark..];
        let table = |o: Offset<()>| data.len() - o.value() as usize;
        let cell = std::cell::RefCell::new(offs);
        match key.ty {
            Ty::String | Ty::Far(Far::String) => {
                let far = key.ty != Ty::String;
                let key_of = |o: Offset<()>| {
                    built_field(data, table(o), slot).map(|p| {
                        let s = p + if far {
                            u64::from_le_bytes(arr(data, p)) as usize
                        } else {
                            u32::from_le_bytes(arr(data, p)) as usize
                        };
                        let len = u32::from_le_bytes(arr(data, s)) as usize;
                        &data[s + 4..s + 4 + len]
                    })
                };
                let len = cell.borrow().len();
                sort_like_flatc(
                    len,
                    |a, b| {
                        let offs = cell.borrow();
                        match (key_of(offs[a]), key_of(offs[b])) {
                            (Some(x), Some(y)) => x < y,
                            (x, _) => x.is_some(),
                        }
                    },
                    |a, b| cell.borrow_mut().swap(a, b),
                );
            }
            Ty::Scalar(sc, _) => {
                let default = key.default;
                let key_of = |o: Offset<()>| {
                    built_field(data, table(o), slot).map_or(default, |p| sc.read(data, p))
                };
                let len = cell.borrow().len();
                sort_like_flatc(
                    len,
                    |a, b| {
                        let offs = cell.borrow();
                        scalar_less(sc, key_of(offs[a]), key_of(offs[b]))
                    },
                    |a, b| cell.borrow_mut().swap(a, b),
                );
            }
            _ => {}
        }
    }

    /// Parses the values of a vector of unions of union `u`, typed by `types` (`sc`s, as raw bits);
    /// returns its offset.
    fn union_vector(&mut self, f: &Field, sc: Sc, u: u32, types: &[u64]) -> R<u32> {
        let non_empty = self.open_array()?;
        let mark = self.s.offsets.len();
        let mut i = 0;
        if non_empty {
            loop {
                self.ws()?;
                let Some(&ty) = types.get(i) else {
                    return Err(self.err_at(
                        self.pos,
                        ParseErrorKind::UnionTypesTooShort(f.name.to_string()),
                    ));
                };
                let off = self.union_value(f, sc, u, ty)?;
                self.s.offsets.push(Offset::new(off));
                i += 1;
                if !self.next_item(b']')? {
                    break;
                }
            }
        }
        let r = self.b.create_vector_of_offsets(&self.s.offsets[mark..]);
        self.s.offsets.truncate(mark);
        self.track_align(4);
        self.build(r).map(Offset::value)
    }

    /// Parses any JSON value as a FlexBuffer and writes it as a `[ubyte]` aligned to 8, as flatc
    /// does.
    #[inline(always)]
    fn flex(&mut self) -> R<u32> {
        let mut fb = std::mem::take(&mut self.s.flex);
        fb.clear();
        let r = self.flex_value(&mut fb).and_then(|()| {
            let r = self.b.create_nested_flatbuffer(fb.finish(), 8);
            self.build(r)
        });
        self.s.flex = fb;
        self.track_align(8);
        r.map(Offset::value)
    }

    /// Parses one value into `fb`. Each value counts toward the depth limit, scalars too, as in
    /// flatc.
    fn flex_value(&mut self, fb: &mut FlexBuilder) -> R<()> {
        self.ws()?;
        self.enter()?;
        let at = self.pos;
        match self.peek() {
            open @ (b'{' | b'[') => {
                self.pos += 1;
                let close = if open == b'{' { b'}' } else { b']' };
                let start = fb.start();
                self.ws()?;
                if self.peek() == close {
                    self.pos += 1;
                } else {
                    loop {
                        self.ws()?;
                        if open == b'{' {
                            let key = self.key()?;
                            fb.key(self.str_bytes(key));
                            self.expect(b':', "`:`")?;
                        }
                        self.flex_value(fb)?;
                        if !self.next_item(close)? {
                            break;
                        }
                    }
                }
                if open == b'[' {
                    fb.end_vector(start);
                } else if !fb.end_map(start) {
                    return Err(self.err_at(
                        at,
                        ParseErrorKind::DuplicateField("(a key of this map)".into()),
                    ));
                }
            }
            b'"' | b'\'' => {
                let s = self.string()?;
                fb.string(self.str_bytes(s));
            }
            b'n' | b'i' | b'+' | b'-' if self.at_nan_or_inf() => {
                // `nan`, `inf`, `infinity`, signed or not, are doubles, as in flatc (`-nan` too
                // is the positive quiet NaN).
                self.pos += usize::from(!is_ident_start(self.peek()));
                let (_, b) = self.ident();
                let bits = self.number_text(&self.src[at..b], Sc::F64, at)?;
                fb.double(f64::from_bits(bits));
            }
            c if c.is_ascii_digit() || matches!(c, b'+' | b'-' | b'.') => {
                let (a, b, is_float) = self.number()?;
                let sc = if is_float { Sc::F64 } else { Sc::I64 };
                let bits = self
                    .number_text(&self.src[a..b], sc, at)
                    .map_err(|e| match e.kind {
                        ParseErrorKind::OutOfRange { value, .. } => {
                            self.err_at(at, ParseErrorKind::FlexIntegerRange(value))
                        }
                        _ => e,
                    })?;
                if is_float {
                    fb.double(f64::from_bits(bits));
                } else {
                    fb.int(bits as i64);
                }
            }
            c if is_ident_start(c) => {
                let (a, b) = self.ident();
                match &self.src[a..b] {
                    b"true" => fb.bool(true),
                    b"false" => fb.bool(false),
                    b"null" => fb.null(),
                    _ => {
                        self.pos = at;
                        return Err(self.unexpected("a JSON value"));
                    }
                }
            }
            _ => return Err(self.unexpected("a JSON value")),
        }
        self.depth -= 1;
        Ok(())
    }

    /// Whether the token at the current position is `nan`, `inf` or `infinity`, maybe signed
    /// (flatc's words for special floats in a FlexBuffer; other spellings are not values there).
    fn at_nan_or_inf(&self) -> bool {
        let rest = &self.src[self.pos..];
        let word = match rest.first() {
            Some(b'+' | b'-') => &rest[1..],
            _ => rest,
        };
        let len = word.iter().take_while(|&&c| is_ident(c)).count();
        matches!(&word[..len], b"nan" | b"inf" | b"infinity")
    }

    /// Parses a nested flatbuffer given as an object (built as a buffer of its own, then copied
    /// in as flatc does), or as bytes when allowed.
    fn nested(&mut self, f: &Field, t: u32) -> R<u32> {
        if self.peek() == b'[' {
            if !self.opts.nested_bytes {
                return Err(self.unexpected(
                    "an object (nested flatbuffers given as bytes need --json-nested-bytes)",
                ));
            }
            let bytes = Elem::Scalar(Sc::U8, None);
            return if let Ty::Far(Far::Nested64(_)) = f.ty {
                self.vector64(f, bytes)
            } else {
                self.vector(f, bytes)
            };
        }
        // flatc skips the nested object once before it parses it, and its skipper counts every
        // value toward the depth limit (a table's scalars and vectors too): skip it as well, for
        // the same limit. Not again inside it: the skipper's depth at any point is at least the
        // parser's, so the outer skip passing means every inner one would; skipping at each level
        // would cost time quadratic in the nesting (with a raised depth limit).
        let outer_skipped = self.in_skipped;
        if !outer_skipped {
            let back = self.pos;
            self.skip_value()?;
            self.pos = back;
        }
        self.in_skipped = true;
        let mut nb = self.s.nested.pop().unwrap_or_default();
        nb.reset();
        nb.set_force_defaults(self.opts.force_defaults);
        nb.set_max_size(self.opts.max_size);
        std::mem::swap(self.b, &mut nb);
        let outer_align = std::mem::replace(&mut self.align, 1);
        let root = self.table(t);
        self.in_skipped = outer_skipped;
        let finished = root.and_then(|r| {
            let done = self.b.finish(Offset::<()>::new(r), None).map(|_| ());
            self.build(done)
        });
        let inner_align = std::mem::replace(&mut self.align, outer_align).max(4);
        std::mem::swap(self.b, &mut nb);
        let result = finished.and_then(|()| {
            let bytes = nb.finished_data();
            let r = if let Ty::Far(Far::Nested64(_)) = f.ty {
                write_vector64(self.b, bytes, bytes.len(), 1, inner_align)
            } else {
                self.b
                    .create_nested_flatbuffer(bytes, inner_align)
                    .map(Offset::value)
            };
            self.build(r)
        });
        self.track_align(inner_align);
        self.s.nested.push(nb);
        result
    }
}

/// Adds a 64-bit offset to the object at `target` to the open table, as flatc's `AddOffset` of an
/// `Offset64` does. Out of line: such fields are rare, and the common ones are added faster
/// without this code.
#[inline(never)]
fn add_offset64(b: &mut Builder, slot: usize, target: u32) -> Result<(), BuildError> {
    b.add_offset64(slot, Offset64::<()>::new(target.into()))
}

/// Writes a vector with a 64-bit length (`vector64`) of `count` elements of `size` bytes, `data`
/// in order, as flatc lays it out: the elements aligned to `align` and to 8 (an empty vector
/// aligns none), right after the length, which is therefore 8-aligned too. Returns its offset.
/// Written where the JSON has it, as flatc's parser writes it: the runtime's [`Builder::far`],
/// which keeps such vectors in a region before everything else, would refuse most of them.
fn write_vector64(
    b: &mut Builder,
    data: &[u8],
    count: usize,
    size: usize,
    align: usize,
) -> Result<u32, BuildError> {
    b.start_vector(count, size, align.max(8))?;
    push_rev(b, data);
    // The builder made room for a 32-bit length after the elements. The high half of the 64-bit
    // one goes there (zero: a buffer stays under 2 GiB), then the room of an empty vector (which
    // needs no padding, being 4-aligned already) takes the low half.
    b.push(0u32);
    b.start_vector(0, 1, 1)?;
    Ok(b.end_vector::<u8>(count).value())
}

/// Whether number text that failed as an integer looks like a float (for the error message).
fn is_float_text(text: &[u8]) -> bool {
    let t = match text.first() {
        Some(b'+' | b'-') => &text[1..],
        _ => text,
    };
    let hex = t.len() > 1 && t[0] == b'0' && t[1] | 0x20 == b'x';
    !hex && t.iter().any(|&c| c == b'.' || c | 0x20 == b'e')
}

/// Adds a scalar given as raw bits to the open table. A NaN is written even when the default is
/// NaN, as flatc's builder compares with `==`.
fn add_scalar(
    b: &mut Builder,
    slot: usize,
    sc: Sc,
    bits: u64,
    default: u64,
    always: bool,
) -> Result<(), BuildError> {
    let always = always || (sc.is_float() && f64::from_bits(bits).is_nan());
    macro_rules! add {
        ($t:ty, $v:expr, $d:expr) => {
            if always {
                b.add_scalar_always::<$t>(slot, $v)
            } else {
                b.add_scalar::<$t>(slot, $v, $d)
            }
        };
    }
    match sc {
        // A bool is the byte given (flatc stores `2` as 2), its default 0 or 1.
        Sc::Bool => add!(u8, bits as u8, default as u8),
        Sc::I8 => add!(i8, bits as i8, default as i8),
        Sc::U8 => add!(u8, bits as u8, default as u8),
        Sc::I16 => add!(i16, bits as i16, default as i16),
        Sc::U16 => add!(u16, bits as u16, default as u16),
        Sc::I32 => add!(i32, bits as i32, default as i32),
        Sc::U32 => add!(u32, bits as u32, default as u32),
        Sc::I64 => add!(i64, bits as i64, default as i64),
        Sc::U64 => add!(u64, bits, default),
        Sc::F32 => add!(
            f32,
            f64::from_bits(bits) as f32,
            f64::from_bits(default) as f32
        ),
        Sc::F64 => add!(f64, f64::from_bits(bits), f64::from_bits(default)),
    }
}

/// Which fields of an object were given.
struct Seen {
    small: u64,
    big: Vec<bool>,
}

impl Seen {
    fn new(n: usize) -> Seen {
        Seen {
            small: 0,
            big: if n > 64 { vec![false; n] } else { Vec::new() },
        }
    }

    /// Marks field `i`; false if it was marked already.
    #[inline]
    fn insert(&mut self, i: usize) -> bool {
        if self.big.is_empty() {
            let bit = 1u64 << i;
            let new = self.small & bit == 0;
            self.small |= bit;
            new
        } else {
            !std::mem::replace(&mut self.big[i], true)
        }
    }

    #[inline]
    fn contains(&self, i: usize) -> bool {
        if self.big.is_empty() {
            self.small & (1u64 << i) != 0
        } else {
            self.big[i]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{heap_sort, same_bytes, simple_qsort, sort_like_flatc, special_bytes, SPECIAL};
    use proptest::prelude::*;
    use std::cell::RefCell;

    /// A sort over `less` and `swap` on indices.
    type Sort = fn(usize, &mut dyn FnMut(usize, usize) -> bool, &mut dyn FnMut(usize, usize));

    /// Sorts `keys` with `sort` through `less`/`swap` on indices, as the parser sorts elements.
    fn sorted_with(keys: &[f64], sort: Sort) -> Vec<f64> {
        let v = RefCell::new(keys.to_vec());
        sort(
            keys.len(),
            &mut |a, b| v.borrow()[a] < v.borrow()[b],
            &mut |a, b| v.borrow_mut().swap(a, b),
        );
        v.into_inner()
    }

    proptest! {
        #[test]
        fn every_sort_orders_keys_as_flatcs_quicksort_when_they_are_distinct(
            keys in proptest::collection::vec(-50i32..50, 0..1500),
        ) {
            let mut expected: Vec<f64> = keys.iter().map(|&k| f64::from(k)).collect();
            expected.sort_by(f64::total_cmp);
            let keys: Vec<f64> = keys.iter().map(|&k| f64::from(k)).collect();
            let heap = sorted_with(&keys, |n, l, s| heap_sort(n, l, s));
            let flatc = sorted_with(&keys, |n, l, s| sort_like_flatc(n, l, s));
            prop_assert_eq!(&heap, &expected);
            prop_assert_eq!(&flatc, &expected);
            let mut distinct = expected.clone();
            distinct.dedup();
            if distinct.len() == keys.len() {
                let qsort = sorted_with(&keys, |n, l, s| simple_qsort(n, l, s));
                prop_assert_eq!(&qsort, &expected);
            }
        }

        #[test]
        fn nan_keys_do_not_break_the_sorts(
            keys in proptest::collection::vec(prop_oneof![Just(f64::NAN), -9.0f64..9.0], 0..1500),
        ) {
            // `less` is not a strict weak order here: any order of the same elements will do.
            let bits = |v: &[f64]| {
                let mut b: Vec<u64> = v.iter().map(|k| k.to_bits()).collect();
                b.sort_unstable();
                b
            };
            for sort in [
                (|n, l, s| heap_sort(n, l, s)) as Sort,
                |n, l, s| sort_like_flatc(n, l, s),
            ] {
                prop_assert_eq!(bits(&sorted_with(&keys, sort)), bits(&keys));
            }
        }
    }

    #[test]
    fn special_bytes_finds_the_first_special_byte_of_every_word() {
        // Every byte value at every position, before every byte value at every later position
        // (borrows run upwards), in a word of plain text.
        for p in 0..8 {
            for v in 0..=255u8 {
                for q in p + 1..=8 {
                    for v2 in 0..=255u8 {
                        let mut w = *b"abcdefgh";
                        w[p] = v;
                        if q < 8 {
                            w[q] = v2;
                        } else if v2 > 0 {
                            break;
                        }
                        let first = w.iter().position(|&c| SPECIAL[usize::from(c)]);
                        let got = special_bytes(u64::from_le_bytes(w)).trailing_zeros() / 8;
                        assert_eq!(got as usize, first.unwrap_or(8), "{w:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn same_bytes_is_slice_equality_at_every_length() {
        let base: Vec<u8> = (b'a'..=b'z').collect();
        for n in 0..=20 {
            let a = &base[..n];
            let copy = base[..n].to_vec();
            assert!(same_bytes(a, &copy), "{n}");
            assert!(!same_bytes(a, &base[..n + 1]), "{n}");
            for i in 0..n {
                let mut b = a.to_vec();
                b[i] ^= 1;
                assert!(!same_bytes(a, &b), "{n} {i}");
            }
        }
    }
}
