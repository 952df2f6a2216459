//! Error types: [`Error`] (a buffer failed verification: what, where in bytes, and the path of
//! fields leading there) and [`BuildError`] (the builder hit a size limit, or was asked to write
//! 64-bit-addressed data after other data).
//!
//! A verification error is one pointer wide (`Box`), so `Result<(), Error>` costs nothing extra on the
//! success path; the path is only assembled while an error propagates outwards.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// The kind of object a bounds or alignment error is about.
///
/// ```
/// use flatforge::{ErrorKind, Object, Table};
/// let err = Table::new(&[0u8; 3], 0).unwrap_err();
/// assert!(matches!(err.kind(), ErrorKind::OutOfBounds { object: Object::Table, .. }));
/// assert_eq!(Object::Vtable.to_string(), "vtable");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Object {
    /// The root offset (and file identifier) at the start of a buffer.
    Root,
    /// The 32-bit size prefix.
    SizePrefix,
    /// An offset to a table, vector or string (32-bit, or 64-bit for `offset64` fields).
    Offset,
    /// A table's inline data.
    Table,
    /// A vtable.
    Vtable,
    /// The 4 bytes that start a vtable (its size and its table's size), for a vtable that has no
    /// room for them.
    VtableHeader,
    /// A string with its length and NUL terminator.
    String,
    /// The length that starts a string (4 bytes), for a string whose length does not fit.
    StringLength,
    /// A vector with its length.
    Vector,
    /// The length that starts a vector (4 bytes, or 8 for `vector64`), for a vector whose length
    /// does not fit.
    VectorLength,
    /// A scalar or struct stored inline.
    Inline,
}

impl fmt::Display for Object {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Object::Root => "root offset",
            Object::SizePrefix => "size prefix",
            Object::Offset => "offset",
            Object::Table => "table",
            Object::Vtable => "vtable",
            Object::VtableHeader => "vtable header",
            Object::String => "string",
            Object::StringLength => "string length",
            Object::Vector => "vector",
            Object::VectorLength => "vector length",
            Object::Inline => "inline value",
        })
    }
}

