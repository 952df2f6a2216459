//! The flatforge runtime: a [`Builder`] that writes FlatBuffers back to front into one reusable
//! buffer, zero-copy views ([`Table`], [`Vector`], [`Array`], `&str`, structs) and a [`Verifier`]
//! that makes untrusted bytes safe to read. `no_std` + `alloc`; the default `std` feature only turns
//! on run-time CPU detection for the UTF-8 validation.
//!
//! Fields with 64-bit offsets (`offset64`, `vector64`) are supported as flatc's C++ library defines
//! them: the builder writes their strings and vectors first, into a region at the end of the buffer
//! ([`Builder::far`]), and reads them through [`Far`] and [`Vector64`]. Buffers are capped at
//! 2 GiB ([`MAX_BUFFER_SIZE`]) all the same, with or without 64-bit offsets.
//!
//! # Soundness in one paragraph
//!
//! Views read with unchecked loads, so a view exists only for bytes its type's [`Verify`]
//! implementation accepted: [`root`] and the other safe constructors verify first, and the
//! constructors that skip verification are `unsafe fn`. The untyped [`Table`] only knows that its
//! header is valid, so its field reads are either checked ([`Table::get`]) or `unsafe`
//! ([`Table::get_unchecked`], which generated code calls for fields its verifier checked). See the
//! [`view`] module for the details.
//!
//! # Three ways to use it
//!
//! **Generated code** pairs a verifier with views and writes tables in one shot. This is what the code
//! generator emits for `table Monster { name: string (required); hp: short = 100; }`:
//!
//! ```
//! use flatforge::{BuildError, Builder, Error, Follow, Offset, Table, Verifier, Verify};
//!
//! #[derive(Clone, Copy, Debug)]
//! pub struct Monster<'a>(Table<'a>);
//!
//! impl Verify for Monster<'_> {
//!     const SIZE: usize = 4;
//!     const ALIGN: usize = 4;
//!     const TYPE_NAME: &'static str = "Monster";
//!     fn verify_at(v: &mut Verifier<'_>, pos: usize) -> Result<(), Error> {
//!         let mut t = v.follow_table(pos)?;
//!         t.field::<&str>(0, "name", true)?;
//!         t.field::<i16>(1, "hp", false)
//!     }
//! }
//!
//! impl<'a> Follow<'a> for Monster<'a> {
//!     unsafe fn follow(buf: &'a [u8], pos: usize) -> Self {
//!         // SAFETY: forwarded contract: `Monster::verify_at` accepted `pos`.
//!         Monster(unsafe { Table::follow(buf, pos) })
//!     }
//! }
//!
//! impl<'a> Monster<'a> {
//!     pub fn name(&self) -> &'a str {
//!         // SAFETY: `verify_at` checked slot 0 as a required string.
//!         unsafe { self.0.get_unchecked::<&str>(0).unwrap_unchecked() }
//!     }
//!     pub fn hp(&self) -> i16 {
//!         // SAFETY: `verify_at` checked slot 1 as an i16.
//!         unsafe { self.0.get_unchecked::<i16>(1) }.unwrap_or(100)
//!     }
//!     pub fn create(b: &mut Builder, name: Offset<str>, hp: i16) -> Result<Offset<Monster<'static>>, BuildError> {
//!         // Fields largest first; room for 4 + 2 bytes; vtable of 4 + 2 * 2 bytes.
//!         let mut t = b.table_writer::<8>(6, 4)?;
//!         t.add_offset(0, name);
//!         t.add_scalar::<i16>(1, hp, 100);
//!         Ok(t.finish()?.cast())
//!     }
//! }
//!
//! let mut b = Builder::new();
//! let name = b.create_string("Orc")?;
//! let orc = Monster::create(&mut b, name, 80)?;
//! let bytes = b.finish(orc, Some(b"MONS"))?;
//!
//! let m: Monster = flatforge::root(bytes)?;
//! assert_eq!((m.name(), m.hp()), ("Orc", 80));
//! let err = flatforge::root::<Monster>(&bytes[..bytes.len() - 2]).unwrap_err();
//! assert_eq!(err.path_string(), "Monster.name"); // the string is last in the buffer
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```
//!
//! **A schema walker** (JSON conversion, `flatforge verify`) uses the incremental builder and the
//! verifier primitives with sizes and slots taken from a schema at run time:
//!
//! ```
//! use flatforge::{Builder, Verifier, VerifierOptions};
//!
//! // Build { 0: "Alice", 1: [10, 20] } field by field, as a JSON parser would.
//! let mut b = Builder::new();
//! let name = b.create_string("Alice")?;
//! b.start_vector(2, 2, 2)?;
//! for x in [20u16, 10] {
//!     b.push(x); // last to first
//! }
//! let scores = b.end_vector::<u16>(2);
//! b.start_table();
//! b.add_offset(0, name)?;
//! b.add_offset(1, scores)?;
//! let root = b.end_table()?;
//! let bytes = b.finish(root, None)?;
//!
//! // Verify it the same way, knowing only the slots and element sizes.
//! let mut v = Verifier::new(bytes, &VerifierOptions::default());
//! let pos = v.root()?;
//! let table = v.offset(pos)?;
//! let mut t = v.table(table)?;
//! let name = t.offset_field(0, "name", true)?.unwrap();
//! assert_eq!(t.verifier().string(name)?, "Alice");
//! let scores = t.offset_field(1, "scores", false)?.unwrap();
//! let (data, len) = t.verifier().vector_raw(scores, 2, 2)?;
//! assert_eq!((len, &bytes[data..data + 4]), (2, &[10, 0, 20, 0][..]));
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```
//!
//! **A framed stream** builds each message in the builder's buffer and writes it out without a copy,
//! with room for its frame header reserved in front:
//!
//! ```
//! let mut out = Vec::new();
//! let mut b = flatforge::Builder::with_capacity(1024);
//! for i in 0..3u64 {
//!     b.reset();
//!     b.start_table();
//!     b.add_scalar(0, i, 0)?;
//!     let event = b.end_table()?;
//!     let frame = b.finish_with_prefix(event, None, 4)?;
//!     let len = (frame.len() - 4) as u32;
//!     frame[..4].copy_from_slice(&len.to_le_bytes());
//!     out.extend_from_slice(frame); // or io::Write::write_all(frame)
//! }
//! let len = u32::from_le_bytes(out[..4].try_into()?) as usize;
//! let first: flatforge::Table = flatforge::root(&out[4..4 + len])?;
//! assert_eq!(first.get::<u64>(0)?, None); // 0 is the default, so it was not written
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(missing_docs)]

