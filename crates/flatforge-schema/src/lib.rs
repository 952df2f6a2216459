//! The FlatBuffers schema compiler front end: `.fbs` text to the resolved, laid-out [`Schema`].
//!
//! ```
//! use flatforge_schema::{BaseType, DefaultValue};
//! let schema = flatforge_schema::compile_str(
//!     "monster.fbs",
//!     "table Monster { name: string; hp: short = 100; mana: short = 50; }",
//! )
//! .unwrap();
//! let monster = &schema.objects[0];
//! assert_eq!(monster.fields[1].ty.base_type, BaseType::Short);
//! assert_eq!(monster.fields[1].default, DefaultValue::Int(100));
//! assert_eq!(monster.fields[2].offset, 8); // vtable slot of field id 2
//! ```
//!
//! Compiling files, with includes and include directories, goes through a [`Compiler`] and a
//! [`SourceLoader`] ([`FsLoader`] for real files, [`MemoryLoader`] for in-memory ones). Errors
//! come back as [`Diagnostic`] values; [`render`] prints them with source snippets.
//!
//! The language is the one flatc 25.12.19 accepts, with flatc's verdicts: the analysis replays
//! flatc's single pass (see the `analyze` module), so a schema is accepted exactly when flatc
//! accepts it. The known, deliberate exceptions: a struct that contains itself is rejected
//! (flatc accepts it when other fields come first, and computes a meaningless layout), and so is
//! an enum named as its own underlying type, `enum E : E` (flatc takes it for `int`).
//!
//! Modules: `lexer` (bytes to tokens), `parser` (tokens to syntax trees), `analyze` (names,
//! checks, layout), [`model`] (the output), `name` (the model's inline strings, [`Name`]),
//! `file_path` (the files' paths, inline when short, [`FilePath`]),
//! `name_index` (the name order of fields and enum values, inline for few of them), `id_list`
//! (the model's lists of ids, [`IdList`]),
//! [`diagnostic`] (errors and their rendering), [`source`] (files and loaders), `number`
//! (flatc-exact number parsing), `one_or_many` (the per-file containers, which need no
//! allocation for a single file).
#![deny(missing_docs)]

mod analyze;
pub mod diagnostic;
mod file_path;
mod id_list;
mod lexer;
pub mod model;
mod name;
mod name_index;
mod number;
mod one_or_many;
mod parser;
pub mod source;
mod suggest;

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use one_or_many::OneOrMany;

pub use diagnostic::{render, Code, Diagnostic, Label, Severity};
pub use model::{
    AdvancedFeatures, AttrValue, Attribute, Attributes, BaseType, DefaultValue, Enum, EnumId,
    EnumVal, Field, FilePath, HashKind, IdList, Name, Object, ObjectId, Presence, RpcCall, Schema,
    SchemaFile, Service, ServiceId, Type, TypeRef,
};
use source::normalized;
pub use source::{
    normalize_path, FileId, FsLoader, MemoryLoader, SourceFile, SourceLoader, SourceMap, Span,
};
pub use suggest::{closest, listed};

/// A successful compilation: the schema, the warnings, and the files (to render warnings).
///
/// ```
/// use flatforge_schema::{Compiler, MemoryLoader};
/// let compiled = Compiler::new(MemoryLoader::new())
///     .compile_text("a.fbs", "table T { a: int (deprecated, deprecated); }")?;
/// assert_eq!(compiled.schema.objects[0].name, "T");
/// assert_eq!(compiled.warnings.len(), 1);
/// let text = flatforge_schema::render(&compiled.warnings, &compiled.sources, false);
/// assert!(text.starts_with("warning: attribute `deprecated` is given twice"));
/// # Ok::<(), flatforge_schema::CompileError>(())
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Compiled {
    /// The resolved schema.
    pub schema: Schema,
    /// Warnings (the schema is valid nonetheless).
    pub warnings: Vec<Diagnostic>,
    /// The files that were read.
    pub sources: SourceMap,
}

/// A failed compilation: at least one error.
///
/// ```
/// let err = flatforge_schema::compile_str("a.fbs", "table T { a: int; a: int; }").unwrap_err();
/// assert_eq!(err.error_count(), 1);
/// assert!(err.to_string().contains("1 error"));
/// ```
#[derive(Clone, Debug, thiserror::Error)]
#[error("schema compilation failed with {} error(s)", self.error_count())]
#[non_exhaustive]
pub struct CompileError {
    /// Errors and warnings, in source order (files in the order they were loaded, the root
    /// file first).
    pub diagnostics: Vec<Diagnostic>,
    /// The files that were read (to render the diagnostics).
    pub sources: SourceMap,
}

