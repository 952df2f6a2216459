//! FlexBuffers, for fields with the `flexbuffer` attribute: a builder that encodes JSON values
//! exactly as flatc's `flexbuffers::Builder` does (with `BUILDER_FLAG_SHARE_ALL`), and a reader
//! that prints a FlexBuffer as flatc's `ToString` does (`{ a: 1, b: [ 1, 2 ] }`).
//!
//! The reader checks every offset, width and length against the bytes and counts the values it
//! visits (shared values count each time), so hostile bytes give an error, never a panic or an
//! exponential walk. The verifier runs the reader once without keeping the text.

use std::collections::HashMap;

use crate::number::{write_f64, write_non_finite};
use crate::parse::{is_ident, is_ident_start};
use crate::FloatFormat;

const NULL: u8 = 0;
const INT: u8 = 1;
const UINT: u8 = 2;
const FLOAT: u8 = 3;
const KEY: u8 = 4;
const STRING: u8 = 5;
const INDIRECT_INT: u8 = 6;
const INDIRECT_UINT: u8 = 7;
const INDIRECT_FLOAT: u8 = 8;
const MAP: u8 = 9;
const VECTOR: u8 = 10;
const VECTOR_INT: u8 = 11;
const VECTOR_STRING: u8 = 15;
const VECTOR_INT2: u8 = 16;
const VECTOR_FLOAT4: u8 = 24;
const BLOB: u8 = 25;
const BOOL: u8 = 26;
const VECTOR_BOOL: u8 = 36;

fn is_inline(t: u8) -> bool {
    t <= FLOAT || t == BOOL
}

/// The bit width code (0: 8 bits ... 3: 64 bits) an unsigned value needs.
fn width_u(u: u64) -> u8 {
    if u >> 8 == 0 {
        0
    } else if u >> 16 == 0 {
        1
    } else if u >> 32 == 0 {
        2
    } else {
        3
    }
}

fn width_i(i: i64) -> u8 {
    let u = (i as u64) << 1;
    width_u(if i >= 0 { u } else { !u })
}

fn width_f(f: f64) -> u8 {
    if f64::from(f as f32) == f {
        2
    } else {
        3
    }
}

fn padding(size: usize, align: usize) -> usize {
    size.wrapping_neg() & (align - 1)
}

/// A value on the builder's stack.
#[derive(Clone, Copy, Debug)]
struct Value {
    /// The value's bits (int, uint, float bits), or the position of what it refers to.
    bits: u64,
    ty: u8,
    min_width: u8,
}

impl Value {
    fn elem_width(&self, buf_size: usize, elem_index: usize) -> u8 {
        if is_inline(self.ty) {
            return self.min_width;
        }
        let mut byte_width = 1usize;
        while byte_width <= 8 {
            let loc = buf_size + padding(buf_size, byte_width) + elem_index * byte_width;
            let w = width_u((loc as u64).wrapping_sub(self.bits));
            if 1usize << w == byte_width {
                return w;
            }
            byte_width *= 2;
        }
        3
    }

    fn stored_width(&self, parent: u8) -> u8 {
        if is_inline(self.ty) {
            self.min_width.max(parent)
        } else {
            self.min_width
        }
    }

    fn packed_type(&self, parent: u8) -> u8 {
        self.stored_width(parent) | (self.ty << 2)
    }
}

/// Builds one FlexBuffer, sharing keys, strings and nothing else (flatc's `SHARE_ALL` also names
/// key vectors, which its builder does not share).
#[derive(Debug, Default)]
pub(crate) struct FlexBuilder {
    buf: Vec<u8>,
    stack: Vec<Value>,
    keys: HashMap<Vec<u8>, usize>,
    strings: HashMap<Vec<u8>, usize>,
}

impl FlexBuilder {
    pub(crate) fn clear(&mut self) {
        self.buf.clear();
        self.stack.clear();
        self.keys.clear();
        self.strings.clear();
    }

    /// The position on the stack where the next value goes (for `end_vector`/`end_map`).
    pub(crate) fn start(&self) -> usize {
        self.stack.len()
    }

    fn align(&mut self, width: u8) -> usize {
        let bw = 1usize << width;
        let pad = padding(self.buf.len(), bw);
        self.buf.resize(self.buf.len() + pad, 0);
        bw
    }

