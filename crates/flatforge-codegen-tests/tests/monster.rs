//! The full monster_test.fbs round trip, differential against the reference flatc:
//!
//! - flatc's `monsterdata_test.mon` read with the generated views, every field checked against
//!   flatc's own JSON of that buffer (and the schema defaults for absent fields);
//! - the same monster built with the generated builders (`create`, the typestate builder), and
//!   with the object API (`unpack` then `pack`), printed by flatc: the same JSON as the `.mon`.

mod common;

use flatforge::Builder;
use flatforge_codegen_tests::flatbuffers_tests_monster_test::my_game::example as ex;
use flatforge_schema::HashKind;
use serde_json::{json, Value};

fn schema() -> std::path::PathBuf {
    common::testdata("flatbuffers/tests/monster_test.fbs")
}

fn mon() -> Vec<u8> {
    std::fs::read(common::testdata("flatbuffers/tests/monsterdata_test.mon")).expect("read .mon")
}

fn f64_of(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[test]
fn views_read_every_field_of_flatcs_monster() {
    let bytes = mon();
    let dir = common::temp_dir("views");
    let j = common::flatc_json(&schema(), &bytes, &dir, &[]);

    assert!(ex::monster_buffer_has_identifier(&bytes));
    assert_eq!(ex::MONSTER_IDENTIFIER, *b"MONS");
    assert_eq!(ex::MONSTER_EXTENSION, "mon");
    let m = ex::root_as_monster(&bytes).expect("flatc's monster verifies");

    let pos = m.pos().expect("pos");
    let jp = &j["pos"];
    assert_eq!(f64::from(pos.x()), f64_of(&jp["x"]));
    assert_eq!(f64::from(pos.y()), f64_of(&jp["y"]));
    assert_eq!(f64::from(pos.z()), f64_of(&jp["z"]));
    assert_eq!(pos.test1(), f64_of(&jp["test1"]));
    assert_eq!(pos.test2().to_string(), jp["test2"]);
    assert_eq!(pos.test2(), ex::Color::GREEN);
    assert_eq!(i64::from(pos.test3().a()), jp["test3"]["a"]);
    assert_eq!(i64::from(pos.test3().b()), jp["test3"]["b"]);

    assert_eq!(m.hp(), j["hp"]);
    assert_eq!(m.mana(), 150, "absent: the schema default");
    assert_eq!(m.name(), j["name"]);
    let inventory: Vec<u8> = m.inventory().expect("inventory").iter().collect();
    assert_eq!(json!(inventory), j["inventory"]);
    assert_eq!(m.color(), ex::Color::BLUE, "absent: the schema default");
    assert_eq!(m.test_type().to_string(), j["test_type"]);
    let test = m.test_as_monster().expect("test is a Monster");
    assert_eq!(test.name(), j["test"]["name"]);
    assert!(matches!(m.test(), Some(ex::Any::Monster(_))));
    assert!(m.test_as_test_simple_table_with_enum().is_none());

    for (field, v) in [("test4", m.test4()), ("test5", m.test5())] {
        let v = v.expect(field);
        let pairs: Vec<Value> = v.iter().map(|t| json!({"a": t.a(), "b": t.b()})).collect();
        assert_eq!(Value::Array(pairs), j[field], "{field}");
        assert_eq!(v.as_slice().len(), 2);
    }
    let strings: Vec<&str> = m.testarrayofstring().expect("strings").iter().collect();
    assert_eq!(json!(strings), j["testarrayofstring"]);
    assert!(m.testarrayofstring2().is_none());
    assert!(m.testarrayoftables().is_none());
    assert_eq!(m.enemy().expect("enemy").name(), j["enemy"]["name"]);
    assert!(m.testnestedflatbuffer().is_none());
    assert!(m.testnestedflatbuffer_nested_root().is_none());
    assert!(m.testempty().is_none());
    assert_eq!(m.testbool(), j["testbool"]);

    // The hashed fields hold flatc's hashes of the JSON string.
    let s = b"This string is being hashed!";
    assert_eq!(m.testhashs32_fnv1(), j["testhashs32_fnv1"]);
    assert_eq!(
        m.testhashs32_fnv1() as u32 as u64,
        HashKind::Fnv1_32.hash(s)
    );
    assert_eq!(m.testhashu32_fnv1(), j["testhashu32_fnv1"]);
    assert_eq!(m.testhashs64_fnv1(), j["testhashs64_fnv1"]);
    assert_eq!(m.testhashu64_fnv1(), j["testhashu64_fnv1"]);
    assert_eq!(m.testhashu64_fnv1(), HashKind::Fnv1_64.hash(s));
    assert_eq!(m.testhashs32_fnv1a(), j["testhashs32_fnv1a"]);
    assert_eq!(m.testhashu32_fnv1a(), j["testhashu32_fnv1a"]);
    assert_eq!(m.testhashs64_fnv1a(), j["testhashs64_fnv1a"]);
    assert_eq!(m.testhashu64_fnv1a(), j["testhashu64_fnv1a"]);
    assert_eq!(m.testhashu64_fnv1a(), HashKind::Fnv1a64.hash(s));

    let bools: Vec<bool> = m.testarrayofbools().expect("bools").iter().collect();
    assert_eq!(json!(bools), j["testarrayofbools"]);
    assert_eq!(
        m.testf(),
        "3.14159".parse::<f32>().unwrap(),
        "the schema default"
    );
    assert_eq!(m.testf2(), 3.0);
    assert_eq!(m.testf3(), 0.0);

    let sorted = m.testarrayofsortedstruct().expect("sorted structs");
    let abilities: Vec<Value> = sorted
        .iter()
        .map(|a| json!({"id": a.id(), "distance": a.distance()}))
        .collect();
    assert_eq!(Value::Array(abilities), j["testarrayofsortedstruct"]);
    assert_eq!(
        ex::Ability::lookup_by_key(sorted, 5).map(|a| a.distance()),
        Some(12)
    );
    assert_eq!(
        ex::Ability::lookup_by_key(sorted, 0).map(|a| a.distance()),
        Some(45)
    );
    assert!(ex::Ability::lookup_by_key(sorted, 2).is_none());

    let longs: Vec<i64> = m.vector_of_longs().expect("longs").iter().collect();
    assert_eq!(json!(longs), j["vector_of_longs"]);
    let doubles: Vec<f64> = m.vector_of_doubles().expect("doubles").iter().collect();
    let expected: Vec<f64> = j["vector_of_doubles"]
        .as_array()
        .expect("array")
        .iter()
        .map(f64_of)
        .collect();
    assert_eq!(doubles, expected);
    assert!(m.parent_namespace_test().is_none());
    assert!(m.vector_of_referrables().is_none());
    assert_eq!(m.single_weak_reference(), 0);
    assert_eq!(m.any_unique_type(), ex::AnyUniqueAliasesType::NONE);
    assert!(m.any_unique().is_none());
    assert!(m.any_ambiguous().is_none());
    assert!(m.vector_of_enums().is_none());
    assert_eq!(
        m.signed_enum(),
        ex::Race::NONE,
        "absent: the default `None` (-1)"
    );
    assert_eq!(m.signed_enum().0, -1);

    let stats = m.scalar_key_sorted_tables().expect("stats");
    let js: Vec<Value> = stats
        .iter()
        .map(|s| {
            let mut o = json!({"id": s.id().expect("id"), "count": s.count()});
            if s.val() != 0 {
                o["val"] = json!(s.val());
            }
            o
        })
        .collect();
    assert_eq!(Value::Array(js), j["scalar_key_sorted_tables"]);
    assert_eq!(
        ex::Stat::lookup_by_key(stats, 1).and_then(|s| s.id()),
        Some("hit")
    );
    assert!(ex::Stat::lookup_by_key(stats, 7).is_none());

    let ni = m.native_inline().expect("native_inline");
    assert_eq!((i64::from(ni.a()), i64::from(ni.b())), (1, 2));
    assert_eq!(m.long_enum_non_enum_default().0, 0);
    assert_eq!(m.long_enum_normal_default(), ex::LongEnum::LONG_ONE);
    assert!(m.nan_default().is_nan());
    assert_eq!(m.inf_default(), f32::INFINITY);
    assert_eq!(m.positive_inf_default(), f32::INFINITY);
    assert_eq!(m.infinity_default(), f32::INFINITY);
    assert_eq!(m.positive_infinity_default(), f32::INFINITY);
    assert_eq!(m.negative_inf_default(), f32::NEG_INFINITY);
    assert_eq!(m.negative_infinity_default(), f32::NEG_INFINITY);
    assert_eq!(m.double_inf_default(), f64::INFINITY);

    // Every key of flatc's JSON was looked at above.
    let checked = [
        "pos",
        "hp",
        "name",
        "inventory",
        "test_type",
        "test",
        "test4",
        "testarrayofstring",
        "enemy",
        "testbool",
        "testhashs32_fnv1",
        "testhashu32_fnv1",
        "testhashs64_fnv1",
        "testhashu64_fnv1",
        "testhashs32_fnv1a",
        "testhashu32_fnv1a",
        "testhashs64_fnv1a",
        "testhashu64_fnv1a",
        "testarrayofbools",
        "testarrayofsortedstruct",
        "test5",
        "vector_of_longs",
        "vector_of_doubles",
        "scalar_key_sorted_tables",
        "native_inline",
    ];
    let keys: Vec<&str> = j
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    for k in &keys {
        assert!(
            checked.contains(k),
            "field `{k}` of flatc's JSON is not checked"
        );
    }
    assert_eq!(keys.len(), checked.len());
}

/// Builds monsterdata_test's monster with `create` and the typestate builders.
fn build_with_builders(b: &mut Builder) -> Vec<u8> {
    let s = "This string is being hashed!".as_bytes();
    let fred = b.create_string("Fred").unwrap();
    let test = ex::Monster::builder(b).name(fred).finish().unwrap();
    let fred2 = b.create_string("Fred").unwrap();
    let enemy = ex::Monster::create(b, &ex::MonsterArgs::new(fred2)).unwrap();
    let name = b.create_string("MyMonster").unwrap();
    let inventory = b.create_vector(&[0u8, 1, 2, 3, 4]).unwrap();
    let tests = [ex::Test::new(10, 20), ex::Test::new(30, 40)];
    let test4 = b.create_vector_of_structs(&tests).unwrap();
    let test5 = b.create_vector_of_structs(&tests).unwrap();
    let strings = [
        b.create_string("test1").unwrap(),
        b.create_string("test2").unwrap(),
    ];
    let strings = b.create_vector_of_offsets(&strings).unwrap();
    let bools = b.create_vector(&[true, false, true]).unwrap();
    let sorted = [
        ex::Ability::new(0, 45),
        ex::Ability::new(1, 21),
        ex::Ability::new(5, 12),
    ];
    let sorted = b.create_vector_of_structs(&sorted).unwrap();
    let longs = b
        .create_vector(&[1i64, 100, 10000, 1000000, 100000000])
        .unwrap();
    let doubles = b.create_vector(&[f64::MIN, 0.0, f64::MAX]).unwrap();
    let hit = b.create_string("hit").unwrap();
    let hit = ex::Stat::builder(b)
        .id(hit)
        .val(10)
        .count(1)
        .finish()
        .unwrap();
    let miss = b.create_string("miss").unwrap();
    let miss = ex::Stat::create(
        b,
        &ex::StatArgs {
            id: Some(miss),
            val: 0,
            count: 0,
        },
    )
    .unwrap();
    let mut stats = [hit, miss];
    ex::Stat::sort_by_key(b, &mut stats);
    let stats = b.create_vector_of_offsets(&stats).unwrap();
    let pos = ex::Vec3::new(1.0, 2.0, 3.0, 3.0, ex::Color::GREEN, &ex::Test::new(5, 6));
    let monster = ex::Monster::builder(b)
        .pos(pos)
        .hp(80)
        .name(name)
        .inventory(inventory)
        .test(ex::AnyOffset::monster(test))
        .test4(test4)
        .testarrayofstring(strings)
        .enemy(enemy)
        .testbool(true)
        .testhashs32_fnv1(HashKind::Fnv1_32.hash(s) as i32)
        .testhashu32_fnv1(HashKind::Fnv1_32.hash(s) as u32)
        .testhashs64_fnv1(HashKind::Fnv1_64.hash(s) as i64)
        .testhashu64_fnv1(HashKind::Fnv1_64.hash(s))
        .testhashs32_fnv1a(HashKind::Fnv1a32.hash(s) as i32)
        .testhashu32_fnv1a(HashKind::Fnv1a32.hash(s) as u32)
        .testhashs64_fnv1a(HashKind::Fnv1a64.hash(s) as i64)
        .testhashu64_fnv1a(HashKind::Fnv1a64.hash(s))
        .testarrayofbools(bools)
        .testarrayofsortedstruct(sorted)
        .test5(test5)
        .vector_of_longs(longs)
        .vector_of_doubles(doubles)
        .scalar_key_sorted_tables(stats)
        .native_inline(ex::Test::new(1, 2))
        .finish()
        .unwrap();
    ex::finish_monster_buffer(b, monster).unwrap().to_vec()
}

#[test]
fn flatc_prints_our_builders_monster_as_its_own() {
    let dir = common::temp_dir("builders");
    let expected = common::flatc_json(&schema(), &mon(), &dir, &[]);
    let mut b = Builder::new();
    let ours = build_with_builders(&mut b);
    ex::root_as_monster(&ours).expect("our monster verifies");
    assert_eq!(common::flatc_json(&schema(), &ours, &dir, &[]), expected);
    // With the defaults printed too, the buffers still agree field for field.
    let d = ["--defaults-json"];
    assert_eq!(
        common::flatc_json(&schema(), &ours, &dir, &d),
        common::flatc_json(&schema(), &mon(), &dir, &d)
    );
    // A reused builder gives the same bytes.
    b.reset();
    assert_eq!(build_with_builders(&mut b), ours);
}

#[test]
fn flatc_prints_our_object_api_monster_as_its_own() {
    let dir = common::temp_dir("object");
    let bytes = mon();
    let expected = common::flatc_json(&schema(), &bytes, &dir, &["--defaults-json"]);
    let monster: ex::MonsterT = ex::root_as_monster(&bytes).unwrap().unpack();
    assert_eq!(monster.name, "MyMonster");
    assert_eq!(monster.hp, 80);
    assert!(matches!(&monster.test, ex::AnyT::Monster(m) if m.name == "Fred"));
    let mut b = Builder::new();
    let root = monster.pack(&mut b).unwrap();
    let ours = ex::finish_monster_buffer(&mut b, root).unwrap().to_vec();
    assert_eq!(
        common::flatc_json(&schema(), &ours, &dir, &["--defaults-json"]),
        expected
    );
    // unpack_into reuses the target and gives the same value; so does a second round.
    let again = ex::root_as_monster(&ours).unwrap();
    // (Compared through Debug: the NaN defaults make `==` false.)
    let mut t = ex::MonsterT::default();
    again.unpack_into(&mut t);
    assert_eq!(format!("{t:?}"), format!("{monster:?}"));
    again.unpack_into(&mut t);
    assert_eq!(format!("{t:?}"), format!("{monster:?}"));
}

#[test]
fn nested_flatbuffers_and_unions_round_trip() {
    // A monster holding another monster as a nested flatbuffer and in each union field.
    let mut inner = Builder::new();
    let name = inner.create_string("inner").unwrap();
    let m = ex::Monster::builder(&mut inner)
        .name(name)
        .hp(7)
        .finish()
        .unwrap();
    let nested = ex::finish_monster_buffer(&mut inner, m).unwrap().to_vec();

    let mut b = Builder::new();
    let nested = b.create_nested_flatbuffer(&nested, 8).unwrap();
    let n1 = b.create_string("m1").unwrap();
    let m1 = ex::Monster::builder(&mut b).name(n1).finish().unwrap();
    let ts = ex::TestSimpleTableWithEnum::create(
        &mut b,
        &ex::TestSimpleTableWithEnumArgs {
            color: ex::Color::RED,
        },
    )
    .unwrap();
    let name = b.create_string("outer").unwrap();
    let enums = ex::Color::create_vector(&mut b, &[ex::Color::BLUE, ex::Color(0x7f)]).unwrap();
    let root = ex::Monster::builder(&mut b)
        .name(name)
        .testnestedflatbuffer(nested)
        .any_ambiguous(ex::AnyAmbiguousAliasesOffset::m2(m1))
        .any_unique(ex::AnyUniqueAliasesOffset::ts(ts))
        .vector_of_enums(enums)
        .signed_enum(ex::Race::ELF)
        .finish()
        .unwrap();
    let bytes = ex::finish_monster_buffer(&mut b, root).unwrap().to_vec();

    let m = ex::root_as_monster(&bytes).unwrap();
    let inner = m.testnestedflatbuffer_nested_root().expect("nested root");
    assert_eq!((inner.name(), inner.hp()), ("inner", 7));
    assert_eq!(m.any_ambiguous_type(), ex::AnyAmbiguousAliasesType::M2);
    assert_eq!(m.any_ambiguous_as_m2().map(|x| x.name()), Some("m1"));
    assert!(m.any_ambiguous_as_m1().is_none());
    assert_eq!(
        m.any_unique_as_ts().map(|t| t.color()),
        Some(ex::Color::RED)
    );
    let enums: Vec<ex::Color> = m.vector_of_enums().unwrap().iter().collect();
    assert_eq!(enums, [ex::Color::BLUE, ex::Color(0x7f)]);
    assert_eq!(
        enums[1].to_string(),
        "Red Green Blue 116",
        "unknown bits are kept"
    );
    assert_eq!(m.signed_enum(), ex::Race::ELF);

    // flatc reads it and prints the nested monster's bytes; the object API round-trips it.
    let dir = common::temp_dir("nested");
    let j = common::flatc_json(&schema(), &bytes, &dir, &[]);
    assert_eq!(j["any_ambiguous_type"], "M2");
    assert_eq!(j["any_unique"]["color"], "Red");
    let t = m.unpack();
    let mut b2 = Builder::new();
    let r = t.pack(&mut b2).unwrap();
    let again = ex::finish_monster_buffer(&mut b2, r).unwrap().to_vec();
    assert_eq!(common::flatc_json(&schema(), &again, &dir, &[]), j);

    // A corrupted nested buffer fails the outer verification, with the path.
    let mut bad = bytes.clone();
    let at = bytes
        .windows(5)
        .position(|w| w == b"inner")
        .expect("the nested name");
    bad[at - 4] = 0xff;
    let err = ex::root_as_monster(&bad).unwrap_err();
    assert!(
        err.path_string()
            .starts_with("Monster.testnestedflatbuffer"),
        "{err}"
    );
}

#[test]
fn verification_errors_name_the_field() {
    let bytes = mon();
    // Cut the buffer: verification fails instead of reading out of bounds.
    for cut in [4usize, 20, 100, bytes.len() - 8] {
        assert!(ex::root_as_monster(&bytes[..cut]).is_err(), "cut at {cut}");
    }
    // Size-prefixed buffers have their own roots.
    let mut b = Builder::new();
    let name = b.create_string("sp").unwrap();
    let m = ex::Monster::builder(&mut b).name(name).finish().unwrap();
    let sp = ex::finish_size_prefixed_monster_buffer(&mut b, m)
        .unwrap()
        .to_vec();
    assert_eq!(ex::size_prefixed_root_as_monster(&sp).unwrap().name(), "sp");
    assert!(ex::monster_size_prefixed_buffer_has_identifier(&sp));
    // SAFETY: verified just above.
    let unchecked = unsafe { ex::size_prefixed_root_as_monster_unchecked(&sp) };
    assert_eq!(unchecked.name(), "sp");
    assert!(ex::root_as_monster(&sp).is_err());
}

/// Regression (fuzz target `generated_read`): `-0.0` in a float field whose default is `0.0` was
/// left out as equal to the default, and read back as `+0.0`.
#[test]
fn negative_zero_is_not_taken_for_the_zero_default() {
    let mut t = ex::MonsterT {
        name: "zero".into(),
        testf3: -0.0,
        ..Default::default()
    };
    t.testf2 = 3.0; // equal to its default: still left out
    let mut b = Builder::new();
    let root = t.pack(&mut b).unwrap();
    let bytes = ex::finish_monster_buffer(&mut b, root).unwrap().to_vec();
    let m = ex::root_as_monster(&bytes).unwrap();
    assert!(m.testf3().is_sign_negative(), "{}", m.testf3());
    assert_eq!(m.testf2(), 3.0);
    let dir = common::temp_dir("negzero");
    let j = common::flatc_json(&schema(), &bytes, &dir, &[]);
    assert_eq!(j["testf3"], json!(-0.0));
    assert!(j.get("testf2").is_none(), "{j}");
}

/// Generated verifiers check a table's inline fields first, then its strings and vectors of
/// scalars, then what recurses (each group in slot order), so that the table's own state is not
/// kept through nested checks: with two broken fields, the inline one is reported even when it has
/// the higher slot.
#[test]
fn verifiers_check_inline_fields_before_strings() {
    let mut b = Builder::new();
    let name = b.create_string("abc").unwrap();
    let m = ex::Monster::builder(&mut b)
        .name(name)
        .color(ex::Color::RED)
        .finish()
        .unwrap();
    let bytes = ex::finish_monster_buffer(&mut b, m).unwrap().to_vec();
    ex::root_as_monster(&bytes).unwrap();

    // `name` (slot 3) loses its terminator; `color` (slot 6) points past its table.
    let mut bad = bytes.clone();
    let at = bad.windows(4).position(|w| w == b"abc\0").unwrap();
    bad[at + 3] = b'!';
    let err = ex::root_as_monster(&bad).unwrap_err();
    assert_eq!(err.kind(), &flatforge::ErrorKind::StringNotTerminated);
    assert_eq!(err.path_string(), "Monster.name");
    let table: flatforge::Table = flatforge::root(&bad).unwrap();
    let entry = table.vtable() + 4 + 2 * 6;
    bad[entry..entry + 2].copy_from_slice(&0xfff0u16.to_le_bytes());
    let err = ex::root_as_monster(&bad).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            flatforge::ErrorKind::FieldOutOfTable {
                voffset: 0xfff0,
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(err.path_string(), "Monster.color");
}
