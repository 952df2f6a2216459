//! Source files: where schema text comes from and how positions in it are named.
//!
//! The compiler never touches the file system directly: it asks a [`SourceLoader`] whether a path
//! exists and for its bytes. [`FsLoader`] reads real files; [`MemoryLoader`] serves a map of
//! in-memory files, which the build crate, the fuzzers and the tests use. Every file that took part
//! in a compilation is kept in a [`SourceMap`], so diagnostics can quote the text later.
//!
//! ```
//! use flatforge_schema::{Compiler, MemoryLoader};
//! let mut files = MemoryLoader::new();
//! files.insert("schemas/common.fbs", "struct Id { v: ulong; }");
//! files.insert("schemas/user.fbs", "include \"common.fbs\"; table User { id: Id; }");
//! let out = Compiler::new(files).compile("schemas/user.fbs").unwrap();
//! let paths: Vec<_> = out.sources.files.iter().map(|f| f.path.display().to_string()).collect();
//! assert_eq!(paths, ["schemas/user.fbs", "schemas/common.fbs"]);
//! ```

use std::borrow::Cow;
use std::ffi::OsString;
use std::io;
use std::path::{Component, Path, PathBuf};

use rustc_hash::FxHashMap;

use crate::file_path::FilePath;
use crate::lexer::first_byte;

/// Identifies one file of a [`SourceMap`] (and of a [`crate::Schema`]'s file list).
///
/// ```
/// let mut loader = flatforge_schema::MemoryLoader::new();
/// loader.insert("a.fbs", "table A {}");
/// let out = flatforge_schema::Compiler::new(loader).compile("a.fbs").unwrap();
/// assert_eq!(out.schema.objects[0].file, flatforge_schema::FileId(0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

impl FileId {
    /// The index of the file in [`SourceMap::files`] and [`crate::Schema::files`].
    ///
    /// ```
    /// use flatforge_schema::{Compiler, MemoryLoader};
    /// let mut loader = MemoryLoader::new();
    /// loader.insert("dep.fbs", "table Dep {}");
    /// let compiled = Compiler::new(loader)
    ///     .compile_text("main.fbs", "include \"dep.fbs\"; table Main { d: Dep; }")?;
    /// let dep = compiled.schema.objects[0].file; // `Dep` sorts before `Main`
    /// assert_eq!(dep.index(), 1);
    /// assert_eq!(compiled.schema.files[dep.index()].path.to_str(), Some("dep.fbs"));
    /// assert_eq!(compiled.sources.files[dep.index()].bytes[..], b"table Dep {}"[..]);
    /// # Ok::<(), flatforge_schema::CompileError>(())
    /// ```
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A byte range in one source file.
///
/// ```
/// use flatforge_schema::{FileId, Span};
/// let span = Span::new(FileId(0), 6, 13);
/// assert_eq!(span.len(), 7);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Span {
    /// The file the range lies in.
    pub file: FileId,
    /// First byte of the range.
    pub start: u32,
    /// One past the last byte of the range.
    pub end: u32,
}

impl Span {
    /// A span from `start` to `end` in `file`.
    ///
    /// ```
    /// let s = flatforge_schema::Span::new(flatforge_schema::FileId(1), 2, 4);
    /// assert_eq!((s.start, s.end), (2, 4));
    /// ```
    pub fn new(file: FileId, start: u32, end: u32) -> Span {
        Span { file, start, end }
    }

    /// The length of the range in bytes.
    ///
    /// ```
    /// assert!(flatforge_schema::Span::new(flatforge_schema::FileId(0), 3, 3).is_empty());
    /// ```
    pub fn len(&self) -> usize {
        self.end.saturating_sub(self.start) as usize
    }