impl CompileError {
    /// The number of errors (warnings not counted).
    ///
    /// ```
    /// let err = flatforge_schema::compile_str("a.fbs", "table T { a: A; b: B; }").unwrap_err();
    /// assert_eq!(err.error_count(), 2);
    /// ```
    pub fn error_count(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }

    /// The diagnostics rendered as text (see [`render`]).
    ///
    /// ```
    /// let err = flatforge_schema::compile_str("a.fbs", "table T { a: A; }").unwrap_err();
    /// assert!(err.render(false).contains("unknown type `A`"));
    /// ```
    pub fn render(&self, color: bool) -> String {
        render(&self.diagnostics, &self.sources, color)
    }
}

/// Compiles one schema given as text, without includes (any `include` fails to resolve).
///
/// ```
/// let schema = flatforge_schema::compile_str("a.fbs", "struct P { x: float; y: float; }").unwrap();
/// assert_eq!(schema.objects[0].bytesize, 8);
/// let err = flatforge_schema::compile_str("a.fbs", "include \"b.fbs\"; table T {}").unwrap_err();
/// assert!(err.render(false).contains("cannot find included file `b.fbs`"));
/// ```
pub fn compile_str(path: &str, text: &str) -> Result<Schema, CompileError> {
    let compiler = Compiler::new(NoFiles);
    let mut files = Loaded::root(
        Path::new(path),
        normalized(path),
        Cow::Borrowed(text.as_bytes()),
        Some(text),
    );
    let mut diagnostics = Vec::new();
    match compiler.run(&mut files, &mut diagnostics) {
        Some(schema) => Ok(schema),
        None => Err(CompileError {
            diagnostics,
            sources: source_map(&mut files),
        }),
    }
}

/// The loader of [`compile_str`]: it has no files (an empty [`MemoryLoader`] would do, at the
/// cost of making and dropping its map).
struct NoFiles;

impl SourceLoader for NoFiles {
    fn exists(&self, _: &Path) -> bool {
        false
    }

    fn read(&self, _: &Path) -> std::io::Result<Vec<u8>> {
        Err(std::io::ErrorKind::NotFound.into())
    }
}

/// Compiles schema files: a loader, include directories, and one root file per compilation.
///
/// Includes are looked up relative to the including file, then in each include directory in
/// order (as flatc's `-I`). A file included twice, or in a cycle, is compiled once (flatc's rule:
/// same file name and same contents).
///
/// ```
/// let mut loader = flatforge_schema::MemoryLoader::new();
/// loader.insert("schemas/main.fbs", "include \"common.fbs\"; table Main { c: Common; }");
/// loader.insert("lib/common.fbs", "table Common {}");
/// let compiled = flatforge_schema::Compiler::new(loader)
///     .include_dir("lib")
///     .compile("schemas/main.fbs")
///     .unwrap();
/// assert_eq!(compiled.schema.files.len(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct Compiler<L> {
    loader: L,
    include_dirs: Vec<PathBuf>,
}

impl<L: SourceLoader> Compiler<L> {
    /// A compiler reading files through `loader`.
    ///
    /// ```
    /// use flatforge_schema::{Compiler, MemoryLoader, SourceLoader};
    /// let compiler = Compiler::new(MemoryLoader::new());
    /// assert!(!compiler.loader().exists("a.fbs".as_ref()));
    /// let compiled = compiler.compile_text("a.fbs", "table A {}")?;
    /// assert_eq!(compiled.schema.objects[0].name, "A");
    /// # Ok::<(), flatforge_schema::CompileError>(())
    /// ```
    pub fn new(loader: L) -> Compiler<L> {
        Compiler {
            loader,
            include_dirs: Vec::new(),
        }
    }

    /// Adds an include directory (searched after the including file's directory, in order).
    ///
    /// ```
    /// use flatforge_schema::{Compiler, MemoryLoader};
    /// let mut loader = MemoryLoader::new();
    /// loader.insert("lib/common.fbs", "table Common {}");
    /// let main = "include \"common.fbs\"; table Main { c: Common; }";
    /// assert!(Compiler::new(&loader).compile_text("main.fbs", main).is_err());
    /// let compiled = Compiler::new(&loader).include_dir("lib").compile_text("main.fbs", main)?;
    /// assert_eq!(compiled.schema.files[1].path.to_str(), Some("lib/common.fbs"));
    /// # Ok::<(), flatforge_schema::CompileError>(())
    /// ```
    pub fn include_dir(mut self, dir: impl Into<PathBuf>) -> Compiler<L> {
        self.include_dirs.push(dir.into());
        self
    }

