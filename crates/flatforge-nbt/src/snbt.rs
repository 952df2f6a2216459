//! SNBT, the text form of NBT, in both grammars Minecraft has used.
//!
//! - [`Dialect::Classic`] (up to 1.21.4): typed suffixes (`1b`, `2s`, `3L`, `1.5f`, `2.0d`), `true`/`false`
//!   in any case (`TRUE`, as Minecraft reads them), quoted strings whose only escapes are `\\` and the
//!   quote that opened them, homogeneous lists, `[B;…]`, `[I;…]`, `[L;…]` arrays, a comma after the last
//!   element or entry; a literal that does not parse as a number (or overflows) is a string.
//! - [`Dialect::Modern`] (1.21.5+): additionally hexadecimal (`0x1F`) and binary (`0b101`) integers,
//!   `_` between digits, signedness suffixes (`255ub`, `-1sb`), exponents, the escapes `\b \s \t \n \f \r
//!   \xHH \uHHHH \UHHHHHHHH` and, with the default feature `unicode-names`, `\N{name}` (Unicode
//!   character names, looked up as Minecraft does; without the feature they are errors), `bool(…)` and
//!   `uuid(…)`, and heterogeneous lists, stored as lists of compounds with each non-compound element
//!   wrapped as `{"": value}`. Malformed numbers are errors rather than strings.
//!
//! The writer prints floats in their shortest round-trip form, so text → tag → text is stable. NaN and
//! the infinities print as `NaNf`, `Infinityd`, `-Infinityd` and read back as floats in both grammars
//! (Minecraft writes the same words but reads them as strings). A compound key must not be empty in
//! Minecraft's classic SNBT, even quoted; `""` is taken here, so that every compound prints to text that
//! reads back.
//!
//! ```
//! use flatforge_nbt::snbt::{from_snbt, to_snbt, Dialect, SnbtOptions};
//! let tag = from_snbt("{name: Steve, pos: [0.5d, 64.0d, -3.25d], flags: 0b101}", Dialect::Modern)?;
//! assert_eq!(to_snbt(&tag, SnbtOptions::default()), "{name:\"Steve\",pos:[0.5d,64.0d,-3.25d],flags:5}");
//! # Ok::<(), flatforge_nbt::Error>(())
//! ```

use std::fmt::Write as _;

use crate::error::{Error, ErrorKind, Result};
use crate::read::MAX_DEPTH;
use crate::tag::{Compound, List, Tag, TagType};

/// Which SNBT grammar to read or write.
///
/// ```
/// use flatforge_nbt::snbt::{from_snbt, Dialect};
/// use flatforge_nbt::Tag;
/// // Classic reads a literal that is not a number as a string; Modern knows hexadecimal.
/// assert_eq!(from_snbt("0x1F", Dialect::Classic)?, Tag::from("0x1F"));
/// assert_eq!(from_snbt("0x1F", Dialect::Modern)?, Tag::Int(31));
/// assert_eq!(Dialect::default(), Dialect::Modern);
/// # Ok::<(), flatforge_nbt::Error>(())
/// ```
///
/// Minecraft changes its grammar now and then, so more dialects may come.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Dialect {
    /// The grammar of Minecraft up to 1.21.4.
    Classic,
    /// The grammar of Minecraft 1.21.5 and later.
    #[default]
    Modern,
}

/// How to print SNBT.
///
/// ```
/// use flatforge_nbt::snbt::{to_snbt, SnbtOptions};
/// use flatforge_nbt::{Compound, Tag};
/// let mut c = Compound::new();
/// c.insert("a", 1i8);
/// c.insert("b b", "x");
/// assert_eq!(to_snbt(&Tag::Compound(c), SnbtOptions::default()), r#"{a:1b,"b b":"x"}"#);
/// ```
///
/// More options may come: build one from [`SnbtOptions::default`] with the `with_` setters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct SnbtOptions {
    /// The grammar to write (affects string escapes and key quoting). Default [`Dialect::Modern`].
    pub dialect: Dialect,
    /// Indent nested compounds and lists by four spaces, one entry per line. Default false.
    pub pretty: bool,
}

