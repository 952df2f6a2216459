//! The verifier: checks that untrusted bytes form a well-formed FlatBuffer before any view reads them.
//!
//! [`Verifier`] holds the buffer and the budgets (depth, table count, apparent size) and checks single
//! objects: [`offset`](Verifier::offset), [`table`](Verifier::table), [`string`](Verifier::string),
//! [`vector_raw`](Verifier::vector_raw), [`vector`](Verifier::vector) and
//! [`nested`](Verifier::nested) buffers, and for `offset64` / `vector64` fields
//! [`offset64`](Verifier::offset64) and [`vector64_raw`](Verifier::vector64_raw);
//! [`follow_table`](Verifier::follow_table), [`follow_string`](Verifier::follow_string) and
//! [`follow_vector`](Verifier::follow_vector) check an offset and its object in one step, with fewer
//! tests. [`TableVerifier`] checks one table's fields.
//! Generated code drives these through the [`Verify`] trait, one `verify_at` per table type; a schema
//! walker calls the same methods with sizes and alignments taken from the schema model.
//!
//! The checks are written for the code they inline into: error paths call cold functions that take
//! plain values (so the verifier's counters stay in registers), and the path of a valid buffer makes
//! no call that returns to it, except in rare cases: strings of 64 bytes or more or with non-ASCII
//! bytes (whose UTF-8 check is worth a call) and misaligned objects when alignment is not checked.
//!
//! What a successful check guarantees is spelt out per method: it is exactly what the matching
//! [`Follow`](crate::Follow) implementation relies on to read without further checks.
//!
//! Every buffer this verifier accepts, Google's C++ verifier accepts too (a test mutates buffers
//! and compares), except that the C++ verifier also checks the FlexBuffer in a `flexbuffer` field,
//! which is bytes (`[ubyte]`) here: a FlexBuffer reader checks it as it reads. Some buffers the
//! C++ verifier accepts are refused here, because views rely on more: strings must be UTF-8
//! (views hand out `&str`); a table must lie in the buffer as its vtable sizes it, and each field
//! inside the table; a vtable must hold at least its 4-byte header and a table its 4-byte vtable
//! offset; a vector's elements must be aligned to their size; an offset in a vector may not be 0
//! (it would point at itself); and a union's type and value must both be present or both absent.
//! flatc never writes buffers that break these rules, except the last through its JSON parser (a
//! union type without a value), which the official Rust crate refuses too.

use crate::error::{Error, ErrorKind, Object};
use crate::scalar::{read_scalar_unchecked, Scalar, Struct};
use crate::view::{Far, Follow, Indirect, Table, Vector, Vector64};

/// The largest buffer this crate builds or verifies: 32-bit offsets are signed. Buffers with
/// 64-bit offsets (`offset64`, `vector64`) could be larger; this crate keeps the cap for them too.
///
/// ```
/// use flatforge::{BuildError, MAX_BUFFER_SIZE};
/// assert_eq!(MAX_BUFFER_SIZE, (1 << 31) - 1);
/// let mut b = flatforge::Builder::new();
/// b.set_max_size(usize::MAX); // clamped to the cap
/// let err = b.start_vector(MAX_BUFFER_SIZE + 1, 1, 1).unwrap_err();
/// let requested = MAX_BUFFER_SIZE as u64 + 1;
/// assert_eq!(err, BuildError::BufferTooLarge { requested, limit: MAX_BUFFER_SIZE });
/// ```
pub const MAX_BUFFER_SIZE: usize = i32::MAX as usize;

/// Limits and root-level expectations for verification.
///
/// ```
/// use flatforge::VerifierOptions;
/// let opts = VerifierOptions::default()
///     .with_max_depth(16)
///     .with_file_identifier(*b"MONS");
/// assert_eq!(opts.max_depth, 16);
/// assert_eq!(opts.max_tables, 1_000_000);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct VerifierOptions {
    /// How deeply tables (and nested flatbuffers) may nest. Default 64.
    pub max_depth: u32,
    /// How many tables one verification may visit. Default 1,000,000.
    pub max_tables: u32,
    /// How many bytes of tables, strings and vectors one verification may visit, counting shared
    /// objects each time they are reached. Default 2 GiB.
    pub max_apparent_size: usize,
    /// Whether to check that objects are aligned to their natural alignment relative to the buffer
    /// start (views never need it: reads are unaligned loads). Default true.
    pub check_alignment: bool,
    /// The file identifier the root must carry (bytes 4..8 after any size prefix), if any. Default
    /// none.
    pub file_identifier: Option<[u8; 4]>,
    /// Whether the buffer starts with a size prefix (32-bit, unless `size_prefix64`). Default
    /// false.
    pub size_prefixed: bool,
    /// With `size_prefixed`: whether the size prefix is 64-bit, as C++'s `FlatBufferBuilder64`
    /// writes it (and code generated for schemas with 64-bit offsets expects). Default false.
    pub size_prefix64: bool,
    /// Whether a union's type may be one the schema does not list: a member added by a newer
    /// version of the schema, which schema evolution allows. Its value is not checked (its type is
    /// not known) and views read it as absent, while the union's type field still tells its type.
    /// Default true, as flatc's C++ and Rust verifiers do; false rejects it
    /// ([`ErrorKind::UnknownUnionType`]), for readers that must understand every value.
    pub unknown_union_types: bool,
}

impl VerifierOptions {
    /// The defaults, usable in `const` context.
    ///
    /// ```
    /// use flatforge::VerifierOptions;
    /// static OPTS: VerifierOptions = VerifierOptions::DEFAULT;
    /// assert_eq!(OPTS, VerifierOptions::default());
    /// assert_eq!((OPTS.max_depth, OPTS.check_alignment, OPTS.file_identifier), (64, true, None));
    /// ```
    pub const DEFAULT: VerifierOptions = VerifierOptions {
        max_depth: 64,
        max_tables: 1_000_000,
        max_apparent_size: 1 << 31,
        check_alignment: true,
        file_identifier: None,
        size_prefixed: false,
        size_prefix64: false,
        unknown_union_types: true,
    };

    /// Sets [`max_depth`](Self::max_depth).
    ///
    /// ```
    /// use flatforge::{ErrorKind, Table, VerifierOptions};
    /// // A table in a table in a table.
    /// let mut b = flatforge::Builder::new();
    /// b.start_table();
    /// let mut t = b.end_table()?;
    /// for _ in 0..2 {
    ///     b.start_table();
    ///     b.add_offset(0, t)?;
    ///     t = b.end_table()?;
    /// }
    /// let root: Table = flatforge::root(b.finish(t, None)?)?;
    /// let read = |depth| root.get_with_options::<Table>(0, &VerifierOptions::default().with_max_depth(depth))?
    ///     .unwrap().get_with_options::<Table>(0, &VerifierOptions::default().with_max_depth(depth));
    /// assert!(read(2).is_ok());
    /// assert_eq!(read(1).unwrap_err().kind(), &ErrorKind::DepthLimitExceeded { limit: 1 });
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn with_max_depth(mut self, max_depth: u32) -> Self {
        self.max_depth = max_depth;
        self
    }

    /// Sets [`max_tables`](Self::max_tables).
    ///
    /// ```
    /// use flatforge::{ErrorKind, Table, Vector, VerifierOptions};
    /// let mut b = flatforge::Builder::new();
    /// let mut tables = Vec::new();
    /// for _ in 0..3 {
    ///     b.start_table();
    ///     tables.push(b.end_table()?);
    /// }
    /// let v = b.create_vector_of_offsets(&tables)?;
    /// let bytes = b.finish(v, None)?;
    /// let opts = VerifierOptions::default().with_max_tables(2);
    /// let err = flatforge::root_with_options::<Vector<Table>>(bytes, &opts).unwrap_err();
    /// assert_eq!(err.kind(), &ErrorKind::TableLimitExceeded { limit: 2 });
    /// assert_eq!(err.path_string(), "[2]");
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn with_max_tables(mut self, max_tables: u32) -> Self {
        self.max_tables = max_tables;
        self
    }

    /// Sets [`max_apparent_size`](Self::max_apparent_size).
    ///
    /// ```
    /// use flatforge::{ErrorKind, Vector, VerifierOptions};
    /// // One string of 100 bytes, referred to 10 times.
    /// let mut b = flatforge::Builder::new();
    /// let s = b.create_string(&"x".repeat(100))?;
    /// let v = b.create_vector_of_offsets(&[s; 10])?;
    /// let bytes = b.finish(v, None)?;
    /// assert!(bytes.len() < 200);
    /// assert!(flatforge::root::<Vector<&str>>(bytes).is_ok());
    /// let opts = VerifierOptions::default().with_max_apparent_size(500);
    /// let err = flatforge::root_with_options::<Vector<&str>>(bytes, &opts).unwrap_err();
    /// assert_eq!(err.kind(), &ErrorKind::ApparentSizeLimitExceeded { limit: 500 });
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn with_max_apparent_size(mut self, max_apparent_size: usize) -> Self {
        self.max_apparent_size = max_apparent_size;
        self
    }

    /// Sets [`check_alignment`](Self::check_alignment).
    ///
    /// ```
    /// use flatforge::{ErrorKind, Object, VerifierOptions};
    /// // From a writer that does not align: the string starts at 5.
    /// let bytes = [5u8, 0, 0, 0, 0, 2, 0, 0, 0, b'h', b'i', 0];
    /// let err = flatforge::root::<&str>(&bytes).unwrap_err();
    /// assert_eq!(err.kind(), &ErrorKind::Unaligned { object: Object::String, align: 4 });
    /// let lenient = VerifierOptions::default().with_check_alignment(false);
    /// assert_eq!(flatforge::root_with_options::<&str>(&bytes, &lenient)?, "hi");
    /// # Ok::<(), flatforge::Error>(())
    /// ```
    pub fn with_check_alignment(mut self, check_alignment: bool) -> Self {
        self.check_alignment = check_alignment;
        self
    }

    /// Sets [`unknown_union_types`](Self::unknown_union_types).
    ///
    /// ```
    /// use flatforge::{Builder, ErrorKind, Table, Verifier, VerifierOptions, Verify};
    /// // `table T { u: U; }` where a newer schema's `union U { A, B, C }` wrote a `C` (type 3),
    /// // read with the older `union U { A, B }`.
    /// let mut b = Builder::new();
    /// b.start_table();
    /// let c = b.end_table()?;
    /// b.start_table();
    /// b.add_scalar::<u8>(0, 3, 0)?;
    /// b.add_offset(1, c)?;
    /// let t = b.end_table()?;
    /// let bytes = b.finish(t, None)?.to_vec();
    /// let check = |opts: &VerifierOptions| {
    ///     let mut v = Verifier::new(&bytes, opts);
    ///     let root = v.root()?;
    ///     let mut t = v.follow_table(root)?;
    ///     t.union(0, 1, "u", false, |v, ty, pos| match ty {
    ///         1 | 2 => Some(Table::verify_at(v, pos)),
    ///         _ => None,
    ///     })
    /// };
    /// check(&VerifierOptions::default())?; // accepted, as by flatc's verifiers
    /// let strict = VerifierOptions::default().with_unknown_union_types(false);
    /// assert_eq!(check(&strict).unwrap_err().kind(), &ErrorKind::UnknownUnionType { value: 3 });
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn with_unknown_union_types(mut self, allow: bool) -> Self {
        self.unknown_union_types = allow;
        self
    }

    /// Sets [`file_identifier`](Self::file_identifier).
    ///
    /// ```
    /// use flatforge::{ErrorKind, VerifierOptions};
    /// let mut b = flatforge::Builder::new();
    /// let s = b.create_string("x")?;
    /// let bytes = b.finish(s, Some(b"MONS"))?;
    /// let mons = VerifierOptions::default().with_file_identifier(*b"MONS");
    /// assert_eq!(flatforge::root_with_options::<&str>(bytes, &mons)?, "x");
    /// let other = VerifierOptions::default().with_file_identifier(*b"WEAP");
    /// let err = flatforge::root_with_options::<&str>(bytes, &other).unwrap_err();
    /// assert_eq!(err.kind(), &ErrorKind::FileIdentifierMismatch { expected: *b"WEAP", found: *b"MONS" });
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn with_file_identifier(mut self, file_identifier: [u8; 4]) -> Self {
        self.file_identifier = Some(file_identifier);
        self
    }

    /// Sets [`size_prefixed`](Self::size_prefixed) (a 32-bit prefix).
    ///
    /// ```
    /// use flatforge::VerifierOptions;
    /// // Two size-prefixed messages back to back, as in a stream.
    /// let mut stream = Vec::new();
    /// let mut b = flatforge::Builder::new();
    /// for text in ["first", "second"] {
    ///     b.reset();
    ///     let s = b.create_string(text)?;
    ///     stream.extend_from_slice(b.finish_size_prefixed(s, None)?);
    /// }
    /// let opts = VerifierOptions::default().with_size_prefixed(true);
    /// assert_eq!(flatforge::root_with_options::<&str>(&stream, &opts)?, "first");
    /// let len = 4 + u32::from_le_bytes(stream[..4].try_into()?) as usize;
    /// assert_eq!(flatforge::root_with_options::<&str>(&stream[len..], &opts)?, "second");
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn with_size_prefixed(mut self, size_prefixed: bool) -> Self {
        self.size_prefixed = size_prefixed;
        self.size_prefix64 = false;
        self
    }

    /// Sets [`size_prefixed`](Self::size_prefixed) with a 64-bit prefix
    /// ([`size_prefix64`](Self::size_prefix64)).
    ///
    /// ```
    /// let opts = flatforge::VerifierOptions::default().with_size_prefixed64(true);
    /// assert!(opts.size_prefixed && opts.size_prefix64);
    /// ```
    pub fn with_size_prefixed64(mut self, size_prefixed: bool) -> Self {
        self.size_prefixed = size_prefixed;
        self.size_prefix64 = size_prefixed;
        self
    }
}

