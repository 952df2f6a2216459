//! Zero-copy views: [`Table`], [`Vector`], [`Array`], strings as `&str`, structs as `&S`, and the
//! root functions that verify a buffer and hand out the first view.
//!
//! # The trust boundary
//!
//! Reading after verification must not repeat checks, so the views read with unchecked loads where
//! that is sound. Soundness rests on one rule: **a view of type `V` exists only for bytes that `V`'s
//! [`Verify`] implementation has accepted.** Safe constructors (`root`, [`Table::new`],
//! [`Vector::new`], [`Table::get`]) verify first; constructors that skip verification are `unsafe fn`
//! and ask the caller to vouch for it. What each view's verification covers:
//!
//! - [`Table`] (untyped): only the header and vtable, since it does not know its fields' types. Its
//!   field readers are therefore checked ([`Table::get`], which verifies the field as the requested
//!   type) or `unsafe` ([`Table::get_unchecked`], for generated code, which verified each field's type
//!   when verifying the table).
//! - [`Vector<T>`]: the length, the element bytes, and every element as a `T`; so [`Vector::get`] and
//!   the iterators are safe and unchecked.
//! - `&str`: bounds, terminator and UTF-8; reading it is a pointer cast.
//! - [`Far<T>`] and [`Vector64<T>`]: the 64-bit offset of an `offset64` / `vector64` field, then the
//!   string or vector it points to, as above; the buffer's 2 GiB cap makes every verified 64-bit
//!   offset and length fit a `usize`.
//! - Generated table types: all fields, recursively; their accessors are safe and unchecked.
//!
//! ```
//! use flatforge::{Table, Vector};
//! let mut b = flatforge::Builder::new();
//! let tags = [b.create_string("a")?, b.create_string("b")?];
//! let tags = b.create_vector_of_offsets(&tags)?;
//! b.start_table();
//! b.add_offset(0, tags)?;
//! let t = b.end_table()?;
//! let bytes = b.finish(t, None)?;
//!
//! let t: Table = flatforge::root(bytes)?; // verifies the table's header and vtable
//! let tags: Vector<&str> = t.get(0)?.unwrap(); // verifies the field as a vector of strings
//! assert_eq!(tags.iter().collect::<Vec<_>>(), ["a", "b"]); // reads without checks
//!
//! let mut bad = bytes.to_vec();
//! let at = bad.windows(2).position(|w| w == b"b\0").unwrap();
//! bad[at + 1] = b'!'; // the NUL after "b"
//! let t: Table = flatforge::root(&bad)?; // the table's header is fine
//! assert!(t.get::<Vector<&str>>(0).is_err()); // one of the strings it reaches is not
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```

use core::cmp::Ordering;
use core::fmt;
use core::iter::FusedIterator;
use core::marker::PhantomData;

use crate::error::Error;
use crate::scalar::{
    read_scalar, read_scalar_at, read_scalar_unchecked, struct_from_bytes, Scalar, Struct,
};
use crate::verify::{Verifier, VerifierOptions, Verify};

/// A type that can be read from a buffer after verification.
///
/// `follow` reads the value whose inline bytes are at `pos`: a scalar or struct in place, or the
/// object an offset at `pos` points to. `follow_at` does the same for a pointer to those bytes; the
/// views call it, since they keep positions as pointers (see [`Table`]).
///
/// ```
/// use flatforge::{Follow, Vector};
/// let bytes = [2u8, 0, 0, 0, 7, 9]; // a vector of two bytes
/// let v = Vector::<u8>::new(&bytes, 0).unwrap();
/// assert_eq!(v.as_slice(), &[7, 9]);
/// ```
pub trait Follow<'a>: Verify + Sized {
    /// Reads the value at `pos`.
    ///
    /// ```
    /// use flatforge::{Follow, Verifier, VerifierOptions, Verify};
    /// let bytes = [4u8, 0, 0, 0, 2, 0, 0, 0, b'h', b'i', 0, 0]; // root offset, then "hi"
    /// let mut v = Verifier::new(&bytes, &VerifierOptions::default());
    /// let pos = v.root()?; // checks that the 4 bytes at `pos` are in the buffer
    /// <&str>::verify_at(&mut v, pos)?;
    /// // SAFETY: `<&str>::verify_at` accepted `pos` with a verifier over exactly `bytes`, after
    /// // `root` checked that its 4 bytes lie in `bytes`.
    /// let s = unsafe { <&str>::follow(&bytes, pos) };
    /// assert_eq!(s, "hi");
    /// # Ok::<(), flatforge::Error>(())
    /// ```
    ///
    /// # Safety
    /// `Self::verify_at` (or `Self::verify_root_at`, which checks the same) must have accepted
    /// `pos` with a [`Verifier`] over exactly `buf` (any options), after the `Self::SIZE` bytes at
    /// `pos` were checked to lie in `buf`.
    unsafe fn follow(buf: &'a [u8], pos: usize) -> Self;

    /// Reads the value at `at`, which is `buf.as_ptr().add(pos)`: the same as `follow(buf, pos)`.
    /// The default computes `pos` and calls [`follow`](Self::follow); the crate's types and
    /// generated tables read from `at` directly.
    ///
    /// ```
    /// use flatforge::{Follow, Verifier, VerifierOptions, Verify};
    /// let bytes = [0u8, 0, 0, 0, 0x2a, 0, 0, 0];
    /// let mut v = Verifier::new(&bytes, &VerifierOptions::default());
    /// v.check_range(flatforge::Object::Inline, 4, u32::SIZE)?;
    /// u32::verify_at(&mut v, 4)?;
    /// // SAFETY: `u32::verify_at` accepted position 4 of `bytes` after its 4 bytes were checked to
    /// // lie in `bytes`, and the pointer is `bytes.as_ptr()` plus that position.
    /// let x = unsafe { u32::follow_at(&bytes, bytes.as_ptr().add(4)) };
    /// assert_eq!(x, 42);
    /// # Ok::<(), flatforge::Error>(())
    /// ```
    ///
    /// # Safety
    /// `at` was derived from `buf.as_ptr()` by adding a `pos` that [`follow`](Self::follow) accepts.
    #[inline(always)]
    unsafe fn follow_at(buf: &'a [u8], at: *const u8) -> Self {
        // SAFETY: forwarded: `at` is `pos` bytes into `buf`.
        unsafe { Self::follow(buf, at.addr() - buf.as_ptr().addr()) }
    }
}

/// A position in a buffer borrowed for `'a`, kept as a pointer rather than an index.
///
/// A field's address is then `pointer + voffset (+ constant)`, which one load instruction takes;
/// `base + index + voffset` needs an addition first on every access. Pointers are only made by
/// adding verified positions and offsets to the buffer's own pointer, so they stay inside it.
#[derive(Clone, Copy)]
struct At<'a> {
    ptr: *const u8,
    _buf: PhantomData<&'a [u8]>,
}

// SAFETY: `At` stands for a shared borrow of the buffer's bytes (as `&'a [u8]`, which is `Send`) and
// is only read through.
unsafe impl Send for At<'_> {}
// SAFETY: as above (`&'a [u8]` is `Sync`).
unsafe impl Sync for At<'_> {}

impl<'a> At<'a> {
    /// The position `pos` of `buf`.
    ///
    /// # Safety
    /// `pos <= buf.len()`.
    #[inline(always)]
    unsafe fn new(buf: &'a [u8], pos: usize) -> Self {
        // SAFETY: guaranteed by the caller.
        Self::from_ptr(unsafe { buf.as_ptr().add(pos) })
    }