impl SnbtOptions {
    /// These options with `dialect`.
    ///
    /// ```
    /// use flatforge_nbt::snbt::{to_snbt, Dialect, SnbtOptions};
    /// use flatforge_nbt::Tag;
    /// let options = SnbtOptions::default().with_dialect(Dialect::Classic);
    /// assert_eq!(options.dialect, Dialect::Classic);
    /// assert_eq!(to_snbt(&Tag::from("a\u{7}"), options), "\"a\u{7}\"");
    /// ```
    #[must_use]
    pub const fn with_dialect(mut self, dialect: Dialect) -> Self {
        self.dialect = dialect;
        self
    }

    /// These options with `pretty`.
    ///
    /// ```
    /// use flatforge_nbt::snbt::{to_snbt, SnbtOptions};
    /// use flatforge_nbt::{Compound, Tag};
    /// let mut c = Compound::new();
    /// c.insert("a", 1i8);
    /// c.insert("b", 2i8);
    /// let options = SnbtOptions::default().with_pretty(true);
    /// assert_eq!(to_snbt(&Tag::Compound(c), options), "{\n    a: 1b,\n    b: 2b\n}");
    /// ```
    #[must_use]
    pub const fn with_pretty(mut self, pretty: bool) -> Self {
        self.pretty = pretty;
        self
    }
}

/// Prints a tag as SNBT.
///
/// ```
/// use flatforge_nbt::snbt::{to_snbt, SnbtOptions};
/// use flatforge_nbt::{List, Tag};
/// let t = Tag::List(List::Float(vec![0.5, 1.0]));
/// assert_eq!(to_snbt(&t, SnbtOptions::default()), "[0.5f,1.0f]");
/// ```
pub fn to_snbt(tag: &Tag, options: SnbtOptions) -> String {
    let mut out = String::new();
    Printer {
        out: &mut out,
        options,
    }
    .tag(tag, 0);
    out
}

struct Printer<'o> {
    out: &'o mut String,
    options: SnbtOptions,
}

/// The character Java's `Character.codePointOf(name)` returns, which Minecraft 1.21.5+ uses for
/// `\N{name}`: the name as the Unicode Character Database gives it, letters in any case, spaces around it
/// ignored. Like Java it takes neither the loose matching of UAX #44 (`latinsmalllettera`), nor name
/// aliases, nor the computed names of CJK unified ideographs and Hangul syllables (which Java spells as
/// block name and code point instead: not supported here, nor are the Unicode 1.0 names Java gives
/// control characters; write those with `\u`). The name table is `unicode_names2`'s (Unicode 17), so
/// characters newer than Minecraft's Java also resolve.
#[cfg(feature = "unicode-names")]
fn char_named(name: &str) -> Option<char> {
    let name = name.trim_matches(' ').to_ascii_uppercase();
    // No Unicode name starts with a hyphen, and unicode_names2 4.0 computes `i - 1` for a hyphen at
    // index 0 (an overflow panic where overflow checks are on), so such names stop here.
    if name.starts_with('-')
        || name.starts_with("CJK UNIFIED IDEOGRAPH-")
        || name.starts_with("HANGUL SYLLABLE ")
    {
        return None;
    }
    let c = unicode_names2::character(&name)?;
    (unicode_names2::name(c)?.to_string() == name).then_some(c)
}

/// Without the `unicode-names` feature no name is known.
#[cfg(not(feature = "unicode-names"))]
fn char_named(_name: &str) -> Option<char> {
    None
}

/// Added to the error for an unknown character name.
#[cfg(feature = "unicode-names")]
const NAMES_HINT: &str = "";
#[cfg(not(feature = "unicode-names"))]
const NAMES_HINT: &str = " (names need flatforge-nbt's `unicode-names` feature)";

fn is_bare_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '+')
}

