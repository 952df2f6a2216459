//! The builder: writes a FlatBuffer back to front into one reusable buffer.
//!
//! Objects are written children first; each write returns an [`Offset`] (the object's distance from
//! the end of the buffer) that parents refer to. Tables are written either in one shot with a
//! [`TableWriter`] (generated code: fields in descending size order into space reserved once, the
//! vtable assembled in a stack array) or incrementally with
//! [`start_table`](Builder::start_table) / `add_*` / [`end_table`](Builder::end_table) (for code
//! driven by a schema at run time).
//!
//! Every method that needs room checks once per call whether the reserved space suffices; only when
//! it does not does the buffer grow, and growing past the configured maximum
//! ([`set_max_size`](Builder::set_max_size), 2 GiB - 1 by default) is an error. Misuse (adding a
//! field outside a table, a slot past the table writer's capacity) panics.
//!
//! # 64-bit offsets
//!
//! Fields marked `offset64` hold an 8-byte offset to a string or vector; `vector64` fields also give
//! the vector an 8-byte length. The objects they point to are written first, through
//! [`Builder::far`], and form a region at the end of the finished buffer; everything else comes
//! after (before, in the buffer), so that 32-bit offsets never have to span them. This is the layout
//! of C++'s `FlatBufferBuilder64`, and the builder enforces it: [`Builder::far`] returns
//! [`BuildError::FarAfterNear`] once anything else has been written. The format allows 64-bit
//! offsets to reach past 4 GiB, but this builder keeps its cap of 2 GiB - 1 for the whole buffer
//! (as the verifier does), so its offsets and lengths stay far below that.

use alloc::vec;
use alloc::vec::Vec;
use core::cmp::Ordering;
use core::fmt;
use core::marker::PhantomData;

use crate::error::BuildError;
use crate::scalar::{scalars_as_bytes, struct_bytes, structs_as_bytes, Scalar, Struct};
use crate::verify::{VerifierOptions, MAX_BUFFER_SIZE};
use crate::view::{Table, Vector64};

/// A reference to an object written by a [`Builder`]: its distance in bytes from the end of the
/// buffer. `T` records what the object is (`str`, `[u16]`, `[Offset<str>]`, a table type...).
///
/// ```
/// let mut b = flatforge::Builder::new();
/// let s: flatforge::Offset<str> = b.create_string("abc")?;
/// assert_eq!(s.value(), 8); // 4-byte length + "abc" + NUL
/// # Ok::<(), flatforge::BuildError>(())
/// ```
pub struct Offset<T: ?Sized> {
    value: u32,
    _marker: PhantomData<fn() -> *const T>,
}

impl<T: ?Sized> Offset<T> {
    /// An offset from its raw value (a distance from the end of the buffer).
    ///
    /// ```
    /// use flatforge::Offset;
    /// let mut b = flatforge::Builder::new();
    /// let s = b.create_string("abc")?;
    /// let same: Offset<str> = Offset::new(s.value()); // e.g. kept as a number elsewhere
    /// assert_eq!(same, s);
    /// assert_eq!(flatforge::root::<&str>(b.finish(same, None)?)?, "abc");
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn new(value: u32) -> Self {
        Offset {
            value,
            _marker: PhantomData,
        }
    }

    /// The raw value.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let a = b.create_string("abc")?; // 8 bytes
    /// let c = b.create_string("defgh")?; // 12 more
    /// assert_eq!((a.value(), c.value()), (8, 20));
    /// assert_eq!(c.value() as usize, b.len()); // the last object starts at the head
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    #[inline(always)]
    pub fn value(self) -> u32 {
        self.value
    }

    /// The same offset with another target type (for union values, or code that tracks types
    /// itself).
    ///
    /// ```
    /// use flatforge::{Offset, Table};
    /// let mut b = flatforge::Builder::new();
    /// b.start_table();
    /// let member: Offset<Table<'static>> = b.end_table()?;
    /// let value: Offset<()> = member.cast(); // a union value, whatever its member type
    /// assert_eq!(value.value(), member.value());
    /// b.start_table();
    /// b.add_scalar::<u8>(0, 1, 0)?; // the union's type
    /// b.add_offset(1, value)?;
    /// let t = b.end_table()?;
    /// let t: Table = flatforge::root(b.finish(t, None)?)?;
    /// assert!(t.get::<Table>(1)?.is_some());
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn cast<U: ?Sized>(self) -> Offset<U> {
        Offset::new(self.value)
    }
}

impl<T: ?Sized> Clone for Offset<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: ?Sized> Copy for Offset<T> {}
impl<T: ?Sized> PartialEq for Offset<T> {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}
impl<T: ?Sized> Eq for Offset<T> {}
impl<T: ?Sized> fmt::Debug for Offset<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Offset({})", self.value)
    }
}

/// A reference to an object written by a [`FarWriter`], for a 64-bit offset field (`offset64`,
/// `vector64`): its distance in bytes from the end of the buffer. `T` records what the object is:
/// `str`, `[T]` (a vector with a 32-bit length) or [`Vector64<'static, T>`](crate::Vector64) (a
/// vector with a 64-bit length).
///
/// ```
/// let mut b = flatforge::Builder::new();
/// let s: flatforge::Offset64<str> = b.far()?.create_string("abc")?;
/// assert_eq!(s.value(), 8); // 4-byte length + "abc" + NUL
/// # Ok::<(), flatforge::BuildError>(())
/// ```
pub struct Offset64<T: ?Sized> {
    value: u64,
    _marker: PhantomData<fn() -> *const T>,
}

impl<T: ?Sized> Offset64<T> {
    /// An offset from its raw value (a distance from the end of the buffer).
    ///
    /// ```
    /// use flatforge::Offset64;
    /// let mut b = flatforge::Builder::new();
    /// let s = b.far()?.create_string("far")?;
    /// let same: Offset64<str> = Offset64::new(s.value());
    /// assert_eq!(same, s);
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    #[inline(always)]
    pub fn new(value: u64) -> Self {
        Offset64 {
            value,
            _marker: PhantomData,
        }
    }

    /// The raw value.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let v = b.far()?.create_vector64(&[1u32, 2])?; // 8-byte length + 8 bytes
    /// assert_eq!(v.value(), 16);
    /// assert_eq!(v.value() as usize, b.len());
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    #[inline(always)]
    pub fn value(self) -> u64 {
        self.value
    }

    /// The same offset with another target type.
    ///
    /// ```
    /// use flatforge::{Far, Offset64, Table, Vector};
    /// let mut b = flatforge::Builder::new();
    /// // A `[ubyte]` vector that holds a string's bytes.
    /// let bytes: Offset64<[u8]> = b.far()?.create_vector(b"text")?;
    /// let same: Offset64<Vector<'static, u8>> = bytes.cast();
    /// assert_eq!(same.value(), bytes.value());
    /// b.start_table();
    /// b.add_offset64(0, same)?;
    /// let t = b.end_table()?;
    /// let t: Table = flatforge::root(b.finish(t, None)?)?;
    /// assert_eq!(t.get::<Far<Vector<u8>>>(0)?.unwrap().0.as_slice(), b"text");
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn cast<U: ?Sized>(self) -> Offset64<U> {
        Offset64::new(self.value)
    }
}

impl<T: ?Sized> Clone for Offset64<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: ?Sized> Copy for Offset64<T> {}
impl<T: ?Sized> PartialEq for Offset64<T> {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}
impl<T: ?Sized> Eq for Offset64<T> {}
impl<T: ?Sized> fmt::Debug for Offset64<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Offset64({})", self.value)
    }
}

/// A set of offsets whose keys are bytes already in the buffer (vtables, shared strings). Lookups
/// compare against the buffer, so inserting allocates nothing per entry.
///
/// Most buffers hold a few distinct vtables and shared strings, so the first [`FEW`] offsets are
/// kept in an inline array and compared with the key one by one: no hash is computed, a builder
/// that stays under that allocates nothing, an insert is one store, and `reset` empties the set
/// with one store. Past it, every entry moves to an open-addressing table on the heap of
/// `hash << 32 | offset` (0 marks an empty slot: no object has offset 0), at most half full; the
/// table is kept for the next buffer, and zeroed when that moves there.
#[derive(Clone, Default)]
struct Dedup {
    /// The offsets while there are at most `FEW`; stale once `table` holds them.
    few: [u32; FEW],
    /// All entries once there are more than `FEW` (a power-of-two length); stale otherwise.
    table: Vec<u64>,
    len: usize,
}

/// Entries compared one by one before the set moves to a hash table.
const FEW: usize = 8;

/// The outcome of [`Dedup::find`].
enum Lookup {
    /// The offset of an equal key.
    Found(u32),
    /// No equal key; for [`Dedup::insert`], the key's hash once the set is in its table (or moves
    /// there with this key), else `None`.
    Missing(Option<u32>),
}

impl Dedup {
    /// Looks up the key that `eq` compares with the key at an entry's offset; `hash` (the key's
    /// hash) is called only when the set is in its table, or the key would move it there.
    #[inline(always)]
    fn find(&self, hash: impl FnOnce() -> u32, mut eq: impl FnMut(u32) -> bool) -> Lookup {
        if self.len <= FEW {
            return match self.few[..self.len].iter().find(|&&off| eq(off)) {
                Some(&off) => Lookup::Found(off),
                None => Lookup::Missing((self.len == FEW).then(hash)),
            };
        }
        let hash = hash();
        let mask = self.table.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let entry = self.table[i];
            if entry == 0 {
                return Lookup::Missing(Some(hash));
            }
            if (entry >> 32) as u32 == hash && eq(entry as u32) {
                return Lookup::Found(entry as u32);
            }
            i = (i + 1) & mask;
        }
    }

    /// Inserts the offset of a key that [`find`](Self::find) missed, with the hash it returned;
    /// `hash_at(data, offset)` hashes the key of an entry (for those that move into the table).
    /// Keys written in place, without captures: no closure is built on the way to the table.
    #[inline(always)]
    fn insert<F: Fn(&[u8], u32) -> u32>(
        &mut self,
        offset: u32,
        hash: Option<u32>,
        data: &[u8],
        hash_at: F,
    ) {
        match hash {
            None => self.few[self.len] = offset,
            Some(hash) => self.insert_in_table(offset, hash, data, hash_at),
        }
        self.len += 1;
    }

    /// Inserts past the first `FEW` entries: moves those into the table first (reusing, zeroed,
    /// the table a `clear` kept), and doubles the table when it would be more than half full.
    #[cold]
    #[inline(never)]
    fn insert_in_table<F: Fn(&[u8], u32) -> u32>(
        &mut self,
        offset: u32,
        hash: u32,
        data: &[u8],
        hash_at: F,
    ) {
        let entry = |hash: u32, offset: u32| u64::from(hash) << 32 | u64::from(offset);
        if self.len == FEW {
            if self.table.is_empty() {
                self.table = vec![0; 4 * FEW];
            } else {
                self.table.fill(0);
            }
            for off in self.few {
                place(&mut self.table, entry(hash_at(data, off), off));
            }
        } else if (self.len + 1) * 2 > self.table.len() {
            let doubled = vec![0; self.table.len() * 2];
            let old = core::mem::replace(&mut self.table, doubled);
            for e in old.into_iter().filter(|&e| e != 0) {
                place(&mut self.table, e);
            }
        }
        place(&mut self.table, entry(hash, offset));
    }

    #[inline]
    fn clear(&mut self) {
        self.len = 0;
    }
}

/// Puts `entry` in the first free slot from its hash on (the table has free slots).
fn place(table: &mut [u64], entry: u64) {
    let mask = table.len() - 1;
    let mut i = (entry >> 32) as usize & mask;
    while table[i] != 0 {
        i = (i + 1) & mask;
    }
    table[i] = entry;
}

/// A zeroed buffer of `len` bytes. Small buffers come from `malloc` and are zeroed here: glibc's
/// `calloc` (what `vec![0; n]` calls) bypasses its per-thread cache, which makes every allocation
/// and free of a builder's buffer take the slow path. Large ones come from `calloc`, which gets
/// them pre-zeroed from the OS.
fn zeroed(len: usize) -> Vec<u8> {
    if len < 1 << 16 {
        // Deliberately not `vec![0; len]` (see above).
        #[allow(clippy::slow_vector_initialization)]
        let mut buf = Vec::with_capacity(len);
        buf.resize(len, 0);
        buf
    } else {
        vec![0; len]
    }
}

/// `dst.copy_from_slice(src)`, with short copies (most strings and vtables) done as two overlapping
/// fixed-size moves instead of a `memcpy` call.
#[inline(always)]
fn copy_bytes(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    if (8..=16).contains(&n) {
        dst[..8].copy_from_slice(&src[..8]);
        dst[n - 8..n].copy_from_slice(&src[n - 8..n]);
    } else if (4..8).contains(&n) {
        dst[..4].copy_from_slice(&src[..4]);
        dst[n - 4..n].copy_from_slice(&src[n - 4..n]);
    } else {
        dst.copy_from_slice(src);
    }
}

