//! `flatforge stream`: framed message streams (`flatforge-stream`) from the command line: `cat`
//! prints frames as JSON lines, `pack` writes a stream from JSON lines (to a file, or stdout with
//! `-o -`), `verify` checks every frame, `recover` cuts a torn tail after a crash. Errors come with
//! advice where a newcomer's next step is known (`--any-schema`, `--plain`, `stream pack` for JSON
//! text). JSON and the schema-driven verifier come from `flatforge-json`; progress bars show on a
//! terminal for large inputs.

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use flatforge_json::{Codec, ParseOptions, PrintOptions, RootType, VerifyOptions};
use flatforge_schema::{ObjectId, Schema};
use flatforge_stream::{
    lock_file, recover_file, schema_hash, Checksum, Error as StreamError, Format, Frame, Header,
    ReaderOptions, StreamReader, StreamWriter, WriterOptions, HEADER_LEN,
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::output::{
    count, input_name, looks_like_json, print_line, replaced_path, stdout_error, temp_path, Output,
    EXIT_INVALID, EXIT_USAGE, STDIN_NAME,
};
use crate::verify::{schema_file, SchemaArgs};

/// Inputs at least this large get a progress bar (on a terminal).
const PROGRESS_MIN_BYTES: u64 = 8 << 20;

/// `verify` prints the errors of this many invalid messages, then only how many there are.
const MAX_REPORTED: u64 = 20;

/// The first bytes of an input kept to tell, after an error, what else it may be (JSON text).
const PREFIX_LEN: usize = 16;

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
dialect): one message per line, as `flatforge json --compact` prints it. The stream header \
declares the checksum, the schema's file identifier and the schema hash; an index footer is \
written for random access unless --no-index. The output is written to a temporary file beside \
OUT and renamed when complete, so OUT is never left half-written (an OUT that is not a regular \
file, such as a FIFO, is written in place; `-o -` writes to stdout as the lines are read, so a bad \
line ends the stream there); with --append, the frames are added to OUT itself (a file, not \
`-`), which is cut back to its own frames if a line is invalid or a write fails (if only the \
final index footer cannot be written, the new frames stay and the error says so; a crash midway \
leaves the frames written so far, and the next append or `stream recover` cuts a torn last \
one). While one `pack --append` writes to OUT (on Unix, it \
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
    /// Add the messages to the end of OUT, a stream file written with the same options and
    /// schema (created if missing). A torn last frame left by a crash is cut off first (never from
    /// a plain stream); if a line is invalid or a write fails, OUT is cut back to the frames it had.
    #[arg(long)]
    append: bool,
    /// The JSON lines (`-` for stdin).
    #[arg(value_name = "IN.jsonl")]
    input: PathBuf,
    /// The stream file to write (`-` for stdout).
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
checksum, and the message with the schema-driven verifier. Invalid messages are all counted \
and the first 20 reported (the framing around them is intact); damaged framing stops the check \
(in a plain stream, a size prefix below 8, such as zeros, is damaged framing).\n\n\
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
last frame (the file ends inside it), a damaged tail with no complete frame after it, a damaged \
index footer, or a header cut short is cut off; every complete frame is kept. If complete frames \
follow the damage, nothing is cut (that would lose them) and the command fails. With -s, the \
stream header's file identifier and schema hash must match the schema (see --any-schema), and \
each message is verified: a complete frame whose message is invalid is no crash damage, so \
nothing is cut and the command fails (the error says where to cut if it is a last frame that a \
power loss zeroed, which a stream without checksums cannot tell apart). Run it while no writer has the file open. A plain stream \
needs --plain: it has no header or guards to be recognized by, and one is cut at its first \
damage (including zeros, and messages that fail -s); a file whose first frame is already \
damaged may be no stream at all, and is left alone.\n\n\
Exit status: 0 when the stream is intact or was recovered, 1 when it cannot be, 2 on usage \
errors."
)]
struct RecoverArgs {
    /// Also check the stream header against this schema and verify every message.
    #[arg(short = 's', long = "schema", value_name = "SCHEMA", value_parser = schema_file)]
    schema: Option<PathBuf>,
    /// The root table, with -s (default: the schema's root_type).
    #[arg(long = "root-type", value_name = "T", requires = "schema")]
    root_type: Option<String>,
    /// Add DIR to the directories searched for included files, with -s (repeatable).
    #[arg(short = 'I', long = "include", value_name = "DIR", requires = "schema")]
    include: Vec<PathBuf>,
    /// Do not compare the stream header's schema hash with the schema, with -s.
    #[arg(long, requires = "schema")]
    any_schema: bool,
    /// Report what would be cut without changing the file.
    #[arg(long)]
    dry_run: bool,
    /// The stream is bare size-prefixed buffers (no header); never guessed, see below.
    #[arg(long)]
    plain: bool,
    /// The stream file (a file: it is cut in place).
    #[arg(value_name = "FILE", value_parser = stream_file)]
    file: PathBuf,
}

