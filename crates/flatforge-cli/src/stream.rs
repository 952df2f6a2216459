//! `flatforge stream`: framed message streams (`flatforge-stream`) from the command line: `cat`
//! prints frames as JSON lines, `pack` writes a stream from JSON lines, `verify` checks every frame,
//! `recover` cuts a torn tail after a crash. JSON and the schema-driven verifier come from
//! `flatforge-json`; progress bars show on a terminal for large inputs.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use flatforge_json::{Codec, ParseOptions, PrintOptions, RootType, VerifyOptions};
use flatforge_schema::{Compiler, FsLoader, ObjectId, Schema};
use flatforge_stream::{
    lock_file, recover_file, schema_hash, Checksum, Error as StreamError, Format, Frame, Header,
    ReaderOptions, StreamReader, StreamWriter, WriterOptions,
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::output::{count, print_line, stdout_error, Output, EXIT_INVALID};
use crate::verify::SchemaArgs;

/// Inputs at least this large get a progress bar (on a terminal).
const PROGRESS_MIN_BYTES: u64 = 8 << 20;

/// Arguments of `flatforge stream`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: StreamCommand,
}

#[derive(Debug, clap::Subcommand)]
enum StreamCommand {
    /// Print every frame of a stream as one line of JSON.
    Cat(CatArgs),
    /// Write a stream from JSON lines (one message per line).
    Pack(PackArgs),
    /// Check every frame of a stream: framing, checksums and each message against the schema.
    Verify(VerifyArgs),
    /// Cut a torn or damaged tail off a stream file (after a crash), keeping every complete frame.
    Recover(RecoverArgs),
}

