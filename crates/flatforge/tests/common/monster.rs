//! Hand-written equivalent of the code the generator will emit for
//! `../shared/testdata/flatbuffers/tests/monster_test.fbs`: struct types, table views with verifiers,
//! union enums, and a one-shot writer for `Monster`. Shared by the integration tests and the
//! `verify_monster` fuzz target (which includes this file with `#[path]`), so it uses only `flatforge`.
#![allow(dead_code, unreachable_pub, clippy::approx_constant)]

use flatforge::{
    read_scalar, write_scalar, BuildError, Builder, Error, Follow, Offset, Struct, Table, Vector,
    Verifier, Verify,
};

// ---------------------------------------------------------------------------------------------
// Structs

/// `struct Test { a: short; b: byte; }`: size 4, align 2.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(transparent)]
pub struct Test(pub [u8; 4]);
// SAFETY: a transparent wrapper of [u8; 4].
unsafe impl Struct for Test {
    const ALIGN: usize = 2;
}
impl Test {
    pub fn new(a: i16, b: i8) -> Self {
        let mut s = [0; 4];
        write_scalar(&mut s, 0, a);
        write_scalar(&mut s, 2, b);
        Test(s)
    }
    pub fn a(&self) -> i16 {
        read_scalar(&self.0, 0)
    }
    pub fn b(&self) -> i8 {
        read_scalar(&self.0, 2)
    }
}

/// `struct Vec3 (force_align: 8) { x, y, z: float; test1: double; test2: Color; test3: Test; }`.
#[derive(Clone, Copy, PartialEq, Debug)]
#[repr(transparent)]
pub struct Vec3(pub [u8; 32]);
// SAFETY: a transparent wrapper of [u8; 32].
unsafe impl Struct for Vec3 {
    const ALIGN: usize = 8;
}
impl Vec3 {
    pub fn new(x: f32, y: f32, z: f32, test1: f64, test2: u8, test3: Test) -> Self {
        let mut s = [0; 32];
        write_scalar(&mut s, 0, x);
        write_scalar(&mut s, 4, y);
        write_scalar(&mut s, 8, z);
        write_scalar(&mut s, 16, test1);
        write_scalar(&mut s, 24, test2);
        s[26..30].copy_from_slice(&test3.0);
        Vec3(s)
    }
    pub fn x(&self) -> f32 {
        read_scalar(&self.0, 0)
    }
    pub fn y(&self) -> f32 {
        read_scalar(&self.0, 4)
    }
    pub fn z(&self) -> f32 {
        read_scalar(&self.0, 8)
    }
    pub fn test1(&self) -> f64 {
        read_scalar(&self.0, 16)
    }
    pub fn test2(&self) -> u8 {
        read_scalar(&self.0, 24)
    }
    pub fn test3(&self) -> &Test {
        flatforge::struct_from_bytes(&self.0[26..30]).unwrap()
    }
}

/// `struct Ability { id: uint (key); distance: uint; }`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(transparent)]
pub struct Ability(pub [u8; 8]);
// SAFETY: a transparent wrapper of [u8; 8].
unsafe impl Struct for Ability {
    const ALIGN: usize = 4;
}
impl Ability {
    pub fn new(id: u32, distance: u32) -> Self {
        let mut s = [0; 8];
        write_scalar(&mut s, 0, id);
        write_scalar(&mut s, 4, distance);
        Ability(s)
    }
    pub fn id(&self) -> u32 {
        read_scalar(&self.0, 0)
    }
    pub fn distance(&self) -> u32 {
        read_scalar(&self.0, 4)
    }
}

// ---------------------------------------------------------------------------------------------
// Enums

pub mod color {
    pub const RED: u8 = 1;
    pub const GREEN: u8 = 2;
    pub const BLUE: u8 = 8;
}
pub mod race {
    pub const NONE: i8 = -1;
}
pub mod any {
    pub const NONE: u8 = 0;
    pub const MONSTER: u8 = 1;
    pub const TEST_SIMPLE_TABLE_WITH_ENUM: u8 = 2;
    pub const EXAMPLE2_MONSTER: u8 = 3;
}

// ---------------------------------------------------------------------------------------------
// Small tables

macro_rules! table_type {
    ($name:ident, $type_name:literal, $verify:expr) => {
        #[derive(Clone, Copy, Debug)]
        pub struct $name<'a>(pub Table<'a>);
        impl Verify for $name<'_> {
            const SIZE: usize = 4;
            const ALIGN: usize = 4;
            const TYPE_NAME: &'static str = $type_name;
            fn verify_at(v: &mut Verifier<'_>, pos: usize) -> Result<(), Error> {
                let target = v.offset(pos)?;
                let f: fn(&mut Verifier<'_>, usize) -> Result<(), Error> = $verify;
                f(v, target)
            }
        }
        impl<'a> Follow<'a> for $name<'a> {
            unsafe fn follow(buf: &'a [u8], pos: usize) -> Self {
                // SAFETY: forwarded: `verify_at` accepted `pos`.
                $name(unsafe { Table::follow(buf, pos) })
            }
        }
    };
}