/// A stream file to change in place: not `-`.
fn stream_file(arg: &str) -> Result<PathBuf, &'static str> {
    match arg {
        "-" => Err("a file, not stdin: recover cuts the file in place"),
        _ => Ok(PathBuf::from(arg)),
    }
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

/// An open stream: the reader over the file (or stdin), its length, if known, and its first bytes.
struct Opened {
    reader: StreamReader<Box<dyn Read>>,
    len: Option<u64>,
    prefix: Vec<u8>,
}

fn open_stream(read: &ReadArgs) -> anyhow::Result<Opened> {
    let (mut source, len): (Box<dyn Read>, Option<u64>) = if read.input == Path::new("-") {
        (Box::new(io::stdin().lock()), None)
    } else {
        let file = File::open(&read.input)
            .with_context(|| format!("cannot open `{}`", read.input.display()))?;
        let len = file.metadata().ok().map(|m| m.len());
        (Box::new(file), len)
    };
    let name = input_name(&read.input);
    let mut prefix = Vec::with_capacity(PREFIX_LEN);
    (&mut source)
        .take(PREFIX_LEN as u64)
        .read_to_end(&mut prefix)
        .with_context(|| format!("cannot read `{name}`"))?;
    // The reader reads the first bytes again, then the rest.
    let source: Box<dyn Read> = Box::new(io::Cursor::new(prefix.clone()).chain(source));
    let format = if read.plain {
        Format::Plain
    } else {
        Format::Auto
    };
    let opts = ReaderOptions::default()
        .format(format)
        .max_frame_len(read.max_frame_len);
    let reader = StreamReader::new(source, &opts).with_context(|| format!("`{name}`"))?;
    Ok(Opened {
        reader,
        len,
        prefix,
    })
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

/// Reports a header that does not match the schema (with the way out for a changed schema).
fn identity_error(e: &StreamError, name: &str, out: &Output) -> ExitCode {
    out.error(&format!("`{name}`: {e}"));
    if matches!(e, StreamError::SchemaHashMismatch { .. }) {
        out.help(
            "the stream was written with another version of the schema (or another schema): \
             --any-schema reads it anyway, verifying each message against this one",
        );
    }
    ExitCode::from(EXIT_INVALID)
}

/// Advice after a framing error `e` in the stream `opened` read from `name`: what the input may be
/// instead, or how to cut a damaged tail off.
fn framing_help(e: &StreamError, opened: &Opened, name: &str) -> Option<String> {
    let plain = opened.reader.header().is_none();
    if plain && e.frame() == Some(0) {
        if looks_like_json(&opened.prefix) {
            let file = if name == STDIN_NAME { "IN.jsonl" } else { name };
            return Some(format!(
                "the input looks like JSON text, not a stream: `flatforge stream pack -s SCHEMA \
                 -o OUT.ffs {file}` makes a stream of JSON lines (one message per line)"
            ));
        }
        // Not even its first frame reads: nothing says it is a stream (recovery leaves it alone).
        return Some(
            "it may be no stream at all: a framed stream starts with the stream magic (`FFS`), a \
             plain one with a size-prefixed FlatBuffer, and not even its first frame reads"
                .into(),
        );
    }
    recover_help(e, plain, name)
}

/// Advice for damage `e` that `flatforge stream recover` cuts off, in the stream file `name`.
fn recover_help(e: &StreamError, plain: bool, name: &str) -> Option<String> {
    let file = if name == STDIN_NAME { "FILE" } else { name };
    let recover = if plain {
        format!("`flatforge stream recover --plain {file}`")
    } else {
        format!("`flatforge stream recover {file}`")
    };
    match e {
        // Too little of a header to tell a stream by (recovery leaves it alone).
        StreamError::TruncatedHeader { available } if *available < 4 => None,
        StreamError::FrameTooSmall { .. } => Some(format!(
            "zeros or damage where a frame should start, as a crash can leave: {recover} cuts \
             them off, keeping the frames before them"
        )),
        StreamError::CorruptIndex { .. } => Some(format!(
            "its index footer is damaged or torn (the frames before it are whole): {recover} \
             cuts the footer off"
        )),
        _ if e.is_truncation() => Some(format!(
            "the stream ends in a torn write: {recover} cuts it off"
        )),
        StreamError::CorruptFrameHeader { .. }
        | StreamError::ChecksumMismatch { .. }
        | StreamError::BadPadding { .. } => Some(format!(
            "{recover} cuts a damaged tail off (not damage that complete frames follow)"
        )),
        _ => None,
    }
}

/// How to verify the message of `frame` (size-prefixed in a plain stream).
fn verify_options(frame: &Frame<'_>) -> VerifyOptions {
    let mut opts = VerifyOptions::default();
    opts.size_prefixed = frame.is_size_prefixed();
    opts
}

/// Why `cat` stopped before the end of the stream.
enum CatFailure {
    /// The framing is damaged.
    Framing(StreamError),
    /// A message does not verify.
    Message(String),
}

fn cat(args: &CatArgs, out: &Output) -> anyhow::Result<ExitCode> {
    let Some(schema) = args.schema.load(out) else {
        return Ok(ExitCode::from(EXIT_INVALID));
    };
    let codec = Codec::new(&schema);
    let root = args.schema.root(&codec)?;
    let hash = schema_hash(&schema, root_object(&codec, &schema, root));
    let mut opened = open_stream(&args.read)?;
    let name = input_name(&args.read.input).into_owned();
    if let Err(e) = check_identity(opened.reader.header(), &codec, hash, args.read.any_schema) {
        return Ok(identity_error(&e, &name, out));
    }
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
                failure = Some(CatFailure::Framing(e));
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
                failure = Some(CatFailure::Message(format!(
                    "invalid message in frame {number} at byte {offset}: {e}"
                )));
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
        Some(CatFailure::Message(message)) => {
            out.error(&format!("`{name}`: {message}"));
            Ok(ExitCode::from(EXIT_INVALID))
        }
        Some(CatFailure::Framing(e)) => {
            out.error(&format!("`{name}`: {e}"));
            if let Some(help) = framing_help(&e, &opened, &name) {
                out.help(&help);
            }
            Ok(ExitCode::from(EXIT_INVALID))
        }
    }
}