/// How to read a stream: what the input is and how much to trust it.
#[derive(Debug, clap::Args)]
struct ReadArgs {
    /// The input is bare size-prefixed buffers, concatenated (`flatc --size-prefixed`); by default
    /// the format is detected from the first bytes.
    #[arg(long)]
    plain: bool,
    /// Do not compare the stream header's schema hash with the schema (read a stream written with
    /// an older or newer version of the schema).
    #[arg(long)]
    any_schema: bool,
    /// Frames longer than this many bytes are rejected before they are read.
    #[arg(long, value_name = "BYTES", default_value_t = 64 << 20)]
    max_frame_len: usize,
    /// The stream file (`-` for stdin).
    #[arg(value_name = "FILE")]
    input: PathBuf,
}

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Each frame's message is verified and printed as compact strict JSON on \
one line. The stream header's file identifier and schema hash, when present, must match the \
schema (see --any-schema). Output stops at the first damaged frame, which is reported with its \
number and byte offset.\n\n\
Exit status: 0 when every frame was printed, 1 on invalid input, 2 on usage errors."
)]
struct CatArgs {
    #[command(flatten)]
    schema: SchemaArgs,
    #[command(flatten)]
    read: ReadArgs,
}

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Each non-empty line of the input is one message in JSON (flatc's \
dialect). The stream header declares the checksum, the schema's file identifier and the schema \
hash; an index footer is written for random access unless --no-index. The output is written to a \
temporary file beside OUT and renamed when complete, so OUT is never left half-written; with \
--append, the frames are added to OUT itself, which is cut back to its own frames if a line is \
invalid or a write fails (if only the final index footer cannot be written, the new frames stay \
and the error says so; a crash midway leaves the frames written so far, and the next append \
or `stream recover` cuts a torn last one). While one `pack --append` writes to OUT (on Unix, it \
holds the file's advisory lock), another `pack` to OUT and `stream recover` of it stop with an \
error instead of mixing their frames in.\n\n\
Exit status: 0 on success, 1 on invalid input (the line and column are reported), 2 on usage \
errors."
)]
struct PackArgs {
    #[command(flatten)]
    schema: SchemaArgs,
    /// The checksum of each frame.
    #[arg(long, value_enum, default_value_t = ChecksumArg::Crc32c)]
    checksum: ChecksumArg,
    /// Write bare size-prefixed buffers, concatenated (as `flatc --size-prefixed`): no header,
    /// checksums or index.
    #[arg(long, conflicts_with_all = ["checksum", "no_index"])]
    plain: bool,
    /// Do not write the index footer.
    #[arg(long)]
    no_index: bool,
    /// Add the messages to the end of OUT, a stream written with the same options (created if
    /// missing). A torn last frame left by a crash is cut off first (never from a plain stream);
    /// if a line is invalid or a write fails, OUT is cut back to the frames it had.
    #[arg(long)]
    append: bool,
    /// The JSON lines (`-` for stdin).
    #[arg(value_name = "IN.jsonl")]
    input: PathBuf,
    /// The stream file to write.
    #[arg(short = 'o', long = "out", value_name = "OUT")]
    out: PathBuf,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum ChecksumArg {
    None,
    Crc32c,
    Xxh3,
}

impl From<ChecksumArg> for Checksum {
    fn from(c: ChecksumArg) -> Checksum {
        match c {
            ChecksumArg::None => Checksum::None,
            ChecksumArg::Crc32c => Checksum::Crc32c,
            ChecksumArg::Xxh3 => Checksum::Xxh3,
        }
    }
}

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Checks the header against the schema, then every frame: framing, \
checksum, and the message with the schema-driven verifier. Invalid messages are all reported \
(the framing around them is intact); damaged framing stops the check.\n\n\
Exit status: 0 when every frame is valid, 1 otherwise, 2 on usage errors."
)]
struct VerifyArgs {
    #[command(flatten)]
    schema: SchemaArgs,
    #[command(flatten)]
    read: ReadArgs,
    /// Print nothing when the stream is valid.
    #[arg(short, long)]
    quiet: bool,
}

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Reads the frames in order and stops at the first damaged one. A torn \
last frame (the file ends inside it), a damaged tail with nothing valid after it, or a damaged \
index footer is cut off; every complete frame is kept. If complete frames follow the damage, \
nothing is cut (that would lose them) and the command fails. With -s, each message is also \
verified against the schema. Run it while no writer has the file open.\n\n\
Exit status: 0 when the stream is intact or was recovered, 1 when it cannot be, 2 on usage \
errors."
)]
struct RecoverArgs {
    /// Also verify every message against this schema.
    #[arg(short = 's', long = "schema", value_name = "SCHEMA")]
    schema: Option<PathBuf>,
    /// The root table, with -s (default: the schema's root_type).
    #[arg(long = "root-type", value_name = "T", requires = "schema")]
    root_type: Option<String>,
    /// Add DIR to the directories searched for included files, with -s (repeatable).
    #[arg(short = 'I', long = "include", value_name = "DIR", requires = "schema")]
    include: Vec<PathBuf>,
    /// Report what would be cut without changing the file.
    #[arg(long)]
    dry_run: bool,
    /// The stream is bare size-prefixed buffers (no header).
    #[arg(long)]
    plain: bool,
    /// The stream file.
    #[arg(value_name = "FILE")]
    file: PathBuf,
}

pub(crate) fn run(args: &Args, out: &Output) -> anyhow::Result<ExitCode> {
    match &args.command {
        StreamCommand::Cat(a) => cat(a, out),
        StreamCommand::Pack(a) => pack(a, out),
        StreamCommand::Verify(a) => verify(a, out),
        StreamCommand::Recover(a) => recover(a, out),
    }
}

/// The table a `RootType` stands for (flatforge-json keeps its id private).
fn root_object(codec: &Codec<'_>, schema: &Schema, root: RootType) -> ObjectId {
    (0..schema.objects.len() as u32)
        .map(ObjectId)
        .find(|&id| {
            let o = &schema[id];
            !o.is_struct && codec.root_type(Some(&o.full_name)) == Ok(root)
        })
        .expect("a RootType is a table of its schema")
}