/// `dst.copy_from_slice(src)` for the data of a finished message: up to 128 bytes (small
/// messages) as overlapping moves instead of a `memcpy` call, chosen with two comparisons from 16
/// to 64 bytes. From 16 to 32 bytes, eight moves of 4 bytes, the first four counted from the end
/// (where the builder's alignment is counted from): such a message has often just been built, its
/// bytes still on their way to the cache, and a wider load that spans two of the builder's stores
/// (a 4-byte length and the 8-byte scalars after it, say) must wait for them to get there, where a
/// 4-byte load within one store takes its bytes from it (store-to-load forwarding). Measured on
/// this project's machine, a stream of 1,000 24-byte vectors: 9.7-12.2 µs with two 16-byte moves
/// (depending on where the buffers lie), 9.0-9.4 µs with these.
#[inline(always)]
fn copy_message(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    if n <= 32 {
        if n >= 16 {
            for at in [n - 4, n - 8, n - 12, n - 16, 12, 8, 4, 0] {
                dst[at..at + 4].copy_from_slice(&src[at..at + 4]);
            }
        } else {
            copy_bytes(dst, src);
        }
    } else if n <= 64 {
        dst[..32].copy_from_slice(&src[..32]);
        dst[n - 32..].copy_from_slice(&src[n - 32..]);
    } else if n <= 128 {
        dst[..64].copy_from_slice(&src[..64]);
        dst[n - 64..].copy_from_slice(&src[n - 64..]);
    } else {
        dst.copy_from_slice(src);
    }
}

/// Writes `values` into `dst` (of their size) as little-endian scalars: one copy on little-endian
/// hosts.
#[inline(always)]
fn write_scalars<T: Scalar>(dst: &mut [u8], values: &[T]) {
    if cfg!(target_endian = "little") {
        copy_bytes(dst, scalars_as_bytes(values));
    } else {
        for (chunk, v) in dst.chunks_exact_mut(T::SIZE).zip(values) {
            chunk.copy_from_slice(v.to_le_array().as_ref());
        }
    }
}

/// The 8 bytes of `b` at `at`, as a little-endian word.
#[inline(always)]
fn word8(b: &[u8], at: usize) -> u64 {
    let mut w = [0; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

/// The 4 bytes of `b` at `at`, as a little-endian word.
#[inline(always)]
fn word4(b: &[u8], at: usize) -> u64 {
    let mut w = [0; 4];
    w.copy_from_slice(&b[at..at + 4]);
    u64::from(u32::from_le_bytes(w))
}

/// Two words that, for a given length up to 16, determine every byte of `b`: loads of its first and
/// last 8 (or 4) bytes, which overlap when the length is not 16 (or 8), or for 1 to 3 bytes the
/// first, middle and last byte (which are all of them). Two strings of the same length up to 16 are
/// equal exactly when their words are, so short strings are hashed and compared without a copy, a
/// loop or a call.
#[inline(always)]
fn short_words(b: &[u8]) -> (u64, u64) {
    let n = b.len();
    debug_assert!(n <= 16);
    if n >= 8 {
        (word8(b, 0), word8(b, n - 8))
    } else if n >= 4 {
        (word4(b, 0), word4(b, n - 4))
    } else if n > 0 {
        let (first, mid, last) = (b[0], b[n / 2], b[n - 1]);
        (
            u64::from(first) | u64::from(mid) << 8 | u64::from(last) << 16,
            0,
        )
    } else {
        (0, 0)
    }
}

/// `a == b`, short slices compared as their [`short_words`].
#[inline(always)]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    if b.len() <= 16 {
        short_words(a) == short_words(b)
    } else {
        a == b
    }
}

/// `dst.fill(0)`, with short runs (frame headers before a finished buffer) done as two overlapping
/// fixed-size stores instead of a `memset` call.
#[inline(always)]
fn zero_bytes(dst: &mut [u8]) {
    let n = dst.len();
    if (16..=32).contains(&n) {
        dst[..16].copy_from_slice(&[0; 16]);
        dst[n - 16..].copy_from_slice(&[0; 16]);
    } else if (8..16).contains(&n) {
        dst[..8].copy_from_slice(&[0; 8]);
        dst[n - 8..].copy_from_slice(&[0; 8]);
    } else {
        dst.fill(0);
    }
}

/// A fast, well-mixing hash of a byte string (shared strings) that depends on its length and every
/// byte: the string is read in words (no copy), its last word overlapping the one before it when
/// the length is not a multiple of 8.
#[inline]
fn hash_bytes(bytes: &[u8]) -> u32 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mix = |h: u64, w: u64| (h.rotate_left(23) ^ w).wrapping_mul(K);
    let n = bytes.len();
    let mut h = n as u64;
    if n <= 16 {
        let (a, b) = short_words(bytes);
        h = mix(mix(h, a), b);
    } else {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            h = mix(h, word8(c, 0));
        }
        if !chunks.remainder().is_empty() {
            h = mix(h, word8(bytes, n - 8));
        }
    }
    h ^= h >> 29;
    (h.wrapping_mul(K) >> 32) as u32
}

/// The hash of a vtable's bytes: its size and table-size fields (its first 4 bytes) and its 16-bit
/// entries. A sum of independent products (one multiply per entry, no dependency chain), with
/// each entry's position in its term.
#[inline(always)]
fn vtable_hash(vt: &[u8]) -> u32 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = word4(vt, 0).wrapping_mul(K);
    for (j, e) in vt[4..].chunks_exact(2).enumerate() {
        let e = u16::from_le_bytes([e[0], e[1]]);
        h = h.wrapping_add((u64::from(e) | (j as u64) << 16).wrapping_mul(K));
    }
    h ^= h >> 29;
    (h.wrapping_mul(K) >> 32) as u32
}

/// The hash of the vtable at offset `off` (from the end) of `buf`.
fn vtable_hash_at(buf: &[u8], off: u32) -> u32 {
    let vt = &buf[buf.len() - off as usize..];
    vtable_hash(&vt[..usize::from(u16::from_le_bytes([vt[0], vt[1]]))])
}

/// Turns `vt` into a vtable in place. On entry, its bytes from 4 on are 2 per slot: where the
/// field of the slot ends, counted from the end of the table (0 when absent), and 0 from `len`
/// on. On return, its first `len` bytes are the vtable of a table of `size` bytes (the soffset
/// included) and the rest are still 0. A short `vt` of fixed length becomes a few vector
/// instructions.
#[inline(always)]
fn fill_vtable(vt: &mut [u8], len: usize, size: u16) {
    let head = len as u32 | u32::from(size) << 16;
    vt[..4].copy_from_slice(&head.to_le_bytes());
    for e in vt[4..].chunks_exact_mut(2) {
        let end = u16::from_le_bytes([e[0], e[1]]);
        let off = if end == 0 { 0 } else { size.wrapping_sub(end) };
        e.copy_from_slice(&off.to_le_bytes());
    }
}

/// Looks the vtable `vt` up among those in `data` (the builder's data) above `floor`.
#[inline(always)]
fn find_vtable(vtables: &Dedup, floor: usize, data: &[u8], vt: &[u8]) -> Lookup {
    vtables.find(
        || vtable_hash(vt),
        |off| {
            let at = data.len().wrapping_sub(off as usize);
            off as usize > floor
                && data
                    .get(at..at.wrapping_add(vt.len()))
                    .is_some_and(|old| same_bytes(old, vt))
        },
    )
}

/// The hash of the string at offset `off` (from the end) of `buf`: [`hash_bytes`] of its bytes.
fn string_hash_at(buf: &[u8], off: u32) -> u32 {
    let start = buf.len() - off as usize;
    let len = u32::from_le_bytes([buf[start], buf[start + 1], buf[start + 2], buf[start + 3]]);
    hash_bytes(&buf[start + 4..start + 4 + len as usize])
}

/// Options for reading the unfinished buffer, whose start is not yet aligned.
const UNFINISHED: VerifierOptions = VerifierOptions {
    check_alignment: false,
    ..VerifierOptions::DEFAULT
};

/// The builder's buffer with the head in a local, apart from the builder's other fields: what
/// writing into reserved room needs. Stores through the `&mut [u8]` cannot change the head or the
/// buffer's address (stores through a `Vec`'s pointer could change the builder's fields, as far as
/// the compiler knows), so both stay in registers across a table's stores.
struct Room<'a> {
    buf: &'a mut [u8],
    /// The data occupies `buf[head..]`.
    head: usize,
}

impl Room<'_> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.buf.len() - self.head
    }

    /// Writes `pad` zeros (reserved) below the head.
    #[inline(always)]
    fn zero_pad(&mut self, pad: usize) {
        let head = self.head;
        if pad <= 8 && head >= 8 {
            // One 8-byte store instead of a `memset` call for a few bytes; the zeros below the
            // padding land in free space that later writes overwrite.
            self.buf[head - 8..head].copy_from_slice(&[0; 8]);
        } else {
            self.buf[head - pad..head].fill(0);
        }
        self.head = head - pad;
    }

    /// Writes bytes into reserved room.
    #[inline(always)]
    fn put_bytes(&mut self, bytes: &[u8]) {
        self.head -= bytes.len();
        let head = self.head;
        copy_bytes(&mut self.buf[head..head + bytes.len()], bytes);
    }

    /// Writes a scalar into reserved room.
    #[inline(always)]
    fn put<T: Scalar>(&mut self, value: T) {
        self.put_bytes(value.to_le_array().as_ref());
    }

    /// Writes an offset to `target` into 4 reserved, aligned bytes.
    #[inline(always)]
    fn put_offset(&mut self, target: u32) {
        let here = (self.len() + 4) as u32;
        self.put::<u32>(here.wrapping_sub(target));
    }

    /// Writes a 64-bit offset to `target` into 8 reserved, aligned bytes.
    #[inline(always)]
    fn put_offset64(&mut self, target: u64) {
        let here = (self.len() + 8) as u64;
        self.put::<u64>(here.wrapping_sub(target));
    }

    /// Writes the vtable `vt` (as [`fill_vtable`] makes it) of the table at `object` (an offset from
    /// the end) whose soffset was just written (as 0), or reuses an identical vtable written before,
    /// and points the table to it. The caller has reserved room for the vtable. Vtables above
    /// `floor` (offsets from the end) are shared through `vtables`.
    #[inline]
    fn write_vtable(
        &mut self,
        vtables: &mut Dedup,
        floor: usize,
        object: usize,
        vt: &[u8],
    ) -> Offset<Table<'static>> {
        let (below, data) = self.buf.split_at_mut(self.head);
        let off = match find_vtable(vtables, floor, data, vt) {
            Lookup::Found(off) => off as usize,
            Lookup::Missing(hash) => {
                let at = self.head - vt.len();
                copy_bytes(&mut below[at..], vt);
                self.head = at;
                let off = self.len();
                vtables.insert(off as u32, hash, self.buf, vtable_hash_at);
                off
            }
        };
        let at = self.buf.len() - object;
        self.buf[at..at + 4].copy_from_slice(&soffset(off, object).to_le_bytes());
        Offset::new(object as u32)
    }
}

/// The soffset of the table at `object` whose vtable is at `vtable` (offsets from the end).
#[inline(always)]
fn soffset(vtable: usize, object: usize) -> i32 {
    (vtable as i64 - object as i64) as i32
}

/// The largest slot a vtable holds: its entry ends at byte `4 + 2 * (slot + 1)`, at most 65534
/// (the vtable's size is a 16-bit even number).
const MAX_SLOT: usize = 32764;

/// Where a nested flatbuffer started; returned by [`Builder::start_nested`] and passed to
/// [`Builder::end_nested`].
///
/// ```
/// use flatforge::{Builder, NestedStart};
/// let mut b = Builder::new();
/// let start: NestedStart = b.start_nested()?;
/// let s = b.create_string("inside")?;
/// let nested = b.end_nested(start, s, None)?;
/// let bytes = b.finish(nested, None)?;
/// let inner: flatforge::Vector<u8> = flatforge::root(bytes)?;
/// assert_eq!(flatforge::root::<&str>(inner.as_slice())?, "inside");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
#[derive(Debug)]
#[must_use = "pass it to Builder::end_nested"]
pub struct NestedStart {
    used: usize,
    min_align: usize,
    floor: usize,
}

/// Writes FlatBuffers back to front into one reusable buffer.
///
/// ```
/// use flatforge::{Builder, Table};
///
/// // table Monster { name: string; hp: short = 100; inventory: [ubyte]; } with slots 0, 1, 2
/// let mut b = Builder::with_capacity(256);
/// for round in 0..2 {
///     b.reset(); // keeps the capacity
///     let name = b.create_string("Orc")?;
///     let inventory = b.create_vector(&[1u8, 2, 3])?;
///     b.start_table();
///     b.add_offset(0, name)?;
///     b.add_offset(2, inventory)?;
///     b.add_scalar::<i16>(1, 300, 100)?;
///     let monster = b.end_table()?;
///     let bytes = b.finish(monster, Some(b"MONS"))?;
///
///     let t: Table = flatforge::root(bytes)?;
///     assert_eq!(t.get::<&str>(0)?, Some("Orc"));
///     assert_eq!(t.get::<i16>(1)?, Some(300));
///     assert_eq!(t.get::<flatforge::Vector<u8>>(2)?.unwrap().as_slice(), &[1, 2, 3]);
/// }
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Builder {
    /// The data occupies `buf[head..]`.
    buf: Vec<u8>,
    head: usize,
    /// The alignment the finished buffer needs: the largest of its objects', and at least 4 (its
    /// root offset's), so that finishing needs no `max`.
    min_align: usize,
    max_size: usize,
    force_defaults: bool,
    /// Where the current buffer's own data starts, after an enclosing buffer's data (when a nested
    /// flatbuffer is being built) and the buffer's 64-bit region (what [`FarWriter`]s wrote first,
    /// C++'s `length_of_64_bit_region_`). Vtables and shared strings at or below it are not shared
    /// (the 64-bit region holds none), and objects behind 64-bit offsets may only be written while
    /// nothing follows it, that is while it equals `len()`.
    floor: usize,
    in_table: bool,
    table_start: usize,
    /// `(slot, offset)` of the fields added since `start_table`.
    fields: Vec<(usize, u32)>,
    vtable: Vec<u8>,
    vtables: Dedup,
    strings: Dedup,
}

