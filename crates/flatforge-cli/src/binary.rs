//! `flatforge binary`: converts JSON (flatc's dialect) to a FlatBuffer, straight into the builder.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use flatforge_json::{Codec, ParseError, ParseErrorKind, ParseOptions};
use flatforge_schema::{closest, Schema, TypeRef};

use crate::output::{input_name, listed, looks_binary, Output, EXIT_INVALID, EXIT_USAGE};
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
            out.error(&format!("{}:{e}", input_name(&args.input)));
            eprint!("{}", snippet(&data, &e));
            hints(&schema, &e.kind, out);
            if looks_binary(&data) {
                out.help("this looks like binary data, not JSON: `flatforge json -s SCHEMA FILE` prints a FlatBuffer");
            }
            Ok(ExitCode::from(EXIT_INVALID))
        }
    }
}

/// Help for a JSON error that names something the schema lacks: the names it has.
fn hints(schema: &Schema, kind: &ParseErrorKind, out: &Output) {
    let suggest =
        |name: &str, names: &[&str], what: &str| match closest(name, names.iter().copied()) {
            Some(c) => out.help(&format!("did you mean `{c}`?")),
            None => out.help(&format!("{what}: {}", listed(names, 20))),
        };
    match kind {
        ParseErrorKind::UnknownField { field, object } => {
            let fields: Vec<&str> = schema
                .objects
                .iter()
                .find(|o| o.full_name == object.as_str() || o.name == object.as_str())
                .map(|o| o.fields.iter().map(|f| f.name.as_str()).collect())
                .unwrap_or_default();
            suggest(field, &fields, "its fields");
            out.help("--unknown-json skips fields the schema does not have");
        }
        ParseErrorKind::UnknownEnumValue { name, ty } => {
            if let Some(e) = schema
                .enums
                .iter()
                .find(|e| e.full_name == ty.as_str() || e.name == ty.as_str())
            {
                let values: Vec<&str> = e.values.iter().map(|v| v.name.as_str()).collect();
                suggest(name, &values, "its values");
            }
        }
        ParseErrorKind::UnionWithoutType(field) => {
            // (The error names the field, not its table: the first union field of that name.)
            let union = schema.objects.iter().flat_map(|o| &o.fields).find_map(|f| {
                match (f.name == field.as_str(), f.ty.index) {
                    (true, Some(TypeRef::Enum(id))) if schema[id].is_union => Some(&schema[id]),
                    _ => None,
                }
            });
            if let Some(u) = union {
                let members: Vec<&str> = u.values.iter().skip(1).map(|v| v.name.as_str()).collect();
                out.help(&format!(
                    "`{field}_type` names the member: {}",
                    listed(&members, 20)
                ));
            }
        }
        _ => {}
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
