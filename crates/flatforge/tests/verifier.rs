//! Verifier checks one by one: each malformed input gives its own error kind, byte offset and path.

use flatforge::{
    Builder, Error, ErrorKind, Object, Table, Vector, Verifier, VerifierOptions, Verify,
};

fn finish<T: ?Sized>(b: &mut Builder, root: flatforge::Offset<T>) -> Vec<u8> {
    b.finish(root, None).unwrap().to_vec()
}

/// A table `{ 0: string }` whose string bytes are `s`.
fn string_table(s: &str) -> (Vec<u8>, usize) {
    let mut b = Builder::new();
    let off = b.create_string(s).unwrap();
    b.start_table();
    b.add_offset(0, off).unwrap();
    let t = b.end_table().unwrap();
    let bytes = finish(&mut b, t);
    let pos = bytes
        .windows(s.len())
        .position(|w| w == s.as_bytes())
        .unwrap();
    (bytes, pos)
}

/// `table Person { name: string (required); }`, generated-code style.
#[derive(Debug)]
struct Person;
impl Verify for Person {
    const SIZE: usize = 4;
    const ALIGN: usize = 4;
    const TYPE_NAME: &'static str = "Person";
    fn verify_at(v: &mut Verifier<'_>, pos: usize) -> Result<(), Error> {
        let target = v.offset(pos)?;
        let mut t = v.table(target)?;
        t.field::<&str>(0, "name", true)
    }
}
impl<'a> flatforge::Follow<'a> for Person {
    unsafe fn follow(_: &'a [u8], _: usize) -> Self {
        Person
    }
}

#[test]
fn string_without_terminator() {
    let (mut bytes, at) = string_table("abcd");
    bytes[at + 4] = b'!';
    let err = flatforge::root::<Person>(&bytes).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::StringNotTerminated);
    assert_eq!(err.offset(), at + 4);
    assert_eq!(err.path_string(), "Person.name");
}

#[test]
fn string_with_invalid_utf8() {
    let (mut bytes, at) = string_table("abcdef");
    bytes[at + 3] = 0xC3; // a lead byte followed by ASCII
    let err = flatforge::root::<Person>(&bytes).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::InvalidUtf8 { valid_up_to: 3 });
    assert_eq!(err.offset(), at + 3);
    assert_eq!(
        err.to_string(),
        format!(
            "string is not valid UTF-8 (valid up to byte 3) at byte {} in Person.name",
            at + 3
        )
    );
}

#[test]
fn missing_required_field() {
    let mut b = Builder::new();
    b.start_table();
    let t = b.end_table().unwrap();
    let bytes = finish(&mut b, t);
    let err = flatforge::root::<Person>(&bytes).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::MissingRequiredField);
    assert_eq!(err.path_string(), "Person.name");
}

#[test]
fn unions_must_be_consistent() {
    let check_with = |ty: Option<u8>, value: bool, opts: VerifierOptions| -> Result<(), Error> {
        let mut b = Builder::new();
        b.start_table();
        let inner = b.end_table().unwrap();
        b.start_table();
        if let Some(ty) = ty {
            b.add_scalar_always(0, ty).unwrap();
        }
        if value {
            b.add_offset(1, inner).unwrap();
        }
        let t = b.end_table().unwrap();
        let bytes = finish(&mut b, t);
        let mut v = Verifier::new(&bytes, &opts);
        let root = v.root()?;
        let target = v.offset(root)?;
        let mut t = v.table(target)?;
        t.union(0, 1, "u", false, |v, ty, pos| {
            (ty == 1).then(|| Table::verify_at(v, pos))
        })
    };
    let check = |ty, value| check_with(ty, value, VerifierOptions::default());
    check(None, false).unwrap();
    check(Some(0), false).unwrap();
    check(Some(1), true).unwrap();
    let kind = |r: Result<(), Error>| r.unwrap_err().kind().clone();
    assert_eq!(kind(check(None, true)), ErrorKind::UnionValueWithoutType);
    assert_eq!(kind(check(Some(0), true)), ErrorKind::UnionValueWithoutType);
    assert_eq!(
        kind(check(Some(1), false)),
        ErrorKind::UnionTypeWithoutValue { value: 1 }
    );
    // Type 2 is no member: a newer schema's, accepted unless the reader asks otherwise.
    check(Some(2), true).unwrap();
    let strict = VerifierOptions::default().with_unknown_union_types(false);
    assert_eq!(
        kind(check_with(Some(2), true, strict)),
        ErrorKind::UnknownUnionType { value: 2 }
    );
}

