//! The error type shared by every reader and writer: what went wrong, at which byte offset, and where in
//! the tree (`Level.Data.Player.Inventory[3].id`).

use std::fmt;

/// What went wrong; part of an [`Error`].
///
/// ```
/// use flatforge_nbt::{ErrorKind, Nbt, Variant};
/// // An Int tag whose value is cut off after two of its four bytes.
/// let err = Nbt::read(&[3, 0, 0, 0, 0], Variant::Java).unwrap_err();
/// assert_eq!(err.kind(), &ErrorKind::UnexpectedEof { needed: 4, remaining: 2 });
/// assert_eq!(err.kind().to_string(), "unexpected end of input: 4 more bytes needed, 2 left");
/// // A Byte tag without its byte.
/// let err = Nbt::read(&[1, 0, 0], Variant::Java).unwrap_err();
/// assert_eq!(err.to_string(), "unexpected end of input: 1 more byte needed, 0 left at byte 3");
/// let err = Nbt::read(&[1, 0, 0, 7, 0], Variant::Java).unwrap_err();
/// assert_eq!(err.to_string(), "1 trailing byte after the root tag at byte 4");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended before a value was complete.
    #[error("unexpected end of input: {needed} more {} needed, {remaining} left", bytes(*.needed))]
    UnexpectedEof {
        /// Bytes the value needs.
        needed: u64,
        /// Bytes left in the input.
        remaining: u64,
    },
    /// A tag type byte outside 0–12, or End where a value is required.
    #[error("invalid tag type {0}")]
    InvalidTagType(u8),
    /// A list or array length below zero.
    #[error("negative length {0}")]
    NegativeLength(i64),
    /// A list whose element type is End but whose length is not zero.
    #[error("list of End tags with non-zero length {0}")]
    EndListNotEmpty(i64),
    /// Containers nested deeper than the limit (512 as in Minecraft).
    #[error("nesting deeper than {0} compounds and lists")]
    TooDeep(usize),
    /// A string that is not valid modified UTF-8 (Java) or UTF-8 (Bedrock).
    #[error("invalid string: {0}")]
    InvalidString(&'static str),
    /// A string whose encoded form exceeds the format's length limit.
    #[error("string of {len} bytes exceeds the limit of {max} bytes")]
    StringTooLong {
        /// Encoded length in bytes.
        len: usize,
        /// The limit of the variant.
        max: usize,
    },
    /// A list or array with more elements than the format can express.
    #[error("{0} elements do not fit in a 32-bit signed length")]
    TooLong(usize),
    /// A variable-length integer longer than its type allows.
    #[error("variable-length integer too long")]
    VarIntTooLong,
    /// Bytes left over after the root tag.
    #[error("{0} trailing {noun} after the root tag", noun = bytes(*.0 as u64))]
    TrailingBytes(usize),
    /// The input is larger than 4 GiB, which the borrowed reader's offsets cannot address.
    #[error("input of {0} bytes is too large (at most 4 GiB)")]
    InputTooLarge(usize),
    /// A variant's header (the Bedrock level.dat header) does not match the data.
    #[error("invalid header: {0}")]
    InvalidHeader(String),
    /// The input matches none of the NBT variants.
    #[error("not NBT in any known variant (Java, Java network, Bedrock, Bedrock network)")]
    UnknownFormat,
    /// Decompression failed, or the decompressed data exceeds the size limit.
    #[error("decompression failed: {0}")]
    Compression(String),
    /// A serde (de)serialization error, or a value that does not fit the type it is read into.
    #[error("{0}")]
    Serde(String),
    /// An SNBT syntax or range error.
    #[error("SNBT: {0}")]
    Snbt(String),
    /// A JSON value that cannot be converted to NBT.
    #[error("JSON: {0}")]
    Json(String),
    /// An I/O error from a reader or writer.
    #[error("I/O: {0}")]
    Io(String),
}

/// The noun for `n` bytes.
pub(crate) fn bytes(n: u64) -> &'static str {
    if n == 1 {
        "byte"
    } else {
        "bytes"
    }
}

