//! The FlatBuffers.mbt (MoonBit) micro-workloads of WORKLOADS.md §2, written twice: with the
//! flatforge runtime the way generated code will use it ([`ours`]: one-shot table writers, views
//! with unchecked field reads behind a verifier), and with the official `flatbuffers` crate the way
//! `flatc --rust` output uses it ([`official`]: `start_table` / `push_slot` / `end_table`,
//! `Table::get` with vtable offsets, `Verifiable` impls). Slot k is vtable field k.
//!
//! Build workloads start from a new builder with 256 bytes of capacity, as the MoonBit benchmark
//! does. Reads start from a buffer built before timing.

/// The flatforge implementation.
pub mod ours {
    use flatforge::{BuildError, Builder, Error, Follow, Table, Vector, Verifier, Verify};

    /// `table { 0: string; 1: int; 2: short; }` (simple_table).
    #[derive(Clone, Copy)]
    pub struct Simple<'a>(Table<'a>);

    impl Verify for Simple<'_> {
        const SIZE: usize = 4;
        const ALIGN: usize = 4;
        const TYPE_NAME: &'static str = "Simple";
        #[inline]
        fn verify_at(v: &mut Verifier<'_>, pos: usize) -> Result<(), Error> {
            let target = v.offset(pos)?;
            let mut t = v.table(target)?;
            t.field::<&str>(0, "name", false)?;
            t.field::<i32>(1, "value", false)?;
            t.field::<i16>(2, "small", false)
        }
    }

    impl<'a> Follow<'a> for Simple<'a> {
        #[inline]
        unsafe fn follow(buf: &'a [u8], pos: usize) -> Self {
            // SAFETY: forwarded: `Simple::verify_at` accepted `pos`.
            Simple(unsafe { Table::follow(buf, pos) })
        }
    }

    impl<'a> Simple<'a> {
        /// Field 0.
        #[inline]
        pub fn name(&self) -> Option<&'a str> {
            // SAFETY: `verify_at` checked slot 0 as a string.
            unsafe { self.0.get_unchecked(0) }
        }
        /// Field 1.
        #[inline]
        pub fn value(&self) -> i32 {
            // SAFETY: `verify_at` checked slot 1 as an i32.
            unsafe { self.0.get_unchecked(1) }.unwrap_or(0)
        }
        /// Field 2.
        #[inline]
        pub fn small(&self) -> i16 {
            // SAFETY: `verify_at` checked slot 2 as an i16.
            unsafe { self.0.get_unchecked(2) }.unwrap_or(0)
        }
    }

    /// `table { 0: [ubyte]; }` (byte_vector) and `table { 0: [string]; }` (string_vector) share
    /// this view shape: one offset field.
    #[derive(Clone, Copy)]
    pub struct Bytes<'a>(Table<'a>);

    impl Verify for Bytes<'_> {
        const SIZE: usize = 4;
        const ALIGN: usize = 4;
        #[inline]
        fn verify_at(v: &mut Verifier<'_>, pos: usize) -> Result<(), Error> {
            let target = v.offset(pos)?;
            let mut t = v.table(target)?;
            t.field::<Vector<u8>>(0, "data", false)
        }
    }

    impl<'a> Follow<'a> for Bytes<'a> {
        #[inline]
        unsafe fn follow(buf: &'a [u8], pos: usize) -> Self {
            // SAFETY: forwarded.
            Bytes(unsafe { Table::follow(buf, pos) })
        }
    }

    impl<'a> Bytes<'a> {
        /// Field 0.
        #[inline]
        pub fn data(&self) -> Option<Vector<'a, u8>> {
            // SAFETY: `verify_at` checked slot 0 as a byte vector.
            unsafe { self.0.get_unchecked(0) }
        }
    }

    /// `table Inner { 0: string; 1: int; }`.
    #[derive(Clone, Copy)]
    pub struct Inner<'a>(Table<'a>);

    impl Verify for Inner<'_> {
        const SIZE: usize = 4;
        const ALIGN: usize = 4;
        #[inline]
        fn verify_at(v: &mut Verifier<'_>, pos: usize) -> Result<(), Error> {
            let target = v.offset(pos)?;
            let mut t = v.table(target)?;
            t.field::<&str>(0, "name", false)?;
            t.field::<i32>(1, "value", false)
        }
    }

    impl<'a> Follow<'a> for Inner<'a> {
        #[inline]
        unsafe fn follow(buf: &'a [u8], pos: usize) -> Self {
            // SAFETY: forwarded.
            Inner(unsafe { Table::follow(buf, pos) })
        }
    }

    impl<'a> Inner<'a> {
        /// Field 0.
        #[inline]
        pub fn name(&self) -> Option<&'a str> {
            // SAFETY: checked as a string.
            unsafe { self.0.get_unchecked(0) }
        }
        /// Field 1.
        #[inline]
        pub fn value(&self) -> i32 {
            // SAFETY: checked as an i32.
            unsafe { self.0.get_unchecked(1) }.unwrap_or(0)
        }
    }

    /// `table Outer { 0: string; 1: Inner; }`.
    #[derive(Clone, Copy)]
    pub struct Outer<'a>(Table<'a>);

    impl Verify for Outer<'_> {
        const SIZE: usize = 4;
        const ALIGN: usize = 4;
        #[inline]
        fn verify_at(v: &mut Verifier<'_>, pos: usize) -> Result<(), Error> {
            let target = v.offset(pos)?;
            let mut t = v.table(target)?;
            t.field::<&str>(0, "name", false)?;
            t.field::<Inner>(1, "inner", false)
        }
    }

    impl<'a> Follow<'a> for Outer<'a> {
        #[inline]
        unsafe fn follow(buf: &'a [u8], pos: usize) -> Self {
            // SAFETY: forwarded.
            Outer(unsafe { Table::follow(buf, pos) })
        }
    }

    impl<'a> Outer<'a> {
        /// Field 0.
        #[inline]
        pub fn name(&self) -> Option<&'a str> {
            // SAFETY: checked as a string.
            unsafe { self.0.get_unchecked(0) }
        }
        /// Field 1.
        #[inline]
        pub fn inner(&self) -> Option<Inner<'a>> {
            // SAFETY: checked as an Inner table.
            unsafe { self.0.get_unchecked(1) }
        }
    }

    /// build simple_table.
    #[inline(never)]
    pub fn build_simple(b: &mut Builder) -> Result<&[u8], BuildError> {
        let name = b.create_string("TestName")?;
        let mut t = b.table_writer::<10>(4 + 4 + 2, 4)?;
        t.add_offset(0, name);
        t.add_scalar::<i32>(1, 100, 0);
        t.add_scalar::<i16>(2, 50, 0);
        let root = t.finish()?;
        b.finish(root, None)
    }

    /// build string_vector.
    #[inline(never)]
    pub fn build_string_vector(b: &mut Builder) -> Result<&[u8], BuildError> {
        let items = [
            b.create_string("Item1")?,
            b.create_string("Item2")?,
            b.create_string("Item3")?,
        ];
        let v = b.create_vector_of_offsets(&items)?;
        let mut t = b.table_writer::<6>(4, 4)?;
        t.add_offset(0, v);
        let root = t.finish()?;
        b.finish(root, None)
    }

    /// build byte_vector.
    #[inline(never)]
    pub fn build_byte_vector(b: &mut Builder) -> Result<&[u8], BuildError> {
        let v = b.create_vector(&[0x42u8; 100])?;
        let mut t = b.table_writer::<6>(4, 4)?;
        t.add_offset(0, v);
        let root = t.finish()?;
        b.finish(root, None)
    }

    /// build shared_strings.
    #[inline(never)]
    pub fn build_shared_strings(b: &mut Builder) -> Result<&[u8], BuildError> {
        let s1 = b.create_shared_string("SharedString")?;
        let s2 = b.create_shared_string("SharedString")?;
        let s3 = b.create_shared_string("SharedString")?;
        let other = b.create_shared_string("DifferentString")?;
        let mut t = b.table_writer::<12>(16, 4)?;
        t.add_offset(0, s1);
        t.add_offset(1, s2);
        t.add_offset(2, s3);
        t.add_offset(3, other);
        let root = t.finish()?;
        b.finish(root, None)
    }

    /// build nested_table.
    #[inline(never)]
    pub fn build_nested(b: &mut Builder) -> Result<&[u8], BuildError> {
        let inner_name = b.create_string("InnerName")?;
        let mut t = b.table_writer::<8>(8, 4)?;
        t.add_offset(0, inner_name);
        t.add_scalar::<i32>(1, 50, 0);
        let inner = t.finish()?;
        let outer_name = b.create_string("OuterName")?;
        let mut t = b.table_writer::<8>(8, 4)?;
        t.add_offset(0, outer_name);
        t.add_offset(1, inner);
        let root = t.finish()?;
        b.finish(root, None)
    }

    /// read simple_table: all three fields.
    #[inline(never)]
    pub fn read_simple(buf: &[u8]) -> i64 {
        // SAFETY: the benchmark verifies the buffer before timing.
        let t: Simple = unsafe { flatforge::root_unchecked(buf, false) };
        t.name().map_or(0, str::len) as i64 + i64::from(t.value()) + i64::from(t.small())
    }

    /// read byte_vector: the sum of the bytes, element by element.
    #[inline(never)]
    pub fn read_bytes_each(buf: &[u8]) -> u64 {
        // SAFETY: verified before timing.
        let t: Bytes = unsafe { flatforge::root_unchecked(buf, false) };
        t.data().map_or(0, |v| v.iter().map(u64::from).sum())
    }

    /// read byte_vector: the sum of the bytes, through one slice.
    #[inline(never)]
    pub fn read_bytes_slice(buf: &[u8]) -> u64 {
        // SAFETY: verified before timing.
        let t: Bytes = unsafe { flatforge::root_unchecked(buf, false) };
        t.data()
            .map_or(0, |v| v.as_slice().iter().map(|&b| u64::from(b)).sum())
    }

    /// read nested_table: outer name, inner name and int.
    #[inline(never)]
    pub fn read_nested(buf: &[u8]) -> i64 {
        // SAFETY: verified before timing.
        let t: Outer = unsafe { flatforge::root_unchecked(buf, false) };
        let inner = t.inner();
        t.name().map_or(0, str::len) as i64
            + inner.and_then(|i| i.name()).map_or(0, str::len) as i64
            + inner.map_or(0, |i| i64::from(i.value()))
    }

    /// verify simple_table.
    #[inline(never)]
    pub fn verify_simple(buf: &[u8]) -> Result<Simple<'_>, Error> {
        flatforge::root::<Simple>(buf)
    }
}

