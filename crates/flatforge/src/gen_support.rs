//! Support for the code `flatforge-codegen` generates: what generated code needs beyond the views,
//! builder and verifier primitives (union values and vectors of unions, structs stored out of line,
//! empty default vectors, the two passes of packing objects with 64-bit offsets, the version
//! check). Hand-written code rarely needs it.
//!
//! ```
//! // Generated files start with this check, which fails to compile against another runtime version.
//! const _: () = assert!(flatforge::gen_support::version_is(flatforge::gen_support::VERSION));
//! ```

use core::fmt;
use core::marker::PhantomData;

pub use alloc::boxed::Box;
pub use alloc::string::{String, ToString};
pub use alloc::vec::Vec;

use crate::builder::{Builder, Offset, Offset64};
use crate::error::{BuildError, Error};
use crate::scalar::{read_scalar_unchecked, Struct};
use crate::verify::{UnionTag, Verifier};
use crate::view::{Follow, Table, Vector};

/// The runtime's version; generated code checks it at compile time with [`version_is`].
///
/// ```
/// use flatforge::gen_support::{version_is, VERSION};
/// assert_eq!(VERSION, env!("CARGO_PKG_VERSION")); // flatforge's, as doctests build in its package
/// assert!(version_is(VERSION));
/// ```
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Whether `version` is this runtime's [`VERSION`] (a `const fn`, for a compile-time assertion).
///
/// ```
/// assert!(flatforge::gen_support::version_is(env!("CARGO_PKG_VERSION")));
/// assert!(!flatforge::gen_support::version_is("0.0.0-other"));
/// ```
pub const fn version_is(version: &str) -> bool {
    let (a, b) = (VERSION.as_bytes(), version.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A generated union view (`enum Any<'a> { Monster(Monster<'a>), ... }`): how to verify and read a
/// member from its type (a byte, or the union's underlying integer type) and the position of its
/// offset.
///
/// ```
/// use flatforge::gen_support::Union;
/// use flatforge::{Error, Verifier, Verify};
///
/// /// union U { S: string }
/// #[derive(Debug, PartialEq)]
/// enum U<'a> { S(&'a str) }
/// impl<'a> Union<'a> for U<'a> {
///     type Tag = u8;
///     fn verify_member(v: &mut Verifier<'_>, ty: u8, pos: usize) -> Option<Result<(), Error>> {
///         match ty {
///             1 => Some(<&str>::verify_at(v, pos)),
///             _ => None,
///         }
///     }
///     unsafe fn follow_member(buf: &'a [u8], ty: u8, pos: usize) -> Option<Self> {
///         match ty {
///             // SAFETY: forwarded: `verify_member` accepted this member at `pos`.
///             1 => Some(U::S(unsafe { flatforge::Follow::follow(buf, pos) })),
///             _ => None,
///         }
///     }
/// }
/// ```
pub trait Union<'a>: Sized {
    /// The type of the union's type field: `u8`, or the underlying type the schema gives the union
    /// (`union U : int`), which is also the element type of its vectors of types.
    type Tag: UnionTag;

    /// Verifies the member of type `ty` whose offset is at `pos`; `None` if `ty` names no member.
    fn verify_member(v: &mut Verifier<'_>, ty: Self::Tag, pos: usize) -> Option<Result<(), Error>>;

    /// Reads the member of type `ty` whose offset is at `pos`; `None` for NONE and unknown types,
    /// which it must answer without reading `buf` (the verifier accepts an unknown type, a newer
    /// schema's member, unchecked: see [`VerifierOptions::unknown_union_types`]).
    ///
    /// [`VerifierOptions::unknown_union_types`]: crate::VerifierOptions::unknown_union_types
    ///
    /// # Safety
    /// [`verify_member`](Self::verify_member) must have accepted `(ty, pos)` with a verifier over
    /// exactly `buf`, or answered `None` for `ty`. (This crate never passes NONE, which the verifier skips: [`UnionVector`]
    /// reads its elements of type NONE as `None` without calling this.)
    unsafe fn follow_member(buf: &'a [u8], ty: Self::Tag, pos: usize) -> Option<Self>;
}

/// Reads the union whose type is in `type_slot` and whose value is in `value_slot` of `table`;
/// `None` if it is absent.
///
/// ```
/// use flatforge::gen_support::{union_unchecked, Union};
/// use flatforge::{Builder, Error, Follow, Table, Verifier, VerifierOptions, Verify};
///
/// /// union Note { Text: string }
/// #[derive(Debug, PartialEq)]
/// enum Note<'a> {
///     Text(&'a str),
/// }
/// impl<'a> Union<'a> for Note<'a> {
///     type Tag = u8;
///     fn verify_member(v: &mut Verifier<'_>, ty: u8, pos: usize) -> Option<Result<(), Error>> {
///         match ty {
///             1 => Some(<&str>::verify_at(v, pos)),
///             _ => None,
///         }
///     }
///     unsafe fn follow_member(buf: &'a [u8], ty: u8, pos: usize) -> Option<Self> {
///         match ty {
///             // SAFETY: forwarded: `verify_member` accepted a string at `pos`.
///             1 => Some(Note::Text(unsafe { <&str>::follow(buf, pos) })),
///             _ => None,
///         }
///     }
/// }
///
/// // table Memo { note: Note; reply: Note; } (types in slots 0 and 2, values in slots 1 and 3)
/// let mut b = Builder::new();
/// let text = b.create_string("buy milk")?;
/// b.start_table();
/// b.add_scalar::<u8>(0, 1, 0)?; // Text
/// b.add_offset(1, text)?;
/// let memo = b.end_table()?;
/// let bytes = b.finish(memo, None)?;
///
/// let mut v = Verifier::new(bytes, &VerifierOptions::default());
/// let root = v.root()?;
/// let mut t = v.follow_table(root)?;
/// t.union(0, 1, "note", false, Note::verify_member)?;
/// t.union(2, 3, "reply", false, Note::verify_member)?;
/// let memo: Table = flatforge::root(bytes)?;
/// // SAFETY: `union` and `Note::verify_member` checked slots 0 and 1 of `memo` just above, with a
/// // verifier over `bytes`.
/// let note = unsafe { union_unchecked::<Note>(memo, 0, 1) };
/// assert_eq!(note, Some(Note::Text("buy milk")));
/// // SAFETY: as above, for slots 2 and 3 (both absent).
/// assert_eq!(unsafe { union_unchecked::<Note>(memo, 2, 3) }, None);
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
///
/// # Safety
/// The table's verifier must have checked these slots with
/// [`TableVerifier::union_typed`](crate::TableVerifier::union_typed) and `U::verify_member`.
#[inline(always)]
pub unsafe fn union_unchecked<'a, U: Union<'a>>(
    table: Table<'a>,
    type_slot: usize,
    value_slot: usize,
) -> Option<U> {
    // SAFETY: the caller guarantees the type slot was verified as a `U::Tag`.
    let ty = unsafe { table.get_unchecked::<U::Tag>(type_slot) }?;
    match table.field_offset(value_slot) {
        0 => None,
        // SAFETY: the caller guarantees that `U::verify_member` accepted `ty` at this position.
        voffset => unsafe {
            U::follow_member(table.buffer(), ty, table.position() + usize::from(voffset))
        },
    }
}

/// Reads the vector of unions whose types are in `type_slot` and values in `value_slot` of `table`;
/// `None` if it is absent.
///
/// ```
/// use flatforge::gen_support::{union_vector_unchecked, Union};
/// use flatforge::{Builder, Error, Follow, Table, Verifier, VerifierOptions, Verify};
///
/// /// union Note { Text: string }
/// #[derive(Debug, PartialEq)]
/// enum Note<'a> {
///     Text(&'a str),
/// }
/// impl<'a> Union<'a> for Note<'a> {
///     type Tag = u8;
///     fn verify_member(v: &mut Verifier<'_>, ty: u8, pos: usize) -> Option<Result<(), Error>> {
///         match ty {
///             1 => Some(<&str>::verify_at(v, pos)),
///             _ => None,
///         }
///     }
///     unsafe fn follow_member(buf: &'a [u8], ty: u8, pos: usize) -> Option<Self> {
///         match ty {
///             // SAFETY: forwarded: `verify_member` accepted a string at `pos`.
///             1 => Some(Note::Text(unsafe { <&str>::follow(buf, pos) })),
///             _ => None,
///         }
///     }
/// }
///
/// // table List { notes: [Note]; archived: [Note]; } (types in slots 0 and 2, values in 1 and 3)
/// let mut b = Builder::new();
/// let milk = b.create_string("milk")?;
/// let values = b.create_vector_of_offsets(&[milk])?;
/// let types = b.create_vector(&[1u8])?; // Text
/// b.start_table();
/// b.add_offset(0, types)?;
/// b.add_offset(1, values)?;
/// let list = b.end_table()?;
/// let bytes = b.finish(list, None)?;
///
/// let mut v = Verifier::new(bytes, &VerifierOptions::default());
/// let root = v.root()?;
/// let mut t = v.follow_table(root)?;
/// t.union_vector(0, 1, "notes", false, Note::verify_member)?;
/// t.union_vector(2, 3, "archived", false, Note::verify_member)?;
/// let list: Table = flatforge::root(bytes)?;
/// // SAFETY: `union_vector` and `Note::verify_member` checked slots 0 and 1 of `list` just above,
/// // with a verifier over `bytes`.
/// let notes = unsafe { union_vector_unchecked::<Note>(list, 0, 1) }.unwrap();
/// assert_eq!(notes.get(0), Some(Some(Note::Text("milk"))));
/// // SAFETY: as above, for slots 2 and 3 (both absent).
/// assert!(unsafe { union_vector_unchecked::<Note>(list, 2, 3) }.is_none());
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
///
/// # Safety
/// The table's verifier must have checked these slots with
/// [`TableVerifier::union_vector_typed`](crate::TableVerifier::union_vector_typed) and
/// `U::verify_member`.
#[inline(always)]
pub unsafe fn union_vector_unchecked<'a, U: Union<'a>>(
    table: Table<'a>,
    type_slot: usize,
    value_slot: usize,
) -> Option<UnionVector<'a, U>> {
    // SAFETY: the caller guarantees both slots were verified as vectors, of `U::Tag`s and of
    // offsets, of equal length.
    unsafe {
        let types = table.get_unchecked::<Vector<'a, U::Tag>>(type_slot)?;
        let values = match table.field_offset(value_slot) {
            0 => return None,
            voffset => table.position() + usize::from(voffset),
        };
        let buf = table.buffer();
        let values = values + read_scalar_unchecked::<u32>(buf, values) as usize + 4;
        Some(UnionVector { buf, types, values })
    }
}

/// A view of a vector of unions: a vector of types and a vector of offsets of the same length.
///
/// Invariant: every element was verified with `U::verify_member` (elements of type NONE need not be).
///
/// ```
/// use flatforge::gen_support::{union_vector_unchecked, Union, UnionVector};
/// use flatforge::{BuildError, Builder, Error, Follow, Offset, Table, Verifier};
/// use flatforge::{VerifierOptions, Verify};
///
/// /// union Note { Text: string }
/// #[derive(Debug, PartialEq)]
/// enum Note<'a> {
///     Text(&'a str),
/// }
/// impl<'a> Union<'a> for Note<'a> {
///     type Tag = u8;
///     fn verify_member(v: &mut Verifier<'_>, ty: u8, pos: usize) -> Option<Result<(), Error>> {
///         match ty {
///             1 => Some(<&str>::verify_at(v, pos)),
///             _ => None,
///         }
///     }
///     unsafe fn follow_member(buf: &'a [u8], ty: u8, pos: usize) -> Option<Self> {
///         match ty {
///             // SAFETY: forwarded: `verify_member` accepted a string at `pos`.
///             1 => Some(Note::Text(unsafe { <&str>::follow(buf, pos) })),
///             _ => None,
///         }
///     }
/// }
///
/// /// table List { notes: [Note]; }, with the types in slot 0 and the values in slot 1.
/// fn write_list(notes: &[Option<&str>]) -> Result<Vec<u8>, BuildError> {
///     let mut b = Builder::new();
///     let mut values = Vec::new();
///     for note in notes {
///         values.push(match note {
///             Some(text) => b.create_string(text)?,
///             None => Offset::new(0), // NONE: never read
///         });
///     }
///     let values = b.create_vector_of_offsets(&values)?;
///     let types: Vec<u8> = notes.iter().map(|n| u8::from(n.is_some())).collect();
///     let types = b.create_vector(&types)?;
///     b.start_table();
///     b.add_offset(0, types)?;
///     b.add_offset(1, values)?;
///     let list = b.end_table()?;
///     Ok(b.finish(list, None)?.to_vec())
/// }
///
/// /// Verifies the notes of the `List` in `bytes` and reads them, as generated code does.
/// fn read_notes(bytes: &[u8]) -> Result<UnionVector<'_, Note<'_>>, Error> {
///     let mut v = Verifier::new(bytes, &VerifierOptions::default());
///     let root = v.root()?;
///     v.follow_table(root)?.union_vector(0, 1, "notes", false, Note::verify_member)?;
///     let list: Table = flatforge::root(bytes)?;
///     // SAFETY: `union_vector` and `Note::verify_member` checked slots 0 and 1 of `list` with a
///     // verifier over `bytes`.
///     Ok(unsafe { union_vector_unchecked(list, 0, 1) }.unwrap())
/// }
///
/// let bytes = write_list(&[Some("milk"), None, Some("eggs")])?;
/// let notes = read_notes(&bytes)?;
/// assert_eq!(notes.len(), 3);
/// let all: Vec<Option<Note>> = notes.iter().collect();
/// assert_eq!(all, [Some(Note::Text("milk")), None, Some(Note::Text("eggs"))]);
/// assert_eq!(format!("{notes:?}"), r#"[Some(Text("milk")), None, Some(Text("eggs"))]"#);
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub struct UnionVector<'a, U: Union<'a>> {
    buf: &'a [u8],
    types: Vector<'a, U::Tag>,
    /// Position of the first value offset.
    values: usize,
}

impl<'a, U: Union<'a>> Clone for UnionVector<'a, U> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<'a, U: Union<'a>> Copy for UnionVector<'a, U> {}

impl<'a, U: Union<'a>> UnionVector<'a, U> {
    /// The number of elements.
    ///
    /// ```
    /// # use flatforge::gen_support::{union_vector_unchecked, Union, UnionVector};
    /// # use flatforge::{BuildError, Builder, Error, Follow, Offset, Table, Verifier};
    /// # use flatforge::{VerifierOptions, Verify};
    /// #
    /// # /// union Note { Text: string }
    /// # #[derive(Debug, PartialEq)]
    /// # enum Note<'a> {
    /// #     Text(&'a str),
    /// # }
    /// # impl<'a> Union<'a> for Note<'a> {
    /// #     type Tag = u8;
    /// #     fn verify_member(v: &mut Verifier<'_>, ty: u8, pos: usize) -> Option<Result<(), Error>> {
    /// #         match ty {
    /// #             1 => Some(<&str>::verify_at(v, pos)),
    /// #             _ => None,
    /// #         }
    /// #     }
    /// #     unsafe fn follow_member(buf: &'a [u8], ty: u8, pos: usize) -> Option<Self> {
    /// #         match ty {
    /// #             // SAFETY: forwarded: `verify_member` accepted a string at `pos`.
    /// #             1 => Some(Note::Text(unsafe { <&str>::follow(buf, pos) })),
    /// #             _ => None,
    /// #         }
    /// #     }
    /// # }
    /// #
    /// # /// table List { notes: [Note]; }, with the types in slot 0 and the values in slot 1.
    /// # fn write_list(notes: &[Option<&str>]) -> Result<Vec<u8>, BuildError> {
    /// #     let mut b = Builder::new();
    /// #     let mut values = Vec::new();
    /// #     for note in notes {
    /// #         values.push(match note {
    /// #             Some(text) => b.create_string(text)?,
    /// #             None => Offset::new(0), // NONE: never read
    /// #         });
    /// #     }
    /// #     let values = b.create_vector_of_offsets(&values)?;
    /// #     let types: Vec<u8> = notes.iter().map(|n| u8::from(n.is_some())).collect();
    /// #     let types = b.create_vector(&types)?;
    /// #     b.start_table();
    /// #     b.add_offset(0, types)?;
    /// #     b.add_offset(1, values)?;
    /// #     let list = b.end_table()?;
    /// #     Ok(b.finish(list, None)?.to_vec())
    /// # }
    /// #
    /// # /// Verifies the notes of the `List` in `bytes` and reads them, as generated code does.
    /// # fn read_notes(bytes: &[u8]) -> Result<UnionVector<'_, Note<'_>>, Error> {
    /// #     let mut v = Verifier::new(bytes, &VerifierOptions::default());
    /// #     let root = v.root()?;
    /// #     v.follow_table(root)?.union_vector(0, 1, "notes", false, Note::verify_member)?;
    /// #     let list: Table = flatforge::root(bytes)?;
    /// #     // SAFETY: `union_vector` and `Note::verify_member` checked slots 0 and 1 of
    /// #     // `list` with a verifier over `bytes`.
    /// #     Ok(unsafe { union_vector_unchecked(list, 0, 1) }.unwrap())
    /// # }
    /// let bytes = write_list(&[Some("milk"), None])?;
    /// let notes = read_notes(&bytes)?;
    /// assert_eq!(notes.len(), 2); // NONE elements count
    /// assert_eq!(read_notes(&write_list(&[])?)?.len(), 0);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.types.len()
    }

    /// Whether the vector is empty.
    ///
    /// ```
    /// # use flatforge::gen_support::{union_vector_unchecked, Union, UnionVector};
    /// # use flatforge::{BuildError, Builder, Error, Follow, Offset, Table, Verifier};
    /// # use flatforge::{VerifierOptions, Verify};
    /// #
    /// # /// union Note { Text: string }
    /// # #[derive(Debug, PartialEq)]
    /// # enum Note<'a> {
    /// #     Text(&'a str),
    /// # }
    /// # impl<'a> Union<'a> for Note<'a> {
    /// #     type Tag = u8;
    /// #     fn verify_member(v: &mut Verifier<'_>, ty: u8, pos: usize) -> Option<Result<(), Error>> {
    /// #         match ty {
    /// #             1 => Some(<&str>::verify_at(v, pos)),
    /// #             _ => None,
    /// #         }
    /// #     }
    /// #     unsafe fn follow_member(buf: &'a [u8], ty: u8, pos: usize) -> Option<Self> {
    /// #         match ty {
    /// #             // SAFETY: forwarded: `verify_member` accepted a string at `pos`.
    /// #             1 => Some(Note::Text(unsafe { <&str>::follow(buf, pos) })),
    /// #             _ => None,
    /// #         }
    /// #     }
    /// # }
    /// #
    /// # /// table List { notes: [Note]; }, with the types in slot 0 and the values in slot 1.
    /// # fn write_list(notes: &[Option<&str>]) -> Result<Vec<u8>, BuildError> {
    /// #     let mut b = Builder::new();
    /// #     let mut values = Vec::new();
    /// #     for note in notes {
    /// #         values.push(match note {
    /// #             Some(text) => b.create_string(text)?,
    /// #             None => Offset::new(0), // NONE: never read
    /// #         });
    /// #     }
    /// #     let values = b.create_vector_of_offsets(&values)?;
    /// #     let types: Vec<u8> = notes.iter().map(|n| u8::from(n.is_some())).collect();
    /// #     let types = b.create_vector(&types)?;
    /// #     b.start_table();
    /// #     b.add_offset(0, types)?;
    /// #     b.add_offset(1, values)?;
    /// #     let list = b.end_table()?;
    /// #     Ok(b.finish(list, None)?.to_vec())
    /// # }
    /// #
    /// # /// Verifies the notes of the `List` in `bytes` and reads them, as generated code does.
    /// # fn read_notes(bytes: &[u8]) -> Result<UnionVector<'_, Note<'_>>, Error> {
    /// #     let mut v = Verifier::new(bytes, &VerifierOptions::default());
    /// #     let root = v.root()?;
    /// #     v.follow_table(root)?.union_vector(0, 1, "notes", false, Note::verify_member)?;
    /// #     let list: Table = flatforge::root(bytes)?;
    /// #     // SAFETY: `union_vector` and `Note::verify_member` checked slots 0 and 1 of
    /// #     // `list` with a verifier over `bytes`.
    /// #     Ok(unsafe { union_vector_unchecked(list, 0, 1) }.unwrap())
    /// # }
    /// assert!(read_notes(&write_list(&[])?)?.is_empty());
    /// assert!(!read_notes(&write_list(&[None])?)?.is_empty());
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    /// The types of the elements.
    ///
    /// ```
    /// # use flatforge::gen_support::{union_vector_unchecked, Union, UnionVector};
    /// # use flatforge::{BuildError, Builder, Error, Follow, Offset, Table, Verifier};
    /// # use flatforge::{VerifierOptions, Verify};
    /// #
    /// # /// union Note { Text: string }
    /// # #[derive(Debug, PartialEq)]
    /// # enum Note<'a> {
    /// #     Text(&'a str),
    /// # }
    /// # impl<'a> Union<'a> for Note<'a> {
    /// #     type Tag = u8;
    /// #     fn verify_member(v: &mut Verifier<'_>, ty: u8, pos: usize) -> Option<Result<(), Error>> {
    /// #         match ty {
    /// #             1 => Some(<&str>::verify_at(v, pos)),
    /// #             _ => None,
    /// #         }
    /// #     }
    /// #     unsafe fn follow_member(buf: &'a [u8], ty: u8, pos: usize) -> Option<Self> {
    /// #         match ty {
    /// #             // SAFETY: forwarded: `verify_member` accepted a string at `pos`.
    /// #             1 => Some(Note::Text(unsafe { <&str>::follow(buf, pos) })),
    /// #             _ => None,
    /// #         }
    /// #     }
    /// # }
    /// #
    /// # /// table List { notes: [Note]; }, with the types in slot 0 and the values in slot 1.
    /// # fn write_list(notes: &[Option<&str>]) -> Result<Vec<u8>, BuildError> {
    /// #     let mut b = Builder::new();
    /// #     let mut values = Vec::new();
    /// #     for note in notes {
    /// #         values.push(match note {
    /// #             Some(text) => b.create_string(text)?,
    /// #             None => Offset::new(0), // NONE: never read
    /// #         });
    /// #     }
    /// #     let values = b.create_vector_of_offsets(&values)?;
    /// #     let types: Vec<u8> = notes.iter().map(|n| u8::from(n.is_some())).collect();
    /// #     let types = b.create_vector(&types)?;
    /// #     b.start_table();
    /// #     b.add_offset(0, types)?;
    /// #     b.add_offset(1, values)?;
    /// #     let list = b.end_table()?;
    /// #     Ok(b.finish(list, None)?.to_vec())
    /// # }
    /// #
    /// # /// Verifies the notes of the `List` in `bytes` and reads them, as generated code does.
    /// # fn read_notes(bytes: &[u8]) -> Result<UnionVector<'_, Note<'_>>, Error> {
    /// #     let mut v = Verifier::new(bytes, &VerifierOptions::default());
    /// #     let root = v.root()?;
    /// #     v.follow_table(root)?.union_vector(0, 1, "notes", false, Note::verify_member)?;
    /// #     let list: Table = flatforge::root(bytes)?;
    /// #     // SAFETY: `union_vector` and `Note::verify_member` checked slots 0 and 1 of
    /// #     // `list` with a verifier over `bytes`.
    /// #     Ok(unsafe { union_vector_unchecked(list, 0, 1) }.unwrap())
    /// # }
    /// let bytes = write_list(&[Some("milk"), None, Some("eggs")])?;
    /// let notes = read_notes(&bytes)?;
    /// assert_eq!(notes.types().as_slice(), [1, 0, 1]); // Text, NONE, Text
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn types(&self) -> Vector<'a, U::Tag> {
        self.types
    }

    /// The element at `index`: `None` past the end, and `Some(None)` for an element of type NONE.
    ///
    /// ```
    /// # use flatforge::gen_support::{union_vector_unchecked, Union, UnionVector};
    /// # use flatforge::{BuildError, Builder, Error, Follow, Offset, Table, Verifier};
    /// # use flatforge::{VerifierOptions, Verify};
    /// #
    /// # /// union Note { Text: string }
    /// # #[derive(Debug, PartialEq)]
    /// # enum Note<'a> {
    /// #     Text(&'a str),
    /// # }
    /// # impl<'a> Union<'a> for Note<'a> {
    /// #     type Tag = u8;
    /// #     fn verify_member(v: &mut Verifier<'_>, ty: u8, pos: usize) -> Option<Result<(), Error>> {
    /// #         match ty {
    /// #             1 => Some(<&str>::verify_at(v, pos)),
    /// #             _ => None,
    /// #         }
    /// #     }
    /// #     unsafe fn follow_member(buf: &'a [u8], ty: u8, pos: usize) -> Option<Self> {
    /// #         match ty {
    /// #             // SAFETY: forwarded: `verify_member` accepted a string at `pos`.
    /// #             1 => Some(Note::Text(unsafe { <&str>::follow(buf, pos) })),
    /// #             _ => None,
    /// #         }
    /// #     }
    /// # }
    /// #
    /// # /// table List { notes: [Note]; }, with the types in slot 0 and the values in slot 1.
    /// # fn write_list(notes: &[Option<&str>]) -> Result<Vec<u8>, BuildError> {
    /// #     let mut b = Builder::new();
    /// #     let mut values = Vec::new();
    /// #     for note in notes {
    /// #         values.push(match note {
    /// #             Some(text) => b.create_string(text)?,
    /// #             None => Offset::new(0), // NONE: never read
    /// #         });
    /// #     }
    /// #     let values = b.create_vector_of_offsets(&values)?;
    /// #     let types: Vec<u8> = notes.iter().map(|n| u8::from(n.is_some())).collect();
    /// #     let types = b.create_vector(&types)?;
    /// #     b.start_table();
    /// #     b.add_offset(0, types)?;
    /// #     b.add_offset(1, values)?;
    /// #     let list = b.end_table()?;
    /// #     Ok(b.finish(list, None)?.to_vec())
    /// # }
    /// #
    /// # /// Verifies the notes of the `List` in `bytes` and reads them, as generated code does.
    /// # fn read_notes(bytes: &[u8]) -> Result<UnionVector<'_, Note<'_>>, Error> {
    /// #     let mut v = Verifier::new(bytes, &VerifierOptions::default());
    /// #     let root = v.root()?;
    /// #     v.follow_table(root)?.union_vector(0, 1, "notes", false, Note::verify_member)?;
    /// #     let list: Table = flatforge::root(bytes)?;
    /// #     // SAFETY: `union_vector` and `Note::verify_member` checked slots 0 and 1 of
    /// #     // `list` with a verifier over `bytes`.
    /// #     Ok(unsafe { union_vector_unchecked(list, 0, 1) }.unwrap())
    /// # }
    /// let bytes = write_list(&[Some("milk"), None])?;
    /// let notes = read_notes(&bytes)?;
    /// assert_eq!(notes.get(0), Some(Some(Note::Text("milk"))));
    /// assert_eq!(notes.get(1), Some(None));
    /// assert_eq!(notes.get(2), None);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline]
    pub fn get(&self, index: usize) -> Option<Option<U>> {
        let ty = self.types.get(index)?;
        Some(member(self.buf, self.values, index, ty))
    }

    /// An iterator over the elements (`None` for elements of type NONE).
    ///
    /// ```
    /// # use flatforge::gen_support::{union_vector_unchecked, Union, UnionVector};
    /// # use flatforge::{BuildError, Builder, Error, Follow, Offset, Table, Verifier};
    /// # use flatforge::{VerifierOptions, Verify};
    /// #
    /// # /// union Note { Text: string }
    /// # #[derive(Debug, PartialEq)]
    /// # enum Note<'a> {
    /// #     Text(&'a str),
    /// # }
    /// # impl<'a> Union<'a> for Note<'a> {
    /// #     type Tag = u8;
    /// #     fn verify_member(v: &mut Verifier<'_>, ty: u8, pos: usize) -> Option<Result<(), Error>> {
    /// #         match ty {
    /// #             1 => Some(<&str>::verify_at(v, pos)),
    /// #             _ => None,
    /// #         }
    /// #     }
    /// #     unsafe fn follow_member(buf: &'a [u8], ty: u8, pos: usize) -> Option<Self> {
    /// #         match ty {
    /// #             // SAFETY: forwarded: `verify_member` accepted a string at `pos`.
    /// #             1 => Some(Note::Text(unsafe { <&str>::follow(buf, pos) })),
    /// #             _ => None,
    /// #         }
    /// #     }
    /// # }
    /// #
    /// # /// table List { notes: [Note]; }, with the types in slot 0 and the values in slot 1.
    /// # fn write_list(notes: &[Option<&str>]) -> Result<Vec<u8>, BuildError> {
    /// #     let mut b = Builder::new();
    /// #     let mut values = Vec::new();
    /// #     for note in notes {
    /// #         values.push(match note {
    /// #             Some(text) => b.create_string(text)?,
    /// #             None => Offset::new(0), // NONE: never read
    /// #         });
    /// #     }
    /// #     let values = b.create_vector_of_offsets(&values)?;
    /// #     let types: Vec<u8> = notes.iter().map(|n| u8::from(n.is_some())).collect();
    /// #     let types = b.create_vector(&types)?;
    /// #     b.start_table();
    /// #     b.add_offset(0, types)?;
    /// #     b.add_offset(1, values)?;
    /// #     let list = b.end_table()?;
    /// #     Ok(b.finish(list, None)?.to_vec())
    /// # }
    /// #
    /// # /// Verifies the notes of the `List` in `bytes` and reads them, as generated code does.
    /// # fn read_notes(bytes: &[u8]) -> Result<UnionVector<'_, Note<'_>>, Error> {
    /// #     let mut v = Verifier::new(bytes, &VerifierOptions::default());
    /// #     let root = v.root()?;
    /// #     v.follow_table(root)?.union_vector(0, 1, "notes", false, Note::verify_member)?;
    /// #     let list: Table = flatforge::root(bytes)?;
    /// #     // SAFETY: `union_vector` and `Note::verify_member` checked slots 0 and 1 of
    /// #     // `list` with a verifier over `bytes`.
    /// #     Ok(unsafe { union_vector_unchecked(list, 0, 1) }.unwrap())
    /// # }
    /// let bytes = write_list(&[Some("milk"), None, Some("eggs")])?;
    /// let notes = read_notes(&bytes)?;
    /// assert_eq!(notes.iter().len(), 3);
    /// let texts: Vec<Note> = notes.iter().rev().flatten().collect();
    /// assert_eq!(texts, [Note::Text("eggs"), Note::Text("milk")]);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline]
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = Option<U>> + ExactSizeIterator + 'a
    where
        U: 'a,
    {
        let (buf, values) = (self.buf, self.values);
        self.types
            .iter()
            .enumerate()
            .map(move |(i, ty)| member(buf, values, i, ty))
    }
}

