//! Parse + resolve (+ layout, + model) of schemas from in-memory text.
//!
//! * `small`: the MoonBit workload `table Monster { name:string; hp:short = 100; mana:short = 50; }`
//!   (MoonBit publishes 0.55 µs for its schema_parse).
//! * `monster_test`: flatc's monster_test.fbs with its two includes, all in memory.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use flatforge_bench_schema::{monster_test_compiler, MONSTER_SMALL, MONSTER_TEST_PATH};

fn small(c: &mut Criterion) {
    c.bench_function("schema/parse_resolve/small_monster", |b| {
        b.iter(|| {
            let schema = flatforge_schema::compile_str("monster.fbs", black_box(MONSTER_SMALL))
                .expect("valid");
            black_box(schema)
        })
    });
}

fn monster_test(c: &mut Criterion) {
    let compiler = monster_test_compiler();
    compiler
        .compile(MONSTER_TEST_PATH)
        .expect("monster_test compiles");
    c.bench_function("schema/parse_resolve/monster_test_with_includes", |b| {
        b.iter(|| {
            black_box(
                compiler
                    .compile(black_box(MONSTER_TEST_PATH))
                    .expect("valid"),
            )
        })
    });
}

criterion_group!(benches, small, monster_test);
criterion_main!(benches);
