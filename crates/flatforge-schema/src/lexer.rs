//! The lexer: schema bytes to tokens, byte by byte, without allocating for plain tokens.
//!
//! It follows flatc's tokenizer exactly where that decides what is valid: identifiers are
//! `[A-Za-z_][A-Za-z0-9_]*` (keywords are ordinary identifiers, recognized by the parser), numbers
//! follow flatc's rules (decimal, hex, hex floats, `+inf`/`-inf`), a sign directly followed by an
//! identifier is a token of its own (for `-nan`), string constants take flatc's escapes and must
//! be valid UTF-8, and `///` comments are documentation and must stand on their own line. NUL
//! bytes are the parser's business (flatc rejects a root file that has one and reads an included
//! file up to its first): the lexer lexes what it is given, where a NUL byte in a comment or a
//! string constant is a character like any other, and one where a token should start is an
//! error with an empty message (the parser reports the first NUL byte of a file, once). So that
//! the parser need not look for NUL bytes before it starts, the lexer notes the first one it
//! passes ([`Lexer::first_nul`]).
//!
//! The common tokens (punctuation, identifiers, plain decimal integers, strings of printable ASCII
//! without escapes, the end of the file) after plain white space take an inline fast path that
//! writes the parser's token in place ([`Lexer::next_quick`]); everything else (comments, other
//! tokens, every error) goes through [`Lexer::next_token`].

use crate::source::{FileId, Span};

/// The kind of a token, one byte: a punctuation token's kind is its own byte, so that
/// comparing kinds, punctuation included, compares one byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Tok {
    Eof = 0,
    Ident = 1,
    Str = 2,
    Int = 3,
    Float = 4,
    LBrace = b'{',
    RBrace = b'}',
    LParen = b'(',
    RParen = b')',
    LBracket = b'[',
    RBracket = b']',
    Less = b'<',
    Greater = b'>',
    Comma = b',',
    Colon = b':',
    Semicolon = b';',
    Equals = b'=',
    /// `.`, when not part of a number.
    Dot = b'.',
    /// `+` directly followed by an identifier.
    Plus = b'+',
    /// `-` directly followed by an identifier.
    Minus = b'-',
}

/// The kinds of the bytes that are always a token of their own (`{ } ( ) [ ] < > , : ; =`).
static PUNCT: [Option<Tok>; 256] = {
    let mut table = [None; 256];
    let all = [
        Tok::LBrace,
        Tok::RBrace,
        Tok::LParen,
        Tok::RParen,
        Tok::LBracket,
        Tok::RBracket,
        Tok::Less,
        Tok::Greater,
        Tok::Comma,
        Tok::Colon,
        Tok::Semicolon,
        Tok::Equals,
    ];
    let mut i = 0;
    while i < all.len() {
        table[all[i] as usize] = Some(all[i]);
        i += 1;
    }
    table
};

impl Tok {
    /// The punctuation token that the byte `c` always is, if any (`.`, `+` and `-` are not
    /// always tokens of their own).
    #[inline]
    pub(crate) fn punct(c: u8) -> Option<Tok> {
        PUNCT[c as usize]
    }

    /// The character of a punctuation token.
    pub(crate) fn punct_char(self) -> Option<char> {
        (self as u8 > Tok::Float as u8).then_some(self as u8 as char)
    }

    /// How the token kind is named in messages.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Tok::Eof => "end of file",
            Tok::Ident => "identifier",
            Tok::Str => "string constant",
            Tok::Int => "integer constant",
            Tok::Float => "float constant",
            _ => "punctuation",
        }
    }
}

/// A token: its kind, its byte range, the doc comments before it and, for string constants
/// with escapes, the index of the decoded value.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token {
    pub kind: Tok,
    pub start: u32,
    pub end: u32,
    /// Range into [`Lexer::docs`] of the `///` comments directly before this token.
    pub docs: (u32, u32),
    /// For `Tok::Str` with escapes: index into [`Lexer::strings`]; `u32::MAX` otherwise.
    pub decoded: u32,
}

/// A token as [`Lexer::quick_at`] finds it: no doc comments before it, and no escapes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct QuickToken {
    pub kind: Tok,
    pub start: u32,
    pub end: u32,
    /// For `Tok::Int`, found by [`Lexer::quick_value_at`]: the value of its digits, when there
    /// are at most [`SMALL_INT_DIGITS`] of them; [`NO_SMALL_INT`] otherwise.
    pub small_int: u32,
}

/// The most digits of an integer whose value [`QuickToken::small_int`] gives: any value of so
/// few digits is less than [`NO_SMALL_INT`].
pub(crate) const SMALL_INT_DIGITS: usize = 9;

/// No [`QuickToken::small_int`] value.
pub(crate) const NO_SMALL_INT: u32 = u32::MAX;

/// A lexical error.
#[derive(Clone, Debug)]
pub(crate) struct LexError {
    /// What is wrong; empty for a NUL byte (see the module documentation).
    pub message: String,
    pub start: u32,
    pub end: u32,
}

const IDENT_START: u8 = 1;
const IDENT_CONT: u8 = 2;
const DIGIT: u8 = 4;
const XDIGIT: u8 = 8;
const SPACE: u8 = 16;

static CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        let mut v = 0;
        if b.is_ascii_alphabetic() || b == b'_' {
            v |= IDENT_START | IDENT_CONT;
        }
        if b.is_ascii_digit() {
            v |= IDENT_CONT | DIGIT;
        }
        if b.is_ascii_hexdigit() {
            v |= XDIGIT;
        }
        if matches!(b, b' ' | b'\t' | b'\r' | b'\n') {
            v |= SPACE;
        }
        table[c] = v;
        c += 1;
    }
    table
};

#[inline]
fn class(b: u8) -> u8 {
    CLASS[b as usize]
}

#[inline]
pub(crate) fn is_ident_start(b: u8) -> bool {
    class(b) & IDENT_START != 0
}

#[inline]
pub(crate) fn is_ident_cont(b: u8) -> bool {
    class(b) & IDENT_CONT != 0
}

#[inline]
fn is_digit(b: u8) -> bool {
    class(b) & DIGIT != 0
}

#[inline]
fn is_xdigit(b: u8) -> bool {
    class(b) & XDIGIT != 0
}

/// White space: a space, a tab or a line break (`\r`, `\n`).
#[inline]
fn is_space(b: u8) -> bool {
    class(b) & SPACE != 0
}

/// Produces tokens on demand from one file's bytes.
pub(crate) struct Lexer<'s> {
    src: &'s [u8],
    pos: usize,
    /// Spans (file-relative) of the text of doc comments, after the `///`.
    pub docs: Vec<(u32, u32)>,
    /// Decoded values of string constants that contain escapes.
    pub strings: Vec<String>,
    file: FileId,
    /// The first NUL byte lexed, if any (see [`Lexer::first_nul`]).
    nul: Option<usize>,
}

