//! Hostile input: every truncation and many single-byte changes of valid Monster buffers go through
//! the verifier, and whatever verifies is read field by field. Nothing may panic (and under Miri
//! nothing may read out of bounds). Regression tests for fuzzer findings live here too.

mod common;

use common::monster::*;
use flatforge::{Builder, ErrorKind, Table, Vector, VerifierOptions};
use flatforge_testkit::testdata;

/// Verifies `bytes` as a Monster in the ways a reader might and reads whatever verifies.
fn exercise(bytes: &[u8]) -> bool {
    let mut any = false;
    for size_prefixed in [false, true] {
        let opts = VerifierOptions::default().with_size_prefixed(size_prefixed);
        if let Ok(m) = flatforge::root_with_options::<Monster>(bytes, &opts) {
            std::hint::black_box(read_all(m));
            any = true;
        }
    }
    if let Ok(t) = flatforge::root::<Table>(bytes) {
        for slot in [
            slot::NAME,
            slot::INVENTORY,
            slot::TESTARRAYOFTABLES,
            slot::ENEMY,
        ] {
            std::hint::black_box(t.get::<&str>(slot).ok());
            std::hint::black_box(t.get::<Vector<u8>>(slot).ok());
            std::hint::black_box(t.get::<Vector<Table>>(slot).ok());
            std::hint::black_box(t.get::<Table>(slot).ok());
        }
    }
    any
}

/// A Monster using every kind of field the verifier handles: nested flatbuffer, unions, vectors of
/// tables, structs and strings, a shared string, a table referenced twice.
fn rich_monster() -> Vec<u8> {
    let mut b = Builder::new();
    let nested = b.start_nested().unwrap();
    let inner_name = b.create_string("nested").unwrap();
    let inner = create_monster(
        &mut b,
        &MonsterArgs {
            name: Some(inner_name),
            hp: 7,
            ..MonsterArgs::defaults()
        },
    )
    .unwrap();
    let nested = b.end_nested(nested, inner, Some(b"MONS")).unwrap();
    let fred = b.create_shared_string("Fred").unwrap();
    let kid = create_monster(
        &mut b,
        &MonsterArgs {
            name: Some(fred),
            ..MonsterArgs::defaults()
        },
    )
    .unwrap();
    let kids = b.create_vector_of_offsets(&[kid, kid]).unwrap();
    let strings = [
        b.create_string("a").unwrap(),
        b.create_shared_string("Fred").unwrap(),
    ];
    let strings = b.create_vector_of_offsets(&strings).unwrap();
    let inventory = b.create_vector(&[9u8; 5]).unwrap();
    let test4 = b
        .create_vector_of_structs(&[Test::new(1, 2), Test::new(3, 4)])
        .unwrap();
    let longs = b.create_vector(&[i64::MIN, 0, i64::MAX]).unwrap();
    let name = b.create_string("rich").unwrap();
    let pos = Vec3::new(1.0, 2.0, 3.0, 4.0, color::RED, Test::new(5, 6));
    let root = create_monster(
        &mut b,
        &MonsterArgs {
            pos: Some(&pos),
            name: Some(name),
            inventory: Some(inventory),
            test_type: any::MONSTER,
            test: Some(kid.cast()),
            test4: Some(test4),
            testarrayofstring: Some(strings),
            testarrayoftables: Some(kids),
            enemy: Some(kid),
            testnestedflatbuffer: Some(nested),
            vector_of_longs: Some(longs),
            testbool: true,
            ..MonsterArgs::defaults()
        },
    )
    .unwrap();
    b.finish(root, Some(b"MONS")).unwrap().to_vec()
}

fn originals() -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = ["monsterdata_test.mon", "monsterdata_go_wire.mon.sp"]
        .iter()
        .map(|f| {
            let path = testdata(&format!("flatbuffers/tests/{f}"));
            (f.to_string(), std::fs::read(path).unwrap())
        })
        .collect();
    v.push(("rich".into(), rich_monster()));
    v
}

#[test]
fn the_originals_verify_and_read() {
    for (name, bytes) in originals() {
        assert!(exercise(&bytes), "{name} should verify");
    }
    let rich = rich_monster();
    let m: Monster = flatforge::root(&rich).unwrap();
    let nested = m.testnestedflatbuffer_nested_root().unwrap();
    assert_eq!((nested.name(), nested.hp()), ("nested", 7));
    assert_eq!(m.testarrayoftables().unwrap().len(), 2);
}

#[test]
fn every_truncation_is_rejected_or_read_safely() {
    for (name, bytes) in originals() {
        for len in 0..bytes.len() {
            exercise(&bytes[..len]);
        }
        // Cutting off half always loses data that the root reaches.
        let half = &bytes[..bytes.len() / 2];
        assert!(flatforge::root::<Monster>(half).is_err(), "{name}");
    }
}

