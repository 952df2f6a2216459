//! A view borrows its buffer.
use flatforge_codegen_tests::flatbuffers_tests_required_strings::required_strings::Foo;

fn main() {
    let view = {
        let bytes = vec![0u8; 64];
        Foo::root(&bytes).ok()
    };
    let _ = view;
}
