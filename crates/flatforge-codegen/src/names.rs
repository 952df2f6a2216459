//! Rust names for schema names: case conversion (as flatc's Rust generator converts), keyword
//! escaping, and de-duplication within one scope.

use std::collections::HashSet;

/// Rust keywords (strict and reserved, all editions) that must be written `r#name`.
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "dyn", "else", "enum", "extern", "false",
    "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "static", "struct", "trait", "true", "type", "unsafe", "use", "where",
    "while", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "try",
    "typeof", "unsized", "virtual", "yield", "union",
];

/// Keywords that cannot be raw identifiers: they get a trailing underscore.
const NOT_RAW: &[&str] = &["self", "Self", "super", "crate", "_"];

/// `name` as a Rust identifier: raw (`r#type`) for keywords, `self_` for the few that cannot be
/// raw, unchanged otherwise.
pub(crate) fn escape(name: &str) -> String {
    if NOT_RAW.contains(&name) {
        format!("{name}_")
    } else if KEYWORDS.contains(&name) {
        format!("r#{name}")
    } else {
        name.to_string()
    }
}

/// The identifier without a raw prefix (to build derived names such as `set_type`).
pub(crate) fn bare(ident: &str) -> &str {
    ident.strip_prefix("r#").unwrap_or(ident)
}

/// Splits a name into words at underscores and case changes (`HTTPRequest_id2` → `HTTP`,
/// `Request`, `id2`).
fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut out = Vec::new();
    let mut cur = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c == '_' || !c.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        if c.is_uppercase() && !cur.is_empty() {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if prev.is_lowercase() || prev.is_ascii_digit() || (prev.is_uppercase() && next_lower) {
                out.push(std::mem::take(&mut cur));
            }
        }
        cur.push(c);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// `snake_case` (fields, methods, modules).
pub(crate) fn snake(name: &str) -> String {
    let s = words(name)
        .iter()
        .map(|w| w.to_lowercase())
        .collect::<Vec<_>>()
        .join("_");
    if s.is_empty() {
        "_x".to_string()
    } else if s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{s}")
    } else {
        s
    }
}

/// `UpperCamelCase` (types, union variants). Words keep their inner capitals (`MyGame_Example`
/// → `MyGameExample`) unless fully upper case (`ABC` → `Abc`, as Rust's lints want).
pub(crate) fn camel(name: &str) -> String {
    let mut s = String::new();
    for w in words(name) {
        let mut cs = w.chars();
        let Some(first) = cs.next() else { continue };
        s.extend(first.to_uppercase());
        let rest: String = cs.collect();
        if rest.chars().count() > 0 && rest.chars().all(|c| !c.is_lowercase()) {
            s.push_str(&rest.to_lowercase());
        } else {
            s.push_str(&rest);
        }
    }
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("T{s}")
    } else {
        s
    }
}

/// `SCREAMING_SNAKE_CASE` (constants).
pub(crate) fn screaming(name: &str) -> String {
    snake(name).to_uppercase()
}

/// Hands out unique names within one scope: a name already taken gets underscores appended.
#[derive(Default)]
pub(crate) struct Scope {
    taken: HashSet<String>,
}

impl Scope {
    /// A scope with `reserved` names already taken.
    pub(crate) fn with_reserved(reserved: &[&str]) -> Scope {
        Scope {
            taken: reserved.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// Takes `name` (or `name_`, `name__`...) and returns it escaped.
    pub(crate) fn take(&mut self, name: String) -> String {
        let mut name = name;
        // `Self` is written `Self_`: a `Self_` of the schema must then be something else, and
        // the other way round.
        while self.taken.contains(&name) || self.taken.contains(bare(&escape(&name))) {
            name.push('_');
        }
        let escaped = escape(&name);
        self.taken.insert(bare(&escaped).to_string());
        self.taken.insert(name);
        escaped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaped_names_are_taken_too() {
        for order in [["Self", "Self_"], ["Self_", "Self"]] {
            let mut scope = Scope::with_reserved(&[]);
            let a = scope.take(order[0].to_string());
            let b = scope.take(order[1].to_string());
            assert_ne!(a, b, "{order:?}");
        }
        let mut scope = Scope::with_reserved(&[]);
        assert_eq!(scope.take("type".into()), "r#type");
        assert_eq!(scope.take("type".into()), "type_");
    }

    #[test]
    fn case_conversions() {
        assert_eq!(snake("testhashs32_fnv1"), "testhashs32_fnv1");
        assert_eq!(snake("camelCase"), "camel_case");
        assert_eq!(snake("HTTPRequest"), "http_request");
        assert_eq!(snake("MyGame"), "my_game");
        assert_eq!(snake("Example2"), "example2");
        assert_eq!(camel("MyGame_Example2_Monster"), "MyGameExample2Monster");
        assert_eq!(camel("Struct_"), "Struct");
        assert_eq!(camel("ABC"), "Abc");
        assert_eq!(camel("foo_bar"), "FooBar");
        assert_eq!(
            screaming("MyGame_Example2_Monster"),
            "MY_GAME_EXAMPLE2_MONSTER"
        );
        assert_eq!(screaming("Red"), "RED");
    }

    #[test]
    fn keywords_and_scopes() {
        assert_eq!(escape("type"), "r#type");
        assert_eq!(escape("self"), "self_");
        assert_eq!(bare("r#type"), "type");
        let mut s = Scope::with_reserved(&["create"]);
        assert_eq!(s.take("create".into()), "create_");
        assert_eq!(s.take("a".into()), "a");
        assert_eq!(s.take("a".into()), "a_");
        assert_eq!(s.take("match".into()), "r#match");
    }
}
