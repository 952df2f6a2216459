//! FlatBuffers JSON, driven by a schema at run time: binary to JSON, JSON to binary, and a
//! schema-driven verifier, for any table of any [`Schema`] (no generated code needed).
//!
//! ```
//! use flatforge_json::{Codec, ParseOptions, PrintOptions};
//!
//! let schema = flatforge_schema::compile_str(
//!     "monster.fbs",
//!     "enum Color : ubyte { Red, Green } table Monster { name: string; hp: short = 100; color: Color; }
//!      root_type Monster;",
//! )?;
//! let codec = Codec::new(&schema);
//! let root = codec.root_type(None)?;
//!
//! // JSON in flatc's dialect (unquoted keys, enum names) straight into a FlatBuffer.
//! let mut parser = codec.parser(ParseOptions::default());
//! let bytes = parser.parse(root, br#"{ name: "Orc", hp: 80, color: Green }"#)?.to_vec();
//!
//! // Back to strict JSON, laid out as `flatc -t --strict-json` lays it out.
//! let mut printer = codec.printer(PrintOptions::default());
//! let text = printer.print(root, &bytes)?;
//! assert_eq!(text, "{\n  \"name\": \"Orc\",\n  \"hp\": 80,\n  \"color\": \"Green\"\n}\n");
//!
//! // The schema-driven verifier is what the printer runs first.
//! assert!(codec.verify(root, &bytes[..bytes.len() - 1], &Default::default()).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What differs from flatc, on purpose
//!
//! - **Floats print as the shortest text that reads back to the same value** (ryu), so `1e-20`
//!   stays `1e-20` where flatc prints `0.0`. [`FloatFormat::Flatc`] reproduces flatc's text.
//! - **Non-finite floats**: in strict JSON they print as the strings `"nan"`, `"inf"` and `"-inf"`
//!   (valid JSON, and both flatc and this parser read them back); otherwise bare, as flatc prints
//!   them. See [`NonFinite`].
//! - **Buffers are verified before printing**: a malformed buffer gets an error with the path and
//!   byte offset, never garbage or a crash.
//! - **The parser accepts a little more**: a union value may come before its `_type` field
//!   anywhere in the object (flatc only looks at the next field), and so may a vector of unions;
//!   enum names may be qualified with the enum's name or full name (`"Color.Red"`,
//!   `"Game.Color.Red"`). `null` leaves out what flatc lets it leave out (optional scalars, and
//!   references, for which it is ignored); for other scalars it is an error, as in flatc.
//! - **FlexBuffer integers beyond 64-bit signed are refused**, where flatc stores 0 for them (as it
//!   does for every hex integer there, which we store as given): a value is never lost silently.
//! - **Deprecated fields are not verified**, as generated verifiers (flatc's too) skip them: no
//!   reader reads them. Present ones print, as flatc prints them, if they verify; a buffer whose
//!   deprecated fields do not (it is valid all the same) prints without any of them, where flatc
//!   would read whatever their offsets point to.
//! - **FlexBuffer blobs holding bytes that are not UTF-8** print in strict JSON as the array of
//!   their byte values (`[ 104, 255 ]`), where flatc writes `"h\xFF"`, which is not JSON (and
//!   without `strict_json` we write what flatc writes). Other blobs print as strings, as in flatc.
//! - **Natural UTF-8 output** still escapes control characters (flatc writes them raw, which is not
//!   JSON).
//! - **64-bit offsets** (`offset64`, `vector64`) are verified, printed and parsed as flatc's C++
//!   library defines them. flatc 25.12.19 itself cannot print `vector64` fields, and its JSON
//!   parser writes some of them so that they do not hold the JSON (see the parser's notes); where
//!   it gets them right, our buffers are its buffers.
//! - **Unions with an underlying type** (`union U : int { ... }`) have a type field, and vectors of
//!   types, of that integer type, as flatc's C++ code writes them; flatc 25.12.19's own JSON
//!   printer refuses such schemas and its parser writes the type as a `ubyte`.
//!
//! Modules: `plan` (the schema compiled for JSON), `verify` (schema-driven verifier), `print`
//! (binary to JSON), `parse` (JSON to binary), `number` (number text), `escape` (string escapes),
//! `flex` (FlexBuffers, for `flexbuffer` fields).
#![deny(missing_docs)]

mod escape;
mod flex;
mod number;
mod parse;
mod plan;
mod print;
mod verify;

use flatforge::{BuildError, Builder, Verifier, VerifierOptions};
use flatforge_schema::Schema;

use crate::plan::Plan;

pub use crate::parse::{ParseError, ParseErrorKind};

