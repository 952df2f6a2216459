//! Interoperability with the reference `flatc` 25.12.19: buffers we build are printed by flatc and
//! compared with flatc's printing of its own buffers, and flatc's buffers (C++, Go, Python, Java
//! writers; fixed arrays; small-struct alignment) are verified and read by our views and compared
//! field by field with flatc's JSON for the same bytes.

mod common;

use std::path::{Path, PathBuf};

use common::monster::*;
use common::monster_json::{f32_value, monster_value};
use flatforge::{
    read_scalar, Array, Builder, Follow, Struct, Table, Vector, Verifier, VerifierOptions, Verify,
};
use flatforge_testkit::{flatc, testdata};
use serde_json::{json, Value};

fn tests_dir() -> PathBuf {
    testdata("flatbuffers/tests")
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("flatforge-interop-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What `flatc --raw-binary -t --strict-json` prints for `bytes` read as the root of `schema`.
fn flatc_json(schema: &Path, bytes: &[u8], extra: &[&str], name: &str) -> Value {
    let dir = scratch(name);
    let bin = dir.join("buf.bin");
    std::fs::write(&bin, bytes).unwrap();
    let out = flatc()
        .args(["--raw-binary", "-t", "--strict-json", "-I"])
        .arg(tests_dir().join("include_test"))
        .args(extra)
        .arg("-o")
        .arg(&dir)
        .arg(schema)
        .arg("--")
        .arg(&bin)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "flatc failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(dir.join("buf.json")).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("flatc printed invalid JSON ({e}): {text}"))
}

fn monster_schema() -> PathBuf {
    tests_dir().join("monster_test.fbs")
}

/// Builds the monster of `monsterdata_test.json` with hand-written code of the kind the code
/// generator emits (one-shot table writers, children first).
fn build_reference_monster(b: &mut Builder) -> Vec<u8> {
    let name = b.create_string("MyMonster").unwrap();
    let inventory = b.create_vector(&[0u8, 1, 2, 3, 4]).unwrap();
    let fred = b.create_shared_string("Fred").unwrap();
    let test = create_monster(
        b,
        &MonsterArgs {
            name: Some(fred),
            ..MonsterArgs::defaults()
        },
    )
    .unwrap();
    let fred_again = b.create_shared_string("Fred").unwrap();
    assert_eq!(fred, fred_again);
    let enemy = create_monster(
        b,
        &MonsterArgs {
            name: Some(fred),
            ..MonsterArgs::defaults()
        },
    )
    .unwrap();
    let tests = [Test::new(10, 20), Test::new(30, 40)];
    let test4 = b.create_vector_of_structs(&tests).unwrap();
    let test5 = b.create_vector_of_structs(&tests).unwrap();
    let strings = [
        b.create_string("test1").unwrap(),
        b.create_string("test2").unwrap(),
    ];
    let testarrayofstring = b.create_vector_of_offsets(&strings).unwrap();
    let bools = b.create_vector(&[true, false, true]).unwrap();
    let mut abilities = [
        Ability::new(5, 12),
        Ability::new(1, 21),
        Ability::new(0, 45),
    ];
    abilities.sort_by_key(Ability::id);
    let sorted = b.create_vector_of_structs(&abilities).unwrap();
    let longs = b
        .create_vector(&[1i64, 100, 10000, 1000000, 100000000])
        .unwrap();
    let doubles = b.create_vector(&[-f64::MAX, 0.0, f64::MAX]).unwrap();
    let hit = b.create_string("hit").unwrap();
    let miss = b.create_string("miss").unwrap();
    let mut stats = [
        Stat::create(b, Some(hit), 10, 1).unwrap(),
        Stat::create(b, Some(miss), 0, 0).unwrap(),
    ];
    b.sort_by_scalar_field(&mut stats, 2, 0u16);
    let stats = b.create_vector_of_offsets(&stats).unwrap();
    let pos = Vec3::new(1.0, 2.0, 3.0, 3.0, color::GREEN, Test::new(5, 6));
    let native = Test::new(1, 2);
    let monster = create_monster(
        b,
        &MonsterArgs {
            pos: Some(&pos),
            hp: 80,
            name: Some(name),
            inventory: Some(inventory),
            test_type: any::MONSTER,
            test: Some(test.cast()),
            test4: Some(test4),
            testarrayofstring: Some(testarrayofstring),
            enemy: Some(enemy),
            testbool: true,
            testhashs32_fnv1: -579221183,
            testhashu32_fnv1: 3715746113,
            testhashs64_fnv1: 7930699090847568257,
            testhashu64_fnv1: 7930699090847568257,
            testhashs32_fnv1a: -1904106383,
            testhashu32_fnv1a: 2390860913,
            testhashs64_fnv1a: 4898026182817603057,
            testhashu64_fnv1a: 4898026182817603057,
            testarrayofbools: Some(bools),
            testarrayofsortedstruct: Some(sorted),
            test5: Some(test5),
            vector_of_longs: Some(longs),
            vector_of_doubles: Some(doubles),
            scalar_key_sorted_tables: Some(stats),
            native_inline: Some(&native),
            ..MonsterArgs::defaults()
        },
    )
    .unwrap();
    b.finish(monster, Some(b"MONS")).unwrap().to_vec()
}

#[test]
fn flatc_prints_our_monster_as_it_prints_its_own() {
    let mut b = Builder::new();
    let ours = build_reference_monster(&mut b);
    let reference = std::fs::read(tests_dir().join("monsterdata_test.mon")).unwrap();
    let expected = flatc_json(&monster_schema(), &reference, &[], "reference");
    let got = flatc_json(&monster_schema(), &ours, &[], "ours");
    assert_eq!(got, expected);
    // And our own views read back what flatc read.
    let opts = VerifierOptions::default().with_file_identifier(*b"MONS");
    let m: Monster = flatforge::root_with_options(&ours, &opts).unwrap();
    assert_eq!(monster_value(m), expected);
}

#[test]
fn builder_reuse_after_reset_gives_identical_bytes() {
    let mut b = Builder::with_capacity(16);
    let first = build_reference_monster(&mut b);
    b.reset();
    let second = build_reference_monster(&mut b);
    assert_eq!(first, second);
}

/// Verifies `bytes` as a Monster and compares every field our views read with flatc's printing.
fn check_flatc_monster(file: &str, bytes: &[u8], size_prefixed: bool) {
    let mut opts = VerifierOptions::default().with_size_prefixed(size_prefixed);
    if flatforge::buffer_has_identifier(bytes, b"MONS", size_prefixed) {
        opts = opts.with_file_identifier(*b"MONS");
    }
    let m: Monster = flatforge::root_with_options(bytes, &opts)
        .unwrap_or_else(|e| panic!("{file} does not verify: {e}"));
    let extra: &[&str] = if size_prefixed {
        &["--size-prefixed"]
    } else {
        &[]
    };
    let expected = flatc_json(&monster_schema(), bytes, extra, file);
    assert_eq!(monster_value(m), expected, "{file}");
    read_all(m);
}

#[test]
fn views_read_flatc_buffers_as_flatc_does() {
    for (file, size_prefixed) in [
        ("monsterdata_test.mon", false),
        ("unicode_test.mon", false),
        ("monsterdata_python_wire.mon", false),
        ("monsterdata_go_wire.mon.sp", true),
    ] {
        let bytes = std::fs::read(tests_dir().join(file)).unwrap();
        check_flatc_monster(file, &bytes, size_prefixed);
    }
}

#[test]
fn views_read_the_values_of_the_json_files() {
    let bytes = std::fs::read(tests_dir().join("monsterdata_test.mon")).unwrap();
    let m: Monster = flatforge::root(&bytes).unwrap();
    let json: Value = serde_json::from_str(
        &std::fs::read_to_string(tests_dir().join("unicode_test.json")).unwrap(),
    )
    .unwrap();
    // Spot checks against monsterdata_test.json (the rest is covered field by field above).
    assert_eq!((m.name(), m.hp(), m.mana()), ("MyMonster", 80, 150));
    assert_eq!(m.inventory().unwrap().as_slice(), &[0, 1, 2, 3, 4]);
    let pos = m.pos().unwrap();
    assert_eq!(
        (pos.x(), pos.y(), pos.z(), pos.test1()),
        (1.0, 2.0, 3.0, 3.0)
    );
    assert_eq!(
        (pos.test2(), pos.test3().a(), pos.test3().b()),
        (color::GREEN, 5, 6)
    );
    match m.test() {
        Some(AnyRef::Monster(t)) => assert_eq!(t.name(), "Fred"),
        other => panic!("unexpected union {other:?}"),
    }
    assert_eq!(m.enemy().unwrap().name(), "Fred");
    let longs = m.vector_of_longs().unwrap();
    assert_eq!(
        longs.iter().collect::<Vec<_>>(),
        [1, 100, 10000, 1000000, 100000000]
    );
    assert_eq!(m.vector_of_doubles().unwrap().get(2), Some(f64::MAX));
    // unicode_test.mon against unicode_test.json.
    let bytes = std::fs::read(tests_dir().join("unicode_test.mon")).unwrap();
    let m: Monster = flatforge::root(&bytes).unwrap();
    assert_eq!(json!(m.name()), json["name"]);
    let strings: Vec<Value> = m
        .testarrayofstring()
        .unwrap()
        .iter()
        .map(|s| json!(s))
        .collect();
    assert_eq!(Value::Array(strings), json["testarrayofstring"]);
    let names: Vec<Value> = m
        .testarrayoftables()
        .unwrap()
        .iter()
        .map(|t| json!({ "name": t.name() }))
        .collect();
    assert_eq!(Value::Array(names), json["testarrayoftables"]);
}

#[test]
fn java_buffer_starts_at_the_byte_buffer_position() {
    // javatest.bin is the 512-byte backing array of a Java ByteBuffer whose data starts at 200
    // (where "MONS" follows the root offset); from 0 it is not a FlatBuffer.
    let bytes = std::fs::read(tests_dir().join("javatest.bin")).unwrap();
    assert!(flatforge::root::<Monster>(&bytes).is_err());
    assert_eq!(&bytes[204..208], b"MONS");
    check_flatc_monster("javatest.bin", &bytes[200..], false);
}

// ---------------------------------------------------------------------------------------------
// arrays_test.fbs: fixed-size arrays in structs.

/// `struct NestedStruct { a: [int:2]; b: TestEnum; c: [TestEnum:2]; d: [int64:2]; }` (32 bytes).
#[derive(Clone, Copy)]
#[repr(transparent)]
struct NestedStruct([u8; 32]);
// SAFETY: a transparent wrapper of [u8; 32].
unsafe impl Struct for NestedStruct {
    const ALIGN: usize = 8;
}
impl NestedStruct {
    fn a(&self) -> Array<'_, i32> {
        Array::new(&self.0[0..8])
    }
    fn b(&self) -> i8 {
        read_scalar(&self.0, 8)
    }
    fn c(&self) -> Array<'_, i8> {
        Array::new(&self.0[9..11])
    }
    fn d(&self) -> Array<'_, i64> {
        Array::new(&self.0[16..32])
    }
}