table_type!(InParentNamespace, "InParentNamespace", |v, pos| {
    v.table(pos).map(|_| ())
});
table_type!(Example2Monster, "Monster", |v, pos| v
    .table(pos)
    .map(|_| ()));
table_type!(
    TestSimpleTableWithEnum,
    "TestSimpleTableWithEnum",
    |v, pos| {
        let mut t = v.table(pos)?;
        t.field::<u8>(0, "color", false)
    }
);
table_type!(Stat, "Stat", |v, pos| {
    let mut t = v.table(pos)?;
    t.field::<&str>(0, "id", false)?;
    t.field::<i64>(1, "val", false)?;
    t.field::<u16>(2, "count", false)
});
table_type!(Referrable, "Referrable", |v, pos| {
    let mut t = v.table(pos)?;
    t.field::<u64>(0, "id", false)
});
table_type!(Monster, "Monster", verify_monster);

impl<'a> TestSimpleTableWithEnum<'a> {
    pub fn color(&self) -> u8 {
        // SAFETY: verified as u8.
        unsafe { self.0.get_unchecked::<u8>(0) }.unwrap_or(color::GREEN)
    }
}

impl<'a> Stat<'a> {
    pub fn id(&self) -> Option<&'a str> {
        // SAFETY: verified as a string.
        unsafe { self.0.get_unchecked(0) }
    }
    pub fn val(&self) -> i64 {
        // SAFETY: verified as i64.
        unsafe { self.0.get_unchecked(1) }.unwrap_or(0)
    }
    pub fn count(&self) -> u16 {
        // SAFETY: verified as u16.
        unsafe { self.0.get_unchecked(2) }.unwrap_or(0)
    }
    pub fn create(
        b: &mut Builder,
        id: Option<Offset<str>>,
        val: i64,
        count: u16,
    ) -> Result<Offset<Stat<'static>>, BuildError> {
        let mut t = b.table_writer::<10>(8 + 4 + 2, 8)?;
        t.add_scalar(1, val, 0);
        if let Some(id) = id {
            t.add_offset(0, id);
        }
        // `count` is the key: flatc always writes keys.
        t.add_scalar_always(2, count);
        Ok(t.finish()?.cast())
    }
}

impl<'a> Referrable<'a> {
    pub fn id(&self) -> u64 {
        // SAFETY: verified as u64.
        unsafe { self.0.get_unchecked(0) }.unwrap_or(0)
    }
}

