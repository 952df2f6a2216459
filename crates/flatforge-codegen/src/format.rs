//! Formatting: the emitter hands over its code as [`Chunk`]s (module openings and closings, and
//! the items of one definition at a time). The items of each chunk are parsed with syn and printed
//! with prettyplease on their own, on several threads when there are many, and put back in order;
//! then the safety markers become `// SAFETY:` comments (comments do not survive a syntax tree).
//! Memory goes with the largest chunk's syntax tree, not with the file's. Parsing, printing and
//! dropping a syntax tree recurse once per module around the items, so items nested deep in
//! modules are formatted on threads whose stack is sized for their depth.
//!
//! The result is the bytes prettyplease prints for the whole file at once. It lays an item out by
//! its indentation alone: every item ends in a forced line break, so the box of the module around
//! it is broken whatever else the module holds, and no break inside an item depends on the text
//! after the item. So a chunk's items are printed inside wrappers that repeat the modules they sit
//! in (`pub mod a { pub mod b { ITEMS } }`), with the attributes of the modules that open right
//! before the items, and the lines of the other wrappers are dropped: one `pub mod name {` line
//! each at the top, one `}` line each at the bottom.

use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::GenerateError;

/// The macro name the emitter writes where a `// SAFETY:` comment belongs.
pub(crate) const SAFETY_MARKER: &str = "__flatforge_safety";

/// How much unformatted code one more thread is worth; below twice this, and with fewer than four
/// chunks, formatting stays on the calling thread.
const BYTES_PER_THREAD: usize = 16 * 1024;

/// The deepest module nesting formatted on the calling thread, whose stack size is the caller's:
/// syn parses, prettyplease prints and the syntax tree drops one level of nesting per recursion.
/// Deeper units (a namespace of many components) are formatted on threads whose stack is sized
/// for their depth.
const CALLER_MAX_DEPTH: usize = 16;

/// The stack of a formatting thread: what the items of any depth need (spawned threads had 2 MiB
/// before namespaces were deep)...
const STACK_BASE: usize = 2 << 20;

/// ...and the stack per module level around them (about 20 KiB in a debug build, 5 KiB in a
/// release build).
const STACK_PER_LEVEL: usize = 32 << 10;

/// A piece of the emitted code, in file order.
pub(crate) enum Chunk {
    /// Opens a module: `{attrs} pub mod {name} {`.
    Open {
        /// The module's outer attributes (its doc, lints), unformatted.
        attrs: String,
        /// The module's name, an identifier.
        name: String,
    },
    /// Items of the innermost open module (or of the file), unformatted.
    Items {
        /// What the items are, for errors: "table `a.b.Monster`".
        what: String,
        /// The items' code.
        text: String,
    },
    /// Closes the innermost open module.
    Close,
}

/// Items formatted on their own, with the modules around them.
struct Unit<'a> {
    /// The modules around the items, outermost first: their attributes and names.
    modules: Vec<(&'a str, &'a str)>,
    /// How many of the innermost modules open right before the items (their lines are kept).
    opened: usize,
    /// How many of the innermost modules close right after the items (their lines are kept).
    closed: usize,
    /// What the items are, for errors.
    what: Cow<'a, str>,
    /// The items' unformatted code.
    text: Cow<'a, str>,
}

/// Formats the chunks and puts `header` (comment lines, kept as they are) before them.
pub(crate) fn format(header: &str, chunks: &[Chunk]) -> Result<String, GenerateError> {
    let units = units(chunks)?;
    let bytes: usize = units.iter().map(|u| u.text.len()).sum();
    let threads = if units.len() >= 4 && bytes >= 2 * BYTES_PER_THREAD {
        std::thread::available_parallelism()
            .map_or(1, usize::from)
            .min(bytes / BYTES_PER_THREAD)
            .min(units.len())
    } else {
        1
    };
    format_units(header, &units, threads)
}

