//! Property and unit tests for every builder operation, each round-tripped through the verifier and
//! the views.

use flatforge::{
    BuildError, Builder, Follow, Offset, Scalar, Struct, Table, Vector, Verifier, VerifierOptions,
};
use proptest::prelude::*;

fn finish<T: ?Sized>(b: &mut Builder, root: Offset<T>) -> Vec<u8> {
    b.finish(root, None).unwrap().to_vec()
}

fn roundtrip_vector<T>(values: &[T])
where
    T: Scalar + for<'a> Follow<'a>,
{
    let mut b = Builder::new();
    let off = b.create_vector(values).unwrap();
    let bytes = finish(&mut b, off);
    let v: Vector<T> = flatforge::root(&bytes).unwrap();
    assert_eq!(v.len(), values.len());
    let read: Vec<T> = v.iter().collect();
    assert!(read.iter().zip(values).all(|(a, b)| a.is_default(*b)));
    let back: Vec<T> = v.iter().rev().collect();
    assert!(back.iter().rev().zip(values).all(|(a, b)| a.is_default(*b)));
    for (i, x) in values.iter().enumerate() {
        assert!(v.get(i).unwrap().is_default(*x));
    }
    assert!(v.get(values.len()).is_none());
    if let Some(s) = v.as_native_slice() {
        assert!(s.iter().zip(values).all(|(a, b)| a.is_default(*b)));
    }
    // The iterator form writes the same bytes.
    let mut b2 = Builder::new();
    let off = b2.create_vector_from_iter(values.iter().copied()).unwrap();
    assert_eq!(finish(&mut b2, off), bytes);
}

