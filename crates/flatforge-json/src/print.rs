//! Binary to JSON: prints a verified buffer in `flatc -t` layout (2-space indentation, fields in id
//! order, enums by name, bit flags as `"A B"`, unions as `x_type` + `x`, nested flatbuffers as
//! objects; strings and vectors behind 64-bit offsets print as the ordinary ones). Only buffers the
//! schema-driven verifier accepted reach this module, so reads need no checks beyond the slice
//! bounds, which cannot fail for verified data; deprecated fields, which the verifier skips unless
//! asked to check them, print only if it did.

use crate::flex::FlexPrinter;
use crate::number::{write_f32, write_f64, write_non_finite};
use crate::plan::{arr, Elem, Far, Field, Obj, Plan, Sc, Ty, Wide};
use crate::{FloatFormat, NonFinite, PrintError, PrintOptions};

/// A newline and spaces for indentation, sliced as needed (one copy per line).
const NL_SPACES: &[u8; 129] = &{
    let mut a = [b' '; 129];
    a[0] = b'\n';
    a
};

pub(crate) struct Printer<'p, 'o> {
    pub(crate) plan: &'p Plan,
    pub(crate) opts: &'o PrintOptions,
    pub(crate) out: &'o mut Vec<u8>,
    /// Whether non-finite floats are quoted.
    quote_non_finite: bool,
    /// Whether deprecated fields are printed: only if the verifier checked them (it skips them
    /// otherwise).
    deprecated: bool,
}

#[inline(always)]
fn u32_at(buf: &[u8], at: usize) -> usize {
    u32::from_le_bytes(arr(buf, at)) as usize
}

/// A 64-bit length or offset (verified, so it fits a `usize`).
#[inline(always)]
fn u64_at(buf: &[u8], at: usize) -> usize {
    u64::from_le_bytes(arr(buf, at)) as usize
}

/// The position the offset at `at` points to.
#[inline(always)]
fn deref(buf: &[u8], at: usize) -> usize {
    at + u32_at(buf, at)
}

/// The position of the field in `slot` of the table at `pos`, if present.
#[inline(always)]
fn field_pos(buf: &[u8], pos: usize, slot: usize) -> Option<usize> {
    let soffset = i32::from_le_bytes(arr(buf, pos));
    let vt = (pos as i64 - i64::from(soffset)) as usize;
    let vt_len = usize::from(u16::from_le_bytes([buf[vt], buf[vt + 1]]));
    let entry = 4 + 2 * slot;
    if entry + 2 > vt_len {
        return None;
    }
    let off = u16::from_le_bytes([buf[vt + entry], buf[vt + entry + 1]]);
    (off != 0).then(|| pos + usize::from(off))
}

impl<'p, 'o> Printer<'p, 'o> {
    pub(crate) fn new(
        plan: &'p Plan,
        opts: &'o PrintOptions,
        out: &'o mut Vec<u8>,
        deprecated: bool,
    ) -> Self {
        let quote_non_finite = match opts.non_finite {
            NonFinite::Auto => opts.strict_json,
            NonFinite::Quoted => true,
            NonFinite::Bare => false,
        };
        Printer {
            plan,
            opts,
            out,
            quote_non_finite,
            deprecated,
        }
    }

    #[inline(always)]
    fn newline(&mut self, indent: usize) {
        if self.opts.indent.is_some() {
            if indent < NL_SPACES.len() {
                self.out.extend_from_slice(&NL_SPACES[..1 + indent]);
            } else {
                self.out.push(b'\n');
                let spaces = &NL_SPACES[1..];
                let mut n = indent;
                while n > 0 {
                    let k = n.min(spaces.len());
                    self.out.extend_from_slice(&spaces[..k]);
                    n -= k;
                }
            }
        }
    }

    #[inline(always)]
    fn step(&self) -> usize {
        self.opts.indent.map_or(0, usize::from)
    }

    fn check_size(&self) -> Result<(), PrintError> {
        if self.out.len() > self.opts.max_output {
            Err(PrintError::OutputTooLarge {
                limit: self.opts.max_output,
            })
        } else {
            Ok(())
        }
    }

