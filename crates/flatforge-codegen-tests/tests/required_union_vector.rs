//! A required vector of unions (`layers: [Shape] (required)` in the codegen crate's snapshot
//! schema `unions.fbs`): its accessor gives a plain value, its object API compiles and round
//! trips, and a buffer with only one half of it, even an empty half, does not verify (its
//! accessor reads both halves without looking).

use flatforge::{Builder, ErrorKind};
use flatforge_codegen_tests::snapshot_unions::shapes as sh;

#[test]
fn a_required_union_vector_reads_as_a_value_and_round_trips() {
    let drawing = sh::DrawingT {
        layers: vec![
            sh::ShapeT::Circle(Box::new(sh::CircleT { radius: 2.0 })),
            sh::ShapeT::Label("x".into()),
        ],
        ..Default::default()
    };
    let mut b = Builder::new();
    let root = drawing.pack(&mut b).unwrap();
    let bytes = b.finish(root, None).unwrap().to_vec();
    let d = sh::Drawing::root(&bytes).expect("verifies");
    let layers = d.layers();
    assert_eq!(layers.len(), 2);
    assert!(matches!(layers.get(0), Some(Some(sh::Shape::Circle(c))) if c.radius() == 2.0));
    assert!(matches!(layers.get(1), Some(Some(sh::Shape::Label("x")))));
    assert_eq!(d.unpack(), drawing);
}

#[test]
fn a_required_union_vector_needs_both_halves() {
    // Slots: main_type 0, main 1, shapes_type 2, shapes 3, layers_type 4, layers 5.
    for (types, values) in [(true, false), (false, true), (false, false)] {
        let mut b = Builder::new();
        let t = types.then(|| b.create_vector::<u8>(&[]).unwrap());
        let v = values.then(|| b.create_vector_of_offsets::<()>(&[]).unwrap());
        b.start_table();
        if let Some(t) = t {
            b.add_offset(4, t).unwrap();
        }
        if let Some(v) = v {
            b.add_offset(5, v).unwrap();
        }
        let root = b.end_table().unwrap();
        let bytes = b.finish(root, None).unwrap().to_vec();
        let err = sh::Drawing::root(&bytes).unwrap_err();
        assert_eq!(
            err.kind(),
            &ErrorKind::MissingRequiredField,
            "{types} {values}"
        );
        assert_eq!(err.path_string(), "Drawing.layers");
    }
}
