//! The borrowed, zero-copy reader: one pass over the input builds a flat tape of 16-byte entries (one per
//! tag; lists of numbers take a single entry), pointing into the input. Strings are decoded and array bytes
//! swapped only when asked; compound lookups compare raw name bytes. A dropped document's tape is kept
//! (per thread, up to 1 MiB) for the next parse, so parsing in a loop does not allocate.
//!
//! ```
//! use flatforge_nbt::borrowed::Document;
//! use flatforge_nbt::{Compound, Nbt, Variant};
//! let mut player = Compound::new();
//! player.insert("name", "Steve");
//! player.insert("xp", 17i32);
//! let bytes = Nbt::new("", player).to_vec(Variant::Java)?;
//! let doc = Document::parse(&bytes, Variant::Java)?; // no copy of the strings
//! let root = doc.root().compound().unwrap();
//! assert_eq!(root.get("name").unwrap().string().unwrap(), "Steve");
//! assert_eq!(root.get("xp").unwrap().int(), Some(17));
//! # Ok::<(), flatforge_nbt::Error>(())
//! ```

use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;
use std::marker::PhantomData;

use crate::codec::{BigEndian, Codec, Cursor, Enc, LittleEndian, VarInt, Variant};
use crate::error::{Error, ErrorKind, Result};
use crate::mutf8;
use crate::read::MAX_DEPTH;
use crate::tag::{Compound, List, Nbt, Tag, TagType};

/// One tag on the tape.
///
/// | kind | `a` | `b` |
/// |---|---|---|
/// | numbers | payload offset | – |
/// | string, arrays | offset of the bytes / first element | byte length / element count |
/// | compound | number of entries | index after the subtree |
/// | list of numbers (1–6) | offset of the first element | element count |
/// | other lists | element count | index after the subtree |
#[derive(Clone, Copy, Debug)]
struct Entry {
    kind: u8,
    elem: u8,
    name_len: u16,
    name: u32,
    a: u32,
    b: u32,
}

impl Entry {
    #[inline(always)]
    fn has_children(&self) -> bool {
        self.kind == 10 || (self.kind == 9 && (self.elem == 0 || self.elem >= 7))
    }
}

/// A parsed document that borrows its input.
///
/// ```
/// use flatforge_nbt::{borrowed::Document, Variant};
/// let data = std::fs::read(format!("{}/../../../shared/testdata/nbt/hello_world.nbt",
///     env!("CARGO_MANIFEST_DIR"))).unwrap();
/// let doc = Document::parse(&data, Variant::Java).unwrap();
/// let root = doc.root().compound().unwrap();
/// assert_eq!(doc.root_name().to_str().unwrap(), "hello world");
/// assert_eq!(root.get("name").unwrap().string().unwrap(), "Bananrama");
/// ```
pub struct Document<'a> {
    data: &'a [u8],
    tape: Vec<Entry>,
    enc: Enc,
    variant: Variant,
}

#[cold]
fn invalid_type(ty: u8, pos: usize) -> Error {
    Error::at(ErrorKind::InvalidTagType(ty), pos)
}

#[cold]
fn too_deep(pos: usize) -> Error {
    Error::at(ErrorKind::TooDeep(MAX_DEPTH), pos)
}

struct Parser<'a, C> {
    c: Cursor<'a>,
    tape: Vec<Entry>,
    _codec: PhantomData<C>,
}

impl<'a, C: Codec> Parser<'a, C> {
    #[inline(always)]
    fn name(&mut self) -> Result<(u32, u16)> {
        let len = C::name_len(&mut self.c)?;
        let len16 = len as u16;
        let off = self.c.pos as u32;
        self.c.take(len)?;
        Ok((off, len16))
    }

    #[inline(always)]
    fn push(&mut self, kind: u8, name: (u32, u16), a: u32, b: u32) {
        self.tape.push(Entry {
            kind,
            elem: 0,
            name_len: name.1,
            name: name.0,
            a,
            b,
        });
    }

    /// Skips `n` varint-or-fixed ints (`long` picks 64-bit).
    #[inline]
    fn skip_ints(&mut self, n: usize, size: usize) -> Result<()> {
        if C::ENC == Enc::Var {
            self.c.check_count(n, 1)?;
            for _ in 0..n {
                if size == 8 {
                    C::i64(&mut self.c)?;
                } else {
                    C::i32(&mut self.c)?;
                }
            }
            Ok(())
        } else {
            match n.checked_mul(size) {
                Some(bytes) => self.c.take(bytes).map(|_| ()),
                None => Err(self.c.eof(usize::MAX)),
            }
        }
    }

    #[inline(always)]
    fn value(&mut self, ty: u8, name: (u32, u16), depth: usize) -> Result<()> {
        let off = self.c.pos as u32;
        match ty {
            1 => {
                self.c.u8()?;
                self.push(1, name, off, 0);
            }
            2 => {
                C::i16(&mut self.c)?;
                self.push(2, name, off, 0);
            }
            3 => {
                C::i32(&mut self.c)?;
                self.push(3, name, off, 0);
            }
            4 => {
                C::i64(&mut self.c)?;
                self.push(4, name, off, 0);
            }
            5 => {
                C::f32(&mut self.c)?;
                self.push(5, name, off, 0);
            }
            6 => {
                C::f64(&mut self.c)?;
                self.push(6, name, off, 0);
            }
            7 => {
                let n = C::len(&mut self.c)?;
                let start = self.c.pos as u32;
                self.c.take(n)?;
                self.push(7, name, start, n as u32);
            }
            8 => {
                let n = C::str_len(&mut self.c)?;
                let start = self.c.pos as u32;
                self.c.take(n)?;
                self.push(8, name, start, n as u32);
            }
            9 => self.list(name, depth + 1)?,
            10 => self.compound_at_cursor(name, depth + 1)?,
            11 | 12 => {
                let n = C::len(&mut self.c)?;
                let start = self.c.pos as u32;
                self.skip_ints(n, if ty == 11 { 4 } else { 8 })?;
                self.push(ty, name, start, n as u32);
            }
            _ => return Err(invalid_type(ty, self.c.pos.saturating_sub(1))),
        }
        Ok(())
    }

    /// [`Parser::value`] for the entries of compounds and lists. In debug builds, where nothing is
    /// inlined but `#[inline(always)]` functions and every temporary takes its own stack slot,
    /// containers recurse directly and the other types are read in a frame of their own: with every
    /// arm's temporaries in each level of the recursion, 241 levels filled a 2 MiB thread stack.
    /// Release builds inline [`Parser::value`] whole, which is faster.
    #[cfg(debug_assertions)]
    #[inline(always)]
    fn entry_value(&mut self, ty: u8, name: (u32, u16), depth: usize) -> Result<()> {
        match ty {
            9 => self.list(name, depth + 1),
            10 => self.compound_at_cursor(name, depth + 1),
            _ => self.leaf(ty, name, depth),
        }
    }

    /// [`Parser::value`] for a type other than List and Compound, not inlined.
    #[cfg(debug_assertions)]
    #[inline(never)]
    fn leaf(&mut self, ty: u8, name: (u32, u16), depth: usize) -> Result<()> {
        self.value(ty, name, depth)
    }

    #[cfg(not(debug_assertions))]
    #[inline(always)]
    fn entry_value(&mut self, ty: u8, name: (u32, u16), depth: usize) -> Result<()> {
        self.value(ty, name, depth)
    }

    /// [`Parser::compound`] from the cursor, which it moves past the End.
    #[inline(always)]
    fn compound_at_cursor(&mut self, name: (u32, u16), depth: usize) -> Result<()> {
        self.c.pos = self.compound(self.c.pos, name, depth)?;
        Ok(())
    }

    /// Reads a compound's entries from `pos`; returns the position after its End. The position is passed
    /// in and out in registers, not through `self.c`, so that a nested compound does not put it through
    /// a store and a load on each side of the call.
    fn compound(&mut self, mut pos: usize, name: (u32, u16), depth: usize) -> Result<usize> {
        if depth > MAX_DEPTH {
            return Err(too_deep(pos));
        }
        let idx = self.tape.len();
        self.push(10, name, 0, 0);
        let mut count = 0u32;
        loop {
            if C::ENC != Enc::Var {
                let (n, ended);
                (pos, n, ended) = self.fast_entries(pos, depth)?;
                count += n;
                if ended {
                    break;
                }
            }
            self.c.pos = pos;
            let ty_pos = pos;
            let ty = self.c.u8()?;
            if ty == 0 {
                pos = self.c.pos;
                break;
            }
            if ty > 12 {
                return Err(invalid_type(ty, ty_pos));
            }
            let child = self.name()?;
            if let Err(e) = self.entry_value(ty, child, depth) {
                let (o, l) = (child.0 as usize, child.1 as usize);
                return Err(e.in_field_bytes(&self.c.data[o..o + l]));
            }
            pos = self.c.pos;
            count += 1;
        }
        let end = self.tape.len() as u32;
        let e = &mut self.tape[idx];
        e.a = count;
        e.b = end;
        Ok(pos)
    }