/// Element `i` of a union vector whose values start at `values`, of type `ty`: `None` for NONE,
/// which the verifier skips (the same test as its, the type's default value).
#[inline]
fn member<'a, U: Union<'a>>(buf: &'a [u8], values: usize, i: usize, ty: U::Tag) -> Option<U> {
    if ty == U::Tag::default() {
        return None;
    }
    // SAFETY: `UnionVector`'s invariant: element `i`, not NONE, was verified as a member of type
    // `ty`.
    unsafe { U::follow_member(buf, ty, values + 4 * i) }
}

impl<'a, U: Union<'a> + fmt::Debug + 'a> fmt::Debug for UnionVector<'a, U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// An empty vector, the value of an absent vector field whose schema default is `[]`.
///
/// ```
/// let v = flatforge::gen_support::empty_vector::<u32>();
/// assert!(v.is_empty());
/// ```
#[inline(always)]
pub fn empty_vector<'a, T: Follow<'a>>() -> Vector<'a, T> {
    static EMPTY: [u8; 4] = [0; 4];
    // SAFETY: a vector of length 0 whose 4-byte length lies in the buffer passes
    // `Verifier::vector` for every element type.
    unsafe { Vector::new_unchecked(&EMPTY, 0) }
}

/// Writes a struct out of line (a struct member of a union) and returns its offset.
///
/// ```
/// use flatforge::Struct;
/// #[derive(Clone, Copy)]
/// #[repr(transparent)]
/// struct Pair([u8; 2]);
/// // SAFETY: a transparent wrapper of [u8; 2].
/// unsafe impl Struct for Pair { const ALIGN: usize = 1; }
///
/// let mut b = flatforge::Builder::new();
/// let p = flatforge::gen_support::create_struct(&mut b, &Pair([7, 9]))?;
/// let bytes = b.finish(p, None)?;
/// let p: flatforge::Indirect<&Pair> = flatforge::root(bytes)?;
/// assert_eq!((p.0).0, [7, 9]);
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
#[inline]
pub fn create_struct<S: Struct>(b: &mut Builder, value: &S) -> Result<Offset<S>, BuildError> {
    // Room for the struct aligned to its alignment (and 4, as offsets point to it), plus 4 bytes
    // that stay unused: the struct is written without the length a vector would have.
    b.start_vector(1, core::mem::size_of::<S>(), S::ALIGN)?;
    b.push_struct(value);
    Ok(Offset::new(b.len() as u32))
}

