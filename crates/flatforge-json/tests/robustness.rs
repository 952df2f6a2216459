//! Damaged buffers: flipping or truncating any byte of the Monster buffer, or of buffers with
//! 64-bit offsets, must never panic the schema-driven verifier or the printer, and whatever
//! verifies must print. Also the 22 corrupted buffers of flatc's annotated_binary tests, each
//! rejected with a path and a byte offset, and errors inside nested flatbuffers, which count from
//! the start of the outer buffer.

use flatforge_json::{Codec, ParseOptions, PrintError, PrintOptions, VerifyOptions};
use flatforge_testkit::testdata;

fn monster_schema() -> flatforge_schema::Schema {
    flatforge_schema::Compiler::new(flatforge_schema::FsLoader)
        .include_dir(testdata("flatbuffers/tests/include_test"))
        .compile(testdata("flatbuffers/tests/monster_test.fbs"))
        .expect("monster_test.fbs compiles")
        .schema
}

/// The schema at `path` under the shared test data (no include directories).
fn compile(path: &str) -> flatforge_schema::Schema {
    flatforge_schema::Compiler::new(flatforge_schema::FsLoader)
        .compile(testdata(path))
        .expect("schema")
        .schema
}

/// Verification that also rejects union types the schema does not list (as `flatc --annotate`).
fn known_members() -> VerifyOptions {
    let mut opts = VerifyOptions::default();
    opts.limits = opts.limits.with_unknown_union_types(false);
    opts
}

/// Verifies `bytes`; if they verify, they must print, unless a union holds a type the schema
/// does not list (a newer schema's member: verified buffers may, and flatc does not print them
/// either).
fn check(codec: &Codec<'_>, bytes: &[u8]) -> bool {
    let root = codec.root_type(None).unwrap();
    let opts = VerifyOptions::default();
    match codec.verify(root, bytes, &opts) {
        Ok(()) => {
            let known_members = codec.verify(root, bytes, &known_members()).is_ok();
            let mut p = codec.printer(PrintOptions::default());
            match p.print(root, bytes) {
                Ok(_) => {}
                Err(PrintError::UnknownUnionType { .. }) if !known_members => {}
                Err(e) => panic!("a verified buffer failed to print: {e}"),
            }
            true
        }
        Err(e) => {
            assert!(
                e.offset() <= bytes.len(),
                "error offset past the buffer: {e}"
            );
            false
        }
    }
}

#[test]
fn every_byte_flip_and_truncation_of_the_monster_is_safe() {
    let schema = monster_schema();
    let codec = Codec::new(&schema);
    for file in ["monsterdata_test.mon", "unicode_test.mon"] {
        let good = std::fs::read(testdata(&format!("flatbuffers/tests/{file}"))).unwrap();
        assert!(check(&codec, &good), "{file} must verify");
        let rejected = flip_and_cut(&codec, &good);
        assert!(
            rejected > good.len(),
            "{file}: too few flips rejected ({rejected})"
        );
    }
}

/// Flips and cuts every byte of `good`; returns how many flips were rejected.
fn flip_and_cut(codec: &Codec<'_>, good: &[u8]) -> usize {
    let mut rejected = 0;
    for i in 0..good.len() {
        for x in [0x01u8, 0x80, 0xFF, 0x7F] {
            let mut bad = good.to_vec();
            bad[i] ^= x;
            if !check(codec, &bad) {
                rejected += 1;
            }
        }
        // Cutting only trailing padding may leave a valid buffer; it must then print.
        check(codec, &good[..i]);
    }
    rejected
}

fn schema_64bit() -> flatforge_schema::Schema {
    flatforge_schema::Compiler::new(flatforge_schema::FsLoader)
        .compile(testdata("flatbuffers/tests/64bit/test_64bit.fbs"))
        .expect("test_64bit.fbs compiles")
        .schema
}

/// Buffers written by flatc's C++ `FlatBufferBuilder64` (see `tests/data/64bit/ref64.cpp`).
fn builder64(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/64bit")
        .join(name);
    std::fs::read(path).unwrap()
}