impl Default for Builder {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for Builder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Builder")
            .field("len", &self.len())
            .field("capacity", &self.buf.len())
            .field("min_align", &self.min_align)
            .finish_non_exhaustive()
    }
}

impl Builder {
    /// An empty builder; the buffer is allocated on first use.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// assert_eq!((b.len(), b.capacity()), (0, 0));
    /// b.create_string("x")?;
    /// assert!(b.capacity() >= b.len());
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    pub fn new() -> Self {
        Self::from_vec(Vec::new())
    }

    /// A builder with `capacity` bytes allocated up front, at most
    /// [`MAX_BUFFER_SIZE`](crate::MAX_BUFFER_SIZE) (as the buffer never grows past it).
    ///
    /// ```
    /// let mut b = flatforge::Builder::with_capacity(1024);
    /// assert_eq!(b.capacity(), 1024);
    /// b.create_string("fits")?;
    /// assert_eq!(b.capacity(), 1024); // no reallocation
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    pub fn with_capacity(capacity: usize) -> Self {
        Self::from_vec(zeroed(capacity.min(MAX_BUFFER_SIZE)))
    }

    /// A builder that writes into `buf`, using its whole allocation (the contents are overwritten).
    ///
    /// ```
    /// let b = flatforge::Builder::from_vec(Vec::with_capacity(1024));
    /// assert!(b.capacity() >= 1024);
    /// ```
    pub fn from_vec(mut buf: Vec<u8>) -> Self {
        let capacity = buf.capacity().min(MAX_BUFFER_SIZE);
        buf.resize(capacity, 0);
        Builder {
            head: buf.len(),
            buf,
            min_align: 4,
            max_size: MAX_BUFFER_SIZE,
            force_defaults: false,
            floor: 0,
            in_table: false,
            table_start: 0,
            fields: Vec::new(),
            vtable: Vec::new(),
            vtables: Dedup::default(),
            strings: Dedup::default(),
        }
    }

    /// Empties the builder for the next buffer, keeping the allocation (and not zeroing it).
    /// Shared strings and vtables written before are forgotten too.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let s = b.create_shared_string("one")?;
    /// let first = b.finish(s, None)?.to_vec();
    /// let capacity = b.capacity();
    /// b.reset();
    /// assert!(b.is_empty());
    /// assert_eq!(b.capacity(), capacity);
    /// let s = b.create_shared_string("one")?; // written again, not found
    /// assert_eq!(b.finish(s, None)?, first);
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    #[inline]
    pub fn reset(&mut self) {
        self.head = self.buf.len();
        self.min_align = 4;
        self.floor = 0;
        self.in_table = false;
        self.fields.clear();
        self.vtables.clear();
        self.strings.clear();
    }

    /// Whether scalar fields equal to their default are written anyway (default: false, they are
    /// left out of the table).
    ///
    /// ```
    /// use flatforge::{Builder, Table};
    /// for force in [false, true] {
    ///     let mut b = Builder::new();
    ///     b.set_force_defaults(force);
    ///     b.start_table();
    ///     b.add_scalar::<i16>(0, 100, 100)?; // equal to the default
    ///     let t = b.end_table()?;
    ///     let t: Table = flatforge::root(b.finish(t, None)?)?;
    ///     assert_eq!(t.get::<i16>(0)?, force.then_some(100));
    /// }
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn set_force_defaults(&mut self, force_defaults: bool) {
        self.force_defaults = force_defaults;
    }

    /// Limits the size of the buffer; building past it returns [`BuildError::BufferTooLarge`].
    /// Values above 2 GiB - 1 (the FlatBuffers maximum, and the default) are clamped to it.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// b.set_max_size(64);
    /// assert!(b.create_string(&"x".repeat(100)).is_err());
    /// assert!(b.create_string("short").is_ok());
    /// ```
    pub fn set_max_size(&mut self, max_size: usize) {
        self.max_size = max_size.min(MAX_BUFFER_SIZE);
    }