    fn write(&mut self, v: u64, byte_width: usize) {
        self.buf.extend_from_slice(&v.to_le_bytes()[..byte_width]);
    }

    pub(crate) fn null(&mut self) {
        self.stack.push(Value {
            bits: 0,
            ty: NULL,
            min_width: 0,
        });
    }

    pub(crate) fn bool(&mut self, b: bool) {
        self.stack.push(Value {
            bits: u64::from(b),
            ty: BOOL,
            min_width: 0,
        });
    }

    pub(crate) fn int(&mut self, i: i64) {
        self.stack.push(Value {
            bits: i as u64,
            ty: INT,
            min_width: width_i(i),
        });
    }

    pub(crate) fn double(&mut self, f: f64) {
        self.stack.push(Value {
            bits: f.to_bits(),
            ty: FLOAT,
            min_width: width_f(f),
        });
    }

    pub(crate) fn key(&mut self, k: &[u8]) {
        let loc = match self.keys.get(k) {
            Some(&loc) => loc,
            None => {
                let loc = self.buf.len();
                self.buf.extend_from_slice(k);
                self.buf.push(0);
                self.keys.insert(k.to_vec(), loc);
                loc
            }
        };
        self.stack.push(Value {
            bits: loc as u64,
            ty: KEY,
            min_width: 0,
        });
    }

    pub(crate) fn string(&mut self, s: &[u8]) {
        let width = width_u(s.len() as u64);
        let loc = match self.strings.get(s) {
            Some(&loc) => loc,
            None => {
                let bw = self.align(width);
                self.write(s.len() as u64, bw);
                let loc = self.buf.len();
                self.buf.extend_from_slice(s);
                self.buf.push(0);
                self.strings.insert(s.to_vec(), loc);
                loc
            }
        };
        self.stack.push(Value {
            bits: loc as u64,
            ty: STRING,
            min_width: width,
        });
    }

    fn write_any(&mut self, v: Value, byte_width: usize) {
        match v.ty {
            NULL | INT | BOOL | UINT => self.write(v.bits, byte_width),
            FLOAT => {
                let f = f64::from_bits(v.bits);
                if byte_width == 8 {
                    self.write(v.bits, 8);
                } else {
                    self.write(u64::from((f as f32).to_bits()), 4);
                }
            }
            _ => {
                let rel = (self.buf.len() as u64).wrapping_sub(v.bits);
                self.write(rel, byte_width);
            }
        }
    }

    /// Writes the values from `start` (every `step`-th) as a vector: typed for the keys of a map
    /// (`step` 2 without `keys`), a map's values with `keys`, untyped otherwise.
    fn create_vector(
        &mut self,
        start: usize,
        len: usize,
        step: usize,
        keys: Option<Value>,
    ) -> Value {
        let typed = step == 2 && keys.is_none();
        let mut width = width_u(len as u64);
        let mut prefix = 1;
        if let Some(k) = keys {
            width = width.max(k.elem_width(self.buf.len(), 0));
            prefix += 2;
        }
        let mut ty = KEY;
        let mut i = start;
        while i < self.stack.len() {
            // The index of the element's slot, as flatc's `CreateVector` counts it: from `start`
            // on the stack, so the `k`th key or value of a map (`step` 2) counts as `2k`, which
            // may make an offset wider than needed; flatc does it, so do we, for its bytes.
            width = width.max(self.stack[i].elem_width(self.buf.len(), i - start + prefix));
            if typed && i == start {
                ty = self.stack[i].ty;
            }
            i += step;
        }
        let bw = self.align(width);
        if let Some(k) = keys {
            let rel = (self.buf.len() as u64).wrapping_sub(k.bits);
            self.write(rel, bw);
            self.write(1u64 << k.min_width, bw);
        }
        self.write(len as u64, bw);
        let loc = self.buf.len();
        let mut i = start;
        while i < self.stack.len() {
            let v = self.stack[i];
            self.write_any(v, bw);
            i += step;
        }
        if !typed {
            let mut i = start;
            while i < self.stack.len() {
                let t = self.stack[i].packed_type(width);
                self.buf.push(t);
                i += step;
            }
        }
        Value {
            bits: loc as u64,
            ty: if keys.is_some() {
                MAP
            } else if typed {
                ty - INT + VECTOR_INT
            } else {
                VECTOR
            },
            min_width: width,
        }
    }