/// A schema compiled for JSON conversion and verification; build it once and reuse it.
///
/// ```
/// let schema = flatforge_schema::compile_str("a.fbs", "table T { a: int; } root_type T;")?;
/// let codec = flatforge_json::Codec::new(&schema);
/// assert!(codec.root_type(Some("T")).is_ok());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Codec<'s> {
    schema: &'s Schema,
    plan: Plan,
}

/// A table chosen as the root type of buffers; made by [`Codec::root_type`].
///
/// ```
/// let text = "table A { x: int; } table B { x: string; }";
/// let schema = flatforge_schema::compile_str("a.fbs", text)?;
/// let codec = flatforge_json::Codec::new(&schema);
/// let (a, b) = (codec.root_type(Some("A"))?, codec.root_type(Some("B"))?);
/// assert_ne!(a, b);
/// // The same JSON is a buffer of one root type and not of the other.
/// let mut parser = codec.parser(Default::default());
/// assert!(parser.parse(a, b"{ x: 1 }").is_ok());
/// assert!(parser.parse(b, b"{ x: 1 }").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RootType(u32);

/// The root type asked for is not a table of the schema.
///
/// ```
/// let schema = flatforge_schema::compile_str("a.fbs", "table T {}")?;
/// let codec = flatforge_json::Codec::new(&schema);
/// let err = codec.root_type(None).unwrap_err();
/// assert!(err.to_string().contains("root_type"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RootTypeError {
    /// No name was given and the schema declares no `root_type`.
    #[error("the schema declares no root_type: name the root table (--root-type)")]
    NoRootType,
    /// No table has this name.
    #[error("no table named `{0}` in the schema")]
    Unknown(String),
    /// The name is a struct, which cannot be a root.
    #[error("`{0}` is a struct; a root type must be a table")]
    NotATable(String),
    /// The name is an enum or a union, which cannot be a root.
    #[error("`{0}` is an enum or union; a root type must be a table")]
    NotAnObject(String),
    /// The name, not fully qualified, ends the full names of several tables.
    #[error("`{name}` could be {}: give the full name", candidates.join(" or "))]
    Ambiguous {
        /// The name asked for.
        name: String,
        /// The full names it could be.
        candidates: Vec<String>,
    },
}

