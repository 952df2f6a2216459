//! A union with an underlying type (`union ABC : int { A = 555, B = 666, C = 777 }`, from
//! union_underlying_type_test.fbs) against flatc's C++ code: its type field and vectors of types
//! hold `int`s, as flatc's C++ and TypeScript generators lay them out.
//!
//! flatc 25.12.19 can neither write nor read such a buffer itself: its JSON parser takes the type
//! field for a `ubyte` (`"B"` is "constant does not fit [0; 255]"), `-t` refuses the schema
//! ("Underlying type for union is not yet supported") and `--annotate` crashes on it. The
//! reference buffer `tests/data/union_underlying_type.bin` was therefore written by the C++ code
//! flatc generates (`tests/data/union_underlying_type.cpp`); it holds
//! `{ test_union: B { b: "hello" }, test_vector_of_union: [A { a: 42 }, C { c: true }, B { b: "x" }] }`.

use flatforge::{Builder, ErrorKind, Vector, VerifierOptions};
use flatforge_codegen_tests::flatbuffers_tests_union_underlying_type_test::union_underlying_type as u;

const CPP: &[u8] = include_bytes!("data/union_underlying_type.bin");

#[test]
fn the_views_read_the_buffer_of_flatcs_cpp_code() {
    let d = u::D::root(CPP).expect("verifies");
    assert_eq!(d.test_union_type(), u::AbcType::B);
    assert_eq!(d.test_union_type().0, 666);
    assert!(matches!(d.test_union(), Some(u::Abc::B(b)) if b.b() == Some("hello")));
    assert_eq!(d.test_union_as_b().and_then(|b| b.b()), Some("hello"));
    assert!(d.test_union_as_a().is_none());
    let types: Vec<u::AbcType> = d.test_vector_of_union_type().unwrap().iter().collect();
    assert_eq!(types, [u::AbcType::A, u::AbcType::C, u::AbcType::B]);
    let values = d.test_vector_of_union().unwrap();
    assert_eq!(values.len(), 3);
    assert!(matches!(values.get(0), Some(Some(u::Abc::A(a))) if a.a() == 42));
    assert!(matches!(values.get(1), Some(Some(u::Abc::C(c))) if c.c()));
    assert!(matches!(values.get(2), Some(Some(u::Abc::B(b))) if b.b() == Some("x")));
    assert_eq!(values.types().iter().collect::<Vec<_>>(), [555, 777, 666]);
}

/// What `bytes` holds, read with the generated views and, untyped, as the C++ code lays it out:
/// the type field an `int` in slot 0, the types an `[int]` in slot 2.
fn read(bytes: &[u8]) -> (u::DT, Option<i32>, Vec<i32>) {
    let d = u::D::root(bytes).expect("verifies");
    let t = d.as_table();
    let ty = t.get::<i32>(0).expect("an int");
    let types = t.get::<Vector<i32>>(2).expect("ints").expect("present");
    (d.unpack(), ty, types.iter().collect())
}

#[test]
fn the_builders_and_the_object_api_write_what_flatcs_cpp_code_writes() {
    let theirs = read(CPP);
    assert_eq!(
        theirs.0.test_union,
        u::AbcT::B(Box::new(u::BT {
            b: Some("hello".into())
        }))
    );
    assert_eq!((theirs.1, &theirs.2[..]), (Some(666), &[555, 777, 666][..]));
    // The object API.
    let mut b = Builder::new();
    let root = theirs.0.pack(&mut b).unwrap();
    assert_eq!(read(b.finish(root, None).unwrap()), theirs);

    // The builders, in the order of the C++ program. (The bytes differ: C++'s builder counts
    // the padding before a table's first field in the table, which makes the vtables of `A` and
    // `B` differ in their table sizes, where this builder shares one.)
    b.reset();
    let hello = b.create_string("hello").unwrap();
    let hello = u::B::builder(&mut b).b(hello).finish().unwrap();
    let a = u::A::create(&mut b, &u::AArgs { a: 42 }).unwrap();
    let c = u::C::builder(&mut b).c(true).finish().unwrap();
    let x = b.create_string("x").unwrap();
    let x = u::B::create(&mut b, &u::BArgs { b: Some(x) }).unwrap();
    let vector = u::AbcOffset::create_vector(
        &mut b,
        &[u::AbcOffset::a(a), u::AbcOffset::c(c), u::AbcOffset::b(x)],
    )
    .unwrap();
    let root = u::D::builder(&mut b)
        .test_union(u::AbcOffset::b(hello))
        .test_vector_of_union(vector)
        .finish()
        .unwrap();
    assert_eq!(read(b.finish(root, None).unwrap()), theirs);
}

#[test]
fn types_are_checked_as_ints() {
    // The type field is the first field of `D` (an int at table + 4): 666 there.
    let table = u32::from_le_bytes(CPP[..4].try_into().unwrap()) as usize;
    let at = table + 4;
    assert_eq!(CPP[at..at + 4], 666i32.to_le_bytes());
    // A value outside the union is, by default, a newer schema's member: accepted, read as
    // absent, its type kept.
    let mut bytes = CPP.to_vec();
    bytes[at..at + 4].copy_from_slice(&667i32.to_le_bytes());
    let d = u::D::root(&bytes).unwrap();
    assert!(d.test_union().is_none());
    assert_eq!(i32::from(d.test_union_type()), 667);
    // A reader that wants known members only gets an error.
    let strict = VerifierOptions::default().with_unknown_union_types(false);
    let root = |bytes: &[u8]| u::D::root_with_options(bytes, &strict).map(|_| ());
    let err = root(&bytes).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::UnknownUnionType { value: 667 });
    assert_eq!(
        (err.offset(), err.path_string()),
        (at, "D.test_union".into())
    );
    // The high bytes count: 666 + 2^16 is not a member either (read as a byte or a short, it
    // would be).
    bytes[at..at + 4].copy_from_slice(&(666i32 + 0x10000).to_le_bytes());
    let err = root(&bytes).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::UnknownUnionType {
            value: 666 + 0x10000
        }
    );
    // In the vector of types too.
    let types = CPP
        .windows(12)
        .position(|w| w == [0x2b, 2, 0, 0, 9, 3, 0, 0, 0x9a, 2, 0, 0]);
    let mut bytes = CPP.to_vec();
    let second = types.unwrap() + 4;
    bytes[second..second + 4].copy_from_slice(&(-1i32).to_le_bytes());
    let err = root(&bytes).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::UnknownUnionType { value: -1 });
    assert_eq!(err.path_string(), "D.test_vector_of_union[1]");
}