/// A vector of unions written to a builder: its types vector and its values vector (the two
/// fields a vector of unions occupies). `U` is the generated union offset type it holds, `T` the
/// type of its types (`u8` unless the union has another underlying type).
///
/// ```
/// use flatforge::gen_support::UnionVectorOffset;
/// use flatforge::{Builder, Table, Vector};
///
/// /// The offset of a `union Note { Text: string }` value (generated code has one per union).
/// struct NoteOffset;
///
/// // table List { notes: [Note]; } (the types in slot 0, the values in slot 1)
/// let mut b = Builder::new();
/// let texts = [b.create_string("milk")?.cast::<()>(), b.create_string("eggs")?.cast()];
/// let values = b.create_vector_of_offsets(&texts)?;
/// let types = b.create_vector(&[1u8, 1])?; // Text, Text
/// let notes = UnionVectorOffset::<NoteOffset>::new(types, values);
/// b.start_table();
/// b.add_offset(0, notes.types())?;
/// b.add_offset(1, notes.values())?;
/// let list = b.end_table()?;
///
/// let list: Table = flatforge::root(b.finish(list, None)?)?;
/// assert_eq!(list.get::<Vector<u8>>(0)?.unwrap().as_slice(), [1, 1]);
/// let texts: Vec<&str> = list.get::<Vector<&str>>(1)?.unwrap().iter().collect();
/// assert_eq!(texts, ["milk", "eggs"]);
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub struct UnionVectorOffset<U, T = u8> {
    types: Offset<[T]>,
    values: Offset<[Offset<()>]>,
    _marker: PhantomData<fn() -> U>,
}

