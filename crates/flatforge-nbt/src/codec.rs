//! The byte-level encodings of the NBT variants: big-endian Java, little-endian Bedrock and varint Bedrock
//! network NBT, behind one trait that the readers and writers are generic over (monomorphised, so every
//! variant gets its own straight-line code).

use std::borrow::Cow;

use crate::error::{Error, ErrorKind, Result};
use crate::mutf8;
use crate::name::{Name, INLINE};
use crate::tag::Tag;

/// The NBT binary variants.
///
/// ```
/// use flatforge_nbt::Variant;
/// assert_eq!("bedrock-network".parse::<Variant>(), Ok(Variant::BedrockNetwork));
/// assert_eq!(Variant::JavaNetwork.to_string(), "java-network");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Java edition files: big-endian, modified UTF-8 strings, named root.
    Java,
    /// Java edition network NBT (1.20.2+): like `Java` but the root has no name and may be any tag.
    /// Minecraft sends a lone End byte (`0`) for "no tag"; that is an error here, so check for it first.
    JavaNetwork,
    /// Bedrock edition files: little-endian, UTF-8 strings, named root.
    Bedrock,
    /// Bedrock edition network NBT: zigzag varints for ints, longs and lengths, unsigned varint string
    /// lengths, little-endian shorts and floats.
    BedrockNetwork,
}

impl Variant {
    /// All variants, in the order auto-detection tries them.
    ///
    /// ```
    /// use flatforge_nbt::{Nbt, Tag, Variant};
    /// assert_eq!(
    ///     Variant::ALL.map(Variant::name),
    ///     ["java", "bedrock", "java-network", "bedrock-network"]
    /// );
    /// let nbt = Nbt { name: String::new(), tag: Tag::Long(-5) };
    /// for variant in Variant::ALL {
    ///     assert_eq!(Nbt::read(&nbt.to_vec(variant)?, variant)?, nbt);
    /// }
    /// # Ok::<(), flatforge_nbt::Error>(())
    /// ```
    pub const ALL: [Variant; 4] = [
        Variant::Java,
        Variant::Bedrock,
        Variant::JavaNetwork,
        Variant::BedrockNetwork,
    ];

    /// Whether the root tag carries a name in this variant.
    ///
    /// ```
    /// assert!(!flatforge_nbt::Variant::JavaNetwork.named_root());
    /// ```
    pub const fn named_root(self) -> bool {
        !matches!(self, Variant::JavaNetwork)
    }

    /// The command-line name (`java`, `java-network`, `bedrock`, `bedrock-network`).
    ///
    /// ```
    /// assert_eq!(flatforge_nbt::Variant::Bedrock.name(), "bedrock");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Java => "java",
            Variant::JavaNetwork => "java-network",
            Variant::Bedrock => "bedrock",
            Variant::BedrockNetwork => "bedrock-network",
        }
    }
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Variant {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| {
                format!("unknown NBT variant {s:?} (java, java-network, bedrock, bedrock-network)")
            })
    }
}

/// How numbers are stored: big-endian, little-endian or (Bedrock network) varints.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Enc {
    /// Big-endian (Java).
    Be,
    /// Little-endian (Bedrock files).
    Le,
    /// Zigzag varints for ints and longs, little-endian otherwise (Bedrock network).
    Var,
}