#[test]
fn every_byte_flip_and_truncation_of_64_bit_offsets_is_safe() {
    let schema = schema_64bit();
    let codec = Codec::new(&schema);
    let files = [
        (
            "test_64bit.bin",
            std::fs::read(testdata("flatbuffers/tests/64bit/test_64bit.bin")).unwrap(),
        ),
        ("builder64_full.bin", builder64("builder64_full.bin")),
        ("builder64_empty.bin", builder64("builder64_empty.bin")),
        (
            "builder64_offset64.bin",
            builder64("builder64_offset64.bin"),
        ),
    ];
    for (file, good) in files {
        assert!(check(&codec, &good), "{file} must verify");
        let rejected = flip_and_cut(&codec, &good);
        assert!(
            rejected > good.len(),
            "{file}: too few flips rejected ({rejected})"
        );
    }
}

/// A 64-bit offset or length that is damaged is rejected where it is, with the field's path.
#[test]
fn damaged_64_bit_offsets_and_lengths_are_rejected_at_their_byte() {
    let schema = schema_64bit();
    let codec = Codec::new(&schema);
    let root = codec.root_type(None).unwrap();
    let good = std::fs::read(testdata("flatbuffers/tests/64bit/test_64bit.bin")).unwrap();
    let table = u32::from_le_bytes(good[..4].try_into().unwrap()) as usize;
    let field = |name: &str| field_pos(&good, table, field_id(&schema, "RootTable", name)).unwrap();
    let far_vector = field("far_vector");
    let big_vector = field("big_vector");
    let big_vector_len = big_vector + u64_at(&good, big_vector);
    let cases: [(usize, u64, &str, &str); 6] = [
        (far_vector, 0, "RootTable.far_vector", "offset 0 is invalid"),
        (
            far_vector,
            1 << 32,
            "RootTable.far_vector",
            "points outside",
        ),
        (
            far_vector,
            1 << 63,
            "RootTable.far_vector",
            "points outside",
        ),
        (
            far_vector,
            good.len() as u64,
            "RootTable.far_vector",
            "points outside",
        ),
        (big_vector, 4, "RootTable.big_vector", "not aligned to 8"),
        (
            big_vector_len,
            u64::MAX / 2,
            "RootTable.big_vector",
            "extends past the end",
        ),
    ];
    for (at, value, path, message) in cases {
        let mut bad = good.clone();
        bad[at..at + 8].copy_from_slice(&value.to_le_bytes());
        let err = codec
            .verify(root, &bad, &VerifyOptions::default())
            .expect_err(path);
        assert_eq!(err.path_string(), path, "{err}");
        assert!(err.to_string().contains(message), "{err}");
        let expected = if message == "not aligned to 8" {
            at + u64_at(&bad, at)
        } else {
            at
        };
        assert_eq!(err.offset(), expected, "{err}");
    }
}

fn u64_at(buf: &[u8], at: usize) -> usize {
    u64::from_le_bytes(buf[at..at + 8].try_into().unwrap()) as usize
}

fn field_id(schema: &flatforge_schema::Schema, object: &str, field: &str) -> u16 {
    let o = &schema[schema.find_object(object).unwrap()];
    o.field(field).unwrap().id
}

/// The position of field `id` of the table at `pos`.
fn field_pos(buf: &[u8], pos: usize, id: u16) -> Option<usize> {
    let soffset = i32::from_le_bytes(buf[pos..pos + 4].try_into().unwrap());
    let vt = (pos as i64 - i64::from(soffset)) as usize;
    let entry = vt + 4 + 2 * usize::from(id);
    let vt_len = usize::from(u16::from_le_bytes([buf[vt], buf[vt + 1]]));
    if entry + 2 > vt + vt_len {
        return None;
    }
    let off = usize::from(u16::from_le_bytes([buf[entry], buf[entry + 1]]));
    (off != 0).then_some(pos + off)
}