proptest! {
    #[test]
    fn strings_roundtrip(s in ".*") {
        let mut b = Builder::new();
        let off = b.create_string(&s).unwrap();
        let bytes = finish(&mut b, off);
        prop_assert_eq!(flatforge::root::<&str>(&bytes).unwrap(), s.as_str());
        prop_assert_eq!(bytes.len() % 4, 0);
    }

    #[test]
    fn scalar_vectors_roundtrip(
        a in proptest::collection::vec(any::<u8>(), 0..40),
        b in proptest::collection::vec(any::<i16>(), 0..40),
        c in proptest::collection::vec(any::<u32>(), 0..40),
        d in proptest::collection::vec(any::<i64>(), 0..40),
        e in proptest::collection::vec(any::<f32>(), 0..40),
        f in proptest::collection::vec(any::<f64>(), 0..40),
        g in proptest::collection::vec(any::<bool>(), 0..40),
    ) {
        roundtrip_vector(&a);
        roundtrip_vector(&b);
        roundtrip_vector(&c);
        roundtrip_vector(&d);
        roundtrip_vector(&e);
        roundtrip_vector(&f);
        roundtrip_vector(&g);
    }

    #[test]
    fn vectors_of_strings_and_shared_strings(items in proptest::collection::vec("[a-c]{0,3}", 0..20)) {
        let mut b = Builder::new();
        let offs: Vec<Offset<str>> = items.iter().map(|s| b.create_shared_string(s).unwrap()).collect();
        // Equal strings share one offset; different strings never do.
        for (i, x) in items.iter().enumerate() {
            for (j, y) in items.iter().enumerate() {
                prop_assert_eq!(offs[i] == offs[j], x == y, "{} {}", i, j);
            }
        }
        let v = b.create_vector_of_offsets(&offs).unwrap();
        let bytes = finish(&mut b, v);
        let v: Vector<&str> = flatforge::root(&bytes).unwrap();
        prop_assert_eq!(v.iter().collect::<Vec<_>>(), items.iter().map(String::as_str).collect::<Vec<_>>());
    }

    #[test]
    fn incremental_vectors_match_slice_vectors(values in proptest::collection::vec(any::<u16>(), 0..30)) {
        let mut b = Builder::new();
        b.start_vector(values.len(), 2, 2).unwrap();
        for &x in values.iter().rev() {
            b.push(x);
        }
        let off = b.end_vector::<u16>(values.len());
        let incremental = finish(&mut b, off);
        let mut b = Builder::new();
        let off = b.create_vector(&values).unwrap();
        prop_assert_eq!(incremental, finish(&mut b, off));
    }

    #[test]
    fn tables_roundtrip_both_ways(fields in proptest::collection::btree_map(0usize..12, field_value(), 0..12), force in any::<bool>()) {
        let fields: Vec<(usize, Value)> = fields.into_iter().collect();
        // Incremental, in slot order.
        let mut b = Builder::new();
        b.set_force_defaults(force);
        b.start_table();
        for &(slot, v) in &fields {
            v.add(&mut b, slot);
        }
        let t = b.end_table().unwrap();
        let incremental = finish(&mut b, t);
        // One shot, largest first.
        let mut b = Builder::new();
        b.set_force_defaults(force);
        let mut sorted = fields.clone();
        sorted.sort_by_key(|(_, v)| std::cmp::Reverse(v.size()));
        let inline: usize = fields.iter().map(|(_, v)| v.size()).sum();
        let mut w = b.table_writer::<{ 4 + 2 * 12 }>(inline, 8).unwrap();
        for &(slot, v) in &sorted {
            v.write(&mut w, slot);
        }
        let t = w.finish().unwrap();
        let one_shot = finish(&mut b, t);
        for bytes in [&incremental, &one_shot] {
            let table: Table = flatforge::root(bytes).unwrap();
            for slot in 0..12 {
                let expected = fields.iter().find(|(s, _)| *s == slot).map(|(_, v)| *v);
                let stored = expected.filter(|v| force || !v.is_default());
                prop_assert_eq!(table.field_offset(slot) != 0, stored.is_some());
                if let Some(v) = stored {
                    prop_assert!(v.read_back(table, slot));
                }
            }
        }
    }

    #[test]
    fn sorted_tables_are_binary_searchable(keys in proptest::collection::vec(any::<i32>(), 0..30)) {
        let mut b = Builder::new();
        let mut offs = Vec::new();
        for &k in &keys {
            b.start_table();
            b.add_scalar_always(0, k).unwrap();
            offs.push(b.end_table().unwrap());
        }
        b.sort_by_scalar_field(&mut offs, 0, 0i32);
        let v = b.create_vector_of_offsets(&offs).unwrap();
        let bytes = finish(&mut b, v);
        let v: Vector<Table> = flatforge::root(&bytes).unwrap();
        let read: Vec<i32> = v.iter().map(|t| t.get::<i32>(0).unwrap().unwrap()).collect();
        let mut expected = keys.clone();
        expected.sort();
        prop_assert_eq!(&read, &expected);
        for k in &keys {
            let found = v.binary_search_by(|t| t.get::<i32>(0).unwrap().unwrap().cmp(k));
            prop_assert!(found.is_ok());
        }
    }

    #[test]
    fn sorted_tables_by_float_with_nan(keys in proptest::collection::vec(
        prop_oneof![Just(f64::NAN), Just(-0.0), -1e3f64..1e3], 0..600)
    ) {
        // `sort_by` may panic on a comparison that is not a total order; NaN keys go last.
        let mut b = Builder::new();
        let mut offs = Vec::new();
        for &k in &keys {
            b.start_table();
            b.add_scalar_always(0, k).unwrap();
            offs.push(b.end_table().unwrap());
        }
        b.sort_by_scalar_field(&mut offs, 0, 0f64);
        let v = b.create_vector_of_offsets(&offs).unwrap();
        let bytes = finish(&mut b, v);
        let v: Vector<Table> = flatforge::root(&bytes).unwrap();
        let read: Vec<f64> = v.iter().map(|t| t.get::<f64>(0).unwrap().unwrap()).collect();
        let numbers = keys.iter().filter(|k| !k.is_nan()).count();
        prop_assert!(read[numbers..].iter().all(|k| k.is_nan()));
        prop_assert!(read[..numbers].windows(2).all(|w| w[0] <= w[1]));
        let mut expected: Vec<u64> = keys.iter().map(|k| k.to_bits()).collect();
        let mut got: Vec<u64> = read.iter().map(|k| k.to_bits()).collect();
        expected.sort_unstable();
        got.sort_unstable();
        prop_assert_eq!(got, expected);
    }

    #[test]
    fn sorted_tables_by_string(keys in proptest::collection::vec("[a-z]{0,4}", 0..20)) {
        let mut b = Builder::new();
        let mut offs = Vec::new();
        for k in &keys {
            let s = b.create_string(k).unwrap();
            b.start_table();
            b.add_offset(0, s).unwrap();
            offs.push(b.end_table().unwrap());
        }
        b.sort_by_string_field(&mut offs, 0);
        let v = b.create_vector_of_offsets(&offs).unwrap();
        let bytes = finish(&mut b, v);
        let v: Vector<Table> = flatforge::root(&bytes).unwrap();
        let read: Vec<&str> = v.iter().map(|t| t.get::<&str>(0).unwrap().unwrap()).collect();
        let mut expected: Vec<&str> = keys.iter().map(String::as_str).collect();
        expected.sort();
        prop_assert_eq!(read, expected);
    }
}

/// A scalar field of random type for the table property test.
#[derive(Clone, Copy, Debug)]
enum Value {
    Bool(bool),
    U8(u8),
    I16(i16),
    U32(u32),
    F32(f32),
    I64(i64),
    F64(f64),
}

