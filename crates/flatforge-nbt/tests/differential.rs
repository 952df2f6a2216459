//! Differential test against a reference implementation, amulet-nbt 2.1.8 (Python; `scripts/setup`
//! installs it with pip), driven through `tests/amulet_reference.py`.
//!
//! A fixed, seeded set of generated trees (every tag type, empty and nested lists of every element type,
//! names and strings with NUL, non-BMP characters and near the 65,535-byte limit, extreme integers, NaN
//! payloads, -0.0, subnormals) goes both ways in Java, Java network and Bedrock NBT: the reference reads our
//! bytes and must find the same tree, its own encoding of the tree must be byte-identical to ours, and we
//! must read its bytes back to the tree; the same through gzip for Java and Bedrock. Strings the format
//! cannot hold must be refused by both writers, and a lone surrogate, which the reference writes, must be
//! refused by our reader.
//!
//! Not covered here: Bedrock network NBT (amulet-nbt has no varint variant) and SNBT (amulet-nbt 2.1.8 reads
//! SNBT unlike Minecraft: numbers that overflow wrap, `\` escapes stay in the text, `NaN` prints as
//! `nanf`), which the crate's other tests check against Minecraft's rules.
//!
//! Like the flatc tests, this one fails when the reference is missing, saying how to install it.

use std::io::Write;
use std::process::{Command, Stdio};

use flatforge_nbt::{Compound, Compression, Format, List, Nbt, Tag, Variant};
use flatforge_testkit::SplitMix64;
use serde_json::{json, Value};

const REFERENCE_VERSION: &str = "2.1.8";
const HINT: &str = "install the reference with `python3 -m pip install amulet-nbt==2.1.8` \
                    (scripts/setup does this)";

fn script() -> String {
    format!("{}/tests/amulet_reference.py", env!("CARGO_MANIFEST_DIR"))
}

