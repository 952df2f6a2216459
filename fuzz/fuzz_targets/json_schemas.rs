//! Schemas shared by the JSON and schema-driven verifier fuzz targets: FlatBuffers' own test
//! schemas (among them one with 64-bit offsets and one with a union of `int` types), compiled
//! once, with their root types.

use std::sync::OnceLock;

use flatforge_schema::{Compiler, MemoryLoader, Schema};

const FILES: &[(&str, &str)] = &[
    (
        "monster_test.fbs",
        include_str!("../../../shared/testdata/flatbuffers/tests/monster_test.fbs"),
    ),
    (
        "include_test/include_test1.fbs",
        include_str!("../../../shared/testdata/flatbuffers/tests/include_test/include_test1.fbs"),
    ),
    (
        "include_test/sub/include_test2.fbs",
        include_str!(
            "../../../shared/testdata/flatbuffers/tests/include_test/sub/include_test2.fbs"
        ),
    ),
    (
        "arrays_test.fbs",
        include_str!("../../../shared/testdata/flatbuffers/tests/arrays_test.fbs"),
    ),
    (
        "union_vector.fbs",
        include_str!("../../../shared/testdata/flatbuffers/tests/union_vector/union_vector.fbs"),
    ),
    (
        "optional_scalars.fbs",
        include_str!("../../../shared/testdata/flatbuffers/tests/optional_scalars.fbs"),
    ),
    (
        "monster_extra.fbs",
        include_str!("../../../shared/testdata/flatbuffers/tests/monster_extra.fbs"),
    ),
    (
        "annotated_binary.fbs",
        include_str!(
            "../../../shared/testdata/flatbuffers/tests/annotated_binary/annotated_binary.fbs"
        ),
    ),
    (
        "64bit/test_64bit.fbs",
        include_str!("../../../shared/testdata/flatbuffers/tests/64bit/test_64bit.fbs"),
    ),
    (
        "union_underlying_type_test.fbs",
        include_str!("../../../shared/testdata/flatbuffers/tests/union_underlying_type_test.fbs"),
    ),
];

/// The root schemas, in a fixed order (a fuzz input's first byte picks one), with the root table
/// of those that declare no `root_type`.
const ROOTS: &[(&str, Option<&str>)] = &[
    ("monster_test.fbs", None),
    ("arrays_test.fbs", None),
    ("union_vector.fbs", None),
    ("optional_scalars.fbs", None),
    ("monster_extra.fbs", None),
    ("annotated_binary.fbs", None),
    ("64bit/test_64bit.fbs", None),
    (
        "union_underlying_type_test.fbs",
        Some("UnionUnderlyingType.D"),
    ),
];

/// The compiled schemas of [`ROOTS`], each with its root table's name if it declares none.
pub fn schemas() -> &'static [(Schema, Option<&'static str>)] {
    static SCHEMAS: OnceLock<Vec<(Schema, Option<&'static str>)>> = OnceLock::new();
    SCHEMAS.get_or_init(|| {
        let mut loader = MemoryLoader::new();
        for (name, text) in FILES {
            loader.insert(name, *text);
        }
        let compiler = Compiler::new(loader).include_dir("include_test");
        ROOTS
            .iter()
            .map(|&(file, root)| {
                (
                    compiler.compile(file).expect("test schema compiles").schema,
                    root,
                )
            })
            .collect()
    })
}