    #[inline(always)]
    fn from_ptr(ptr: *const u8) -> Self {
        At {
            ptr,
            _buf: PhantomData,
        }
    }

    /// The position `n` bytes further on.
    ///
    /// # Safety
    /// The result is still inside (or one past the end of) the buffer.
    #[inline(always)]
    unsafe fn add(self, n: usize) -> Self {
        // SAFETY: guaranteed by the caller.
        Self::from_ptr(unsafe { self.ptr.add(n) })
    }

    /// The index of this position in `buf`, the buffer it points into.
    #[inline(always)]
    fn index_in(self, buf: &[u8]) -> usize {
        self.ptr.addr() - buf.as_ptr().addr()
    }
}

/// Reads the offset at `at` and returns the position it points to.
///
/// # Safety
/// The 4 bytes at `at` are in the buffer, and so is the position the offset points to.
#[inline(always)]
unsafe fn follow_offset(at: *const u8) -> *const u8 {
    // SAFETY: guaranteed by the caller.
    unsafe { at.add(read_scalar_at::<u32>(at) as usize) }
}

/// Reads the 64-bit offset at `at` and returns the position it points to.
///
/// # Safety
/// The 8 bytes at `at` are in the buffer, and so is the position the offset points to (so the
/// offset fits a `usize`).
#[inline(always)]
unsafe fn follow_offset64(at: *const u8) -> *const u8 {
    // SAFETY: guaranteed by the caller.
    unsafe { at.add(read_scalar_at::<u64>(at) as usize) }
}

/// The string whose length field is at `at`.
///
/// # Safety
/// Verification accepted a string there (the length, then that many bytes of UTF-8) inside a
/// buffer borrowed for `'a`.
#[inline(always)]
unsafe fn str_at<'a>(at: *const u8) -> &'a str {
    // SAFETY: guaranteed by the caller.
    unsafe {
        let len = read_scalar_at::<u32>(at) as usize;
        core::str::from_utf8_unchecked(core::slice::from_raw_parts(at.add(4), len))
    }
}

macro_rules! follow_scalar {
    ($($t:ty),*) => {$(
        impl<'a> Follow<'a> for $t {
            #[inline(always)]
            unsafe fn follow(buf: &'a [u8], pos: usize) -> Self {
                // SAFETY: the caller checked that the value's bytes lie in `buf`.
                unsafe { read_scalar_unchecked::<$t>(buf, pos) }
            }
            #[inline(always)]
            unsafe fn follow_at(_: &'a [u8], at: *const u8) -> Self {
                // SAFETY: as in `follow`.
                unsafe { read_scalar_at::<$t>(at) }
            }
        }
    )*};
}
follow_scalar!(bool, u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

impl<'a, S: Struct> Follow<'a> for &'a S {
    #[inline(always)]
    unsafe fn follow(buf: &'a [u8], pos: usize) -> Self {
        // SAFETY: forwarded.
        unsafe { Self::follow_at(buf, buf.as_ptr().add(pos)) }
    }
    #[inline(always)]
    unsafe fn follow_at(_: &'a [u8], at: *const u8) -> Self {
        // SAFETY: the caller checked that `size_of::<S>()` bytes at `at` lie in the buffer borrowed
        // for `'a`; `S: Struct` has alignment 1 and accepts any bytes.
        unsafe { &*at.cast::<S>() }
    }
}

impl<'a> Follow<'a> for &'a str {
    #[inline(always)]
    unsafe fn follow(buf: &'a [u8], pos: usize) -> Self {
        // SAFETY: forwarded.
        unsafe { Self::follow_at(buf, buf.as_ptr().add(pos)) }
    }
    #[inline(always)]
    unsafe fn follow_at(_: &'a [u8], at: *const u8) -> Self {
        // SAFETY: verification checked the offset at `at`, and at its target a length `len` followed
        // by `len` bytes of valid UTF-8 inside the buffer borrowed for `'a`.
        unsafe { str_at(follow_offset(at)) }
    }
}

/// A string or a vector (with a 32-bit length) behind a 64-bit offset: the stored form of an
/// `offset64` field, `Far<&str>` or `Far<Vector<T>>`. Verifying it checks the 8-byte offset, then
/// the object as for a 32-bit offset; `.0` is the string or vector.
///
/// ```
/// use flatforge::{Far, Table, Vector};
/// let mut b = flatforge::Builder::new();
/// let v = b.far()?.create_vector(&[1u32, 2])?;
/// b.start_table();
/// b.add_offset64(0, v)?;
/// let t = b.end_table()?;
/// let bytes = b.finish(t, None)?;
/// let t: Table = flatforge::root(bytes)?;
/// let v: Vector<u32> = t.get::<Far<Vector<u32>>>(0)?.unwrap().0;
/// assert_eq!(v.iter().collect::<Vec<_>>(), [1, 2]);
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Far<T>(pub T);

impl<'a> Follow<'a> for Far<&'a str> {
    #[inline(always)]
    unsafe fn follow(buf: &'a [u8], pos: usize) -> Self {
        // SAFETY: forwarded.
        unsafe { Self::follow_at(buf, buf.as_ptr().add(pos)) }
    }
    #[inline(always)]
    unsafe fn follow_at(_: &'a [u8], at: *const u8) -> Self {
        // SAFETY: verification checked the 64-bit offset at `at` and the string at its target.
        Far(unsafe { str_at(follow_offset64(at)) })
    }
}

impl<'a, T: Follow<'a>> Follow<'a> for Far<Vector<'a, T>> {
    #[inline(always)]
    unsafe fn follow(buf: &'a [u8], pos: usize) -> Self {
        // SAFETY: forwarded.
        unsafe { Self::follow_at(buf, buf.as_ptr().add(pos)) }
    }
    #[inline(always)]
    unsafe fn follow_at(buf: &'a [u8], at: *const u8) -> Self {
        // SAFETY: verification checked the 64-bit offset at `at` and the vector at its target.
        Far(unsafe { Vector::at(buf, follow_offset64(at)) })
    }
}

/// A vector with a 64-bit length behind a 64-bit offset: the stored form of a `vector64` field.
/// Verifying it checks the 8-byte offset, the 8-byte length and the elements; `.0` is the vector,
/// a [`Vector`] like any other (its length fits a `usize`: verified buffers are under 2 GiB).
///
/// ```
/// use flatforge::{Table, Vector64};
/// let mut b = flatforge::Builder::new();
/// let v = b.far()?.create_vector64(&[1.5f64, 2.5])?;
/// b.start_table();
/// b.add_offset64(0, v)?;
/// let t = b.end_table()?;
/// let bytes = b.finish(t, None)?;
/// let t: Table = flatforge::root(bytes)?;
/// let v = t.get::<Vector64<f64>>(0)?.unwrap().0;
/// assert_eq!((v.len(), v.get(1)), (2, Some(2.5)));
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub struct Vector64<'a, T>(pub Vector<'a, T>);

impl<T> Clone for Vector64<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Vector64<'_, T> {}

impl<'a, T: Follow<'a> + fmt::Debug> fmt::Debug for Vector64<'a, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<'a, T: Follow<'a>> Follow<'a> for Vector64<'a, T> {
    #[inline(always)]
    unsafe fn follow(buf: &'a [u8], pos: usize) -> Self {
        // SAFETY: forwarded.
        unsafe { Self::follow_at(buf, buf.as_ptr().add(pos)) }
    }
    #[inline(always)]
    unsafe fn follow_at(buf: &'a [u8], at: *const u8) -> Self {
        // SAFETY: verification checked the 64-bit offset at `at` and, at its target, the 64-bit
        // length and the elements.
        Vector64(unsafe { Vector::at64(buf, follow_offset64(at)) })
    }
}

