//! 64-bit offsets (`offset64`, `vector64`) against flatc: the generated code reads flatc's
//! `64bit/test_64bit.bin` as `64bit/test_64bit.json` says, and builds the same data (with the
//! builders and with the object API) into buffers in which `flatc --annotate` finds the same
//! values as in its own. (flatc 25.12.19's `-t` aborts on any buffer with a 64-bit offset, in
//! `JsonPrinter::PrintOffset`, so its annotator is the reader to compare with.)

mod common;

use flatforge::{BuildError, Builder};
use flatforge_codegen_tests as g;
use g::flatbuffers_tests_64bit_test_64bit as t64;
use serde_json::Value;

const SCHEMA: &str = "flatbuffers/tests/64bit/test_64bit.fbs";

fn flatc_bin() -> Vec<u8> {
    std::fs::read(common::testdata("flatbuffers/tests/64bit/test_64bit.bin")).expect("bin")
}

fn json() -> Value {
    let text = std::fs::read_to_string(common::testdata("flatbuffers/tests/64bit/test_64bit.json"))
        .expect("json");
    serde_json::from_str(&text).expect("test_64bit.json is strict JSON")
}

/// flatc's annotation of `ours` holds the values of its annotation of its own buffer.
fn assert_same_annotation(ours: &[u8], dir: &std::path::Path) {
    let schema = common::testdata(SCHEMA);
    let theirs = common::flatc_annotation(&schema, &flatc_bin(), dir, &[]);
    let theirs = common::annotated_values(&theirs);
    // Every value of test_64bit.json is in it.
    let titles: Vec<&str> = theirs.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(
        titles,
        [
            "root_table (RootTable)",
            "string (RootTable.far_string)",
            "string (RootTable.near_string)",
            "vector (RootTable.far_vector)",
            "vector64 (RootTable.big_bool_vector)",
            "vector64 (RootTable.big_struct_vector)",
            "vector64 (RootTable.big_vector)",
        ]
    );
    assert!(theirs[0]
        .1
        .contains(&"uint32_t | 0x000004D2 (1234) | table field `a` (Int)".into()));
    let ours = common::flatc_annotation(&schema, ours, dir, &[]);
    assert_eq!(
        theirs,
        common::annotated_values(&ours),
        "flatc finds other values in our buffer:\n{ours}"
    );
}

#[test]
fn flatcs_buffer_reads_as_its_json() {
    let bytes = flatc_bin();
    let r = t64::root_as_root_table(&bytes).expect("flatc's buffer verifies");
    let j = json();
    let bytes_of = |v: &Value| -> Vec<u8> {
        v.as_array()
            .expect("an array")
            .iter()
            .map(|x| x.as_u64().expect("a byte") as u8)
            .collect()
    };
    assert_eq!(i64::from(r.a()), j["a"].as_i64().unwrap());
    assert_eq!(
        r.far_vector().unwrap().as_slice(),
        bytes_of(&j["far_vector"])
    );
    assert_eq!(r.far_string(), j["far_string"].as_str());
    assert_eq!(
        r.big_vector().unwrap().as_slice(),
        bytes_of(&j["big_vector"])
    );
    assert_eq!(
        r.big_bool_vector().unwrap().as_slice(),
        bytes_of(&j["big_bool_vector"])
    );
    assert_eq!(r.near_string(), j["near_string"].as_str());
    let structs = r.big_struct_vector().unwrap();
    let expected = j["big_struct_vector"].as_array().unwrap();
    assert_eq!(structs.len(), expected.len());
    for (s, e) in structs.iter().zip(expected) {
        assert_eq!(i64::from(s.a()), e["a"].as_i64().unwrap());
        assert_eq!(s.b(), e["b"].as_f64().unwrap());
    }
    // What the JSON leaves out is absent.
    assert!(r.far_struct_vector().is_none());
    assert!(r.nested_root().is_none() && r.nested_root_nested_root().is_none());
    assert!(r.many_vectors().is_none() && r.forced_aligned_vector().is_none());
    assert!(j.get("many_vectors").is_none());
}

