//! The parser: tokens of one file to its syntax tree ([`FileAst`]).
//!
//! The grammar is flatc's: a header of `include`/`native_include` statements, then declarations
//! (`namespace`, `table`, `struct`, `enum`, `union`, `root_type`, `file_identifier`,
//! `file_extension`, `attribute`, `rpc_service`). Keywords are contextual identifiers, as in
//! flatc. The tree holds spans, not strings: names are read back from the source when needed.
//! Its lists (fields, attributes, enum values, methods, name components, element types, call
//! arguments) are ranges of per-file arenas ([`List`], [`Id`]), so a file's tree takes a few
//! vectors however many declarations it has, and its nodes are plain `Copy` values.
//!
//! Everything that needs the meaning of names (which type a name denotes, whether a value fits)
//! is left to the analysis. On a syntax error the parser records a diagnostic and recovers, so
//! one run reports all syntax errors of a file, and the analysis can check what did parse:
//! - a missing `;` at the end of a field or statement is taken as written when the next token
//!   cannot continue the item (a field, a `}`, the end of the file, the next declaration);
//! - a field that fails is skipped (its table or struct is kept, marked [`ObjectDecl::partial`]);
//! - any other declaration that fails is skipped to its end: a `;` outside braces, the `}` that
//!   closes it, or the next declaration;
//! - a body without its `}` ends at the end of the file or at the next declaration.
//!
//! "The next declaration" is a keyword that starts one followed by its name (`table T`,
//! `attribute "a"`), which cannot occur inside a declaration. What failed to parse is recorded
//! in [`FileAst::lost`], so that the analysis does not report errors that may only follow from
//! it (a use of a table whose declaration failed).
//!
//! flatc rejects a root file that contains a NUL byte ("input file appears to be binary"), and
//! reads an included file as a C string, up to its first NUL byte: the parser reports the first
//! NUL byte of a root file (and lexes the rest, NUL bytes aside), and warns about an included
//! file that ends at one.

use std::cell::Cell;
use std::marker::PhantomData;

use crate::diagnostic::{Code, Diagnostic, Label};
use crate::lexer::{
    is_ident_cont, is_ident_start, LexError, Lexer, Tok, Token, NO_SMALL_INT, SMALL_INT_DIGITS,
};
use crate::number::plain_decimal;
use crate::source::{FileId, Span};

/// Deepest nesting of `[` in types or of calls in values (flatc's `FLATBUFFERS_MAX_PARSING_DEPTH`).
const MAX_DEPTH: u32 = 64;
/// Syntax errors reported per file before giving up on it.
const MAX_ERRORS: usize = 64;

/// A string constant: its span (quotes included) and, if it had escapes, its decoded value.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StrLit {
    pub span: Span,
    pub decoded: u32,
}

/// Consecutive items of one of a [`FileAst`]'s arenas (`ast.get(list)` gives the slice).
pub(crate) struct List<T> {
    start: u32,
    end: u32,
    item: PhantomData<fn() -> T>,
}

impl<T> List<T> {
    /// No items.
    pub(crate) const EMPTY: List<T> = List {
        start: 0,
        end: 0,
        item: PhantomData,
    };

    pub(crate) fn is_empty(self) -> bool {
        self.start == self.end
    }
}

// Derived impls would require `T: Clone`/`T: Debug`.
impl<T> Clone for List<T> {
    fn clone(&self) -> List<T> {
        *self
    }
}

impl<T> Copy for List<T> {}

impl<T> std::fmt::Debug for List<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

/// One item of one of a [`FileAst`]'s arenas (`ast.item(id)` gives it).
pub(crate) struct Id<T> {
    index: u32,
    item: PhantomData<fn() -> T>,
}

impl<T> Clone for Id<T> {
    fn clone(&self) -> Id<T> {
        *self
    }
}

impl<T> Copy for Id<T> {}

impl<T> std::fmt::Debug for Id<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{}", self.index)
    }
}

/// The arena of a [`FileAst`] that holds items of type `T`.
pub(crate) trait Arena<T> {
    fn arena(&self) -> &Vec<T>;
    fn arena_mut(&mut self) -> &mut Vec<T>;
}

macro_rules! arena {
    ($($field:ident: $t:ty),* $(,)?) => {
        $(impl Arena<$t> for FileAst {
            fn arena(&self) -> &Vec<$t> {
                &self.$field
            }
            fn arena_mut(&mut self) -> &mut Vec<$t> {
                &mut self.$field
            }
        })*
    };
}

arena!(
    fields: FieldDecl,
    attrs: AttrAst,
    enum_values: EnumValDecl,
    calls: RpcDecl,
    types: TypeAst,
    values: ValueAst,
    name_parts: Span,
);

/// A possibly dotted name (`A.B.C`): the span of each identifier.
#[derive(Clone, Copy, Debug)]
pub(crate) struct QualName {
    pub first: Span,
    /// The components after the first.
    pub rest: List<Span>,
    /// The span from the first to the last component.
    pub span: Span,
}

/// A type as written.
#[derive(Clone, Copy, Debug)]
pub(crate) enum TypeAst {
    /// A name of one word: a built-in scalar or `string`, or the name of an enum, union, table
    /// or struct.
    Word(Span),
    /// A dotted name (`A.B`) of an enum, union, table or struct.
    Named(QualName),
    /// `[T]`.
    Vector(Id<TypeAst>, Span),
    /// `[T:N]`, with the span of the integer written for `N`.
    Array(Id<TypeAst>, Span, Span),
}

impl TypeAst {
    pub(crate) fn span(&self) -> Span {
        match self {
            TypeAst::Word(s) => *s,
            TypeAst::Named(n) => n.span,
            TypeAst::Vector(_, s) | TypeAst::Array(_, _, s) => *s,
        }
    }
}

/// A value: a default (`= 5`) or an attribute value (`id: 3`).
#[derive(Clone, Copy, Debug)]
pub(crate) enum ValueAst {
    /// One token (integer, float, string or identifier); `sign` is a `+`/`-` written before an
    /// identifier (as in `-nan`).
    Token {
        kind: Tok,
        span: Span,
        decoded: u32,
        sign: Option<(u8, Span)>,
    },
    /// `name(value)`: flatc's conversion functions (`rad(180)`, `sin(x)`...).
    Call {
        name: Span,
        arg: Id<ValueAst>,
        span: Span,
    },
    /// `[]`.
    EmptyVector(Span),
}

impl ValueAst {
    pub(crate) fn span(&self) -> Span {
        match self {
            ValueAst::Token { span, sign, .. } => match sign {
                Some((_, s)) => Span::new(s.file, s.start, span.end),
                None => *span,
            },
            ValueAst::Call { span, .. } | ValueAst::EmptyVector(span) => *span,
        }
    }
}

/// `(name: value, ...)` entries.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AttrAst {
    /// The name's span; `name_decoded` is set when it was written as an escaped string.
    pub name: Span,
    pub name_is_string: bool,
    pub name_decoded: u32,
    pub value: Option<ValueAst>,
}

/// A range into [`FileAst::docs`].
pub(crate) type Docs = (u32, u32);

