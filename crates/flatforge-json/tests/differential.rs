//! Differential property test against the reference flatc: random schemas (enums, bit flags,
//! structs with arrays, tables with defaults, optional scalars, keys, unions, vectors of all
//! kinds; some fields named `true`, `null`, `nan`, `type`, `_`...) and random JSON for them in
//! flatc's dialect (unquoted keys, hex, quoted scalars, enum names, escapes, union types before or
//! after their value, trailing commas, comments).
//!
//! Both directions must agree: our buffer is byte-identical to `flatc -b`'s (or both refuse the
//! JSON), and our printing of flatc's buffer equals `flatc -t --strict-json` byte for byte (with
//! flatc's float text). Work is batched: one schema, several JSON documents, two flatc runs per
//! case. `FLATFORGE_DIFF_CASES` sets the number of cases (default 24).

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use flatforge_json::{Codec, FloatFormat, NonFinite, ParseOptions, PrintOptions};
use flatforge_testkit::SplitMix64;
use proptest::prelude::*;

/// The generator, driven by one seed so that a failing case is reproducible from it, and
/// `quoted`: the enclosing values that flatc will skip over (a union value before its type): its
/// skipper knows no bare identifiers but `true`, `false` and `null`, so none are generated there.
struct Rng(SplitMix64, u32);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const SCALARS: &[(&str, i128, i128)] = &[
    ("bool", 0, 1),
    ("byte", -128, 127),
    ("ubyte", 0, 255),
    ("short", -32768, 32767),
    ("ushort", 0, 65535),
    ("int", i32::MIN as i128, i32::MAX as i128),
    ("uint", 0, u32::MAX as i128),
    ("long", i64::MIN as i128, i64::MAX as i128),
    ("ulong", 0, u64::MAX as i128),
    ("float", 0, 0),
    ("double", 0, 0),
];

#[derive(Clone, Debug)]
enum Ty {
    Scalar(usize),
    Enum(usize),
    String,
    Struct(usize),
    Table(usize),
    Union(usize),
    Vector(Box<Ty>),
    Array(Box<Ty>, usize),
}

struct Enum {
    name: String,
    underlying: usize,
    bit_flags: bool,
    values: Vec<(String, i128)>,
}

struct Field {
    name: String,
    ty: Ty,
    default: Option<String>,
    optional: bool,
    key: bool,
}

struct Object {
    name: String,
    fields: Vec<Field>,
}

struct Gen {
    enums: Vec<Enum>,
    structs: Vec<Object>,
    tables: Vec<Object>,
    unions: Vec<(String, Vec<usize>)>,
}