fn field_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<bool>().prop_map(Value::Bool),
        (0u8..3).prop_map(Value::U8),
        any::<i16>().prop_map(Value::I16),
        (0u32..3).prop_map(Value::U32),
        any::<f32>().prop_map(Value::F32),
        any::<i64>().prop_map(Value::I64),
        prop_oneof![Just(0.0), Just(f64::NAN), any::<f64>()].prop_map(Value::F64),
    ]
}

macro_rules! each_value {
    ($v:expr, |$x:ident| $body:expr) => {
        match $v {
            Value::Bool($x) => $body,
            Value::U8($x) => $body,
            Value::I16($x) => $body,
            Value::U32($x) => $body,
            Value::F32($x) => $body,
            Value::I64($x) => $body,
            Value::F64($x) => $body,
        }
    };
}

impl Value {
    fn size(&self) -> usize {
        fn size_of<T: Scalar>(_: T) -> usize {
            T::SIZE
        }
        each_value!(*self, |x| size_of(x))
    }
    /// Defaults are the type's zero.
    fn is_default(&self) -> bool {
        each_value!(*self, |x| x.is_default(Default::default()))
    }
    fn add(&self, b: &mut Builder, slot: usize) {
        each_value!(*self, |x| b
            .add_scalar(slot, x, Default::default())
            .unwrap())
    }
    fn write<const VT: usize>(&self, w: &mut flatforge::TableWriter<'_, VT>, slot: usize) {
        each_value!(*self, |x| w.add_scalar(slot, x, Default::default()))
    }
    fn read_back(&self, t: Table<'_>, slot: usize) -> bool {
        fn same<T: Scalar + for<'a> Follow<'a>>(t: Table<'_>, slot: usize, x: T) -> bool {
            t.get::<T>(slot).unwrap().is_some_and(|y| y.is_default(x))
        }
        each_value!(*self, |x| same(t, slot, x))
    }
}

#[derive(Clone, Copy, PartialEq, Debug)]
#[repr(transparent)]
struct Pair([u8; 6]);
// SAFETY: a transparent wrapper of [u8; 6].
unsafe impl Struct for Pair {
    const ALIGN: usize = 2;
}

#[test]
fn struct_vectors_and_struct_fields_roundtrip() {
    let items = [Pair([1, 0, 2, 0, 3, 0]), Pair([4, 0, 5, 0, 6, 0])];
    let mut b = Builder::new();
    let v = b.create_vector_of_structs(&items).unwrap();
    b.start_table();
    b.add_offset(0, v).unwrap();
    b.add_struct(1, &items[1]).unwrap();
    let t = b.end_table().unwrap();
    let bytes = finish(&mut b, t);
    let t: Table = flatforge::root(&bytes).unwrap();
    let v = t.get::<Vector<&Pair>>(0).unwrap().unwrap();
    assert_eq!(v.as_slice(), &items);
    assert_eq!(v.get(1), Some(&items[1]));
    assert_eq!(t.get::<&Pair>(1).unwrap(), Some(&items[1]));
}

#[test]
fn identical_vtables_are_written_once() {
    let mut b = Builder::new();
    let mut sizes = Vec::new();
    for i in 0..4 {
        let before = b.len();
        b.start_table();
        b.add_scalar::<u32>(0, i + 1, 0).unwrap();
        b.add_scalar::<u32>(1, 7, 0).unwrap();
        b.end_table().unwrap();
        sizes.push(b.len() - before);
    }
    // The first table carries its 8-byte vtable; the others only point to it.
    assert_eq!(sizes, [12 + 8, 12, 12, 12]);
}

#[test]
fn one_shot_and_incremental_tables_share_vtables() {
    // The same layout written both ways, in both orders: one vtable, and the same bytes. (The
    // tables start 4-aligned: the incremental API counts padding before the first field as part
    // of the table.)
    let incremental = |b: &mut Builder| {
        b.start_table();
        b.add_scalar::<u32>(0, 5, 0).unwrap();
        b.add_scalar::<u16>(3, 9, 0).unwrap();
        b.end_table().unwrap()
    };
    let one_shot = |b: &mut Builder| {
        let mut w = b.table_writer::<12>(6, 4).unwrap();
        w.add_scalar::<u32>(0, 5, 0);
        w.add_scalar::<u16>(3, 9, 0);
        w.finish().unwrap()
    };
    for order in [[true, false], [false, true]] {
        let mut b = Builder::new();
        let mut sizes = Vec::new();
        let mut tables = Vec::new();
        for use_writer in order {
            let before = b.len();
            tables.push(if use_writer {
                one_shot(&mut b)
            } else {
                incremental(&mut b)
            });
            sizes.push(b.len() - before);
        }
        // Table: 4-byte soffset + u32 + u16 + 2 bytes of padding; vtable: 4 + 4 * 2 bytes.
        assert_eq!(sizes, [12 + 12, 12], "{order:?}");
        let v = b.create_vector_of_offsets(&tables).unwrap();
        let bytes = finish(&mut b, v);
        let v: Vector<Table> = flatforge::root(&bytes).unwrap();
        for t in v.iter() {
            assert_eq!(t.get::<u32>(0).unwrap(), Some(5));
            assert_eq!(t.get::<u16>(1).unwrap(), None);
            assert_eq!(t.get::<u16>(3).unwrap(), Some(9));
        }
    }
    let mut a = Builder::new();
    let t = one_shot(&mut a);
    let mut b = Builder::new();
    let u = incremental(&mut b);
    assert_eq!(finish(&mut a, t), finish(&mut b, u));
}