    /// Prints the table at `pos`.
    pub(crate) fn table(
        &mut self,
        buf: &[u8],
        obj: u32,
        pos: usize,
        indent: usize,
    ) -> Result<(), PrintError> {
        let plan = self.plan;
        let o = &plan.objects[obj as usize];
        let inner = indent + self.step();
        self.out.push(b'{');
        let mut first = true;
        for f in o.fields.iter() {
            let at = field_pos(buf, pos, usize::from(f.slot));
            if at.is_none() {
                let anyway = (self.opts.defaults || f.key)
                    && matches!(
                        f.ty,
                        Ty::Scalar(..) | Ty::UType(_) | Ty::Wide(Wide::UType, ..)
                    )
                    && !f.deprecated;
                if !anyway {
                    continue;
                }
            } else if !self.deprecated && f.deprecated {
                continue;
            }
            if !first {
                self.out.push(b',');
            }
            first = false;
            self.newline(inner);
            self.key(f);
            match at {
                Some(at) => self.field(buf, o, pos, f, at, inner)?,
                None => self.default_value(f),
            }
        }
        self.newline(indent);
        self.out.push(b'}');
        self.check_size()
    }

    #[inline(always)]
    fn key(&mut self, f: &Field) {
        let key = if self.opts.strict_json {
            &f.key_strict
        } else {
            &f.key_plain
        };
        self.out.extend_from_slice(key);
    }

    /// An absent scalar printed anyway (`defaults`, or a key field); optional scalars are `null`.
    fn default_value(&mut self, f: &Field) {
        if f.optional {
            self.out.extend_from_slice(b"null");
            return;
        }
        match f.ty {
            Ty::Scalar(sc, en) => self.scalar(sc, en, f.default),
            Ty::UType(u) => self.scalar(Sc::U8, Some(u), 0),
            Ty::Wide(Wide::UType, sc, u) => self.scalar(sc, Some(u), 0),
            _ => {}
        }
    }

    fn field(
        &mut self,
        buf: &[u8],
        o: &Obj,
        table: usize,
        f: &Field,
        at: usize,
        indent: usize,
    ) -> Result<(), PrintError> {
        match f.ty {
            Ty::Scalar(sc, en) => self.scalar(sc, en, sc.read(buf, at)),
            Ty::UType(u) => self.scalar(Sc::U8, Some(u), u64::from(buf[at])),
            Ty::String => self.string(buf, deref(buf, at)),
            Ty::Struct(s) => self.structure(buf, s, at, indent)?,
            Ty::Table(t) => self.table(buf, t, deref(buf, at), indent)?,
            Ty::Union(u) => {
                let sib = &o.fields[usize::from(f.sibling)];
                let ty = field_pos(buf, table, usize::from(sib.slot)).map_or(0, |p| buf[p]);
                self.union_value(buf, u, u64::from(ty), at, indent)?;
            }
            Ty::Vector => {
                let v = deref(buf, at);
                self.vector(buf, f.elem, v + 4, u32_at(buf, v), indent)?
            }
            Ty::UTypeVector(u) => {
                let v = deref(buf, at);
                let len = u32_at(buf, v);
                self.list(len, indent, |p, i, _| {
                    p.scalar(Sc::U8, Some(u), u64::from(buf[v + 4 + i]));
                    Ok(())
                })?;
            }
            Ty::UnionVector(u) => {
                let sib = &o.fields[usize::from(f.sibling)];
                let types = field_pos(buf, table, usize::from(sib.slot)).map(|p| deref(buf, p));
                let v = deref(buf, at);
                let len = u32_at(buf, v);
                self.list(len, indent, |p, i, inner| {
                    let ty = types.map_or(0, |t| buf[t + 4 + i]);
                    p.union_value(buf, u, u64::from(ty), v + 4 + 4 * i, inner)
                })?;
            }
            Ty::Nested(t) => {
                let v = deref(buf, at);
                self.nested(buf, t, v + 4, u32_at(buf, v), indent)?;
            }
            Ty::Flex => {
                let v = deref(buf, at);
                self.flex(buf, f, v + 4, u32_at(buf, v))?;
            }
            Ty::Far(far) => self.far(buf, f, far, at, indent)?,
            Ty::Wide(part, sc, u) => {
                let sib = &o.fields[usize::from(f.sibling)];
                self.wide(buf, (part, sc, u), sib, table, at, indent)?;
            }
            Ty::Unsupported => {
                return Err(PrintError::Unsupported {
                    what: "a type without a JSON form",
                    field: f.name.to_string(),
                })
            }
            Ty::Array => {}
        }
        Ok(())
    }