/// What is wrong with a buffer that failed verification.
///
/// ```
/// use flatforge::ErrorKind;
/// let mut b = flatforge::Builder::new();
/// let s = b.create_string("abc")?;
/// let mut bytes = b.finish(s, None)?.to_vec();
/// *bytes.last_mut().unwrap() = b'!'; // overwrite the NUL terminator
/// let err = flatforge::root::<&str>(&bytes).unwrap_err();
/// assert_eq!(err.kind(), &ErrorKind::StringNotTerminated);
/// assert_eq!(err.kind().to_string(), "string is not NUL-terminated");
/// # Ok::<(), flatforge::BuildError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The buffer cannot even hold its header: the size prefix if it has one, the root offset,
    /// and the file identifier if one is expected.
    #[error(
        "buffer of {} is too short: a FlatBuffer needs at least {}",
        Bytes(*.len as u64),
        Bytes(*.min as u64)
    )]
    BufferTooShort {
        /// Buffer length.
        len: usize,
        /// The minimum (counting the size prefix, if any).
        min: usize,
    },
    /// The buffer is larger than the 2^31 - 1 bytes ([`MAX_BUFFER_SIZE`](crate::MAX_BUFFER_SIZE))
    /// that 32-bit signed offsets can span.
    ///
    /// ```
    /// use flatforge::ErrorKind;
    /// let kind = ErrorKind::BufferTooLarge { len: 1 << 31 };
    /// assert_eq!(
    ///     kind.to_string(),
    ///     "buffer of 2147483648 bytes exceeds the FlatBuffers limit of 2147483647 bytes (2 GiB - 1)"
    /// );
    /// ```
    #[error(
        "buffer of {len} bytes exceeds the FlatBuffers limit of {} bytes (2 GiB - 1)",
        crate::MAX_BUFFER_SIZE
    )]
    BufferTooLarge {
        /// Buffer length.
        len: usize,
    },
    /// A size prefix claims more bytes than follow it.
    #[error(
        "size prefix says {} but the buffer has only {} after it",
        Bytes(*.size as u64),
        Bytes(*.available as u64)
    )]
    SizePrefixTooLarge {
        /// The prefix value.
        size: usize,
        /// Bytes after the prefix.
        available: usize,
    },
    /// A size prefix gives fewer bytes than the root offset (and file identifier) that must follow
    /// it.
    ///
    /// ```
    /// use flatforge::{Builder, ErrorKind, VerifierOptions};
    /// let mut b = Builder::new();
    /// let s = b.create_string("hi")?;
    /// let mut bytes = b.finish_size_prefixed(s, None)?.to_vec();
    /// bytes[..4].copy_from_slice(&0u32.to_le_bytes());
    /// let opts = VerifierOptions::default().with_size_prefixed(true);
    /// let err = flatforge::root_with_options::<&str>(&bytes, &opts).unwrap_err();
    /// assert_eq!(err.kind(), &ErrorKind::SizePrefixTooSmall { size: 0, min: 4 });
    /// assert_eq!(
    ///     err.kind().to_string(),
    ///     "size prefix says 0 bytes, fewer than the 4 bytes a FlatBuffer needs after it"
    /// );
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    #[error(
        "size prefix says {}, fewer than the {} a FlatBuffer needs after it",
        Bytes(*.size as u64),
        Bytes(*.min as u64)
    )]
    SizePrefixTooSmall {
        /// The prefix value.
        size: usize,
        /// The bytes the root offset (and file identifier) take.
        min: usize,
    },
    /// The file identifier (bytes 4..8 of the buffer) is not the expected one.
    #[error(
        "file identifier is \"{}\", expected \"{}\"",
        .found.escape_ascii(),
        .expected.escape_ascii()
    )]
    FileIdentifierMismatch {
        /// The identifier the schema declares.
        expected: [u8; 4],
        /// The bytes found.
        found: [u8; 4],
    },
    /// An object extends past the end of the buffer.
    #[error(
        "{object} of {} extends past the end of the {len}-byte buffer",
        Bytes(*.size)
    )]
    OutOfBounds {
        /// What kind of object.
        object: Object,
        /// Its size in bytes (for strings and vectors: including the length and terminator; for
        /// [`Object::StringLength`], [`Object::VectorLength`] and [`Object::VtableHeader`]: the
        /// bytes of that header).
        size: u64,
        /// The length of the buffer being verified.
        len: usize,
    },
    /// An object is not aligned to its natural alignment, counted from the buffer start.
    #[error("{object} is not aligned to {align} bytes")]
    Unaligned {
        /// What kind of object.
        object: Object,
        /// The required alignment.
        align: usize,
    },
    /// A 32-bit offset is zero (it would point at itself) or does not fit a signed 32-bit offset;
    /// or a 64-bit offset is zero.
    #[error("offset {value} is invalid")]
    InvalidOffset {
        /// The offset value.
        value: u32,
    },
    /// An offset points outside the buffer.
    #[error("offset {value} points outside the buffer")]
    OffsetOutOfBounds {
        /// The offset value.
        value: i64,
    },
    /// The vtable size is odd or smaller than 4.
    #[error("vtable size {size} is invalid: it must be even and at least 4")]
    InvalidVtableSize {
        /// The vtable's size field.
        size: u16,
    },
    /// The table size recorded in the vtable is smaller than the 4-byte vtable offset.
    #[error("table size {size} in the vtable is shorter than the minimum of 4")]
    InvalidTableSize {
        /// The vtable's table-size field.
        size: u16,
    },
    /// A field's bytes do not lie inside its table's inline data.
    #[error(
        "field of {} at offset {voffset} in its table (as the vtable says) lies outside the \
         {table_size}-byte table",
        Bytes(*.size as u64)
    )]
    FieldOutOfTable {
        /// The field's offset in the table.
        voffset: u16,
        /// The field's inline size.
        size: usize,
        /// The table's size from its vtable.
        table_size: usize,
    },
    /// A string has no NUL byte after its last character.
    #[error("string is not NUL-terminated")]
    StringNotTerminated,
    /// A string is not valid UTF-8.
    #[error("string is not valid UTF-8 (valid up to byte {valid_up_to})")]
    InvalidUtf8 {
        /// The length of the longest valid prefix.
        valid_up_to: usize,
    },
    /// A vector's byte length overflows.
    #[error(
        "vector of {len} elements of {} is too long",
        Bytes(*.elem_size as u64)
    )]
    VectorTooLong {
        /// Element count.
        len: u32,
        /// Element size.
        elem_size: usize,
    },
    /// A required field is absent.
    #[error("required field is missing")]
    MissingRequiredField,
    /// A union type value names no member of the union.
    #[error("union type {value} is not a member of the union")]
    UnknownUnionType {
        /// The type value (of the union's type field: a `ubyte`, or the union's underlying integer
        /// type).
        value: i128,
    },
    /// A union value is present while its type is NONE (0) or absent.
    #[error("union value is present but its type is NONE")]
    UnionValueWithoutType,
    /// A union type is set but its value is absent.
    #[error("union type {value} is set but the union value is missing")]
    UnionTypeWithoutValue {
        /// The type value.
        value: i128,
    },
    /// A vector of union types and its vector of values differ in length.
    #[error("union vector has {types} types but {values} values")]
    UnionVectorLengthMismatch {
        /// Length of the types vector.
        types: usize,
        /// Length of the values vector.
        values: usize,
    },
    /// A vector of union values, not empty, is present without its vector of types.
    #[error("union vector has a vector of values but no vector of types")]
    UnionVectorWithoutTypes,
    /// A vector of union types, not empty, is present without its vector of values.
    #[error("union vector has a vector of types but no vector of values")]
    UnionVectorWithoutValues,
    /// A FlexBuffer (the bytes of a `flexbuffer` field) cannot be read; reported by verifiers that
    /// read FlexBuffers (this crate does not), at the offending byte.
    ///
    /// ```
    /// use flatforge::{Error, ErrorKind};
    /// let kind = ErrorKind::InvalidFlexBuffer { reason: "map has fewer keys than values".into() };
    /// let err = Error::new(kind, 684).in_field("flex");
    /// assert_eq!(
    ///     err.to_string(),
    ///     "FlexBuffer: map has fewer keys than values at byte 684 in flex"
    /// );
    /// ```
    #[error("FlexBuffer: {reason}")]
    InvalidFlexBuffer {
        /// What is wrong.
        reason: String,
    },
    /// Tables (or nested flatbuffers) are nested deeper than the configured limit.
    #[error("nesting deeper than the limit of {limit}")]
    DepthLimitExceeded {
        /// The limit.
        limit: u32,
    },
    /// More tables than the configured limit were visited.
    #[error("more than {limit} tables")]
    TableLimitExceeded {
        /// The limit.
        limit: u32,
    },
    /// The objects visited add up to more bytes than the configured limit (a sign of a buffer whose
    /// offsets share data many times over).
    #[error("apparent size exceeds the limit of {}", Bytes(*.limit as u64))]
    ApparentSizeLimitExceeded {
        /// The limit.
        limit: usize,
    },
}