    /// Whether the range is empty (a position rather than a range).
    ///
    /// ```
    /// assert!(!flatforge_schema::Span::new(flatforge_schema::FileId(0), 3, 4).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.end <= self.start
    }

    /// The byte range as a `Range<usize>`.
    ///
    /// ```
    /// let s = flatforge_schema::Span::new(flatforge_schema::FileId(0), 3, 5);
    /// assert_eq!(s.range(), 3..5);
    /// ```
    pub fn range(&self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// One file that took part in a compilation: its path and its bytes.
///
/// ```
/// use flatforge_schema::{Compiler, FileId, MemoryLoader};
/// let compiled = Compiler::new(MemoryLoader::new()).compile_text("./a.fbs", "table A {}")?;
/// let file = compiled.sources.file(FileId(0));
/// assert_eq!(file.path.to_str(), Some("a.fbs"));
/// assert_eq!(&file.bytes[..], b"table A {}");
/// assert_eq!(file.text(compiled.schema.objects[0].span), "A");
/// # Ok::<(), flatforge_schema::CompileError>(())
/// ```
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The path the file was loaded from, normalized lexically (`a/./b/../c` becomes `a/c`).
    pub path: FilePath,
    /// The file's bytes. Schema files are UTF-8 text, but bytes that are not valid UTF-8 inside
    /// comments are tolerated (as flatc does), so the raw bytes are kept.
    pub bytes: Box<[u8]>,
}

impl SourceFile {
    /// The file's text for display: bytes that are not valid UTF-8, and control characters other
    /// than tabs and line breaks (which take no room on a terminal), are shown as `?` one for
    /// one, so byte offsets (spans) stay valid.
    ///
    /// ```
    /// let f = flatforge_schema::SourceFile { path: "x.fbs".into(), bytes: b"a\xffb\0c\td".to_vec().into() };
    /// assert_eq!(f.display_text(), "a?b?c\td");
    /// ```
    pub fn display_text(&self) -> Cow<'_, str> {
        let text = self.utf8_text();
        let hidden = |c: char| c.is_ascii_control() && !matches!(c, '\t' | '\n' | '\r');
        if text.contains(hidden) {
            return Cow::Owned(text.replace(hidden, "?"));
        }
        text
    }

    /// The file's text with bytes that are not valid UTF-8 shown as `?` one for one.
    fn utf8_text(&self) -> Cow<'_, str> {
        match std::str::from_utf8(&self.bytes) {
            Ok(s) => Cow::Borrowed(s),
            Err(_) => {
                let mut out = String::with_capacity(self.bytes.len());
                let mut rest: &[u8] = &self.bytes;
                loop {
                    match std::str::from_utf8(rest) {
                        Ok(s) => {
                            out.push_str(s);
                            break;
                        }
                        Err(e) => {
                            let (good, bad) = rest.split_at(e.valid_up_to());
                            out.push_str(std::str::from_utf8(good).unwrap_or_default());
                            let skip = e.error_len().unwrap_or(bad.len()).max(1);
                            out.extend(std::iter::repeat_n('?', skip));
                            rest = &bad[skip..];
                        }
                    }
                }
                Cow::Owned(out)
            }
        }
    }

    /// The text of `span` (which must lie in this file), or `""` when it is out of range or not
    /// UTF-8. Spans the lexer produces for names, numbers and string literals are always valid.
    ///
    /// ```
    /// use flatforge_schema::{FileId, SourceFile, Span};
    /// let f = SourceFile { path: "x.fbs".into(), bytes: b"table A {}".to_vec().into() };
    /// assert_eq!(f.text(Span::new(FileId(0), 6, 7)), "A");
    /// ```
    pub fn text(&self, span: Span) -> &str {
        self.bytes
            .get(span.range())
            .and_then(|b| std::str::from_utf8(b).ok())
            .unwrap_or("")
    }
}

/// A file's bytes as the analysis reads them: names, numbers and string constants are looked up
/// by span. The file is checked for UTF-8 once, so looking up a span of a valid file costs only
/// the char-boundary checks of slicing.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FileText<'s> {
    bytes: &'s [u8],
    /// The whole file, when it is valid UTF-8 (it is not when a comment holds invalid bytes).
    text: Option<&'s str>,
}

impl<'s> FileText<'s> {
    /// The text of a file of `bytes`; `text` is the same bytes as a `str`, when known.
    pub(crate) fn new(bytes: &'s [u8], text: Option<&'s str>) -> FileText<'s> {
        FileText {
            bytes,
            text: text.or_else(|| std::str::from_utf8(bytes).ok()),
        }
    }

    /// The file's bytes.
    pub(crate) fn bytes(&self) -> &'s [u8] {
        self.bytes
    }

    /// The text from byte `start` to `end` as a `String`, with bytes that are not UTF-8 replaced
    /// (as `String::from_utf8_lossy` does).
    pub(crate) fn lossy(&self, start: u32, end: u32) -> String {
        let range = start as usize..end as usize;
        if let Some(text) = self.text.and_then(|t| t.get(range.clone())) {
            return text.to_string();
        }
        String::from_utf8_lossy(self.bytes.get(range).unwrap_or_default()).into_owned()
    }

    /// The text of `span`, or `""` (as [`SourceFile::text`]).
    pub(crate) fn text(&self, span: Span) -> &'s str {
        match self.text {
            Some(t) => t.get(span.range()).unwrap_or(""),
            None => self
                .bytes
                .get(span.range())
                .and_then(|b| std::str::from_utf8(b).ok())
                .unwrap_or(""),
        }
    }
}

