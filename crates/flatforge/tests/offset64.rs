//! 64-bit offsets (`offset64`, `vector64`), 64-bit size prefixes and unions with a wider type field:
//! building with the 64-bit region first (and the error when it is not), verifying and reading,
//! flatc's own `64bit/test_64bit.bin`, and hostile variants of all of it.

use flatforge::{
    BuildError, Builder, Error, ErrorKind, Far, Follow, Object, Struct, Table, Vector, Vector64,
    Verifier, VerifierOptions, Verify,
};
use flatforge_testkit::testdata;

/// `struct LeafStruct { a: int; b: double; }` (16 bytes, 8-aligned).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(transparent)]
struct Leaf([u8; 16]);

// SAFETY: a transparent wrapper of a byte array.
unsafe impl Struct for Leaf {
    const ALIGN: usize = 8;
}

impl Leaf {
    fn new(a: i32, b: f64) -> Leaf {
        let mut s = [0; 16];
        s[..4].copy_from_slice(&a.to_le_bytes());
        s[8..].copy_from_slice(&b.to_le_bytes());
        Leaf(s)
    }
    fn a(&self) -> i32 {
        flatforge::read_scalar(&self.0, 0)
    }
    fn b(&self) -> f64 {
        flatforge::read_scalar(&self.0, 8)
    }
}

/// The slots of 64bit/test_64bit.fbs's `RootTable`.
mod slot {
    pub(crate) const FAR_VECTOR: usize = 0;
    pub(crate) const A: usize = 1;
    pub(crate) const FAR_STRING: usize = 2;
    pub(crate) const BIG_BOOL_VECTOR: usize = 3;
    pub(crate) const BIG_VECTOR: usize = 4;
    pub(crate) const NEAR_STRING: usize = 5;
    pub(crate) const NESTED_ROOT: usize = 6;
    pub(crate) const FAR_STRUCT_VECTOR: usize = 7;
    pub(crate) const BIG_STRUCT_VECTOR: usize = 8;
}

/// A hand-written view of `RootTable`, verified as generated code verifies it.
#[derive(Clone, Copy)]
struct Root<'a>(Table<'a>);

impl Verify for Root<'_> {
    const SIZE: usize = 4;
    const ALIGN: usize = 4;
    const TYPE_NAME: &'static str = "RootTable";
    fn verify_at(v: &mut Verifier<'_>, pos: usize) -> Result<(), Error> {
        let mut t = v.follow_table(pos)?;
        t.field::<i32>(slot::A, "a", false)?;
        t.field::<Far<Vector<u8>>>(slot::FAR_VECTOR, "far_vector", false)?;
        t.field::<Far<&str>>(slot::FAR_STRING, "far_string", false)?;
        t.field::<Vector64<u8>>(slot::BIG_BOOL_VECTOR, "big_bool_vector", false)?;
        t.field::<Vector64<u8>>(slot::BIG_VECTOR, "big_vector", false)?;
        t.field::<&str>(slot::NEAR_STRING, "near_string", false)?;
        t.field::<Far<Vector<&Leaf>>>(slot::FAR_STRUCT_VECTOR, "far_struct_vector", false)?;
        t.field::<Vector64<&Leaf>>(slot::BIG_STRUCT_VECTOR, "big_struct_vector", false)?;
        t.far_nested_root::<Root>(slot::NESTED_ROOT, "nested_root", false, true)
    }
}

impl<'a> Follow<'a> for Root<'a> {
    unsafe fn follow(buf: &'a [u8], pos: usize) -> Self {
        // SAFETY: forwarded: `verify_at` accepted `pos`.
        Root(unsafe { Table::follow(buf, pos) })
    }
}

/// Everything a `RootTable` holds, read through the views.
#[derive(Debug, Default, PartialEq)]
struct Read {
    a: i32,
    far_vector: Option<Vec<u8>>,
    far_string: Option<String>,
    big_bool_vector: Option<Vec<u8>>,
    big_vector: Option<Vec<u8>>,
    near_string: Option<String>,
    far_struct_vector: Option<Vec<(i32, f64)>>,
    big_struct_vector: Option<Vec<(i32, f64)>>,
    nested_a: Option<i32>,
}