/// The official `flatbuffers` crate, used as `flatc --rust` generated code uses it.
pub mod official {
    use flatbuffers::{
        FlatBufferBuilder, Follow, ForwardsUOffset, InvalidFlatbuffer, Table, Vector, Verifiable,
        Verifier,
    };

    /// The vtable offset of slot k, as generated code spells its `VT_*` constants.
    const fn vt(slot: u16) -> u16 {
        4 + 2 * slot
    }

    /// `table { 0: string; 1: int; 2: short; }`.
    #[derive(Clone, Copy)]
    pub struct Simple<'a> {
        tab: Table<'a>,
    }

    impl<'a> Follow<'a> for Simple<'a> {
        type Inner = Simple<'a>;
        #[inline]
        unsafe fn follow(buf: &'a [u8], loc: usize) -> Self::Inner {
            Simple {
                // SAFETY: the generated-code contract: `loc` is a verified table.
                tab: unsafe { Table::new(buf, loc) },
            }
        }
    }

    impl Verifiable for Simple<'_> {
        #[inline]
        fn run_verifier(v: &mut Verifier, pos: usize) -> Result<(), InvalidFlatbuffer> {
            v.visit_table(pos)?
                .visit_field::<ForwardsUOffset<&str>>("name", vt(0), false)?
                .visit_field::<i32>("value", vt(1), false)?
                .visit_field::<i16>("small", vt(2), false)?
                .finish();
            Ok(())
        }
    }

    impl<'a> Simple<'a> {
        /// Field 0.
        #[inline]
        pub fn name(&self) -> Option<&'a str> {
            // SAFETY: as generated code: the buffer was verified (or the caller vouched for it).
            unsafe { self.tab.get::<ForwardsUOffset<&str>>(vt(0), None) }
        }
        /// Field 1.
        #[inline]
        pub fn value(&self) -> i32 {
            // SAFETY: as above.
            unsafe { self.tab.get::<i32>(vt(1), Some(0)).unwrap() }
        }
        /// Field 2.
        #[inline]
        pub fn small(&self) -> i16 {
            // SAFETY: as above.
            unsafe { self.tab.get::<i16>(vt(2), Some(0)).unwrap() }
        }
    }

    /// `table { 0: [ubyte]; }`.
    #[derive(Clone, Copy)]
    pub struct Bytes<'a> {
        tab: Table<'a>,
    }

    impl<'a> Follow<'a> for Bytes<'a> {
        type Inner = Bytes<'a>;
        #[inline]
        unsafe fn follow(buf: &'a [u8], loc: usize) -> Self::Inner {
            Bytes {
                // SAFETY: as above.
                tab: unsafe { Table::new(buf, loc) },
            }
        }
    }

    impl<'a> Bytes<'a> {
        /// Field 0.
        #[inline]
        pub fn data(&self) -> Option<Vector<'a, u8>> {
            // SAFETY: as above.
            unsafe { self.tab.get::<ForwardsUOffset<Vector<'a, u8>>>(vt(0), None) }
        }
    }

    /// `table Inner { 0: string; 1: int; }` and `table Outer { 0: string; 1: Inner; }`.
    #[derive(Clone, Copy)]
    pub struct Named<'a> {
        tab: Table<'a>,
    }

    impl<'a> Follow<'a> for Named<'a> {
        type Inner = Named<'a>;
        #[inline]
        unsafe fn follow(buf: &'a [u8], loc: usize) -> Self::Inner {
            Named {
                // SAFETY: as above.
                tab: unsafe { Table::new(buf, loc) },
            }
        }
    }

    impl<'a> Named<'a> {
        /// Field 0.
        #[inline]
        pub fn name(&self) -> Option<&'a str> {
            // SAFETY: as above.
            unsafe { self.tab.get::<ForwardsUOffset<&str>>(vt(0), None) }
        }
        /// Field 1 of Inner.
        #[inline]
        pub fn value(&self) -> i32 {
            // SAFETY: as above.
            unsafe { self.tab.get::<i32>(vt(1), Some(0)).unwrap() }
        }
        /// Field 1 of Outer.
        #[inline]
        pub fn inner(&self) -> Option<Named<'a>> {
            // SAFETY: as above.
            unsafe { self.tab.get::<ForwardsUOffset<Named<'a>>>(vt(1), None) }
        }
    }

    /// build simple_table.
    #[inline(never)]
    pub fn build_simple<'b>(b: &'b mut FlatBufferBuilder<'_>) -> &'b [u8] {
        let name = b.create_string("TestName");
        let start = b.start_table();
        b.push_slot_always(vt(0), name);
        b.push_slot::<i32>(vt(1), 100, 0);
        b.push_slot::<i16>(vt(2), 50, 0);
        let root = b.end_table(start);
        b.finish(root, None);
        b.finished_data()
    }

    /// build string_vector.
    #[inline(never)]
    pub fn build_string_vector<'b>(b: &'b mut FlatBufferBuilder<'_>) -> &'b [u8] {
        let items = [
            b.create_string("Item1"),
            b.create_string("Item2"),
            b.create_string("Item3"),
        ];
        let v = b.create_vector(&items);
        let start = b.start_table();
        b.push_slot_always(vt(0), v);
        let root = b.end_table(start);
        b.finish(root, None);
        b.finished_data()
    }

    /// build byte_vector.
    #[inline(never)]
    pub fn build_byte_vector<'b>(b: &'b mut FlatBufferBuilder<'_>) -> &'b [u8] {
        let v = b.create_vector(&[0x42u8; 100]);
        let start = b.start_table();
        b.push_slot_always(vt(0), v);
        let root = b.end_table(start);
        b.finish(root, None);
        b.finished_data()
    }

    /// build shared_strings.
    #[inline(never)]
    pub fn build_shared_strings<'b>(b: &'b mut FlatBufferBuilder<'_>) -> &'b [u8] {
        let s1 = b.create_shared_string("SharedString");
        let s2 = b.create_shared_string("SharedString");
        let s3 = b.create_shared_string("SharedString");
        let other = b.create_shared_string("DifferentString");
        let start = b.start_table();
        b.push_slot_always(vt(0), s1);
        b.push_slot_always(vt(1), s2);
        b.push_slot_always(vt(2), s3);
        b.push_slot_always(vt(3), other);
        let root = b.end_table(start);
        b.finish(root, None);
        b.finished_data()
    }

    /// build nested_table.
    #[inline(never)]
    pub fn build_nested<'b>(b: &'b mut FlatBufferBuilder<'_>) -> &'b [u8] {
        let inner_name = b.create_string("InnerName");
        let start = b.start_table();
        b.push_slot_always(vt(0), inner_name);
        b.push_slot::<i32>(vt(1), 50, 0);
        let inner = b.end_table(start);
        let outer_name = b.create_string("OuterName");
        let start = b.start_table();
        b.push_slot_always(vt(0), outer_name);
        b.push_slot_always(vt(1), inner);
        let root = b.end_table(start);
        b.finish(root, None);
        b.finished_data()
    }

    /// read simple_table.
    #[inline(never)]
    pub fn read_simple(buf: &[u8]) -> i64 {
        // SAFETY: verified before timing.
        let t = unsafe { flatbuffers::root_unchecked::<Simple>(buf) };
        t.name().map_or(0, str::len) as i64 + i64::from(t.value()) + i64::from(t.small())
    }

    /// read byte_vector, element by element.
    #[inline(never)]
    pub fn read_bytes_each(buf: &[u8]) -> u64 {
        // SAFETY: verified before timing.
        let t = unsafe { flatbuffers::root_unchecked::<Bytes>(buf) };
        t.data().map_or(0, |v| v.iter().map(u64::from).sum())
    }

    /// read byte_vector through one slice.
    #[inline(never)]
    pub fn read_bytes_slice(buf: &[u8]) -> u64 {
        // SAFETY: verified before timing.
        let t = unsafe { flatbuffers::root_unchecked::<Bytes>(buf) };
        t.data()
            .map_or(0, |v| v.bytes().iter().map(|&b| u64::from(b)).sum())
    }

    /// read nested_table.
    #[inline(never)]
    pub fn read_nested(buf: &[u8]) -> i64 {
        // SAFETY: verified before timing.
        let t = unsafe { flatbuffers::root_unchecked::<Named>(buf) };
        let inner = t.inner();
        t.name().map_or(0, str::len) as i64
            + inner.and_then(|i| i.name()).map_or(0, str::len) as i64
            + inner.map_or(0, |i| i64::from(i.value()))
    }

    /// verify simple_table.
    #[inline(never)]
    pub fn verify_simple(buf: &[u8]) -> Result<Simple<'_>, InvalidFlatbuffer> {
        flatbuffers::root::<Simple>(buf)
    }
}