impl Default for VerifierOptions {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// A type whose stored form can be verified: scalars, structs, strings, vectors, tables.
///
/// The stored form is `SIZE` bytes inline (in a table field or a vector element), aligned to `ALIGN`;
/// for strings, vectors and tables those inline bytes are an offset to the object.
///
/// Generated code implements this for each table type (with [`Verifier::table`] and the
/// [`TableVerifier`] field checks); the crate implements it for the other types.
///
/// ```
/// use flatforge::{Error, Verifier, Verify};
///
/// /// table Person { name: string (required); age: int; }
/// struct Person;
/// impl Verify for Person {
///     const SIZE: usize = 4;
///     const ALIGN: usize = 4;
///     const TYPE_NAME: &'static str = "Person";
///     fn verify_at(v: &mut Verifier<'_>, pos: usize) -> Result<(), Error> {
///         let mut t = v.follow_table(pos)?;
///         t.field::<&str>(0, "name", true)?;
///         t.field::<i32>(1, "age", false)
///     }
/// }
///
/// let mut b = flatforge::Builder::new();
/// b.start_table();
/// b.add_scalar::<i32>(1, 42, 0)?;
/// let nameless = b.end_table()?;
/// let bytes = b.finish(nameless, None)?;
/// let mut v = Verifier::new(bytes, &flatforge::VerifierOptions::default());
/// let root = v.root()?;
/// let err = Person::verify_at(&mut v, root).unwrap_err().in_root(Person::TYPE_NAME);
/// assert_eq!(err.to_string(), "required field is missing at byte 12 in Person.name");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub trait Verify {
    /// Inline size in bytes.
    ///
    /// ```
    /// use flatforge::{Far, Table, Verify};
    /// assert_eq!(<u16 as Verify>::SIZE, 2);
    /// assert_eq!(<Table as Verify>::SIZE, 4); // an offset
    /// assert_eq!(<Far<&str> as Verify>::SIZE, 8); // a 64-bit offset
    /// ```
    const SIZE: usize;
    /// Inline alignment.
    ///
    /// ```
    /// use flatforge::{Struct, Verify};
    /// #[derive(Clone, Copy)]
    /// #[repr(transparent)]
    /// struct Vec3([u8; 12]); // struct Vec3 { x: float; y: float; z: float; }
    /// // SAFETY: a transparent wrapper of [u8; 12].
    /// unsafe impl Struct for Vec3 { const ALIGN: usize = 4; }
    /// assert_eq!((<&Vec3 as Verify>::SIZE, <&Vec3 as Verify>::ALIGN), (12, 4));
    /// assert_eq!(<f64 as Verify>::ALIGN, 8);
    /// ```
    const ALIGN: usize;
    /// A name for error paths when this type is the root (tables set it; others leave it empty).
    ///
    /// ```
    /// use flatforge::{Table, Verify};
    /// assert_eq!(<&str as Verify>::TYPE_NAME, "");
    /// assert_eq!(<Table as Verify>::TYPE_NAME, ""); // untyped: generated tables name themselves
    /// ```
    const TYPE_NAME: &'static str = "";
    /// Verifies the value stored at `pos`, whose `SIZE` inline bytes the caller has checked to lie in
    /// the buffer (and be aligned): for offsets, follows them and verifies the target.
    ///
    /// ```
    /// use flatforge::{Vector, Verifier, VerifierOptions, Verify};
    /// let mut b = flatforge::Builder::new();
    /// let v = b.create_vector(&[1u32, 2])?;
    /// let bytes = b.finish(v, None)?;
    /// let mut v = Verifier::new(bytes, &VerifierOptions::default());
    /// let root = v.root()?; // checks that the root offset's 4 bytes are there
    /// <Vector<u32>>::verify_at(&mut v, root)?; // follows the offset, checks the vector
    /// assert!(<Vector<u64>>::verify_at(&mut v, root).is_err());
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    fn verify_at(v: &mut Verifier<'_>, pos: usize) -> Result<(), Error>;

    /// [`verify_at`](Self::verify_at) for the root of a buffer, which [`root`](crate::root) and
    /// [`root_with_options`](crate::root_with_options) call. Generated code for a table with no
    /// table below it inlines its checks here, so that opening a buffer whose root is such a table
    /// (a stream's message, say) costs no call, while its `verify_at`, called once per element of a
    /// vector of such tables, stays an ordinary inlining candidate (forcing it into the loop of a
    /// vector's elements made that loop slower).
    ///
    /// An implementation must accept exactly what `verify_at` accepts: [`root`](crate::root)
    /// reads the value with [`Follow::follow`] once this method has accepted it.
    ///
    /// ```
    /// use flatforge::{Verifier, VerifierOptions, Verify};
    /// let mut b = flatforge::Builder::new();
    /// let s = b.create_string("root")?;
    /// let bytes = b.finish(s, None)?;
    /// let mut v = Verifier::new(bytes, &VerifierOptions::default());
    /// let root = v.root()?;
    /// <&str>::verify_root_at(&mut v, root)?; // the default: verify_at
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline(always)]
    fn verify_root_at(v: &mut Verifier<'_>, pos: usize) -> Result<(), Error> {
        Self::verify_at(v, pos)
    }
}

/// Checks objects of one buffer against the configured budgets.
///
/// Positions are byte offsets into [`buffer`](Self::buffer); errors report them relative to the
/// outermost buffer even inside [nested](Self::nested) flatbuffers.
///
/// ```
/// use flatforge::{Builder, Verifier, VerifierOptions};
/// let mut b = Builder::new();
/// let s = b.create_string("hi")?;
/// let bytes = b.finish(s, None)?.to_vec();
///
/// let mut v = Verifier::new(&bytes, &VerifierOptions::default());
/// let root = v.root()?; // position of the root offset
/// let target = v.offset(root)?;
/// assert_eq!(v.string(target)?, "hi");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Verifier<'a> {
    buf: &'a [u8],
    base: usize,
    /// How many more levels tables may nest (counts down from `max_depth`, so that the hot path
    /// compares with zero and `max_depth` is only read for an error).
    depth_left: u32,
    max_depth: u32,
    tables_left: u32,
    max_tables: u32,
    size_left: usize,
    max_apparent_size: usize,
    /// Read only once a position turned out misaligned (see `check_alignment`).
    check_alignment: bool,
    file_identifier: Option<[u8; 4]>,
    /// The size prefix's width: 0 (none), 4 or 8.
    size_prefix: usize,
    unknown_union_types: bool,
}