/// Runs the reference script on `input` (JSON lines) and returns its answers.
fn reference(input: String) -> Vec<Value> {
    let version = Command::new("python3")
        .args([&script(), "--version"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run python3 ({e}): {HINT}"));
    let found = String::from_utf8_lossy(&version.stdout);
    assert!(
        version.status.success() && found.trim() == REFERENCE_VERSION,
        "amulet-nbt {REFERENCE_VERSION} is needed, found {:?} ({}): {HINT}",
        found.trim(),
        String::from_utf8_lossy(&version.stderr).trim()
    );
    let mut child = Command::new("python3")
        .arg(script())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the reference script");
    let mut stdin = child.stdin.take().expect("stdin");
    // Written from another thread: the answers must be read while the requests are still going in.
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("run the reference script");
    writer
        .join()
        .expect("writer thread")
        .expect("write requests");
    assert!(
        out.status.success(),
        "the reference script failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("UTF-8 answers")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON answer"))
        .collect()
}

/// A seeded generator, so the trees are the same on every run.
struct Rng(SplitMix64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn below(&mut self, n: usize) -> usize {
        self.0.below(n)
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// Edge values half of the time, otherwise any bits.
    fn int(&mut self, edges: &[i64]) -> i64 {
        if self.below(2) == 0 {
            self.pick(edges)
        } else {
            self.next() as i64
        }
    }

    fn i8(&mut self) -> i8 {
        self.int(&[0, 1, -1, i8::MIN.into(), i8::MAX.into()]) as i8
    }

    fn i16(&mut self) -> i16 {
        self.int(&[0, -1, i16::MIN.into(), i16::MAX.into(), 255]) as i16
    }

    fn i32(&mut self) -> i32 {
        self.int(&[0, -1, i32::MIN.into(), i32::MAX.into(), 65_536]) as i32
    }

    fn i64(&mut self) -> i64 {
        self.int(&[0, -1, i64::MIN, i64::MAX, 1 << 53])
    }

    /// Zeros of both signs, infinities, quiet and signalling NaNs with payloads, subnormals, extremes.
    fn f32(&mut self) -> f32 {
        const EDGES: [u32; 10] = [
            0,
            0x8000_0000,
            0x7F80_0000,
            0xFF80_0000,
            0x7FC0_0000,
            0xFFC0_0001,
            0x7FA0_0001,
            0x0000_0001,
            0x7F7F_FFFF,
            0x3EAA_AAAB,
        ];
        f32::from_bits(if self.below(2) == 0 {
            self.pick(&EDGES)
        } else {
            self.next() as u32
        })
    }

    fn f64(&mut self) -> f64 {
        const EDGES: [u64; 9] = [
            0,
            0x8000_0000_0000_0000,
            0x7FF0_0000_0000_0000,
            0xFFF0_0000_0000_0000,
            0x7FF8_0000_0000_0000,
            0x7FF4_0000_0000_0001,
            0x0000_0000_0000_0001,
            0x7FEF_FFFF_FFFF_FFFF,
            0x3FB9_9999_9999_999A,
        ];
        f64::from_bits(if self.below(2) == 0 {
            self.pick(&EDGES)
        } else {
            self.next()
        })
    }

    fn char(&mut self) -> char {
        let ranges: [(u32, u32); 6] = [
            (0x20, 0x7E),
            (0, 0x1F),
            (0x80, 0x7FF),
            (0x800, 0xD7FF),
            (0xE000, 0xFFFF),
            (0x1_0000, 0x10_FFFF),
        ];
        let (lo, hi) = self.pick(&ranges);
        char::from_u32(lo + (self.next() % u64::from(hi - lo + 1)) as u32).expect("a scalar value")
    }

    /// Short strings of mixed characters (NUL, control, 2-, 3- and 4-byte UTF-8), now and then a long one:
    /// at most 65,535 bytes in modified UTF-8 (Java's limit, the stricter one) and often exactly that.
    fn string(&mut self, long: bool) -> String {
        if long && self.below(40) == 0 {
            // 65,535 bytes in modified UTF-8: NUL and ASCII, 3-byte characters, or surrogate pairs (6 bytes).
            return match self.below(3) {
                0 => "\0".repeat(32_767) + "a",
                1 => "\u{20AC}".repeat(21_845),
                _ => "\u{1F600}".repeat(10_922) + "abc",
            };
        }
        let len = self.pick(&[0, 1, 2, 3, 7, 8, 16, 33]);
        (0..len).map(|_| self.char()).collect()
    }

    fn list(&mut self, depth: usize) -> List {
        let deep = depth < 4;
        let n = self.pick(&[0, 1, 2, 5]);
        let element = self.below(if deep { 13 } else { 9 });
        match element {
            0 => List::End,
            1 => List::Byte((0..n).map(|_| self.i8()).collect()),
            2 => List::Short((0..n).map(|_| self.i16()).collect()),
            3 => List::Int((0..n).map(|_| self.i32()).collect()),
            4 => List::Long((0..n).map(|_| self.i64()).collect()),
            5 => List::Float((0..n).map(|_| self.f32()).collect()),
            6 => List::Double((0..n).map(|_| self.f64()).collect()),
            7 => List::ByteArray((0..n).map(|_| self.array(|r| r.i8())).collect()),
            8 => List::String((0..n).map(|_| self.string(false)).collect()),
            9 => List::List((0..n).map(|_| self.list(depth + 1)).collect()),
            10 => List::Compound((0..n).map(|_| self.compound(depth + 1)).collect()),
            11 => List::IntArray((0..n).map(|_| self.array(|r| r.i32())).collect()),
            _ => List::LongArray((0..n).map(|_| self.array(|r| r.i64())).collect()),
        }
    }

    fn array<T>(&mut self, mut f: impl FnMut(&mut Self) -> T) -> Vec<T> {
        let n = self.pick(&[0, 1, 3, 17]);
        (0..n).map(|_| f(self)).collect()
    }

    fn compound(&mut self, depth: usize) -> Compound {
        let mut c = Compound::new();
        for _ in 0..self.pick(&[0, 1, 3, 6]) {
            let name = self.string(false);
            let tag = self.tag(depth);
            c.insert(name, tag);
        }
        c
    }

    fn tag(&mut self, depth: usize) -> Tag {
        match self.below(if depth < 4 { 12 } else { 10 }) {
            0 => Tag::Byte(self.i8()),
            1 => Tag::Short(self.i16()),
            2 => Tag::Int(self.i32()),
            3 => Tag::Long(self.i64()),
            4 => Tag::Float(self.f32()),
            5 => Tag::Double(self.f64()),
            6 => Tag::ByteArray(self.array(|r| r.i8())),
            7 => Tag::String(self.string(true)),
            8 => Tag::IntArray(self.array(|r| r.i32())),
            9 => Tag::LongArray(self.array(|r| r.i64())),
            10 => Tag::List(self.list(depth + 1)),
            _ => Tag::Compound(self.compound(depth + 1)),
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

fn string_json(s: &str) -> Value {
    json!(hex(s.as_bytes()))
}

fn list_json(l: &List) -> Value {
    fn all<T>(v: &[T], f: impl Fn(&T) -> Value) -> Value {
        Value::Array(v.iter().map(f).collect())
    }
    let payloads = match l {
        List::End => json!([]),
        List::Byte(v) => json!(v),
        List::Short(v) => json!(v),
        List::Int(v) => json!(v),
        List::Long(v) => json!(v),
        List::Float(v) => all(v, |x| json!(x.to_bits())),
        List::Double(v) => all(v, |x| json!(x.to_bits())),
        List::ByteArray(v) => json!(v),
        List::String(v) => all(v, |s| string_json(s)),
        List::List(v) => all(v, list_json),
        List::Compound(v) => all(v, compound_json),
        List::IntArray(v) => json!(v),
        List::LongArray(v) => json!(v),
    };
    json!([l.element_type() as u8, payloads])
}

fn compound_json(c: &Compound) -> Value {
    Value::Array(
        c.iter()
            .map(|(k, v)| json!([string_json(k), tag_json(v)]))
            .collect(),
    )
}

/// The tree as the reference script spells it (see its docstring).
fn tag_json(t: &Tag) -> Value {
    let payload = match t {
        Tag::Byte(v) => json!(v),
        Tag::Short(v) => json!(v),
        Tag::Int(v) => json!(v),
        Tag::Long(v) => json!(v),
        Tag::Float(v) => json!(v.to_bits()),
        Tag::Double(v) => json!(v.to_bits()),
        Tag::ByteArray(v) => json!(v),
        Tag::String(s) => string_json(s),
        Tag::List(l) => list_json(l),
        Tag::Compound(c) => compound_json(c),
        Tag::IntArray(v) => json!(v),
        Tag::LongArray(v) => json!(v),
    };
    json!([t.tag_type() as u8, payload])
}

fn root_json(n: &Nbt) -> Value {
    json!({"name": string_json(&n.name), "tag": tag_json(&n.tag)})
}

/// One generated case: the tree, and whether gzip is tried too.
struct Case {
    variant: Variant,
    nbt: Nbt,
    ours: Vec<u8>,
    gzip: Option<Vec<u8>>,
}

fn cases() -> Vec<Case> {
    let mut rng = Rng(SplitMix64::new(0x5EED_0F4A_4DB1_7E00));
    let mut cases = Vec::new();
    for i in 0..300 {
        for variant in [Variant::Java, Variant::JavaNetwork, Variant::Bedrock] {
            let nbt = if variant == Variant::JavaNetwork && i % 3 == 0 {
                // Network NBT's root may be any tag.
                Nbt {
                    name: String::new(),
                    tag: rng.tag(0),
                }
            } else {
                let name = if variant.named_root() {
                    rng.string(false)
                } else {
                    String::new()
                };
                Nbt::new(name, rng.compound(0))
            };
            let ours = nbt.to_vec(variant).expect("a generated tree encodes");
            let gzip = (variant != Variant::JavaNetwork).then(|| {
                nbt.to_file_bytes(&Format::new(variant, Compression::Gzip))
                    .expect("gzip")
            });
            cases.push(Case {
                variant,
                nbt,
                ours,
                gzip,
            });
        }
    }
    cases
}

/// Our reading of `bytes` as the reference script spells trees, or the error.
fn our_reading(bytes: &[u8], variant: Variant, file: bool) -> Value {
    let read = if file {
        Nbt::from_file_bytes_as(bytes, variant).map(|(nbt, format)| {
            assert_eq!(format.compression, Compression::Gzip);
            nbt
        })
    } else {
        Nbt::read(bytes, variant)
    };
    match read {
        Ok(nbt) => root_json(&nbt),
        Err(e) => json!({"error": e.to_string()}),
    }
}

#[test]
fn amulet_nbt_reads_what_we_write_and_writes_the_same_bytes() {
    let cases = cases();
    let mut input = String::new();
    for case in &cases {
        let mut req = json!({
            "variant": case.variant.name(),
            "tree": root_json(&case.nbt),
            "ours": hex(&case.ours),
        });
        if let Some(gzip) = &case.gzip {
            req["ours_gzip"] = json!(hex(gzip));
        }
        input.push_str(&req.to_string());
        input.push('\n');
    }
    let answers = reference(input);
    assert_eq!(answers.len(), cases.len());

    let mut failures = Vec::new();
    let mut check = |what: &str, i: usize, variant: Variant, ok: bool| {
        if !ok {
            failures.push(format!("case {i} ({variant}): {what}"));
        }
    };
    for (i, (case, answer)) in cases.iter().zip(&answers).enumerate() {
        let (v, tree) = (case.variant, root_json(&case.nbt));
        check(
            "the reference reads our bytes as another tree",
            i,
            v,
            answer["read"] == tree,
        );
        let theirs = answer["written"].as_str().map(unhex);
        check(
            "the reference's encoding differs from ours",
            i,
            v,
            theirs.as_deref() == Some(&case.ours[..]),
        );
        if let Some(theirs) = &theirs {
            check(
                "we read the reference's bytes as another tree",
                i,
                v,
                our_reading(theirs, v, false) == tree,
            );
        }
        if case.gzip.is_some() {
            check(
                "the reference reads our gzip file as another tree",
                i,
                v,
                answer["gzip_read"] == tree,
            );
            let gzip = answer["gzip"].as_str().map(unhex);
            check(
                "we read the reference's gzip file as another tree",
                i,
                v,
                gzip.is_some_and(|g| our_reading(&g, v, true) == tree),
            );
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from amulet-nbt:\n{}",
        failures.len(),
        cases.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

/// What the generated set holds, so that a change to the generator cannot drop a kind of case unnoticed.
#[test]
fn the_generated_trees_hold_every_kind_of_edge_case() {
    #[derive(Default)]
    struct Seen {
        tags: [bool; 13],
        elements: [bool; 13],
        empty_lists: [bool; 13],
        nul: bool,
        non_bmp: bool,
        longest: bool,
        signalling_nan: [bool; 2],
        negative_zero: [bool; 2],
        extremes: bool,
    }
    fn string(s: &str, seen: &mut Seen) {
        seen.nul |= s.contains('\0');
        seen.non_bmp |= s.chars().any(|c| u32::from(c) > 0xFFFF);
        seen.longest |= flatforge_nbt::mutf8::encoded_len(s) == 65_535;
    }
    fn f32s(v: &[f32], seen: &mut Seen) {
        for x in v {
            seen.signalling_nan[0] |= x.is_nan() && x.to_bits() & 0x0040_0000 == 0;
            seen.negative_zero[0] |= x.to_bits() == 0x8000_0000;
        }
    }
    fn f64s(v: &[f64], seen: &mut Seen) {
        for x in v {
            seen.signalling_nan[1] |= x.is_nan() && x.to_bits() & 0x0008_0000_0000_0000 == 0;
            seen.negative_zero[1] |= x.to_bits() == 0x8000_0000_0000_0000;
        }
    }
    fn list(l: &List, seen: &mut Seen) {
        let ty = l.element_type() as usize;
        seen.elements[ty] = true;
        seen.empty_lists[ty] |= l.is_empty();
        match l {
            List::Float(v) => f32s(v, seen),
            List::Double(v) => f64s(v, seen),
            List::String(v) => v.iter().for_each(|s| string(s, seen)),
            List::List(v) => v.iter().for_each(|l| list(l, seen)),
            List::Compound(v) => v.iter().for_each(|c| compound(c, seen)),
            List::Long(v) => seen.extremes |= v.contains(&i64::MIN) && v.contains(&i64::MAX),
            _ => {}
        }
    }
    fn compound(c: &Compound, seen: &mut Seen) {
        for (name, value) in c.iter() {
            string(name, seen);
            tag(value, seen);
        }
    }
    fn tag(t: &Tag, seen: &mut Seen) {
        seen.tags[t.tag_type() as usize] = true;
        match t {
            Tag::Float(v) => f32s(&[*v], seen),
            Tag::Double(v) => f64s(&[*v], seen),
            Tag::String(s) => string(s, seen),
            Tag::List(l) => list(l, seen),
            Tag::Compound(c) => compound(c, seen),
            Tag::Long(v) => seen.extremes |= *v == i64::MIN,
            _ => {}
        }
    }
    let mut seen = Seen::default();
    for case in cases() {
        string(&case.nbt.name, &mut seen);
        tag(&case.nbt.tag, &mut seen);
    }
    assert!(seen.tags[1..].iter().all(|&b| b), "every tag type");
    assert!(seen.elements.iter().all(|&b| b), "lists of every type");
    assert!(
        seen.empty_lists.iter().all(|&b| b),
        "empty lists of every type"
    );
    assert!(seen.nul && seen.non_bmp && seen.longest, "strings");
    assert_eq!(seen.signalling_nan, [true; 2], "signalling NaNs");
    assert_eq!(seen.negative_zero, [true; 2], "-0.0");
    assert!(seen.extremes, "extreme longs");
}

#[test]
fn strings_only_the_reference_can_hold_or_neither_can_write() {
    // A lone surrogate: Java's writeUTF (and the reference) write it as 3 bytes; a Rust string cannot hold
    // it, so our reader refuses it with an error rather than changing it.
    let lone = json!({"name": "", "tag": [8, "eda080"]});
    // 65,536 bytes in modified UTF-8 (32,768 NULs): one more than a string's 2-byte length can say.
    let too_long = "\0".repeat(32_768);
    let too_long_tree = json!({"name": "", "tag": [8, hex(too_long.as_bytes())]});
    let mut input = String::new();
    for tree in [&lone, &too_long_tree] {
        input.push_str(&json!({"variant": "java", "tree": tree, "ours": ""}).to_string());
        input.push('\n');
    }
    let answers = reference(input);

    let written = unhex(
        answers[0]["written"]
            .as_str()
            .expect("the reference writes it"),
    );
    assert_eq!(written, [8, 0, 0, 0, 3, 0xED, 0xA0, 0x80]);
    let err = Nbt::read(&written, Variant::Java).expect_err("a lone surrogate");
    assert!(err.to_string().contains("unpaired surrogate"), "{err}");

    assert!(answers[1]["written"]["error"].is_string(), "{}", answers[1]);
    let nbt = Nbt {
        name: String::new(),
        tag: Tag::String(too_long),
    };
    assert!(nbt.to_vec(Variant::Java).is_err());
}