    /// The fast path of compound entries in the fixed-width variants, in a loop that keeps its state in
    /// registers: numbers and strings whose header, name and payload are all in the input, each checked
    /// with one comparison; containers and arrays whose header and name are in the input, read by
    /// [`Parser::compound`] or [`Parser::value`] (errors get the entry's name); the compound's End.
    /// Stops (consuming nothing of that entry) at anything else, which the general path then
    /// handles, errors included. Starts at `pos`; returns the position reached, the number of
    /// entries read and whether the End was.
    #[inline(always)]
    fn fast_entries(&mut self, mut pos: usize, depth: usize) -> Result<(usize, u32, bool)> {
        let data = self.c.data;
        let end = data.len();
        let mut n = 0;
        let u16_at = |b: [u8; 2]| {
            if C::ENC == Enc::Be {
                u16::from_be_bytes(b)
            } else {
                u16::from_le_bytes(b)
            }
        };
        while let Some(&[ty, l0, l1]) = data.get(pos..pos + 3) {
            if ty == 0 {
                return Ok((pos + 1, n, true));
            }
            let name_len = u16_at([l0, l1]);
            let name = pos + 3;
            let payload = name + name_len as usize;
            // The size of a number comes from a branch on the type, not from a table: the branch is
            // predicted, so the next entry's position does not wait for the type byte to be loaded.
            let size = match ty {
                1 => 1,
                2 => 2,
                3 | 5 => 4,
                4 | 6 => 8,
                _ => 0,
            };
            let (a, b, next) = if size != 0 {
                if payload + size > end {
                    break;
                }
                (payload, 0, payload + size)
            } else if ty == 8 {
                let Some(&[s0, s1]) = data.get(payload..payload + 2) else {
                    break;
                };
                let len = u16_at([s0, s1]) as usize;
                let start = payload + 2;
                if start + len > end {
                    break;
                }
                (start, len, start + len)
            } else if ty == 10 && payload <= end {
                match self.compound(payload, (name as u32, name_len), depth + 1) {
                    Ok(next) => pos = next,
                    Err(e) => return Err(e.in_field_bytes(&data[name..payload])),
                }
                n += 1;
                continue;
            } else if matches!(ty, 7 | 9 | 11 | 12) && payload <= end {
                self.c.pos = payload;
                if let Err(e) = self.entry_value(ty, (name as u32, name_len), depth) {
                    return Err(e.in_field_bytes(&data[name..payload]));
                }
                pos = self.c.pos;
                n += 1;
                continue;
            } else {
                break;
            };
            self.tape.push(Entry {
                kind: ty,
                elem: 0,
                name_len,
                name: name as u32,
                a: a as u32,
                b: b as u32,
            });
            pos = next;
            n += 1;
        }
        Ok((pos, n, false))
    }

    fn list(&mut self, name: (u32, u16), depth: usize) -> Result<()> {
        if depth > MAX_DEPTH {
            return Err(too_deep(self.c.pos));
        }
        let ty_pos = self.c.pos;
        let elem = self.c.u8()?;
        let len_pos = self.c.pos;
        let n = C::len(&mut self.c)?;
        let idx = self.tape.len();
        self.push(9, name, 0, 0);
        self.tape[idx].elem = elem;
        let start = self.c.pos as u32;
        let none = (0, 0);
        match elem {
            0 if n == 0 => {}
            0 => return Err(Error::at(ErrorKind::EndListNotEmpty(n as i64), len_pos)),
            1 => {
                self.c.take(n)?;
            }
            2 => self.skip_fixed(n, 2)?,
            3 => self.skip_ints(n, 4)?,
            4 => self.skip_ints(n, 8)?,
            5 => self.skip_fixed(n, 4)?,
            6 => self.skip_fixed(n, 8)?,
            7..=12 => {
                let min = match elem {
                    8 => C::MIN_STRING,
                    9 => 1 + C::MIN_LIST,
                    10 => 1,
                    _ => C::MIN_LIST,
                };
                self.c.check_count(n, min)?;
                for i in 0..n {
                    let r = match elem {
                        9 => self.list(none, depth + 1),
                        10 => self.compound_at_cursor(none, depth + 1),
                        _ => self.entry_value(elem, none, depth),
                    };
                    r.map_err(|e| e.in_index(i))?;
                }
            }
            _ => return Err(invalid_type(elem, ty_pos)),
        }
        let end = self.tape.len() as u32;
        let e = &mut self.tape[idx];
        if (1..=6).contains(&elem) {
            e.a = start;
            e.b = n as u32;
        } else {
            e.a = n as u32;
            e.b = end;
        }
        Ok(())
    }

    #[inline]
    fn skip_fixed(&mut self, n: usize, size: usize) -> Result<()> {
        match n.checked_mul(size) {
            Some(bytes) => self.c.take(bytes).map(|_| ()),
            None => Err(self.c.eof(usize::MAX)),
        }
    }
}

thread_local! {
    /// The tape of the last dropped document on this thread, reused by the next parse, so that parsing in
    /// a loop allocates nothing once the tape is large enough.
    static SPARE_TAPE: Cell<Vec<Entry>> = const { Cell::new(Vec::new()) };
}

/// Tapes above this many entries (1 MiB) are freed rather than kept for reuse.
const MAX_SPARE_ENTRIES: usize = 1 << 16;

fn take_tape(hint: usize) -> Vec<Entry> {
    let tape = SPARE_TAPE.try_with(Cell::take).unwrap_or_default();
    if tape.capacity() == 0 {
        Vec::with_capacity(hint)
    } else {
        tape
    }
}

fn give_back_tape(mut tape: Vec<Entry>) {
    if tape.capacity() <= MAX_SPARE_ENTRIES {
        tape.clear();
        let _ = SPARE_TAPE.try_with(|spare| {
            let current = spare.take();
            spare.set(if current.capacity() >= tape.capacity() {
                current
            } else {
                tape
            });
        });
    }
}

impl Drop for Document<'_> {
    fn drop(&mut self) {
        give_back_tape(std::mem::take(&mut self.tape));
    }
}

/// Parses one root tag in codec `C`; returns the tape and the bytes used. Inlined, so that the tape comes
/// back to the public parsers in registers rather than through a returned `Result` in memory.
#[inline(always)]
fn parse_with<C: Codec>(data: &[u8], named: bool) -> Result<(Vec<Entry>, usize)> {
    if data.len() >= u32::MAX as usize {
        return Err(Error::at(ErrorKind::InputTooLarge(data.len()), 0));
    }
    let mut p = Parser::<C> {
        c: Cursor::new(data),
        tape: take_tape((data.len() / 10).clamp(8, 1024)),
        _codec: PhantomData,
    };
    let ty = p.c.u8()?;
    if ty == 0 || ty > 12 {
        return Err(invalid_type(ty, 0));
    }
    let name = if named { p.name()? } else { (0, 0) };
    p.value(ty, name, 0)?;
    Ok((p.tape, p.c.pos))
}

impl<'a> Document<'a> {
    /// Parses `data` (uncompressed) as `variant`; the whole input must be one root tag.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let doc = Document::parse(&[3, 0, 0, 0, 0, 0, 42], Variant::Java).unwrap();
    /// assert_eq!(doc.root().int(), Some(42));
    /// ```
    pub fn parse(data: &'a [u8], variant: Variant) -> Result<Self> {
        let (doc, used) = Document::parse_start(data, variant)?;
        if used != data.len() {
            return Err(Error::at(ErrorKind::TrailingBytes(data.len() - used), used));
        }
        Ok(doc)
    }

    /// Parses one root tag from the start of `data`; returns it with the number of bytes it took.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let (doc, used) = Document::parse_prefix(&[1, 7, 99], Variant::JavaNetwork).unwrap();
    /// assert_eq!((doc.root().byte(), used), (Some(7), 2));
    /// ```
    pub fn parse_prefix(data: &'a [u8], variant: Variant) -> Result<(Self, usize)> {
        Document::parse_start(data, variant)
    }

    /// [`Document::parse_prefix`], inlined into both public parsers so that [`Document::parse`] does not
    /// pass the document through one more return.
    #[inline(always)]
    fn parse_start(data: &'a [u8], variant: Variant) -> Result<(Self, usize)> {
        let ((tape, used), enc) = match variant {
            Variant::Java => (parse_with::<BigEndian>(data, true)?, Enc::Be),
            Variant::JavaNetwork => (parse_with::<BigEndian>(data, false)?, Enc::Be),
            Variant::Bedrock => (parse_with::<LittleEndian>(data, true)?, Enc::Le),
            Variant::BedrockNetwork => (parse_with::<VarInt>(data, true)?, Enc::Var),
        };
        Ok((
            Document {
                data,
                tape,
                enc,
                variant,
            },
            used,
        ))
    }

