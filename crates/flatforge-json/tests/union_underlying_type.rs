//! Unions with an underlying type (`union ABC : int { A = 555, B = 666, C = 777 }`, from
//! union_underlying_type_test.fbs): their type field and the types of a vector of them hold that
//! type, not a `ubyte`, in the verifier, the printer and the parser.
//!
//! flatc 25.12.19 cannot be the reference: `-t` refuses such schemas and `-b` reads the type as a
//! `ubyte`. The reference is the buffer the C++ code flatc generates writes (see
//! flatforge-codegen-tests/tests/data/union_underlying_type.cpp), which holds
//! `{ test_union: B { b: "hello" }, test_vector_of_union: [A { a: 42 }, C { c: true }, B { b: "x" }] }`.

use flatforge::ErrorKind;
use flatforge_json::{Codec, ParseErrorKind, ParseOptions, PrintOptions, RootType, VerifyOptions};
use flatforge_schema::Schema;
use flatforge_testkit::testdata;

const CPP: &[u8] =
    include_bytes!("../../flatforge-codegen-tests/tests/data/union_underlying_type.bin");

/// What the printer makes of [`CPP`].
const CPP_JSON: &str = r#"{
  "test_union_type": "B",
  "test_union": {
    "b": "hello"
  },
  "test_vector_of_union_type": [
    "A",
    "C",
    "B"
  ],
  "test_vector_of_union": [
    {
      "a": 42
    },
    {
      "c": true
    },
    {
      "b": "x"
    }
  ]
}
"#;

/// Where [`CPP`] holds D's type field (an `int`, 666) and the first of its types vector (555).
const CPP_TYPE_AT: usize = 0x14;
const CPP_TYPES_AT: usize = 0x38;

fn abc_schema() -> Schema {
    flatforge_schema::Compiler::new(flatforge_schema::FsLoader)
        .compile(testdata("flatbuffers/tests/union_underlying_type_test.fbs"))
        .expect("union_underlying_type_test.fbs compiles")
        .schema
}

/// Verification that takes a type no member has for a damaged one (by default it passes, unchecked,
/// as a newer schema's member would): the types are what these tests are about.
fn known_members() -> VerifyOptions {
    let mut opts = VerifyOptions::default();
    opts.limits = opts.limits.with_unknown_union_types(false);
    opts
}

fn d(codec: &Codec<'_>) -> RootType {
    codec.root_type(Some("UnionUnderlyingType.D")).unwrap()
}

fn print(codec: &Codec<'_>, root: RootType, bytes: &[u8]) -> String {
    codec
        .printer(PrintOptions::default())
        .print(root, bytes)
        .unwrap_or_else(|e| panic!("does not print: {e}"))
        .to_string()
}

fn parse(codec: &Codec<'_>, root: RootType, json: &str) -> Result<Vec<u8>, ParseErrorKind> {
    codec
        .parser(ParseOptions::default())
        .parse(root, json.as_bytes())
        .map(<[u8]>::to_vec)
        .map_err(|e| e.kind)
}

fn u32_at(buf: &[u8], at: usize) -> usize {
    u32::from_le_bytes(buf[at..at + 4].try_into().unwrap()) as usize
}

/// The root table and its vtable (the vtable's bytes).
fn root_table(buf: &[u8]) -> (usize, &[u8]) {
    let table = u32_at(buf, 0);
    let soffset = i32::from_le_bytes(buf[table..table + 4].try_into().unwrap());
    let vt = (table as i64 - i64::from(soffset)) as usize;
    let len = usize::from(u16::from_le_bytes([buf[vt], buf[vt + 1]]));
    (table, &buf[vt..vt + len])
}

/// The position of field `id` of the root table, if present.
fn field(buf: &[u8], id: usize) -> Option<usize> {
    let (table, vt) = root_table(buf);
    let entry = 4 + 2 * id;
    let off = vt
        .get(entry..entry + 2)
        .map_or(0, |b| u16::from_le_bytes([b[0], b[1]]));
    (off != 0).then_some(table + usize::from(off))
}

/// The `n`-byte little-endian integers of the vector the offset in field `id` points to.
fn int_vector(buf: &[u8], id: usize, n: usize) -> Vec<i128> {
    let at = field(buf, id).expect("present");
    let v = at + u32_at(buf, at);
    (0..u32_at(buf, v))
        .map(|i| int(buf, v + 4 + n * i, n))
        .collect()
}

/// The `n`-byte little-endian integer at `at`, sign-extended.
fn int(buf: &[u8], at: usize, n: usize) -> i128 {
    let mut b = [0u8; 16];
    b[..n].copy_from_slice(&buf[at..at + n]);
    if buf[at + n - 1] & 0x80 != 0 {
        b[n..].fill(0xFF);
    }
    i128::from_le_bytes(b)
}