/// A progress bar over `len` bytes, drawn only on a terminal and for large inputs.
fn progress(len: Option<u64>, what: &str) -> ProgressBar {
    match len {
        Some(len) if len >= PROGRESS_MIN_BYTES && io::stderr().is_terminal() => {
            let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template(
                "{msg} [{bar:40}] {bytes}/{total_bytes} ({bytes_per_sec}, {eta})",
            )
            .expect("a valid template")
            .progress_chars("=> ");
            bar.set_style(style);
            bar.set_message(what.to_owned());
            bar
        }
        _ => ProgressBar::hidden(),
    }
}

/// An open stream: the reader over the file (or stdin) and its length, if known.
struct Opened {
    reader: StreamReader<Box<dyn Read>>,
    len: Option<u64>,
}

fn open_stream(read: &ReadArgs) -> anyhow::Result<Opened> {
    let (source, len): (Box<dyn Read>, Option<u64>) = if read.input == Path::new("-") {
        (Box::new(io::stdin().lock()), None)
    } else {
        let file = File::open(&read.input)
            .with_context(|| format!("cannot open `{}`", read.input.display()))?;
        let len = file.metadata().ok().map(|m| m.len());
        (Box::new(file), len)
    };
    let format = if read.plain {
        Format::Plain
    } else {
        Format::Auto
    };
    let opts = ReaderOptions::default()
        .format(format)
        .max_frame_len(read.max_frame_len);
    let reader =
        StreamReader::new(source, &opts).with_context(|| format!("`{}`", read.input.display()))?;
    Ok(Opened { reader, len })
}

/// Checks the header's schema identity against the schema: what the header declares must match.
fn check_identity(
    header: Option<&Header>,
    codec: &Codec<'_>,
    hash: u64,
    any_schema: bool,
) -> Result<(), StreamError> {
    let Some(h) = header else {
        return Ok(());
    };
    if h.file_identifier.is_some() && h.file_identifier != codec.file_identifier() {
        return Err(StreamError::FileIdentifierMismatch {
            expected: codec.file_identifier(),
            found: h.file_identifier,
        });
    }
    if !any_schema && h.schema_hash.is_some_and(|found| found != hash) {
        return Err(StreamError::SchemaHashMismatch {
            expected: hash,
            found: h.schema_hash,
        });
    }
    Ok(())
}

fn verify_options(frame: &Frame<'_>) -> VerifyOptions {
    let mut opts = VerifyOptions::default();
    opts.size_prefixed = frame.is_size_prefixed();
    opts
}

fn cat(args: &CatArgs, out: &Output) -> anyhow::Result<ExitCode> {
    let Some(schema) = args.schema.load(out) else {
        return Ok(ExitCode::from(EXIT_INVALID));
    };
    let codec = Codec::new(&schema);
    let root = args.schema.root(&codec)?;
    let hash = schema_hash(&schema, root_object(&codec, &schema, root));
    let mut opened = open_stream(&args.read)?;
    let name = args.read.input.display().to_string();
    check_identity(opened.reader.header(), &codec, hash, args.read.any_schema)
        .with_context(|| format!("`{name}`"))?;
    let mut print = PrintOptions::default();
    print.indent = None;
    let mut printer = codec.printer(print.clone());
    let mut prefixed_printer = {
        let mut p = print;
        p.verify.size_prefixed = true;
        codec.printer(p)
    };
    let bar = progress(opened.len, "cat");
    let mut stdout = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut failure = None;
    loop {
        let frame = match opened.reader.next_frame() {
            Ok(Some(f)) => f,
            Ok(None) => break,
            Err(e) => {
                failure = Some(anyhow::Error::new(e));
                break;
            }
        };
        let p = if frame.is_size_prefixed() {
            &mut prefixed_printer
        } else {
            &mut printer
        };
        let number = frame.number();
        let json = match p.print_bytes(root, frame.buffer()) {
            Ok(json) => json,
            Err(e) => {
                let offset = frame.offset();
                failure = Some(anyhow::anyhow!(
                    "invalid message in frame {number} at byte {offset}: {e}"
                ));
                break;
            }
        };
        stdout
            .write_all(json)
            .and_then(|()| stdout.write_all(b"\n"))
            .map_err(stdout_error)?;
        if number % 256 == 0 {
            bar.set_position(opened.reader.position());
        }
    }
    bar.finish_and_clear();
    stdout.flush().map_err(stdout_error)?;
    match failure {
        None => Ok(ExitCode::SUCCESS),
        Some(e) => {
            out.error(&format!("`{name}`: {e:#}"));
            Ok(ExitCode::from(EXIT_INVALID))
        }
    }
}