/// Flips every byte of the nested flatbuffer at `outer[start..start + len]`, whose root type is
/// the outer one's: whenever the nested buffer alone is rejected, the outer one is rejected with
/// the same error, at the same byte counted from the outer buffer's start. Returns how many flips
/// were rejected.
fn nested_errors_count_from_the_outer_start(
    codec: &Codec<'_>,
    outer: &[u8],
    start: usize,
    len: usize,
) -> usize {
    let root = codec.root_type(None).unwrap();
    let mut opts = VerifyOptions::default();
    opts.check_identifier = false;
    let mut rejected = 0;
    for i in 0..len {
        for x in [0x01u8, 0x80, 0xFF] {
            let mut bad = outer.to_vec();
            bad[start + i] ^= x;
            let alone = codec.verify(root, &bad[start..start + len], &opts);
            let within = codec.verify(root, &bad, &opts);
            if let Err(e) = alone {
                let w = within.expect_err("rejected alone, accepted nested");
                assert_eq!(w.kind(), e.kind(), "flip {x:#x} at {i}: {w} / {e}");
                assert_eq!(
                    w.offset(),
                    start + e.offset(),
                    "flip {x:#x} at {i}: {w} / {e}"
                );
                rejected += 1;
            }
        }
    }
    rejected
}

/// Errors the schema walker makes itself (64-bit offsets and lengths, FlexBuffers) inside nested
/// flatbuffers count from the outer buffer's start (regression: FlexBuffer errors counted from the
/// nested buffer's).
#[test]
fn errors_in_nested_flatbuffers_count_from_the_outer_buffer() {
    // A `vector64` nested flatbuffer whose own fields have 64-bit offsets.
    let schema = schema_64bit();
    let codec = Codec::new(&schema);
    let full = builder64("builder64_full.bin");
    let table = u32::from_le_bytes(full[..4].try_into().unwrap()) as usize;
    let at = field_pos(&full, table, field_id(&schema, "RootTable", "nested_root")).unwrap();
    let v = at + u64_at(&full, at);
    let rejected = nested_errors_count_from_the_outer_start(&codec, &full, v + 8, u64_at(&full, v));
    assert!(rejected > 100, "{rejected}");

    // A nested Monster with a FlexBuffer.
    let schema = monster_schema();
    let codec = Codec::new(&schema);
    let root = codec.root_type(None).unwrap();
    let json = r#"{ name: "outer", testnestedflatbuffer: { name: "inner", flex: { a: [1, 2.5, "x"], b: { c: "long enough a string" } } } }"#;
    let outer = codec
        .parser(ParseOptions::default())
        .parse(root, json.as_bytes())
        .unwrap()
        .to_vec();
    let table = u32::from_le_bytes(outer[..4].try_into().unwrap()) as usize;
    let at = field_pos(
        &outer,
        table,
        field_id(&schema, "MyGame.Example.Monster", "testnestedflatbuffer"),
    )
    .unwrap();
    let v = at + u32::from_le_bytes(outer[at..at + 4].try_into().unwrap()) as usize;
    let len = u32::from_le_bytes(outer[v..v + 4].try_into().unwrap()) as usize;
    let rejected = nested_errors_count_from_the_outer_start(&codec, &outer, v + 4, len);
    assert!(rejected > 100, "{rejected}");
}

#[test]
fn annotated_binary_corruptions_are_rejected_with_path_and_offset() {
    let dir = testdata("flatbuffers/tests/annotated_binary");
    let schema = flatforge_schema::Compiler::new(flatforge_schema::FsLoader)
        .compile(dir.join("annotated_binary.fbs"))
        .expect("schema")
        .schema;
    let codec = Codec::new(&schema);
    let root = codec.root_type(None).unwrap();
    // As `flatc --annotate` checks: a union type the schema does not list is an error too.
    let opts = known_members();
    let good = std::fs::read(dir.join("annotated_binary.bin")).unwrap();
    codec
        .verify(root, &good, &opts)
        .expect("annotated_binary.bin verifies");
    let mut n = 0;
    for entry in std::fs::read_dir(dir.join("tests")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "bin") {
            let bytes = std::fs::read(&path).unwrap();
            let err = codec
                .verify(root, &bytes, &opts)
                .expect_err(&format!("{} must be rejected", path.display()));
            assert!(
                err.path_string().starts_with("AnnotatedBinary.Foo"),
                "{err}"
            );
            assert!(err.offset() < bytes.len().max(1), "{err}");
            n += 1;
        }
    }
    assert_eq!(n, 22, "the 22 corrupted buffers");
}