#[test]
fn reset_forgets_vtables_kept_on_the_heap() {
    // More distinct vtables than the inline slots hold move the dedup table to the heap; after a
    // reset none of them may be found again (their offsets point into the old buffer's contents).
    let build = |b: &mut Builder, distinct: u32| {
        let mut tables = Vec::new();
        for slot in 0..distinct as usize {
            b.start_table();
            b.add_scalar::<u32>(slot, 1 + slot as u32, 0).unwrap();
            tables.push(b.end_table().unwrap());
        }
        let v = b.create_vector_of_offsets(&tables).unwrap();
        finish(b, v)
    };
    let mut b = Builder::new();
    let many = build(&mut b, 12);
    b.reset();
    // Only the vtables of 3 tables are written now, each with 4 + 2 * (slot + 1) bytes: with a
    // stale dedup entry, a table would point to a vtable that is no longer there.
    let few = build(&mut b, 3);
    let fresh = build(&mut Builder::new(), 3);
    assert_eq!(few, fresh);
    b.reset();
    assert_eq!(build(&mut b, 12), many);
}

#[test]
fn reset_keeps_capacity_and_gives_the_same_bytes() {
    let mut b = Builder::new();
    let build = |b: &mut Builder| {
        let s = b.create_string("hello").unwrap();
        b.start_table();
        b.add_offset(0, s).unwrap();
        b.add_scalar::<f64>(1, 2.5, 0.0).unwrap();
        let t = b.end_table().unwrap();
        b.finish(t, Some(b"TEST")).unwrap().to_vec()
    };
    let first = build(&mut b);
    let capacity = b.capacity();
    b.reset();
    assert_eq!(b.capacity(), capacity);
    assert!(b.is_empty());
    assert_eq!(build(&mut b), first);
}

#[test]
fn size_limit_is_an_error_and_the_builder_stays_usable() {
    let mut b = Builder::new();
    b.set_max_size(100);
    assert!(matches!(
        b.create_vector(&[0u64; 20]),
        Err(BuildError::BufferTooLarge { limit: 100, .. })
    ));
    assert!(b.is_empty(), "a failed reservation writes nothing");
    let s = b.create_string("fits").unwrap();
    let bytes = finish(&mut b, s);
    assert_eq!(flatforge::root::<&str>(&bytes).unwrap(), "fits");
    assert!(bytes.len() <= 100);
    // Past 2 GiB is refused without allocating.
    let mut b = Builder::new();
    b.set_max_size(usize::MAX);
    for len in [usize::MAX / 2, usize::MAX / 4, 1 << 30] {
        assert!(matches!(
            b.start_vector(len, 4, 4),
            Err(BuildError::BufferTooLarge { .. })
        ));
    }
}

#[test]
fn tables_larger_than_a_vtable_can_address_are_errors() {
    let mut b = Builder::new();
    b.start_table();
    for slot in 0..9000 {
        b.add_scalar_always::<u64>(slot, 1).unwrap();
    }
    assert!(matches!(
        b.end_table(),
        Err(BuildError::TableTooLarge { .. })
    ));
    assert!(matches!(
        Builder::new().table_writer::<8>(70_000, 8),
        Err(BuildError::TableTooLarge { .. })
    ));
}

#[test]
fn size_prefixed_and_prefixed_finishes() {
    let mut b = Builder::new();
    b.start_table();
    b.add_scalar::<u64>(0, 42, 0).unwrap();
    let t = b.end_table().unwrap();
    let bytes = b.finish_size_prefixed(t, Some(b"SIZE")).unwrap().to_vec();
    let opts = VerifierOptions::default()
        .with_size_prefixed(true)
        .with_file_identifier(*b"SIZE");
    let t: Table = flatforge::root_with_options(&bytes, &opts).unwrap();
    assert_eq!(t.get::<u64>(0).unwrap(), Some(42));
    // SAFETY: verified just above with the same size-prefix setting.
    let t: Table = unsafe { flatforge::root_unchecked(&bytes, true) };
    assert_eq!(t.get::<u64>(0).unwrap(), Some(42));
    // The 8-byte field is aligned relative to the start of the whole buffer, prefix included.
    assert_eq!((t.position() + usize::from(t.field_offset(0))) % 8, 0);
    assert!(
        flatforge::root::<Table>(&bytes).is_err()
            || !flatforge::buffer_has_identifier(&bytes, b"SIZE", false)
    );

    for prefix in 0..9 {
        let mut b = Builder::new();
        b.start_table();
        b.add_scalar::<u64>(0, 42, 0).unwrap();
        let t = b.end_table().unwrap();
        let framed = b.finish_with_prefix(t, None, prefix).unwrap().to_vec();
        assert!(framed[..prefix].iter().all(|&x| x == 0));
        let t: Table = flatforge::root(&framed[prefix..]).unwrap();
        assert_eq!(t.get::<u64>(0).unwrap(), Some(42));
    }
}