#[derive(Clone, Copy, Debug)]
pub(crate) struct FieldDecl {
    pub name: Span,
    pub ty: TypeAst,
    pub default: Option<ValueAst>,
    /// The value of `default` when it is an integer of at most [`SMALL_INT_DIGITS`] plain
    /// decimal digits (read once here, for the analysis; as [`crate::lexer::QuickToken`] has
    /// it); [`NO_SMALL_INT`] otherwise.
    pub small_default: u32,
    pub attrs: List<AttrAst>,
    pub docs: Docs,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct ObjectDecl {
    pub is_struct: bool,
    pub name: Span,
    pub attrs: List<AttrAst>,
    pub fields: List<FieldDecl>,
    pub docs: Docs,
    /// Some fields failed to parse: `fields` lacks them.
    pub partial: bool,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct EnumValDecl {
    pub name: QualName,
    pub alias_type: Option<TypeAst>,
    pub value: Option<Span>,
    pub attrs: List<AttrAst>,
    pub docs: Docs,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct EnumDecl {
    pub is_union: bool,
    pub name: Span,
    pub underlying: Option<TypeAst>,
    pub attrs: List<AttrAst>,
    pub values: List<EnumValDecl>,
    pub docs: Docs,
    pub open: Span,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct RpcDecl {
    pub name: Span,
    pub request: QualName,
    pub response: QualName,
    pub attrs: List<AttrAst>,
    pub docs: Docs,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct ServiceDecl {
    pub name: Span,
    pub attrs: List<AttrAst>,
    pub calls: List<RpcDecl>,
    pub docs: Docs,
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Decl {
    /// The components of the namespace name.
    Namespace(List<Span>),
    Object(ObjectDecl),
    Enum(EnumDecl),
    RootType(QualName),
    FileIdentifier(StrLit),
    FileExtension(StrLit),
    Attribute(StrLit, bool),
    Service(ServiceDecl),
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum HeaderItem {
    Include(StrLit, Span),
    NativeInclude(StrLit),
}

/// What a file's tree lacks after syntax errors (see the module documentation).
#[derive(Clone, Debug, Default)]
pub(crate) struct Lost {
    /// The names of the tables, structs, enums, unions and services that failed to parse.
    pub names: Vec<Span>,
    /// Declarations of any name may be missing, or be in another namespace than written: the
    /// error limit was reached, or a `namespace` or an `include` failed to parse.
    pub any_name: bool,
    /// `attribute` declarations may be missing: one failed to parse, or any name may be missing.
    pub attributes: bool,
}

/// The syntax tree of one file. Its nodes hold spans, not strings, and lists of nodes are
/// [`List`]s of the arenas here (no allocation per declaration, field or attribute list).
#[derive(Clone, Debug, Default)]
pub(crate) struct FileAst {
    pub header: Vec<HeaderItem>,
    pub decls: Vec<Decl>,
    /// The fields of all tables and structs.
    fields: Vec<FieldDecl>,
    /// All attribute lists.
    attrs: Vec<AttrAst>,
    /// The values of all enums and unions.
    enum_values: Vec<EnumValDecl>,
    /// The methods of all services.
    calls: Vec<RpcDecl>,
    /// Element types of vectors and arrays.
    types: Vec<TypeAst>,
    /// Arguments of calls in values.
    values: Vec<ValueAst>,
    /// Components of dotted names after the first, and of namespace names.
    name_parts: Vec<Span>,
    /// Spans of doc comment texts (after `///`), referenced by [`Docs`] ranges.
    pub docs: Vec<(u32, u32)>,
    /// Decoded values of string constants with escapes.
    pub strings: Vec<String>,
    /// What failed to parse.
    pub lost: Lost,
}

/// How many spare trees a thread keeps (see [`SPARES`]): enough for a schema and a few of the
/// files it includes.
const SPARES_KEPT: usize = 4;

thread_local! {
    /// Trees of files parsed earlier on this thread, emptied, the last one recycled first: their
    /// vectors keep their capacity for the next files, so that compiling a schema of a few
    /// files again allocates nothing for their trees.
    static SPARES: [Cell<Option<Box<FileAst>>>; SPARES_KEPT] =
        const { [const { Cell::new(None) }; SPARES_KEPT] };
}

/// An empty tree, for a file whose tree is gone.
pub(crate) static EMPTY_AST: FileAst = FileAst {
    header: Vec::new(),
    decls: Vec::new(),
    fields: Vec::new(),
    attrs: Vec::new(),
    enum_values: Vec::new(),
    calls: Vec::new(),
    types: Vec::new(),
    values: Vec::new(),
    name_parts: Vec::new(),
    docs: Vec::new(),
    strings: Vec::new(),
    lost: Lost {
        names: Vec::new(),
        any_name: false,
        attributes: false,
    },
};

/// The most memory, in bytes, that a spare tree (or the analyzer's spare slot list) keeps: a
/// large schema's is freed.
pub(crate) const MAX_SPARE_BYTES: usize = 64 * 1024;

impl FileAst {
    /// An empty tree: one of this thread's spares (the one recycled last), if it has one.
    pub(crate) fn new() -> Box<FileAst> {
        SPARES
            .try_with(|spares| spares.iter().find_map(Cell::take))
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    /// Empties the tree and keeps it as this thread's first spare, unless it holds much memory.
    /// The other spares move down a place; the last one is freed when all places are taken.
    #[inline]
    pub(crate) fn recycle(mut self: Box<FileAst>) {
        if self.clear() > MAX_SPARE_BYTES {
            return;
        }
        // A thread being torn down keeps no spare.
        let _ = SPARES.try_with(|spares| {
            let mut tree = self;
            for spare in spares {
                match spare.replace(Some(tree)) {
                    Some(older) => tree = older,
                    None => return,
                }
            }
        });
    }

    /// Empties the tree; returns the memory, in bytes, that its vectors keep.
    #[inline]
    fn clear(&mut self) -> usize {
        /// Empties `v`; returns the memory it keeps.
        fn empty<T>(v: &mut Vec<T>) -> usize {
            v.clear();
            v.capacity() * std::mem::size_of::<T>()
        }
        self.lost.any_name = false;
        self.lost.attributes = false;
        // (The strings first: dropping them may call the allocator, across which the other
        // vectors' capacities would have to be kept on the stack.)
        empty(&mut self.strings)
            + empty(&mut self.header)
            + empty(&mut self.decls)
            + empty(&mut self.fields)
            + empty(&mut self.attrs)
            + empty(&mut self.enum_values)
            + empty(&mut self.calls)
            + empty(&mut self.types)
            + empty(&mut self.values)
            + empty(&mut self.name_parts)
            + empty(&mut self.docs)
            + empty(&mut self.lost.names)
    }

    /// The items of `list`.
    pub(crate) fn get<T>(&self, list: List<T>) -> &[T]
    where
        FileAst: Arena<T>,
    {
        self.arena()
            .get(list.start as usize..list.end as usize)
            .unwrap_or_default()
    }

    /// The item `id`.
    pub(crate) fn item<T>(&self, id: Id<T>) -> &T
    where
        FileAst: Arena<T>,
    {
        &self.arena()[id.index as usize]
    }

    /// Adds `item` to its arena.
    fn add<T>(&mut self, item: T) -> Id<T>
    where
        FileAst: Arena<T>,
    {
        let arena = self.arena_mut();
        arena.push(item);
        Id {
            index: arena.len() as u32 - 1,
            item: PhantomData,
        }
    }

    /// Removes the last item of `T`'s arena.
    fn pop<T>(&mut self)
    where
        FileAst: Arena<T>,
    {
        self.arena_mut().pop();
    }

    /// The position in `T`'s arena where the next list starts (see [`FileAst::list_from`]).
    fn mark<T>(&self) -> u32
    where
        FileAst: Arena<T>,
    {
        self.arena().len() as u32
    }

    /// The items added to `T`'s arena since `start` (a [`FileAst::mark`]).
    fn list_from<T>(&self, start: u32) -> List<T>
    where
        FileAst: Arena<T>,
    {
        List {
            start,
            end: self.arena().len() as u32,
            item: PhantomData,
        }
    }

    /// The value of a string constant.
    pub(crate) fn str_value<'a>(&'a self, src: &'a [u8], lit: StrLit) -> &'a str {
        if lit.decoded != u32::MAX {
            return self
                .strings
                .get(lit.decoded as usize)
                .map_or("", |s| s.as_str());
        }
        let inner = lit.span.start as usize + 1..(lit.span.end as usize).saturating_sub(1);
        src.get(inner)
            .and_then(|b| std::str::from_utf8(b).ok())
            .unwrap_or("")
    }
}

/// Parses one file into `ast` (an empty tree), and appends its syntax errors to `diagnostics`.
/// `root` tells the file of the compilation from the files it includes (see the module
/// documentation for NUL bytes).
pub(crate) fn parse(
    src: &[u8],
    file: FileId,
    root: bool,
    ast: &mut FileAst,
    diagnostics: &mut Vec<Diagnostic>,
) {
    parse_with(src, file, root, ast, diagnostics, true);
}

/// [`parse`], with the parser's quick paths ([`Parser::quick_field`], [`Parser::quick_open`]) on
/// or off.
fn parse_with(
    src: &[u8],
    file: FileId,
    root: bool,
    ast: &mut FileAst,
    diagnostics: &mut Vec<Diagnostic>,
    quick: bool,
) {
    // What is read of the file: all of it, unless a NUL byte says otherwise. NUL bytes are rare:
    // the lexer notes the first one, and the file is parsed again where it changes what is read.
    let base = diagnostics.len();
    let nul = parse_text(src, file, ast, diagnostics, quick, false);
    if let Some(at) = nul {
        // A root file with several NUL bytes is binary data (a FlatBuffer given as a schema,
        // say): none of it is read, and its one error is the NUL byte, not one for every byte
        // that follows. An included file is read up to its first NUL byte.
        if !root || src[at + 1..].contains(&0) {
            diagnostics.truncate(base);
            ast.clear();
            let read = if root { &src[..0] } else { &src[..at] };
            parse_text(read, file, ast, diagnostics, quick, root);
        }
    }
    if diagnostics.len() - base >= MAX_ERRORS {
        ast.lost.any_name = true;
        ast.lost.attributes = true;
    }
    // (After parsing, which finds errors in order, and may go back on the last ones.)
    if let Some(at) = nul {
        diagnostics.push(nul_byte(file, src, at, root));
    }
}

/// Parses `read` into `ast` (see [`Parser::run`] for `binary`), its syntax errors appended to
/// `diagnostics`; returns where the first NUL byte of `read` is, if it has one.
#[inline(always)]
fn parse_text(
    read: &[u8],
    file: FileId,
    ast: &mut FileAst,
    diagnostics: &mut Vec<Diagnostic>,
    quick: bool,
    binary: bool,
) -> Option<usize> {
    let mut p = Parser::new(read, file, ast, diagnostics, quick);
    p.run(binary);
    let nul = p.lexer.first_nul();
    // The tree's lists are the empty ones that `Parser::new` left (the parser adds to the
    // lexer's): there is nothing to drop.
    let docs = std::mem::replace(&mut p.ast.docs, p.lexer.docs);
    let strings = std::mem::replace(&mut p.ast.strings, p.lexer.strings);
    debug_assert!(docs.capacity() == 0 && strings.capacity() == 0);
    std::mem::forget((docs, strings));
    nul
}

/// The report of the first NUL byte of a file, at byte `at` of `full` (an error in the `root`
/// file, a warning in an included one, which ends there).
#[cold]
fn nul_byte(file: FileId, full: &[u8], at: usize, root: bool) -> Diagnostic {
    let span = Span::new(file, at as u32, at as u32 + 1);
    if root {
        let count = full.iter().filter(|&&b| b == 0).count();
        let d = Diagnostic::error(Code::Syntax, "schema files cannot contain NUL bytes", span)
            .with_label("NUL byte")
            .with_note("flatc rejects the file as binary (\"input file appears to be binary\")");
        if count > 1 {
            d.with_note(format!("the file has {count} NUL bytes; this is the first"))
                .with_help(
                    "this looks like binary data, not a schema: a FlatBuffer is read with \
                     `flatforge json -s SCHEMA FILE`",
                )
        } else {
            d
        }
    } else {
        Diagnostic::warning(
            Code::Questionable,
            "this included file is read only up to its first NUL byte",
            span,
        )
        .with_label("the file ends here")
        .with_note("flatc reads an included file up to its first NUL byte and ignores the rest")
    }
}

/// The words that start statements and declarations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Keyword {
    Namespace,
    Table,
    Struct,
    Enum,
    Union,
    RootType,
    FileIdentifier,
    FileExtension,
    Include,
    NativeInclude,
    Attribute,
    RpcService,
}

/// Whether a keyword followed by a token of kind `next` starts a declaration (which it cannot do
/// inside one: see the module documentation).
fn starts_declaration(keyword: Keyword, next: Tok) -> bool {
    match keyword {
        Keyword::Namespace
        | Keyword::Table
        | Keyword::Struct
        | Keyword::Enum
        | Keyword::Union
        | Keyword::RootType
        | Keyword::RpcService => next == Tok::Ident,
        Keyword::Attribute => matches!(next, Tok::Ident | Tok::Str),
        Keyword::FileIdentifier
        | Keyword::FileExtension
        | Keyword::Include
        | Keyword::NativeInclude => next == Tok::Str,
    }
}

/// The keyword `word` is, if any (keywords are contextual identifiers). The length picks the
/// candidates, each compared in one go (a match on the words compared them byte by byte).
fn keyword_of(word: &[u8]) -> Option<Keyword> {
    Some(match word.len() {
        4 if word == b"enum" => Keyword::Enum,
        5 if word == b"table" => Keyword::Table,
        5 if word == b"union" => Keyword::Union,
        6 if word == b"struct" => Keyword::Struct,
        7 if word == b"include" => Keyword::Include,
        9 if word == b"namespace" => Keyword::Namespace,
        9 if word == b"root_type" => Keyword::RootType,
        9 if word == b"attribute" => Keyword::Attribute,
        11 if word == b"rpc_service" => Keyword::RpcService,
        14 if word == b"file_extension" => Keyword::FileExtension,
        14 if word == b"native_include" => Keyword::NativeInclude,
        15 if word == b"file_identifier" => Keyword::FileIdentifier,
        _ => return None,
    })
}

/// What ends with a `;`, for recovery when the `;` is missing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Item {
    /// A statement outside braces (`namespace`, `root_type`, `include`...).
    Statement,
    /// A field of a table or struct.
    Field,
    /// A method of an `rpc_service`.
    Method,
}

/// Marker for "a syntax error was recorded; skip to the end of the declaration".
struct Failed;

type PResult<T> = Result<T, Failed>;

struct Parser<'s, 'a> {
    src: &'s [u8],
    lexer: Lexer<'s>,
    tok: Token,
    prev_end: u32,
    /// The diagnostics of the compilation: the syntax errors of this file are the ones from
    /// `base` on.
    errors: &'a mut Vec<Diagnostic>,
    base: usize,
    /// Brace depth, for error recovery.
    depth: u32,
    /// Nesting of `[` in types and calls in values.
    nesting: u32,
    /// After a lexical error, parser errors are not reported until the parser has recovered
    /// (they would only be consequences of the bad token).
    suppress: bool,
    /// The name of the table, struct, enum, union or service being parsed, once read (lost if
    /// the declaration fails).
    decl_name: Option<Span>,
    /// The tree being built.
    ast: &'a mut FileAst,
    /// Whether the common fields and starts of tables and structs take [`Parser::quick_field`]
    /// and [`Parser::quick_open`] (always, but in the tests that hold them to the general path).
    quick: bool,
    /// Where a token starts that [`Parser::quick_field`] found to be the name of a field of
    /// another kind (`u32::MAX` if none).
    not_quick: u32,
}

impl<'s, 'a> Parser<'s, 'a> {
    /// A parser at the start of `src`, before its first token, that builds `ast` and appends
    /// its syntax errors to `errors`.
    fn new(
        src: &'s [u8],
        file: FileId,
        ast: &'a mut FileAst,
        errors: &'a mut Vec<Diagnostic>,
        quick: bool,
    ) -> Self {
        let mut lexer = Lexer::new(src, file);
        // (The lexer fills the tree's vectors, which may have room already.)
        lexer.docs = std::mem::take(&mut ast.docs);
        lexer.strings = std::mem::take(&mut ast.strings);
        Parser {
            src,
            lexer,
            tok: Token {
                kind: Tok::Eof,
                start: 0,
                end: 0,
                docs: (0, 0),
                decoded: u32::MAX,
            },
            prev_end: 0,
            base: errors.len(),
            errors,
            depth: 0,
            nesting: 0,
            suppress: false,
            decl_name: None,
            ast,
            quick,
            not_quick: u32::MAX,
        }
    }
}

impl Parser<'_, '_> {
    /// Parses the text into the tree. `binary`: the text is what is read of a binary file,
    /// nothing, which is not reported as an empty file.
    fn run(&mut self, binary: bool) {
        if let Err(e) = self.lexer.skip_bom() {
            self.lex_error(e);
        }
        self.advance();
        if self.tok.kind == Tok::Eof {
            if self.errors.len() == self.base && !binary {
                let span = self.lexer.span(0, 0);
                self.errors.push(
                    Diagnostic::error(Code::Syntax, "input file is empty", span)
                        .with_note("flatc rejects files without any declaration"),
                );
            }
        } else {
            self.file();
        }
    }

    fn file(&mut self) {
        let mut keyword = loop {
            if self.too_many_errors() {
                return;
            }
            self.suppress = false;
            let keyword = self.keyword();
            let start = self.tok.start;
            let result = if keyword == Some(Keyword::NativeInclude) {
                self.advance();
                self.str_lit().and_then(|lit| {
                    self.end_item(Item::Statement)?;
                    self.ast.header.push(HeaderItem::NativeInclude(lit));
                    Ok(())
                })
            } else if keyword == Some(Keyword::Include) {
                self.advance();
                self.str_lit().and_then(|lit| {
                    let span = self.span_from(start);
                    self.end_item(Item::Statement)?;
                    self.ast.header.push(HeaderItem::Include(lit, span));
                    Ok(())
                })
            } else {
                // The first declaration.
                break keyword;
            };
            if result.is_err() {
                self.record_loss(keyword);
                self.synchronize(start);
            }
        };
        while self.tok.kind != Tok::Eof {
            if self.too_many_errors() {
                return;
            }
            // A lexical error suppresses the errors of its own declaration only.
            self.suppress = false;
            self.decl_name = None;
            let start = self.tok.start;
            if self.decl(keyword).is_err() {
                self.record_loss(keyword);
                self.synchronize(start);
            }
            keyword = self.keyword();
        }
    }

    /// Records in [`FileAst::lost`] what the declaration that failed, which started with
    /// `keyword`, takes with it.
    #[cold]
    fn record_loss(&mut self, keyword: Option<Keyword>) {
        let lost = &mut self.ast.lost;
        match keyword {
            Some(
                Keyword::Table
                | Keyword::Struct
                | Keyword::Enum
                | Keyword::Union
                | Keyword::RpcService,
            ) => lost.names.extend(self.decl_name.take()),
            // Later declarations may be in another namespace; an include that is not loaded
            // may declare anything.
            Some(Keyword::Namespace | Keyword::Include) => {
                lost.any_name = true;
                lost.attributes |= keyword == Some(Keyword::Include);
            }
            Some(Keyword::Attribute) => lost.attributes = true,
            _ => {}
        }
    }

    /// The declaration that starts with `keyword` (if the current token is one), added to the
    /// tree.
    fn decl(&mut self, keyword: Option<Keyword>) -> PResult<()> {
        match keyword {
            Some(Keyword::Namespace) => {
                self.advance();
                let start = self.ast.mark::<Span>();
                if !self.at(Tok::Semicolon) {
                    loop {
                        let part = self.ident()?;
                        self.ast.add(part);
                        if self.at(Tok::Dot) {
                            self.advance();
                        } else {
                            break;
                        }
                    }
                }
                self.end_item(Item::Statement)?;
                let parts = self.ast.list_from(start);
                self.ast.decls.push(Decl::Namespace(parts));
            }
            Some(kw @ (Keyword::Enum | Keyword::Union)) => {
                let decl = self.enum_decl(kw == Keyword::Union)?;
                self.ast.decls.push(Decl::Enum(decl));
            }
            Some(Keyword::RootType) => {
                self.advance();
                let name = self.qual_name()?;
                self.end_item(Item::Statement)?;
                self.ast.decls.push(Decl::RootType(name));
            }
            Some(kw @ (Keyword::FileIdentifier | Keyword::FileExtension)) => {
                self.advance();
                let lit = self.str_lit()?;
                self.end_item(Item::Statement)?;
                self.ast.decls.push(if kw == Keyword::FileIdentifier {
                    Decl::FileIdentifier(lit)
                } else {
                    Decl::FileExtension(lit)
                });
            }
            Some(Keyword::Include) => {
                let span = self.span_here();
                self.errors.push(
                    Diagnostic::error(Code::Syntax, "includes must come before declarations", span)
                        .with_help("move this `include` to the top of the file"),
                );
                return Err(Failed);
            }
            Some(Keyword::Attribute) => {
                self.advance();
                let (lit, is_string) = if self.tok.kind == Tok::Ident {
                    let t = self.tok;
                    self.advance();
                    (
                        StrLit {
                            span: self.span_of(t),
                            decoded: u32::MAX,
                        },
                        false,
                    )
                } else {
                    (self.str_lit()?, true)
                };
                self.end_item(Item::Statement)?;
                self.ast.decls.push(Decl::Attribute(lit, is_string));
            }
            Some(Keyword::RpcService) => {
                let decl = self.service()?;
                self.ast.decls.push(Decl::Service(decl));
            }
            Some(kw @ (Keyword::Table | Keyword::Struct)) => {
                let decl = self.object(kw == Keyword::Struct)?;
                self.ast.decls.push(Decl::Object(decl));
            }
            Some(Keyword::NativeInclude) | None => return Err(self.not_a_declaration(keyword)),
        }
        Ok(())
    }

    /// Reports that the current token, `keyword` if it is one, starts no declaration.
    #[cold]
    fn not_a_declaration(&mut self, keyword: Option<Keyword>) -> Failed {
        if self.at(Tok::LBrace) {
            let span = self.span_here();
            self.errors.push(
                Diagnostic::error(
                    Code::Syntax,
                    "JSON data after the schema is not supported here",
                    span,
                )
                .with_note("flatc parses a JSON object here; schema files for flatforge must contain only declarations"),
            );
            return Failed;
        }
        let span = self.span_here();
        let found = self.describe_current();
        let mut d = Diagnostic::error(
            Code::Syntax,
            format!("expected a declaration, found {found}"),
            span,
        )
        .with_note("declarations start with `table`, `struct`, `enum`, `union`, `namespace`, `root_type`, `file_identifier`, `file_extension`, `attribute` or `rpc_service`");
        if keyword == Some(Keyword::NativeInclude) {
            d = d.with_help("`native_include` must come before all declarations");
        }
        self.errors.push(d);
        Failed
    }

    /// A `table`, or a `struct` if `is_struct` (the current token is the keyword).
    fn object(&mut self, is_struct: bool) -> PResult<ObjectDecl> {
        let docs = self.tok.docs;
        let start = self.tok.start;
        let quick = if self.quick { self.quick_open() } else { None };
        let (name, attrs, open) = match quick {
            Some((name, open)) => (name, List::EMPTY, open),
            None => {
                self.advance();
                let name = self.ident()?;
                self.decl_name = Some(name);
                let attrs = self.metadata()?;
                let open = self.tok.start;
                self.expect(Tok::LBrace)?;
                (name, attrs, open)
            }
        };
        let fields = self.ast.mark::<FieldDecl>();
        let mut partial = false;
        loop {
            if self.at(Tok::RBrace) {
                self.advance();
                break;
            }
            if self.tok.kind == Tok::Eof {
                self.unclosed(open, name, "`}` or a field");
                break;
            }
            let field_start = self.tok.start;
            if self.field().is_err() {
                if self.too_many_errors() {
                    return Err(Failed);
                }
                if let Some((next, name_start)) = self.skip_field(start) {
                    // The errors from the name of the next declaration on (the last ones:
                    // errors are found in order) come from taking it for a field: the error
                    // is the missing `}`.
                    while self
                        .last_error()
                        .and_then(|d| d.primary.as_ref())
                        .is_some_and(|p| p.span.start >= name_start)
                    {
                        self.errors.pop();
                    }
                    partial |= next != field_start;
                    self.unclosed(open, name, "`}`");
                    break;
                }
                partial = true;
                self.suppress = false;
            }
        }
        Ok(ObjectDecl {
            is_struct,
            name,
            attrs,
            fields: self.ast.list_from(fields),
            docs,
            partial,
        })
    }

    /// [`Parser::object`] from its keyword (the current token) past its `{`, for the common
    /// start `table Name {` (a name and `{`, no attributes, only white space between them), read
    /// with [`Lexer::quick_at`] in one go: the name, the byte where the `{` is, and the parser
    /// left as the general path leaves it. `None`, with the parser as it was, for any other.
    #[inline]
    fn quick_open(&mut self) -> Option<(Span, u32)> {
        let name = self.lexer.quick_at(self.lexer.pos())?;
        if name.kind != Tok::Ident {
            return None;
        }
        let end = self.lexer.punct_after(name.end, Tok::LBrace)?;
        let name = self.lexer.span(name.start, name.end);
        self.decl_name = Some(name);
        self.depth += 1;
        self.skip_to(end);
        Some((name, end - 1))
    }

    /// Skips the rest of a field that failed: past its `;`, or to the `}` or the end of the file.
    /// Stops at the next declaration after byte `start` (where the table or struct starts), and
    /// returns where it and its name start (see [`Parser::at_declaration`]).
    fn skip_field(&mut self, start: u32) -> Option<(u32, u32)> {
        loop {
            if let Some(next) = self.at_declaration(start) {
                return Some(next);
            }
            match self.tok.kind {
                Tok::Eof | Tok::RBrace => return None,
                Tok::Semicolon => {
                    self.advance();
                    return None;
                }
                _ => self.advance(),
            }
        }
    }

    /// The body of the declaration `name`, which opened with the `{` at byte `open`, ends
    /// without its `}`: at the end of the file, or at the next declaration (the current token).
    /// The error at the current token, reported if it is not yet (`expected` is what the end
    /// of the file is not), shows the open brace.
    #[cold]
    fn unclosed(&mut self, open: u32, name: Span, expected: &str) {
        if self.suppress {
            return;
        }
        let here = self.span_here();
        let reported = self
            .last_error()
            .filter(|d| d.is_error())
            .and_then(|d| d.primary.as_ref())
            .is_some_and(|p| p.span == here);
        if !reported {
            if self.tok.kind == Tok::Eof {
                self.unexpected(expected);
            } else {
                self.errors.push(
                    Diagnostic::error(
                        Code::Syntax,
                        "expected `}` before the next declaration",
                        here,
                    )
                    .with_label("the next declaration starts here"),
                );
            }
        }
        let name = String::from_utf8_lossy(self.src.get(name.range()).unwrap_or_default());
        let help = format!("close `{name}` with `}}`");
        if let Some(d) = self.errors[self.base..].last_mut() {
            d.secondary.push(Label {
                span: self.lexer.span(open, open + 1),
                message: "this `{` is not closed".into(),
            });
            d.help.push(help);
        }
    }

    /// The `}` that closes the body of the declaration `name`, opened with the `{` at byte
    /// `open`. A body without it ends at the end of the file or at the next declaration (the
    /// error is reported).
    fn close_body(&mut self, open: u32, name: Span) -> PResult<()> {
        if self.at(Tok::RBrace) {
            self.advance();
            return Ok(());
        }
        if self.tok.kind == Tok::Eof || self.declaration_here() {
            self.unclosed(open, name, "`}`");
            return Ok(());
        }
        Err(self.unexpected_punct(Tok::RBrace))
    }

    /// Whether the current token and the next start a declaration (see [`starts_declaration`]).
    #[cold]
    fn declaration_here(&mut self) -> bool {
        let Some(keyword) = self.keyword() else {
            return false;
        };
        self.lexer
            .peek_kind()
            .is_some_and(|next| starts_declaration(keyword, next))
    }

    /// Whether the previous token and the current one start a declaration (see
    /// [`starts_declaration`]) whose keyword starts after byte `after`. If so, the parser goes
    /// back to the keyword and returns where the keyword and the current token (its name)
    /// start.
    fn at_declaration(&mut self, after: u32) -> Option<(u32, u32)> {
        let end = self.prev_end as usize;
        let before = self.src.get(..end)?;
        let start = end
            - before
                .iter()
                .rev()
                .take_while(|&&b| is_ident_cont(b))
                .count();
        if start as u32 <= after || !before.get(start).is_some_and(|&b| is_ident_start(b)) {
            return None;
        }
        let keyword = keyword_of(&before[start..])?;
        if !starts_declaration(keyword, self.tok.kind) {
            return None;
        }
        let name_start = self.tok.start;
        self.lexer.move_to(name_start);
        self.tok = Token {
            kind: Tok::Ident,
            start: start as u32,
            end: end as u32,
            docs: (0, 0),
            decoded: u32::MAX,
        };
        self.prev_end = start as u32;
        self.depth = 0;
        Some((start as u32, name_start))
    }

    /// The `;` that ends an item. When it is missing, the error is reported, and the parser
    /// goes on as if it were there if what follows cannot continue the item: the end of the
    /// file, the next declaration, or in a body a `}` or the next field or method.
    fn end_item(&mut self, item: Item) -> PResult<()> {
        if self.at(Tok::Semicolon) {
            self.advance();
            return Ok(());
        }
        self.missing_semicolon(item)
    }

    #[cold]
    fn missing_semicolon(&mut self, item: Item) -> PResult<()> {
        let failed = self.unexpected_punct(Tok::Semicolon);
        let recover = match self.tok.kind {
            Tok::Eof => true,
            Tok::RBrace => item != Item::Statement,
            Tok::Ident => {
                let keyword = self.keyword();
                match self.lexer.peek_kind() {
                    Some(Tok::Colon) => item == Item::Field,
                    Some(Tok::LParen) => item == Item::Method,
                    Some(next) => keyword.is_some_and(|k| starts_declaration(k, next)),
                    None => false,
                }
            }
            _ => false,
        };
        if recover {
            Ok(())
        } else {
            Err(failed)
        }
    }

    /// A field of a table or struct, added to the tree (with the fields after it that
    /// [`Parser::quick_field`] takes with it).
    fn field(&mut self) -> PResult<()> {
        if self.quick {
            if self.quick_field().is_some() {
                return Ok(());
            }
            if let Some(result) = self.quick_field_more() {
                return result;
            }
        }
        let docs = self.tok.docs;
        let name = self.ident()?;
        self.expect(Tok::Colon)?;
        let ty = self.type_ast()?;
        let default = if self.at(Tok::Equals) {
            self.advance();
            Some(self.value()?)
        } else {
            None
        };
        let attrs = self.metadata()?;
        self.end_item(Item::Field)?;
        self.ast.add(FieldDecl {
            name,
            ty,
            default,
            small_default: self.small_default(default),
            attrs,
            docs,
        });
        Ok(())
    }

    /// The [`FieldDecl::small_default`] of the default `value`.
    fn small_default(&self, value: Option<ValueAst>) -> u32 {
        match value {
            Some(ValueAst::Token {
                kind: Tok::Int,
                span,
                sign: None,
                ..
            }) if span.len() <= SMALL_INT_DIGITS => self
                .src
                .get(span.range())
                .and_then(plain_decimal)
                .map_or(NO_SMALL_INT, |v| v as u32),
            _ => NO_SMALL_INT,
        }
    }

    /// [`Parser::field`] for the common fields, `name: type;` and `name: type = value;` with a
    /// one-word type and a one-token value (a plain integer, a name or a string without escapes),
    /// with only white space between their tokens: their tokens are found with
    /// [`Lexer::quick_at`], without a parser step for each, and give the same field (added to
    /// the tree). The fields of this kind that follow it, with only white space before each,
    /// are taken too, without making their names the current token: the parser is left as
    /// [`Parser::field`] leaves it after the last one. `None`, with the parser as it was, when
    /// the current field is of another kind (see [`Parser::quick_field_more`]), found so at once
    /// when a run stopped at it ([`Parser::not_quick`]).
    #[inline]
    fn quick_field(&mut self) -> Option<()> {
        if self.tok.kind != Tok::Ident || self.tok.start == self.not_quick {
            return None;
        }
        let name = self.span_of(self.tok);
        let mut end = self.quick_field_at(name, self.lexer.pos(), self.tok.docs)?;
        loop {
            // The next token, as `Parser::skip_to` would lex it.
            let Some(next) = self.lexer.quick_at(end) else {
                self.skip_to(end);
                return Some(());
            };
            if next.kind == Tok::Ident {
                let docs = self.lexer.docs.len() as u32;
                let name = self.lexer.span(next.start, next.end);
                if let Some(next_end) = self.quick_field_at(name, next.end, (docs, docs)) {
                    end = next_end;
                    continue;
                }
                // (`Parser::field` need not try it again.)
                self.not_quick = next.start;
            }
            self.prev_end = end;
            self.tok = self.lexer.take_quick(next);
            return Some(());
        }
    }

    /// The field of [`Parser::quick_field`] whose name is `name`, and that goes on from byte
    /// `after` (the end of the name) on: added to the tree, with where it ends (after its `;`).
    /// `None`, with nothing added, for a field of another kind. The parser is left as it is.
    #[inline(always)]
    fn quick_field_at(&mut self, name: Span, after: u32, docs: Docs) -> Option<u32> {
        let colon = self.lexer.punct_after(after, Tok::Colon)?;
        let ty = self.lexer.quick_at(colon)?;
        if ty.kind != Tok::Ident {
            return None;
        }
        let ty = TypeAst::Word(self.lexer.span(ty.start, ty.end));
        let field = |default, small_default| FieldDecl {
            name,
            ty,
            default,
            small_default,
            attrs: List::EMPTY,
            docs,
        };
        // A `;` or a `=` after the type (see `Lexer::after_space` for the end of the source).
        match self.lexer.after_space(ty.span().end) {
            (at, b';') => {
                self.ast.add(field(None, NO_SMALL_INT));
                Some(at + 1)
            }
            (at, b'=') => {
                let value = self.lexer.quick_value_at(at + 1)?;
                if !matches!(value.kind, Tok::Int | Tok::Ident | Tok::Str) {
                    return None;
                }
                // (A name directly followed by `(`, a call, is followed by no `;`.)
                let end = self.lexer.punct_after(value.end, Tok::Semicolon)?;
                let token = ValueAst::Token {
                    kind: value.kind,
                    span: self.lexer.span(value.start, value.end),
                    decoded: u32::MAX,
                    sign: None,
                };
                self.ast.add(field(Some(token), value.small_int));
                Some(end)
            }
            _ => None,
        }
    }

    /// [`Parser::field`] for more fields than [`Parser::quick_field`] takes (which is tried
    /// first): `name: type` with a one-word type or a vector of one (`[type]`), then
    /// `= value` with a one-token value (a plain integer, a name or a string without escapes)
    /// or not, then `;`, or attributes (`(...)`) and `;`, with only white space between their
    /// tokens. Their tokens up to the `;` or the `(` are found with [`Lexer::quick_at`],
    /// without a parser step for each; the attributes and the `;` after them are read as
    /// [`Parser::field`] reads them. The result is that of [`Parser::field`], with the same
    /// field (added to the tree), and the parser left as it leaves it. `None`, with the parser
    /// as it was, for any other field.
    #[inline(never)]
    fn quick_field_more(&mut self) -> Option<PResult<()>> {
        if self.tok.kind != Tok::Ident {
            return None;
        }
        let colon = self.lexer.punct_after(self.lexer.pos(), Tok::Colon)?;
        let ty = self.lexer.quick_at(colon)?;
        // The type's span, the end of its last token, and the span of the name in `[name]`.
        let (ty_span, ty_end, element) = match ty.kind {
            Tok::Ident => (self.lexer.span(ty.start, ty.end), ty.end, None),
            Tok::LBracket => {
                let element = self.lexer.quick_at(ty.end)?;
                if element.kind != Tok::Ident {
                    return None;
                }
                let end = self.lexer.punct_after(element.end, Tok::RBracket)?;
                let element = self.lexer.span(element.start, element.end);
                (self.lexer.span(ty.start, end), end, Some(element))
            }
            _ => return None,
        };
        // A `;`, a `(` or a `=` after the type (see `Lexer::after_space` for the end of the
        // source), and after the value what is after it.
        let (mut last_end, mut next) = (ty_end, self.lexer.after_space(ty_end));
        let (mut default, mut small_default) = (None, NO_SMALL_INT);
        if next.1 == b'=' {
            let value = self.lexer.quick_value_at(next.0 + 1)?;
            let call = value.kind == Tok::Ident && self.src.get(value.end as usize) == Some(&b'(');
            if !matches!(value.kind, Tok::Int | Tok::Ident | Tok::Str) || call {
                return None;
            }
            default = Some(ValueAst::Token {
                kind: value.kind,
                span: self.lexer.span(value.start, value.end),
                decoded: u32::MAX,
                sign: None,
            });
            small_default = value.small_int;
            (last_end, next) = (value.end, self.lexer.after_space(value.end));
        }
        if !matches!(next.1, b';' | b'(') {
            return None;
        }
        let (name, docs) = (self.span_of(self.tok), self.tok.docs);
        let ty = match element {
            None => TypeAst::Word(ty_span),
            Some(element) => {
                let element = self.ast.add(TypeAst::Word(element));
                TypeAst::Vector(element, ty_span)
            }
        };
        let attrs = if next.1 == b';' {
            self.skip_to(next.0 + 1);
            List::EMPTY
        } else {
            self.skip_to(last_end);
            let attrs = self.attribute_list().and_then(|attrs| {
                self.end_item(Item::Field)?;
                Ok(attrs)
            });
            match attrs {
                Ok(attrs) => attrs,
                Err(failed) => return Some(Err(failed)),
            }
        };
        self.ast.add(FieldDecl {
            name,
            ty,
            default,
            small_default,
            attrs,
            docs,
        });
        Some(Ok(()))
    }

    #[inline]
    fn type_ast(&mut self) -> PResult<TypeAst> {
        if self.tok.kind == Tok::Ident {
            let first = self.ident()?;
            if !self.at(Tok::Dot) {
                return Ok(TypeAst::Word(first));
            }
            return Ok(TypeAst::Named(self.dotted_name(first)?));
        }
        self.series_type()
    }

    /// [`Parser::type_ast`] for a type that is not a name: a vector or an array.
    #[inline(never)]
    fn series_type(&mut self) -> PResult<TypeAst> {
        if self.at(Tok::LBracket) {
            let start = self.tok.start;
            if self.nesting >= MAX_DEPTH {
                let span = self.span_here();
                self.errors.push(Diagnostic::error(
                    Code::Syntax,
                    format!("maximum nesting depth {MAX_DEPTH} reached"),
                    span,
                ));
                return Err(Failed);
            }
            self.nesting += 1;
            self.advance();
            let inner = self.type_ast();
            self.nesting -= 1;
            let inner = self.ast.add(inner?);
            if self.at(Tok::Colon) {
                self.advance();
                let len_tok = self.tok;
                if len_tok.kind != Tok::Int {
                    let span = self.span_here();
                    self.errors.push(Diagnostic::error(
                        Code::Syntax,
                        "length of fixed-length array must be an integer value",
                        span,
                    ));
                    return Err(Failed);
                }
                self.advance();
                self.expect(Tok::RBracket)?;
                let span = self.span_from(start);
                return Ok(TypeAst::Array(inner, self.span_of(len_tok), span));
            }
            self.expect(Tok::RBracket)?;
            return Ok(TypeAst::Vector(inner, self.span_from(start)));
        }
        Err(self.unexpected("a type"))
    }

    #[inline]
    fn value(&mut self) -> PResult<ValueAst> {
        // The common case: a number, a string, or a name that is not a call.
        let t = self.tok;
        let call = t.kind == Tok::Ident && self.src.get(t.end as usize) == Some(&b'(');
        if matches!(t.kind, Tok::Int | Tok::Float | Tok::Str | Tok::Ident) && !call {
            self.advance();
            return Ok(ValueAst::Token {
                kind: t.kind,
                span: self.span_of(t),
                decoded: t.decoded,
                sign: None,
            });
        }
        self.other_value()
    }

    /// [`Parser::value`] for a signed name, a call or `[]` (or an error).
    #[inline(never)]
    fn other_value(&mut self) -> PResult<ValueAst> {
        let mut sign = None;
        if matches!(self.tok.kind, Tok::Plus | Tok::Minus) {
            // (The kind of a punctuation token is its byte.)
            sign = Some((self.tok.kind as u8, self.span_of(self.tok)));
            self.advance();
            if self.tok.kind != Tok::Ident {
                return Err(self.unexpected("a constant name after the sign"));
            }
        }
        let t = self.tok;
        match t.kind {
            // A call, as flatc reads a name right before `(`; a sign is part of the name there
            // (`-rad(90)` calls `-rad`, which does not exist, and so does `-nan(deprecated)`).
            Tok::Ident if self.src.get(t.end as usize) == Some(&b'(') => {
                let start = sign.map_or(t.start, |(_, s)| s.start);
                self.advance();
                let name = self.span_from(start);
                if self.nesting >= MAX_DEPTH {
                    let span = self.span_here();
                    self.errors.push(Diagnostic::error(
                        Code::Syntax,
                        format!("maximum nesting depth {MAX_DEPTH} reached"),
                        span,
                    ));
                    return Err(Failed);
                }
                self.expect(Tok::LParen)?;
                self.nesting += 1;
                let arg = self.value();
                self.nesting -= 1;
                let arg = self.ast.add(arg?);
                self.expect(Tok::RParen)?;
                Ok(ValueAst::Call {
                    name,
                    arg,
                    span: self.span_from(start),
                })
            }
            Tok::Ident | Tok::Int | Tok::Float | Tok::Str => {
                self.advance();
                Ok(ValueAst::Token {
                    kind: t.kind,
                    span: self.span_of(t),
                    decoded: t.decoded,
                    sign,
                })
            }
            Tok::LBracket => {
                self.advance();
                if !self.at(Tok::RBracket) {
                    let span = self.span_here();
                    self.errors.push(
                        Diagnostic::error(Code::Syntax, "expected `]` in vector default", span)
                            .with_note("the only default a vector can have is `[]`"),
                    );
                    return Err(Failed);
                }
                self.advance();
                Ok(ValueAst::EmptyVector(self.span_from(t.start)))
            }
            _ => Err(self.unexpected("a value")),
        }
    }

    #[inline]
    fn metadata(&mut self) -> PResult<List<AttrAst>> {
        if !self.at(Tok::LParen) {
            return Ok(List::EMPTY);
        }
        self.attribute_list()
    }

    /// [`Parser::metadata`] from its `(`.
    #[inline(never)]
    fn attribute_list(&mut self) -> PResult<List<AttrAst>> {
        self.advance();
        let attrs = self.ast.mark::<AttrAst>();
        loop {
            let t = self.tok;
            if !matches!(t.kind, Tok::Ident | Tok::Str) {
                return Err(self.unexpected("an attribute name (an identifier or a string)"));
            }
            self.advance();
            let value = if self.at(Tok::Colon) {
                self.advance();
                Some(self.value()?)
            } else {
                None
            };
            self.ast.add(AttrAst {
                name: self.span_of(t),
                name_is_string: t.kind == Tok::Str,
                name_decoded: t.decoded,
                value,
            });
            if self.at(Tok::RParen) {
                self.advance();
                return Ok(self.ast.list_from(attrs));
            }
            self.expect(Tok::Comma)?;
        }
    }

    /// An `enum`, or a `union` if `is_union` (the current token is the keyword).
    fn enum_decl(&mut self, is_union: bool) -> PResult<EnumDecl> {
        let docs = self.tok.docs;
        let start = self.tok.start;
        self.advance();
        let name = self.ident()?;
        self.decl_name = Some(name);
        let underlying = if self.at(Tok::Colon) {
            self.advance();
            Some(self.type_ast()?)
        } else {
            None
        };
        let attrs = self.metadata()?;
        let open = self.span_here();
        self.expect(Tok::LBrace)?;
        let values = self.ast.mark::<EnumValDecl>();
        while !self.at(Tok::RBrace) {
            let docs = self.tok.docs;
            let name = if is_union {
                self.qual_name()?
            } else {
                let first = self.ident()?;
                QualName {
                    first,
                    rest: List::EMPTY,
                    span: first,
                }
            };
            let mut alias_type = None;
            if is_union && self.at(Tok::Colon) {
                self.advance();
                alias_type = Some(self.type_ast()?);
            }
            let value = if self.at(Tok::Equals) {
                self.advance();
                if self.tok.kind != Tok::Int {
                    return Err(self.unexpected("an integer constant"));
                }
                let span = self.span_of(self.tok);
                self.advance();
                Some(span)
            } else {
                None
            };
            let attrs = self.metadata()?;
            self.ast.add(EnumValDecl {
                name,
                alias_type,
                value,
                attrs,
                docs,
            });
            if !self.at(Tok::Comma) {
                break;
            }
            self.advance();
        }
        if !self.at(Tok::RBrace)
            && self.ast.mark::<EnumValDecl>() > values
            && self.at_declaration(start).is_some()
        {
            // The last value ends with the keyword of the next declaration: it is not a value.
            self.ast.pop::<EnumValDecl>();
        }
        self.close_body(open.start, name)?;
        Ok(EnumDecl {
            is_union,
            name,
            underlying,
            attrs,
            values: self.ast.list_from(values),
            docs,
            open,
        })
    }

    fn service(&mut self) -> PResult<ServiceDecl> {
        let docs = self.tok.docs;
        self.advance();
        let name = self.ident()?;
        self.decl_name = Some(name);
        let attrs = self.metadata()?;
        self.expect(Tok::LBrace)?;
        let calls = self.ast.mark::<RpcDecl>();
        loop {
            let docs = self.tok.docs;
            let name = self.ident()?;
            self.expect(Tok::LParen)?;
            let request = self.qual_name()?;
            self.expect(Tok::RParen)?;
            self.expect(Tok::Colon)?;
            let response = self.qual_name()?;
            let attrs = self.metadata()?;
            self.end_item(Item::Method)?;
            self.ast.add(RpcDecl {
                name,
                request,
                response,
                attrs,
                docs,
            });
            if self.at(Tok::RBrace) {
                break;
            }
        }
        self.advance();
        Ok(ServiceDecl {
            name,
            attrs,
            calls: self.ast.list_from(calls),
            docs,
        })
    }

    #[inline]
    fn qual_name(&mut self) -> PResult<QualName> {
        let first = self.ident()?;
        if !self.at(Tok::Dot) {
            return Ok(QualName {
                first,
                rest: List::EMPTY,
                span: first,
            });
        }
        self.dotted_name(first)
    }

    /// [`Parser::qual_name`] after its first component `first`, at a `.`.
    #[inline(never)]
    fn dotted_name(&mut self, first: Span) -> PResult<QualName> {
        let rest = self.ast.mark::<Span>();
        let mut span = first;
        while self.at(Tok::Dot) {
            self.advance();
            let part = self.ident()?;
            self.ast.add(part);
            span.end = part.end;
        }
        Ok(QualName {
            first,
            rest: self.ast.list_from(rest),
            span,
        })
    }

    fn ident(&mut self) -> PResult<Span> {
        if self.tok.kind != Tok::Ident {
            return Err(self.unexpected("an identifier"));
        }
        let span = self.span_of(self.tok);
        self.advance();
        Ok(span)
    }

    fn str_lit(&mut self) -> PResult<StrLit> {
        if self.tok.kind != Tok::Str {
            return Err(self.unexpected("a string constant"));
        }
        let lit = StrLit {
            span: self.span_of(self.tok),
            decoded: self.tok.decoded,
        };
        self.advance();
        Ok(lit)
    }

    fn expect(&mut self, kind: Tok) -> PResult<()> {
        if !self.at(kind) {
            return Err(self.unexpected_punct(kind));
        }
        self.advance();
        Ok(())
    }

    #[cold]
    fn unexpected_punct(&mut self, punct: Tok) -> Failed {
        let expected = punct.punct_char().map(|c| format!("`{c}`"));
        self.unexpected(expected.as_deref().unwrap_or(punct.describe()))
    }

    #[cold]
    fn unexpected(&mut self, expected: &str) -> Failed {
        if self.suppress {
            return Failed;
        }
        let span = self.span_here();
        let found = self.describe_current();
        self.errors.push(
            Diagnostic::error(
                Code::Syntax,
                format!("expected {expected}, found {found}"),
                span,
            )
            .with_label(format!("expected {expected}")),
        );
        Failed
    }

    fn describe_current(&self) -> String {
        match self.tok.kind {
            Tok::Eof => "end of file".to_string(),
            kind => {
                if let Some(c) = kind.punct_char() {
                    return format!("`{c}`");
                }
                let text = self
                    .src
                    .get(self.tok.start as usize..self.tok.end as usize)
                    .map(String::from_utf8_lossy)
                    .unwrap_or_default();
                // Shown as snippets show them (a string constant may hold a NUL byte).
                let text = text.replace(|c: char| c.is_ascii_control() && c != '\t', "?");
                format!("{} `{}`", kind.describe(), text)
            }
        }
    }

    fn advance(&mut self) {
        self.prev_end = self.tok.end;
        match self.tok.kind {
            Tok::LBrace => self.depth += 1,
            Tok::RBrace => self.depth = self.depth.saturating_sub(1),
            _ => {}
        }
        self.lex_next();
    }

    /// Takes the tokens up to byte `end` (found with [`Lexer::quick_at`], the last one ending
    /// there) as read: the parser is left as [`Parser::advance`] leaves it after the last.
    #[inline(always)]
    fn skip_to(&mut self, end: u32) {
        self.lexer.move_to(end);
        self.prev_end = end;
        self.lex_next();
    }

    /// Lexes the token at the lexer's position into `tok`.
    #[inline(always)]
    fn lex_next(&mut self) {
        if !self.lexer.next_quick(&mut self.tok) {
            self.advance_slow();
        }
    }

    /// [`Parser::advance`] for the tokens [`Lexer::next_quick`] leaves to
    /// [`Lexer::next_token`], and lexical errors.
    #[inline(never)]
    fn advance_slow(&mut self) {
        let mut next = self.lexer.next_token();
        loop {
            match next {
                Ok(t) => {
                    self.tok = t;
                    return;
                }
                Err(e) => {
                    self.lex_error(e);
                    if self.too_many_errors() {
                        self.tok.kind = Tok::Eof;
                        return;
                    }
                }
            }
            next = self.lexer.next_token_fast();
        }
    }

    #[cold]
    fn lex_error(&mut self, e: LexError) {
        self.suppress = true;
        if e.message.is_empty() {
            // A NUL byte, reported once, up front.
            return;
        }
        let span = self.lexer.span(e.start, e.end);
        self.errors
            .push(Diagnostic::error(Code::Syntax, e.message, span));
    }

    /// Skips tokens to the end of the declaration that failed, which started at byte `start`:
    /// past a `;` outside braces, past the `}` that closes the outermost open brace, or to the
    /// next declaration.
    fn synchronize(&mut self, start: u32) {
        loop {
            if self.at_declaration(start).is_some() {
                return;
            }
            match self.tok.kind {
                Tok::Eof => return,
                Tok::Semicolon if self.depth == 0 => {
                    self.advance();
                    return;
                }
                Tok::RBrace => {
                    let closes = self.depth <= 1;
                    self.advance();
                    if closes {
                        self.depth = 0;
                        return;
                    }
                }
                _ => self.advance(),
            }
        }
    }

    /// The keyword the current token is, if any (keywords are contextual identifiers).
    fn keyword(&self) -> Option<Keyword> {
        if self.tok.kind != Tok::Ident {
            return None;
        }
        keyword_of(
            self.src
                .get(self.tok.start as usize..self.tok.end as usize)?,
        )
    }

    /// Whether the file has as many syntax errors as are reported ([`MAX_ERRORS`]).
    fn too_many_errors(&self) -> bool {
        self.errors.len() - self.base >= MAX_ERRORS
    }

    /// The last syntax error of the file.
    fn last_error(&self) -> Option<&Diagnostic> {
        self.errors[self.base..].last()
    }

    /// Whether the current token is of kind `kind`.
    fn at(&self, kind: Tok) -> bool {
        self.tok.kind == kind
    }

    fn span_of(&self, t: Token) -> Span {
        self.lexer.span(t.start, t.end)
    }

    fn span_here(&self) -> Span {
        if self.tok.kind == Tok::Eof {
            // Point at the last byte of the file rather than past its end.
            let end = self.src.len() as u32;
            let start = end.saturating_sub(1).min(self.tok.start);
            return self.lexer.span(start, end.max(start));
        }
        self.span_of(self.tok)
    }

    fn span_from(&self, start: u32) -> Span {
        self.lexer.span(start, self.prev_end.max(start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_text(src: &[u8]) -> (FileAst, Vec<Diagnostic>) {
        let mut ast = FileAst::default();
        let mut errors = Vec::new();
        parse(src, FileId(0), true, &mut ast, &mut errors);
        (ast, errors)
    }

    fn ok(src: &str) -> FileAst {
        let (ast, errors) = parse_text(src.as_bytes());
        assert!(errors.is_empty(), "{src}: {errors:?}");
        ast
    }

    fn errors(src: &str) -> Vec<String> {
        parse_text(src.as_bytes())
            .1
            .into_iter()
            .map(|d| d.message)
            .collect()
    }

    /// The tree and the diagnostics of `src` as a root file, with the quick paths and without.
    fn parse_both_ways(src: &[u8]) -> [(String, String); 2] {
        [true, false].map(|quick| {
            let mut ast = FileAst::default();
            let mut errors = Vec::new();
            parse_with(src, FileId(0), true, &mut ast, &mut errors, quick);
            (format!("{ast:?}"), format!("{errors:?}"))
        })
    }

    /// The quick paths ([`Parser::quick_field`], [`Parser::quick_open`]) against the general
    /// path: what they take and what is next to it that they must leave alone, every shared
    /// schema and random schemas, and all of them cut short (a field or a start cut anywhere).
    #[test]
    fn quick_paths_parse_as_the_general_path_does() {
        let mut inputs: Vec<Vec<u8>> = [
            "table T { a:int; b : short = 100 ; c:E=Red; d:string=\"x\"; e\t:\nint\r\n=\n7\n;\n}",
            "table T { e:int=-1; f:float=1.5; g:A.B; h:[int]; i:int (id:1); j:int = x(1); }",
            "table T { k:int=0x10; l:int = 1e5; m:string=\"\\n\"; n:int /* c */; o/**/:int; }",
            "table T { p:int=007; q:int=100abc; r:int = Red.x; s:int=; t:; u:int }",
            "table T { a:uint=123456789; b:uint = 1234567890 ; c:long=4294967295 (id: 2); }",
            "table T { v:int=x (y); w:int=\"é\"; x:int=+inf; y:bool=true;; z:int=nan }",
            "table T { /// doc\n a:int; /// more\n b:int = 1; c:int; // not doc\n d:int; }",
            "struct S { x:float; y:float = 0; } table U { a:S; b:int = 1 table V {}",
            "table T { a:int; table U { b:int = 2 } root_type T;",
            "table T { a:int\n b:int; c:int = 1\n d:int; }",
            "table T { a:int;\0 b:int; }",
            "table T { a : int ; b:int=1;}enum E:byte{A}table U{a:int;",
            "table T (a) {} table /* c */ U {} struct V /* c */ {} table W.X {} table 1 {}",
            "table T; table table {} struct S\n{\n} table U {table V {} table {}",
        ]
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect();
        inputs.extend(crate::lexer::tests::shared_schemas());
        for seed in 0..300 {
            let files = flatforge_testkit::random_schema::schema_files(seed, "r");
            inputs.extend(files.into_iter().map(|(_, text)| text.into_bytes()));
        }
        for src in &inputs {
            for len in [src.len(), src.len() * 2 / 3, src.len() / 3, src.len() / 7] {
                let src = &src[..len];
                let [quick, general] = parse_both_ways(src);
                assert_eq!(quick, general, "{}", String::from_utf8_lossy(src));
            }
        }
    }

    /// The state of a parser after `step` from the first token of `src`, with the quick paths
    /// on or off: what `step` returns, the next token, the previous token end, the lexer
    /// position, the brace depth, the name of the declaration, the doc comments and the errors.
    fn state_after(
        src: &str,
        quick: bool,
        mut step: impl FnMut(&mut Parser) -> String,
    ) -> [String; 2] {
        let mut ast = FileAst::default();
        let mut errors = Vec::new();
        let mut p = Parser::new(src.as_bytes(), FileId(0), &mut ast, &mut errors, quick);
        p.advance();
        let result = step(&mut p);
        let lexer = (p.lexer.pos(), p.lexer.docs.clone(), p.lexer.strings.clone());
        let state = (p.tok, p.prev_end, p.depth, p.decl_name, lexer, &p.errors);
        [result, format!("{state:?}")]
    }

    /// A field that [`Parser::quick_field`] takes leaves the parser as the general path does.
    #[test]
    fn a_quick_field_leaves_the_parser_as_the_general_path_does() {
        let cases = [
            ("a:int; b", true),
            ("a : short = 100 ;\n/// doc\nb", true),
            ("a:E=Red;}", true),
            ("a:string='x'; c:int;", true),
            ("a:int;", true),
            ("a\n:\tint\r\n;/* c */ }", true),
            ("a:int=1;\0", true),
            ("a:int;table", true),
            ("a:int=-1;", false),
            ("a:int=1.5;", false),
            ("a:A.B;", false),
            ("a:int /* c */;", false),
            ("a:int (id: 1);", true),
            ("a:[int];", true),
            ("a : [ Vec3 ] ;", true),
            ("a:[ubyte](id:5, nested_flatbuffer: \"M\");", true),
            ("a:int = 1 (id: 2);", true),
            ("a:E = Red (id: 2)", true),
            ("a:E = Red(id: 2);", false),
            ("a:int = 'x' (id: 2, deprecated);", true),
            ("a:int (id: 1) b:int;", true),
            ("a:int (id: 1 b:int;", true),
            ("a:int (id: 1) }", true),
            ("a:[int] (id: -) table", true),
            ("a:int=-1;", false),
            ("a:int=1.5;", false),
            ("a:A.B;", false),
            ("a:[A.B];", false),
            ("a:[int:3];", false),
            ("a:[[int]];", false),
            ("a:[int;", false),
            ("a:int /* c */;", false),
            ("a:int=f(1);", false),
            ("a:int=f (1);", true),
            ("a:int = x(y) (id: 1);", false),
            ("a:int", false),
            ("a:int = 1", false),
            ("a:int b:int;", false),
            // Runs of fields that `Parser::quick_field` takes in one go.
            ("a:int; b:short = 1; c:E=Red; d:string='x'; }", true),
            ("a:int; b:int;", true),
            ("a:int; b:int;\0", true),
            ("a:int;\n/// doc\nb:int; c:int;", true),
            ("a:int; b:int; /* c */ c:int;", true),
            ("a:int; b:int; c:int (id: 1); d:int;", true),
            ("a:int; b:int; c:[int]; d:int;", true),
            ("a:int; b:int = -1; c:int;", true),
            ("a:int; b:int; c:int", true),
            ("a:int; b:int; c", true),
            ("a:int; b:int; c:", true),
            ("a:int; b:int; table T {}", true),
            ("a:int; b:int; 1", true),
            ("a:int; b:int; \"é\"", true),
        ];
        // One step of `Parser::field` with the quick paths; as many fields (at least one) without.
        let mut fields = 0;
        let mut field = |p: &mut Parser| {
            let mut ok = p.field().is_ok();
            if p.quick {
                fields = p.ast.fields.len();
            }
            while !p.quick && ok && p.ast.fields.len() < fields {
                ok = p.field().is_ok();
            }
            let ast = &p.ast;
            format!(
                "{ok} {:?}",
                (&ast.fields, &ast.types, &ast.attrs, &ast.values)
            )
        };
        for (src, quick) in cases {
            assert_eq!(
                state_after(src, true, &mut field),
                state_after(src, false, &mut field),
                "{src}"
            );
            let quick_field = |p: &mut Parser| {
                let quick = p.quick_field().is_some() || p.quick_field_more().is_some();
                quick.to_string()
            };
            assert_eq!(
                state_after(src, true, quick_field)[0] == "true",
                quick,
                "{src}"
            );
        }
    }

    /// A table or struct start that [`Parser::quick_open`] takes leaves the parser as the general
    /// path does.
    #[test]
    fn a_quick_open_leaves_the_parser_as_the_general_path_does() {
        let cases = [
            ("table T { a:int; }", true),
            ("struct S\n{\n/// doc\nx:float; }", true),
            ("table T{}", true),
            ("table T {", true),
            ("table\tT\r\n{ /* c */ }", true),
            ("table T (a) { }", false),
            ("table /* c */ T { }", false),
            ("table T /* c */ { }", false),
            ("table T.U { }", false),
            ("table 1 { }", false),
            ("table T", false),
            ("table T;", false),
            ("table { }", false),
        ];
        let object = |p: &mut Parser| format!("{:?}", p.object(false).ok());
        for (src, quick) in cases {
            assert_eq!(
                state_after(src, true, object),
                state_after(src, false, object),
                "{src}"
            );
            let quick_open = |p: &mut Parser| format!("{:?}", p.quick_open().is_some());
            assert_eq!(
                state_after(src, true, quick_open)[0],
                quick.to_string(),
                "{src}"
            );
        }
    }

    #[test]
    fn a_recycled_tree_parses_as_a_new_one() {
        let first = br#"
            include "a.fbs";
            /// Docs.
            table T (a: "\u00e9") { x: int = 1 (id: 0); v: [string]; }
            enum E : byte { A, B = 2 }
            union U { T }
            rpc_service S { Get(T): T; }
            table Broken { x: ; }
            namespace 1;
            struct Lost {
        "#;
        let second = br#"/// Other docs.
            namespace N; table T { y: "\t"; z: [ubyte:3]; } root_type T;"#;
        for (a, b) in [(&first[..], &second[..]), (second, first)] {
            take_spares();
            let mut ast = FileAst::new();
            parse(a, FileId(0), true, &mut ast, &mut Vec::new());
            assert!(!ast.fields.is_empty());
            assert_eq!(ast.lost.any_name, a == first);
            ast.recycle();
            let mut recycled = FileAst::new();
            assert!(recycled.fields.capacity() > 0, "the spare tree is reused");
            let mut errors = Vec::new();
            parse(b, FileId(0), true, &mut recycled, &mut errors);
            let (fresh, fresh_errors) = parse_text(b);
            assert_eq!(format!("{recycled:?}"), format!("{fresh:?}"));
            assert_eq!(format!("{errors:?}"), format!("{fresh_errors:?}"));
        }
    }

    /// Takes this thread's spare trees: the capacity of the declaration list of each, the first
    /// spare first.
    fn take_spares() -> Vec<usize> {
        SPARES.with(|spares| {
            let trees = spares.iter().filter_map(Cell::take);
            trees.map(|t| t.decls.capacity()).collect()
        })
    }

    #[test]
    fn a_large_tree_is_not_kept() {
        take_spares();
        let mut ast = FileAst::new();
        ast.fields.reserve(MAX_SPARE_BYTES);
        ast.recycle();
        assert!(take_spares().is_empty());
        let mut ast = FileAst::new();
        ast.fields.reserve(1);
        ast.recycle();
        assert_eq!(take_spares().len(), 1);
    }

    /// A thread keeps the last [`SPARES_KEPT`] trees recycled, and gives the last one first.
    #[test]
    fn a_thread_keeps_a_few_spare_trees() {
        take_spares();
        let trees = (1..=SPARES_KEPT + 2).map(|capacity| {
            let mut ast = Box::<FileAst>::default();
            ast.decls.reserve_exact(capacity);
            ast
        });
        trees.for_each(FileAst::recycle);
        let trees: Vec<Box<FileAst>> = (0..=SPARES_KEPT).map(|_| FileAst::new()).collect();
        let kept: Vec<usize> = trees.iter().map(|t| t.decls.capacity()).collect();
        assert_eq!(kept, [6, 5, 4, 3, 0]);
        trees.into_iter().for_each(FileAst::recycle);
        assert_eq!(take_spares(), [0, 3, 4, 5]);
    }

    #[test]
    fn parses_every_declaration_kind() {
        let ast = ok(r#"
            include "a.fbs";
            native_include "b.h";
            namespace A.B;
            attribute "priority";
            attribute other;
            /// A color.
            enum Color : ubyte (bit_flags) { Red = 1, Green, Blue, }
            union Any { Monster, Alias: Monster, Str: string, A.B.Monster }
            struct Vec3 (force_align: 16) { x: float; y: [float:3]; }
            table Monster {
              pos: Vec3;
              hp: short = 100 (priority: 1);
              inv: [ubyte] (nested_flatbuffer: "Monster");
              f: float = -nan;
              g: double = rad(180);
              v: [int] = [];
            }
            root_type Monster;
            file_identifier "MONS";
            file_extension "mon";
            rpc_service S (streaming: "none") { Get(Monster): Monster (idempotent); }
        "#);
        assert_eq!(ast.header.len(), 2);
        assert_eq!(ast.decls.len(), 11);
        let Decl::Object(monster) = &ast.decls[6] else {
            panic!("not a table: {:?}", ast.decls[6]);
        };
        let fields = ast.get(monster.fields);
        assert_eq!(fields.len(), 6);
        assert!(matches!(fields[4].default, Some(ValueAst::Call { .. })));
        assert!(matches!(
            fields[3].default,
            Some(ValueAst::Token {
                sign: Some((b'-', _)),
                ..
            })
        ));
    }

    #[test]
    fn the_lists_of_each_declaration_are_its_own() {
        const SRC: &str = r#"
            namespace A.B;
            table T (a1, a2: "x") { f: int (id: 0, deprecated); g: [[X.Y]] (id: 1); }
            enum E : byte (e1) { V (v1), W }
            union U { X.Y.Z: T, Q }
            table S { h: float = sin(cos(1)) (k); }
            rpc_service R { M(X.Y): Z (m1, m2); N(T): T; }
        "#;
        let ast = ok(SRC);
        let src = |s: Span| &SRC[s.range()];
        let names = |list: &[AttrAst]| -> Vec<&str> { list.iter().map(|a| src(a.name)).collect() };
        let Decl::Namespace(ns) = ast.decls[0] else {
            panic!("{:?}", ast.decls[0]);
        };
        let ns: Vec<&str> = ast.get(ns).iter().map(|&s| src(s)).collect();
        assert_eq!(ns, ["A", "B"]);
        let Decl::Object(t) = ast.decls[1] else {
            panic!("{:?}", ast.decls[1]);
        };
        assert_eq!(names(ast.get(t.attrs)), ["a1", "a2"]);
        let fields = ast.get(t.fields);
        assert_eq!(fields.len(), 2);
        assert_eq!(names(ast.get(fields[0].attrs)), ["id", "deprecated"]);
        assert_eq!(names(ast.get(fields[1].attrs)), ["id"]);
        let TypeAst::Vector(inner, _) = fields[1].ty else {
            panic!("{:?}", fields[1].ty);
        };
        let TypeAst::Vector(inner, _) = *ast.item(inner) else {
            panic!("{:?}", ast.item(inner));
        };
        let TypeAst::Named(q) = *ast.item(inner) else {
            panic!("{:?}", ast.item(inner));
        };
        assert_eq!((src(q.first), src(q.span)), ("X", "X.Y"));
        assert_eq!(ast.get(q.rest).len(), 1);
        let Decl::Enum(e) = ast.decls[2] else {
            panic!("{:?}", ast.decls[2]);
        };
        assert_eq!(names(ast.get(e.attrs)), ["e1"]);
        let values = ast.get(e.values);
        assert_eq!(values.len(), 2);
        assert_eq!(names(ast.get(values[0].attrs)), ["v1"]);
        assert!(values[1].attrs.is_empty());
        let Decl::Enum(u) = ast.decls[3] else {
            panic!("{:?}", ast.decls[3]);
        };
        let members = ast.get(u.values);
        assert_eq!(src(members[0].name.span), "X.Y.Z");
        let rest: Vec<&str> = ast
            .get(members[0].name.rest)
            .iter()
            .map(|&s| src(s))
            .collect();
        assert_eq!(rest, ["Y", "Z"]);
        assert_eq!(src(members[1].name.span), "Q");
        let Decl::Object(s) = ast.decls[4] else {
            panic!("{:?}", ast.decls[4]);
        };
        let h = ast.get(s.fields)[0];
        assert_eq!(names(ast.get(h.attrs)), ["k"]);
        let Some(ValueAst::Call { name, arg, .. }) = h.default else {
            panic!("{:?}", h.default);
        };
        assert_eq!(src(name), "sin");
        let ValueAst::Call { name, arg, .. } = *ast.item(arg) else {
            panic!("{:?}", ast.item(arg));
        };
        assert_eq!(src(name), "cos");
        assert!(matches!(
            ast.item(arg),
            ValueAst::Token { kind: Tok::Int, .. }
        ));
        let Decl::Service(r) = ast.decls[5] else {
            panic!("{:?}", ast.decls[5]);
        };
        let calls = ast.get(r.calls);
        assert_eq!(calls.len(), 2);
        assert_eq!(src(calls[0].request.span), "X.Y");
        assert_eq!(names(ast.get(calls[0].attrs)), ["m1", "m2"]);
        assert!(calls[1].attrs.is_empty());
    }

    #[test]
    fn keywords_are_whole_words() {
        let keywords = [
            ("namespace", Keyword::Namespace),
            ("table", Keyword::Table),
            ("struct", Keyword::Struct),
            ("enum", Keyword::Enum),
            ("union", Keyword::Union),
            ("root_type", Keyword::RootType),
            ("file_identifier", Keyword::FileIdentifier),
            ("file_extension", Keyword::FileExtension),
            ("include", Keyword::Include),
            ("native_include", Keyword::NativeInclude),
            ("attribute", Keyword::Attribute),
            ("rpc_service", Keyword::RpcService),
        ];
        for (word, keyword) in keywords {
            assert_eq!(keyword_of(word.as_bytes()), Some(keyword), "{word}");
            let head = &word[..word.len() - 1];
            for other in [
                head.to_string(),
                format!("{word}s"),
                format!("{head}X"),
                format!("X{}", &word[1..]),
                word.to_uppercase(),
            ] {
                assert_eq!(keyword_of(other.as_bytes()), None, "{other}");
            }
        }
        assert_eq!(keyword_of(b""), None);
    }

    #[test]
    fn a_function_needs_the_parenthesis_right_after_the_name() {
        let (_, errs) = parse_text(b"table T { x: float = rad (180); }");
        assert!(!errs.is_empty());
    }

    #[test]
    fn reports_several_syntax_errors() {
        let errs = errors("table T { a int; b: ; c: int; }\ntable U { x: [int }\nstruct");
        assert!(errs.len() >= 3, "{errs:?}");
        assert!(errs[0].contains("expected `:`"), "{errs:?}");
    }

    #[test]
    fn empty_files_and_misplaced_statements() {
        assert_eq!(errors(""), ["input file is empty"]);
        assert_eq!(errors("// just a comment\n"), ["input file is empty"]);
        assert_eq!(
            errors("table T {} include \"x.fbs\";"),
            ["includes must come before declarations"]
        );
        assert!(errors("table T {} native_include \"x\";")[0].contains("expected a declaration"));
        assert!(errors("rpc_service S {}")[0].contains("expected an identifier"));
        assert!(errors("enum E : byte { A = x }")[0].contains("integer constant"));
        assert!(errors("enum E : byte { A.B }")[0].contains("expected `}`"));
    }

    #[test]
    fn recovery_keeps_what_parsed_and_records_what_did_not() {
        const SRC: &str = "table A { x: int\ntable B { y: int; z: ; w: short }\n\
            enum E : byte { V = x }\nunion U { A, B,\ntable C { c: int }";
        let (ast, errs) = parse_text(SRC.as_bytes());
        assert_eq!(errs.len(), 6, "{errs:?}");
        let src = |s: Span| &SRC[s.range()];
        let objects: Vec<(&str, usize, bool)> = ast
            .decls
            .iter()
            .filter_map(|d| match d {
                Decl::Object(o) => Some((src(o.name), ast.get(o.fields).len(), o.partial)),
                _ => None,
            })
            .collect();
        assert_eq!(objects, [("A", 1, false), ("B", 2, true), ("C", 1, false)]);
        let unions: Vec<usize> = ast
            .decls
            .iter()
            .filter_map(|d| match d {
                Decl::Enum(e) => Some(ast.get(e.values).len()),
                _ => None,
            })
            .collect();
        assert_eq!(unions, [2]);
        let lost: Vec<&str> = ast.lost.names.iter().map(|&s| src(s)).collect();
        assert_eq!(lost, ["E"]);
        assert!(!ast.lost.any_name && !ast.lost.attributes);
        let (ast, _) = parse_text(b"namespace A..B; attribute \"a\" x; table T {}");
        assert!(ast.lost.any_name && ast.lost.attributes);
        assert_eq!(ast.decls.len(), 1);
    }

    #[test]
    fn recovery_always_moves_on() {
        let inputs = [
            "table T {} include \"a\"; native_include \"b\"; include \"c\"",
            "table table table { table table table } enum enum enum : { enum enum }",
            "union union { union union union, union } struct struct struct struct",
            "file_identifier file_identifier \"x\" attribute attribute \"y\" rpc_service",
            "table T { x: int = table T; } root_type root_type root_type T table",
        ];
        for src in inputs {
            let (_, errs) = parse_text(src.as_bytes());
            assert!(
                !errs.is_empty() && errs.len() < MAX_ERRORS,
                "{src}: {errs:?}"
            );
        }
    }

    /// A root file with several NUL bytes is binary data: one error, not one per byte after it
    /// (a FlatBuffer given to `flatforge check` got 65).
    #[test]
    fn a_binary_root_file_gets_one_error() {
        let src = b"x\0\0\0MONS\x01\x02 table \xff @ {";
        let (ast, errs) = parse_text(src);
        assert!(ast.decls.is_empty());
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert!(errs[0].message.contains("NUL"));
        assert!(errs[0].help.iter().any(|h| h.contains("flatforge json")));
    }

    #[test]
    fn nul_bytes_end_an_included_file_only() {
        let src = b"table A {}\0table B {}";
        let (ast, errs) = parse_text(src);
        assert_eq!(ast.decls.len(), 2);
        assert_eq!(errs.len(), 1);
        assert!(errs[0].is_error() && errs[0].message.contains("NUL"));
        let mut ast = FileAst::default();
        let mut diagnostics = Vec::new();
        parse(src, FileId(1), false, &mut ast, &mut diagnostics);
        assert_eq!(ast.decls.len(), 1);
        assert_eq!(diagnostics.len(), 1);
        assert!(!diagnostics[0].is_error());
        assert_eq!(
            diagnostics[0].primary.as_ref().map(|p| p.span.start),
            Some(10)
        );
    }

    /// The lexer notes the first NUL byte it passes, wherever it is (in white space, a comment,
    /// a doc comment, a string, where a token starts, after the error limit): an included file
    /// is read up to it, a root file with one gets the error there, one with two is binary.
    #[test]
    fn the_first_nul_byte_is_found_wherever_it_is() {
        let run = |src: &[u8], root: bool| {
            let mut ast = FileAst::default();
            let mut errors = Vec::new();
            parse(src, FileId(0), root, &mut ast, &mut errors);
            (format!("{ast:?}"), errors)
        };
        let at_nul = |d: &Diagnostic, at: usize| {
            d.message.contains("NUL") && d.primary.as_ref().map(|p| p.span.start) == Some(at as u32)
        };
        let bases = [
            "table T { a:int = 1; b:[E] (id: 2); } // note\n/* block */ struct S { x:float; }\n\
             /// doc\nenum E:byte { A, B = 0x2 } attribute \"a\\tb\"; root_type T;"
                .to_string(),
            format!("{}table T {{ a:int; }}", "@ ".repeat(70)),
        ];
        for base in &bases {
            for at in 0..=base.len() {
                let mut src = base.as_bytes().to_vec();
                src.insert(at, 0);
                let (ast, errors) = run(&src, false);
                let (ast_before, mut errors_before) = run(&src[..at], false);
                let warning = errors.last().filter(|d| !d.is_error() && at_nul(d, at));
                assert!(warning.is_some(), "{at}: {errors:?}");
                errors_before.extend(warning.cloned());
                assert_eq!(ast, ast_before, "{at}");
                assert_eq!(format!("{errors:?}"), format!("{errors_before:?}"), "{at}");
                let (_, errors) = run(&src, true);
                assert!(
                    errors.last().is_some_and(|d| d.is_error() && at_nul(d, at)),
                    "{at}"
                );
                src.push(0);
                let (ast, errors) = run(&src, true);
                assert_eq!(
                    (ast, errors.len()),
                    (format!("{:?}", FileAst::default()), 1)
                );
                assert!(at_nul(&errors[0], at), "{at}");
            }
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let src = format!(
            "table T {{ x: {}int{}; }}",
            "[".repeat(10_000),
            "]".repeat(10_000)
        );
        assert!(errors(&src)[0].contains("maximum nesting depth"));
        let src = format!(
            "table T {{ x: float = {}1{}; }}",
            "sin(".repeat(10_000),
            ")".repeat(10_000)
        );
        assert!(errors(&src)[0].contains("maximum nesting depth"));
    }
}