/// Schema evolution: data written with `evolution_v2.fbs` (its `c` holds `TableC`, a union member
/// that v1 does not have) verifies with `evolution_v1.fbs`, as with flatc's verifiers, unless the
/// reader asks for known members only; printing it stops with an error naming the union, as
/// `flatc --json` does ("unknown enum value").
#[test]
fn a_newer_schemas_union_member_verifies_but_does_not_print() {
    let (v1, v2) = (
        compile("flatbuffers/tests/evolution_test/evolution_v1.fbs"),
        compile("flatbuffers/tests/evolution_test/evolution_v2.fbs"),
    );
    let json = std::fs::read(testdata(
        "flatbuffers/tests/evolution_test/evolution_v2.json",
    ))
    .unwrap();
    let new = Codec::new(&v2);
    let bytes = new
        .parser(ParseOptions::default())
        .parse(new.root_type(None).unwrap(), &json)
        .unwrap()
        .to_vec();

    let old = Codec::new(&v1);
    let root = old.root_type(None).unwrap();
    old.verify(root, &bytes, &VerifyOptions::default())
        .expect("a newer member verifies");
    let err = old.verify(root, &bytes, &known_members()).unwrap_err();
    assert_eq!(
        err.kind(),
        &flatforge::ErrorKind::UnknownUnionType { value: 3 }
    );
    assert_eq!(err.path_string(), "Evolution.V1.Root.c");
    let err = old
        .printer(PrintOptions::default())
        .print(root, &bytes)
        .unwrap_err();
    assert!(
        matches!(&err, PrintError::UnknownUnionType { union, value: 3 } if union == "Evolution.V1.Union"),
        "{err}"
    );
    // The newer schema prints it.
    let mut printer = new.printer(PrintOptions::default());
    let text = printer.print(new.root_type(None).unwrap(), &bytes).unwrap();
    assert!(text.contains("\"c_type\": \"TableC\""), "{text}");
}

/// A vector of unions may hold an element of type NONE (the verifier lets it through, as C++'s
/// does); it prints as `null`, not as an empty slot that makes the array invalid JSON.
#[test]
fn a_none_element_of_a_union_vector_prints_as_null() {
    let schema = compile("flatbuffers/tests/union_vector/union_vector.fbs");
    let codec = Codec::new(&schema);
    let root = codec.root_type(None).unwrap();
    let json = br#"{ characters_type: ["Belle", "Other"], characters: [{books_read: 7}, "str"] }"#;
    let mut bytes = codec
        .parser(ParseOptions::default())
        .parse(root, json)
        .unwrap()
        .to_vec();
    // The types vector: length 2, then Belle (3) and Other (5); Belle becomes NONE.
    let at = bytes
        .windows(6)
        .position(|w| w == [2, 0, 0, 0, 3, 5])
        .unwrap();
    bytes[at + 4] = 0;
    codec
        .verify(root, &bytes, &VerifyOptions::default())
        .expect("a NONE element verifies");
    let mut printer = codec.printer(PrintOptions::default());
    let text = printer.print(root, &bytes).unwrap();
    assert!(
        text.contains("\"characters\": [\n    null,\n    \"str\"\n  ]"),
        "{text}"
    );
}

/// A `//` comment ends at a carriage return too, as in flatc: the field after it is read.
#[test]
fn a_line_comment_ends_at_a_carriage_return() {
    let schema = monster_schema();
    let codec = Codec::new(&schema);
    let root = codec.root_type(None).unwrap();
    let json = b"{ name: \"m\", // note\r hp: 7\n}";
    let bytes = codec
        .parser(ParseOptions::default())
        .parse(root, json)
        .unwrap()
        .to_vec();
    let mut printer = codec.printer(PrintOptions::default());
    let text = printer.print(root, &bytes).unwrap();
    assert!(text.contains("\"hp\": 7"), "{text}");
}