/// A value stored out of line behind an offset, such as a struct member of a union.
///
/// ```
/// use flatforge::{Indirect, Table};
/// // A vtable at 4, a table at 12 whose field 0 is an offset to the u32 at 20.
/// let bytes = [0u8, 0, 0, 0, 6, 0, 8, 0, 4, 0, 0, 0, 8, 0, 0, 0, 4, 0, 0, 0, 42, 0, 0, 0];
/// let t = Table::new(&bytes, 12)?;
/// assert_eq!(t.get::<Indirect<u32>>(0)?.map(|v| v.0), Some(42));
/// # Ok::<(), flatforge::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Indirect<T>(pub T);

impl<'a, T: Follow<'a>> Follow<'a> for Indirect<T> {
    #[inline(always)]
    unsafe fn follow(buf: &'a [u8], pos: usize) -> Self {
        // SAFETY: forwarded.
        unsafe { Self::follow_at(buf, buf.as_ptr().add(pos)) }
    }
    #[inline(always)]
    unsafe fn follow_at(buf: &'a [u8], at: *const u8) -> Self {
        // SAFETY: verification checked the offset at `at` and accepted `T` at its target.
        unsafe { Indirect(T::follow_at(buf, follow_offset(at))) }
    }
}

/// An untyped view of a table: the buffer and the table's position.
///
/// Invariant: the table's header and vtable were verified (see [`Verifier::table`]). Fields are read
/// with [`get`](Self::get) (verifies the field as the requested type) or
/// [`get_unchecked`](Self::get_unchecked) (for code that verified the field's type before).
///
/// ```
/// use flatforge::{Builder, Table};
/// let mut b = Builder::new();
/// b.start_table();
/// b.add_scalar::<i32>(1, 100, 0)?;
/// let t = b.end_table()?;
/// let bytes = b.finish(t, None)?.to_vec();
///
/// let table: Table = flatforge::root(&bytes)?;
/// assert_eq!(table.get::<i32>(1)?, Some(100));
/// assert_eq!(table.get::<i32>(0)?, None);
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct Table<'a> {
    buf: &'a [u8],
    table: At<'a>,
}

impl<'a> Table<'a> {
    /// Checks the header and vtable of the table at `pos` and returns a view of it.
    ///
    /// ```
    /// use flatforge::Table;
    /// let mut b = flatforge::Builder::new();
    /// b.start_table();
    /// b.add_scalar::<u8>(0, 7, 0)?;
    /// let t = b.end_table()?;
    /// let bytes = b.finish(t, None)?;
    /// let pos = u32::from_le_bytes(bytes[..4].try_into()?) as usize; // where the root offset points
    /// assert_eq!(Table::new(bytes, pos)?.get::<u8>(0)?, Some(7));
    /// assert!(Table::new(bytes, pos + 1).is_err()); // misaligned
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn new(buf: &'a [u8], pos: usize) -> Result<Self, Error> {
        Self::new_with_options(buf, pos, &VerifierOptions::DEFAULT)
    }