impl<'a> Verifier<'a> {
    /// A verifier over `buf` with the limits of `opts`.
    ///
    /// ```
    /// use flatforge::{Builder, ErrorKind, Verifier, VerifierOptions};
    /// let mut b = Builder::new();
    /// let s = b.create_string("hi")?;
    /// let bytes = b.finish(s, Some(b"GRTS"))?;
    ///
    /// let opts = VerifierOptions::default().with_file_identifier(*b"GRTS");
    /// let mut v = Verifier::new(bytes, &opts);
    /// let root = v.root()?;
    /// assert_eq!(v.follow_string(root)?, "hi");
    ///
    /// let mut v = Verifier::new(bytes, &opts.with_file_identifier(*b"BYES"));
    /// let err = v.root().unwrap_err();
    /// let kind = ErrorKind::FileIdentifierMismatch { expected: *b"BYES", found: *b"GRTS" };
    /// assert_eq!((err.kind(), err.offset()), (&kind, 4));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn new(buf: &'a [u8], opts: &VerifierOptions) -> Self {
        Verifier {
            buf,
            base: 0,
            depth_left: opts.max_depth,
            max_depth: opts.max_depth,
            tables_left: opts.max_tables,
            max_tables: opts.max_tables,
            size_left: opts.max_apparent_size,
            max_apparent_size: opts.max_apparent_size,
            check_alignment: opts.check_alignment,
            file_identifier: opts.file_identifier,
            size_prefix: match (opts.size_prefixed, opts.size_prefix64) {
                (false, _) => 0,
                (true, false) => 4,
                (true, true) => 8,
            },
            unknown_union_types: opts.unknown_union_types,
        }
    }

    /// The buffer being verified (inside [`nested`](Self::nested): the nested buffer; after a
    /// size-prefixed [`root`](Self::root): the buffer cut to the prefix's length).
    ///
    /// ```
    /// use flatforge::{Builder, Verifier, VerifierOptions};
    /// let mut b = Builder::new();
    /// let s = b.create_string("hi")?;
    /// let mut stream = b.finish_size_prefixed(s, None)?.to_vec();
    /// let message_len = stream.len();
    /// stream.extend_from_slice(b"the next message");
    ///
    /// let opts = VerifierOptions::default().with_size_prefixed(true);
    /// let mut v = Verifier::new(&stream, &opts);
    /// assert_eq!(v.buffer().len(), stream.len());
    /// v.root()?;
    /// assert_eq!(v.buffer(), &stream[..message_len]); // the prefix and the bytes it counts
    /// let inner = v.nested(4, 8, |v| Ok(v.buffer()))?;
    /// assert_eq!(inner, &stream[4..12]);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline]
    pub fn buffer(&self) -> &'a [u8] {
        self.buf
    }

    /// The error `kind` at `pos` of [`buffer`](Self::buffer), reported (as all errors are) at its
    /// offset from the start of the outermost buffer: for checks of a caller's own.
    ///
    /// Inlined, so that it reads `base` where the verifier is in registers; the cold function it
    /// calls takes plain values, so that no error path makes the verifier's address escape (which
    /// would keep its counters in memory on the hot path).
    ///
    /// ```
    /// use flatforge::{ErrorKind, Verifier, VerifierOptions};
    /// let bytes = [0u8; 16];
    /// let mut v = Verifier::new(&bytes, &VerifierOptions::default());
    /// let e = v.nested(8, 8, |v| Err::<(), _>(v.error(ErrorKind::StringNotTerminated, 2)));
    /// let e = e.unwrap_err();
    /// assert_eq!(e.offset(), 10);
    /// ```
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn error(&self, kind: ErrorKind, pos: usize) -> Error {
        new_error(kind, self.base + pos)
    }

    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn in_bounds(&self, pos: usize, size: usize) -> bool {
        // No addition: `pos` and `size` may come from a caller and be anywhere up to `usize::MAX`.
        size <= self.buf.len() && pos <= self.buf.len() - size
    }

    /// Checks that `size` bytes at `pos` lie inside the buffer.
    ///
    /// ```
    /// use flatforge::{ErrorKind, Object, Verifier, VerifierOptions};
    /// // A schema walker checking a 12-byte struct before reading it.
    /// let bytes = [0u8; 16];
    /// let v = Verifier::new(&bytes, &VerifierOptions::default());
    /// v.check_range(Object::Inline, 4, 12)?;
    /// let err = v.check_range(Object::Inline, 8, 12).unwrap_err();
    /// let kind = ErrorKind::OutOfBounds { object: Object::Inline, size: 12, len: 16 };
    /// assert_eq!((err.kind(), err.offset()), (&kind, 8));
    /// // Positions and sizes from untrusted data do not overflow.
    /// assert!(v.check_range(Object::Inline, usize::MAX, 2).is_err());
    /// # Ok::<(), flatforge::Error>(())
    /// ```
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn check_range(&self, object: Object, pos: usize, size: usize) -> Result<(), Error> {
        if self.in_bounds(pos, size) {
            Ok(())
        } else {
            Err(self.out_of_bounds(object, pos, size as u64))
        }
    }

    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn out_of_bounds(&self, object: Object, pos: usize, size: u64) -> Error {
        let len = self.buf.len();
        self.error(ErrorKind::OutOfBounds { object, size, len }, pos)
    }

    /// Checks that `pos` is a multiple of `align` (a power of two; 0 is taken as 1), unless
    /// alignment checks are off.
    ///
    /// ```
    /// use flatforge::{ErrorKind, Object, Verifier, VerifierOptions};
    /// let bytes = [0u8; 16];
    /// let v = Verifier::new(&bytes, &VerifierOptions::default());
    /// v.check_alignment(Object::Inline, 8, 8)?;
    /// let err = v.check_alignment(Object::Inline, 4, 8).unwrap_err();
    /// let kind = ErrorKind::Unaligned { object: Object::Inline, align: 8 };
    /// assert_eq!((err.kind(), err.offset()), (&kind, 4));
    ///
    /// let lenient = VerifierOptions::default().with_check_alignment(false);
    /// Verifier::new(&bytes, &lenient).check_alignment(Object::Inline, 4, 8)?;
    /// # Ok::<(), flatforge::Error>(())
    /// ```
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn check_alignment(&self, object: Object, pos: usize, align: usize) -> Result<(), Error> {
        // The option is only looked at for a misaligned position: aligned ones (all of them, in
        // buffers from a builder) cost one test of the position, with no register for the flag. The
        // mask saturates for an `align` of 0 (from a caller; constants fold).
        if pos & align.saturating_sub(1) != 0 {
            return misaligned(self.check_alignment, object, self.base + pos, align);
        }
        Ok(())
    }

    /// Whether alignment is checked ([`VerifierOptions::check_alignment`]): for checks of a
    /// caller's own whose alignment is not counted from the buffer's start.
    ///
    /// ```
    /// use flatforge::{Verifier, VerifierOptions};
    /// let opts = VerifierOptions::default();
    /// assert!(Verifier::new(&[], &opts).checks_alignment());
    /// assert!(!Verifier::new(&[], &opts.with_check_alignment(false)).checks_alignment());
    /// ```
    #[inline]
    pub fn checks_alignment(&self) -> bool {
        self.check_alignment
    }

    /// Counts `bytes` of an object at `pos` against the apparent-size budget
    /// ([`VerifierOptions::max_apparent_size`]); an error once the budget is spent. The object
    /// checks here do it themselves; a caller checks its own objects with it.
    ///
    /// ```
    /// use flatforge::{ErrorKind, Verifier, VerifierOptions};
    /// let opts = VerifierOptions::default().with_max_apparent_size(100);
    /// let mut v = Verifier::new(&[0u8; 8], &opts);
    /// v.charge(60, 0)?;
    /// let e = v.charge(60, 4).unwrap_err();
    /// assert_eq!((e.kind(), e.offset()), (&ErrorKind::ApparentSizeLimitExceeded { limit: 100 }, 4));
    /// # Ok::<(), flatforge::Error>(())
    /// ```
    #[inline]
    pub fn charge(&mut self, bytes: usize, pos: usize) -> Result<(), Error> {
        if bytes > self.size_left {
            let limit = self.max_apparent_size;
            return Err(self.error(ErrorKind::ApparentSizeLimitExceeded { limit }, pos));
        }
        self.size_left -= bytes;
        Ok(())
    }

    /// Checks the buffer header: the size limit, the size prefix and file identifier when the options
    /// ask for them, and room for the root offset. Returns the position of the root offset (0, or
    /// after a size prefix the prefix's width, 4 or 8); follow it with [`offset`](Self::offset) or
    /// `T::verify_at`.
    ///
    /// With a size prefix, the verifier's buffer is cut to the length the prefix gives.
    ///
    /// ```
    /// use flatforge::{Builder, ErrorKind, Verifier, VerifierOptions};
    /// let mut b = Builder::new();
    /// let s = b.create_string("hi")?;
    /// let bytes = b.finish_size_prefixed(s, None)?;
    /// assert_eq!(bytes.len(), 16);
    ///
    /// let opts = VerifierOptions::default().with_size_prefixed(true);
    /// let mut v = Verifier::new(bytes, &opts);
    /// let root = v.root()?;
    /// assert_eq!(root, 4);
    /// assert_eq!(v.follow_string(root)?, "hi");
    ///
    /// // A message cut short: the prefix promises 12 bytes, 11 follow.
    /// let err = Verifier::new(&bytes[..15], &opts).root().unwrap_err();
    /// let kind = ErrorKind::SizePrefixTooLarge { size: 12, available: 11 };
    /// assert_eq!((err.kind(), err.offset()), (&kind, 0));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn root(&mut self) -> Result<usize, Error> {
        let len = self.buf.len();
        if len > MAX_BUFFER_SIZE {
            return Err(self.error(ErrorKind::BufferTooLarge { len }, 0));
        }
        let start = self.size_prefix;
        // The root offset and the file identifier: what the size prefix must leave room for.
        let header = if self.file_identifier.is_some() { 8 } else { 4 };
        if start != 0 {
            if len < start {
                let min = start + header;
                return Err(self.error(ErrorKind::BufferTooShort { len, min }, 0));
            }
            // SAFETY: `len >= start`, 4 or 8, was just checked.
            let size = unsafe {
                if start == 8 {
                    read_scalar_unchecked::<u64>(self.buf, 0)
                } else {
                    u64::from(read_scalar_unchecked::<u32>(self.buf, 0))
                }
            };
            let available = len - start;
            if size > available as u64 {
                let size = usize::try_from(size).unwrap_or(usize::MAX);
                return Err(self.error(ErrorKind::SizePrefixTooLarge { size, available }, 0));
            }
            // `size <= available`, so it fits a `usize`.
            let size = size as usize;
            if size < header {
                let kind = ErrorKind::SizePrefixTooSmall { size, min: header };
                return Err(self.error(kind, 0));
            }
            self.buf = &self.buf[..start + size];
        } else if len < header {
            return Err(self.error(ErrorKind::BufferTooShort { len, min: header }, 0));
        }
        if let Some(expected) = self.file_identifier {
            let mut found = [0; 4];
            found.copy_from_slice(&self.buf[start + 4..start + 8]);
            if found != expected {
                let kind = ErrorKind::FileIdentifierMismatch { expected, found };
                return Err(self.error(kind, start + 4));
            }
        }
        Ok(start)
    }

    /// Checks the 32-bit offset stored at `pos` (in bounds, aligned, non-zero, not past `i32::MAX`,
    /// pointing inside the buffer) and returns the position it points to.
    ///
    /// ```
    /// use flatforge::{Builder, ErrorKind, Verifier, VerifierOptions};
    /// let mut b = Builder::new();
    /// let s = b.create_string("hi")?;
    /// let mut bytes = b.finish(s, None)?.to_vec();
    /// assert_eq!(bytes, [4, 0, 0, 0, 2, 0, 0, 0, b'h', b'i', 0, 0]);
    /// assert_eq!(Verifier::new(&bytes, &VerifierOptions::default()).offset(0)?, 4);
    ///
    /// bytes[0] = 12; // one past the end
    /// let err = Verifier::new(&bytes, &VerifierOptions::default()).offset(0).unwrap_err();
    /// assert_eq!((err.kind(), err.offset()), (&ErrorKind::OffsetOutOfBounds { value: 12 }, 0));
    /// bytes[0] = 0; // an offset to itself
    /// let err = Verifier::new(&bytes, &VerifierOptions::default()).offset(0).unwrap_err();
    /// assert_eq!(err.kind(), &ErrorKind::InvalidOffset { value: 0 });
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn offset(&self, pos: usize) -> Result<usize, Error> {
        self.check_range(Object::Offset, pos, 4)?;
        self.check_alignment(Object::Offset, pos, 4)?;
        // SAFETY: `pos + 4 <= len` was just checked.
        let value = unsafe { read_scalar_unchecked::<u32>(self.buf, pos) };
        // Zero wraps to `u32::MAX`: one comparison rejects 0 and everything past `i32::MAX`.
        if value.wrapping_sub(1) >= i32::MAX as u32 {
            return Err(self.error(ErrorKind::InvalidOffset { value }, pos));
        }
        let target = pos as u64 + u64::from(value);
        if target >= self.buf.len() as u64 {
            let value = value.into();
            return Err(self.error(ErrorKind::OffsetOutOfBounds { value }, pos));
        }
        Ok(target as usize)
    }

    /// The first checks of [`follow_table`](Self::follow_table), [`follow_string`](Self::follow_string)
    /// and [`follow_vector`](Self::follow_vector): [`offset`](Self::offset) at `pos`, then at the
    /// target the alignment and bounds of the 4 bytes every such object starts with, with the errors
    /// of those calls in the same order. But the alignment of `pos` is not checked again: `pos` is
    /// the position of an inline value, which the caller checked (as for [`Verify::verify_at`]);
    /// and `target + 4 <= len` is tested once, which `target < len` follows from (that test is
    /// made only to tell which error it is).
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn follow_offset(&self, object: Object, pos: usize) -> Result<usize, Error> {
        self.check_range(Object::Offset, pos, 4)?;
        // SAFETY: `pos + 4 <= len` was just checked.
        let value = unsafe { read_scalar_unchecked::<u32>(self.buf, pos) };
        if value.wrapping_sub(1) >= i32::MAX as u32 {
            return Err(self.error(ErrorKind::InvalidOffset { value }, pos));
        }
        // `pos + 4 <= len <= isize::MAX` and `value < 2^31`: the sum does not overflow.
        let target = pos + value as usize;
        // `len >= 4`, as `pos + 4 <= len`.
        if target > self.buf.len() - 4 {
            let (len, check) = (self.buf.len(), self.check_alignment);
            return Err(follow_error(
                len, check, object, self.base, pos, value, target,
            ));
        }
        self.check_alignment(object, target, 4)?;
        Ok(target)
    }

    /// Checks the offset at `pos` and the table it points to: [`offset`](Self::offset), then
    /// [`table`](Self::table) at the target, with the same errors, for the position of an inline
    /// value that the caller checked to be in the buffer and aligned (as the caller of
    /// [`Verify::verify_at`] does): its alignment is not checked again.
    ///
    /// ```
    /// use flatforge::{Builder, Verifier, VerifierOptions};
    /// let mut b = Builder::new();
    /// b.start_table();
    /// b.add_scalar::<u8>(0, 7, 0)?;
    /// let t = b.end_table()?;
    /// let bytes = b.finish(t, None)?.to_vec();
    ///
    /// let mut v = Verifier::new(&bytes, &VerifierOptions::default());
    /// let root = v.root()?;
    /// let mut t = v.follow_table(root)?;
    /// assert_eq!(t.field_position(0, 1, 1)?.map(|p| bytes[p]), Some(7));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn follow_table(&mut self, pos: usize) -> Result<TableVerifier<'_, 'a>, Error> {
        let target = self.follow_offset(Object::Table, pos)?;
        self.table_header(target)
    }

    /// Checks the 64-bit offset stored at `pos` (of an `offset64` or `vector64` field) as C++'s
    /// `VerifyOffset<uoffset64_t>` does: in bounds, 8-aligned, non-zero, not negative as a signed
    /// offset, pointing inside the buffer. Returns the position it points to.
    ///
    /// ```
    /// use flatforge::{ErrorKind, Verifier, VerifierOptions};
    /// let mut bytes = [0u8; 24];
    /// bytes[8..16].copy_from_slice(&12u64.to_le_bytes());
    /// let v = Verifier::new(&bytes, &VerifierOptions::default());
    /// assert_eq!(v.offset64(8)?, 20);
    /// assert_eq!(v.offset64(0).unwrap_err().kind(), &ErrorKind::InvalidOffset { value: 0 });
    /// assert!(v.offset64(4).is_err()); // not 8-aligned
    /// bytes[8..16].copy_from_slice(&16u64.to_le_bytes());
    /// let v = Verifier::new(&bytes, &VerifierOptions::default());
    /// assert_eq!(v.offset64(8).unwrap_err().kind(), &ErrorKind::OffsetOutOfBounds { value: 16 });
    /// # Ok::<(), flatforge::Error>(())
    /// ```
    #[inline]
    pub fn offset64(&self, pos: usize) -> Result<usize, Error> {
        self.check_range(Object::Offset, pos, 8)?;
        self.check_alignment(Object::Offset, pos, 8)?;
        // SAFETY: `pos + 8 <= len` was just checked.
        let value = unsafe { read_scalar_unchecked::<u64>(self.buf, pos) };
        if value == 0 {
            return Err(self.error(ErrorKind::InvalidOffset { value: 0 }, pos));
        }
        // `pos + 8 <= len`, so the room left is positive; a value past `i64::MAX` is past it too,
        // and shows as the negative offset C++ reads it as.
        if value >= (self.buf.len() - pos) as u64 {
            let value = value as i64;
            return Err(self.error(ErrorKind::OffsetOutOfBounds { value }, pos));
        }
        Ok(pos + value as usize)
    }

    /// Checks the header of the table at `pos` and counts it against the depth and table budgets.
    ///
    /// On success: `pos` is 4-aligned, `pos + 4` and the table's inline size lie in the buffer, its
    /// vtable (at `pos` minus the signed offset stored there) is 2-aligned, its size is even, at least
    /// 4 and in the buffer. Check the fields with the returned [`TableVerifier`]; the depth is given
    /// back when it is dropped.
    ///
    /// ```
    /// use flatforge::{Builder, ErrorKind, Table, Verifier, VerifierOptions};
    /// let mut b = Builder::new();
    /// b.start_table();
    /// b.add_scalar::<u32>(0, 7, 0)?;
    /// let t = b.end_table()?;
    /// let mut bytes = b.finish(t, None)?.to_vec();
    ///
    /// let mut v = Verifier::new(&bytes, &VerifierOptions::default());
    /// let root = v.root()?;
    /// let pos = v.offset(root)?;
    /// let t = v.table(pos)?;
    /// assert_eq!((t.position(), t.size()), (pos, 8)); // the vtable offset and the u32
    /// drop(t); // gives the depth back
    ///
    /// // A vtable whose table size is too small for the vtable offset.
    /// let vtable = Table::new(&bytes, pos)?.vtable();
    /// bytes[vtable + 2] = 2;
    /// let err = Verifier::new(&bytes, &VerifierOptions::default()).table(pos).unwrap_err();
    /// let kind = ErrorKind::InvalidTableSize { size: 2 };
    /// assert_eq!((err.kind(), err.offset()), (&kind, vtable + 2));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn table(&mut self, pos: usize) -> Result<TableVerifier<'_, 'a>, Error> {
        self.check_alignment(Object::Table, pos, 4)?;
        self.check_range(Object::Table, pos, 4)?;
        self.table_header(pos)
    }

    /// [`table`](Self::table) after its first checks: `pos` is 4-aligned (when alignment is
    /// checked) and `pos + 4 <= len`.
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn table_header(&mut self, pos: usize) -> Result<TableVerifier<'_, 'a>, Error> {
        // SAFETY: the caller checked `pos + 4 <= len`.
        let soffset = unsafe { read_scalar_unchecked::<i32>(self.buf, pos) };
        // A negative position wraps to a huge u64, so one comparison checks both ends; `len >= 4`
        // (checked above), so `len - 4` cannot underflow, and nothing is added to the huge value.
        let vtable = (pos as i64 - i64::from(soffset)) as u64;
        if vtable > self.buf.len() as u64 - 4 {
            return Err(vtable_error(self.buf.len(), self.base, pos, soffset));
        }
        let vtable = vtable as usize;
        self.check_alignment(Object::Vtable, vtable, 2)?;
        // SAFETY: `vtable + 4 <= len` was just checked.
        let (vt_len, size) = unsafe {
            (
                read_scalar_unchecked::<u16>(self.buf, vtable),
                read_scalar_unchecked::<u16>(self.buf, vtable + 2),
            )
        };
        if vt_len < 4 || vt_len & 1 != 0 {
            return Err(self.error(ErrorKind::InvalidVtableSize { size: vt_len }, vtable));
        }
        // `vtable` and `pos` are at most `len - 4 < isize::MAX`, and sizes are 16-bit: the sums
        // below do not overflow (so `check_range`'s care for arbitrary arguments is not needed).
        if vtable + usize::from(vt_len) > self.buf.len() {
            return Err(self.out_of_bounds(Object::Vtable, vtable, vt_len.into()));
        }
        if size < 4 {
            return Err(self.error(ErrorKind::InvalidTableSize { size }, vtable + 2));
        }
        if pos + usize::from(size) > self.buf.len() {
            return Err(self.out_of_bounds(Object::Table, pos, size.into()));
        }
        if self.depth_left == 0 {
            let limit = self.max_depth;
            return Err(self.error(ErrorKind::DepthLimitExceeded { limit }, pos));
        }
        if self.tables_left == 0 {
            let limit = self.max_tables;
            return Err(self.error(ErrorKind::TableLimitExceeded { limit }, pos));
        }
        self.tables_left -= 1;
        self.depth_left -= 1;
        Ok(TableVerifier {
            v: self,
            pos,
            vtable,
            vt_len: vt_len.into(),
            size: size.into(),
        })
    }

    /// Checks the string at `pos`: 4-aligned length, bytes and NUL terminator in the buffer, UTF-8.
    /// Returns it.
    ///
    /// ```
    /// use flatforge::{Builder, ErrorKind, Verifier, VerifierOptions};
    /// let mut b = Builder::new();
    /// let s = b.create_string("héllo")?;
    /// let mut bytes = b.finish(s, None)?.to_vec();
    /// let mut v = Verifier::new(&bytes, &VerifierOptions::default());
    /// let root = v.root()?;
    /// let pos = v.offset(root)?;
    /// assert_eq!(v.string(pos)?, "héllo");
    ///
    /// assert_eq!(bytes[pos + 4..pos + 7], *"hé".as_bytes());
    /// bytes[pos + 6] = b'!'; // the second byte of 'é'
    /// let err = Verifier::new(&bytes, &VerifierOptions::default()).string(pos).unwrap_err();
    /// let kind = ErrorKind::InvalidUtf8 { valid_up_to: 1 };
    /// assert_eq!((err.kind(), err.offset()), (&kind, pos + 4 + 1)); // where 'é' starts
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn string(&mut self, pos: usize) -> Result<&'a str, Error> {
        self.check_alignment(Object::String, pos, 4)?;
        self.check_range(Object::StringLength, pos, 4)?;
        self.string_body(pos)
    }

    /// Checks the offset at `pos` and the string it points to: [`offset`](Self::offset), then
    /// [`string`](Self::string) at the target, with the same errors, for the position of an inline
    /// value that the caller checked (see [`follow_table`](Self::follow_table)).
    ///
    /// ```
    /// use flatforge::{Builder, Verifier, VerifierOptions};
    /// let mut b = Builder::new();
    /// let s = b.create_string("hi")?;
    /// let bytes = b.finish(s, None)?.to_vec();
    ///
    /// let mut v = Verifier::new(&bytes, &VerifierOptions::default());
    /// let root = v.root()?;
    /// assert_eq!(v.follow_string(root)?, "hi");
    /// assert!(Verifier::new(&bytes[..9], &VerifierOptions::default()).follow_string(root).is_err());
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn follow_string(&mut self, pos: usize) -> Result<&'a str, Error> {
        let target = self.follow_offset(Object::String, pos)?;
        self.string_body(target)
    }

    /// [`string`](Self::string) after its first checks: `pos` is 4-aligned (when alignment is
    /// checked) and `pos + 4 <= len`.
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn string_body(&mut self, pos: usize) -> Result<&'a str, Error> {
        // SAFETY: the caller checked `pos + 4 <= len`.
        let len = unsafe { read_scalar_unchecked::<u32>(self.buf, pos) } as usize;
        // `len <= u32::MAX`, and `pos + 4 <= buf.len() <= isize::MAX`, so on 64-bit targets the sum
        // cannot overflow; on 32-bit ones `checked_add` catches it.
        let end = pos as u64 + 4 + len as u64;
        if end >= self.buf.len() as u64 {
            return Err(self.out_of_bounds(Object::String, pos, len as u64 + 5));
        }
        let end = end as usize;
        let bytes = &self.buf[pos + 4..end];
        if self.buf[end] != 0 {
            return Err(self.error(ErrorKind::StringNotTerminated, end));
        }
        self.charge(len + 5, pos)?;
        // Short strings are mostly ASCII, and a word-at-a-time ASCII test beats setting up SIMD.
        if !(len < 64 && is_short_ascii(bytes)) {
            utf8(bytes, self.base + pos + 4)?;
        }
        // SAFETY: `bytes` is ASCII or passed `utf8`.
        Ok(unsafe { core::str::from_utf8_unchecked(bytes) })
    }

    /// Checks the vector at `pos` whose elements are `elem_size` bytes aligned to `align`: a 4-aligned
    /// length, the elements in the buffer and aligned. Returns the position of the first element and
    /// the element count. The elements themselves are not looked at.
    ///
    /// ```
    /// use flatforge::{Builder, ErrorKind, Object, Verifier, VerifierOptions};
    /// let mut b = Builder::new();
    /// let v = b.create_vector(&[1u32, 2, 3])?;
    /// let bytes = b.finish(v, None)?;
    ///
    /// // A schema walker knows the element size and alignment only at run time.
    /// let mut v = Verifier::new(bytes, &VerifierOptions::default());
    /// let root = v.root()?;
    /// let pos = v.offset(root)?;
    /// let (data, len) = v.vector_raw(pos, 4, 4)?;
    /// assert_eq!((data, len), (pos + 4, 3));
    /// assert_eq!(bytes[data + 4..data + 8], 2u32.to_le_bytes());
    ///
    /// // As 3 structs of 12 bytes, it would need 4 + 36 bytes.
    /// let err = v.vector_raw(pos, 12, 4).unwrap_err();
    /// let kind = ErrorKind::OutOfBounds { object: Object::Vector, size: 40, len: bytes.len() };
    /// assert_eq!((err.kind(), err.offset()), (&kind, pos));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn vector_raw(
        &mut self,
        pos: usize,
        elem_size: usize,
        align: usize,
    ) -> Result<(usize, usize), Error> {
        self.check_alignment(Object::Vector, pos, 4)?;
        self.check_range(Object::VectorLength, pos, 4)?;
        self.vector_body(pos, elem_size, align)
    }

    /// [`vector_raw`](Self::vector_raw) after its first checks: `pos` is 4-aligned (when alignment
    /// is checked) and `pos + 4 <= len`.
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn vector_body(
        &mut self,
        pos: usize,
        elem_size: usize,
        align: usize,
    ) -> Result<(usize, usize), Error> {
        // SAFETY: the caller checked `pos + 4 <= len`.
        let len = unsafe { read_scalar_unchecked::<u32>(self.buf, pos) } as usize;
        let data = pos + 4;
        // `elem_size` may come from a caller: the product must not wrap.
        let bytes = match (len as u64).checked_mul(elem_size as u64) {
            Some(bytes) if bytes <= (self.buf.len() - data) as u64 => bytes,
            bytes => {
                let size = bytes.map_or(u64::MAX, |b| b.saturating_add(4));
                return Err(self.out_of_bounds(Object::Vector, pos, size));
            }
        };
        if align > 4 {
            self.check_alignment(Object::Vector, data, align)?;
        }
        self.charge(bytes as usize + 4, pos)?;
        Ok((data, len))
    }

    /// Checks the vector with a 64-bit length (a `vector64` field's) at `pos` whose elements are
    /// `elem_size` bytes aligned to `align`: an 8-aligned length, the elements in the buffer (so
    /// right after the length, 8-aligned; a larger `align` is checked too). Returns the position of
    /// the first element and the element count, and charges the apparent-size budget as
    /// [`vector_raw`](Self::vector_raw) does. Every element counts as at least a byte in the bounds
    /// check, so that the count is below the buffer's length and fits a `usize`.
    ///
    /// ```
    /// use flatforge::{Builder, Verifier, VerifierOptions};
    /// let mut b = Builder::new();
    /// let v = b.far()?.create_vector64(&[1u16, 2, 3])?;
    /// let bytes = b.finished_data().to_vec();
    /// let pos = bytes.len() - v.value() as usize;
    /// let mut v = Verifier::new(&bytes, &VerifierOptions::default());
    /// assert_eq!(v.vector64_raw(pos, 2, 2)?, (pos + 8, 3));
    /// assert!(v.vector64_raw(pos, 4, 4).is_err()); // 3 * 4 bytes are not there
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline]
    pub fn vector64_raw(
        &mut self,
        pos: usize,
        elem_size: usize,
        align: usize,
    ) -> Result<(usize, usize), Error> {
        self.check_alignment(Object::Vector, pos, 8)?;
        self.check_range(Object::VectorLength, pos, 8)?;
        // SAFETY: `pos + 8 <= len` was just checked.
        let len = unsafe { read_scalar_unchecked::<u64>(self.buf, pos) };
        let bounded = len
            .checked_mul(elem_size.max(1) as u64)
            .and_then(|b| b.checked_add(8))
            .and_then(|b| usize::try_from(b).ok())
            .unwrap_or(usize::MAX);
        if !self.in_bounds(pos, bounded) {
            return Err(self.out_of_bounds(Object::Vector, pos, bounded as u64));
        }
        // In bounds: `len` and the byte count are below the buffer's length.
        let (data, len) = (pos + 8, len as usize);
        if align > 8 {
            self.check_alignment(Object::Vector, data, align)?;
        }
        self.charge(len * elem_size + 8, pos)?;
        Ok((data, len))
    }

    /// Checks the vector at `pos` as a vector of `T`: the [raw](Self::vector_raw) checks, then each
    /// element with `T::verify_at` (a no-op for scalars and structs). Returns the element count.
    ///
    /// ```
    /// use flatforge::{Builder, ErrorKind, Verifier, VerifierOptions};
    /// let mut b = Builder::new();
    /// let names = [b.create_string("ann")?, b.create_string("bob")?];
    /// let v = b.create_vector_of_offsets(&names)?;
    /// let mut bytes = b.finish(v, None)?.to_vec();
    ///
    /// let mut v = Verifier::new(&bytes, &VerifierOptions::default());
    /// let root = v.root()?;
    /// let pos = v.offset(root)?;
    /// assert_eq!(v.vector::<&str>(pos)?, 2);
    ///
    /// let at = bytes.windows(4).position(|w| w == b"bob\0").unwrap() + 3;
    /// bytes[at] = b'!'; // the NUL after "bob"
    /// let mut v = Verifier::new(&bytes, &VerifierOptions::default());
    /// let err = v.vector::<&str>(pos).unwrap_err();
    /// assert_eq!((err.kind(), err.offset()), (&ErrorKind::StringNotTerminated, at));
    /// assert_eq!(err.path_string(), "[1]");
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn vector<T: Verify + ?Sized>(&mut self, pos: usize) -> Result<usize, Error> {
        let (data, len) = self.vector_raw(pos, T::SIZE, T::ALIGN)?;
        self.vector_elements::<T>(data, len)
    }

    /// Checks the offset at `pos` and the vector of `T` it points to: [`offset`](Self::offset), then
    /// [`vector::<T>`](Self::vector) at the target, with the same errors, for the position of an
    /// inline value that the caller checked (see [`follow_table`](Self::follow_table)).
    ///
    /// ```
    /// use flatforge::{Builder, Verifier, VerifierOptions};
    /// let mut b = Builder::new();
    /// let v = b.create_vector(&[1u16, 2, 3])?;
    /// let bytes = b.finish(v, None)?.to_vec();
    ///
    /// let mut v = Verifier::new(&bytes, &VerifierOptions::default());
    /// let root = v.root()?;
    /// assert_eq!(v.follow_vector::<u16>(root)?, 3);
    /// assert!(v.follow_vector::<u64>(root).is_err()); // 3 * 8 bytes are not there
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn follow_vector<T: Verify + ?Sized>(&mut self, pos: usize) -> Result<usize, Error> {
        let target = self.follow_offset(Object::Vector, pos)?;
        let (data, len) = self.vector_body(target, T::SIZE, T::ALIGN)?;
        self.vector_elements::<T>(data, len)
    }

    /// Checks the `len` elements at `data` with `T::verify_at`.
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn vector_elements<T: Verify + ?Sized>(
        &mut self,
        data: usize,
        len: usize,
    ) -> Result<usize, Error> {
        // Stepping a position (rather than an index) leaves one register less in use; the index is
        // only computed for an error, out of line.
        let end = data + len * T::SIZE;
        let mut pos = data;
        while pos < end {
            T::verify_at(self, pos).map_err(|e| in_element(e, data, pos, T::SIZE))?;
            pos += T::SIZE;
        }
        Ok(len)
    }

    /// Runs `f` on the `len` bytes at `pos` as a buffer of its own (a nested flatbuffer): positions
    /// inside `f` are relative to `pos`, budgets are shared, and the nesting counts as one level of
    /// depth.
    ///
    /// ```
    /// use flatforge::{Builder, ErrorKind, Verifier, VerifierOptions};
    /// let mut inner = Builder::new();
    /// let s = inner.create_string("inner")?;
    /// let inner = inner.finish(s, None)?;
    /// let mut b = Builder::new();
    /// let nested = b.create_nested_flatbuffer(inner, 8)?; // a `[ubyte]` holding `inner`
    /// let mut bytes = b.finish(nested, None)?.to_vec();
    ///
    /// let mut v = Verifier::new(&bytes, &VerifierOptions::default());
    /// let root = v.root()?;
    /// let pos = v.offset(root)?;
    /// let (data, len) = v.vector_raw(pos, 1, 1)?;
    /// let check = |v: &mut Verifier<'_>| {
    ///     let root = v.root()?; // 0: positions are relative to the nested buffer
    ///     v.follow_string(root).map(str::len)
    /// };
    /// assert_eq!(v.nested(data, len, check)?, 5);
    ///
    /// // Errors are reported at their offset in the outermost buffer.
    /// let at = data + 4 + 4 + 5;
    /// assert_eq!(bytes[at - 5..=at], *b"inner\0");
    /// bytes[at] = b'!';
    /// let mut v = Verifier::new(&bytes, &VerifierOptions::default());
    /// let err = v.nested(data, len, check).unwrap_err();
    /// assert_eq!((err.kind(), err.offset()), (&ErrorKind::StringNotTerminated, at));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn nested<R>(
        &mut self,
        pos: usize,
        len: usize,
        f: impl FnOnce(&mut Verifier<'a>) -> Result<R, Error>,
    ) -> Result<R, Error> {
        self.check_range(Object::Vector, pos, len)?;
        if self.depth_left == 0 {
            let limit = self.max_depth;
            return Err(self.error(ErrorKind::DepthLimitExceeded { limit }, pos));
        }
        let outer = self.buf;
        self.buf = &outer[pos..pos + len];
        self.base += pos;
        self.depth_left -= 1;
        let result = f(self);
        self.depth_left += 1;
        self.base -= pos;
        self.buf = outer;
        result
    }

    /// Checks a nested flatbuffer root: room for the root offset, then `T` at position 0. For use
    /// inside [`nested`](Self::nested).
    ///
    /// ```
    /// use flatforge::{Builder, ErrorKind, Table, Verifier, VerifierOptions};
    /// let mut inner = Builder::new();
    /// let s = inner.create_string("inner")?;
    /// let inner = inner.finish(s, None)?;
    /// let mut b = Builder::new();
    /// let nested = b.create_nested_flatbuffer(inner, 8)?;
    /// let bytes = b.finish(nested, None)?;
    ///
    /// let mut v = Verifier::new(bytes, &VerifierOptions::default());
    /// let root = v.root()?;
    /// let pos = v.offset(root)?;
    /// let (data, len) = v.vector_raw(pos, 1, 1)?;
    /// v.nested(data, len, |v| v.nested_root::<&str>())?;
    /// // As a table, the string's length (5) is the offset to a vtable before the buffer.
    /// let err = v.nested(data, len, |v| v.nested_root::<Table>()).unwrap_err();
    /// let kind = ErrorKind::OffsetOutOfBounds { value: 5 };
    /// assert_eq!((err.kind(), err.offset()), (&kind, data + 4));
    /// let err = v.nested(data, 3, |v| v.nested_root::<&str>()).unwrap_err();
    /// assert_eq!(err.kind(), &ErrorKind::BufferTooShort { len: 3, min: 4 });
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn nested_root<T: Verify + ?Sized>(&mut self) -> Result<(), Error> {
        let len = self.buf.len();
        if len < 4 {
            return Err(self.error(ErrorKind::BufferTooShort { len, min: 4 }, 0));
        }
        T::verify_at(self, 0)
    }
}

