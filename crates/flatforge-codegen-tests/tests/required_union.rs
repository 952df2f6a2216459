//! A required union (`Frame.shape` in the codegen crate's snapshot schema `unions.fbs`): NONE is no
//! value for it, so `create`, the builder and the object API's `pack` refuse it with
//! `BuildError::MissingRequired` (they wrote a value offset without a type, which the verifier
//! then refused), and leave the builder usable; a member is written and read back.

use flatforge::{BuildError, Builder};
use flatforge_codegen_tests::snapshot_unions::shapes as sh;

fn missing(err: BuildError) {
    assert!(
        matches!(
            err,
            BuildError::MissingRequired {
                table: "Shapes.Frame",
                field: "shape"
            }
        ),
        "{err}"
    );
}

#[test]
fn none_is_no_value_for_a_required_union() {
    let mut b = Builder::new();
    let args = sh::FrameArgs::new(sh::ShapeOffset::NONE);
    missing(sh::Frame::create(&mut b, &args).unwrap_err());
    missing(
        sh::Frame::builder(&mut b)
            .shape(sh::ShapeOffset::NONE)
            .finish()
            .unwrap_err(),
    );
    missing(sh::FrameT::default().pack(&mut b).unwrap_err());

    // The builder goes on as if nothing happened.
    let circle = sh::Circle::create(&mut b, &sh::CircleArgs { radius: 1.5 }).unwrap();
    let frame = sh::Frame::builder(&mut b)
        .shape(sh::ShapeOffset::circle(circle))
        .finish()
        .unwrap();
    let bytes = b.finish(frame, None).unwrap().to_vec();
    let f = sh::Frame::root(&bytes).expect("verifies");
    assert!(matches!(f.shape(), sh::Shape::Circle(c) if c.radius() == 1.5));
}
