//! Enum values and union members that share a value (`tests/snapshots/aliases.fbs` of the codegen
//! crate): flatc accepts a repeat of any value but the smallest. Every name builds its value;
//! readers see the value by the name that sorts first, as flatc prints it.

mod common;

use flatforge::Builder;
use flatforge_codegen_tests::snapshot_aliases::aliases as al;

fn schema() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../flatforge-codegen/tests/snapshots/aliases.fbs")
}

#[test]
fn aliases_build_their_value_and_read_as_the_first_name() {
    assert_eq!(al::Level::MID, al::Level::MEDIUM);
    assert_eq!(al::Level::MID.name(), Some("Medium"));
    assert_eq!(al::Level::from_name("Mid"), Some(al::Level(1)));
    assert_eq!(al::Level::HIGH.0, 2);
    assert_eq!(al::Perm::MODIFY, al::Perm::WRITE);
    assert_eq!(al::Perm::MODIFY.name(), Some("Modify"));
    // As flatc prints flags: every name of a set bit.
    assert_eq!(
        (al::Perm::READ | al::Perm::WRITE).to_string(),
        "Read Modify Write"
    );

    let holder = al::HolderT {
        level: al::Level::MID,
        perm: al::Perm::MODIFY | al::Perm::READ,
        choice: al::ChoiceT::Alt(Box::new(al::AT { x: 7 })),
        choices: Some(vec![
            al::ChoiceT::A(Box::new(al::AT { x: 1 })),
            al::ChoiceT::Alt(Box::new(al::AT { x: 2 })),
            al::ChoiceT::B(Box::new(al::BT { y: 3 })),
        ]),
    };
    let mut b = Builder::new();
    let root = holder.pack(&mut b).unwrap();
    let buf = al::finish_holder_buffer(&mut b, root).unwrap().to_vec();

    let h = al::Holder::root(&buf).expect("verifies");
    assert_eq!(h.level(), al::Level::MEDIUM);
    assert_eq!(h.choice_type(), al::ChoiceType::ALT);
    assert_eq!(h.choice_type(), al::ChoiceType::A);
    assert!(matches!(h.choice(), Some(al::Choice::A(a)) if a.x() == 7));
    let choices = h.choices().expect("present");
    assert!(matches!(choices.get(1), Some(Some(al::Choice::A(a))) if a.x() == 2));
    assert!(matches!(choices.get(2), Some(Some(al::Choice::B(b))) if b.y() == 3));

    // flatc reads the buffer the same way.
    let dir = common::temp_dir("aliases");
    let json = common::flatc_json(&schema(), &buf, &dir, &[]);
    assert_eq!(json["perm"], "Read Modify Write");
    assert_eq!(json["choice_type"], "A");
    assert_eq!(json["choice"]["x"], 7);
    assert_eq!(json["choices_type"], serde_json::json!(["A", "A", "B"]));
    // `level` is the default (Medium = 1), so flatc leaves it out; so does the builder.
    assert!(json.get("level").is_none(), "{json}");
}