/// Verifies `bytes`; whatever verifies must print. (Not always as JSON that parses back: a
/// vector of unions may hold NONE, which prints as nothing, as flatc prints it.)
fn check(codec: &Codec<'_>, root: RootType, bytes: &[u8]) -> bool {
    match codec.verify(root, bytes, &known_members()) {
        Ok(()) => {
            print(codec, root, bytes);
            true
        }
        Err(e) => {
            assert!(
                e.offset() <= bytes.len(),
                "error offset past the buffer: {e}"
            );
            false
        }
    }
}

/// Flips and cuts every byte of `good`; returns how many flips were rejected.
fn flip_and_cut(codec: &Codec<'_>, root: RootType, good: &[u8]) -> usize {
    assert!(check(codec, root, good));
    let mut rejected = 0;
    for i in 0..good.len() {
        for x in [0x01u8, 0x80, 0xFF, 0x7F] {
            let mut bad = good.to_vec();
            bad[i] ^= x;
            if !check(codec, root, &bad) {
                rejected += 1;
            }
        }
        check(codec, root, &good[..i]);
    }
    rejected
}

#[test]
fn the_buffer_of_flatcs_cpp_code_verifies_and_prints() {
    let schema = abc_schema();
    let codec = Codec::new(&schema);
    let root = d(&codec);
    codec.verify(root, CPP, &known_members()).expect("verifies");
    assert_eq!(print(&codec, root, CPP), CPP_JSON);
    // Printed with defaults, an absent type is NONE.
    let mut opts = PrintOptions::default();
    opts.defaults = true;
    let none = parse(&codec, root, "{}").unwrap();
    let json = codec.printer(opts).print(root, &none).unwrap().to_string();
    assert_eq!(json, "{\n  \"test_union_type\": \"NONE\"\n}\n");
}

#[test]
fn its_json_parses_back_to_the_same_content_and_layout() {
    let schema = abc_schema();
    let codec = Codec::new(&schema);
    let root = d(&codec);
    let ours = parse(&codec, root, CPP_JSON).expect("parses");
    codec
        .verify(root, &ours, &known_members())
        .expect("verifies");
    assert_eq!(print(&codec, root, &ours), CPP_JSON);
    // The type is an `int` in slot 0 and the types an `[int]` in slot 2, both as C++ has them.
    for buf in [CPP, &ours[..]] {
        let at = field(buf, 0).expect("a type");
        assert_eq!(at % 4, 0);
        assert_eq!(int(buf, at, 4), 666);
        assert_eq!(int_vector(buf, 2, 4), [555, 777, 666]);
    }
    // D's fields in the order flatc's C++ builder adds them (the type among the bytes, last).
    assert_eq!(root_table(&ours).1, root_table(CPP).1);

    // Types as numbers and as qualified names mean the same.
    let numbers = CPP_JSON
        .replace(r#""test_union_type": "B""#, r#""test_union_type": 666"#)
        .replace("\"A\",", "555,")
        .replace("\"C\",", "\"ABC.C\",")
        .replace("\"B\"\n", "\"UnionUnderlyingType.ABC.B\"\n");
    assert_ne!(numbers, CPP_JSON);
    assert_eq!(parse(&codec, root, &numbers).unwrap(), ours);
    // A type after its value, read ahead, and flatc's unquoted dialect.
    let later = r#"{ test_vector_of_union: [{a: 42}, {c: true}, {b: "x"}], test_union: {b: "hello"},
                     test_vector_of_union_type: [A, C, B], test_union_type: B }"#;
    let later = parse(&codec, root, later).unwrap();
    assert_eq!(print(&codec, root, &later), CPP_JSON);
}

#[test]
fn the_type_is_read_whole() {
    let schema = abc_schema();
    let codec = Codec::new(&schema);
    let root = d(&codec);
    let verify = |buf: &[u8]| codec.verify(root, buf, &known_members());
    let with = |at: usize, ty: i32| {
        let mut buf = CPP.to_vec();
        buf[at..at + 4].copy_from_slice(&ty.to_le_bytes());
        buf
    };
    assert_eq!(int(CPP, CPP_TYPE_AT, 4), 666);
    assert_eq!(int(CPP, CPP_TYPES_AT, 4), 555);
    // Each differs from a member in its high bytes only, or is its low byte.
    for ty in [667, 666 + 0x100, 666 + 0x1_0000, 666 | i32::MIN, 154, -1] {
        let e = verify(&with(CPP_TYPE_AT, ty)).unwrap_err();
        assert_eq!(e.kind(), &ErrorKind::UnknownUnionType { value: ty.into() });
        assert_eq!(
            (e.offset(), e.path_string()),
            (CPP_TYPE_AT, "UnionUnderlyingType.D.test_union".into())
        );
        let e = verify(&with(CPP_TYPES_AT, ty)).unwrap_err();
        assert_eq!(e.kind(), &ErrorKind::UnknownUnionType { value: ty.into() });
        assert_eq!(e.offset(), CPP_TYPES_AT);
    }
    // Another member's type: the value is then read as that member (A's `int` in slot 0 where B
    // has the offset of its string).
    let a = with(CPP_TYPE_AT, 555);
    verify(&a).expect("verifies");
    let json = print(&codec, root, &a);
    assert!(
        json.starts_with("{\n  \"test_union_type\": \"A\",\n  \"test_union\": {\n    \"a\": "),
        "{json}"
    );
    // NONE with a value.
    let e = verify(&with(CPP_TYPE_AT, 0)).unwrap_err();
    assert_eq!(e.kind(), &ErrorKind::UnionValueWithoutType);
}