/// Checks the fields of one table; made by [`Verifier::table`].
///
/// Field methods take the field's slot (its id in the schema), its name for error paths, and whether
/// it is required; an absent optional field passes.
///
/// ```
/// use flatforge::{Builder, ErrorKind, Verifier, VerifierOptions};
/// // table Monster {
/// //     name: string (required); hp: short = 100; gold: uint; guild: string (required);
/// // }
/// let mut b = Builder::new();
/// let name = b.create_string("Orc")?;
/// b.start_table();
/// b.add_offset(0, name)?;
/// b.add_scalar::<i16>(1, 80, 100)?;
/// let orc = b.end_table()?;
/// let bytes = b.finish(orc, None)?;
///
/// let mut v = Verifier::new(bytes, &VerifierOptions::default().with_max_depth(1));
/// let root = v.root()?;
/// let pos = v.offset(root)?;
/// let mut t = v.table(pos)?; // takes a level of depth
/// t.field::<&str>(0, "name", true)?;
/// t.field::<i16>(1, "hp", false)?;
/// t.field::<u32>(2, "gold", false)?; // absent, and optional
/// let err = t.field::<&str>(3, "guild", true).unwrap_err();
/// assert_eq!((err.kind(), err.offset()), (&ErrorKind::MissingRequiredField, pos));
/// assert_eq!(err.path_string(), "guild");
/// drop(t); // gives the level back
/// v.table(pos)?;
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct TableVerifier<'v, 'a> {
    v: &'v mut Verifier<'a>,
    pos: usize,
    vtable: usize,
    vt_len: usize,
    size: usize,
}

