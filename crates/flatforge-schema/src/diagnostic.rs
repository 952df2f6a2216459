//! Diagnostics: errors and warnings as values, and their rendering as text.
//!
//! The compiler never prints. It returns [`Diagnostic`]s that carry a [`Severity`], a
//! [`Code`] (what kind of problem it is, for programs), a message (for people), a primary span,
//! secondary labels and help/notes. [`render`] turns them into the familiar
//! `error: ... --> file:line:col` text with source snippets (optionally colored), for the CLI and
//! the build crate.
//!
//! ```
//! use flatforge_schema::{Code, Severity};
//! let err = flatforge_schema::compile_str("a.fbs", "table T { a: int; a: int; b: Strng; }").unwrap_err();
//! // Every error of the run, each with a code, a message and a span.
//! let codes: Vec<Code> = err.diagnostics.iter().map(|d| d.code).collect();
//! assert!(codes.contains(&Code::Duplicate) && codes.contains(&Code::UnknownType), "{codes:?}");
//! assert!(err.diagnostics.iter().all(|d| d.severity == Severity::Error));
//! let text = flatforge_schema::render(&err.diagnostics, &err.sources, false);
//! assert!(text.contains("--> a.fbs:1:30"), "{text}");
//! ```

use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::{Error as FilesError, Files, Location, SimpleFiles};
use codespan_reporting::term;

use crate::source::{SourceMap, Span};

/// How serious a diagnostic is.
///
/// Warnings come back with a schema ([`crate::Compiled::warnings`]); errors without one
/// ([`crate::CompileError`]). `Warning < Error`, so the worst of a list is its maximum.
///
/// ```
/// use flatforge_schema::{Compiler, MemoryLoader, Severity};
/// // An attribute given twice is accepted, with a warning.
/// let compiled = Compiler::new(MemoryLoader::new())
///     .compile_text("a.fbs", "table T { a: int (deprecated, deprecated); }")?;
/// assert_eq!(compiled.warnings[0].severity, Severity::Warning);
/// assert!(Severity::Warning < Severity::Error);
/// # Ok::<(), flatforge_schema::CompileError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Something worth knowing; the schema is still valid.
    Warning,
    /// The schema is invalid.
    Error,
}

/// What kind of problem a diagnostic reports: stable names programs can match on.
///
/// ```
/// let err = flatforge_schema::compile_str("a.fbs", "table T { x: Nope; }").unwrap_err();
/// assert_eq!(err.diagnostics[0].code, flatforge_schema::Code::UnknownType);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Code {
    /// A file could not be read, or an include could not be found.
    Io,
    /// The text is not valid schema syntax (bad token, unexpected token, empty file).
    Syntax,
    /// A type name that refers to nothing.
    UnknownType,
    /// A second definition of a name that is already defined.
    Duplicate,
    /// An attribute that is neither built in nor declared with `attribute "name";`.
    UnknownAttribute,
    /// An attribute used where it does not apply, or with a value it does not accept.
    InvalidAttribute,
    /// A default value that does not fit its field.
    InvalidDefault,
    /// An enum or union declaration problem (underlying type, values, bit flags).
    InvalidEnum,
    /// A field whose type is not allowed where it is used.
    InvalidFieldType,
    /// Field `id` attributes that are missing, out of order or invalid.
    InvalidId,
    /// A `key` field problem.
    InvalidKey,
    /// A `required` field problem.
    InvalidRequired,
    /// A struct problem: empty, circular, `force_align`, deprecated fields.
    InvalidStruct,
    /// A `root_type`, `file_identifier` or `rpc_service` problem.
    InvalidDeclaration,
    /// A field name that would clash with generated code.
    NameClash,
    /// An include whose definitions are not used by the including file.
    UnusedInclude,
    /// An attribute given twice on the same item.
    DuplicateAttribute,
    /// A questionable but accepted construct (flatc accepts it too).
    Questionable,
}

/// A labelled span.
///
/// ```
/// use flatforge_schema::{Compiler, Label, MemoryLoader};
/// let compiled = Compiler::new(MemoryLoader::new())
///     .compile_text("a.fbs", "table T { a: int (deprecated, deprecated); }")?;
/// let first: &Label = &compiled.warnings[0].secondary[0];
/// assert_eq!(first.message, "first given here");
/// assert_eq!(compiled.sources.text(first.span), "deprecated");
/// assert_eq!(first.span.range(), 18..28);
/// # Ok::<(), flatforge_schema::CompileError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What about it (may be empty).
    pub message: String,
}