/// A position in the input.
#[derive(Clone)]
pub(crate) struct Cursor<'a> {
    pub(crate) data: &'a [u8],
    pub(crate) pos: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(data: &'a [u8]) -> Self {
        Cursor { data, pos: 0 }
    }

    #[inline(always)]
    pub(crate) fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    #[cold]
    #[inline(never)]
    pub(crate) fn eof(&self, needed: usize) -> Error {
        Error::at(
            ErrorKind::UnexpectedEof {
                needed: needed as u64,
                remaining: self.remaining() as u64,
            },
            self.pos,
        )
    }

    #[inline(always)]
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if n > self.remaining() {
            return Err(self.eof(n));
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    #[inline(always)]
    pub(crate) fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        match self.data.get(self.pos..self.pos + N) {
            Some(s) => {
                self.pos += N;
                Ok(s.try_into().expect("slice of length N"))
            }
            None => Err(self.eof(N)),
        }
    }

    #[inline(always)]
    pub(crate) fn u8(&mut self) -> Result<u8> {
        match self.data.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(self.eof(1)),
        }
    }

    /// Checks that `count` elements of at least `min_size` bytes each can fit in what is left, so that
    /// nothing is allocated for a length the input cannot back.
    #[inline(always)]
    pub(crate) fn check_count(&self, count: usize, min_size: usize) -> Result<()> {
        match count.checked_mul(min_size) {
            Some(n) if n <= self.remaining() => Ok(()),
            Some(n) => Err(self.eof(n)),
            None => Err(self.eof(usize::MAX)),
        }
    }

    #[inline]
    fn var_u32(&mut self) -> Result<u32> {
        let start = self.pos;
        let mut result = 0u32;
        for i in 0..5 {
            let b = self.u8()?;
            if i == 4 && b > 0x0F {
                return Err(Error::at(ErrorKind::VarIntTooLong, start));
            }
            result |= u32::from(b & 0x7F) << (7 * i);
            if b & 0x80 == 0 {
                return Ok(result);
            }
        }
        Err(Error::at(ErrorKind::VarIntTooLong, start))
    }

    #[inline]
    fn var_u64(&mut self) -> Result<u64> {
        let start = self.pos;
        let mut result = 0u64;
        for i in 0..10 {
            let b = self.u8()?;
            if i == 9 && b > 0x01 {
                return Err(Error::at(ErrorKind::VarIntTooLong, start));
            }
            result |= u64::from(b & 0x7F) << (7 * i);
            if b & 0x80 == 0 {
                return Ok(result);
            }
        }
        Err(Error::at(ErrorKind::VarIntTooLong, start))
    }
}

fn negative(len: i64, pos: usize) -> Error {
    Error::at(ErrorKind::NegativeLength(len), pos)
}