    /// [`new`](Self::new) with the given options (alignment checks, limits).
    ///
    /// ```
    /// use flatforge::{Table, VerifierOptions};
    /// let mut b = flatforge::Builder::new();
    /// b.start_table();
    /// b.add_scalar::<u8>(0, 7, 0)?;
    /// let t = b.end_table()?;
    /// let bytes = b.finish(t, None)?;
    /// let pos = u32::from_le_bytes(bytes[..4].try_into()?) as usize;
    /// // The same table one byte further on, as in a buffer read at an odd position.
    /// let shifted = [&[0u8][..], bytes].concat();
    /// assert!(Table::new(&shifted, pos + 1).is_err());
    /// let opts = VerifierOptions::default().with_check_alignment(false);
    /// let t = Table::new_with_options(&shifted, pos + 1, &opts)?;
    /// assert_eq!(t.get_with_options::<u8>(0, &opts)?, Some(7));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn new_with_options(
        buf: &'a [u8],
        pos: usize,
        opts: &VerifierOptions,
    ) -> Result<Self, Error> {
        Verifier::new(buf, opts).table(pos)?;
        // SAFETY: just verified.
        Ok(unsafe { Table::new_unchecked(buf, pos) })
    }

    /// A view of the table at `pos` without checks.
    ///
    /// ```
    /// use flatforge::{Table, Verifier, VerifierOptions};
    /// let mut b = flatforge::Builder::new();
    /// b.start_table();
    /// b.add_scalar::<u8>(0, 7, 0)?;
    /// let t = b.end_table()?;
    /// let bytes = b.finish(t, None)?;
    ///
    /// let mut v = Verifier::new(bytes, &VerifierOptions::default());
    /// let root = v.root()?;
    /// let pos = v.offset(root)?;
    /// v.table(pos)?;
    /// // SAFETY: `Verifier::table` accepted `pos` with a verifier over exactly `bytes`.
    /// let t = unsafe { Table::new_unchecked(bytes, pos) };
    /// assert_eq!(t.get::<u8>(0)?, Some(7));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    ///
    /// # Safety
    /// [`Verifier::table`] must have accepted `pos` with a verifier over exactly `buf`.
    #[inline(always)]
    pub unsafe fn new_unchecked(buf: &'a [u8], pos: usize) -> Self {
        Table {
            buf,
            // SAFETY: the caller guarantees a verified table header at `pos`, inside `buf`.
            table: unsafe { At::new(buf, pos) },
        }
    }

    /// The buffer the table lives in.
    ///
    /// ```
    /// use flatforge::Table;
    /// let mut b = flatforge::Builder::new();
    /// b.start_table();
    /// b.add_scalar::<u32>(0, 0xAABB_CCDD, 0)?;
    /// let t = b.end_table()?;
    /// let bytes = b.finish(t, None)?;
    /// let t: Table = flatforge::root(bytes)?;
    /// assert!(core::ptr::eq(t.buffer(), bytes));
    /// let at = t.position() + usize::from(t.field_offset(0));
    /// assert_eq!(t.buffer()[at..at + 4], [0xDD, 0xCC, 0xBB, 0xAA]);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn buffer(&self) -> &'a [u8] {
        self.buf
    }

    /// The table's position in the buffer.
    ///
    /// ```
    /// use flatforge::Table;
    /// let mut b = flatforge::Builder::new();
    /// b.start_table();
    /// let t = b.end_table()?;
    /// let bytes = b.finish(t, None)?;
    /// let t: Table = flatforge::root(bytes)?;
    /// let root_offset = u32::from_le_bytes(bytes[..4].try_into()?) as usize;
    /// assert_eq!(t.position(), root_offset); // the root offset is at 0
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn position(&self) -> usize {
        self.table.index_in(self.buf)
    }

    /// The position of the table's vtable.
    ///
    /// ```
    /// use flatforge::Table;
    /// let mut b = flatforge::Builder::new();
    /// b.start_table();
    /// b.add_scalar::<u8>(2, 1, 0)?;
    /// let t = b.end_table()?;
    /// let bytes = b.finish(t, None)?;
    /// let t: Table = flatforge::root(bytes)?;
    /// let pos = t.position();
    /// let soffset = i32::from_le_bytes(bytes[pos..pos + 4].try_into()?);
    /// assert_eq!(t.vtable() as i64, pos as i64 - i64::from(soffset));
    /// let vt = t.vtable();
    /// assert_eq!(bytes[vt..vt + 2], [10, 0]); // its size: 4 bytes + 3 slots
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn vtable(&self) -> usize {
        self.vtable_at().index_in(self.buf)
    }

    #[inline(always)]
    fn vtable_at(&self) -> At<'a> {
        // SAFETY: invariant: `pos + 4 <= len`, and the vtable lies in the buffer at `pos` minus the
        // signed offset stored there.
        unsafe {
            let soffset = read_scalar_at::<i32>(self.table.ptr);
            At::from_ptr(self.table.ptr.offset(-(soffset as isize)))
        }
    }

    /// The offset of the field in `slot` from the table start, or 0 if the field is absent.
    ///
    /// ```
    /// use flatforge::Table;
    /// let mut b = flatforge::Builder::new();
    /// b.start_table();
    /// b.add_scalar::<u16>(1, 0x0102, 0)?;
    /// let t = b.end_table()?;
    /// let bytes = b.finish(t, None)?;
    /// let t: Table = flatforge::root(bytes)?;
    /// assert_eq!((t.field_offset(0), t.field_offset(7)), (0, 0)); // absent; past the vtable
    /// let at = t.position() + usize::from(t.field_offset(1));
    /// assert_eq!(bytes[at..at + 2], [0x02, 0x01]);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn field_offset(&self, slot: usize) -> u16 {
        let vtable = self.vtable_at().ptr;
        // SAFETY: invariant: the vtable lies in the buffer with its length field first.
        let vt_len = usize::from(unsafe { read_scalar_at::<u16>(vtable) });
        // The entry of `slot` is the two bytes at `4 + 2 * slot`; the vtable size is even, so they
        // are inside it if they start before its end. The first test keeps `2 * slot` from
        // overflowing; for a constant `slot` (generated code) both fold to one comparison of the
        // vtable size with a constant.
        if slot < vt_len / 2 && 4 + 2 * slot < vt_len {
            // SAFETY: invariant: `vtable + vt_len <= len`, and `4 + 2 * slot + 2 <= vt_len`.
            unsafe { read_scalar_at::<u16>(vtable.add(4 + 2 * slot)) }
        } else {
            0
        }
    }

    /// Reads the field in `slot` as a `T`, without checks; `None` if it is absent.
    ///
    /// ```
    /// use flatforge::{Table, Verifier, VerifierOptions};
    /// let mut b = flatforge::Builder::new();
    /// let name = b.create_string("Orc")?;
    /// b.start_table();
    /// b.add_offset(0, name)?;
    /// let t = b.end_table()?;
    /// let t: Table = flatforge::root(b.finish(t, None)?)?;
    ///
    /// // Verify the field's type once (a generated verifier does this for every field)...
    /// let mut v = Verifier::new(t.buffer(), &VerifierOptions::default());
    /// v.table(t.position())?.field::<&str>(0, "name", true)?;
    /// // SAFETY: slot 0 of this table was just verified as a `&str`.
    /// let name = unsafe { t.get_unchecked::<&str>(0) };
    /// assert_eq!(name, Some("Orc"));
    /// // SAFETY: slot 1 is absent, so nothing is read.
    /// assert_eq!(unsafe { t.get_unchecked::<u64>(1) }, None);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    ///
    /// # Safety
    /// When the field is present, it must have been verified as a `T` (as
    /// [`TableVerifier::field::<T>`](crate::TableVerifier::field) does).
    #[inline(always)]
    pub unsafe fn get_unchecked<T: Follow<'a>>(&self, slot: usize) -> Option<T> {
        match usize::from(self.field_offset(slot)) {
            0 => None,
            voffset => {
                // SAFETY: the field lies inside the table (verified), and the caller guarantees it
                // was verified as a `T`.
                Some(unsafe { T::follow_at(self.buf, self.table.add(voffset).ptr) })
            }
        }
    }

    /// Verifies the field in `slot` as a `T` (recursively, with default limits) and reads it; `None`
    /// if it is absent.
    ///
    /// ```
    /// use flatforge::{ErrorKind, Table};
    /// let mut b = flatforge::Builder::new();
    /// b.start_table();
    /// b.add_scalar::<u16>(0, 9, 0)?;
    /// let t = b.end_table()?;
    /// let t: Table = flatforge::root(b.finish(t, None)?)?;
    /// assert_eq!(t.get::<u16>(0)?, Some(9));
    /// assert_eq!(t.get::<u16>(1)?, None);
    /// // A type too large for the field's bytes is an error, not a wild read.
    /// let err = t.get::<u64>(0).unwrap_err();
    /// assert!(matches!(err.kind(), ErrorKind::FieldOutOfTable { .. }));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn get<T: Follow<'a>>(&self, slot: usize) -> Result<Option<T>, Error> {
        self.get_with_options(slot, &VerifierOptions::DEFAULT)
    }

    /// [`get`](Self::get) with the given options (alignment checks, limits).
    ///
    /// ```
    /// use flatforge::{ErrorKind, Table, VerifierOptions};
    /// let mut b = flatforge::Builder::new();
    /// b.start_table();
    /// let inner = b.end_table()?;
    /// b.start_table();
    /// b.add_offset(0, inner)?;
    /// let t = b.end_table()?;
    /// let t: Table = flatforge::root(b.finish(t, None)?)?;
    /// assert!(t.get::<Table>(0)?.is_some());
    /// let shallow = VerifierOptions::default().with_max_depth(1); // `t` itself is one level
    /// let err = t.get_with_options::<Table>(0, &shallow).unwrap_err();
    /// assert_eq!(err.kind(), &ErrorKind::DepthLimitExceeded { limit: 1 });
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn get_with_options<T: Follow<'a>>(
        &self,
        slot: usize,
        opts: &VerifierOptions,
    ) -> Result<Option<T>, Error> {
        let mut v = Verifier::new(self.buf, opts);
        v.table(self.position())
            .and_then(|mut t| t.field_value::<T>(slot, "", false))
    }
}

impl fmt::Debug for Table<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Table")
            .field("pos", &self.position())
            .finish()
    }
}

impl<'a> Follow<'a> for Table<'a> {
    #[inline(always)]
    unsafe fn follow(buf: &'a [u8], pos: usize) -> Self {
        // SAFETY: forwarded.
        unsafe { Self::follow_at(buf, buf.as_ptr().add(pos)) }
    }
    #[inline(always)]
    unsafe fn follow_at(buf: &'a [u8], at: *const u8) -> Self {
        Table {
            buf,
            // SAFETY: verification checked the offset at `at` and the table header at its target.
            table: At::from_ptr(unsafe { follow_offset(at) }),
        }
    }
}

/// A view of a vector of `T`: `&'a [u8]` plus position and length.
///
/// Invariant: the length, the element bytes and every element as a `T` were verified, so indexing
/// and iteration read without checks beyond the index bound.
///
/// ```
/// use flatforge::{Builder, Vector};
/// let mut b = Builder::new();
/// let v = b.create_vector(&[1u16, 2, 3])?;
/// let bytes = b.finish(v, None)?.to_vec();
///
/// let v: Vector<u16> = flatforge::root(&bytes)?;
/// assert_eq!(v.len(), 3);
/// assert_eq!(v.get(1), Some(2));
/// assert_eq!(v.get(3), None);
/// assert_eq!(v.iter().sum::<u16>(), 6);
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub struct Vector<'a, T> {
    buf: &'a [u8],
    /// The first element.
    data: At<'a>,
    len: usize,
    _marker: PhantomData<T>,
}

impl<T> Clone for Vector<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Vector<'_, T> {}