fn gen_schema(r: &mut Rng) -> Gen {
    let mut g = Gen {
        enums: Vec::new(),
        structs: Vec::new(),
        tables: Vec::new(),
        unions: Vec::new(),
    };
    for e in 0..1 + r.below(3) {
        let bit_flags = r.chance(30);
        let underlying = if bit_flags {
            *r.pick(&[2usize, 4, 6, 8])
        } else {
            *r.pick(&[1usize, 2, 3, 5, 7])
        };
        let n = 1 + r.below(4);
        let mut values = Vec::new();
        let signed = SCALARS[underlying].1 < 0;
        // Non-flag enums include 0 (fields default to 0, which must be a value).
        let mut v: i128 = if signed && !bit_flags && n > 1 {
            -(r.below(2) as i128)
        } else {
            0
        };
        for i in 0..n {
            // Bit flags are declared by bit position; keep the flag's value.
            let value = if bit_flags { 1 << v } else { v };
            values.push((format!("V{e}x{i}"), value));
            v += if bit_flags { 1 + r.below(2) as i128 } else { 1 };
        }
        g.enums.push(Enum {
            name: format!("E{e}"),
            underlying,
            bit_flags,
            values,
        });
    }
    for s in 0..r.below(3) {
        let mut fields = Vec::new();
        let mut used = Vec::new();
        for f in 0..1 + r.below(4) {
            let ty = match r.below(10) {
                0 if s > 0 => Ty::Struct(r.below(s)),
                1 => Ty::Enum(r.below(g.enums.len())),
                2 => Ty::Array(Box::new(Ty::Scalar(1 + r.below(10))), 1 + r.below(3)),
                _ => Ty::Scalar(r.below(SCALARS.len())),
            };
            fields.push(Field {
                name: field_name(r, "s", f, &mut used),
                ty,
                default: None,
                optional: false,
                key: false,
            });
        }
        g.structs.push(Object {
            name: format!("S{s}"),
            fields,
        });
    }
    let ntables = 1 + r.below(4);
    for t in 0..ntables {
        if t >= 2 && r.chance(50) {
            let members: Vec<usize> = (0..1 + r.below(t.min(3))).map(|i| i % t).collect();
            let mut members = members;
            members.dedup();
            g.unions.push((format!("U{}", g.unions.len()), members));
        }
        let mut fields: Vec<Field> = Vec::new();
        let mut has_key = false;
        let mut has_union = false;
        let mut used = Vec::new();
        for f in 0..1 + r.below(7) {
            let ty = match r.below(14) {
                0 => Ty::String,
                1 => Ty::Enum(r.below(g.enums.len())),
                2 if !g.structs.is_empty() => Ty::Struct(r.below(g.structs.len())),
                3 if t > 0 => Ty::Table(r.below(t)),
                // One field per union: flatc matches a union value with the type field of any
                // field of the same union (a flatc bug), so two would test flatc, not us.
                4 if !g.unions.is_empty() && !has_union => {
                    has_union = true;
                    Ty::Union(r.below(g.unions.len()))
                }
                5 => Ty::Vector(Box::new(Ty::Scalar(r.below(SCALARS.len())))),
                6 => Ty::Vector(Box::new(Ty::String)),
                7 if !g.structs.is_empty() => {
                    Ty::Vector(Box::new(Ty::Struct(r.below(g.structs.len()))))
                }
                8 if t > 0 => Ty::Vector(Box::new(Ty::Table(r.below(t)))),
                9 => Ty::Vector(Box::new(Ty::Enum(r.below(g.enums.len())))),
                _ => Ty::Scalar(r.below(SCALARS.len())),
            };
            let mut field = Field {
                name: field_name(r, "f", f, &mut used),
                ty,
                default: None,
                optional: false,
                key: false,
            };
            match &field.ty {
                Ty::Scalar(s) if r.chance(20) => field.optional = true,
                Ty::Scalar(s) if r.chance(40) => {
                    let (name, lo, hi) = SCALARS[*s];
                    field.default = Some(match name {
                        "bool" => "true".into(),
                        "float" | "double" => format!("{}", r.below(100) as f64 / 4.0),
                        _ => (lo + (r.next() as i128).rem_euclid(hi - lo + 1)).to_string(),
                    });
                }
                Ty::Scalar(s) if !has_key && SCALARS[*s].0 != "bool" && r.chance(20) => {
                    field.key = true;
                    has_key = true;
                }
                Ty::Enum(e) if !g.enums[*e].bit_flags => {
                    let v = r.pick(&g.enums[*e].values).0.clone();
                    field.default = Some(v);
                }
                _ => {}
            }
            fields.push(field);
        }
        g.tables.push(Object {
            name: format!("T{t}"),
            fields,
        });
    }
    g
}

fn type_name(g: &Gen, ty: &Ty) -> String {
    match ty {
        Ty::Scalar(s) => SCALARS[*s].0.to_string(),
        Ty::Enum(e) => g.enums[*e].name.clone(),
        Ty::String => "string".into(),
        Ty::Struct(s) => g.structs[*s].name.clone(),
        Ty::Table(t) => g.tables[*t].name.clone(),
        Ty::Union(u) => g.unions[*u].0.clone(),
        Ty::Vector(e) => format!("[{}]", type_name(g, e)),
        Ty::Array(e, n) => format!("[{}:{n}]", type_name(g, e)),
    }
}