impl Printer<'_> {
    fn newline(&mut self, level: usize) {
        if self.options.pretty {
            self.out.push('\n');
            for _ in 0..level {
                self.out.push_str("    ");
            }
        }
    }

    fn key(&mut self, k: &str) {
        let bare = !k.is_empty()
            && k.chars().all(is_bare_char)
            && (self.options.dialect == Dialect::Classic
                || !k.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '-' | '+' | '.')));
        if bare {
            self.out.push_str(k);
        } else {
            self.string(k);
        }
    }

    fn string(&mut self, s: &str) {
        let quote = if s.contains('"') && !s.contains('\'') {
            '\''
        } else {
            '"'
        };
        self.out.push(quote);
        for c in s.chars() {
            match c {
                '\\' => self.out.push_str("\\\\"),
                c if c == quote => {
                    self.out.push('\\');
                    self.out.push(c);
                }
                c if self.options.dialect == Dialect::Modern && (c as u32) < 0x20 => match c {
                    '\n' => self.out.push_str("\\n"),
                    '\t' => self.out.push_str("\\t"),
                    '\r' => self.out.push_str("\\r"),
                    '\u{8}' => self.out.push_str("\\b"),
                    '\u{c}' => self.out.push_str("\\f"),
                    c => {
                        let _ = write!(self.out, "\\x{:02x}", c as u32);
                    }
                },
                c => self.out.push(c),
            }
        }
        self.out.push(quote);
    }

    fn float(&mut self, v: f64, is_f32: bool, suffix: char) {
        if v.is_nan() {
            self.out.push_str("NaN");
        } else if v.is_infinite() {
            self.out
                .push_str(if v > 0.0 { "Infinity" } else { "-Infinity" });
        } else {
            let start = self.out.len();
            if is_f32 {
                let _ = write!(self.out, "{}", v as f32);
            } else {
                let _ = write!(self.out, "{v}");
            }
            if !self.out[start..].contains(['.', 'e', 'E']) {
                self.out.push_str(".0");
            }
        }
        self.out.push(suffix);
    }

    fn seq<T>(
        &mut self,
        open: &str,
        items: &[T],
        level: usize,
        inline: bool,
        mut f: impl FnMut(&mut Self, &T),
    ) {
        self.out.push_str(open);
        let multiline = self.options.pretty && !inline && !items.is_empty();
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
                if self.options.pretty && inline {
                    self.out.push(' ');
                }
            }
            if multiline {
                self.newline(level + 1);
            }
            f(self, item);
        }
        if multiline {
            self.newline(level);
        }
        self.out.push(']');
    }

    fn tag(&mut self, tag: &Tag, level: usize) {
        match tag {
            Tag::Byte(v) => {
                let _ = write!(self.out, "{v}b");
            }
            Tag::Short(v) => {
                let _ = write!(self.out, "{v}s");
            }
            Tag::Int(v) => {
                let _ = write!(self.out, "{v}");
            }
            Tag::Long(v) => {
                let _ = write!(self.out, "{v}L");
            }
            Tag::Float(v) => self.float(f64::from(*v), true, 'f'),
            Tag::Double(v) => self.float(*v, false, 'd'),
            Tag::String(s) => self.string(s),
            Tag::ByteArray(v) => self.seq("[B;", v, level, true, |p, x| {
                let _ = write!(p.out, "{x}b");
            }),
            Tag::IntArray(v) => self.seq("[I;", v, level, true, |p, x| {
                let _ = write!(p.out, "{x}");
            }),
            Tag::LongArray(v) => self.seq("[L;", v, level, true, |p, x| {
                let _ = write!(p.out, "{x}L");
            }),
            Tag::List(l) => self.list(l, level),
            Tag::Compound(c) => self.compound(c, level),
        }
    }

    fn compound(&mut self, c: &Compound, level: usize) {
        self.out.push('{');
        for (i, (k, v)) in c.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            self.newline(level + 1);
            self.key(k);
            self.out.push(':');
            if self.options.pretty {
                self.out.push(' ');
            }
            self.tag(v, level + 1);
        }
        if !c.is_empty() {
            self.newline(level);
        }
        self.out.push('}');
    }

    fn list(&mut self, l: &List, level: usize) {
        let inline = (l.element_type() as u8) < 7 || l.element_type() == TagType::String;
        match l {
            List::End => self.out.push_str("[]"),
            List::Byte(v) => self.seq("[", v, level, inline, |p, x| p.tag(&Tag::Byte(*x), 0)),
            List::Short(v) => self.seq("[", v, level, inline, |p, x| p.tag(&Tag::Short(*x), 0)),
            List::Int(v) => self.seq("[", v, level, inline, |p, x| p.tag(&Tag::Int(*x), 0)),
            List::Long(v) => self.seq("[", v, level, inline, |p, x| p.tag(&Tag::Long(*x), 0)),
            List::Float(v) => self.seq("[", v, level, inline, |p, x| p.tag(&Tag::Float(*x), 0)),
            List::Double(v) => self.seq("[", v, level, inline, |p, x| p.tag(&Tag::Double(*x), 0)),
            List::String(v) => self.seq("[", v, level, inline, |p, x| p.string(x)),
            List::ByteArray(v) => self.seq("[", v, level, inline, |p, x| {
                p.seq("[B;", x, level + 1, true, |p, b| {
                    let _ = write!(p.out, "{b}b");
                })
            }),
            List::IntArray(v) => self.seq("[", v, level, inline, |p, x| {
                p.seq("[I;", x, level + 1, true, |p, b| {
                    let _ = write!(p.out, "{b}");
                })
            }),
            List::LongArray(v) => self.seq("[", v, level, inline, |p, x| {
                p.seq("[L;", x, level + 1, true, |p, b| {
                    let _ = write!(p.out, "{b}L");
                })
            }),
            List::List(v) => self.seq("[", v, level, inline, |p, x| p.list(x, level + 1)),
            List::Compound(v) => self.seq("[", v, level, inline, |p, x| p.compound(x, level + 1)),
        }
    }
}

