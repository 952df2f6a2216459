//! Differential round trips against the reference flatc for optional_scalars, arrays_test,
//! union_vector, more_defaults, nan_inf_test and Arrow's Message/Schema:
//!
//! 1. flatc builds a buffer from JSON (`flatc -b`);
//! 2. the generated code verifies it, reads it, and rebuilds it through the object API
//!    (`unpack`, then `pack`) and through the builders (`create`, the typestate builder);
//! 3. flatc prints our buffer: the same JSON as for its own (`-t --strict-json`, with and without
//!    `--defaults-json`).

mod common;

use flatforge::Builder;
use flatforge_codegen_tests as g;
use serde_json::Value;

/// flatc's JSON of its own buffer and of ours, in both output modes, must agree.
fn assert_same_json(
    schema: &str,
    theirs: &[u8],
    ours: &[u8],
    dir: &std::path::Path,
    extra: &[&str],
) {
    let schema = common::testdata(schema);
    for mode in [&[][..], &["--defaults-json"][..]] {
        let args: Vec<&str> = extra.iter().chain(mode).copied().collect();
        let a = common::flatc_json(&schema, theirs, dir, &args);
        let b = common::flatc_json(&schema, ours, dir, &args);
        assert_eq!(a, b, "flatc prints our buffer differently ({args:?})");
    }
}

/// flatc -b of `json` for `schema`.
fn flatc_buffer(schema: &str, json: &str, dir: &std::path::Path, extra: &[&str]) -> Vec<u8> {
    common::flatc_binary_from_text(&common::testdata(schema), json, dir, "input", extra)
}

