//! The fixed-size values stored inline: scalars ([`Scalar`]) and structs ([`Struct`]), with the
//! little-endian load/store helpers that generated struct accessors use.
//!
//! Every load here is `from_le_bytes` on a byte array, which compiles to one (possibly unaligned) load
//! on little-endian hosts and to a load plus byte swap on big-endian ones.

use core::fmt::Debug;

mod sealed {
    pub trait Sealed {}
}

/// A FlatBuffers scalar: `bool`, the integer types of 8 to 64 bits, `f32` and `f64`.
///
/// Scalars are stored little-endian with their natural alignment (equal to their size). The trait is
/// sealed: the builder copies slices of scalars as raw bytes, which is only correct for these types.
///
/// ```
/// use flatforge::Scalar;
/// assert_eq!(u32::SIZE, 4);
/// assert_eq!(<u16 as Scalar>::from_le_array([0x34, 0x12]), 0x1234);
/// assert!(<bool as Scalar>::from_le_array([7]));
/// ```
pub trait Scalar: Copy + PartialEq + Default + Debug + sealed::Sealed + 'static {
    /// Size in bytes, which is also the alignment.
    ///
    /// ```
    /// use flatforge::Scalar;
    /// assert_eq!((bool::SIZE, i16::SIZE, f64::SIZE), (1, 2, 8));
    /// assert_eq!(<u32 as Scalar>::SIZE, core::mem::align_of::<u32>());
    /// ```
    const SIZE: usize;
    /// Whether every bit pattern of `SIZE` bytes is a valid value of the type (false only for `bool`),
    /// so that little-endian buffer bytes may be viewed as `&[Self]` in place.
    ///
    /// ```
    /// use flatforge::Scalar;
    /// assert!(u8::ANY_BIT_PATTERN && f32::ANY_BIT_PATTERN);
    /// assert!(!bool::ANY_BIT_PATTERN); // only 0 and 1 are valid `bool`s
    /// ```
    const ANY_BIT_PATTERN: bool;
    /// The little-endian byte representation, `[u8; SIZE]`.
    ///
    /// ```
    /// use flatforge::Scalar;
    /// let bytes: <u16 as Scalar>::Bytes = 0x0102u16.to_le_array();
    /// assert_eq!(bytes.as_ref(), &[2, 1]);
    /// ```
    type Bytes: Copy + Default + AsRef<[u8]> + AsMut<[u8]>;
    /// Converts from little-endian bytes.
    ///
    /// ```
    /// use flatforge::Scalar;
    /// assert_eq!(i32::from_le_array([0xff, 0xff, 0xff, 0xff]), -1);
    /// assert_eq!(f32::from_le_array([0, 0, 0x80, 0x3f]), 1.0);
    /// ```
    fn from_le_array(bytes: Self::Bytes) -> Self;
    /// Converts to little-endian bytes.
    ///
    /// ```
    /// use flatforge::Scalar;
    /// assert_eq!(0x0102_0304u32.to_le_array(), [4, 3, 2, 1]);
    /// assert_eq!(true.to_le_array(), [1]);
    /// ```
    fn to_le_array(self) -> Self::Bytes;
    /// Whether `self` equals `default` for the purpose of eliding a table field: like `==`, except that
    /// a NaN equals a NaN default (as in flatc).
    ///
    /// ```
    /// use flatforge::Scalar;
    /// assert!(5u8.is_default(5) && !5u8.is_default(0));
    /// assert!(f64::NAN.is_default(f64::NAN)); // while `NAN == NAN` is false
    /// assert!(!0.0f32.is_default(f32::NAN));
    /// ```
    fn is_default(self, default: Self) -> bool;
}

macro_rules! int_scalar {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Scalar for $t {
            const SIZE: usize = core::mem::size_of::<$t>();
            const ANY_BIT_PATTERN: bool = true;
            type Bytes = [u8; core::mem::size_of::<$t>()];
            #[inline(always)]
            fn from_le_array(bytes: Self::Bytes) -> Self {
                <$t>::from_le_bytes(bytes)
            }
            #[inline(always)]
            fn to_le_array(self) -> Self::Bytes {
                self.to_le_bytes()
            }
            #[inline(always)]
            fn is_default(self, default: Self) -> bool {
                self == default
            }
        }
    )*};
}
int_scalar!(u8, i8, u16, i16, u32, i32, u64, i64);

macro_rules! float_scalar {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Scalar for $t {
            const SIZE: usize = core::mem::size_of::<$t>();
            const ANY_BIT_PATTERN: bool = true;
            type Bytes = [u8; core::mem::size_of::<$t>()];
            #[inline(always)]
            fn from_le_array(bytes: Self::Bytes) -> Self {
                <$t>::from_le_bytes(bytes)
            }
            #[inline(always)]
            fn to_le_array(self) -> Self::Bytes {
                self.to_le_bytes()
            }
            #[inline(always)]
            fn is_default(self, default: Self) -> bool {
                self == default || (self.is_nan() && default.is_nan())
            }
        }
    )*};
}
float_scalar!(f32, f64);