impl Root<'_> {
    fn read(self) -> Read {
        let t = self.0;
        // SAFETY: `Root::verify_at` checked each slot as the type read here.
        unsafe {
            let leaves = |v: Vector<&Leaf>| v.iter().map(|l| (l.a(), l.b())).collect();
            Read {
                a: t.get_unchecked::<i32>(slot::A).unwrap_or(0),
                far_vector: t
                    .get_unchecked::<Far<Vector<u8>>>(slot::FAR_VECTOR)
                    .map(|v| v.0.as_slice().to_vec()),
                far_string: t
                    .get_unchecked::<Far<&str>>(slot::FAR_STRING)
                    .map(|s| s.0.to_string()),
                big_bool_vector: t
                    .get_unchecked::<Vector64<u8>>(slot::BIG_BOOL_VECTOR)
                    .map(|v| v.0.as_slice().to_vec()),
                big_vector: t
                    .get_unchecked::<Vector64<u8>>(slot::BIG_VECTOR)
                    .map(|v| v.0.as_slice().to_vec()),
                near_string: t
                    .get_unchecked::<&str>(slot::NEAR_STRING)
                    .map(str::to_string),
                far_struct_vector: t
                    .get_unchecked::<Far<Vector<&Leaf>>>(slot::FAR_STRUCT_VECTOR)
                    .map(|v| leaves(v.0)),
                big_struct_vector: t
                    .get_unchecked::<Vector64<&Leaf>>(slot::BIG_STRUCT_VECTOR)
                    .map(|v| leaves(v.0)),
                nested_a: t
                    .get_unchecked::<Vector64<u8>>(slot::NESTED_ROOT)
                    .map(|v| flatforge::root_unchecked::<Root>(v.0.as_slice(), false))
                    .map(|r| r.0.get_unchecked::<i32>(slot::A).unwrap_or(0)),
            }
        }
    }
}

/// What flatc's `64bit/test_64bit.json` holds.
fn expected() -> Read {
    Read {
        a: 1234,
        far_vector: Some(vec![1, 2, 3]),
        far_string: Some("this is a far string which has a 64-bit offset".into()),
        big_bool_vector: Some(vec![1, 0, 1, 1, 0, 0, 1]),
        big_vector: Some(vec![5, 6, 7, 8]),
        near_string: Some("this is a near string which has a 32-bit offset".into()),
        far_struct_vector: None,
        big_struct_vector: Some(vec![(12, 3.456), (78, 9.10)]),
        nested_a: None,
    }
}

/// Builds the data of test_64bit.json as C++'s `FlatBufferBuilder64` does: the 64-bit region
/// first, with a nested `RootTable { a: 7 }` too.
fn build(b: &mut Builder) -> Result<Vec<u8>, BuildError> {
    let mut nested = Builder::new();
    nested.start_table();
    nested.add_scalar::<i32>(slot::A, 7, 0)?;
    let t = nested.end_table()?;
    let nested = nested.finish(t, None)?;

    let mut far = b.far()?;
    let far_vector = far.create_vector(&[1u8, 2, 3])?;
    let far_string = far.create_string("this is a far string which has a 64-bit offset")?;
    let big_bool_vector = far.create_vector64_from_iter(
        [true, false, true, true, false, false, true]
            .into_iter()
            .map(u8::from),
    )?;
    let big_vector = far.create_vector64(&[5u8, 6, 7, 8])?;
    far.force_vector_alignment(nested.len(), 1, 8)?;
    let nested_root = far.create_vector64(nested)?;
    let big_struct_vector =
        far.create_vector64_of_structs(&[Leaf::new(12, 3.456), Leaf::new(78, 9.10)])?;
    let near_string = b.create_string("this is a near string which has a 32-bit offset")?;
    b.start_table();
    b.add_offset64(slot::FAR_VECTOR, far_vector)?;
    b.add_scalar::<i32>(slot::A, 1234, 0)?;
    b.add_offset64(slot::FAR_STRING, far_string)?;
    b.add_offset64(slot::BIG_BOOL_VECTOR, big_bool_vector)?;
    b.add_offset64(slot::BIG_VECTOR, big_vector)?;
    b.add_offset(slot::NEAR_STRING, near_string)?;
    b.add_offset64(slot::NESTED_ROOT, nested_root)?;
    b.add_offset64(slot::BIG_STRUCT_VECTOR, big_struct_vector)?;
    let root = b.end_table()?;
    Ok(b.finish(root, None)?.to_vec())
}