    /// The loader.
    ///
    /// ```
    /// use flatforge_schema::SourceLoader;
    /// let mut loader = flatforge_schema::MemoryLoader::new();
    /// loader.insert("a.fbs", "table A {}");
    /// let compiler = flatforge_schema::Compiler::new(loader);
    /// assert!(compiler.loader().exists("a.fbs".as_ref()));
    /// ```
    pub fn loader(&self) -> &L {
        &self.loader
    }

    /// Compiles the schema at `path` and everything it includes.
    ///
    /// ```
    /// let mut loader = flatforge_schema::MemoryLoader::new();
    /// loader.insert("a.fbs", "table A { x: int; }");
    /// let compiled = flatforge_schema::Compiler::new(loader).compile("a.fbs").unwrap();
    /// assert!(compiled.warnings.is_empty());
    /// ```
    pub fn compile(&self, path: impl AsRef<Path>) -> Result<Compiled, CompileError> {
        let path = path.as_ref();
        match self.loader.read(path) {
            Ok(bytes) => self.run_owned(path, Cow::Owned(bytes), None),
            Err(e) => Err(CompileError {
                diagnostics: vec![Diagnostic::new(
                    Severity::Error,
                    Code::Io,
                    format!("cannot read schema `{}`: {e}", path.display()),
                    None,
                )],
                sources: SourceMap::default(),
            }),
        }
    }

    /// Compiles a root schema given as text; its includes are read through the loader,
    /// relative to `path`'s directory and the include directories.
    ///
    /// ```
    /// let mut loader = flatforge_schema::MemoryLoader::new();
    /// loader.insert("dir/dep.fbs", "enum E : byte { A }");
    /// let compiled = flatforge_schema::Compiler::new(loader)
    ///     .compile_text("dir/main.fbs", "include \"dep.fbs\"; table T { e: E; }")
    ///     .unwrap();
    /// assert_eq!(compiled.schema.enums.len(), 1);
    /// ```
    pub fn compile_text(
        &self,
        path: impl AsRef<Path>,
        text: &str,
    ) -> Result<Compiled, CompileError> {
        self.run_owned(path.as_ref(), Cow::Borrowed(text.as_bytes()), Some(text))
    }

    /// [`compile_text`](Self::compile_text) for bytes, which need not be UTF-8 (the error says
    /// where they are not): a schema read from a pipe, say.
    ///
    /// ```
    /// let compiler = flatforge_schema::Compiler::new(flatforge_schema::MemoryLoader::new());
    /// assert!(compiler.compile_bytes("<stdin>", b"table T { a: int; }").is_ok());
    /// let err = compiler.compile_bytes("<stdin>", b"table T { a: int; } \xFF").unwrap_err();
    /// assert!(err.render(false).contains("<stdin>:1:21"));
    /// ```
    pub fn compile_bytes(
        &self,
        path: impl AsRef<Path>,
        bytes: &[u8],
    ) -> Result<Compiled, CompileError> {
        self.run_owned(path.as_ref(), Cow::Borrowed(bytes), None)
    }

    /// [`Compiler::run`], keeping the files for the result (`text` is `bytes` when they were
    /// given as text).
    fn run_owned(
        &self,
        root_path: &Path,
        bytes: Cow<'_, [u8]>,
        text: Option<&str>,
    ) -> Result<Compiled, CompileError> {
        let mut files = Loaded::root(root_path, normalized(root_path), bytes, text);
        let mut diagnostics = Vec::new();
        match self.run(&mut files, &mut diagnostics) {
            Some(schema) => Ok(Compiled {
                schema,
                warnings: diagnostics,
                sources: source_map(&mut files),
            }),
            None => Err(CompileError {
                diagnostics,
                sources: source_map(&mut files),
            }),
        }
    }

    /// Loads the includes of the root file (`files` holds the root file, and gets the others,
    /// indexed by [`FileId`]), then analyzes them all: after syntax errors and missing includes
    /// too, what did parse (the analysis leaves out the errors that may only follow from what
    /// did not). Diagnostics are appended to `diagnostics` (warnings only, when a schema comes
    /// back), in source order. The files keep their paths (for the diagnostics); the schema
    /// has copies.
    fn run(
        &self,
        files: &mut OneOrMany<Loaded<'_>>,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Option<Schema> {
        let first_new = diagnostics.len();
        Load {
            compiler: self,
            files,
            diagnostics,
        }
        .visit(FileId(0));
        let loaded = !diagnostics[first_new..].iter().any(Diagnostic::is_error);
        // (The analysis puts the diagnostics from `first_new` on in source order: the schema
        // then comes back without another copy.)
        analyze::analyze(files, loaded, diagnostics, first_new)
    }
}

