//! The parser: tokens of one file to its syntax tree ([`FileAst`]).
//!
//! The grammar is flatc's: a header of `include`/`native_include` statements, then declarations
//! (`namespace`, `table`, `struct`, `enum`, `union`, `root_type`, `file_identifier`,
//! `file_extension`, `attribute`, `rpc_service`). Keywords are contextual identifiers, as in
//! flatc. The tree holds spans, not strings: names are read back from the source when needed,
//! which keeps parsing free of allocations for plain schemas.
//!
//! Everything that needs the meaning of names (which type a name denotes, whether a value fits)
//! is left to the analysis. On a syntax error the parser records a diagnostic, skips to the end
//! of the declaration and goes on, so one run reports all syntax errors of a file.

use crate::diagnostic::{Code, Diagnostic};
use crate::lexer::{LexError, Lexer, Tok, Token};
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

/// A possibly dotted name (`A.B.C`): the span of each identifier.
#[derive(Clone, Debug)]
pub(crate) struct QualName {
    pub first: Span,
    pub rest: Vec<Span>,
}

impl QualName {
    /// The span from the first to the last component.
    pub(crate) fn span(&self) -> Span {
        let end = self.rest.last().map_or(self.first.end, |s| s.end);
        Span::new(self.first.file, self.first.start, end)
    }
}

/// A type as written.
#[derive(Clone, Debug)]
pub(crate) enum TypeAst {
    /// A built-in scalar or `string`, or the name of an enum, union, table or struct.
    Named(QualName),
    /// `[T]`.
    Vector(Box<TypeAst>, Span),
    /// `[T:N]`, with the span of the integer written for `N`.
    Array(Box<TypeAst>, Span, Span),
}

impl TypeAst {
    pub(crate) fn span(&self) -> Span {
        match self {
            TypeAst::Named(n) => n.span(),
            TypeAst::Vector(_, s) | TypeAst::Array(_, _, s) => *s,
        }
    }
}

/// A value: a default (`= 5`) or an attribute value (`id: 3`).
#[derive(Clone, Debug)]
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
        arg: Box<ValueAst>,
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
#[derive(Clone, Debug)]
pub(crate) struct AttrAst {
    /// The name's span; `name_decoded` is set when it was written as an escaped string.
    pub name: Span,
    pub name_is_string: bool,
    pub name_decoded: u32,
    pub value: Option<ValueAst>,
}

/// A range into [`FileAst::docs`].
pub(crate) type Docs = (u32, u32);

#[derive(Clone, Debug)]
pub(crate) struct FieldDecl {
    pub name: Span,
    pub ty: TypeAst,
    pub default: Option<ValueAst>,
    pub attrs: Vec<AttrAst>,
    pub docs: Docs,
}

#[derive(Clone, Debug)]
pub(crate) struct ObjectDecl {
    pub is_struct: bool,
    pub name: Span,
    pub attrs: Vec<AttrAst>,
    pub fields: Vec<FieldDecl>,
    pub docs: Docs,
}

#[derive(Clone, Debug)]
pub(crate) struct EnumValDecl {
    pub name: QualName,
    pub alias_type: Option<TypeAst>,
    pub value: Option<Span>,
    pub attrs: Vec<AttrAst>,
    pub docs: Docs,
}

#[derive(Clone, Debug)]
pub(crate) struct EnumDecl {
    pub is_union: bool,
    pub name: Span,
    pub underlying: Option<TypeAst>,
    pub attrs: Vec<AttrAst>,
    pub values: Vec<EnumValDecl>,
    pub docs: Docs,
    pub open: Span,
}

#[derive(Clone, Debug)]
pub(crate) struct RpcDecl {
    pub name: Span,
    pub request: QualName,
    pub response: QualName,
    pub attrs: Vec<AttrAst>,
    pub docs: Docs,
}

#[derive(Clone, Debug)]
pub(crate) struct ServiceDecl {
    pub name: Span,
    pub attrs: Vec<AttrAst>,
    pub calls: Vec<RpcDecl>,
    pub docs: Docs,
}