/// All files of a compilation, indexed by [`FileId`].
///
/// ```
/// let mut loader = flatforge_schema::MemoryLoader::new();
/// loader.insert("a.fbs", "table A {}");
/// let out = flatforge_schema::Compiler::new(loader).compile("a.fbs").unwrap();
/// assert_eq!(out.sources.file(flatforge_schema::FileId(0)).path.to_str(), Some("a.fbs"));
/// ```
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    /// The files, in the order they were loaded (the root file first).
    pub files: Vec<SourceFile>,
}

impl SourceMap {
    /// The file with the given id.
    ///
    /// # Panics
    /// When `id` does not belong to this map.
    ///
    /// ```
    /// let mut map = flatforge_schema::SourceMap::default();
    /// let id = map.add("a.fbs", b"table A {}".to_vec());
    /// assert_eq!(map.file(id).bytes.len(), 10);
    /// ```
    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.index()]
    }

    /// Adds a file and returns its id.
    ///
    /// ```
    /// let mut map = flatforge_schema::SourceMap::default();
    /// assert_eq!(map.add("a.fbs", Vec::new()), flatforge_schema::FileId(0));
    /// ```
    pub fn add(&mut self, path: impl Into<FilePath>, bytes: Vec<u8>) -> FileId {
        let id = FileId(self.files.len() as u32);
        self.files.push(SourceFile {
            path: path.into(),
            bytes: bytes.into_boxed_slice(),
        });
        id
    }

    /// The text covered by `span`, or `""` (see [`SourceFile::text`]).
    ///
    /// ```
    /// let mut map = flatforge_schema::SourceMap::default();
    /// let id = map.add("a.fbs", b"table A {}".to_vec());
    /// assert_eq!(map.text(flatforge_schema::Span::new(id, 0, 5)), "table");
    /// ```
    pub fn text(&self, span: Span) -> &str {
        self.files
            .get(span.file.index())
            .map(|f| f.text(span))
            .unwrap_or("")
    }
}

/// Where the compiler gets schema files from.
///
/// Includes are resolved the way flatc resolves them: first relative to the directory of the
/// including file, then relative to each include directory in order; the first candidate for
/// which [`SourceLoader::exists`] is true is read with [`SourceLoader::read`].
///
/// ```
/// use flatforge_schema::SourceLoader;
/// let mut loader = flatforge_schema::MemoryLoader::new();
/// loader.insert("dir/a.fbs", "table A {}");
/// assert!(loader.exists("dir/./a.fbs".as_ref()));
/// assert_eq!(loader.read("dir/a.fbs".as_ref()).unwrap(), b"table A {}");
/// ```
pub trait SourceLoader {
    /// Whether a file exists at `path`.
    ///
    /// ```
    /// use flatforge_schema::{MemoryLoader, SourceLoader};
    /// let mut loader = MemoryLoader::new();
    /// loader.insert("dir/a.fbs", "table A {}");
    /// assert!(loader.exists("dir/a.fbs".as_ref()));
    /// assert!(!loader.exists("a.fbs".as_ref()));
    /// ```
    fn exists(&self, path: &Path) -> bool;

    /// The bytes of the file at `path`.
    ///
    /// # Errors
    /// When the file cannot be read (it does not exist, or an I/O error).
    ///
    /// ```
    /// use flatforge_schema::{MemoryLoader, SourceLoader};
    /// let mut loader = MemoryLoader::new();
    /// loader.insert("a.fbs", "table A {}");
    /// assert_eq!(loader.read("a.fbs".as_ref())?, b"table A {}");
    /// let missing = loader.read("b.fbs".as_ref()).unwrap_err();
    /// assert_eq!(missing.kind(), std::io::ErrorKind::NotFound);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    fn read(&self, path: &Path) -> io::Result<Vec<u8>>;