    /// The number of bytes written so far.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// b.create_string("abc")?; // length, 3 bytes, NUL
    /// assert_eq!(b.len(), 8);
    /// let s = b.create_string("abcd")?; // and 3 bytes of padding
    /// assert_eq!(b.len(), 20);
    /// assert_eq!(b.finish(s, None)?.len(), 24); // and the root offset
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.buf.len() - self.head
    }

    /// Whether nothing has been written yet.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// assert!(b.is_empty());
    /// b.create_vector::<u8>(&[])?; // still a 4-byte length
    /// assert!(!b.is_empty());
    /// b.reset();
    /// assert!(b.is_empty());
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The allocated size of the buffer.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// assert_eq!(b.capacity(), 0);
    /// b.create_vector(&[0u8; 100])?;
    /// assert!(b.capacity() >= 104); // grown as needed
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    pub fn capacity(&self) -> usize {
        self.buf.len()
    }

    /// The bytes written so far: after a `finish` call, the finished buffer. No copy is made.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let s = b.create_string("ab")?;
    /// assert_eq!(b.finished_data(), [2, 0, 0, 0, b'a', b'b', 0, 0]); // NUL, then padding
    /// b.finish(s, None)?;
    /// assert_eq!(flatforge::root::<&str>(b.finished_data())?, "ab");
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn finished_data(&self) -> &[u8] {
        &self.buf[self.head..]
    }

    /// Moves the written bytes to the front of the buffer and returns it (no allocation).
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let s = b.create_string("x")?;
    /// b.finish(s, None)?;
    /// let expected = b.finished_data().to_vec();
    /// assert_eq!(b.into_vec(), expected);
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    pub fn into_vec(mut self) -> Vec<u8> {
        self.buf.drain(..self.head);
        self.buf
    }

    /// Makes room for `aligned + extra` bytes, after padding so that the position after the next
    /// `aligned` bytes is a multiple of `align` (a power of two). The padding is zeroed; the
    /// `aligned + extra` bytes are left for the caller to write.
    #[inline(always)]
    fn reserve(&mut self, align: usize, aligned: usize, extra: usize) -> Result<(), BuildError> {
        let pad = self.make_room(align, aligned, extra)?;
        self.zero_pad(pad);
        Ok(())
    }

    /// What [`reserve`](Self::reserve) and [`claim`](Self::claim) share: grows the buffer to hold
    /// the padding and the `aligned + extra` bytes, and raises `min_align` to `align`. Returns the
    /// padding's length; nothing is written.
    #[inline(always)]
    fn make_room(
        &mut self,
        align: usize,
        aligned: usize,
        extra: usize,
    ) -> Result<usize, BuildError> {
        let pad = (self.len() + aligned).wrapping_neg() & (align - 1);
        let need = pad + aligned + extra;
        if need > self.head {
            self.grow(need)?;
        }
        if align > self.min_align {
            self.min_align = align;
        }
        Ok(pad)
    }

    /// Makes room as [`reserve`](Self::reserve) does, moves the head below the padding and the
    /// `n = aligned + extra` bytes, and returns those `n` bytes for the caller to write: one slice,
    /// its length known, so that the caller's writes need no checks, and no store into the buffer
    /// before it (which would make the compiler reload the builder's fields).
    #[inline(always)]
    fn claim(
        &mut self,
        align: usize,
        aligned: usize,
        extra: usize,
    ) -> Result<&mut [u8], BuildError> {
        let pad = self.make_room(align, aligned, extra)?;
        let n = aligned + extra;
        let need = pad + n;
        let head = self.head;
        self.head = head - need;
        let room = &mut self.buf[head - need..head];
        if pad <= 8 && need >= 8 {
            // One 8-byte store instead of a `memset` call for a few bytes; the zeros below the
            // padding land in the `n` bytes, which the caller overwrites.
            room[need - 8..].copy_from_slice(&[0; 8]);
        } else {
            room[n..].fill(0);
        }
        Ok(&mut room[..n])
    }

    /// Runs `f` on the buffer with the head in a local ([`Room`]), then stores the head back.
    #[inline(always)]
    fn with_room<R>(&mut self, f: impl FnOnce(&mut Room<'_>) -> R) -> R {
        let mut room = Room {
            buf: &mut self.buf,
            head: self.head,
        };
        let result = f(&mut room);
        self.head = room.head;
        result
    }

    #[inline(always)]
    fn zero_pad(&mut self, pad: usize) {
        self.with_room(|r| r.zero_pad(pad));
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self, additional: usize) -> Result<(), BuildError> {
        let used = self.len();
        let requested = used as u64 + additional as u64;
        if requested > self.max_size as u64 {
            return Err(BuildError::BufferTooLarge {
                requested,
                limit: self.max_size,
            });
        }
        let needed = requested as usize;
        let new_len = (self.buf.len() * 2).max(needed).max(64).min(self.max_size);
        let mut buf = zeroed(new_len);
        buf[new_len - used..].copy_from_slice(&self.buf[self.head..]);
        self.buf = buf;
        self.head = new_len - used;
        Ok(())
    }

    /// Writes bytes into reserved room.
    #[inline(always)]
    fn put_bytes(&mut self, bytes: &[u8]) {
        self.with_room(|r| r.put_bytes(bytes));
    }

    /// Writes a scalar into reserved room.
    #[inline(always)]
    fn put<T: Scalar>(&mut self, value: T) {
        self.with_room(|r| r.put(value));
    }

    /// Writes an offset to `target` into 4 reserved, aligned bytes.
    #[inline(always)]
    fn put_offset(&mut self, target: u32) {
        self.with_room(|r| r.put_offset(target));
    }

    /// Writes a string (length, UTF-8 bytes, NUL) and returns its offset.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let s = b.create_string("héllo")?;
    /// let bytes = b.finish(s, None)?;
    /// assert_eq!(flatforge::root::<&str>(bytes)?, "héllo");
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn create_string(&mut self, s: &str) -> Result<Offset<str>, BuildError> {
        let n = s.len();
        let dst = self.claim(4, n + 1, 4)?;
        dst[..4].copy_from_slice(&(n as u32).to_le_bytes());
        copy_bytes(&mut dst[4..4 + n], s.as_bytes());
        dst[4 + n] = 0;
        Ok(Offset::new(self.len() as u32))
    }

    /// Writes a string, or returns the offset of an identical one written before with this method
    /// (since the last [`reset`](Self::reset)).
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let a = b.create_shared_string("same")?;
    /// let c = b.create_shared_string("other")?;
    /// assert_eq!(b.create_shared_string("same")?, a);
    /// assert_ne!(a, c);
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    pub fn create_shared_string(&mut self, s: &str) -> Result<Offset<str>, BuildError> {
        let hash = || hash_bytes(s.as_bytes());
        let (buf, floor) = (&self.buf, self.floor);
        let found = self.strings.find(hash, |off| {
            let start = buf.len() - off as usize;
            off as usize > floor
                && buf.get(start..start + 4 + s.len()).is_some_and(|old| {
                    word4(old, 0) == s.len() as u64 && same_bytes(&old[4..], s.as_bytes())
                })
        });
        let hash = match found {
            Lookup::Found(off) => return Ok(Offset::new(off)),
            Lookup::Missing(hash) => hash,
        };
        let off = self.create_string(s)?;
        let buf = &self.buf;
        self.strings.insert(off.value, hash, buf, string_hash_at);
        Ok(off)
    }

    /// Writes a vector of scalars (one copy on little-endian hosts) and returns its offset.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let v = b.create_vector(&[1.5f64, -2.0])?;
    /// let bytes = b.finish(v, None)?;
    /// let v: flatforge::Vector<f64> = flatforge::root(bytes)?;
    /// assert_eq!(v.iter().collect::<Vec<_>>(), [1.5, -2.0]);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline]
    pub fn create_vector<T: Scalar>(&mut self, values: &[T]) -> Result<Offset<[T]>, BuildError> {
        let dst = self.claim(T::SIZE.max(4), core::mem::size_of_val(values), 4)?;
        dst[..4].copy_from_slice(&(values.len() as u32).to_le_bytes());
        write_scalars(&mut dst[4..], values);
        Ok(Offset::new(self.len() as u32))
    }

    /// Writes a vector of scalars from an iterator, in order, and returns its offset. Should the
    /// iterator yield fewer items than it promised, the rest are zeros; items past the promise are
    /// ignored.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let v = b.create_vector_from_iter((1..5u32).map(|x| x * x))?;
    /// let bytes = b.finish(v, None)?;
    /// let v: flatforge::Vector<u32> = flatforge::root(bytes)?;
    /// assert_eq!(v.iter().collect::<Vec<_>>(), [1, 4, 9, 16]);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn create_vector_from_iter<T: Scalar>(
        &mut self,
        values: impl ExactSizeIterator<Item = T>,
    ) -> Result<Offset<[T]>, BuildError> {
        let len = values.len();
        let bytes = self.checked_bytes(len, T::SIZE)?;
        self.reserve(T::SIZE.max(4), bytes, 4)?;
        self.put_iter(values, bytes);
        self.put::<u32>(len as u32);
        Ok(Offset::new(self.len() as u32))
    }

    /// Writes `values` below the head (room reserved), as little-endian scalars.
    #[inline(always)]
    fn put_scalars<T: Scalar>(&mut self, values: &[T]) {
        let bytes = core::mem::size_of_val(values);
        self.head -= bytes;
        let head = self.head;
        write_scalars(&mut self.buf[head..head + bytes], values);
    }

    /// Writes the values of `values`, `bytes` in all (room reserved), below the head; zeros for
    /// elements an iterator that reported more than it yields leaves out.
    #[inline(always)]
    fn put_iter<T: Scalar>(&mut self, values: impl ExactSizeIterator<Item = T>, bytes: usize) {
        self.head -= bytes;
        let head = self.head;
        let dst = &mut self.buf[head..head + bytes];
        let mut chunks = dst.chunks_exact_mut(T::SIZE);
        for (chunk, v) in (&mut chunks).zip(values) {
            chunk.copy_from_slice(v.to_le_array().as_ref());
        }
        for chunk in chunks {
            chunk.fill(0);
        }
    }

    /// `len * elem_size`, or an error if that alone exceeds the size limit (which also keeps the
    /// sums in `reserve` from overflowing).
    fn checked_bytes(&self, len: usize, elem_size: usize) -> Result<usize, BuildError> {
        match len.checked_mul(elem_size) {
            Some(bytes) if bytes <= self.max_size => Ok(bytes),
            bytes => Err(BuildError::BufferTooLarge {
                requested: bytes.map_or(u64::MAX, |b| b as u64),
                limit: self.max_size,
            }),
        }
    }

    /// A caller's alignment: a power of two, or 0, taken as 1; anything else is an error (a mask
    /// of `align - 1` would pad wrongly, and the padding of a huge one overflow the sums in
    /// `reserve`). For a constant `align` the test folds away.
    #[inline(always)]
    fn checked_align(align: usize) -> Result<usize, BuildError> {
        if align.is_power_of_two() {
            Ok(align)
        } else if align == 0 {
            Ok(1)
        } else {
            Err(BuildError::InvalidAlignment { align })
        }
    }

    /// Writes a vector of structs (one copy) and returns its offset.
    ///
    /// ```
    /// use flatforge::{read_scalar, Struct, Vector};
    /// #[derive(Clone, Copy)]
    /// #[repr(transparent)]
    /// struct Point([u8; 4]); // struct Point { x: short; y: short; }
    /// // SAFETY: a transparent wrapper of [u8; 4].
    /// unsafe impl Struct for Point { const ALIGN: usize = 2; }
    ///
    /// let mut b = flatforge::Builder::new();
    /// let v = b.create_vector_of_structs(&[Point([1, 0, 2, 0]), Point([3, 0, 4, 0])])?;
    /// let bytes = b.finish(v, None)?;
    /// let v: Vector<&Point> = flatforge::root(bytes)?;
    /// let ys: Vec<i16> = v.iter().map(|p| read_scalar(&p.0, 2)).collect();
    /// assert_eq!(ys, [2, 4]);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline]
    pub fn create_vector_of_structs<S: Struct>(
        &mut self,
        values: &[S],
    ) -> Result<Offset<[S]>, BuildError> {
        let bytes = core::mem::size_of_val(values);
        self.reserve(S::ALIGN.max(4), bytes, 4)?;
        self.put_bytes(structs_as_bytes(values));
        self.put::<u32>(values.len() as u32);
        Ok(Offset::new(self.len() as u32))
    }

    /// Writes a vector of offsets (strings, tables, vectors, union values) and returns its offset.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let items = [b.create_string("a")?, b.create_string("b")?];
    /// let v = b.create_vector_of_offsets(&items)?;
    /// let bytes = b.finish(v, None)?;
    /// let v: flatforge::Vector<&str> = flatforge::root(bytes)?;
    /// assert_eq!(v.iter().collect::<Vec<_>>(), ["a", "b"]);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline]
    pub fn create_vector_of_offsets<T: ?Sized>(
        &mut self,
        offsets: &[Offset<T>],
    ) -> Result<Offset<[Offset<T>]>, BuildError> {
        let bytes = offsets.len() * 4;
        self.reserve(4, bytes, 4)?;
        let end = self.len() + bytes;
        self.head -= bytes;
        let head = self.head;
        let dst = &mut self.buf[head..head + bytes];
        for (i, (chunk, off)) in dst.chunks_exact_mut(4).zip(offsets).enumerate() {
            let here = (end - 4 * i) as u32;
            chunk.copy_from_slice(&here.wrapping_sub(off.value).to_le_bytes());
        }
        self.put::<u32>(offsets.len() as u32);
        Ok(Offset::new(self.len() as u32))
    }

    /// Starts a vector of `len` elements of `elem_size` bytes aligned to `align`, reserving all its
    /// room. Then [`push`](Self::push) (or `push_struct`, `push_offset`) the elements **last to
    /// first**, and call [`end_vector`](Self::end_vector). An alignment that is not a power of
    /// two is [`BuildError::InvalidAlignment`]; 0 is taken as 1.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let names = [b.create_string("x")?, b.create_string("y")?];
    /// b.start_vector(2, 4, 4)?;
    /// for &n in names.iter().rev() {
    ///     b.push_offset(n);
    /// }
    /// let v = b.end_vector::<flatforge::Offset<str>>(2);
    /// let bytes = b.finish(v, None)?;
    /// let v: flatforge::Vector<&str> = flatforge::root(bytes)?;
    /// assert_eq!(v.get(1), Some("y"));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn start_vector(
        &mut self,
        len: usize,
        elem_size: usize,
        align: usize,
    ) -> Result<(), BuildError> {
        let align = Self::checked_align(align)?;
        let bytes = self.checked_bytes(len, elem_size)?;
        self.reserve(align.max(4), bytes, 4)
    }

    /// Pushes a scalar element of a vector started with [`start_vector`](Self::start_vector).
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// b.start_vector(3, 2, 2)?;
    /// for x in [30u16, 20, 10] {
    ///     b.push(x); // last to first
    /// }
    /// let v = b.end_vector::<u16>(3);
    /// let v: flatforge::Vector<u16> = flatforge::root(b.finish(v, None)?)?;
    /// assert_eq!(v.iter().collect::<Vec<_>>(), [10, 20, 30]);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    ///
    /// # Panics
    /// If more elements are pushed than the room reserved and the buffer has no space left.
    #[inline(always)]
    pub fn push<T: Scalar>(&mut self, value: T) {
        self.put(value);
    }

    /// Pushes a struct element of a vector started with [`start_vector`](Self::start_vector).
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
    /// b.start_vector(2, 2, Pair::ALIGN)?;
    /// b.push_struct(&Pair([3, 4])); // last to first
    /// b.push_struct(&Pair([1, 2]));
    /// let v = b.end_vector::<Pair>(2);
    /// let v: flatforge::Vector<&Pair> = flatforge::root(b.finish(v, None)?)?;
    /// assert_eq!(v.as_slice()[0].0, [1, 2]);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    ///
    /// # Panics
    /// As [`push`](Self::push).
    #[inline(always)]
    pub fn push_struct<S: Struct>(&mut self, value: &S) {
        self.put_bytes(struct_bytes(value));
    }

    /// Pushes an offset element of a vector started with [`start_vector`](Self::start_vector).
    ///
    /// ```
    /// use flatforge::{Table, Vector};
    /// let mut b = flatforge::Builder::new();
    /// let mut tables = Vec::new();
    /// for id in 1..=3u32 {
    ///     b.start_table();
    ///     b.add_scalar(0, id, 0)?;
    ///     tables.push(b.end_table()?);
    /// }
    /// b.start_vector(tables.len(), 4, 4)?;
    /// for &t in tables.iter().rev() {
    ///     b.push_offset(t);
    /// }
    /// let v = b.end_vector::<Table>(tables.len());
    /// let v: Vector<Table> = flatforge::root(b.finish(v, None)?)?;
    /// assert_eq!(v.last().unwrap().get::<u32>(0)?, Some(3));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    ///
    /// # Panics
    /// As [`push`](Self::push).
    #[inline(always)]
    pub fn push_offset<T: ?Sized>(&mut self, offset: Offset<T>) {
        self.put_offset(offset.value);
    }

    /// Ends a vector started with [`start_vector`](Self::start_vector) by writing its length.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// b.start_vector(2, 1, 1)?;
    /// b.push(true);
    /// b.push(false);
    /// let v = b.end_vector::<bool>(2);
    /// assert_eq!(v.value() as usize, b.len()); // the offset of the length just written
    /// let v: flatforge::Vector<bool> = flatforge::root(b.finish(v, None)?)?;
    /// assert_eq!(v.iter().collect::<Vec<_>>(), [false, true]);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    ///
    /// # Panics
    /// As [`push`](Self::push).
    #[inline(always)]
    pub fn end_vector<T>(&mut self, len: usize) -> Offset<[T]> {
        self.put::<u32>(len as u32);
        Offset::new(self.len() as u32)
    }

    /// Starts a table to be filled with `add_*` calls in any order and closed by
    /// [`end_table`](Self::end_table).
    ///
    /// ```
    /// use flatforge::Table;
    /// let mut b = flatforge::Builder::new();
    /// let name = b.create_string("Orc")?; // children first
    /// b.start_table();
    /// b.add_scalar::<u8>(2, 7, 0)?;
    /// b.add_offset(0, name)?;
    /// let t = b.end_table()?;
    /// let t: Table = flatforge::root(b.finish(t, None)?)?;
    /// assert_eq!((t.get::<&str>(0)?, t.get::<u8>(2)?), (Some("Orc"), Some(7)));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    ///
    /// # Panics
    /// If a table is already open (write child objects before their parent).
    pub fn start_table(&mut self) {
        assert!(!self.in_table, "start_table called while a table is open");
        self.in_table = true;
        self.fields.clear();
        self.table_start = self.len();
    }

    #[inline(always)]
    fn track(&mut self, slot: usize) {
        assert!(
            self.in_table,
            "table field added outside start_table/end_table"
        );
        self.fields.push((slot, self.len() as u32));
    }

    /// Adds a scalar field unless it equals `default` (and defaults are not forced).
    ///
    /// ```
    /// use flatforge::Table;
    /// // table { hp: short = 100; mana: short = 150; }
    /// let mut b = flatforge::Builder::new();
    /// b.start_table();
    /// b.add_scalar::<i16>(0, 100, 100)?; // the default: left out
    /// b.add_scalar::<i16>(1, 80, 150)?;
    /// let t = b.end_table()?;
    /// let t: Table = flatforge::root(b.finish(t, None)?)?;
    /// assert_eq!((t.get::<i16>(0)?, t.get::<i16>(1)?), (None, Some(80)));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline]
    pub fn add_scalar<T: Scalar>(
        &mut self,
        slot: usize,
        value: T,
        default: T,
    ) -> Result<(), BuildError> {
        if value.is_default(default) && !self.force_defaults {
            return Ok(());
        }
        self.add_scalar_always(slot, value)
    }

    /// Adds a scalar field whatever its value (for optional scalars, which have no default).
    ///
    /// ```
    /// use flatforge::Table;
    /// // table { level: int = null; }
    /// let mut b = flatforge::Builder::new();
    /// b.start_table();
    /// b.add_scalar_always::<i32>(0, 0)?;
    /// let t = b.end_table()?;
    /// let t: Table = flatforge::root(b.finish(t, None)?)?;
    /// assert_eq!(t.get::<i32>(0)?, Some(0)); // present, though 0
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline]
    pub fn add_scalar_always<T: Scalar>(
        &mut self,
        slot: usize,
        value: T,
    ) -> Result<(), BuildError> {
        self.reserve(T::SIZE, T::SIZE, 0)?;
        self.put(value);
        self.track(slot);
        Ok(())
    }

    /// Adds a struct field.
    ///
    /// ```
    /// use flatforge::{Struct, Table};
    /// #[derive(Clone, Copy)]
    /// #[repr(transparent)]
    /// struct Pos([u8; 8]); // struct Pos { x: float; y: float; }
    /// // SAFETY: a transparent wrapper of [u8; 8].
    /// unsafe impl Struct for Pos { const ALIGN: usize = 4; }
    ///
    /// let mut pos = Pos([0; 8]);
    /// flatforge::write_scalar(&mut pos.0, 4, 2.5f32);
    /// let mut b = flatforge::Builder::new();
    /// b.start_table();
    /// b.add_struct(0, &pos)?;
    /// let t = b.end_table()?;
    /// let t: Table = flatforge::root(b.finish(t, None)?)?;
    /// let pos = t.get::<&Pos>(0)?.unwrap();
    /// assert_eq!(flatforge::read_scalar::<f32>(&pos.0, 4), 2.5);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline]
    pub fn add_struct<S: Struct>(&mut self, slot: usize, value: &S) -> Result<(), BuildError> {
        self.add_bytes(slot, struct_bytes(value), S::ALIGN)
    }

    /// Adds a field of raw inline bytes aligned to `align` (a struct laid out by a schema at run
    /// time, or a scalar already in little-endian form). An alignment that is not a power of two is
    /// [`BuildError::InvalidAlignment`]; 0 is taken as 1.
    ///
    /// ```
    /// use flatforge::Table;
    /// let mut b = flatforge::Builder::new();
    /// b.start_table();
    /// b.add_bytes(0, &[1, 0, 2, 0], 2)?; // struct { a: short; b: short; } as a schema lays it out
    /// b.add_bytes(1, &7u32.to_le_bytes(), 4)?;
    /// let t = b.end_table()?;
    /// let bytes = b.finish(t, None)?;
    /// let t: Table = flatforge::root(bytes)?;
    /// let at = t.position() + usize::from(t.field_offset(0));
    /// assert_eq!(bytes[at..at + 4], [1, 0, 2, 0]);
    /// assert_eq!(t.get::<u32>(1)?, Some(7));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn add_bytes(&mut self, slot: usize, bytes: &[u8], align: usize) -> Result<(), BuildError> {
        self.reserve(Self::checked_align(align)?, bytes.len(), 0)?;
        self.put_bytes(bytes);
        self.track(slot);
        Ok(())
    }

    /// Adds an offset field (string, vector, table, union value).
    ///
    /// ```
    /// use flatforge::{Table, Vector};
    /// let mut b = flatforge::Builder::new();
    /// let name = b.create_string("Orc")?;
    /// let inventory = b.create_vector(&[1u8, 2])?;
    /// b.start_table();
    /// b.add_offset(0, name)?;
    /// b.add_offset(1, inventory)?;
    /// let t = b.end_table()?;
    /// let t: Table = flatforge::root(b.finish(t, None)?)?;
    /// assert_eq!(t.get::<&str>(0)?, Some("Orc"));
    /// assert_eq!(t.get::<Vector<u8>>(1)?.map(|v| v.as_slice()), Some(&[1u8, 2][..]));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline]
    pub fn add_offset<T: ?Sized>(
        &mut self,
        slot: usize,
        offset: Offset<T>,
    ) -> Result<(), BuildError> {
        self.reserve(4, 4, 0)?;
        self.put_offset(offset.value);
        self.track(slot);
        Ok(())
    }

    /// Adds a 64-bit offset field (`offset64`, `vector64`): 8 bytes, 8-aligned, pointing to an
    /// object written with [`far`](Self::far).
    ///
    /// ```
    /// use flatforge::{Far, Table};
    /// let mut b = flatforge::Builder::new();
    /// let s = b.far()?.create_string("far away")?;
    /// b.start_table();
    /// b.add_offset64(0, s)?;
    /// let t = b.end_table()?;
    /// let bytes = b.finish(t, None)?;
    /// let t: Table = flatforge::root(bytes)?;
    /// assert_eq!(t.get::<Far<&str>>(0)?.map(|s| s.0), Some("far away"));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline]
    pub fn add_offset64<T: ?Sized>(
        &mut self,
        slot: usize,
        offset: Offset64<T>,
    ) -> Result<(), BuildError> {
        self.reserve(8, 8, 0)?;
        self.with_room(|r| r.put_offset64(offset.value));
        self.track(slot);
        Ok(())
    }

    /// A writer for the strings and vectors that 64-bit offsets point to (`offset64` and
    /// `vector64` fields). They go first, into a region at the end of the finished buffer, so that
    /// 32-bit offsets never have to span them: the layout of C++'s `FlatBufferBuilder64`. Once
    /// anything else has been written (in this buffer, or in the nested flatbuffer being built),
    /// this returns [`BuildError::FarAfterNear`].
    ///
    /// ```
    /// use flatforge::{Far, Table, Vector64};
    /// let mut b = flatforge::Builder::new();
    /// let mut far = b.far()?;
    /// let big = far.create_vector64(&[1u16, 2, 3])?; // 64-bit length
    /// let name = far.create_string("far")?; // 32-bit length, 64-bit offset
    /// let near = b.create_string("near")?;
    /// assert!(b.far().is_err()); // the 64-bit region is closed now
    /// b.start_table();
    /// b.add_offset64(0, big)?;
    /// b.add_offset64(1, name)?;
    /// b.add_offset(2, near)?;
    /// let t = b.end_table()?;
    /// let bytes = b.finish(t, None)?;
    ///
    /// let t: Table = flatforge::root(bytes)?;
    /// let big = t.get::<Vector64<u16>>(0)?.unwrap().0;
    /// assert_eq!(big.iter().collect::<Vec<_>>(), [1, 2, 3]);
    /// assert_eq!(t.get::<Far<&str>>(1)?.unwrap().0, "far");
    /// assert_eq!(t.get::<&str>(2)?, Some("near"));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline]
    pub fn far(&mut self) -> Result<FarWriter<'_>, BuildError> {
        let near = self.len() - self.floor;
        if near != 0 {
            return Err(BuildError::FarAfterNear { near });
        }
        Ok(FarWriter { b: self })
    }

    /// Closes the table opened by [`start_table`](Self::start_table): writes it and its vtable
    /// (or reuses an identical vtable written before).
    ///
    /// ```
    /// use flatforge::{Table, Vector};
    /// let mut b = flatforge::Builder::new();
    /// let mut monsters = Vec::new();
    /// for hp in [10i16, 20] {
    ///     b.start_table();
    ///     b.add_scalar(1, hp, 0)?;
    ///     monsters.push(b.end_table()?);
    /// }
    /// let v = b.create_vector_of_offsets(&monsters)?;
    /// let v: Vector<Table> = flatforge::root(b.finish(v, None)?)?;
    /// let (first, second) = (v.get(0).unwrap(), v.get(1).unwrap());
    /// assert_eq!(second.get::<i16>(1)?, Some(20));
    /// assert_eq!(first.vtable(), second.vtable()); // one vtable, shared
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    ///
    /// # Panics
    /// If no table is open.
    pub fn end_table(&mut self) -> Result<Offset<Table<'static>>, BuildError> {
        assert!(self.in_table, "end_table called without start_table");
        self.in_table = false;
        self.reserve(4, 4, 0)?;
        self.put::<i32>(0);
        let object = self.len();
        let size = object - self.table_start;
        if size > 0xFFFF {
            return Err(BuildError::TableTooLarge { size });
        }
        // Tested before adding 1: a caller's slot may be `usize::MAX`.
        let max_slot = self.fields.iter().map(|&(s, _)| s).max();
        if let Some(slot) = max_slot.filter(|&s| s > MAX_SLOT) {
            return Err(BuildError::SlotTooLarge { slot });
        }
        let len = 4 + 2 * max_slot.map_or(0, |s| s + 1);
        // The entries say where each field ends, counted from the table's end, as `TableWriter`
        // collects them; `fill_vtable` turns them into offsets from the table's start.
        let mut vt = core::mem::take(&mut self.vtable);
        vt.clear();
        vt.resize(len, 0);
        for &(slot, at) in &self.fields {
            let at = (at as usize - self.table_start) as u16;
            vt[4 + 2 * slot..6 + 2 * slot].copy_from_slice(&at.to_le_bytes());
        }
        fill_vtable(&mut vt, len, size as u16);
        let result = self.reserve(2, len, 0).map(|()| {
            let (vtables, floor) = (&mut self.vtables, self.floor);
            let mut room = Room {
                buf: &mut self.buf,
                head: self.head,
            };
            let table = room.write_vtable(vtables, floor, object, &vt);
            self.head = room.head;
            table
        });
        self.vtable = vt;
        result
    }

    /// Starts writing a table in one shot: reserves room for `max_inline_size` bytes of fields (the
    /// sum of the sizes of all fields that may be written) aligned to `max_align`, plus the vtable
    /// offset. `VT` is the size of the largest vtable, `4 + 2 * number_of_slots`.
    ///
    /// Add fields in descending order of size (so none needs padding), then call
    /// [`TableWriter::finish`]. Fields of more than 65528 bytes in all are
    /// [`BuildError::TableTooLarge`], a `VT` of more than 32765 slots (a vtable that would not fit
    /// its 16-bit size) [`BuildError::SlotTooLarge`]. An alignment that is not a power of two is
    /// [`BuildError::InvalidAlignment`]; 0 is taken as 1.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let name = b.create_string("TestName")?;
    /// // table { 0: string, 1: int, 2: short }
    /// let mut t = b.table_writer::<10>(4 + 4 + 2, 4)?;
    /// t.add_offset(0, name);
    /// t.add_scalar::<i32>(1, 100, 0);
    /// t.add_scalar::<i16>(2, 50, 0);
    /// let root = t.finish()?;
    /// let bytes = b.finish(root, None)?;
    /// let t: flatforge::Table = flatforge::root(bytes)?;
    /// assert_eq!(t.get::<i16>(2)?, Some(50));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn table_writer<const VT: usize>(
        &mut self,
        max_inline_size: usize,
        max_align: usize,
    ) -> Result<TableWriter<'_, VT>, BuildError> {
        assert!(!self.in_table, "table_writer called while a table is open");
        // These tests fold away for constant arguments, as generated code passes. A vtable of more
        // slots than `MAX_SLOT + 1` would not fit its 16-bit size.
        if VT > 4 + 2 * (MAX_SLOT + 1) {
            return Err(BuildError::SlotTooLarge {
                slot: (VT - 4) / 2 - 1,
            });
        }
        if max_inline_size > 0xFFFF - 7 {
            return Err(BuildError::TableTooLarge {
                size: max_inline_size.saturating_add(7),
            });
        }
        let max_align = Self::checked_align(max_align)?;
        // Room: the fields, up to 3 bytes of padding, the 4-byte soffset and the vtable, so that
        // `finish` needs no check of its own; then the alignment padding.
        let fixed = max_inline_size + 7 + VT;
        let pad = self.len().wrapping_neg() & (max_align - 1);
        let need = fixed + pad;
        if need > self.head {
            self.grow(need)?;
        }
        let align = max_align.max(4);
        if align > self.min_align {
            self.min_align = align;
        }
        let Builder {
            buf,
            head,
            vtables,
            floor,
            force_defaults,
            ..
        } = self;
        let (below, data) = buf.split_at_mut(*head);
        let room = &mut below[*head - need..];
        if pad <= 8 {
            // One 8-byte store instead of a `memset` call for a few bytes (`fixed` is more than 8);
            // the zeros below the padding land in room that the table overwrites or leaves free.
            room[need - 8..].copy_from_slice(&[0; 8]);
        } else {
            room[fixed..].fill(0);
        }
        Ok(TableWriter {
            room,
            data,
            head,
            vtables,
            floor: *floor,
            force_defaults: *force_defaults,
            start: fixed,
            pos: fixed,
            slots: 0,
            vtable: [0; VT],
        })
    }

    /// Finishes the buffer with `root` as its root table (or other object) and an optional file
    /// identifier, and returns the finished bytes.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let s = b.create_string("x")?;
    /// let bytes = b.finish(s, Some(b"ABCD"))?;
    /// assert_eq!(&bytes[4..8], b"ABCD");
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    #[inline]
    pub fn finish<T: ?Sized>(
        &mut self,
        root: Offset<T>,
        file_identifier: Option<&[u8; 4]>,
    ) -> Result<&[u8], BuildError> {
        self.finish_root(root.value, file_identifier, 0, 0)?;
        Ok(self.finished_data())
    }

    /// Finishes the buffer like [`finish`](Self::finish), preceded by its size as a 32-bit prefix.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let s = b.create_string("x")?;
    /// let bytes = b.finish_size_prefixed(s, None)?;
    /// assert_eq!(u32::from_le_bytes(bytes[..4].try_into().unwrap()) as usize, bytes.len() - 4);
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    #[inline]
    pub fn finish_size_prefixed<T: ?Sized>(
        &mut self,
        root: Offset<T>,
        file_identifier: Option<&[u8; 4]>,
    ) -> Result<&[u8], BuildError> {
        self.finish_root(root.value, file_identifier, 4, 0)?;
        Ok(self.finished_data())
    }

    /// Finishes the buffer like [`finish`](Self::finish), preceded by its size as a 64-bit prefix,
    /// as C++'s `FlatBufferBuilder64` writes size-prefixed buffers (and the code generated for a
    /// schema with 64-bit offsets reads them); the buffer is then 8-aligned.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let s = b.create_string("x")?;
    /// let bytes = b.finish_size_prefixed64(s, None)?;
    /// assert_eq!(u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize, bytes.len() - 8);
    /// let opts = flatforge::VerifierOptions::default().with_size_prefixed64(true);
    /// assert_eq!(flatforge::root_with_options::<&str>(bytes, &opts)?, "x");
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn finish_size_prefixed64<T: ?Sized>(
        &mut self,
        root: Offset<T>,
        file_identifier: Option<&[u8; 4]>,
    ) -> Result<&[u8], BuildError> {
        self.finish_root(root.value, file_identifier, 8, 0)?;
        Ok(self.finished_data())
    }

    /// Finishes the buffer like [`finish`](Self::finish) and reserves `prefix_len` zeroed bytes
    /// before it (for a frame header, say); returns the prefix and the buffer as one mutable slice.
    /// The FlatBuffer is aligned relative to its own start, after the prefix. A prefix longer than
    /// the size limit is [`BuildError::BufferTooLarge`].
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let s = b.create_string("payload")?;
    /// let frame = b.finish_with_prefix(s, None, 6)?;
    /// let payload_len = frame.len() - 6;
    /// frame[..4].copy_from_slice(&(payload_len as u32).to_le_bytes());
    /// frame[4..6].copy_from_slice(&[0xF1, 0x01]); // e.g. a message kind
    /// assert_eq!(flatforge::root::<&str>(&frame[6..])?, "payload");
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline]
    pub fn finish_with_prefix<T: ?Sized>(
        &mut self,
        root: Offset<T>,
        file_identifier: Option<&[u8; 4]>,
        prefix_len: usize,
    ) -> Result<&mut [u8], BuildError> {
        // Bounded by the limit, the prefix cannot overflow the sums in `reserve`.
        if prefix_len > self.max_size {
            return Err(BuildError::BufferTooLarge {
                requested: (self.len() as u64).saturating_add(prefix_len as u64),
                limit: self.max_size,
            });
        }
        self.finish_root(root.value, file_identifier, 0, prefix_len)?;
        let head = self.head;
        Ok(&mut self.buf[head..])
    }

    /// The length of the buffer that [`finish`](Self::finish) would return now, with a file
    /// identifier if `file_identifier` is true: what [`finish_into`](Self::finish_into) writes.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let s = b.create_string("x")?;
    /// let len = b.finished_len(true);
    /// assert_eq!(b.finish(s, Some(b"ABCD"))?.len(), len);
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    #[inline(always)]
    pub fn finished_len(&self, file_identifier: bool) -> usize {
        self.finished_len_with(file_identifier, false)
    }

    /// The length of the buffer that [`finish_size_prefixed`](Self::finish_size_prefixed) would
    /// return now (the size prefix included), with a file identifier if `file_identifier` is true:
    /// what [`finish_size_prefixed_into`](Self::finish_size_prefixed_into) writes.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let v = b.create_vector(&[1u64])?; // 8-aligned: the prefix may change the padding
    /// let len = b.finished_size_prefixed_len(false);
    /// assert_eq!(b.finish_size_prefixed(v, None)?.len(), len);
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    #[inline(always)]
    pub fn finished_size_prefixed_len(&self, file_identifier: bool) -> usize {
        self.finished_len_with(file_identifier, true)
    }

    /// [`finished_len`](Self::finished_len), with a 32-bit size prefix if `size_prefix`.
    #[inline(always)]
    fn finished_len_with(&self, file_identifier: bool, size_prefix: bool) -> usize {
        let head = 4 + if file_identifier { 4 } else { 0 } + if size_prefix { 4 } else { 0 };
        let len = self.len() + head;
        len + (len.wrapping_neg() & (self.min_align - 1))
    }

    /// Writes the buffer that [`finish`](Self::finish) would return into the start of `out` and
    /// returns its length ([`finished_len`](Self::finished_len)), or `None` (writing nothing) if
    /// `out` is shorter. The builder is left as it is: a message goes into a batch, a ring buffer
    /// or shared memory with one copy, and nothing is written into the builder, which can be
    /// finished again, or added to, afterwards.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let s = b.create_string("copied out")?;
    /// let mut out = [0xFF; 64];
    /// let len = b.finish_into(s, Some(b"ABCD"), &mut out).unwrap();
    /// assert_eq!(flatforge::root::<&str>(&out[..len])?, "copied out");
    /// assert_eq!(&out[..len], b.finish(s, Some(b"ABCD"))?);
    /// assert_eq!(b.finish_into(s, None, &mut out[..len - 8]), None); // too short
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    ///
    /// # Panics
    /// If a table is open.
    #[inline(always)]
    pub fn finish_into<T: ?Sized>(
        &self,
        root: Offset<T>,
        file_identifier: Option<&[u8; 4]>,
        out: &mut [u8],
    ) -> Option<usize> {
        self.finish_into_with(root.value, file_identifier, false, out)
    }

    /// [`finish_into`](Self::finish_into) for the buffer that
    /// [`finish_size_prefixed`](Self::finish_size_prefixed) would return: preceded by its size as
    /// a 32-bit prefix (a plain stream's frame, say).
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let s = b.create_string("copied out")?;
    /// let mut out = [0xFF; 64];
    /// let len = b.finish_size_prefixed_into(s, None, &mut out).unwrap();
    /// assert_eq!(&out[..len], b.finish_size_prefixed(s, None)?);
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    ///
    /// # Panics
    /// If a table is open.
    #[inline(always)]
    pub fn finish_size_prefixed_into<T: ?Sized>(
        &self,
        root: Offset<T>,
        file_identifier: Option<&[u8; 4]>,
        out: &mut [u8],
    ) -> Option<usize> {
        self.finish_into_with(root.value, file_identifier, true, out)
    }

    /// [`finish_into`](Self::finish_into), with a 32-bit size prefix if `size_prefix`.
    #[inline(always)]
    fn finish_into_with(
        &self,
        root: u32,
        file_identifier: Option<&[u8; 4]>,
        size_prefix: bool,
        out: &mut [u8],
    ) -> Option<usize> {
        assert!(!self.in_table, "finish called while a table is open");
        let len = self.finished_len_with(file_identifier.is_some(), size_prefix);
        let out = out.get_mut(..len)?;
        let data = self.finished_data();
        let start = len - data.len();
        // The size prefix, the root offset (from where it is stored), the identifier, then the
        // alignment padding up to the data: when that is at most 16 bytes, one 16-byte store, of
        // which the data overwrites what is past it.
        let prefix = if size_prefix { 4 } else { 0 };
        let root = ((len - prefix) as u32).wrapping_sub(root);
        let id = file_identifier.map_or(0, |id| u32::from_le_bytes(*id));
        let words = u128::from(root) | u128::from(id) << 32;
        let head = if size_prefix {
            u128::from((len - 4) as u32) | words << 32
        } else {
            words
        };
        if start <= 16 && len >= 16 {
            out[..16].copy_from_slice(&head.to_le_bytes());
        } else {
            out[..start].fill(0);
            out[..prefix].copy_from_slice(&(len as u32 - 4).to_le_bytes()[..prefix]);
            out[prefix..prefix + 4].copy_from_slice(&root.to_le_bytes());
            if let Some(id) = file_identifier {
                out[prefix + 4..prefix + 8].copy_from_slice(id);
            }
        }
        copy_message(&mut out[start..], data);
        Some(len)
    }

    /// Aligns the buffer for its root, writes the file identifier, the root offset and the size
    /// prefix of `size_prefix` bytes (each if asked for: 0, 4 or 8), then `prefix_len` zeros; all
    /// with one check for room.
    #[inline(always)]
    fn finish_root(
        &mut self,
        root: u32,
        file_identifier: Option<&[u8; 4]>,
        size_prefix: usize,
        prefix_len: usize,
    ) -> Result<(), BuildError> {
        assert!(!self.in_table, "finish called while a table is open");
        let align = self.min_align.max(size_prefix);
        let ident = if file_identifier.is_some() { 4 } else { 0 };
        self.reserve(align, 4 + ident + size_prefix, prefix_len)?;
        let mut r = Room {
            buf: &mut self.buf,
            head: self.head,
        };
        if let Some(id) = file_identifier {
            r.put_bytes(id);
        }
        r.put_offset(root);
        if size_prefix == 8 {
            r.put::<u64>(r.len() as u64);
        } else if size_prefix == 4 {
            r.put::<u32>(r.len() as u32);
        }
        let head = r.head - prefix_len;
        zero_bytes(&mut r.buf[head..head + prefix_len]);
        self.head = head;
        Ok(())
    }

    /// Starts a nested flatbuffer, built in place: write its objects as usual, then call
    /// [`end_nested`](Self::end_nested) with its root. It shares no vtables or strings with the
    /// enclosing buffer, so it verifies as a buffer of its own.
    ///
    /// ```
    /// use flatforge::{Table, Vector};
    /// let mut b = flatforge::Builder::new();
    /// let nested = b.start_nested()?;
    /// b.start_table();
    /// b.add_scalar::<u64>(0, 7, 0)?;
    /// let inner = b.end_table()?;
    /// let bytes = b.end_nested(nested, inner, None)?;
    /// b.start_table();
    /// b.add_offset(0, bytes)?;
    /// let outer = b.end_table()?;
    /// let buf = b.finish(outer, None)?;
    ///
    /// let outer: Table = flatforge::root(buf)?;
    /// let bytes = outer.get::<Vector<u8>>(0)?.unwrap();
    /// let inner: Table = flatforge::root(bytes.as_slice())?;
    /// assert_eq!(inner.get::<u64>(0)?, Some(7));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn start_nested(&mut self) -> Result<NestedStart, BuildError> {
        let min_align = self.min_align;
        // Align the nested buffer's end to the largest alignment flatc allows (32), so that its
        // objects are aligned both in the enclosing buffer and relative to its own start.
        self.reserve(32, 0, 0)?;
        let start = NestedStart {
            used: self.len(),
            min_align,
            floor: self.floor,
        };
        self.min_align = 4;
        // The nested buffer's data (which may start with a 64-bit region of its own) starts here.
        self.floor = start.used;
        Ok(start)
    }

    /// Finishes a nested flatbuffer started with [`start_nested`](Self::start_nested) with `root`
    /// and an optional file identifier, and returns the offset of the `[ubyte]` vector holding it.
    /// A `start` taken before a [`reset`](Self::reset) that left less data than `start` counted is
    /// [`BuildError::InvalidNestedStart`].
    ///
    /// ```
    /// use flatforge::{Table, Vector};
    /// let mut b = flatforge::Builder::new();
    /// let start = b.start_nested()?;
    /// let s = b.create_string("inner")?;
    /// let nested = b.end_nested(start, s, Some(b"INNR"))?;
    /// b.start_table();
    /// b.add_offset(0, nested)?;
    /// let t = b.end_table()?;
    /// let t: Table = flatforge::root(b.finish(t, None)?)?;
    /// let nested = t.get::<Vector<u8>>(0)?.unwrap().as_slice();
    /// assert!(flatforge::buffer_has_identifier(nested, b"INNR", false));
    /// assert_eq!(flatforge::root::<&str>(nested)?, "inner");
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn end_nested<T: ?Sized>(
        &mut self,
        start: NestedStart,
        root: Offset<T>,
        file_identifier: Option<&[u8; 4]>,
    ) -> Result<Offset<[u8]>, BuildError> {
        // While the nested buffer is open its data starts at or after where it started (`floor`
        // only moves back in `end_nested` and `reset`).
        if start.used > self.floor {
            return Err(BuildError::InvalidNestedStart {
                started: start.used,
                floor: self.floor,
            });
        }
        self.finish_root(root.value, file_identifier, 0, 0)?;
        let len = self.len() - start.used;
        self.reserve(4, 0, 4)?;
        self.put::<u32>(len as u32);
        self.min_align = self.min_align.max(start.min_align);
        self.floor = start.floor;
        Ok(Offset::new(self.len() as u32))
    }

    /// Writes an already finished flatbuffer as a nested flatbuffer (`[ubyte]`), its data aligned to
    /// `align` (the nested buffer's alignment; 8 is always enough without `force_align`). An
    /// alignment that is not a power of two is [`BuildError::InvalidAlignment`]; 0 is taken as 1.
    ///
    /// ```
    /// use flatforge::{Builder, Table, Vector};
    /// let mut inner = Builder::new();
    /// let s = inner.create_string("inner")?;
    /// let inner = inner.finish(s, None)?;
    ///
    /// let mut b = Builder::new();
    /// let nested = b.create_nested_flatbuffer(inner, 8)?;
    /// b.start_table();
    /// b.add_offset(0, nested)?;
    /// let t = b.end_table()?;
    /// let bytes = b.finish(t, None)?;
    /// let t: Table = flatforge::root(bytes)?;
    /// let nested = t.get::<Vector<u8>>(0)?.unwrap().as_slice();
    /// assert_eq!(flatforge::root::<&str>(nested)?, "inner");
    /// assert_eq!((nested.as_ptr() as usize - bytes.as_ptr() as usize) % 8, 0);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn create_nested_flatbuffer(
        &mut self,
        bytes: &[u8],
        align: usize,
    ) -> Result<Offset<[u8]>, BuildError> {
        self.reserve(Self::checked_align(align)?.max(4), bytes.len(), 4)?;
        self.put_bytes(bytes);
        self.put::<u32>(bytes.len() as u32);
        Ok(Offset::new(self.len() as u32))
    }

    /// The table written at `offset`, read from the unfinished buffer; `None` if `offset` is not a
    /// table written by this builder.
    fn written_table<T: ?Sized>(&self, offset: Offset<T>) -> Option<Table<'_>> {
        let data = self.finished_data();
        let pos = data.len().checked_sub(offset.value as usize)?;
        Table::new_with_options(data, pos, &UNFINISHED).ok()
    }

    /// Sorts offsets of tables written by this builder by comparing the tables (`None` for an
    /// offset that is not a table written by this builder). `compare` must be a total order, as for
    /// [`slice::sort_by`], which may panic otherwise (compare float keys with [`crate::key_cmp`]).
    ///
    /// The tables are read from the unfinished buffer, whose start is not aligned yet: read their
    /// fields with [`Table::get_with_options`] and alignment checks off, as [`Table::get`] may
    /// find them misaligned.
    ///
    /// ```
    /// use flatforge::{Table, Vector, VerifierOptions};
    /// let mut b = flatforge::Builder::new();
    /// let mut people = Vec::new();
    /// for (name, age) in [("Bo", 30u8), ("Al", 30), ("Cy", 20)] {
    ///     let name = b.create_string(name)?;
    ///     b.start_table();
    ///     b.add_offset(0, name)?;
    ///     b.add_scalar(1, age, 0)?;
    ///     people.push(b.end_table()?);
    /// }
    /// // By age, then by name.
    /// fn key(t: Option<Table<'_>>) -> Option<(u8, &str)> {
    ///     let opts = VerifierOptions::default().with_check_alignment(false);
    ///     let t = t?;
    ///     let age = t.get_with_options::<u8>(1, &opts).ok()?.unwrap_or(0);
    ///     Some((age, t.get_with_options::<&str>(0, &opts).ok()??))
    /// }
    /// b.sort_tables_by(&mut people, |x, y| key(x).cmp(&key(y)));
    /// let v = b.create_vector_of_offsets(&people)?;
    /// let v: Vector<Table> = flatforge::root(b.finish(v, None)?)?;
    /// let names: Vec<&str> = v.iter().map(|t| t.get::<&str>(0).unwrap().unwrap()).collect();
    /// assert_eq!(names, ["Cy", "Al", "Bo"]);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn sort_tables_by<T: ?Sized>(
        &self,
        offsets: &mut [Offset<T>],
        mut compare: impl FnMut(Option<Table<'_>>, Option<Table<'_>>) -> Ordering,
    ) {
        offsets.sort_by(|a, b| compare(self.written_table(*a), self.written_table(*b)));
    }

    /// Sorts offsets of tables written by this builder by the scalar key in `slot` (absent keys count
    /// as `default`), for a vector readers can binary-search. Floats sort with NaN keys after every
    /// number, in the order of [`key_cmp`](crate::key_cmp).
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let mut stats = Vec::new();
    /// for count in [3u16, 1, 2] {
    ///     b.start_table();
    ///     b.add_scalar(0, count, 0)?;
    ///     stats.push(b.end_table()?);
    /// }
    /// b.sort_by_scalar_field(&mut stats, 0, 0u16);
    /// let v = b.create_vector_of_offsets(&stats)?;
    /// let bytes = b.finish(v, None)?;
    /// let v: flatforge::Vector<flatforge::Table> = flatforge::root(bytes)?;
    /// let keys: Vec<u16> = v.iter().map(|t| t.get::<u16>(0).unwrap().unwrap()).collect();
    /// assert_eq!(keys, [1, 2, 3]);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn sort_by_scalar_field<T: ?Sized, K>(
        &self,
        offsets: &mut [Offset<T>],
        slot: usize,
        default: K,
    ) where
        K: Scalar + PartialOrd + for<'a> crate::Follow<'a>,
    {
        let key = |o: &Offset<T>| {
            self.written_table(*o)
                .and_then(|t| t.get_with_options::<K>(slot, &UNFINISHED).ok().flatten())
                .unwrap_or(default)
        };
        // A total order: `sort_by` may panic on a comparison that is not one.
        offsets.sort_by(|a, b| crate::key_cmp(&key(a), &key(b)));
    }

    /// Sorts offsets of tables written by this builder by the string key in `slot` (byte-wise, as
    /// flatc does; absent keys first).
    ///
    /// ```
    /// use flatforge::{Table, Vector};
    /// let mut b = flatforge::Builder::new();
    /// let mut words = Vec::new();
    /// for word in [Some("pear"), Some("Zebra"), None, Some("apple")] {
    ///     let word = word.map(|w| b.create_string(w)).transpose()?;
    ///     b.start_table();
    ///     if let Some(w) = word {
    ///         b.add_offset(0, w)?;
    ///     }
    ///     words.push(b.end_table()?);
    /// }
    /// b.sort_by_string_field(&mut words, 0);
    /// let v = b.create_vector_of_offsets(&words)?;
    /// let v: Vector<Table> = flatforge::root(b.finish(v, None)?)?;
    /// let keys: Vec<Option<&str>> = v.iter().map(|t| t.get::<&str>(0).unwrap()).collect();
    /// assert_eq!(keys, [None, Some("Zebra"), Some("apple"), Some("pear")]);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn sort_by_string_field<T: ?Sized>(&self, offsets: &mut [Offset<T>], slot: usize) {
        offsets.sort_by_cached_key(|o| {
            self.written_table(*o)
                .and_then(|t| t.get_with_options::<&str>(slot, &UNFINISHED).ok().flatten())
        });
    }
}