/// One error or warning.
///
/// ```
/// let err = flatforge_schema::compile_str("a.fbs", "table T { x: Monstr; } table Monster {}")
///     .unwrap_err();
/// let d = &err.diagnostics[0];
/// assert_eq!(d.severity, flatforge_schema::Severity::Error);
/// assert!(d.help.iter().any(|h| h.contains("Monster")));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The kind of problem.
    pub code: Code,
    /// What is wrong, in one sentence.
    pub message: String,
    /// The main location, when there is one (there is none for a root file that cannot be read).
    pub primary: Option<Label>,
    /// Related locations ("first defined here").
    pub secondary: Vec<Label>,
    /// Extra explanations.
    pub notes: Vec<String>,
    /// Suggestions ("did you mean `Monster`?").
    pub help: Vec<String>,
}

impl Diagnostic {
    /// An error with a primary span.
    ///
    /// ```
    /// use flatforge_schema::{Code, Diagnostic, FileId, Span};
    /// let d = Diagnostic::error(Code::Syntax, "oops", Span::new(FileId(0), 0, 1));
    /// assert!(d.is_error());
    /// ```
    pub fn error(code: Code, message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic::new(Severity::Error, code, message, Some(span))
    }

    /// A warning with a primary span.
    ///
    /// ```
    /// use flatforge_schema::{Code, Diagnostic, FileId, Span};
    /// let d = Diagnostic::warning(Code::UnusedInclude, "unused", Span::new(FileId(0), 0, 1));
    /// assert!(!d.is_error());
    /// ```
    pub fn warning(code: Code, message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic::new(Severity::Warning, code, message, Some(span))
    }

    /// A diagnostic of any severity, with or without a span.
    ///
    /// ```
    /// use flatforge_schema::{Code, Diagnostic, Severity};
    /// let d = Diagnostic::new(Severity::Error, Code::Io, "cannot read a.fbs", None);
    /// assert!(d.primary.is_none());
    /// ```
    pub fn new(
        severity: Severity,
        code: Code,
        message: impl Into<String>,
        span: Option<Span>,
    ) -> Diagnostic {
        Diagnostic {
            severity,
            code,
            message: message.into(),
            primary: span.map(|span| Label {
                span,
                message: String::new(),
            }),
            secondary: Vec::new(),
            notes: Vec::new(),
            help: Vec::new(),
        }
    }

    /// Whether this is an error (rather than a warning).
    ///
    /// ```
    /// use flatforge_schema::{Code, Diagnostic, Severity};
    /// assert!(Diagnostic::new(Severity::Error, Code::Io, "x", None).is_error());
    /// ```
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Sets the label text of the primary span.
    ///
    /// ```
    /// use flatforge_schema::{Code, Diagnostic, FileId, Span};
    /// let d = Diagnostic::error(Code::Syntax, "x", Span::new(FileId(0), 0, 1)).with_label("here");
    /// assert_eq!(d.primary.unwrap().message, "here");
    /// ```
    pub fn with_label(mut self, message: impl Into<String>) -> Diagnostic {
        if let Some(primary) = &mut self.primary {
            primary.message = message.into();
        }
        self
    }

    /// Adds a secondary label.
    ///
    /// ```
    /// use flatforge_schema::{Code, Diagnostic, FileId, Span};
    /// let s = Span::new(FileId(0), 0, 1);
    /// let d = Diagnostic::error(Code::Duplicate, "x", s).with_secondary(s, "first here");
    /// assert_eq!(d.secondary.len(), 1);
    /// ```
    pub fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.secondary.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    /// Adds a note.
    ///
    /// ```
    /// use flatforge_schema::{Code, Diagnostic, Severity};
    /// let d = Diagnostic::new(Severity::Error, Code::Io, "x", None).with_note("because");
    /// assert_eq!(d.notes, ["because"]);
    /// ```
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// Adds a help line.
    ///
    /// ```
    /// use flatforge_schema::{Code, Diagnostic, Severity};
    /// let d = Diagnostic::new(Severity::Error, Code::Io, "x", None).with_help("try this");
    /// assert_eq!(d.help, ["try this"]);
    /// ```
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help.push(help.into());
        self
    }
}