fn pack(args: &PackArgs, out: &Output) -> anyhow::Result<ExitCode> {
    let Some(schema) = args.schema.load(out) else {
        return Ok(ExitCode::from(EXIT_INVALID));
    };
    let codec = Codec::new(&schema);
    let root = args.schema.root(&codec)?;
    let (input, len): (Box<dyn BufRead>, Option<u64>) = if args.input == Path::new("-") {
        (Box::new(io::stdin().lock()), None)
    } else {
        let file = File::open(&args.input)
            .with_context(|| format!("cannot open `{}`", args.input.display()))?;
        let len = file.metadata().ok().map(|m| m.len());
        (Box::new(BufReader::with_capacity(1 << 16, file)), len)
    };
    let mut opts = WriterOptions::default();
    if args.plain {
        opts = opts.format(Format::Plain);
    } else {
        opts = opts
            .checksum(args.checksum.into())
            .schema_hash(schema_hash(&schema, root_object(&codec, &schema, root)))
            .index(!args.no_index);
        if let Some(id) = codec.file_identifier() {
            opts = opts.file_identifier(id);
        }
    }
    if args.append {
        return pack_append(args, &codec, root, input, len, opts, out);
    }
    let tmp = temp_path(&args.out);
    let file = File::create(&tmp).with_context(|| format!("cannot create `{}`", tmp.display()))?;
    let mut w = StreamWriter::new(BufWriter::with_capacity(1 << 16, file), opts)?;
    let packed = pack_lines(args, &codec, root, input, len, &mut w);
    let result = then_finish(packed, || {
        let frames = w.frames();
        let mut file = w.finish()?.into_inner().map_err(|e| e.into_error())?;
        file.flush()?;
        file.sync_all().context("cannot sync the output")?;
        Ok(frames)
    });
    match result {
        Ok(Ok(frames)) => {
            // Not over a stream that another process is appending to (its frames would go to the
            // replaced file); the lock is held until the new file is in place.
            let held = match File::open(&args.out) {
                Ok(old) => lock_file(&old).map(|()| Some(old)),
                Err(_) => Ok(None),
            };
            let held = match held {
                Ok(held) => held,
                Err(e) => {
                    let _ = std::fs::remove_file(&tmp);
                    let name = args.out.display();
                    return Err(e).with_context(|| format!("cannot replace `{name}`"));
                }
            };
            std::fs::rename(&tmp, &args.out)
                .with_context(|| format!("cannot write `{}`", args.out.display()))?;
            drop(held);
            let messages = count(frames, "message");
            eprintln!("packed {messages} into `{}`", args.out.display());
            Ok(ExitCode::SUCCESS)
        }
        Ok(Err(message)) => {
            let _ = std::fs::remove_file(&tmp);
            out.error(&message);
            Ok(ExitCode::from(EXIT_INVALID))
        }
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// A temporary file beside `out`, renamed to it when complete.
fn temp_path(out: &Path) -> PathBuf {
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".partial-{}", std::process::id()));
    out.with_file_name(name)
}

