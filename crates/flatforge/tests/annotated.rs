//! The corrupted buffers of `flatbuffers/tests/annotated_binary/tests/` (the cases flatc's binary
//! annotator flags) must all fail verification with an error naming what is wrong; the valid
//! `annotated_binary.bin` must pass. The verifier below is what generated code for
//! `annotated_binary.fbs` looks like.

use flatforge::{Error, ErrorKind, Object, Struct, Verifier, VerifierOptions, Verify};
use flatforge_testkit::testdata;

#[derive(Clone, Copy)]
#[repr(transparent)]
struct Tolerance([u8; 1]);
// SAFETY: a transparent wrapper of [u8; 1].
unsafe impl Struct for Tolerance {
    const ALIGN: usize = 1;
}

/// `struct Dimension { values: [int:3]; tolerances: [Tolerance:3]; }`: 16 bytes, align 4.
#[derive(Clone, Copy)]
#[repr(transparent)]
struct Dimension([u8; 16]);
// SAFETY: a transparent wrapper of [u8; 16].
unsafe impl Struct for Dimension {
    const ALIGN: usize = 4;
}

/// `struct Building { floors, doors, windows: int; dimensions: Dimension; }`: 28 bytes, align 4.
#[derive(Clone, Copy)]
#[repr(transparent)]
struct Building([u8; 28]);
// SAFETY: a transparent wrapper of [u8; 28].
unsafe impl Struct for Building {
    const ALIGN: usize = 4;
}

/// `struct Location { latitude, longitude: double; }`.
#[derive(Clone, Copy)]
#[repr(transparent)]
struct Location([u8; 16]);
// SAFETY: a transparent wrapper of [u8; 16].
unsafe impl Struct for Location {
    const ALIGN: usize = 8;
}

macro_rules! table {
    ($name:ident, $type_name:literal, |$t:ident| $body:block) => {
        struct $name;
        impl Verify for $name {
            const SIZE: usize = 4;
            const ALIGN: usize = 4;
            const TYPE_NAME: &'static str = $type_name;
            fn verify_at(v: &mut Verifier<'_>, pos: usize) -> Result<(), Error> {
                let target = v.offset(pos)?;
                #[allow(unused_mut)]
                let mut $t = v.table(target)?;
                $body
            }
        }
    };
}

table!(Baz, "Baz", |t| { t.field::<i8>(0, "meal", false) });
table!(Bar, "Bar", |t| {
    t.field::<f64>(0, "a", false)?;
    t.field::<f32>(1, "b", false)?;
    t.field::<Baz>(2, "c", false)
});

fn bar_baz(v: &mut Verifier<'_>, ty: u8, pos: usize) -> Option<Result<(), Error>> {
    match ty {
        1 => Some(Bar::verify_at(v, pos)),
        2 => Some(Baz::verify_at(v, pos)),
        _ => None,
    }
}

fn measurement(v: &mut Verifier<'_>, ty: u8, pos: usize) -> Option<Result<(), Error>> {
    match ty {
        1 => Some(flatforge::Indirect::<&Tolerance>::verify_at(v, pos)),
        2 => Some(flatforge::Indirect::<&Dimension>::verify_at(v, pos)),
        _ => None,
    }
}

fn any(v: &mut Verifier<'_>, ty: u8, pos: usize) -> Option<Result<(), Error>> {
    match ty {
        1 => Some(Bar::verify_at(v, pos)),
        2 => Some(flatforge::Indirect::<&Tolerance>::verify_at(v, pos)),
        _ => None,
    }
}

table!(Foo, "Foo", |t| {
    use flatforge::Vector;
    t.field::<i32>(0, "counter", false)?;
    t.field::<bool>(1, "healthy", false)?;
    t.field::<i64>(2, "level", false)?;
    t.field::<i8>(3, "meal", false)?;
    t.field::<Bar>(4, "bar", false)?;
    t.field::<&Building>(5, "home", false)?;
    t.field::<&str>(6, "name", false)?;
    t.field::<Vector<Bar>>(7, "bars", false)?;
    t.union(8, 9, "bar_baz", false, bar_baz)?;
    t.field::<Vector<u16>>(10, "accounts", false)?;
    t.field::<&str>(11, "bob", false)?;
    t.field::<&str>(12, "alice", false)?;
    t.field::<i32>(13, "maybe_i32", false)?;
    t.field::<i32>(14, "default_i32", false)?;
    t.field::<i32>(15, "just_i32", false)?;
    t.field::<Vector<&str>>(16, "names", false)?;
    t.field::<Vector<&Location>>(17, "points_of_interest", false)?;
    t.union_vector(18, 19, "foobars", false, bar_baz)?;
    t.union(20, 21, "measurement", false, measurement)?;
    t.union(22, 23, "anything", false, any)?;
    t.field::<f32>(24, "temperature", false)?;
    t.field::<Bar>(25, "teetotaler", false)?;
    t.field::<&str>(26, "charlie", false)
});

fn verify(bytes: &[u8]) -> Result<(), Error> {
    verify_with(bytes, VerifierOptions::default())
}

/// As `flatc --annotate` checks: a union type the schema does not list is an error too.
fn verify_strictly(bytes: &[u8]) -> Result<(), Error> {
    verify_with(
        bytes,
        VerifierOptions::default().with_unknown_union_types(false),
    )
}