    /// The variant the document was parsed as.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let doc = Document::parse(&[1, 0, 0, 5], Variant::Bedrock).unwrap();
    /// assert_eq!(doc.variant(), Variant::Bedrock);
    /// ```
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The root tag.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, TagType, Variant};
    /// let doc = Document::parse(&[10, 0, 0, 0], Variant::Java).unwrap();
    /// assert_eq!(doc.root().tag_type(), TagType::Compound);
    /// ```
    pub fn root(&self) -> TagRef<'_, 'a> {
        TagRef {
            doc: self,
            e: self.tape[0],
            idx: 0,
        }
    }

    /// The root tag's name (empty in the Java network variant).
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let doc = Document::parse(&[10, 0, 1, b'r', 0], Variant::Java).unwrap();
    /// assert_eq!(doc.root_name().to_str().unwrap(), "r");
    /// ```
    pub fn root_name(&self) -> Str<'a> {
        self.name_of(&self.tape[0])
    }

    /// Converts to the owned tree (decoding every string).
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Nbt, Tag, Variant};
    /// let doc = Document::parse(&[8, 0, 0, 0, 1, b'x'], Variant::Java).unwrap();
    /// assert_eq!(doc.to_nbt().unwrap().tag, Tag::from("x"));
    /// ```
    pub fn to_nbt(&self) -> Result<Nbt> {
        let name = if self.variant.named_root() {
            self.decode(self.root_name())?.into_owned()
        } else {
            String::new()
        };
        Ok(Nbt {
            name,
            tag: self.root().to_tag()?,
        })
    }

    /// Writes the document in `variant` (uncompressed) to `out`. Values are re-encoded only where the
    /// variants differ; in the same variant, array and string bytes are copied as they are.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let data = [10, 0, 0, 3, 0, 1, b'i', 0, 0, 1, 0, 0];
    /// let doc = Document::parse(&data, Variant::Java).unwrap();
    /// let mut out = Vec::new();
    /// doc.write_to(Variant::Bedrock, &mut out).unwrap();
    /// assert_eq!(out, [10, 0, 0, 3, 1, 0, b'i', 0, 1, 0, 0, 0]);
    /// ```
    pub fn write_to(&self, variant: Variant, out: &mut Vec<u8>) -> Result<()> {
        match variant {
            Variant::Java => self.write_root::<BigEndian>(true, out),
            Variant::JavaNetwork => self.write_root::<BigEndian>(false, out),
            Variant::Bedrock => self.write_root::<LittleEndian>(true, out),
            Variant::BedrockNetwork => self.write_root::<VarInt>(true, out),
        }
    }

    /// The document encoded in `variant`.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let data = [10, 0, 0, 0];
    /// assert_eq!(Document::parse(&data, Variant::Java).unwrap().to_vec(Variant::Java).unwrap(), data);
    /// ```
    pub fn to_vec(&self, variant: Variant) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(self.data.len() + 16);
        self.write_to(variant, &mut out)?;
        Ok(out)
    }

    #[inline(always)]
    fn name_of(&self, e: &Entry) -> Str<'a> {
        let start = e.name as usize;
        Str {
            bytes: &self.data[start..start + e.name_len as usize],
            java: self.enc == Enc::Be,
        }
    }

    #[inline(always)]
    fn end(&self, idx: usize) -> usize {
        let e = &self.tape[idx];
        if e.has_children() {
            e.b as usize
        } else {
            idx + 1
        }
    }

    #[inline(always)]
    fn bytes_at<const N: usize>(&self, off: u32) -> [u8; N] {
        let off = off as usize;
        self.data[off..off + N].try_into().expect("N bytes")
    }

    #[inline]
    fn write_root<C: Codec>(&self, named: bool, out: &mut Vec<u8>) -> Result<()> {
        let root = &self.tape[0];
        if C::ENC == self.enc && C::ENC != Enc::Var && named == self.variant.named_root() {
            // Same header layout: type byte, then (when named) name length and name, as in the input.
            let header = if named { 3 + root.name_len as usize } else { 1 };
            out.extend_from_slice(&self.data[..header]);
        } else {
            out.push(root.kind);
            if named {
                self.write_name::<C>(self.name_of(root), out)?;
            }
        }
        self.write_value::<C>(0, out)
    }

    #[inline]
    fn write_name<C: Codec>(&self, s: Str<'a>, out: &mut Vec<u8>) -> Result<()> {
        if s.bytes.len() > crate::codec::MAX_NAME {
            return C::put_name(out, &self.decode(s)?);
        }
        self.write_str::<C>(s, out)
    }

    #[inline]
    fn write_str<C: Codec>(&self, s: Str<'a>, out: &mut Vec<u8>) -> Result<()> {
        if C::ENC == self.enc && s.bytes.len() <= C::MAX_STRING {
            if C::ENC == Enc::Var {
                crate::codec::write_var_u32(out, s.bytes.len() as u32);
            } else {
                let len = s.bytes.len() as u16;
                out.extend_from_slice(&if C::ENC == Enc::Be {
                    len.to_be_bytes()
                } else {
                    len.to_le_bytes()
                });
            }
            out.extend_from_slice(s.bytes);
            Ok(())
        } else {
            C::put_str(out, &self.decode(s)?)
        }
    }

    /// The end of the stored payload of `e` when it is one contiguous run of input bytes that is valid
    /// as is in the document's own variant: numbers, strings, arrays and number lists (not compounds or
    /// lists of other lists, whose headers and children are written one by one).
    #[inline(always)]
    fn payload_end(&self, e: &Entry) -> Option<usize> {
        let (a, b) = (e.a as usize, e.b as usize);
        Some(match e.kind {
            1..=6 => a + [0, 1, 2, 4, 8, 4, 8][e.kind as usize],
            7 | 8 => a + b,
            11 => a + 4 * b,
            12 => a + 8 * b,
            9 if (1..=6).contains(&e.elem) => a + b * [0, 1, 2, 4, 8, 4, 8][e.elem as usize],
            _ => return None,
        })
    }

    /// Writes the payload of entry `idx`: compounds and lists of containers here, by recursion, the rest
    /// by [`Document::write_leaf`].
    fn write_value<C: Codec>(&self, idx: usize, out: &mut Vec<u8>) -> Result<()> {
        let e = self.tape[idx];
        if !e.has_children() {
            return self.write_leaf::<C>(idx, out);
        }
        match e.kind {
            10 => {
                let mut i = idx + 1;
                // Same fixed-width variant: an entry's type, name and payload are one run of input bytes.
                let raw = C::ENC == self.enc && C::ENC != Enc::Var;
                // Consecutive such entries are adjacent in the input too: each run is copied at once.
                let (mut run_start, mut run_end) = (0, 0);
                while i < e.b as usize {
                    let child = &self.tape[i];
                    if raw {
                        let name = child.name as usize;
                        if let Some(end) = self.payload_end(child) {
                            if name - 3 != run_end {
                                out.extend_from_slice(&self.data[run_start..run_end]);
                                run_start = name - 3;
                            }
                            run_end = end;
                            i += 1;
                            continue;
                        }
                        out.extend_from_slice(&self.data[run_start..run_end]);
                        (run_start, run_end) = (0, 0);
                        out.extend_from_slice(&self.data[name - 3..name + child.name_len as usize]);
                        self.write_value::<C>(i, out)
                            .map_err(|err| err.in_field_bytes(self.name_of(child).bytes))?;
                        i = self.end(i);
                        continue;
                    }
                    out.push(child.kind);
                    let name = self.name_of(child);
                    self.write_name::<C>(name, out)
                        .and_then(|()| self.write_value::<C>(i, out))
                        .map_err(|err| err.in_field_bytes(name.bytes))?;
                    i = self.end(i);
                }
                if run_end != 0 {
                    // The last entry ended the run: the compound's End byte follows it in the input.
                    debug_assert_eq!(self.data[run_end], 0);
                    out.extend_from_slice(&self.data[run_start..=run_end]);
                } else {
                    out.push(0);
                }
            }
            _ => {
                out.push(e.elem);
                C::put_len(out, e.a as usize)?;
                let mut i = idx + 1;
                let mut n = 0;
                let raw = C::ENC == self.enc && C::ENC != Enc::Var;
                while i < e.b as usize {
                    let child = &self.tape[i];
                    if raw && child.kind != 10 {
                        if let Some(end) = self.payload_end(child) {
                            // The stored length prefix (and element type of number lists).
                            let header = match child.kind {
                                8 => 2,
                                9 => 5,
                                _ => 4,
                            };
                            out.extend_from_slice(&self.data[child.a as usize - header..end]);
                            i += 1;
                            n += 1;
                            continue;
                        }
                    }
                    self.write_value::<C>(i, out)
                        .map_err(|err| err.in_index(n))?;
                    i = self.end(i);
                    n += 1;
                }
            }
        }
        Ok(())
    }

    /// Writes the payload of entry `idx`, which has no children (numbers, strings, arrays, number
    /// lists). Not inlined in debug builds, so that its temporaries are not part of every level of
    /// [`Document::write_value`]'s recursion.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline(never))]
    fn write_leaf<C: Codec>(&self, idx: usize, out: &mut Vec<u8>) -> Result<()> {
        let e = self.tape[idx];
        // Built only where needed: compounds and lists, the bulk of the calls, do not use it.
        let tag = || TagRef {
            doc: self,
            e,
            idx: idx as u32,
        };
        match e.kind {
            1 => out.push(self.data[e.a as usize]),
            2 => C::put_i16(out, tag().short().expect("short")),
            3 => C::put_i32(out, tag().int().expect("int")),
            4 => C::put_i64(out, tag().long().expect("long")),
            5 => C::put_f32(out, tag().float().expect("float")),
            6 => C::put_f64(out, tag().double().expect("double")),
            7 => {
                C::put_len(out, e.b as usize)?;
                out.extend_from_slice(tag().byte_array().expect("byte array"));
            }
            8 => self.write_str::<C>(tag().string().expect("string"), out)?,
            11 => {
                C::put_len(out, e.b as usize)?;
                self.write_numbers::<C, i32>(tag().int_array().expect("int array"), out);
            }
            12 => {
                C::put_len(out, e.b as usize)?;
                self.write_numbers::<C, i64>(tag().long_array().expect("long array"), out);
            }
            _ => {
                let list = ListRef {
                    doc: self,
                    e,
                    idx: idx as u32,
                };
                out.push(e.elem);
                C::put_len(out, list.len())?;
                match e.elem {
                    1 => out.extend_from_slice(list.raw(1)),
                    2 => self.write_numbers::<C, i16>(list.numbers().expect("shorts"), out),
                    3 => self.write_numbers::<C, i32>(list.numbers().expect("ints"), out),
                    4 => self.write_numbers::<C, i64>(list.numbers().expect("longs"), out),
                    5 => self.write_numbers::<C, f32>(list.numbers().expect("floats"), out),
                    _ => self.write_numbers::<C, f64>(list.numbers().expect("doubles"), out),
                }
            }
        }
        Ok(())
    }

    fn write_numbers<C: Codec, T: Number>(&self, v: Numbers<'a, T>, out: &mut Vec<u8>) {
        if C::ENC == self.enc && (C::ENC != Enc::Var || !T::VARINT) {
            out.extend_from_slice(v.raw_bytes());
        } else {
            T::put(out, &v.to_vec(), C::ENC);
        }
    }
}