impl<'s> Codec<'s> {
    /// Compiles `schema` for JSON work.
    ///
    /// ```
    /// use flatforge_json::{Codec, PrintOptions};
    /// let schema = flatforge_schema::compile_str("a.fbs", "table T { a: int; } root_type T;")?;
    /// let codec = Codec::new(&schema);
    /// let root = codec.root_type(None)?;
    /// // One codec serves parsers, printers and the verifier alike.
    /// let bytes = codec.parser(Default::default()).parse(root, b"{ a: 7 }")?.to_vec();
    /// assert!(codec.verify(root, &bytes, &Default::default()).is_ok());
    /// let mut one_line = PrintOptions::default();
    /// one_line.indent = None;
    /// assert_eq!(codec.printer(one_line).print(root, &bytes)?, r#"{"a": 7}"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(schema: &'s Schema) -> Codec<'s> {
        Codec {
            schema,
            plan: Plan::new(schema),
        }
    }

    /// The schema.
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("a.fbs", "table T {}")?;
    /// let codec = flatforge_json::Codec::new(&schema);
    /// assert_eq!(codec.schema().objects.len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn schema(&self) -> &'s Schema {
        self.schema
    }

    /// The root table: `name` (its full name, or the end of it after a `.` if that is
    /// unambiguous: `Monster` or `Example.Monster` for `MyGame.Example.Monster`), or the schema's
    /// `root_type` when `name` is `None`.
    ///
    /// ```
    /// use flatforge_json::RootTypeError;
    /// let schema = flatforge_schema::compile_str(
    ///     "a.fbs",
    ///     "namespace G.H; table A {} table B {} namespace G.K; table B {} enum E : byte { X }",
    /// )?;
    /// let codec = flatforge_json::Codec::new(&schema);
    /// assert_eq!(codec.root_type(Some("A"))?, codec.root_type(Some("G.H.A"))?);
    /// assert_eq!(codec.root_type(Some("H.B"))?, codec.root_type(Some("G.H.B"))?);
    /// let err = codec.root_type(Some("B")).unwrap_err();
    /// assert_eq!(err.to_string(), "`B` could be G.H.B or G.K.B: give the full name");
    /// assert!(matches!(codec.root_type(Some("E")), Err(RootTypeError::NotAnObject(_))));
    /// // A struct of the same name makes no table name ambiguous.
    /// let schema = flatforge_schema::compile_str("b.fbs", "namespace A; struct S { x: int; } namespace B; table S {}")?;
    /// let codec = flatforge_json::Codec::new(&schema);
    /// assert_eq!(codec.root_type(Some("S"))?, codec.root_type(Some("B.S"))?);
    /// assert!(matches!(codec.root_type(Some("C")), Err(RootTypeError::Unknown(_))));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn root_type(&self, name: Option<&str>) -> Result<RootType, RootTypeError> {
        let id = match name {
            None => self.schema.root_table.ok_or(RootTypeError::NoRootType)?,
            Some(n) => match self.schema.find_object(n) {
                Some(id) => id,
                None => {
                    let names = |full: &str| {
                        full.len() > n.len()
                            && full.ends_with(n)
                            && full.as_bytes()[full.len() - n.len() - 1] == b'.'
                    };
                    let ends = |tables: bool| -> Vec<usize> {
                        (0..self.schema.objects.len())
                            .filter(|&i| {
                                let o = &self.schema.objects[i];
                                o.is_struct != tables && names(&o.full_name)
                            })
                            .collect()
                    };
                    // Tables first: a struct cannot be a root, so it makes no name ambiguous.
                    let tables = ends(true);
                    let found = if tables.is_empty() {
                        ends(false)
                    } else {
                        tables
                    };
                    match found[..] {
                        [i] => flatforge_schema::ObjectId(i as u32),
                        [] if self
                            .schema
                            .enums
                            .iter()
                            .any(|e| e.full_name == n || names(&e.full_name)) =>
                        {
                            return Err(RootTypeError::NotAnObject(n.to_string()))
                        }
                        [] => return Err(RootTypeError::Unknown(n.to_string())),
                        _ => {
                            return Err(RootTypeError::Ambiguous {
                                name: n.to_string(),
                                candidates: found
                                    .iter()
                                    .map(|&i| self.schema.objects[i].full_name.to_string())
                                    .collect(),
                            })
                        }
                    }
                }
            },
        };
        if self.schema[id].is_struct {
            return Err(RootTypeError::NotATable(
                self.schema[id].full_name.to_string(),
            ));
        }
        Ok(RootType(id.0))
    }

    /// The file identifier the schema declares (written by the parser, expected by
    /// [`VerifyOptions::check_identifier`]).
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("a.fbs", "table T {} file_identifier \"ABCD\";")?;
    /// assert_eq!(flatforge_json::Codec::new(&schema).file_identifier(), Some(*b"ABCD"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn file_identifier(&self) -> Option<[u8; 4]> {
        self.plan.file_identifier
    }

    /// Verifies `buf` as a buffer whose root is `root`: every check generated verifiers make.
    /// Errors name the path (`Monster.inventory[3]`) and the byte offset. Deprecated fields are
    /// not checked, as generated verifiers (flatc's too) do not check them: nothing reads them.
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("a.fbs", "table T { s: string (required); }")?;
    /// let codec = flatforge_json::Codec::new(&schema);
    /// let root = codec.root_type(Some("T"))?;
    /// let mut b = flatforge::Builder::new();
    /// b.start_table();
    /// let t = b.end_table()?;
    /// let bytes = b.finish(t, None)?;
    /// let err = codec.verify(root, bytes, &Default::default()).unwrap_err();
    /// assert_eq!(err.path_string(), "T.s");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn verify(
        &self,
        root: RootType,
        buf: &[u8],
        opts: &VerifyOptions,
    ) -> Result<(), flatforge::Error> {
        self.verify_fields::<false>(root, buf, opts)
    }

    /// [`verify`](Self::verify), checking deprecated fields too if `DEPRECATED`.
    fn verify_fields<const DEPRECATED: bool>(
        &self,
        root: RootType,
        buf: &[u8],
        opts: &VerifyOptions,
    ) -> Result<(), flatforge::Error> {
        let mut vopts = if opts.size_prefix64 {
            opts.limits.clone().with_size_prefixed64(opts.size_prefixed)
        } else {
            opts.limits.clone().with_size_prefixed(opts.size_prefixed)
        };
        if opts.check_identifier {
            if let Some(id) = self.plan.file_identifier {
                vopts = vopts.with_file_identifier(id);
            }
        }
        let mut v = Verifier::new(buf, &vopts);
        let name = &self.plan.objects[root.0 as usize].name;
        let pos = v.root().map_err(|e| e.in_root(name))?;
        verify::table_at::<DEPRECATED>(&self.plan, &mut v, root.0, pos).map_err(|e| e.in_root(name))
    }

    /// A printer (binary to JSON) with the given options; reuse it to reuse its output buffer.
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("a.fbs", "table T { n: int; } root_type T;")?;
    /// let codec = flatforge_json::Codec::new(&schema);
    /// let root = codec.root_type(None)?;
    /// let mut parser = codec.parser(Default::default());
    /// let one = parser.parse(root, b"{ n: 1 }")?.to_vec();
    /// let two = parser.parse(root, b"{ n: 2 }")?.to_vec();
    /// let mut printer = codec.printer(Default::default());
    /// assert_eq!(printer.print(root, &one)?, "{\n  \"n\": 1\n}\n");
    /// assert_eq!(printer.print(root, &two)?, "{\n  \"n\": 2\n}\n");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn printer(&self, opts: PrintOptions) -> Printer<'_, 's> {
        Printer {
            codec: self,
            opts,
            out: Vec::new(),
            left_out: None,
        }
    }

    /// A parser (JSON to binary) with the given options; reuse it to reuse its buffers.
    ///
    /// ```
    /// use flatforge_json::{Codec, ParseOptions};
    /// let schema = flatforge_schema::compile_str("a.fbs", "table T { n: int; } root_type T;")?;
    /// let codec = Codec::new(&schema);
    /// let root = codec.root_type(None)?;
    /// let mut opts = ParseOptions::default();
    /// opts.size_prefixed = true;
    /// let mut parser = codec.parser(opts);
    /// for n in [1, 20, 300] {
    ///     let buf = parser.parse(root, format!("{{ n: {n} }}").as_bytes())?;
    ///     let size = u32::from_le_bytes(buf[..4].try_into().unwrap()) as usize;
    ///     assert_eq!(size, buf.len() - 4);
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parser(&self, opts: ParseOptions) -> Parser<'_, 's> {
        Parser {
            codec: self,
            opts,
            state: parse::Scratch::default(),
            builder: Builder::new(),
        }
    }
}

