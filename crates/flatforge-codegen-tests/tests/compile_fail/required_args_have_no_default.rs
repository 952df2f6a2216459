//! Args of a table with required fields have no `Default`: `new` takes the required fields.
use flatforge_codegen_tests::flatbuffers_tests_required_strings::required_strings::{Foo, FooArgs};

fn main() {
    let mut b = flatforge::Builder::new();
    let _ = Foo::create(&mut b, &FooArgs { ..Default::default() });
}