    /// Prints the string or vector that the 64-bit offset at `at` (the value of field `f`) points
    /// to. Out of line: such fields are rare, and the common ones print faster without this code.
    #[inline(never)]
    fn far(
        &mut self,
        buf: &[u8],
        f: &Field,
        far: Far,
        at: usize,
        indent: usize,
    ) -> Result<(), PrintError> {
        let v = at + u64_at(buf, at);
        match far {
            Far::String => {
                self.string(buf, v);
                Ok(())
            }
            Far::Vector => self.vector(buf, f.elem, v + 4, u32_at(buf, v), indent),
            Far::Vector64 => self.vector(buf, f.elem, v + 8, u64_at(buf, v), indent),
            Far::Nested(t) => self.nested(buf, t, v + 4, u32_at(buf, v), indent),
            Far::Nested64(t) => self.nested(buf, t, v + 8, u64_at(buf, v), indent),
            Far::Flex => self.flex(buf, f, v + 4, u32_at(buf, v)),
        }
    }

    /// Prints the field at `at` of the table at `table`, `part` of union `u` whose types are `sc`s
    /// (not `u8`s), its sibling field `sib`, as the parts of other unions print. Out of line: such
    /// unions are rare, and the common fields print faster without this code.
    #[inline(never)]
    fn wide(
        &mut self,
        buf: &[u8],
        (part, sc, u): (Wide, Sc, u32),
        sib: &Field,
        table: usize,
        at: usize,
        indent: usize,
    ) -> Result<(), PrintError> {
        let size = sc.size();
        let sib_pos = || field_pos(buf, table, usize::from(sib.slot));
        match part {
            Wide::UType => self.scalar(sc, Some(u), sc.read(buf, at)),
            Wide::Union => {
                let ty = sib_pos().map_or(0, |p| sc.read(buf, p));
                self.union_value(buf, u, ty, at, indent)?;
            }
            Wide::UTypeVector => {
                let v = deref(buf, at);
                self.list(u32_at(buf, v), indent, |p, i, _| {
                    p.scalar(sc, Some(u), sc.read(buf, v + 4 + size * i));
                    Ok(())
                })?;
            }
            Wide::UnionVector => {
                let types = sib_pos().map(|p| deref(buf, p));
                let v = deref(buf, at);
                self.list(u32_at(buf, v), indent, |p, i, inner| {
                    let ty = types.map_or(0, |t| sc.read(buf, t + 4 + size * i));
                    p.union_value(buf, u, ty, v + 4 + 4 * i, inner)
                })?;
            }
        }
        Ok(())
    }

    /// Prints the nested flatbuffer of `len` bytes at `data`, whose root is a `t`. Inlined into
    /// both its callers, so that the common one compiles as it did before the other came.
    #[inline(always)]
    fn nested(
        &mut self,
        buf: &[u8],
        t: u32,
        data: usize,
        len: usize,
        indent: usize,
    ) -> Result<(), PrintError> {
        let nested = &buf[data..data + len];
        self.table(nested, t, deref(nested, 0), indent)
    }