#[test]
fn union_vectors_must_have_equal_lengths() {
    let mut b = Builder::new();
    b.start_table();
    let inner = b.end_table().unwrap();
    let types = b.create_vector(&[1u8, 0]).unwrap();
    let values = b.create_vector_of_offsets(&[inner]).unwrap();
    b.start_table();
    b.add_offset(0, types).unwrap();
    b.add_offset(1, values).unwrap();
    let t = b.end_table().unwrap();
    let bytes = finish(&mut b, t);
    let mut v = Verifier::new(&bytes, &VerifierOptions::default());
    let root = v.root().unwrap();
    let target = v.offset(root).unwrap();
    let mut t = v.table(target).unwrap();
    let err = t
        .union_vector(0, 1, "us", false, |v, _, pos| {
            Some(Table::verify_at(v, pos))
        })
        .unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::UnionVectorLengthMismatch {
            types: 2,
            values: 1
        }
    );
    assert_eq!(err.path_string(), "us");
}

/// A vector of union values without its vector of types (or the reverse) is an error with its own
/// kind, unless it is empty: flatc's JSON parser writes `characters: []` with no vector of types.
/// (C++'s generated verifiers reject even that, `!values && !types`, so flatc's own buffer.)
#[test]
fn a_union_vector_half_alone_is_valid_only_when_empty() {
    let check_as = |types: Option<&[u8]>, values: usize, required: bool| {
        let mut b = Builder::new();
        b.start_table();
        let inner = b.end_table().unwrap();
        let types = types.map(|t| b.create_vector(t).unwrap());
        let values = (values != usize::MAX)
            .then(|| b.create_vector_of_offsets(&vec![inner; values]).unwrap());
        b.start_table();
        if let Some(types) = types {
            b.add_offset(0, types).unwrap();
        }
        if let Some(values) = values {
            b.add_offset(1, values).unwrap();
        }
        let t = b.end_table().unwrap();
        let bytes = finish(&mut b, t);
        let mut v = Verifier::new(&bytes, &VerifierOptions::default());
        let root = v.root().unwrap();
        let mut t = v.follow_table(root).unwrap();
        t.union_vector(0, 1, "us", required, |v, _, pos| {
            Some(Table::verify_at(v, pos))
        })
        .map_err(|e| (e.kind().clone(), e.path_string(), e.to_string()))
    };
    let check = |types: Option<&[u8]>, values: usize| check_as(types, values, false);
    const ABSENT: usize = usize::MAX;
    assert_eq!(check(None, ABSENT), Ok(()));
    assert_eq!(check(Some(&[]), 0), Ok(()));
    assert_eq!(check(Some(&[1]), 1), Ok(()));
    assert_eq!(check(None, 0), Ok(()));
    assert_eq!(check(Some(&[]), ABSENT), Ok(()));
    for values in [1, 2] {
        let (kind, path, text) = check(None, values).unwrap_err();
        assert_eq!(
            (kind, path),
            (ErrorKind::UnionVectorWithoutTypes, "us".into())
        );
        assert!(text.starts_with("union vector has a vector of values but no vector of types"));
    }
    for types in [&[1][..], &[1, 1]] {
        let (kind, _, _) = check(Some(types), ABSENT).unwrap_err();
        assert_eq!(kind, ErrorKind::UnionVectorWithoutValues);
    }
    // A required one needs both halves, empty or not (generated readers read both unchecked).
    assert_eq!(check_as(Some(&[]), 0, true), Ok(()));
    for (types, values) in [(None, 0), (Some(&[][..]), ABSENT), (None, ABSENT)] {
        let (kind, path, _) = check_as(types, values, true).unwrap_err();
        assert_eq!((kind, path), (ErrorKind::MissingRequiredField, "us".into()));
    }
}