/// A byte count in words: "1 byte", "2 bytes".
struct Bytes(u64);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unit = if self.0 == 1 { "byte" } else { "bytes" };
        write!(f, "{} {unit}", self.0)
    }
}

/// One step of the path from the root to where an error was found.
///
/// ```
/// use flatforge::{Builder, PathSegment, Vector, Verifier, VerifierOptions};
/// // table Post { tags: [string]; } with "bad" not NUL-terminated
/// let mut b = Builder::new();
/// let tags = [b.create_string("ok")?, b.create_string("bad")?];
/// let tags = b.create_vector_of_offsets(&tags)?;
/// b.start_table();
/// b.add_offset(0, tags)?;
/// let post = b.end_table()?;
/// let mut bytes = b.finish(post, None)?.to_vec();
/// let at = bytes.windows(4).position(|w| w == b"bad\0").unwrap();
/// bytes[at + 3] = b'!';
///
/// let mut v = Verifier::new(&bytes, &VerifierOptions::default());
/// let root = v.root()?;
/// let err = v.follow_table(root)?.field::<Vector<&str>>(0, "tags", false).unwrap_err();
/// let err = err.in_root("Post");
/// let path: Vec<&PathSegment> = err.path().collect();
/// assert_eq!(path, [
///     &PathSegment::Root("Post".into()),
///     &PathSegment::Field("tags".into()),
///     &PathSegment::Index(1),
/// ]);
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PathSegment {
    /// The root's type name.
    Root(String),
    /// A table field.
    Field(String),
    /// A vector element.
    Index(usize),
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Inner {
    kind: ErrorKind,
    offset: usize,
    /// Innermost segment first (segments are pushed while the error propagates outwards).
    path: Vec<PathSegment>,
}

/// A buffer failed verification: [`kind`](Error::kind) says what is wrong,
/// [`offset`](Error::offset) where (a byte offset from the start of the outermost buffer), and
/// [`path`](Error::path) which fields lead there.
///
/// ```
/// use flatforge::{ErrorKind, Table};
/// let err = Table::new(&[0u8; 3], 0).unwrap_err();
/// assert!(matches!(err.kind(), ErrorKind::OutOfBounds { .. }));
/// let err = err.in_field("enemy").in_root("Monster");
/// assert_eq!(err.path_string(), "Monster.enemy");
/// assert_eq!(err.to_string(), "table of 4 bytes extends past the end of the 3-byte buffer at byte 0 in Monster.enemy");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Error(Box<Inner>);

impl Error {
    /// An error of `kind` at byte `offset`, with an empty path.
    ///
    /// ```
    /// use flatforge::{Error, ErrorKind};
    /// let err = Error::new(ErrorKind::MissingRequiredField, 24);
    /// assert_eq!((err.kind(), err.offset()), (&ErrorKind::MissingRequiredField, 24));
    /// assert_eq!(err.path().len(), 0);
    /// assert_eq!(err.to_string(), "required field is missing at byte 24");
    /// ```
    #[cold]
    #[inline(never)]
    pub fn new(kind: ErrorKind, offset: usize) -> Self {
        Error(Box::new(Inner {
            kind,
            offset,
            path: Vec::new(),
        }))
    }

    /// What is wrong.
    ///
    /// ```
    /// use flatforge::ErrorKind;
    /// let err = flatforge::root::<&str>(&[4, 0, 0]).unwrap_err();
    /// assert_eq!(err.kind(), &ErrorKind::BufferTooShort { len: 3, min: 4 });
    /// ```
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }

    /// The byte offset of the offending data from the start of the outermost buffer.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let s = b.create_string("abc")?;
    /// let mut bytes = b.finish(s, None)?.to_vec();
    /// assert_eq!(bytes, [4, 0, 0, 0, 3, 0, 0, 0, b'a', b'b', b'c', 0]);
    /// bytes[11] = b'!'; // the NUL terminator
    /// assert_eq!(flatforge::root::<&str>(&bytes).unwrap_err().offset(), 11);
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    pub fn offset(&self) -> usize {
        self.0.offset
    }

    /// The path from the root, outermost segment first.
    ///
    /// ```
    /// use flatforge::{Error, ErrorKind, PathSegment};
    /// // Segments are added innermost first, as the error propagates outwards.
    /// let err = Error::new(ErrorKind::StringNotTerminated, 40)
    ///     .in_index(3)
    ///     .in_field("inventory")
    ///     .in_root("Monster");
    /// let mut path = err.path();
    /// assert_eq!(path.next(), Some(&PathSegment::Root("Monster".into())));
    /// assert_eq!(path.next_back(), Some(&PathSegment::Index(3)));
    /// assert_eq!(path.len(), 1); // the field is left
    /// ```
    pub fn path(&self) -> impl DoubleEndedIterator<Item = &PathSegment> + ExactSizeIterator {
        self.0.path.iter().rev()
    }

    /// The path formatted as `Monster.inventory[3]`.
    ///
    /// ```
    /// use flatforge::{Error, ErrorKind};
    /// let err = Error::new(ErrorKind::StringNotTerminated, 40).in_index(3).in_field("inventory");
    /// assert_eq!(err.path_string(), "inventory[3]");
    /// assert_eq!(err.in_root("Monster").path_string(), "Monster.inventory[3]");
    /// ```
    pub fn path_string(&self) -> String {
        let mut s = String::new();
        for seg in self.path() {
            match seg {
                PathSegment::Root(name) => s.push_str(name),
                PathSegment::Field(name) => {
                    if !s.is_empty() {
                        s.push('.');
                    }
                    s.push_str(name);
                }
                PathSegment::Index(i) => {
                    use core::fmt::Write;
                    let _ = write!(s, "[{i}]");
                }
            }
        }
        s
    }

    /// Adds the table field the error was found in (as the error propagates outwards); an empty
    /// name adds nothing.
    ///
    /// ```
    /// use flatforge::{Verifier, VerifierOptions};
    /// // A verifier of one's own reports which field a nested check failed in.
    /// let bytes = [4u8, 0, 0, 0, 9, 0, 0, 0]; // an offset to a string claiming 9 bytes
    /// let mut v = Verifier::new(&bytes, &VerifierOptions::default());
    /// let err = v.follow_string(0).map_err(|e| e.in_field("name")).unwrap_err();
    /// assert_eq!(err.path_string(), "name");
    /// assert_eq!(err.in_field("").path_string(), "name");
    /// ```
    #[cold]
    #[inline(never)]
    pub fn in_field(mut self, name: &str) -> Self {
        if !name.is_empty() {
            self.0.path.push(PathSegment::Field(name.into()));
        }
        self
    }

    /// Adds the vector element the error was found in.
    ///
    /// ```
    /// use flatforge::{Error, ErrorKind};
    /// let err = Error::new(ErrorKind::StringNotTerminated, 40).in_index(2).in_field("names");
    /// assert_eq!(err.path_string(), "names[2]");
    /// ```
    #[cold]
    #[inline(never)]
    pub fn in_index(mut self, index: usize) -> Self {
        self.0.path.push(PathSegment::Index(index));
        self
    }

    /// Adds the root type's name; an empty name adds nothing.
    ///
    /// ```
    /// use flatforge::{Error, ErrorKind};
    /// let err = Error::new(ErrorKind::MissingRequiredField, 8).in_field("name");
    /// assert_eq!(err.clone().in_root("Monster").path_string(), "Monster.name");
    /// assert_eq!(err.in_root("").path_string(), "name");
    /// ```
    #[cold]
    #[inline(never)]
    pub fn in_root(mut self, type_name: &str) -> Self {
        if !type_name.is_empty() {
            self.0.path.push(PathSegment::Root(type_name.into()));
        }
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.0.kind, self.0.offset)?;
        if !self.0.path.is_empty() {
            write!(f, " in {}", self.path_string())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.0.kind)
            .field("offset", &self.0.offset)
            .field("path", &self.path_string())
            .finish()
    }
}