    /// Prints the FlexBuffer of `len` bytes at `data` (the value of field `f`). Inlined as
    /// [`nested`](Self::nested) is.
    #[inline(always)]
    fn flex(&mut self, buf: &[u8], f: &Field, data: usize, len: usize) -> Result<(), PrintError> {
        let bytes = &buf[data..data + len];
        let mut p = FlexPrinter::new(bytes, self.opts.strict_json, self.opts.float_format)
            .quote_non_finite(self.quote_non_finite);
        // (Verified first, so not reached: printing checks no more than verifying.)
        p.root(self.out).map_err(|_| PrintError::Unsupported {
            what: "a FlexBuffer that cannot be read",
            field: f.name.to_string(),
        })
    }

    /// Prints the union member of type `ty` (raw bits, as [`Sc::read`] returns them) whose offset
    /// is at `at`.
    fn union_value(
        &mut self,
        buf: &[u8],
        union: u32,
        ty: u64,
        at: usize,
        indent: usize,
    ) -> Result<(), PrintError> {
        let u = &self.plan.enums[union as usize];
        let Some(member) = u.by_value(ty as i64) else {
            // A newer schema's member, which the verifier let through unchecked: flatc stops too.
            return Err(PrintError::UnknownUnionType {
                union: u.name.to_string(),
                value: u.underlying.int_value(ty),
            });
        };
        match member.member {
            Elem::Table(t) => self.table(buf, t, deref(buf, at), indent),
            Elem::Struct(s) => self.structure(buf, s, deref(buf, at), indent),
            Elem::String => {
                self.string(buf, deref(buf, at));
                Ok(())
            }
            // NONE, which only an element of a vector of unions can be (a union field of type NONE
            // is left out): `null`, as a JSON array needs a value in every slot.
            _ => {
                self.out.extend_from_slice(b"null");
                Ok(())
            }
        }
    }

    /// Prints `len` elements with `each(printer, index, indent)` in flatc's list layout.
    #[inline]
    fn list(
        &mut self,
        len: usize,
        indent: usize,
        mut each: impl FnMut(&mut Self, usize, usize) -> Result<(), PrintError>,
    ) -> Result<(), PrintError> {
        let inner = indent + self.step();
        self.out.push(b'[');
        self.newline(inner);
        for i in 0..len {
            if i > 0 {
                self.out.push(b',');
                self.newline(inner);
            }
            each(self, i, inner)?;
        }
        if len == 0 && self.opts.indent.is_some() {
            // flatc prints an empty list as `[`, an empty line, then `]`.
            let l = self.out.len();
            self.out.truncate(l - inner);
        }
        self.newline(indent);
        self.out.push(b']');
        self.check_size()
    }

    /// Prints the `len` elements from `data` of a vector (behind a 32- or a 64-bit offset).
    fn vector(
        &mut self,
        buf: &[u8],
        elem: Elem,
        data: usize,
        len: usize,
        indent: usize,
    ) -> Result<(), PrintError> {
        match elem {
            Elem::Scalar(sc, en) => {
                let size = sc.size();
                self.list(len, indent, |p, i, _| {
                    p.scalar(sc, en, sc.read(buf, data + i * size));
                    Ok(())
                })
            }
            Elem::Struct(s) => {
                let size = self.plan.objects[s as usize].bytesize;
                self.list(len, indent, |p, i, inner| {
                    p.structure(buf, s, data + i * size, inner)
                })
            }
            Elem::String => self.list(len, indent, |p, i, _| {
                p.string(buf, deref(buf, data + 4 * i));
                Ok(())
            }),
            Elem::Table(t) => self.list(len, indent, |p, i, inner| {
                p.table(buf, t, deref(buf, data + 4 * i), inner)
            }),
            Elem::None => self.list(0, indent, |_, _, _| Ok(())),
        }
    }