#[test]
fn types_out_of_the_union_or_its_type_are_refused() {
    let schema = abc_schema();
    let codec = Codec::new(&schema);
    let root = d(&codec);
    let one = |ty: &str| {
        parse(
            &codec,
            root,
            &format!("{{ test_union_type: {ty}, test_union: {{}} }}"),
        )
    };
    for (ty, value) in [
        ("556", 556),
        ("154", 154),
        ("-1", -1),
        ("2147483647", i128::from(i32::MAX)),
    ] {
        assert!(
            matches!(one(ty), Err(ParseErrorKind::UnknownUnionType { value: v, .. }) if v == value),
            "{ty}: {:?}",
            one(ty)
        );
    }
    assert!(matches!(
        one("2147483648"),
        Err(ParseErrorKind::OutOfRange { ty: "int", .. })
    ));
    assert!(matches!(
        one("D"),
        Err(ParseErrorKind::UnknownEnumValue { .. })
    ));
    let vector = |ty: &str| {
        parse(
            &codec,
            root,
            &format!(
                "{{ test_vector_of_union_type: [A, {ty}], test_vector_of_union: [{{}}, {{}}] }}"
            ),
        )
    };
    assert!(vector("C").is_ok());
    assert!(matches!(
        vector("778"),
        Err(ParseErrorKind::UnknownUnionType { value: 778, .. })
    ));
    assert!(matches!(
        vector("-2147483649"),
        Err(ParseErrorKind::OutOfRange { ty: "int", .. })
    ));
    // NONE is 0: no type and no value.
    let none = parse(&codec, root, "{ test_union_type: NONE, test_union: null }").unwrap();
    assert_eq!(none, parse(&codec, root, "{}").unwrap());
    assert_eq!(field(&none, 0), None);
    assert!(matches!(
        one("NONE"),
        Err(ParseErrorKind::UnknownUnionType { value: 0, .. })
    ));
    // Written anyway with `force_defaults`, as an `int`.
    let mut opts = ParseOptions::default();
    opts.force_defaults = true;
    let forced = codec
        .parser(opts)
        .parse(root, b"{ test_union_type: NONE }")
        .unwrap()
        .to_vec();
    let at = field(&forced, 0).expect("written");
    assert_eq!((int(&forced, at, 4), at % 4), (0, 0));
    assert!(check(&codec, root, &forced));
}

/// Unions of other underlying types, with extreme and negative values and struct members.
const WIDE: &str = "
table A { a: int; }
table B { b: string; }
struct S { x: short; }
union UB : byte { A = -3, B = 100, S = -128 }
union US : ushort { A = 65535, S = 1 }
union UL : ulong { A = 18446744073709551615, B = 9223372036854775808, S = 1 }
union UI : long { A = -9223372036854775808, B = 5 }
union U8 : ubyte { A = 255, B = 1 }
table T { ub: UB; ubs: [UB]; us: US; ul: UL; uls: [UL]; ui: UI; u8: U8; u8s: [U8]; }
root_type T;
";

const WIDE_JSON: &str = r#"{
  "ub_type": "S",
  "ub": {
    "x": -7
  },
  "ubs_type": [
    "S",
    "B",
    "A"
  ],
  "ubs": [
    {
      "x": 3
    },
    {
      "b": "q"
    },
    {
      "a": 1
    }
  ],
  "us_type": "A",
  "us": {
    "a": 2
  },
  "ul_type": "A",
  "ul": {
    "a": 7
  },
  "uls_type": [
    "B",
    "S"
  ],
  "uls": [
    {
      "b": "r"
    },
    {
      "x": -2
    }
  ],
  "ui_type": "A",
  "ui": {
    "a": 9
  },
  "u8_type": "A",
  "u8": {
    "a": 3
  },
  "u8s_type": [
    "B"
  ],
  "u8s": [
    {
      "b": "s"
    }
  ]
}
"#;

