//! Integration tests of `flatforge nbt show` and `flatforge nbt convert` on the built binary.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn flatforge(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_flatforge"))
        .args(args)
        .current_dir(flatforge_testkit::workspace_root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run flatforge");
    let mut input = child.stdin.take().expect("stdin");
    input
        .write_all(stdin.unwrap_or_default())
        .expect("write stdin");
    drop(input);
    child.wait_with_output().expect("wait")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn nbt_file(name: &str) -> String {
    flatforge_testkit::testdata(&format!("nbt/{name}"))
        .display()
        .to_string()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("flatforge-nbt-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

#[test]
fn show_prints_pretty_snbt_by_default() {
    let out = flatforge(&["nbt", "show", &nbt_file("hello_world.nbt")], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "{\n    name: \"Bananrama\"\n}\n");
}

#[test]
fn show_json_of_gzipped_bigtest() {
    let out = flatforge(
        &["nbt", "show", "--format", "json", &nbt_file("bigtest.nbt")],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("\"longTest\": 9223372036854775807"),
        "{stdout}"
    );
    assert!(stdout.contains("\"name\": \"Eggbert\""), "{stdout}");
}

#[test]
fn convert_between_variants_and_back_is_byte_identical() {
    let original = std::fs::read(nbt_file("bigtest.nbt")).unwrap();
    let (plain, _) = flatforge_nbt::decompress(&original).unwrap();
    let bedrock = temp("bigtest.bedrock.zlib");
    let out = flatforge(
        &[
            "nbt",
            "convert",
            &nbt_file("bigtest.nbt"),
            "-o",
            bedrock.to_str().unwrap(),
            "--to",
            "bedrock",
            "--compression",
            "zlib",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let written = std::fs::read(&bedrock).unwrap();
    assert_eq!(
        flatforge_nbt::Compression::detect(&written),
        flatforge_nbt::Compression::Zlib
    );
    let (nbt, format) = flatforge_nbt::Nbt::from_file_bytes(&written).unwrap();
    assert_eq!(format.variant, flatforge_nbt::Variant::Bedrock);
    assert_eq!(nbt.name, "Level");

    // Back to uncompressed Java through stdin and stdout.
    let out = flatforge(
        &[
            "nbt",
            "convert",
            "-",
            "-o",
            "-",
            "--to",
            "java",
            "--compression",
            "none",
        ],
        Some(&written),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(out.stdout, &*plain);
}

#[test]
fn network_variants_convert() {
    let out = flatforge(
        &[
            "nbt",
            "convert",
            &nbt_file("complex_player.dat"),
            "-o",
            "-",
            "--to",
            "bedrock-network",
            "--compression",
            "none",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let nbt =
        flatforge_nbt::Nbt::read(&out.stdout, flatforge_nbt::Variant::BedrockNetwork).unwrap();
    let again = flatforge(
        &["nbt", "show", "--from", "bedrock-network", "-"],
        Some(&out.stdout),
    );
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    assert!(!nbt.root().is_empty());
}

#[test]
fn invalid_input_exits_1_with_offset_and_path() {
    let bad = temp("bad.nbt");
    // A compound whose entry "list" is a list of End with length 3.
    std::fs::write(
        &bad,
        [10, 0, 0, 9, 0, 4, b'l', b'i', b's', b't', 0, 0, 0, 0, 3, 0],
    )
    .unwrap();
    let out = flatforge(
        &["nbt", "show", "--from", "java", bad.to_str().unwrap()],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("list of End tags with non-zero length 3 at byte 11 in list"),
        "{stderr}"
    );

    let out = flatforge(&["nbt", "show", "-"], Some(b"not nbt at all"));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("at byte"),
        "{}",
        text(&out.stderr)
    );

    let out = flatforge(&["nbt", "show", "does-not-exist.nbt"], None);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn usage_errors_exit_2() {
    let out = flatforge(
        &[
            "nbt",
            "convert",
            &nbt_file("hello_world.nbt"),
            "-o",
            "-",
            "--to",
            "pocket",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    let out = flatforge(&["nbt", "show"], None);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn convert_reads_snbt_and_json_text() {
    // bigtest as SNBT, back to NBT (the text is detected), and shown again: the same tree.
    let shown = flatforge(&["nbt", "show", &nbt_file("bigtest.nbt")], None);
    assert_eq!(shown.status.code(), Some(0), "{}", text(&shown.stderr));
    let out = flatforge(&["nbt", "convert", "-", "-o", "-"], Some(&shown.stdout));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let (nbt, format) = flatforge_nbt::Nbt::from_file_bytes(&out.stdout).unwrap();
    assert_eq!(format.variant, flatforge_nbt::Variant::Java);
    assert_eq!(format.compression, flatforge_nbt::Compression::None);
    assert_eq!(nbt.name, "");
    let (original, _) =
        flatforge_nbt::Nbt::from_file_bytes(&std::fs::read(nbt_file("bigtest.nbt")).unwrap())
            .unwrap();
    assert_eq!(nbt.tag, original.tag);

    // JSON, named with --from, to gzipped Bedrock NBT.
    let json = br#"{"name": "Steve", "pos": [0.5, 64.0], "level": 3}"#;
    let out = flatforge(
        &[
            "nbt",
            "convert",
            "--from",
            "json",
            "-",
            "-o",
            "-",
            "--to",
            "bedrock",
            "--compression",
            "gzip",
        ],
        Some(json),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let (nbt, format) = flatforge_nbt::Nbt::from_file_bytes(&out.stdout).unwrap();
    assert_eq!(format.variant, flatforge_nbt::Variant::Bedrock);
    assert_eq!(
        nbt.tag.as_compound().unwrap()["level"],
        flatforge_nbt::Tag::Int(3)
    );

    // Invalid text says where.
    let out = flatforge(
        &["nbt", "convert", "-", "-o", "-"],
        Some(b"{a: 1b, b: [I; 1, 2"),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("error: <stdin>:1:20: SNBT: expected ',' or ']' (in b)"),
        "{err}"
    );
    // Lines and columns count from 1; the path is named; a control character is escaped.
    let out = flatforge(
        &["nbt", "convert", "-", "-o", "-"],
        Some(b"{\n  a: {\n    b: \x00}}"),
    );
    let err = text(&out.stderr);
    assert!(
        err.contains("<stdin>:3:8: SNBT: unexpected character '\\0' (in a.b)"),
        "{err}"
    );

    // JSON, as `nbt show --format json` prints it: read as JSON when the file is named .json,
    // and a hint when it is read as SNBT.
    let json = flatforge(
        &["nbt", "show", "--format", "json", &nbt_file("bigtest.nbt")],
        None,
    );
    let file = temp("bigtest-shown.json");
    std::fs::write(&file, &json.stdout).unwrap();
    let out = flatforge(
        &["nbt", "convert", file.to_str().unwrap(), "--out", "-"],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // And SNBT in a file named .json: a hint the other way.
    let snbt = temp("snbt-named.json");
    std::fs::write(&snbt, "{a: 1b}").unwrap();
    let out = flatforge(&["nbt", "convert", snbt.to_str().unwrap(), "-o", "-"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr)
            .contains("= help: this is SNBT (read as JSON for its .json name): add `--from snbt`"),
        "{}",
        text(&out.stderr)
    );
    let out = flatforge(&["nbt", "convert", "-", "-o", "-"], Some(&json.stdout));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("= help: this is JSON: add `--from json`"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn snbt_nested_too_deep_names_a_shortened_path() {
    let deep = format!("{}1{}", "{a:".repeat(600), "}".repeat(600));
    let out = flatforge(&["nbt", "convert", "-", "-o", "-"], Some(deep.as_bytes()));
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains(
            "<stdin>:1:1537: nesting deeper than 512 compounds and lists \
             (in a.a.a.a.a.a.a.a…(496 more)…a.a.a.a.a.a.a.a)"
        ),
        "{err}"
    );
    assert!(err.len() < 200, "{err}");
}

#[test]
fn text_input_may_start_with_a_byte_order_mark() {
    for (name, body) in [("bom.snbt", "{a: 1}"), ("bom.json", r#"{"a": 1}"#)] {
        let file = temp(name);
        std::fs::write(&file, format!("\u{feff}{body}")).unwrap();
        let out = flatforge(&["nbt", "convert", file.to_str().unwrap(), "-o", "-"], None);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let nbt = flatforge_nbt::Nbt::read(&out.stdout, flatforge_nbt::Variant::Java).unwrap();
        assert_eq!(
            nbt.tag.as_compound().unwrap()["a"],
            flatforge_nbt::Tag::Int(1)
        );
    }
    // Columns do not count the mark.
    let out = flatforge(
        &["nbt", "convert", "-", "-o", "-"],
        Some("\u{feff}{a: ?}".as_bytes()),
    );
    let err = text(&out.stderr);
    assert!(
        err.contains("<stdin>:1:5: SNBT: unexpected character '?' (in a)"),
        "{err}"
    );
    let out = flatforge(
        &["nbt", "convert", "--from", "json", "-", "-o", "-"],
        Some("\u{feff}{\"a\": ?}".as_bytes()),
    );
    let err = text(&out.stderr);
    assert!(err.contains("expected value at line 1 column 7"), "{err}");
}

#[test]
fn json_errors_say_json_once() {
    // A Float NaN: JSON has no number for it.
    let nan = temp("nan.nbt");
    std::fs::write(&nan, b"\x0a\x00\x00\x05\x00\x01f\x7f\xc0\x00\x00\x00").unwrap();
    let out = flatforge(
        &["nbt", "show", "--format", "json", nan.to_str().unwrap()],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.starts_with("error: cannot show "), "{err}");
    assert!(
        err.contains("nan.nbt: NaN or infinite float cannot be written as JSON in f"),
        "{err}"
    );
    let out = flatforge(
        &["nbt", "convert", "--from", "json", "-", "-o", "-"],
        Some(b"[1,"),
    );
    let err = text(&out.stderr);
    assert!(
        err.contains("error: <stdin> is not valid JSON for NBT: EOF while parsing"),
        "{err}"
    );
}

#[test]
fn a_cut_bedrock_level_dat_blames_its_header() {
    let cut = temp("cut.dat");
    std::fs::write(&cut, b"\x0a\0\0\0\x0c\0\0\0\x0a\0\0\x03\x01\0a\x05\0").unwrap();
    for from in [&[][..], &["--from", "bedrock"]] {
        let mut args = vec!["nbt", "show"];
        args.extend_from_slice(from);
        args.push(cut.to_str().unwrap());
        let out = flatforge(&args, None);
        assert_eq!(out.status.code(), Some(1));
        let err = text(&out.stderr);
        assert!(
            err.contains("claims 12 bytes of NBT, but the file has 9 after it"),
            "{err}"
        );
    }
}

#[test]
fn text_given_as_binary_nbt_gets_a_hint() {
    // SNBT starting with a line feed (the Compound tag type) is not detected as text.
    let out = flatforge(&["nbt", "convert", "-", "-o", "-"], Some(b"\n{a: 1}"));
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("= help: this is SNBT, not binary NBT: add `--from snbt`"),
        "{err}"
    );
    let out = flatforge(
        &["nbt", "convert", "--from", "bedrock", "-", "-o", "-"],
        Some(b"\t{\"a\": 1}"),
    );
    let err = text(&out.stderr);
    assert!(
        err.contains("= help: this is JSON, not binary NBT: add `--from json`"),
        "{err}"
    );
    // `nbt show` reads binary NBT only.
    let snbt = temp("shown.snbt");
    std::fs::write(&snbt, "{a: 1b}").unwrap();
    let out = flatforge(&["nbt", "show", snbt.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("invalid tag type 123 at byte 0"), "{err}");
    assert!(
        err.contains(
            "= help: this is SNBT, not binary NBT: `nbt show` reads only binary NBT, \
             `nbt convert --from snbt` reads SNBT"
        ),
        "{err}"
    );
    // Binary input gets no such hint.
    let out = flatforge(&["nbt", "show", "-"], Some(b"\n\0\x05"));
    assert!(!text(&out.stderr).contains("help"), "{}", text(&out.stderr));
}

#[test]
fn snbt_and_json_file_names_say_text() {
    for (name, body) in [("lf.snbt", "\n{a: 1}"), ("tab.json", "\t{\"a\": 1}")] {
        let file = temp(name);
        std::fs::write(&file, body).unwrap();
        let out = flatforge(&["nbt", "convert", file.to_str().unwrap(), "-o", "-"], None);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let nbt = flatforge_nbt::Nbt::read(&out.stdout, flatforge_nbt::Variant::Java).unwrap();
        assert_eq!(
            nbt.tag.as_compound().unwrap()["a"],
            flatforge_nbt::Tag::Int(1)
        );
    }
    // Binary NBT under such a name is still read as binary.
    let binary = temp("binary.snbt");
    std::fs::copy(nbt_file("hello_world.nbt"), &binary).unwrap();
    let out = flatforge(
        &["nbt", "convert", binary.to_str().unwrap(), "-o", "-"],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        out.stdout,
        std::fs::read(nbt_file("hello_world.nbt")).unwrap()
    );
}