fn schema_text(g: &Gen) -> String {
    let mut s = String::from("namespace D.Gen;\n");
    for e in &g.enums {
        let attr = if e.bit_flags { " (bit_flags)" } else { "" };
        let _ = write!(s, "enum {} : {}{attr} {{ ", e.name, SCALARS[e.underlying].0);
        for (name, v) in &e.values {
            let v = if e.bit_flags {
                v.trailing_zeros() as i128
            } else {
                *v
            };
            let _ = write!(s, "{name} = {v}, ");
        }
        s.push_str("}\n");
    }
    for st in &g.structs {
        let _ = write!(s, "struct {} {{ ", st.name);
        for f in &st.fields {
            let _ = write!(s, "{}: {}; ", f.name, type_name(g, &f.ty));
        }
        s.push_str("}\n");
    }
    let mut declared_unions = 0;
    for (t, table) in g.tables.iter().enumerate() {
        // Unions name only earlier tables: declare them once those exist.
        while declared_unions < g.unions.len() && g.unions[declared_unions].1.iter().all(|&m| m < t)
        {
            let (name, members) = &g.unions[declared_unions];
            let names: Vec<&str> = members.iter().map(|&m| g.tables[m].name.as_str()).collect();
            let _ = writeln!(s, "union {name} {{ {} }}", names.join(", "));
            declared_unions += 1;
        }
        let _ = write!(s, "table {} {{ ", table.name);
        for f in &table.fields {
            let _ = write!(s, "{}: {}", f.name, type_name(g, &f.ty));
            if f.optional {
                s.push_str(" = null");
            } else if let Some(d) = &f.default {
                let _ = write!(s, " = {d}");
            }
            if f.key {
                s.push_str(" (key)");
            }
            s.push_str("; ");
        }
        s.push_str("}\n");
    }
    let _ = writeln!(s, "root_type {};", g.tables.last().unwrap().name);
    s
}

/// Field names that a JSON reader could take for something else (`true`, `null`, `nan`, `inf`)
/// or that need escaping in Rust (`type`, `_`, `self`).
const ODD_FIELD_NAMES: &[&str] = &[
    "true", "false", "null", "nan", "inf", "infinity", "type", "_", "__", "self", "Self", "x_",
    "NONE", "key",
];

/// The name of field `f`: usually `{prefix}{f}`, now and then one of [`ODD_FIELD_NAMES`] not used
/// yet in the object.
fn field_name(r: &mut Rng, prefix: &str, f: usize, used: &mut Vec<String>) -> String {
    let odd = r.pick(ODD_FIELD_NAMES).to_string();
    let name = if r.chance(15) && !used.contains(&odd) {
        odd
    } else {
        format!("{prefix}{f}")
    };
    used.push(name.clone());
    name
}

fn key(r: &mut Rng, name: &str) -> String {
    match r.below(3) {
        0 => format!("\"{name}\""),
        _ => name.to_string(),
    }
}

fn gen_int(r: &mut Rng, lo: i128, hi: i128) -> String {
    let v = match r.below(4) {
        0 => lo,
        1 => hi,
        _ => lo + (r.next() as i128).rem_euclid(hi - lo + 1),
    };
    match r.below(6) {
        0 if v >= 0 => format!("0x{v:X}"),
        0 => format!("-0x{:x}", -v),
        1 => format!("\"{v}\""),
        _ => v.to_string(),
    }
}

fn gen_float(r: &mut Rng, double: bool) -> String {
    match r.below(10) {
        0 if r.1 > 0 => r
            .pick(&["\"nan\"", "+inf", "-inf", "\"-infinity\""])
            .to_string(),
        0 => r
            .pick(&["nan", "inf", "-inf", "\"nan\"", "+inf", "-infinity"])
            .to_string(),
        1 => format!("{}", r.below(1000) as i64 - 500),
        2 => format!("{:e}", f64::from_bits(r.next() >> 2) * 1e-300),
        3 => format!("\"{}\"", r.below(1000) as f64 / 8.0),
        _ => {
            let x = (r.next() as i64 as f64) / (1u64 << r.below(60)) as f64;
            if double {
                format!("{x}")
            } else {
                format!("{}", x as f32)
            }
        }
    }
}

fn gen_string(r: &mut Rng) -> String {
    let pieces = [
        "a",
        "Zz",
        " ",
        "\\n",
        "\\\"",
        "\\\\",
        "\\u00e9",
        "é",
        "中",
        "\\ud83d\\ude00",
        "😀",
        "\\t",
        "\\u0001",
        "/",
        "\\/",
    ];
    let mut s = String::from("\"");
    for _ in 0..r.below(6) {
        let piece = *r.pick(&pieces);
        s.push_str(piece);
    }
    s.push('"');
    s
}

