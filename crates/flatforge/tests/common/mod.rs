//! Test support shared by the integration tests: the hand-written Monster code and its JSON printer.
#![allow(dead_code, unreachable_pub, clippy::approx_constant)]

pub mod monster;
pub mod monster_json;