/// `pack --append`: the lines' messages after the frames of `args.out`; on invalid input or a
/// failed write, none of them.
fn pack_append(
    args: &PackArgs,
    codec: &Codec<'_>,
    root: RootType,
    input: Box<dyn BufRead>,
    len: Option<u64>,
    opts: WriterOptions,
    out: &Output,
) -> anyhow::Result<ExitCode> {
    let name = args.out.display();
    let (mut w, found) =
        StreamWriter::append(&args.out, opts.clone()).with_context(|| format!("`{name}`"))?;
    if let (true, Some(damage)) = (found.truncates(), &found.damage) {
        let (from, to) = (found.original_len, found.valid_len);
        eprintln!("cut `{name}` from {from} to {to} bytes before appending: {damage}");
    }
    let frames_before = found.frames;
    let mut packed = pack_lines(args, codec, root, input, len, &mut w);
    if let Ok(Ok(())) = packed {
        // Every frame into the file before the footer, so that only `finish`'s footer is left to
        // fail once nothing can be taken back.
        packed = w
            .sync()
            .map(Ok)
            .with_context(|| format!("cannot write `{name}`"));
    }
    if let Ok(Ok(())) = packed {
        let appended = count(w.frames() - frames_before, "message");
        let footer_failed = || {
            format!(
                "the {appended} are in `{name}`, but its index footer could not be written \
                 (`flatforge stream recover` cuts what was written of it)"
            )
        };
        w.finish()
            .with_context(footer_failed)?
            .sync_all()
            .with_context(footer_failed)?;
        eprintln!("appended {appended} to `{name}`");
        return Ok(ExitCode::SUCCESS);
    }
    // Back to the frames the stream had (and its index, written again), under the writer's lock.
    let restore = || format!("cannot restore `{name}`");
    w.abandon()
        .with_context(restore)?
        .sync_all()
        .with_context(restore)?;
    if let Err(message) = packed? {
        out.error(&message);
    }
    Ok(ExitCode::from(EXIT_INVALID))
}

/// `packed`, then, if every line was packed, `finish` (which returns the frames written).
fn then_finish(
    packed: anyhow::Result<Result<(), String>>,
    finish: impl FnOnce() -> anyhow::Result<u64>,
) -> anyhow::Result<Result<u64, String>> {
    match packed? {
        Ok(()) => finish().map(Ok),
        Err(message) => Ok(Err(message)),
    }
}

/// Packs the lines of `input` into `w`; the inner error is invalid input (reported, exit 1), the
/// outer one an I/O failure.
fn pack_lines<W: Write>(
    args: &PackArgs,
    codec: &Codec<'_>,
    root: RootType,
    mut input: Box<dyn BufRead>,
    len: Option<u64>,
    w: &mut StreamWriter<W>,
) -> anyhow::Result<Result<(), String>> {
    let plain = args.plain;
    let mut parse = ParseOptions::default();
    parse.size_prefixed = plain;
    let mut parser = codec.parser(parse);
    let bar = progress(len, "pack");
    let mut line = Vec::new();
    let mut consumed = 0u64;
    let mut number = 0u64;
    loop {
        line.clear();
        let n = input
            .read_until(b'\n', &mut line)
            .with_context(|| format!("cannot read `{}`", args.input.display()))?;
        if n == 0 {
            break;
        }
        number += 1;
        consumed += n as u64;
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let buf = match parser.parse(root, &line) {
            Ok(buf) => buf,
            Err(e) => {
                return Ok(Err(format!(
                    "{}:{number}:{}: {}",
                    args.input.display(),
                    e.column,
                    e.kind
                )))
            }
        };
        if plain {
            w.write_size_prefixed(buf)?;
        } else {
            w.write_message(buf)?;
        }
        if number.is_multiple_of(1024) {
            bar.set_position(consumed);
        }
    }
    bar.finish_and_clear();
    Ok(Ok(()))
}