#[test]
fn nested_flatbuffers_built_in_place_verify_on_their_own() {
    let mut b = Builder::new();
    // A vtable and a string written before the nested buffer must not be shared into it.
    let outer_name = b.create_shared_string("shared").unwrap();
    b.start_table();
    b.add_scalar::<u64>(0, 1, 0).unwrap();
    b.end_table().unwrap();
    let nested = b.start_nested().unwrap();
    let inner_name = b.create_shared_string("shared").unwrap();
    assert_ne!(inner_name, outer_name);
    b.start_table();
    b.add_scalar::<u64>(0, 2, 0).unwrap();
    b.add_offset(1, inner_name).unwrap();
    let inner = b.end_table().unwrap();
    let bytes_vec = b.end_nested(nested, inner, Some(b"NEST")).unwrap();
    b.start_table();
    b.add_offset(0, bytes_vec).unwrap();
    b.add_offset(1, outer_name).unwrap();
    let outer = b.end_table().unwrap();
    let buf = finish(&mut b, outer);

    let mut v = Verifier::new(&buf, &VerifierOptions::default());
    let root = v.root().unwrap();
    let target = v.offset(root).unwrap();
    let mut t = v.table(target).unwrap();
    t.nested_flatbuffer(0, "nested", true, |v| {
        assert_eq!(&v.buffer()[4..8], b"NEST");
        let mut t = v.table(v.offset(0)?)?;
        t.field::<u64>(0, "x", true)?;
        t.field::<&str>(1, "name", true)
    })
    .unwrap();
    let outer: Table = flatforge::root(&buf).unwrap();
    let nested = outer.get::<Vector<u8>>(0).unwrap().unwrap();
    let opts = VerifierOptions::default().with_file_identifier(*b"NEST");
    let inner: Table = flatforge::root_with_options(nested.as_slice(), &opts).unwrap();
    assert_eq!(inner.get::<u64>(0).unwrap(), Some(2));
    assert_eq!(inner.get::<&str>(1).unwrap(), Some("shared"));

    // The same bytes copied in as a finished buffer.
    let mut b2 = Builder::new();
    let copy = b2.create_nested_flatbuffer(nested.as_slice(), 8).unwrap();
    let buf2 = finish(&mut b2, copy);
    let v: Vector<u8> = flatforge::root(&buf2).unwrap();
    assert_eq!(v.as_slice(), nested.as_slice());
}

#[test]
fn into_vec_and_from_vec() {
    let mut b = Builder::from_vec(Vec::with_capacity(64));
    let s = b.create_string("abc").unwrap();
    let expected = finish(&mut b, s);
    assert_eq!(b.into_vec(), expected);
}

#[test]
fn shared_strings_of_every_length_differ_in_any_byte() {
    // Lengths 0..=40 cover each way short strings are hashed and compared (0, 1-3, 4-7, 8-16
    // bytes) and the long path; 800+ strings move the dedup table to the heap and grow it, and the
    // buffer, which starts at 256 bytes, grows many times.
    let mut b = Builder::with_capacity(256);
    for round in 0..2 {
        b.reset();
        let mut all = Vec::new();
        for n in 0..=40usize {
            let base: String = (0..n).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
            let off = b.create_shared_string(&base).unwrap();
            for i in 0..n {
                let mut changed = base.clone().into_bytes();
                changed[i] = b'A' + round;
                let changed = String::from_utf8(changed).unwrap();
                let o = b.create_shared_string(&changed).unwrap();
                assert_ne!(o, off, "length {n}, byte {i}");
                assert_eq!(b.create_shared_string(&changed).unwrap(), o);
                all.push((changed, o));
            }
            assert_eq!(b.create_shared_string(&base).unwrap(), off, "length {n}");
            all.push((base, off));
        }
        // Every string is still found after the table grew.
        for (s, off) in &all {
            assert_eq!(b.create_shared_string(s).unwrap(), *off, "{s:?}");
        }
        let offs: Vec<Offset<str>> = all.iter().map(|(_, o)| *o).collect();
        let v = b.create_vector_of_offsets(&offs).unwrap();
        let bytes = finish(&mut b, v);
        let v: Vector<&str> = flatforge::root(&bytes).unwrap();
        assert!(v.iter().eq(all.iter().map(|(s, _)| s.as_str())));
    }
}