/// Writes the objects that 64-bit offsets point to (`offset64` and `vector64` fields) into the
/// 64-bit region at the end of the buffer; made by [`Builder::far`], which checks that nothing else
/// has been written yet.
///
/// Strings and vectors with a 32-bit length return an [`Offset64<str>`] or `Offset64<[T]>`
/// (`offset64` fields), vectors with a 64-bit length an `Offset64<Vector64<'static, T>>`
/// (`vector64` fields). Their elements are scalars or structs: 64-bit offsets reach no tables,
/// which would have to be written after the 32-bit data that they refer to.
///
/// ```
/// use flatforge::{BuildError, Far, FarWriter, Table, Vector64};
/// let mut b = flatforge::Builder::new();
/// let mut far: FarWriter = b.far()?;
/// let samples = far.create_vector64(&[0.5f32, 1.5])?;
/// let label = far.create_string("samples")?;
/// let note = b.create_string("near")?; // closes the 64-bit region
/// assert!(matches!(b.far(), Err(BuildError::FarAfterNear { .. })));
/// b.start_table();
/// b.add_offset64(0, samples)?;
/// b.add_offset64(1, label)?;
/// b.add_offset(2, note)?;
/// let t = b.end_table()?;
/// let t: Table = flatforge::root(b.finish(t, None)?)?;
/// assert_eq!(t.get::<Vector64<f32>>(0)?.unwrap().0.get(1), Some(1.5));
/// assert_eq!(t.get::<Far<&str>>(1)?.unwrap().0, "samples");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct FarWriter<'b> {
    b: &'b mut Builder,
}

