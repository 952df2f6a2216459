//! The schema-driven verifier: walks any buffer against any table of any schema with the runtime's
//! verifier primitives, checking everything generated verifiers check (bounds, alignment, vtables,
//! strings, vectors, required fields, unions and vectors of unions, structs, nested flatbuffers,
//! FlexBuffers, strings and vectors behind 64-bit offsets, depth and the table and apparent-size
//! budgets; unions of any integer type). Errors carry the path and the byte offset. The printer runs
//! it before reading anything.
//!
//! Deprecated fields are skipped, as generated verifiers (ours and flatc's) skip them: no reader
//! reads them, so their bytes cannot make a buffer invalid. Each function takes `DEPRECATED`, which
//! checks them too: the printer, which prints them as flatc does, walks with it first (see
//! `Printer::print_into`).

use flatforge::{Error, ErrorKind, Object, TableVerifier, UnionTag, Verifier};

use crate::flex::FlexPrinter;
use crate::FloatFormat;

use crate::plan::{Elem, Far, Obj, Plan, Sc, Ty, Wide};

/// Runs `$body` with `$t` the Rust integer type of union types of integer type `$sc` (`u8` for
/// what is not an integer, which the plan gives no union).
macro_rules! with_tag {
    ($sc:expr, $t:ident => $body:expr) => {
        match $sc {
            Sc::I8 => {
                type $t = i8;
                $body
            }
            Sc::I16 => {
                type $t = i16;
                $body
            }
            Sc::U16 => {
                type $t = u16;
                $body
            }
            Sc::I32 => {
                type $t = i32;
                $body
            }
            Sc::U32 => {
                type $t = u32;
                $body
            }
            Sc::I64 => {
                type $t = i64;
                $body
            }
            Sc::U64 => {
                type $t = u64;
                $body
            }
            Sc::U8 | Sc::Bool | Sc::F32 | Sc::F64 => {
                type $t = u8;
                $body
            }
        }
    };
}

/// Verifies the table whose offset is stored at `pos`, and its deprecated fields if `DEPRECATED`.
pub(crate) fn table_at<const DEPRECATED: bool>(
    plan: &Plan,
    v: &mut Verifier<'_>,
    obj: u32,
    pos: usize,
) -> Result<(), Error> {
    let target = v.offset(pos)?;
    table::<DEPRECATED>(plan, v, obj, target)
}

/// Verifies the table at `pos`, and its deprecated fields if `DEPRECATED`.
fn table<const DEPRECATED: bool>(
    plan: &Plan,
    v: &mut Verifier<'_>,
    obj: u32,
    pos: usize,
) -> Result<(), Error> {
    let o = &plan.objects[obj as usize];
    let mut t = v.table(pos)?;
    for f in o.fields.iter() {
        if DEPRECATED || !f.deprecated {
            field::<DEPRECATED>(plan, o, f, &mut t)?;
        }
    }
    Ok(())
}

