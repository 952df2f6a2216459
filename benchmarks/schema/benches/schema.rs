//! Parse + resolve (+ layout, + model) of schemas from in-memory text, and Rust code generation.
//!
//! Each group has one function, `flatforge`, as the report expects of every `<workload>/<operation>`
//! group.
//!
//! * `schema/parse_small_monster`: the MoonBit workload
//!   `table Monster { name:string; hp:short = 100; mana:short = 50; }` (MoonBit publishes 0.55 µs
//!   for its schema_parse).
//! * `schema/parse_monster_test`: flatc's monster_test.fbs with its two
//!   includes, all in memory.
//! * `schema/codegen_small_monster`: the MoonBit code_generate workload (it publishes
//!   7.3 µs): the Rust code for the same small schema, from the already compiled model, formatted,
//!   with the options `flatforge rust` uses by default (object API, serde derives behind the
//!   feature `serde`).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use flatforge_bench_schema::{
    monster_test_compiler, small_monster_compiled, MONSTER_SMALL, MONSTER_TEST_PATH,
};

fn small(c: &mut Criterion) {
    let mut group = c.benchmark_group("schema/parse_small_monster");
    group.bench_function("flatforge", |b| {
        b.iter(|| {
            let schema = flatforge_schema::compile_str("monster.fbs", black_box(MONSTER_SMALL))
                .expect("valid");
            black_box(schema)
        })
    });
    group.finish();
}

fn monster_test(c: &mut Criterion) {
    let compiler = monster_test_compiler();
    compiler
        .compile(MONSTER_TEST_PATH)
        .expect("monster_test compiles");
    let mut group = c.benchmark_group("schema/parse_monster_test");
    group.bench_function("flatforge", |b| {
        b.iter(|| {
            black_box(
                compiler
                    .compile(black_box(MONSTER_TEST_PATH))
                    .expect("valid"),
            )
        })
    });
    group.finish();
}

fn code_generate(c: &mut Criterion) {
    let compiled = small_monster_compiled();
    let options = flatforge_codegen::Options::new();
    let mut group = c.benchmark_group("schema/codegen_small_monster");
    group.bench_function("flatforge", |b| {
        b.iter(|| {
            let file = flatforge_codegen::generate(
                black_box(&compiled.schema),
                black_box(&compiled.sources),
                &options,
            )
            .expect("generates");
            black_box(file)
        })
    });
    group.finish();
}

criterion_group!(benches, small, monster_test, code_generate);
criterion_main!(benches);