#[test]
fn optional_scalars() {
    use g::flatbuffers_tests_optional_scalars::optional_scalars as os;
    let schema = "flatbuffers/tests/optional_scalars.fbs";
    let dir = common::temp_dir("optional_scalars");
    let json = std::fs::read_to_string(common::testdata("flatbuffers/tests/optional_scalars.json"))
        .expect("json");
    let theirs = flatc_buffer(schema, &json, &dir, &[]);
    assert!(os::scalar_stuff_buffer_has_identifier(&theirs));
    let s = os::root_as_scalar_stuff(&theirs).expect("flatc's buffer verifies");
    // Optional scalars: `None` when absent, `Some` (even of the default value) when present.
    assert_eq!(s.just_i8(), 4);
    assert_eq!(s.maybe_i8(), None);
    assert_eq!(s.default_i8(), 42);
    assert_eq!(s.maybe_u8(), Some(0));
    assert_eq!(s.default_u8(), 0);
    assert_eq!(s.maybe_f64(), Some(0.0));
    assert_eq!(s.maybe_f32(), None);
    assert_eq!(s.maybe_bool(), None);
    assert!(!s.default_bool());
    assert_eq!(s.maybe_enum(), Some(os::OptionalByte::ONE));
    assert_eq!(s.default_enum(), os::OptionalByte::TWO);
    assert_eq!(s.just_enum(), os::OptionalByte::NONE);

    let t = s.unpack();
    assert_eq!((t.maybe_u16, t.maybe_i16), (Some(0), None));
    let mut b = Builder::new();
    let root = t.pack(&mut b).unwrap();
    let ours = os::finish_scalar_stuff_buffer(&mut b, root)
        .unwrap()
        .to_vec();
    assert_same_json(schema, &theirs, &ours, &dir, &[]);

    // The builder: optional fields are written exactly when set.
    b.reset();
    let root = os::ScalarStuff::builder(&mut b)
        .maybe_i32(0)
        .default_i32(42)
        .maybe_enum(os::OptionalByte::TWO)
        .finish()
        .unwrap();
    let ours = os::finish_scalar_stuff_buffer(&mut b, root)
        .unwrap()
        .to_vec();
    let theirs = flatc_buffer(schema, r#"{ maybe_i32: 0, maybe_enum: "Two" }"#, &dir, &[]);
    assert_same_json(schema, &theirs, &ours, &dir, &[]);
}

#[test]
fn arrays_test() {
    use g::flatbuffers_tests_arrays_test::my_game::example as ex;
    let schema = "flatbuffers/tests/arrays_test.fbs";
    let dir = common::temp_dir("arrays");
    let json = std::fs::read_to_string(common::testdata("flatbuffers/tests/arrays_test.golden"))
        .expect("golden");
    let theirs = flatc_buffer(schema, &json, &dir, &[]);
    let t = ex::root_as_array_table(&theirs).expect("verifies");
    let a = t.a().expect("a");
    assert_eq!(a.a(), 12.34);
    assert_eq!(
        a.b().iter().collect::<Vec<i32>>(),
        (1..=15).collect::<Vec<i32>>()
    );
    assert_eq!(a.c(), -127);
    let d1 = a.d().get(1).expect("d[1]");
    assert_eq!(d1.a().iter().collect::<Vec<_>>(), [3, -4]);
    assert_eq!(d1.b(), ex::TestEnum::B);
    assert_eq!(
        d1.c().iter().collect::<Vec<_>>(),
        [ex::TestEnum::B, ex::TestEnum::A]
    );
    assert_eq!(d1.d().get(0), Some(-0x1122334455667788));
    assert_eq!(a.e(), 1);
    assert_eq!(a.f().iter().collect::<Vec<_>>(), [i64::MIN, i64::MAX]);
    assert!(a.d().get(2).is_none());

    // Object API.
    let owned = t.unpack();
    let mut b = Builder::new();
    let root = owned.pack(&mut b).unwrap();
    let ours = ex::finish_array_table_buffer(&mut b, root)
        .unwrap()
        .to_vec();
    assert_same_json(schema, &theirs, &ours, &dir, &[]);

    // Setters: rebuild the struct field by field from the view.
    let mut s = ex::ArrayStruct::default();
    s.set_a(a.a());
    s.set_b(&core::array::from_fn(|i| a.b().get(i).unwrap_or(0)));
    s.set_c(a.c());
    s.set_d(&[*a.d().get(0).unwrap(), *d1]);
    s.set_e(a.e());
    s.set_f(&[i64::MIN, i64::MAX]);
    assert_eq!(&s, a);
    b.reset();
    let root = ex::ArrayTable::create(&mut b, &ex::ArrayTableArgs { a: Some(s) }).unwrap();
    let ours = ex::finish_array_table_buffer(&mut b, root)
        .unwrap()
        .to_vec();
    assert_same_json(schema, &theirs, &ours, &dir, &[]);
}

#[test]
fn union_vector() {
    use g::flatbuffers_tests_union_vector_union_vector as uv;
    let schema = "flatbuffers/tests/union_vector/union_vector.fbs";
    let dir = common::temp_dir("union_vector");
    let json = std::fs::read_to_string(common::testdata(
        "flatbuffers/tests/union_vector/union_vector.json",
    ))
    .expect("json");
    let theirs = flatc_buffer(schema, &json, &dir, &[]);
    let m = uv::root_as_movie(&theirs).expect("verifies");
    assert!(matches!(m.main_character(), Some(uv::Character::Rapunzel(r)) if r.hair_length() == 6));
    let chars = m.characters().expect("characters");
    assert_eq!(chars.len(), 5);
    assert!(matches!(chars.get(0), Some(Some(uv::Character::Belle(b))) if b.books_read() == 7));
    assert!(
        matches!(chars.get(1), Some(Some(uv::Character::MuLan(a))) if a.sword_attack_damage() == 5)
    );
    assert!(matches!(
        chars.get(3),
        Some(Some(uv::Character::Other("Other")))
    ));
    assert!(matches!(
        chars.get(4),
        Some(Some(uv::Character::Unused("Unused")))
    ));
    assert!(chars.get(5).is_none());
    let types: Vec<uv::CharacterType> = m.characters_type().expect("types").iter().collect();
    assert_eq!(types[2], uv::CharacterType::BOOK_FAN);

    let owned = m.unpack();
    let mut b = Builder::new();
    let root = owned.pack(&mut b).unwrap();
    let ours = uv::finish_movie_buffer(&mut b, root).unwrap().to_vec();
    assert_same_json(schema, &theirs, &ours, &dir, &[]);

    // The builders: union values of each member kind, in a vector.
    b.reset();
    let attacker = uv::Attacker::create(
        &mut b,
        &uv::AttackerArgs {
            sword_attack_damage: 5,
        },
    )
    .unwrap();
    let rapunzel = flatforge::gen_support::create_struct(&mut b, &uv::Rapunzel::new(6)).unwrap();
    let belle = flatforge::gen_support::create_struct(&mut b, &uv::BookReader::new(7)).unwrap();
    let fan = flatforge::gen_support::create_struct(&mut b, &uv::BookReader::new(2)).unwrap();
    let other = b.create_string("Other").unwrap();
    let unused = b.create_string("Unused").unwrap();
    let characters = uv::CharacterOffset::create_vector(
        &mut b,
        &[
            uv::CharacterOffset::belle(belle),
            uv::CharacterOffset::mu_lan(attacker),
            uv::CharacterOffset::book_fan(fan),
            uv::CharacterOffset::other(other),
            uv::CharacterOffset::unused(unused),
        ],
    )
    .unwrap();
    let root = uv::Movie::builder(&mut b)
        .main_character(uv::CharacterOffset::rapunzel(rapunzel))
        .characters(characters)
        .finish()
        .unwrap();
    let ours = uv::finish_movie_buffer(&mut b, root).unwrap().to_vec();
    assert_same_json(schema, &theirs, &ours, &dir, &[]);
}

#[test]
fn more_defaults() {
    use g::flatbuffers_tests_more_defaults as md;
    let schema = "flatbuffers/tests/more_defaults.fbs";
    let dir = common::temp_dir("more_defaults");
    let root_type = ["--root-type", "MoreDefaults"];
    // Absent: the schema defaults (empty vectors, the default strings).
    let theirs = flatc_buffer(schema, "{}", &dir, &root_type);
    let m = md::MoreDefaults::root(&theirs).expect("verifies");
    assert!(m.ints().is_empty());
    assert!(m.floats().is_empty());
    assert_eq!(m.empty_string(), "");
    assert_eq!(m.some_string(), "some");
    assert!(m.abcs().is_empty());
    assert!(m.bools().is_empty());
    let owned = m.unpack();
    assert_eq!(owned.some_string, "some");
    // Present.
    let json = r#"{ ints: [1, -2], floats: [1.5], empty_string: "x", some_string: "",
                    abcs: ["C", "A"], bools: [true] }"#;
    let theirs = flatc_buffer(schema, json, &dir, &root_type);
    let m = md::MoreDefaults::root(&theirs).expect("verifies");
    assert_eq!(m.ints().iter().collect::<Vec<_>>(), [1, -2]);
    assert_eq!(
        m.abcs().iter().collect::<Vec<_>>(),
        [md::Abc::C, md::Abc::A]
    );
    assert_eq!(m.some_string(), "");
    let mut b = Builder::new();
    let root = m.unpack().pack(&mut b).unwrap();
    let ours = b.finish(root, None).unwrap().to_vec();
    assert_same_json(schema, &theirs, &ours, &dir, &root_type);

    // The builders: `create` with every field, the typestate builder with none.
    b.reset();
    let ints = b.create_vector(&[1i32, -2]).unwrap();
    let floats = b.create_vector(&[1.5f32]).unwrap();
    let empty_string = b.create_string("x").unwrap();
    let some_string = b.create_string("").unwrap();
    let abcs = md::Abc::create_vector(&mut b, &[md::Abc::C, md::Abc::A]).unwrap();
    let bools = b.create_vector(&[true]).unwrap();
    let root = md::MoreDefaults::create(
        &mut b,
        &md::MoreDefaultsArgs {
            ints: Some(ints),
            floats: Some(floats),
            empty_string: Some(empty_string),
            some_string: Some(some_string),
            abcs: Some(abcs),
            bools: Some(bools),
        },
    )
    .unwrap();
    let ours = b.finish(root, None).unwrap().to_vec();
    assert_same_json(schema, &theirs, &ours, &dir, &root_type);
    b.reset();
    let root = md::MoreDefaults::builder(&mut b).finish().unwrap();
    let ours = b.finish(root, None).unwrap().to_vec();
    let m = md::MoreDefaults::root(&ours).expect("verifies");
    assert!(m.ints().is_empty() && m.abcs().is_empty());
    assert_eq!((m.empty_string(), m.some_string()), ("", "some"));
    let theirs = flatc_buffer(schema, "{}", &dir, &root_type);
    assert_same_json(schema, &theirs, &ours, &dir, &root_type);
}