#[test]
fn root_checks() {
    let mut b = Builder::new();
    let s = b.create_string("x").unwrap();
    let bytes = b.finish(s, Some(b"ABCD")).unwrap().to_vec();
    let opts = VerifierOptions::default().with_file_identifier(*b"WXYZ");
    let err = flatforge::root_with_options::<&str>(&bytes, &opts).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::FileIdentifierMismatch {
            expected: *b"WXYZ",
            found: *b"ABCD"
        }
    );
    assert_eq!(err.offset(), 4);
    let err = flatforge::root::<&str>(&bytes[..3]).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::BufferTooShort { len: 3, min: 4 });
    let opts = VerifierOptions::default().with_size_prefixed(true);
    let err = flatforge::root_with_options::<&str>(&[200, 0, 0, 0, 4, 0, 0, 0], &opts).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::SizePrefixTooLarge {
            size: 200,
            available: 4
        }
    );
}

/// Regression: a size prefix too small for the header was reported as a buffer of the prefix's
/// length ("buffer of 4 bytes is too short" for a 232-byte file), inputs shorter than the prefix
/// were told a minimum without the file identifier, and one byte was "1 bytes".
#[test]
fn size_prefix_errors_name_the_prefix_and_a_consistent_minimum() {
    let mut b = Builder::new();
    let s = b.create_string("x").unwrap();
    let mut bytes = b.finish_size_prefixed(s, Some(b"ABCD")).unwrap().to_vec();
    let sized = VerifierOptions::default().with_size_prefixed(true);
    let with_id = sized.clone().with_file_identifier(*b"ABCD");
    assert_eq!(
        flatforge::root_with_options::<&str>(&bytes, &with_id).unwrap(),
        "x"
    );
    let message = |bytes: &[u8], opts: &VerifierOptions| {
        let err = flatforge::root_with_options::<&str>(bytes, opts).unwrap_err();
        (err.kind().clone(), err.to_string())
    };
    for (prefix, opts, min) in [(0, &sized, 4), (4, &with_id, 8), (7, &with_id, 8)] {
        bytes[..4].copy_from_slice(&(prefix as u32).to_le_bytes());
        assert_eq!(
            message(&bytes, opts),
            (
                ErrorKind::SizePrefixTooSmall { size: prefix, min },
                format!(
                    "size prefix says {prefix} bytes, fewer than the {min} bytes a FlatBuffer \
                     needs after it at byte 0"
                )
            )
        );
    }
    // Shorter than the prefix: the minimum counts the prefix, the root offset and the identifier,
    // as it does for inputs that hold the prefix.
    let (kind, text) = message(&bytes[..1], &with_id);
    assert_eq!(kind, ErrorKind::BufferTooShort { len: 1, min: 12 });
    assert_eq!(
        text,
        "buffer of 1 byte is too short: a FlatBuffer needs at least 12 bytes at byte 0"
    );
    assert_eq!(
        message(&bytes[..3], &sized).0,
        ErrorKind::BufferTooShort { len: 3, min: 8 }
    );
    bytes[..4].copy_from_slice(&200u32.to_le_bytes());
    assert_eq!(
        message(&bytes[..5], &sized).1,
        "size prefix says 200 bytes but the buffer has only 1 byte after it at byte 0"
    );
}

/// Regression: a string or vector whose length field is cut off was reported as a "string of 4
/// bytes", as if the length field were the string.
#[test]
fn a_length_cut_off_is_reported_as_the_length() {
    let mut b = Builder::new();
    let s = b.create_string("x").unwrap();
    let bytes = b.finish(s, None).unwrap().to_vec();
    assert_eq!(bytes, [4, 0, 0, 0, 1, 0, 0, 0, b'x', 0, 0, 0]);
    let mut v = Verifier::new(&bytes[..7], &VerifierOptions::default());
    let err = v.string(4).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::OutOfBounds {
            object: Object::StringLength,
            size: 4,
            len: 7
        }
    );
    assert_eq!(
        err.to_string(),
        "string length of 4 bytes extends past the end of the 7-byte buffer at byte 4"
    );
    // Through an offset, for strings and vectors alike.
    let err = flatforge::root::<&str>(&bytes[..7]).unwrap_err();
    assert!(matches!(
        err.kind(),
        ErrorKind::OutOfBounds {
            object: Object::StringLength,
            ..
        }
    ));
    let err = flatforge::root::<Vector<u8>>(&bytes[..7]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "vector length of 4 bytes extends past the end of the 7-byte buffer at byte 4"
    );
    let err = Verifier::new(&bytes[..7], &VerifierOptions::default())
        .vector_raw(4, 1, 1)
        .unwrap_err();
    assert_eq!(
        (err.kind().to_string(), err.offset()),
        (
            "vector length of 4 bytes extends past the end of the 7-byte buffer".into(),
            4
        )
    );
}