/// Groups the chunks into units: each `Items` with the modules it is in, how many of them open
/// before it and close after it. A module without items becomes an item of its parent
/// (`pub mod name {}`), as prettyplease prints it on one line.
fn units(chunks: &[Chunk]) -> Result<Vec<Unit<'_>>, GenerateError> {
    let mut units: Vec<Unit<'_>> = Vec::new();
    let mut modules = Vec::new();
    let mut opened = 0;
    for chunk in chunks {
        match chunk {
            Chunk::Open { attrs, name } => {
                modules.push((attrs.as_str(), name.as_str()));
                opened += 1;
            }
            Chunk::Items { what, text } => {
                if text.trim().is_empty() {
                    continue;
                }
                units.push(Unit {
                    modules: modules.clone(),
                    opened,
                    closed: 0,
                    what: Cow::Borrowed(what),
                    text: Cow::Borrowed(text),
                });
                opened = 0;
            }
            Chunk::Close => {
                let Some((attrs, name)) = modules.pop() else {
                    return Err(GenerateError::Internal {
                        message: "a module is closed that is not open".to_string(),
                    });
                };
                if opened > 0 {
                    opened -= 1;
                    units.push(Unit {
                        modules: modules.clone(),
                        opened,
                        closed: 0,
                        what: Cow::Owned(format!("module `{name}`")),
                        text: Cow::Owned(format!("{attrs} pub mod {name} {{}}")),
                    });
                    opened = 0;
                } else if let Some(last) = units.last_mut() {
                    last.closed += 1;
                }
            }
        }
    }
    if let Some((_, name)) = modules.last() {
        return Err(GenerateError::Internal {
            message: format!("module `{name}` is not closed"),
        });
    }
    Ok(units)
}

