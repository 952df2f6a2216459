//! Schema doc comments (`///` in the `.fbs`) as rustdoc text.
//!
//! Schema authors write comments for every language flatc targets, as plain text with a little
//! markdown. Rustdoc reads them as Rust docs: an indented block or an untagged ```` ``` ```` fence
//! becomes a doctest that the user's `cargo test` compiles, `List<Int16>` is an unclosed HTML
//! tag, `[i]` is a broken intra-doc link and a bare `https://…` a lint warning. [`schema_docs`]
//! turns each of these into what the author meant (a text block, literal brackets and angle
//! brackets, a link), and leaves code spans, fenced blocks and markdown links as written.

/// The rustdoc lines for the lines of a schema doc comment (each the text after `///`), each
/// starting with a space unless empty.
pub(crate) fn schema_docs(lines: &[String]) -> Vec<String> {
    let bodies: Vec<&str> = lines
        .iter()
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .collect();
    let mut out = Vec::with_capacity(lines.len());
    // The closing marker of the fenced block the comment is in.
    let mut fence: Option<(char, usize)> = None;
    // Whether an indented code block (turned into a text fence) is open.
    let mut indented = false;
    let mut after_blank = true;
    for (i, &body) in bodies.iter().enumerate() {
        if let Some((ch, len)) = fence {
            if closes_fence(body, ch, len) {
                fence = None;
                // What follows a block starts a new one: an indented line is code.
                after_blank = true;
            }
            out.push(line(body));
            continue;
        }
        let blank = body.trim().is_empty();
        if indented {
            let continues = if blank {
                // A blank line stays in the block if an indented line follows the blank ones.
                bodies[i..]
                    .iter()
                    .find(|b| !b.trim().is_empty())
                    .is_some_and(|b| indent_width(b) >= 4)
            } else {
                indent_width(body) >= 4
            };
            if continues {
                out.push(line(dedent(body, 4)));
                continue;
            }
            out.push(" ```".into());
            indented = false;
        }
        if !blank && after_blank && indent_width(body) >= 4 {
            out.push(" ```text".into());
            out.push(line(dedent(body, 4)));
            indented = true;
            after_blank = false;
            continue;
        }
        if let Some((ch, len, info)) = opens_fence(body) {
            fence = Some((ch, len));
            let marker: String = std::iter::repeat_n(ch, len).collect();
            let indent = &body[..body.len() - body.trim_start().len()];
            out.push(line(&format!("{indent}{marker}{}", rustdoc_info(info))));
            after_blank = false;
            continue;
        }
        out.push(line(&inline(body)));
        // (A heading is a block of one line: an indented line after it is code too.)
        after_blank = blank || is_heading(body);
    }
    if indented {
        out.push(" ```".into());
    }
    if let Some((ch, len)) = fence {
        // An unclosed fence would swallow the generated lines that follow the comment.
        out.push(line(&std::iter::repeat_n(ch, len).collect::<String>()));
    }
    out
}

/// A doc line with the space after `///`.
fn line(body: &str) -> String {
    if body.is_empty() {
        String::new()
    } else {
        format!(" {body}")
    }
}

/// Where the leading whitespace of `body` reaches `columns` columns, or ends: the byte offset
/// and the columns there (a tab reaches the next multiple of 4).
fn indent_to(body: &str, columns: usize) -> (usize, usize) {
    let mut width = 0;
    for (at, c) in body.char_indices() {
        if width >= columns {
            return (at, width);
        }
        match c {
            ' ' => width += 1,
            '\t' => width += 4 - width % 4,
            _ => return (at, width),
        }
    }
    (body.len(), width)
}

/// Columns of leading whitespace.
fn indent_width(body: &str) -> usize {
    indent_to(body, usize::MAX).1
}

/// `body` without its first `columns` columns of indentation.
fn dedent(body: &str, columns: usize) -> &str {
    &body[indent_to(body, columns).0..]
}

/// Whether `body` is an ATX heading (`# Title`).
fn is_heading(body: &str) -> bool {
    let text = body.trim_start();
    let hashes = text.len() - text.trim_start_matches('#').len();
    indent_width(body) <= 3
        && (1..=6).contains(&hashes)
        && text[hashes..]
            .chars()
            .next()
            .is_none_or(char::is_whitespace)
}

/// A fence opening at `body`: its character, length and info string.
fn opens_fence(body: &str) -> Option<(char, usize, &str)> {
    if indent_width(body) > 3 {
        return None;
    }
    let text = body.trim_start();
    let ch = text.chars().next().filter(|&c| c == '`' || c == '~')?;
    let len = text.chars().take_while(|&c| c == ch).count();
    let info = text[len..].trim();
    (len >= 3 && !(ch == '`' && info.contains('`'))).then_some((ch, len, info))
}

/// Whether `body` closes a fence of `len` `ch`s.
fn closes_fence(body: &str, ch: char, len: usize) -> bool {
    let text = body.trim_start();
    indent_width(body) <= 3
        && text.chars().take_while(|&c| c == ch).count() >= len
        && text.trim_start_matches(ch).trim().is_empty()
}