/// Regression: a vtable starting in the last 3 bytes of the buffer was reported as "offset -18
/// points outside the buffer", though it points inside; its header does not fit.
#[test]
fn a_vtable_in_the_last_bytes_does_not_fit() {
    let mut b = Builder::new();
    b.start_table();
    b.add_scalar::<u32>(0, 7, 0).unwrap();
    let t = b.end_table().unwrap();
    let mut bytes = finish(&mut b, t);
    let pos = u32::from_le_bytes(bytes[..4].try_into().unwrap()) as usize;
    let len = bytes.len();
    for vtable in len - 3..len {
        let soffset = pos as i32 - vtable as i32;
        bytes[pos..pos + 4].copy_from_slice(&soffset.to_le_bytes());
        let err = flatforge::root::<Table>(&bytes).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (
                &ErrorKind::OutOfBounds {
                    object: Object::VtableHeader,
                    size: 4,
                    len
                },
                vtable
            )
        );
        assert_eq!(
            err.kind().to_string(),
            format!("vtable header of 4 bytes extends past the end of the {len}-byte buffer")
        );
    }
    // At the end of the buffer, or before its start, the offset points outside it.
    for vtable in [len as i64, len as i64 + 4, -4] {
        let soffset = pos as i64 - vtable;
        bytes[pos..pos + 4].copy_from_slice(&(soffset as i32).to_le_bytes());
        let err = flatforge::root::<Table>(&bytes).unwrap_err();
        let kind = ErrorKind::OffsetOutOfBounds { value: soffset };
        assert_eq!((err.kind(), err.offset()), (&kind, pos));
    }
}

#[test]
fn offsets_must_be_nonzero_in_range_and_aligned() {
    let zero = [0u8, 0, 0, 0];
    let err = flatforge::root::<&str>(&zero).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::InvalidOffset { value: 0 });
    let huge = [0, 0, 0, 0x80];
    let err = flatforge::root::<&str>(&huge).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::InvalidOffset { value: 0x8000_0000 });
    let past = [8, 0, 0, 0, 0, 0, 0, 0];
    let err = flatforge::root::<&str>(&past).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::OffsetOutOfBounds { value: 8 });
    // A string at an odd position.
    let odd = [5, 0, 0, 0, 0, 1, 0, 0, 0, b'a', 0];
    let err = flatforge::root::<&str>(&odd).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::Unaligned {
            object: Object::String,
            align: 4
        }
    );
    let lenient = VerifierOptions::default().with_check_alignment(false);
    assert_eq!(
        flatforge::root_with_options::<&str>(&odd, &lenient).unwrap(),
        "a"
    );
}

#[test]
fn vectors_must_fit() {
    let mut b = Builder::new();
    let v = b.create_vector(&[1u32, 2, 3]).unwrap();
    let mut bytes = finish(&mut b, v);
    let len_at = bytes.len() - 16;
    bytes[len_at] = 200;
    let err = flatforge::root::<Vector<u32>>(&bytes).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::OutOfBounds {
            object: Object::Vector,
            size: 804,
            len: bytes.len()
        }
    );
    bytes[len_at..len_at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(flatforge::root::<Vector<u32>>(&bytes).is_err());
    // Checked constructors agree with the verifier.
    assert!(Vector::<u32>::new(&bytes, len_at).is_err());
}