/// Why packing stopped before the end of the input.
enum PackError {
    /// A line is not a valid message (reported, exit 1).
    Line(BadLine),
    /// Reading the input failed.
    Read(anyhow::Error),
    /// Writing the stream failed.
    Write(StreamError),
}

/// A line that is not a valid message: where and why, and advice if there is any.
struct BadLine {
    message: String,
    help: Option<String>,
}

impl BadLine {
    fn report(&self, out: &Output) {
        out.error(&self.message);
        if let Some(help) = &self.help {
            out.help(help);
        }
    }
}

/// The exit code for a failed `pack`: a bad line is reported (exit 1); an I/O error is returned,
/// a failed write made an error by `write`, which names where it went.
fn pack_failed(
    e: PackError,
    out: &Output,
    write: impl FnOnce(StreamError) -> anyhow::Error,
) -> anyhow::Result<ExitCode> {
    match e {
        PackError::Line(bad) => {
            bad.report(out);
            Ok(ExitCode::from(EXIT_INVALID))
        }
        PackError::Read(e) => Err(e),
        PackError::Write(e) => Err(write(e)),
    }
}

/// A failed write to the stream file `name`.
fn file_write_error(e: StreamError, name: &str) -> anyhow::Error {
    anyhow::Error::new(e).context(format!("cannot write `{name}`"))
}