#[test]
fn shared_strings_are_forgotten_by_reset() {
    let mut b = Builder::with_capacity(256);
    let first = b.create_shared_string("SharedString").unwrap();
    b.reset();
    // Another string now sits where the first one was: it must not be returned for "SharedString".
    let other = b.create_shared_string("DifferentStr").unwrap();
    assert_eq!(other, first);
    let again = b.create_shared_string("SharedString").unwrap();
    assert_ne!(again, other);
    let v = b.create_vector_of_offsets(&[other, again]).unwrap();
    let bytes = finish(&mut b, v);
    let v: Vector<&str> = flatforge::root(&bytes).unwrap();
    assert_eq!(
        v.iter().collect::<Vec<_>>(),
        ["DifferentStr", "SharedString"]
    );
}

#[test]
fn finish_with_prefix_zeroes_the_prefix_over_old_bytes() {
    let mut b = Builder::with_capacity(64);
    for prefix_len in 0..40 {
        // Fill the buffer with non-zero bytes first, so that the prefix lands on them.
        b.reset();
        let junk = b.create_vector(&[0xFFu8; 100]).unwrap();
        b.finish(junk, None).unwrap();
        b.reset();
        let s = b.create_string("payload").unwrap();
        let frame = b.finish_with_prefix(s, Some(b"PRFX"), prefix_len).unwrap();
        assert!(frame[..prefix_len].iter().all(|&x| x == 0), "{prefix_len}");
        let payload = &frame[prefix_len..];
        assert_eq!(&payload[4..8], b"PRFX");
        assert_eq!(flatforge::root::<&str>(payload).unwrap(), "payload");
    }
}

#[test]
fn vtables_are_shared_past_the_inline_entries() {
    // 20 vtable layouts (one u32 in slot k), written three times, with both APIs: the second and
    // third tables of a layout reuse the first one's vtable, also once the builder's vtable set
    // has moved from its inline entries (compared without hashing) to its hash table (which
    // hashes the vtables already written from the buffer).
    let mut b = Builder::new();
    let mut tables = Vec::new();
    for round in 0..3 {
        for k in 0..20usize {
            tables.push(if round == 1 {
                b.start_table();
                b.add_scalar::<u32>(k, 7 + k as u32, 0).unwrap();
                b.end_table().unwrap()
            } else {
                let mut w = b.table_writer::<{ 4 + 2 * 20 }>(4, 4).unwrap();
                w.add_scalar::<u32>(k, 7 + k as u32, 0);
                w.finish().unwrap()
            });
        }
    }
    let v = b.create_vector_of_offsets(&tables).unwrap();
    let bytes = finish(&mut b, v);
    let v: Vector<Table> = flatforge::root(&bytes).unwrap();
    let vtable = |t: Table| {
        let pos = t.position();
        let soffset = i32::from_le_bytes(bytes[pos..pos + 4].try_into().unwrap());
        (pos as i64 - i64::from(soffset)) as usize
    };
    for k in 0..20 {
        let t = v.get(k).unwrap();
        assert_eq!(t.get::<u32>(k).unwrap(), Some(7 + k as u32));
        assert_eq!(vtable(v.get(20 + k).unwrap()), vtable(t), "layout {k}");
        assert_eq!(vtable(v.get(40 + k).unwrap()), vtable(t), "layout {k}");
    }
    let mut distinct: Vec<usize> = v.iter().map(vtable).collect();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 20);
}

#[derive(Clone, Copy, PartialEq, Debug)]
#[repr(transparent)]
struct Wide([u8; 32]);
// SAFETY: a transparent wrapper of [u8; 32].
unsafe impl Struct for Wide {
    const ALIGN: usize = 32;
}

