//! `finish` does not exist until every required field is set.
use flatforge_codegen_tests::flatbuffers_tests_required_strings::required_strings::Foo;

fn main() {
    let mut b = flatforge::Builder::new();
    let a = b.create_string("a").unwrap();
    // `str_b` is required too: no `finish` for this builder state.
    let _ = Foo::builder(&mut b).str_a(a).finish();
}