impl<'a, T: Follow<'a>> Vector<'a, T> {
    /// Verifies the vector at `pos` (its length field) as a vector of `T`, with default limits, and
    /// returns a view of it.
    ///
    /// ```
    /// use flatforge::Vector;
    /// let mut b = flatforge::Builder::new();
    /// let v = b.create_vector(&[1u16, 2, 3])?;
    /// let bytes = b.finish(v, None)?;
    /// let pos = u32::from_le_bytes(bytes[..4].try_into()?) as usize; // where the root offset points
    /// assert_eq!(Vector::<u16>::new(bytes, pos)?.len(), 3);
    /// assert!(Vector::<u64>::new(bytes, pos).is_err()); // 3 * 8 bytes are not there
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn new(buf: &'a [u8], pos: usize) -> Result<Self, Error> {
        Verifier::new(buf, &VerifierOptions::DEFAULT).vector::<T>(pos)?;
        // SAFETY: just verified.
        Ok(unsafe { Self::new_unchecked(buf, pos) })
    }

    /// A view of the vector at `pos` without checks.
    ///
    /// ```
    /// use flatforge::{Vector, Verifier, VerifierOptions};
    /// let mut b = flatforge::Builder::new();
    /// let v = b.create_vector(&[1u16, 2, 3])?;
    /// let bytes = b.finish(v, None)?;
    ///
    /// let mut v = Verifier::new(bytes, &VerifierOptions::default());
    /// let root = v.root()?;
    /// let pos = v.offset(root)?;
    /// v.vector::<u16>(pos)?;
    /// // SAFETY: `Verifier::vector::<u16>` accepted `pos` with a verifier over exactly `bytes`.
    /// let v = unsafe { Vector::<u16>::new_unchecked(bytes, pos) };
    /// assert_eq!(v.get(2), Some(3));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    ///
    /// # Safety
    /// [`Verifier::vector::<T>`](Verifier::vector) must have accepted `pos` with a verifier over
    /// exactly `buf`.
    #[inline(always)]
    pub unsafe fn new_unchecked(buf: &'a [u8], pos: usize) -> Self {
        // SAFETY: the caller guarantees a verified length field at `pos`, followed by the elements.
        unsafe { Self::at(buf, buf.as_ptr().add(pos)) }
    }

    /// A view of the vector whose length field is at `at`, a pointer into `buf`.
    ///
    /// # Safety
    /// As for [`new_unchecked`](Self::new_unchecked), with `at` the pointer to `pos` in `buf`.
    #[inline(always)]
    unsafe fn at(buf: &'a [u8], at: *const u8) -> Self {
        // SAFETY: guaranteed by the caller: a verified length, then `len` elements in the buffer.
        unsafe {
            Vector {
                buf,
                data: At::from_ptr(at.add(4)),
                len: read_scalar_at::<u32>(at) as usize,
                _marker: PhantomData,
            }
        }
    }

    /// A view of the vector with a 64-bit length field at `at`, a pointer into `buf`.
    ///
    /// # Safety
    /// [`Verifier::vector64_raw`] accepted the vector there (so its length fits a `usize`), and its
    /// elements were verified as `T`s.
    #[inline(always)]
    unsafe fn at64(buf: &'a [u8], at: *const u8) -> Self {
        // SAFETY: guaranteed by the caller: a verified length, then `len` elements in the buffer.
        unsafe {
            Vector {
                buf,
                data: At::from_ptr(at.add(8)),
                len: read_scalar_at::<u64>(at) as usize,
                _marker: PhantomData,
            }
        }
    }

    /// The number of elements.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let v = b.create_vector(&[0u64; 5])?;
    /// let v: flatforge::Vector<u64> = flatforge::root(b.finish(v, None)?)?;
    /// assert_eq!(v.len(), 5);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the vector is empty.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let v = b.create_vector::<i8>(&[])?;
    /// let v: flatforge::Vector<i8> = flatforge::root(b.finish(v, None)?)?;
    /// assert!(v.is_empty());
    /// assert_eq!(v.first(), None);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The element at `index`, or `None` past the end.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let names = [b.create_string("a")?, b.create_string("b")?];
    /// let v = b.create_vector_of_offsets(&names)?;
    /// let v: flatforge::Vector<&str> = flatforge::root(b.finish(v, None)?)?;
    /// assert_eq!((v.get(1), v.get(2)), (Some("b"), None));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn get(&self, index: usize) -> Option<T> {
        if index < self.len {
            // SAFETY: invariant: element `index` was verified as a `T`.
            Some(unsafe { T::follow_at(self.buf, self.data.add(index * T::SIZE).ptr) })
        } else {
            None
        }
    }

    /// The element at `index` without the bound check.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let v = b.create_vector(&[3u32, 4, 5])?;
    /// let v: flatforge::Vector<u32> = flatforge::root(b.finish(v, None)?)?;
    /// let mut sum = 0;
    /// for i in 0..v.len() {
    ///     // SAFETY: `i < v.len()`.
    ///     sum += unsafe { v.get_unchecked(i) };
    /// }
    /// assert_eq!(sum, 12);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    ///
    /// # Safety
    /// `index < self.len()`.
    #[inline(always)]
    pub unsafe fn get_unchecked(&self, index: usize) -> T {
        debug_assert!(index < self.len);
        // SAFETY: invariant, and the caller guarantees `index < len`.
        unsafe { T::follow_at(self.buf, self.data.add(index * T::SIZE).ptr) }
    }

    /// The first element.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let v = b.create_vector(&[7i16, 8])?;
    /// let v: flatforge::Vector<i16> = flatforge::root(b.finish(v, None)?)?;
    /// assert_eq!(v.first(), Some(7));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline]
    pub fn first(&self) -> Option<T> {
        self.get(0)
    }

    /// The last element.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let v = b.create_vector(&[7i16, 8])?;
    /// let v: flatforge::Vector<i16> = flatforge::root(b.finish(v, None)?)?;
    /// assert_eq!(v.last(), Some(8));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline]
    pub fn last(&self) -> Option<T> {
        self.len.checked_sub(1).and_then(|i| self.get(i))
    }

    /// An iterator over the elements.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let v = b.create_vector(&[1.5f32, 2.5, 3.0])?;
    /// let v: flatforge::Vector<f32> = flatforge::root(b.finish(v, None)?)?;
    /// assert_eq!(v.iter().sum::<f32>(), 7.0);
    /// assert_eq!(v.iter().rev().next(), Some(3.0));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn iter(&self) -> VectorIter<'a, T> {
        VectorIter {
            buf: self.buf,
            pos: self.data,
            // SAFETY: invariant: the `len * T::SIZE` element bytes lie in the buffer.
            end: unsafe { self.data.add(self.len * T::SIZE) },
            _marker: PhantomData,
        }
    }

    /// The elements' inline bytes (for offsets: the offsets themselves).
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let v = b.create_vector(&[1u16, 0x0203])?;
    /// let v: flatforge::Vector<u16> = flatforge::root(b.finish(v, None)?)?;
    /// assert_eq!(v.bytes(), [1, 0, 3, 2]);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn bytes(&self) -> &'a [u8] {
        // SAFETY: invariant: the `len * T::SIZE` element bytes lie in the buffer borrowed for `'a`.
        unsafe { core::slice::from_raw_parts(self.data.ptr, self.len * T::SIZE) }
    }

    /// Binary search with a comparator, as [`slice::binary_search_by`]: for vectors sorted by a key
    /// (see [`Builder::sort_by_scalar_field`](crate::Builder::sort_by_scalar_field)).
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let v = b.create_vector(&[1u32, 5, 9])?;
    /// let bytes = b.finish(v, None)?.to_vec();
    /// let v: flatforge::Vector<u32> = flatforge::root(&bytes)?;
    /// assert_eq!(v.binary_search_by(|x| x.cmp(&5)), Ok(1));
    /// assert_eq!(v.binary_search_by(|x| x.cmp(&6)), Err(2));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn binary_search_by(&self, mut f: impl FnMut(T) -> Ordering) -> Result<usize, usize> {
        let (mut lo, mut hi) = (0, self.len);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            // SAFETY: `mid < hi <= len`.
            match f(unsafe { self.get_unchecked(mid) }) {
                Ordering::Less => lo = mid + 1,
                Ordering::Greater => hi = mid,
                Ordering::Equal => return Ok(mid),
            }
        }
        Err(lo)
    }
}