/// The data of test_64bit.json, built with `create`: the 64-bit region first, as the builder
/// requires (in field order, as the object API writes it).
fn build_with_builders(b: &mut Builder) -> Result<Vec<u8>, BuildError> {
    let mut far = b.far()?;
    let far_vector = far.create_vector(&[1u8, 2, 3])?;
    let far_string = far.create_string("this is a far string which has a 64-bit offset")?;
    let big_bool_vector = far.create_vector64(&[1u8, 0, 1, 1, 0, 0, 1])?;
    let big_vector = far.create_vector64(&[5u8, 6, 7, 8])?;
    let big_struct_vector = far.create_vector64_of_structs(&[
        t64::LeafStruct::new(12, 3.456),
        t64::LeafStruct::new(78, 9.10),
    ])?;
    let near_string = b.create_string("this is a near string which has a 32-bit offset")?;
    let root = t64::RootTable::create(
        b,
        &t64::RootTableArgs {
            far_vector: Some(far_vector),
            a: 1234,
            far_string: Some(far_string),
            big_vector: Some(big_vector),
            big_bool_vector: Some(big_bool_vector),
            near_string: Some(near_string),
            big_struct_vector: Some(big_struct_vector),
            ..Default::default()
        },
    )?;
    Ok(t64::finish_root_table_buffer(b, root)?.to_vec())
}

#[test]
fn the_builders_write_what_flatc_reads_as_its_own() {
    let dir = common::temp_dir("offset64_builders");
    let mut b = Builder::new();
    let ours = build_with_builders(&mut b).unwrap();
    assert_same_annotation(&ours, &dir);
    // The 64-bit region is at the end of the buffer: the near string comes before the far one.
    let at = |s: &[u8]| ours.windows(s.len()).position(|w| w == s).expect("found");
    assert!(at(b"a near string") < at(b"a far string"));
    // A changed value (in the 64-bit region) is seen.
    let mut changed = ours.clone();
    changed[at(b"a far string") + 2] = b'F';
    let result = std::panic::catch_unwind(|| assert_same_annotation(&changed, &dir));
    assert!(result.is_err(), "a changed string went unnoticed");

    // The typestate builder, the same data.
    b.reset();
    let mut far = b.far().unwrap();
    let far_vector = far.create_vector(&[1u8, 2, 3]).unwrap();
    let far_string = far
        .create_string("this is a far string which has a 64-bit offset")
        .unwrap();
    let big_bool_vector = far.create_vector64(&[1u8, 0, 1, 1, 0, 0, 1]).unwrap();
    let big_vector = far.create_vector64(&[5u8, 6, 7, 8]).unwrap();
    let big_struct_vector = far
        .create_vector64_of_structs(&[
            t64::LeafStruct::new(12, 3.456),
            t64::LeafStruct::new(78, 9.10),
        ])
        .unwrap();
    let near_string = b
        .create_string("this is a near string which has a 32-bit offset")
        .unwrap();
    let root = t64::RootTable::builder(&mut b)
        .big_struct_vector(big_struct_vector)
        .near_string(near_string)
        .big_bool_vector(big_bool_vector)
        .big_vector(big_vector)
        .far_string(far_string)
        .a(1234)
        .far_vector(far_vector)
        .finish()
        .unwrap();
    let typestate = t64::finish_root_table_buffer(&mut b, root)
        .unwrap()
        .to_vec();
    assert_eq!(typestate, ours);
}

#[test]
fn the_object_api_writes_what_flatc_reads_as_its_own() {
    let dir = common::temp_dir("offset64_object_api");
    let theirs = flatc_bin();
    let owned = t64::root_as_root_table(&theirs).unwrap().unpack();
    assert_eq!(owned.far_vector.as_deref(), Some(&[1u8, 2, 3][..]));
    let mut b = Builder::new();
    let root = owned.pack(&mut b).unwrap();
    let ours = t64::finish_root_table_buffer(&mut b, root)
        .unwrap()
        .to_vec();
    assert_same_annotation(&ours, &dir);
    assert_eq!(t64::root_as_root_table(&ours).unwrap().unpack(), owned);
    // The builders and the object API lay the same data out the same way.
    b.reset();
    assert_eq!(build_with_builders(&mut b).unwrap(), ours);
}