/// The info string of a fence as written, unless rustdoc would compile the block as a doctest:
/// an untagged block is text, a Rust one is shown but not compiled (`rust,ignore`), and one that
/// names Rust among other words (`json,rust`, an error code `E0308`) is text.
fn rustdoc_info(info: &str) -> String {
    if info.is_empty() {
        return "text".into();
    }
    let rustdoc_word = |w: &str| {
        matches!(
            w,
            "rust" | "ignore" | "should_panic" | "no_run" | "compile_fail" | "test_harness"
        ) || w.starts_with("edition")
            || w.starts_with("ignore-")
    };
    let error_code =
        |w: &str| w.len() == 5 && w.starts_with('E') && w[1..].bytes().all(|b| b.is_ascii_digit());
    let mut words = info
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty());
    if words.clone().all(rustdoc_word) {
        "rust,ignore".into()
    } else if words.any(|w| w == "rust" || error_code(w)) {
        "text".into()
    } else {
        info.into()
    }
}

/// One line of prose: code spans and markdown links kept; `<`, brackets and a leading `>` made
/// literal; bare addresses made links.
fn inline(body: &str) -> String {
    let mut out = String::with_capacity(body.len() + 8);
    let indent = body.len() - body.trim_start().len();
    out.push_str(&body[..indent]);
    let text = &body[indent..];
    if text.starts_with('>') {
        // Plain text, not a quote.
        out.push('\\');
    }
    if is_link_definition(text) {
        // `[name]: https://...`, which `[text][name]` links use.
        out.push_str(text);
        return out;
    }
    prose(text, &mut out, true);
    out
}

/// Whether `text` is a link reference definition: `[label]: destination`.
fn is_link_definition(text: &str) -> bool {
    text.strip_prefix('[')
        .and_then(|rest| rest.split_once("]:"))
        .is_some_and(|(label, dest)| {
            !label.is_empty() && !label.contains(['[', ']']) && !dest.trim().is_empty()
        })
}

/// Appends `text` (no code fences) to `out` with the escapes of [`inline`]; bare addresses
/// become links when `link_addresses` (not inside a link's text, where a link cannot be).
fn prose(text: &str, out: &mut String, link_addresses: bool) {
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let n = match c {
            '\\' => rest.chars().nth(1).map_or(1, |e| 1 + e.len_utf8()),
            '`' => {
                code_span(rest).unwrap_or_else(|| rest.len() - rest.trim_start_matches('`').len())
            }
            '<' => match autolink(rest) {
                Some(n) => n,
                None => {
                    out.push_str("\\<");
                    rest = &rest[1..];
                    continue;
                }
            },
            '[' => match link(rest) {
                Some((label, n)) => {
                    out.push('[');
                    prose(label, out, false);
                    out.push_str(&rest[1 + label.len()..n]);
                    rest = &rest[n..];
                    continue;
                }
                None => {
                    out.push_str("\\[");
                    rest = &rest[1..];
                    continue;
                }
            },
            ']' => {
                out.push_str("\\]");
                rest = &rest[1..];
                continue;
            }
            'h' if link_addresses
                && (rest.starts_with("http://") || rest.starts_with("https://")) =>
            {
                let n = bare_url(rest);
                out.push('<');
                out.push_str(&rest[..n]);
                out.push('>');
                rest = &rest[n..];
                continue;
            }
            c => c.len_utf8(),
        };
        out.push_str(&rest[..n]);
        rest = &rest[n..];
    }
}

/// The length of the code span at the start of `text` (a run of backticks, up to the next run of
/// as many), if it closes on this line.
fn code_span(text: &str) -> Option<usize> {
    let ticks = text.len() - text.trim_start_matches('`').len();
    let mut at = ticks;
    while let Some(found) = text[at..].find('`') {
        let start = at + found;
        let run = text[start..].len() - text[start..].trim_start_matches('`').len();
        if run == ticks {
            return Some(start + run);
        }
        at = start + run;
    }
    None
}

/// The length of the autolink (`<scheme:…>`) at the start of `text`, if it is one.
fn autolink(text: &str) -> Option<usize> {
    let end = text.find('>')?;
    let inner = &text[1..end];
    let (scheme, rest) = inner.split_once(':')?;
    let scheme_ok = (2..=32).contains(&scheme.len())
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-'));
    (scheme_ok && !rest.contains(|c: char| c.is_whitespace() || c == '<')).then_some(end + 1)
}

/// A markdown link `[label](target)` at the start of `text`: the label and the link's length.
fn link(text: &str) -> Option<(&str, usize)> {
    let mut depth = 0;
    let mut close = None;
    for (at, c) in text.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(at);
                    break;
                }
            }
            _ => {}
        }
    }
    let close = close?;
    let after = &text[close + 1..];
    // `[text](target)`, or `[text][name]` (a reference to a definition).
    let (open, shut) = match after.chars().next()? {
        '(' => ('(', ')'),
        '[' => ('[', ']'),
        _ => return None,
    };
    let target = after.strip_prefix(open)?;
    let end = target.find(shut)?;
    Some((&text[1..close], close + 2 + end + 1))
}