extern crate alloc;

mod builder;
mod error;
pub mod gen_support;
mod scalar;
mod verify;
pub mod view;

pub use builder::{Builder, FarWriter, NestedStart, Offset, Offset64, TableWriter};
pub use error::{BuildError, Error, ErrorKind, Object, PathSegment};
pub use scalar::{
    read_scalar, struct_bytes, struct_from_bytes, structs_from_bytes, write_scalar, Scalar, Struct,
};
pub use verify::{TableVerifier, UnionTag, Verifier, VerifierOptions, Verify, MAX_BUFFER_SIZE};
pub use view::{
    buffer_has_identifier, key_cmp, root, root_unchecked, root_with_options, Array, Far, Follow,
    Indirect, Inline, Table, Vector, Vector64, VectorIter,
};

/// Where a generated rpc method streaming from the server (`streaming: "server"` or `"bidi"`) sends
/// each response: the method builds the response in the builder and passes it with the response's
/// root; the transport finishes the buffer, sends it and clears the builder for the next one.
///
/// ```
/// use flatforge::{BuildError, Builder, SendResponse};
///
/// // A method that streams the numbers below `n`, each as a string message.
/// fn count(
///     n: u32,
///     b: &mut Builder,
///     send: &mut SendResponse<'_, str, BuildError>,
/// ) -> Result<(), BuildError> {
///     for i in 0..n {
///         let s = b.create_string(&i.to_string())?;
///         send(b, s)?;
///     }
///     Ok(())
/// }
///
/// let mut sent = Vec::new();
/// count(3, &mut Builder::new(), &mut |b, root| {
///     sent.push(flatforge::root::<&str>(b.finish(root, None)?).unwrap().to_owned());
///     b.reset();
///     Ok(())
/// })?;
/// assert_eq!(sent, ["0", "1", "2"]);
/// # Ok::<(), BuildError>(())
/// ```
pub type SendResponse<'s, T, E> = dyn FnMut(&mut Builder, Offset<T>) -> Result<(), E> + 's;