#[test]
fn flatcs_test_64bit_bin_reads_as_its_json() {
    let bytes = std::fs::read(testdata("flatbuffers/tests/64bit/test_64bit.bin")).unwrap();
    let root: Root = flatforge::root(&bytes).unwrap();
    assert_eq!(root.read(), expected());
}

#[test]
fn a_buffer_built_64_bit_region_first_verifies_and_reads_back() {
    let mut b = Builder::new();
    let bytes = build(&mut b).unwrap();
    let root: Root = flatforge::root(&bytes).unwrap();
    let read = root.read();
    assert_eq!(
        read,
        Read {
            nested_a: Some(7),
            ..expected()
        }
    );
    // The 64-bit region is at the end: every object behind a 64-bit offset lies after the table
    // and the near string.
    let table = root.0.position();
    let near = bytes
        .windows(9)
        .position(|w| w == b"this is a")
        .expect("a string");
    let far = bytes
        .windows(13)
        .position(|w| w == b"this is a far")
        .expect("the far string");
    assert!(table < far && near < far, "{table} {near} {far}");
    // Reused after a reset, the builder writes the same bytes.
    b.reset();
    assert_eq!(build(&mut b).unwrap(), bytes);
}

#[test]
fn objects_behind_64_bit_offsets_cannot_follow_other_data() {
    let mut b = Builder::new();
    b.far().unwrap().create_string("far").unwrap();
    let near = b.create_string("near").unwrap();
    let before = b.finished_data().to_vec();
    assert_eq!(
        b.far().unwrap_err(),
        BuildError::FarAfterNear {
            near: near.value() as usize - 8
        }
    );
    // Nothing was written by the refused call.
    assert_eq!(b.finished_data(), before);
    // A table, even an empty one, closes the region too.
    b.reset();
    b.start_table();
    b.end_table().unwrap();
    assert!(matches!(b.far(), Err(BuildError::FarAfterNear { .. })));
    // A nested flatbuffer has a region of its own, at its start; after it, the enclosing buffer's
    // is closed.
    b.reset();
    let outer = b.far().unwrap().create_vector64(&[1u32]).unwrap();
    let start = b.start_nested().unwrap();
    let inner = b.far().unwrap().create_string("inner").unwrap();
    b.start_table();
    b.add_offset64(0, inner).unwrap();
    let inner_root = b.end_table().unwrap();
    assert!(b.far().is_err());
    let nested = b.end_nested(start, inner_root, None).unwrap();
    assert!(b.far().is_err());
    b.start_table();
    b.add_offset64(0, outer).unwrap();
    b.add_offset(1, nested).unwrap();
    let root = b.end_table().unwrap();
    let bytes = b.finish(root, None).unwrap().to_vec();
    let t: Table = flatforge::root(&bytes).unwrap();
    assert_eq!(
        t.get::<Vector64<u32>>(0).unwrap().unwrap().0.get(0),
        Some(1)
    );
    let nested = t.get::<Vector<u8>>(1).unwrap().unwrap();
    let inner: Table = flatforge::root(nested.as_slice()).unwrap();
    assert_eq!(inner.get::<Far<&str>>(0).unwrap().unwrap().0, "inner");
}

#[test]
fn the_table_writer_adds_64_bit_offsets() {
    let mut b = Builder::new();
    let v = b.far().unwrap().create_vector64(&[9i64, -9]).unwrap();
    let s = b.create_string("near").unwrap();
    // { 0: [long] (vector64), 1: string, 2: short }
    let mut t = b.table_writer::<10>(8 + 4 + 2, 8).unwrap();
    t.add_offset64(0, v);
    t.add_offset(1, s);
    t.add_scalar::<i16>(2, -5, 0);
    let root = t.finish().unwrap();
    let bytes = b.finish(root, None).unwrap();
    let t: Table = flatforge::root(bytes).unwrap();
    let v = t.get::<Vector64<i64>>(0).unwrap().unwrap().0;
    assert_eq!(v.iter().collect::<Vec<_>>(), [9, -9]);
    assert_eq!(t.get::<&str>(1).unwrap(), Some("near"));
    assert_eq!(t.get::<i16>(2).unwrap(), Some(-5));
    let voffset = usize::from(t.field_offset(0));
    assert_eq!(
        (t.position() + voffset) % 8,
        0,
        "the 64-bit offset is 8-aligned"
    );
}