impl<U, T> UnionVectorOffset<U, T> {
    /// The pair of vectors.
    ///
    /// ```
    /// use flatforge::{gen_support::UnionVectorOffset, Offset};
    /// let v = UnionVectorOffset::<()>::new(Offset::new(8), Offset::new(16));
    /// assert_eq!((v.types().value(), v.values().value()), (8, 16));
    /// ```
    pub fn new(types: Offset<[T]>, values: Offset<[Offset<()>]>) -> Self {
        UnionVectorOffset {
            types,
            values,
            _marker: PhantomData,
        }
    }

    /// The offset of the types vector.
    ///
    /// ```
    /// use flatforge::{gen_support::UnionVectorOffset, Table, Vector};
    /// let mut b = flatforge::Builder::new();
    /// let milk = b.create_string("milk")?.cast::<()>();
    /// let values = b.create_vector_of_offsets(&[milk])?;
    /// let types = b.create_vector(&[1u8])?;
    /// let notes = UnionVectorOffset::<()>::new(types, values);
    /// assert_eq!(notes.types(), types);
    /// b.start_table();
    /// b.add_offset(0, notes.types())?;
    /// let t = b.end_table()?;
    /// let t: Table = flatforge::root(b.finish(t, None)?)?;
    /// assert_eq!(t.get::<Vector<u8>>(0)?.unwrap().as_slice(), [1]);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn types(&self) -> Offset<[T]> {
        self.types
    }

    /// The offset of the values vector.
    ///
    /// ```
    /// use flatforge::{gen_support::UnionVectorOffset, Table, Vector};
    /// let mut b = flatforge::Builder::new();
    /// let milk = b.create_string("milk")?.cast::<()>();
    /// let values = b.create_vector_of_offsets(&[milk])?;
    /// let types = b.create_vector(&[1u8])?;
    /// let notes = UnionVectorOffset::<()>::new(types, values);
    /// assert_eq!(notes.values(), values);
    /// b.start_table();
    /// b.add_offset(1, notes.values())?;
    /// let t = b.end_table()?;
    /// let t: Table = flatforge::root(b.finish(t, None)?)?;
    /// assert_eq!(t.get::<Vector<&str>>(1)?.unwrap().get(0), Some("milk"));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn values(&self) -> Offset<[Offset<()>]> {
        self.values
    }
}