#[test]
fn nan_inf_test() {
    use g::flatbuffers_tests_nan_inf_test::swift::tests as nt;
    let schema = "flatbuffers/tests/nan_inf_test.fbs";
    let dir = common::temp_dir("nan_inf");
    let json = "{ value_nan: nan, value_inf: inf, value_ninf: -inf, value: 12.5 }";
    let theirs = flatc_buffer(schema, json, &dir, &[]);
    let t = nt::root_as_nan_inf_table(&theirs).expect("verifies");
    assert!(t.default_nan().is_nan());
    assert_eq!(t.default_inf(), f64::INFINITY);
    assert_eq!(t.default_ninf(), f64::NEG_INFINITY);
    assert!(t.value_nan().is_nan());
    assert_eq!(t.value_inf(), f64::INFINITY);
    assert_eq!(t.value_ninf(), f64::NEG_INFINITY);
    assert_eq!(t.value(), 12.5);
    let mut b = Builder::new();
    let root = t.unpack().pack(&mut b).unwrap();
    let ours = nt::finish_nan_inf_table_buffer(&mut b, root)
        .unwrap()
        .to_vec();
    assert_same_json(schema, &theirs, &ours, &dir, &[]);
    // A NaN equal to the NaN default is left out (flatc's JSON parser writes it; both read as NaN).
    b.reset();
    let root = nt::NanInfTable::builder(&mut b)
        .default_nan(f64::NAN)
        .finish()
        .unwrap();
    let ours = nt::finish_nan_inf_table_buffer(&mut b, root)
        .unwrap()
        .to_vec();
    let printed = common::flatc_json(&common::testdata(schema), &ours, &dir, &[]);
    assert_eq!(printed, serde_json::json!({}));
    assert!(nt::root_as_nan_inf_table(&ours)
        .unwrap()
        .default_nan()
        .is_nan());

    // The builders, with the values of the JSON: `create`, and the typestate builder.
    b.reset();
    let args = nt::NanInfTableArgs {
        value_nan: f64::NAN,
        value_inf: f64::INFINITY,
        value_ninf: f64::NEG_INFINITY,
        value: 12.5,
        ..Default::default()
    };
    assert!(args.default_nan.is_nan() && args.default_ninf == f64::NEG_INFINITY);
    let root = nt::NanInfTable::create(&mut b, &args).unwrap();
    let ours = nt::finish_nan_inf_table_buffer(&mut b, root)
        .unwrap()
        .to_vec();
    assert_same_json(schema, &theirs, &ours, &dir, &[]);
    b.reset();
    let root = nt::NanInfTable::builder(&mut b)
        .value(12.5)
        .value_ninf(f64::NEG_INFINITY)
        .value_inf(f64::INFINITY)
        .value_nan(f64::NAN)
        .finish()
        .unwrap();
    let ours = nt::finish_nan_inf_table_buffer(&mut b, root)
        .unwrap()
        .to_vec();
    assert_same_json(schema, &theirs, &ours, &dir, &[]);
    // Defaults set to other values, including the NaN default to a number.
    b.reset();
    let root = nt::NanInfTable::builder(&mut b)
        .default_nan(0.0)
        .default_inf(-1.0)
        .default_ninf(f64::INFINITY)
        .finish()
        .unwrap();
    let ours = nt::finish_nan_inf_table_buffer(&mut b, root)
        .unwrap()
        .to_vec();
    let json = "{ default_nan: 0.0, default_inf: -1.0, default_ninf: inf }";
    let theirs = flatc_buffer(schema, json, &dir, &[]);
    assert_same_json(schema, &theirs, &ours, &dir, &[]);
}