/// The union `Any` (and `AnyUniqueAliases`, which has the same members).
#[derive(Clone, Copy, Debug)]
pub enum AnyRef<'a> {
    Monster(Monster<'a>),
    TestSimpleTableWithEnum(TestSimpleTableWithEnum<'a>),
    Example2Monster(Example2Monster<'a>),
}

pub fn verify_any(v: &mut Verifier<'_>, ty: u8, pos: usize) -> Option<Result<(), Error>> {
    match ty {
        any::MONSTER => Some(Monster::verify_at(v, pos)),
        any::TEST_SIMPLE_TABLE_WITH_ENUM => Some(TestSimpleTableWithEnum::verify_at(v, pos)),
        any::EXAMPLE2_MONSTER => Some(Example2Monster::verify_at(v, pos)),
        _ => None,
    }
}

/// `AnyAmbiguousAliases { M1: Monster, M2: Monster, M3: Monster }`.
pub fn verify_any_ambiguous(v: &mut Verifier<'_>, ty: u8, pos: usize) -> Option<Result<(), Error>> {
    match ty {
        1..=3 => Some(Monster::verify_at(v, pos)),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Monster

/// Field slots of `Monster` (field ids; a union's type field takes the id before its value).
pub mod slot {
    pub const POS: usize = 0;
    pub const MANA: usize = 1;
    pub const HP: usize = 2;
    pub const NAME: usize = 3;
    pub const INVENTORY: usize = 5;
    pub const COLOR: usize = 6;
    pub const TEST_TYPE: usize = 7;
    pub const TEST: usize = 8;
    pub const TEST4: usize = 9;
    pub const TESTARRAYOFSTRING: usize = 10;
    pub const TESTARRAYOFTABLES: usize = 11;
    pub const ENEMY: usize = 12;
    pub const TESTNESTEDFLATBUFFER: usize = 13;
    pub const TESTEMPTY: usize = 14;
    pub const TESTBOOL: usize = 15;
    pub const TESTHASHS32_FNV1: usize = 16;
    pub const TESTHASHU32_FNV1: usize = 17;
    pub const TESTHASHS64_FNV1: usize = 18;
    pub const TESTHASHU64_FNV1: usize = 19;
    pub const TESTHASHS32_FNV1A: usize = 20;
    pub const TESTHASHU32_FNV1A: usize = 21;
    pub const TESTHASHS64_FNV1A: usize = 22;
    pub const TESTHASHU64_FNV1A: usize = 23;
    pub const TESTARRAYOFBOOLS: usize = 24;
    pub const TESTF: usize = 25;
    pub const TESTF2: usize = 26;
    pub const TESTF3: usize = 27;
    pub const TESTARRAYOFSTRING2: usize = 28;
    pub const TESTARRAYOFSORTEDSTRUCT: usize = 29;
    pub const FLEX: usize = 30;
    pub const TEST5: usize = 31;
    pub const VECTOR_OF_LONGS: usize = 32;
    pub const VECTOR_OF_DOUBLES: usize = 33;
    pub const PARENT_NAMESPACE_TEST: usize = 34;
    pub const VECTOR_OF_REFERRABLES: usize = 35;
    pub const SINGLE_WEAK_REFERENCE: usize = 36;
    pub const VECTOR_OF_WEAK_REFERENCES: usize = 37;
    pub const VECTOR_OF_STRONG_REFERRABLES: usize = 38;
    pub const CO_OWNING_REFERENCE: usize = 39;
    pub const VECTOR_OF_CO_OWNING_REFERENCES: usize = 40;
    pub const NON_OWNING_REFERENCE: usize = 41;
    pub const VECTOR_OF_NON_OWNING_REFERENCES: usize = 42;
    pub const ANY_UNIQUE_TYPE: usize = 43;
    pub const ANY_UNIQUE: usize = 44;
    pub const ANY_AMBIGUOUS_TYPE: usize = 45;
    pub const ANY_AMBIGUOUS: usize = 46;
    pub const VECTOR_OF_ENUMS: usize = 47;
    pub const SIGNED_ENUM: usize = 48;
    pub const TESTREQUIREDNESTEDFLATBUFFER: usize = 49;
    pub const SCALAR_KEY_SORTED_TABLES: usize = 50;
    pub const NATIVE_INLINE: usize = 51;
    pub const LONG_ENUM_NON_ENUM_DEFAULT: usize = 52;
    pub const LONG_ENUM_NORMAL_DEFAULT: usize = 53;
    pub const NAN_DEFAULT: usize = 54;
    pub const INF_DEFAULT: usize = 55;
    pub const POSITIVE_INF_DEFAULT: usize = 56;
    pub const INFINITY_DEFAULT: usize = 57;
    pub const POSITIVE_INFINITY_DEFAULT: usize = 58;
    pub const NEGATIVE_INF_DEFAULT: usize = 59;
    pub const NEGATIVE_INFINITY_DEFAULT: usize = 60;
    pub const DOUBLE_INF_DEFAULT: usize = 61;
    /// Number of slots: the vtable holds at most `4 + 2 * COUNT` bytes.
    pub const COUNT: usize = 62;
}

fn verify_monster(v: &mut Verifier<'_>, pos: usize) -> Result<(), Error> {
    use slot::*;
    let mut t = v.table(pos)?;
    t.field::<&Vec3>(POS, "pos", false)?;
    t.field::<i16>(MANA, "mana", false)?;
    t.field::<i16>(HP, "hp", false)?;
    t.field::<&str>(NAME, "name", true)?;
    t.field::<Vector<u8>>(INVENTORY, "inventory", false)?;
    t.field::<u8>(COLOR, "color", false)?;
    t.union(TEST_TYPE, TEST, "test", false, verify_any)?;
    t.field::<Vector<&Test>>(TEST4, "test4", false)?;
    t.field::<Vector<&str>>(TESTARRAYOFSTRING, "testarrayofstring", false)?;
    t.field::<Vector<Monster>>(TESTARRAYOFTABLES, "testarrayoftables", false)?;
    t.field::<Monster>(ENEMY, "enemy", false)?;
    t.nested_root::<Monster>(TESTNESTEDFLATBUFFER, "testnestedflatbuffer", false)?;
    t.field::<Stat>(TESTEMPTY, "testempty", false)?;
    t.field::<bool>(TESTBOOL, "testbool", false)?;
    t.field::<i32>(TESTHASHS32_FNV1, "testhashs32_fnv1", false)?;
    t.field::<u32>(TESTHASHU32_FNV1, "testhashu32_fnv1", false)?;
    t.field::<i64>(TESTHASHS64_FNV1, "testhashs64_fnv1", false)?;
    t.field::<u64>(TESTHASHU64_FNV1, "testhashu64_fnv1", false)?;
    t.field::<i32>(TESTHASHS32_FNV1A, "testhashs32_fnv1a", false)?;
    t.field::<u32>(TESTHASHU32_FNV1A, "testhashu32_fnv1a", false)?;
    t.field::<i64>(TESTHASHS64_FNV1A, "testhashs64_fnv1a", false)?;
    t.field::<u64>(TESTHASHU64_FNV1A, "testhashu64_fnv1a", false)?;
    t.field::<Vector<bool>>(TESTARRAYOFBOOLS, "testarrayofbools", false)?;
    t.field::<f32>(TESTF, "testf", false)?;
    t.field::<f32>(TESTF2, "testf2", false)?;
    t.field::<f32>(TESTF3, "testf3", false)?;
    t.field::<Vector<&str>>(TESTARRAYOFSTRING2, "testarrayofstring2", false)?;
    t.field::<Vector<&Ability>>(TESTARRAYOFSORTEDSTRUCT, "testarrayofsortedstruct", false)?;
    t.field::<Vector<u8>>(FLEX, "flex", false)?;
    t.field::<Vector<&Test>>(TEST5, "test5", false)?;
    t.field::<Vector<i64>>(VECTOR_OF_LONGS, "vector_of_longs", false)?;
    t.field::<Vector<f64>>(VECTOR_OF_DOUBLES, "vector_of_doubles", false)?;
    t.field::<InParentNamespace>(PARENT_NAMESPACE_TEST, "parent_namespace_test", false)?;
    t.field::<Vector<Referrable>>(VECTOR_OF_REFERRABLES, "vector_of_referrables", false)?;
    t.field::<u64>(SINGLE_WEAK_REFERENCE, "single_weak_reference", false)?;
    t.field::<Vector<u64>>(
        VECTOR_OF_WEAK_REFERENCES,
        "vector_of_weak_references",
        false,
    )?;
    t.field::<Vector<Referrable>>(
        VECTOR_OF_STRONG_REFERRABLES,
        "vector_of_strong_referrables",
        false,
    )?;
    t.field::<u64>(CO_OWNING_REFERENCE, "co_owning_reference", false)?;
    t.field::<Vector<u64>>(
        VECTOR_OF_CO_OWNING_REFERENCES,
        "vector_of_co_owning_references",
        false,
    )?;
    t.field::<u64>(NON_OWNING_REFERENCE, "non_owning_reference", false)?;
    t.field::<Vector<u64>>(
        VECTOR_OF_NON_OWNING_REFERENCES,
        "vector_of_non_owning_references",
        false,
    )?;
    t.union(ANY_UNIQUE_TYPE, ANY_UNIQUE, "any_unique", false, verify_any)?;
    t.union(
        ANY_AMBIGUOUS_TYPE,
        ANY_AMBIGUOUS,
        "any_ambiguous",
        false,
        verify_any_ambiguous,
    )?;
    t.field::<Vector<u8>>(VECTOR_OF_ENUMS, "vector_of_enums", false)?;
    t.field::<i8>(SIGNED_ENUM, "signed_enum", false)?;
    t.nested_root::<Monster>(
        TESTREQUIREDNESTEDFLATBUFFER,
        "testrequirednestedflatbuffer",
        false,
    )?;
    t.field::<Vector<Stat>>(SCALAR_KEY_SORTED_TABLES, "scalar_key_sorted_tables", false)?;
    t.field::<&Test>(NATIVE_INLINE, "native_inline", false)?;
    t.field::<u64>(
        LONG_ENUM_NON_ENUM_DEFAULT,
        "long_enum_non_enum_default",
        false,
    )?;
    t.field::<u64>(LONG_ENUM_NORMAL_DEFAULT, "long_enum_normal_default", false)?;
    t.field::<f32>(NAN_DEFAULT, "nan_default", false)?;
    t.field::<f32>(INF_DEFAULT, "inf_default", false)?;
    t.field::<f32>(POSITIVE_INF_DEFAULT, "positive_inf_default", false)?;
    t.field::<f32>(INFINITY_DEFAULT, "infinity_default", false)?;
    t.field::<f32>(
        POSITIVE_INFINITY_DEFAULT,
        "positive_infinity_default",
        false,
    )?;
    t.field::<f32>(NEGATIVE_INF_DEFAULT, "negative_inf_default", false)?;
    t.field::<f32>(
        NEGATIVE_INFINITY_DEFAULT,
        "negative_infinity_default",
        false,
    )?;
    t.field::<f64>(DOUBLE_INF_DEFAULT, "double_inf_default", false)
}

macro_rules! scalar_getters {
    ($($name:ident: $t:ty = $default:expr, $slot:ident;)*) => {$(
        pub fn $name(&self) -> $t {
            // SAFETY: `verify_monster` checked this slot as this scalar type.
            unsafe { self.0.get_unchecked::<$t>(slot::$slot) }.unwrap_or($default)
        }
    )*};
}

macro_rules! object_getters {
    ($($name:ident: $t:ty, $slot:ident;)*) => {$(
        pub fn $name(&self) -> Option<$t> {
            // SAFETY: `verify_monster` checked this slot as this type.
            unsafe { self.0.get_unchecked::<$t>(slot::$slot) }
        }
    )*};
}

impl<'a> Monster<'a> {
    /// Whether the field in `slot` is present (the tests print only present fields, as flatc does).
    pub fn has(&self, slot: usize) -> bool {
        self.0.field_offset(slot) != 0
    }

    pub fn name(&self) -> &'a str {
        // SAFETY: `verify_monster` checked the required string `name`.
        unsafe { self.0.get_unchecked::<&str>(slot::NAME).unwrap_unchecked() }
    }

    scalar_getters! {
        mana: i16 = 150, MANA;
        hp: i16 = 100, HP;
        color: u8 = color::BLUE, COLOR;
        test_type: u8 = 0, TEST_TYPE;
        testbool: bool = false, TESTBOOL;
        testhashs32_fnv1: i32 = 0, TESTHASHS32_FNV1;
        testhashu32_fnv1: u32 = 0, TESTHASHU32_FNV1;
        testhashs64_fnv1: i64 = 0, TESTHASHS64_FNV1;
        testhashu64_fnv1: u64 = 0, TESTHASHU64_FNV1;
        testhashs32_fnv1a: i32 = 0, TESTHASHS32_FNV1A;
        testhashu32_fnv1a: u32 = 0, TESTHASHU32_FNV1A;
        testhashs64_fnv1a: i64 = 0, TESTHASHS64_FNV1A;
        testhashu64_fnv1a: u64 = 0, TESTHASHU64_FNV1A;
        testf: f32 = 3.14159, TESTF;
        testf2: f32 = 3.0, TESTF2;
        testf3: f32 = 0.0, TESTF3;
        single_weak_reference: u64 = 0, SINGLE_WEAK_REFERENCE;
        co_owning_reference: u64 = 0, CO_OWNING_REFERENCE;
        non_owning_reference: u64 = 0, NON_OWNING_REFERENCE;
        any_unique_type: u8 = 0, ANY_UNIQUE_TYPE;
        any_ambiguous_type: u8 = 0, ANY_AMBIGUOUS_TYPE;
        signed_enum: i8 = race::NONE, SIGNED_ENUM;
        long_enum_non_enum_default: u64 = 0, LONG_ENUM_NON_ENUM_DEFAULT;
        long_enum_normal_default: u64 = 2, LONG_ENUM_NORMAL_DEFAULT;
        nan_default: f32 = f32::NAN, NAN_DEFAULT;
        inf_default: f32 = f32::INFINITY, INF_DEFAULT;
        positive_inf_default: f32 = f32::INFINITY, POSITIVE_INF_DEFAULT;
        infinity_default: f32 = f32::INFINITY, INFINITY_DEFAULT;
        positive_infinity_default: f32 = f32::INFINITY, POSITIVE_INFINITY_DEFAULT;
        negative_inf_default: f32 = f32::NEG_INFINITY, NEGATIVE_INF_DEFAULT;
        negative_infinity_default: f32 = f32::NEG_INFINITY, NEGATIVE_INFINITY_DEFAULT;
        double_inf_default: f64 = f64::INFINITY, DOUBLE_INF_DEFAULT;
    }

    object_getters! {
        pos: &'a Vec3, POS;
        inventory: Vector<'a, u8>, INVENTORY;
        test4: Vector<'a, &'a Test>, TEST4;
        testarrayofstring: Vector<'a, &'a str>, TESTARRAYOFSTRING;
        testarrayoftables: Vector<'a, Monster<'a>>, TESTARRAYOFTABLES;
        enemy: Monster<'a>, ENEMY;
        testnestedflatbuffer: Vector<'a, u8>, TESTNESTEDFLATBUFFER;
        testempty: Stat<'a>, TESTEMPTY;
        testarrayofbools: Vector<'a, bool>, TESTARRAYOFBOOLS;
        testarrayofstring2: Vector<'a, &'a str>, TESTARRAYOFSTRING2;
        testarrayofsortedstruct: Vector<'a, &'a Ability>, TESTARRAYOFSORTEDSTRUCT;
        flex: Vector<'a, u8>, FLEX;
        test5: Vector<'a, &'a Test>, TEST5;
        vector_of_longs: Vector<'a, i64>, VECTOR_OF_LONGS;
        vector_of_doubles: Vector<'a, f64>, VECTOR_OF_DOUBLES;
        parent_namespace_test: InParentNamespace<'a>, PARENT_NAMESPACE_TEST;
        vector_of_referrables: Vector<'a, Referrable<'a>>, VECTOR_OF_REFERRABLES;
        vector_of_weak_references: Vector<'a, u64>, VECTOR_OF_WEAK_REFERENCES;
        vector_of_strong_referrables: Vector<'a, Referrable<'a>>, VECTOR_OF_STRONG_REFERRABLES;
        vector_of_co_owning_references: Vector<'a, u64>, VECTOR_OF_CO_OWNING_REFERENCES;
        vector_of_non_owning_references: Vector<'a, u64>, VECTOR_OF_NON_OWNING_REFERENCES;
        vector_of_enums: Vector<'a, u8>, VECTOR_OF_ENUMS;
        testrequirednestedflatbuffer: Vector<'a, u8>, TESTREQUIREDNESTEDFLATBUFFER;
        scalar_key_sorted_tables: Vector<'a, Stat<'a>>, SCALAR_KEY_SORTED_TABLES;
        native_inline: &'a Test, NATIVE_INLINE;
    }

    fn union_value(&self, ty: u8, value_slot: usize) -> Option<AnyRef<'a>> {
        // SAFETY: `verify_monster` checked the value in `value_slot` as the member its type field
        // names (`verify_any`), and `ty` was read from that type field.
        unsafe {
            match ty {
                any::MONSTER => self.0.get_unchecked(value_slot).map(AnyRef::Monster),
                any::TEST_SIMPLE_TABLE_WITH_ENUM => self
                    .0
                    .get_unchecked(value_slot)
                    .map(AnyRef::TestSimpleTableWithEnum),
                any::EXAMPLE2_MONSTER => self
                    .0
                    .get_unchecked(value_slot)
                    .map(AnyRef::Example2Monster),
                _ => None,
            }
        }
    }

    pub fn test(&self) -> Option<AnyRef<'a>> {
        self.union_value(self.test_type(), slot::TEST)
    }

    pub fn any_unique(&self) -> Option<AnyRef<'a>> {
        self.union_value(self.any_unique_type(), slot::ANY_UNIQUE)
    }

    /// All three members of `AnyAmbiguousAliases` are `Monster`.
    pub fn any_ambiguous(&self) -> Option<Monster<'a>> {
        match self.any_ambiguous_type() {
            // SAFETY: `verify_any_ambiguous` checked the value as a Monster for types 1..=3.
            1..=3 => unsafe { self.0.get_unchecked(slot::ANY_AMBIGUOUS) },
            _ => None,
        }
    }

    pub fn testnestedflatbuffer_nested_root(&self) -> Option<Monster<'a>> {
        let bytes = self.testnestedflatbuffer()?;
        // SAFETY: `verify_monster` checked the bytes as a nested buffer with a Monster root.
        Some(unsafe { flatforge::root_unchecked::<Monster>(bytes.as_slice(), false) })
    }

    pub fn testrequirednestedflatbuffer_nested_root(&self) -> Option<Monster<'a>> {
        let bytes = self.testrequirednestedflatbuffer()?;
        // SAFETY: as above.
        Some(unsafe { flatforge::root_unchecked::<Monster>(bytes.as_slice(), false) })
    }
}