/// The length of the bare address at the start of `text`: up to whitespace or a delimiter,
/// without trailing punctuation or a closing `)` or `]` it does not open (`(see https://x.org)`).
fn bare_url(text: &str) -> usize {
    let end = text
        .find(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | '"' | '`'))
        .unwrap_or(text.len());
    let mut url = &text[..end];
    loop {
        let trimmed = url.trim_end_matches(['.', ',', ';', ':', '!', '?', '\'']);
        let unopened = |open: char, close: char| {
            trimmed.ends_with(close)
                && trimmed.matches(close).count() > trimmed.matches(open).count()
        };
        if unopened('(', ')') || unopened('[', ']') {
            url = &trimmed[..trimmed.len() - 1];
        } else {
            return trimmed.len();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::schema_docs;

    fn docs(lines: &[&str]) -> Vec<String> {
        let lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        schema_docs(&lines)
    }

    #[test]
    fn prose_gets_literal_angle_brackets_and_brackets() {
        assert_eq!(
            docs(&[" a List<Int16> of [x] and indptr[i], a\\[b"]),
            [r" a List\<Int16> of \[x\] and indptr\[i\], a\[b"]
        );
        assert_eq!(docs(&[" > not a quote"]), [r" \> not a quote"]);
        assert_eq!(docs(&["no space"]), [" no space"]);
        assert_eq!(docs(&["", " x"]), ["", " x"]);
    }

    #[test]
    fn code_spans_links_and_autolinks_are_kept() {
        let kept = [
            " `List<Int16>` and ``a ` b`` and `[[1, 2], null]`",
            " see [the spec](https://example.com/a_(b) or [`Vec<T>`](https://x.org)",
            " <https://example.com> and <mailto:a@b.c>",
        ];
        for line in kept {
            assert_eq!(docs(&[line]), [line]);
        }
        assert_eq!(
            docs(&[" [a <b>](https://x.org) ` unclosed <"]),
            [r" [a \<b>](https://x.org) ` unclosed \<"]
        );
    }

    #[test]
    fn bare_addresses_become_links() {
        assert_eq!(
            docs(&[" at http://example.com/spec. Or (https://x.org/a?b=1), https://y.org"]),
            [" at <http://example.com/spec>. Or (<https://x.org/a?b=1>), <https://y.org>"]
        );
        assert_eq!(
            docs(&[" https://x.org/a[0] and https://x.org/f(1)."]),
            [" <https://x.org/a[0]> and <https://x.org/f(1)>."]
        );
        // Not inside a link's text; reference links and their definitions stay as written.
        let kept = [
            " [https://x.org](https://x.org)",
            " see [the spec][spec] and [more][]",
            " [spec]: https://example.com/spec",
        ];
        for line in kept {
            assert_eq!(docs(&[line]), [line]);
        }
    }

    #[test]
    fn indented_blocks_become_text_fences() {
        assert_eq!(
            docs(&[" Example:", "", "     a = b;", "", "       c;", " after"]),
            [
                " Example:",
                "",
                " ```text",
                " a = b;",
                "",
                "   c;",
                " ```",
                " after"
            ]
        );
        // Indented lines continuing a paragraph are not code; a block may end the comment.
        assert_eq!(
            docs(&[" text", "     more text", "", "\tcode"]),
            [" text", "     more text", "", " ```text", " code", " ```"]
        );
    }

    #[test]
    fn fences_that_rustdoc_would_compile_are_not_doctests() {
        assert_eq!(
            docs(&[" ```", " {\"a\": <1>}", " ```", " x<y"]),
            [" ```text", " {\"a\": <1>}", " ```", r" x\<y"]
        );
        assert_eq!(
            docs(&[" ~~~rust,no_run", " fn f() {}", " ~~~~"]),
            [" ~~~rust,ignore", " fn f() {}", " ~~~~"]
        );
        for kept in [" ```json", " ```text", " ```cpp"] {
            assert_eq!(docs(&[kept, " ```"]), [kept, " ```"]);
        }
        // Rust among other words, or an error code: rustdoc would still compile it.
        for rust in [" ```json,rust", " ```E0308"] {
            assert_eq!(docs(&[rust, " ```"]), [" ```text", " ```"]);
        }
        // After a fence or a heading, an indented line is code.
        assert_eq!(
            docs(&[
                " ```json",
                " {}",
                " ```",
                "     x = 1;",
                " # Title",
                "     y = 2;"
            ]),
            [
                " ```json", " {}", " ```", " ```text", " x = 1;", " ```", " # Title", " ```text",
                " y = 2;", " ```",
            ]
        );
        // An unclosed fence is closed, so the generated lines after the comment stay prose.
        assert_eq!(docs(&[" ````", " x"]), [" ````text", " x", " ````"]);
    }
}