/// Renders diagnostics as text, with source snippets, in the style of rustc:
///
/// ```text
/// error: unknown type `Monstr`
///   --> a.fbs:1:14
///   |
/// 1 | table T { x: Monstr; } table Monster {}
///   |              ^^^^^^ not defined (check the namespace)
///   |
///   = help: did you mean `Monster`?
/// ```
///
/// With `color`, the text contains ANSI color codes (use it only when writing to a terminal).
///
/// ```
/// let err = flatforge_schema::compile_str("a.fbs", "table T { x: Monstr; } table Monster {}")
///     .unwrap_err();
/// let text = flatforge_schema::render(&err.diagnostics, &err.sources, false);
/// assert!(text.starts_with("error: unknown type `Monstr`\n  --> a.fbs:1:14\n"));
/// assert!(text.contains("= help: did you mean `Monster`?"));
/// assert!(flatforge_schema::render(&err.diagnostics, &err.sources, true).contains('\x1b'));
/// ```
pub fn render(diagnostics: &[Diagnostic], sources: &SourceMap, color: bool) -> String {
    // A byte order mark is shown as nothing: it would take a column (and shift every location
    // on the first line by one), so it is left out and the labels move back over it.
    let mut files = SimpleFiles::new();
    let mut bom = Vec::with_capacity(sources.files.len());
    for file in &sources.files {
        let text = file.display_text();
        let skip = if text.starts_with('\u{feff}') {
            '\u{feff}'.len_utf8()
        } else {
            0
        };
        files.add(file.path.display().to_string(), text[skip..].to_owned());
        bom.push(skip);
    }
    let config = term::Config {
        chars: term::Chars::ascii(),
        ..term::Config::default()
    };
    let mut buffer = if color {
        term::termcolor::Buffer::ansi()
    } else {
        term::termcolor::Buffer::no_color()
    };
    for diagnostic in diagnostics {
        let mut converted = convert(diagnostic);
        for label in &mut converted.labels {
            let skip = bom.get(label.file_id).copied().unwrap_or(0);
            label.range =
                label.range.start.saturating_sub(skip)..label.range.end.saturating_sub(skip);
        }
        let view = View::clip(&files, sources.files.len(), &mut converted.labels);
        if term::emit_to_write_style(&mut buffer, &config, &view, &converted).is_err() {
            // A span outside its file cannot be shown; fall back to the bare message.
            let plain = cs::Diagnostic::new(converted.severity)
                .with_message(converted.message.clone())
                .with_notes(converted.notes.clone());
            let _ = term::emit_to_write_style(&mut buffer, &config, &files, &plain);
        }
    }
    String::from_utf8_lossy(buffer.as_slice()).into_owned()
}

/// Lines longer than this (in bytes) are shown in part: windows around the labels' ends.
const LONG_LINE: usize = 120;

/// How much of a long line a window shows on each side of a label's start or end, in bytes.
const CONTEXT: usize = 40;

/// The sources as one diagnostic shows them. A file whose labelled lines are all short is shown
/// as it is. Otherwise the labels move to an excerpt of the file: the lines where labels start or
/// end (not the lines between), each long one cut to windows around the labels' starts and ends,
/// joined and framed by `...` (as rustc does). The snippet of a diagnostic on a minified schema then stays short, and rendering many
/// of them costs time in proportion to their number, not to their number times the line length.
/// Locations (`--> file:line:col`) and line numbers are the file's own.
struct View<'a> {
    files: &'a SimpleFiles<String, String>,
    /// How many files `files` holds: the excerpts' file ids follow.
    count: usize,
    excerpts: Vec<Excerpt>,
}

/// Part of a file, for [`View`].
struct Excerpt {
    /// The file it is cut from.
    file: usize,
    text: String,
    /// Where each line starts in `text`.
    line_starts: Vec<usize>,
    /// The file's index of each line.
    lines: Vec<usize>,
    /// The pieces of the file in `text`, in order: (start in `text`, start in the file, length).
    pieces: Vec<(usize, usize, usize)>,
}