impl Drop for TableVerifier<'_, '_> {
    #[inline]
    fn drop(&mut self) {
        self.v.depth_left += 1;
    }
}

impl<'a> TableVerifier<'_, 'a> {
    /// The table's position.
    ///
    /// ```
    /// use flatforge::{Builder, Verifier, VerifierOptions};
    /// let mut b = Builder::new();
    /// b.start_table();
    /// let t = b.end_table()?;
    /// let bytes = b.finish(t, None)?;
    ///
    /// let mut v = Verifier::new(bytes, &VerifierOptions::default());
    /// let root = v.root()?;
    /// let t = v.follow_table(root)?;
    /// let root_offset = u32::from_le_bytes(bytes[..4].try_into()?) as usize;
    /// assert_eq!(t.position(), root + root_offset);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The table's inline size from its vtable.
    ///
    /// ```
    /// use flatforge::{Builder, Table, Verifier, VerifierOptions};
    /// let mut b = Builder::new();
    /// b.start_table();
    /// b.add_scalar::<u32>(0, 1, 0)?;
    /// b.add_scalar::<u16>(1, 2, 0)?;
    /// let t = b.end_table()?;
    /// let bytes = b.finish(t, None)?;
    ///
    /// let mut v = Verifier::new(bytes, &VerifierOptions::default());
    /// let root = v.root()?;
    /// let t = v.follow_table(root)?;
    /// let vtable = Table::new(bytes, t.position())?.vtable();
    /// assert_eq!(bytes[vtable + 2..vtable + 4], (t.size() as u16).to_le_bytes());
    /// assert_eq!(t.size(), 4 + 4 + 2 + 2); // vtable offset, u32, u16, padding
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline]
    pub fn size(&self) -> usize {
        self.size
    }

    /// The verifier, to check what a field points to.
    ///
    /// ```
    /// use flatforge::{Builder, Verifier, VerifierOptions};
    /// let mut b = Builder::new();
    /// let title = b.create_string("Notes")?;
    /// b.start_table();
    /// b.add_offset(0, title)?;
    /// let t = b.end_table()?;
    /// let bytes = b.finish(t, None)?;
    ///
    /// let mut v = Verifier::new(bytes, &VerifierOptions::default());
    /// let root = v.root()?;
    /// let mut t = v.follow_table(root)?;
    /// let title = t.offset_field(0, "title", true)?.unwrap();
    /// let title = t.verifier().string(title).map_err(|e| e.in_field("title"))?;
    /// assert_eq!(title, "Notes");
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline]
    pub fn verifier(&mut self) -> &mut Verifier<'a> {
        self.v
    }

    /// The vtable entry of `slot`: the field's offset in the table, 0 if absent.
    ///
    /// ```
    /// use flatforge::{Builder, Verifier, VerifierOptions};
    /// let mut b = Builder::new();
    /// b.start_table();
    /// b.add_scalar::<u8>(1, 9, 0)?;
    /// let t = b.end_table()?;
    /// let bytes = b.finish(t, None)?;
    ///
    /// let mut v = Verifier::new(bytes, &VerifierOptions::default());
    /// let root = v.root()?;
    /// let t = v.follow_table(root)?;
    /// assert_eq!((t.voffset(0), t.voffset(2)), (0, 0)); // absent; past the vtable
    /// let voffset = t.voffset(1);
    /// assert!(voffset >= 4); // after the vtable offset
    /// assert_eq!(bytes[t.position() + usize::from(voffset)], 9);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn voffset(&self, slot: usize) -> u16 {
        // For a constant slot the test folds to one comparison with an immediate.
        if slot < self.vt_len / 2 && 6 + 2 * slot <= self.vt_len {
            // SAFETY: `Verifier::table` checked `vtable + vt_len <= len`, and the entry's two bytes
            // end at `vtable + 6 + 2 * slot <= vtable + vt_len`.
            unsafe { read_scalar_unchecked::<u16>(self.v.buf, self.vtable + 4 + 2 * slot) }
        } else {
            0
        }
    }

    /// Checks that the field in `slot`, if present, has `size` bytes inside the table, aligned to
    /// `align` (a power of two; 0 is taken as 1); returns its position.
    ///
    /// ```
    /// use flatforge::{Builder, ErrorKind, Table, Verifier, VerifierOptions};
    /// // struct Point { x: int; y: int; } in slot 0, its size known only at run time
    /// let mut b = Builder::new();
    /// b.start_table();
    /// b.add_bytes(0, &[1, 0, 0, 0, 2, 0, 0, 0], 4)?;
    /// let t = b.end_table()?;
    /// let bytes = b.finish(t, None)?;
    ///
    /// let mut v = Verifier::new(bytes, &VerifierOptions::default());
    /// let root = v.root()?;
    /// let t = v.follow_table(root)?;
    /// let p = t.field_position(0, 8, 4)?.unwrap();
    /// assert_eq!(bytes[p..p + 8], [1, 0, 0, 0, 2, 0, 0, 0]);
    /// assert_eq!(t.field_position(1, 8, 4)?, None);
    ///
    /// // 12 bytes (a struct with a z) do not fit in the table; the error is at the vtable entry.
    /// let err = t.field_position(0, 12, 4).unwrap_err();
    /// let kind = ErrorKind::FieldOutOfTable { voffset: 4, size: 12, table_size: 12 };
    /// let vtable = Table::new(bytes, t.position())?.vtable();
    /// assert_eq!((err.kind(), err.offset()), (&kind, vtable + 4));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn field_position(
        &self,
        slot: usize,
        size: usize,
        align: usize,
    ) -> Result<Option<usize>, Error> {
        let voffset = self.voffset(slot);
        let pos = self.pos + usize::from(voffset);
        // Fields of up to 4 bytes aligned to at most 4 are checked before their presence: an absent
        // field (voffset 0) passes both tests, as a table's size is at least 4 and it is 4-aligned.
        // So the presence test, which callers make anyway, is the only one left for absent fields,
        // and fields that need no more checks (scalars) need no presence test here.
        let small = size <= 4 && align <= 4;
        if small {
            self.check_in_table(slot, voffset, size)?;
            self.check_field_alignment(voffset, pos, align)?;
        }
        if voffset == 0 {
            return Ok(None);
        }
        if !small {
            self.check_in_table(slot, voffset, size)?;
            self.check_field_alignment(voffset, pos, align)?;
        }
        Ok(Some(pos))
    }

    /// Checks that `size` bytes at `voffset` lie in the table (the field in `slot`).
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn check_in_table(&self, slot: usize, voffset: u16, size: usize) -> Result<(), Error> {
        // `size` may come from a caller: the sum saturates rather than wrap. For a constant `size` it
        // is a plain addition (`voffset` is 16 bits).
        if usize::from(voffset).saturating_add(size) > self.size {
            let at = self.v.base + self.vtable + 4 + 2 * slot;
            return Err(field_out_of_table(at, voffset, size, self.size));
        }
        Ok(())
    }

    /// Checks the alignment of the field at `voffset`, `pos` in the buffer.
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn check_field_alignment(&self, voffset: u16, pos: usize, align: usize) -> Result<(), Error> {
        // When alignment is checked, the table is 4-aligned (`Verifier::table`), so up to that
        // alignment the field's offset in the table decides, and it is already in a register. (When
        // it is not checked, `check_alignment` accepts any position.)
        let low = if align <= 4 {
            usize::from(voffset)
        } else {
            pos
        };
        if low & align.saturating_sub(1) != 0 {
            self.v.check_alignment(Object::Inline, pos, align)?;
        }
        Ok(())
    }

    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn missing(&self, name: &str) -> Error {
        missing(self.v.base + self.pos, name)
    }

    /// Checks the field in `slot` as a `T`: its inline bytes in the table, then `T::verify_at`.
    ///
    /// ```
    /// use flatforge::{Builder, Error, ErrorKind, Verifier, VerifierOptions};
    /// // table Monster { name: string (required); }
    /// let mut b = Builder::new();
    /// let name = b.create_string("Orc")?;
    /// b.start_table();
    /// b.add_offset(0, name)?;
    /// let t = b.end_table()?;
    /// let mut bytes = b.finish(t, None)?.to_vec();
    ///
    /// let check = |bytes: &[u8]| -> Result<(), Error> {
    ///     let mut v = Verifier::new(bytes, &VerifierOptions::default());
    ///     let root = v.root()?;
    ///     let mut t = v.follow_table(root)?;
    ///     t.field::<&str>(0, "name", true)
    /// };
    /// check(&bytes)?;
    ///
    /// let at = bytes.windows(4).position(|w| w == b"Orc\0").unwrap() + 3;
    /// bytes[at] = b'!'; // the NUL after "Orc"
    /// let err = check(&bytes).unwrap_err();
    /// assert_eq!((err.kind(), err.offset()), (&ErrorKind::StringNotTerminated, at));
    /// assert_eq!(err.path_string(), "name");
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn field<T: Verify + ?Sized>(
        &mut self,
        slot: usize,
        name: &str,
        required: bool,
    ) -> Result<(), Error> {
        match self.inline_field(slot, T::SIZE, T::ALIGN, name, required)? {
            Some(pos) => T::verify_at(self.v, pos).map_err(|e| e.in_field(name)),
            None => Ok(()),
        }
    }

    /// Checks the field in `slot` as a `T` and reads it.
    ///
    /// ```
    /// use flatforge::{Builder, ErrorKind, Table, Verifier, VerifierOptions};
    /// // table Monster { name: string (required); hp: short = 100; weapon: Weapon (required); }
    /// let mut b = Builder::new();
    /// let name = b.create_string("Orc")?;
    /// b.start_table();
    /// b.add_offset(0, name)?;
    /// b.add_scalar::<i16>(1, 80, 100)?;
    /// let orc = b.end_table()?;
    /// let bytes = b.finish(orc, None)?;
    ///
    /// let mut v = Verifier::new(bytes, &VerifierOptions::default());
    /// let root = v.root()?;
    /// let mut t = v.follow_table(root)?;
    /// let name = t.field_value::<&str>(0, "name", true)?; // borrows `bytes`, not `t`
    /// let hp = t.field_value::<i16>(1, "hp", false)?.unwrap_or(100);
    /// assert_eq!((name, hp), (Some("Orc"), 80));
    ///
    /// let err = t.field_value::<Table>(2, "weapon", true).unwrap_err();
    /// assert_eq!((err.kind(), err.offset()), (&ErrorKind::MissingRequiredField, t.position()));
    /// assert_eq!(err.path_string(), "weapon");
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn field_value<T: Follow<'a>>(
        &mut self,
        slot: usize,
        name: &str,
        required: bool,
    ) -> Result<Option<T>, Error> {
        match self.inline_field(slot, T::SIZE, T::ALIGN, name, required)? {
            Some(pos) => {
                T::verify_at(self.v, pos).map_err(|e| e.in_field(name))?;
                // SAFETY: `T::verify_at` accepted `pos` in this buffer.
                Ok(Some(unsafe { T::follow(self.v.buf, pos) }))
            }
            None => Ok(None),
        }
    }

    /// Checks a field of `size` bytes aligned to `align` (a power of two; 0 is taken as 1), a struct
    /// or scalar known only at run time; returns its position.
    ///
    /// ```
    /// use flatforge::{Builder, ErrorKind, Verifier, VerifierOptions};
    /// // struct Vec2 { x: short; y: short; }
    /// // table Body { pos: Vec2 (required); vel: Vec2 (required); }
    /// let mut b = Builder::new();
    /// b.start_table();
    /// b.add_bytes(0, &[1, 0, 2, 0], 2)?;
    /// let t = b.end_table()?;
    /// let bytes = b.finish(t, None)?;
    ///
    /// let mut v = Verifier::new(bytes, &VerifierOptions::default());
    /// let root = v.root()?;
    /// let mut t = v.follow_table(root)?;
    /// let p = t.inline_field(0, 4, 2, "pos", true)?.unwrap();
    /// assert_eq!(bytes[p..p + 4], [1, 0, 2, 0]);
    /// assert_eq!(t.inline_field(1, 4, 2, "vel", false)?, None);
    /// let err = t.inline_field(1, 4, 2, "vel", true).unwrap_err();
    /// assert_eq!((err.kind(), err.offset()), (&ErrorKind::MissingRequiredField, t.position()));
    /// assert_eq!(err.path_string(), "vel");
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn inline_field(
        &mut self,
        slot: usize,
        size: usize,
        align: usize,
        name: &str,
        required: bool,
    ) -> Result<Option<usize>, Error> {
        match self.field_position(slot, size, align) {
            Ok(None) if required => Err(self.missing(name)),
            Ok(pos) => Ok(pos),
            Err(e) => Err(e.in_field(name)),
        }
    }

    /// Checks an offset field (string, vector, table, union value) and returns the position it points
    /// to; the caller checks the object there and adds `name` to the path of any error (with
    /// [`Error::in_field`]).
    ///
    /// ```
    /// use flatforge::{Builder, ErrorKind, Table, Verifier, VerifierOptions};
    /// let mut b = Builder::new();
    /// let name = b.create_string("Orc")?;
    /// b.start_table();
    /// b.add_offset(0, name)?;
    /// let t = b.end_table()?;
    /// let mut bytes = b.finish(t, None)?.to_vec();
    ///
    /// let mut v = Verifier::new(&bytes, &VerifierOptions::default());
    /// let root = v.root()?;
    /// let mut t = v.follow_table(root)?;
    /// let name = t.offset_field(0, "name", true)?.unwrap();
    /// assert_eq!(t.verifier().string(name)?, "Orc");
    /// assert_eq!(t.offset_field(1, "title", false)?, None);
    /// drop(t);
    ///
    /// // An offset that points past the end of the buffer.
    /// let table: Table = flatforge::root(&bytes)?;
    /// let at = table.position() + usize::from(table.field_offset(0));
    /// bytes[at..at + 4].copy_from_slice(&4096u32.to_le_bytes());
    /// let mut v = Verifier::new(&bytes, &VerifierOptions::default());
    /// let mut t = v.follow_table(root)?;
    /// let err = t.offset_field(0, "name", true).unwrap_err();
    /// assert_eq!((err.kind(), err.offset()), (&ErrorKind::OffsetOutOfBounds { value: 4096 }, at));
    /// assert_eq!(err.path_string(), "name");
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn offset_field(
        &mut self,
        slot: usize,
        name: &str,
        required: bool,
    ) -> Result<Option<usize>, Error> {
        match self.inline_field(slot, 4, 4, name, required)? {
            Some(pos) => self.v.offset(pos).map(Some).map_err(|e| e.in_field(name)),
            None => Ok(None),
        }
    }

    /// Checks a 64-bit offset field (`offset64`, `vector64`: 8 bytes, 8-aligned) with
    /// [`Verifier::offset64`] and returns the position it points to; the caller checks the object
    /// there and adds `name` to the path of any error.
    ///
    /// ```
    /// use flatforge::{Builder, Verifier, VerifierOptions};
    /// let mut b = Builder::new();
    /// let s = b.far()?.create_string("far")?;
    /// b.start_table();
    /// b.add_offset64(0, s)?;
    /// let t = b.end_table()?;
    /// let bytes = b.finish(t, None)?.to_vec();
    ///
    /// let mut v = Verifier::new(&bytes, &VerifierOptions::default());
    /// let root = v.root()?;
    /// let mut t = v.follow_table(root)?;
    /// let s = t.offset64_field(0, "s", true)?.unwrap();
    /// assert_eq!(t.verifier().string(s)?, "far");
    /// assert_eq!(t.offset64_field(1, "absent", false)?, None);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline]
    pub fn offset64_field(
        &mut self,
        slot: usize,
        name: &str,
        required: bool,
    ) -> Result<Option<usize>, Error> {
        match self.inline_field(slot, 8, 8, name, required)? {
            Some(pos) => self.v.offset64(pos).map(Some).map_err(|e| e.in_field(name)),
            None => Ok(None),
        }
    }

    /// Checks a union whose type field is a `u8` (`UType`): [`union_typed`](Self::union_typed)
    /// with `T = u8`.
    ///
    /// ```
    /// use flatforge::{BuildError, Builder, Error, ErrorKind, Table, Verifier, VerifierOptions};
    /// use flatforge::Verify;
    /// // union Equipment { Weapon }
    /// // table Monster { equipped: Equipment; } (the type in slot 0, the value in slot 1)
    /// let monster = |armed: bool| -> Result<Vec<u8>, BuildError> {
    ///     let mut b = Builder::new();
    ///     b.start_table();
    ///     let axe = b.end_table()?;
    ///     b.start_table();
    ///     b.add_scalar::<u8>(0, 1, 0)?; // Weapon
    ///     if armed {
    ///         b.add_offset(1, axe)?;
    ///     }
    ///     let orc = b.end_table()?;
    ///     Ok(b.finish(orc, None)?.to_vec())
    /// };
    /// let check = |bytes: &[u8]| -> Result<(), Error> {
    ///     let mut v = Verifier::new(bytes, &VerifierOptions::default());
    ///     let root = v.root()?;
    ///     let mut t = v.follow_table(root)?;
    ///     t.union(0, 1, "equipped", false, |v, ty, pos| match ty {
    ///         1 => Some(Table::verify_at(v, pos)), // generated code: `Weapon::verify_at`
    ///         _ => None,
    ///     })
    /// };
    /// check(&monster(true)?)?;
    ///
    /// let bytes = monster(false)?;
    /// let err = check(&bytes).unwrap_err();
    /// let t: Table = flatforge::root(&bytes)?;
    /// let at = t.position() + usize::from(t.field_offset(0)); // the type field
    /// let kind = ErrorKind::UnionTypeWithoutValue { value: 1 };
    /// assert_eq!((err.kind(), err.offset()), (&kind, at));
    /// assert_eq!(err.path_string(), "equipped");
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline]
    pub fn union<F>(
        &mut self,
        type_slot: usize,
        value_slot: usize,
        name: &str,
        required: bool,
        f: F,
    ) -> Result<(), Error>
    where
        F: FnOnce(&mut Verifier<'a>, u8, usize) -> Option<Result<(), Error>>,
    {
        self.union_typed::<u8, F>(type_slot, value_slot, name, required, f)
    }

    /// Checks a union: the type in `type_slot` (a `T`: `u8`, or the union's underlying integer type
    /// as in `union U : int`) and the value offset in `value_slot` must be both absent (type NONE,
    /// 0) or both present. For a present value, `f(verifier, type, pos)` checks it, with `pos` the
    /// position of the value's offset (as for [`Verify::verify_at`]); `f` returns `None` when the
    /// type is not a member of the union: accepted unchecked, or an error if
    /// [`VerifierOptions::unknown_union_types`] is false.
    ///
    /// ```
    /// use flatforge::{Builder, ErrorKind, Table, Verifier, VerifierOptions, Verify};
    /// let mut b = Builder::new();
    /// b.start_table();
    /// let member = b.end_table()?;
    /// b.start_table();
    /// b.add_scalar::<i32>(0, 555, 0)?; // the type field of `union U : int { M = 555 }`
    /// b.add_offset(1, member)?;
    /// let t = b.end_table()?;
    /// let bytes = b.finish(t, None)?.to_vec();
    ///
    /// let check = |known: i32| {
    ///     let mut v = Verifier::new(&bytes, &VerifierOptions::default());
    ///     let root = v.root()?;
    ///     let mut t = v.follow_table(root)?;
    ///     t.union_typed(0, 1, "u", false, |v, ty: i32, pos| {
    ///         (ty == known).then(|| Table::verify_at(v, pos))
    ///     })
    /// };
    /// check(555)?;
    /// check(1)?; // 555 is no member here: a newer schema's, accepted unchecked
    /// let strict = VerifierOptions::default().with_unknown_union_types(false);
    /// let mut v = Verifier::new(&bytes, &strict);
    /// let root = v.root()?;
    /// let mut t = v.follow_table(root)?;
    /// let err = t.union_typed(0, 1, "u", false, |_, _: i32, _| None).unwrap_err();
    /// assert_eq!(err.kind(), &ErrorKind::UnknownUnionType { value: 555 });
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline]
    pub fn union_typed<T: UnionTag, F>(
        &mut self,
        type_slot: usize,
        value_slot: usize,
        name: &str,
        required: bool,
        f: F,
    ) -> Result<(), Error>
    where
        F: FnOnce(&mut Verifier<'a>, T, usize) -> Option<Result<(), Error>>,
    {
        let type_pos = self
            .field_position(type_slot, <T as Scalar>::SIZE, <T as Scalar>::SIZE)
            .map_err(|e| e.in_field(name))?;
        let value_pos = self
            .field_position(value_slot, 4, 4)
            .map_err(|e| e.in_field(name))?;
        // SAFETY: `field_position` checked that the `T` at `p` lies in the table, which
        // lies in the buffer.
        let ty = type_pos.map_or(T::default(), |p| unsafe {
            read_scalar_unchecked::<T>(self.v.buf, p)
        });
        let none = ty == T::default();
        match (none, value_pos) {
            (true, None) if required => Err(self.missing(name)),
            (true, None) => Ok(()),
            (true, Some(p)) => Err(self
                .v
                .error(ErrorKind::UnionValueWithoutType, p)
                .in_field(name)),
            (false, None) => {
                let p = type_pos.unwrap_or(self.pos);
                let kind = ErrorKind::UnionTypeWithoutValue {
                    value: ty.to_i128(),
                };
                Err(self.v.error(kind, p).in_field(name))
            }
            (false, Some(p)) => match f(self.v, ty, p) {
                Some(result) => result.map_err(|e| e.in_field(name)),
                None if self.v.unknown_union_types => Ok(()),
                None => {
                    let p = type_pos.unwrap_or(self.pos);
                    let kind = ErrorKind::UnknownUnionType {
                        value: ty.to_i128(),
                    };
                    Err(self.v.error(kind, p).in_field(name))
                }
            },
        }
    }

    /// Checks a vector of unions whose types are `u8`s:
    /// [`union_vector_typed`](Self::union_vector_typed) with `T = u8`.
    ///
    /// ```
    /// use flatforge::{Builder, ErrorKind, Table, Vector, Verifier, VerifierOptions, Verify};
    /// // union Equipment { Weapon }
    /// // table Monster { weapons: [Equipment]; } (the types in slot 0, the values in slot 1)
    /// let mut b = Builder::new();
    /// let mut weapons = Vec::new();
    /// for damage in [3i16, 5] {
    ///     b.start_table();
    ///     b.add_scalar(0, damage, 0)?;
    ///     weapons.push(b.end_table()?);
    /// }
    /// let values = b.create_vector_of_offsets(&weapons)?;
    /// let types = b.create_vector(&[1u8, 7])?; // 7 names no member
    /// b.start_table();
    /// b.add_offset(0, types)?;
    /// b.add_offset(1, values)?;
    /// let orc = b.end_table()?;
    /// let bytes = b.finish(orc, None)?;
    ///
    /// // A reader that wants no newer schema's members (by default, 7 would pass unchecked).
    /// let strict = VerifierOptions::default().with_unknown_union_types(false);
    /// let mut v = Verifier::new(bytes, &strict);
    /// let root = v.root()?;
    /// let mut t = v.follow_table(root)?;
    /// let mut seen = Vec::new();
    /// let err = t
    ///     .union_vector(0, 1, "weapons", false, |v, ty, pos| {
    ///         seen.push(ty);
    ///         (ty == 1).then(|| Table::verify_at(v, pos))
    ///     })
    ///     .unwrap_err();
    /// assert_eq!(seen, [1, 7]);
    /// let types = flatforge::root::<Table>(bytes)?.get::<Vector<u8>>(0)?.unwrap();
    /// let at = types.as_slice().as_ptr() as usize - bytes.as_ptr() as usize + 1; // the 7
    /// assert_eq!((err.kind(), err.offset()), (&ErrorKind::UnknownUnionType { value: 7 }, at));
    /// assert_eq!(err.path_string(), "weapons[1]");
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn union_vector<F>(
        &mut self,
        type_slot: usize,
        value_slot: usize,
        name: &str,
        required: bool,
        f: F,
    ) -> Result<(), Error>
    where
        F: FnMut(&mut Verifier<'a>, u8, usize) -> Option<Result<(), Error>>,
    {
        self.union_vector_typed::<u8, F>(type_slot, value_slot, name, required, f)
    }

    /// Checks a vector of unions: the vector of `T` types in `type_slot` and the offsets in
    /// `value_slot` must be both present with equal lengths, or both absent, or one absent and the
    /// other empty (as flatc writes `[]`); each element whose type is not NONE is checked with `f`
    /// as in [`union_typed`](Self::union_typed).
    ///
    /// ```
    /// use flatforge::{BuildError, Builder, Error, ErrorKind, Table, Vector, Verifier};
    /// use flatforge::{VerifierOptions, Verify};
    /// // union Shape : int { Circle = 1000 }
    /// // table Drawing { shapes: [Shape]; } (the types in slot 0, the values in slot 1)
    /// let drawing = |types: &[i32]| -> Result<Vec<u8>, BuildError> {
    ///     let mut b = Builder::new();
    ///     b.start_table();
    ///     let circle = b.end_table()?;
    ///     let values = b.create_vector_of_offsets(&[circle, circle])?;
    ///     let types = b.create_vector(types)?;
    ///     b.start_table();
    ///     b.add_offset(0, types)?;
    ///     b.add_offset(1, values)?;
    ///     let d = b.end_table()?;
    ///     Ok(b.finish(d, None)?.to_vec())
    /// };
    /// let check = |bytes: &[u8]| -> Result<(), Error> {
    ///     let mut v = Verifier::new(bytes, &VerifierOptions::default());
    ///     let root = v.root()?;
    ///     let mut t = v.follow_table(root)?;
    ///     t.union_vector_typed(0, 1, "shapes", false, |v, ty: i32, pos| {
    ///         (ty == 1000).then(|| Table::verify_at(v, pos))
    ///     })
    /// };
    /// check(&drawing(&[1000, 1000])?)?;
    ///
    /// let bytes = drawing(&[1000])?; // one type for two values
    /// let err = check(&bytes).unwrap_err();
    /// let types = flatforge::root::<Table>(&bytes)?.get::<Vector<i32>>(0)?.unwrap();
    /// let at = types.bytes().as_ptr() as usize - bytes.as_ptr() as usize - 4; // its length
    /// let kind = ErrorKind::UnionVectorLengthMismatch { types: 1, values: 2 };
    /// assert_eq!((err.kind(), err.offset()), (&kind, at));
    /// assert_eq!(err.path_string(), "shapes");
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn union_vector_typed<T: UnionTag, F>(
        &mut self,
        type_slot: usize,
        value_slot: usize,
        name: &str,
        required: bool,
        mut f: F,
    ) -> Result<(), Error>
    where
        F: FnMut(&mut Verifier<'a>, T, usize) -> Option<Result<(), Error>>,
    {
        let types = self.offset_field(type_slot, name, false)?;
        let values = self.offset_field(value_slot, name, false)?;
        // One vector without the other is an error, unless it is empty and the field optional:
        // flatc's JSON parser (and ours) writes `[]` so, with no vector of types, and a reader
        // sees no element either way. (C++'s generated verifiers reject even the empty one:
        // `!values && !types`.) A required field needs both: generated readers of a required
        // union vector read both halves without looking.
        let (types, values) = match (types, values) {
            (Some(types), Some(values)) => (types, values),
            (None, None) => {
                return if required {
                    Err(self.missing(name))
                } else {
                    Ok(())
                }
            }
            (Some(_), None) | (None, Some(_)) if required => return Err(self.missing(name)),
            (Some(types), None) => {
                let v = &mut *self.v;
                let (_, len) = v
                    .vector_raw(types, <T as Scalar>::SIZE, <T as Scalar>::SIZE)
                    .map_err(|e| e.in_field(name))?;
                if len == 0 {
                    return Ok(());
                }
                let kind = ErrorKind::UnionVectorWithoutValues;
                return Err(v.error(kind, types).in_field(name));
            }
            (None, Some(values)) => {
                let v = &mut *self.v;
                let (_, len) = v.vector_raw(values, 4, 4).map_err(|e| e.in_field(name))?;
                if len == 0 {
                    return Ok(());
                }
                let kind = ErrorKind::UnionVectorWithoutTypes;
                return Err(v.error(kind, values).in_field(name));
            }
        };
        let v = &mut *self.v;
        let (type_data, type_len) = v
            .vector_raw(types, <T as Scalar>::SIZE, <T as Scalar>::SIZE)
            .map_err(|e| e.in_field(name))?;
        let (value_data, value_len) = v.vector_raw(values, 4, 4).map_err(|e| e.in_field(name))?;
        if type_len != value_len {
            let kind = ErrorKind::UnionVectorLengthMismatch {
                types: type_len,
                values: value_len,
            };
            return Err(v.error(kind, types).in_field(name));
        }
        for i in 0..type_len {
            let at = type_data + <T as Scalar>::SIZE * i;
            // SAFETY: `vector_raw` checked that the `type_len` types lie in the buffer.
            let ty = unsafe { read_scalar_unchecked::<T>(v.buf, at) };
            if ty == T::default() {
                continue;
            }
            match f(v, ty, value_data + 4 * i) {
                Some(result) => result.map_err(|e| e.in_index(i).in_field(name))?,
                None if v.unknown_union_types => {}
                None => {
                    let kind = ErrorKind::UnknownUnionType {
                        value: ty.to_i128(),
                    };
                    return Err(v.error(kind, at).in_index(i).in_field(name));
                }
            }
        }
        Ok(())
    }

    /// Checks a `[ubyte]` field holding a nested flatbuffer: the vector, then `f(verifier)` on its
    /// bytes as a buffer of their own (see [`Verifier::nested`]).
    ///
    /// ```
    /// use flatforge::{Builder, ErrorKind, Table, Vector, Verifier, VerifierOptions};
    /// // table Envelope { payload: [ubyte] (nested_flatbuffer: "Message"); }
    /// // table Message { id: ulong; }
    /// let mut b = Builder::new();
    /// let start = b.start_nested()?;
    /// b.start_table();
    /// b.add_scalar::<u64>(0, 42, 0)?;
    /// let message = b.end_table()?;
    /// let payload = b.end_nested(start, message, None)?;
    /// b.start_table();
    /// b.add_offset(0, payload)?;
    /// let envelope = b.end_table()?;
    /// let bytes = b.finish(envelope, None)?;
    ///
    /// let mut v = Verifier::new(bytes, &VerifierOptions::default());
    /// let root = v.root()?;
    /// let mut t = v.follow_table(root)?;
    /// t.nested_flatbuffer(0, "payload", true, |v| {
    ///     let root = v.root()?;
    ///     let mut message = v.follow_table(root)?;
    ///     message.field::<u64>(0, "id", false)
    /// })?;
    ///
    /// // Checked as another message type, with a required string in slot 1.
    /// let err = t
    ///     .nested_flatbuffer(0, "payload", true, |v| {
    ///         let root = v.root()?;
    ///         let mut message = v.follow_table(root)?;
    ///         message.field::<&str>(1, "name", true)
    ///     })
    ///     .unwrap_err();
    /// let payload = flatforge::root::<Table>(bytes)?.get::<Vector<u8>>(0)?.unwrap().as_slice();
    /// let message: Table = flatforge::root(payload)?;
    /// let at = payload.as_ptr() as usize - bytes.as_ptr() as usize + message.position();
    /// assert_eq!((err.kind(), err.offset()), (&ErrorKind::MissingRequiredField, at));
    /// assert_eq!(err.path_string(), "payload.name");
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn nested_flatbuffer<F>(
        &mut self,
        slot: usize,
        name: &str,
        required: bool,
        f: F,
    ) -> Result<(), Error>
    where
        F: FnOnce(&mut Verifier<'a>) -> Result<(), Error>,
    {
        let Some(target) = self.offset_field(slot, name, required)? else {
            return Ok(());
        };
        let v = &mut *self.v;
        let (data, len) = v.vector_raw(target, 1, 1).map_err(|e| e.in_field(name))?;
        v.nested(data, len, f).map_err(|e| e.in_field(name))
    }

    /// Checks a `[ubyte]` field holding a nested flatbuffer whose root is a `T`.
    ///
    /// ```
    /// use flatforge::{Builder, ErrorKind, Table, Vector, Verifier, VerifierOptions};
    /// // table Envelope { payload: [ubyte] (nested_flatbuffer: "Message"); }
    /// let mut b = Builder::new();
    /// let start = b.start_nested()?;
    /// b.start_table();
    /// let message = b.end_table()?;
    /// let payload = b.end_nested(start, message, None)?;
    /// b.start_table();
    /// b.add_offset(0, payload)?;
    /// let envelope = b.end_table()?;
    /// let bytes = b.finish(envelope, None)?;
    ///
    /// // The envelope, the nesting and the message take a level of depth each.
    /// let check = |max_depth| {
    ///     let mut v = Verifier::new(bytes, &VerifierOptions::default().with_max_depth(max_depth));
    ///     let root = v.root()?;
    ///     let mut t = v.follow_table(root)?;
    ///     t.nested_root::<Table>(0, "payload", true)
    /// };
    /// check(3)?;
    /// let err = check(2).unwrap_err();
    /// let payload = flatforge::root::<Table>(bytes)?.get::<Vector<u8>>(0)?.unwrap().as_slice();
    /// let message: Table = flatforge::root(payload)?;
    /// let at = payload.as_ptr() as usize - bytes.as_ptr() as usize + message.position();
    /// assert_eq!((err.kind(), err.offset()), (&ErrorKind::DepthLimitExceeded { limit: 2 }, at));
    /// assert_eq!(err.path_string(), "payload");
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline]
    pub fn nested_root<T: Verify + ?Sized>(
        &mut self,
        slot: usize,
        name: &str,
        required: bool,
    ) -> Result<(), Error> {
        self.nested_flatbuffer(slot, name, required, |v| v.nested_root::<T>())
    }
    /// Checks a `[ubyte]` field behind a 64-bit offset holding a nested flatbuffer whose root is a
    /// `T`: an `offset64` field (the vector's length 32-bit) or, with `len64`, a `vector64` field.
    ///
    /// ```
    /// use flatforge::{Builder, Table, Verifier, VerifierOptions};
    /// let mut inner = Builder::new();
    /// let s = inner.create_string("inside")?;
    /// let inner = inner.finish(s, None)?;
    /// let mut b = Builder::new();
    /// let bytes = b.far()?.create_vector64(inner)?;
    /// b.start_table();
    /// b.add_offset64(0, bytes)?;
    /// let t = b.end_table()?;
    /// let buf = b.finish(t, None)?.to_vec();
    ///
    /// let mut v = Verifier::new(&buf, &VerifierOptions::default());
    /// let root = v.root()?;
    /// let mut t = v.follow_table(root)?;
    /// t.far_nested_root::<&str>(0, "nested", false, true)?;
    /// assert!(t.far_nested_root::<Table>(0, "nested", false, true).is_err()); // not a table
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn far_nested_root<T: Verify + ?Sized>(
        &mut self,
        slot: usize,
        name: &str,
        required: bool,
        len64: bool,
    ) -> Result<(), Error> {
        let Some(target) = self.offset64_field(slot, name, required)? else {
            return Ok(());
        };
        let v = &mut *self.v;
        let (data, len) = if len64 {
            v.vector64_raw(target, 1, 1)
        } else {
            v.vector_raw(target, 1, 1)
        }
        .map_err(|e| e.in_field(name))?;
        v.nested(data, len, |v| v.nested_root::<T>())
            .map_err(|e| e.in_field(name))
    }
}

/// The integer type of a union's type field: `u8` (`UType`, what unions use unless the schema
/// gives them another, as in `union U : int { ... }`) or another integer type. Type 0 is NONE.
///
/// ```
/// use flatforge::UnionTag;
/// assert_eq!(u8::MAX.to_i128(), 255);
/// assert_eq!((-1i32).to_i128(), -1);
/// ```
pub trait UnionTag: Scalar + Eq + for<'a> Follow<'a> {
    /// The value, for error messages.
    fn to_i128(self) -> i128;
}

macro_rules! union_tag {
    ($($t:ty),*) => {$(
        impl UnionTag for $t {
            #[inline(always)]
            fn to_i128(self) -> i128 {
                i128::from(self)
            }
        }
    )*};
}
union_tag!(u8, i8, u16, i16, u32, i32, u64, i64);

macro_rules! verify_scalar {
    ($($t:ty),*) => {$(
        impl Verify for $t {
            const SIZE: usize = <$t as Scalar>::SIZE;
            const ALIGN: usize = <$t as Scalar>::SIZE;
            #[cfg_attr(debug_assertions, inline)]
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn verify_at(_: &mut Verifier<'_>, _: usize) -> Result<(), Error> {
                Ok(())
            }
        }
    )*};
}
verify_scalar!(bool, u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

impl<S: Struct> Verify for &S {
    const SIZE: usize = core::mem::size_of::<S>();
    const ALIGN: usize = S::ALIGN;
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn verify_at(_: &mut Verifier<'_>, _: usize) -> Result<(), Error> {
        Ok(())
    }
}

impl Verify for &str {
    const SIZE: usize = 4;
    const ALIGN: usize = 4;
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn verify_at(v: &mut Verifier<'_>, pos: usize) -> Result<(), Error> {
        v.follow_string(pos).map(|_| ())
    }
}

impl<T: Verify> Verify for Vector<'_, T> {
    const SIZE: usize = 4;
    const ALIGN: usize = 4;
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn verify_at(v: &mut Verifier<'_>, pos: usize) -> Result<(), Error> {
        v.follow_vector::<T>(pos).map(|_| ())
    }
}

impl Verify for Table<'_> {
    const SIZE: usize = 4;
    const ALIGN: usize = 4;
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn verify_at(v: &mut Verifier<'_>, pos: usize) -> Result<(), Error> {
        v.follow_table(pos).map(|_| ())
    }
}

impl Verify for Far<&str> {
    const SIZE: usize = 8;
    const ALIGN: usize = 8;
    #[inline]
    fn verify_at(v: &mut Verifier<'_>, pos: usize) -> Result<(), Error> {
        let target = v.offset64(pos)?;
        v.string(target).map(|_| ())
    }
}

impl<T: Verify> Verify for Far<Vector<'_, T>> {
    const SIZE: usize = 8;
    const ALIGN: usize = 8;
    #[inline]
    fn verify_at(v: &mut Verifier<'_>, pos: usize) -> Result<(), Error> {
        let target = v.offset64(pos)?;
        v.vector::<T>(target).map(|_| ())
    }
}