impl sealed::Sealed for bool {}
impl Scalar for bool {
    const SIZE: usize = 1;
    const ANY_BIT_PATTERN: bool = false;
    type Bytes = [u8; 1];
    #[inline(always)]
    fn from_le_array(bytes: [u8; 1]) -> Self {
        bytes[0] != 0
    }
    #[inline(always)]
    fn to_le_array(self) -> [u8; 1] {
        [self as u8]
    }
    #[inline(always)]
    fn is_default(self, default: Self) -> bool {
        self == default
    }
}

/// Reads the scalar stored little-endian at `bytes[pos..pos + T::SIZE]`.
///
/// Generated struct accessors call this with constant positions inside a fixed-size array, so the
/// bounds check folds away.
///
/// # Panics
/// If the range is out of bounds.
///
/// ```
/// assert_eq!(flatforge::read_scalar::<i16>(&[0, 0xfe, 0xff], 1), -2);
/// ```
#[inline(always)]
pub fn read_scalar<T: Scalar>(bytes: &[u8], pos: usize) -> T {
    let mut b = T::Bytes::default();
    b.as_mut().copy_from_slice(&bytes[pos..pos + T::SIZE]);
    T::from_le_array(b)
}

/// Writes `value` little-endian to `bytes[pos..pos + T::SIZE]`.
///
/// # Panics
/// If the range is out of bounds.
///
/// ```
/// let mut b = [0u8; 4];
/// flatforge::write_scalar(&mut b, 0, 0x0102_0304u32);
/// assert_eq!(b, [4, 3, 2, 1]);
/// ```
#[inline(always)]
pub fn write_scalar<T: Scalar>(bytes: &mut [u8], pos: usize, value: T) {
    bytes[pos..pos + T::SIZE].copy_from_slice(value.to_le_array().as_ref());
}

/// Reads a scalar at `pos` without a bounds check.
///
/// # Safety
/// `pos + T::SIZE <= buf.len()`.
#[inline(always)]
pub(crate) unsafe fn read_scalar_unchecked<T: Scalar>(buf: &[u8], pos: usize) -> T {
    debug_assert!(pos + T::SIZE <= buf.len());
    // SAFETY: the caller guarantees `pos..pos + T::SIZE` is inside `buf`.
    unsafe { read_scalar_at(buf.as_ptr().add(pos)) }
}

/// Reads the scalar at `at`, a pointer into a buffer.
///
/// # Safety
/// The `T::SIZE` bytes at `at` are inside the buffer `at` was derived from.
#[inline(always)]
pub(crate) unsafe fn read_scalar_at<T: Scalar>(at: *const u8) -> T {
    // SAFETY: the caller guarantees the bytes are readable; `T::Bytes` is `[u8; SIZE]`, valid for any
    // bytes and read unaligned.
    let bytes = unsafe { at.cast::<T::Bytes>().read_unaligned() };
    T::from_le_array(bytes)
}

/// A slice of scalars as its in-memory bytes, which on little-endian hosts are the wire bytes.
#[inline(always)]
pub(crate) fn scalars_as_bytes<T: Scalar>(values: &[T]) -> &[u8] {
    // SAFETY: `Scalar` is sealed and implemented only for primitive types without padding or
    // uninitialised bytes whose size is `T::SIZE`, so the memory of `values` is
    // `values.len() * T::SIZE` initialised bytes, and `u8` has alignment 1.
    unsafe {
        core::slice::from_raw_parts(values.as_ptr().cast::<u8>(), core::mem::size_of_val(values))
    }
}