/// Every field set, in the root and in the `WrapperTable`s of `many_vectors` (whose 64-bit vectors
/// must be written before everything else, so the object API writes them in a pass of its own),
/// and a nested `RootTable` in a `vector64`.
fn full() -> t64::RootTableT {
    let nested = t64::RootTableT {
        a: 7,
        far_string: Some("nested".into()),
        ..Default::default()
    };
    let mut b = Builder::new();
    let root = nested.pack(&mut b).unwrap();
    let nested = t64::finish_root_table_buffer(&mut b, root)
        .unwrap()
        .to_vec();
    let leaf = |a, b| t64::LeafStructT { a, b };
    t64::RootTableT {
        far_vector: Some(vec![1, 2, 3]),
        a: -1,
        far_string: Some("far".into()),
        big_bool_vector: Some(vec![1, 0]),
        big_vector: Some(vec![9; 100]),
        near_string: Some("near".into()),
        nested_root: Some(nested),
        far_struct_vector: Some(vec![leaf(1, 1.5)]),
        big_struct_vector: Some(vec![leaf(2, 2.5), leaf(3, -3.5)]),
        many_vectors: Some(vec![
            t64::WrapperTableT {
                vector: Some(vec![-1, -2]),
            },
            t64::WrapperTableT { vector: None },
            t64::WrapperTableT {
                vector: Some(vec![]),
            },
        ]),
        forced_aligned_vector: Some(vec![4, 5, 6]),
    }
}

#[test]
fn the_object_api_writes_nested_64_bit_fields_first() {
    let dir = common::temp_dir("offset64_full");
    let owned = full();
    let mut b = Builder::new();
    let root = owned.pack(&mut b).unwrap();
    let bytes = t64::finish_root_table_buffer(&mut b, root)
        .unwrap()
        .to_vec();
    let r = t64::root_as_root_table(&bytes).expect("verifies");
    assert_eq!(r.unpack(), owned);
    assert_eq!(
        r.nested_root_nested_root().unwrap().far_string(),
        Some("nested")
    );
    let wrappers = r.many_vectors().unwrap();
    assert_eq!(
        wrappers
            .get(0)
            .unwrap()
            .vector()
            .unwrap()
            .iter()
            .collect::<Vec<_>>(),
        [-1, -2]
    );
    // `force_align: 32` holds for the data of `forced_aligned_vector`.
    let forced = r.forced_aligned_vector().unwrap().as_slice();
    assert_eq!((forced.as_ptr() as usize - bytes.as_ptr() as usize) % 32, 0);
    // flatc reads all of it without an error (and without bytes nothing refers to).
    let afb = common::flatc_annotation(&common::testdata(SCHEMA), &bytes, &dir, &[]);
    let values = common::annotated_values(&afb);
    let region = |title: &str| {
        values
            .iter()
            .find(|(t, _)| t == title)
            .unwrap_or_else(|| panic!("no region {title} in\n{afb}"))
            .1
            .clone()
    };
    assert_eq!(
        region("string (RootTable.far_string)")[1],
        "char[3] | far | string literal"
    );
    assert!(region("vector64 (RootTable.big_vector)")
        .iter()
        .any(|l| l.ends_with("value[99]")));

    // Building a table that holds a 64-bit vector after other data fails, and says why.
    b.reset();
    b.create_string("first").unwrap();
    let wrapper = t64::WrapperTableT {
        vector: Some(vec![1]),
    };
    assert!(matches!(
        wrapper.pack(&mut b),
        Err(BuildError::FarAfterNear { near: 12 })
    ));
}

#[test]
fn size_prefixes_are_64_bit_as_in_flatcs_cpp_code() {
    let owned = full();
    let mut b = Builder::new();
    let root = owned.pack(&mut b).unwrap();
    let bytes = t64::finish_size_prefixed_root_table_buffer(&mut b, root)
        .unwrap()
        .to_vec();
    assert_eq!(
        u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize,
        bytes.len() - 8
    );
    let r = t64::size_prefixed_root_as_root_table(&bytes).expect("verifies");
    assert_eq!(r.unpack(), owned);
    // SAFETY: verified just above.
    let unchecked = unsafe { t64::size_prefixed_root_as_root_table_unchecked(&bytes) };
    assert_eq!(unchecked.unpack(), owned);
}