fn gen_value(r: &mut Rng, g: &Gen, ty: &Ty, depth: usize, out: &mut String) {
    match ty {
        Ty::Scalar(s) => {
            let (name, lo, hi) = SCALARS[*s];
            let v = match name {
                "bool" => r.pick(&["true", "false", "0", "1", "\"true\""]).to_string(),
                "float" => gen_float(r, false),
                "double" => gen_float(r, true),
                _ => gen_int(r, lo, hi),
            };
            out.push_str(&v);
        }
        Ty::Enum(e) => {
            let en = &g.enums[*e];
            let v = match r.below(4) {
                0 => en.values[r.below(en.values.len())].1.to_string(),
                1 if en.bit_flags && en.values.len() > 1 => {
                    format!(
                        "\"{} {}\"",
                        en.values[0].0,
                        en.values[en.values.len() - 1].0
                    )
                }
                3 if r.1 == 0 => r.pick(&en.values).0.clone(),
                _ => format!("\"{}\"", r.pick(&en.values).0),
            };
            out.push_str(&v);
        }
        Ty::String => out.push_str(&gen_string(r)),
        Ty::Struct(s) => {
            let st = &g.structs[*s];
            let mut order: Vec<usize> = (0..st.fields.len()).collect();
            for i in (1..order.len()).rev() {
                order.swap(i, r.below(i + 1));
            }
            out.push('{');
            for (n, &i) in order.iter().enumerate() {
                if n > 0 {
                    out.push_str(", ");
                }
                let f = &st.fields[i];
                let _ = write!(out, "{}: ", key(r, &f.name));
                gen_value(r, g, &f.ty, depth + 1, out);
            }
            out.push('}');
        }
        Ty::Array(e, n) => {
            out.push('[');
            for i in 0..*n {
                if i > 0 {
                    out.push_str(", ");
                }
                gen_value(r, g, e, depth + 1, out);
            }
            out.push(']');
        }
        Ty::Table(t) => gen_table(r, g, *t, depth + 1, out),
        Ty::Vector(e) => {
            out.push('[');
            let n = if depth > 3 { 0 } else { r.below(4) };
            for i in 0..n {
                if i > 0 {
                    out.push_str(", ");
                }
                gen_value(r, g, e, depth + 1, out);
            }
            if n > 0 && r.chance(20) {
                out.push(',');
            }
            out.push(']');
        }
        Ty::Union(_) => unreachable!("unions are written by gen_table"),
    }
}

fn gen_table(r: &mut Rng, g: &Gen, t: usize, depth: usize, out: &mut String) {
    let table = &g.tables[t];
    let mut order: Vec<usize> = (0..table.fields.len())
        .filter(|&i| table.fields[i].key || depth < 4 && r.chance(70))
        .collect();
    for i in (1..order.len()).rev() {
        order.swap(i, r.below(i + 1));
    }
    out.push('{');
    let mut first = true;
    let sep = |r: &mut Rng, first: &mut bool, out: &mut String| {
        if !*first {
            out.push_str(if r.chance(10) { ",\n // note\n " } else { ", " });
        }
        *first = false;
    };
    for i in order {
        let f = &table.fields[i];
        if let Ty::Union(u) = &f.ty {
            let members = &g.unions[*u].1;
            let m = members[r.below(members.len())];
            let type_key = format!("{}_type", f.name);
            let type_value = if r.1 == 0 && r.chance(50) {
                g.tables[m].name.clone()
            } else {
                format!("\"{}\"", g.tables[m].name)
            };
            let before = r.chance(50);
            sep(r, &mut first, out);
            if before {
                let _ = write!(out, "{}: {type_value}, ", key(r, &type_key));
            }
            let _ = write!(out, "{}: ", key(r, &f.name));
            r.1 += u32::from(!before);
            gen_table(r, g, m, depth + 1, out);
            r.1 -= u32::from(!before);
            if !before {
                let _ = write!(out, ", {}: {type_value}", key(r, &type_key));
            }
            continue;
        }
        sep(r, &mut first, out);
        let _ = write!(out, "{}: ", key(r, &f.name));
        let null = if f.optional {
            r.chance(20)
        } else {
            !matches!(f.ty, Ty::Scalar(_) | Ty::Enum(_)) && r.chance(10)
        };
        if null {
            out.push_str("null");
        } else {
            gen_value(r, g, &f.ty, depth, out);
        }
    }
    if !first && r.chance(20) {
        out.push(',');
    }
    out.push('}');
}