/// A string as stored in the input, decoded only when asked.
///
/// ```
/// use flatforge_nbt::{borrowed::Document, Variant};
/// let doc = Document::parse(&[8, 0, 0, 0, 3, b'a', 0xC0, 0x80], Variant::Java).unwrap();
/// let s = doc.root().string().unwrap();
/// assert_eq!(s.as_bytes(), [b'a', 0xC0, 0x80]);
/// assert_eq!(s.to_str().unwrap(), "a\0");
/// ```
#[derive(Clone, Copy)]
pub struct Str<'a> {
    bytes: &'a [u8],
    java: bool,
}

impl<'a> Str<'a> {
    /// The encoded bytes (modified UTF-8 in Java variants, UTF-8 in Bedrock ones).
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// // Bedrock stores plain UTF-8.
    /// let doc = Document::parse(&[8, 0, 0, 2, 0, 0xC3, 0xA9], Variant::Bedrock)?;
    /// assert_eq!(doc.root().string().unwrap().as_bytes(), "é".as_bytes());
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Decodes the string, borrowing when the bytes are already UTF-8.
    ///
    /// # Errors
    /// When the bytes are not valid (modified) UTF-8.
    ///
    /// ```
    /// use std::borrow::Cow;
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let doc = Document::parse(&[8, 0, 0, 0, 2, b'h', b'i'], Variant::Java)?;
    /// assert!(matches!(doc.root().string().unwrap().to_str()?, Cow::Borrowed("hi")));
    /// let bad = Document::parse(&[8, 0, 0, 1, 0, 0xFF], Variant::Bedrock)?;
    /// assert!(bad.root().string().unwrap().to_str().is_err());
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn to_str(&self) -> Result<Cow<'a, str>> {
        let r = if self.java {
            mutf8::decode(self.bytes)
        } else {
            simdutf8::basic::from_utf8(self.bytes)
                .map(Cow::Borrowed)
                .map_err(|_| "invalid UTF-8")
        };
        r.map_err(|e| Error::new(ErrorKind::InvalidString(e)))
    }

    /// Decodes the string, replacing invalid sequences with U+FFFD.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let doc = Document::parse(&[8, 0, 0, 2, 0, b'a', 0xFF], Variant::Bedrock)?;
    /// assert_eq!(doc.root().string().unwrap().to_string_lossy(), "a\u{FFFD}");
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn to_string_lossy(&self) -> Cow<'a, str> {
        self.to_str()
            .unwrap_or_else(|_| String::from_utf8_lossy(self.bytes))
    }

    /// Whether the string equals `s`, compared on the encoded bytes without decoding.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let doc = Document::parse(&[8, 0, 0, 0, 3, b'a', 0xC0, 0x80], Variant::Java)?;
    /// let s = doc.root().string().unwrap();
    /// assert!(s.eq_str("a\0")); // "a\0" is encoded as modified UTF-8 to compare
    /// assert!(!s.eq_str("a"));
    /// assert!(s == "a\0"); // `==` with a `&str` does the same
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn eq_str(&self, s: &str) -> bool {
        if !self.java || mutf8::is_plain(s) {
            self.bytes == s.as_bytes()
        } else {
            let mut enc = Vec::with_capacity(s.len() + 4);
            mutf8::encode(s, &mut enc);
            self.bytes == enc
        }
    }
}

impl PartialEq<&str> for Str<'_> {
    fn eq(&self, other: &&str) -> bool {
        self.eq_str(other)
    }
}

/// A tag in a [`Document`].
///
/// ```
/// use flatforge_nbt::{borrowed::Document, Compound, Nbt, Variant};
/// let mut player = Compound::new();
/// player.insert("hp", 20i16);
/// player.insert("name", "Steve");
/// let bytes = Nbt::new("", player).to_vec(Variant::Java)?;
/// let doc = Document::parse(&bytes, Variant::Java)?;
/// let player = doc.root().compound().unwrap();
/// let hp = player.get("hp").unwrap();
/// assert_eq!((hp.short(), hp.as_i64()), (Some(20), Some(20)));
/// assert!(hp.string().is_none());
/// assert_eq!(player.get("name").unwrap().string().unwrap(), "Steve");
/// # Ok::<(), flatforge_nbt::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct TagRef<'d, 'a> {
    doc: &'d Document<'a>,
    e: Entry,
    idx: u32,
}

