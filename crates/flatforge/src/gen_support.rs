//! Support for the code `flatforge-codegen` generates: what generated code needs beyond the views,
//! builder and verifier primitives (union values and vectors of unions, structs stored out of line,
//! empty default vectors, the version check). Hand-written code rarely needs it.
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

use crate::builder::{Builder, Offset};
use crate::error::{BuildError, Error};
use crate::scalar::{read_scalar_unchecked, Struct};
use crate::verify::Verifier;
use crate::view::{Follow, Table, Vector};

/// The runtime's version; generated code checks it at compile time with [`version_is`].
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
/// member from its type byte and the position of its offset.
///
/// ```
/// use flatforge::gen_support::Union;
/// use flatforge::{Error, Verifier, Verify};
///
/// /// union U { S: string }
/// #[derive(Debug, PartialEq)]
/// enum U<'a> { S(&'a str) }
/// impl<'a> Union<'a> for U<'a> {
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
    /// Verifies the member of type `ty` whose offset is at `pos`; `None` if `ty` names no member.
    fn verify_member(v: &mut Verifier<'_>, ty: u8, pos: usize) -> Option<Result<(), Error>>;

    /// Reads the member of type `ty` whose offset is at `pos`; `None` for NONE and unknown types.
    ///
    /// # Safety
    /// [`verify_member`](Self::verify_member) must have accepted `(ty, pos)` with a verifier over
    /// exactly `buf`.
    unsafe fn follow_member(buf: &'a [u8], ty: u8, pos: usize) -> Option<Self>;
}

/// Reads the union whose type is in `type_slot` and whose value is in `value_slot` of `table`.
///
/// # Safety
/// The table's verifier must have checked these slots with
/// [`TableVerifier::union`](crate::TableVerifier::union) and `U::verify_member`.
#[inline(always)]
pub unsafe fn union_unchecked<'a, U: Union<'a>>(
    table: Table<'a>,
    type_slot: usize,
    value_slot: usize,
) -> Option<U> {
    // SAFETY: the caller guarantees the type slot was verified as a `u8`.
    let ty = unsafe { table.get_unchecked::<u8>(type_slot) }?;
    match table.field_offset(value_slot) {
        0 => None,
        // SAFETY: the caller guarantees that `U::verify_member` accepted `ty` at this position.
        voffset => unsafe {
            U::follow_member(table.buffer(), ty, table.position() + usize::from(voffset))
        },
    }
}

/// Reads the vector of unions whose types are in `type_slot` and values in `value_slot` of `table`.
///
/// # Safety
/// The table's verifier must have checked these slots with
/// [`TableVerifier::union_vector`](crate::TableVerifier::union_vector) and `U::verify_member`.
#[inline(always)]
pub unsafe fn union_vector_unchecked<'a, U: Union<'a>>(
    table: Table<'a>,
    type_slot: usize,
    value_slot: usize,
) -> Option<UnionVector<'a, U>> {
    // SAFETY: the caller guarantees both slots were verified as vectors, of bytes and of offsets,
    // of equal length.
    unsafe {
        let types = table.get_unchecked::<Vector<'a, u8>>(type_slot)?;
        let values = match table.field_offset(value_slot) {
            0 => return None,
            voffset => table.position() + usize::from(voffset),
        };
        let buf = table.buffer();
        let values = values + read_scalar_unchecked::<u32>(buf, values) as usize + 4;
        Some(UnionVector {
            buf,
            types: types.as_slice(),
            values,
            _marker: PhantomData,
        })
    }
}

/// A view of a vector of unions: a vector of type bytes and a vector of offsets of the same length.
///
/// Invariant: every element was verified with `U::verify_member` (elements of type NONE need not be).
pub struct UnionVector<'a, U> {
    buf: &'a [u8],
    types: &'a [u8],
    /// Position of the first value offset.
    values: usize,
    _marker: PhantomData<U>,
}

impl<U> Clone for UnionVector<'_, U> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<U> Copy for UnionVector<'_, U> {}

impl<'a, U: Union<'a>> UnionVector<'a, U> {
    /// The number of elements.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.types.len()
    }

    /// Whether the vector is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    /// The type bytes of the elements.
    #[inline(always)]
    pub fn types(&self) -> &'a [u8] {
        self.types
    }

    /// The element at `index`: `None` past the end, and `Some(None)` for an element of type NONE.
    #[inline]
    pub fn get(&self, index: usize) -> Option<Option<U>> {
        let ty = *self.types.get(index)?;
        // SAFETY: invariant: element `index` was verified as a member of type `ty`.
        Some(unsafe { U::follow_member(self.buf, ty, self.values + 4 * index) })
    }

    /// An iterator over the elements (`None` for elements of type NONE).
    #[inline]
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = Option<U>> + ExactSizeIterator + 'a
    where
        U: 'a,
    {
        let (buf, values) = (self.buf, self.values);
        self.types.iter().enumerate().map(move |(i, &ty)| {
            // SAFETY: invariant: element `i` was verified as a member of type `ty`.
            unsafe { U::follow_member(buf, ty, values + 4 * i) }
        })
    }
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
/// fields a vector of unions occupies). `U` is the generated union offset type it holds.
pub struct UnionVectorOffset<U> {
    types: Offset<[u8]>,
    values: Offset<[Offset<()>]>,
    _marker: PhantomData<fn() -> U>,
}

impl<U> UnionVectorOffset<U> {
    /// The pair of vectors.
    ///
    /// ```
    /// use flatforge::{gen_support::UnionVectorOffset, Offset};
    /// let v = UnionVectorOffset::<()>::new(Offset::new(8), Offset::new(16));
    /// assert_eq!((v.types().value(), v.values().value()), (8, 16));
    /// ```
    pub fn new(types: Offset<[u8]>, values: Offset<[Offset<()>]>) -> Self {
        UnionVectorOffset {
            types,
            values,
            _marker: PhantomData,
        }
    }

    /// The offset of the types vector.
    pub fn types(&self) -> Offset<[u8]> {
        self.types
    }

    /// The offset of the values vector.
    pub fn values(&self) -> Offset<[Offset<()>]> {
        self.values
    }
}

impl<U> Clone for UnionVectorOffset<U> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<U> Copy for UnionVectorOffset<U> {}
impl<U> PartialEq for UnionVectorOffset<U> {
    fn eq(&self, other: &Self) -> bool {
        self.types == other.types && self.values == other.values
    }
}
impl<U> Eq for UnionVectorOffset<U> {}
impl<U> fmt::Debug for UnionVectorOffset<U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UnionVectorOffset")
            .field("types", &self.types)
            .field("values", &self.values)
            .finish()
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
    pub fn new(enum_name: &'static str, value: i128) -> Self {
        UnknownEnumValue { enum_name, value }
    }

    /// The enum's name.
    pub fn enum_name(&self) -> &'static str {
        self.enum_name
    }

    /// The value.
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