    /// Ends an untyped vector of the values pushed since `start`.
    pub(crate) fn end_vector(&mut self, start: usize) {
        let len = self.stack.len() - start;
        let v = self.create_vector(start, len, 1, None);
        self.stack.truncate(start);
        self.stack.push(v);
    }

    /// Ends a map of the key/value pairs pushed since `start`; false if a key repeats.
    pub(crate) fn end_map(&mut self, start: usize) -> bool {
        let len = (self.stack.len() - start) / 2;
        let buf = &self.buf;
        let key_of = |v: &Value| {
            let at = v.bits as usize;
            let end = buf[at..]
                .iter()
                .position(|&b| b == 0)
                .map_or(buf.len(), |p| at + p);
            &buf[at..end]
        };
        let mut pairs: Vec<(Value, Value)> = self.stack[start..]
            .chunks_exact(2)
            .map(|c| (c[0], c[1]))
            .collect();
        pairs.sort_by(|a, b| key_of(&a.0).cmp(key_of(&b.0)));
        if pairs.windows(2).any(|w| key_of(&w[0].0) == key_of(&w[1].0)) {
            return false;
        }
        for (i, (k, v)) in pairs.into_iter().enumerate() {
            self.stack[start + 2 * i] = k;
            self.stack[start + 2 * i + 1] = v;
        }
        // The keys as a typed vector: every second value from `start`.
        let keys = self.create_vector(start, len, 2, None);
        let map = self.create_vector(start + 1, len, 2, Some(keys));
        self.stack.truncate(start);
        self.stack.push(map);
        true
    }

    /// Finishes the buffer (one root value on the stack) and returns its bytes.
    pub(crate) fn finish(&mut self) -> &[u8] {
        let root = self.stack[0];
        let width = root.elem_width(self.buf.len(), 0);
        let bw = self.align(width);
        self.write_any(root, bw);
        let t = root.packed_type(0);
        self.buf.push(t);
        self.buf.push(bw as u8);
        &self.buf
    }
}

/// A FlexBuffer that cannot be read: what and where (an offset into its bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FlexError {
    /// What is wrong, in words ("map has fewer keys than values").
    what: &'static str,
    /// The offending value, when `what` ends by naming one (a byte width, a type).
    value: Option<u64>,
    pub(crate) at: usize,
}

impl FlexError {
    /// What is wrong, in words, with the offending value if there is one ("map has fewer keys
    /// than values", "invalid byte width 3").
    pub(crate) fn reason(&self) -> String {
        match self.value {
            Some(value) => format!("{} {value}", self.what),
            None => self.what.to_string(),
        }
    }
}

/// Prints FlexBuffers as flatc's `ToString` does.
pub(crate) struct FlexPrinter<'a> {
    buf: &'a [u8],
    /// Strict JSON: keys quoted, and blobs that are not UTF-8 printed as their byte values.
    strict_json: bool,
    float_format: FloatFormat,
    /// Whether NaN and infinities print quoted (see [`quote_non_finite`](Self::quote_non_finite)).
    quote_non_finite: bool,
    budget: usize,
    depth: u32,
    /// Whether data must be aligned to its byte width (see [`check_alignment`](Self::check_alignment)).
    check_alignment: bool,
}

type R = Result<(), FlexError>;

fn err(what: &'static str, at: usize) -> FlexError {
    FlexError {
        what,
        value: None,
        at,
    }
}

/// [`err`] for a problem with `value`, which the message ends with.
fn err_value(what: &'static str, value: u64, at: usize) -> FlexError {
    FlexError {
        value: Some(value),
        ..err(what, at)
    }
}

impl<'a> FlexPrinter<'a> {
    pub(crate) fn new(buf: &'a [u8], strict_json: bool, float_format: FloatFormat) -> Self {
        FlexPrinter {
            buf,
            strict_json,
            float_format,
            quote_non_finite: false,
            budget: (buf.len() * 16).max(4096),
            depth: 0,
            check_alignment: false,
        }
    }

    /// Whether NaN and infinities print as strings (`"nan"`), as the fields of strict JSON do (off
    /// by default: bare, as flatc prints them).
    pub(crate) fn quote_non_finite(mut self, quote: bool) -> Self {
        self.quote_non_finite = quote;
        self
    }