macro_rules! scalar_getter {
    ($(#[$m:meta])* $name:ident, $t:ty, $kind:literal, $n:literal) => {
        $(#[$m])*
        #[inline]
        pub fn $name(&self) -> Option<$t> {
            if self.e.kind != $kind {
                return None;
            }
            Some(match self.doc.enc {
                Enc::Be => <$t>::from_be_bytes(self.doc.bytes_at::<$n>(self.e.a)),
                Enc::Le => <$t>::from_le_bytes(self.doc.bytes_at::<$n>(self.e.a)),
                Enc::Var => <$t as Number>::read_var(&self.doc.data[self.e.a as usize..]).0,
            })
        }
    };
}

impl<'d, 'a> TagRef<'d, 'a> {
    /// The type of this tag.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, TagType, Variant};
    /// // An empty list of strings.
    /// let doc = Document::parse(&[9, 0, 0, 8, 0, 0, 0, 0], Variant::Java)?;
    /// assert_eq!(doc.root().tag_type(), TagType::List);
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn tag_type(&self) -> TagType {
        TagType::from_u8(self.e.kind).expect("parser checked the type")
    }

    /// The value of a Byte tag.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// assert_eq!(Document::parse(&[1, 0, 0, 0xff], Variant::Java).unwrap().root().byte(), Some(-1));
    /// ```
    pub fn byte(&self) -> Option<i8> {
        (self.e.kind == 1).then(|| self.doc.data[self.e.a as usize] as i8)
    }

    scalar_getter!(
        /// The value of a Short tag.
        ///
        /// ```
        /// use flatforge_nbt::{borrowed::Document, Variant};
        /// let java = Document::parse(&[2, 0, 0, 1, 2], Variant::Java)?;
        /// assert_eq!((java.root().short(), java.root().int()), (Some(258), None));
        /// let bedrock = Document::parse(&[2, 0, 0, 2, 1], Variant::Bedrock)?;
        /// assert_eq!(bedrock.root().short(), Some(258));
        /// # Ok::<(), flatforge_nbt::Error>(())
        /// ```
        short, i16, 2, 2);
    scalar_getter!(
        /// The value of an Int tag.
        ///
        /// ```
        /// use flatforge_nbt::{borrowed::Document, Variant};
        /// let java = Document::parse(&[3, 0, 0, 0xFF, 0xFF, 0xFF, 0xFE], Variant::Java)?;
        /// assert_eq!(java.root().int(), Some(-2));
        /// // Bedrock network NBT stores ints as zigzag varints: 1 is -1.
        /// let network = Document::parse(&[3, 0, 1], Variant::BedrockNetwork)?;
        /// assert_eq!(network.root().int(), Some(-1));
        /// # Ok::<(), flatforge_nbt::Error>(())
        /// ```
        int, i32, 3, 4);
    scalar_getter!(
        /// The value of a Long tag.
        ///
        /// ```
        /// use flatforge_nbt::{borrowed::Document, Variant};
        /// let doc = Document::parse(&[4, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0], Variant::Java)?;
        /// assert_eq!(doc.root().long(), Some(256));
        /// # Ok::<(), flatforge_nbt::Error>(())
        /// ```
        long, i64, 4, 8);
    scalar_getter!(
        /// The value of a Float tag.
        ///
        /// ```
        /// use flatforge_nbt::{borrowed::Document, Variant};
        /// let doc = Document::parse(&[5, 0, 0, 0x3F, 0xC0, 0, 0], Variant::Java)?;
        /// assert_eq!(doc.root().float(), Some(1.5));
        /// assert_eq!(doc.root().double(), None);
        /// # Ok::<(), flatforge_nbt::Error>(())
        /// ```
        float, f32, 5, 4);
    scalar_getter!(
        /// The value of a Double tag.
        ///
        /// ```
        /// use flatforge_nbt::{borrowed::Document, Variant};
        /// let doc = Document::parse(&[6, 0, 0, 0xC0, 0, 0, 0, 0, 0, 0, 0], Variant::Java)?;
        /// assert_eq!(doc.root().double(), Some(-2.0));
        /// # Ok::<(), flatforge_nbt::Error>(())
        /// ```
        double, f64, 6, 8);

    /// Any integer tag widened to `i64`.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// assert_eq!(Document::parse(&[2, 0, 0, 1, 0], Variant::Java).unwrap().root().as_i64(), Some(256));
    /// ```
    pub fn as_i64(&self) -> Option<i64> {
        match self.e.kind {
            1 => self.byte().map(i64::from),
            2 => self.short().map(i64::from),
            3 => self.int().map(i64::from),
            4 => self.long(),
            _ => None,
        }
    }

    /// The bytes of a String tag (not yet decoded).
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let doc = Document::parse(&[8, 0, 0, 0, 2, b'h', b'i'], Variant::Java)?;
    /// let s = doc.root().string().unwrap();
    /// assert_eq!(s.to_str()?, "hi");
    /// assert!(doc.root().byte().is_none());
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn string(&self) -> Option<Str<'a>> {
        (self.e.kind == 8).then(|| Str {
            bytes: &self.doc.data[self.e.a as usize..(self.e.a + self.e.b) as usize],
            java: self.doc.enc == Enc::Be,
        })
    }

    /// The bytes of a Byte Array tag (NBT bytes are signed: cast with `as i8`).
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let doc = Document::parse(&[7, 0, 0, 0, 0, 0, 2, 1, 0xFF], Variant::Java)?;
    /// let bytes = doc.root().byte_array().unwrap();
    /// assert_eq!(bytes, [1, 0xFF]);
    /// assert_eq!(bytes.iter().map(|&b| b as i8).collect::<Vec<_>>(), [1, -1]);
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn byte_array(&self) -> Option<&'a [u8]> {
        (self.e.kind == 7)
            .then(|| &self.doc.data[self.e.a as usize..(self.e.a + self.e.b) as usize])
    }

    /// The elements of an Int Array tag, converted only when read.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let doc = Document::parse(&[11, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2], Variant::Java).unwrap();
    /// let a = doc.root().int_array().unwrap();
    /// assert_eq!((a.len(), a.get(1), a.to_vec()), (2, Some(2), vec![1, 2]));
    /// ```
    pub fn int_array(&self) -> Option<Numbers<'a, i32>> {
        (self.e.kind == 11).then(|| self.doc.numbers(self.e.a, self.e.b))
    }

    /// The elements of a Long Array tag, converted only when read.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let data = [12, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 5];
    /// let doc = Document::parse(&data, Variant::Java)?;
    /// assert_eq!(doc.root().long_array().unwrap().to_vec(), [5]);
    /// assert!(doc.root().int_array().is_none());
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn long_array(&self) -> Option<Numbers<'a, i64>> {
        (self.e.kind == 12).then(|| self.doc.numbers(self.e.a, self.e.b))
    }

    /// The compound of a Compound tag.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Compound, Nbt, Variant};
    /// let mut pos = Compound::new();
    /// pos.insert("x", 12i32);
    /// let mut root = Compound::new();
    /// root.insert("pos", pos);
    /// let bytes = Nbt::new("", root).to_vec(Variant::Java)?;
    /// let doc = Document::parse(&bytes, Variant::Java)?;
    /// let pos = doc.root().compound().unwrap().get("pos").unwrap().compound().unwrap();
    /// assert_eq!(pos.get("x").unwrap().int(), Some(12));
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn compound(&self) -> Option<CompoundRef<'d, 'a>> {
        (self.e.kind == 10).then_some(CompoundRef {
            doc: self.doc,
            e: self.e,
            idx: self.idx,
        })
    }

    /// The list of a List tag.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, List, Nbt, Tag, Variant};
    /// let strings = List::String(vec!["a".into(), "b".into()]);
    /// let nbt = Nbt { name: String::new(), tag: Tag::List(strings) };
    /// let bytes = nbt.to_vec(Variant::Java)?;
    /// let doc = Document::parse(&bytes, Variant::Java)?;
    /// let list = doc.root().list().unwrap();
    /// assert_eq!(list.len(), 2);
    /// assert_eq!(list.get(1).unwrap().string().unwrap(), "b");
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn list(&self) -> Option<ListRef<'d, 'a>> {
        (self.e.kind == 9).then_some(ListRef {
            doc: self.doc,
            e: self.e,
            idx: self.idx,
        })
    }

    /// Converts this tag and everything below it to the owned tree.
    ///
    /// # Errors
    /// When a string is not valid (modified) UTF-8; the error names the path.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Compound, List, Nbt, Tag, Variant};
    /// let mut root = Compound::new();
    /// root.insert("xs", List::Int(vec![1, 2]));
    /// let bytes = Nbt::new("", root).to_vec(Variant::Java)?;
    /// let doc = Document::parse(&bytes, Variant::Java)?;
    /// let xs = doc.root().compound().unwrap().get("xs").unwrap();
    /// assert_eq!(xs.to_tag()?, Tag::List(List::Int(vec![1, 2])));
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn to_tag(&self) -> Result<Tag> {
        Ok(match self.e.kind {
            1 => Tag::Byte(self.byte().expect("byte")),
            2 => Tag::Short(self.short().expect("short")),
            3 => Tag::Int(self.int().expect("int")),
            4 => Tag::Long(self.long().expect("long")),
            5 => Tag::Float(self.float().expect("float")),
            6 => Tag::Double(self.double().expect("double")),
            7 => Tag::ByteArray(
                self.byte_array()
                    .expect("bytes")
                    .iter()
                    .map(|&b| b as i8)
                    .collect(),
            ),
            8 => Tag::String(
                self.doc
                    .decode(self.string().expect("string"))?
                    .into_owned(),
            ),
            9 => Tag::List(self.list().expect("list").to_list()?),
            10 => Tag::Compound(self.compound().expect("compound").to_compound()?),
            11 => Tag::IntArray(self.int_array().expect("ints").to_vec()),
            _ => Tag::LongArray(self.long_array().expect("longs").to_vec()),
        })
    }
}

impl<'a> Document<'a> {
    /// Decodes `s`, one of this document's strings; an error carries the byte offset of its text.
    fn decode(&self, s: Str<'a>) -> Result<Cow<'a, str>> {
        s.to_str()
            .map_err(|e| e.with_offset(s.bytes.as_ptr() as usize - self.data.as_ptr() as usize))
    }

    #[inline]
    fn numbers<T: Number>(&self, off: u32, len: u32) -> Numbers<'a, T> {
        let off = off as usize;
        let len = len as usize;
        let bytes = if self.enc == Enc::Var && T::VARINT {
            &self.data[off..]
        } else {
            &self.data[off..off + len * T::SIZE]
        };
        Numbers {
            bytes,
            len,
            enc: self.enc,
            _t: PhantomData,
        }
    }
}

/// A compound in a [`Document`].
///
/// ```
/// use flatforge_nbt::{borrowed::Document, Compound, Nbt, Variant};
/// let mut root = Compound::new();
/// root.insert("a", 1i8);
/// root.insert("b", "x");
/// let bytes = Nbt::new("", root).to_vec(Variant::Bedrock)?;
/// let doc = Document::parse(&bytes, Variant::Bedrock)?;
/// let c = doc.root().compound().unwrap();
/// assert_eq!(c.len(), 2);
/// assert_eq!(c.get("a").unwrap().byte(), Some(1));
/// assert_eq!(c.get("b").unwrap().string().unwrap(), "x");
/// # Ok::<(), flatforge_nbt::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct CompoundRef<'d, 'a> {
    doc: &'d Document<'a>,
    e: Entry,
    idx: u32,
}

