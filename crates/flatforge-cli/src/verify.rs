//! `flatforge verify`: verifies buffers against any table of any schema with the schema-driven
//! verifier of `flatforge-json`. Also holds what `json` and `binary` share: the schema arguments,
//! loading the schema, the size-prefix arguments of the commands that read buffers, and reading and
//! writing files (`-` for stdin/stdout).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use flatforge_json::{Codec, RootType, RootTypeError, VerifyOptions};
use flatforge_schema::{listed, Compiler, FsLoader, Schema};

use crate::output::{
    input_name, looks_like_json, prefix_value, print_line, size_prefix_help, size_prefix_note,
    stdin_repeated, stdout_error, warn_missing_dirs, write_file, Output, UsageError, EXIT_INVALID,
    EXIT_USAGE,
};

/// The schema to work with: `-s SCHEMA [-I DIR]... [--root-type T]`.
#[derive(Debug, clap::Args)]
pub(crate) struct SchemaArgs {
    /// The schema (.fbs) that describes the data.
    #[arg(short = 's', long = "schema", value_name = "SCHEMA", value_parser = schema_file)]
    schema: PathBuf,
    /// Add DIR to the directories searched for included files (repeatable).
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    include: Vec<PathBuf>,
    /// The root table (default: the schema's root_type).
    #[arg(long = "root-type", value_name = "T")]
    root_type: Option<String>,
}

/// A schema path: not `-`, which reads stdin elsewhere, where the data is read from.
pub(crate) fn schema_file(arg: &str) -> Result<PathBuf, &'static str> {
    match arg {
        "-" => Err("a schema file, not stdin (`flatforge check -` checks a schema from stdin)"),
        _ => Ok(PathBuf::from(arg)),
    }
}

impl SchemaArgs {
    /// The arguments of a command that takes a schema optionally (`stream recover`).
    pub(crate) fn new(schema: PathBuf, include: Vec<PathBuf>, root_type: Option<String>) -> Self {
        SchemaArgs {
            schema,
            include,
            root_type,
        }
    }

    /// Compiles the schema, printing its errors (not its warnings: the data is the subject
    /// here, `flatforge check` reports on schemas); `None` if it has errors.
    pub(crate) fn load(&self, out: &Output) -> Option<Schema> {
        warn_missing_dirs(&self.include, out);
        let compiler = self
            .include
            .iter()
            .fold(Compiler::new(FsLoader), |c, d| c.include_dir(d.clone()));
        match compiler.compile(&self.schema) {
            Ok(compiled) => Some(compiled.schema),
            Err(err) => {
                out.compile_error(&self.schema, &err);
                None
            }
        }
    }

    /// The root type, or an error message (a usage error: the `--root-type` given, or missing).
    pub(crate) fn root(&self, codec: &Codec<'_>) -> anyhow::Result<RootType> {
        codec.root_type(self.root_type.as_deref()).map_err(|e| {
            let message = match &e {
                // The candidates are in the message.
                RootTypeError::Ambiguous { .. } => e.to_string(),
                _ => {
                    let tables: Vec<&str> = codec
                        .schema()
                        .objects
                        .iter()
                        .filter(|o| !o.is_struct)
                        .map(|o| o.full_name.as_str())
                        .collect();
                    let tables = match tables.len() {
                        0 => "it has no tables".to_string(),
                        _ => format!("its tables: {}", listed(&tables, 20)),
                    };
                    format!("{e} ({tables})")
                }
            };
            anyhow::Error::new(UsageError(message))
                .context(format!("schema `{}`", self.schema.display()))
        })
    }
}

/// How the buffers read are framed: `[--size-prefixed | --size-prefixed64]`.
#[derive(Debug, clap::Args)]
pub(crate) struct SizePrefixArgs {
    /// The buffer starts with a 32-bit size prefix (`flatc --size-prefixed`).
    #[arg(long)]
    size_prefixed: bool,
    /// The buffer starts with a 64-bit size prefix (C++'s FlatBufferBuilder64, for schemas with
    /// 64-bit offsets).
    #[arg(long, conflicts_with = "size_prefixed")]
    size_prefixed64: bool,
}

impl SizePrefixArgs {
    /// Sets the size prefix of `opts`.
    pub(crate) fn apply(&self, opts: &mut VerifyOptions) {
        opts.size_prefixed = self.size_prefixed || self.size_prefixed64;
        opts.size_prefix64 = self.size_prefixed64;
    }

    /// The bytes of the size prefix asked for (0 for none).
    fn prefix(&self) -> usize {
        match (self.size_prefixed64, self.size_prefixed) {
            (true, _) => 8,
            (false, true) => 4,
            (false, false) => 0,
        }
    }

    /// For a buffer read with a size prefix: where the buffer it delimits ends, when bytes of
    /// `data` follow it (which nothing reads: several size-prefixed buffers in a row, say).
    pub(crate) fn unread_tail(&self, data: &[u8]) -> Option<u64> {
        let prefix = self.prefix();
        let end = prefix_value(data, prefix)?.checked_add(prefix as u64)?;
        (end < data.len() as u64).then_some(end)
    }

