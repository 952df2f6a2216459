//! Prints a `Monster` view as the JSON value `flatc --strict-json -t` prints for the same buffer:
//! only fields present in the buffer, enums by name. Used to compare our views with flatc's reading
//! of the same bytes, field by field.

#![allow(unreachable_pub)]

use serde_json::{json, Map, Value};

use super::monster::{slot, AnyRef, Monster, Stat, Test, Vec3};

/// An f32 as flatc prints it (shortest round-trip text), read back as a JSON number.
pub fn f32_value(x: f32) -> Value {
    let v: f64 = format!("{x}").parse().unwrap();
    json!(v)
}

fn f64_value(x: f64) -> Value {
    json!(x)
}

fn color_name(c: u8) -> Value {
    let names = [(1, "Red"), (2, "Green"), (8, "Blue")];
    let parts: Vec<&str> = names
        .iter()
        .filter(|(bit, _)| c & bit != 0)
        .map(|(_, n)| *n)
        .collect();
    let known: u8 = names.iter().map(|(b, _)| b).sum();
    if c == 0 || c & !known != 0 {
        json!(c)
    } else {
        json!(parts.join(" "))
    }
}

fn race_name(r: i8) -> Value {
    match r {
        -1 => json!("None"),
        0 => json!("Human"),
        1 => json!("Dwarf"),
        2 => json!("Elf"),
        _ => json!(r),
    }
}

fn any_type_name(t: u8) -> Value {
    match t {
        0 => json!("NONE"),
        1 => json!("Monster"),
        2 => json!("TestSimpleTableWithEnum"),
        3 => json!("MyGame_Example2_Monster"),
        _ => json!(t),
    }
}

fn test_value(t: &Test) -> Value {
    json!({"a": t.a(), "b": t.b()})
}

fn vec3_value(p: &Vec3) -> Value {
    json!({
        "x": f32_value(p.x()), "y": f32_value(p.y()), "z": f32_value(p.z()),
        "test1": f64_value(p.test1()), "test2": color_name(p.test2()), "test3": test_value(p.test3()),
    })
}

fn stat_value(s: Stat<'_>) -> Value {
    let mut m = Map::new();
    if let Some(id) = s.id() {
        m.insert("id".into(), json!(id));
    }
    if s.0.field_offset(1) != 0 {
        m.insert("val".into(), json!(s.val()));
    }
    // flatc prints key fields even when they are absent.
    m.insert("count".into(), json!(s.count()));
    Value::Object(m)
}

fn any_value(u: AnyRef<'_>) -> Value {
    match u {
        AnyRef::Monster(m) => monster_value(m),
        AnyRef::TestSimpleTableWithEnum(t) => {
            if t.0.field_offset(0) != 0 {
                json!({"color": color_name(t.color())})
            } else {
                json!({})
            }
        }
        AnyRef::Example2Monster(_) => json!({}),
    }
}