impl<'a, T: Scalar + Follow<'a>> Vector<'a, T> {
    /// The elements as a native slice, without copying: `Some` on little-endian hosts when the data is
    /// suitably aligned in memory and every bit pattern is a valid `T` (not for `bool`); `None`
    /// otherwise (then use [`iter`](Self::iter)).
    ///
    /// ```
    /// # let mut b = flatforge::Builder::new();
    /// # let v = b.create_vector(&[1u32, 2])?;
    /// # let bytes = b.finish(v, None)?.to_vec();
    /// let v: flatforge::Vector<u32> = flatforge::root(&bytes)?;
    /// let sum: u32 = match v.as_native_slice() {
    ///     Some(s) => s.iter().sum(),
    ///     None => v.iter().sum(),
    /// };
    /// assert_eq!(sum, 3);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline]
    pub fn as_native_slice(&self) -> Option<&'a [T]> {
        let bytes = self.bytes();
        if cfg!(target_endian = "little")
            && T::ANY_BIT_PATTERN
            && (bytes.as_ptr() as usize) % core::mem::align_of::<T>() == 0
        {
            // SAFETY: little-endian, so the wire bytes are the native representation; the pointer is
            // aligned for `T`; `len * size_of::<T>()` bytes are in the buffer; every bit pattern is a
            // valid `T`; the borrow is tied to `'a`.
            Some(unsafe { core::slice::from_raw_parts(bytes.as_ptr().cast::<T>(), self.len) })
        } else {
            None
        }
    }
}

impl<'a> Vector<'a, u8> {
    /// The bytes, as a slice.
    ///
    /// ```
    /// let mut b = flatforge::Builder::new();
    /// let v = b.create_vector(b"raw bytes")?;
    /// let v: flatforge::Vector<u8> = flatforge::root(b.finish(v, None)?)?;
    /// assert_eq!(v.as_slice(), b"raw bytes");
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn as_slice(&self) -> &'a [u8] {
        self.bytes()
    }
}

impl<'a, S: Struct> Vector<'a, &'a S> {
    /// The structs, as a slice.
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
    /// let v = b.create_vector_of_structs(&[Pair([1, 2]), Pair([3, 4])])?;
    /// let bytes = b.finish(v, None)?.to_vec();
    /// let v: flatforge::Vector<&Pair> = flatforge::root(&bytes)?;
    /// assert_eq!(v.as_slice()[1].0, [3, 4]);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn as_slice(&self) -> &'a [S] {
        // SAFETY: invariant: `len * size_of::<S>()` bytes lie in the buffer; `S: Struct` has alignment
        // 1 and accepts any bytes.
        unsafe { core::slice::from_raw_parts(self.bytes().as_ptr().cast::<S>(), self.len) }
    }
}

impl<'a, T: Follow<'a> + fmt::Debug> fmt::Debug for Vector<'a, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a, T: Follow<'a>> IntoIterator for Vector<'a, T> {
    type Item = T;
    type IntoIter = VectorIter<'a, T>;
    #[inline(always)]
    fn into_iter(self) -> VectorIter<'a, T> {
        self.iter()
    }
}

impl<'a, T: Follow<'a>> Follow<'a> for Vector<'a, T> {
    #[inline(always)]
    unsafe fn follow(buf: &'a [u8], pos: usize) -> Self {
        // SAFETY: forwarded.
        unsafe { Self::follow_at(buf, buf.as_ptr().add(pos)) }
    }
    #[inline(always)]
    unsafe fn follow_at(buf: &'a [u8], at: *const u8) -> Self {
        // SAFETY: verification checked the offset at `at` and the vector at its target.
        unsafe { Vector::at(buf, follow_offset(at)) }
    }
}

/// Iterator over a [`Vector`], from both ends, knowing its length.
///
/// ```
/// use flatforge::{Vector, VectorIter};
/// let mut b = flatforge::Builder::new();
/// let v = b.create_vector(&[1u8, 2, 3, 4])?;
/// let v: Vector<u8> = flatforge::root(b.finish(v, None)?)?;
/// let mut it: VectorIter<u8> = v.iter();
/// assert_eq!((it.next(), it.next_back()), (Some(1), Some(4)));
/// assert_eq!(it.len(), 2);
/// assert_eq!(it.collect::<Vec<_>>(), [2, 3]);
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub struct VectorIter<'a, T> {
    buf: &'a [u8],
    /// The next element from the front.
    pos: At<'a>,
    /// One past the next element from the back.
    end: At<'a>,
    _marker: PhantomData<T>,
}

impl<T> Clone for VectorIter<'_, T> {
    fn clone(&self) -> Self {
        VectorIter {
            buf: self.buf,
            pos: self.pos,
            end: self.end,
            _marker: PhantomData,
        }
    }
}

impl<T> fmt::Debug for VectorIter<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VectorIter")
            .field("pos", &self.pos.index_in(self.buf))
            .field("end", &self.end.index_in(self.buf))
            .finish()
    }
}

impl<'a, T: Follow<'a>> Iterator for VectorIter<'a, T> {
    type Item = T;
    #[inline(always)]
    fn next(&mut self) -> Option<T> {
        if self.pos.ptr < self.end.ptr {
            // SAFETY: `pos` is the position of a verified element of the vector this iterator came
            // from (the vector's invariant), since `pos < end` and both advance by `T::SIZE`.
            let item = unsafe { T::follow_at(self.buf, self.pos.ptr) };
            // SAFETY: at most `end`, which is in the buffer.
            self.pos = unsafe { self.pos.add(T::SIZE) };
            Some(item)
        } else {
            None
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.end.ptr.addr() - self.pos.ptr.addr()) / T::SIZE;
        (n, Some(n))
    }
}

impl<'a, T: Follow<'a>> DoubleEndedIterator for VectorIter<'a, T> {
    #[inline(always)]
    fn next_back(&mut self) -> Option<T> {
        if self.pos.ptr < self.end.ptr {
            // SAFETY: as in `next`: `end` now is the position of the last unvisited element.
            unsafe {
                self.end = At::from_ptr(self.end.ptr.sub(T::SIZE));
                Some(T::follow_at(self.buf, self.end.ptr))
            }
        } else {
            None
        }
    }
}

impl<'a, T: Follow<'a>> ExactSizeIterator for VectorIter<'a, T> {}
impl<'a, T: Follow<'a>> FusedIterator for VectorIter<'a, T> {}

