//! A builder missing required fields names each of them in the error.
use flatforge_codegen_tests::flatbuffers_tests_required_strings::required_strings::Foo;

fn main() {
    let mut b = flatforge::Builder::new();
    let _ = Foo::builder(&mut b).finish();
}
