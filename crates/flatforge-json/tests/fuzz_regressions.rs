//! Inputs the fuzz targets found problems with, named after what broke. Each must give an error
//! or a buffer that verifies and prints.

use flatforge_json::{Codec, ParseErrorKind, ParseOptions, PrintOptions};
use flatforge_testkit::testdata;

fn union_vector_schema() -> flatforge_schema::Schema {
    flatforge_schema::Compiler::new(flatforge_schema::FsLoader)
        .compile(testdata("flatbuffers/tests/union_vector/union_vector.fbs"))
        .expect("schema")
        .schema
}

/// Parses `json`; a buffer must verify and print.
fn parse(schema: &flatforge_schema::Schema, json: &str) -> Result<(), ParseErrorKind> {
    let codec = Codec::new(schema);
    let root = codec.root_type(None).unwrap();
    let mut parser = codec.parser(ParseOptions::default());
    match parser.parse(root, json.as_bytes()) {
        Ok(bytes) => {
            let bytes = bytes.to_vec();
            codec
                .printer(PrintOptions::default())
                .print(root, &bytes)
                .unwrap_or_else(|e| panic!("parsed but does not print: {e}"));
            Ok(())
        }
        Err(e) => Err(e.kind),
    }
}

#[test]
fn union_vector_types_without_values_are_refused() {
    let schema = union_vector_schema();
    let json = r#"{
      "main_character_type": "Rapunzel",
      "main_character": { "hair_length": 6 },
      "characters_type": [ "Belle", "MuLan", "Other", "Unused" ]
    }"#;
    assert!(matches!(
        parse(&schema, json),
        Err(ParseErrorKind::UnionVectorLength {
            types: 4,
            values: 0,
            ..
        })
    ));
}

#[test]
fn union_type_without_value_is_refused() {
    let schema = union_vector_schema();
    let err = parse(&schema, r#"{ main_character_type: "Rapunzel" }"#).unwrap_err();
    assert!(matches!(err, ParseErrorKind::UnionNullValue(_)), "{err}");
    let err = parse(
        &schema,
        r#"{ main_character_type: "Rapunzel", main_character: null }"#,
    )
    .unwrap_err();
    assert!(matches!(err, ParseErrorKind::UnionNullValue(_)), "{err}");
    parse(&schema, r#"{ main_character_type: NONE }"#).unwrap();
}

/// json_print found a buffer of union_vector.fbs that verifies (a union type the schema does not
/// list passes unchecked, as a newer schema's member) but cannot print: the printer's error for
/// it, which strict verification turns into a verification error. (The fuzz target asserted
/// that everything verified prints.)
#[test]
fn an_unknown_union_type_verifies_but_does_not_print() {
    let bytes: &[u8] = &[
        0x04, 0x00, 0x00, 0x00, 0xf8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x28, 0x00, 0x46,
        0x00, 0x01, 0x00, 0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x4b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b,
        0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0xc6, 0x7b,
        0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x4b, 0x00, 0x00, 0x00, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b,
        0x7b, 0x7b, 0x7b, 0x84, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b,
    ];
    let schema = union_vector_schema();
    let codec = Codec::new(&schema);
    let root = codec.root_type(None).unwrap();
    let mut opts = PrintOptions::default();
    opts.verify.check_identifier = false;
    codec.verify(root, bytes, &opts.verify).expect("verifies");
    let err = codec.printer(opts.clone()).print(root, bytes).unwrap_err();
    assert!(
        matches!(
            err,
            flatforge_json::PrintError::UnknownUnionType { value: 255, .. }
        ),
        "{err}"
    );
    opts.verify.limits = opts.verify.limits.with_unknown_union_types(false);
    assert!(codec.verify(root, bytes, &opts.verify).is_err());
}