#[test]
fn unions_of_every_integer_type_round_trip() {
    let schema = flatforge_schema::compile_str("wide.fbs", WIDE).unwrap();
    let codec = Codec::new(&schema);
    let root = codec.root_type(None).unwrap();
    let bytes = parse(&codec, root, WIDE_JSON).expect("parses");
    codec
        .verify(root, &bytes, &known_members())
        .expect("verifies");
    assert_eq!(print(&codec, root, &bytes), WIDE_JSON);
    assert_eq!(
        parse(&codec, root, &print(&codec, root, &bytes)).unwrap(),
        bytes
    );
    // Each type field has its union's type (ids: ub_type 0, ubs_type 2, us_type 4, ul_type 6,
    // uls_type 8, ui_type 10, u8_type 12, u8s_type 14).
    let scalar = |id: usize, n: usize| {
        let at = field(&bytes, id).expect("present");
        assert_eq!(at % n, 0, "field {id} aligned");
        int(&bytes, at, n)
    };
    assert_eq!(scalar(0, 1), -128);
    assert_eq!(int_vector(&bytes, 2, 1), [-128, 100, -3]);
    assert_eq!(scalar(4, 2), -1); // 65535
    assert_eq!(scalar(6, 8), -1); // u64::MAX
    assert_eq!(int_vector(&bytes, 8, 8), [i128::from(i64::MIN), 1]); // 1 << 63
    assert_eq!(scalar(10, 8), i128::from(i64::MIN));
    assert_eq!(scalar(12, 1), -1); // 255
    assert_eq!(int_vector(&bytes, 14, 1), [1]);
    // Numbers are read in the union's type.
    let numbers = WIDE_JSON
        .replace(r#""ub_type": "S""#, r#""ub_type": -128"#)
        .replace(r#""ul_type": "A""#, r#""ul_type": 18446744073709551615"#)
        .replace(r#""ui_type": "A""#, r#""ui_type": -9223372036854775808"#)
        .replace(r#""us_type": "A""#, r#""us_type": 65535"#);
    assert_eq!(parse(&codec, root, &numbers).unwrap(), bytes);
    let bad = WIDE_JSON.replace(r#""ul_type": "A""#, r#""ul_type": 18446744073709551614"#);
    assert!(matches!(
        parse(&codec, root, &bad),
        Err(ParseErrorKind::UnknownUnionType {
            value: 18446744073709551614,
            ..
        })
    ));
    let bad = WIDE_JSON.replace(r#""ub_type": "S""#, r#""ub_type": 128"#);
    assert!(matches!(
        parse(&codec, root, &bad),
        Err(ParseErrorKind::OutOfRange { ty: "byte", .. })
    ));
    flip_and_cut(&codec, root, &bytes);
}

#[test]
fn an_explicit_ubyte_union_is_an_ordinary_union() {
    let plain = "table A { a: int; } table B { b: string; } union U { A, B }
                 table T { u: U; us: [U]; } root_type T;";
    let json =
        r#"{ u_type: "B", u: { b: "x" }, us_type: [ "A", 2 ], us: [ { a: 1 }, { b: "y" } ] }"#;
    let plain = flatforge_schema::compile_str("plain.fbs", plain).unwrap();
    let ubyte = "table A { a: int; } table B { b: string; } union U : ubyte { A, B }
                 table T { u: U; us: [U]; } root_type T;";
    let ubyte = flatforge_schema::compile_str("ubyte.fbs", ubyte).unwrap();
    let (plain, ubyte) = (Codec::new(&plain), Codec::new(&ubyte));
    let (p, u) = (
        plain.root_type(None).unwrap(),
        ubyte.root_type(None).unwrap(),
    );
    let bytes = parse(&plain, p, json).unwrap();
    assert_eq!(parse(&ubyte, u, json).unwrap(), bytes);
    assert_eq!(print(&ubyte, u, &bytes), print(&plain, p, &bytes));
    assert_eq!(int(&bytes, field(&bytes, 0).unwrap(), 1), 2);
    assert_eq!(int_vector(&bytes, 2, 1), [1, 2]);
}

#[test]
fn every_byte_flip_and_truncation_is_safe() {
    let schema = abc_schema();
    let codec = Codec::new(&schema);
    let root = d(&codec);
    let rejected = flip_and_cut(&codec, root, CPP);
    assert!(rejected > CPP.len(), "too few flips rejected ({rejected})");
    let ours = parse(&codec, root, CPP_JSON).unwrap();
    let rejected = flip_and_cut(&codec, root, &ours);
    assert!(rejected > ours.len(), "too few flips rejected ({rejected})");
}