/// `null` for a required field leaves it out: an error, as in flatc, not a buffer that fails
/// verification.
#[test]
fn null_for_a_required_field_is_a_missing_field() {
    let schema = monster_schema();
    let codec = Codec::new(&schema);
    let root = codec.root_type(None).unwrap();
    let json = b"{ hp: 1, name: null }";
    let err = codec
        .parser(ParseOptions::default())
        .parse(root, json)
        .unwrap_err();
    assert!(
        matches!(&err.kind, flatforge_json::ParseErrorKind::MissingRequired { field, .. } if field == "name"),
        "{err}"
    );
    assert_eq!(err.offset, 15, "{err}");
}

/// Values skipped for unknown fields are checked as values: malformed JSON there is an error, as
/// in flatc, not skipped over.
#[test]
fn skipped_unknown_values_must_be_well_formed() {
    let schema = monster_schema();
    let codec = Codec::new(&schema);
    let root = codec.root_type(None).unwrap();
    let mut opts = ParseOptions::default();
    opts.unknown_fields = true;
    let parse = |value: &str| {
        let json = format!("{{ name: \"m\", zz: {value}, hp: 5 }}");
        codec
            .parser(opts.clone())
            .parse(root, json.as_bytes())
            .map(<[u8]>::to_vec)
    };
    for bad in [
        "[,]",
        "{\"\"}",
        "{a: 1, b:}",
        "[\"a\" \"b\"]",
        "1e+",
        "+",
        "4u",
        "[1}",
    ] {
        assert!(parse(bad).is_err(), "{bad}");
    }
    for good in [
        "Red",
        "-inf",
        "0x1F",
        "1.5e3",
        "'s'",
        "[1, 2,]",
        "{a: [1, {b: \"x\"}, -2], \"c\": true,}",
    ] {
        let bytes = parse(good).unwrap_or_else(|e| panic!("{good}: {e}"));
        let mut printer = codec.printer(PrintOptions::default());
        assert!(printer.print(root, &bytes).unwrap().contains("\"hp\": 5"));
    }
}

/// `null` leaves out only what can be left out: optional scalars (`= null`) and references, as in
/// flatc (a hashed field takes it as the word to hash); for other scalars it is an invalid number,
/// quoted or not.
#[test]
fn null_for_a_scalar_that_is_not_optional_is_an_error() {
    let schema = monster_schema();
    let codec = Codec::new(&schema);
    let root = codec.root_type(None).unwrap();
    let parse = |fields: &str| {
        let json = format!("{{ name: \"m\", {fields} }}");
        codec
            .parser(ParseOptions::default())
            .parse(root, json.as_bytes())
            .map(<[u8]>::to_vec)
    };
    for bad in ["hp: null", "hp: \"null\"", "color: null", "testbool: null"] {
        let err = parse(bad).unwrap_err();
        assert!(
            matches!(&err.kind, flatforge_json::ParseErrorKind::InvalidNumber { value, .. } if value == "null"),
            "{bad}: {err}"
        );
    }
    for fine in [
        "enemy: null",
        "inventory: null",
        "pos: null",
        "testhashs32_fnv1: null",
    ] {
        parse(fine).unwrap_or_else(|e| panic!("{fine}: {e}"));
    }
    let optional = compile("flatbuffers/tests/optional_scalars.fbs");
    let codec = Codec::new(&optional);
    let root = codec.root_type(None).unwrap();
    codec
        .parser(ParseOptions::default())
        .parse(root, b"{ maybe_i8: null, maybe_u64: \"null\" }")
        .expect("optional scalars take null");
}

