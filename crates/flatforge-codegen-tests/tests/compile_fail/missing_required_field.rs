//! `finish` cannot be called until every required field is set; the error names the missing one.
use flatforge_codegen_tests::flatbuffers_tests_required_strings::required_strings::Foo;

fn main() {
    let mut b = flatforge::Builder::new();
    let a = b.create_string("a").unwrap();
    // `str_b` is required too: the error says so.
    let _ = Foo::builder(&mut b).str_a(a).finish();
}