/// Options of the schema-driven verifier.
///
/// ```
/// use flatforge_json::{Codec, VerifyOptions};
/// let opts = VerifyOptions::default();
/// assert!(opts.check_identifier && !opts.size_prefixed);
///
/// let schema = flatforge_schema::compile_str("a.fbs", "table T {} file_identifier \"TTTT\";")?;
/// let codec = Codec::new(&schema);
/// let root = codec.root_type(Some("T"))?;
/// let mut b = flatforge::Builder::new();
/// b.start_table();
/// let t = b.end_table()?;
/// let bytes = b.finish(t, None)?; // without the schema's identifier
/// assert!(codec.verify(root, bytes, &opts).is_err());
/// let mut raw = VerifyOptions::default();
/// raw.check_identifier = false; // flatc's --raw-binary
/// assert!(codec.verify(root, bytes, &raw).is_ok());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct VerifyOptions {
    /// Depth, table-count and apparent-size limits, and whether alignment is checked. Its
    /// size-prefix settings are replaced by `size_prefixed` and `size_prefix64`; its file
    /// identifier is replaced by the schema's when `check_identifier` is set and the schema
    /// declares one, and checked as is otherwise.
    pub limits: VerifierOptions,
    /// The buffer starts with a size prefix: 32-bit, unless `size_prefix64`.
    pub size_prefixed: bool,
    /// With `size_prefixed`: the prefix is 64-bit, as C++'s `FlatBufferBuilder64` writes it and
    /// flatc's generated `VerifySizePrefixed...Buffer` expects it for schemas with 64-bit offsets.
    ///
    /// ```
    /// use flatforge_json::{Codec, VerifyOptions};
    /// let schema = flatforge_schema::compile_str("a.fbs", "table T { s: string; } root_type T;")?;
    /// let codec = Codec::new(&schema);
    /// let root = codec.root_type(None)?;
    /// let mut b = flatforge::Builder::new();
    /// let s = b.create_string("hi")?;
    /// b.start_table();
    /// b.add_offset(0, s)?;
    /// let t = b.end_table()?;
    /// let bytes = b.finish_size_prefixed64(t, None)?;
    /// let mut opts = VerifyOptions::default();
    /// opts.size_prefixed = true;
    /// assert!(codec.verify(root, bytes, &opts).is_err()); // read as a 32-bit prefix
    /// opts.size_prefix64 = true;
    /// assert!(codec.verify(root, bytes, &opts).is_ok());
    /// let mut printer = codec.printer({
    ///     let mut p = flatforge_json::PrintOptions::default();
    ///     p.verify = opts;
    ///     p
    /// });
    /// assert_eq!(printer.print(root, bytes)?, "{\n  \"s\": \"hi\"\n}\n");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub size_prefix64: bool,
    /// Check the schema's `file_identifier`, if it declares one (flatc's default; `--raw-binary`
    /// turns it off).
    pub check_identifier: bool,
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            limits: VerifierOptions::default(),
            size_prefixed: false,
            size_prefix64: false,
            check_identifier: true,
        }
    }
}

