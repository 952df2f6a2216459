//! A fast, safe codec for Minecraft's Named Binary Tag (NBT) format.
//!
//! - Every tag type (0–12) in all four binary variants ([`Variant`]): Java files (big-endian, modified
//!   UTF-8), Java network NBT (no root name, any root tag), Bedrock files (little-endian, optionally with the
//!   8-byte level.dat header) and Bedrock network NBT (zigzag varints).
//! - gzip, zlib or no compression, detected on input ([`decompress`], [`Nbt::from_file_bytes`]) and chosen
//!   on output ([`Nbt::to_file_bytes`]).
//! - serde `Serialize`/`Deserialize` for user types ([`serde_nbt`]): a Deserializer over the borrowed reader
//!   and a Serializer that writes NBT bytes directly.
//! - SNBT in the classic and the 1.21.5+ grammar ([`snbt`]) and JSON ([`json`]), both ways. The default
//!   feature `unicode-names` adds Unicode's name table for SNBT's `\N{name}` escapes; without it they are
//!   errors.
//! - An owned tree ([`Nbt`], [`Tag`], typed [`List`]s, insertion-ordered [`Compound`]s).
//! - Safe on hostile input: nesting is limited to 512 compounds and lists, lengths are checked against the
//!   remaining input before anything is allocated, negative lengths and non-empty lists of End are errors,
//!   and every error names the byte offset and the path (`Level.Data.Player.Inventory[3].id`).
//!
//! ```
//! use flatforge_nbt::{Compound, Nbt, Tag, Variant};
//! let mut root = Compound::new();
//! root.insert("name", "Bananrama");
//! let nbt = Nbt::new("hello world", root);
//! let bytes = nbt.to_vec(Variant::Java).unwrap();
//! assert_eq!(Nbt::read(&bytes, Variant::Java).unwrap(), nbt);
//! ```
#![deny(missing_docs)]

pub mod borrowed;
mod codec;
mod error;
mod format;
pub mod mutf8;
mod name;
mod read;
pub mod serde_nbt;
pub mod snbt;
mod tag;
mod value_serde;
mod write;

/// JSON conversion of the owned tree.
///
/// [`Tag`], [`List`] and [`Compound`] serialize as plain data (numbers, strings, sequences,
/// maps), and read back with type inference: integers become Int when they fit in 32 bits and
/// Long otherwise, other numbers Double, booleans Byte, maps Compounds (order kept), sequences
/// Lists (ints widen to Long or Double when the elements need it; other mixes are errors). JSON
/// has no way to say Byte, Short, Float or the array types, so those come back as Int, Double
/// and Lists.
///
/// ```
/// use flatforge_nbt::{json, Compound, List, Tag};
/// let mut c = Compound::new();
/// c.insert("level", 3i8);
/// c.insert("scores", Tag::IntArray(vec![1, 2]));
/// let text = json::to_json(&Tag::Compound(c), false)?;
/// assert_eq!(text, r#"{"level":3,"scores":[1,2]}"#);
/// let back = json::from_json(&text)?;
/// assert_eq!(back.as_compound().unwrap()["level"], Tag::Int(3));
/// assert_eq!(back.as_compound().unwrap()["scores"], Tag::List(List::Int(vec![1, 2])));
/// # Ok::<(), flatforge_nbt::Error>(())
/// ```
pub mod json {
    pub use crate::value_serde::{from_json, to_json};
}

pub use codec::Variant;
pub use error::{Error, ErrorKind, PathSegment, Result};
pub use format::{bedrock_header, compress, decompress, Compression, Format, MAX_DECOMPRESSED};
pub use read::MAX_DEPTH;
pub use tag::{Compound, CompoundIntoIter, List, Nbt, Tag, TagType};
