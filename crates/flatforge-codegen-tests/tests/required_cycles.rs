//! Required table fields that lead back to their own table (the snapshot schema `tables.fbs`:
//! `Ouroboros`, `Ping` and `Pong`): no buffer can hold them, so the owned types keep `Option`s
//! there; `Default` ends, and `pack` refuses the empty field instead of writing an invalid buffer.

use flatforge::BuildError;
use flatforge_codegen_tests::snapshot_tables::game::{OuroborosT, PingT, PongT};

#[test]
fn owned_types_of_required_cycles_default_and_refuse_to_pack() {
    let mut b = flatforge::Builder::new();
    assert_eq!(OuroborosT::default().tail, None);
    assert_eq!(
        OuroborosT::default().pack(&mut b),
        Err(BuildError::MissingRequired {
            table: "Game.Ouroboros",
            field: "tail"
        })
    );
    // Two levels deep, the innermost field is the empty one.
    let ping = PingT {
        pong: Some(Box::new(PongT { ping: None, n: 7 })),
    };
    let err = ping.pack(&mut b).unwrap_err();
    assert_eq!(
        err,
        BuildError::MissingRequired {
            table: "Game.Pong",
            field: "ping"
        }
    );
    assert_eq!(
        err.to_string(),
        "required field `ping` of `Game.Pong` is empty"
    );
}