/// A failed write to stdout: an I/O error as `main` knows it (quiet for a closed pipe).
fn stdout_write_error(e: StreamError) -> anyhow::Error {
    match e {
        StreamError::Io { cause, .. } => stdout_error(cause),
        e => anyhow::Error::new(e).context("cannot write the stream to stdout"),
    }
}

fn pack(args: &PackArgs, out: &Output) -> anyhow::Result<ExitCode> {
    let to_stdout = args.out == Path::new("-");
    if to_stdout && args.append {
        out.error("--append adds to a stream file: it cannot append to stdout (`-o -`)");
        return Ok(ExitCode::from(EXIT_USAGE));
    }
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
    let packing = Packing {
        args,
        codec: &codec,
        root,
        input,
        len,
    };
    if args.append {
        pack_append(packing, opts, out)
    } else if to_stdout {
        pack_to_stdout(packing, opts, out)
    } else if std::fs::metadata(&args.out).is_ok_and(|m| !m.is_file()) {
        // A FIFO or a device: renaming a file over it would replace it.
        pack_in_place(packing, opts, out)
    } else {
        pack_replacing(packing, opts, out)
    }
}

/// `pack -o -`: the stream to stdout, as it is written.
fn pack_to_stdout(
    p: Packing<'_, '_>,
    opts: WriterOptions,
    out: &Output,
) -> anyhow::Result<ExitCode> {
    match p.write_new(opts, io::stdout().lock()) {
        Ok((frames, _)) => {
            eprintln!("packed {} to stdout", count(frames, "message"));
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => pack_failed(e, out, stdout_write_error),
    }
}

/// `pack` to an existing file that is not a regular file (a FIFO, a device): written in place.
fn pack_in_place(
    p: Packing<'_, '_>,
    opts: WriterOptions,
    out: &Output,
) -> anyhow::Result<ExitCode> {
    let name = p.args.out.display().to_string();
    let file = OpenOptions::new()
        .write(true)
        .open(&p.args.out)
        .with_context(|| format!("cannot write `{name}`"))?;
    match p.write_new(opts, BufWriter::with_capacity(1 << 16, file)) {
        Ok((frames, file)) => {
            file.into_inner()
                .map_err(|e| e.into_error())
                .with_context(|| format!("cannot write `{name}`"))?;
            eprintln!("packed {} into `{name}`", count(frames, "message"));
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => pack_failed(e, out, |e| file_write_error(e, &name)),
    }
}

/// `pack` to a new or regular file: the stream is written to a temporary file beside it, synced,
/// and renamed over it, so that it is never left half-written.
fn pack_replacing(
    p: Packing<'_, '_>,
    opts: WriterOptions,
    out: &Output,
) -> anyhow::Result<ExitCode> {
    let name = p.args.out.display().to_string();
    // (Through a symbolic link: the link stays, its target is replaced.)
    let target = replaced_path(&p.args.out).into_owned();
    let path = &target;
    let tmp = temp_path(path);
    let file = File::create(&tmp).with_context(|| format!("cannot write `{name}`"))?;
    let (frames, file) = match p.write_new(opts, BufWriter::with_capacity(1 << 16, file)) {
        Ok(written) => written,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            return pack_failed(e, out, |e| file_write_error(e, &name));
        }
    };
    let synced = file
        .into_inner()
        .map_err(|e| e.into_error())
        .and_then(|file| file.sync_all())
        .with_context(|| format!("cannot write `{name}`"));
    if let Err(e) = synced {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    // Not over a stream that another process is appending to (its frames would go to the
    // replaced file); the lock is held until the new file is in place.
    let held = match File::open(path) {
        Ok(old) => lock_file(&old).map(|()| Some(old)),
        Err(_) => Ok(None),
    };
    let held = match held {
        Ok(held) => held,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            return Err(e).with_context(|| format!("cannot replace `{name}`"));
        }
    };
    if let Err(e) = std::fs::rename(&tmp, path) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e).with_context(|| format!("cannot write `{name}`"));
    }
    drop(held);
    eprintln!("packed {} into `{name}`", count(frames, "message"));
    Ok(ExitCode::SUCCESS)
}