impl<'a> View<'a> {
    /// The view for `labels`, whose ranges it moves into the excerpts it makes.
    fn clip(
        files: &'a SimpleFiles<String, String>,
        count: usize,
        labels: &mut [cs::Label<usize>],
    ) -> View<'a> {
        let mut view = View {
            files,
            count,
            excerpts: Vec::new(),
        };
        let mut ids: Vec<usize> = labels.iter().map(|l| l.file_id).collect();
        ids.sort_unstable();
        ids.dedup();
        for file in ids {
            let Ok(source) = files.get(file).map(|f| f.source().as_str()) else {
                continue;
            };
            let of_file = |l: &&mut cs::Label<usize>| l.file_id == file;
            // (line, byte) of each label's start and end.
            let mut ends: Vec<(usize, usize)> = Vec::new();
            for l in labels.iter_mut().filter(of_file) {
                for b in [l.range.start, l.range.end] {
                    match files.line_index(file, b) {
                        Ok(i) if b <= source.len() => ends.push((i, b)),
                        // Left to the renderer, which reports it.
                        _ => return view,
                    }
                }
            }
            let line = |i: usize| content(source, files.line_range(file, i).unwrap_or(0..0));
            if ends.iter().all(|&(i, _)| line(i).len() <= LONG_LINE) {
                continue;
            }
            ends.sort_unstable();
            let mut lines: Vec<usize> = ends.iter().map(|e| e.0).collect();
            lines.dedup();
            let mut excerpt = Excerpt {
                file,
                text: String::new(),
                line_starts: Vec::new(),
                lines: Vec::new(),
                pieces: Vec::new(),
            };
            for i in lines {
                match excerpt.lines.last() {
                    // One line between: the renderer shows it, as it would in the file.
                    Some(&last) if i == last + 2 => {
                        excerpt.push_line(source, line(last + 1), std::iter::empty());
                        excerpt.lines.push(last + 1);
                    }
                    // More: two empty lines stand for them, which the renderer shows as `.`.
                    Some(&last) if i > last + 2 => {
                        for n in [last + 1, i - 1] {
                            excerpt.line_starts.push(excerpt.text.len());
                            excerpt.text.push('\n');
                            excerpt.lines.push(n);
                        }
                    }
                    _ => {}
                }
                let on_line = ends.iter().filter(|e| e.0 == i).map(|e| e.1);
                excerpt.push_line(source, line(i), on_line);
                excerpt.lines.push(i);
            }
            let id = count + view.excerpts.len();
            for l in labels.iter_mut().filter(|l| l.file_id == file) {
                l.range = excerpt.map(l.range.start)..excerpt.map(l.range.end);
                l.file_id = id;
            }
            view.excerpts.push(excerpt);
        }
        view
    }

    fn excerpt(&self, id: usize) -> Option<&Excerpt> {
        id.checked_sub(self.count)
            .and_then(|i| self.excerpts.get(i))
    }
}

/// The line `range` of `source` without its line break.
fn content(source: &str, range: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let text = &source[range.clone()];
    let kept = text.trim_end_matches(['\n', '\r']).len();
    range.start..range.start + kept
}

impl Excerpt {
    /// Appends the line `line` of `source`: whole when it is short, else windows of it around
    /// the label ends on it, `ends`, with `...` where text is left out.
    fn push_line(
        &mut self,
        source: &str,
        line: std::ops::Range<usize>,
        ends: impl Iterator<Item = usize>,
    ) {
        self.line_starts.push(self.text.len());
        let mut windows: Vec<(usize, usize)> = if line.len() <= LONG_LINE {
            vec![(line.start, line.end)]
        } else {
            ends.map(|b| {
                let b = b.min(line.end);
                (
                    b.saturating_sub(CONTEXT).max(line.start),
                    (b + CONTEXT).min(line.end),
                )
            })
            .collect()
        };
        for w in &mut windows {
            while !source.is_char_boundary(w.0) {
                w.0 -= 1;
            }
            while !source.is_char_boundary(w.1) {
                w.1 += 1;
            }
        }
        windows.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::with_capacity(windows.len());
        for (start, end) in windows {
            match merged.last_mut() {
                Some(last) if start <= last.1 => last.1 = last.1.max(end),
                _ => merged.push((start, end)),
            }
        }
        let mut at = line.start;
        for (start, end) in merged {
            if start > at {
                self.text.push_str("...");
            }
            self.pieces.push((self.text.len(), start, end - start));
            self.text.push_str(&source[start..end]);
            at = end;
        }
        if at < line.end {
            self.text.push_str("...");
        }
        self.text.push('\n');
    }

    /// Where byte `at` of the file is in the excerpt: in a piece, or at the end of the piece
    /// before it (a label end on a line break).
    fn map(&self, at: usize) -> usize {
        let i = self.pieces.partition_point(|&(_, start, _)| start <= at);
        self.pieces
            .get(i.saturating_sub(1))
            .map_or(0, |&(text, start, len)| {
                text + at.saturating_sub(start).min(len)
            })
    }

    /// Where byte `at` of the excerpt is in the file.
    fn unmap(&self, at: usize) -> usize {
        let i = self.pieces.partition_point(|&(text, _, _)| text <= at);
        self.pieces
            .get(i.saturating_sub(1))
            .map_or(0, |&(text, start, len)| {
                start + at.saturating_sub(text).min(len)
            })
    }
}

