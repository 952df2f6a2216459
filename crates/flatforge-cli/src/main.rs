//! `flatforge`: the command line of the flatforge FlatBuffers toolchain.
//!
//! Each subcommand lives in its own module (`check.rs`, ...) with an `Args` struct and a `run`
//! function; this file only parses arguments and dispatches. To add a subcommand, add a module,
//! a variant to [`Command`] and a match arm in [`main`]. Shared output helpers (diagnostics,
//! color) are in [`output`].
//!
//! Exit codes: 0 success, 1 invalid input (for example a schema with errors), 2 usage error. A
//! reader that closes the output pipe early (`flatforge json x.bin | head`) ends the run quietly,
//! with 0, as it ends ripgrep.

mod binary;
mod check;
mod json;
mod nbt;
mod output;
mod rust;
mod stream;
mod verify;

use std::io;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// A FlatBuffers toolchain: schema checking with compiler-quality diagnostics, Rust code generation,
/// schema-driven JSON and verification, framed message streams, and Minecraft NBT.
#[derive(Debug, Parser)]
#[command(name = "flatforge", version, about, long_about = None, propagate_version = true)]
struct Cli {
    /// When to color diagnostics.
    #[arg(long, value_enum, default_value_t = output::ColorChoice::Auto, global = true)]
    color: output::ColorChoice,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check FlatBuffers schemas (.fbs): report every error and warning, exit 1 if any is invalid.
    Check(check::Args),
    /// Generate Rust code (views, verifiers, builders, object API) from FlatBuffers schemas.
    Rust(rust::Args),
    /// Convert JSON to a FlatBuffer, driven by a schema.
    Binary(binary::Args),
    /// Print a FlatBuffer as JSON (verified first), driven by a schema.
    Json(json::Args),
    /// Verify FlatBuffers against any table of a schema; report what is wrong and where.
    Verify(verify::Args),
    /// Framed message streams: print as JSON lines, pack from JSON lines, verify, recover.
    Stream(stream::Args),
    /// Show and convert Minecraft NBT files (Java, Bedrock and network variants; gzip, zlib or none).
    Nbt(nbt::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let out = output::Output::new(cli.color);
    let result = match cli.command {
        Command::Check(args) => check::run(&args, &out),
        Command::Nbt(args) => nbt::run(&args),
        Command::Rust(args) => rust::run(&args, &out),
        Command::Stream(args) => stream::run(&args, &out),
        Command::Binary(args) => binary::run(&args, &out),
        Command::Json(args) => json::run(&args, &out),
        Command::Verify(args) => verify::run(&args, &out),
    };
    match result {
        Ok(code) => code,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            out.error(&format!("{e:#}"));
            let usage = e.chain().any(|cause| cause.is::<output::UsageError>());
            ExitCode::from(if usage {
                output::EXIT_USAGE
            } else {
                output::EXIT_INVALID
            })
        }
    }
}

/// Whether `e` comes from writing to standard output when its reader has gone (not from any
/// other pipe, such as rustfmt's).
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<output::StdoutError>()
            .is_some_and(|out| out.0.kind() == io::ErrorKind::BrokenPipe)
    })
}
