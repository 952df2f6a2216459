//! flatforge from `build.rs`: the code for `examples/monster.fbs` is generated at build time (see
//! `build.rs`) and included here. Run it with `cargo run -p flatforge-example-build-rs`.

/// The generated code: one module per namespace (`Game.Sample` is `game::sample`). In a binary,
/// the generated API is public but mostly unused: hence the allows (a library would `pub mod` it).
mod schema {
    #![allow(unreachable_pub, dead_code)]
    include!(concat!(env!("OUT_DIR"), "/monster_generated.rs"));
}

use flatforge::Builder;
use schema::game::sample::{self as game, Color, Monster, Vec3, Weapon};

/// Builds a monster with the generated builders and returns the finished buffer.
fn build(b: &mut Builder) -> Result<Vec<u8>, flatforge::BuildError> {
    let sword = b.create_string("Sword")?;
    let sword = Weapon::builder(b).name(sword).damage(3).finish()?;
    let axe = b.create_string("Axe")?;
    let axe = Weapon::create(
        b,
        &game::WeaponArgs {
            name: Some(axe),
            damage: 5,
        },
    )?;
    let weapons = b.create_vector_of_offsets(&[sword, axe])?;
    let name = b.create_string("Orc")?;
    let inventory = b.create_vector(&[0u8, 1, 2, 3])?;
    let path = b.create_vector_of_structs(&[Vec3::new(1.0, 2.0, 3.0), Vec3::new(4.0, 5.0, 6.0)])?;
    // `name` is required: without `.name(...)`, `finish` does not compile.
    let orc = Monster::builder(b)
        .name(name)
        .pos(Vec3::new(1.0, 2.0, 3.0))
        .hp(300)
        .color(Color::RED)
        .inventory(inventory)
        .weapons(weapons)
        .equipped(game::EquipmentOffset::weapon(axe))
        .path(path)
        .finish()?;
    Ok(game::finish_monster_buffer(b, orc)?.to_vec())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut b = Builder::new();
    let bytes = build(&mut b)?;
    // Reading verifies the whole buffer once; the accessors then read without checks.
    let orc = game::root_as_monster(&bytes)?;
    println!(
        "{} has {} hp and {} mana ({} bytes)",
        orc.name(),
        orc.hp(),
        orc.mana(),
        bytes.len()
    );
    for weapon in orc.weapons().into_iter().flatten() {
        println!(
            "  carries {} ({} damage)",
            weapon.name().unwrap_or("?"),
            weapon.damage()
        );
    }
    if let Some(game::Equipment::Weapon(w)) = orc.equipped() {
        println!("  equipped: {}", w.name().unwrap_or("?"));
    }
    // The object API: owned values, packed back into a buffer.
    let mut owned = orc.unpack();
    owned.hp += 1;
    b.reset();
    let root = owned.pack(&mut b)?;
    let again = game::finish_monster_buffer(&mut b, root)?;
    println!(
        "after unpack/pack: {} hp",
        game::root_as_monster(again)?.hp()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_reads_and_round_trips() {
        let mut b = Builder::new();
        let bytes = build(&mut b).unwrap();
        let orc = game::root_as_monster(&bytes).unwrap();
        assert_eq!((orc.name(), orc.hp(), orc.mana()), ("Orc", 300, 150));
        assert_eq!(orc.color(), Color::RED);
        assert_eq!(orc.weapons().unwrap().len(), 2);
        assert_eq!(orc.equipped_as_weapon().and_then(|w| w.name()), Some("Axe"));
        assert_eq!(orc.path().unwrap().as_slice()[1].z(), 6.0);
        let owned = orc.unpack();
        let mut b2 = Builder::new();
        let root = owned.pack(&mut b2).unwrap();
        let again = game::finish_monster_buffer(&mut b2, root).unwrap();
        assert_eq!(game::root_as_monster(again).unwrap().unpack(), owned);
        assert!(game::root_as_monster(&bytes[..bytes.len() / 2]).is_err());
    }
}
