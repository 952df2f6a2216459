//! The owned writer: a [`Tag`] tree to binary NBT, generic over the variant's [`Codec`]. Arrays and number
//! lists are converted in bulk (one resize, one vectorisable loop).

use crate::codec::Codec;
use crate::error::{Error, ErrorKind, Result};
use crate::name::Name;
use crate::read::MAX_DEPTH;
use crate::tag::{Compound, List, Nbt, Tag, TagType};

/// Appends the root tag (type, name when `named`, payload) to `out`.
#[inline]
pub(crate) fn write_root<C: Codec>(nbt: &Nbt, named: bool, out: &mut Vec<u8>) -> Result<()> {
    let ty = nbt.tag.tag_type() as u8;
    if named {
        C::put_root_header(out, ty, &nbt.name)?;
    } else {
        out.push(ty);
    }
    match &nbt.tag {
        Tag::Compound(c) => write_compound::<C>(c, out, 1),
        tag => write_payload::<C>(tag, out, 0),
    }
}

#[cold]
fn too_deep() -> Error {
    Error::new(ErrorKind::TooDeep(MAX_DEPTH))
}

#[inline]
fn put_bytes(out: &mut Vec<u8>, v: &[i8]) {
    out.extend(v.iter().map(|&b| b as u8));
}

pub(crate) fn write_payload<C: Codec>(tag: &Tag, out: &mut Vec<u8>, depth: usize) -> Result<()> {
    match tag {
        Tag::Byte(v) => out.push(*v as u8),
        Tag::Short(v) => C::put_i16(out, *v),
        Tag::Int(v) => C::put_i32(out, *v),
        Tag::Long(v) => C::put_i64(out, *v),
        Tag::Float(v) => C::put_f32(out, *v),
        Tag::Double(v) => C::put_f64(out, *v),
        Tag::ByteArray(v) => {
            C::put_len(out, v.len())?;
            put_bytes(out, v);
        }
        Tag::String(s) => C::put_str(out, s)?,
        Tag::List(l) => write_list::<C>(l, out, depth + 1)?,
        Tag::Compound(c) => write_compound::<C>(c, out, depth + 1)?,
        Tag::IntArray(v) => {
            C::put_len(out, v.len())?;
            C::put_i32s(out, v);
        }
        Tag::LongArray(v) => {
            C::put_len(out, v.len())?;
            C::put_i64s(out, v);
        }
    }
    Ok(())
}

fn write_compound<C: Codec>(c: &Compound, out: &mut Vec<u8>, depth: usize) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(too_deep());
    }
    for (name, value) in c.entries() {
        if let Tag::Compound(c) = value {
            entry_header::<C>(out, TagType::Compound as u8, name)
                .and_then(|()| write_compound::<C>(c, out, depth + 1))
                .map_err(|e| e.in_field(name.as_str()))?;
            continue;
        }
        // Numbers and strings whole, by the codec; lists and arrays after their header.
        if !simple_entry::<C>(out, name, value).map_err(|e| e.in_field(name.as_str()))? {
            entry_header::<C>(out, value.tag_type() as u8, name)
                .and_then(|()| match value {
                    Tag::List(l) => write_list::<C>(l, out, depth + 1),
                    other => write_payload::<C>(other, out, depth),
                })
                .map_err(|e| e.in_field(name.as_str()))?;
        }
    }
    out.push(0);
    Ok(())
}

/// [`Codec::put_entry_header`], not inlined in debug builds: its temporaries would otherwise be part of
/// every level of [`write_compound`]'s recursion, and 512 levels would not fit in a 2 MiB thread stack.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline(never))]
fn entry_header<C: Codec>(out: &mut Vec<u8>, ty: u8, name: &Name) -> Result<()> {
    C::put_entry_header(out, ty, name)
}

/// [`Codec::put_simple_entry`], not inlined in debug builds, as [`entry_header`].
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline(never))]
fn simple_entry<C: Codec>(out: &mut Vec<u8>, name: &Name, value: &Tag) -> Result<bool> {
    C::put_simple_entry(out, name, value)
}

fn each<T>(v: &[T], mut f: impl FnMut(&T) -> Result<()>) -> Result<()> {
    for (i, x) in v.iter().enumerate() {
        f(x).map_err(|e| e.in_index(i))?;
    }
    Ok(())
}

fn write_list<C: Codec>(l: &List, out: &mut Vec<u8>, depth: usize) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(too_deep());
    }
    out.push(l.element_type() as u8);
    C::put_len(out, l.len())?;
    match l {
        List::End => {}
        List::Byte(v) => put_bytes(out, v),
        List::Short(v) => C::put_i16s(out, v),
        List::Int(v) => C::put_i32s(out, v),
        List::Long(v) => C::put_i64s(out, v),
        List::Float(v) => C::put_f32s(out, v),
        List::Double(v) => C::put_f64s(out, v),
        List::ByteArray(v) => each(v, |a| {
            C::put_len(out, a.len())?;
            put_bytes(out, a);
            Ok(())
        })?,
        List::String(v) => each(v, |s| C::put_str(out, s))?,
        List::List(v) => each(v, |l| write_list::<C>(l, out, depth + 1))?,
        List::Compound(v) => each(v, |c| write_compound::<C>(c, out, depth + 1))?,
        List::IntArray(v) => each(v, |a| {
            C::put_len(out, a.len())?;
            C::put_i32s(out, a);
            Ok(())
        })?,
        List::LongArray(v) => each(v, |a| {
            C::put_len(out, a.len())?;
            C::put_i64s(out, a);
            Ok(())
        })?,
    }
    Ok(())
}