impl<'d, 'a> CompoundRef<'d, 'a> {
    /// The number of entries.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let doc = Document::parse(&[10, 0, 0, 1, 0, 1, b'b', 5, 0], Variant::Java)?;
    /// assert_eq!(doc.root().compound().unwrap().len(), 1);
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.e.a as usize
    }

    /// Whether the compound is empty.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let empty = Document::parse(&[10, 0, 0, 0], Variant::Java)?;
    /// assert!(empty.root().compound().unwrap().is_empty());
    /// let doc = Document::parse(&[10, 0, 0, 1, 0, 1, b'b', 5, 0], Variant::Java)?;
    /// assert!(!doc.root().compound().unwrap().is_empty());
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.e.a == 0
    }

    /// The first entry named `name` (compared on encoded bytes, nothing is decoded).
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let doc = Document::parse(&[10, 0, 0, 1, 0, 1, b'b', 5, 0], Variant::Java).unwrap();
    /// let root = doc.root().compound().unwrap();
    /// assert_eq!(root.get("b").and_then(|t| t.byte()), Some(5));
    /// assert!(root.get("c").is_none());
    /// ```
    pub fn get(&self, name: &str) -> Option<TagRef<'d, 'a>> {
        let doc = self.doc;
        let plain = doc.enc != Enc::Be || mutf8::is_plain(name);
        let mut i = self.idx as usize + 1;
        let end = self.e.b as usize;
        while i < end {
            let e = &doc.tape[i];
            let matches = if plain {
                e.name_len as usize == name.len() && doc.name_of(e).bytes == name.as_bytes()
            } else {
                doc.name_of(e).eq_str(name)
            };
            if matches {
                return Some(TagRef {
                    doc,
                    e: *e,
                    idx: i as u32,
                });
            }
            i = doc.end(i);
        }
        None
    }

    /// The entries in order.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let doc = Document::parse(&[10, 0, 0, 1, 0, 1, b'b', 5, 0], Variant::Java).unwrap();
    /// let names: Vec<_> = doc.root().compound().unwrap().iter()
    ///     .map(|(k, _)| k.to_str().unwrap().into_owned()).collect();
    /// assert_eq!(names, ["b"]);
    /// ```
    pub fn iter(&self) -> CompoundIter<'d, 'a> {
        CompoundIter {
            doc: self.doc,
            i: self.idx as usize + 1,
            end: self.e.b as usize,
            left: self.e.a as usize,
        }
    }

    /// Converts to an owned compound.
    ///
    /// # Errors
    /// When a name or string is not valid (modified) UTF-8.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Compound, Nbt, Variant};
    /// let mut root = Compound::new();
    /// root.insert("name", "Steve");
    /// root.insert("hp", 20i16);
    /// let bytes = Nbt::new("", root.clone()).to_vec(Variant::Java)?;
    /// let doc = Document::parse(&bytes, Variant::Java)?;
    /// assert_eq!(doc.root().compound().unwrap().to_compound()?, root);
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn to_compound(&self) -> Result<Compound> {
        let mut c = Compound::with_capacity(self.len());
        for (name, value) in self.iter() {
            let key = self.doc.decode(name)?;
            let v = value.to_tag().map_err(|e| e.in_field(&key))?;
            c.push(&key, v);
        }
        Ok(c)
    }
}

/// Iterator over the entries of a [`CompoundRef`].
///
/// ```
/// use flatforge_nbt::{borrowed::Document, Compound, Nbt, Variant};
/// let mut root = Compound::new();
/// root.insert("a", 1i8);
/// root.insert("b", 2i16);
/// root.insert("c", "x");
/// let bytes = Nbt::new("", root).to_vec(Variant::Java)?;
/// let doc = Document::parse(&bytes, Variant::Java)?;
/// let entries = doc.root().compound().unwrap().iter();
/// assert_eq!(entries.len(), 3);
/// let sum: i64 = entries.filter_map(|(_, tag)| tag.as_i64()).sum();
/// assert_eq!(sum, 3);
/// # Ok::<(), flatforge_nbt::Error>(())
/// ```
#[derive(Clone)]
pub struct CompoundIter<'d, 'a> {
    doc: &'d Document<'a>,
    i: usize,
    end: usize,
    left: usize,
}

impl<'d, 'a> Iterator for CompoundIter<'d, 'a> {
    type Item = (Str<'a>, TagRef<'d, 'a>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.i >= self.end {
            return None;
        }
        let e = self.doc.tape[self.i];
        let item = (
            self.doc.name_of(&e),
            TagRef {
                doc: self.doc,
                e,
                idx: self.i as u32,
            },
        );
        self.i = self.doc.end(self.i);
        self.left -= 1;
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for CompoundIter<'_, '_> {}

/// A list in a [`Document`].
///
/// ```
/// use flatforge_nbt::{borrowed::Document, TagType, Variant};
/// let data = [9, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0, 9];
/// let doc = Document::parse(&data, Variant::Java)?;
/// let list = doc.root().list().unwrap();
/// assert_eq!((list.element_type(), list.len()), (TagType::Int, 2));
/// assert_eq!(list.get(1).unwrap().int(), Some(9));
/// # Ok::<(), flatforge_nbt::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct ListRef<'d, 'a> {
    doc: &'d Document<'a>,
    e: Entry,
    idx: u32,
}

impl<'d, 'a> ListRef<'d, 'a> {
    /// The element type.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, TagType, Variant};
    /// let doc = Document::parse(&[9, 0, 0, 8, 0, 0, 0, 0], Variant::Java)?;
    /// assert_eq!(doc.root().list().unwrap().element_type(), TagType::String); // even when empty
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn element_type(&self) -> TagType {
        TagType::from_u8(self.e.elem).expect("parser checked the type")
    }

    /// The number of elements.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let doc = Document::parse(&[9, 0, 0, 1, 0, 0, 0, 3, 7, 8, 9], Variant::Java)?;
    /// assert_eq!(doc.root().list().unwrap().len(), 3);
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        if self.e.has_children() {
            self.e.a as usize
        } else {
            self.e.b as usize
        }
    }

    /// Whether the list is empty.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let empty = Document::parse(&[9, 0, 0, 0, 0, 0, 0, 0], Variant::Java)?;
    /// assert!(empty.root().list().unwrap().is_empty());
    /// let doc = Document::parse(&[9, 0, 0, 1, 0, 0, 0, 1, 7], Variant::Java)?;
    /// assert!(!doc.root().list().unwrap().is_empty());
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn raw(&self, size: usize) -> &'a [u8] {
        let off = self.e.a as usize;
        &self.doc.data[off..off + self.e.b as usize * size]
    }

    /// The elements of a list of bytes, shorts, ints, longs, floats or doubles, as [`Numbers`] of the
    /// matching type (`None` when `T` is not the element type).
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let doc = Document::parse(&[9, 0, 0, 2, 0, 0, 0, 2, 0, 1, 0, 2], Variant::Java).unwrap();
    /// let list = doc.root().list().unwrap();
    /// assert_eq!(list.numbers::<i16>().unwrap().to_vec(), vec![1, 2]);
    /// assert!(list.numbers::<i32>().is_none());
    /// ```
    pub fn numbers<T: Number>(&self) -> Option<Numbers<'a, T>> {
        (self.e.elem == T::KIND).then(|| self.doc.numbers(self.e.a, self.e.b))
    }

    /// The bytes of a list of bytes.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let doc = Document::parse(&[9, 0, 0, 1, 0, 0, 0, 2, 1, 0xFF], Variant::Java)?;
    /// assert_eq!(doc.root().list().unwrap().bytes(), Some(&[1, 0xFF][..]));
    /// let ints = Document::parse(&[9, 0, 0, 3, 0, 0, 0, 0], Variant::Java)?;
    /// assert_eq!(ints.root().list().unwrap().bytes(), None);
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn bytes(&self) -> Option<&'a [u8]> {
        (self.e.elem == 1).then(|| self.raw(1))
    }

    /// The element at `index`.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let doc = Document::parse(&[9, 0, 0, 8, 0, 0, 0, 1, 0, 1, b'x'], Variant::Java).unwrap();
    /// let list = doc.root().list().unwrap();
    /// assert_eq!(list.get(0).unwrap().string().unwrap(), "x");
    /// ```
    pub fn get(&self, index: usize) -> Option<TagRef<'d, 'a>> {
        self.iter().nth(index)
    }

    /// The elements in order.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, List, Nbt, Tag, Variant};
    /// let strings = List::String(vec!["a".into(), "b".into()]);
    /// let nbt = Nbt { name: String::new(), tag: Tag::List(strings) };
    /// let bytes = nbt.to_vec(Variant::Java)?;
    /// let doc = Document::parse(&bytes, Variant::Java)?;
    /// let mut joined = String::new();
    /// for element in doc.root().list().unwrap().iter() {
    ///     joined.push_str(&element.string().unwrap().to_str()?);
    /// }
    /// assert_eq!(joined, "ab");
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn iter(&self) -> ListIter<'d, 'a> {
        ListIter {
            list: *self,
            i: if self.e.has_children() {
                self.idx as usize + 1
            } else {
                0
            },
            n: 0,
            off: self.e.a as usize,
        }
    }

    /// The compounds of a list of compounds.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Compound, List, Nbt, Tag, Variant};
    /// let items: Vec<Compound> =
    ///     (1..=3i8).map(|n| [("count", n)].into_iter().collect()).collect();
    /// let nbt = Nbt { name: String::new(), tag: Tag::List(List::Compound(items)) };
    /// let bytes = nbt.to_vec(Variant::Java)?;
    /// let doc = Document::parse(&bytes, Variant::Java)?;
    /// let items = doc.root().list().unwrap().compounds().unwrap();
    /// assert_eq!(items.filter_map(|c| c.get("count")?.byte()).sum::<i8>(), 6);
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn compounds(&self) -> Option<impl ExactSizeIterator<Item = CompoundRef<'d, 'a>>> {
        (self.e.elem == 10).then(|| self.iter().map(|t| t.compound().expect("compound element")))
    }

    /// Converts to an owned list.
    ///
    /// # Errors
    /// When a string is not valid (modified) UTF-8.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, List, Variant};
    /// let doc = Document::parse(&[9, 0, 0, 2, 0, 0, 0, 2, 0, 1, 0xFF, 0xFF], Variant::Java)?;
    /// assert_eq!(doc.root().list().unwrap().to_list()?, List::Short(vec![1, -1]));
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn to_list(&self) -> Result<List> {
        fn each<T>(l: &ListRef<'_, '_>, f: impl Fn(TagRef<'_, '_>) -> Result<T>) -> Result<Vec<T>> {
            l.iter()
                .enumerate()
                .map(|(i, t)| f(t).map_err(|e| e.in_index(i)))
                .collect()
        }
        Ok(match self.e.elem {
            0 => List::End,
            1 => List::Byte(self.raw(1).iter().map(|&b| b as i8).collect()),
            2 => List::Short(self.numbers().expect("shorts").to_vec()),
            3 => List::Int(self.numbers().expect("ints").to_vec()),
            4 => List::Long(self.numbers().expect("longs").to_vec()),
            5 => List::Float(self.numbers().expect("floats").to_vec()),
            6 => List::Double(self.numbers().expect("doubles").to_vec()),
            7 => List::ByteArray(each(self, |t| {
                Ok(t.byte_array()
                    .expect("bytes")
                    .iter()
                    .map(|&b| b as i8)
                    .collect())
            })?),
            8 => List::String(each(self, |t| match t.to_tag()? {
                Tag::String(s) => Ok(s),
                _ => unreachable!("list of strings"),
            })?),
            9 => List::List(each(self, |t| t.list().expect("list").to_list())?),
            10 => List::Compound(each(self, |t| {
                t.compound().expect("compound").to_compound()
            })?),
            11 => List::IntArray(each(self, |t| Ok(t.int_array().expect("ints").to_vec()))?),
            _ => List::LongArray(each(self, |t| Ok(t.long_array().expect("longs").to_vec()))?),
        })
    }
}

