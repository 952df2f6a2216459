//! The owned reader: binary NBT straight into a [`Tag`] tree, generic over the variant's [`Codec`].
//!
//! Every length is checked against the remaining input before anything is allocated; errors carry the
//! byte offset and, added while they travel back to the root, the path.
//!
//! A compound's entries are gathered on a stack shared by the whole read (and kept for the next read on
//! the thread), then moved into a vector of their number: one allocation per compound, of its size.

use std::cell::Cell;

use crate::codec::{Codec, Cursor};
use crate::error::{Error, ErrorKind, Result};
use crate::name::{ascii_str, Name};
use crate::tag::{Compound, List, Nbt, Tag};

/// The deepest nesting of compounds and lists accepted, as in Minecraft.
///
/// ```
/// use flatforge_nbt::{ErrorKind, Nbt, Variant, MAX_DEPTH};
/// // `depth` lists, each the single element of the one around it; the innermost is empty.
/// let nested = |depth: usize| {
///     let mut bytes = vec![9, 0, 0];
///     for _ in 1..depth {
///         bytes.extend_from_slice(&[9, 0, 0, 0, 1]);
///     }
///     bytes.extend_from_slice(&[0, 0, 0, 0, 0]);
///     bytes
/// };
/// assert!(Nbt::read(&nested(MAX_DEPTH), Variant::Java).is_ok());
/// let err = Nbt::read(&nested(MAX_DEPTH + 1), Variant::Java).unwrap_err();
/// assert_eq!(err.kind(), &ErrorKind::TooDeep(MAX_DEPTH));
/// ```
pub const MAX_DEPTH: usize = 512;

#[cold]
fn too_deep(pos: usize) -> Error {
    Error::at(ErrorKind::TooDeep(MAX_DEPTH), pos)
}

#[cold]
fn invalid_type(ty: u8, pos: usize) -> Error {
    Error::at(ErrorKind::InvalidTagType(ty), pos)
}

/// Reads the root tag (type, name when `named`, payload) and returns it with the bytes consumed.
pub(crate) fn read_root<C: Codec>(data: &[u8], named: bool) -> Result<(Nbt, usize)> {
    let mut c = Cursor::new(data);
    let ty = c.u8()?;
    if ty == 0 || ty > 12 {
        return Err(invalid_type(ty, 0));
    }
    let name = if named {
        read_name::<C>(&mut c)?
    } else {
        String::new()
    };
    let mut stack = SPARE_STACK.try_with(Cell::take).unwrap_or_default();
    let tag = read_payload::<C>(&mut c, &mut stack, ty, 0);
    if stack.capacity() <= MAX_SPARE_ENTRIES {
        // Left with entries only after an error.
        stack.clear();
        let _ = SPARE_STACK.try_with(|spare| spare.set(stack));
    }
    Ok((Nbt { name, tag: tag? }, c.pos))
}

/// The entries of the compounds being read, innermost last.
type Stack = Vec<(Name, Tag)>;

thread_local! {
    /// The entry stack of the last read on this thread, reused by the next one.
    static SPARE_STACK: Cell<Stack> = const { Cell::new(Vec::new()) };
}

/// Stacks above this many entries (64 bytes each: 256 KiB) are freed rather than kept for reuse.
const MAX_SPARE_ENTRIES: usize = 1 << 12;

#[inline]
fn read_string<C: Codec>(c: &mut Cursor<'_>) -> Result<String> {
    let len = C::str_len(c)?;
    decode_string::<C>(c, len)
}

#[inline]
fn read_name<C: Codec>(c: &mut Cursor<'_>) -> Result<String> {
    let len = C::name_len(c)?;
    decode_string::<C>(c, len)
}

#[inline]
fn decode_string<C: Codec>(c: &mut Cursor<'_>, len: usize) -> Result<String> {
    let bytes = c.take(len)?;
    // A short ASCII string is checked the way entry names are, a few words at a time: less work than
    // validating it as UTF-8 (ASCII reads the same in every variant). It is copied straight from the
    // input: building it in a `Name` first and copying that stalled on store forwarding.
    if let Some(short) = ascii_str(bytes) {
        return Ok(short.to_owned());
    }
    match C::decode_str(bytes) {
        Ok(s) => Ok(s.into_owned()),
        Err(e) => Err(Error::at(ErrorKind::InvalidString(e), c.pos - len)),
    }
}

/// Reads a compound entry's name.
#[inline]
fn read_entry_name<C: Codec>(c: &mut Cursor<'_>) -> Result<Name> {
    let len = C::name_len(c)?;
    let bytes = c.take(len)?;
    if let Some(name) = Name::inline_ascii(bytes) {
        return Ok(name);
    }
    match C::decode_str(bytes) {
        Ok(s) => Ok(Name::new(&s)),
        Err(e) => Err(Error::at(ErrorKind::InvalidString(e), c.pos - len)),
    }
}

#[inline]
fn read_bytes(c: &mut Cursor<'_>, n: usize) -> Result<Vec<i8>> {
    Ok(c.take(n)?.iter().map(|&b| b as i8).collect())
}