    /// Whether what offsets point to must be aligned to its byte width (off by default: a
    /// verified FlexBuffer need not be checked again). For verifiers.
    pub(crate) fn check_alignment(mut self, check: bool) -> Self {
        self.check_alignment = check;
        self
    }

    /// Prints the root value.
    pub(crate) fn root(&mut self, out: &mut Vec<u8>) -> R {
        let n = self.buf.len();
        if n < 3 {
            return Err(err("FlexBuffer too short", 0));
        }
        let bw = self.buf[n - 1];
        let packed = self.buf[n - 2];
        if !matches!(bw, 1 | 2 | 4 | 8) {
            return Err(err_value("invalid byte width", bw.into(), n - 1));
        }
        let at = (n - 2)
            .checked_sub(usize::from(bw))
            .ok_or(err("FlexBuffer too short", 0))?;
        self.value(out, at, bw, packed >> 2, 1 << (packed & 3), true)
    }

    fn uint(&self, at: usize, width: u8) -> Result<u64, FlexError> {
        let w = usize::from(width);
        let bytes = at
            .checked_add(w)
            .and_then(|end| self.buf.get(at..end))
            .ok_or(err("value out of bounds", at))?;
        let mut b = [0u8; 8];
        b[..w].copy_from_slice(bytes);
        Ok(u64::from_le_bytes(b))
    }

    fn int(&self, at: usize, width: u8) -> Result<i64, FlexError> {
        let u = self.uint(at, width)?;
        let shift = 64 - 8 * u32::from(width);
        Ok(((u << shift) as i64) >> shift)
    }

    fn double(&self, at: usize, width: u8) -> Result<f64, FlexError> {
        Ok(match width {
            8 => f64::from_bits(self.uint(at, 8)?),
            4 => f64::from(f32::from_bits(self.uint(at, 4)? as u32)),
            // flatc reads 1- and 2-byte "floats" as integers.
            w => self.int(at, w)? as f64,
        })
    }

    fn indirect(&self, at: usize, width: u8) -> Result<usize, FlexError> {
        let off = self.uint(at, width)?;
        usize::try_from(off)
            .ok()
            .and_then(|o| at.checked_sub(o))
            .ok_or(err("offset out of bounds", at))
    }