/// One file of a compilation while it runs: the text is borrowed when the caller gave it.
pub(crate) struct Loaded<'t> {
    /// The normalized path (for the model and the diagnostics).
    pub(crate) path: FilePath,
    /// The path the file was read from (not normalized), to resolve its includes.
    raw_path: Cow<'t, Path>,
    /// flatc's identity of the file (see [`file_key`]), computed when an include needs it.
    key: Option<u64>,
    pub(crate) bytes: Cow<'t, [u8]>,
    /// `bytes` as text, when the caller gave them as a `str` (they need no UTF-8 check then).
    pub(crate) text: Option<&'t str>,
    /// The syntax tree (always there: it leaves only when the file is dropped).
    ast: Option<Box<parser::FileAst>>,
    /// For each `include` of the header, in order: the file it resolved to (None when it could
    /// not be loaded, which is already an error).
    pub(crate) includes: Vec<Option<FileId>>,
}

impl<'t> Loaded<'t> {
    /// The files of a compilation before loading: the root file, read from `path`, whose
    /// normalized form is `normal` (`text` is `bytes` when they were given as text).
    fn root(
        path: &'t Path,
        normal: FilePath,
        bytes: Cow<'t, [u8]>,
        text: Option<&'t str>,
    ) -> OneOrMany<Loaded<'t>> {
        let mut root = Loaded::new(normal, Cow::Borrowed(path), bytes);
        root.text = text;
        OneOrMany::One(root)
    }

    fn new(path: FilePath, raw_path: Cow<'t, Path>, bytes: Cow<'t, [u8]>) -> Loaded<'t> {
        Loaded {
            path,
            raw_path,
            key: None,
            bytes,
            text: None,
            ast: Some(parser::FileAst::new()),
            includes: Vec::new(),
        }
    }

    /// The syntax tree.
    pub(crate) fn ast(&self) -> &parser::FileAst {
        self.ast.as_deref().unwrap_or(&parser::EMPTY_AST)
    }

    /// The syntax tree, to fill.
    fn ast_mut(&mut self) -> &mut parser::FileAst {
        self.ast.get_or_insert_with(parser::FileAst::new)
    }
}

impl Drop for Loaded<'_> {
    fn drop(&mut self) {
        // The tree's memory serves the next compilation on this thread.
        if let Some(ast) = self.ast.take() {
            ast.recycle();
        }
    }
}

