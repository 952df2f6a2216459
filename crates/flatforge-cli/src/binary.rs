//! `flatforge binary`: converts JSON (flatc's dialect) to a FlatBuffer, straight into the builder.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use flatforge_json::{Codec, ParseError, ParseErrorKind, ParseOptions};

use crate::output::{input_name, looks_binary, Output, EXIT_INVALID, EXIT_USAGE};
use crate::verify::{read_input, write_output, SchemaArgs};

/// Arguments of `flatforge binary`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Reads JSON as flatc does: unquoted or quoted keys, trailing commas, \
comments, quoted scalars, hex numbers, nan/inf, enum names and bit flags (\"A B\"), unions with \
their _type before or after the value, nested flatbuffers as objects. The schema's \
file_identifier is written when it declares one.\n\n\
Exit status: 0 on success, 1 on invalid input (schema or JSON, reported with line and column), 2 \
on usage errors."
)]
pub(crate) struct Args {
    #[command(flatten)]
    schema: SchemaArgs,
    /// Write the buffer to OUT (default: stdout).
    #[arg(short = 'o', long = "out", value_name = "OUT")]
    out: Option<PathBuf>,
    /// Accept only strict JSON (quoted keys, no trailing commas).
    #[arg(long)]
    strict_json: bool,
    /// Skip fields the schema does not know instead of failing.
    #[arg(long)]
    unknown_json: bool,
    /// Write scalar fields even when they equal their default.
    #[arg(long)]
    force_defaults: bool,
    /// Write a 32-bit size prefix before the buffer (`flatc --size-prefixed`).
    #[arg(long)]
    size_prefixed: bool,
    /// Write a 64-bit size prefix before the buffer (C++'s FlatBufferBuilder64, for schemas with
    /// 64-bit offsets).
    #[arg(long, conflicts_with = "size_prefixed")]
    size_prefixed64: bool,
    /// Accept nested flatbuffers given as arrays of bytes.
    #[arg(long)]
    json_nested_bytes: bool,
    /// The JSON to convert (`-` for stdin).
    #[arg(value_name = "INPUT")]
    input: PathBuf,
}

pub(crate) fn run(args: &Args, out: &Output) -> anyhow::Result<ExitCode> {
    let Some(schema) = args.schema.load(out) else {
        return Ok(ExitCode::from(EXIT_INVALID));
    };
    if args.out.is_none() && std::io::stdout().is_terminal() {
        out.error("not writing a binary FlatBuffer to the terminal: give `-o FILE`, `-o -` to insist, or redirect the output");
        return Ok(ExitCode::from(EXIT_USAGE));
    }
    let codec = Codec::new(&schema);
    let root = args.schema.root(&codec)?;
    let data = read_input(&args.input)?;
    let mut opts = ParseOptions::default();
    opts.strict_json = args.strict_json;
    opts.unknown_fields = args.unknown_json;
    opts.force_defaults = args.force_defaults;
    opts.size_prefixed = args.size_prefixed || args.size_prefixed64;
    opts.size_prefix64 = args.size_prefixed64;
    opts.nested_bytes = args.json_nested_bytes;
    let mut parser = codec.parser(opts);
    match parser.parse(root, &data) {
        Ok(bytes) => {
            write_output(args.out.as_deref(), &[bytes])?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            out.error(&format!(
                "{}:{}:{}: {}",
                input_name(&args.input),
                e.line,
                e.column,
                e.kind
            ));
            eprint!("{}", snippet(&data, &e));
            hints(&e, out);
            if looks_binary(&data) {
                out.help("this looks like binary data, not JSON: `flatforge json -s SCHEMA FILE` prints a FlatBuffer");
            }
            Ok(ExitCode::from(EXIT_INVALID))
        }
    }
}

/// Help for a JSON error: the converter's (the names the schema has), then the command line's.
fn hints(e: &ParseError, out: &Output) {
    if let Some(help) = e.help() {
        out.help(help);
    }
    if matches!(e.kind, ParseErrorKind::UnknownField { .. }) {
        out.help("--unknown-json skips fields the schema does not have");
    }
}

/// The line of the error with a caret under its column.
fn snippet(data: &[u8], e: &ParseError) -> String {
    let start = data[..e.offset]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let end = data[e.offset..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(data.len(), |p| e.offset + p);
    let line = String::from_utf8_lossy(&data[start..end]);
    if line.chars().count() > 200 {
        return String::new();
    }
    let line = line.trim_end_matches('\r');
    // A byte order mark before the text takes no column (nor does `e.column` count it).
    let line = match start {
        0 => line.strip_prefix('\u{feff}').unwrap_or(line),
        _ => line,
    };
    if line.contains('\0') {
        // Not text (a binary file, say): nothing worth showing.
        return String::new();
    }
    // Control characters could drive the terminal: `?` in their place, one for one.
    let line: String = line
        .chars()
        .map(|c| if c.is_control() && c != '\t' { '?' } else { c })
        .collect();
    let pad: String = line
        .chars()
        .take(e.column - 1)
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    format!("{:>5} | {line}\n      | {pad}^\n", e.line)
}