/// Whether the stream file at `path` has a header that differs from what `opts` would write in
/// its schema hash only: its frames follow another schema.
fn schema_changed(path: &Path, opts: &WriterOptions) -> bool {
    let mut head = [0u8; HEADER_LEN];
    let read = File::open(path).and_then(|mut f| f.read_exact(&mut head));
    match (read, Header::decode(&head)) {
        (Ok(()), Ok(h)) => {
            opts.format == Format::Framed
                && h.checksum == opts.checksum
                && h.file_identifier == opts.file_identifier
                && h.schema_hash != opts.schema_hash
        }
        _ => false,
    }
}

/// `pack --append`: the lines' messages after the frames of `args.out`; on invalid input or a
/// failed write, none of them.
fn pack_append(p: Packing<'_, '_>, opts: WriterOptions, out: &Output) -> anyhow::Result<ExitCode> {
    let name = p.args.out.display().to_string();
    // (A file that `append` creates is removed again if nothing can be appended.)
    let path = p.args.out.clone();
    let existed = path.exists();
    let (mut w, found) = match StreamWriter::append(&p.args.out, opts.clone()) {
        Ok(appending) => appending,
        Err(e) => {
            out.error(&format!("`{name}`: {e}"));
            if matches!(e, StreamError::AppendMismatch { .. }) && schema_changed(&p.args.out, &opts)
            {
                out.help(&format!(
                    "its frames were written with another schema, which its header declares: \
                     messages of this schema cannot join them. To go on with this schema, \
                     rewrite the stream with it first: `flatforge stream cat --any-schema -s \
                     SCHEMA {name} | flatforge stream pack -s SCHEMA -o NEW.ffs -`, then append \
                     to NEW.ffs"
                ));
            } else if let Some(help) = recover_help(&e, p.args.plain, &name) {
                out.help(&help);
            }
            return Ok(ExitCode::from(EXIT_INVALID));
        }
    };
    if let (true, Some(damage)) = (found.truncates(), &found.damage) {
        let (from, to) = (found.original_len, found.valid_len);
        eprintln!("cut `{name}` from {from} to {to} bytes before appending: {damage}");
    }
    let frames_before = found.frames;
    // Every frame into the file before the footer, so that only `finish`'s footer is left to
    // fail once nothing can be taken back.
    let packed = p
        .lines(&mut w)
        .and_then(|()| w.sync().map_err(PackError::Write));
    match packed {
        Ok(()) => {
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
            // The footer follows --no-index, not the stream: say when that changed it.
            let footer = match (found.indexed, opts.index) {
                (true, false) => "; its index footer was removed (--no-index)",
                (false, true) if frames_before > 0 => "; it now ends with an index footer",
                _ => "",
            };
            eprintln!("appended {appended} to `{name}`{footer}");
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            // Back to the frames the stream had (and its index, written again), under the
            // writer's lock; or no file, if there was none.
            let restored = w
                .abandon()
                .map_err(anyhow::Error::from)
                .and_then(|file| Ok(file.sync_all()?));
            let code = pack_failed(e, out, |e| file_write_error(e, &name))?;
            restored.with_context(|| format!("cannot restore `{name}`"))?;
            if !existed {
                std::fs::remove_file(&path)
                    .with_context(|| format!("cannot remove `{name}`, which it created"))?;
            }
            Ok(code)
        }
    }
}