#[test]
fn schema_defaults_apply_to_absent_64_bit_fields() {
    use g::flatbuffers_tests_64bit_evolution_v2::v2;
    use g::flatbuffers_tests_default_vectors_strings_test::default_vectors_strings_test as dv;
    let dir = common::temp_dir("offset64_defaults");
    // Absent, the 64-bit vectors with a default `[]` are empty.
    let mut b = Builder::new();
    let root = dv::TableWithDefaultVectors::create(&mut b, &Default::default()).unwrap();
    let bytes = dv::finish_table_with_default_vectors_buffer(&mut b, root)
        .unwrap()
        .to_vec();
    let t = dv::root_as_table_with_default_vectors(&bytes).unwrap();
    assert!(t.int_vec_offset64().is_empty() && t.int_vec64().is_empty());
    assert_eq!(t.some_string(), "some");
    // The object API writes them (empty) anyway, 64-bit first; flatc finds them.
    let owned = t.unpack();
    b.reset();
    let root = owned.pack(&mut b).unwrap();
    let bytes = dv::finish_table_with_default_vectors_buffer(&mut b, root)
        .unwrap()
        .to_vec();
    let t = dv::root_as_table_with_default_vectors(&bytes).unwrap();
    assert_eq!(t.unpack(), owned);
    let afb = common::flatc_annotation(
        &common::testdata("flatbuffers/tests/default_vectors_strings_test.fbs"),
        &bytes,
        &dir,
        &[],
    );
    let values = common::annotated_values(&afb);
    assert!(values.iter().any(
        |(t, _)| t == "vector64 (DefaultVectorsStringsTest.TableWithDefaultVectors.int_vec64)"
    ));

    // Schema evolution: v2 adds a `vector64` to v1's table.
    b.reset();
    let big = b.far().unwrap().create_vector64(&[1u8, 2]).unwrap();
    let small = b.create_vector(&[3u8]).unwrap();
    let root = v2::RootTable::create(
        &mut b,
        &v2::RootTableArgs {
            a: 1.5,
            b: Some(small),
            big_vector: Some(big),
        },
    )
    .unwrap();
    let bytes = v2::finish_root_table_buffer(&mut b, root).unwrap().to_vec();
    let t = v2::root_as_root_table(&bytes).unwrap();
    assert_eq!(t.big_vector().unwrap().as_slice(), [1, 2]);
    assert_eq!((t.a(), t.b().unwrap().as_slice()), (1.5, &[3u8][..]));
}

/// Buffers written by flatc's C++ library (`FlatBufferBuilder64`, 64-bit objects first), which
/// flatforge-json's conformance tests keep with the program that wrote them
/// (`crates/flatforge-json/tests/data/64bit/ref64.cpp`).
const BUILDER64_FULL: &[u8] =
    include_bytes!("../../flatforge-json/tests/data/64bit/builder64_full.bin");
const BUILDER64_EMPTY: &[u8] =
    include_bytes!("../../flatforge-json/tests/data/64bit/builder64_empty.bin");

#[test]
fn flatbuffer_builder64s_buffers_read_as_written() {
    let r = t64::root_as_root_table(BUILDER64_FULL).expect("verifies");
    let leaf = |a, b| t64::LeafStructT { a, b };
    let leaves = vec![leaf(1, 1.5), leaf(-2, -0.25), leaf(3, 1e-20)];
    let owned = r.unpack();
    assert_eq!(
        owned.far_vector.as_deref(),
        Some(&[10u8, 20, 30, 40, 50][..])
    );
    assert_eq!(owned.a, 1234);
    assert_eq!(owned.far_string.as_deref(), Some("far é string"));
    assert_eq!(owned.big_bool_vector.as_deref(), Some(&[1u8, 0, 1][..]));
    assert_eq!(owned.big_vector.as_deref(), Some(&[5u8, 6, 7][..]));
    assert_eq!(owned.near_string.as_deref(), Some("near"));
    assert_eq!(owned.far_struct_vector.as_deref(), Some(&leaves[..2]));
    assert_eq!(owned.big_struct_vector, Some(leaves));
    let many = owned.many_vectors.as_deref().expect("many_vectors");
    assert_eq!(many.len(), 2);
    assert_eq!(many[0].vector.as_deref(), Some(&[-1i8, 2][..]));
    assert_eq!(many[1].vector, None);
    assert_eq!(
        owned.forced_aligned_vector.as_deref(),
        Some(&[1u8, 2, 3, 4, 5][..])
    );
    let nested = r.nested_root_nested_root().expect("a nested root");
    assert_eq!((nested.a(), nested.near_string()), (-7, Some("inner")));
    assert_eq!(nested.big_vector().unwrap().as_slice(), [9, 8, 7]);
    // Written again by the object API, it reads the same.
    let mut b = Builder::new();
    let root = owned.pack(&mut b).unwrap();
    let ours = t64::finish_root_table_buffer(&mut b, root).unwrap();
    assert_eq!(t64::root_as_root_table(ours).unwrap().unpack(), owned);

    let r = t64::root_as_root_table(BUILDER64_EMPTY).expect("verifies");
    assert!(r.far_vector().unwrap().is_empty() && r.big_vector().unwrap().is_empty());
    assert!(r.big_struct_vector().unwrap().is_empty());
    assert_eq!(r.far_string(), Some(""));
}

