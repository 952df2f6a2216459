//! Damaged buffers: flipping or truncating any byte of the Monster buffer must never panic the
//! schema-driven verifier or the printer, and whatever verifies must print. Also the 22 corrupted
//! buffers of flatc's annotated_binary tests, each rejected with a path and a byte offset.

use flatforge_json::{Codec, PrintOptions, VerifyOptions};
use flatforge_testkit::testdata;

fn monster_schema() -> flatforge_schema::Schema {
    flatforge_schema::Compiler::new(flatforge_schema::FsLoader)
        .include_dir(testdata("flatbuffers/tests/include_test"))
        .compile(testdata("flatbuffers/tests/monster_test.fbs"))
        .expect("monster_test.fbs compiles")
        .schema
}

/// Verifies `bytes`; if they verify, they must print.
fn check(codec: &Codec<'_>, bytes: &[u8]) -> bool {
    let root = codec.root_type(None).unwrap();
    let opts = VerifyOptions::default();
    match codec.verify(root, bytes, &opts) {
        Ok(()) => {
            let mut p = codec.printer(PrintOptions::default());
            if let Err(e) = p.print(root, bytes) {
                panic!("a verified buffer failed to print: {e}");
            }
            true
        }
        Err(e) => {
            assert!(
                e.offset() <= bytes.len(),
                "error offset past the buffer: {e}"
            );
            false
        }
    }
}

#[test]
fn every_byte_flip_and_truncation_of_the_monster_is_safe() {
    let schema = monster_schema();
    let codec = Codec::new(&schema);
    for file in ["monsterdata_test.mon", "unicode_test.mon"] {
        let good = std::fs::read(testdata(&format!("flatbuffers/tests/{file}"))).unwrap();
        assert!(check(&codec, &good), "{file} must verify");
        let mut rejected = 0;
        for i in 0..good.len() {
            for x in [0x01u8, 0x80, 0xFF, 0x7F] {
                let mut bad = good.clone();
                bad[i] ^= x;
                if !check(&codec, &bad) {
                    rejected += 1;
                }
            }
            // Cutting only trailing padding may leave a valid buffer; it must then print.
            check(&codec, &good[..i]);
        }
        assert!(
            rejected > good.len(),
            "{file}: too few flips rejected ({rejected})"
        );
    }
}

#[test]
fn annotated_binary_corruptions_are_rejected_with_path_and_offset() {
    let dir = testdata("flatbuffers/tests/annotated_binary");
    let schema = flatforge_schema::Compiler::new(flatforge_schema::FsLoader)
        .compile(dir.join("annotated_binary.fbs"))
        .expect("schema")
        .schema;
    let codec = Codec::new(&schema);
    let root = codec.root_type(None).unwrap();
    let opts = VerifyOptions::default();
    let good = std::fs::read(dir.join("annotated_binary.bin")).unwrap();
    codec
        .verify(root, &good, &opts)
        .expect("annotated_binary.bin verifies");
    let mut n = 0;
    for entry in std::fs::read_dir(dir.join("tests")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "bin") {
            let bytes = std::fs::read(&path).unwrap();
            let err = codec
                .verify(root, &bytes, &opts)
                .expect_err(&format!("{} must be rejected", path.display()));
            assert!(
                err.path_string().starts_with("AnnotatedBinary.Foo"),
                "{err}"
            );
            assert!(err.offset() < bytes.len().max(1), "{err}");
            n += 1;
        }
    }
    assert_eq!(n, 22, "the 22 corrupted buffers");
}