/// How floats are printed.
///
/// ```
/// use flatforge_json::{Codec, FloatFormat, PrintOptions};
/// let schema = flatforge_schema::compile_str("a.fbs", "table T { f: double; } root_type T;")?;
/// let codec = Codec::new(&schema);
/// let root = codec.root_type(None)?;
/// let bytes = codec.parser(Default::default()).parse(root, b"{ f: 1e-20 }")?.to_vec();
/// let print = |float_format| -> Result<String, flatforge_json::PrintError> {
///     let mut opts = PrintOptions::default();
///     opts.indent = None;
///     opts.float_format = float_format;
///     Ok(codec.printer(opts).print(root, &bytes)?.to_owned())
/// };
/// assert_eq!(print(FloatFormat::Shortest)?, r#"{"f": 1e-20}"#);
/// assert_eq!(print(FloatFormat::Flatc)?, r#"{"f": 0.0}"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum FloatFormat {
    /// The shortest text that reads back to the same value (`1e-20`, `3.14159`, `1.0`).
    #[default]
    Shortest,
    /// flatc's text: fixed notation with 6 (`float`) or 12 (`double`) decimals, trailing zeros
    /// trimmed (`1e-20` prints as `0.0`), and a NaN with its sign bit set as `-nan`. For output
    /// that must match flatc byte for byte.
    Flatc,
}

/// How NaN and infinities are printed.
///
/// ```
/// use flatforge_json::{Codec, NonFinite, PrintOptions};
/// let schema = flatforge_schema::compile_str("a.fbs", "table T { f: float; } root_type T;")?;
/// let codec = Codec::new(&schema);
/// let root = codec.root_type(None)?;
/// let bytes = codec.parser(Default::default()).parse(root, b"{ f: -inf }")?.to_vec();
/// let print = |non_finite| -> Result<String, flatforge_json::PrintError> {
///     let mut opts = PrintOptions::default(); // strict JSON
///     opts.indent = None;
///     opts.non_finite = non_finite;
///     Ok(codec.printer(opts).print(root, &bytes)?.to_owned())
/// };
/// assert_eq!(print(NonFinite::Auto)?, r#"{"f": "-inf"}"#);
/// assert_eq!(print(NonFinite::Bare)?, r#"{"f": -inf}"#);
/// // The quoted form reads back.
/// let again = codec.parser(Default::default()).parse(root, br#"{ "f": "-inf" }"#)?.to_vec();
/// assert_eq!(again, bytes);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum NonFinite {
    /// Quoted strings (`"nan"`, `"inf"`, `"-inf"`) in strict JSON, bare words otherwise.
    #[default]
    Auto,
    /// Always quoted strings: valid JSON that flatc and this parser read back. (In a
    /// `flexbuffer` field, which has no schema, a quoted one reads back as a string: `Bare` keeps
    /// such a value a number, in text that is not valid JSON.)
    Quoted,
    /// Always bare `nan`, `inf`, `-inf`, as flatc prints them (not valid JSON).
    Bare,
}

/// Options of the printer (binary to JSON).
///
/// ```
/// use flatforge_json::{Codec, PrintOptions};
/// let opts = PrintOptions::default();
/// assert!(opts.strict_json && opts.indent == Some(2));
///
/// let schema = flatforge_schema::compile_str("a.fbs", "table T { a: int; b: int = 5; }")?;
/// let codec = Codec::new(&schema);
/// let root = codec.root_type(Some("T"))?;
/// let bytes = codec.parser(Default::default()).parse(root, b"{ a: 1 }")?.to_vec();
/// let mut opts = PrintOptions::default();
/// opts.strict_json = false; // flatc's `name: value`
/// opts.indent = None; // one line
/// opts.defaults = true; // print `b`, absent from the buffer, with its default
/// assert_eq!(codec.printer(opts).print(root, &bytes)?, "{a: 1,b: 5}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct PrintOptions {
    /// Quote field names (`--strict-json`); otherwise flatc's default, `name: value`.
    pub strict_json: bool,
    /// Print scalar fields that are absent from the buffer with their default value
    /// (`--defaults-json`).
    pub defaults: bool,
    /// Keep non-ASCII characters as UTF-8 instead of `\uXXXX` escapes (`--natural-utf8`).
    pub natural_utf8: bool,
    /// Spaces per level of indentation (flatc: 2), or `None` for everything on one line.
    pub indent: Option<u8>,
    /// How floats are printed.
    pub float_format: FloatFormat,
    /// How NaN and infinities are printed.
    pub non_finite: NonFinite,
    /// The largest output, in bytes, before printing stops with an error.
    pub max_output: usize,
    /// Verification of the buffer before printing (limits, size prefix, identifier).
    pub verify: VerifyOptions,
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            strict_json: true,
            defaults: false,
            natural_utf8: false,
            indent: Some(2),
            float_format: FloatFormat::Shortest,
            non_finite: NonFinite::Auto,
            max_output: 1 << 32,
            verify: VerifyOptions::default(),
        }
    }
}