fn field<const DEPRECATED: bool>(
    plan: &Plan,
    o: &Obj,
    f: &crate::plan::Field,
    t: &mut TableVerifier<'_, '_>,
) -> Result<(), Error> {
    let slot = usize::from(f.slot);
    let name = &*f.name;
    match f.ty {
        Ty::Scalar(..) | Ty::UType(_) | Ty::Struct(_) | Ty::Wide(Wide::UType, ..) => {
            let (size, align) = f.inline(plan);
            t.inline_field(slot, size, align, name, f.required)?;
        }
        Ty::String => {
            if let Some(p) = t.offset_field(slot, name, f.required)? {
                t.verifier().string(p).map_err(|e| e.in_field(name))?;
            }
        }
        Ty::Table(inner) => {
            if let Some(p) = t.offset_field(slot, name, f.required)? {
                table::<DEPRECATED>(plan, t.verifier(), inner, p).map_err(|e| e.in_field(name))?;
            }
        }
        Ty::Union(e) => {
            let type_slot = usize::from(o.fields[usize::from(f.sibling)].slot);
            t.union(type_slot, slot, name, f.required, |v, ty, p| {
                union_member::<DEPRECATED>(plan, v, e, i64::from(ty), p)
            })?;
        }
        Ty::UnionVector(e) => {
            let type_slot = usize::from(o.fields[usize::from(f.sibling)].slot);
            t.union_vector(type_slot, slot, name, f.required, |v, ty, p| {
                union_member::<DEPRECATED>(plan, v, e, i64::from(ty), p)
            })?;
        }
        // Checked with its vector of values.
        Ty::UTypeVector(_) => {}
        Ty::Vector => {
            if let Some(p) = t.offset_field(slot, name, f.required)? {
                vector::<DEPRECATED>(plan, t.verifier(), f.elem, p)
                    .map_err(|e| e.in_field(name))?;
            }
        }
        Ty::Nested(inner) => {
            t.nested_flatbuffer(slot, name, f.required, |v| {
                table_at::<DEPRECATED>(plan, v, inner, 0)
            })?;
        }
        Ty::Flex => {
            if let Some(p) = t.offset_field(slot, name, f.required)? {
                let v = t.verifier();
                let (data, len) = v.vector_raw(p, 1, 1).map_err(|e| e.in_field(name))?;
                flex(v, data, len).map_err(|e| e.in_field(name))?;
            }
        }
        Ty::Far(far) => {
            if let Some(p) = t.inline_field(slot, 8, 8, name, f.required)? {
                far_field::<DEPRECATED>(plan, t.verifier(), far, f.elem, p)
                    .map_err(|e| e.in_field(name))?;
            }
        }
        Ty::Wide(part, tag, e) => wide::<DEPRECATED>(plan, o, f, t, part, tag, e)?,
        // Its size is not known: only a required one's presence is checked.
        Ty::Unsupported => {
            t.inline_field(slot, 0, 1, name, f.required)?;
        }
        Ty::Array => {}
    }
    Ok(())
}

/// Verifies field `f` of table `o`, a part of union `union` whose types are `tag`s: the value or the
/// vector of values with their types, as for the unions of `u8` types (the type field is checked as
/// an inline scalar, the types vector with its values). Out of line: such unions are rare, and the
/// common fields verify faster without this code.
#[inline(never)]
fn wide<const DEPRECATED: bool>(
    plan: &Plan,
    o: &Obj,
    f: &crate::plan::Field,
    t: &mut TableVerifier<'_, '_>,
    part: Wide,
    tag: Sc,
    union: u32,
) -> Result<(), Error> {
    let (slot, name, required) = (usize::from(f.slot), &*f.name, f.required);
    let type_slot = usize::from(o.fields[usize::from(f.sibling)].slot);
    match part {
        Wide::Union => {
            with_tag!(tag, T => t.union_typed(type_slot, slot, name, required, |v, ty: T, p| {
                union_member::<DEPRECATED>(plan, v, union, ty.to_i128() as i64, p)
            }))
        }
        Wide::UnionVector => {
            with_tag!(tag, T => t.union_vector_typed(type_slot, slot, name, required, |v, ty: T, p| {
                union_member::<DEPRECATED>(plan, v, union, ty.to_i128() as i64, p)
            }))
        }
        Wide::UType | Wide::UTypeVector => Ok(()),
    }
}

/// Verifies what the 64-bit offset at `pos` (its 8 bytes checked) points to, with flatc's checks:
/// `VerifyOffset64`, then `VerifyString`, or `VerifyVector` with a 32- or 64-bit length (and
/// nested flatbuffers as their own roots), plus the element alignment [`aligned_vector`] checks.
/// Out of line: such fields are rare, and the common ones verify faster without this code.
#[inline(never)]
fn far_field<const DEPRECATED: bool>(
    plan: &Plan,
    v: &mut Verifier<'_>,
    far: Far,
    elem: Elem,
    pos: usize,
) -> Result<(), Error> {
    let target = v.offset64(pos)?;
    // Vectors behind 64-bit offsets hold scalars or structs.
    let (size, align) = elem.layout(plan);
    match far {
        Far::String => v.string(target).map(|_| ()),
        Far::Vector => aligned_vector(v, target, size, align),
        Far::Vector64 => vector64(v, target, size, align).map(|_| ()),
        Far::Nested(inner) => {
            let (data, len) = v.vector_raw(target, 1, 1)?;
            v.nested(data, len, |v| table_at::<DEPRECATED>(plan, v, inner, 0))
        }
        Far::Nested64(inner) => {
            let (data, len) = vector64(v, target, 1, 1)?;
            v.nested(data, len, |v| table_at::<DEPRECATED>(plan, v, inner, 0))
        }
        Far::Flex => {
            let (data, len) = v.vector_raw(target, 1, 1)?;
            flex(v, data, len)
        }
    }
}

