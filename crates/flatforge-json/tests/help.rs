//! The help a [`ParseError`] carries for a name the schema lacks: the closest name it has, or the
//! names it has, for fields (of tables and of structs), enum values and union members.

use flatforge_json::{Codec, ParseError, ParseErrorKind, ParseOptions};

const SCHEMA: &str = r#"
enum Color : byte { Red, Green, Blue }
struct Vec2 { x: float; y: float; }
table Sword { damage: int; }
table Shield { armor: int; }
union Gear { Sword, Shield }
table Monster {
  name: string;
  color: Color = Blue;
  pos: Vec2;
  gear: Gear;
  unit: Unit;
}
table Unit {}
root_type Monster;
"#;

fn parse(json: &str) -> ParseError {
    let schema = flatforge_schema::compile_str("help.fbs", SCHEMA).expect("valid schema");
    let codec = Codec::new(&schema);
    let root = codec.root_type(None).expect("a root type");
    codec
        .parser(ParseOptions::default())
        .parse(root, json.as_bytes())
        .expect_err("invalid JSON")
}

#[test]
fn unknown_table_field_suggests_the_closest_or_lists_the_fields() {
    let e = parse(r#"{ nmae: "Orc" }"#);
    assert!(matches!(e.kind, ParseErrorKind::UnknownField { .. }), "{e}");
    assert_eq!(e.help(), Some("did you mean `name`?"));
    assert_eq!(
        e.to_string(),
        "1:3: unknown field `nmae` in `Monster` (did you mean `name`?)"
    );
    // Case does not count.
    let e = parse(r#"{ Color: Red }"#);
    assert_eq!(e.help(), Some("did you mean `color`?"));
    // Nothing close: the fields, with the union's type field.
    let e = parse(r#"{ speed: 3 }"#);
    assert_eq!(
        e.help(),
        Some("its fields: name, color, pos, gear_type, gear, unit")
    );
}

#[test]
fn unknown_field_of_a_struct_or_an_empty_table() {
    let e = parse(r#"{ pos: { x: 1, z: 2 } }"#);
    assert!(
        matches!(&e.kind, ParseErrorKind::UnknownField { field, object } if field == "z" && object == "Vec2"),
        "{e}"
    );
    // One letter for another is no typo: the fields are listed.
    assert_eq!(e.help(), Some("its fields: x, y"));
    let e = parse(r#"{ pos: { x: 1, yy: 2 } }"#);
    assert_eq!(e.help(), Some("did you mean `y`?"));
    let e = parse(r#"{ pos: { x: 1, y: 2, speed: 3 } }"#);
    assert_eq!(e.help(), Some("its fields: x, y"));
    // A table without fields has nothing to suggest.
    let e = parse(r#"{ unit: { id: 1 } }"#);
    assert!(matches!(e.kind, ParseErrorKind::UnknownField { .. }), "{e}");
    assert_eq!(e.help(), None);
    assert_eq!(e.to_string(), "1:11: unknown field `id` in `Unit`");
}

#[test]
fn unknown_enum_value_suggests_the_closest_or_lists_the_values() {
    let e = parse(r#"{ color: Gren }"#);
    assert!(
        matches!(e.kind, ParseErrorKind::UnknownEnumValue { .. }),
        "{e}"
    );
    assert_eq!(e.help(), Some("did you mean `Green`?"));
    let e = parse(r#"{ color: "Purple" }"#);
    assert_eq!(e.help(), Some("its values: Red, Green, Blue"));
}

#[test]
fn union_errors_name_the_members() {
    let e = parse(r#"{ gear: { damage: 3 } }"#);
    assert_eq!(e.kind, ParseErrorKind::UnionWithoutType("gear".into()));
    assert_eq!(
        e.help(),
        Some("`gear_type` names the member: Sword, Shield")
    );
    let e = parse(r#"{ gear_type: Swrod, gear: { damage: 3 } }"#);
    assert_eq!(e.help(), Some("did you mean `Sword`?"));
    // A type number that names no member: the members with their numbers.
    let e = parse(r#"{ gear_type: 7, gear: { damage: 3 } }"#);
    assert!(
        matches!(e.kind, ParseErrorKind::UnknownUnionType { value: 7, .. }),
        "{e}"
    );
    assert_eq!(e.help(), Some("its members: Sword = 1, Shield = 2"));
}

#[test]
fn other_errors_carry_no_help() {
    let e = parse(r#"{ name: 3 "#);
    assert_eq!(e.help(), None, "{e}");
    assert!(!e.to_string().contains('('), "{e}");
}