/// Parses SNBT text into a tag. Whitespace around the value is allowed, and one byte order mark
/// (U+FEFF) before it; anything else after it is an error.
///
/// # Errors
/// A syntax or range error, with the byte offset in the text (a byte order mark counts) and the
/// path of the value.
///
/// ```
/// use flatforge_nbt::snbt::{from_snbt, Dialect};
/// use flatforge_nbt::{List, Tag};
/// let t = from_snbt("{a: 1b, b: [I; 1, 2], c: 'it''s'}", Dialect::Classic);
/// assert!(t.is_err());
/// let t = from_snbt("{a: 1b, b: [I; 1, 2], c: \"x\"}", Dialect::Classic).unwrap();
/// assert_eq!(t.as_compound().unwrap()["b"], Tag::IntArray(vec![1, 2]));
/// let t = from_snbt("[1, 'a', {}]", Dialect::Modern).unwrap();
/// assert_eq!(t.as_list().unwrap().len(), 3);
/// assert_eq!(from_snbt("0xFFub", Dialect::Modern).unwrap(), Tag::Byte(-1));
/// // A byte order mark is skipped; offsets count its 3 bytes.
/// assert_eq!(from_snbt("\u{feff}[1b]", Dialect::Modern).unwrap(), Tag::List(List::Byte(vec![1])));
/// let err = from_snbt("\u{feff}[1b, ?]", Dialect::Modern).unwrap_err();
/// assert_eq!(err.offset(), Some(8));
/// ```
pub fn from_snbt(text: &str, dialect: Dialect) -> Result<Tag> {
    let mut p = Parser {
        s: text.as_bytes(),
        text,
        pos: if text.starts_with('\u{feff}') { 3 } else { 0 },
        dialect,
    };
    let tag = p.value(0)?;
    p.ws();
    if p.pos != p.s.len() {
        return Err(p.err("unexpected text after the value"));
    }
    Ok(tag)
}

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    pos: usize,
    dialect: Dialect,
}

impl<'a> Parser<'a> {
    #[cold]
    fn err(&self, msg: impl Into<String>) -> Error {
        Error::at(ErrorKind::Snbt(msg.into()), self.pos)
    }

