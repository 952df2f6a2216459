//! Runs one benchmark workload N times in a loop, for instruction counts with callgrind:
//!
//! ```text
//! cargo build --release -p flatforge-bench-schema --example compile_loop
//! valgrind --tool=callgrind --dump-instr=no target/release/examples/compile_loop small 2001
//! valgrind --tool=callgrind --dump-instr=no target/release/examples/compile_loop small 1001
//! ```
//!
//! The difference of the two totals, divided by 1000, is the cost of one run. (Subtracting a run
//! of N = 1 instead is not exact: what the program does once moves by thousands of instructions
//! from one build to the next.) Counts compare builds only roughly: the same code built in another
//! directory lays out differently, which moves monster_test's count by up to about 1.5%. The workloads are
//! `small` and `monster_test` (compilations, as the `schema/parse_*` benchmarks), `text` (the
//! schema in the environment variable `SCHEMA`, compiled from memory as `small` is) and
//! `codegen` (Rust code for the small schema, compiled once, as `schema/codegen_small_monster`).

use std::hint::black_box;

use flatforge_bench_schema::{
    monster_test_compiler, small_monster_compiled, MONSTER_SMALL, MONSTER_TEST_PATH,
};

fn main() {
    let mut args = std::env::args().skip(1);
    let workload = args.next().unwrap_or_else(|| "small".to_string());
    let n: usize = args
        .next()
        .map(|s| s.parse().expect("N must be a number"))
        .unwrap_or(1000);
    match workload.as_str() {
        "small" => {
            for _ in 0..n {
                let schema = flatforge_schema::compile_str("monster.fbs", black_box(MONSTER_SMALL))
                    .expect("valid");
                black_box(schema);
            }
        }
        "text" => {
            let text = std::env::var("SCHEMA").expect("the `text` workload compiles $SCHEMA");
            for _ in 0..n {
                let schema = flatforge_schema::compile_str("monster.fbs", black_box(&text))
                    .unwrap_or_else(|e| panic!("$SCHEMA does not compile:\n{}", e.render(false)));
                black_box(schema);
            }
        }
        "monster_test" => {
            let compiler = monster_test_compiler();
            for _ in 0..n {
                black_box(
                    compiler
                        .compile(black_box(MONSTER_TEST_PATH))
                        .expect("valid"),
                );
            }
        }
        "codegen" => {
            let compiled = small_monster_compiled();
            let options = flatforge_codegen::Options::new();
            for _ in 0..n {
                black_box(
                    flatforge_codegen::generate(
                        black_box(&compiled.schema),
                        &compiled.sources,
                        &options,
                    )
                    .expect("generates"),
                );
            }
        }
        other => panic!("unknown workload `{other}` (small, text, monster_test or codegen)"),
    }
}