/// A value that can be read from the bytes of a struct: scalars and structs (the element types of
/// fixed-size arrays).
///
/// ```
/// use flatforge::{Array, Inline};
/// fn sum<'a, T: Inline<'a> + Into<u64>>(a: Array<'a, T>) -> u64 {
///     a.iter().map(Into::into).sum()
/// }
/// assert_eq!(sum(Array::<u16>::new(&[1, 0, 2, 0])), 3);
/// assert_eq!(sum(Array::<u8>::new(&[1, 0, 2, 0])), 3);
/// ```
pub trait Inline<'a>: Copy {
    /// Size in bytes.
    ///
    /// ```
    /// use flatforge::{Inline, Struct};
    /// # #[derive(Clone, Copy)] #[repr(transparent)] struct Vec3([u8; 12]);
    /// # // SAFETY: a transparent wrapper of [u8; 12].
    /// # unsafe impl Struct for Vec3 { const ALIGN: usize = 4; }
    /// assert_eq!(<i32 as Inline>::SIZE, 4);
    /// assert_eq!(<&Vec3 as Inline>::SIZE, 12);
    /// ```
    const SIZE: usize;
    /// Reads the value at `bytes[pos..pos + SIZE]`.
    ///
    /// ```
    /// use flatforge::Inline;
    /// let bytes = [9u8, 0x34, 0x12];
    /// assert_eq!(u16::read_inline(&bytes, 1), 0x1234);
    /// assert!(bool::read_inline(&bytes, 0));
    /// ```
    ///
    /// # Panics
    /// If the range is out of bounds.
    fn read_inline(bytes: &'a [u8], pos: usize) -> Self;
}

macro_rules! inline_scalar {
    ($($t:ty),*) => {$(
        impl<'a> Inline<'a> for $t {
            const SIZE: usize = <$t as Scalar>::SIZE;
            #[inline(always)]
            fn read_inline(bytes: &'a [u8], pos: usize) -> Self {
                read_scalar::<$t>(bytes, pos)
            }
        }
    )*};
}
inline_scalar!(bool, u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

impl<'a, S: Struct> Inline<'a> for &'a S {
    const SIZE: usize = core::mem::size_of::<S>();
    #[inline(always)]
    fn read_inline(bytes: &'a [u8], pos: usize) -> Self {
        match struct_from_bytes(&bytes[pos..pos + core::mem::size_of::<S>()]) {
            Some(s) => s,
            None => unreachable!("the range has exactly the struct's size"),
        }
    }
}

/// A fixed-size array inside a struct (`[int:3]`): a view of its bytes.
///
/// Generated struct accessors return `Array::new(&self.0[START..END])`.
///
/// ```
/// let bytes = [1u8, 0, 2, 0, 3, 0];
/// let a = flatforge::Array::<u16>::new(&bytes);
/// assert_eq!(a.len(), 3);
/// assert_eq!(a.get(2), Some(3));
/// assert_eq!(a.iter().collect::<Vec<_>>(), [1, 2, 3]);
/// ```
pub struct Array<'a, T> {
    bytes: &'a [u8],
    _marker: PhantomData<T>,
}

impl<T> Clone for Array<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Array<'_, T> {}

impl<'a, T: Inline<'a>> Array<'a, T> {
    /// A view of `bytes` as `bytes.len() / T::SIZE` elements (trailing bytes are ignored).
    ///
    /// ```
    /// // struct Color { rgb: [ubyte:3]; alpha: ubyte; }: the accessor of `rgb`
    /// let color = [10u8, 20, 30, 255];
    /// let rgb = flatforge::Array::<u8>::new(&color[0..3]);
    /// assert_eq!(rgb.iter().collect::<Vec<_>>(), [10, 20, 30]);
    /// assert_eq!(flatforge::Array::<u16>::new(&color[0..3]).len(), 1); // 1 byte left over
    /// ```
    #[inline(always)]
    pub fn new(bytes: &'a [u8]) -> Self {
        Array {
            bytes,
            _marker: PhantomData,
        }
    }

    /// The number of elements.
    ///
    /// ```
    /// let a = flatforge::Array::<f32>::new(&[0; 12]);
    /// assert_eq!(a.len(), 3);
    /// ```
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.bytes.len() / T::SIZE
    }

    /// Whether the array is empty.
    ///
    /// ```
    /// assert!(flatforge::Array::<u32>::new(&[]).is_empty());
    /// assert!(!flatforge::Array::<u32>::new(&[0; 4]).is_empty());
    /// ```
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The element at `index`, or `None` past the end.
    ///
    /// ```
    /// let a = flatforge::Array::<i16>::new(&[0xff, 0xff, 5, 0]);
    /// assert_eq!((a.get(0), a.get(1), a.get(2)), (Some(-1), Some(5), None));
    /// ```
    #[inline(always)]
    pub fn get(&self, index: usize) -> Option<T> {
        (index < self.len()).then(|| T::read_inline(self.bytes, index * T::SIZE))
    }

    /// An iterator over the elements.
    ///
    /// ```
    /// let a = flatforge::Array::<u16>::new(&[1, 0, 2, 0, 3, 0]);
    /// assert_eq!(a.iter().rev().collect::<Vec<_>>(), [3, 2, 1]);
    /// assert_eq!(a.iter().len(), 3);
    /// ```
    #[inline]
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = T> + ExactSizeIterator + 'a {
        let bytes = self.bytes;
        (0..self.len()).map(move |i| T::read_inline(bytes, i * T::SIZE))
    }

    /// The array's bytes.
    ///
    /// ```
    /// let a = flatforge::Array::<u16>::new(&[1, 0, 2, 0]);
    /// assert_eq!(a.bytes(), [1, 0, 2, 0]);
    /// ```
    #[inline(always)]
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }
}

impl<'a, T: Inline<'a> + fmt::Debug> fmt::Debug for Array<'a, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Verifies `buf` with default options and returns its root as a `T`.
///
/// ```
/// let mut b = flatforge::Builder::new();
/// let s = b.create_string("root string")?;
/// let bytes = b.finish(s, None)?.to_vec();
/// assert_eq!(flatforge::root::<&str>(&bytes)?, "root string");
/// assert!(flatforge::root::<&str>(&bytes[..6]).is_err());
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub fn root<'a, T: Follow<'a>>(buf: &'a [u8]) -> Result<T, Error> {
    // Inlined with the options as constants: the limits become immediates, and the code for a
    // size prefix and a file identifier goes away.
    verify_root(buf, &VerifierOptions::DEFAULT)
}

/// Verifies `buf` with `opts` (limits, file identifier, size prefix) and returns its root as a `T`.
///
/// ```
/// use flatforge::VerifierOptions;
/// let mut b = flatforge::Builder::new();
/// let s = b.create_string("x")?;
/// let bytes = b.finish_size_prefixed(s, Some(b"TEST"))?.to_vec();
/// let opts = VerifierOptions::default().with_size_prefixed(true).with_file_identifier(*b"TEST");
/// assert_eq!(flatforge::root_with_options::<&str>(&bytes, &opts)?, "x");
/// let wrong = opts.with_file_identifier(*b"NOPE");
/// assert!(flatforge::root_with_options::<&str>(&bytes, &wrong).is_err());
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub fn root_with_options<'a, T: Follow<'a>>(
    buf: &'a [u8],
    opts: &VerifierOptions,
) -> Result<T, Error> {
    verify_root(buf, opts)
}

/// [`root_with_options`], inlined into both root functions.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
fn verify_root<'a, T: Follow<'a>>(buf: &'a [u8], opts: &VerifierOptions) -> Result<T, Error> {
    let mut v = Verifier::new(buf, opts);
    let pos = v.root().map_err(|e| e.in_root(T::TYPE_NAME))?;
    T::verify_root_at(&mut v, pos).map_err(|e| e.in_root(T::TYPE_NAME))?;
    let buf = v.buffer();
    // SAFETY: `root` checked that the 4 bytes at `pos` lie in `buf`, and `T::verify_root_at`
    // accepted `pos` with a verifier over `buf` (the verifier's possibly shortened buffer, used
    // here).
    Ok(unsafe { T::follow(buf, pos) })
}