/// The FlexBuffer of a Monster: the buffer and the position of the FlexBuffer's bytes.
fn monster_with_flex(codec: &Codec<'_>, flex: &str) -> (Vec<u8>, usize, usize) {
    let schema = codec.schema();
    let root = codec.root_type(None).unwrap();
    let json = format!("{{ name: \"m\", flex: {flex} }}");
    let bytes = codec
        .parser(ParseOptions::default())
        .parse(root, json.as_bytes())
        .unwrap()
        .to_vec();
    let table = u32::from_le_bytes(bytes[..4].try_into().unwrap()) as usize;
    let id = field_id(schema, "MyGame.Example.Monster", "flex");
    let at = field_pos(&bytes, table, id).unwrap();
    let v = at + u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    let len = u32::from_le_bytes(bytes[v..v + 4].try_into().unwrap()) as usize;
    (bytes, v + 4, len)
}

/// Regression: every FlexBuffer problem was reported as "offset N points outside the buffer" or
/// "offset N is invalid", N being a position in the FlexBuffer; the reason was dropped.
#[test]
fn flexbuffer_errors_say_what_is_wrong_where() {
    let schema = monster_schema();
    let codec = Codec::new(&schema);
    let root = codec.root_type(None).unwrap();
    let (good, data, len) = monster_with_flex(&codec, "{ a: { f: true } }");
    assert!(codec.verify(root, &good, &VerifyOptions::default()).is_ok());
    let error = |bad: &[u8]| {
        let e = codec
            .verify(root, bad, &VerifyOptions::default())
            .unwrap_err();
        (e.to_string(), e.offset())
    };
    let flex = &good[data..data + len];
    // The inner map's keys: one key "f", then its key vector (length 1, one offset), then the
    // map's own length.
    let keys_len = data + flex.windows(3).position(|w| w == b"f\0\x01").unwrap() + 2;
    let mut bad = good.clone();
    bad[keys_len] = 0; // no keys for the map's one value
    assert_eq!(
        error(&bad),
        (
            format!(
                "FlexBuffer: map has fewer keys than values at byte {} in \
                 MyGame.Example.Monster.flex",
                keys_len + 1
            ),
            keys_len + 1
        )
    );
    let mut bad = good.clone();
    bad[data + len - 1] = 3; // the root's byte width
    assert_eq!(
        error(&bad),
        (
            format!(
                "FlexBuffer: invalid byte width 3 at byte {} in \
                 MyGame.Example.Monster.flex",
                data + len - 1
            ),
            data + len - 1
        )
    );
    let mut bad = good.clone();
    bad[data + len - 2] = 37 << 2; // the root's type, reported at the root (1 byte wide)
    assert_eq!(
        error(&bad).0,
        format!(
            "FlexBuffer: unknown type 37 at byte {} in MyGame.Example.Monster.flex",
            data + len - 3
        )
    );
}

