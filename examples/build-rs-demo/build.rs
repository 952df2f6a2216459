//! Generates `OUT_DIR/monster_generated.rs` from `examples/monster.fbs`. A schema error stops the
//! build with the rendered diagnostics.

fn main() -> Result<(), flatforge_build::Error> {
    flatforge_build::Config::new().compile(&["../monster.fbs"])?;
    Ok(())
}