/// The fields of a `Monster` to write (a subset of the schema that covers every kind of field).
#[derive(Default)]
pub struct MonsterArgs<'x> {
    pub pos: Option<&'x Vec3>,
    pub mana: i16,
    pub hp: i16,
    pub name: Option<Offset<str>>,
    pub inventory: Option<Offset<[u8]>>,
    pub color: u8,
    pub test_type: u8,
    pub test: Option<Offset<()>>,
    pub test4: Option<Offset<[Test]>>,
    pub testarrayofstring: Option<Offset<[Offset<str>]>>,
    pub testarrayoftables: Option<Offset<[Offset<Monster<'static>>]>>,
    pub enemy: Option<Offset<Monster<'static>>>,
    pub testnestedflatbuffer: Option<Offset<[u8]>>,
    pub testbool: bool,
    pub testhashs32_fnv1: i32,
    pub testhashu32_fnv1: u32,
    pub testhashs64_fnv1: i64,
    pub testhashu64_fnv1: u64,
    pub testhashs32_fnv1a: i32,
    pub testhashu32_fnv1a: u32,
    pub testhashs64_fnv1a: i64,
    pub testhashu64_fnv1a: u64,
    pub testarrayofbools: Option<Offset<[bool]>>,
    pub testf: f32,
    pub testarrayofsortedstruct: Option<Offset<[Ability]>>,
    pub test5: Option<Offset<[Test]>>,
    pub vector_of_longs: Option<Offset<[i64]>>,
    pub vector_of_doubles: Option<Offset<[f64]>>,
    pub vector_of_enums: Option<Offset<[u8]>>,
    pub signed_enum: i8,
    pub scalar_key_sorted_tables: Option<Offset<[Offset<Stat<'static>>]>>,
    pub native_inline: Option<&'x Test>,
    pub long_enum_normal_default: u64,
}

impl MonsterArgs<'_> {
    /// The schema defaults (what generated `Default` would give).
    pub fn defaults() -> Self {
        MonsterArgs {
            mana: 150,
            hp: 100,
            color: color::BLUE,
            testf: 3.14159,
            signed_enum: race::NONE,
            long_enum_normal_default: 2,
            ..Default::default()
        }
    }
}