impl<T: Verify> Verify for Vector64<'_, T> {
    const SIZE: usize = 8;
    const ALIGN: usize = 8;
    #[inline]
    fn verify_at(v: &mut Verifier<'_>, pos: usize) -> Result<(), Error> {
        let target = v.offset64(pos)?;
        let (data, len) = v.vector64_raw(target, T::SIZE, T::ALIGN)?;
        v.vector_elements::<T>(data, len).map(|_| ())
    }
}

impl<T: Verify> Verify for Indirect<T> {
    const SIZE: usize = 4;
    const ALIGN: usize = 4;
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn verify_at(v: &mut Verifier<'_>, pos: usize) -> Result<(), Error> {
        let target = v.offset(pos)?;
        v.check_range(Object::Inline, target, T::SIZE)?;
        v.check_alignment(Object::Inline, target, T::ALIGN)?;
        T::verify_at(v, target)
    }
}

/// Whether `bytes`, fewer than 64 of them, are ASCII: a few (overlapping) 8-byte words, 4-byte words
/// or bytes, ORed together, without a call (a call on the hot path makes the verifier keep more
/// values in memory).
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
fn is_short_ascii(bytes: &[u8]) -> bool {
    let n = bytes.len();
    debug_assert!(n < 64);
    if n >= 8 {
        let word = |at: usize| {
            let mut w = [0; 8];
            w.copy_from_slice(&bytes[at..at + 8]);
            u64::from_le_bytes(w)
        };
        // The first and last 8 bytes (all of 8 to 16 bytes), the first and last 16 (all of 17 to
        // 32), and the words in between.
        let mut any = word(0) | word(n - 8);
        if n > 16 {
            any |= word(8) | word(n - 16);
            let mut at = 16;
            while at < n - 16 {
                any |= word(at);
                at += 8;
            }
        }
        any & 0x8080_8080_8080_8080 == 0
    } else if n >= 4 {
        let word = |at: usize| {
            let mut w = [0; 4];
            w.copy_from_slice(&bytes[at..at + 4]);
            u32::from_le_bytes(w)
        };
        (word(0) | word(n - 4)) & 0x8080_8080 == 0
    } else if n > 0 {
        // Bytes 0, n / 2 and n - 1 are all of 1 to 3 bytes.
        (bytes[0] | bytes[n / 2] | bytes[n - 1]) < 0x80
    } else {
        true
    }
}