/// Checks the vector with a 64-bit length at `pos` whose elements are `size` bytes aligned to
/// `align`, with the runtime's [`Verifier::vector64_raw`]; an empty vector's data need not be
/// aligned past the 8 bytes it gets after its length (as in [`aligned_vector`]). Returns the
/// position of the first element and the element count.
fn vector64(
    v: &mut Verifier<'_>,
    pos: usize,
    size: usize,
    align: usize,
) -> Result<(usize, usize), Error> {
    let (data, len) = v.vector64_raw(pos, size, align.min(8))?;
    if align > 8 && len > 0 {
        v.check_alignment(Object::Vector, data, align)?;
    }
    Ok((data, len))
}

/// Checks a vector of `size`-byte elements aligned to `align`. An empty vector's data need not be
/// aligned: flatc does not align it (its `PreAlign` skips zero lengths), and nothing is read there.
fn aligned_vector(
    v: &mut Verifier<'_>,
    pos: usize,
    size: usize,
    align: usize,
) -> Result<(), Error> {
    let (data, len) = v.vector_raw(pos, size, align.min(4))?;
    if align > 4 && len > 0 {
        v.check_alignment(Object::Vector, data, align)?;
    }
    Ok(())
}

/// Verifies a vector of `elem` at `pos`.
fn vector<const DEPRECATED: bool>(
    plan: &Plan,
    v: &mut Verifier<'_>,
    elem: Elem,
    pos: usize,
) -> Result<(), Error> {
    match elem {
        Elem::Scalar(sc, _) => aligned_vector(v, pos, sc.size(), sc.size())?,
        Elem::Struct(s) => {
            let o = &plan.objects[s as usize];
            aligned_vector(v, pos, o.bytesize, o.minalign)?;
        }
        Elem::String => {
            let (data, len) = v.vector_raw(pos, 4, 4)?;
            for i in 0..len {
                let target = v.offset(data + 4 * i).map_err(|e| e.in_index(i))?;
                v.string(target).map_err(|e| e.in_index(i))?;
            }
        }
        Elem::Table(inner) => {
            let (data, len) = v.vector_raw(pos, 4, 4)?;
            for i in 0..len {
                table_at::<DEPRECATED>(plan, v, inner, data + 4 * i).map_err(|e| e.in_index(i))?;
            }
        }
        Elem::None => {
            v.vector_raw(pos, 1, 1)?;
        }
    }
    Ok(())
}

/// Verifies the union member of type `ty` (as the union's values hold it: a `u64` as its bits) whose
/// offset is at `pos`; `None` if `ty` is not a member.
fn union_member<const DEPRECATED: bool>(
    plan: &Plan,
    v: &mut Verifier<'_>,
    union: u32,
    ty: i64,
    pos: usize,
) -> Option<Result<(), Error>> {
    let u = &plan.enums[union as usize];
    let member = u.by_value(ty)?.member;
    Some(match member {
        Elem::Table(o) => table_at::<DEPRECATED>(plan, v, o, pos),
        Elem::Struct(s) => {
            let o = &plan.objects[s as usize];
            v.offset(pos).and_then(|target| {
                v.check_range(Object::Inline, target, o.bytesize)?;
                v.check_alignment(Object::Inline, target, o.minalign)
            })
        }
        Elem::String => v
            .offset(pos)
            .and_then(|target| v.string(target).map(|_| ())),
        Elem::Scalar(..) | Elem::None => return None,
    })
}

/// Checks the FlexBuffer in `len` bytes at `data` by reading all of it, and (if the verifier checks
/// alignment) that what its offsets point to is aligned to its byte width, as C++'s
/// `flexbuffers::Verifier` checks it. Its problems are reported as
/// [`ErrorKind::InvalidFlexBuffer`] with the reader's reason, at the byte where they are. Inlined
/// into both its callers, so that the common one compiles as it did before the other came.
#[inline(always)]
fn flex(v: &Verifier<'_>, data: usize, len: usize) -> Result<(), Error> {
    let bytes = &v.buffer()[data..data + len];
    let mut sink = Vec::new();
    FlexPrinter::new(bytes, false, FloatFormat::Flatc)
        .check_alignment(v.checks_alignment())
        .root(&mut sink)
        .map_err(|e| {
            let kind = ErrorKind::InvalidFlexBuffer { reason: e.reason() };
            v.error(kind, data + e.at)
        })
}
