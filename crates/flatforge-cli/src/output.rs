//! Output shared by all subcommands: diagnostics and messages on stderr, colored only when
//! stderr is a terminal (or when `--color always` asks for it), and the exit codes.

use std::fmt;
use std::io::{self, IsTerminal, Write};

use std::path::Path;

use flatforge_schema::{CompileError, Diagnostic, SourceMap};

/// Exit code for invalid input (a schema with errors, an unreadable file, bad data).
pub(crate) const EXIT_INVALID: u8 = 1;

/// The exit status for a usage error (clap's own).
pub(crate) const EXIT_USAGE: u8 = 2;

/// `n` and `word`, plural unless `n` is 1: `1 error`, `3 errors`.
pub(crate) fn count<N: fmt::Display + PartialEq + From<u8>>(n: N, word: &str) -> String {
    if n == N::from(1) {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// The `--color` choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ColorChoice {
    /// Color when stderr is a terminal and `NO_COLOR` is not set.
    Auto,
    /// Always color.
    Always,
    /// Never color.
    Never,
}

/// Where subcommands write diagnostics and messages.
pub(crate) struct Output {
    color: bool,
}

impl Output {
    pub(crate) fn new(choice: ColorChoice) -> Output {
        let color = match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
            }
        };
        Output { color }
    }

    /// Prints diagnostics (with source snippets) to stderr.
    pub(crate) fn diagnostics(&self, diagnostics: &[Diagnostic], sources: &SourceMap) {
        if diagnostics.is_empty() {
            return;
        }
        let text = flatforge_schema::render(diagnostics, sources, self.color);
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(text.as_bytes());
    }

    /// Prints the diagnostics of a schema that failed to compile, then `PATH: N errors` (unless
    /// the one error is that the file could not be read, which names it already).
    pub(crate) fn compile_error(&self, path: &Path, err: &CompileError) {
        self.diagnostics(&err.diagnostics, &err.sources);
        let n = err.error_count();
        let unread = matches!(&err.diagnostics[..], [d] if d.primary.is_none());
        if !unread {
            self.error(&format!("{}: {}", path.display(), count(n, "error")));
        }
    }

    /// Prints an error message that has no source location.
    pub(crate) fn error(&self, message: &str) {
        self.line(
            "\x1b[1;31merror\x1b[0m\x1b[1m: {}\x1b[0m",
            "error: {}",
            message,
        );
    }

    /// Prints a warning: something the command did that the user should know.
    pub(crate) fn warning(&self, message: &str) {
        self.line(
            "\x1b[1;33mwarning\x1b[0m\x1b[1m: {}\x1b[0m",
            "warning: {}",
            message,
        );
    }

    /// Prints advice that follows an error, as `  = help: ...`.
    pub(crate) fn help(&self, message: &str) {
        self.line("  \x1b[1m= help\x1b[0m: {}", "  = help: {}", message);
    }

    /// Prints a fact that explains an error, as `  = note: ...`.
    pub(crate) fn note(&self, message: &str) {
        self.line("  \x1b[1m= note\x1b[0m: {}", "  = note: {}", message);
    }

    /// Prints `message` on stderr in `colored` or `plain` (each with one `{}` for it).
    fn line(&self, colored: &str, plain: &str, message: &str) {
        let form = if self.color { colored } else { plain };
        let (before, after) = form.split_once("{}").expect("a form holds {}");
        let _ = writeln!(std::io::stderr().lock(), "{before}{message}{after}");
    }
}

/// A failed write to standard output; `main` ends quietly on one that met a closed pipe
/// (`| head`), as ripgrep does. The I/O error is its source, not part of its message: `main`
/// prints the chain (`cannot write to stdout: No space left on device`), each cause once.
#[derive(Debug)]
pub(crate) struct StdoutError(pub(crate) io::Error);

impl fmt::Display for StdoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("cannot write to stdout")
    }
}

impl std::error::Error for StdoutError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

/// An error in the arguments that shows only once the input is read (a root type the schema does
/// not have, say): `main` exits with [`EXIT_USAGE`] for it.
#[derive(Debug)]
pub(crate) struct UsageError(pub(crate) String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Warns about each `-I` directory that is not a directory (a typo would otherwise show only as
/// an include not found, or not at all).
pub(crate) fn warn_missing_dirs(dirs: &[std::path::PathBuf], out: &Output) {
    for dir in dirs.iter().filter(|d| !d.is_dir()) {
        out.warning(&format!("-I `{}` is not a directory", dir.display()));
    }
}

/// Whether `data` starts like JSON text (for the hint that a FlatBuffer was expected).
pub(crate) fn looks_like_json(data: &[u8]) -> bool {
    let head = &data[..data.len().min(256)];
    let text = head
        .strip_prefix(b"\xEF\xBB\xBF")
        .unwrap_or(head)
        .trim_ascii_start();
    // (A character cut at the window's end is still text.)
    let utf8 = std::str::from_utf8(head).map_or_else(|e| e.error_len().is_none(), |_| true);
    matches!(text.first(), Some(b'{' | b'[')) && !head.contains(&0) && utf8
}

/// Whether `data` holds NUL bytes early on: binary data, not text.
pub(crate) fn looks_binary(data: &[u8]) -> bool {
    data[..data.len().min(256)].contains(&0)
}

/// A temporary file beside `out`, renamed to it when complete.
pub(crate) fn temp_path(out: &Path) -> std::path::PathBuf {
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".partial-{}", std::process::id()));
    out.with_file_name(name)
}