/// Checks that the string bytes at `pos` (in the outermost buffer) are UTF-8, with SIMD. Cold, as
/// far as the verifier's hot path is concerned: it runs for strings of more than 32 bytes, where
/// the call costs little next to the work, and for non-ASCII ones.
#[cold]
#[inline(never)]
fn utf8(bytes: &[u8], pos: usize) -> Result<(), Error> {
    match simdutf8::basic::from_utf8(bytes) {
        Ok(_) => Ok(()),
        Err(_) => Err(utf8_error(bytes, pos)),
    }
}

// The error constructors take plain values rather than `&Verifier` (see `Verifier::error`); offsets
// are relative to the outermost buffer.

/// The result for a misaligned `object` at `offset`: an error if alignment is checked.
#[cold]
#[inline(never)]
fn misaligned(check: bool, object: Object, offset: usize, align: usize) -> Result<(), Error> {
    if check {
        Err(Error::new(ErrorKind::Unaligned { object, align }, offset))
    } else {
        Ok(())
    }
}

/// The error `kind` at `offset`.
#[cold]
#[inline(never)]
fn new_error(kind: ErrorKind, offset: usize) -> Error {
    Error::new(kind, offset)
}

/// The error of `Verifier::follow_offset` for a `target` past `len - 4` (positions relative to
/// `base`): as `Verifier::offset` and the object's own checks would report it.
#[cold]
#[inline(never)]
fn follow_error(
    len: usize,
    check_alignment: bool,
    object: Object,
    base: usize,
    pos: usize,
    value: u32,
    target: usize,
) -> Error {
    if target >= len {
        let value = value.into();
        Error::new(ErrorKind::OffsetOutOfBounds { value }, base + pos)
    } else if target & 3 != 0 && check_alignment {
        Error::new(ErrorKind::Unaligned { object, align: 4 }, base + target)
    } else {
        // The 4 bytes that do not fit start the object: a string's or vector's are its length.
        let object = match object {
            Object::String => Object::StringLength,
            Object::Vector => Object::VectorLength,
            other => other,
        };
        let kind = ErrorKind::OutOfBounds {
            object,
            size: 4,
            len,
        };
        Error::new(kind, base + target)
    }
}