impl FarWriter<'_> {
    /// Extends the 64-bit region over what was just written, and returns its offset.
    #[inline(always)]
    fn written<T: ?Sized>(&mut self) -> Offset64<T> {
        let len = self.b.len();
        self.b.floor = len;
        Offset64::new(len as u64)
    }

    /// Writes a string with a 32-bit length (for an `offset64` string field).
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let s = b.far()?.create_string("héllo")?;
    /// assert_eq!(s.value(), 12); // 4 + 6 + 1, padded to 4
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    #[inline]
    pub fn create_string(&mut self, s: &str) -> Result<Offset64<str>, BuildError> {
        self.b.create_string(s)?;
        Ok(self.written())
    }

    /// Writes a vector of scalars with a 32-bit length (for an `offset64` vector field).
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let v = b.far()?.create_vector(&[1i8, -2, 3])?;
    /// assert_eq!(v.value(), 8);
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    #[inline]
    pub fn create_vector<T: Scalar>(&mut self, values: &[T]) -> Result<Offset64<[T]>, BuildError> {
        self.b.create_vector(values)?;
        Ok(self.written())
    }

    /// Writes a vector of scalars from an iterator, with a 32-bit length (as
    /// [`Builder::create_vector_from_iter`]).
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let v = b.far()?.create_vector_from_iter((1..4u32).map(|x| x * 10))?;
    /// assert_eq!(v.value(), 16);
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    #[inline]
    pub fn create_vector_from_iter<T: Scalar>(
        &mut self,
        values: impl ExactSizeIterator<Item = T>,
    ) -> Result<Offset64<[T]>, BuildError> {
        self.b.create_vector_from_iter(values)?;
        Ok(self.written())
    }

    /// Writes a vector of structs with a 32-bit length (for an `offset64` vector field).
    ///
    /// ```
    /// # use flatforge::Struct;
    /// #[derive(Clone, Copy)]
    /// #[repr(transparent)]
    /// struct Pair([u8; 2]);
    /// // SAFETY: a transparent wrapper of [u8; 2].
    /// unsafe impl Struct for Pair { const ALIGN: usize = 1; }
    ///
    /// let mut b = flatforge::Builder::new();
    /// let v = b.far()?.create_vector_of_structs(&[Pair([1, 2])])?;
    /// assert_eq!(v.value(), 8);
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    #[inline]
    pub fn create_vector_of_structs<S: Struct>(
        &mut self,
        values: &[S],
    ) -> Result<Offset64<[S]>, BuildError> {
        self.b.create_vector_of_structs(values)?;
        Ok(self.written())
    }

    /// Writes a vector of scalars with a 64-bit length (for a `vector64` field): the length and
    /// the elements are 8-aligned (and the elements aligned to their size).
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let v = b.far()?.create_vector64(&[7u8, 8, 9])?;
    /// let bytes = b.finished_data();
    /// let at = bytes.len() - v.value() as usize;
    /// assert_eq!(bytes[at..at + 11], [3, 0, 0, 0, 0, 0, 0, 0, 7, 8, 9]);
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    #[inline]
    pub fn create_vector64<T: Scalar>(
        &mut self,
        values: &[T],
    ) -> Result<Offset64<Vector64<'static, T>>, BuildError> {
        let b = &mut *self.b;
        b.reserve(T::SIZE.max(8), core::mem::size_of_val(values), 8)?;
        b.put_scalars(values);
        b.put::<u64>(values.len() as u64);
        Ok(self.written())
    }

    /// Writes a vector of scalars from an iterator with a 64-bit length; the rest is as for
    /// [`Builder::create_vector_from_iter`].
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let v = b.far()?.create_vector64_from_iter([true, false].into_iter())?;
    /// assert_eq!(v.value(), 16); // 8-byte length, 2 bytes, padding
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    pub fn create_vector64_from_iter<T: Scalar>(
        &mut self,
        values: impl ExactSizeIterator<Item = T>,
    ) -> Result<Offset64<Vector64<'static, T>>, BuildError> {
        let b = &mut *self.b;
        let len = values.len();
        let bytes = b.checked_bytes(len, T::SIZE)?;
        b.reserve(T::SIZE.max(8), bytes, 8)?;
        b.put_iter(values, bytes);
        b.put::<u64>(len as u64);
        Ok(self.written())
    }

    /// Writes a vector of structs with a 64-bit length (for a `vector64` field).
    ///
    /// ```
    /// # use flatforge::Struct;
    /// #[derive(Clone, Copy)]
    /// #[repr(transparent)]
    /// struct Pair([u8; 2]);
    /// // SAFETY: a transparent wrapper of [u8; 2].
    /// unsafe impl Struct for Pair { const ALIGN: usize = 1; }
    ///
    /// let mut b = flatforge::Builder::new();
    /// let v = b.far()?.create_vector64_of_structs(&[Pair([1, 2]), Pair([3, 4])])?;
    /// assert_eq!(v.value(), 16);
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    #[inline]
    pub fn create_vector64_of_structs<S: Struct>(
        &mut self,
        values: &[S],
    ) -> Result<Offset64<Vector64<'static, S>>, BuildError> {
        let b = &mut *self.b;
        b.reserve(S::ALIGN.max(8), core::mem::size_of_val(values), 8)?;
        b.put_bytes(structs_as_bytes(values));
        b.put::<u64>(values.len() as u64);
        Ok(self.written())
    }

    /// Pads the region so that the next vector, of `len` elements of `elem_size` bytes, starts
    /// aligned to `align` (a power of two; a field's `force_align`), as C++'s
    /// `ForceVectorAlignment64` does; nothing for an empty vector. An alignment that is not a
    /// power of two is [`BuildError::InvalidAlignment`]; 0 is taken as 1.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let mut far = b.far()?;
    /// far.create_vector(&[1u8])?;
    /// far.force_vector_alignment(3, 1, 32)?;
    /// let v = far.create_vector64(&[1u8, 2, 3])?;
    /// b.start_table();
    /// b.add_offset64(0, v)?;
    /// let t = b.end_table()?;
    /// let bytes = b.finish(t, None)?.to_vec();
    /// let data = bytes.len() - v.value() as usize + 8;
    /// assert_eq!((data % 32, &bytes[data..data + 3]), (0, &[1u8, 2, 3][..]));
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    pub fn force_vector_alignment(
        &mut self,
        len: usize,
        elem_size: usize,
        align: usize,
    ) -> Result<(), BuildError> {
        if len == 0 {
            return Ok(());
        }
        let align = Builder::checked_align(align)?;
        let bytes = self.b.checked_bytes(len, elem_size)?;
        self.b.reserve(align, bytes, 0)?;
        self.b.floor = self.b.len();
        Ok(())
    }
}