fn run_flatc(dir: &Path, args: &[&str]) -> Result<(), String> {
    let out = Command::new(flatforge_testkit::flatc_path())
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run flatc");
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

const DOCS: usize = 4;

fn check_seed(seed: u64) -> Result<(), TestCaseError> {
    let mut r = Rng(SplitMix64::new(seed), 0);
    let g = gen_schema(&mut r);
    let schema_text = schema_text(&g);
    let schema = flatforge_schema::compile_str("gen.fbs", &schema_text)
        .map_err(|e| TestCaseError::fail(format!("{}\n{schema_text}", e.render(false))))?;
    let codec = Codec::new(&schema);
    let root = codec.root_type(None).unwrap();
    let dir = std::env::temp_dir().join(format!(
        "flatforge-json-diff-{}-{seed:016x}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    std::fs::create_dir_all(dir.join("text")).unwrap();
    std::fs::write(dir.join("gen.fbs"), &schema_text).unwrap();
    let docs: Vec<String> = (0..DOCS)
        .map(|_| {
            let mut s = String::new();
            gen_table(&mut r, &g, g.tables.len() - 1, 0, &mut s);
            s
        })
        .collect();
    let names: Vec<String> = (0..DOCS).map(|i| format!("d{i}.json")).collect();
    for (name, doc) in names.iter().zip(&docs) {
        std::fs::write(dir.join(name), doc).unwrap();
    }
    // One flatc run for all documents; if it fails, find out which ones it refuses.
    let mut args = vec!["-b", "-o", "bin", "gen.fbs"];
    args.extend(names.iter().map(String::as_str));
    if run_flatc(&dir, &args).is_err() {
        for name in &names {
            let _ = run_flatc(&dir, &["-b", "-o", "bin", "gen.fbs", name]);
        }
    }
    let mut bins = Vec::new();
    let mut parser = codec.parser(ParseOptions::default());
    for (i, doc) in docs.iter().enumerate() {
        let theirs = std::fs::read(dir.join(format!("bin/d{i}.bin"))).ok();
        let ours = parser.parse(root, doc.as_bytes()).map(<[u8]>::to_vec);
        let context = || format!("seed {seed:#x}\nschema:\n{schema_text}\njson:\n{doc}");
        match (theirs, ours) {
            (Some(theirs), Ok(ours)) => {
                prop_assert!(ours == theirs, "buffers differ\n{}", context());
                bins.push((i, theirs));
            }
            (None, Err(_)) => {}
            (Some(_), Err(e)) => {
                return Err(TestCaseError::fail(format!(
                    "we refuse what flatc accepts: {e}\n{}",
                    context()
                )))
            }
            (None, Ok(_)) => {
                return Err(TestCaseError::fail(format!(
                    "we accept what flatc refuses\n{}",
                    context()
                )))
            }
        }
    }
    if bins.is_empty() {
        return Ok(());
    }
    let bin_names: Vec<String> = bins.iter().map(|(i, _)| format!("bin/d{i}.bin")).collect();
    let mut args = vec![
        "-t",
        "--strict-json",
        "--raw-binary",
        "-o",
        "text",
        "gen.fbs",
        "--",
    ];
    args.extend(bin_names.iter().map(String::as_str));
    run_flatc(&dir, &args).map_err(TestCaseError::fail)?;
    let mut opts = PrintOptions::default();
    opts.float_format = FloatFormat::Flatc;
    opts.non_finite = NonFinite::Bare;
    let mut printer = codec.printer(opts);
    for (i, bin) in &bins {
        let theirs = std::fs::read_to_string(dir.join(format!("text/d{i}.json"))).unwrap();
        let ours = printer
            .print(root, bin)
            .map_err(|e| TestCaseError::fail(format!("seed {seed:#x}: {e}")))?;
        prop_assert_eq!(
            ours,
            theirs.as_str(),
            "printing differs, seed {:#x}\nschema:\n{}\njson:\n{}",
            seed,
            schema_text,
            docs[*i]
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

fn cases() -> u32 {
    std::env::var("FLATFORGE_DIFF_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(24)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        max_shrink_iters: 0,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn flatforge_and_flatc_agree(seed in any::<u64>()) {
        check_seed(seed)?;
    }
}