#[derive(Clone, Debug)]
pub(crate) enum Decl {
    Namespace(Vec<Span>),
    Object(ObjectDecl),
    Enum(EnumDecl),
    RootType(QualName),
    FileIdentifier(StrLit),
    FileExtension(StrLit),
    Attribute(StrLit, bool),
    Service(ServiceDecl),
}

#[derive(Clone, Debug)]
pub(crate) enum HeaderItem {
    Include(StrLit, Span),
    NativeInclude(StrLit),
}

/// The syntax tree of one file.
#[derive(Clone, Debug, Default)]
pub(crate) struct FileAst {
    pub header: Vec<HeaderItem>,
    pub decls: Vec<Decl>,
    /// Spans of doc comment texts (after `///`), referenced by [`Docs`] ranges.
    pub docs: Vec<(u32, u32)>,
    /// Decoded values of string constants with escapes.
    pub strings: Vec<String>,
}

impl FileAst {
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

/// Parses one file. Returns the tree and the syntax errors (empty when the file is valid).
pub(crate) fn parse(src: &[u8], file: FileId) -> (FileAst, Vec<Diagnostic>) {
    let mut p = Parser {
        src,
        lexer: Lexer::new(src, file),
        tok: Token {
            kind: Tok::Eof,
            start: 0,
            end: 0,
            docs: (0, 0),
            decoded: u32::MAX,
        },
        prev_end: 0,
        errors: Vec::new(),
        depth: 0,
        nesting: 0,
        suppress: false,
    };
    let mut ast = FileAst::default();
    if let Err(e) = p.lexer.skip_bom() {
        p.lex_error(e);
    }
    p.advance();
    if p.tok.kind == Tok::Eof {
        if p.errors.is_empty() {
            let span = Span::new(file, 0, 0);
            p.errors.push(
                Diagnostic::error(Code::Syntax, "input file is empty", span)
                    .with_note("flatc rejects files without any declaration"),
            );
        }
    } else {
        p.file(&mut ast);
    }
    ast.docs = std::mem::take(&mut p.lexer.docs);
    ast.strings = std::mem::take(&mut p.lexer.strings);
    (ast, p.errors)
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

/// Marker for "a syntax error was recorded; skip to the end of the declaration".
struct Failed;

type PResult<T> = Result<T, Failed>;

struct Parser<'s> {
    src: &'s [u8],
    lexer: Lexer<'s>,
    tok: Token,
    prev_end: u32,
    errors: Vec<Diagnostic>,
    /// Brace depth, for error recovery.
    depth: u32,
    /// Nesting of `[` in types and calls in values.
    nesting: u32,
    /// After a lexical error, parser errors are not reported until the parser has recovered
    /// (they would only be consequences of the bad token).
    suppress: bool,
}

impl<'s> Parser<'s> {
    fn file(&mut self, ast: &mut FileAst) {
        loop {
            if self.errors.len() >= MAX_ERRORS {
                return;
            }
            let keyword = self.keyword();
            let result = if keyword == Some(Keyword::NativeInclude) {
                self.advance();
                self.str_lit().and_then(|lit| {
                    self.expect(b';')?;
                    ast.header.push(HeaderItem::NativeInclude(lit));
                    Ok(())
                })
            } else if keyword == Some(Keyword::Include) {
                let start = self.tok.start;
                self.advance();
                self.str_lit().and_then(|lit| {
                    let span = self.span_from(start);
                    self.expect(b';')?;
                    ast.header.push(HeaderItem::Include(lit, span));
                    Ok(())
                })
            } else {
                break;
            };
            if result.is_err() {
                self.synchronize();
            }
        }
        while self.tok.kind != Tok::Eof {
            if self.errors.len() >= MAX_ERRORS {
                return;
            }
            match self.decl() {
                Ok(Some(decl)) => ast.decls.push(decl),
                Ok(None) => {}
                Err(Failed) => self.synchronize(),
            }
        }
    }

