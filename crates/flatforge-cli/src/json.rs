//! `flatforge json`: prints a FlatBuffer as JSON, laid out as `flatc -t --strict-json` does, after
//! verifying it against the schema.

use std::path::PathBuf;
use std::process::ExitCode;

use flatforge_json::{Codec, FloatFormat, PrintOptions};

use crate::output::{input_name, Output, EXIT_INVALID};
use crate::verify::{json_hint, read_input, write_output, SchemaArgs, SizePrefixArgs};

/// Arguments of `flatforge json`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Prints strict JSON by default (quoted field names, NaN and infinities as \
the strings \"nan\", \"inf\", \"-inf\"); floats print as the shortest text that reads back to the \
same value. The buffer is verified first: a malformed buffer is reported with the path and byte \
offset of the problem.\n\n\
Exit status: 0 on success, 1 on invalid input (schema or buffer), 2 on usage errors."
)]
pub(crate) struct Args {
    #[command(flatten)]
    schema: SchemaArgs,
    /// Write the JSON to OUT (default: stdout).
    #[arg(short = 'o', long = "out", value_name = "OUT")]
    out: Option<PathBuf>,
    /// Quote field names (the default; accepted for flatc compatibility).
    #[arg(long, conflicts_with = "non_strict")]
    strict_json: bool,
    /// flatc's default style: unquoted field names, bare nan/inf.
    #[arg(long)]
    non_strict: bool,
    /// Print scalar fields that are absent, with their default value.
    #[arg(long)]
    defaults_json: bool,
    /// Keep non-ASCII characters as UTF-8 instead of \uXXXX escapes.
    #[arg(long)]
    natural_utf8: bool,
    /// Print floats as flatc does (fixed notation, 6 or 12 decimals).
    #[arg(long)]
    flatc_floats: bool,
    /// Print everything on one line.
    #[arg(long)]
    compact: bool,
    #[command(flatten)]
    size_prefix: SizePrefixArgs,
    /// Do not check the schema's file_identifier.
    #[arg(long)]
    raw_binary: bool,
    /// The FlatBuffer to print (`-` for stdin).
    #[arg(value_name = "INPUT")]
    input: PathBuf,
}

pub(crate) fn run(args: &Args, out: &Output) -> anyhow::Result<ExitCode> {
    let Some(schema) = args.schema.load(out) else {
        return Ok(ExitCode::from(EXIT_INVALID));
    };
    let codec = Codec::new(&schema);
    let root = args.schema.root(&codec)?;
    let data = read_input(&args.input)?;
    let mut opts = PrintOptions::default();
    opts.strict_json = !args.non_strict;
    opts.defaults = args.defaults_json;
    opts.natural_utf8 = args.natural_utf8;
    opts.indent = if args.compact { None } else { Some(2) };
    if args.flatc_floats {
        opts.float_format = FloatFormat::Flatc;
    }
    args.size_prefix.apply(&mut opts.verify);
    opts.verify.check_identifier = !args.raw_binary;
    let mut printer = codec.printer(opts);
    match printer.print_bytes(root, &data) {
        Ok(text) => {
            // A line of its own on a terminal or in a file, as the indented text ends with one.
            let newline = args.compact && !text.ends_with(b"\n");
            write_output(
                args.out.as_deref(),
                &[text, if newline { b"\n" } else { b"" }],
            )?;
            args.size_prefix
                .warn_unread_tail(&args.input, &data, "printed", out);
            if let Some(e) = printer.left_out_deprecated() {
                out.warning(&format!(
                    "{}: deprecated fields left out, as one does not verify: {e}",
                    input_name(&args.input)
                ));
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            out.error(&format!("{}: {e}", input_name(&args.input)));
            args.size_prefix.explain(&data, out);
            json_hint(&data, out);
            Ok(ExitCode::from(EXIT_INVALID))
        }
    }
}