fn verify(args: &VerifyArgs, out: &Output) -> anyhow::Result<ExitCode> {
    let Some(schema) = args.schema.load(out) else {
        return Ok(ExitCode::from(EXIT_INVALID));
    };
    let codec = Codec::new(&schema);
    let root = args.schema.root(&codec)?;
    let hash = schema_hash(&schema, root_object(&codec, &schema, root));
    let mut opened = open_stream(&args.read)?;
    let name = args.read.input.display().to_string();
    check_identity(opened.reader.header(), &codec, hash, args.read.any_schema)
        .with_context(|| format!("`{name}`"))?;
    let header = opened.reader.header().copied();
    let bar = progress(opened.len, "verify");
    let mut invalid = 0u64;
    let mut framing = None;
    loop {
        match opened.reader.next_frame() {
            Ok(Some(f)) => {
                if let Err(e) =
                    f.verify_with(|f| codec.verify(root, f.buffer(), &verify_options(f)))
                {
                    invalid += 1;
                    out.error(&format!("`{name}`: {e}"));
                }
                if f.number() % 256 == 0 {
                    bar.set_position(f.offset());
                }
            }
            Ok(None) => break,
            Err(e) => {
                framing = Some(e);
                break;
            }
        }
    }
    bar.finish_and_clear();
    let frames = opened.reader.next_frame_number();
    if let Some(e) = framing {
        out.error(&format!("`{name}`: {e}"));
        if e.is_truncation() || matches!(e, StreamError::CorruptIndex { .. }) {
            out.error("the stream ends in a torn write: `flatforge stream recover` cuts it off");
        }
        return Ok(ExitCode::from(EXIT_INVALID));
    }
    if invalid > 0 {
        out.error(&format!(
            "`{name}`: {invalid} of {frames} messages are invalid"
        ));
        return Ok(ExitCode::from(EXIT_INVALID));
    }
    if !args.quiet {
        let kind = match header {
            Some(h) => format!("framed, {} checksums", h.checksum),
            None => "plain".to_owned(),
        };
        let index = if opened.reader.ended_with_index() {
            ", indexed"
        } else {
            ""
        };
        print_line(format_args!(
            "ok: `{name}`: {frames} frames ({kind}{index})"
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn recover(args: &RecoverArgs, out: &Output) -> anyhow::Result<ExitCode> {
    let schema = match &args.schema {
        Some(path) => {
            let compiler = args
                .include
                .iter()
                .fold(Compiler::new(FsLoader), |c, d| c.include_dir(d.clone()));
            match compiler.compile(path) {
                Ok(compiled) => Some(compiled.schema),
                Err(err) => {
                    out.compile_error(path, &err);
                    return Ok(ExitCode::from(EXIT_INVALID));
                }
            }
        }
        None => None,
    };
    let codec = schema.as_ref().map(Codec::new);
    let root = match &codec {
        Some(c) => Some(c.root_type(args.root_type.as_deref())?),
        None => None,
    };
    let format = if args.plain {
        Format::Plain
    } else {
        Format::Framed
    };
    let opts = ReaderOptions::default().format(format);
    let check = |f: &Frame<'_>| match (&codec, root) {
        (Some(c), Some(r)) => f.verify_with(|f| c.verify(r, f.buffer(), &verify_options(f))),
        _ => Ok(()),
    };
    let name = args.file.display().to_string();
    let result = if args.dry_run {
        let file = File::open(&args.file).with_context(|| format!("cannot open `{name}`"))?;
        flatforge_stream::recover(file, &opts, check)
    } else {
        recover_file(&args.file, &opts, check)
    };
    let r = match result {
        Ok(r) => r,
        Err(e) => {
            out.error(&format!("`{name}`: {e}"));
            return Ok(ExitCode::from(EXIT_INVALID));
        }
    };
    match &r.damage {
        None => print_line(format_args!(
            "intact: `{name}`: {} frames{}",
            r.frames,
            if r.indexed { ", indexed" } else { "" }
        ))?,
        Some(damage) => {
            let verb = if args.dry_run { "would cut" } else { "cut" };
            print_line(format_args!(
                "{verb} `{name}` from {} to {} bytes, keeping all {} complete frames: {damage}",
                r.original_len, r.valid_len, r.frames
            ))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
