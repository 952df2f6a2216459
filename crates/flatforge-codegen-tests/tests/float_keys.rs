//! Float keys (the codegen snapshot `tables.fbs`: `struct Reading { t: double (key) }` and
//! `table Sample { at: float (key) }`): generated `sort_by_key` puts NaN keys after every number
//! (sorting must not panic on them), and `lookup_by_key` finds numbers without stopping at a NaN.

use flatforge::{Builder, Vector};
use flatforge_codegen_tests as g;
use g::snapshot_tables::game;

const KEYS: [f32; 9] = [
    3.5,
    f32::NAN,
    -1.0,
    0.0,
    f32::NAN,
    8.25,
    -7.5,
    f32::NAN,
    2.0,
];

#[test]
fn tables_with_nan_keys_sort_last_and_numbers_are_found() {
    let mut b = Builder::new();
    let mut offsets = Vec::new();
    for (n, &at) in KEYS.iter().enumerate() {
        let args = game::SampleArgs { at, n: n as i32 };
        offsets.push(game::Sample::create(&mut b, &args).unwrap());
    }
    game::Sample::sort_by_key(&b, &mut offsets);
    let v = b.create_vector_of_offsets(&offsets).unwrap();
    let bytes = b.finish(v, None).unwrap();
    let v: Vector<game::Sample> = flatforge::root(bytes).unwrap();
    let keys: Vec<f32> = v.iter().map(|s| s.at()).collect();
    assert_eq!(&keys[..6], [-7.5, -1.0, 0.0, 2.0, 3.5, 8.25]);
    assert!(keys[6..].iter().all(|k| k.is_nan()));
    for (n, &at) in KEYS.iter().enumerate().filter(|(_, k)| !k.is_nan()) {
        let found = game::Sample::lookup_by_key(v, at).map(|s| s.n());
        assert_eq!(found, Some(n as i32), "key {at}");
    }
    for missing in [-100.0, 1.0, 100.0, f32::INFINITY] {
        assert!(
            game::Sample::lookup_by_key(v, missing).is_none(),
            "key {missing}"
        );
    }
    assert!(game::Sample::lookup_by_key(v, f32::NAN).is_some_and(|s| s.at().is_nan()));
}

#[test]
fn structs_with_nan_keys_are_searched_past_them() {
    let mut readings: Vec<game::Reading> = KEYS
        .iter()
        .enumerate()
        .map(|(n, &t)| game::Reading::new(f64::from(t), n as i32))
        .collect();
    readings.sort_by(|a, b| flatforge::key_cmp(&a.t(), &b.t()));
    let mut b = Builder::new();
    let v = b.create_vector_of_structs(&readings).unwrap();
    let bytes = b.finish(v, None).unwrap();
    let v: Vector<&game::Reading> = flatforge::root(bytes).unwrap();
    for (n, &t) in KEYS.iter().enumerate().filter(|(_, k)| !k.is_nan()) {
        let found = game::Reading::lookup_by_key(v, f64::from(t)).map(|r| r.v());
        assert_eq!(found, Some(n as i32), "key {t}");
    }
    assert!(game::Reading::lookup_by_key(v, 4.0).is_none());
}