/// `struct ArrayStruct { a: float; b: [int:15]; c: byte; d: [NestedStruct:2]; e: int; f: [long:2]; }`.
#[derive(Clone, Copy)]
#[repr(transparent)]
struct ArrayStruct([u8; 160]);
// SAFETY: a transparent wrapper of [u8; 160].
unsafe impl Struct for ArrayStruct {
    const ALIGN: usize = 8;
}
impl ArrayStruct {
    fn a(&self) -> f32 {
        read_scalar(&self.0, 0)
    }
    fn b(&self) -> Array<'_, i32> {
        Array::new(&self.0[4..64])
    }
    fn c(&self) -> i8 {
        read_scalar(&self.0, 64)
    }
    fn d(&self) -> Array<'_, &NestedStruct> {
        Array::new(&self.0[72..136])
    }
    fn e(&self) -> i32 {
        read_scalar(&self.0, 136)
    }
    fn f(&self) -> Array<'_, i64> {
        Array::new(&self.0[144..160])
    }
}

#[derive(Clone, Copy)]
struct ArrayTable<'a>(Table<'a>);
impl Verify for ArrayTable<'_> {
    const SIZE: usize = 4;
    const ALIGN: usize = 4;
    const TYPE_NAME: &'static str = "ArrayTable";
    fn verify_at(v: &mut Verifier<'_>, pos: usize) -> Result<(), flatforge::Error> {
        let target = v.offset(pos)?;
        let mut t = v.table(target)?;
        t.field::<&ArrayStruct>(0, "a", false)
    }
}
impl<'a> Follow<'a> for ArrayTable<'a> {
    unsafe fn follow(buf: &'a [u8], pos: usize) -> Self {
        // SAFETY: forwarded.
        ArrayTable(unsafe { Table::follow(buf, pos) })
    }
}
impl<'a> ArrayTable<'a> {
    fn a(&self) -> Option<&'a ArrayStruct> {
        // SAFETY: verified as &ArrayStruct.
        unsafe { self.0.get_unchecked(0) }
    }
}