impl<U, T> Clone for UnionVectorOffset<U, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<U, T> Copy for UnionVectorOffset<U, T> {}
impl<U, T> PartialEq for UnionVectorOffset<U, T> {
    fn eq(&self, other: &Self) -> bool {
        self.types == other.types && self.values == other.values
    }
}
impl<U, T> Eq for UnionVectorOffset<U, T> {}
impl<U, T> fmt::Debug for UnionVectorOffset<U, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UnionVectorOffset")
            .field("types", &self.types)
            .field("values", &self.values)
            .finish()
    }
}

/// The offsets of the objects behind 64-bit offsets that the object API writes first.
///
/// The generated `pack` of an owned table that reaches `offset64` / `vector64` fields (its own, or
/// those of tables it holds) makes two passes over it: `pack_far` writes those objects into the
/// builder's 64-bit region, which must come first (see [`Builder::far`]), and
/// [`push`](Self::push)es their offsets; `pack_near` writes the rest and [`take`](Self::take)s the
/// offsets back, in the same order.
///
/// ```
/// use flatforge::gen_support::FarOffsets;
/// let mut b = flatforge::Builder::new();
/// let mut far = FarOffsets::new();
/// far.push(b.far()?.create_string("a")?);
/// far.push(b.far()?.create_vector64(&[1u8])?);
/// let a: flatforge::Offset64<str> = far.take();
/// assert_eq!(a.value(), 8);
/// assert_eq!(far.take::<flatforge::Vector64<u8>>().value(), 24);
/// # Ok::<(), flatforge::BuildError>(())
/// ```
#[derive(Debug, Default)]
pub struct FarOffsets {
    offsets: Vec<u64>,
    next: usize,
}