impl<'s> Lexer<'s> {
    /// A lexer over `src` (see [`Lexer::skip_bom`] for a byte order mark).
    pub(crate) fn new(src: &'s [u8], file: FileId) -> Lexer<'s> {
        Lexer {
            src,
            pos: 0,
            docs: Vec::new(),
            strings: Vec::new(),
            file,
            nul: None,
        }
    }

    /// The first NUL byte of the source. Every byte before the lexer's position has been lexed
    /// (the fast path takes none that is NUL, and [`Lexer::next_token`] notes the first one it
    /// passes), so it is the first one noted, or else the first one from the lexer's position
    /// on (at the end of the source after a whole file is lexed: nothing to look at).
    pub(crate) fn first_nul(&self) -> Option<usize> {
        if self.nul.is_some() || self.pos >= self.src.len() {
            return self.nul;
        }
        first_byte(&self.src[self.pos..], 0).map(|at| self.pos + at)
    }

    /// Checks and skips a byte order mark (flatc rejects a partial one).
    pub(crate) fn skip_bom(&mut self) -> Result<(), LexError> {
        if self.src.first() != Some(&0xef) {
            return Ok(());
        }
        if self.src.get(1) != Some(&0xbb) || self.src.get(2) != Some(&0xbf) {
            return Err(self.error("invalid UTF-8 byte order mark", 0, 1));
        }
        self.pos = 3;
        Ok(())
    }

    /// A span in this file.
    pub(crate) fn span(&self, start: u32, end: u32) -> Span {
        Span::new(self.file, start, end)
    }

    #[inline]
    fn peek_at(&self, i: usize) -> u8 {
        self.src.get(i).copied().unwrap_or(0)
    }

    fn error(&self, message: impl Into<String>, start: usize, end: usize) -> LexError {
        LexError {
            message: message.into(),
            start: start as u32,
            end: end.max(start + 1).min(self.src.len().max(start + 1)) as u32,
        }
    }

    /// The next token. After an error the lexer has moved past the offending bytes, so lexing can
    /// go on. (The parser lexes with [`Lexer::next_quick`], and with this where that fails;
    /// [`Lexer::next_token_fast`], the two together, is tested against this alone.)
    pub(crate) fn next_token(&mut self) -> Result<Token, LexError> {
        let from = self.pos;
        // As in flatc, only the very first byte of the file counts as a line start (not the byte
        // after a byte order mark).
        let next = self.lex(self.pos == 0);
        if self.nul.is_none() {
            let lexed = self.src.get(from..self.pos).unwrap_or_default();
            self.nul = first_byte(lexed, 0).map(|at| from + at);
        }
        next
    }

    /// The next token (as `next_token`, which the tests hold this to), with the common tokens
    /// lexed inline (see [`Lexer::next_quick`]).
    #[inline(always)]
    pub(crate) fn next_token_fast(&mut self) -> Result<Token, LexError> {
        let mut token = self.token(Tok::Eof, 0, 0, 0);
        if self.next_quick(&mut token) {
            return Ok(token);
        }
        self.next_token()
    }

    /// The kind of the next token, if it lexes without error, leaving the lexer as it was (for
    /// error recovery).
    pub(crate) fn peek_kind(&mut self) -> Option<Tok> {
        let (pos, docs, strings) = (self.pos, self.docs.len(), self.strings.len());
        let next = self.lex(true);
        self.pos = pos;
        self.docs.truncate(docs);
        self.strings.truncate(strings);
        next.ok().map(|t| t.kind)
    }

    /// Where the lexer is: the byte the next token is lexed from (the end of the last one).
    pub(crate) fn pos(&self) -> u32 {
        self.pos as u32
    }

    /// Moves to byte `pos`: back to the start of a token already lexed without error (for error
    /// recovery: that token is lexed again, without its doc comments), or to the end of a token
    /// that [`Lexer::quick_at`] found (the tokens before it are taken as lexed).
    pub(crate) fn move_to(&mut self, pos: u32) {
        self.pos = pos as usize;
    }

    /// The next token when only white space comes before it and it is punctuation, an
    /// identifier, a plain decimal integer, a string of printable ASCII without escapes or the
    /// end of the file (most tokens are), written to `token`. Otherwise returns `false`, and
    /// leaves the lexer as it was for [`Lexer::next_token`].
    #[inline(always)]
    pub(crate) fn next_quick(&mut self, token: &mut Token) -> bool {
        let Some(quick) = self.quick_at(self.pos as u32) else {
            return false;
        };
        *token = self.take_quick(quick);
        true
    }

    /// The token `quick`, found with [`Lexer::quick_at`] at the lexer's position or after tokens
    /// taken as read (see [`Lexer::move_to`]), as [`Lexer::next_quick`] lexes it there: the
    /// lexer moves past it.
    #[inline(always)]
    pub(crate) fn take_quick(&mut self, quick: QuickToken) -> Token {
        self.pos = quick.end as usize;
        let docs = self.docs.len() as u32;
        Token {
            kind: quick.kind,
            start: quick.start,
            end: quick.end,
            docs: (docs, docs),
            decoded: u32::MAX,
        }
    }

    /// Where the punctuation token `punct` ends if it is the token from byte `pos` on, with only
    /// white space before it (as [`Lexer::quick_at`] would find it, but for a one-byte compare).
    #[inline(always)]
    pub(crate) fn punct_after(&self, pos: u32, punct: Tok) -> Option<u32> {
        let (pos, c) = self.after_space(pos);
        (c == punct as u8).then_some(pos + 1)
    }

    /// The first byte from byte `pos` on that is not white space, and where it is (a NUL byte
    /// at the end of the source: a punctuation token is never NUL, so that one compare with
    /// the byte tells whether the punctuation token is there, as [`Lexer::punct_after`] does).
    #[inline(always)]
    pub(crate) fn after_space(&self, pos: u32) -> (u32, u8) {
        let mut pos = pos as usize;
        let mut c = self.peek_at(pos);
        while is_space(c) {
            pos += 1;
            c = self.peek_at(pos);
        }
        (pos as u32, c)
    }

    /// The token from byte `pos` on when [`Lexer::next_quick`] would lex it there (only white
    /// space before it, and a kind of token it lexes), without moving the lexer.
    #[inline(always)]
    pub(crate) fn quick_at(&self, pos: u32) -> Option<QuickToken> {
        self.quick_token_at::<false>(pos)
    }

    /// [`Lexer::quick_at`], with the [`QuickToken::small_int`] of an integer (for a value).
    #[inline(always)]
    pub(crate) fn quick_value_at(&self, pos: u32) -> Option<QuickToken> {
        self.quick_token_at::<true>(pos)
    }

    /// [`Lexer::quick_at`], with the [`QuickToken::small_int`] of an integer if `SMALL_INT`.
    #[inline(always)]
    fn quick_token_at<const SMALL_INT: bool>(&self, pos: u32) -> Option<QuickToken> {
        let src = self.src;
        let byte = |i: usize| src.get(i).copied().unwrap_or(0);
        let (start, c) = self.after_space(pos);
        let start = start as usize;
        let mut pos = start;
        let mut small_int = NO_SMALL_INT;
        let kind = if is_ident_start(c) {
            pos = ident_end(src, pos + 1);
            Tok::Ident
        } else if let Some(kind) = Tok::punct(c) {
            pos += 1;
            kind
        } else if is_digit(c) {
            // Digits not followed by what would make a float or a hex number.
            if c == b'0' && matches!(byte(pos + 1), b'x' | b'X') {
                return None;
            }
            pos += 1;
            let mut value = u32::from(c - b'0');
            while is_digit(byte(pos)) {
                if SMALL_INT {
                    value = value
                        .wrapping_mul(10)
                        .wrapping_add(u32::from(byte(pos) - b'0'));
                }
                pos += 1;
            }
            if matches!(byte(pos), b'.' | b'e' | b'E') {
                return None;
            }
            if SMALL_INT && pos - start <= SMALL_INT_DIGITS {
                small_int = value;
            }
            Tok::Int
        } else if c == b'"' || c == b'\'' {
            // A string of printable ASCII without escapes (which ends on this line).
            pos += 1;
            loop {
                match byte(pos) {
                    b if b == c => break,
                    b'\\' => return None,
                    b' '..=b'~' => pos += 1,
                    _ => return None,
                }
            }
            pos += 1;
            Tok::Str
        } else if pos >= src.len() {
            Tok::Eof
        } else {
            return None;
        };
        Some(QuickToken {
            kind,
            start: start as u32,
            end: pos as u32,
            small_int,
        })
    }

    /// The next token, after white space that contained a line break if `seen_newline`.
    pub(crate) fn lex(&mut self, mut seen_newline: bool) -> Result<Token, LexError> {
        let doc_start = self.docs.len() as u32;
        loop {
            let start = self.pos;
            let Some(&c) = self.src.get(self.pos) else {
                return Ok(self.token(Tok::Eof, start, start, doc_start));
            };
            self.pos += 1;
            match c {
                b' ' | b'\r' | b'\t' => {}
                b'\n' => seen_newline = true,
                0 => return Err(self.error("", start, self.pos)),
                b'"' | b'\'' => return self.string(c, start, doc_start),
                b'/' if self.peek_at(self.pos) == b'/' => {
                    self.pos += 1;
                    let text_start = self.pos;
                    while self.pos < self.src.len()
                        && self.src[self.pos] != b'\n'
                        && self.src[self.pos] != b'\r'
                    {
                        self.pos += 1;
                    }
                    if self.src.get(text_start) == Some(&b'/') {
                        if !seen_newline {
                            return Err(self.error(
                                "a documentation comment should be on a line on its own",
                                start,
                                self.pos,
                            ));
                        }
                        self.docs.push((text_start as u32 + 1, self.pos as u32));
                    }
                }
                b'/' if self.peek_at(self.pos) == b'*' => {
                    self.pos += 1;
                    loop {
                        if self.pos >= self.src.len() {
                            return Err(self.error("end of file in comment", start, start + 2));
                        }
                        if self.src[self.pos] == b'*' && self.peek_at(self.pos + 1) == b'/' {
                            self.pos += 2;
                            break;
                        }
                        self.pos += 1;
                    }
                }
                _ => {
                    if let Some(kind) = Tok::punct(c) {
                        return Ok(self.token(kind, start, self.pos, doc_start));
                    }
                    return self.word_or_number(c, start, doc_start);
                }
            }
        }
    }

    fn token(&self, kind: Tok, start: usize, end: usize, doc_start: u32) -> Token {
        Token {
            kind,
            start: start as u32,
            end: end as u32,
            docs: (doc_start, self.docs.len() as u32),
            decoded: u32::MAX,
        }
    }

    fn string(&mut self, quote: u8, start: usize, doc_start: u32) -> Result<Token, LexError> {
        let mut decoded: Option<Vec<u8>> = None;
        let mut trivial = true;
        let mut high_surrogate: Option<u32> = None;
        loop {
            let b = self.peek_at(self.pos);
            if b == quote {
                break;
            }
            if b == 0 && self.pos < self.src.len() {
                // A NUL byte is reported once, by the parser; here it is a character.
                trivial = false;
                if let Some(out) = &mut decoded {
                    out.push(0);
                }
                self.pos += 1;
                continue;
            }
            if b < b' ' {
                let at = self.pos;
                self.skip_line();
                if b == b'\n' || b == b'\r' || at >= self.src.len() {
                    let end = at.max(start + 1);
                    return Err(self.error("unterminated string constant", start, end));
                }
                return Err(self.error("illegal character in string constant", at, at + 1));
            }
            if b == b'\\' {
                trivial = false;
                let esc_start = self.pos;
                let out = decoded.get_or_insert_with(|| self.src[start + 1..self.pos].to_vec());
                self.pos += 1;
                let e = self.peek_at(self.pos);
                if high_surrogate.is_some() && e != b'u' {
                    self.skip_line();
                    return Err(self.error(
                        "illegal Unicode sequence (unpaired high surrogate)",
                        esc_start,
                        esc_start + 2,
                    ));
                }
                let simple = match e {
                    b'n' => Some(b'\n'),
                    b't' => Some(b'\t'),
                    b'r' => Some(b'\r'),
                    b'b' => Some(8),
                    b'f' => Some(12),
                    b'"' => Some(b'"'),
                    b'\'' => Some(b'\''),
                    b'\\' => Some(b'\\'),
                    b'/' => Some(b'/'),
                    _ => None,
                };
                if let Some(v) = simple {
                    out.push(v);
                    self.pos += 1;
                    continue;
                }
                match e {
                    b'x' => {
                        self.pos += 1;
                        let v = self.hex_digits(2, esc_start)?;
                        out.push(v as u8);
                    }
                    b'u' => {
                        self.pos += 1;
                        let v = self.hex_digits(4, esc_start)?;
                        if (0xD800..=0xDBFF).contains(&v) {
                            if high_surrogate.is_some() {
                                self.skip_line();
                                return Err(self.error(
                                    "illegal Unicode sequence (multiple high surrogates)",
                                    esc_start,
                                    self.pos,
                                ));
                            }
                            high_surrogate = Some(v);
                        } else if (0xDC00..=0xDFFF).contains(&v) {
                            let Some(high) = high_surrogate.take() else {
                                self.skip_line();
                                return Err(self.error(
                                    "illegal Unicode sequence (unpaired low surrogate)",
                                    esc_start,
                                    self.pos,
                                ));
                            };
                            let cp = 0x10000 + ((high & 0x3FF) << 10) + (v & 0x3FF);
                            push_utf8(out, cp);
                        } else {
                            push_utf8(out, v);
                        }
                    }
                    _ => {
                        self.skip_line();
                        return Err(self.error(
                            "unknown escape code in string constant",
                            esc_start,
                            esc_start + 2,
                        ));
                    }
                }
            } else {
                if high_surrogate.is_some() {
                    let at = self.pos;
                    self.skip_line();
                    return Err(self.error(
                        "illegal Unicode sequence (unpaired high surrogate)",
                        at,
                        at + 1,
                    ));
                }
                trivial &= (b' '..=b'~').contains(&b);
                if let Some(out) = &mut decoded {
                    out.push(b);
                }
                self.pos += 1;
            }
        }
        if high_surrogate.is_some() {
            let at = self.pos;
            self.pos += 1;
            return Err(self.error(
                "illegal Unicode sequence (unpaired high surrogate)",
                at,
                at + 1,
            ));
        }
        self.pos += 1; // closing quote
        let mut token = self.token(Tok::Str, start, self.pos, doc_start);
        let value: &[u8] = match &decoded {
            Some(v) => v,
            None => &self.src[start + 1..self.pos - 1],
        };
        if !trivial && std::str::from_utf8(value).is_err() {
            return Err(self.error("illegal UTF-8 sequence", start, self.pos));
        }
        if let Some(v) = decoded {
            // Validity was checked just above.
            self.strings
                .push(String::from_utf8(v).unwrap_or_else(|e| lossy(e.as_bytes())));
            token.decoded = self.strings.len() as u32 - 1;
        }
        Ok(token)
    }

    fn hex_digits(&mut self, n: usize, esc_start: usize) -> Result<u32, LexError> {
        let mut v = 0u32;
        for i in 0..n {
            let b = self.peek_at(self.pos + i);
            if !is_xdigit(b) {
                self.skip_line();
                return Err(self.error(
                    format!("escape code must be followed by {n} hex digits"),
                    esc_start,
                    esc_start + 2,
                ));
            }
            v = v * 16 + (b as char).to_digit(16).unwrap_or(0);
        }
        self.pos += n;
        Ok(v)
    }

    fn skip_line(&mut self) {
        while self.pos < self.src.len() && self.src[self.pos] != b'\n' {
            self.pos += 1;
        }
    }

    fn word_or_number(&mut self, c: u8, start: usize, doc_start: u32) -> Result<Token, LexError> {
        if is_ident_start(c) {
            while is_ident_cont(self.peek_at(self.pos)) {
                self.pos += 1;
            }
            return Ok(self.token(Tok::Ident, start, self.pos, doc_start));
        }
        let has_sign = c == b'+' || c == b'-';
        if has_sign {
            if self.src[self.pos..].starts_with(b"inf")
                && !is_ident_cont(self.peek_at(self.pos + 3))
            {
                self.pos += 3;
                return Ok(self.token(Tok::Float, start, self.pos, doc_start));
            }
            if is_ident_start(self.peek_at(self.pos)) {
                let kind = if c == b'+' { Tok::Plus } else { Tok::Minus };
                return Ok(self.token(kind, start, self.pos, doc_start));
            }
        }
        // flatc's number scanner: `dot_lvl` is 1 before any dot, 0 after exactly one.
        let mut dot_lvl: i32 = if c == b'.' { 0 } else { 1 };
        if dot_lvl == 0 && !is_digit(self.peek_at(self.pos)) {
            return Ok(self.token(Tok::Dot, start, self.pos, doc_start));
        }
        if is_digit(c) || has_sign || dot_lvl == 0 {
            let mut c = c;
            let mut start_digits = if is_digit(c) { self.pos - 1 } else { self.pos };
            if !is_digit(c) && is_digit(self.peek_at(self.pos)) {
                start_digits = self.pos;
                c = self.peek_at(self.pos);
                self.pos += 1;
            }
            let use_hex =
                dot_lvl != 0 && c == b'0' && matches!(self.peek_at(self.pos), b'x' | b'X');
            if use_hex {
                self.pos += 1;
                start_digits = self.pos;
            }
            loop {
                if use_hex {
                    while is_xdigit(self.peek_at(self.pos)) {
                        self.pos += 1;
                    }
                } else {
                    while is_digit(self.peek_at(self.pos)) {
                        self.pos += 1;
                    }
                }
                if self.peek_at(self.pos) == b'.' {
                    self.pos += 1;
                    dot_lvl -= 1;
                    if dot_lvl >= 0 {
                        continue;
                    }
                }
                break;
            }
            if dot_lvl >= 0 && self.pos > start_digits {
                if use_hex && dot_lvl == 0 {
                    start_digits = self.pos;
                }
                let e = self.peek_at(self.pos);
                if (use_hex && (e == b'p' || e == b'P')) || e == b'e' || e == b'E' {
                    dot_lvl = 0;
                    self.pos += 1;
                    if matches!(self.peek_at(self.pos), b'+' | b'-') {
                        self.pos += 1;
                    }
                    start_digits = self.pos;
                    while is_digit(self.peek_at(self.pos)) {
                        self.pos += 1;
                    }
                    if self.peek_at(self.pos) == b'.' {
                        self.pos += 1;
                        dot_lvl = -1;
                    }
                }
            }
            if dot_lvl >= 0 && self.pos > start_digits {
                let kind = if dot_lvl != 0 { Tok::Int } else { Tok::Float };
                return Ok(self.token(kind, start, self.pos, doc_start));
            }
            let text = String::from_utf8_lossy(&self.src[start..self.pos]).into_owned();
            return Err(self.error(format!("invalid number `{text}`"), start, self.pos));
        }
        let shown = if (b' '..=b'~').contains(&c) {
            format!("`{}`", c as char)
        } else {
            // Skip the rest of a multi-byte UTF-8 character so it is reported once.
            while self.pos < self.src.len() && (self.src[self.pos] & 0xC0) == 0x80 {
                self.pos += 1;
            }
            match std::str::from_utf8(&self.src[start..self.pos]) {
                Ok(s) if !s.chars().all(char::is_control) => format!("`{s}`"),
                _ => format!("byte 0x{c:02x}"),
            }
        };
        Err(self.error(format!("illegal character {shown}"), start, self.pos))
    }
}

/// Where the identifier characters from `pos` on end: eight bytes at a time (one bounds check
/// for the eight) while there are eight, then byte by byte.
#[inline(always)]
fn ident_end(src: &[u8], mut pos: usize) -> usize {
    while let Some(chunk) = src.get(pos..pos + 8) {
        if let Some(i) = chunk.iter().position(|&b| !is_ident_cont(b)) {
            return pos + i;
        }
        pos += 8;
    }
    while src.get(pos).is_some_and(|&b| is_ident_cont(b)) {
        pos += 1;
    }
    pos
}

/// The position of the first `byte` in `src`, eight bytes at a time.
#[inline]
pub(crate) fn first_byte(src: &[u8], byte: u8) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let splat = ONES * u64::from(byte);
    // Nonzero exactly when some byte of the word is `byte` (a zero byte of `x`).
    let has_byte = |chunk: &[u8]| {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word) ^ splat;
        x.wrapping_sub(ONES) & !x & HIGHS != 0
    };
    let mut chunks = src.chunks_exact(8);
    let mut offset = 0;
    for chunk in &mut chunks {
        if has_byte(chunk) {
            break;
        }
        offset += 8;
    }
    // The last bytes, as the last eight bytes of the input when there are that many.
    if offset == src.len() - chunks.remainder().len()
        && src.len() >= 8
        && !has_byte(&src[src.len() - 8..])
    {
        return None;
    }
    src[offset..]
        .iter()
        .position(|&b| b == byte)
        .map(|p| offset + p)
}