    fn ws(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    fn expect(&mut self, b: u8) -> Result<()> {
        self.ws();
        if self.peek() == Some(b) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.err(format!("expected '{}'", b as char)))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Tag> {
        self.ws();
        match self.peek() {
            None => Err(self.err("expected a value")),
            Some(b'{') => {
                if depth >= MAX_DEPTH {
                    return Err(Error::at(ErrorKind::TooDeep(MAX_DEPTH), self.pos));
                }
                self.compound(depth + 1).map(Tag::Compound)
            }
            Some(b'[') => {
                if depth >= MAX_DEPTH {
                    return Err(Error::at(ErrorKind::TooDeep(MAX_DEPTH), self.pos));
                }
                self.list_or_array(depth + 1)
            }
            Some(b'"' | b'\'') => self.quoted().map(Tag::String),
            Some(_) => self.literal(depth),
        }
    }

    fn compound(&mut self, depth: usize) -> Result<Compound> {
        self.pos += 1;
        let mut c = Compound::new();
        self.ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(c);
        }
        loop {
            self.ws();
            // A trailing comma: Minecraft's classic TagParser loops on `peek() != '}'` after a comma too.
            if self.peek() == Some(b'}') && !c.is_empty() {
                self.pos += 1;
                return Ok(c);
            }
            let key = match self.peek() {
                Some(b'"' | b'\'') => self.quoted()?,
                _ => {
                    let bare = self.bare();
                    if bare.is_empty() {
                        return Err(self.err("expected a key"));
                    }
                    bare.to_owned()
                }
            };
            self.expect(b':')?;
            let v = self.value(depth).map_err(|e| e.in_field(&key))?;
            c.push(key, v);
            self.ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(c);
                }
                _ => return Err(self.err("expected ',' or '}'")),
            }
        }
    }

    fn bare(&mut self) -> &'a str {
        let start = self.pos;
        while self.pos < self.s.len() && is_bare_char(self.s[self.pos] as char) {
            self.pos += 1;
        }
        &self.text[start..self.pos]
    }

    fn quoted(&mut self) -> Result<String> {
        let quote = self.s[self.pos];
        self.pos += 1;
        let mut out = String::new();
        loop {
            let start = self.pos;
            while self.pos < self.s.len() && self.s[self.pos] != quote && self.s[self.pos] != b'\\'
            {
                self.pos += 1;
            }
            out.push_str(&self.text[start..self.pos]);
            match self.peek() {
                None => return Err(self.err("unterminated string")),
                Some(b) if b == quote => {
                    self.pos += 1;
                    return Ok(out);
                }
                _ => {
                    self.pos += 1;
                    let esc = self.peek().ok_or_else(|| self.err("unterminated string"))?;
                    self.pos += 1;
                    match esc {
                        // Classic Minecraft (Brigadier's `readStringUntil`) escapes only the backslash
                        // and the quote that opened the string; 1.21.5+ both quotes in either.
                        b'\\' => out.push('\\'),
                        b'"' | b'\'' if esc == quote || self.dialect == Dialect::Modern => {
                            out.push(esc as char)
                        }
                        _ if self.dialect == Dialect::Classic => {
                            self.pos -= 2;
                            return Err(self.err(format!("invalid escape '\\{}'", esc as char)));
                        }
                        b'b' => out.push('\u{8}'),
                        b's' => out.push(' '),
                        b't' => out.push('\t'),
                        b'n' => out.push('\n'),
                        b'f' => out.push('\u{c}'),
                        b'r' => out.push('\r'),
                        b'x' => out.push(self.hex_char(2)?),
                        b'u' => out.push(self.hex_char(4)?),
                        b'U' => out.push(self.hex_char(8)?),
                        b'N' => out.push(self.named_char()?),
                        _ => {
                            self.pos -= 2;
                            return Err(self.err(format!("invalid escape '\\{}'", esc as char)));
                        }
                    }
                }
            }
        }
    }

    /// The character of a named escape, `\N{name}`, after its `N`: as in Minecraft, the name is a run
    /// of ASCII letters, digits, spaces and hyphens looked up as Java's `Character.codePointOf` does
    /// (see [`char_named`]).
    fn named_char(&mut self) -> Result<char> {
        if self.peek() != Some(b'{') {
            return Err(self.err("expected '{' after \\N"));
        }
        self.pos += 1;
        let start = self.pos;
        while self.pos < self.s.len()
            && (self.s[self.pos].is_ascii_alphanumeric() || matches!(self.s[self.pos], b' ' | b'-'))
        {
            self.pos += 1;
        }
        if self.pos == start {
            return Err(self.err("expected a character name"));
        }
        if self.peek() != Some(b'}') {
            return Err(self.err("expected '}' after the character name"));
        }
        let name = &self.text[start..self.pos];
        match char_named(name) {
            Some(c) => {
                self.pos += 1;
                Ok(c)
            }
            None => {
                self.pos = start;
                Err(self.err(format!("unknown character name '{name}'{NAMES_HINT}")))
            }
        }
    }

    fn hex_char(&mut self, n: usize) -> Result<char> {
        let digits = self
            .text
            .get(self.pos..self.pos + n)
            .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| self.err(format!("expected {n} hex digits")))?;
        let v = u32::from_str_radix(digits, 16).map_err(|_| self.err("invalid hex escape"))?;
        let c =
            char::from_u32(v).ok_or_else(|| self.err("escape is not a Unicode scalar value"))?;
        self.pos += n;
        Ok(c)
    }

    fn list_or_array(&mut self, depth: usize) -> Result<Tag> {
        let open = self.pos;
        self.pos += 1;
        // Classic Minecraft takes `[B;` for an array only when `B;` follows `[` at once (its
        // TagParser peeks at the next two characters): `[ B;1b]` is a list there, whose `;` is an
        // error.
        if self.dialect == Dialect::Modern {
            self.ws();
        }
        if let (Some(t @ (b'B' | b'I' | b'L')), Some(b';')) =
            (self.peek(), self.s.get(self.pos + 1).copied())
        {
            self.pos += 2;
            return self.array(t);
        }
        let mut tags = Vec::new();
        self.ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(Tag::List(List::End));
        }
        loop {
            self.ws();
            if self.peek() == Some(b']') && !tags.is_empty() {
                self.pos += 1;
                break;
            }
            let i = tags.len();
            tags.push(self.value(depth).map_err(|e| e.in_index(i))?);
            self.ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    break;
                }
                _ => return Err(self.err("expected ',' or ']'")),
            }
        }
        let first = tags[0].tag_type();
        if tags.iter().all(|t| t.tag_type() == first) {
            return Ok(Tag::List(List::from_tags(tags).expect("same types")));
        }
        if self.dialect == Dialect::Classic {
            self.pos = open;
            return Err(self.err("list elements have different types"));
        }
        let wrapped = tags
            .into_iter()
            .map(|t| match t {
                Tag::Compound(c) if !(c.len() == 1 && c.get("").is_some()) => c,
                other => [("", other)].into_iter().collect(),
            })
            .collect();
        Ok(Tag::List(List::Compound(wrapped)))
    }

    fn array(&mut self, t: u8) -> Result<Tag> {
        let mut values: Vec<i64> = Vec::new();
        let (want, min, max) = match t {
            b'B' => (TagType::Byte, i64::from(i8::MIN), i64::from(u8::MAX)),
            b'I' => (TagType::Int, i64::from(i32::MIN), i64::from(u32::MAX)),
            _ => (TagType::Long, i64::MIN, i64::MAX),
        };
        self.ws();
        if self.peek() != Some(b']') {
            loop {
                self.ws();
                if self.peek() == Some(b']') && !values.is_empty() {
                    break;
                }
                let at = self.pos;
                let v = self
                    .value(MAX_DEPTH)
                    .map_err(|e| e.in_index(values.len()))?;
                let ok = match (&v, self.dialect) {
                    (v, Dialect::Classic) => v.tag_type() == want,
                    (Tag::Byte(_) | Tag::Short(_) | Tag::Int(_) | Tag::Long(_), _) => true,
                    _ => false,
                };
                let n = v.as_i64().filter(|n| ok && *n >= min && *n <= max);
                let Some(n) = n else {
                    self.pos = at;
                    return Err(self.err(format!(
                        "{} cannot be an element of this array",
                        v.tag_type()
                    )));
                };
                values.push(n);
                self.ws();
                match self.peek() {
                    Some(b',') => self.pos += 1,
                    Some(b']') => break,
                    _ => return Err(self.err("expected ',' or ']'")),
                }
            }
        }
        self.pos += 1;
        Ok(match t {
            b'B' => Tag::ByteArray(values.into_iter().map(|v| v as i8).collect()),
            b'I' => Tag::IntArray(values.into_iter().map(|v| v as i32).collect()),
            _ => Tag::LongArray(values),
        })
    }

    fn literal(&mut self, depth: usize) -> Result<Tag> {
        let start = self.pos;
        let word = self.bare();
        if word.is_empty() {
            // (Escaped: a control character could drive the terminal that shows the error.)
            return Err(self.err(format!(
                "unexpected character '{}'",
                self.text[start..]
                    .chars()
                    .next()
                    .unwrap_or(' ')
                    .escape_debug()
            )));
        }
        // Classic Minecraft compares with `equalsIgnoreCase` (`TRUE` is a byte too), 1.21.5+ exactly.
        let is = |keyword: &str| match self.dialect {
            Dialect::Classic => word.eq_ignore_ascii_case(keyword),
            Dialect::Modern => word == keyword,
        };
        if is("true") {
            return Ok(Tag::Byte(1));
        }
        if is("false") {
            return Ok(Tag::Byte(0));
        }
        if let Some(t) = special_float(word) {
            return Ok(t);
        }
        match self.dialect {
            Dialect::Classic => {
                Ok(classic_number(word).unwrap_or_else(|| Tag::String(word.to_owned())))
            }
            Dialect::Modern => {
                self.ws();
                if self.peek() == Some(b'(') {
                    return self.operation(word, start, depth);
                }
                match modern_number(word) {
                    Ok(Some(t)) => Ok(t),
                    Ok(None)
                        if !word.starts_with(|c: char| {
                            c.is_ascii_digit() || matches!(c, '-' | '+' | '.')
                        }) =>
                    {
                        Ok(Tag::String(word.to_owned()))
                    }
                    Ok(None) => {
                        self.pos = start;
                        Err(self.err(format!("invalid number {word:?}")))
                    }
                    Err(msg) => {
                        self.pos = start;
                        Err(self.err(msg))
                    }
                }
            }
        }
    }

    fn operation(&mut self, name: &str, start: usize, depth: usize) -> Result<Tag> {
        self.pos += 1;
        let arg = self.value(depth)?;
        self.expect(b')')?;
        match (name, arg) {
            ("bool", Tag::Byte(b)) => Ok(Tag::Byte(i8::from(b != 0))),
            ("bool", t) if t.as_f64().is_some() => Ok(Tag::Byte(i8::from(t.as_f64() != Some(0.0)))),
            ("uuid", Tag::String(s)) => parse_uuid(&s)
                .map(Tag::IntArray)
                .ok_or_else(|| Error::at(ErrorKind::Snbt(format!("invalid UUID {s:?}")), start)),
            (name, _) => Err(Error::at(
                ErrorKind::Snbt(format!("unknown operation or argument type: {name}(...)")),
                start,
            )),
        }
    }
}