/// Writes one table in a single pass; made by [`Builder::table_writer`].
///
/// Room for all fields and the vtable was reserved up front, so adding a field is a store and a
/// vtable entry; the entries are collected in a `[u8; VT]` on the stack, and
/// [`finish`](TableWriter::finish) hashes the finished vtable in registers, compares it with the
/// vtables written before, and writes it only if it is new.
///
/// Fields must be added in descending order of size (alignment), and their total size must not
/// exceed the `max_inline_size` given to [`Builder::table_writer`].
///
/// ```
/// use flatforge::{Table, TableWriter};
/// // table Stat { id: string; val: long; count: ushort; } (slots 0, 1, 2)
/// let mut b = flatforge::Builder::new();
/// let id = b.create_string("hits")?;
/// // 3 slots: a vtable of 4 + 2 * 3 bytes; fields of 8 + 4 + 2 bytes, the largest 8-aligned.
/// let mut t: TableWriter<10> = b.table_writer(8 + 4 + 2, 8)?;
/// t.add_scalar::<i64>(1, 1_000, 0); // largest first
/// t.add_offset(0, id);
/// t.add_scalar::<u16>(2, 3, 0);
/// let t = t.finish()?;
/// let t: Table = flatforge::root(b.finish(t, None)?)?;
/// assert_eq!(t.get::<&str>(0)?, Some("hits"));
/// assert_eq!((t.get::<i64>(1)?, t.get::<u16>(2)?), (Some(1_000), Some(3)));
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub struct TableWriter<'b, const VT: usize> {
    /// The room reserved right below the builder's data, of a length fixed by the table's layout:
    /// the table is written into it back to front, `room[pos..]` so far, and the builder's head
    /// moves down only in `finish`. Its length and the positions in it are in registers (and
    /// often known to the compiler), so writes into it need few checks.
    room: &'b mut [u8],
    /// The builder's data, where earlier vtables are found.
    data: &'b [u8],
    /// The builder's head (the start of `data`), set by `finish`.
    head: &'b mut usize,
    vtables: &'b mut Dedup,
    floor: usize,
    force_defaults: bool,
    /// Where the fields start: `room[start..]` is the alignment padding.
    start: usize,
    pos: usize,
    slots: usize,
    /// Bytes `4 + 2 * slot`: where the field of `slot` ends, counted from the table's end (0 when
    /// absent), as [`fill_vtable`] takes them. The first 4 bytes are unused.
    vtable: [u8; VT],
}

impl<const VT: usize> fmt::Debug for TableWriter<'_, VT> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TableWriter")
            .field("len", &self.len())
            .field("fields_len", &(self.start - self.pos))
            .field("slots", &self.slots)
            .finish_non_exhaustive()
    }
}