/// One step of the path from the root to the failing value.
///
/// ```
/// use flatforge_nbt::snbt::{from_snbt, Dialect};
/// use flatforge_nbt::PathSegment;
/// let err = from_snbt("{items: [{id: 1}, {id: [I; 1, x]}]}", Dialect::Modern).unwrap_err();
/// // The path as a JSON pointer.
/// let pointer: String = err
///     .path_segments()
///     .map(|segment| match segment {
///         PathSegment::Field(name) => format!("/{name}"),
///         PathSegment::Index(i) => format!("/{i}"),
///         // More kinds of segment may come.
///         other => format!("/{other:?}"),
///     })
///     .collect();
/// assert_eq!(pointer, "/items/1/id");
/// ```
///
/// More kinds of segment may come (the argument of an SNBT operation, say).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PathSegment {
    /// A named field of a compound.
    Field(String),
    /// An element of a list or array.
    Index(usize),
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Inner {
    kind: ErrorKind,
    offset: Option<usize>,
    /// Innermost segment first: segments are pushed while the error travels up the tree.
    path: Vec<PathSegment>,
}

/// An error from reading, writing or converting NBT: kind, byte offset and path.
///
/// ```
/// let err = flatforge_nbt::Nbt::read(&[10, 0, 0, 9, 0, 1, b'x', 3, 0xff, 0xff, 0xff, 0xff],
///     flatforge_nbt::Variant::Java).unwrap_err();
/// assert_eq!(err.offset(), Some(8));
/// assert_eq!(err.path(), "x");
/// assert_eq!(err.to_string(), "negative length -1 at byte 8 in x");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Error(Box<Inner>);

impl Error {
    /// An error of `kind` at byte `offset` (of the decompressed input).
    ///
    /// ```
    /// use flatforge_nbt::{Error, ErrorKind};
    /// let err = Error::at(ErrorKind::TrailingBytes(2), 7);
    /// assert_eq!(err.offset(), Some(7));
    /// assert_eq!(err.to_string(), "2 trailing bytes after the root tag at byte 7");
    /// ```
    #[cold]
    pub fn at(kind: ErrorKind, offset: usize) -> Self {
        Error(Box::new(Inner {
            kind,
            offset: Some(offset),
            path: Vec::new(),
        }))
    }

    /// An error that is not tied to a position in binary input (writing, SNBT, JSON).
    ///
    /// ```
    /// use flatforge_nbt::{Error, ErrorKind};
    /// let err = Error::new(ErrorKind::Json("expected a number".into()));
    /// assert_eq!(err.offset(), None);
    /// assert_eq!(err.to_string(), "JSON: expected a number");
    /// ```
    #[cold]
    pub fn new(kind: ErrorKind) -> Self {
        Error(Box::new(Inner {
            kind,
            offset: None,
            path: Vec::new(),
        }))
    }