/// Printing failed: the buffer does not verify, or the output would be too large.
///
/// ```
/// use flatforge_json::{Codec, PrintError, PrintOptions};
/// let schema = flatforge_schema::compile_str("a.fbs", "table T { s: string; } root_type T;")?;
/// let codec = Codec::new(&schema);
/// let root = codec.root_type(None)?;
/// let json = br#"{ s: "a long string" }"#;
/// let bytes = codec.parser(Default::default()).parse(root, json)?.to_vec();
/// let mut printer = codec.printer(Default::default());
/// let err = printer.print(root, &bytes[..bytes.len() - 4]).unwrap_err();
/// assert!(matches!(err, PrintError::Invalid(_)));
/// let mut small = PrintOptions::default();
/// small.max_output = 8;
/// let err = codec.printer(small).print(root, &bytes).unwrap_err();
/// assert!(matches!(err, PrintError::OutputTooLarge { limit: 8 }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum PrintError {
    /// The buffer failed verification.
    #[error("invalid buffer: {0}")]
    Invalid(#[from] flatforge::Error),
    /// The output exceeded [`PrintOptions::max_output`].
    #[error("the JSON output exceeds the limit of {limit} bytes")]
    OutputTooLarge {
        /// The limit.
        limit: usize,
    },
    /// A union holds a type its schema does not list: a member added by a newer schema, which the
    /// verifier accepts unchecked ([`flatforge::VerifierOptions::unknown_union_types`]) but which
    /// cannot be printed.
    #[error(
        "union `{union}` holds type {value}, which the schema does not list (a newer schema's \
         member?): it cannot be printed"
    )]
    UnknownUnionType {
        /// The union's full name.
        union: String,
        /// The type found.
        value: i128,
    },
    /// The buffer uses a feature this converter does not handle.
    #[error("field `{field}` uses {what}, which is not supported")]
    Unsupported {
        /// The feature.
        what: &'static str,
        /// The field.
        field: String,
    },
}

/// Prints verified buffers as JSON; made by [`Codec::printer`].
///
/// ```
/// let fbs = "table T { tags: [string]; } root_type T;";
/// let schema = flatforge_schema::compile_str("a.fbs", fbs)?;
/// let codec = flatforge_json::Codec::new(&schema);
/// let root = codec.root_type(None)?;
/// let bytes = codec.parser(Default::default()).parse(root, br#"{ tags: ["x", "y"] }"#)?.to_vec();
/// let mut printer = codec.printer(Default::default());
/// let text = printer.print(root, &bytes)?;
/// assert_eq!(text, "{\n  \"tags\": [\n    \"x\",\n    \"y\"\n  ]\n}\n");
/// // What it prints, the parser reads back to the same buffer.
/// assert_eq!(codec.parser(Default::default()).parse(root, text.as_bytes())?, bytes);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Printer<'c, 's> {
    codec: &'c Codec<'s>,
    opts: PrintOptions,
    out: Vec<u8>,
    /// Why the last buffer printed without its deprecated fields, if it did.
    left_out: Option<flatforge::Error>,
}

