//! What the generated API must reject at compile time (trybuild; `TRYBUILD=overwrite` refreshes
//! the expected messages).

#[test]
fn compile_fail() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/compile_fail/*.rs");
}
