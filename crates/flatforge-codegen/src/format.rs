//! Formatting: the emitted text is parsed with syn and printed with prettyplease, then the safety
//! markers become `// SAFETY:` comments (comments do not survive a syntax tree).

use crate::GenerateError;

/// The macro name the emitter writes where a `// SAFETY:` comment belongs.
pub(crate) const SAFETY_MARKER: &str = "__flatforge_safety";

/// Parses and pretty-prints `raw`, then turns safety markers into comments.
pub(crate) fn format(raw: &str) -> Result<String, GenerateError> {
    let (header, body) = match raw.find("\n\n") {
        Some(at) if raw.starts_with("//") => raw.split_at(at + 2),
        _ => ("", raw),
    };
    let file = syn::parse_file(body).map_err(|e| GenerateError::Internal {
        message: format!(
            "{e} at line {}: {}",
            e.span().start().line,
            body.lines()
                .nth(e.span().start().line.saturating_sub(1))
                .unwrap_or("")
                .trim()
        ),
    })?;
    let pretty = prettyplease::unparse(&file);
    let mut out = String::with_capacity(header.len() + pretty.len() + pretty.len() / 8);
    out.push_str(header);
    let open = format!("{SAFETY_MARKER}!(");
    let mut lines = pretty.lines();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        let Some(rest) = trimmed.strip_prefix(&open) else {
            out.push_str(line);
            out.push('\n');
            continue;
        };
        // One line, `marker!("text");`, or wrapped over lines up to `);`.
        let mut text = rest.to_string();
        while !text.trim_end().ends_with(");") {
            match lines.next() {
                Some(next) => text.push_str(next.trim()),
                None => break,
            }
        }
        let text = text.trim_end().trim_end_matches(");").trim();
        let text = text.trim_matches('"');
        out.push_str(indent);
        out.push_str("// SAFETY: ");
        out.push_str(&text.replace("\\\"", "\"").replace("\\\\", "\\"));
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_become_comments_and_the_header_stays() {
        let raw =
            "// header\n\nfn f() -> u8 { __flatforge_safety!(\"it is fine\"); unsafe { g() } }";
        let out = format(raw).unwrap();
        assert!(out.starts_with("// header\n\n"), "{out}");
        assert!(
            out.contains("    // SAFETY: it is fine\n    unsafe { g() }"),
            "{out}"
        );
    }

    #[test]
    fn unparsable_code_is_an_internal_error() {
        assert!(matches!(
            format("fn f( {"),
            Err(GenerateError::Internal { .. })
        ));
    }
}