fn special_float(word: &str) -> Option<Tag> {
    let (body, suffix) = word.split_at(word.len().checked_sub(1)?);
    let v = match body {
        "NaN" => f64::NAN,
        "Infinity" | "+Infinity" => f64::INFINITY,
        "-Infinity" => f64::NEG_INFINITY,
        _ => return None,
    };
    match suffix {
        "f" | "F" => Some(Tag::Float(v as f32)),
        "d" | "D" => Some(Tag::Double(v)),
        _ => None,
    }
}

fn parse_uuid(s: &str) -> Option<Vec<i32>> {
    let parts: Vec<&str> = s.split('-').collect();
    if parts.len() != 5 || parts.iter().any(|p| p.is_empty() || p.len() > 16) {
        return None;
    }
    let nums: Vec<u64> = parts
        .iter()
        .map(|p| u64::from_str_radix(p, 16).ok())
        .collect::<Option<_>>()?;
    let most = (nums[0] << 32) | ((nums[1] & 0xFFFF) << 16) | (nums[2] & 0xFFFF);
    let least = ((nums[3] & 0xFFFF) << 48) | (nums[4] & 0xFFFF_FFFF_FFFF);
    Some(vec![
        (most >> 32) as i32,
        most as i32,
        (least >> 32) as i32,
        least as i32,
    ])
}