    /// What went wrong.
    ///
    /// ```
    /// use flatforge_nbt::{ErrorKind, Nbt, Variant};
    /// let err = Nbt::read(&[0], Variant::Java).unwrap_err();
    /// assert!(matches!(err.kind(), ErrorKind::InvalidTagType(0)));
    /// ```
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }

    /// The byte offset in the (decompressed) input, when the error comes from binary input.
    ///
    /// ```
    /// use flatforge_nbt::{compress, Compression, Nbt, Variant};
    /// // A gzipped Int tag, cut off: the offset counts decompressed bytes.
    /// let file = compress(&[3, 0, 0, 0, 0], Compression::Gzip)?;
    /// let err = Nbt::from_file_bytes_as(&file, Variant::Java).unwrap_err();
    /// assert_eq!(err.offset(), Some(3));
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn offset(&self) -> Option<usize> {
        self.0.offset
    }

    /// The path segments from the root to the failing value.
    ///
    /// ```
    /// use flatforge_nbt::{Compound, List, Nbt, PathSegment, Variant};
    /// let mut root = Compound::new();
    /// root.insert("names", List::String(vec!["ok".into(), "x".repeat(70_000)]));
    /// let err = Nbt::new("", root).to_vec(Variant::Java).unwrap_err();
    /// let path: Vec<&PathSegment> = err.path_segments().collect();
    /// assert_eq!(path, [&PathSegment::Field("names".into()), &PathSegment::Index(1)]);
    /// ```
    pub fn path_segments(&self) -> impl Iterator<Item = &PathSegment> {
        self.0.path.iter().rev()
    }

    /// The path rendered as `Level.Data.Player.Inventory[3].id` (empty at the root). Names that
    /// are empty or hold `.`, `[`, `]`, `"` or a space are quoted.
    ///
    /// ```
    /// use flatforge_nbt::{Compound, List, Nbt, Variant};
    /// let mut item = Compound::new();
    /// item.insert("id", "x".repeat(70_000));
    /// let mut root = Compound::new();
    /// root.insert("my items", List::Compound(vec![item]));
    /// let err = Nbt::new("", root).to_vec(Variant::Java).unwrap_err();
    /// assert_eq!(err.path(), r#""my items"[0].id"#);
    /// ```
    pub fn path(&self) -> String {
        let mut out = String::new();
        render_path(self.path_segments(), &mut out);
        out
    }

    /// The path as the error's message shows it: [`Error::path`], except that a path of more than 16
    /// segments keeps only its first and last 8, with the count of those left out between them.
    ///
    /// ```
    /// use flatforge_nbt::snbt::{from_snbt, Dialect};
    /// let text = format!("{}1{}", "{a:".repeat(600), "}".repeat(600));
    /// let err = from_snbt(&text, Dialect::Modern).unwrap_err();
    /// assert_eq!(err.path_segments().count(), 512);
    /// assert_eq!(err.short_path(), "a.a.a.a.a.a.a.a…(496 more)…a.a.a.a.a.a.a.a");
    /// let err = flatforge_nbt::Nbt::read(&[0], flatforge_nbt::Variant::Java).unwrap_err();
    /// assert_eq!(err.short_path(), "");
    /// ```
    pub fn short_path(&self) -> String {
        let n = self.0.path.len();
        if n <= SHOWN_SEGMENTS {
            return self.path();
        }
        // A path 512 levels deep would drown the message: its ends say where.
        let half = SHOWN_SEGMENTS / 2;
        let (mut head, mut tail) = (String::new(), String::new());
        render_path(self.path_segments().take(half), &mut head);
        render_path(self.path_segments().skip(n - half), &mut tail);
        format!("{head}…({} more)…{tail}", n - 2 * half)
    }

    /// Adds a field name in front of the path (used while the error travels towards the root).
    #[cold]
    pub(crate) fn in_field(mut self, name: &str) -> Self {
        self.0.path.push(PathSegment::Field(name.to_owned()));
        self
    }

    /// Adds a field name given as raw encoded bytes (decoded lossily: it is only for display).
    #[cold]
    pub(crate) fn in_field_bytes(self, name: &[u8]) -> Self {
        let name = String::from_utf8_lossy(name).into_owned();
        self.in_field(&name)
    }

    /// Adds a list or array index in front of the path.
    #[cold]
    pub(crate) fn in_index(mut self, index: usize) -> Self {
        self.0.path.push(PathSegment::Index(index));
        self
    }

    /// Moves the offset by `by` bytes (for data read after a header).
    pub(crate) fn shifted(mut self, by: usize) -> Self {
        if let Some(offset) = &mut self.0.offset {
            *offset += by;
        }
        self
    }

    /// Sets the offset if none is known yet.
    pub(crate) fn with_offset(mut self, offset: usize) -> Self {
        if self.0.offset.is_none() {
            self.0.offset = Some(offset);
        }
        self
    }
}

/// Appends the path segments `segs` to `out` as [`Error::path`] renders them.
fn render_path<'a>(segs: impl Iterator<Item = &'a PathSegment>, out: &mut String) {
    for seg in segs {
        match seg {
            PathSegment::Field(name) => {
                if !out.is_empty() {
                    out.push('.');
                }
                if name.is_empty() || name.contains(['.', '[', ']', '"', ' ']) {
                    out.push('"');
                    out.push_str(&name.replace('\\', "\\\\").replace('"', "\\\""));
                    out.push('"');
                } else {
                    out.push_str(name);
                }
            }
            PathSegment::Index(i) => {
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
        }
    }
}

/// Paths longer than this many segments are shown by [`Error::short_path`] with their middle left out.
const SHOWN_SEGMENTS: usize = 16;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.kind)?;
        if let Some(offset) = self.0.offset {
            write!(f, " at byte {offset}")?;
        }
        let path = self.short_path();
        if !path.is_empty() {
            write!(f, " in {path}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({self})")
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::new(ErrorKind::Io(e.to_string()))
    }
}

/// Result alias used throughout the crate.
///
/// ```
/// use flatforge_nbt::{Nbt, Result, Tag, Variant};
/// fn root_int(data: &[u8]) -> Result<Option<i32>> {
///     Ok(match Nbt::read(data, Variant::Java)?.tag {
///         Tag::Int(v) => Some(v),
///         _ => None,
///     })
/// }
/// assert_eq!(root_int(&[3, 0, 0, 0, 0, 0, 9])?, Some(9));
/// assert!(root_int(&[3, 0, 0]).is_err());
/// # Ok::<(), flatforge_nbt::Error>(())
/// ```
pub type Result<T, E = Error> = std::result::Result<T, E>;