    /// Whether something that is not a file is at `path` (a directory, a device): an include that
    /// names one is reported as such rather than as missing. By default nothing is.
    ///
    /// ```
    /// use flatforge_schema::{FsLoader, MemoryLoader, SourceLoader};
    /// assert!(FsLoader.is_not_a_file(&std::env::temp_dir()));
    /// assert!(!FsLoader.is_not_a_file("no/such/file.fbs".as_ref()));
    /// assert!(!MemoryLoader::new().is_not_a_file("dir".as_ref()));
    /// ```
    fn is_not_a_file(&self, path: &Path) -> bool {
        let _ = path;
        false
    }
}

/// Reads schema files from the file system.
///
/// ```
/// use flatforge_schema::{Compiler, FsLoader, SourceLoader};
/// let dir = std::env::temp_dir().join(format!("flatforge-fsloader-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("lib"))?;
/// std::fs::write(dir.join("main.fbs"), "include \"point.fbs\"; table Main { p: Point; }")?;
/// std::fs::write(dir.join("lib/point.fbs"), "struct Point { x: float; y: float; }")?;
/// assert!(FsLoader.exists(&dir.join("main.fbs")));
/// let result = Compiler::new(FsLoader).include_dir(dir.join("lib")).compile(dir.join("main.fbs"));
/// std::fs::remove_dir_all(&dir)?;
/// let schema = result?.schema;
/// assert_eq!(schema[schema.find_object("Point").unwrap()].bytesize, 8);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct FsLoader;

impl SourceLoader for FsLoader {
    fn exists(&self, path: &Path) -> bool {
        path.is_file()
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        std::fs::read(path)
    }

    fn is_not_a_file(&self, path: &Path) -> bool {
        path.metadata().is_ok_and(|m| !m.is_file())
    }
}

/// Serves schema files from memory, keyed by lexically normalized path.
///
/// ```
/// let mut loader = flatforge_schema::MemoryLoader::new();
/// loader.insert("main.fbs", "include \"lib/types.fbs\"; table Main { t: T; }");
/// loader.insert("lib/types.fbs", "table T {}");
/// let out = flatforge_schema::Compiler::new(loader).compile("main.fbs").unwrap();
/// assert_eq!(out.schema.objects.len(), 2);
/// ```
#[derive(Clone, Debug, Default)]
pub struct MemoryLoader {
    /// Keyed by the normalized path's bytes (hashing a `Path` goes component by component).
    files: FxHashMap<OsString, Vec<u8>>,
}

impl MemoryLoader {
    /// An empty set of files.
    ///
    /// ```
    /// use flatforge_schema::SourceLoader;
    /// assert!(!flatforge_schema::MemoryLoader::new().exists("a.fbs".as_ref()));
    /// ```
    pub fn new() -> MemoryLoader {
        MemoryLoader::default()
    }

    /// Adds (or replaces) the file at `path`.
    ///
    /// ```
    /// use flatforge_schema::{MemoryLoader, SourceLoader};
    /// let mut loader = MemoryLoader::new();
    /// loader.insert("dir/../a.fbs", "table A {}");
    /// loader.insert("a.fbs", "table B {}"); // the same normalized path: replaces it
    /// assert_eq!(loader.read("./a.fbs".as_ref()).unwrap(), b"table B {}");
    /// ```
    pub fn insert(&mut self, path: impl AsRef<Path>, contents: impl Into<Vec<u8>>) {
        self.files.insert(
            normalize_path(path.as_ref()).into_os_string(),
            contents.into(),
        );
    }
}

impl MemoryLoader {
    fn get(&self, path: &Path) -> Option<&Vec<u8>> {
        if is_normal(path) {
            self.files.get(path.as_os_str())
        } else {
            self.files.get(normalize_path(path).as_os_str())
        }
    }
}

impl SourceLoader for MemoryLoader {
    fn exists(&self, path: &Path) -> bool {
        self.get(path).is_some()
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        self.get(path)
            .cloned()
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "no such in-memory file"))
    }
}

impl<L: SourceLoader + ?Sized> SourceLoader for &L {
    fn exists(&self, path: &Path) -> bool {
        (**self).exists(path)
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        (**self).read(path)
    }
}