/// Regression: deprecated fields were verified, though generated verifiers (ours and flatc's) skip
/// them, so damage in a slot no reader reads made a buffer invalid. v1 data (where `a` and `j`
/// are live) read with v2 of the evolution schema (where they are deprecated): the verifier skips
/// them; the printer prints them as flatc does when they verify, and leaves them out when not.
#[test]
fn deprecated_fields_are_not_verified_and_print_only_when_valid() {
    let v1 = compile("flatbuffers/tests/evolution_test/evolution_v1.fbs");
    let v2 = compile("flatbuffers/tests/evolution_test/evolution_v2.fbs");
    let (v1, v2) = (Codec::new(&v1), Codec::new(&v2));
    let (r1, r2) = (v1.root_type(None).unwrap(), v2.root_type(None).unwrap());
    let json = r#"{ a: 42, b: true, c_type: "TableB", c: { a: 15 }, g: [7, 8, 9],
                    j_type: "TableB", j: { a: 984 } }"#;
    let good = v1
        .parser(ParseOptions::default())
        .parse(r1, json.as_bytes())
        .unwrap()
        .to_vec();
    let mut opts = PrintOptions::default();
    opts.indent = None;
    let print = |bytes: &[u8]| v2.printer(opts.clone()).print(r2, bytes).map(str::to_owned);
    let all = r#"{"a": 42,"b": true,"c_type": "TableB","c": {"a": 15},"g": [7,8,9],"j_type": "TableB","j": {"a": 984}}"#;
    let live = r#"{"b": true,"c_type": "TableB","c": {"a": 15},"g": [7,8,9]}"#;
    assert_eq!(print(&good).unwrap(), all);

    let table = u32::from_le_bytes(good[..4].try_into().unwrap()) as usize;
    let id = |name| field_id(v1.schema(), "Evolution.V1.Root", name);
    let j = field_pos(&good, table, id("j")).unwrap();
    let soffset = i32::from_le_bytes(good[table..table + 4].try_into().unwrap());
    let a_entry = (table as i64 - i64::from(soffset)) as usize + 4 + 2 * usize::from(id("a"));
    let a = u16::from_le_bytes(good[a_entry..a_entry + 2].try_into().unwrap());

    let mut bad_j = good.clone();
    bad_j[j..j + 4].copy_from_slice(&0x7FFF_FFF0u32.to_le_bytes());
    let mut bad_a = good.clone();
    bad_a[a_entry..a_entry + 2].copy_from_slice(&(a + 1).to_le_bytes());
    for (bad, v1_error) in [
        (bad_j, "offset 2147483632 points outside the buffer"),
        (bad_a, "inline value is not aligned to 4 bytes"),
    ] {
        // Where the fields are live, the damage is an error.
        let e = v1.verify(r1, &bad, &VerifyOptions::default()).unwrap_err();
        assert!(e.to_string().starts_with(v1_error), "{e}");
        // Where they are deprecated, it is not, and the buffer prints without them.
        assert_eq!(v2.verify(r2, &bad, &VerifyOptions::default()), Ok(()));
        assert_eq!(print(&bad).unwrap(), live);
    }

    // A buffer that is invalid apart from its deprecated fields reports the error `verify` reports.
    let mut cut = good.clone();
    let c = field_pos(&good, table, id("c")).unwrap();
    cut[c..c + 4].copy_from_slice(&0x7FFF_FFF0u32.to_le_bytes());
    let e = v2.verify(r2, &cut, &VerifyOptions::default()).unwrap_err();
    match print(&cut) {
        Err(PrintError::Invalid(p)) => assert_eq!(p, e),
        other => panic!("{other:?}"),
    }
}