pub(crate) fn write_var_u32(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

pub(crate) fn write_var_u64(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

#[inline]
pub(crate) fn zigzag32(v: i32) -> u32 {
    ((v << 1) ^ (v >> 31)) as u32
}

#[inline]
pub(crate) fn unzigzag32(v: u32) -> i32 {
    ((v >> 1) as i32) ^ -((v & 1) as i32)
}

#[inline]
pub(crate) fn zigzag64(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

#[inline]
pub(crate) fn unzigzag64(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

/// Converts a packed slice of `N`-byte elements; the loop has no bounds checks and auto-vectorises.
#[inline]
pub(crate) fn convert<T, const N: usize>(bytes: &[u8], f: impl Fn([u8; N]) -> T) -> Vec<T> {
    bytes
        .chunks_exact(N)
        .map(|c| f(c.try_into().expect("chunk of length N")))
        .collect()
}

/// Appends `values` as packed `N`-byte elements: the iterator's exact length gives one reservation and a
/// vectorisable loop that writes each byte once (no zero fill first).
#[inline]
pub(crate) fn append<T: Copy, const N: usize>(
    out: &mut Vec<u8>,
    values: &[T],
    f: impl Fn(T) -> [u8; N],
) {
    out.extend(values.iter().flat_map(|&v| f(v)));
}

/// Room for a short run of output holding an entry with a number: its type byte and name length, an
/// inline name with its padding (22 bytes) and an 8-byte number; or a string's length and up to
/// [`mutf8::SHORT`] bytes.
const NUMBER_RUN: usize = 40;
/// Room for a short run holding an entry header: type byte, name length and inline name with its padding.
const HEADER_RUN: usize = 32;
/// Room for a short run holding an entry with a string: type byte, name length and inline name, then the
/// string's length and up to [`mutf8::SHORT`] bytes.
const STRING_RUN: usize = 64;

/// Starts a short run of `N` bytes at the end of `out`, to be written in place instead of with a string
/// of small appends that each check the capacity and copy with a call to `memcpy`: `out` grows by `N`
/// zeros (one capacity check and a few 16-byte stores). Returns where the run starts; the caller writes
/// it through [`run_bytes`], then cuts `out` back to the end of what it wrote (or to the start, to
/// write nothing) with `truncate`.
#[inline(always)]
fn open_run<const N: usize>(out: &mut Vec<u8>) -> usize {
    let start = out.len();
    out.extend_from_slice(&[0; N]);
    start
}

/// The `N` bytes of the run opened at `start` by [`open_run`].
#[inline(always)]
fn run_bytes<const N: usize>(out: &mut [u8], start: usize) -> &mut [u8; N] {
    (&mut out[start..start + N]).try_into().expect("N bytes")
}

/// One NBT binary encoding. Implemented by zero-sized types; readers and writers are generic over it.
pub(crate) trait Codec: Copy + 'static {
    /// The largest encoded string.
    const MAX_STRING: usize;
    /// The smallest encoded size of a list, byte array, int array or long array payload.
    const MIN_LIST: usize;
    /// The smallest encoded size of a string payload.
    const MIN_STRING: usize;
    /// The byte order / integer encoding, for code that switches at run time.
    const ENC: Enc;

    fn i16(c: &mut Cursor<'_>) -> Result<i16>;
    fn i32(c: &mut Cursor<'_>) -> Result<i32>;
    fn i64(c: &mut Cursor<'_>) -> Result<i64>;
    fn f32(c: &mut Cursor<'_>) -> Result<f32>;
    fn f64(c: &mut Cursor<'_>) -> Result<f64>;
    /// A string's byte length.
    fn str_len(c: &mut Cursor<'_>) -> Result<usize>;
    /// A list or array length (negative lengths are errors).
    fn len(c: &mut Cursor<'_>) -> Result<usize>;
    /// A tag name's byte length: names are limited to 65,535 bytes in every variant.
    #[inline(always)]
    fn name_len(c: &mut Cursor<'_>) -> Result<usize> {
        let pos = c.pos;
        let n = Self::str_len(c)?;
        if n > MAX_NAME {
            return Err(Error::at(
                ErrorKind::StringTooLong {
                    len: n,
                    max: MAX_NAME,
                },
                pos,
            ));
        }
        Ok(n)
    }
    /// Writes a compound entry's header: the type byte and the name.
    #[inline(always)]
    fn put_entry_header(out: &mut Vec<u8>, ty: u8, name: &Name) -> Result<()> {
        out.push(ty);
        Self::put_name(out, name.as_str())
    }
    /// Writes a whole compound entry (type byte, name, payload) when the value is a number or a string and
    /// returns `true`; returns `false`, having written nothing, for other values.
    #[inline(always)]
    fn put_simple_entry(out: &mut Vec<u8>, name: &Name, value: &Tag) -> Result<bool> {
        let header = |out: &mut Vec<u8>| Self::put_entry_header(out, value.tag_type() as u8, name);
        match *value {
            Tag::Byte(v) => header(out).map(|()| out.push(v as u8))?,
            Tag::Short(v) => header(out).map(|()| Self::put_i16(out, v))?,
            Tag::Int(v) => header(out).map(|()| Self::put_i32(out, v))?,
            Tag::Long(v) => header(out).map(|()| Self::put_i64(out, v))?,
            Tag::Float(v) => header(out).map(|()| Self::put_f32(out, v))?,
            Tag::Double(v) => header(out).map(|()| Self::put_f64(out, v))?,
            Tag::String(ref s) => header(out).and_then(|()| Self::put_str(out, s))?,
            _ => return Ok(false),
        }
        Ok(true)
    }
    /// Writes the root tag's type byte and name.
    #[inline]
    fn put_root_header(out: &mut Vec<u8>, ty: u8, name: &str) -> Result<()> {
        out.push(ty);
        Self::put_name(out, name)
    }
    /// Writes a tag name (at most 65,535 bytes in every variant).
    #[inline]
    fn put_name(out: &mut Vec<u8>, s: &str) -> Result<()> {
        if s.len() > MAX_NAME {
            return Err(string_too_long(s.len(), MAX_NAME));
        }
        Self::put_str(out, s)
    }
    fn i16s(c: &mut Cursor<'_>, n: usize) -> Result<Vec<i16>>;
    fn i32s(c: &mut Cursor<'_>, n: usize) -> Result<Vec<i32>>;
    fn i64s(c: &mut Cursor<'_>, n: usize) -> Result<Vec<i64>>;
    fn f32s(c: &mut Cursor<'_>, n: usize) -> Result<Vec<f32>>;
    fn f64s(c: &mut Cursor<'_>, n: usize) -> Result<Vec<f64>>;
    fn decode_str(bytes: &[u8]) -> std::result::Result<Cow<'_, str>, &'static str>;

    fn put_i16(out: &mut Vec<u8>, v: i16);
    fn put_i32(out: &mut Vec<u8>, v: i32);
    fn put_i64(out: &mut Vec<u8>, v: i64);
    fn put_f32(out: &mut Vec<u8>, v: f32);
    fn put_f64(out: &mut Vec<u8>, v: f64);
    fn put_len(out: &mut Vec<u8>, n: usize) -> Result<()>;
    fn put_str(out: &mut Vec<u8>, s: &str) -> Result<()>;
    fn put_i16s(out: &mut Vec<u8>, v: &[i16]);
    fn put_i32s(out: &mut Vec<u8>, v: &[i32]);
    fn put_i64s(out: &mut Vec<u8>, v: &[i64]);
    fn put_f32s(out: &mut Vec<u8>, v: &[f32]);
    fn put_f64s(out: &mut Vec<u8>, v: &[f64]);
}

/// The longest tag name, in bytes, in every variant (Bedrock network strings could be longer).
pub(crate) const MAX_NAME: usize = u16::MAX as usize;

fn too_long(n: usize) -> Error {
    Error::new(ErrorKind::TooLong(n))
}

fn string_too_long(len: usize, max: usize) -> Error {
    Error::new(ErrorKind::StringTooLong { len, max })
}

macro_rules! fixed_codec {
    ($name:ident, $from:ident, $to:ident, $doc:literal) => {
        #[doc = $doc]
        #[derive(Clone, Copy)]
        pub(crate) struct $name;

        impl $name {
            #[inline(always)]
            fn slice<'a>(c: &mut Cursor<'a>, n: usize, size: usize) -> Result<&'a [u8]> {
                match n.checked_mul(size) {
                    Some(bytes) => c.take(bytes),
                    None => Err(c.eof(usize::MAX)),
                }
            }
        }

        impl $name {
            /// Strings that need conversion to modified UTF-8, or are too long.
            #[cold]
            #[inline(never)]
            fn put_str_slow(out: &mut Vec<u8>, s: &str) -> Result<()> {
                fixed_codec!(@encode $name, $to, out, s)
            }

            /// Writes the 2-byte length and the bytes of `s` at `run[at..]` when `s` takes the short path
            /// ([`mutf8::copy_short`]: at most 32 bytes, as they are in this variant); returns the end.
            #[inline(always)]
            fn short_str(run: &mut [u8], at: usize, s: &str) -> Option<usize> {
                let b = s.as_bytes();
                let dst = (&mut run[at + 2..at + 2 + mutf8::SHORT]).try_into().expect("SHORT bytes");
                if !mutf8::copy_short(b, dst, fixed_codec!(@java $name)) {
                    return None;
                }
                run[at..at + 2].copy_from_slice(&(b.len() as u16).$to());
                Some(at + 2 + b.len())
            }

            /// Writes an entry's type byte, name length and name at the start of `run` when the name is
            /// kept inline and needs no conversion (the zero padding after it is written too, to be cut
            /// off or overwritten); returns the end.
            #[inline(always)]
            fn short_header<const R: usize>(run: &mut [u8; R], ty: u8, name: &Name) -> Option<usize> {
                const { assert!(R >= 3 + INLINE, "a run holds a whole header") };
                let (len, bytes) = name.padded(fixed_codec!(@java $name))?;
                run[0] = ty;
                run[1..3].copy_from_slice(&(len as u16).$to());
                run[3..3 + bytes.len()].copy_from_slice(bytes);
                Some(3 + len)
            }

            /// An entry's header when the name does not take the short path.
            #[cold]
            #[inline(never)]
            fn put_entry_header_slow(out: &mut Vec<u8>, ty: u8, name: &Name) -> Result<()> {
                out.push(ty);
                Self::put_name(out, name.as_str())
            }

            /// An entry holding a number: type byte, name and the number's `N` bytes, in one short run
            /// when the name allows.
            #[inline(always)]
            fn put_number_entry<const N: usize>(
                out: &mut Vec<u8>,
                ty: u8,
                name: &Name,
                payload: [u8; N],
            ) -> Result<()> {
                let start = open_run::<NUMBER_RUN>(out);
                let run = run_bytes::<NUMBER_RUN>(out, start);
                if let Some(end) = Self::short_header(run, ty, name) {
                    // `end` is at most 3 + 22, and `N` at most 8: within the run.
                    run[end..end + N].copy_from_slice(&payload);
                    out.truncate(start + end + N);
                    return Ok(());
                }
                out.truncate(start);
                Self::put_entry_header_slow(out, ty, name)?;
                out.extend_from_slice(&payload);
                Ok(())
            }

            /// An entry holding a string: header and string in one short run when both allow.
            #[inline(always)]
            fn put_string_entry(out: &mut Vec<u8>, name: &Name, s: &str) -> Result<()> {
                let start = open_run::<STRING_RUN>(out);
                let run = run_bytes::<STRING_RUN>(out, start);
                if let Some(end) = Self::short_header(run, 8, name) {
                    if let Some(end) = Self::short_str(run, end, s) {
                        out.truncate(start + end);
                        return Ok(());
                    }
                }
                out.truncate(start);
                Self::put_entry_header(out, 8, name)?;
                Self::put_str(out, s)
            }
        }

        impl Codec for $name {
            const MAX_STRING: usize = u16::MAX as usize;
            const MIN_LIST: usize = 4;
            const MIN_STRING: usize = 2;
            const ENC: Enc = fixed_codec!(@enc $name);

            #[inline(always)]
            fn i16(c: &mut Cursor<'_>) -> Result<i16> {
                Ok(i16::$from(c.array()?))
            }
            #[inline(always)]
            fn i32(c: &mut Cursor<'_>) -> Result<i32> {
                Ok(i32::$from(c.array()?))
            }
            #[inline(always)]
            fn i64(c: &mut Cursor<'_>) -> Result<i64> {
                Ok(i64::$from(c.array()?))
            }
            #[inline(always)]
            fn f32(c: &mut Cursor<'_>) -> Result<f32> {
                Ok(f32::$from(c.array()?))
            }
            #[inline(always)]
            fn f64(c: &mut Cursor<'_>) -> Result<f64> {
                Ok(f64::$from(c.array()?))
            }
            #[inline(always)]
            fn str_len(c: &mut Cursor<'_>) -> Result<usize> {
                Ok(u16::$from(c.array()?).into())
            }
            #[inline(always)]
            fn len(c: &mut Cursor<'_>) -> Result<usize> {
                let pos = c.pos;
                let n = i32::$from(c.array()?);
                usize::try_from(n).map_err(|_| negative(n.into(), pos))
            }
            fn i16s(c: &mut Cursor<'_>, n: usize) -> Result<Vec<i16>> {
                Ok(convert(Self::slice(c, n, 2)?, i16::$from))
            }
            fn i32s(c: &mut Cursor<'_>, n: usize) -> Result<Vec<i32>> {
                Ok(convert(Self::slice(c, n, 4)?, i32::$from))
            }
            fn i64s(c: &mut Cursor<'_>, n: usize) -> Result<Vec<i64>> {
                Ok(convert(Self::slice(c, n, 8)?, i64::$from))
            }
            fn f32s(c: &mut Cursor<'_>, n: usize) -> Result<Vec<f32>> {
                Ok(convert(Self::slice(c, n, 4)?, f32::$from))
            }
            fn f64s(c: &mut Cursor<'_>, n: usize) -> Result<Vec<f64>> {
                Ok(convert(Self::slice(c, n, 8)?, f64::$from))
            }
            fn decode_str(bytes: &[u8]) -> std::result::Result<Cow<'_, str>, &'static str> {
                fixed_codec!(@decode $name, bytes)
            }

            #[inline(always)]
            fn put_i16(out: &mut Vec<u8>, v: i16) {
                out.extend_from_slice(&v.$to());
            }
            #[inline(always)]
            fn put_i32(out: &mut Vec<u8>, v: i32) {
                out.extend_from_slice(&v.$to());
            }
            #[inline(always)]
            fn put_i64(out: &mut Vec<u8>, v: i64) {
                out.extend_from_slice(&v.$to());
            }
            #[inline(always)]
            fn put_f32(out: &mut Vec<u8>, v: f32) {
                out.extend_from_slice(&v.$to());
            }
            #[inline(always)]
            fn put_f64(out: &mut Vec<u8>, v: f64) {
                out.extend_from_slice(&v.$to());
            }
            #[inline(always)]
            fn put_len(out: &mut Vec<u8>, n: usize) -> Result<()> {
                let n = i32::try_from(n).map_err(|_| too_long(n))?;
                out.extend_from_slice(&n.$to());
                Ok(())
            }
            #[inline(always)]
            fn put_simple_entry(out: &mut Vec<u8>, name: &Name, value: &Tag) -> Result<bool> {
                match *value {
                    Tag::Byte(v) => Self::put_number_entry(out, 1, name, [v as u8])?,
                    Tag::Short(v) => Self::put_number_entry(out, 2, name, v.$to())?,
                    Tag::Int(v) => Self::put_number_entry(out, 3, name, v.$to())?,
                    Tag::Long(v) => Self::put_number_entry(out, 4, name, v.$to())?,
                    Tag::Float(v) => Self::put_number_entry(out, 5, name, v.$to())?,
                    Tag::Double(v) => Self::put_number_entry(out, 6, name, v.$to())?,
                    Tag::String(ref s) => Self::put_string_entry(out, name, s)?,
                    _ => return Ok(false),
                }
                Ok(true)
            }
            #[inline(always)]
            fn put_entry_header(out: &mut Vec<u8>, ty: u8, name: &Name) -> Result<()> {
                let start = open_run::<HEADER_RUN>(out);
                let run = run_bytes::<HEADER_RUN>(out, start);
                if let Some(end) = Self::short_header(run, ty, name) {
                    out.truncate(start + end);
                    return Ok(());
                }
                out.truncate(start);
                Self::put_entry_header_slow(out, ty, name)
            }
            #[inline]
            fn put_root_header(out: &mut Vec<u8>, ty: u8, name: &str) -> Result<()> {
                let start = open_run::<STRING_RUN>(out);
                let run = run_bytes::<STRING_RUN>(out, start);
                run[0] = ty;
                if let Some(end) = Self::short_str(run, 1, name) {
                    out.truncate(start + end);
                    return Ok(());
                }
                out.truncate(start + 1);
                Self::put_name(out, name)
            }
            #[inline(always)]
            fn put_str(out: &mut Vec<u8>, s: &str) -> Result<()> {
                let start = open_run::<NUMBER_RUN>(out);
                let run = run_bytes::<NUMBER_RUN>(out, start);
                if let Some(end) = Self::short_str(run, 0, s) {
                    out.truncate(start + end);
                    return Ok(());
                }
                out.truncate(start);
                let b = s.as_bytes();
                if b.len() <= Self::MAX_STRING && fixed_codec!(@plain $name, s) {
                    out.reserve(2 + b.len());
                    out.extend_from_slice(&(b.len() as u16).$to());
                    out.extend_from_slice(b);
                    return Ok(());
                }
                Self::put_str_slow(out, s)
            }
            fn put_i16s(out: &mut Vec<u8>, v: &[i16]) {
                append(out, v, i16::$to);
            }
            fn put_i32s(out: &mut Vec<u8>, v: &[i32]) {
                append(out, v, i32::$to);
            }
            fn put_i64s(out: &mut Vec<u8>, v: &[i64]) {
                append(out, v, i64::$to);
            }
            fn put_f32s(out: &mut Vec<u8>, v: &[f32]) {
                append(out, v, f32::$to);
            }
            fn put_f64s(out: &mut Vec<u8>, v: &[f64]) {
                append(out, v, f64::$to);
            }
        }
    };
    (@plain BigEndian, $s:ident) => { mutf8::is_plain($s) };
    (@plain LittleEndian, $s:ident) => { true };
    (@java BigEndian) => { true };
    (@java LittleEndian) => { false };
    (@enc BigEndian) => { Enc::Be };
    (@enc LittleEndian) => { Enc::Le };
    (@decode BigEndian, $bytes:ident) => { mutf8::decode($bytes) };
    (@decode LittleEndian, $bytes:ident) => {
        simdutf8::basic::from_utf8($bytes).map(Cow::Borrowed).map_err(|_| "invalid UTF-8")
    };
    (@encode BigEndian, $to:ident, $out:ident, $s:ident) => {{
        if mutf8::is_plain($s) {
            if $s.len() > Self::MAX_STRING {
                return Err(string_too_long($s.len(), Self::MAX_STRING));
            }
            $out.extend_from_slice(&($s.len() as u16).$to());
            $out.extend_from_slice($s.as_bytes());
        } else {
            let len = mutf8::encoded_len($s);
            if len > Self::MAX_STRING {
                return Err(string_too_long(len, Self::MAX_STRING));
            }
            $out.extend_from_slice(&(len as u16).$to());
            mutf8::encode($s, $out);
        }
        Ok(())
    }};
    (@encode LittleEndian, $to:ident, $out:ident, $s:ident) => {{
        if $s.len() > Self::MAX_STRING {
            return Err(string_too_long($s.len(), Self::MAX_STRING));
        }
        $out.extend_from_slice(&($s.len() as u16).$to());
        $out.extend_from_slice($s.as_bytes());
        Ok(())
    }};
}

fixed_codec!(
    BigEndian,
    from_be_bytes,
    to_be_bytes,
    "Java edition: big-endian, modified UTF-8."
);
fixed_codec!(
    LittleEndian,
    from_le_bytes,
    to_le_bytes,
    "Bedrock files: little-endian, UTF-8."
);

/// Bedrock network NBT: zigzag varints for ints, longs and list/array lengths, unsigned varint string
/// lengths, little-endian shorts, floats and doubles, UTF-8 strings.
#[derive(Clone, Copy)]
pub(crate) struct VarInt;

impl Codec for VarInt {
    const MAX_STRING: usize = i32::MAX as usize;
    const MIN_LIST: usize = 1;
    const MIN_STRING: usize = 1;
    const ENC: Enc = Enc::Var;

    #[inline(always)]
    fn i16(c: &mut Cursor<'_>) -> Result<i16> {
        Ok(i16::from_le_bytes(c.array()?))
    }
    #[inline]
    fn i32(c: &mut Cursor<'_>) -> Result<i32> {
        Ok(unzigzag32(c.var_u32()?))
    }
    #[inline]
    fn i64(c: &mut Cursor<'_>) -> Result<i64> {
        Ok(unzigzag64(c.var_u64()?))
    }
    #[inline(always)]
    fn f32(c: &mut Cursor<'_>) -> Result<f32> {
        Ok(f32::from_le_bytes(c.array()?))
    }
    #[inline(always)]
    fn f64(c: &mut Cursor<'_>) -> Result<f64> {
        Ok(f64::from_le_bytes(c.array()?))
    }
    #[inline]
    fn str_len(c: &mut Cursor<'_>) -> Result<usize> {
        let pos = c.pos;
        let n = c.var_u32()?;
        if n > i32::MAX as u32 {
            return Err(Error::at(
                ErrorKind::StringTooLong {
                    len: n as usize,
                    max: Self::MAX_STRING,
                },
                pos,
            ));
        }
        Ok(n as usize)
    }
    #[inline]
    fn len(c: &mut Cursor<'_>) -> Result<usize> {
        let pos = c.pos;
        let n = Self::i32(c)?;
        usize::try_from(n).map_err(|_| negative(n.into(), pos))
    }
    fn i16s(c: &mut Cursor<'_>, n: usize) -> Result<Vec<i16>> {
        Ok(convert(LittleEndian::slice(c, n, 2)?, i16::from_le_bytes))
    }
    fn i32s(c: &mut Cursor<'_>, n: usize) -> Result<Vec<i32>> {
        c.check_count(n, 1)?;
        (0..n).map(|_| Self::i32(c)).collect()
    }
    fn i64s(c: &mut Cursor<'_>, n: usize) -> Result<Vec<i64>> {
        c.check_count(n, 1)?;
        (0..n).map(|_| Self::i64(c)).collect()
    }
    fn f32s(c: &mut Cursor<'_>, n: usize) -> Result<Vec<f32>> {
        Ok(convert(LittleEndian::slice(c, n, 4)?, f32::from_le_bytes))
    }
    fn f64s(c: &mut Cursor<'_>, n: usize) -> Result<Vec<f64>> {
        Ok(convert(LittleEndian::slice(c, n, 8)?, f64::from_le_bytes))
    }
    fn decode_str(bytes: &[u8]) -> std::result::Result<Cow<'_, str>, &'static str> {
        simdutf8::basic::from_utf8(bytes)
            .map(Cow::Borrowed)
            .map_err(|_| "invalid UTF-8")
    }

    fn put_i16(out: &mut Vec<u8>, v: i16) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    fn put_i32(out: &mut Vec<u8>, v: i32) {
        write_var_u32(out, zigzag32(v));
    }
    fn put_i64(out: &mut Vec<u8>, v: i64) {
        write_var_u64(out, zigzag64(v));
    }
    fn put_f32(out: &mut Vec<u8>, v: f32) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    fn put_f64(out: &mut Vec<u8>, v: f64) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    fn put_len(out: &mut Vec<u8>, n: usize) -> Result<()> {
        let n = i32::try_from(n).map_err(|_| too_long(n))?;
        Self::put_i32(out, n);
        Ok(())
    }
    fn put_str(out: &mut Vec<u8>, s: &str) -> Result<()> {
        if s.len() > Self::MAX_STRING {
            return Err(string_too_long(s.len(), Self::MAX_STRING));
        }
        write_var_u32(out, s.len() as u32);
        out.extend_from_slice(s.as_bytes());
        Ok(())
    }
    fn put_i16s(out: &mut Vec<u8>, v: &[i16]) {
        append(out, v, i16::to_le_bytes);
    }
    fn put_i32s(out: &mut Vec<u8>, v: &[i32]) {
        out.reserve(v.len());
        for &x in v {
            Self::put_i32(out, x);
        }
    }
    fn put_i64s(out: &mut Vec<u8>, v: &[i64]) {
        out.reserve(v.len());
        for &x in v {
            Self::put_i64(out, x);
        }
    }
    fn put_f32s(out: &mut Vec<u8>, v: &[f32]) {
        append(out, v, f32::to_le_bytes);
    }
    fn put_f64s(out: &mut Vec<u8>, v: &[f64]) {
        append(out, v, f64::to_le_bytes);
    }
}