/// A table `{ 0: offset64 }` whose offset is `value`, at an 8-aligned position, then `tail` bytes
/// (the target area); returns the buffer and the offset field's position.
fn with_offset64(value: u64, tail: &[u8]) -> (Vec<u8>, usize) {
    // [root offset: 12][vtable at 4: size 6, table size 12, field at 4][pad][table at 12: soffset
    // 8, padding][the field at 16]
    let mut bytes = vec![0u8; 32];
    bytes[..4].copy_from_slice(&12u32.to_le_bytes()); // the table at 12
    bytes[4..6].copy_from_slice(&6u16.to_le_bytes());
    bytes[6..8].copy_from_slice(&12u16.to_le_bytes()); // table size: soffset, pad, field
    bytes[8..10].copy_from_slice(&4u16.to_le_bytes()); // the field at table + 4 = 16
    bytes[12..16].copy_from_slice(&8i32.to_le_bytes()); // vtable at 12 - 8 = 4
    bytes[16..24].copy_from_slice(&value.to_le_bytes());
    bytes.truncate(24);
    bytes.extend_from_slice(tail);
    (bytes, 16)
}

fn kind_at<'a, T: Follow<'a>>(bytes: &'a [u8]) -> (ErrorKind, usize) {
    let t: Table = flatforge::root(bytes).expect("the table verifies");
    let e = t.get::<T>(0).map(|_| ()).unwrap_err();
    (e.kind().clone(), e.offset())
}

#[test]
fn bad_64_bit_offsets_and_lengths_are_errors() {
    // A string 8 bytes after the field: fine.
    let (ok, field) = with_offset64(8, b"\x02\0\0\0hi\0\0");
    let t: Table = flatforge::root(&ok).unwrap();
    assert_eq!(t.get::<Far<&str>>(0).unwrap().unwrap().0, "hi");
    // Zero, past the end, negative as a signed offset.
    let (bytes, _) = with_offset64(0, b"");
    assert_eq!(
        kind_at::<Far<&str>>(&bytes),
        (ErrorKind::InvalidOffset { value: 0 }, field)
    );
    let (bytes, _) = with_offset64(8, b"");
    assert_eq!(
        kind_at::<Far<&str>>(&bytes),
        (ErrorKind::OffsetOutOfBounds { value: 8 }, field)
    );
    let (bytes, _) = with_offset64(u64::MAX - 7, &[0; 8]);
    assert_eq!(
        kind_at::<Vector64<u8>>(&bytes),
        (ErrorKind::OffsetOutOfBounds { value: -8 }, field)
    );
    // A 64-bit length past the end, and one whose byte count overflows.
    let (bytes, _) = with_offset64(8, &[9, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8]);
    let size = 9 + 8;
    let len = bytes.len();
    assert_eq!(
        kind_at::<Vector64<u8>>(&bytes),
        (
            ErrorKind::OutOfBounds {
                object: Object::Vector,
                size,
                len
            },
            24
        )
    );
    let (bytes, _) = with_offset64(8, &[0, 0, 0, 0, 0, 0, 0, 0x40]);
    let (kind, _) = kind_at::<Vector64<u64>>(&bytes);
    assert!(
        matches!(kind, ErrorKind::OutOfBounds { size: u64::MAX, .. }),
        "{kind:?}"
    );
    // Elements of no size still count a byte each: the length stays below the buffer's.
    let mut v = Verifier::new(&bytes, &VerifierOptions::default());
    assert!(v.vector64_raw(24, 0, 1).is_err());
    // A misaligned 64-bit length.
    let (bytes, _) = with_offset64(12, &[0; 12]);
    assert_eq!(
        kind_at::<Vector64<u8>>(&bytes),
        (
            ErrorKind::Unaligned {
                object: Object::Vector,
                align: 8
            },
            28
        )
    );
    // The same buffer read with a 32-bit length at the target is fine.
    let t: Table = flatforge::root(&bytes).unwrap();
    assert!(t.get::<Far<Vector<u8>>>(0).unwrap().unwrap().0.is_empty());
}