/// Regression: FlexBuffer data at an offset that is not a multiple of its byte width passed,
/// though alignment was checked; C++'s `flexbuffers::Verifier` rejects it (case
/// b3_flex_misaligned_vector). Without alignment checks it passes, and prints.
#[test]
fn misaligned_flexbuffer_data_is_rejected_when_alignment_is_checked() {
    let schema =
        flatforge_schema::compile_str("f.fbs", "table T { f: [ubyte] (flexbuffer); } root_type T;")
            .unwrap();
    let codec = Codec::new(&schema);
    let root = codec.root_type(None).unwrap();
    // A vector of 2-byte ints [7, 9] after its 2-byte length; the root (at 7, offset 4, type
    // VECTOR_INT of width 2, root width 1) points to its data: at 3 (odd), or at 2.
    let misaligned = [0u8, 2, 0, 7, 0, 9, 0, 4, 11 << 2 | 1, 1];
    let aligned = [2u8, 0, 7, 0, 9, 0, 4, 11 << 2 | 1, 1];
    let buffer = |blob: &[u8]| {
        let mut b = flatforge::Builder::new();
        let f = b.create_vector(blob).unwrap();
        b.start_table();
        b.add_offset(0, f).unwrap();
        let t = b.end_table().unwrap();
        let bytes = b.finish(t, None).unwrap().to_vec();
        let data = bytes.windows(blob.len()).position(|w| w == blob).unwrap();
        (bytes, data)
    };
    let mut lenient = VerifyOptions::default();
    lenient.limits = lenient.limits.with_check_alignment(false);
    let mut opts = PrintOptions::default();
    opts.indent = None;
    opts.verify = lenient.clone();
    for blob in [&aligned[..], &misaligned] {
        let (bytes, data) = buffer(blob);
        let strict = codec.verify(root, &bytes, &VerifyOptions::default());
        if blob.len() == aligned.len() {
            assert_eq!(strict, Ok(()));
        } else {
            let e = strict.unwrap_err();
            assert_eq!(
                (e.to_string(), e.offset()),
                (
                    format!(
                        "FlexBuffer: misaligned data of byte width 2 at byte {} in T.f",
                        data + 3
                    ),
                    data + 3
                )
            );
        }
        assert_eq!(codec.verify(root, &bytes, &lenient), Ok(()));
        let text = codec
            .printer(opts.clone())
            .print(root, &bytes)
            .unwrap()
            .to_owned();
        assert_eq!(text, r#"{"f": [ 7, 9 ]}"#);
    }
}

/// FlexBuffer strings and keys must be UTF-8, as a table's strings must: the printer wrote their
/// other bytes as flatc's `\xHH`, which is not JSON, even in strict output (found by rerunning the
/// JSON campaign). Blobs may hold any bytes.
#[test]
fn flexbuffer_strings_and_keys_must_be_utf8() {
    let schema = monster_schema();
    let codec = Codec::new(&schema);
    let root = codec.root_type(None).unwrap();
    let (good, data, len) = monster_with_flex(&codec, "{ key: \"value\" }");
    assert!(codec.verify(root, &good, &VerifyOptions::default()).is_ok());
    let flex = &good[data..data + len];
    for (text, what) in [(&b"value"[..], "string"), (b"key", "key")] {
        let at = data + flex.windows(text.len()).position(|w| w == text).unwrap();
        let mut bad = good.clone();
        bad[at + 1] = 0xF9;
        let e = codec
            .verify(root, &bad, &VerifyOptions::default())
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("FlexBuffer: {what} not UTF-8 at byte {at} in MyGame.Example.Monster.flex")
        );
        assert!(codec
            .printer(flatforge_json::PrintOptions::default())
            .print(root, &bad)
            .is_err());
    }
}

/// A FlexBuffer blob may hold any bytes. Strict output printed those that are not UTF-8 as flatc's
/// `\xHH`, which is not JSON; it prints them as their byte values now, and flatc's text stays for
/// flatc's dialect. A UTF-8 blob prints as a string in both.
#[test]
fn flexbuffer_blobs_that_are_not_utf8_print_as_json() {
    let schema = monster_schema();
    let codec = Codec::new(&schema);
    let root = codec.root_type(None).unwrap();
    // The 6-byte FlexBuffer of the string "a", to be replaced by a 6-byte blob.
    let (mut bytes, data, len) = monster_with_flex(&codec, "\"a\"");
    assert_eq!(&bytes[data..data + len], [1, b'a', 0, 2, 5 << 2, 1]);
    let print = |bytes: &[u8], strict_json: bool| {
        let mut opts = PrintOptions::default();
        opts.strict_json = strict_json;
        opts.indent = None;
        let text = codec.printer(opts).print(root, bytes).unwrap().to_owned();
        let at = text.find("flex").unwrap() + 4;
        let value = text[at..].split_once(':').unwrap().1;
        (value.trim_end_matches('}').trim().to_owned(), text)
    };
    // A blob of 2 bytes (length, bytes, then the root: offset 2 back, type blob, width 1).
    for (blob, strict, flatc) in [
        ([b'h', 0xFF], "[ 104, 255 ]", r#""h\xFF""#),
        ([b'h', b'i'], r#""hi""#, r#""hi""#),
    ] {
        bytes[data..data + len].copy_from_slice(&[2, blob[0], blob[1], 2, 25 << 2, 1]);
        assert!(codec
            .verify(root, &bytes, &VerifyOptions::default())
            .is_ok());
        let (value, text) = print(&bytes, true);
        assert_eq!(value, strict);
        serde_json::from_str::<serde_json::Value>(&text).unwrap();
        assert_eq!(print(&bytes, false).0, flatc);
    }
}
