//! Integration tests of `flatforge stream pack | cat | verify | recover` on the built binary, with
//! the TelemetryEvent schema of flatforge-stream's fixtures.

use std::io::Write;
use std::path::{Path, PathBuf};
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

const SCHEMA: &str = "crates/flatforge-stream/fixtures/schemas/telemetry.fbs";

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("flatforge-stream-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

fn s(p: &Path) -> &str {
    p.to_str().expect("UTF-8 temp path")
}

/// JSON lines as `stream cat` prints them (compact strict JSON, default values left out), for
/// events `0..n`.
fn lines(n: u64) -> String {
    (0..n)
        .map(|i| {
            let mut fields = Vec::new();
            if i != 0 {
                fields.push(format!("\"device_id\": {i}"));
            }
            fields.push(format!("\"timestamp\": {}", 1_672_531_200 + i));
            if i != 0 {
                fields.push(format!("\"value\": {:?}", i as f64 * 1.5));
            }
            if i % 3 == 1 {
                fields.push(format!("\"payload\": \"{}\"", "p".repeat(i as usize % 17)));
            }
            if i % 4 == 2 {
                fields.push(format!("\"samples\": [{i},{}]", i * 2));
            }
            format!("{{{}}}\n", fields.join(","))
        })
        .collect()
}

fn pack(input: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["stream", "pack", "-s", SCHEMA, s(input), "-o", s(out)];
    args.extend_from_slice(extra);
    flatforge(&args, None)
}

#[test]
fn pack_then_cat_gives_the_lines_back_for_every_framing() {
    let input = temp("roundtrip.jsonl");
    let expected = lines(40);
    std::fs::write(&input, &expected).unwrap();
    for (name, extra) in [
        ("none.ffs", &["--checksum", "none"][..]),
        ("crc.ffs", &["--checksum", "crc32c"][..]),
        ("xxh3.ffs", &["--checksum", "xxh3", "--no-index"][..]),
        ("plain.bin", &["--plain"][..]),
    ] {
        let out = temp(name);
        let packed = pack(&input, &out, extra);
        assert_eq!(packed.status.code(), Some(0), "{}", text(&packed.stderr));
        let cat = flatforge(&["stream", "cat", "-s", SCHEMA, s(&out)], None);
        assert_eq!(cat.status.code(), Some(0), "{name}: {}", text(&cat.stderr));
        assert_eq!(text(&cat.stdout), expected, "{name}");
        let verify = flatforge(&["stream", "verify", "-s", SCHEMA, s(&out)], None);
        assert_eq!(verify.status.code(), Some(0), "{}", text(&verify.stderr));
        assert!(
            text(&verify.stdout).contains(": 40 frames ("),
            "{}",
            text(&verify.stdout)
        );
    }
    let verify = flatforge(
        &["stream", "verify", "-s", SCHEMA, s(&temp("crc.ffs"))],
        None,
    );
    assert!(text(&verify.stdout).ends_with("40 frames (framed, crc32c checksums, indexed)\n"));
    // Plain output is bare size-prefixed buffers: the first 4 bytes are the first one's length.
    let plain = std::fs::read(temp("plain.bin")).unwrap();
    let first = u32::from_le_bytes(plain[..4].try_into().unwrap()) as usize;
    assert_eq!(&plain[8..12], b"TELE", "the schema's file identifier");
    assert!(first + 4 < plain.len());
}

#[test]
fn cat_and_pack_read_stdin() {
    let input = temp("stdin.jsonl");
    std::fs::write(&input, lines(5)).unwrap();
    let out = temp("stdin.ffs");
    assert_eq!(pack(&input, &out, &[]).status.code(), Some(0));
    let bytes = std::fs::read(&out).unwrap();
    let cat = flatforge(&["stream", "cat", "-s", SCHEMA, "-"], Some(&bytes));
    assert_eq!(cat.status.code(), Some(0), "{}", text(&cat.stderr));
    assert_eq!(text(&cat.stdout), lines(5));
    // Lines from stdin too.
    let piped = flatforge(
        &[
            "stream",
            "pack",
            "-s",
            SCHEMA,
            "-",
            "-o",
            s(&temp("from-stdin.ffs")),
        ],
        Some(lines(3).as_bytes()),
    );
    assert_eq!(piped.status.code(), Some(0), "{}", text(&piped.stderr));
}

#[test]
fn damage_is_reported_with_frame_and_offset() {
    let input = temp("damage.jsonl");
    std::fs::write(&input, lines(10)).unwrap();
    let out = temp("damage.ffs");
    assert_eq!(
        pack(&input, &out, &["--checksum", "xxh3"]).status.code(),
        Some(0)
    );
    let mut bytes = std::fs::read(&out).unwrap();
    // The first frame starts right after the 32-byte header with a 16-byte frame header.
    bytes[32 + 16 + 5] ^= 0x40;
    let damaged = temp("damaged.ffs");
    std::fs::write(&damaged, &bytes).unwrap();
    let verify = flatforge(&["stream", "verify", "-s", SCHEMA, s(&damaged)], None);
    assert_eq!(verify.status.code(), Some(1));
    assert!(
        text(&verify.stderr).contains("checksum mismatch in frame 0 at byte 32: xxh3"),
        "{}",
        text(&verify.stderr)
    );
    let cat = flatforge(&["stream", "cat", "-s", SCHEMA, s(&damaged)], None);
    assert_eq!((cat.status.code(), cat.stdout.len()), (Some(1), 0));
    // Damage with complete frames after it is not cut away.
    let recover = flatforge(&["stream", "recover", s(&damaged)], None);
    assert_eq!(recover.status.code(), Some(1));
    assert!(
        text(&recover.stderr).contains("not truncating"),
        "{}",
        text(&recover.stderr)
    );
    assert_eq!(
        std::fs::read(&damaged).unwrap(),
        bytes,
        "the file is left alone"
    );
}

#[test]
fn recover_cuts_a_torn_tail_and_keeps_every_complete_frame() {
    let input = temp("torn.jsonl");
    std::fs::write(&input, lines(12)).unwrap();
    let out = temp("torn.ffs");
    assert_eq!(pack(&input, &out, &["--no-index"]).status.code(), Some(0));
    let full = std::fs::read(&out).unwrap();
    std::fs::write(&out, &full[..full.len() - 7]).unwrap();
    let verify = flatforge(&["stream", "verify", "-s", SCHEMA, s(&out)], None);
    assert_eq!(verify.status.code(), Some(1));
    assert!(
        text(&verify.stderr).contains("frame 11 at byte"),
        "{}",
        text(&verify.stderr)
    );
    assert!(
        text(&verify.stderr).contains("stream recover"),
        "{}",
        text(&verify.stderr)
    );

    let dry = flatforge(&["stream", "recover", "--dry-run", s(&out)], None);
    assert_eq!(dry.status.code(), Some(0), "{}", text(&dry.stderr));
    assert!(
        text(&dry.stdout).starts_with("would cut"),
        "{}",
        text(&dry.stdout)
    );
    assert_eq!(std::fs::read(&out).unwrap().len(), full.len() - 7);

    let recover = flatforge(&["stream", "recover", "-s", SCHEMA, s(&out)], None);
    assert_eq!(recover.status.code(), Some(0), "{}", text(&recover.stderr));
    assert!(
        text(&recover.stdout).contains("keeping all 11 complete frames"),
        "{}",
        text(&recover.stdout)
    );
    let cat = flatforge(&["stream", "cat", "-s", SCHEMA, s(&out)], None);
    assert_eq!(cat.status.code(), Some(0), "{}", text(&cat.stderr));
    assert_eq!(text(&cat.stdout), lines(11));
    let again = flatforge(&["stream", "recover", s(&out)], None);
    assert_eq!(
        text(&again.stdout),
        format!("intact: `{}`: 11 frames\n", s(&out))
    );
}

#[test]
fn a_stream_of_another_schema_is_refused() {
    let input = temp("schema.jsonl");
    std::fs::write(&input, lines(3)).unwrap();
    let out = temp("schema.ffs");
    assert_eq!(pack(&input, &out, &[]).status.code(), Some(0));
    let other = temp("other.fbs");
    let changed = std::fs::read_to_string(flatforge_testkit::workspace_root().join(SCHEMA))
        .unwrap()
        .replace("samples:[ulong];", "samples:[ulong];\n  extra:int;");
    std::fs::write(&other, changed).unwrap();
    let cat = flatforge(&["stream", "cat", "-s", s(&other), s(&out)], None);
    assert_eq!(cat.status.code(), Some(1));
    assert!(
        text(&cat.stderr).contains("schema hash"),
        "{}",
        text(&cat.stderr)
    );
    // The new field comes last: the old messages read fine once asked to.
    let cat = flatforge(
        &["stream", "cat", "--any-schema", "-s", s(&other), s(&out)],
        None,
    );
    assert_eq!(cat.status.code(), Some(0), "{}", text(&cat.stderr));
    assert_eq!(text(&cat.stdout), lines(3));
}

#[test]
fn bad_input_is_reported_by_line_and_leaves_no_output() {
    let input = temp("bad.jsonl");
    std::fs::write(&input, "{device_id: 1}\n\n{device_id: nope}\n").unwrap();
    let out = temp("bad.ffs");
    let packed = pack(&input, &out, &[]);
    assert_eq!(packed.status.code(), Some(1));
    assert!(
        text(&packed.stderr).contains("bad.jsonl:3:"),
        "{}",
        text(&packed.stderr)
    );
    assert!(!out.exists());
    let usage = flatforge(&["stream", "pack", "-s", SCHEMA, s(&input)], None);
    assert_eq!(usage.status.code(), Some(2));
    let garbage = temp("garbage.ffs");
    std::fs::write(&garbage, b"\x89PNG\r\n\x1a\n not a stream").unwrap();
    let cat = flatforge(&["stream", "cat", "-s", SCHEMA, s(&garbage)], None);
    assert_eq!(cat.status.code(), Some(1));
    assert!(
        text(&cat.stderr).contains("frame 0 at byte 0 is 1196314761 bytes long"),
        "{}",
        text(&cat.stderr)
    );
}

#[test]
fn pack_append_adds_lines_or_leaves_the_stream_as_it_was() {
    let all = lines(30);
    let each: Vec<&str> = all.split_inclusive('\n').collect();
    let (first, rest) = (each[..20].concat(), each[20..].concat());
    for (name, extra) in [
        ("append.ffs", &["--checksum", "xxh3"][..]),
        ("append-plain.bin", &["--plain"][..]),
    ] {
        let out = temp(name);
        let _ = std::fs::remove_file(&out);
        let mut args = extra.to_vec();
        args.push("--append");
        for (part, chunk) in [("a", &first), ("b", &rest)] {
            let input = temp(&format!("{name}.{part}.jsonl"));
            std::fs::write(&input, chunk).unwrap();
            let packed = pack(&input, &out, &args);
            assert_eq!(packed.status.code(), Some(0), "{}", text(&packed.stderr));
        }
        let cat = flatforge(&["stream", "cat", "-s", SCHEMA, s(&out)], None);
        assert_eq!(text(&cat.stdout), all, "{name}");
        // A bad line: nothing of this run is kept.
        let before = std::fs::read(&out).unwrap();
        let bad = temp("append-bad.jsonl");
        // (200 good lines first: whole batches reach the file before the bad one.)
        let lines = format!("{}{{device_id: nope}}\n", "{device_id: 1}\n".repeat(200));
        std::fs::write(&bad, lines).unwrap();
        let packed = pack(&bad, &out, &args);
        assert_eq!(packed.status.code(), Some(1));
        assert!(text(&packed.stderr).contains("append-bad.jsonl:201:"));
        assert_eq!(std::fs::read(&out).unwrap(), before, "{name}");
    }
    // Other options than the stream's: refused, the stream untouched.
    let out = temp("append.ffs");
    let before = std::fs::read(&out).unwrap();
    let input = temp("append.ffs.b.jsonl");
    let packed = pack(&input, &out, &["--append", "--checksum", "crc32c"]);
    assert_eq!(packed.status.code(), Some(1));
    assert!(
        text(&packed.stderr).contains("it has xxh3 checksums, the writer crc32c checksums"),
        "{}",
        text(&packed.stderr)
    );
    assert_eq!(std::fs::read(&out).unwrap(), before);
}

/// While another process appends to a stream (it holds the file's lock), `pack --append`,
/// `pack` over it and `recover` stop with an error and leave it as it is.
#[cfg(unix)]
#[test]
fn a_stream_another_writer_holds_is_left_alone() {
    let out = temp("held.ffs");
    let _ = std::fs::remove_file(&out);
    let input = temp("held.jsonl");
    std::fs::write(&input, lines(5)).unwrap();
    assert_eq!(pack(&input, &out, &[]).status.code(), Some(0));
    let before = std::fs::read(&out).unwrap();

    let holder = std::fs::File::open(&out).unwrap();
    flatforge_stream::lock_file(&holder).unwrap();
    for run in [
        pack(&input, &out, &["--append"]),
        pack(&input, &out, &[]),
        flatforge(&["stream", "recover", s(&out)], None),
    ] {
        let stderr = text(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains("locked by another writer"), "{stderr}");
        assert_eq!(std::fs::read(&out).unwrap(), before);
    }
    let leftovers: Vec<_> = std::fs::read_dir(out.parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("held.ffs.partial")
        })
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    drop(holder);
    let appended = pack(&input, &out, &["--append"]);
    assert_eq!(
        appended.status.code(),
        Some(0),
        "{}",
        text(&appended.stderr)
    );
    let cat = flatforge(&["stream", "cat", "-s", SCHEMA, s(&out)], None);
    assert_eq!(text(&cat.stdout), lines(5).repeat(2));
}