#[test]
fn every_single_byte_change_is_rejected_or_read_safely() {
    let step = if cfg!(miri) { 7 } else { 1 };
    for (_, bytes) in originals() {
        let mut copy = bytes.clone();
        for i in (0..bytes.len()).step_by(step) {
            let b = bytes[i];
            for new in [
                0x00,
                0xFF,
                0x80,
                b ^ 0x01,
                b ^ 0x04,
                b ^ 0x40,
                b.wrapping_add(8),
            ] {
                copy[i] = new;
                exercise(&copy);
            }
            copy[i] = b;
        }
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "a million table visits: too slow under Miri, and about budgets, not memory"
)]
fn dag_amplification_hits_the_budgets() {
    // One table referenced from a vector 1000 times, 100 levels deep through `enemy` chains, would
    // be visited 1000 * 100 times; the table budget stops it.
    let mut b = Builder::new();
    let name = b.create_string("x").unwrap();
    let mut m = create_monster(
        &mut b,
        &MonsterArgs {
            name: Some(name),
            ..MonsterArgs::defaults()
        },
    )
    .unwrap();
    for _ in 0..8 {
        let kids = b.create_vector_of_offsets(&[m; 100]).unwrap();
        m = create_monster(
            &mut b,
            &MonsterArgs {
                name: Some(name),
                testarrayoftables: Some(kids),
                ..MonsterArgs::defaults()
            },
        )
        .unwrap();
    }
    let bytes = b.finish(m, None).unwrap().to_vec();
    assert!(bytes.len() < 10_000, "a small buffer: {}", bytes.len());
    let err = flatforge::root::<Monster>(&bytes).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::TableLimitExceeded { limit: 1_000_000 }
        ),
        "{err}"
    );
    let opts = VerifierOptions::default()
        .with_max_tables(u32::MAX)
        .with_max_apparent_size(1 << 20);
    let err = flatforge::root_with_options::<Monster>(&bytes, &opts).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::ApparentSizeLimitExceeded { .. }),
        "{err}"
    );
}

#[test]
fn deep_nesting_hits_the_depth_limit() {
    let mut b = Builder::new();
    let name = b.create_string("x").unwrap();
    let mut m = create_monster(
        &mut b,
        &MonsterArgs {
            name: Some(name),
            ..MonsterArgs::defaults()
        },
    )
    .unwrap();
    for _ in 0..100 {
        m = create_monster(
            &mut b,
            &MonsterArgs {
                name: Some(name),
                enemy: Some(m),
                ..MonsterArgs::defaults()
            },
        )
        .unwrap();
    }
    let bytes = b.finish(m, None).unwrap().to_vec();
    let err = flatforge::root::<Monster>(&bytes).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::DepthLimitExceeded { limit: 64 }),
        "{err}"
    );
    assert!(err.path_string().starts_with("Monster.enemy.enemy.enemy"));
    let opts = VerifierOptions::default().with_max_depth(200);
    let m: Monster = flatforge::root_with_options(&bytes, &opts).unwrap();
    read_all(m);
}

/// Found by `verify_monster`: a table whose signed vtable offset puts the vtable before the start
/// of the buffer. The bounds check added 4 to the wrapped (negative) position, which overflowed:
/// a panic with overflow checks, and in release an accepted vtable far outside the buffer.
#[test]
fn regression_vtable_before_buffer_start_overflowed_the_bounds_check() {
    let bytes: [u8; 80] = [
        0x24, 0x00, 0x00, 0x00, 0x4d, 0x4f, 0x4e, 0x53, 0x1c, 0x00, 0x10, 0x00, 0x00, 0x00, 0xc1,
        0xff, 0xff, 0xff, 0xf8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x08, 0x4d, 0x0c, 0x00, 0x28, 0x00, 0x00, 0x00, 0x26, 0x01, 0x00, 0x02, 0xe8,
        0x00, 0x00, 0x00, 0x04, 0x00, 0x26, 0x00, 0x06, 0x00, 0x00, 0x00, 0xc0, 0x10, 0x00, 0x00,
        0x00, 0x6c, 0x00, 0x5b, 0x00, 0x00, 0x4c, 0x1e, 0x00, 0x28, 0x00, 0x18, 0x00, 0xe3, 0x8a,
        0x80, 0xe3, 0x8a, 0x81, 0x00,
    ];
    exercise(&bytes);
    let err = flatforge::root::<Monster>(&bytes).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::OffsetOutOfBounds { .. }),
        "{err}"
    );
    // The same shape built directly: soffset = pos + 4 puts the vtable at -4.
    let mut buf = vec![0u8; 16];
    buf[0..4].copy_from_slice(&8u32.to_le_bytes());
    buf[8..12].copy_from_slice(&12i32.to_le_bytes());
    let err = flatforge::root::<Table>(&buf).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::OffsetOutOfBounds { value: 12 });
    assert_eq!(err.offset(), 8);
}

/// Public verifier primitives take positions and sizes from callers (schema walkers); values near
/// `usize::MAX` must be rejected, not wrap around the bounds checks.
#[test]
fn huge_positions_and_sizes_from_callers_are_rejected() {
    let bytes = [4u8, 0, 0, 0, 0, 0, 0, 0];
    let mut v = flatforge::Verifier::new(&bytes, &VerifierOptions::default());
    for pos in [usize::MAX, usize::MAX - 1, usize::MAX - 3, usize::MAX - 4] {
        assert!(v.offset(pos).is_err());
        assert!(v.string(pos).is_err());
        assert!(v.table(pos).is_err());
        assert!(v.vector_raw(pos, 1, 1).is_err());
        assert!(v.check_range(flatforge::Object::Inline, pos, 4).is_err());
    }
    assert!(v
        .check_range(flatforge::Object::Inline, 4, usize::MAX)
        .is_err());
    // A vector whose element size times its length wraps 64 bits.
    let bytes = [u8::MAX, u8::MAX, u8::MAX, u8::MAX, 0, 0, 0, 0];
    let mut v = flatforge::Verifier::new(&bytes, &VerifierOptions::default());
    assert!(v.vector_raw(0, 1 << 33, 1).is_err());
    assert!(v.vector_raw(0, usize::MAX, 1).is_err());
}