#[test]
fn vectors_behind_64_bit_offsets_count_against_the_apparent_size() {
    let mut b = Builder::new();
    let v = b.far().unwrap().create_vector64(&[0u8; 100]).unwrap();
    b.start_table();
    for slot in 0..4 {
        b.add_offset64(slot, v).unwrap();
    }
    let t = b.end_table().unwrap();
    let bytes = b.finish(t, None).unwrap().to_vec();
    struct Four;
    impl Verify for Four {
        const SIZE: usize = 4;
        const ALIGN: usize = 4;
        fn verify_at(v: &mut Verifier<'_>, pos: usize) -> Result<(), Error> {
            let mut t = v.follow_table(pos)?;
            for slot in 0..4 {
                t.field::<Vector64<u8>>(slot, "v", false)?;
            }
            Ok(())
        }
    }
    let check = |limit: usize| {
        let opts = VerifierOptions::default().with_max_apparent_size(limit);
        let mut v = Verifier::new(&bytes, &opts);
        let root = v.root()?;
        Four::verify_at(&mut v, root)
    };
    // The table's own bytes are not charged; each vector is, every time: 4 * (8 + 100).
    check(4 * 108).unwrap();
    let e = check(4 * 108 - 1).unwrap_err();
    assert_eq!(
        e.kind(),
        &ErrorKind::ApparentSizeLimitExceeded { limit: 4 * 108 - 1 }
    );
}

#[test]
fn size_prefixes_may_be_64_bit() {
    let mut b = Builder::new();
    let s = b.create_string("prefixed").unwrap();
    let bytes = b.finish_size_prefixed64(s, Some(b"SP64")).unwrap().to_vec();
    assert_eq!(bytes.len() % 8, 0);
    assert_eq!(&bytes[12..16], b"SP64");
    let opts = VerifierOptions::default()
        .with_size_prefixed64(true)
        .with_file_identifier(*b"SP64");
    assert_eq!(
        flatforge::root_with_options::<&str>(&bytes, &opts).unwrap(),
        "prefixed"
    );
    // Read with a 32-bit prefix, the high half of the size is the root offset: zero.
    let opts32 = VerifierOptions::default().with_size_prefixed(true);
    assert!(flatforge::root_with_options::<&str>(&bytes, &opts32).is_err());
    // Too short for the prefix, and a prefix larger than the rest.
    let opts = VerifierOptions::default().with_size_prefixed64(true);
    let e = flatforge::root_with_options::<&str>(&bytes[..7], &opts).unwrap_err();
    assert_eq!(e.kind(), &ErrorKind::BufferTooShort { len: 7, min: 12 });
    let mut big = bytes.clone();
    big[..8].copy_from_slice(&u64::MAX.to_le_bytes());
    let e = flatforge::root_with_options::<&str>(&big, &opts).unwrap_err();
    let available = bytes.len() - 8;
    assert_eq!(
        e.kind(),
        &ErrorKind::SizePrefixTooLarge {
            size: usize::MAX,
            available
        }
    );
    // Trailing bytes after the prefixed size are cut off.
    let mut longer = bytes.clone();
    longer.extend_from_slice(&[0xAA; 8]);
    assert_eq!(
        flatforge::root_with_options::<&str>(&longer, &opts).unwrap(),
        "prefixed"
    );
}

/// `table { u_type: int; u: U; }` for `union U : int { T = 555 }`, with the type `ty` and a value
/// when `value`; and the vector form with `types`.
fn int_union(ty: Option<i32>, value: bool) -> Vec<u8> {
    let mut b = Builder::new();
    b.start_table();
    let member = b.end_table().unwrap();
    b.start_table();
    if let Some(ty) = ty {
        b.add_scalar_always(0, ty).unwrap();
    }
    if value {
        b.add_offset(1, member).unwrap();
    }
    let t = b.end_table().unwrap();
    b.finish(t, None).unwrap().to_vec()
}