/// The root of `buf` as a `T`, without verification: for a buffer verified before (when it was
/// received, say) and read again.
///
/// ```
/// use flatforge::VerifierOptions;
/// let mut b = flatforge::Builder::new();
/// let s = b.create_string("checked once")?;
/// let bytes = b.finish_size_prefixed(s, None)?;
/// let opts = VerifierOptions::default().with_size_prefixed(true);
/// flatforge::root_with_options::<&str>(bytes, &opts)?;
/// // SAFETY: `bytes` passed `root_with_options::<&str>` with a 32-bit size prefix, as said here.
/// let s = unsafe { flatforge::root_unchecked::<&str>(bytes, true) };
/// assert_eq!(s, "checked once");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
///
/// # Safety
/// `buf` must pass [`root_with_options::<T>`] with `size_prefixed` set as given here, and without
/// a 64-bit size prefix ([`VerifierOptions::size_prefix64`]): the root offset is read at 4 after a
/// size prefix, where a 64-bit prefix puts it at 8.
pub unsafe fn root_unchecked<'a, T: Follow<'a>>(buf: &'a [u8], size_prefixed: bool) -> T {
    // SAFETY: guaranteed by the caller.
    unsafe { T::follow(buf, if size_prefixed { 4 } else { 0 }) }
}

/// Compares two keys in the order key-sorted vectors use: `partial_cmp`, with NaN after every
/// number and equal to NaN, so that floats have a total order ([`Builder::sort_by_scalar_field`]
/// sorts with it; generated `lookup_by_key` functions search with it).
///
/// ```
/// use core::cmp::Ordering;
/// use flatforge::key_cmp;
/// assert_eq!(key_cmp(&1.5, &2.0), Ordering::Less);
/// assert_eq!(key_cmp(&f64::NAN, &f64::INFINITY), Ordering::Greater);
/// assert_eq!(key_cmp(&f32::NAN, &f32::NAN), Ordering::Equal);
/// assert_eq!(key_cmp(&-0.0, &0.0), Ordering::Equal);
/// assert_eq!(key_cmp(&3u8, &3u8), Ordering::Equal);
/// ```
///
/// [`Builder::sort_by_scalar_field`]: crate::Builder::sort_by_scalar_field
#[inline]
pub fn key_cmp<K: PartialOrd>(a: &K, b: &K) -> Ordering {
    a.partial_cmp(b).unwrap_or_else(|| {
        let is_nan = |k: &K| k.partial_cmp(k).is_none();
        is_nan(a).cmp(&is_nan(b))
    })
}

/// Whether `buf` carries `identifier` at its file identifier position.
///
/// ```
/// let mut b = flatforge::Builder::new();
/// let s = b.create_string("x")?;
/// let bytes = b.finish(s, Some(b"MONS"))?;
/// assert!(flatforge::buffer_has_identifier(bytes, b"MONS", false));
/// assert!(!flatforge::buffer_has_identifier(bytes, b"NOPE", false));
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub fn buffer_has_identifier(buf: &[u8], identifier: &[u8; 4], size_prefixed: bool) -> bool {
    let start = if size_prefixed { 8 } else { 4 };
    buf.get(start..start + 4) == Some(&identifier[..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Builder;
    use alloc::vec::Vec;

    /// A table type that implements only `Follow::follow`, as hand-written code written before
    /// `follow_at` does: the views reach it through the default `follow_at`.
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Id(u32);

    impl Verify for Id {
        const SIZE: usize = 4;
        const ALIGN: usize = 4;
        fn verify_at(v: &mut Verifier<'_>, pos: usize) -> Result<(), Error> {
            v.follow_table(pos).map(drop)
        }
    }

    impl<'a> Follow<'a> for Id {
        unsafe fn follow(buf: &'a [u8], pos: usize) -> Self {
            // SAFETY: forwarded: `verify_at` checked the table at `pos`.
            let t = unsafe { Table::follow(buf, pos) };
            // SAFETY: the tests write slot 0 as a u32.
            Id(unsafe { t.get_unchecked::<u32>(0) }.unwrap_or(0))
        }
    }

    /// A vector of three tables `{0: 10 * i}` (the last with slot 0 absent), with a string and
    /// padding before it so that positions are not small multiples of each other.
    fn ids() -> Vec<u8> {
        let mut b = Builder::new();
        let mut offsets = Vec::new();
        for i in 1..=3u32 {
            b.create_string("padding").expect("fits");
            b.start_table();
            b.add_scalar::<u32>(0, if i == 3 { 0 } else { 10 * i }, 0)
                .expect("fits");
            offsets.push(b.end_table().expect("fits"));
        }
        let v = b.create_vector_of_offsets(&offsets).expect("fits");
        b.finish(v, None).expect("fits").to_vec()
    }

    #[test]
    fn types_without_follow_at_read_through_the_default() {
        let bytes = ids();
        let v: Vector<Id> = root(&bytes).unwrap();
        assert_eq!(v.iter().collect::<Vec<_>>(), [Id(10), Id(20), Id(0)]);
        assert_eq!(v.iter().rev().collect::<Vec<_>>(), [Id(0), Id(20), Id(10)]);
        assert_eq!(
            (v.get(1), v.get(3), v.last()),
            (Some(Id(20)), None, Some(Id(0)))
        );
        let mut it = v.iter();
        assert_eq!(
            (it.next(), it.next_back(), it.len()),
            (Some(Id(10)), Some(Id(0)), 1)
        );
    }

    #[test]
    fn pointer_views_report_the_positions_of_their_buffer() {
        let bytes = ids();
        let tables: Vector<Table> = root(&bytes).unwrap();
        for t in tables {
            let pos = t.position();
            assert!(core::ptr::eq(t.buffer(), bytes.as_slice()));
            let soffset = i32::from_le_bytes(bytes[pos..pos + 4].try_into().unwrap());
            assert_eq!(t.vtable() as isize, pos as isize - soffset as isize);
            // A table read again from its position is the same table.
            assert_eq!(Table::new(&bytes, pos).unwrap().position(), pos);
        }
        let first = tables.get(0).unwrap();
        let voffset = usize::from(first.field_offset(0));
        let at = first.position() + voffset;
        assert_eq!(bytes[at..at + 4], 10u32.to_le_bytes());
        let it = tables.iter();
        let text = alloc::format!("{it:?}");
        // The root offset points to the vector's length; its 3 elements follow.
        let data = u32::from_le_bytes(bytes[..4].try_into().unwrap()) as usize + 4;
        let end = data + 4 * 3;
        assert_eq!(
            text,
            alloc::format!("VectorIter {{ pos: {data}, end: {end} }}")
        );
    }

    #[test]
    fn slots_past_the_vtable_and_huge_slots_are_absent() {
        let bytes = ids();
        let t: Table = root::<Vector<Table>>(&bytes).unwrap().get(0).unwrap();
        // The vtable has one entry, so slot 1 is past it; `usize::MAX` must not overflow `2 * slot`.
        for slot in [1, 2, 1000, usize::MAX / 2, usize::MAX] {
            assert_eq!(t.field_offset(slot), 0, "slot {slot}");
            // SAFETY: absent fields are never read.
            assert_eq!(unsafe { t.get_unchecked::<u64>(slot) }, None);
        }
    }

    #[test]
    fn views_are_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Table<'_>>();
        check::<Vector<'_, u8>>();
        check::<Vector<'_, Table<'_>>>();
        check::<VectorIter<'_, &str>>();
    }
}