fn test_enum(x: i8) -> Value {
    match x {
        0 => json!("A"),
        1 => json!("B"),
        2 => json!("C"),
        _ => json!(x),
    }
}

#[test]
fn fixed_arrays_read_as_flatc_reads_them() {
    let dir = scratch("arrays");
    let json_path = dir.join("arrays_test.json");
    std::fs::copy(tests_dir().join("arrays_test.golden"), &json_path).unwrap();
    let schema = tests_dir().join("arrays_test.fbs");
    let out = flatc()
        .arg("-b")
        .arg("-o")
        .arg(&dir)
        .arg(&schema)
        .arg(&json_path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(dir.join("arrays_test.mon")).unwrap();
    let opts = VerifierOptions::default().with_file_identifier(*b"ARRT");
    let t: ArrayTable = flatforge::root_with_options(&bytes, &opts).unwrap();
    let a = t.a().unwrap();
    let nested: Vec<Value> = a
        .d()
        .iter()
        .map(|n| {
            json!({
                "a": n.a().iter().collect::<Vec<_>>(),
                "b": test_enum(n.b()),
                "c": n.c().iter().map(test_enum).collect::<Vec<_>>(),
                "d": n.d().iter().collect::<Vec<_>>(),
            })
        })
        .collect();
    let ours = json!({"a": {
        "a": f32_value(a.a()),
        "b": a.b().iter().collect::<Vec<_>>(),
        "c": a.c(),
        "d": nested,
        "e": a.e(),
        "f": a.f().iter().collect::<Vec<_>>(),
    }});
    assert_eq!(ours, flatc_json(&schema, &bytes, &[], "arrays-print"));
    assert_eq!(a.b().len(), 15);
    assert_eq!(a.f().get(0), Some(i64::MIN));
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------------
// alignment_test.fbs: vectors of 2- and 3-byte structs.

#[derive(Clone, Copy)]
#[repr(transparent)]
struct EvenSmallStruct([u8; 2]);
// SAFETY: a transparent wrapper of [u8; 2].
unsafe impl Struct for EvenSmallStruct {
    const ALIGN: usize = 1;
}

#[derive(Clone, Copy)]
#[repr(transparent)]
struct OddSmallStruct([u8; 3]);
// SAFETY: a transparent wrapper of [u8; 3].
unsafe impl Struct for OddSmallStruct {
    const ALIGN: usize = 1;
}

#[derive(Clone, Copy)]
struct SmallStructs<'a>(Table<'a>);
impl Verify for SmallStructs<'_> {
    const SIZE: usize = 4;
    const ALIGN: usize = 4;
    fn verify_at(v: &mut Verifier<'_>, pos: usize) -> Result<(), flatforge::Error> {
        let target = v.offset(pos)?;
        let mut t = v.table(target)?;
        t.field::<Vector<&EvenSmallStruct>>(0, "even_structs", false)?;
        t.field::<Vector<&OddSmallStruct>>(1, "odd_structs", false)
    }
}
impl<'a> Follow<'a> for SmallStructs<'a> {
    unsafe fn follow(buf: &'a [u8], pos: usize) -> Self {
        // SAFETY: forwarded.
        SmallStructs(unsafe { Table::follow(buf, pos) })
    }
}