/// Largest inline size of the fields `create_monster` may write.
const MONSTER_INLINE: usize = 32 + 8 * 5 + 4 * 17 + 4 * 5 + 4 + 2 * 2 + 6;

/// Writes a Monster in one shot, fields largest first, as generated code does.
pub fn create_monster(
    b: &mut Builder,
    a: &MonsterArgs<'_>,
) -> Result<Offset<Monster<'static>>, BuildError> {
    use slot::*;
    let mut t = b.table_writer::<{ 4 + 2 * COUNT }>(MONSTER_INLINE, 8)?;
    if let Some(pos) = a.pos {
        t.add_struct(POS, pos);
    }
    t.add_scalar(TESTHASHS64_FNV1, a.testhashs64_fnv1, 0);
    t.add_scalar(TESTHASHU64_FNV1, a.testhashu64_fnv1, 0);
    t.add_scalar(TESTHASHS64_FNV1A, a.testhashs64_fnv1a, 0);
    t.add_scalar(TESTHASHU64_FNV1A, a.testhashu64_fnv1a, 0);
    t.add_scalar(LONG_ENUM_NORMAL_DEFAULT, a.long_enum_normal_default, 2);
    let offsets: [(usize, Option<Offset<()>>); 17] = [
        (NAME, a.name.map(Offset::cast)),
        (INVENTORY, a.inventory.map(Offset::cast)),
        (TEST, a.test),
        (TEST4, a.test4.map(Offset::cast)),
        (TESTARRAYOFSTRING, a.testarrayofstring.map(Offset::cast)),
        (TESTARRAYOFTABLES, a.testarrayoftables.map(Offset::cast)),
        (ENEMY, a.enemy.map(Offset::cast)),
        (
            TESTNESTEDFLATBUFFER,
            a.testnestedflatbuffer.map(Offset::cast),
        ),
        (TESTARRAYOFBOOLS, a.testarrayofbools.map(Offset::cast)),
        (
            TESTARRAYOFSORTEDSTRUCT,
            a.testarrayofsortedstruct.map(Offset::cast),
        ),
        (TEST5, a.test5.map(Offset::cast)),
        (VECTOR_OF_LONGS, a.vector_of_longs.map(Offset::cast)),
        (VECTOR_OF_DOUBLES, a.vector_of_doubles.map(Offset::cast)),
        (VECTOR_OF_ENUMS, a.vector_of_enums.map(Offset::cast)),
        (
            SCALAR_KEY_SORTED_TABLES,
            a.scalar_key_sorted_tables.map(Offset::cast),
        ),
        (PARENT_NAMESPACE_TEST, None),
        (TESTEMPTY, None),
    ];
    for (slot, off) in offsets {
        if let Some(off) = off {
            t.add_offset(slot, off);
        }
    }
    t.add_scalar(TESTHASHS32_FNV1, a.testhashs32_fnv1, 0);
    t.add_scalar(TESTHASHU32_FNV1, a.testhashu32_fnv1, 0);
    t.add_scalar(TESTHASHS32_FNV1A, a.testhashs32_fnv1a, 0);
    t.add_scalar(TESTHASHU32_FNV1A, a.testhashu32_fnv1a, 0);
    t.add_scalar(TESTF, a.testf, 3.14159);
    if let Some(n) = a.native_inline {
        t.add_struct(NATIVE_INLINE, n);
    }
    t.add_scalar(MANA, a.mana, 150);
    t.add_scalar(HP, a.hp, 100);
    t.add_scalar(COLOR, a.color, color::BLUE);
    t.add_scalar(TEST_TYPE, a.test_type, 0);
    t.add_scalar(TESTBOOL, a.testbool, false);
    t.add_scalar(SIGNED_ENUM, a.signed_enum, race::NONE);
    Ok(t.finish()?.cast())
}