/// Classic number patterns; `None` means "this literal is a string".
fn classic_number(word: &str) -> Option<Tag> {
    let lower = word.to_ascii_lowercase();
    let (body, suffix) = match lower.as_bytes().last()? {
        b @ (b'b' | b's' | b'l' | b'f' | b'd') => (&word[..word.len() - 1], Some(*b)),
        _ => (word, None),
    };
    let digits = body.strip_prefix(['-', '+']).unwrap_or(body);
    let is_int = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'));
    let is_float = is_classic_float(digits);
    match suffix {
        Some(b'b') if is_int => body.parse().ok().map(Tag::Byte),
        Some(b's') if is_int => body.parse().ok().map(Tag::Short),
        Some(b'l') if is_int => body.parse().ok().map(Tag::Long),
        Some(b'f') if is_int || is_float => body.parse().ok().map(Tag::Float),
        Some(b'd') if is_int || is_float => body.parse().ok().map(Tag::Double),
        None if is_int => body.parse().ok().map(Tag::Int),
        None if is_float && digits.contains('.') => body.parse().ok().map(Tag::Double),
        _ => None,
    }
}

/// `[0-9]+[.]?` or `[0-9]*[.][0-9]+`, then an optional exponent.
fn is_classic_float(s: &str) -> bool {
    let (mantissa, exp) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let exp_ok = exp.is_none_or(|e| {
        let d = e.strip_prefix(['-', '+']).unwrap_or(e);
        !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())
    });
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |x: &str| x.bytes().all(|b| b.is_ascii_digit());
    exp_ok && digits(int) && digits(frac) && !(int.is_empty() && frac.is_empty())
}