#[test]
fn finish_into_writes_what_finish_returns_and_nothing_else() {
    // Data of every length mod 32 after objects aligned to 4, 8 and 32, with and without a file
    // identifier: buffers under 16 bytes, every padding, and paddings past the one-store path.
    let wide = Wide(core::array::from_fn(|i| i as u8 + 1));
    // `before` bytes of data after an object aligned to `align`.
    let build = |align, before| {
        let mut b = Builder::new();
        match align {
            8 => drop(b.create_vector(&[7u64]).unwrap()),
            32 => drop(b.create_vector_of_structs(&[wide]).unwrap()),
            _ => {}
        }
        // Distinct bytes: a copy that moves a piece to the wrong place shows.
        let bytes: Vec<u8> = (0..before).map(|i| i as u8 ^ 0x5A).collect();
        let root = b.create_vector(&bytes).unwrap();
        (b, root)
    };
    for align in [4, 8, 32] {
        for before in 0..32usize {
            for ident in [None, Some(b"IDNT")] {
                let (mut b, root) = build(align, before);
                let data = b.finished_data().to_vec();
                let len = b.finished_len(ident.is_some());
                let mut out = vec![0xAB; len + 8];
                assert_eq!(b.finish_into(root, ident, &mut out[..len - 1]), None);
                assert!(out.iter().all(|&x| x == 0xAB), "{align} {before}");
                assert_eq!(b.finish_into(root, ident, &mut out), Some(len));
                assert!(out[len..].iter().all(|&x| x == 0xAB), "{align} {before}");
                assert_eq!(b.finished_data(), data, "the builder is left as it was");
                assert_eq!(
                    &out[..len],
                    b.finish(root, ident).unwrap(),
                    "{align} {before}"
                );
                // The same with a size prefix, against `finish_size_prefixed`.
                let (mut b, root) = build(align, before);
                let mut out = vec![0xAB; len + 64];
                let len = b.finish_size_prefixed_into(root, ident, &mut out).unwrap();
                assert!(out[len..].iter().all(|&x| x == 0xAB), "{align} {before}");
                assert_eq!(
                    b.finish_size_prefixed_into(root, ident, &mut out[..len - 1]),
                    None
                );
                assert_eq!(
                    &out[..len],
                    b.finish_size_prefixed(root, ident).unwrap(),
                    "{align} {before} prefixed"
                );
            }
        }
    }
}

#[test]
fn the_table_writer_pads_to_wide_alignments_with_zeros() {
    // A 32-aligned struct field after objects of every length mod 32: the padding the table writer
    // puts under the data first (up to 31 bytes, more than its one-store path covers) is zeros,
    // over a buffer that held other bytes before.
    let wide = Wide(core::array::from_fn(|i| i as u8 + 1));
    let mut b = Builder::with_capacity(256);
    for before in 0..32usize {
        b.reset();
        let junk = b.create_vector(&[0xEEu8; 200]).unwrap();
        let _ = b.finish(junk, None).unwrap();
        b.reset();
        let bytes = b.create_vector(&vec![0xEEu8; before]).unwrap();
        let mut w = b.table_writer::<8>(32 + 4, Wide::ALIGN).unwrap();
        w.add_struct(0, &wide);
        w.add_offset(1, bytes);
        let t = w.finish().unwrap();
        let buf = finish(&mut b, t);
        let t: Table = flatforge::root(&buf).unwrap();
        assert_eq!(t.get::<&Wide>(0).unwrap(), Some(&wide), "{before}");
        assert_eq!(t.get::<Vector<u8>>(1).unwrap().unwrap().len(), before);
        let at = t.position() + usize::from(t.field_offset(0));
        assert_eq!(at % 32, 0, "{before}");
        let vector_start = buf.len() - (4 + before).next_multiple_of(4);
        assert!(
            buf[at + 32..vector_start].iter().all(|&x| x == 0),
            "{before}"
        );
    }
}

#[test]
fn a_prefix_too_long_for_any_buffer_is_an_error() {
    let mut b = Builder::new();
    let s = b.create_string("x").unwrap();
    for prefix_len in [usize::MAX, usize::MAX - 3, 3 << 30] {
        assert!(
            matches!(
                b.finish_with_prefix(s, None, prefix_len),
                Err(BuildError::BufferTooLarge { .. })
            ),
            "{prefix_len}"
        );
    }
    // The builder is unchanged: a prefix that fits still works.
    let frame = b.finish_with_prefix(s, None, 2).unwrap();
    assert_eq!(flatforge::root::<&str>(&frame[2..]).unwrap(), "x");
}

#[test]
fn a_table_writer_of_any_size_is_an_error_not_an_overflow() {
    let mut b = Builder::new();
    for size in [usize::MAX, usize::MAX - 3, usize::MAX - 7, 0xFFFF] {
        assert!(
            matches!(
                b.table_writer::<6>(size, 4),
                Err(BuildError::TableTooLarge { .. })
            ),
            "{size}"
        );
    }
    assert_eq!(
        b.table_writer::<6>(usize::MAX - 3, 4).unwrap_err(),
        BuildError::TableTooLarge { size: usize::MAX }
    );
    assert!(b.table_writer::<6>(0xFFFF - 7, 4).is_ok());
}