/// Reads every field of `m` (recursively) and folds what it read into a number, so that a test or
/// fuzz target touches every byte a reader could.
pub fn read_all(m: Monster<'_>) -> u64 {
    fn mix(h: &mut u64, x: u64) {
        *h = (*h ^ x).wrapping_mul(0x100_0000_01b3);
    }
    fn union(h: &mut u64, u: Option<AnyRef<'_>>) {
        match u {
            Some(AnyRef::Monster(m)) => mix(h, read_all(m)),
            Some(AnyRef::TestSimpleTableWithEnum(t)) => mix(h, t.color().into()),
            Some(AnyRef::Example2Monster(_)) => mix(h, 3),
            None => mix(h, 0),
        }
    }
    let mut h = 0xcbf2_9ce4_8422_2325;
    let h = &mut h;
    if let Some(p) = m.pos() {
        mix(h, p.x().to_bits().into());
        mix(h, p.y().to_bits().into());
        mix(h, p.z().to_bits().into());
        mix(h, p.test1().to_bits());
        mix(h, p.test2().into());
        mix(h, p.test3().a() as u64 ^ p.test3().b() as u64);
    }
    mix(h, m.mana() as u64);
    mix(h, m.hp() as u64);
    mix(h, m.name().len() as u64);
    mix(h, m.name().bytes().map(u64::from).sum());
    if let Some(v) = m.inventory() {
        mix(h, v.iter().map(u64::from).sum());
    }
    mix(h, m.color().into());
    union(h, m.test());
    for v in [m.test4(), m.test5()].into_iter().flatten() {
        for t in v.iter() {
            mix(h, (t.a() as u64).wrapping_add(t.b() as u64));
        }
        mix(h, v.as_slice().len() as u64);
    }
    for v in [m.testarrayofstring(), m.testarrayofstring2()]
        .into_iter()
        .flatten()
    {
        for s in v.iter() {
            mix(h, s.len() as u64);
        }
    }
    if let Some(v) = m.testarrayoftables() {
        for t in v.iter() {
            mix(h, read_all(t));
        }
    }
    if let Some(e) = m.enemy() {
        mix(h, read_all(e));
    }
    if let Some(n) = m.testnestedflatbuffer_nested_root() {
        mix(h, read_all(n));
    }
    if let Some(n) = m.testrequirednestedflatbuffer_nested_root() {
        mix(h, read_all(n));
    }
    if let Some(s) = m.testempty() {
        mix(
            h,
            s.id().map_or(0, |s| s.len() as u64) ^ s.val() as u64 ^ u64::from(s.count()),
        );
    }
    mix(h, m.testbool().into());
    mix(
        h,
        m.testhashs32_fnv1() as u64 ^ u64::from(m.testhashu32_fnv1()),
    );
    mix(h, m.testhashs64_fnv1() as u64 ^ m.testhashu64_fnv1());
    mix(
        h,
        m.testhashs32_fnv1a() as u64 ^ u64::from(m.testhashu32_fnv1a()),
    );
    mix(h, m.testhashs64_fnv1a() as u64 ^ m.testhashu64_fnv1a());
    if let Some(v) = m.testarrayofbools() {
        mix(h, v.iter().filter(|&b| b).count() as u64);
    }
    mix(h, m.testf().to_bits().into());
    mix(h, m.testf2().to_bits().into());
    mix(h, m.testf3().to_bits().into());
    if let Some(v) = m.testarrayofsortedstruct() {
        for a in v.iter() {
            mix(h, u64::from(a.id()) ^ u64::from(a.distance()));
        }
    }
    if let Some(v) = m.flex() {
        mix(h, v.len() as u64);
    }
    if let Some(v) = m.vector_of_longs() {
        mix(h, v.iter().fold(0, |a, x| a ^ x as u64));
    }
    if let Some(v) = m.vector_of_doubles() {
        mix(h, v.iter().fold(0, |a, x| a ^ x.to_bits()));
    }
    if m.parent_namespace_test().is_some() {
        mix(h, 34);
    }
    for v in [m.vector_of_referrables(), m.vector_of_strong_referrables()]
        .into_iter()
        .flatten()
    {
        for r in v.iter() {
            mix(h, r.id());
        }
    }
    mix(
        h,
        m.single_weak_reference() ^ m.co_owning_reference() ^ m.non_owning_reference(),
    );
    for v in [
        m.vector_of_weak_references(),
        m.vector_of_co_owning_references(),
        m.vector_of_non_owning_references(),
    ]
    .into_iter()
    .flatten()
    {
        mix(h, v.iter().fold(0, |a, x| a ^ x));
        if let Some(s) = v.as_native_slice() {
            mix(h, s.len() as u64);
        }
    }
    union(h, m.any_unique());
    if let Some(a) = m.any_ambiguous() {
        mix(h, read_all(a));
    }
    if let Some(v) = m.vector_of_enums() {
        mix(h, v.as_slice().iter().map(|&x| u64::from(x)).sum());
    }
    mix(h, m.signed_enum() as u64);
    if let Some(v) = m.scalar_key_sorted_tables() {
        for s in v.iter() {
            mix(
                h,
                s.id().map_or(0, |s| s.len() as u64) ^ s.val() as u64 ^ u64::from(s.count()),
            );
        }
    }
    if let Some(t) = m.native_inline() {
        mix(h, t.a() as u64 ^ t.b() as u64);
    }
    mix(
        h,
        m.long_enum_non_enum_default() ^ m.long_enum_normal_default(),
    );
    for f in [
        m.nan_default(),
        m.inf_default(),
        m.positive_inf_default(),
        m.infinity_default(),
        m.positive_infinity_default(),
        m.negative_inf_default(),
        m.negative_infinity_default(),
    ] {
        mix(h, f.to_bits().into());
    }
    mix(h, m.double_inf_default().to_bits());
    *h
}