impl core::error::Error for Error {}

/// The builder could not write what was asked.
///
/// ```
/// use flatforge::BuildError;
/// let mut b = flatforge::Builder::new();
/// b.create_string("near")?;
/// // Objects behind 64-bit offsets go first, at the end of the buffer.
/// let err = b.far().unwrap_err();
/// assert_eq!(err, BuildError::FarAfterNear { near: 12 });
/// # Ok::<(), BuildError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// The buffer would grow past the configured maximum (2 GiB - 1 by default).
    #[error("the buffer would need {requested} bytes, more than the limit of {limit}")]
    BufferTooLarge {
        /// Bytes the buffer would need.
        requested: u64,
        /// The limit.
        limit: usize,
    },
    /// A table's inline data does not fit the 16-bit offsets of a vtable.
    #[error("table of {size} bytes exceeds the 65535-byte limit of vtable offsets")]
    TableTooLarge {
        /// The table's inline size.
        size: usize,
    },
    /// A field slot past the largest a vtable can hold (32764: a vtable's size, `4 + 2 * (slot +
    /// 1)` bytes, is a 16-bit even number).
    ///
    /// ```
    /// use flatforge::BuildError;
    /// let mut b = flatforge::Builder::new();
    /// b.start_table();
    /// b.add_scalar_always::<u8>(32765, 1)?;
    /// let err = b.end_table().unwrap_err();
    /// assert_eq!(err, BuildError::SlotTooLarge { slot: 32765 });
    /// assert_eq!(err.to_string(), "field slot 32765 exceeds 32764, the largest a vtable holds");
    /// # Ok::<(), BuildError>(())
    /// ```
    #[error("field slot {slot} exceeds 32764, the largest a vtable holds")]
    SlotTooLarge {
        /// The slot.
        slot: usize,
    },
    /// An object behind a 64-bit offset was to be written after objects that 32-bit offsets
    /// refer to. The 64-bit-addressed objects form a region at the end of the buffer (written
    /// first, as C++'s `FlatBufferBuilder64` requires), so that 32-bit offsets never have to
    /// span them.
    #[error(
        "objects behind 64-bit offsets must be written before any other object, but {near} bytes of \
         other data are in the buffer already"
    )]
    FarAfterNear {
        /// The bytes written since the 64-bit region ended.
        near: usize,
    },
    /// An alignment that is not a power of two (0 is taken as 1).
    ///
    /// ```
    /// use flatforge::BuildError;
    /// let mut b = flatforge::Builder::new();
    /// b.start_table();
    /// let err = b.add_bytes(0, &[1, 2, 3], 3).unwrap_err();
    /// assert_eq!(err, BuildError::InvalidAlignment { align: 3 });
    /// assert_eq!(err.to_string(), "alignment 3 is not a power of two");
    /// ```
    #[error("alignment {align} is not a power of two")]
    InvalidAlignment {
        /// The alignment given.
        align: usize,
    },
    /// [`Builder::end_nested`](crate::Builder::end_nested) was given a
    /// [`NestedStart`](crate::NestedStart) from before the builder's last
    /// [`reset`](crate::Builder::reset): the builder's data starts before where the nested buffer
    /// started.
    ///
    /// ```
    /// use flatforge::BuildError;
    /// let mut b = flatforge::Builder::new();
    /// b.create_string("enclosing")?;
    /// let start = b.start_nested()?;
    /// b.reset();
    /// let s = b.create_string("x")?;
    /// let err = b.end_nested(start, s, None).unwrap_err();
    /// assert_eq!(err, BuildError::InvalidNestedStart { started: 32, floor: 0 });
    /// assert_eq!(
    ///     err.to_string(),
    ///     "the nested buffer was started at 32 bytes, but the builder's data starts at 0 bytes \
    ///      (was it reset since?)"
    /// );
    /// # Ok::<(), BuildError>(())
    /// ```
    #[error(
        "the nested buffer was started at {started} bytes, but the builder's data starts at \
         {floor} bytes (was it reset since?)"
    )]
    InvalidNestedStart {
        /// The builder's length when the nested buffer was started.
        started: usize,
        /// Where the builder's current buffer starts (0 after a reset).
        floor: usize,
    },
    /// A required field was given no value: a required union given as its NONE value (to a
    /// generated `create`, builder or `pack`), or an empty required field of an owned table
    /// (object API), where a required table field whose table leads back to its own through
    /// required fields is an `Option`, since no buffer (and no owned value) can hold the endless
    /// chain it asks for.
    #[error("required field `{field}` of `{table}` is empty")]
    MissingRequired {
        /// The table (fully qualified).
        table: &'static str,
        /// The field.
        field: &'static str,
    },
}