    /// Warns that the bytes of `data` after the size-prefixed buffer, if any, were not `what` (read
    /// by the command).
    pub(crate) fn warn_unread_tail(&self, path: &Path, data: &[u8], what: &str, out: &Output) {
        if let Some(end) = self.unread_tail(data) {
            out.warning(&format!(
                "{}: the size prefix makes the buffer the first {end} of its {} bytes; the {} \
                 after it were not {what}",
                input_name(path),
                data.len(),
                data.len() as u64 - end,
            ));
            out.help(
                "size-prefixed buffers one after another are a plain stream: \
                 `flatforge stream verify --plain` checks each, `stream cat --plain` prints each",
            );
        }
    }

    /// Prints, after the error of a buffer that failed to verify, what its size prefix made of it
    /// and advice if it looks size-prefixed in a way not asked for.
    pub(crate) fn explain(&self, data: &[u8], out: &Output) {
        if let Some(note) = size_prefix_note(data, self.prefix()) {
            out.note(&note);
        }
        if let Some(help) = size_prefix_help(data, self.prefix()) {
            out.help(help);
        }
    }
}

/// After an error reading `data` as a FlatBuffer: a hint if it is JSON text.
pub(crate) fn json_hint(data: &[u8], out: &Output) {
    if looks_like_json(data) {
        out.help("this looks like JSON text: `flatforge binary -s SCHEMA FILE` turns it into a FlatBuffer");
    }
}

/// Reads a file, or stdin for `-`.
pub(crate) fn read_input(path: &Path) -> anyhow::Result<Vec<u8>> {
    if path == Path::new("-") {
        let mut data = Vec::new();
        std::io::stdin()
            .read_to_end(&mut data)
            .context("cannot read stdin")?;
        Ok(data)
    } else {
        std::fs::read(path).with_context(|| format!("cannot read `{}`", path.display()))
    }
}

/// Writes `parts`, one after another, to a file, or to stdout without `-o` (or with `-o -`).
pub(crate) fn write_output(path: Option<&Path>, parts: &[&[u8]]) -> anyhow::Result<()> {
    match path {
        Some(p) if p != Path::new("-") => {
            write_file(p, parts).with_context(|| format!("cannot write `{}`", p.display()))
        }
        _ => {
            let mut out = std::io::stdout().lock();
            parts
                .iter()
                .try_for_each(|part| out.write_all(part))
                .and_then(|()| out.flush())
                .map_err(stdout_error)
        }
    }
}

/// Arguments of `flatforge verify`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Checks each buffer as a FlatBuffer whose root is the root type: bounds, \
alignment, vtables, strings (UTF-8), vectors, required fields, unions, nested flatbuffers, depth \
and size budgets. The schema's file_identifier is checked unless --raw-binary is given. A union \
type the schema does not list passes unchecked, as a newer schema's member (flatc's verifiers \
accept it too), unless --strict-unions is given.\n\n\
Exit status: 0 when every buffer is valid, 1 when one is not (or the schema has errors), 2 on \
usage errors."
)]
pub(crate) struct Args {
    #[command(flatten)]
    schema: SchemaArgs,
    #[command(flatten)]
    size_prefix: SizePrefixArgs,
    /// Do not check the schema's file_identifier.
    #[arg(long)]
    raw_binary: bool,
    /// Reject union types the schema does not list (as `flatc --annotate` reports them), instead
    /// of passing them unchecked as a newer schema's members.
    #[arg(long)]
    strict_unions: bool,
    /// Print nothing for valid buffers.
    #[arg(short, long)]
    quiet: bool,
    /// Buffers to verify (`-` for stdin).
    #[arg(value_name = "INPUT", required = true)]
    inputs: Vec<PathBuf>,
}

pub(crate) fn run(args: &Args, out: &Output) -> anyhow::Result<ExitCode> {
    if stdin_repeated(&args.inputs, out) {
        return Ok(ExitCode::from(EXIT_USAGE));
    }
    let Some(schema) = args.schema.load(out) else {
        return Ok(ExitCode::from(EXIT_INVALID));
    };
    let codec = Codec::new(&schema);
    let root = args.schema.root(&codec)?;
    let mut opts = VerifyOptions::default();
    args.size_prefix.apply(&mut opts);
    opts.check_identifier = !args.raw_binary;
    opts.limits = opts.limits.with_unknown_union_types(!args.strict_unions);
    let mut failed = 0usize;
    for path in &args.inputs {
        let data = match read_input(path) {
            Ok(d) => d,
            Err(e) => {
                failed += 1;
                out.error(&format!("{e:#}"));
                continue;
            }
        };
        match codec.verify(root, &data, &opts) {
            Ok(()) => {
                if !args.quiet {
                    let bytes = match args.size_prefix.unread_tail(&data) {
                        Some(end) => format!("the first {end} of {} bytes", data.len()),
                        None => format!("{} bytes", data.len()),
                    };
                    print_line(format_args!("ok: {} ({bytes})", input_name(path)))?;
                }
                args.size_prefix
                    .warn_unread_tail(path, &data, "checked", out);
            }
            Err(e) => {
                failed += 1;
                out.error(&format!("{}: invalid: {e}", input_name(path)));
                args.size_prefix.explain(&data, out);
                json_hint(&data, out);
            }
        }
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_INVALID)
    })
}