/// The error of `Verifier::table_header` for the table at `pos` whose vtable, at `pos` minus
/// `soffset`, has no room for its 4-byte header in the `len`-byte buffer (positions relative to
/// `base`): a vtable starting past the end (or before the start) is an offset pointing outside the
/// buffer; one starting in the last 3 bytes does not fit.
#[cold]
#[inline(never)]
fn vtable_error(len: usize, base: usize, pos: usize, soffset: i32) -> Error {
    let vtable = pos as i64 - i64::from(soffset);
    if (0..len as i64).contains(&vtable) {
        let kind = ErrorKind::OutOfBounds {
            object: Object::VtableHeader,
            size: 4,
            len,
        };
        Error::new(kind, base + vtable as usize)
    } else {
        let value = i64::from(soffset);
        Error::new(ErrorKind::OffsetOutOfBounds { value }, base + pos)
    }
}

/// `e`, found in the element at `pos` of a vector whose elements of `size` bytes start at `data`.
/// Out of line, so that the loop over the elements keeps no index.
#[cold]
#[inline(never)]
fn in_element(e: Error, data: usize, pos: usize, size: usize) -> Error {
    e.in_index((pos - data) / size)
}

/// The error for a field whose vtable entry (at `at`) puts it outside its table.
#[cold]
#[inline(never)]
fn field_out_of_table(at: usize, voffset: u16, size: usize, table_size: usize) -> Error {
    let kind = ErrorKind::FieldOutOfTable {
        voffset,
        size,
        table_size,
    };
    Error::new(kind, at)
}

/// The error for a missing required field of the table at `pos`.
#[cold]
#[inline(never)]
fn missing(pos: usize, name: &str) -> Error {
    Error::new(ErrorKind::MissingRequiredField, pos).in_field(name)
}

/// The error for the string bytes at `pos` that are not UTF-8.
#[cold]
#[inline(never)]
fn utf8_error(bytes: &[u8], pos: usize) -> Error {
    let valid_up_to = core::str::from_utf8(bytes).map_or_else(|e| e.valid_up_to(), |s| s.len());
    Error::new(ErrorKind::InvalidUtf8 { valid_up_to }, pos + valid_up_to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Builder;
    use alloc::string::String;
    use alloc::vec::Vec;

    /// A buffer whose root table holds a string, a vector of `u16` and a table: offsets to each kind
    /// of object, for the corruption tests below.
    fn sample() -> Vec<u8> {
        let mut b = Builder::new();
        b.start_table();
        b.add_scalar::<u32>(0, 7, 0).unwrap();
        let inner = b.end_table().unwrap();
        let s = b.create_string("héllo, wörld").unwrap();
        let v = b.create_vector(&[1u16, 2, 3]).unwrap();
        b.start_table();
        b.add_offset(0, s).unwrap();
        b.add_offset(1, v).unwrap();
        b.add_offset(2, inner).unwrap();
        let root = b.end_table().unwrap();
        b.finish(root, None).unwrap().to_vec()
    }

    /// What a result looks like, for comparing two ways of checking the same bytes.
    fn outcome<T: core::fmt::Debug>(r: Result<T, Error>) -> String {
        match r {
            Ok(v) => alloc::format!("ok {v:?}"),
            Err(e) => alloc::format!("{:?} at {}", e.kind(), e.offset()),
        }
    }

    /// `follow_table`, `follow_string` and `follow_vector` fuse `offset` with the object's own checks
    /// and skip the alignment test of a position the caller checked: at every 4-aligned position of
    /// every corruption of a buffer (and at every position when alignment is not checked), they
    /// report what `offset` followed by `table`, `string` or `vector` report.
    #[test]
    fn follow_reports_what_offset_then_the_object_report() {
        let good = sample();
        let values = [0u8, 1, 2, 3, 4, 5, 0x40, 0x7f, 0x80, 0xfe, 0xff];
        let mut checked = 0;
        for at in 0..good.len() {
            for &value in &values {
                let mut bytes = good.clone();
                bytes[at] = value;
                for check_alignment in [true, false] {
                    let opts = VerifierOptions::default().with_check_alignment(check_alignment);
                    let step = if check_alignment { 4 } else { 1 };
                    for pos in (0..bytes.len() + 4).step_by(step) {
                        let mut fused = Verifier::new(&bytes, &opts);
                        let mut split = Verifier::new(&bytes, &opts);
                        let table = |t: TableVerifier<'_, '_>| (t.position(), t.size());
                        assert_eq!(
                            outcome(fused.follow_table(pos).map(table)),
                            outcome(split.offset(pos).and_then(|t| split.table(t)).map(table)),
                            "table at {pos}, byte {at} = {value}"
                        );
                        assert_eq!(
                            outcome(fused.follow_string(pos)),
                            outcome(split.offset(pos).and_then(|t| split.string(t))),
                            "string at {pos}, byte {at} = {value}"
                        );
                        assert_eq!(
                            outcome(fused.follow_vector::<u16>(pos)),
                            outcome(split.offset(pos).and_then(|t| split.vector::<u16>(t))),
                            "vector at {pos}, byte {at} = {value}"
                        );
                        // The depth was given back and the same budgets were spent.
                        assert_eq!(fused.depth_left, split.depth_left);
                        assert_eq!(fused.tables_left, split.tables_left);
                        assert_eq!(fused.size_left, split.size_left);
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 10_000);
    }

    #[test]
    fn short_strings_are_ascii_exactly_when_every_byte_is() {
        let mut bytes = [b'a'; 63];
        for n in 0..64 {
            assert!(is_short_ascii(&bytes[..n]), "{n} ASCII bytes");
            for high in 0..n {
                for b in [0x80, 0xc3, 0xff] {
                    bytes[high] = b;
                    assert!(!is_short_ascii(&bytes[..n]), "byte {high} of {n} is {b:#x}");
                }
                bytes[high] = b'a';
            }
        }
    }

    #[test]
    fn strings_of_every_length_are_checked_for_utf8() {
        let opts = VerifierOptions::default();
        for n in 0..100 {
            for text in [
                "a".repeat(n),
                "é".repeat(n / 2),
                alloc::format!("{}é", "a".repeat(n)),
            ] {
                let mut b = Builder::new();
                let s = b.create_string(&text).unwrap();
                let mut bytes = b.finish(s, None).unwrap().to_vec();
                let root = Verifier::new(&bytes, &opts).root().unwrap();
                assert_eq!(
                    Verifier::new(&bytes, &opts).follow_string(root).unwrap(),
                    text
                );
                if let Some((last_char, _)) = text.char_indices().last() {
                    // The last byte becomes a lead byte without its continuation: the text is
                    // valid up to the start of its last character.
                    let start = u32::from_le_bytes(bytes[..4].try_into().unwrap()) as usize + 4;
                    bytes[start + text.len() - 1] = 0xc3;
                    let err = Verifier::new(&bytes, &opts)
                        .follow_string(root)
                        .unwrap_err();
                    let valid_up_to = last_char;
                    assert_eq!(
                        err.kind(),
                        &ErrorKind::InvalidUtf8 { valid_up_to },
                        "{text:?}"
                    );
                    assert_eq!(err.offset(), start + valid_up_to);
                }
            }
        }
    }

    /// A table of size 8 whose vtable has entries `voffsets`, for the field position tests.
    fn table_with(voffsets: &[u16]) -> Vec<u8> {
        // [root offset][vtable: len, table size, entries][pad][table: soffset, 4 bytes]
        let vt_len = 4 + 2 * voffsets.len();
        let vtable = 4;
        let table = (vtable + vt_len).next_multiple_of(4);
        let mut bytes = alloc::vec![0u8; table + 8];
        bytes[..4].copy_from_slice(&(table as u32).to_le_bytes());
        bytes[vtable..vtable + 2].copy_from_slice(&(vt_len as u16).to_le_bytes());
        bytes[vtable + 2..vtable + 4].copy_from_slice(&8u16.to_le_bytes());
        for (i, v) in voffsets.iter().enumerate() {
            let at = vtable + 4 + 2 * i;
            bytes[at..at + 2].copy_from_slice(&v.to_le_bytes());
        }
        let soffset = (table - vtable) as i32;
        bytes[table..table + 4].copy_from_slice(&soffset.to_le_bytes());
        bytes
    }

    #[test]
    fn fields_are_checked_in_the_table_before_and_after_their_presence() {
        let opts = VerifierOptions::default();
        let check = |voffsets: &[u16], size: usize, align: usize| {
            let bytes = table_with(voffsets);
            let mut v = Verifier::new(&bytes, &opts);
            let root = v.root().unwrap();
            let t = v.follow_table(root).unwrap();
            outcome(t.field_position(0, size, align))
        };
        // Absent fields pass, small or large (a struct larger than the table).
        assert_eq!(check(&[0], 1, 1), "ok None");
        assert_eq!(check(&[0], 32, 8), "ok None");
        assert_eq!(check(&[], 4, 4), "ok None");
        // Present ones must lie in the table (size 8) and be aligned.
        assert!(check(&[4], 4, 4).starts_with("ok Some"));
        assert!(check(&[7], 1, 1).starts_with("ok Some"));
        let out = |v: u16, s: usize| {
            alloc::format!(
                "FieldOutOfTable {{ voffset: {v}, size: {s}, table_size: 8 }} at {}",
                4 + 4
            )
        };
        assert_eq!(check(&[8], 1, 1), out(8, 1));
        assert_eq!(check(&[6], 4, 4), out(6, 4));
        assert_eq!(check(&[4], 8, 8), out(4, 8));
        assert!(check(&[5], 2, 2).starts_with("Unaligned { object: Inline, align: 2 }"));
        assert!(check(&[6], 2, 2).starts_with("ok Some"));
        // A slot past the vtable is absent.
        let bytes = table_with(&[4]);
        let mut v = Verifier::new(&bytes, &opts);
        let root = v.root().unwrap();
        let t = v.follow_table(root).unwrap();
        assert_eq!(outcome(t.field_position(usize::MAX, 4, 4)), "ok None");
    }

    #[test]
    fn an_error_in_a_vector_element_names_its_index() {
        let mut b = Builder::new();
        let strings: Vec<_> = ["a", "bb", "ccc"]
            .iter()
            .map(|s| b.create_string(s).unwrap())
            .collect();
        let v = b.create_vector_of_offsets(&strings).unwrap();
        let mut bytes = b.finish(v, None).unwrap().to_vec();
        let at = bytes.windows(4).position(|w| w == b"bb\0\0").unwrap();
        bytes[at + 2] = b'!';
        let err = crate::root::<crate::Vector<&str>>(&bytes).unwrap_err();
        assert_eq!(err.kind(), &ErrorKind::StringNotTerminated);
        assert_eq!(err.path_string(), "[1]");
    }
}