/// What `pack` packs: the lines of `input` as messages of `root`.
struct Packing<'a, 's> {
    args: &'a PackArgs,
    codec: &'a Codec<'s>,
    root: RootType,
    input: Box<dyn BufRead>,
    len: Option<u64>,
}

impl Packing<'_, '_> {
    /// A new stream in `sink` with the lines' messages, finished; returns the frames written
    /// and the sink.
    fn write_new<W: Write>(self, opts: WriterOptions, sink: W) -> Result<(u64, W), PackError> {
        let mut w = StreamWriter::new(sink, opts).map_err(PackError::Write)?;
        self.lines(&mut w)?;
        let frames = w.frames();
        Ok((frames, w.finish().map_err(PackError::Write)?))
    }

    /// Packs the lines of the input into `w`.
    fn lines<W: Write>(self, w: &mut StreamWriter<W>) -> Result<(), PackError> {
        let Packing {
            args,
            codec,
            root,
            mut input,
            len,
        } = self;
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
                .with_context(|| format!("cannot read `{}`", args.input.display()))
                .map_err(PackError::Read)?;
            if n == 0 {
                break;
            }
            number += 1;
            consumed += n as u64;
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            // Without the line's end: an error at the end of the message points there.
            let text = line.strip_suffix(b"\n").unwrap_or(&line);
            let text = text.strip_suffix(b"\r").unwrap_or(text);
            let buf = match parser.parse(root, text) {
                Ok(buf) => buf,
                Err(e) => {
                    let help = (e.offset >= text.len())
                        .then(|| {
                            format!(
                                "`stream pack` reads one message per line (JSON lines), and \
                                 line {number} ends inside one: `flatforge json --compact` \
                                 prints a message on one line"
                            )
                        })
                        .or_else(|| e.help().map(String::from));
                    return Err(PackError::Line(BadLine {
                        message: format!(
                            "{}:{number}:{}: {}",
                            input_name(&args.input),
                            e.column,
                            e.kind
                        ),
                        help,
                    }));
                }
            };
            let written = if plain {
                w.write_size_prefixed(buf)
            } else {
                w.write_message(buf)
            };
            written.map_err(PackError::Write)?;
            if number.is_multiple_of(1024) {
                bar.set_position(consumed);
            }
        }
        bar.finish_and_clear();
        Ok(())
    }
}