    /// The bytes of the key whose offset (`width` bytes) is at `at`, up to its NUL; the key must be
    /// aligned to `align` (see [`aligned`](Self::aligned)).
    fn key(&self, at: usize, width: u8, align: u8) -> Result<&'a [u8], FlexError> {
        let target = self.indirect(at, width)?;
        self.aligned(target, align)?;
        let rest = self.buf.get(target..).ok_or(err("key out of bounds", at))?;
        let len = rest
            .iter()
            .position(|&b| b == 0)
            .ok_or(err("key not terminated", target))?;
        let key = &rest[..len];
        // As a table's strings must be (JSON has no escape for other bytes).
        if simdutf8::basic::from_utf8(key).is_err() {
            return Err(err("key not UTF-8", target));
        }
        Ok(key)
    }

    /// Where the offset (`parent` bytes) at `at` points, to data of `width`-byte elements (checked
    /// to be a valid width, and aligned to it), with the width.
    fn target(&self, at: usize, parent: u8, width: u8) -> Result<(usize, u8), FlexError> {
        let target = self.indirect(at, parent)?;
        let width = Self::check_width(width, at)?;
        self.aligned(target, width)?;
        Ok((target, width))
    }

    /// With alignment checks on, checks that `target` is a multiple of `width` from the
    /// FlexBuffer's start, as C++'s `flexbuffers::Verifier` checks every offset's target; the
    /// reader itself reads byte by byte and needs no alignment.
    fn aligned(&self, target: usize, width: u8) -> R {
        if self.check_alignment && target % usize::from(width) != 0 {
            return Err(err_value(
                "misaligned data of byte width",
                width.into(),
                target,
            ));
        }
        Ok(())
    }

    fn check_width(w: u8, at: usize) -> Result<u8, FlexError> {
        if matches!(w, 1 | 2 | 4 | 8) {
            Ok(w)
        } else {
            Err(err_value("invalid byte width", w.into(), at))
        }
    }

    fn float_text(&self, out: &mut Vec<u8>, f: f64) {
        if !f.is_finite() {
            let flatc_text = self.float_format == FloatFormat::Flatc;
            let (nan, negative) = (f.is_nan(), f.is_sign_negative());
            write_non_finite(out, nan, negative, flatc_text, self.quote_non_finite);
            return;
        }
        match self.float_format {
            FloatFormat::Flatc => write_f64(out, f),
            FloatFormat::Shortest => {
                let mut b = ryu::Buffer::new();
                out.extend_from_slice(b.format_finite(f).as_bytes());
            }
        }
    }

    /// Prints the value at `at` stored with `parent` width, of type `ty` whose children have
    /// `width` bytes.
    fn value(
        &mut self,
        out: &mut Vec<u8>,
        at: usize,
        parent: u8,
        ty: u8,
        width: u8,
        quoted: bool,
    ) -> R {
        if self.budget == 0 {
            return Err(err("too many values (shared data visited too often)", at));
        }
        self.budget -= 1;
        match ty {
            NULL => out.extend_from_slice(b"null"),
            BOOL => {
                let b = self.uint(at, parent)? != 0;
                out.extend_from_slice(if b { b"true" } else { b"false" });
            }
            INT => {
                let mut b = itoa::Buffer::new();
                out.extend_from_slice(b.format(self.int(at, parent)?).as_bytes());
            }
            UINT => {
                let mut b = itoa::Buffer::new();
                out.extend_from_slice(b.format(self.uint(at, parent)?).as_bytes());
            }
            FLOAT => {
                let f = self.double(at, parent)?;
                self.float_text(out, f);
            }
            INDIRECT_INT | INDIRECT_UINT | INDIRECT_FLOAT => {
                let (target, width) = self.target(at, parent, width)?;
                let mut b = itoa::Buffer::new();
                match ty {
                    INDIRECT_INT => {
                        out.extend_from_slice(b.format(self.int(target, width)?).as_bytes())
                    }
                    INDIRECT_UINT => {
                        out.extend_from_slice(b.format(self.uint(target, width)?).as_bytes())
                    }
                    _ => {
                        let f = self.double(target, width)?;
                        self.float_text(out, f);
                    }
                }
            }
            KEY => {
                let key = self.key(at, parent, width)?;
                // Unquoted only where flatc leaves keys bare: identifiers.
                let identifier = key.first().copied().is_some_and(is_ident_start)
                    && key.iter().copied().all(is_ident);
                if self.strict_json || !identifier {
                    escape_lossy(out, key);
                } else {
                    out.extend_from_slice(key);
                }
            }
            STRING | BLOB => {
                let (target, width) = self.target(at, parent, width)?;
                let (data, len) = self.sized(target, width, 1)?;
                // C readers take a string's bytes up to its NUL (`c_str`, `strlen`).
                if ty == STRING && self.buf.get(data + len) != Some(&0) {
                    return Err(err("string not terminated", data + len));
                }
                let bytes = &self.buf[data..data + len];
                // As a table's strings must be (JSON has no escape for other bytes).
                if ty == STRING && simdutf8::basic::from_utf8(bytes).is_err() {
                    return Err(err("string not UTF-8", data));
                }
                if ty == STRING && !quoted {
                    out.extend_from_slice(bytes);
                } else if ty == BLOB
                    && self.strict_json
                    && simdutf8::basic::from_utf8(bytes).is_err()
                {
                    // Strict JSON has no text for bytes that are not UTF-8 (flatc's `\xHH` is
                    // not JSON): their values, as a vector of them prints.
                    byte_values(out, bytes);
                } else {
                    escape_lossy(out, bytes);
                }
            }
            MAP => {
                let (target, width) = self.target(at, parent, width)?;
                let (data, len) = self.sized(target, width, usize::from(width))?;
                let w = usize::from(width);
                let keys_at = target
                    .checked_sub(3 * w)
                    .ok_or(err("map out of bounds", target))?;
                let keys = self.indirect(keys_at, width)?;
                let key_width = Self::check_width(self.uint(keys_at + w, width)? as u8, keys_at)?;
                let (kdata, klen) = self.sized(keys, key_width, usize::from(key_width))?;
                if klen < len {
                    return Err(err("map has fewer keys than values", keys));
                }
                // Keys past the values are printed by no one, but C++ readers search them all.
                let kw = usize::from(key_width);
                for i in len..klen {
                    if self.budget == 0 {
                        return Err(err("too many values (shared data visited too often)", at));
                    }
                    self.budget -= 1;
                    self.key(kdata + i * kw, key_width, 1)?;
                }
                let types = self.types(data, len, w)?;
                self.enter(at)?;
                out.extend_from_slice(b"{ ");
                for i in 0..len {
                    self.value(
                        out,
                        kdata + i * usize::from(key_width),
                        key_width,
                        KEY,
                        1,
                        true,
                    )?;
                    out.extend_from_slice(b": ");
                    let packed = self.buf[types + i];
                    self.value(
                        out,
                        data + i * w,
                        width,
                        packed >> 2,
                        1 << (packed & 3),
                        true,
                    )?;
                    if i + 1 < len {
                        out.extend_from_slice(b", ");
                    }
                }
                out.extend_from_slice(b" }");
                self.depth -= 1;
            }
            VECTOR => {
                let (target, width) = self.target(at, parent, width)?;
                let (data, len) = self.sized(target, width, usize::from(width))?;
                let w = usize::from(width);
                let types = self.types(data, len, w)?;
                self.enter(at)?;
                out.extend_from_slice(b"[ ");
                for i in 0..len {
                    if i > 0 {
                        out.extend_from_slice(b", ");
                    }
                    let packed = self.buf[types + i];
                    self.value(
                        out,
                        data + i * w,
                        width,
                        packed >> 2,
                        1 << (packed & 3),
                        true,
                    )?;
                }
                out.extend_from_slice(b" ]");
                self.depth -= 1;
            }
            VECTOR_INT..=VECTOR_STRING | VECTOR_BOOL | VECTOR_INT2..=VECTOR_FLOAT4 => {
                let (target, width) = self.target(at, parent, width)?;
                let (elem, data, len) = if (VECTOR_INT2..=VECTOR_FLOAT4).contains(&ty) {
                    let fixed = ty - VECTOR_INT2;
                    let len = usize::from(fixed / 3 + 2);
                    target
                        .checked_add(len * usize::from(width))
                        .filter(|&e| e <= self.buf.len())
                        .ok_or(err("vector out of bounds", target))?;
                    (fixed % 3 + INT, target, len)
                } else {
                    let (data, len) = self.sized(target, width, usize::from(width))?;
                    let elem = if ty == VECTOR_BOOL {
                        BOOL
                    } else {
                        ty - VECTOR_INT + INT
                    };
                    (elem, data, len)
                };
                self.enter(at)?;
                out.extend_from_slice(b"[ ");
                for i in 0..len {
                    if i > 0 {
                        out.extend_from_slice(b", ");
                    }
                    self.value(out, data + i * usize::from(width), width, elem, 1, true)?;
                }
                out.extend_from_slice(b" ]");
                self.depth -= 1;
            }
            _ => return Err(err_value("unknown type", ty.into(), at)),
        }
        Ok(())
    }

    fn enter(&mut self, at: usize) -> R {
        if self.depth >= 64 {
            return Err(err("nested deeper than 64 levels", at));
        }
        self.depth += 1;
        Ok(())
    }

    /// A length-prefixed object at `target` whose length takes `width` bytes: its data position
    /// and length, checked to fit with `elem`-byte elements.
    fn sized(&self, target: usize, width: u8, elem: usize) -> Result<(usize, usize), FlexError> {
        let w = usize::from(width);
        let len_at = target
            .checked_sub(w)
            .ok_or(err("length out of bounds", target))?;
        let len = usize::try_from(self.uint(len_at, width)?)
            .map_err(|_| err("length too large", len_at))?;
        let bytes = len
            .checked_mul(elem)
            .ok_or(err("length too large", len_at))?;
        if target.checked_add(bytes).is_none_or(|e| e > self.buf.len()) {
            return Err(err("data out of bounds", target));
        }
        Ok((target, len))
    }

    /// The position of the type bytes of an untyped vector.
    fn types(&self, data: usize, len: usize, w: usize) -> Result<usize, FlexError> {
        let types = data + len * w;
        if types.checked_add(len).is_none_or(|e| e > self.buf.len()) {
            return Err(err("vector types out of bounds", data));
        }
        Ok(types)
    }
}