#[test]
fn an_alignment_of_0_is_taken_as_1() {
    let mut b = Builder::new();
    b.create_vector(&[9u8]).unwrap(); // 5 bytes: an odd length
    b.start_table();
    b.add_bytes(0, &[1, 2], 0).unwrap();
    let t = b.end_table().unwrap();
    let bytes = finish(&mut b, t);
    let t: Table = flatforge::root(&bytes).unwrap();
    let at = t.position() + usize::from(t.field_offset(0));
    assert_eq!(bytes[at..at + 2], [1, 2]);

    let mut b = Builder::new();
    let mut w = b.table_writer::<6>(4, 0).unwrap();
    w.add_scalar::<u32>(0, 7, 0);
    let t = w.finish().unwrap();
    let t: Table = flatforge::root(b.finish(t, None).unwrap()).unwrap();
    assert_eq!(t.get::<u32>(0).unwrap(), Some(7));

    let mut b = Builder::new();
    let mut far = b.far().unwrap();
    far.force_vector_alignment(1, 1, 0).unwrap();
    let v = far.create_vector64(&[3u8]).unwrap();
    b.start_table();
    b.add_offset64(0, v).unwrap();
    let t = b.end_table().unwrap();
    let t: Table = flatforge::root(b.finish(t, None).unwrap()).unwrap();
    assert!(t.field_offset(0) != 0);
}

#[test]
fn an_alignment_that_is_not_a_power_of_two_is_an_error() {
    for align in [3, 6, 12, usize::MAX, usize::MAX - 1] {
        let err = BuildError::InvalidAlignment { align };
        let mut b = Builder::new();
        b.create_vector(&[9u8, 9]).unwrap(); // 6 bytes: no alignment is met by chance
        b.start_table();
        assert_eq!(b.add_bytes(0, &[1, 2], align), Err(err.clone()), "{align}");
        assert_eq!(b.end_table().map(|_| ()), Ok(()));
        assert_eq!(b.table_writer::<6>(4, align).map(|_| ()), Err(err.clone()));
        assert_eq!(b.start_vector(1, 1, align), Err(err.clone()));
        assert_eq!(
            b.create_nested_flatbuffer(&[4, 0, 0, 0], align),
            Err(err.clone())
        );
        let mut b = Builder::new();
        let mut far = b.far().unwrap();
        far.create_vector(&[1u8, 2]).unwrap();
        assert_eq!(far.force_vector_alignment(1, 1, align), Err(err));
    }
    assert_eq!(
        BuildError::InvalidAlignment { align: 6 }.to_string(),
        "alignment 6 is not a power of two"
    );
}

#[test]
fn a_nested_start_from_before_a_reset_is_an_error() {
    let mut b = Builder::new();
    b.create_string("enclosing data").unwrap();
    let start = b.start_nested().unwrap();
    b.reset();
    let s = b.create_string("x").unwrap();
    assert!(matches!(
        b.end_nested(start, s, None),
        Err(BuildError::InvalidNestedStart { .. })
    ));
    // The builder still works.
    let bytes = b.finish(s, None).unwrap();
    assert_eq!(flatforge::root::<&str>(bytes).unwrap(), "x");
}

#[test]
fn a_slot_of_any_size_is_an_error_not_an_overflow() {
    // 32765 would need a vtable of 65536 bytes, whose 16-bit size wrapped to 0.
    for slot in [usize::MAX, usize::MAX / 2 + 1, 32766, 32765] {
        let mut b = Builder::new();
        b.start_table();
        b.add_scalar_always::<u8>(slot, 1).unwrap();
        assert_eq!(b.end_table(), Err(BuildError::SlotTooLarge { slot }));
    }
    let mut b = Builder::new();
    b.start_table();
    b.add_scalar_always::<u8>(32764, 1).unwrap();
    let t = b.end_table().unwrap();
    let bytes = finish(&mut b, t);
    let t: Table = flatforge::root(&bytes).unwrap();
    let vt = t.vtable();
    assert_eq!(u16::from_le_bytes([bytes[vt], bytes[vt + 1]]), 65534);
    assert_eq!(t.get::<u8>(32764).unwrap(), Some(1));
}

#[test]
fn a_capacity_past_the_limit_is_clamped_to_it() {
    // A calloc'd buffer: its pages are not touched but the one written.
    let mut b = Builder::with_capacity(usize::MAX);
    assert_eq!(b.capacity(), flatforge::MAX_BUFFER_SIZE);
    let s = b.create_string("x").unwrap();
    assert_eq!(
        flatforge::root::<&str>(b.finish(s, None).unwrap()).unwrap(),
        "x"
    );
}

/// A one-pass table whose vtable would not fit its 16-bit size is refused before anything is
/// written (it used to finish, and the buffer failed verification); the largest that fits works.
#[test]
fn a_table_writer_vtable_must_fit_16_bits() {
    let mut b = flatforge::Builder::new();
    let err = b.table_writer::<65536>(1, 1).map(drop).unwrap_err();
    assert_eq!(err, flatforge::BuildError::SlotTooLarge { slot: 32765 });
    let mut t = b.table_writer::<65534>(1, 1).unwrap();
    t.add_scalar_always::<u8>(32764, 7);
    let root = t.finish().unwrap();
    let bytes = b.finish(root, None).unwrap();
    let table: flatforge::Table = flatforge::root(bytes).unwrap();
    assert_eq!(table.get::<u8>(32764).unwrap(), Some(7));
}
