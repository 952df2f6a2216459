//! `flatforge nbt`: shows Minecraft NBT files as SNBT or JSON and converts them between variants and
//! compressions. The work is done by `flatforge-nbt`; this module reads and writes files (`-` is
//! stdin/stdout) and turns errors into messages with the byte offset and path.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use flatforge_nbt::snbt::{from_snbt, to_snbt, Dialect, SnbtOptions};
use flatforge_nbt::{json, Compression, ErrorKind, Format, Nbt, Variant};

use crate::output::{input_name, print_line, stdout_error, write_file};

/// Arguments of `flatforge nbt`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: NbtCommand,
}

#[derive(Debug, clap::Subcommand)]
enum NbtCommand {
    /// Print an NBT file as pretty SNBT (default) or JSON.
    Show(ShowArgs),
    /// Convert an NBT file to another variant and/or compression, or SNBT or JSON text to NBT.
    Convert(ConvertArgs),
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum VariantArg {
    Java,
    JavaNetwork,
    Bedrock,
    BedrockNetwork,
}

impl From<VariantArg> for Variant {
    fn from(v: VariantArg) -> Variant {
        match v {
            VariantArg::Java => Variant::Java,
            VariantArg::JavaNetwork => Variant::JavaNetwork,
            VariantArg::Bedrock => Variant::Bedrock,
            VariantArg::BedrockNetwork => Variant::BedrockNetwork,
        }
    }
}

/// What `nbt convert` reads: a binary variant, or text.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum InputArg {
    Java,
    JavaNetwork,
    Bedrock,
    BedrockNetwork,
    /// SNBT text (`--dialect` says which grammar).
    Snbt,
    /// JSON text, with the types inferred as `nbt show --format json` documents.
    Json,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum CompressionArg {
    None,
    Gzip,
    Zlib,
}

impl From<CompressionArg> for Compression {
    fn from(c: CompressionArg) -> Compression {
        match c {
            CompressionArg::None => Compression::None,
            CompressionArg::Gzip => Compression::Gzip,
            CompressionArg::Zlib => Compression::Zlib,
        }
    }
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum ShowFormat {
    Snbt,
    Json,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum DialectArg {
    /// Minecraft up to 1.21.4.
    Classic,
    /// Minecraft 1.21.5 and later.
    Modern,
}

#[derive(Debug, clap::Args)]
#[command(
    after_help = "The compression (gzip, zlib, none), the variant and a Bedrock level.dat header \
are detected unless --from names the variant.\n\n\
JSON has no NBT types: every number prints as a number, arrays and lists as arrays. `nbt \
convert` reads JSON back with integers as int (long when too large for an int; beyond 64 bits \
they are refused), other numbers as double, arrays as lists and true/false as bytes, so a round \
trip through JSON can change types (`32767s` comes back an int, `0.5f` a double, `[I; 1]` a \
list); SNBT keeps them.\n\nExit status: 0 on success, 1 when the input is not valid \
NBT (the message names the byte offset and the path), 2 on usage errors.\n\n`nbt show` reads binary \
NBT only; `nbt convert` reads SNBT and JSON text."
)]
struct ShowArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = ShowFormat::Snbt)]
    format: ShowFormat,
    /// SNBT grammar to print.
    #[arg(long, value_enum, default_value_t = DialectArg::Modern)]
    dialect: DialectArg,
    /// The input's variant (detected when absent).
    #[arg(long, value_enum)]
    from: Option<VariantArg>,
    /// NBT file, or `-` for standard input.
    #[arg(value_name = "FILE")]
    file: PathBuf,
}

#[derive(Debug, clap::Args)]
#[command(
    after_help = "The output keeps the input's variant, compression and Bedrock header unless \
--to or --compression say otherwise. Without --from, the input is text when it starts with `{` or `[` \
(after spaces), or when its file name ends in .snbt or .json and it holds nothing but text; it is SNBT \
unless the name ends in .json. Text becomes uncompressed Java NBT with an empty root name unless --to \
and --compression say otherwise.\n\n\
Exit status: 0 on success, 1 when the input is not valid NBT, SNBT or JSON (the message says where) \
or cannot be written in the target variant, 2 on usage errors."
)]
struct ConvertArgs {
    /// NBT file, SNBT or JSON text, or `-` for standard input.
    #[arg(value_name = "IN")]
    input: PathBuf,
    /// Output file, or `-` for standard output.
    #[arg(short, long, visible_alias = "out", value_name = "OUT")]
    output: PathBuf,
    /// What the input is (a binary variant or SNBT, detected when absent).
    #[arg(long, value_enum)]
    from: Option<InputArg>,
    /// The SNBT grammar of text input.
    #[arg(long, value_enum, default_value_t = DialectArg::Modern)]
    dialect: DialectArg,
    /// The output's variant.
    #[arg(long, value_enum)]
    to: Option<VariantArg>,
    /// The output's compression.
    #[arg(long, value_enum)]
    compression: Option<CompressionArg>,
}

pub(crate) fn run(args: &Args) -> anyhow::Result<ExitCode> {
    match &args.command {
        NbtCommand::Show(a) => show(a),
        NbtCommand::Convert(a) => convert(a),
    }
}