/// The codegen snapshot `wide.fbs`: tables with 64-bit fields held by a table, a vector, a union
/// with an `int` type and a vector of those unions; a nested flatbuffer behind a 64-bit offset.
/// The object API writes all their 64-bit objects first and reads back what it wrote.
#[test]
fn the_object_api_packs_64_bit_fields_held_by_unions() {
    use g::snapshot_wide::wide as w;
    let chunk = |name: &str, data: Option<Vec<u8>>| w::ChunkT {
        name: name.into(),
        data,
    };
    let mut inner = w::ArchiveT {
        title: Some("inner".into()),
        ..Default::default()
    };
    let mut b = Builder::new();
    let root = inner.pack(&mut b).unwrap();
    let nested = w::finish_archive_buffer(&mut b, root).unwrap().to_vec();
    let owned = w::ArchiveT {
        title: Some("title".into()),
        samples: Some(vec![0.5, -1.0]),
        flags: Some(vec![true, false, true]),
        points: Some(vec![w::PointT { x: 1.5, y: -2 }]),
        levels: Some(vec![w::Level::HIGH, w::Level::LOW]),
        aligned: Some(vec![1, 2, 3]),
        nested: Some(nested),
        main: Some(Box::new(chunk("main", Some(vec![1])))),
        chunks: Some(vec![chunk("c0", None), chunk("c1", Some(vec![2, 3]))]),
        payload: w::PayloadT::Chunk(Box::new(chunk("payload", Some(vec![4])))),
        payloads: Some(vec![
            w::PayloadT::Point(w::PointT { x: 0.0, y: 7 }),
            w::PayloadT::Chunk(Box::new(chunk("p1", None))),
            w::PayloadT::Chunk(Box::new(chunk("p2", Some(vec![5; 20])))),
        ]),
        near: Some("near".into()),
    };
    b.reset();
    let root = owned.pack(&mut b).unwrap();
    let bytes = w::finish_archive_buffer(&mut b, root).unwrap().to_vec();
    let a = w::root_as_archive(&bytes).expect("verifies");
    assert_eq!(a.unpack(), owned);
    assert_eq!(a.payload_type(), w::PayloadType::CHUNK);
    assert_eq!(a.payload_type().0, 100);
    assert_eq!(a.payload_as_chunk().unwrap().name(), "payload");
    let types: Vec<i32> = a.payloads_type().unwrap().iter().map(|t| t.0).collect();
    assert_eq!(types, [300, 100, 100]);
    assert_eq!(a.nested_nested_root().unwrap().title(), Some("inner"));
    let aligned = a.aligned().unwrap().as_slice();
    assert_eq!(
        (aligned.as_ptr() as usize - bytes.as_ptr() as usize) % 16,
        0
    );
    // Every string and vector behind a 64-bit offset lies after the near string and all tables.
    let at = |s: &[u8]| bytes.windows(s.len()).position(|x| x == s).expect("found");
    for far in [&b"title"[..], b"main", b"payload", b"p2", b"c1"] {
        assert!(at(b"near") < at(far), "{}", String::from_utf8_lossy(far));
    }
    // A chunk's required `name` is written even when empty; unpack_into reuses allocations.
    inner = a.unpack();
    inner.chunks.as_mut().unwrap()[0].name.clear();
    b.reset();
    let root = inner.pack(&mut b).unwrap();
    let bytes = w::finish_archive_buffer(&mut b, root).unwrap().to_vec();
    let mut again = owned.clone();
    w::root_as_archive(&bytes).unwrap().unpack_into(&mut again);
    assert_eq!(again, inner);
}