fn push_utf8(out: &mut Vec<u8>, cp: u32) {
    // flatc's ToUTF8 encodes any value below 0x110000, surrogates included (which then fail the
    // UTF-8 check, as in flatc).
    let mut buf = [0u8; 4];
    let n = if cp < 0x80 {
        buf[0] = cp as u8;
        1
    } else if cp < 0x800 {
        buf[0] = 0xC0 | (cp >> 6) as u8;
        buf[1] = 0x80 | (cp & 0x3F) as u8;
        2
    } else if cp < 0x10000 {
        buf[0] = 0xE0 | (cp >> 12) as u8;
        buf[1] = 0x80 | ((cp >> 6) & 0x3F) as u8;
        buf[2] = 0x80 | (cp & 0x3F) as u8;
        3
    } else {
        buf[0] = 0xF0 | (cp >> 18) as u8;
        buf[1] = 0x80 | ((cp >> 12) & 0x3F) as u8;
        buf[2] = 0x80 | ((cp >> 6) & 0x3F) as u8;
        buf[3] = 0x80 | (cp & 0x3F) as u8;
        4
    };
    out.extend_from_slice(&buf[..n]);
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<(Tok, String)> {
        let mut lexer = Lexer::new(src.as_bytes(), FileId(0));
        let mut out = Vec::new();
        loop {
            let t = lexer.next_token().expect("lexes");
            if t.kind == Tok::Eof {
                return out;
            }
            out.push((t.kind, src[t.start as usize..t.end as usize].to_string()));
        }
    }

    fn first_error(src: &str) -> String {
        let mut lexer = Lexer::new(src.as_bytes(), FileId(0));
        loop {
            match lexer.next_token() {
                Ok(t) if t.kind == Tok::Eof => return String::new(),
                Ok(_) => {}
                Err(e) => return e.message,
            }
        }
    }

    #[test]
    fn identifiers_and_punctuation() {
        let toks = kinds("table T { a:int; }");
        let texts: Vec<&str> = toks.iter().map(|(_, s)| s.as_str()).collect();
        assert_eq!(texts, ["table", "T", "{", "a", ":", "int", ";", "}"]);
        assert_eq!(toks[0].0, Tok::Ident);
        assert_eq!(toks[2].0, Tok::LBrace);
    }

    #[test]
    fn punctuation_kinds_are_their_bytes() {
        let always: Vec<u8> = (0..=255u8).filter(|&c| Tok::punct(c).is_some()).collect();
        assert_eq!(always, b"(),:;<=>[]{}");
        for c in always {
            assert_eq!(Tok::punct(c).and_then(Tok::punct_char), Some(c as char));
        }
        for (kind, c) in [(Tok::Dot, '.'), (Tok::Plus, '+'), (Tok::Minus, '-')] {
            assert_eq!(kind.punct_char(), Some(c));
        }
        for kind in [Tok::Eof, Tok::Ident, Tok::Str, Tok::Int, Tok::Float] {
            assert_eq!(kind.punct_char(), None);
        }
    }

    #[test]
    fn numbers_follow_flatc() {
        let cases = [
            ("123", Tok::Int),
            ("-5", Tok::Int),
            ("+5", Tok::Int),
            ("0x1F", Tok::Int),
            ("1.5", Tok::Float),
            (".5", Tok::Float),
            ("5.", Tok::Float),
            ("1e10", Tok::Float),
            ("1.5E-3", Tok::Float),
            ("0x1.8p3", Tok::Float),
            ("0x1p-2", Tok::Float),
            ("-inf", Tok::Float),
            ("+inf", Tok::Float),
        ];
        for (src, kind) in cases {
            assert_eq!(kinds(src), [(kind, src.to_string())], "{src}");
        }
        assert!(first_error("0x1.8").contains("invalid number"));
        assert!(first_error("1.2.3").contains("invalid number"));
        assert!(first_error("1e5.0").contains("invalid number"));
    }

    #[test]
    fn signed_identifiers_are_split() {
        let toks = kinds("-nan +infinity -inf");
        assert_eq!(toks[0], (Tok::Minus, "-".into()));
        assert_eq!(toks[1], (Tok::Ident, "nan".into()));
        assert_eq!(toks[2], (Tok::Plus, "+".into()));
        assert_eq!(toks[4], (Tok::Float, "-inf".into()));
    }

    #[test]
    fn dots_are_tokens_in_names() {
        let texts: Vec<String> = kinds("A.B.C").into_iter().map(|t| t.1).collect();
        assert_eq!(texts, ["A", ".", "B", ".", "C"]);
    }

    #[test]
    fn strings_and_escapes() {
        let mut lexer = Lexer::new(br#""plain" "a\n\u00e9\ud83d\ude00""#, FileId(0));
        let t = lexer.next_token().unwrap();
        assert_eq!((t.kind, t.decoded), (Tok::Str, u32::MAX));
        let t = lexer.next_token().unwrap();
        assert_eq!(lexer.strings[t.decoded as usize], "a\n\u{e9}\u{1f600}");
        assert!(first_error(r#""\q""#).contains("unknown escape"));
        assert!(first_error("\"abc").contains("unterminated string"));
        assert!(first_error("\"a\tb\"").contains("illegal character in string"));
        assert!(first_error(r#""\xff""#).contains("illegal UTF-8"));
        assert!(first_error(r#""\ud83d""#).contains("unpaired high surrogate"));
        assert!(first_error(r#""\ude00""#).contains("unpaired low surrogate"));
    }

    #[test]
    fn doc_comments_attach_to_the_next_token() {
        let src = "/// one\n/// two\ntable T {}";
        let mut lexer = Lexer::new(src.as_bytes(), FileId(0));
        let t = lexer.next_token().unwrap();
        assert_eq!(t.docs, (0, 2));
        let (s, e) = lexer.docs[0];
        assert_eq!(&src[s as usize..e as usize], " one");
        assert!(first_error("table T { /// doc\n}").contains("line on its own"));
    }

    #[test]
    fn comments_nul_and_bom() {
        assert_eq!(kinds("/* x */ a // y\n b").len(), 2);
        assert!(first_error("/* open").contains("end of file in comment"));
        assert_eq!(kinds("a /* \0 */ b // \0\n c").len(), 3);
        let mut lexer = Lexer::new(b"a\0b \"\0\"", FileId(0));
        assert!(lexer.next_token().is_ok());
        let nul = lexer.next_token().unwrap_err();
        assert_eq!((nul.message.as_str(), nul.start, nul.end), ("", 1, 2));
        assert!(lexer.next_token().is_ok());
        let string = lexer.next_token().unwrap();
        assert_eq!((string.kind, string.start, string.end), (Tok::Str, 4, 7));
        // flatc quirk: after a byte order mark, a doc comment on the first line is rejected.
        let mut lexer = Lexer::new(b"\xef\xbb\xbf/// doc\ntable", FileId(0));
        lexer.skip_bom().unwrap();
        assert!(lexer.next_token().is_err());
        let mut lexer = Lexer::new(b"\xef\xbbx", FileId(0));
        assert!(lexer.skip_bom().is_err());
    }

    /// The text of every schema of the shared test data.
    pub(crate) fn shared_schemas() -> Vec<Vec<u8>> {
        let out: Vec<Vec<u8>> =
            flatforge_testkit::shared_schema_files(&flatforge_testkit::testdata_dir())
                .iter()
                .map(|path| std::fs::read(path).expect("read a shared schema"))
                .collect();
        assert!(out.len() >= 80, "{} schemas", out.len());
        out
    }

    /// The tokens, errors, doc comments and decoded strings of `src`, lexed with
    /// `next_token_fast` or with `next_token` alone.
    fn lex_all(src: &[u8], fast: bool) -> (Vec<String>, Vec<(u32, u32)>, Vec<String>) {
        let mut lexer = Lexer::new(src, FileId(0));
        let mut out = Vec::new();
        loop {
            let t = if fast {
                lexer.next_token_fast()
            } else {
                lexer.next_token()
            };
            match t {
                Ok(t) => {
                    out.push(format!("{t:?}"));
                    if t.kind == Tok::Eof {
                        break;
                    }
                }
                Err(e) => out.push(format!("{e:?}")),
            }
        }
        (out, lexer.docs, lexer.strings)
    }

    #[test]
    fn the_fast_path_lexes_as_next_token_does() {
        let inputs = [
            "table T { a:int = 5; b: [string] (id: 1); }\n",
            "  \n\t/// doc\n table\r\n  A.B.c = -inf; \"s\\n\" 'q' 0x1F 1e5 @ é",
            "/// first line\nstruct S { x: float; } // end",
            "a /// not alone\n/* c */ b",
            "\n  /// doc after blank\nenum E : byte { A }",
            "007 0 10. 1.5 2e3 3E-2 0x10 0X1p4 12abc 9;",
            r#"'a"b' "it's" "" "tab\there" "é" "esc\"aped" "open"#,
            "\"unterminated\n\"x\" 1\0 2",
            "abcdefg abcdefgh abcdefghi:abcdefghijklmnop_17;_0123456789abcdefghij{a}ab",
            "\t\r\n  \n x\r\n\r\n/// d\n\t  y  \n\n\t\t/** z */ w the_end_of_the_file",
        ];
        for src in inputs {
            assert_eq!(
                lex_all(src.as_bytes(), true),
                lex_all(src.as_bytes(), false),
                "{src}"
            );
        }
    }

    /// The fast path against `next_token` on every shared schema, and on random text made of
    /// the pieces that decide between the two (white space, comments, quotes, escapes, signs,
    /// number parts, NUL and non-ASCII bytes) cut at every length.
    #[test]
    fn the_fast_path_agrees_on_schemas_and_random_text() {
        let mut inputs = shared_schemas();
        const PIECES: [&[u8]; 24] = [
            b" ",
            b"\n",
            b"\t",
            b"\r",
            b"//",
            b"///",
            b"/*",
            b"*/",
            b"\"",
            b"'",
            b"\\",
            b"\\u",
            b"abc",
            b"_x9",
            b"12",
            b"0x",
            b".",
            b"e",
            b"-",
            b"+",
            b"inf",
            b"{;",
            b"\0",
            b"\xc3\xa9",
        ];
        let mut rng = flatforge_testkit::SplitMix64::new(0x2545_f491_4f6c_dd1d);
        for _ in 0..2000 {
            let mut src = Vec::new();
            for _ in 0..12 {
                src.extend_from_slice(PIECES[rng.below(PIECES.len())]);
            }
            inputs.push(src);
        }
        for src in &inputs {
            for len in [src.len(), src.len() / 2, src.len() / 3] {
                let src = &src[..len];
                assert_eq!(
                    lex_all(src, true),
                    lex_all(src, false),
                    "{}",
                    String::from_utf8_lossy(src)
                );
            }
        }
    }

    /// `punct_after` finds a punctuation token where `quick_at` finds it, and nowhere else.
    #[test]
    fn punct_after_agrees_with_quick_at() {
        let src = b"a : b;\t=\n\r 1 ( ) , [ ] < > { } . + - = ;;// x\n\0:";
        let lexer = Lexer::new(src, FileId(0));
        for pos in 0..=src.len() as u32 + 1 {
            for c in 0..=255u8 {
                let Some(punct) = Tok::punct(c) else {
                    continue;
                };
                let quick = lexer.quick_at(pos).filter(|t| t.kind == punct);
                assert_eq!(
                    lexer.punct_after(pos, punct),
                    quick.map(|t| t.end),
                    "{pos} {c}"
                );
            }
        }
    }

    #[test]
    fn the_first_nul_is_found_anywhere() {
        for len in 0..40 {
            let mut src = vec![b'a'; len];
            assert_eq!(first_byte(&src, 0), None);
            for at in 0..len {
                src[at] = 0;
                assert_eq!(first_byte(&src, 0), Some(at), "{len} {at}");
                src[at] = 0x80;
                assert_eq!(first_byte(&src, 0), None);
                src[at] = b'a';
            }
        }
    }

    #[test]
    fn illegal_characters() {
        assert!(first_error("table @").contains("illegal character `@`"));
        assert!(first_error("é").contains("illegal character"));
        assert!(first_error("\x01").contains("byte 0x01"));
    }
}