    /// Prints the struct at `pos`.
    fn structure(
        &mut self,
        buf: &[u8],
        obj: u32,
        pos: usize,
        indent: usize,
    ) -> Result<(), PrintError> {
        let plan = self.plan;
        let o = &plan.objects[obj as usize];
        let inner = indent + self.step();
        self.out.push(b'{');
        for (i, f) in o.fields.iter().enumerate() {
            if i > 0 {
                self.out.push(b',');
            }
            self.newline(inner);
            self.key(f);
            let at = pos + usize::from(f.slot);
            match f.ty {
                Ty::Scalar(sc, en) => self.scalar(sc, en, sc.read(buf, at)),
                Ty::Struct(s) => self.structure(buf, s, at, inner)?,
                Ty::Array => {
                    let len = usize::from(f.array_len);
                    match f.elem {
                        Elem::Scalar(sc, en) => self.list(len, inner, |p, i, _| {
                            p.scalar(sc, en, sc.read(buf, at + i * sc.size()));
                            Ok(())
                        })?,
                        Elem::Struct(s) => {
                            let size = plan.objects[s as usize].bytesize;
                            self.list(len, inner, |p, i, ind| {
                                p.structure(buf, s, at + i * size, ind)
                            })?
                        }
                        _ => self.list(0, inner, |_, _, _| Ok(()))?,
                    }
                }
                _ => {}
            }
        }
        self.newline(indent);
        self.out.push(b'}');
        Ok(())
    }

    /// Prints a scalar given as raw bits (see [`Sc::read`]).
    #[inline]
    fn scalar(&mut self, sc: Sc, en: Option<u32>, bits: u64) {
        match sc {
            Sc::Bool => self
                .out
                .extend_from_slice(if bits != 0 { b"true" } else { b"false" }),
            Sc::F32 => {
                let x = f64::from_bits(bits) as f32;
                if x.is_finite() {
                    match self.opts.float_format {
                        FloatFormat::Shortest => {
                            let mut b = ryu::Buffer::new();
                            self.out.extend_from_slice(b.format_finite(x).as_bytes());
                        }
                        FloatFormat::Flatc => write_f32(self.out, x),
                    }
                } else {
                    self.non_finite(x.is_nan(), x.is_sign_negative());
                }
            }
            Sc::F64 => {
                let x = f64::from_bits(bits);
                if x.is_finite() {
                    match self.opts.float_format {
                        FloatFormat::Shortest => {
                            let mut b = ryu::Buffer::new();
                            self.out.extend_from_slice(b.format_finite(x).as_bytes());
                        }
                        FloatFormat::Flatc => write_f64(self.out, x),
                    }
                } else {
                    self.non_finite(x.is_nan(), x.is_sign_negative());
                }
            }
            _ => {
                if let Some(e) = en {
                    if self.enum_name(e, bits) {
                        return;
                    }
                }
                let mut b = itoa::Buffer::new();
                let s = if sc.is_signed() {
                    b.format(bits as i64)
                } else {
                    b.format(bits)
                };
                self.out.extend_from_slice(s.as_bytes());
            }
        }
    }

    fn non_finite(&mut self, nan: bool, negative: bool) {
        let flatc_text = self.opts.float_format == FloatFormat::Flatc;
        write_non_finite(self.out, nan, negative, flatc_text, self.quote_non_finite);
    }

    /// Prints an enum value by name (or bit flags as `"A B"`); false if it has no name.
    fn enum_name(&mut self, e: u32, bits: u64) -> bool {
        let en = &self.plan.enums[e as usize];
        if let Some(v) = en.by_value(bits as i64) {
            self.out.extend_from_slice(&v.quoted);
            return true;
        }
        if en.bit_flags && bits != 0 {
            let start = self.out.len();
            let mut mask = 0u64;
            self.out.push(b'"');
            for v in en.values.iter() {
                let f = v.value as u64;
                if f & bits != 0 {
                    mask |= f;
                    self.out.extend_from_slice(v.name.as_bytes());
                    self.out.push(b' ');
                }
            }
            if mask != 0 && mask == bits {
                let last = self.out.len() - 1;
                self.out[last] = b'"';
                return true;
            }
            self.out.truncate(start);
        }
        false
    }

    /// Prints the string at `pos` (length-prefixed, verified UTF-8), escaped as flatc does.
    fn string(&mut self, buf: &[u8], pos: usize) {
        let len = u32_at(buf, pos);
        let s = &buf[pos + 4..pos + 4 + len];
        crate::escape::escape(self.out, s, self.opts.natural_utf8);
    }
}