fn verify(args: &VerifyArgs, out: &Output) -> anyhow::Result<ExitCode> {
    let Some(schema) = args.schema.load(out) else {
        return Ok(ExitCode::from(EXIT_INVALID));
    };
    let codec = Codec::new(&schema);
    let root = args.schema.root(&codec)?;
    let hash = schema_hash(&schema, root_object(&codec, &schema, root));
    let mut opened = open_stream(&args.read)?;
    let name = input_name(&args.read.input).into_owned();
    if let Err(e) = check_identity(opened.reader.header(), &codec, hash, args.read.any_schema) {
        return Ok(identity_error(&e, &name, out));
    }
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
                    if invalid <= MAX_REPORTED {
                        out.error(&format!("`{name}`: {e}"));
                    }
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
        if let Some(help) = framing_help(&e, &opened, &name) {
            out.help(&help);
        }
        return Ok(ExitCode::from(EXIT_INVALID));
    }
    if invalid > 0 {
        let shown = if invalid > MAX_REPORTED {
            format!(" (the first {MAX_REPORTED} are shown)")
        } else {
            String::new()
        };
        out.error(&format!(
            "`{name}`: {invalid} of {frames} messages are invalid{shown}"
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
            "ok: `{name}`: {} ({kind}{index})",
            count(frames, "frame")
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn recover(args: &RecoverArgs, out: &Output) -> anyhow::Result<ExitCode> {
    let schema_args = args.schema.as_ref().map(|schema| {
        SchemaArgs::new(schema.clone(), args.include.clone(), args.root_type.clone())
    });
    let schema = match &schema_args {
        Some(a) => match a.load(out) {
            Some(schema) => Some(schema),
            None => return Ok(ExitCode::from(EXIT_INVALID)),
        },
        None => None,
    };
    let codec = schema.as_ref().map(Codec::new);
    let root = match (&schema_args, &codec) {
        (Some(a), Some(c)) => Some(a.root(c)?),
        _ => None,
    };
    let name = args.file.display().to_string();
    let meta = std::fs::metadata(&args.file).with_context(|| format!("cannot open `{name}`"))?;
    if !meta.is_file() {
        anyhow::bail!("`{name}` is not a regular file: recover cuts a stream file in place");
    }
    let format = if args.plain {
        Format::Plain
    } else {
        Format::Framed
    };
    if let (Some(codec), Some(root), Some(schema), false) = (&codec, root, &schema, args.plain) {
        let file = File::open(&args.file).with_context(|| format!("cannot open `{name}`"))?;
        // A header too damaged to read is for recovery to judge.
        if let Ok(reader) = StreamReader::new(file, &ReaderOptions::default()) {
            let hash = schema_hash(schema, root_object(codec, schema, root));
            if let Err(e) = check_identity(reader.header(), codec, hash, args.any_schema) {
                return Ok(identity_error(&e, &name, out));
            }
        }
    }
    let opts = ReaderOptions::default().format(format);
    let check = |f: &Frame<'_>| match (&codec, root) {
        (Some(c), Some(r)) => f.verify_with(|f| c.verify(r, f.buffer(), &verify_options(f))),
        _ => Ok(()),
    };
    let result = if args.dry_run {
        let file = File::open(&args.file).with_context(|| format!("cannot open `{name}`"))?;
        flatforge_stream::recover(file, &opts, check)
    } else {
        recover_file(&args.file, &opts, check)
    };
    let r =
        match result {
            Ok(r) => r,
            Err(e) => {
                out.error(&format!("`{name}`: {e}"));
                // Not read as a plain stream unasked: one has no guards, so a file that is no
                // stream would be cut at its first bytes.
                if matches!(e, StreamError::BadMagic { .. }) && starts_as_plain(&args.file, check) {
                    out.help(&format!(
                        "it reads as a plain stream (bare size-prefixed buffers, no header): \
                     `flatforge stream recover --plain {name}` recovers it as one"
                    ));
                }
                match e {
                    StreamError::InvalidIntactFrame { intact_end, .. } => out.help(&format!(
                    "`flatforge stream verify -s {} {name}` lists the invalid messages; recover \
                     without -s checks only the framing. Without checksums, a frame whose bytes \
                     a power loss zeroed looks complete: if the invalid frame is the last, \
                     `truncate -s {intact_end} {name}` drops it",
                    args.schema.as_deref().unwrap_or(Path::new("SCHEMA")).display()
                )),
                    StreamError::FramedNotPlain => out.help(&format!(
                    "`flatforge stream recover {name}` (without --plain) recovers a framed stream"
                )),
                    _ => {}
                }
                return Ok(ExitCode::from(EXIT_INVALID));
            }
        };
    match &r.damage {
        None => print_line(format_args!(
            "intact: `{name}`: {}{}",
            count(r.frames, "frame"),
            if r.indexed { ", indexed" } else { "" }
        ))?,
        Some(damage) => {
            let verb = if args.dry_run { "would cut" } else { "cut" };
            let kept = match r.frames {
                0 => "no frame was complete".to_string(),
                1 => "keeping the 1 complete frame".to_string(),
                n => format!("keeping all {n} complete frames"),
            };
            print_line(format_args!(
                "{verb} `{name}` from {} to {}, {kept}: {damage}",
                r.original_len,
                count(r.valid_len, "byte")
            ))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Whether the file at `path` starts with a complete plain frame that passes `check`.
fn starts_as_plain(path: &Path, check: impl FnOnce(&Frame<'_>) -> Result<(), StreamError>) -> bool {
    let Ok(file) = File::open(path) else {
        return false;
    };
    let opts = ReaderOptions::default().format(Format::Plain);
    let Ok(mut reader) = StreamReader::new(file, &opts) else {
        return false;
    };
    matches!(reader.next_frame(), Ok(Some(frame)) if check(&frame).is_ok())
}