/// Iterator over the elements of a [`ListRef`].
///
/// ```
/// use flatforge_nbt::{borrowed::Document, Variant};
/// let data = [9, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3];
/// let doc = Document::parse(&data, Variant::Java)?;
/// let elements = doc.root().list().unwrap().iter();
/// assert_eq!(elements.len(), 3);
/// assert_eq!(elements.filter_map(|t| t.int()).max(), Some(3));
/// # Ok::<(), flatforge_nbt::Error>(())
/// ```
#[derive(Clone)]
pub struct ListIter<'d, 'a> {
    list: ListRef<'d, 'a>,
    i: usize,
    n: usize,
    off: usize,
}

impl<'d, 'a> Iterator for ListIter<'d, 'a> {
    type Item = TagRef<'d, 'a>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let list = &self.list;
        if self.n >= list.len() {
            return None;
        }
        self.n += 1;
        let doc = list.doc;
        if list.e.has_children() {
            let idx = self.i;
            self.i = doc.end(idx);
            return Some(TagRef {
                doc,
                e: doc.tape[idx],
                idx: idx as u32,
            });
        }
        let elem = list.e.elem;
        let off = self.off;
        self.off += match (doc.enc, elem) {
            (Enc::Var, 3) => i32::read_var(&doc.data[off..]).1,
            (Enc::Var, 4) => i64::read_var(&doc.data[off..]).1,
            _ => [0, 1, 2, 4, 8, 4, 8][elem as usize],
        };
        Some(TagRef {
            doc,
            e: Entry {
                kind: elem,
                elem: 0,
                name_len: 0,
                name: 0,
                a: off as u32,
                b: 0,
            },
            idx: 0,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.list.len() - self.n;
        (left, Some(left))
    }
}

impl ExactSizeIterator for ListIter<'_, '_> {}

mod sealed {
    pub trait Sealed {}
}

/// Element types of number lists and arrays: `i16`, `i32`, `i64`, `f32`, `f64`.
///
/// ```
/// use flatforge_nbt::borrowed::{Document, ListRef, Number};
/// use flatforge_nbt::{List, Nbt, Tag, Variant};
/// // The sum of a list of numbers of type `T`, `None` for a list of another type.
/// fn sum<T: Number + Into<f64>>(list: &ListRef<'_, '_>) -> Option<f64> {
///     Some(list.numbers::<T>()?.iter().map(Into::into).sum())
/// }
/// let nbt = Nbt { name: String::new(), tag: Tag::List(List::Float(vec![0.5, 1.5])) };
/// let bytes = nbt.to_vec(Variant::Java)?;
/// let doc = Document::parse(&bytes, Variant::Java)?;
/// let list = doc.root().list().unwrap();
/// assert_eq!(sum::<f32>(&list), Some(2.0));
/// assert_eq!(sum::<f64>(&list), None);
/// # Ok::<(), flatforge_nbt::Error>(())
/// ```
pub trait Number: Copy + sealed::Sealed + 'static {
    #[doc(hidden)]
    const KIND: u8;
    #[doc(hidden)]
    const SIZE: usize;
    #[doc(hidden)]
    const VARINT: bool;
    #[doc(hidden)]
    fn convert(bytes: &[u8], enc: Enc) -> Vec<Self>;
    #[doc(hidden)]
    fn at(bytes: &[u8], enc: Enc) -> Self;
    /// Reads one element of Bedrock network NBT; returns it with the bytes it took.
    #[doc(hidden)]
    fn read_var(bytes: &[u8]) -> (Self, usize);
    #[doc(hidden)]
    fn put(out: &mut Vec<u8>, v: &[Self], enc: Enc);
}

macro_rules! number {
    ($t:ty, $kind:literal, $size:literal, $varint:literal, $put:ident, $var:ident) => {
        impl sealed::Sealed for $t {}
        impl Number for $t {
            const KIND: u8 = $kind;
            const SIZE: usize = $size;
            const VARINT: bool = $varint;
            #[inline]
            fn convert(bytes: &[u8], enc: Enc) -> Vec<Self> {
                match enc {
                    Enc::Be => crate::codec::convert(bytes, <$t>::from_be_bytes),
                    _ => crate::codec::convert(bytes, <$t>::from_le_bytes),
                }
            }
            #[inline]
            fn at(bytes: &[u8], enc: Enc) -> Self {
                let b: [u8; $size] = bytes[..$size].try_into().expect("element bytes");
                match enc {
                    Enc::Be => <$t>::from_be_bytes(b),
                    _ => <$t>::from_le_bytes(b),
                }
            }
            #[inline]
            fn read_var(bytes: &[u8]) -> (Self, usize) {
                let mut c = Cursor::new(bytes);
                let v = VarInt::$var(&mut c).expect("validated by the parser");
                (v, c.pos)
            }
            fn put(out: &mut Vec<u8>, v: &[Self], enc: Enc) {
                match enc {
                    Enc::Be => BigEndian::$put(out, v),
                    Enc::Le => LittleEndian::$put(out, v),
                    Enc::Var => VarInt::$put(out, v),
                }
            }
        }
    };
}

number!(i16, 2, 2, false, put_i16s, i16);
number!(i32, 3, 4, true, put_i32s, i32);
number!(i64, 4, 8, true, put_i64s, i64);
number!(f32, 5, 4, false, put_f32s, f32);
number!(f64, 6, 8, false, put_f64s, f64);

/// Numbers stored in the input (an array or a list of numbers), converted only when read.
///
/// ```
/// use flatforge_nbt::{borrowed::Document, Variant};
/// let data = [11, 0, 0, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 2, 0xFF, 0xFF, 0xFF, 0xFF];
/// let doc = Document::parse(&data, Variant::Java)?;
/// let ints = doc.root().int_array().unwrap();
/// assert_eq!((ints.len(), ints.get(2)), (3, Some(-1)));
/// assert_eq!(ints.iter().sum::<i32>(), 2);
/// assert_eq!(ints.to_vec(), [1, 2, -1]);
/// # Ok::<(), flatforge_nbt::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct Numbers<'a, T> {
    bytes: &'a [u8],
    len: usize,
    enc: Enc,
    _t: PhantomData<T>,
}

impl<'a, T: Number> Numbers<'a, T> {
    /// The number of elements.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let doc = Document::parse(&[11, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2], Variant::Java)?;
    /// assert_eq!(doc.root().int_array().unwrap().len(), 2);
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no elements.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let doc = Document::parse(&[12, 0, 0, 0, 0, 0, 0], Variant::Java)?;
    /// assert!(doc.root().long_array().unwrap().is_empty());
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn varint(&self) -> bool {
        self.enc == Enc::Var && T::VARINT
    }

