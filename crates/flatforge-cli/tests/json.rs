//! Integration tests of `flatforge verify`, `flatforge json` and `flatforge binary`: exit codes,
//! streams, files and stdin, and what the messages say.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use flatforge_testkit::testdata;

fn flatforge(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_flatforge"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run flatforge");
    let input = stdin.unwrap_or_default().to_vec();
    let mut pipe = child.stdin.take().unwrap();
    std::thread::spawn(move || pipe.write_all(&input));
    child.wait_with_output().expect("wait")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn monster_args() -> Vec<String> {
    vec![
        "-s".into(),
        path(&testdata("flatbuffers/tests/monster_test.fbs")).into(),
        "-I".into(),
        path(&testdata("flatbuffers/tests/include_test")).into(),
    ]
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("flatforge-cli-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn verify_rejects_the_22_corrupted_buffers_with_path_and_offset() {
    let dir = testdata("flatbuffers/tests/annotated_binary");
    let schema = dir.join("annotated_binary.fbs");
    let mut bad: Vec<PathBuf> = std::fs::read_dir(dir.join("tests"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "bin"))
        .collect();
    bad.sort();
    assert_eq!(bad.len(), 22);
    let good = dir.join("annotated_binary.bin");
    let mut args = vec![
        "verify",
        "--strict-unions",
        "-s",
        path(&schema),
        path(&good),
    ];
    args.extend(bad.iter().map(|b| path(b)));
    let out = flatforge(&args, None);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("ok: ") && stdout.contains("annotated_binary.bin"),
        "{stdout}"
    );
    let stderr = text(&out.stderr);
    for b in &bad {
        let line = stderr
            .lines()
            .find(|l| l.contains(path(b)))
            .unwrap_or_else(|| panic!("{} not reported:\n{stderr}", b.display()));
        assert!(line.contains("invalid: "), "{line}");
        assert!(line.contains(" at byte "), "{line}");
        assert!(line.contains(" in AnnotatedBinary.Foo"), "{line}");
    }
    // Without --strict-unions, the two buffers with a union type outside the schema pass (as a
    // newer schema's members), and the other 20 fail as before.
    args.remove(1);
    let out = flatforge(&args, None);
    let stderr = text(&out.stderr);
    assert_eq!(
        stderr.lines().filter(|l| l.contains("invalid: ")).count(),
        20,
        "{stderr}"
    );
    let stdout = text(&out.stdout);
    for name in [
        "invalid_union_type_value",
        "invalid_vector_union_type_value",
    ] {
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with("ok: ") && l.contains(name)),
            "{stdout}"
        );
    }
    let ok = flatforge(&["verify", "-q", "-s", path(&schema), path(&good)], None);
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok.stderr));
    assert!(ok.stdout.is_empty());
}