fn verify_with(bytes: &[u8], opts: VerifierOptions) -> Result<(), Error> {
    let opts = opts.with_file_identifier(*b"ANNO");
    let mut v = Verifier::new(bytes, &opts);
    let root = v.root()?;
    Foo::verify_at(&mut v, root).map_err(|e| e.in_root(Foo::TYPE_NAME))
}

#[test]
fn the_valid_annotated_binary_verifies() {
    let bytes = std::fs::read(testdata(
        "flatbuffers/tests/annotated_binary/annotated_binary.bin",
    ))
    .unwrap();
    verify(&bytes).unwrap();
}

/// Each corrupted file, with the error kind and path we report for it.
#[test]
fn every_corrupted_annotated_binary_is_rejected_with_the_reason() {
    use ErrorKind::*;
    let out_of =
        |object| move |k: &ErrorKind| matches!(k, OutOfBounds { object: o, .. } if *o == object);
    type Check = Box<dyn Fn(&ErrorKind) -> bool>;
    let bar_out_of_buffer =
        || -> Check { Box::new(|k| matches!(k, OffsetOutOfBounds { value: 552 })) };
    // The first error flatc's annotator marks in each file is the one we report (same byte).
    let cases: Vec<(&str, Check, &str)> = vec![
        (
            "invalid_root_offset",
            Box::new(|k| matches!(k, OffsetOutOfBounds { value: 0xFFFF })),
            "Foo",
        ),
        (
            "invalid_root_table_too_short",
            Box::new(out_of(Object::Table)),
            "Foo",
        ),
        (
            "invalid_root_table_vtable_offset",
            Box::new(|k| matches!(k, OffsetOutOfBounds { value: 0xFFFF })),
            "Foo",
        ),
        (
            "invalid_string_length",
            Box::new(out_of(Object::String)),
            "Foo.charlie",
        ),
        (
            "invalid_string_length_cut_short",
            bar_out_of_buffer(),
            "Foo.bar",
        ),
        (
            "invalid_struct_array_field_cut_short",
            Box::new(out_of(Object::Table)),
            "Foo",
        ),
        (
            "invalid_struct_field_cut_short",
            Box::new(out_of(Object::Table)),
            "Foo",
        ),
        (
            "invalid_table_field_offset",
            Box::new(out_of(Object::Table)),
            "Foo",
        ),
        (
            "invalid_table_field_size",
            Box::new(out_of(Object::Table)),
            "Foo",
        ),
        (
            "invalid_union_type_value",
            Box::new(|k| matches!(k, UnknownUnionType { value: 0xFF })),
            "Foo.bar_baz",
        ),
        (
            "invalid_vector_length_cut_short",
            bar_out_of_buffer(),
            "Foo.bar",
        ),
        (
            "invalid_vector_scalars_cut_short",
            bar_out_of_buffer(),
            "Foo.bar",
        ),
        (
            "invalid_vector_strings_cut_short",
            bar_out_of_buffer(),
            "Foo.bar",
        ),
        (
            "invalid_vector_structs_cut_short",
            bar_out_of_buffer(),
            "Foo.bar",
        ),
        (
            "invalid_vector_tables_cut_short",
            bar_out_of_buffer(),
            "Foo.bar",
        ),
        (
            "invalid_vector_union_type_value",
            Box::new(|k| matches!(k, UnknownUnionType { value: 0xFF })),
            "Foo.foobars[1]",
        ),
        (
            "invalid_vector_unions_cut_short",
            bar_out_of_buffer(),
            "Foo.bar",
        ),
        (
            "invalid_vtable_field_offset",
            Box::new(|k| {
                matches!(
                    k,
                    FieldOutOfTable {
                        voffset: 0xFFFF,
                        ..
                    }
                )
            }),
            "Foo.bar",
        ),
        (
            "invalid_vtable_ref_table_size",
            Box::new(out_of(Object::Table)),
            "Foo",
        ),
        (
            "invalid_vtable_ref_table_size_short",
            Box::new(|k| matches!(k, InvalidTableSize { size: 1 })),
            "Foo",
        ),
        (
            "invalid_vtable_size",
            Box::new(|k| matches!(k, InvalidVtableSize { size: 0xFFFF })),
            "Foo",
        ),
        (
            "invalid_vtable_size_short",
            Box::new(|k| matches!(k, InvalidVtableSize { size: 1 })),
            "Foo",
        ),
    ];
    let dir = testdata("flatbuffers/tests/annotated_binary/tests");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".bin"))
        .collect();
    files.sort();
    assert_eq!(
        files.len(),
        22,
        "expected the 22 corrupted files in {}",
        dir.display()
    );
    assert_eq!(cases.len(), files.len());
    for (name, check, path) in &cases {
        let bytes = std::fs::read(dir.join(format!("{name}.bin"))).unwrap();
        let err = verify_strictly(&bytes).expect_err(name);
        if name.ends_with("union_type_value") {
            // A newer schema's member, as far as a reader can tell: flatc's verifiers accept it.
            assert!(verify(&bytes).is_ok(), "{name}");
        } else {
            assert_eq!(verify(&bytes).unwrap_err(), err, "{name}");
        }
        assert!(check(err.kind()), "{name}: unexpected error {err}");
        assert_eq!(err.path_string(), *path, "{name}: {err}");
        assert!(
            err.offset() < bytes.len(),
            "{name}: offset {} past the end",
            err.offset()
        );
    }
}