/// Inlined into [`read_compound`], so that an entry holding a number or a string costs no call.
#[inline(always)]
fn read_payload<C: Codec>(c: &mut Cursor<'_>, s: &mut Stack, ty: u8, depth: usize) -> Result<Tag> {
    Ok(match ty {
        1 => Tag::Byte(c.u8()? as i8),
        2 => Tag::Short(C::i16(c)?),
        3 => Tag::Int(C::i32(c)?),
        4 => Tag::Long(C::i64(c)?),
        5 => Tag::Float(C::f32(c)?),
        6 => Tag::Double(C::f64(c)?),
        7 => {
            let n = C::len(c)?;
            Tag::ByteArray(read_bytes(c, n)?)
        }
        8 => Tag::String(read_string::<C>(c)?),
        9 => Tag::List(read_list::<C>(c, s, depth + 1)?),
        10 => Tag::Compound(read_compound::<C>(c, s, depth + 1)?),
        11 => {
            let n = C::len(c)?;
            Tag::IntArray(C::i32s(c, n)?)
        }
        12 => {
            let n = C::len(c)?;
            Tag::LongArray(C::i64s(c, n)?)
        }
        _ => return Err(invalid_type(ty, c.pos.saturating_sub(1))),
    })
}

/// [`read_payload`] for a compound's entries. In debug builds, where nothing is inlined but
/// `#[inline(always)]` functions and every temporary takes its own stack slot, containers recurse
/// directly and the other types are read in a frame of their own: with [`read_payload`]'s temporaries
/// in every level of the recursion, 512 levels barely fitted in a 2 MiB thread stack. Release builds
/// keep [`read_payload`] inlined as it is, which is faster.
#[cfg(debug_assertions)]
#[inline(always)]
fn read_entry_payload<C: Codec>(
    c: &mut Cursor<'_>,
    s: &mut Stack,
    ty: u8,
    depth: usize,
) -> Result<Tag> {
    #[inline(never)]
    fn other<C: Codec>(c: &mut Cursor<'_>, s: &mut Stack, ty: u8, depth: usize) -> Result<Tag> {
        read_payload::<C>(c, s, ty, depth)
    }
    match ty {
        9 => Ok(Tag::List(read_list::<C>(c, s, depth + 1)?)),
        10 => Ok(Tag::Compound(read_compound::<C>(c, s, depth + 1)?)),
        _ => other::<C>(c, s, ty, depth),
    }
}

#[cfg(not(debug_assertions))]
use read_payload as read_entry_payload;

fn read_compound<C: Codec>(c: &mut Cursor<'_>, s: &mut Stack, depth: usize) -> Result<Compound> {
    if depth > MAX_DEPTH {
        return Err(too_deep(c.pos));
    }
    let start = s.len();
    loop {
        let ty_pos = c.pos;
        let ty = c.u8()?;
        if ty == 0 {
            return Ok(Compound::from_entries(s.split_off(start)));
        }
        if ty > 12 {
            return Err(invalid_type(ty, ty_pos));
        }
        let name = read_entry_name::<C>(c)?;
        match read_entry_payload::<C>(c, s, ty, depth) {
            Ok(value) => s.push((name, value)),
            Err(e) => return Err(e.in_field(name.as_str())),
        }
    }
}

/// Reads `n` elements with `f`, adding the index to the path of an error.
#[inline]
fn elements<T>(
    c: &mut Cursor<'_>,
    n: usize,
    min_size: usize,
    mut f: impl FnMut(&mut Cursor<'_>) -> Result<T>,
) -> Result<Vec<T>> {
    c.check_count(n, min_size)?;
    let mut v = Vec::with_capacity(n);
    for i in 0..n {
        v.push(f(c).map_err(|e| e.in_index(i))?);
    }
    Ok(v)
}

fn read_list<C: Codec>(c: &mut Cursor<'_>, s: &mut Stack, depth: usize) -> Result<List> {
    if depth > MAX_DEPTH {
        return Err(too_deep(c.pos));
    }
    let ty_pos = c.pos;
    let ty = c.u8()?;
    let len_pos = c.pos;
    let n = C::len(c)?;
    Ok(match ty {
        0 if n == 0 => List::End,
        0 => return Err(Error::at(ErrorKind::EndListNotEmpty(n as i64), len_pos)),
        1 => List::Byte(read_bytes(c, n)?),
        2 => List::Short(C::i16s(c, n)?),
        3 => List::Int(C::i32s(c, n)?),
        4 => List::Long(C::i64s(c, n)?),
        5 => List::Float(C::f32s(c, n)?),
        6 => List::Double(C::f64s(c, n)?),
        7 => List::ByteArray(elements(c, n, C::MIN_LIST, |c| {
            let n = C::len(c)?;
            read_bytes(c, n)
        })?),
        8 => List::String(elements(c, n, C::MIN_STRING, read_string::<C>)?),
        9 => List::List(elements(c, n, 1 + C::MIN_LIST, |c| {
            read_list::<C>(c, s, depth + 1)
        })?),
        10 => List::Compound(elements(c, n, 1, |c| read_compound::<C>(c, s, depth + 1))?),
        11 => List::IntArray(elements(c, n, C::MIN_LIST, |c| {
            let n = C::len(c)?;
            C::i32s(c, n)
        })?),
        12 => List::LongArray(elements(c, n, C::MIN_LIST, |c| {
            let n = C::len(c)?;
            C::i64s(c, n)
        })?),
        _ => return Err(invalid_type(ty, ty_pos)),
    })
}