/// A blob's bytes as the numbers they hold: `[ 104, 255 ]`.
fn byte_values(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(b"[ ");
    let mut number = itoa::Buffer::new();
    for (i, &b) in bytes.iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(b", ");
        }
        out.extend_from_slice(number.format(b).as_bytes());
    }
    out.extend_from_slice(b" ]");
}

/// flatc's `EscapeString` with non-UTF-8 allowed: invalid bytes print as `\xHH`.
fn escape_lossy(out: &mut Vec<u8>, bytes: &[u8]) {
    let start = out.len();
    out.push(b'"');
    for chunk in bytes.utf8_chunks() {
        let mut tmp = Vec::new();
        crate::escape::escape(&mut tmp, chunk.valid().as_bytes(), false);
        out.extend_from_slice(&tmp[1..tmp.len() - 1]);
        for &b in chunk.invalid() {
            out.extend_from_slice(format!("\\x{b:02X}").as_bytes());
        }
    }
    out.push(b'"');
    debug_assert!(out.len() > start);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn print(buf: &[u8]) -> String {
        let mut out = Vec::new();
        FlexPrinter::new(buf, false, FloatFormat::Flatc)
            .root(&mut out)
            .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn builds_and_prints_like_flatc() {
        let mut b = FlexBuilder::default();
        b.int(1234);
        assert_eq!(b.finish(), &[0xD2, 0x04, 0x05, 0x02]);
        assert_eq!(print(&b.buf), "1234");

        let mut b = FlexBuilder::default();
        let m = b.start();
        b.key(b"b");
        let v = b.start();
        b.int(1);
        b.string(b"x");
        b.double(2.5);
        b.bool(true);
        b.null();
        b.end_vector(v);
        b.key(b"a");
        b.int(-7);
        assert!(b.end_map(m));
        let bytes = b.finish().to_vec();
        assert_eq!(print(&bytes), "{ a: -7, b: [ 1, \"x\", 2.5, true, null ] }");
    }

    #[test]
    fn hostile_bytes_are_errors() {
        for bytes in [
            &[][..],
            &[1, 2, 3],
            &[0xFF, 0x24, 1],
            &[0, 0, 0, 0x28, 3],
            &[5, 0x2C, 1],
        ] {
            let mut out = Vec::new();
            assert!(FlexPrinter::new(bytes, false, FloatFormat::Flatc)
                .root(&mut out)
                .is_err());
        }
    }

    /// What C++'s FlexBuffer verifier checks and a C++ reader relies on, though printing would
    /// not need it: a string's NUL, and keys past a map's values.
    #[test]
    fn strings_need_their_nul_and_every_key_is_checked() {
        let problem = |bytes: &[u8]| {
            let mut out = Vec::new();
            FlexPrinter::new(bytes, false, FloatFormat::Flatc)
                .root(&mut out)
                .unwrap_err()
                .reason()
        };
        let mut b = FlexBuilder::default();
        b.string(b"xy");
        let mut bytes = b.finish().to_vec();
        assert_eq!(bytes[..4], [2, b'x', b'y', 0]);
        assert_eq!(print(&bytes), "\"xy\"");
        bytes[0] = 3; // the NUL becomes the string's last byte, the next byte is no NUL
        assert_eq!(problem(&bytes), "string not terminated");

        let mut b = FlexBuilder::default();
        let m = b.start();
        b.key(b"a");
        b.int(1);
        assert!(b.end_map(m));
        let mut bytes = b.finish().to_vec();
        assert_eq!(bytes[..4], [b'a', 0, 1, 3]); // the key, then its vector: length 1, offset 3
        assert_eq!(print(&bytes), "{ a: 1 }");
        // (Keys that are no identifiers are quoted, as flatc quotes them.)
        let mut b = FlexBuilder::default();
        let m = b.start();
        for (k, v) in [(&b""[..], 1), (b"a b", 2), (b"k\"", 3), (b"_x9", 4)] {
            b.key(k);
            b.int(v);
        }
        assert!(b.end_map(m));
        assert_eq!(
            print(b.finish()),
            r#"{ "": 1, _x9: 4, "a b": 2, "k\"": 3 }"# // (in key order)
        );
        bytes[2] = 2; // a second key, whose offset leads to bytes with no NUL
        assert_eq!(problem(&bytes), "key not terminated");
    }
}