impl Printer<'_, '_> {
    /// Verifies `buf` and prints it as JSON (with a final newline when indented, as flatc writes
    /// it). The text borrows the printer's buffer, which the next call reuses. Deprecated fields
    /// print if they verify too, and are left out (all of them) if not: see the crate docs.
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("a.fbs", "table T { x: float; }")?;
    /// let codec = flatforge_json::Codec::new(&schema);
    /// let root = codec.root_type(Some("T"))?;
    /// let bytes = codec.parser(Default::default()).parse(root, b"{ x: 1e-20 }")?.to_vec();
    /// let mut opts = flatforge_json::PrintOptions::default();
    /// opts.strict_json = false;
    /// assert_eq!(codec.printer(opts).print(root, &bytes)?, "{\n  x: 1e-20\n}\n");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn print(&mut self, root: RootType, buf: &[u8]) -> Result<&str, PrintError> {
        self.out.clear();
        self.print_into(root, buf)?;
        // The printer writes ASCII and the verified UTF-8 of strings only.
        Ok(simdutf8::basic::from_utf8(&self.out).unwrap_or_default())
    }

    /// After a print: why the buffer printed without its deprecated fields, if it did (the error
    /// of the deprecated field that does not verify; nothing reads such a field, so the buffer is
    /// valid all the same).
    ///
    /// ```
    /// let fbs = "table T { old: int (deprecated); new: int; } root_type T;";
    /// let schema = flatforge_schema::compile_str("a.fbs", fbs)?;
    /// let codec = flatforge_json::Codec::new(&schema);
    /// let root = codec.root_type(None)?;
    /// let mut b = flatforge::Builder::new();
    /// b.start_table();
    /// b.add_scalar(0, 7i32, 0);
    /// b.add_scalar(1, 8i32, 0);
    /// let t = b.end_table()?;
    /// let mut bytes = b.finish(t, None)?.to_vec();
    /// let mut printer = codec.printer(Default::default());
    /// assert_eq!(printer.print(root, &bytes)?, "{\n  \"old\": 7,\n  \"new\": 8\n}\n");
    /// assert!(printer.left_out_deprecated().is_none());
    /// // Point `old`'s vtable entry outside the table.
    /// let table = u32::from_le_bytes(bytes[..4].try_into()?) as usize;
    /// let vtable = table - i32::from_le_bytes(bytes[table..table + 4].try_into()?) as usize;
    /// bytes[vtable + 4..vtable + 6].copy_from_slice(&0x7ff0u16.to_le_bytes());
    /// assert_eq!(printer.print(root, &bytes)?, "{\n  \"new\": 8\n}\n");
    /// assert!(printer.left_out_deprecated().is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn left_out_deprecated(&self) -> Option<&flatforge::Error> {
        self.left_out.as_ref()
    }

    /// Like [`print`](Self::print), returning the bytes.
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("a.fbs", "table T { s: string; } root_type T;")?;
    /// let codec = flatforge_json::Codec::new(&schema);
    /// let root = codec.root_type(None)?;
    /// let mut parser = codec.parser(Default::default());
    /// let bytes = parser.parse(root, r#"{ s: "héllo" }"#.as_bytes())?;
    /// let mut printer = codec.printer(Default::default());
    /// let mut out = Vec::new(); // any `io::Write`: a file, stdout, ...
    /// std::io::Write::write_all(&mut out, printer.print_bytes(root, bytes)?)?;
    /// assert_eq!(out, b"{\n  \"s\": \"h\\u00E9llo\"\n}\n");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn print_bytes(&mut self, root: RootType, buf: &[u8]) -> Result<&[u8], PrintError> {
        self.out.clear();
        self.print_into(root, buf)?;
        Ok(&self.out)
    }

    fn print_into(&mut self, root: RootType, buf: &[u8]) -> Result<(), PrintError> {
        let codec = self.codec;
        // Deprecated fields print (as flatc prints them) when they verify too. When they do not,
        // the buffer is still valid (nothing reads them), and prints without them: verified once
        // more, it is the error of `verify` that is reported if it is not.
        self.left_out = None;
        let deprecated = match codec.verify_fields::<true>(root, buf, &self.opts.verify) {
            Ok(()) => true,
            Err(e) => {
                codec.verify(root, buf, &self.opts.verify)?;
                self.left_out = Some(e);
                false
            }
        };
        // The message is what the verified size prefix gives, after it.
        let (start, buf) = match (
            self.opts.verify.size_prefixed,
            self.opts.verify.size_prefix64,
        ) {
            (false, _) => (0, buf),
            (true, false) => (
                4,
                &buf[..4 + u32::from_le_bytes(plan::arr(buf, 0)) as usize],
            ),
            (true, true) => (
                8,
                &buf[..8 + u64::from_le_bytes(plan::arr(buf, 0)) as usize],
            ),
        };
        // Pretty JSON takes about four times the bytes of the buffer: reserve that much up front
        // rather than growing (and copying) the output many times.
        self.out.reserve((buf.len() * 4).min(self.opts.max_output));
        let mut p = print::Printer::new(&codec.plan, &self.opts, &mut self.out, deprecated);
        let table = start + u32::from_le_bytes(plan::arr(buf, start)) as usize;
        p.table(buf, root.0, table, 0)?;
        if self.opts.indent.is_some() {
            self.out.push(b'\n');
        }
        Ok(())
    }
}