    fn decl(&mut self) -> PResult<Option<Decl>> {
        let keyword = self.keyword();
        match keyword {
            Some(Keyword::Namespace) => {
                self.advance();
                let mut parts = Vec::new();
                if !self.is_punct(b';') {
                    loop {
                        parts.push(self.ident()?);
                        if self.is_punct(b'.') {
                            self.advance();
                        } else {
                            break;
                        }
                    }
                }
                self.expect(b';')?;
                return Ok(Some(Decl::Namespace(parts)));
            }
            Some(Keyword::Enum | Keyword::Union) => {
                return self.enum_decl().map(|d| Some(Decl::Enum(d)));
            }
            Some(Keyword::RootType) => {
                self.advance();
                let name = self.qual_name()?;
                self.expect(b';')?;
                return Ok(Some(Decl::RootType(name)));
            }
            Some(kw @ (Keyword::FileIdentifier | Keyword::FileExtension)) => {
                self.advance();
                let lit = self.str_lit()?;
                self.expect(b';')?;
                return Ok(Some(if kw == Keyword::FileIdentifier {
                    Decl::FileIdentifier(lit)
                } else {
                    Decl::FileExtension(lit)
                }));
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
                self.expect(b';')?;
                return Ok(Some(Decl::Attribute(lit, is_string)));
            }
            Some(Keyword::RpcService) => {
                return self.service().map(|s| Some(Decl::Service(s)));
            }
            Some(Keyword::Table | Keyword::Struct) => {
                return self.object().map(|o| Some(Decl::Object(o)));
            }
            Some(Keyword::NativeInclude) | None => {}
        }
        if self.is_punct(b'{') {
            let span = self.span_here();
            self.errors.push(
                Diagnostic::error(
                    Code::Syntax,
                    "JSON data after the schema is not supported here",
                    span,
                )
                .with_note("flatc parses a JSON object here; schema files for flatforge must contain only declarations"),
            );
            return Err(Failed);
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
        Err(Failed)
    }

    fn object(&mut self) -> PResult<ObjectDecl> {
        let docs = self.tok.docs;
        let is_struct = self.is_ident("struct");
        self.advance();
        let name = self.ident()?;
        let attrs = self.metadata()?;
        self.expect(b'{')?;
        let mut fields = Vec::new();
        while !self.is_punct(b'}') {
            if self.tok.kind == Tok::Eof {
                return Err(self.unexpected("`}` or a field"));
            }
            match self.field() {
                Ok(f) => fields.push(f),
                Err(Failed) => {
                    if self.errors.len() >= MAX_ERRORS {
                        return Err(Failed);
                    }
                    // Skip to the end of this field and go on with the next one.
                    while !matches!(self.tok.kind, Tok::Eof | Tok::Punct(b';' | b'}')) {
                        self.advance();
                    }
                    if self.is_punct(b';') {
                        self.advance();
                    }
                    self.suppress = false;
                }
            }
        }
        self.expect(b'}')?;
        Ok(ObjectDecl {
            is_struct,
            name,
            attrs,
            fields,
            docs,
        })
    }

    fn field(&mut self) -> PResult<FieldDecl> {
        let docs = self.tok.docs;
        let name = self.ident()?;
        self.expect(b':')?;
        let ty = self.type_ast()?;
        let default = if self.is_punct(b'=') {
            self.advance();
            Some(self.value()?)
        } else {
            None
        };
        let attrs = self.metadata()?;
        self.expect(b';')?;
        Ok(FieldDecl {
            name,
            ty,
            default,
            attrs,
            docs,
        })
    }

    fn type_ast(&mut self) -> PResult<TypeAst> {
        if self.tok.kind == Tok::Ident {
            return Ok(TypeAst::Named(self.qual_name()?));
        }
        if self.is_punct(b'[') {
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
            let inner = Box::new(inner?);
            if self.is_punct(b':') {
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
                self.expect(b']')?;
                let span = self.span_from(start);
                return Ok(TypeAst::Array(inner, self.span_of(len_tok), span));
            }
            self.expect(b']')?;
            return Ok(TypeAst::Vector(inner, self.span_from(start)));
        }
        Err(self.unexpected("a type"))
    }

    fn value(&mut self) -> PResult<ValueAst> {
        let mut sign = None;
        if matches!(self.tok.kind, Tok::Punct(b'+' | b'-')) {
            let Tok::Punct(c) = self.tok.kind else {
                return Err(Failed);
            };
            sign = Some((c, self.span_of(self.tok)));
            self.advance();
            if self.tok.kind != Tok::Ident {
                return Err(self.unexpected("a constant name after the sign"));
            }
        }
        let t = self.tok;
        match t.kind {
            Tok::Ident if sign.is_none() && self.src.get(t.end as usize) == Some(&b'(') => {
                let start = t.start;
                self.advance();
                if self.nesting >= MAX_DEPTH {
                    let span = self.span_here();
                    self.errors.push(Diagnostic::error(
                        Code::Syntax,
                        format!("maximum nesting depth {MAX_DEPTH} reached"),
                        span,
                    ));
                    return Err(Failed);
                }
                self.expect(b'(')?;
                self.nesting += 1;
                let arg = self.value();
                self.nesting -= 1;
                let arg = Box::new(arg?);
                self.expect(b')')?;
                Ok(ValueAst::Call {
                    name: self.span_of(t),
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
            Tok::Punct(b'[') => {
                self.advance();
                if !self.is_punct(b']') {
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

    fn metadata(&mut self) -> PResult<Vec<AttrAst>> {
        let mut attrs = Vec::new();
        if !self.is_punct(b'(') {
            return Ok(attrs);
        }
        self.advance();
        loop {
            let t = self.tok;
            if !matches!(t.kind, Tok::Ident | Tok::Str) {
                return Err(self.unexpected("an attribute name (an identifier or a string)"));
            }
            self.advance();
            let value = if self.is_punct(b':') {
                self.advance();
                Some(self.value()?)
            } else {
                None
            };
            attrs.push(AttrAst {
                name: self.span_of(t),
                name_is_string: t.kind == Tok::Str,
                name_decoded: t.decoded,
                value,
            });
            if self.is_punct(b')') {
                self.advance();
                return Ok(attrs);
            }
            self.expect(b',')?;
        }
    }

    fn enum_decl(&mut self) -> PResult<EnumDecl> {
        let docs = self.tok.docs;
        let is_union = self.is_ident("union");
        self.advance();
        let name = self.ident()?;
        let underlying = if self.is_punct(b':') {
            self.advance();
            Some(self.type_ast()?)
        } else {
            None
        };
        let attrs = self.metadata()?;
        let open = self.span_here();
        self.expect(b'{')?;
        let mut values = Vec::new();
        while !self.is_punct(b'}') {
            let docs = self.tok.docs;
            let first = self.ident()?;
            let mut name = QualName {
                first,
                rest: Vec::new(),
            };
            let mut alias_type = None;
            if is_union {
                while self.is_punct(b'.') {
                    self.advance();
                    name.rest.push(self.ident()?);
                }
                if self.is_punct(b':') {
                    self.advance();
                    alias_type = Some(self.type_ast()?);
                }
            }
            let value = if self.is_punct(b'=') {
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
            values.push(EnumValDecl {
                name,
                alias_type,
                value,
                attrs,
                docs,
            });
            if !self.is_punct(b',') {
                break;
            }
            self.advance();
        }
        self.expect(b'}')?;
        Ok(EnumDecl {
            is_union,
            name,
            underlying,
            attrs,
            values,
            docs,
            open,
        })
    }

    fn service(&mut self) -> PResult<ServiceDecl> {
        let docs = self.tok.docs;
        self.advance();
        let name = self.ident()?;
        let attrs = self.metadata()?;
        self.expect(b'{')?;
        let mut calls = Vec::new();
        loop {
            let docs = self.tok.docs;
            let name = self.ident()?;
            self.expect(b'(')?;
            let request = self.qual_name()?;
            self.expect(b')')?;
            self.expect(b':')?;
            let response = self.qual_name()?;
            let attrs = self.metadata()?;
            self.expect(b';')?;
            calls.push(RpcDecl {
                name,
                request,
                response,
                attrs,
                docs,
            });
            if self.is_punct(b'}') {
                break;
            }
        }
        self.advance();
        Ok(ServiceDecl {
            name,
            attrs,
            calls,
            docs,
        })
    }

    fn qual_name(&mut self) -> PResult<QualName> {
        let first = self.ident()?;
        let mut rest = Vec::new();
        while self.is_punct(b'.') {
            self.advance();
            rest.push(self.ident()?);
        }
        Ok(QualName { first, rest })
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

    fn expect(&mut self, c: u8) -> PResult<()> {
        if !self.is_punct(c) {
            return Err(self.unexpected_punct(c));
        }
        self.advance();
        Ok(())
    }

    #[cold]
    fn unexpected_punct(&mut self, c: u8) -> Failed {
        self.unexpected(&format!("`{}`", c as char))
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
            Tok::Punct(c) => format!("`{}`", c as char),
            kind => {
                let text = self
                    .src
                    .get(self.tok.start as usize..self.tok.end as usize)
                    .map(String::from_utf8_lossy)
                    .unwrap_or_default();
                format!("{} `{}`", kind.describe(), text)
            }
        }
    }

    fn advance(&mut self) {
        self.prev_end = self.tok.end;
        match self.tok.kind {
            Tok::Punct(b'{') => self.depth += 1,
            Tok::Punct(b'}') => self.depth = self.depth.saturating_sub(1),
            _ => {}
        }
        if let Err(seen_newline) = self.lexer.next_quick(&mut self.tok) {
            self.advance_slow(seen_newline);
        }
    }

    /// [`Parser::advance`] for the tokens [`Lexer::next_quick`] leaves to [`Lexer::lex`], and
    /// lexical errors.
    #[inline(never)]
    fn advance_slow(&mut self, seen_newline: bool) {
        let mut next = self.lexer.lex(seen_newline);
        loop {
            match next {
                Ok(t) => {
                    self.tok = t;
                    return;
                }
                Err(e) => {
                    self.lex_error(e);
                    if self.errors.len() >= MAX_ERRORS {
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
        let span = self.lexer.span(e.start, e.end);
        self.errors
            .push(Diagnostic::error(Code::Syntax, e.message, span));
    }

    /// Skips tokens to the end of the current declaration: past a `;` outside braces, or past
    /// the `}` that closes the outermost open brace.
    fn synchronize(&mut self) {
        self.suppress = false;
        loop {
            match self.tok.kind {
                Tok::Eof => return,
                Tok::Punct(b';') if self.depth == 0 => {
                    self.advance();
                    return;
                }
                Tok::Punct(b'}') => {
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
        Some(
            match self
                .src
                .get(self.tok.start as usize..self.tok.end as usize)?
            {
                b"namespace" => Keyword::Namespace,
                b"table" => Keyword::Table,
                b"struct" => Keyword::Struct,
                b"enum" => Keyword::Enum,
                b"union" => Keyword::Union,
                b"root_type" => Keyword::RootType,
                b"file_identifier" => Keyword::FileIdentifier,
                b"file_extension" => Keyword::FileExtension,
                b"include" => Keyword::Include,
                b"native_include" => Keyword::NativeInclude,
                b"attribute" => Keyword::Attribute,
                b"rpc_service" => Keyword::RpcService,
                _ => return None,
            },
        )
    }

    fn is_ident(&self, kw: &str) -> bool {
        self.tok.kind == Tok::Ident
            && self.src.get(self.tok.start as usize..self.tok.end as usize) == Some(kw.as_bytes())
    }

    fn is_punct(&self, c: u8) -> bool {
        self.tok.kind == Tok::Punct(c)
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

    fn ok(src: &str) -> FileAst {
        let (ast, errors) = parse(src.as_bytes(), FileId(0));
        assert!(errors.is_empty(), "{src}: {errors:?}");
        ast
    }

    fn errors(src: &str) -> Vec<String> {
        parse(src.as_bytes(), FileId(0))
            .1
            .into_iter()
            .map(|d| d.message)
            .collect()
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
        assert_eq!(monster.fields.len(), 6);
        assert!(matches!(
            monster.fields[4].default,
            Some(ValueAst::Call { .. })
        ));
        assert!(matches!(
            monster.fields[3].default,
            Some(ValueAst::Token {
                sign: Some((b'-', _)),
                ..
            })
        ));
    }

    #[test]
    fn a_function_needs_the_parenthesis_right_after_the_name() {
        let (_, errs) = parse(b"table T { x: float = rad (180); }", FileId(0));
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