#[test]
fn verify_handles_size_prefixes_identifiers_and_stdin() {
    let mon = std::fs::read(testdata("flatbuffers/tests/monsterdata_test.mon")).unwrap();
    let mut args = vec!["verify".to_string()];
    args.extend(monster_args());
    args.push("-".into());
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_eq!(flatforge(&a, Some(&mon)).status.code(), Some(0));
    // Without its identifier the buffer is refused, unless --raw-binary.
    let mut stripped = mon.clone();
    stripped[4..8].copy_from_slice(b"XXXX");
    let out = flatforge(&a, Some(&stripped));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains(r#"file identifier is "XXXX", expected "MONS""#),
        "{}",
        text(&out.stderr)
    );
    assert!(!text(&out.stderr).contains("--size-prefixed"));
    let mut raw = a.clone();
    raw.insert(1, "--raw-binary");
    assert_eq!(flatforge(&raw, Some(&stripped)).status.code(), Some(0));
    // The Go test suite's size-prefixed buffer.
    let sp = testdata("flatbuffers/tests/monsterdata_go_wire.mon.sp");
    let mut sized: Vec<&str> = a[..a.len() - 1].to_vec();
    sized.extend(["--size-prefixed", path(&sp)]);
    let out = flatforge(&sized, None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // Without --size-prefixed, verify and json say what the buffer looks like.
    for command in ["verify", "json"] {
        let mut args = vec![command];
        args.extend(&a[1..a.len() - 1]);
        args.push(path(&sp));
        let out = flatforge(&args, None);
        assert_eq!(out.status.code(), Some(1), "{command}");
        assert!(
            text(&out.stderr).contains(
                "= help: its first 4 bytes hold the length of the rest: add --size-prefixed"
            ),
            "{command}: {}",
            text(&out.stderr)
        );
    }
    // A size prefix that gives fewer bytes than follow it: errors count within those, and a note
    // says so.
    let mut cut = std::fs::read(&sp).unwrap();
    let size = u32::from_le_bytes(cut[..4].try_into().unwrap());
    cut[..4].copy_from_slice(&(size - 8).to_le_bytes());
    let file = temp("sp_cut.bin");
    std::fs::write(&file, &cut).unwrap();
    for command in ["verify", "json"] {
        let mut args = vec![command];
        args.extend(&a[1..a.len() - 1]);
        args.extend(["--size-prefixed", path(&file)]);
        let out = flatforge(&args, None);
        assert_eq!(out.status.code(), Some(1), "{command}");
        let note = format!(
            "= note: the size prefix says {} bytes, so the buffer is the first {} of the file's {} bytes",
            size - 8,
            size - 4,
            cut.len()
        );
        assert!(
            text(&out.stderr).contains(&note),
            "{command}: {}",
            text(&out.stderr)
        );
    }
}

/// Size-prefixed buffers one after another (a plain stream given to `verify` or `json`): the first
/// is read, the rest was ignored without a word and `verify` said "ok" for the whole file. Both
/// warn now, and `verify` says which bytes it checked. `json --compact` ends its line.
#[test]
fn bytes_after_a_size_prefixed_buffer_get_a_warning() {
    let sp = std::fs::read(testdata("flatbuffers/tests/monsterdata_go_wire.mon.sp")).unwrap();
    let two = [&sp[..], &sp[..]].concat();
    for (command, what) in [("verify", "checked"), ("json", "printed")] {
        let mut args = vec![command.to_string(), "--size-prefixed".into()];
        args.extend(monster_args());
        args.push("-".into());
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let one = flatforge(&a, Some(&sp));
        assert_eq!(one.status.code(), Some(0), "{}", text(&one.stderr));
        assert_eq!(text(&one.stderr), "", "{command}");
        let out = flatforge(&a, Some(&two));
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let warning = format!(
            "warning: <stdin>: the size prefix makes the buffer the first {} of its {} bytes; the {} after it were not {what}",
            sp.len(),
            two.len(),
            sp.len()
        );
        let stderr = text(&out.stderr);
        assert!(stderr.contains(&warning), "{command}: {stderr}");
        assert!(
            stderr.contains("`flatforge stream verify --plain`"),
            "{stderr}"
        );
        if command == "verify" {
            let ok = format!(
                "ok: <stdin> (the first {} of {} bytes)\n",
                sp.len(),
                two.len()
            );
            assert_eq!(text(&out.stdout), ok);
        }
    }
    let mut args = vec![
        "json".to_string(),
        "--compact".into(),
        "--size-prefixed".into(),
    ];
    args.extend(monster_args());
    args.push("-".into());
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = flatforge(&a, Some(&sp));
    let json = text(&out.stdout);
    assert!(json.starts_with('{') && json.ends_with("}\n") && json.matches('\n').count() == 1);
}

/// `verify` and `json` read buffers with a 64-bit size prefix (C++'s `FlatBufferBuilder64`, which
/// flatc's `VerifySizePrefixed...Buffer` expects for schemas with 64-bit offsets) with
/// `--size-prefixed64`, and `binary` writes them; with neither option, they say so.
#[test]
fn verify_and_json_read_64_bit_size_prefixes() {
    let schema = testdata("flatbuffers/tests/64bit/test_64bit.fbs");
    let plain = std::fs::read(testdata("flatbuffers/tests/64bit/test_64bit.bin")).unwrap();
    let mut sized = (plain.len() as u64).to_le_bytes().to_vec();
    sized.extend_from_slice(&plain);
    let file = temp("sp64.bin");
    std::fs::write(&file, &sized).unwrap();
    for command in ["verify", "json"] {
        let run = |option: Option<&str>| {
            let mut args = vec![command, "-s", path(&schema)];
            args.extend(option);
            args.push(path(&file));
            flatforge(&args, None)
        };
        let out = run(Some("--size-prefixed64"));
        assert_eq!(
            out.status.code(),
            Some(0),
            "{command}: {}",
            text(&out.stderr)
        );
        // A 32-bit prefix reads the high half of the size as the root offset: 0. The advice
        // names the right option.
        let out = run(Some("--size-prefixed"));
        assert_eq!(out.status.code(), Some(1), "{command}");
        assert!(
            text(&out.stderr).contains("= help: its first 8 bytes hold the length of the rest: use --size-prefixed64 (a 64-bit size prefix), not --size-prefixed"),
            "{command}: {}",
            text(&out.stderr)
        );
        let out = run(None);
        assert_eq!(out.status.code(), Some(1), "{command}");
        assert!(
            text(&out.stderr).contains(
                "= help: its first 8 bytes hold the length of the rest: add --size-prefixed64"
            ),
            "{command}: {}",
            text(&out.stderr)
        );
    }
    let json = flatforge(
        &[
            "json",
            "-s",
            path(&schema),
            "--size-prefixed64",
            path(&file),
        ],
        None,
    );
    let plain_file = temp("sp64_plain.bin");
    std::fs::write(&plain_file, &plain).unwrap();
    let expected = flatforge(&["json", "-s", path(&schema), path(&plain_file)], None);
    assert_eq!(text(&json.stdout), text(&expected.stdout));
    assert!(!json.stdout.is_empty());
    // `binary` writes such a prefix, and the buffer reads back as the file did.
    let json_file = temp("sp64.json");
    std::fs::write(&json_file, &expected.stdout).unwrap();
    let written = temp("sp64_written.bin");
    let out = flatforge(
        &[
            "binary",
            "-s",
            path(&schema),
            "--size-prefixed64",
            "-o",
            path(&written),
            path(&json_file),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let bytes = std::fs::read(&written).unwrap();
    assert_eq!(
        u64::from_le_bytes(bytes[..8].try_into().unwrap()),
        bytes.len() as u64 - 8
    );
    let again = flatforge(
        &[
            "json",
            "-s",
            path(&schema),
            "--size-prefixed64",
            path(&written),
        ],
        None,
    );
    assert_eq!(text(&again.stdout), text(&expected.stdout));
    // The two prefixes exclude each other.
    let out = flatforge(
        &[
            "verify",
            "-s",
            path(&schema),
            "--size-prefixed",
            "--size-prefixed64",
            path(&file),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn binary_of_monsterdata_test_json_is_flatcs_buffer() {
    let out_path = temp("monster.mon");
    let mut args = vec!["binary".to_string()];
    args.extend(monster_args());
    args.extend([
        "-o".into(),
        path(&out_path).into(),
        path(&testdata("flatbuffers/tests/monsterdata_test.json")).into(),
    ]);
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = flatforge(&a, None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let ours = std::fs::read(&out_path).unwrap();
    let flatc = std::fs::read(testdata("flatbuffers/tests/monsterdata_test.mon")).unwrap();
    assert!(
        ours == flatc,
        "flatforge binary differs from monsterdata_test.mon"
    );
}

#[test]
fn json_prints_strict_json_to_stdout_and_reads_it_back() {
    let mut args = vec!["json".to_string()];
    args.extend(monster_args());
    args.push(path(&testdata("flatbuffers/tests/monsterdata_test.mon")).into());
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = flatforge(&a, None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json = text(&out.stdout);
    assert!(
        json.starts_with("{\n  \"pos\": {\n    \"x\": 1.0,"),
        "{json}"
    );
    assert!(json.contains("\"test_type\": \"Monster\""), "{json}");
    assert!(json.contains("-1.7976931348623157e308"), "{json}");
    // Back to binary through stdin, and printed again: the same text.
    let mut args = vec!["binary".to_string()];
    args.extend(monster_args());
    args.push("-".into());
    let b: Vec<&str> = args.iter().map(String::as_str).collect();
    let bin = flatforge(&b, Some(json.as_bytes()));
    assert_eq!(bin.status.code(), Some(0), "{}", text(&bin.stderr));
    let mut again: Vec<&str> = a[..a.len() - 1].to_vec();
    again.push("-");
    let out = flatforge(&again, Some(&bin.stdout));
    assert_eq!(text(&out.stdout), json);
    // Non-strict style.
    let mut plain = a.clone();
    plain.insert(1, "--non-strict");
    let out = flatforge(&plain, None);
    assert!(text(&out.stdout).starts_with("{\n  pos: {\n    x: 1.0,"));
}

#[test]
fn bad_json_is_reported_with_line_column_and_a_caret() {
    let mut args = vec!["binary".to_string()];
    args.extend(monster_args());
    args.push("-".into());
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = flatforge(&a, Some(b"{\n  name: \"x\",\n  hp: 99999\n}\n"));
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("<stdin>:3:7: 99999 does not fit `short`"),
        "{err}"
    );
    assert!(err.contains("  hp: 99999\n      |       ^"), "{err}");
    assert!(out.stdout.is_empty());
    let out = flatforge(&a, Some(b"{ nme: \"x\" }"));
    let err = text(&out.stderr);
    assert!(err.contains("unknown field `nme`"), "{err}");
    // Names the schema has are suggested.
    assert!(err.contains("= help: did you mean `name`?"), "{err}");
    assert!(err.contains("= help: --unknown-json skips fields"), "{err}");
    let err = text(&flatforge(&a, Some(b"{ name: \"x\", color: Purple }")).stderr);
    assert!(
        err.contains("= help: its values: Red, Green, Blue"),
        "{err}"
    );
    let err = text(&flatforge(&a, Some(b"{ name: \"x\", color: Gren }")).stderr);
    assert!(err.contains("= help: did you mean `Green`?"), "{err}");
    let err = text(&flatforge(&a, Some(b"{ name: \"x\", test: { name: \"y\" } }")).stderr);
    assert!(
        err.contains("= help: `test_type` names the member: Monster, TestSimpleTableWithEnum, "),
        "{err}"
    );
    let mut unknown = a.clone();
    unknown.insert(1, "--unknown-json");
    let out = flatforge(&unknown, Some(b"{ nme: \"x\", name: \"y\" }"));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // Control characters reach the terminal neither in the message nor in the snippet (`?` in
    // their place); a binary file gets no snippet.
    let err = text(&flatforge(&a, Some(b"{ name: \"\x1b[2J\", hp: 1 }")).stderr);
    assert!(err.contains("| { name: \"?[2J\", hp: 1 }\n"), "{err}");
    let err2 = text(&flatforge(&a, Some(b"{ name: \"a\", hp: \x01 }")).stderr);
    assert!(
        err2.contains("expected an integer, found '\\u{1}'"),
        "{err2}"
    );
    assert!(err2.contains("| { name: \"a\", hp: ? }\n"), "{err2}");
    assert!(!(err + &err2).contains(['\x1b', '\x01']));
    // A FlatBuffer given to `binary`: no snippet, a hint.
    let mon = std::fs::read(testdata("flatbuffers/tests/monsterdata_test.mon")).unwrap();
    let err = text(&flatforge(&a, Some(&mon)).stderr);
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(err.contains("= help: this looks like binary data, not JSON: `flatforge json"));
    // And JSON given to `json` or `verify`: a hint the other way.
    let json = std::fs::read(testdata("flatbuffers/tests/monsterdata_test.json")).unwrap();
    for command in ["json", "verify"] {
        let mut args = vec![command];
        args.extend(&a[1..]);
        let err = text(&flatforge(&args, Some(&json)).stderr);
        assert!(
            err.contains("= help: this looks like JSON text: `flatforge binary"),
            "{command}: {err}"
        );
    }
}

#[test]
fn invalid_buffers_and_usage_errors() {
    let mut args = vec!["json".to_string()];
    args.extend(monster_args());
    args.push("-".into());
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = flatforge(&a, Some(&[1, 2, 3]));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("invalid buffer"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(flatforge(&["json", "x.bin"], None).status.code(), Some(2));
    assert_eq!(flatforge(&["binary"], None).status.code(), Some(2));
    assert_eq!(
        flatforge(&["verify", "-s", "a.fbs"], None).status.code(),
        Some(2)
    );
    // The union hint finds the union field of that name, not another table's field.
    let schema = temp("union_hint.fbs");
    std::fs::write(
        &schema,
        "enum C : byte { R } table A { test: C; } table W { x: int; } union U { W } \
         table M { test: U; } root_type M;",
    )
    .unwrap();
    let err = text(
        &flatforge(
            &["binary", "-s", path(&schema), "-"],
            Some(b"{ test: { x: 1 } }"),
        )
        .stderr,
    );
    assert!(
        err.contains("= help: `test_type` names the member: W"),
        "{err}"
    );
    // Usage errors are found before the schema is read (exit 2 with a missing one too).
    let out = flatforge(&["verify", "-s", "no/such.fbs", "-", "-"], Some(&[]));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let out = flatforge(
        &[
            "stream",
            "pack",
            "-s",
            "no/such.fbs",
            "--append",
            "-o",
            "-",
            "x",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    // stdin holds the data: `-s -` and `-` twice are usage errors.
    let out = flatforge(&["json", "-s", "-", "x.bin"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("a schema file, not stdin"));
    let mut twice: Vec<&str> = vec!["verify"];
    twice.extend(&a[1..a.len() - 1]);
    twice.extend(["-", "-"]);
    let out = flatforge(&twice, Some(&[]));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("`-` (stdin) given more than once"));
    let mut wrong_root = a.clone();
    wrong_root.insert(1, "--root-type");
    wrong_root.insert(2, "Nope");
    let out = flatforge(&wrong_root, Some(&[]));
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("no table named `Nope`"), "{err}");
    // The message names the tables it could be.
    assert!(
        err.contains("(its tables: MyGame.Example.Monster, "),
        "{err}"
    );
    // The end of a full name will do, when it names one table; an ambiguous one, an enum or a
    // struct gets its own message.
    for (root, code, message) in [
        ("Example.Monster", 0, ""),
        (
            "Monster",
            2,
            "`Monster` could be MyGame.Example.Monster or MyGame.Example2.Monster: give the full name",
        ),
        ("Color", 2, "`Color` is an enum or union; a root type must be a table"),
        ("Vec3", 2, "`MyGame.Example.Vec3` is a struct; a root type must be a table"),
    ] {
        wrong_root[2] = root;
        let mon = std::fs::read(testdata("flatbuffers/tests/monsterdata_test.mon")).unwrap();
        let out = flatforge(&wrong_root, Some(&mon));
        assert_eq!(out.status.code(), Some(code), "{root}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains(message), "{}", text(&out.stderr));
    }
}

/// A deprecated field that does not verify leaves the printout, with the others: `json` says so
/// in a warning (the buffer is valid; nothing reads such a field). v1 data of the evolution
/// schema, where `a` is live, damaged in `a` and printed with v2, where `a` is deprecated.
#[test]
fn json_warns_when_it_leaves_out_deprecated_fields() {
    let v1 = testdata("flatbuffers/tests/evolution_test/evolution_v1.fbs");
    let v2 = testdata("flatbuffers/tests/evolution_test/evolution_v2.fbs");
    let json = temp("evolution_a.json");
    std::fs::write(&json, "{ a: 42, b: true }").unwrap();
    let bin = temp("evolution_a.bin");
    let out = flatforge(
        &["binary", "-s", path(&v1), "-o", path(&bin), path(&json)],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let print = || flatforge(&["json", "-s", path(&v2), "--compact", path(&bin)], None);
    let out = print();
    assert_eq!(text(&out.stdout), "{\"a\": 42,\"b\": true}\n");
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    // Point `a` (the first vtable entry) at the table's end: misaligned for an int.
    let mut bytes = std::fs::read(&bin).unwrap();
    let table = u32::from_le_bytes(bytes[..4].try_into().unwrap()) as usize;
    let vtable = (table as i64
        - i64::from(i32::from_le_bytes(
            bytes[table..table + 4].try_into().unwrap(),
        ))) as usize;
    let entry = u16::from_le_bytes(bytes[vtable + 4..vtable + 6].try_into().unwrap());
    bytes[vtable + 4..vtable + 6].copy_from_slice(&(entry + 1).to_le_bytes());
    std::fs::write(&bin, &bytes).unwrap();
    let out = print();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "{\"b\": true}\n");
    assert!(
        text(&out.stderr).starts_with(&format!(
            "warning: {}: deprecated fields left out, as one does not verify: ",
            bin.display()
        )),
        "{}",
        text(&out.stderr)
    );
}

/// A write that fails (here: the file size limit, `ulimit -f 0`) leaves the previous output as it
/// was and no temporary file: `binary -o` created the file first and wrote into it, so a failure
/// destroyed the good file it replaced.
#[cfg(target_os = "linux")]
#[test]
fn a_failed_write_leaves_the_previous_output() {
    let out = temp("kept.bin");
    let mut args = vec!["binary".to_string()];
    args.extend(monster_args());
    args.extend(["-o".into(), path(&out).into()]);
    args.push(path(&testdata("flatbuffers/tests/monsterdata_test.json")).into());
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_eq!(flatforge(&a, None).status.code(), Some(0));
    let before = std::fs::read(&out).unwrap();
    // SIGXFSZ ignored, so the write fails with EFBIG instead of killing the process.
    let script = "trap '' XFSZ; ulimit -f 0; exec \"$0\" \"$@\"";
    let failed = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_flatforge"))
        .args(&a)
        .output()
        .unwrap();
    assert_eq!(failed.status.code(), Some(1), "{}", text(&failed.stderr));
    assert!(text(&failed.stderr).contains(&format!("cannot write `{}`", path(&out))));
    assert_eq!(std::fs::read(&out).unwrap(), before);
    let leftovers = std::fs::read_dir(out.parent().unwrap())
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            name.to_string_lossy().starts_with("kept.bin.partial")
        })
        .count();
    assert_eq!(leftovers, 0);
}