/// Modern number grammar. `Ok(None)`: not a number at all; `Err`: looks like a number but is invalid.
fn modern_number(word: &str) -> std::result::Result<Option<Tag>, String> {
    let (neg, rest) = match word.as_bytes().first() {
        Some(b'-') => (true, &word[1..]),
        Some(b'+') => (false, &word[1..]),
        _ => (false, word),
    };
    if !rest.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return Ok(None);
    }
    let lower = rest.to_ascii_lowercase();
    let (radix, body) = if let Some(b) = lower.strip_prefix("0x") {
        (16, b)
    } else if let Some(b) = lower
        .strip_prefix("0b")
        .filter(|b| !b.is_empty() && b.bytes().next().is_some_and(|c| c == b'0' || c == b'1'))
    {
        (2, b)
    } else {
        (10, lower.as_str())
    };
    // Split off the suffix.
    let (num, signed, kind) = int_suffix(body, radix);
    let clean = |s: &str| -> std::result::Result<String, String> {
        if s.starts_with('_') || s.ends_with('_') {
            return Err(format!("misplaced '_' in {word:?}"));
        }
        Ok(s.replace('_', ""))
    };
    if radix == 10 && kind.is_none() {
        // Possibly a float.
        let (num, fkind) = match body.as_bytes().last() {
            Some(b'f') => (&body[..body.len() - 1], Some('f')),
            Some(b'd') => (&body[..body.len() - 1], Some('d')),
            _ => (body, None),
        };
        let n = clean(num)?;
        let looks_float = n.contains(['.', 'e']);
        if looks_float || fkind.is_some() {
            if !is_classic_float(&n) {
                return Err(format!("invalid number {word:?}"));
            }
            let text = if neg { format!("-{n}") } else { n };
            return Ok(Some(match fkind {
                Some('f') => Tag::Float(
                    text.parse()
                        .map_err(|_| format!("invalid float {word:?}"))?,
                ),
                _ => Tag::Double(
                    text.parse()
                        .map_err(|_| format!("invalid double {word:?}"))?,
                ),
            }));
        }
    }
    let n = clean(num)?;
    if n.is_empty() {
        return Err(format!("invalid number {word:?}"));
    }
    let magnitude = u64::from_str_radix(&n, radix)
        .map_err(|_| format!("invalid or too large integer {word:?}"))?;
    let kind = kind.unwrap_or('i');
    let (bits, unsigned) = (
        match kind {
            'b' => 8,
            's' => 16,
            'i' => 32,
            _ => 64,
        },
        signed == Some(false),
    );
    let value: i128 = if neg {
        -i128::from(magnitude)
    } else {
        i128::from(magnitude)
    };
    let (lo, hi): (i128, i128) = if unsigned {
        if neg {
            return Err(format!("unsigned number cannot be negative: {word:?}"));
        }
        (0, (1i128 << bits) - 1)
    } else if signed.is_none() && radix != 10 {
        // Hex and binary without a signedness suffix may use the full unsigned range.
        (-(1i128 << (bits - 1)), (1i128 << bits) - 1)
    } else {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    };
    if value < lo || value > hi {
        return Err(format!("{word:?} is out of range"));
    }
    Ok(Some(match bits {
        8 => Tag::Byte(value as i8),
        16 => Tag::Short(value as i16),
        32 => Tag::Int(value as i32),
        _ => Tag::Long(value as i64),
    }))
}

/// Splits an integer suffix (`b s i l`, optionally preceded by `s`/`u`) off `body`.
fn int_suffix(body: &str, radix: u32) -> (&str, Option<bool>, Option<char>) {
    let b = body.as_bytes();
    let Some(&last) = b.last() else {
        return (body, None, None);
    };
    // In hex, 'b' is a digit: only a signedness-prefixed suffix counts there.
    let kind = match last {
        b'b' | b's' | b'i' | b'l' => last as char,
        _ => return (body, None, None),
    };
    let before = b.len().checked_sub(2).map(|i| b[i]);
    match before {
        Some(b's') => (&body[..body.len() - 2], Some(true), Some(kind)),
        Some(b'u') => (&body[..body.len() - 2], Some(false), Some(kind)),
        _ if radix == 16 && kind == 'b' => (body, None, None),
        _ => (&body[..body.len() - 1], None, Some(kind)),
    }
}