impl FarOffsets {
    /// No offsets yet.
    ///
    /// ```
    /// use flatforge::gen_support::FarOffsets;
    /// let mut b = flatforge::Builder::new();
    /// let mut far = FarOffsets::new();
    /// let s = b.far()?.create_string("x")?;
    /// far.push(s);
    /// assert_eq!(far.take::<str>(), s);
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Records the offset of an object just written.
    ///
    /// ```
    /// use flatforge::gen_support::FarOffsets;
    /// use flatforge::{Far, Table};
    /// // table Doc { body: string (offset64); }
    /// let mut b = flatforge::Builder::new();
    /// let mut far = FarOffsets::new();
    /// // pack_far: the objects behind 64-bit offsets, first.
    /// far.push(b.far()?.create_string("a long text")?);
    /// // pack_near: the rest, taking the offsets back.
    /// b.start_table();
    /// b.add_offset64(0, far.take::<str>())?;
    /// let doc = b.end_table()?;
    /// let doc: Table = flatforge::root(b.finish(doc, None)?)?;
    /// assert_eq!(doc.get::<Far<&str>>(0)?, Some(Far("a long text")));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline]
    pub fn push<T: ?Sized>(&mut self, offset: Offset64<T>) {
        self.offsets.push(offset.value());
    }

