//! The object API's serde derives (the crate's `serde` feature, on by default): an owned monster
//! survives a JSON round trip through serde_json unchanged.
#![cfg(feature = "serde")]

mod common;

use flatforge_codegen_tests::flatbuffers_tests_arrays_test::my_game::example as arrays;
use flatforge_codegen_tests::flatbuffers_tests_monster_test::my_game::example as ex;

fn finite(m: &mut ex::MonsterT) {
    m.nan_default = 1.5;
    m.inf_default = 2.5;
    m.positive_inf_default = 3.5;
    m.infinity_default = 4.5;
    m.positive_infinity_default = 5.5;
    m.negative_inf_default = -1.5;
    m.negative_infinity_default = -2.5;
    m.double_inf_default = 6.5;
}

#[test]
fn owned_monster_survives_serde_json() {
    let bytes = std::fs::read(common::testdata("flatbuffers/tests/monsterdata_test.mon")).unwrap();
    let mut monster = ex::root_as_monster(&bytes).unwrap().unpack();
    // JSON has no NaN or infinity (serde_json writes null): give those fields finite values.
    finite(&mut monster);
    if let Some(enemy) = &mut monster.enemy {
        finite(enemy);
    }
    if let ex::AnyT::Monster(inner) = &mut monster.test {
        finite(inner);
    }
    let text = serde_json::to_string(&monster).unwrap();
    assert!(text.contains("\"name\":\"MyMonster\""), "{text}");
    let back: ex::MonsterT = serde_json::from_str(&text).unwrap();
    assert_eq!(back, monster);
    // Missing fields take their schema defaults.
    let partial: ex::MonsterT = serde_json::from_str(r#"{"name": "Orc"}"#).unwrap();
    assert_eq!(
        (partial.name.as_str(), partial.hp, partial.mana),
        ("Orc", 100, 150)
    );
}

#[test]
fn arrays_longer_than_32_elements_serialize() {
    let mut s = arrays::LargeArrayStructT::default();
    s.d[63] = 7;
    s.h[1] = arrays::TestEnum::C;
    let text = serde_json::to_string(&s).unwrap();
    let back: arrays::LargeArrayStructT = serde_json::from_str(&text).unwrap();
    assert_eq!(back, s);
    let short = text.replacen("[0,", "[", 1);
    assert!(serde_json::from_str::<arrays::LargeArrayStructT>(&short).is_err());
}