    /// The stored bytes, in the input's byte order (varints in Bedrock network NBT).
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let java = Document::parse(&[11, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0], Variant::Java)?;
    /// assert_eq!(java.root().int_array().unwrap().raw_bytes(), [0, 0, 1, 0]);
    /// // Bedrock network NBT: the count 2 and the elements 1 and -1 as zigzag varints.
    /// let network = Document::parse(&[11, 0, 4, 2, 1], Variant::BedrockNetwork)?;
    /// assert_eq!(network.root().int_array().unwrap().raw_bytes(), [2, 1]);
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn raw_bytes(&self) -> &'a [u8] {
        if self.varint() {
            let used: usize = (0..self.len)
                .scan(0, |off, _| {
                    let (_, n) = T::read_var(&self.bytes[*off..]);
                    *off += n;
                    Some(n)
                })
                .sum();
            &self.bytes[..used]
        } else {
            self.bytes
        }
    }

    /// The element at `index` (O(1), except for Bedrock network varints).
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let doc = Document::parse(&[11, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2], Variant::Java)?;
    /// let ints = doc.root().int_array().unwrap();
    /// assert_eq!((ints.get(1), ints.get(2)), (Some(2), None));
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn get(&self, index: usize) -> Option<T> {
        if index >= self.len {
            return None;
        }
        if self.varint() {
            return self.iter().nth(index);
        }
        Some(T::at(&self.bytes[index * T::SIZE..], self.enc))
    }

    /// The elements in order.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let doc = Document::parse(&[11, 0, 4, 2, 1], Variant::BedrockNetwork)?;
    /// let ints = doc.root().int_array().unwrap();
    /// assert_eq!(ints.iter().map(|v| v * 10).collect::<Vec<_>>(), [10, -10]);
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = T> + 'a {
        let this = *self;
        let mut off = 0;
        (0..self.len).map(move |i| {
            if this.varint() {
                let (v, used) = T::read_var(&this.bytes[off..]);
                off += used;
                v
            } else {
                T::at(&this.bytes[i * T::SIZE..], this.enc)
            }
        })
    }

    /// All elements, converted in one vectorised pass.
    ///
    /// ```
    /// use flatforge_nbt::{borrowed::Document, Variant};
    /// let data = [12, 0, 0, 1, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0];
    /// let doc = Document::parse(&data, Variant::Bedrock)?;
    /// assert_eq!(doc.root().long_array().unwrap().to_vec(), [7]);
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub fn to_vec(&self) -> Vec<T> {
        if self.varint() {
            self.iter().collect()
        } else {
            T::convert(self.bytes, self.enc)
        }
    }
}

/// How many numbers of an array or number list `Debug` shows before saying how many more there are.
const DEBUG_NUMBERS: usize = 32;

/// `…(n more)` in a `Debug` list.
struct More(usize);

impl fmt::Debug for More {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "…({} more)", self.0)
    }
}

/// The first [`DEBUG_NUMBERS`] of `items` (of `len`) as a `Debug` list, then how many more there are.
fn debug_bounded<T: fmt::Debug>(
    f: &mut fmt::Formatter<'_>,
    len: usize,
    items: impl Iterator<Item = T>,
) -> fmt::Result {
    let mut list = f.debug_list();
    list.entries(items.take(DEBUG_NUMBERS));
    if len > DEBUG_NUMBERS {
        list.entry(&More(len - DEBUG_NUMBERS));
    }
    list.finish()
}

/// The decoded string (invalid sequences replaced with U+FFFD), quoted.
///
/// ```
/// use flatforge_nbt::{borrowed::Document, Variant};
/// let doc = Document::parse(&[8, 0, 0, 0, 3, b'a', 0xC0, 0x80], Variant::Java)?;
/// assert_eq!(format!("{:?}", doc.root().string().unwrap()), r#""a\0""#);
/// # Ok::<(), flatforge_nbt::Error>(())
/// ```
impl fmt::Debug for Str<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_string_lossy(), f)
    }
}

/// The variant, the root's name and the root tag as [`TagRef`] shows it.
///
/// ```
/// use flatforge_nbt::{borrowed::Document, Variant};
/// let doc = Document::parse(&[10, 0, 1, b'r', 1, 0, 1, b'a', 7, 0], Variant::Java)?;
/// assert_eq!(
///     format!("{doc:?}"),
///     r#"Document { variant: Java, root_name: "r", root: Compound({"a": Byte(7)}) }"#
/// );
/// # Ok::<(), flatforge_nbt::Error>(())
/// ```
impl fmt::Debug for Document<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Document")
            .field("variant", &self.variant)
            .field("root_name", &self.root_name())
            .field("root", &self.root())
            .finish()
    }
}

/// The tag's type and value, as the owned [`Tag`]'s `Debug` shows them: numbers, strings decoded, arrays
/// (their first 32 numbers, then how many more), compounds as maps and lists as lists.
///
/// ```
/// use flatforge_nbt::{borrowed::Document, Compound, List, Nbt, Tag, Variant};
/// let mut root = Compound::new();
/// root.insert("name", "Steve");
/// root.insert("pos", List::Double(vec![0.5, 64.0]));
/// root.insert("data", Tag::IntArray((0..40).collect()));
/// let bytes = Nbt::new("", root).to_vec(Variant::Java)?;
/// let doc = Document::parse(&bytes, Variant::Java)?;
/// let root = doc.root();
/// let text = format!("{root:?}");
/// assert!(text.starts_with(r#"Compound({"name": String("Steve"), "pos": List([Double(0.5), Double(64.0)]), "data": IntArray([0, 1, "#));
/// assert!(text.ends_with("30, 31, …(8 more)])})"));
/// # Ok::<(), flatforge_nbt::Error>(())
/// ```
impl fmt::Debug for TagRef<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = format!("{:?}", self.tag_type());
        let mut t = f.debug_tuple(&name);
        match self.e.kind {
            1 => t.field(&self.byte().expect("byte")),
            2 => t.field(&self.short().expect("short")),
            3 => t.field(&self.int().expect("int")),
            4 => t.field(&self.long().expect("long")),
            5 => t.field(&self.float().expect("float")),
            6 => t.field(&self.double().expect("double")),
            7 => {
                let bytes = self.byte_array().expect("byte array");
                t.field(&DebugWith(|f: &mut fmt::Formatter<'_>| {
                    debug_bounded(f, bytes.len(), bytes.iter().map(|&b| b as i8))
                }))
            }
            8 => t.field(&self.string().expect("string")),
            9 => t.field(&self.list().expect("list")),
            10 => t.field(&self.compound().expect("compound")),
            11 => t.field(&self.int_array().expect("int array")),
            _ => t.field(&self.long_array().expect("long array")),
        };
        t.finish()
    }
}

/// The entries as a map from names to tags.
///
/// ```
/// use flatforge_nbt::{borrowed::Document, Variant};
/// let doc = Document::parse(&[10, 0, 0, 3, 0, 1, b'x', 0, 0, 0, 5, 0], Variant::Java)?;
/// assert_eq!(format!("{:?}", doc.root().compound().unwrap()), r#"{"x": Int(5)}"#);
/// # Ok::<(), flatforge_nbt::Error>(())
/// ```
impl fmt::Debug for CompoundRef<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// The entries not yet iterated, as [`CompoundRef`] shows them.
///
/// ```
/// use flatforge_nbt::{borrowed::Document, Variant};
/// let doc = Document::parse(&[10, 0, 0, 1, 0, 1, b'a', 1, 1, 0, 1, b'b', 2, 0], Variant::Java)?;
/// let mut entries = doc.root().compound().unwrap().iter();
/// entries.next();
/// assert_eq!(format!("{entries:?}"), r#"CompoundIter({"b": Byte(2)})"#);
/// # Ok::<(), flatforge_nbt::Error>(())
/// ```
impl fmt::Debug for CompoundIter<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rest = || self.clone();
        f.debug_tuple("CompoundIter")
            .field(&DebugWith(|f: &mut fmt::Formatter<'_>| {
                f.debug_map().entries(rest()).finish()
            }))
            .finish()
    }
}

/// The elements as a list: tags as [`TagRef`] shows them, or the first 32 numbers of a number list and how
/// many more there are.
///
/// ```
/// use flatforge_nbt::{borrowed::Document, Variant};
/// let doc = Document::parse(&[9, 0, 0, 2, 0, 0, 0, 2, 0, 1, 0, 2], Variant::Java)?;
/// assert_eq!(format!("{:?}", doc.root().list().unwrap()), "[Short(1), Short(2)]");
/// # Ok::<(), flatforge_nbt::Error>(())
/// ```
impl fmt::Debug for ListRef<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.e.has_children() {
            f.debug_list().entries(self.iter()).finish()
        } else {
            debug_bounded(f, self.len(), self.iter())
        }
    }
}

/// The elements not yet iterated, as [`ListRef`] shows them.
///
/// ```
/// use flatforge_nbt::{borrowed::Document, Variant};
/// let doc = Document::parse(&[9, 0, 0, 1, 0, 0, 0, 3, 4, 5, 6], Variant::Java)?;
/// let mut elements = doc.root().list().unwrap().iter();
/// elements.next();
/// assert_eq!(format!("{elements:?}"), "ListIter([Byte(5), Byte(6)])");
/// # Ok::<(), flatforge_nbt::Error>(())
/// ```
impl fmt::Debug for ListIter<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rest = || self.clone();
        f.debug_tuple("ListIter")
            .field(&DebugWith(|f: &mut fmt::Formatter<'_>| {
                if self.list.e.has_children() {
                    f.debug_list().entries(rest()).finish()
                } else {
                    debug_bounded(f, rest().len(), rest())
                }
            }))
            .finish()
    }
}

/// The numbers as a list: the first 32, then how many more there are.
///
/// ```
/// use flatforge_nbt::{borrowed::Document, Variant};
/// let doc = Document::parse(&[11, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2], Variant::Java)?;
/// assert_eq!(format!("{:?}", doc.root().int_array().unwrap()), "[1, 2]");
/// # Ok::<(), flatforge_nbt::Error>(())
/// ```
impl<T: Number + fmt::Debug> fmt::Debug for Numbers<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        debug_bounded(f, self.len(), self.iter())
    }
}

/// Shows what its function writes: a `Debug` value made on the spot.
struct DebugWith<F>(F);

impl<F: Fn(&mut fmt::Formatter<'_>) -> fmt::Result> fmt::Debug for DebugWith<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (self.0)(f)
    }
}
