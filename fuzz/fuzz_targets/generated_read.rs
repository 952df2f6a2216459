//! Feeds arbitrary bytes to the verifiers `flatforge-codegen` generates (monster_test's Monster,
//! union_vector's Movie, arrays_test's ArrayTable, test_64bit's RootTable with 64-bit offsets,
//! union_underlying_type_test's D with a union of `int` types), plain and size-prefixed, and reads every field
//! of whatever verifies: through `Debug` (every accessor, recursively) and the object API's
//! `unpack`, whose result is packed again and must verify and unpack to the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[allow(unreachable_pub, dead_code, clippy::all)]
mod monster {
    include!(concat!(env!("OUT_DIR"), "/monster_test_generated.rs"));
}
#[allow(unreachable_pub, dead_code, clippy::all)]
mod movie {
    include!(concat!(env!("OUT_DIR"), "/union_vector_generated.rs"));
}
#[allow(unreachable_pub, dead_code, clippy::all)]
mod arrays {
    include!(concat!(env!("OUT_DIR"), "/arrays_test_generated.rs"));
}
#[allow(unreachable_pub, dead_code, clippy::all)]
mod far {
    include!(concat!(env!("OUT_DIR"), "/test_64bit_generated.rs"));
}
#[allow(unreachable_pub, dead_code, clippy::all)]
mod wide {
    include!(concat!(
        env!("OUT_DIR"),
        "/union_underlying_type_test_generated.rs"
    ));
}

macro_rules! exercise {
    ($data:expr, $view:ty) => {
        for root in [<$view>::root, <$view>::size_prefixed_root] {
            if let Ok(v) = root($data) {
                std::hint::black_box(format!("{v:?}"));
                let owned = v.unpack();
                let mut b = flatforge::Builder::new();
                let r = owned.pack(&mut b).expect("a verified buffer packs again");
                let bytes = b.finish(r, None).expect("finish");
                let again = <$view>::root(bytes).expect("our own buffer verifies");
                assert_eq!(format!("{:?}", again.unpack()), format!("{owned:?}"));
            }
        }
    };
}

fuzz_target!(|data: &[u8]| {
    exercise!(data, monster::my_game::example::Monster);
    exercise!(data, movie::Movie);
    exercise!(data, arrays::my_game::example::ArrayTable);
    exercise!(data, far::RootTable);
    exercise!(data, wide::union_underlying_type::D);
});