#[test]
fn apparent_size_budget_counts_shared_strings_each_time() {
    let mut b = Builder::new();
    let s = b.create_string(&"x".repeat(1000)).unwrap();
    let v = b.create_vector_of_offsets(&[s; 100]).unwrap();
    let bytes = finish(&mut b, v);
    assert!(flatforge::root::<Vector<&str>>(&bytes).is_ok());
    let opts = VerifierOptions::default().with_max_apparent_size(50_000);
    let err = flatforge::root_with_options::<Vector<&str>>(&bytes, &opts).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::ApparentSizeLimitExceeded { limit: 50_000 }
    );
    assert!(err.path_string().starts_with('['), "{}", err.path_string());
}

#[test]
fn errors_inside_nested_flatbuffers_report_outer_offsets() {
    // A nested buffer whose string lacks its terminator.
    let mut inner = Builder::new();
    let s = inner.create_string("bad").unwrap();
    let mut inner_bytes = finish(&mut inner, s);
    let n = inner_bytes.len();
    inner_bytes[n - 1] = b'!';
    let mut b = Builder::new();
    let nested = b.create_nested_flatbuffer(&inner_bytes, 8).unwrap();
    b.start_table();
    b.add_offset(0, nested).unwrap();
    let t = b.end_table().unwrap();
    let bytes = finish(&mut b, t);
    let start = bytes.windows(3).position(|w| w == b"bad").unwrap() - 8;
    let mut v = Verifier::new(&bytes, &VerifierOptions::default());
    let root = v.root().unwrap();
    let target = v.offset(root).unwrap();
    let mut t = v.table(target).unwrap();
    let err = t.nested_root::<&str>(0, "payload", false).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::StringNotTerminated);
    assert_eq!(err.offset(), start + n - 1);
    assert_eq!(err.path_string(), "payload");
    assert_eq!(&bytes[err.offset()..err.offset() + 1], b"!");
}

#[test]
fn raw_table_reads_are_checked() {
    let mut b = Builder::new();
    b.start_table();
    b.add_scalar::<u16>(0, 7, 0).unwrap();
    let t = b.end_table().unwrap();
    let bytes = finish(&mut b, t);
    let t: Table = flatforge::root(&bytes).unwrap();
    assert_eq!(t.get::<u16>(0).unwrap(), Some(7));
    // Asking for more than the field holds is an error, not an out-of-bounds read.
    let err = t.get::<u64>(0).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::FieldOutOfTable { size: 8, .. }),
        "{err}"
    );
    assert!(t.get::<&str>(0).is_err());
    assert_eq!(t.get::<u64>(5).unwrap(), None);
}

#[test]
fn an_alignment_of_0_is_taken_as_1() {
    // A 1-byte field at an odd offset in its table, and a 4-byte one.
    let mut b = Builder::new();
    b.start_table();
    b.add_scalar::<u8>(0, 1, 0).unwrap();
    b.add_scalar::<u8>(1, 2, 0).unwrap();
    b.add_scalar::<u32>(2, 3, 0).unwrap();
    let t = b.end_table().unwrap();
    let bytes = finish(&mut b, t);
    let mut v = Verifier::new(&bytes, &VerifierOptions::default());
    for pos in 0..bytes.len() {
        assert!(v.check_alignment(Object::Inline, pos, 0).is_ok(), "{pos}");
    }
    let root = v.root().unwrap();
    let mut t = v.follow_table(root).unwrap();
    for slot in 0..3 {
        let pos = t.field_position(slot, 1, 1).unwrap();
        assert_eq!(t.field_position(slot, 1, 0).unwrap(), pos, "{slot}");
        assert_eq!(
            t.inline_field(slot, 1, 0, "f", true).unwrap(),
            pos,
            "{slot}"
        );
        // A size past the table is still an error.
        assert!(t.field_position(slot, 64, 0).is_err(), "{slot}");
    }
    assert_eq!(t.field_position(3, 1, 0).unwrap(), None);
    assert_eq!(t.inline_field(3, 8, 0, "absent", false).unwrap(), None);
}

#[test]
fn a_buffer_one_past_the_limit_names_the_exact_limit() {
    let kind = ErrorKind::BufferTooLarge {
        len: flatforge::MAX_BUFFER_SIZE + 1,
    };
    assert_eq!(
        kind.to_string(),
        "buffer of 2147483648 bytes exceeds the FlatBuffers limit of 2147483647 bytes (2 GiB - 1)"
    );
}