/// The file that writing to `path` replaces: the target of a symbolic link (which a rename over
/// the link would replace with a file), else `path` itself.
pub(crate) fn replaced_path(path: &Path) -> std::borrow::Cow<'_, Path> {
    let link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    match link.then(|| std::fs::canonicalize(path)) {
        Some(Ok(target)) => target.into(),
        _ => path.into(),
    }
}

/// Writes `parts` to the file at `path` so that a failure leaves the file as it was: into a
/// temporary file beside it, renamed over it when complete (over a link's target, not the link).
/// What is not a regular file (a FIFO, a device such as `/dev/stdout`) is written in place.
pub(crate) fn write_file(path: &Path, parts: &[&[u8]]) -> io::Result<()> {
    let path = &*replaced_path(path);
    let write = |file: &mut std::fs::File| -> io::Result<()> {
        for part in parts {
            file.write_all(part)?;
        }
        file.flush()
    };
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return write(&mut std::fs::OpenOptions::new().write(true).open(path)?);
    }
    let tmp = temp_path(path);
    let written = std::fs::File::create(&tmp)
        .and_then(|mut file| write(&mut file))
        .and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// The name messages give standard input (`-` among the arguments).
pub(crate) const STDIN_NAME: &str = "<stdin>";

/// An input's name in messages: its path, or `<stdin>` for `-`.
pub(crate) fn input_name(path: &Path) -> std::borrow::Cow<'_, str> {
    if path == Path::new("-") {
        STDIN_NAME.into()
    } else {
        path.to_string_lossy()
    }
}

/// Whether `-` (stdin, which can be read once) is among `paths` more than once: a usage error,
/// which this reports.
pub(crate) fn stdin_repeated(paths: &[std::path::PathBuf], out: &Output) -> bool {
    let repeated = paths.iter().filter(|p| *p == Path::new("-")).count() > 1;
    if repeated {
        out.error("`-` (stdin) given more than once");
    }
    repeated
}

/// Wraps an error of a write to standard output.
pub(crate) fn stdout_error(e: io::Error) -> anyhow::Error {
    anyhow::Error::new(StdoutError(e))
}

/// Prints a line on standard output: `println!` that returns its error instead of panicking.
pub(crate) fn print_line(line: fmt::Arguments<'_>) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    out.write_fmt(line)
        .and_then(|()| out.write_all(b"\n"))
        .map_err(stdout_error)
}

/// For a buffer that failed to verify, read with a size prefix of `prefix` bytes (4 or 8): when the
/// prefix gives fewer bytes than follow it, what the buffer is (errors give lengths and positions
/// within it, not within the file).
pub(crate) fn size_prefix_note(data: &[u8], prefix: usize) -> Option<String> {
    let size = prefix_value(data, prefix)?;
    let after = (data.len() - prefix) as u64;
    (size < after).then(|| {
        format!(
            "the size prefix says {size} bytes, so the buffer is the first {} of the file's {} bytes",
            size + prefix as u64,
            data.len()
        )
    })
}

/// Advice when a buffer that failed to verify, read with a size prefix of `prefix` bytes (0 for
/// none), starts with its own size in a prefix of the other size (4 or 8 bytes).
pub(crate) fn size_prefix_help(data: &[u8], prefix: usize) -> Option<&'static str> {
    let holds_length = |n: usize| {
        let size = prefix_value(data, n)?;
        Some(data.len() >= n + 8 && size == (data.len() - n) as u64)
    };
    if prefix != 4 && holds_length(4)? {
        return Some(match prefix {
            0 => "its first 4 bytes hold the length of the rest: add --size-prefixed to read a size-prefixed buffer",
            _ => "its first 4 bytes hold the length of the rest: use --size-prefixed (a 32-bit size prefix), not --size-prefixed64",
        });
    }
    (prefix != 8 && holds_length(8)?).then_some(match prefix {
        0 => "its first 8 bytes hold the length of the rest: add --size-prefixed64 to read a buffer with a 64-bit size prefix",
        _ => "its first 8 bytes hold the length of the rest: use --size-prefixed64 (a 64-bit size prefix), not --size-prefixed",
    })
}

/// The size in the first `prefix` bytes of `data` (a 4- or 8-byte little-endian size prefix);
/// `None` for another width or when `data` is shorter.
pub(crate) fn prefix_value(data: &[u8], prefix: usize) -> Option<u64> {
    match prefix {
        4 => Some(u32::from_le_bytes(data.get(..4)?.try_into().ok()?).into()),
        8 => Some(u64::from_le_bytes(data.get(..8)?.try_into().ok()?)),
        _ => None,
    }
}