fn small_structs_value(t: SmallStructs<'_>) -> Value {
    let mut o = serde_json::Map::new();
    // SAFETY: verified as vectors of these structs.
    let even: Option<Vector<&EvenSmallStruct>> = unsafe { t.0.get_unchecked(0) };
    // SAFETY: as above.
    let odd: Option<Vector<&OddSmallStruct>> = unsafe { t.0.get_unchecked(1) };
    if let Some(v) = even {
        let items = v
            .as_slice()
            .iter()
            .map(|s| json!({"var_0": s.0[0], "var_1": s.0[1]}));
        o.insert("even_structs".into(), Value::Array(items.collect()));
    }
    if let Some(v) = odd {
        let items = v
            .as_slice()
            .iter()
            .map(|s| json!({"var_0": s.0[0], "var_1": s.0[1], "var_2": s.0[2]}));
        o.insert("odd_structs".into(), Value::Array(items.collect()));
    }
    Value::Object(o)
}

#[test]
fn small_struct_vectors_read_as_flatc_reads_them() {
    let schema = tests_dir().join("alignment_test.fbs");
    for file in [
        "alignment_test_before_fix.bin",
        "alignment_test_after_fix.bin",
    ] {
        let bytes = std::fs::read(tests_dir().join(file)).unwrap();
        let t: SmallStructs = flatforge::root(&bytes).unwrap();
        assert_eq!(
            small_structs_value(t),
            flatc_json(&schema, &bytes, &[], file),
            "{file}"
        );
    }
    // The fixed buffer holds the values of alignment_test.json.
    let bytes = std::fs::read(tests_dir().join("alignment_test_after_fix.bin")).unwrap();
    let t: SmallStructs = flatforge::root(&bytes).unwrap();
    let json: Value = serde_json::from_str(
        &std::fs::read_to_string(tests_dir().join("alignment_test.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        small_structs_value(t)["even_structs"],
        json["small_structs"]
    );
}