fn read_input(path: &Path) -> anyhow::Result<Vec<u8>> {
    if path == Path::new("-") {
        let mut data = Vec::new();
        std::io::stdin()
            .read_to_end(&mut data)
            .context("reading standard input")?;
        Ok(data)
    } else {
        std::fs::read(path).with_context(|| format!("cannot read `{}`", path.display()))
    }
}

fn load(path: &Path, from: Option<VariantArg>) -> anyhow::Result<(Nbt, Format)> {
    let data = read_input(path)?;
    parse_binary(path, &data, from, |what, from| {
        format!("`nbt show` reads only binary NBT, `nbt convert {from}` reads {what}")
    })
}

/// Reads binary NBT; when that fails on input that is text, the message ends with a help line
/// that says which text it is and `text_help` of that text and the `--from` that reads it.
fn parse_binary(
    path: &Path,
    data: &[u8],
    from: Option<VariantArg>,
    text_help: impl Fn(&str, &str) -> String,
) -> anyhow::Result<(Nbt, Format)> {
    let result = match from {
        Some(v) => Nbt::from_file_bytes_as(data, v.into()),
        None => Nbt::from_file_bytes(data),
    };
    result.map_err(|e| {
        let mut message = format!("{} is not valid NBT: {e}", input_name(path));
        if let Some(text) = as_text(data) {
            // JSON first: SNBT reads most JSON too.
            let (what, from) = if json::from_json(text).is_ok() {
                ("JSON", "--from json")
            } else if from_snbt(text, Dialect::Modern).is_ok()
                || from_snbt(text, Dialect::Classic).is_ok()
            {
                ("SNBT", "--from snbt")
            } else {
                ("text", "--from snbt")
            };
            let help = text_help(if what == "text" { "SNBT" } else { what }, from);
            message.push_str(&format!(
                "\n  = help: this is {what}, not binary NBT: {help}"
            ));
        }
        anyhow::anyhow!(message)
    })
}

impl From<DialectArg> for Dialect {
    fn from(d: DialectArg) -> Dialect {
        match d {
            DialectArg::Classic => Dialect::Classic,
            DialectArg::Modern => Dialect::Modern,
        }
    }
}

/// `convert`'s input: binary NBT in any variant and compression, or SNBT or JSON text (a root
/// tag without a name; uncompressed Java NBT unless `--to` and `--compression` say otherwise).
fn load_any(args: &ConvertArgs) -> anyhow::Result<(Nbt, Format)> {
    let data = read_input(&args.input)?;
    // Text is SNBT, or JSON when the file is named so (as `nbt show --format json > x.json`). A
    // .snbt or .json name also makes text of input that starts with a tab or a line feed.
    let named = match args.input.extension() {
        Some(e) if e.eq_ignore_ascii_case("json") => Some(InputArg::Json),
        Some(e) if e.eq_ignore_ascii_case("snbt") => Some(InputArg::Snbt),
        _ => None,
    };
    let from = args.from.or_else(|| {
        if looks_like_text(&data) {
            Some(named.unwrap_or(InputArg::Snbt))
        } else {
            named.filter(|_| as_text(&data).is_some())
        }
    });
    let variant = match from {
        None => None,
        Some(InputArg::Java) => Some(VariantArg::Java),
        Some(InputArg::JavaNetwork) => Some(VariantArg::JavaNetwork),
        Some(InputArg::Bedrock) => Some(VariantArg::Bedrock),
        Some(InputArg::BedrockNetwork) => Some(VariantArg::BedrockNetwork),
        Some(InputArg::Snbt) => return parse_text(args, &data, false),
        Some(InputArg::Json) => return parse_text(args, &data, true),
    };
    parse_binary(&args.input, &data, variant, |_, from| {
        format!("add `{from}`")
    })
}

/// Whether `data` starts as SNBT does, with `{` or `[` after spaces (or a byte order mark): no
/// binary NBT starts so (its first byte is a tag type, 0 to 12), nor gzip or zlib data. Tabs and
/// line feeds are not skipped: they are the tag types 9 and 10.
fn looks_like_text(data: &[u8]) -> bool {
    let data = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    let first = data.iter().find(|&&b| b != b' ' && b != b'\r');
    matches!(first, Some(b'{' | b'['))
}

/// `data` as text when it is UTF-8 without control characters other than tabs and line ends.
/// Binary NBT never is: its first byte, a tag type, is a control character, and when it is a tab
/// or a line feed (a list or a compound), the innermost list or compound (nesting is limited)
/// holds one: a compound's End tag (0), a list's element type (all but List and Compound are
/// control characters).
fn as_text(data: &[u8]) -> Option<&str> {
    let text = std::str::from_utf8(data).ok()?;
    let visible = |c: char| !c.is_control() || matches!(c, '\t' | '\n' | '\r');
    (!text.is_empty() && text.chars().all(visible)).then_some(text)
}