/// Options of the parser (JSON to binary).
///
/// ```
/// use flatforge_json::{Codec, ParseOptions};
/// let opts = ParseOptions::default();
/// assert!(!opts.strict_json && !opts.unknown_fields);
///
/// let schema = flatforge_schema::compile_str("a.fbs", "table T { a: int; } root_type T;")?;
/// let codec = Codec::new(&schema);
/// let root = codec.root_type(None)?;
/// let json = b"{ a: 1, comment: \"not in the schema\" }";
/// assert!(codec.parser(ParseOptions::default()).parse(root, json).is_err());
/// let mut lenient = ParseOptions::default();
/// lenient.unknown_fields = true; // flatc's --unknown-json
/// assert!(codec.parser(lenient).parse(root, json).is_ok());
/// let mut strict = ParseOptions::default();
/// strict.strict_json = true; // keys must be quoted
/// assert!(codec.parser(strict.clone()).parse(root, b"{ a: 1 }").is_err());
/// assert!(codec.parser(strict).parse(root, br#"{ "a": 1 }"#).is_ok());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ParseOptions {
    /// Accept only strict JSON: quoted keys, no trailing commas (`--strict-json`).
    pub strict_json: bool,
    /// Skip fields the schema does not know instead of failing (`--unknown-json`).
    pub unknown_fields: bool,
    /// Write scalar fields equal to their default (`--force-defaults`).
    pub force_defaults: bool,
    /// Finish the buffer with a 32-bit size prefix (`--size-prefixed`).
    pub size_prefixed: bool,
    /// With `size_prefixed`: make the prefix 64-bit, as C++'s `FlatBufferBuilder64` writes it for
    /// schemas with 64-bit offsets (flatc itself writes a 32-bit one).
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("a.fbs", "table T { a: int; } root_type T;")?;
    /// let codec = flatforge_json::Codec::new(&schema);
    /// let root = codec.root_type(None)?;
    /// let mut opts = flatforge_json::ParseOptions::default();
    /// opts.size_prefixed = true;
    /// opts.size_prefix64 = true;
    /// let buf = codec.parser(opts).parse(root, b"{ a: 7 }")?.to_vec();
    /// assert_eq!(u64::from_le_bytes(buf[..8].try_into()?) as usize, buf.len() - 8);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub size_prefix64: bool,
    /// Accept nested flatbuffers given as a vector of bytes rather than an object
    /// (`--json-nested-bytes`); the bytes are checked by the verifier only.
    pub nested_bytes: bool,
    /// How deeply values may nest (flatc: 64), counted as flatc counts: each table and struct,
    /// and each FlexBuffer value and each value skipped for an unknown field (scalars too); a
    /// vector or fixed-length array does not count, as its elements do.
    pub max_depth: u32,
    /// The largest buffer to build, in bytes.
    pub max_size: usize,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            strict_json: false,
            unknown_fields: false,
            force_defaults: false,
            size_prefixed: false,
            size_prefix64: false,
            nested_bytes: false,
            max_depth: 64,
            max_size: flatforge::MAX_BUFFER_SIZE,
        }
    }
}

/// Parses JSON into FlatBuffers; made by [`Codec::parser`].
///
/// ```
/// let schema = flatforge_schema::compile_str(
///     "a.fbs",
///     "table T { name: string; hp: short = 100; } root_type T; file_identifier \"MONS\";",
/// )?;
/// let codec = flatforge_json::Codec::new(&schema);
/// let root = codec.root_type(None)?;
/// let mut parser = codec.parser(Default::default());
/// let buf = parser.parse(root, br#"{ name: "Orc" }"#)?;
/// assert_eq!(&buf[4..8], b"MONS"); // finished with the schema's file identifier
/// let table = flatforge::root::<flatforge::Table>(buf)?;
/// assert_eq!(table.get::<&str>(0)?, Some("Orc"));
/// assert_eq!(table.get::<i16>(1)?, None); // hp: absent, so it reads as its default
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Parser<'c, 's> {
    codec: &'c Codec<'s>,
    opts: ParseOptions,
    state: parse::Scratch,
    builder: Builder,
}

impl Parser<'_, '_> {
    /// Parses `json` as a table of type `root` and returns the finished buffer (with the schema's
    /// file identifier, if it declares one). The bytes borrow the parser's builder, which the next
    /// call reuses.
    ///
    /// ```
    /// let schema = flatforge_schema::compile_str("a.fbs", "table T { a: [int]; }")?;
    /// let codec = flatforge_json::Codec::new(&schema);
    /// let root = codec.root_type(Some("T"))?;
    /// let mut parser = codec.parser(Default::default());
    /// let err = parser.parse(root, b"{\n  a: [1, 2,\n  b: 3 }").unwrap_err();
    /// assert_eq!((err.line, err.column), (3, 3));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse(&mut self, root: RootType, json: &[u8]) -> Result<&[u8], ParseError> {
        // A buffer takes about a quarter of the bytes of its pretty JSON: allocate that much once
        // rather than growing (and copying) the buffer many times.
        let want = (json.len() / 4).min(self.opts.max_size);
        if self.builder.capacity() < want {
            self.builder = Builder::with_capacity(want);
        }
        let b = &mut self.builder;
        b.reset();
        b.set_force_defaults(self.opts.force_defaults);
        b.set_max_size(self.opts.max_size);
        let root_table = parse::parse_root(
            &self.codec.plan,
            &self.opts,
            &mut self.state,
            b,
            root.0,
            json,
        )
        .map_err(|e| *e)?;
        let ident = self.codec.plan.file_identifier;
        let done = if self.opts.size_prefixed && self.opts.size_prefix64 {
            b.finish_size_prefixed64(root_table, ident.as_ref())
        } else if self.opts.size_prefixed {
            b.finish_size_prefixed(root_table, ident.as_ref())
        } else {
            b.finish(root_table, ident.as_ref())
        };
        done.map_err(|e| ParseError::at_end(json, ParseErrorKind::Build(e)))
    }
}

impl From<BuildError> for ParseErrorKind {
    fn from(e: BuildError) -> Self {
        ParseErrorKind::Build(e)
    }
}