/// Normalizes a path lexically: drops `.` components and folds `dir/..` pairs (a leading `..`
/// stays).
///
/// ```
/// use std::path::Path;
/// assert_eq!(flatforge_schema::normalize_path(Path::new("a/./b/../c.fbs")), Path::new("a/c.fbs"));
/// assert_eq!(flatforge_schema::normalize_path(Path::new("../x.fbs")), Path::new("../x.fbs"));
/// ```
pub fn normalize_path(path: &Path) -> PathBuf {
    if is_normal(path) {
        return path.to_path_buf();
    }
    let mut out = PathBuf::new();
    let mut depth = 0usize;
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if depth > 0 {
                    out.pop();
                    depth -= 1;
                } else {
                    out.push("..");
                }
            }
            Component::Normal(part) => {
                out.push(part);
                depth += 1;
            }
            other => {
                out.push(other.as_os_str());
                depth = 0;
            }
        }
    }
    out
}

/// `path`, lexically normalized as [`normalize_path`] does, as the compilation keeps it. A path
/// given as text (`&str`) becomes a [`FilePath`] without a UTF-8 check.
pub(crate) fn normalized<P: AsRef<Path> + Into<FilePath>>(path: P) -> FilePath {
    if is_normal(path.as_ref()) {
        return path.into();
    }
    FilePath::from(normalize_path(path.as_ref()))
}

/// Whether `path` is already normal: plain names joined by single `/`, as most paths are.
fn is_normal(path: &Path) -> bool {
    if std::path::MAIN_SEPARATOR != '/' {
        return false;
    }
    let bytes = path.as_os_str().as_encoded_bytes();
    // Each component, up to a `/` or the end, is neither empty nor `.` nor `..`. The `/`s are
    // found eight bytes at a time (`split` and `all`, or a loop over the bytes, took twice the
    // instructions for a file name).
    let normal_part = |part: &[u8]| !matches!(part, [] | [b'.'] | [b'.', b'.']);
    let mut rest = bytes;
    while let Some(at) = first_byte(rest, b'/') {
        if !normal_part(&rest[..at]) {
            return false;
        }
        rest = &rest[at + 1..];
    }
    normal_part(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_byte_finds_a_slash_at_any_position() {
        for len in 0..20 {
            let name = vec![b'a'; len];
            assert!(first_byte(&name, b'/').is_none(), "{len}");
            for at in 0..len {
                let mut with = name.clone();
                with[at] = b'/';
                assert_eq!(first_byte(&with, b'/'), Some(at), "{len} {at}");
                // Bytes that differ from `/` in one bit, and bytes with the high bit set.
                for b in [b'/' ^ 1, b'/' ^ 0x80, 0xff, 0x00, b'.'] {
                    with[at] = b;
                    assert!(first_byte(&with, b'/').is_none(), "{len} {at} {b}");
                }
            }
        }
    }

    #[test]
    fn normalize_path_takes_the_fast_path_only_for_normal_paths() {
        let cases = [
            ("a.fbs", "a.fbs"),
            ("a_long_file_name.fbs", "a_long_file_name.fbs"),
            ("a_long_directory/a.fbs", "a_long_directory/a.fbs"),
            ("a_long_directory/.", "a_long_directory"),
            ("...", "..."),
            ("dir/a.fbs", "dir/a.fbs"),
            ("dir//a.fbs", "dir/a.fbs"),
            ("dir/./a.fbs", "dir/a.fbs"),
            ("./a.fbs", "a.fbs"),
            ("dir/", "dir"),
            ("/abs/a.fbs", "/abs/a.fbs"),
            ("../a.fbs", "../a.fbs"),
            ("x/../a.fbs", "a.fbs"),
            ("..a/b.fbs", "..a/b.fbs"),
            (".hidden/a.fbs", ".hidden/a.fbs"),
            ("a/..", ""),
            ("..", ".."),
            ("a/.", "a"),
            ("", ""),
        ];
        for (input, expected) in cases {
            assert_eq!(
                normalize_path(Path::new(input)),
                Path::new(expected),
                "{input}"
            );
            assert_eq!(
                normalize_path(Path::new(input)).as_os_str(),
                Path::new(expected).as_os_str(),
                "{input}"
            );
        }
    }
}