    /// The next recorded offset, in the order they were pushed.
    ///
    /// # Panics
    /// If every offset was taken already: the two passes of generated code take exactly what they
    /// push, so this is only reached by calling a `pack_near` without its `pack_far`.
    ///
    /// ```
    /// use flatforge::gen_support::FarOffsets;
    /// let mut b = flatforge::Builder::new();
    /// let mut far = FarOffsets::new();
    /// let (x, y) = (b.far()?.create_string("x")?, b.far()?.create_string("y")?);
    /// far.push(x);
    /// far.push(y);
    /// assert_eq!(far.take::<str>(), x); // in the order pushed
    /// assert_eq!(far.take::<str>(), y);
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    ///
    /// ```should_panic
    /// let mut far = flatforge::gen_support::FarOffsets::new();
    /// far.take::<str>(); // nothing pushed: panics
    /// ```
    #[inline]
    pub fn take<T: ?Sized>(&mut self) -> Offset64<T> {
        let Some(&value) = self.offsets.get(self.next) else {
            panic!("FarOffsets::take: no offset left (pack_near without pack_far?)")
        };
        self.next += 1;
        Offset64::new(value)
    }
}

/// A number that names no value of an enum (the error of generated `TryFrom` conversions).
///
/// ```
/// let e = flatforge::gen_support::UnknownEnumValue::new("Color", 9);
/// assert_eq!(e.to_string(), "9 is not a value of the enum `Color`");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownEnumValue {
    enum_name: &'static str,
    value: i128,
}