/// A FlatBuffers struct: a fixed-size, alignment-1 byte array with typed getters.
///
/// Generated code defines each schema struct as `#[repr(transparent)] pub struct Vec3([u8; 32]);`,
/// implements this trait, and reads fields with [`read_scalar`] at constant offsets. Because the Rust
/// type has alignment 1 and accepts any bytes, a `&Vec3` can point straight into a buffer, and a
/// vector of structs can be viewed as a `&[Vec3]`.
///
/// # Safety
/// Implementors must be `#[repr(transparent)]` or `#[repr(C)]` wrappers of `[u8; N]` (possibly
/// nested): size `N`, alignment 1, no padding, every bit pattern valid, no interior mutability.
///
/// ```
/// use flatforge::{read_scalar, Struct};
///
/// #[derive(Clone, Copy)]
/// #[repr(transparent)]
/// struct Test([u8; 4]); // struct Test { a: short; b: byte; } (1 byte of padding)
///
/// // SAFETY: a transparent wrapper of [u8; 4].
/// unsafe impl Struct for Test {
///     const ALIGN: usize = 2;
/// }
/// impl Test {
///     fn a(&self) -> i16 { read_scalar(&self.0, 0) }
///     fn b(&self) -> i8 { read_scalar(&self.0, 2) }
/// }
///
/// let t: &Test = flatforge::struct_from_bytes(&[10, 0, 20, 0]).unwrap();
/// assert_eq!((t.a(), t.b()), (10, 20));
/// ```
pub unsafe trait Struct: Copy + 'static {
    /// The struct's alignment in a buffer (the largest alignment of its fields, or `force_align`).
    /// The builder pads to it; the Rust type itself has alignment 1.
    ///
    /// ```
    /// use flatforge::Struct;
    /// #[derive(Clone, Copy)]
    /// #[repr(transparent)]
    /// struct Vec2([u8; 16]); // struct Vec2 { x: double; y: double; }
    /// // SAFETY: a transparent wrapper of [u8; 16].
    /// unsafe impl Struct for Vec2 {
    ///     const ALIGN: usize = 8;
    /// }
    ///
    /// let mut b = flatforge::Builder::new();
    /// b.create_vector(&[1u8])?; // 5 bytes so far
    /// let v = b.create_vector_of_structs(&[Vec2([7; 16])])?;
    /// let bytes = b.finish(v, None)?;
    /// let data = bytes.len() - v.value() as usize + 4; // after the 4-byte length
    /// assert_eq!((data % Vec2::ALIGN, bytes[data]), (0, 7));
    /// assert_eq!(core::mem::align_of::<Vec2>(), 1);
    /// # Ok::<(), flatforge::BuildError>(())
    /// ```
    const ALIGN: usize;
}

/// Views exactly `size_of::<S>()` bytes as a struct; `None` if the length differs.
///
/// ```
/// # use flatforge::Struct;
/// # #[derive(Clone, Copy)] #[repr(transparent)] struct Pair([u8; 2]);
/// # unsafe impl Struct for Pair { const ALIGN: usize = 1; }
/// assert!(flatforge::struct_from_bytes::<Pair>(&[1, 2]).is_some());
/// assert!(flatforge::struct_from_bytes::<Pair>(&[1, 2, 3]).is_none());
/// ```
#[inline(always)]
pub fn struct_from_bytes<S: Struct>(bytes: &[u8]) -> Option<&S> {
    if bytes.len() == core::mem::size_of::<S>() {
        // SAFETY: `S: Struct` has size `bytes.len()`, alignment 1 and accepts any bytes; the
        // reference keeps the borrow of `bytes`.
        Some(unsafe { &*bytes.as_ptr().cast::<S>() })
    } else {
        None
    }
}

/// Views a slice of exactly `n * size_of::<S>()` bytes as `n` structs; `None` otherwise.
///
/// ```
/// # use flatforge::Struct;
/// # #[derive(Clone, Copy)] #[repr(transparent)] struct Pair([u8; 2]);
/// # unsafe impl Struct for Pair { const ALIGN: usize = 1; }
/// assert_eq!(flatforge::structs_from_bytes::<Pair>(&[1, 2, 3, 4]).unwrap().len(), 2);
/// ```
#[inline(always)]
pub fn structs_from_bytes<S: Struct>(bytes: &[u8]) -> Option<&[S]> {
    let size = core::mem::size_of::<S>();
    if size == 0 || bytes.len() % size != 0 {
        return None;
    }
    // SAFETY: as in `struct_from_bytes`: `bytes.len() / size` consecutive values of `S` occupy
    // exactly the bytes of `bytes`, and any alignment-1 pointer is valid for `S`.
    Some(unsafe { core::slice::from_raw_parts(bytes.as_ptr().cast::<S>(), bytes.len() / size) })
}

/// The bytes of a struct.
///
/// ```
/// # use flatforge::Struct;
/// # #[derive(Clone, Copy)] #[repr(transparent)] struct Pair([u8; 2]);
/// # unsafe impl Struct for Pair { const ALIGN: usize = 1; }
/// assert_eq!(flatforge::struct_bytes(&Pair([1, 2])), &[1, 2]);
/// ```
#[inline(always)]
pub fn struct_bytes<S: Struct>(value: &S) -> &[u8] {
    structs_as_bytes(core::slice::from_ref(value))
}

/// The bytes of a slice of structs.
#[inline(always)]
pub(crate) fn structs_as_bytes<S: Struct>(values: &[S]) -> &[u8] {
    // SAFETY: `S: Struct` is plain bytes without padding, so the slice's memory is
    // `size_of_val(values)` initialised bytes.
    unsafe {
        core::slice::from_raw_parts(values.as_ptr().cast::<u8>(), core::mem::size_of_val(values))
    }
}