const ARROW_MESSAGE: &str = r#"{
  "version": "V5",
  "header_type": "Schema",
  "header": {
    "endianness": "Little",
    "fields": [
      { "name": "id", "nullable": false, "type_type": "Int", "type": { "bitWidth": 64, "is_signed": true } },
      { "name": "name", "nullable": true, "type_type": "Utf8", "type": {} },
      { "name": "score", "nullable": true, "type_type": "FloatingPoint", "type": { "precision": "DOUBLE" } },
      { "name": "tags", "nullable": true, "type_type": "List", "type": {},
        "children": [ { "name": "item", "nullable": true, "type_type": "Utf8", "type": {} } ] },
      { "name": "ts", "nullable": false, "type_type": "Timestamp", "type": { "unit": "MICROSECOND", "timezone": "UTC" } },
      { "name": "price", "nullable": true, "type_type": "Decimal", "type": { "precision": 10, "scale": 2 } }
    ],
    "custom_metadata": [ { "key": "origin", "value": "flatforge" } ],
    "features": [ "COMPRESSED_BODY" ]
  },
  "bodyLength": 0
}"#;

#[test]
fn arrow_message_with_a_schema() {
    use g::real_world_arrow_message::org::apache::arrow::flatbuf as ar;
    let schema = "real-world/arrow/Message.fbs";
    let dir = common::temp_dir("arrow");
    let theirs = flatc_buffer(schema, ARROW_MESSAGE, &dir, &[]);
    let m = ar::root_as_message(&theirs).expect("flatc's message verifies");
    assert_eq!(m.version(), ar::MetadataVersion::V5);
    let s = m.header_as_schema().expect("a Schema header");
    let fields = s.fields().expect("fields");
    let names: Vec<&str> = fields.iter().filter_map(|f| f.name()).collect();
    assert_eq!(names, ["id", "name", "score", "tags", "ts", "price"]);
    let id = fields.get(0).unwrap();
    assert!(matches!(id.r#type(), Some(ar::Type::Int(i)) if i.bit_width() == 64 && i.is_signed()));
    assert_eq!(id.type_type(), ar::TypeType::INT);
    let tags = fields.get(3).unwrap();
    assert_eq!(
        tags.children().unwrap().get(0).unwrap().name(),
        Some("item")
    );
    let ts = fields
        .get(4)
        .unwrap()
        .type_as_timestamp()
        .expect("timestamp");
    assert_eq!(
        (ts.unit(), ts.timezone()),
        (ar::TimeUnit::MICROSECOND, Some("UTC"))
    );
    assert_eq!(
        fields
            .get(5)
            .unwrap()
            .type_as_decimal()
            .unwrap()
            .bit_width(),
        128
    );
    assert_eq!(
        s.features().unwrap().get(0),
        Some(ar::Feature::COMPRESSED_BODY)
    );

    // The object API.
    let mut b = Builder::new();
    let root = m.unpack().pack(&mut b).unwrap();
    let ours = ar::finish_message_buffer(&mut b, root).unwrap().to_vec();
    assert_same_json(schema, &theirs, &ours, &dir, &[]);

    // The builders.
    b.reset();
    let ours = build_arrow_message(&mut b);
    assert_same_json(schema, &theirs, &ours, &dir, &[]);
    let parsed: Value = common::flatc_json(&common::testdata(schema), &ours, &dir, &[]);
    assert_eq!(
        parsed["header"]["fields"][3]["children"][0]["type_type"],
        "Utf8"
    );
}

fn build_arrow_message(b: &mut Builder) -> Vec<u8> {
    use g::real_world_arrow_message::org::apache::arrow::flatbuf as ar;
    let field = |b: &mut Builder,
                 name: &str,
                 nullable: bool,
                 ty: ar::TypeOffset,
                 children: &[flatforge::Offset<ar::Field<'static>>]| {
        let name = b.create_string(name).unwrap();
        let children =
            (!children.is_empty()).then(|| b.create_vector_of_offsets(children).unwrap());
        ar::Field::create(
            b,
            &ar::FieldArgs {
                name: Some(name),
                nullable,
                r#type: Some(ty),
                children,
                ..Default::default()
            },
        )
        .unwrap()
    };
    let int = ar::Int::builder(b)
        .bit_width(64)
        .is_signed(true)
        .finish()
        .unwrap();
    let id = field(b, "id", false, ar::TypeOffset::int(int), &[]);
    let utf8 = ar::Utf8::create(b, &ar::Utf8Args {}).unwrap();
    let name = field(b, "name", true, ar::TypeOffset::utf8(utf8), &[]);
    let fp = ar::FloatingPoint::builder(b)
        .precision(ar::Precision::DOUBLE)
        .finish()
        .unwrap();
    let score = field(b, "score", true, ar::TypeOffset::floating_point(fp), &[]);
    let utf8 = ar::Utf8::builder(b).finish().unwrap();
    let item = field(b, "item", true, ar::TypeOffset::utf8(utf8), &[]);
    let list = ar::List::builder(b).finish().unwrap();
    let tags = field(b, "tags", true, ar::TypeOffset::list(list), &[item]);
    let tz = b.create_string("UTC").unwrap();
    let timestamp = ar::Timestamp::builder(b)
        .unit(ar::TimeUnit::MICROSECOND)
        .timezone(tz)
        .finish()
        .unwrap();
    let ts = field(b, "ts", false, ar::TypeOffset::timestamp(timestamp), &[]);
    let decimal = ar::Decimal::builder(b)
        .precision(10)
        .scale(2)
        .finish()
        .unwrap();
    let price = field(b, "price", true, ar::TypeOffset::decimal(decimal), &[]);
    let fields = b
        .create_vector_of_offsets(&[id, name, score, tags, ts, price])
        .unwrap();
    let key = b.create_string("origin").unwrap();
    let value = b.create_string("flatforge").unwrap();
    let kv = ar::KeyValue::builder(b)
        .key(key)
        .value(value)
        .finish()
        .unwrap();
    let metadata = b.create_vector_of_offsets(&[kv]).unwrap();
    let features = ar::Feature::create_vector(b, &[ar::Feature::COMPRESSED_BODY]).unwrap();
    let schema = ar::Schema::builder(b)
        .endianness(ar::Endianness::LITTLE)
        .fields(fields)
        .custom_metadata(metadata)
        .features(features)
        .finish()
        .unwrap();
    let message = ar::Message::builder(b)
        .version(ar::MetadataVersion::V5)
        .header(ar::MessageHeaderOffset::schema(schema))
        .finish()
        .unwrap();
    ar::finish_message_buffer(b, message).unwrap().to_vec()
}