impl UnknownEnumValue {
    /// The error for `value` of the enum `enum_name`.
    ///
    /// ```
    /// use flatforge::gen_support::UnknownEnumValue;
    /// // enum Color : byte { Red, Green }, as generated code converts it
    /// #[derive(Debug, PartialEq)]
    /// enum Color { Red, Green }
    /// impl TryFrom<i8> for Color {
    ///     type Error = UnknownEnumValue;
    ///     fn try_from(value: i8) -> Result<Self, UnknownEnumValue> {
    ///         match value {
    ///             0 => Ok(Color::Red),
    ///             1 => Ok(Color::Green),
    ///             _ => Err(UnknownEnumValue::new("Color", value.into())),
    ///         }
    ///     }
    /// }
    /// assert_eq!(Color::try_from(1), Ok(Color::Green));
    /// let err = Color::try_from(-3).unwrap_err();
    /// assert_eq!(err.to_string(), "-3 is not a value of the enum `Color`");
    /// ```
    pub fn new(enum_name: &'static str, value: i128) -> Self {
        UnknownEnumValue { enum_name, value }
    }

    /// The enum's name.
    ///
    /// ```
    /// let e = flatforge::gen_support::UnknownEnumValue::new("Color", 9);
    /// assert_eq!(e.enum_name(), "Color");
    /// ```
    pub fn enum_name(&self) -> &'static str {
        self.enum_name
    }

    /// The value (an `i128`, which holds every value of every enum's underlying type).
    ///
    /// ```
    /// use flatforge::gen_support::UnknownEnumValue;
    /// assert_eq!(UnknownEnumValue::new("Color", -3).value(), -3);
    /// let e = UnknownEnumValue::new("Flags", u64::MAX.into()); // enum Flags : ulong
    /// assert_eq!(e.value(), i128::from(u64::MAX));
    /// ```
    pub fn value(&self) -> i128 {
        self.value
    }
}

impl fmt::Display for UnknownEnumValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is not a value of the enum `{}`",
            self.value, self.enum_name
        )
    }
}

impl core::error::Error for UnknownEnumValue {}

/// Sets `dst` to `src`, reusing its allocation (object API `unpack_into`).
///
/// ```
/// let mut s = String::from("old");
/// flatforge::gen_support::assign_str(&mut s, "new");
/// assert_eq!(s, "new");
/// ```
#[inline]
pub fn assign_str(dst: &mut String, src: &str) {
    dst.clear();
    dst.push_str(src);
}

/// Sets `dst` to `src`, reusing the string already there.
///
/// ```
/// let mut s = None;
/// flatforge::gen_support::assign_opt_str(&mut s, Some("x"));
/// assert_eq!(s.as_deref(), Some("x"));
/// ```
#[inline]
pub fn assign_opt_str(dst: &mut Option<String>, src: Option<&str>) {
    match src {
        Some(s) => assign_str(dst.get_or_insert_with(String::new), s),
        None => *dst = None,
    }
}

/// Replaces the elements of `dst` with `src`, reusing its allocation.
///
/// ```
/// let mut v = vec![1, 2, 3];
/// flatforge::gen_support::assign_vec(&mut v, [7u8].into_iter());
/// assert_eq!(v, [7]);
/// ```
#[inline]
pub fn assign_vec<T>(dst: &mut Vec<T>, src: impl Iterator<Item = T>) {
    dst.clear();
    dst.extend(src);
}

/// Replaces the elements of `dst` with one per item of `src`, updating the elements already there
/// with `update` (so their own allocations are reused) and default-constructing the rest.
///
/// ```
/// let mut v = vec![String::from("a"), String::from("b")];
/// flatforge::gen_support::assign_vec_with(&mut v, ["x"].into_iter(), |s, d: &mut String| {
///     flatforge::gen_support::assign_str(d, s)
/// });
/// assert_eq!(v, ["x"]);
/// ```
#[inline]
pub fn assign_vec_with<S, T: Default>(
    dst: &mut Vec<T>,
    src: impl ExactSizeIterator<Item = S>,
    mut update: impl FnMut(S, &mut T),
) {
    dst.truncate(src.len());
    let len = src.len();
    for (i, s) in src.enumerate() {
        if i < dst.len() {
            update(s, &mut dst[i]);
        } else {
            let mut t = T::default();
            update(s, &mut t);
            dst.push(t);
        }
    }
    debug_assert_eq!(dst.len(), len);
}