fn parse_text(args: &ConvertArgs, data: &[u8], json: bool) -> anyhow::Result<(Nbt, Format)> {
    let name = input_name(&args.input);
    let text = std::str::from_utf8(data).with_context(|| format!("{name} is not UTF-8 text"))?;
    let tag = if json {
        // (serde_json's message gives the line and column.)
        json::from_json(text).map_err(|e| {
            let mut message = format!("{name} is not valid JSON for NBT: {}", json_message(&e));
            if args.from.is_none() && from_snbt(text, args.dialect.into()).is_ok() {
                message.push_str(
                    "\n  = help: this is SNBT (read as JSON for its .json name): add `--from snbt`",
                );
            }
            anyhow::anyhow!(message)
        })?
    } else {
        from_snbt(text, args.dialect.into()).map_err(|e| {
            // (On bytes: an offset inside a character cannot panic.)
            let before = &text.as_bytes()[..e.offset().unwrap_or(0).min(text.len())];
            // A byte order mark is no column.
            let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
            let line_start = before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(bom.min(before.len()), |i| i + 1);
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            let column = String::from_utf8_lossy(&before[line_start..])
                .chars()
                .count()
                + 1;
            let path = e.short_path();
            let within = if path.is_empty() {
                String::new()
            } else {
                format!(" (in {path})")
            };
            let mut message = format!("{name}:{line}:{column}: {}{within}", e.kind());
            if json::from_json(text).is_ok() {
                message.push_str(
                    "\n  = help: this is JSON: add `--from json` (types are inferred as \
                     `nbt show --format json` prints them)",
                );
            }
            anyhow::anyhow!(message)
        })?
    };
    let nbt = Nbt {
        name: String::new(),
        tag,
    };
    Ok((nbt, Format::new(Variant::Java, Compression::None)))
}

/// A JSON error's message without the "JSON: " that the context before it already says.
fn json_message(e: &flatforge_nbt::Error) -> String {
    match e.kind() {
        ErrorKind::Json(message) => {
            let path = e.short_path();
            if path.is_empty() {
                message.clone()
            } else {
                format!("{message} in {path}")
            }
        }
        _ => e.to_string(),
    }
}

fn show(args: &ShowArgs) -> anyhow::Result<ExitCode> {
    let (nbt, _) = load(&args.file, args.from)?;
    let text = match args.format {
        ShowFormat::Snbt => {
            let dialect = args.dialect.into();
            to_snbt(
                &nbt.tag,
                SnbtOptions::default()
                    .with_dialect(dialect)
                    .with_pretty(true),
            )
        }
        ShowFormat::Json => json::to_json(&nbt.tag, true).map_err(|e| {
            anyhow::anyhow!(
                "cannot show {}: {}",
                input_name(&args.file),
                json_message(&e)
            )
        })?,
    };
    print_line(format_args!("{text}"))?;
    Ok(ExitCode::SUCCESS)
}

fn convert(args: &ConvertArgs) -> anyhow::Result<ExitCode> {
    let (nbt, input) = load_any(args)?;
    let variant = args.to.map_or(input.variant, Variant::from);
    let compression = args
        .compression
        .map_or(input.compression, Compression::from);
    let format = Format::new(variant, compression)
        .with_bedrock_header(input.bedrock_header.filter(|_| variant == Variant::Bedrock));
    let bytes = nbt
        .to_file_bytes(&format)
        .with_context(|| format!("cannot write {} as {variant}", input_name(&args.input)))?;
    if args.output == Path::new("-") {
        let mut stdout = std::io::stdout().lock();
        stdout
            .write_all(&bytes)
            .and_then(|()| stdout.flush())
            .map_err(stdout_error)?;
    } else {
        write_file(&args.output, &[&bytes])
            .with_context(|| format!("cannot write `{}`", args.output.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::{as_text, looks_like_text};

    #[test]
    fn text_has_no_control_characters_but_tabs_and_line_ends() {
        for text in [
            &b"\n{a: 1}"[..],
            b"\t[1]\r\n",
            "\u{feff}{\u{e9}: 1}".as_bytes(),
        ] {
            assert!(as_text(text).is_some(), "{text:?}");
        }
        // Binary NBT: an empty compound; a list of lists of Byte, without a 0 byte in any
        // length; invalid UTF-8; and no text at all.
        for binary in [
            &b"\n\0\0\0"[..],
            b"\t\t\t\t\t\t\t\x01\t\t\t\t",
            b"{\xff}",
            b"",
        ] {
            assert!(as_text(binary).is_none(), "{binary:?}");
        }
    }

    #[test]
    fn text_is_told_from_binary_nbt_by_its_first_bytes() {
        for text in [&b"{a: 1}"[..], b"  [1, 2]", b"\xEF\xBB\xBF{}", b"\r {}"] {
            assert!(looks_like_text(text), "{text:?}");
        }
        // A compound (tag 10, a line feed) whose name is 91 bytes long, in Bedrock's byte order.
        for binary in [
            &b"\x0a\x5b\x00"[..],
            b"\x0a\x00\x00",
            b"\x1f\x8b",
            b"\t{",
            b"",
        ] {
            assert!(!looks_like_text(binary), "{binary:?}");
        }
    }
}