impl<'a> Files<'a> for View<'a> {
    type FileId = usize;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: usize) -> Result<&'a str, FilesError> {
        let file = self.excerpt(id).map_or(id, |e| e.file);
        Ok(self.files.get(file)?.name().as_str())
    }

    fn source(&'a self, id: usize) -> Result<&'a str, FilesError> {
        match self.excerpt(id) {
            Some(e) => Ok(&e.text),
            None => Ok(self.files.get(id)?.source().as_str()),
        }
    }

    fn line_index(&'a self, id: usize, byte_index: usize) -> Result<usize, FilesError> {
        match self.excerpt(id) {
            Some(e) => Ok(e
                .line_starts
                .partition_point(|&s| s <= byte_index)
                .saturating_sub(1)),
            None => self.files.line_index(id, byte_index),
        }
    }

    fn line_number(&'a self, id: usize, line_index: usize) -> Result<usize, FilesError> {
        let line = match self.excerpt(id) {
            Some(e) => e.lines.get(line_index).copied().unwrap_or(line_index),
            None => line_index,
        };
        Ok(line + 1)
    }

    fn location(&'a self, id: usize, byte_index: usize) -> Result<Location, FilesError> {
        match self.excerpt(id) {
            Some(e) => self.files.location(e.file, e.unmap(byte_index)),
            None => self.files.location(id, byte_index),
        }
    }

    fn line_range(
        &'a self,
        id: usize,
        line_index: usize,
    ) -> Result<std::ops::Range<usize>, FilesError> {
        let Some(e) = self.excerpt(id) else {
            return self.files.line_range(id, line_index);
        };
        let start = *e
            .line_starts
            .get(line_index)
            .ok_or(FilesError::LineTooLarge {
                given: line_index,
                max: e.line_starts.len().saturating_sub(1),
            })?;
        let end = e
            .line_starts
            .get(line_index + 1)
            .copied()
            .unwrap_or(e.text.len());
        Ok(start..end)
    }
}

fn convert(d: &Diagnostic) -> cs::Diagnostic<usize> {
    let severity = match d.severity {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
    };
    let mut labels = Vec::new();
    if let Some(primary) = &d.primary {
        labels.push(
            cs::Label::primary(primary.span.file.index(), primary.span.range())
                .with_message(primary.message.clone()),
        );
    }
    for label in &d.secondary {
        labels.push(
            cs::Label::secondary(label.span.file.index(), label.span.range())
                .with_message(label.message.clone()),
        );
    }
    let mut notes: Vec<String> = d.notes.iter().map(|n| format!("note: {n}")).collect();
    notes.extend(d.help.iter().map(|h| format!("help: {h}")));
    cs::Diagnostic::new(severity)
        .with_message(d.message.clone())
        .with_labels(labels)
        .with_notes(notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_order_mark_takes_no_column() {
        let render_of = |text: &str| {
            let err = crate::compile_str("a.fbs", text).unwrap_err();
            render(&err.diagnostics, &err.sources, false)
        };
        let plain = render_of("table T { x: Monstr; }");
        assert!(plain.contains("a.fbs:1:14"), "{plain}");
        assert_eq!(render_of("\u{feff}table T { x: Monstr; }"), plain);
    }

    /// An excerpt holds the lines where labels start or end, not the lines between: labels far
    /// apart in a file of long lines used to copy every line between them, for each diagnostic
    /// (quadratic time over many such diagnostics).
    #[test]
    fn an_excerpt_leaves_out_the_lines_between_labels() {
        let long = format!("table T {{}} /*{}*/\n", "x".repeat(200));
        let text = long.repeat(3000);
        let mut files = SimpleFiles::new();
        files.add("a.fbs".to_string(), text.clone());
        let at = |line: usize| line * long.len() + 6;
        let mut labels = vec![
            cs::Label::primary(0, at(2999)..at(2999) + 1),
            cs::Label::secondary(0, at(0)..at(0) + 1),
            cs::Label::secondary(0, at(2)..at(2) + 1),
        ];
        let view = View::clip(&files, 1, &mut labels);
        let e = &view.excerpts[0];
        // Lines 0 and 2, the one between (the renderer shows a single line between), two empty
        // lines for the 2,996 left out, and line 2999.
        assert_eq!(e.lines, [0, 1, 2, 3, 2998, 2999]);
        assert!(e.text.len() < 1000, "{} bytes", e.text.len());
        for (label, line) in labels.iter().zip([2999, 0, 2]) {
            assert_eq!(label.file_id, 1);
            assert_eq!(&e.text[label.range.clone()], "T");
            let loc = view.location(1, label.range.start).unwrap();
            assert_eq!((loc.line_number, loc.column_number), (line + 1, 7));
        }
    }
}