/// The JSON value flatc prints for `m`.
pub fn monster_value(m: Monster<'_>) -> Value {
    use slot::*;
    let mut o = Map::new();
    let mut put = |k: &str, v: Value| {
        o.insert(k.to_string(), v);
    };
    if let Some(p) = m.pos() {
        put("pos", vec3_value(p));
    }
    if m.has(MANA) {
        put("mana", json!(m.mana()));
    }
    if m.has(HP) {
        put("hp", json!(m.hp()));
    }
    put("name", json!(m.name()));
    if let Some(v) = m.inventory() {
        put("inventory", json!(v.as_slice()));
    }
    if m.has(COLOR) {
        put("color", color_name(m.color()));
    }
    if m.has(TEST_TYPE) {
        put("test_type", any_type_name(m.test_type()));
    }
    if let Some(u) = m.test() {
        put("test", any_value(u));
    }
    if let Some(v) = m.test4() {
        put("test4", Value::Array(v.iter().map(test_value).collect()));
    }
    if let Some(v) = m.testarrayofstring() {
        put("testarrayofstring", json!(v.iter().collect::<Vec<_>>()));
    }
    if let Some(v) = m.testarrayoftables() {
        put(
            "testarrayoftables",
            Value::Array(v.iter().map(monster_value).collect()),
        );
    }
    if let Some(e) = m.enemy() {
        put("enemy", monster_value(e));
    }
    if let Some(v) = m.testnestedflatbuffer() {
        put("testnestedflatbuffer", json!(v.as_slice()));
    }
    if let Some(s) = m.testempty() {
        put("testempty", stat_value(s));
    }
    if m.has(TESTBOOL) {
        put("testbool", json!(m.testbool()));
    }
    macro_rules! scalars {
        ($($name:ident: $slot:ident),*) => {$(
            if m.has($slot) {
                put(stringify!($name), json!(m.$name()));
            }
        )*};
    }
    scalars!(
        testhashs32_fnv1: TESTHASHS32_FNV1, testhashu32_fnv1: TESTHASHU32_FNV1,
        testhashs64_fnv1: TESTHASHS64_FNV1, testhashu64_fnv1: TESTHASHU64_FNV1,
        testhashs32_fnv1a: TESTHASHS32_FNV1A, testhashu32_fnv1a: TESTHASHU32_FNV1A,
        testhashs64_fnv1a: TESTHASHS64_FNV1A, testhashu64_fnv1a: TESTHASHU64_FNV1A,
        single_weak_reference: SINGLE_WEAK_REFERENCE, co_owning_reference: CO_OWNING_REFERENCE,
        non_owning_reference: NON_OWNING_REFERENCE
    );
    if let Some(v) = m.testarrayofbools() {
        put("testarrayofbools", json!(v.iter().collect::<Vec<_>>()));
    }
    for (name, s, value) in [
        ("testf", TESTF, m.testf()),
        ("testf2", TESTF2, m.testf2()),
        ("testf3", TESTF3, m.testf3()),
    ] {
        if m.has(s) {
            put(name, f32_value(value));
        }
    }
    if let Some(v) = m.testarrayofstring2() {
        put("testarrayofstring2", json!(v.iter().collect::<Vec<_>>()));
    }
    if let Some(v) = m.testarrayofsortedstruct() {
        let items = v
            .iter()
            .map(|a| json!({"id": a.id(), "distance": a.distance()}));
        put("testarrayofsortedstruct", Value::Array(items.collect()));
    }
    if let Some(v) = m.flex() {
        put("flex", json!(v.as_slice()));
    }
    if let Some(v) = m.test5() {
        put("test5", Value::Array(v.iter().map(test_value).collect()));
    }
    if let Some(v) = m.vector_of_longs() {
        put("vector_of_longs", json!(v.iter().collect::<Vec<_>>()));
    }
    if let Some(v) = m.vector_of_doubles() {
        put(
            "vector_of_doubles",
            Value::Array(v.iter().map(f64_value).collect()),
        );
    }
    if m.parent_namespace_test().is_some() {
        put("parent_namespace_test", json!({}));
    }
    if let Some(v) = m.vector_of_referrables() {
        let items = v.iter().map(|r| json!({"id": r.id()}));
        put("vector_of_referrables", Value::Array(items.collect()));
    }
    if let Some(v) = m.vector_of_weak_references() {
        put(
            "vector_of_weak_references",
            json!(v.iter().collect::<Vec<_>>()),
        );
    }
    if let Some(v) = m.scalar_key_sorted_tables() {
        put(
            "scalar_key_sorted_tables",
            Value::Array(v.iter().map(stat_value).collect()),
        );
    }
    if let Some(v) = m.vector_of_enums() {
        put(
            "vector_of_enums",
            Value::Array(v.iter().map(color_name).collect()),
        );
    }
    if m.has(SIGNED_ENUM) {
        put("signed_enum", race_name(m.signed_enum()));
    }
    if let Some(t) = m.native_inline() {
        put("native_inline", test_value(t));
    }
    if m.has(ANY_UNIQUE_TYPE) {
        put("any_unique_type", any_type_name(m.any_unique_type()));
    }
    if let Some(u) = m.any_unique() {
        put("any_unique", any_value(u));
    }
    Value::Object(o)
}