/// Verifies `int_union`'s table; types other than 555 are errors (not a newer schema's members).
fn check_int_union(bytes: &[u8]) -> Result<(), Error> {
    let strict = VerifierOptions::default().with_unknown_union_types(false);
    let mut v = Verifier::new(bytes, &strict);
    let root = v.root()?;
    let mut t = v.follow_table(root)?;
    t.union_typed(0, 1, "u", false, |v, ty: i32, pos| {
        (ty == 555).then(|| Table::verify_at(v, pos))
    })
}

#[test]
fn union_types_may_be_wider_than_a_byte() {
    check_int_union(&int_union(None, false)).unwrap();
    check_int_union(&int_union(Some(555), true)).unwrap();
    let kind = |r: Result<(), Error>| r.unwrap_err().kind().clone();
    assert_eq!(
        kind(check_int_union(&int_union(Some(555), false))),
        ErrorKind::UnionTypeWithoutValue { value: 555 }
    );
    assert_eq!(
        kind(check_int_union(&int_union(Some(-7), true))),
        ErrorKind::UnknownUnionType { value: -7 }
    );
    assert_eq!(
        kind(check_int_union(&int_union(None, true))),
        ErrorKind::UnionValueWithoutType
    );
    // The low byte of 555 is 43: read as a byte, the type would be another one.
    assert_eq!(555 & 0xFF, 43);

    // A vector of them.
    let mut b = Builder::new();
    b.start_table();
    let member = b.end_table().unwrap();
    let types = b.create_vector(&[555i32, 0, 666]).unwrap();
    let values = b
        .create_vector_of_offsets(&[member, member, member])
        .unwrap();
    b.start_table();
    b.add_offset(0, types).unwrap();
    b.add_offset(1, values).unwrap();
    let t = b.end_table().unwrap();
    let bytes = b.finish(t, None).unwrap().to_vec();
    let check = |known: &[i32]| {
        let strict = VerifierOptions::default().with_unknown_union_types(false);
        let mut v = Verifier::new(&bytes, &strict);
        let root = v.root()?;
        let mut t = v.follow_table(root)?;
        t.union_vector_typed(0, 1, "us", false, |v, ty: i32, pos| {
            known.contains(&ty).then(|| Table::verify_at(v, pos))
        })
    };
    check(&[555, 666]).unwrap();
    let e = check(&[555]).unwrap_err();
    assert_eq!(e.kind(), &ErrorKind::UnknownUnionType { value: 666 });
    assert_eq!(e.path_string(), "us[2]");
    // The error points at the third type: 4 bytes past the second.
    let data = bytes
        .windows(4)
        .position(|w| w == 555i32.to_le_bytes())
        .unwrap();
    assert_eq!(e.offset(), data + 8);
}

/// Verifies `bytes` as a `RootTable` in every way a reader might and reads what verifies.
fn exercise(bytes: &[u8]) -> bool {
    let mut any = false;
    for opts in [
        VerifierOptions::default(),
        VerifierOptions::default().with_check_alignment(false),
        VerifierOptions::default().with_size_prefixed64(true),
    ] {
        if let Ok(root) = flatforge::root_with_options::<Root>(bytes, &opts) {
            std::hint::black_box(root.read());
            any = true;
        }
    }
    any
}

#[test]
fn corrupted_64_bit_buffers_never_panic() {
    let theirs = std::fs::read(testdata("flatbuffers/tests/64bit/test_64bit.bin")).unwrap();
    let ours = build(&mut Builder::new()).unwrap();
    let mut verified = 0;
    for good in [theirs, ours] {
        for len in 0..good.len() {
            exercise(&good[..len]);
        }
        for at in 0..good.len() {
            for value in [0u8, 1, 7, 8, 0x7f, 0x80, 0xfe, 0xff] {
                let mut bytes = good.clone();
                bytes[at] = value;
                verified += usize::from(exercise(&bytes));
            }
        }
    }
    // Many changes (string contents, scalars, padding) leave a valid buffer.
    assert!(verified > 1000, "{verified}");
}