impl<const VT: usize> TableWriter<'_, VT> {
    /// The builder's length once the table is written as far as now.
    #[inline(always)]
    fn len(&self) -> usize {
        self.data.len() + (self.room.len() - self.pos)
    }

    /// Writes bytes below those written so far.
    #[inline(always)]
    fn put_bytes(&mut self, bytes: &[u8]) {
        let at = self.pos - bytes.len();
        self.room[at..self.pos].copy_from_slice(bytes);
        self.pos = at;
    }

    #[inline(always)]
    fn track(&mut self, slot: usize) {
        let at = (self.start - self.pos) as u16;
        self.vtable[4 + 2 * slot..6 + 2 * slot].copy_from_slice(&at.to_le_bytes());
        if slot >= self.slots {
            self.slots = slot + 1;
        }
    }

    /// Adds a scalar field unless it equals `default` (and defaults are not forced).
    ///
    /// ```
    /// use flatforge::Table;
    /// // table { hp: short = 100; mana: short = 150; }
    /// let mut b = flatforge::Builder::new();
    /// let mut t = b.table_writer::<8>(2 + 2, 2)?;
    /// t.add_scalar::<i16>(0, 100, 100); // the default: left out
    /// t.add_scalar::<i16>(1, 80, 150);
    /// let t = t.finish()?;
    /// let t: Table = flatforge::root(b.finish(t, None)?)?;
    /// assert_eq!((t.get::<i16>(0)?, t.get::<i16>(1)?), (None, Some(80)));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    ///
    /// # Panics
    /// If `slot` does not fit `VT`, or the fields exceed the reserved size.
    #[inline(always)]
    pub fn add_scalar<T: Scalar>(&mut self, slot: usize, value: T, default: T) {
        if !value.is_default(default) || self.force_defaults {
            self.add_scalar_always(slot, value);
        }
    }

    /// Adds a scalar field whatever its value (for optional scalars, which have no default).
    ///
    /// ```
    /// use flatforge::Table;
    /// // table { level: int = null; }
    /// let mut b = flatforge::Builder::new();
    /// let mut t = b.table_writer::<6>(4, 4)?;
    /// t.add_scalar_always::<i32>(0, 0);
    /// let t = t.finish()?;
    /// let t: Table = flatforge::root(b.finish(t, None)?)?;
    /// assert_eq!(t.get::<i32>(0)?, Some(0)); // present, though 0
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    ///
    /// # Panics
    /// As [`add_scalar`](Self::add_scalar).
    #[inline(always)]
    pub fn add_scalar_always<T: Scalar>(&mut self, slot: usize, value: T) {
        debug_assert!(
            self.len() % T::SIZE == 0,
            "fields must be added largest first"
        );
        self.put_bytes(value.to_le_array().as_ref());
        self.track(slot);
    }

    /// Adds a struct field.
    ///
    /// ```
    /// use flatforge::{Struct, Table};
    /// #[derive(Clone, Copy)]
    /// #[repr(transparent)]
    /// struct Pos([u8; 8]); // struct Pos { x: float; y: float; }
    /// // SAFETY: a transparent wrapper of [u8; 8].
    /// unsafe impl Struct for Pos { const ALIGN: usize = 4; }
    ///
    /// let mut pos = Pos([0; 8]);
    /// flatforge::write_scalar(&mut pos.0, 0, -1.0f32);
    /// // table { pos: Pos; alive: bool; }
    /// let mut b = flatforge::Builder::new();
    /// let mut t = b.table_writer::<8>(8 + 1, Pos::ALIGN)?;
    /// t.add_struct(0, &pos);
    /// t.add_scalar(1, true, false);
    /// let t = t.finish()?;
    /// let t: Table = flatforge::root(b.finish(t, None)?)?;
    /// let pos = t.get::<&Pos>(0)?.unwrap();
    /// assert_eq!(flatforge::read_scalar::<f32>(&pos.0, 0), -1.0);
    /// assert_eq!(t.get::<bool>(1)?, Some(true));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    ///
    /// # Panics
    /// As [`add_scalar`](Self::add_scalar).
    #[inline(always)]
    pub fn add_struct<S: Struct>(&mut self, slot: usize, value: &S) {
        debug_assert!(
            self.len() % S::ALIGN == 0,
            "fields must be added largest first"
        );
        self.put_bytes(struct_bytes(value));
        self.track(slot);
    }

    /// Adds an offset field (string, vector, table, union value).
    ///
    /// ```
    /// use flatforge::{Table, Vector};
    /// let mut b = flatforge::Builder::new();
    /// let name = b.create_string("Orc")?;
    /// let path = b.create_vector(&[1.0f32, 2.0])?;
    /// let mut t = b.table_writer::<8>(4 + 4, 4)?;
    /// t.add_offset(0, name);
    /// t.add_offset(1, path);
    /// let t = t.finish()?;
    /// let t: Table = flatforge::root(b.finish(t, None)?)?;
    /// assert_eq!(t.get::<&str>(0)?, Some("Orc"));
    /// assert_eq!(t.get::<Vector<f32>>(1)?.unwrap().last(), Some(2.0));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    ///
    /// # Panics
    /// As [`add_scalar`](Self::add_scalar).
    #[inline(always)]
    pub fn add_offset<T: ?Sized>(&mut self, slot: usize, offset: Offset<T>) {
        debug_assert!(self.len() % 4 == 0, "fields must be added largest first");
        let here = (self.len() + 4) as u32;
        self.put_bytes(&here.wrapping_sub(offset.value).to_le_bytes());
        self.track(slot);
    }

    /// Adds a 64-bit offset field (`offset64`, `vector64`), which is 8 bytes.
    ///
    /// ```
    /// use flatforge::{Far, Table};
    /// let mut b = flatforge::Builder::new();
    /// let s = b.far()?.create_string("far away")?;
    /// let mut t = b.table_writer::<6>(8, 8)?;
    /// t.add_offset64(0, s);
    /// let t = t.finish()?;
    /// let t: Table = flatforge::root(b.finish(t, None)?)?;
    /// assert_eq!(t.get::<Far<&str>>(0)?, Some(Far("far away")));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    ///
    /// # Panics
    /// As [`add_scalar`](Self::add_scalar).
    #[inline(always)]
    pub fn add_offset64<T: ?Sized>(&mut self, slot: usize, offset: Offset64<T>) {
        debug_assert!(self.len() % 8 == 0, "fields must be added largest first");
        let here = (self.len() + 8) as u64;
        self.put_bytes(&here.wrapping_sub(offset.value).to_le_bytes());
        self.track(slot);
    }

    /// Writes the vtable offset and the vtable (or reuses an identical one) and returns the table's
    /// offset.
    ///
    /// ```
    /// use flatforge::{Table, Vector};
    /// let mut b = flatforge::Builder::new();
    /// let mut points = Vec::new();
    /// for x in [1u32, 2] {
    ///     let mut t = b.table_writer::<6>(4, 4)?;
    ///     t.add_scalar(0, x, 0);
    ///     points.push(t.finish()?);
    /// }
    /// let v = b.create_vector_of_offsets(&points)?;
    /// let v: Vector<Table> = flatforge::root(b.finish(v, None)?)?;
    /// let (first, second) = (v.get(0).unwrap(), v.get(1).unwrap());
    /// assert_eq!(second.get::<u32>(0)?, Some(2));
    /// assert_eq!(first.vtable(), second.vtable()); // one vtable, shared
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    ///
    /// # Panics
    /// If the fields exceeded the reserved size.
    #[inline(always)]
    pub fn finish(mut self) -> Result<Offset<Table<'static>>, BuildError> {
        // Up to 3 bytes of padding, then the soffset (written last): one 8-byte store zeroes both.
        let pad = self.len().wrapping_neg() & 3;
        self.put_bytes(&[0; 8]);
        self.pos += 4 - pad;
        let object = self.len();
        let TableWriter {
            room,
            data,
            head,
            vtables,
            floor,
            start,
            pos: at,
            slots,
            mut vtable,
            ..
        } = self;
        let len = 4 + 2 * slots;
        // A small vtable is converted whole (its length is a constant), a large one up to `len`.
        let whole = if VT <= 36 { VT } else { len };
        fill_vtable(&mut vtable[..whole], len, (start - at) as u16);
        let vt = &vtable[..len];
        // `table_writer` reserved room for the vtable.
        let (soffset, pos) = match find_vtable(vtables, floor, data, vt) {
            Lookup::Found(off) => (soffset(off as usize, object), at),
            Lookup::Missing(hash) => {
                // Written right below the table: the entries that move into the dedup table
                // are those in the data (this one's hash is known).
                copy_bytes(&mut room[at - len..at], vt);
                vtables.insert((object + len) as u32, hash, data, vtable_hash_at);
                (len as i32, at - len)
            }
        };
        room[at..at + 4].copy_from_slice(&soffset.to_le_bytes());
        *head -= room.len() - pos;
        Ok(Offset::new(object as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Dedup::find` in a set whose key at offset `i` is `i` itself, hashed by `h`.
    fn find(d: &Dedup, h: impl Fn(u32) -> u32, key: u32) -> Option<u32> {
        match d.find(|| h(key), |off| off == key) {
            Lookup::Found(off) => Some(off),
            Lookup::Missing(_) => None,
        }
    }

    /// Inserts a missing `key` as the builder does: `find`, then `insert` with its hash.
    fn insert(d: &mut Dedup, h: impl Fn(u32) -> u32, key: u32) {
        match d.find(|| h(key), |off| off == key) {
            Lookup::Found(_) => panic!("{key} is already in the set"),
            Lookup::Missing(hash) => d.insert(key, hash, &[], |_, key| h(key)),
        }
    }

    #[test]
    fn dedup_moves_from_inline_to_heap_and_clears() {
        let mut d = Dedup::default();
        // Colliding hashes exercise linear probing.
        let h = |i: u32| i % 3;
        for i in 1..=100u32 {
            insert(&mut d, h, i);
        }
        assert!(!d.table.is_empty());
        for i in 1..=100u32 {
            assert_eq!(find(&d, h, i), Some(i));
        }
        assert_eq!(find(&d, h, 101), None);
        d.clear();
        assert_eq!(find(&d, h, 1), None);
        insert(&mut d, h, 9);
        assert_eq!(find(&d, h, 9), Some(9));
        // Past the inline entries again, the kept table is reused, zeroed: no old entry is back.
        let kept = d.table.len();
        for i in 201..=210u32 {
            insert(&mut d, h, i);
        }
        assert_eq!(d.table.len(), kept);
        for i in (1..=100u32).filter(|&i| i != 9) {
            assert_eq!(find(&d, h, i), None, "{i}");
        }
        for i in [9].into_iter().chain(201..=210u32) {
            assert_eq!(find(&d, h, i), Some(i));
        }
    }

    #[test]
    fn dedup_hashes_only_past_the_inline_entries() {
        let mut d = Dedup::default();
        let unused = |_: u32| -> u32 { panic!("no hash needed for the first {FEW} entries") };
        for i in 1..=FEW as u32 {
            insert(&mut d, unused, i);
            assert_eq!(find(&d, unused, i), Some(i));
        }
        // The next one moves every entry to the table, hashing each.
        insert(&mut d, |i| i * 7, FEW as u32 + 1);
        for i in 1..=FEW as u32 + 1 {
            assert_eq!(find(&d, |i| i * 7, i), Some(i));
        }
    }

    #[test]
    fn dedup_finds_every_entry_at_every_size_and_after_clear() {
        let mut d = Dedup::default();
        for round in 0..3 {
            for n in 0..=3 * FEW as u32 {
                d.clear();
                // Every third hash collides with the previous one.
                let h = |i: u32| (i - i / 3) ^ round;
                for i in 1..=n {
                    assert_eq!(find(&d, h, i), None, "{n} {i}");
                    insert(&mut d, h, i);
                }
                for i in 1..=n {
                    assert_eq!(find(&d, h, i), Some(i), "{n} {i}");
                }
                assert_eq!(find(&d, h, n + 1), None);
            }
        }
    }

    #[test]
    fn hash_depends_on_every_byte_and_the_length() {
        for n in 0..40 {
            let base: Vec<u8> = (0..n as u8).map(|i| b'a' + i % 26).collect();
            let h = hash_bytes(&base);
            for i in 0..n {
                let mut b = base.clone();
                b[i] ^= 1;
                assert_ne!(hash_bytes(&b), h, "length {n}, byte {i}");
            }
            assert_ne!(hash_bytes(&vec![0; n]), hash_bytes(&vec![0; n + 1]), "{n}");
        }
    }

    #[test]
    fn same_bytes_sees_every_byte_of_every_length() {
        for n in 0..40 {
            let base: Vec<u8> = (0..n as u8).map(|i| i.wrapping_mul(37)).collect();
            assert!(same_bytes(&base, &base.clone()), "length {n}");
            for i in 0..n {
                for flip in [1, 0x80] {
                    let mut b = base.clone();
                    b[i] ^= flip;
                    assert!(!same_bytes(&base, &b), "length {n}, byte {i}");
                }
            }
            assert!(!same_bytes(&base, &base[..n.saturating_sub(1)]) || n == 0);
        }
    }

    #[test]
    fn dedup_grows_from_inline_to_heap_keeping_every_entry() {
        let mut d = Dedup::default();
        let h = |i: u32| i.wrapping_mul(0x9E37_79B9);
        for i in 1..=1000u32 {
            insert(&mut d, h, i);
            assert!(d.len <= FEW || d.table.len() >= 2 * d.len);
        }
        for i in 1..=1000u32 {
            assert_eq!(find(&d, h, i), Some(i));
        }
        assert_eq!(d.table.iter().filter(|&&e| e != 0).count(), 1000);
    }

    #[test]
    fn zero_bytes_zeroes_exactly_the_slice_at_every_length() {
        for n in 0..40 {
            let mut buf = vec![0xAA; n + 2];
            zero_bytes(&mut buf[1..n + 1]);
            assert_eq!(buf[0], 0xAA);
            assert!(buf[1..n + 1].iter().all(|&b| b == 0), "length {n}");
            assert_eq!(buf[n + 1], 0xAA);
        }
    }

    #[test]
    fn copy_bytes_handles_every_short_length() {
        for n in 0..40 {
            let src: Vec<u8> = (0..n as u8).collect();
            let mut dst = vec![0xAA; n];
            copy_bytes(&mut dst, &src);
            assert_eq!(dst, src);
        }
    }
}