/// The files of a compilation, for its result (their paths and texts move out of `files`).
fn source_map(files: &mut [Loaded<'_>]) -> SourceMap {
    let mut map = SourceMap::default();
    map.files.reserve_exact(files.len());
    for f in files {
        let bytes = std::mem::take(&mut f.bytes).into_owned();
        map.add(std::mem::take(&mut f.path), bytes);
    }
    map
}

/// flatc identifies a file by its name (without directories) and its contents: the contents
/// part, as a hash (the length and the name are compared beside it).
fn file_key(bytes: &[u8]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    bytes.hash(&mut h);
    h.finish()
}

/// Loading: parse a file, resolve and load its includes depth first.
struct Load<'a, 't, L> {
    compiler: &'a Compiler<L>,
    files: &'a mut OneOrMany<Loaded<'t>>,
    diagnostics: &'a mut Vec<Diagnostic>,
}

/// A file being loaded: its includes resolved so far, and the header items still to resolve.
struct Visit {
    id: FileId,
    header: Vec<parser::HeaderItem>,
    next: usize,
    resolved: Vec<Option<FileId>>,
}

impl<L: SourceLoader> Load<'_, '_, L> {
    /// Parses `root` and, depth first, every file it includes, each once. An explicit stack, not
    /// recursion: a chain of thousands of includes must not overflow the thread's stack.
    fn visit(&mut self, root: FileId) {
        let first = self.start(root);
        if first.header.is_empty() {
            // Nothing to load (no stack to allocate); the file kept its header, and has no
            // includes.
            return;
        }
        let mut stack = vec![first];
        while let Some(top) = stack.last_mut() {
            let Some(item) = top.header.get(top.next) else {
                let done = stack.pop().expect("a file being loaded");
                self.done(done);
                continue;
            };
            top.next += 1;
            let parser::HeaderItem::Include(lit, span) = *item else {
                continue;
            };
            let (id, span) = (top.id, span);
            let file = &self.files[id.index()];
            let name = file.ast().str_value(&file.bytes, lit).replace('\\', "/");
            let (target, new) = match self.resolve(id, &name, span) {
                Some((target, new)) => (Some(target), new),
                None => (None, false),
            };
            stack
                .last_mut()
                .expect("the including file")
                .resolved
                .push(target);
            if let (Some(target), true) = (target, new) {
                stack.push(self.start(target));
            }
        }
    }

    /// Gives a loaded file its header back (unless it kept it), with the files its includes
    /// resolved to.
    fn done(&mut self, visit: Visit) {
        let file = &mut self.files[visit.id.index()];
        if !visit.header.is_empty() {
            file.ast_mut().header = visit.header;
        }
        file.includes = visit.resolved;
    }

    /// Parses file `id` and sets its header aside for [`visit`](Self::visit) (loading an include
    /// may move the files). An empty header stays with the file, which then needs no
    /// [`done`](Self::done).
    fn start(&mut self, id: FileId) -> Visit {
        let index = id.index();
        let file = &mut self.files[index];
        let ast = file.ast.get_or_insert_with(parser::FileAst::new);
        parser::parse(&file.bytes, id, index == 0, ast, self.diagnostics);
        let header = if ast.header.is_empty() {
            Vec::new()
        } else {
            std::mem::take(&mut ast.header)
        };
        Visit {
            id,
            header,
            next: 0,
            resolved: Vec::new(),
        }
    }

    /// The file that `include "name"` in `from` names, and whether it is newly loaded (not yet
    /// parsed); `None` after reporting that it cannot be found or read.
    fn resolve(&mut self, from: FileId, name: &str, span: Span) -> Option<(FileId, bool)> {
        // flatc's order: the including file's directory, the `-I` directories, then the root
        // schema's directory (flatc adds it to the include path), so that a file in a
        // subdirectory can include one beside the root schema.
        let parent = |id: usize| self.files[id].raw_path.parent().unwrap_or(Path::new(""));
        let (dir, root_dir) = (parent(from.index()), parent(0));
        let root_dir = (root_dir != dir).then_some(root_dir);
        let dirs = || {
            std::iter::once(dir)
                .chain(self.compiler.include_dirs.iter().map(|d| d.as_path()))
                .chain(root_dir)
        };
        let Some(path) = dirs()
            .map(|d| d.join(name))
            .find(|c| self.compiler.loader.exists(c))
        else {
            if let Some(other) = dirs()
                .map(|d| d.join(name))
                .find(|c| self.compiler.loader.is_not_a_file(c))
            {
                self.diagnostics.push(Diagnostic::error(
                    Code::Io,
                    format!(
                        "included `{name}` is not a schema file: `{}` is a directory or a device",
                        normalize_path(&other).display()
                    ),
                    span,
                ));
                return None;
            }
            let searched: Vec<String> = dirs()
                .map(|d| format!("`{}`", normalize_path(&d.join(name)).display()))
                .collect();
            self.diagnostics.push(
                Diagnostic::error(
                    Code::Io,
                    format!("cannot find included file `{name}`"),
                    span,
                )
                .with_note(format!("looked for {}", searched.join(", ")))
                .with_help(
                    "add the directory that holds it to the include path: `-I DIR` on the command \
                     line, `Config::include_dir` in flatforge-build",
                ),
            );
            return None;
        };
        let bytes = match self.compiler.loader.read(&path) {
            Ok(b) => b,
            Err(e) => {
                self.diagnostics.push(Diagnostic::error(
                    Code::Io,
                    format!("cannot read included file `{}`: {e}", path.display()),
                    span,
                ));
                return None;
            }
        };
        let key = file_key(&bytes);
        let name = path.file_name();
        for (i, f) in self.files.iter_mut().enumerate() {
            let fkey = *f.key.get_or_insert_with(|| file_key(&f.bytes));
            if fkey == key && f.bytes.len() == bytes.len() && f.raw_path.file_name() == name {
                return Some((FileId(i as u32), false));
            }
        }
        let id = FileId(self.files.len() as u32);
        let mut loaded = Loaded::new(
            normalized(path.as_path()),
            Cow::Owned(path),
            Cow::Owned(bytes),
        );
        loaded.key = Some(key);
        self.files.push(loaded);
        Some((id, true))
    }
}