/// Formats the units on `threads` threads (the calling one and `threads - 1` more), in order;
/// units nested deeper than [`CALLER_MAX_DEPTH`] modules are formatted on `threads` spawned
/// threads with a stack sized for them, and not on the calling one.
fn format_units(header: &str, units: &[Unit<'_>], threads: usize) -> Result<String, GenerateError> {
    let depth = units.iter().map(|u| u.modules.len()).max().unwrap_or(0);
    let on_caller = depth <= CALLER_MAX_DEPTH;
    if threads <= 1 && on_caller {
        // Formatted code is about one and a half times as long.
        let bytes: usize = units.iter().map(|u| u.text.len()).sum();
        let mut out = String::with_capacity(header.len() + bytes + bytes / 2);
        out.push_str(header);
        for unit in units {
            format_unit(unit, &mut out)?;
        }
        return Ok(out);
    }
    // Units are handed out in order; after a failure no more are. Every unit before the failed
    // one was handed out before it and is finished, so the error returned is that of the first
    // failing unit, whatever the number of threads.
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let work = || {
        let mut done = Vec::new();
        while !failed.load(Ordering::Relaxed) {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(unit) = units.get(i) else { break };
            let mut text = String::new();
            let result = format_unit(unit, &mut text).map(|()| text);
            failed.fetch_or(result.is_err(), Ordering::Relaxed);
            done.push((i, result));
        }
        done
    };
    let mut slots: Vec<Option<Result<String, GenerateError>>> =
        units.iter().map(|_| None).collect();
    let stack = STACK_BASE.saturating_add(depth.saturating_mul(STACK_PER_LEVEL));
    std::thread::scope(|scope| {
        // A thread that cannot be started leaves its share to the others; the calling thread
        // does the work when no thread could be started.
        let helpers: Vec<_> = (usize::from(on_caller)..threads.max(1))
            .filter_map(|_| {
                std::thread::Builder::new()
                    .stack_size(stack)
                    .spawn_scoped(scope, work)
                    .ok()
            })
            .collect();
        let mine = if on_caller || helpers.is_empty() {
            work()
        } else {
            Vec::new()
        };
        let theirs = helpers.into_iter().flat_map(|h| {
            h.join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        });
        for (i, result) in theirs.chain(mine) {
            slots[i] = Some(result);
        }
    });
    let formatted = slots
        .into_iter()
        .map(|slot| slot.expect("every unit up to the first failed one is formatted"))
        .collect::<Result<Vec<String>, GenerateError>>()?;
    let mut out =
        String::with_capacity(header.len() + formatted.iter().map(String::len).sum::<usize>());
    out.push_str(header);
    for text in formatted {
        out.push_str(&text);
    }
    Ok(out)
}

/// Formats one unit and appends its lines to `out`.
fn format_unit(unit: &Unit<'_>, out: &mut String) -> Result<(), GenerateError> {
    let depth = unit.modules.len();
    let dropped_opens = depth - unit.opened;
    let mut src = String::with_capacity(unit.text.len() + 32 * depth + 2);
    for (level, (attrs, name)) in unit.modules.iter().enumerate() {
        if level >= dropped_opens {
            src.push_str(attrs);
        }
        src.push_str(" pub mod ");
        src.push_str(name);
        src.push_str(" {");
    }
    src.push('\n');
    src.push_str(&unit.text);
    src.push('\n');
    src.extend(std::iter::repeat_n('}', depth));
    // The error names the definition, not a line: line numbers would need proc-macro2's
    // `span-locations`, which keeps every parsed text for the life of the thread (memory that grew
    // with each `generate` call of a long-lived process) and costs 6% of the generation's
    // instructions.
    let file = syn::parse_file(&src).map_err(|e| GenerateError::Internal {
        message: format!("{e} in the code of {}", unit.what),
    })?;
    drop(src);
    let pretty = prettyplease::unparse(&file);
    drop(file);
    out.reserve(pretty.len());
    let mut lines = pretty.lines();
    let unexpected = |line: Option<&str>| GenerateError::Internal {
        message: format!(
            "the module around the code of {} was printed as `{}`",
            unit.what,
            line.unwrap_or("")
        ),
    };
    for (level, (_, name)) in unit.modules[..dropped_opens].iter().enumerate() {
        let line = lines.next();
        if !line.is_some_and(|l| is_at_level(l, level, &["pub mod ", name, " {"])) {
            return Err(unexpected(line));
        }
    }
    for level in 0..depth - unit.closed {
        let line = lines.next_back();
        if !line.is_some_and(|l| is_at_level(l, level, &["}"])) {
            return Err(unexpected(line));
        }
    }
    markers_to_comments(lines, out);
    Ok(())
}

/// Whether `line` is the concatenation of `parts` indented for nesting `level`.
fn is_at_level(line: &str, level: usize, parts: &[&str]) -> bool {
    let Some((indent, mut rest)) = line.split_at_checked(4 * level) else {
        return false;
    };
    if indent.bytes().any(|b| b != b' ') {
        return false;
    }
    for part in parts {
        match rest.strip_prefix(part) {
            Some(after) => rest = after,
            None => return false,
        }
    }
    rest.is_empty()
}

/// Appends the lines to `out`, each with a newline, with the safety markers made comments.
fn markers_to_comments<'a>(mut lines: impl Iterator<Item = &'a str>, out: &mut String) {
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        let marker = trimmed.strip_prefix(SAFETY_MARKER);
        let Some(rest) = marker.and_then(|m| m.strip_prefix("!(")) else {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(what: &str, text: &str) -> Chunk {
        Chunk::Items {
            what: what.to_string(),
            text: text.to_string(),
        }
    }

    fn open(attrs: &str, name: &str) -> Chunk {
        Chunk::Open {
            attrs: attrs.to_string(),
            name: name.to_string(),
        }
    }

    #[test]
    fn markers_become_comments_and_the_header_stays() {
        let chunks = [items(
            "f",
            "fn f() -> u8 { __flatforge_safety!(\"it is fine\"); unsafe { g() } }",
        )];
        let out = format("// header\n\n", &chunks).unwrap();
        assert!(out.starts_with("// header\n\nfn f() -> u8 {\n"), "{out}");
        assert!(
            out.contains("    // SAFETY: it is fine\n    unsafe { g() }"),
            "{out}"
        );
    }

    #[test]
    fn unparsable_code_is_an_internal_error_naming_the_items() {
        let chunks = [
            open("", "a"),
            items("table `a.S`", "struct S;"),
            items("table `a.T`", "struct T;\nfn f( {"),
            Chunk::Close,
        ];
        let Err(GenerateError::Internal { message }) = format("", &chunks) else {
            panic!("formatted");
        };
        assert!(message.contains("in the code of table `a.T`"), "{message}");
        // The first failing items are named, whatever the number of threads.
        let chunks: Vec<Chunk> = (0..30)
            .map(|i| match i {
                7 | 20 => items(&format!("table `T{i}`"), "fn f( {"),
                _ => items("ok", &format!("struct S{i};")),
            })
            .collect();
        let units = units(&chunks).unwrap();
        for threads in [1, 2, 3, 8] {
            let Err(GenerateError::Internal { message }) = format_units("", &units, threads) else {
                panic!("formatted");
            };
            assert!(message.contains("table `T7`"), "{message}");
        }
    }

    #[test]
    fn unbalanced_modules_are_internal_errors() {
        for chunks in [vec![open("", "a")], vec![Chunk::Close]] {
            assert!(matches!(
                format("", &chunks),
                Err(GenerateError::Internal { .. })
            ));
        }
    }

    /// The chunks as one file, as the emitter wrote it before it wrote chunks.
    fn whole(chunks: &[Chunk]) -> String {
        let mut raw = String::new();
        for chunk in chunks {
            match chunk {
                Chunk::Open { attrs, name } => raw.push_str(&format!("{attrs} pub mod {name} {{")),
                Chunk::Items { text, .. } => raw.push_str(text),
                Chunk::Close => raw.push('}'),
            }
        }
        raw
    }

    #[test]
    fn chunks_print_as_the_whole_file_does_on_any_number_of_threads() {
        // Functions around prettyplease's 100 columns: whether one wraps depends on its indentation.
        let functions = |prefix: &str| {
            (0..40)
                .map(|n| {
                    format!(
                        "#[doc = \" f{n}\"] pub fn {prefix}_{n}(argument: u32, y{}: u64) -> \
                         ::core::option::Option<u32> {{ match argument {{ 0 => None, _ => \
                         Some(argument) }} }}",
                        "x".repeat(n)
                    )
                })
                .collect::<String>()
        };
        let mut chunks = vec![items("version", "const _: () = ();")];
        for (a, nested) in [("outer", true), ("other", false)] {
            chunks.push(open("#[doc = \" Namespace.\"]", a));
            chunks.push(items(a, &functions(a)));
            if nested {
                chunks.push(open(
                    "#[doc = \" Inner.\"] #[allow(clippy::module_inception)]",
                    "inner",
                ));
                chunks.push(items("inner 1", &functions("inner_1")));
                chunks.push(open("", "empty"));
                chunks.push(Chunk::Close);
                chunks.push(open("", "deepest"));
                chunks.push(items("deepest", &functions("deepest")));
                chunks.push(Chunk::Close);
                chunks.push(Chunk::Close);
                chunks.push(items("after inner", &functions("after")));
            }
            chunks.push(open("", "only_empty"));
            chunks.push(open("", "empty_too"));
            chunks.push(Chunk::Close);
            chunks.push(Chunk::Close);
            chunks.push(Chunk::Close);
        }
        chunks.push(items("last", "pub struct Last;"));
        let expected = format!(
            "// header\n\n{}",
            prettyplease::unparse(&syn::parse_file(&whole(&chunks)).unwrap())
        );
        assert!(expected.contains("pub fn deepest_9(\n"), "{expected}");
        assert!(expected.contains("pub fn outer_9(argument"), "{expected}");
        let units = units(&chunks).unwrap();
        for threads in [1, 2, 3, 8] {
            let out = format_units("// header\n\n", &units, threads).unwrap();
            assert!(out == expected, "{threads} threads:\n{out}");
        }
    }
}
