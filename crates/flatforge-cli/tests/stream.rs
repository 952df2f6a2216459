//! Integration tests of `flatforge stream pack | cat | verify | recover` on the built binary, with
//! the TelemetryEvent schema of flatforge-stream's fixtures.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn flatforge(args: &[&str], stdin: Option<&[u8]>) -> Output {
    flatforge_in(
        &flatforge_testkit::workspace_root(),
        args,
        stdin,
        Stdio::piped(),
    )
}

/// Runs flatforge in `dir`, its stdout going to `stdout`.
fn flatforge_in(dir: &Path, args: &[&str], stdin: Option<&[u8]>, stdout: Stdio) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_flatforge"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(stdout)
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
    // Stdin is named `<stdin>`, as the other commands name it.
    let verify = flatforge(&["stream", "verify", "-s", SCHEMA, "-"], Some(&bytes));
    assert_eq!(
        text(&verify.stdout),
        format!("ok: `<stdin>`: 5 frames (framed, crc32c checksums, indexed)\n")
    );
    let bad = flatforge(
        &[
            "stream",
            "pack",
            "-s",
            SCHEMA,
            "-",
            "-o",
            s(&temp("bad-stdin.ffs")),
        ],
        Some(b"{\"nope\": 1}\n"),
    );
    assert!(
        text(&bad.stderr).contains("error: <stdin>:1:2:"),
        "{}",
        text(&bad.stderr)
    );
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
    // A process that another test spawned while `holder` was open shares the lock until it
    // execs (fork copies the descriptor): wait until the lock is free, as a user would retry.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let probe = std::fs::File::open(&out).unwrap();
        match flatforge_stream::lock_file(&probe) {
            Ok(()) => break,
            Err(_) if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(10))
            }
            Err(e) => panic!("the lock stays taken: {e}"),
        }
    }
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

/// The schema's path from any directory.
fn schema_path() -> String {
    let path = flatforge_testkit::workspace_root().join(SCHEMA);
    path.to_str().expect("UTF-8 path").to_owned()
}

/// The TelemetryEvent schema with one more field: another schema hash.
fn changed_schema(name: &str) -> PathBuf {
    let path = temp(name);
    let changed = std::fs::read_to_string(flatforge_testkit::workspace_root().join(SCHEMA))
        .unwrap()
        .replace("samples:[ulong];", "samples:[ulong];\n  extra:int;");
    std::fs::write(&path, changed).unwrap();
    path
}

/// `-o -` writes the stream to stdout, as `-o -` does for `json`, `binary` and `nbt convert`: no
/// file named `-` is left behind, and `--append` (which needs a file) is a usage error.
#[test]
fn pack_to_dash_writes_the_stream_to_stdout() {
    let input = temp("to-stdout.jsonl");
    std::fs::write(&input, lines(6)).unwrap();
    let cwd = temp("to-stdout-cwd");
    std::fs::create_dir_all(&cwd).unwrap();
    let schema = schema_path();
    for (name, extra) in [
        ("to-stdout.ffs", &[][..]),
        ("to-stdout.bin", &["--plain"][..]),
    ] {
        let file = temp(name);
        assert_eq!(pack(&input, &file, extra).status.code(), Some(0));
        let mut args = vec!["stream", "pack", "-s", &schema, s(&input), "-o", "-"];
        args.extend_from_slice(extra);
        let packed = flatforge_in(&cwd, &args, None, Stdio::piped());
        assert_eq!(packed.status.code(), Some(0), "{}", text(&packed.stderr));
        assert_eq!(packed.stdout, std::fs::read(&file).unwrap(), "{name}");
        assert!(
            text(&packed.stderr).contains("stdout"),
            "{}",
            text(&packed.stderr)
        );
        assert!(!cwd.join("-").exists(), "a file named `-` was written");
        let cat = flatforge(&["stream", "cat", "-s", SCHEMA, "-"], Some(&packed.stdout));
        assert_eq!(text(&cat.stdout), lines(6), "{}", text(&cat.stderr));
    }
    let args = [
        "stream",
        "pack",
        "-s",
        &schema,
        s(&input),
        "-o",
        "-",
        "--append",
    ];
    let append = flatforge_in(&cwd, &args, None, Stdio::piped());
    assert_eq!(append.status.code(), Some(2), "{}", text(&append.stderr));
    assert!(
        text(&append.stderr).contains("--append"),
        "{}",
        text(&append.stderr)
    );
    assert!(append.stdout.is_empty());
    assert!(!cwd.join("-").exists(), "a file named `-` was written");
}

/// An output that is not a regular file (a FIFO, a device such as /dev/null) is written in place:
/// a temporary file renamed over it would replace it.
#[cfg(target_os = "linux")]
#[test]
fn pack_writes_into_a_fifo_without_replacing_it() {
    use std::io::Read;
    use std::os::unix::fs::FileTypeExt;
    let input = temp("fifo.jsonl");
    std::fs::write(&input, lines(4)).unwrap();
    let file = temp("fifo.ffs");
    assert_eq!(pack(&input, &file, &[]).status.code(), Some(0));
    let expected = std::fs::read(&file).unwrap();
    let fifo = temp("out.fifo");
    let _ = std::fs::remove_file(&fifo);
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    // Open for reading and writing, which Linux does without waiting for the other end: opening
    // it again, for either, does not wait then (the stream is smaller than the pipe's buffer).
    let mut end = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&fifo)
        .unwrap();
    let packed = pack(&input, &fifo, &[]);
    assert_eq!(packed.status.code(), Some(0), "{}", text(&packed.stderr));
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced: {kind:?}");
    let mut got = vec![0; expected.len()];
    end.read_exact(&mut got).unwrap();
    assert_eq!(got, expected);
}

/// A stream written with an older schema: `cat` and `verify` point at `--any-schema`, and
/// `pack --append` (whose header would then declare the wrong schema) refuses and says how to
/// continue the stream with the new schema.
#[test]
fn a_changed_schema_is_refused_with_the_way_out() {
    let input = temp("changed.jsonl");
    std::fs::write(&input, lines(3)).unwrap();
    let out = temp("changed.ffs");
    assert_eq!(pack(&input, &out, &[]).status.code(), Some(0));
    let before = std::fs::read(&out).unwrap();
    let other = changed_schema("changed.fbs");
    for command in ["cat", "verify"] {
        let run = flatforge(&["stream", command, "-s", s(&other), s(&out)], None);
        let stderr = text(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains("schema hash"), "{stderr}");
        assert!(stderr.contains("--any-schema"), "{command}: {stderr}");
    }
    let args = [
        "stream",
        "pack",
        "--append",
        "-s",
        s(&other),
        s(&input),
        "-o",
        s(&out),
    ];
    let append = flatforge(&args, None);
    let stderr = text(&append.stderr);
    assert_eq!(append.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("schema hash"), "{stderr}");
    assert!(stderr.contains("stream cat --any-schema"), "{stderr}");
    assert_eq!(std::fs::read(&out).unwrap(), before);
    // Other options than the stream's, with the same schema: no word of the schema.
    for extra in [&["--plain"][..], &["--checksum", "xxh3"][..]] {
        let append = pack(&input, &out, &[&["--append"][..], extra].concat());
        let stderr = text(&append.stderr);
        assert_eq!(append.status.code(), Some(1), "{stderr}");
        assert!(!stderr.contains("--any-schema"), "{stderr}");
    }
    assert_eq!(std::fs::read(&out).unwrap(), before);
}

/// `verify` reports each invalid message of an intact stream, the first 20 of them, then how
/// many there are.
#[test]
fn verify_shows_the_first_20_invalid_messages() {
    let opts = flatforge_stream::WriterOptions::default();
    let mut w = flatforge_stream::StreamWriter::new(Vec::new(), opts).unwrap();
    for _ in 0..30 {
        w.write_message(&[0xFF; 16]).unwrap(); // framed, but no TelemetryEvent
    }
    let bad = temp("thirty-bad.ffs");
    std::fs::write(&bad, w.finish().unwrap()).unwrap();
    let verify = flatforge(&["stream", "verify", "-s", SCHEMA, s(&bad)], None);
    let stderr = text(&verify.stderr);
    assert_eq!(verify.status.code(), Some(1), "{stderr}");
    assert_eq!(
        stderr.matches("invalid message in frame").count(),
        20,
        "{stderr}"
    );
    assert!(
        stderr.contains("invalid message in frame 19 at"),
        "{stderr}"
    );
    assert!(
        stderr.contains("30 of 30 messages are invalid (the first 20 are shown)"),
        "{stderr}"
    );
}

/// A file of zeros, and a plain stream with a zero-filled tail (what a crash often leaves): the
/// zeros are damage, reported once where they start; `recover --plain` cuts them off, keeping
/// every buffer, and `pack --append` refuses to write after them.
#[test]
fn zero_filled_files_and_tails_are_damage() {
    let zeros = temp("zeros.bin");
    std::fs::write(&zeros, vec![0u8; 64 << 10]).unwrap();
    let verify = flatforge(&["stream", "verify", "-s", SCHEMA, s(&zeros)], None);
    let stderr = text(&verify.stderr);
    assert_eq!(verify.status.code(), Some(1), "{stderr}");
    assert!(stderr.lines().count() <= 3, "{stderr}");
    assert!(stderr.contains("frame 0 at byte 0"), "{stderr}");

    let input = temp("zero-tail.jsonl");
    std::fs::write(&input, lines(5)).unwrap();
    let out = temp("zero-tail.bin");
    assert_eq!(pack(&input, &out, &["--plain"]).status.code(), Some(0));
    let mut bytes = std::fs::read(&out).unwrap();
    let end = bytes.len();
    bytes.resize(end + 4096, 0);
    std::fs::write(&out, &bytes).unwrap();
    let verify = flatforge(&["stream", "verify", "-s", SCHEMA, s(&out)], None);
    let stderr = text(&verify.stderr);
    assert_eq!(verify.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("frame 5 at byte {end}")),
        "{stderr}"
    );
    assert!(stderr.contains("recover --plain"), "{stderr}");
    let append = pack(&input, &out, &["--plain", "--append"]);
    assert_eq!(append.status.code(), Some(1), "{}", text(&append.stderr));
    assert_eq!(std::fs::read(&out).unwrap(), bytes);
    let dry = flatforge(
        &["stream", "recover", "--plain", "--dry-run", s(&out)],
        None,
    );
    let stdout = text(&dry.stdout);
    assert_eq!(dry.status.code(), Some(0), "{}", text(&dry.stderr));
    assert!(stdout.starts_with("would cut"), "{stdout}");
    assert!(
        stdout.contains(&format!("to {end} bytes, keeping all 5 complete")),
        "{stdout}"
    );
    let recover = flatforge(&["stream", "recover", "--plain", s(&out)], None);
    assert_eq!(recover.status.code(), Some(0), "{}", text(&recover.stderr));
    let cat = flatforge(&["stream", "cat", "-s", SCHEMA, s(&out)], None);
    assert_eq!(text(&cat.stdout), lines(5), "{}", text(&cat.stderr));
}

/// `recover` does not guess that a file is a plain stream (a plain stream has no guards, and
/// recovering a file that is none would cut it), but says so when it reads as one.
#[test]
fn recover_points_a_plain_stream_at_plain() {
    let input = temp("plain-hint.jsonl");
    std::fs::write(&input, lines(4)).unwrap();
    let out = temp("plain-hint.bin");
    assert_eq!(pack(&input, &out, &["--plain"]).status.code(), Some(0));
    let before = std::fs::read(&out).unwrap();
    for dry_run in [&["--dry-run"][..], &[][..]] {
        let mut args = vec!["stream", "recover", s(&out)];
        args.extend_from_slice(dry_run);
        let recover = flatforge(&args, None);
        let stderr = text(&recover.stderr);
        assert_eq!(recover.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains("not a flatforge stream"), "{stderr}");
        assert!(stderr.contains("--plain"), "{stderr}");
        assert_eq!(std::fs::read(&out).unwrap(), before);
    }
    let with_schema = flatforge(&["stream", "recover", "-s", SCHEMA, s(&out)], None);
    assert!(
        text(&with_schema.stderr).contains("--plain"),
        "{}",
        text(&with_schema.stderr)
    );
    // A file that reads as no stream gets no such advice.
    let notes = temp("notes.txt");
    std::fs::write(&notes, "some notes, not a stream\n").unwrap();
    let recover = flatforge(&["stream", "recover", s(&notes)], None);
    assert_eq!(recover.status.code(), Some(1));
    assert!(
        !text(&recover.stderr).contains("--plain"),
        "{}",
        text(&recover.stderr)
    );
}

/// `recover` never cuts a complete frame or a file that is no stream: a stream of another schema
/// (by its header, or because its messages fail the schema given), a framed stream recovered as
/// a plain one, a file that is no stream at all. Each fails and leaves the file as it was; only
/// a torn header is cut (to nothing).
#[test]
fn recover_leaves_complete_frames_and_non_streams_alone() {
    let input = temp("refuse.jsonl");
    std::fs::write(&input, lines(3)).unwrap();
    let out = temp("refuse.ffs");
    assert_eq!(pack(&input, &out, &[]).status.code(), Some(0));
    let before = std::fs::read(&out).unwrap();
    let unchanged = |what: &str| assert_eq!(std::fs::read(&out).unwrap(), before, "{what}");

    // Another schema, by the header's schema hash; with --any-schema, by its messages.
    let changed = changed_schema("refuse-changed.fbs");
    let required = temp("refuse-required.fbs");
    std::fs::write(
        &required,
        std::fs::read_to_string(&changed)
            .unwrap()
            .replace("extra:int;", "extra:string (required);"),
    )
    .unwrap();
    let hash = flatforge(&["stream", "recover", "-s", s(&changed), s(&out)], None);
    assert_eq!(hash.status.code(), Some(1));
    assert!(
        text(&hash.stderr).contains("schema hash"),
        "{}",
        text(&hash.stderr)
    );
    unchanged("schema hash");
    let invalid = flatforge(
        &[
            "stream",
            "recover",
            "-s",
            s(&required),
            "--any-schema",
            s(&out),
        ],
        None,
    );
    let stderr = text(&invalid.stderr);
    assert_eq!(invalid.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("frame 0 at byte 32 is complete and intact"),
        "{stderr}"
    );
    assert!(stderr.contains("required field is missing"), "{stderr}");
    assert!(stderr.contains("stream verify -s"), "{stderr}");
    assert!(
        stderr.contains(&format!("`truncate -s 32 {}`", s(&out))),
        "{stderr}"
    );
    unchanged("invalid messages");

    // A framed stream recovered as a plain one.
    let plain = flatforge(&["stream", "recover", "--plain", s(&out)], None);
    assert_eq!(plain.status.code(), Some(1));
    assert!(
        text(&plain.stderr).contains("magic of a framed stream"),
        "{}",
        text(&plain.stderr)
    );
    unchanged("framed as plain");

    // No stream at all: verify says so (and suggests no recovery), recover leaves it alone.
    let gz = temp("refuse.gz");
    let gz_bytes = [
        0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0xe7, 2, 0,
    ];
    std::fs::write(&gz, gz_bytes).unwrap();
    let verify = flatforge(&["stream", "verify", "-s", SCHEMA, s(&gz)], None);
    let stderr = text(&verify.stderr);
    assert_eq!(verify.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("may be no stream at all"), "{stderr}");
    assert!(!stderr.contains("recover"), "{stderr}");
    let recover = flatforge(&["stream", "recover", "--plain", s(&gz)], None);
    assert_eq!(recover.status.code(), Some(1));
    assert!(
        text(&recover.stderr).contains("no complete frame at the start"),
        "{}",
        text(&recover.stderr)
    );
    assert_eq!(std::fs::read(&gz).unwrap(), gz_bytes);

    // Part of a header, as a crash right after creating the stream leaves: nothing to keep.
    let torn = temp("refuse-torn.ffs");
    std::fs::write(&torn, &before[..10]).unwrap();
    let recover = flatforge(&["stream", "recover", s(&torn)], None);
    assert_eq!(recover.status.code(), Some(0), "{}", text(&recover.stderr));
    assert!(
        text(&recover.stdout).contains("from 10 to 0 bytes, no frame was complete"),
        "{}",
        text(&recover.stdout)
    );
    assert_eq!(std::fs::read(&torn).unwrap(), b"");
}

/// An append that fails leaves the stream byte for byte as it was, index footer or none; one
/// that succeeds says when --no-index (or its absence) changed the footer.
#[test]
fn pack_append_keeps_or_reports_the_index_footer() {
    let good = temp("footer-good.jsonl");
    std::fs::write(&good, lines(2)).unwrap();
    let bad = temp("footer-bad.jsonl");
    std::fs::write(&bad, format!("{}{{\"nope\": 1}}\n", lines(1))).unwrap();
    for no_index in [true, false] {
        let out = temp(&format!("footer-{no_index}.ffs"));
        let _ = std::fs::remove_file(&out);
        let first: &[&str] = if no_index { &["--no-index"] } else { &[] };
        assert_eq!(pack(&good, &out, first).status.code(), Some(0));
        let before = std::fs::read(&out).unwrap();
        // The other index setting, and a bad line: nothing changes.
        let other: &[&str] = if no_index {
            &["--append"]
        } else {
            &["--append", "--no-index"]
        };
        assert_eq!(pack(&bad, &out, other).status.code(), Some(1));
        assert_eq!(
            std::fs::read(&out).unwrap(),
            before,
            "--no-index {no_index}"
        );
        let appended = pack(&good, &out, other);
        assert_eq!(appended.status.code(), Some(0));
        let said = if no_index {
            "it now ends with an index footer"
        } else {
            "its index footer was removed (--no-index)"
        };
        assert!(
            text(&appended.stderr).contains(said),
            "{}",
            text(&appended.stderr)
        );
    }
}

/// `recover`'s arguments follow the other commands: usage errors exit 2, a missing file or a
/// directory is named as such.
#[test]
fn recover_arguments_are_checked_as_elsewhere() {
    let input = temp("recover-args.jsonl");
    std::fs::write(&input, lines(1)).unwrap();
    let out = temp("recover-args.ffs");
    assert_eq!(pack(&input, &out, &[]).status.code(), Some(0));
    let root = flatforge(
        &[
            "stream",
            "recover",
            "-s",
            SCHEMA,
            "--root-type",
            "Nope",
            s(&out),
        ],
        None,
    );
    assert_eq!(root.status.code(), Some(2));
    assert!(
        text(&root.stderr).contains("its tables: flatforge.stream.fixtures.TelemetryEvent"),
        "{}",
        text(&root.stderr)
    );
    let stdin = flatforge(&["stream", "recover", "-"], None);
    assert_eq!(stdin.status.code(), Some(2));
    assert!(
        text(&stdin.stderr).contains("not stdin"),
        "{}",
        text(&stdin.stderr)
    );
    let missing = flatforge(&["stream", "recover", s(&temp("no-such.ffs"))], None);
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        text(&missing.stderr).contains("cannot open"),
        "{}",
        text(&missing.stderr)
    );
    let dir = flatforge(&["stream", "recover", s(&std::env::temp_dir())], None);
    assert_eq!(dir.status.code(), Some(1));
    assert!(
        text(&dir.stderr).contains("is not a regular file"),
        "{}",
        text(&dir.stderr)
    );
    let include = flatforge(
        &[
            "stream",
            "recover",
            "-s",
            SCHEMA,
            "-I",
            "no-such-dir",
            s(&out),
        ],
        None,
    );
    assert_eq!(include.status.code(), Some(0), "{}", text(&include.stderr));
    assert!(
        text(&include.stderr).contains("is not a directory"),
        "{}",
        text(&include.stderr)
    );
}

/// Pretty-printed JSON (as `flatforge json` writes it) given to `pack`: the error points at the
/// end of the first line, and says that pack takes one message per line.
#[test]
fn pack_says_it_takes_one_message_per_line() {
    let pretty = temp("pretty.json");
    std::fs::write(&pretty, "{\n  \"device_id\": 1,\n  \"timestamp\": 2\n}\n").unwrap();
    let packed = pack(&pretty, &temp("pretty.ffs"), &[]);
    let stderr = text(&packed.stderr);
    assert_eq!(packed.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("pretty.json:1:2: expected a field name, found end of input"),
        "{stderr}"
    );
    assert!(stderr.contains("one message per line"), "{stderr}");
    assert!(stderr.contains("flatforge json --compact"), "{stderr}");
    // A line ending in CR LF: the column is still that of the line's end.
    let crlf = temp("crlf.jsonl");
    std::fs::write(&crlf, "{\"timestamp\": 1}\r\n{\"device_id\": 1,\r\n").unwrap();
    let packed = pack(&crlf, &temp("crlf.ffs"), &[]);
    assert!(
        text(&packed.stderr).contains("crlf.jsonl:2:17: "),
        "{}",
        text(&packed.stderr)
    );
    // An error inside a complete line keeps its column, without that advice.
    let bad = temp("bad-value.jsonl");
    std::fs::write(&bad, "{device_id: nope}\n").unwrap();
    let packed = pack(&bad, &temp("bad-value.ffs"), &[]);
    let stderr = text(&packed.stderr);
    assert!(stderr.contains("bad-value.jsonl:1:13: "), "{stderr}");
    assert!(!stderr.contains("one message per line"), "{stderr}");
    // A misspelt field: the converter's suggestion.
    let typo = temp("typo.jsonl");
    std::fs::write(&typo, "{\"timestamp\": 1}\n{\"devce_id\": 1}\n").unwrap();
    let packed = pack(&typo, &temp("typo.ffs"), &[]);
    let stderr = text(&packed.stderr);
    assert!(
        stderr.contains("typo.jsonl:2:2: unknown field `devce_id`"),
        "{stderr}"
    );
    assert!(stderr.contains("did you mean `device_id`?"), "{stderr}");
}

/// JSON lines given to `cat` or `verify` instead of a stream: they say that `stream pack` makes
/// a stream of them.
#[test]
fn json_lines_given_for_a_stream_point_at_pack() {
    let input = temp("not-packed.jsonl");
    std::fs::write(&input, lines(3)).unwrap();
    for command in ["cat", "verify"] {
        let run = flatforge(&["stream", command, "-s", SCHEMA, s(&input)], None);
        let stderr = text(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains("flatforge stream pack"),
            "{command}: {stderr}"
        );
    }
    let piped = flatforge(
        &["stream", "cat", "-s", SCHEMA, "-"],
        Some(lines(3).as_bytes()),
    );
    assert!(
        text(&piped.stderr).contains("flatforge stream pack"),
        "{}",
        text(&piped.stderr)
    );
}

/// A failed write says what could not be written, the OS error once, and names the user's output
/// file, not the temporary file written first.
#[test]
fn a_failed_write_is_reported_once_and_names_the_output() {
    let out = temp("no-such-dir").join("out.ffs");
    let input = temp("failed-write.jsonl");
    std::fs::write(&input, lines(2)).unwrap();
    let packed = pack(&input, &out, &[]);
    let stderr = text(&packed.stderr);
    assert_eq!(packed.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("cannot write `{}`", s(&out))),
        "{stderr}"
    );
    assert!(!stderr.contains(".partial-"), "{stderr}");
    // A full disk behind stdout (Linux's /dev/full, where there is one).
    let full = || std::fs::OpenOptions::new().write(true).open("/dev/full");
    if full().is_err() {
        return;
    }
    let stream = temp("failed-write.ffs");
    assert_eq!(pack(&input, &stream, &[]).status.code(), Some(0));
    let schema = schema_path();
    let root = flatforge_testkit::workspace_root();
    for args in [
        &["stream", "cat", "-s", &schema, s(&stream)][..],
        &["stream", "pack", "-s", &schema, s(&input), "-o", "-"][..],
    ] {
        let run = flatforge_in(&root, args, None, Stdio::from(full().unwrap()));
        let stderr = text(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{stderr}");
        assert_eq!(
            stderr.matches("No space left on device").count(),
            1,
            "{stderr}"
        );
    }
}

/// `pack --append` to a file that does not exist, with an invalid line: no file is left (an
/// empty one was, which is not a stream).
#[test]
fn a_failed_append_to_a_new_file_leaves_no_file() {
    let out = temp("append-new.ffs");
    let _ = std::fs::remove_file(&out);
    let input = temp("append-new.jsonl");
    std::fs::write(&input, format!("{}{{bad\n", lines(2))).unwrap();
    let packed = pack(&input, &out, &["--append"]);
    assert_eq!(packed.status.code(), Some(1), "{}", text(&packed.stderr));
    assert!(!out.exists(), "{}", text(&packed.stderr));
}

/// `pack --append` whose writes fail partway (the file size limit, `ulimit -f`): the stream is
/// cut back to the frames it had, byte for byte, under the writer's lock, and the error names
/// the file.
#[cfg(target_os = "linux")]
#[test]
fn an_append_whose_writes_fail_leaves_the_stream_as_it_was() {
    let out = temp("append-limit.ffs");
    let _ = std::fs::remove_file(&out);
    let input = temp("append-limit.jsonl");
    std::fs::write(&input, lines(20)).unwrap();
    assert_eq!(pack(&input, &out, &["--append"]).status.code(), Some(0));
    let before = std::fs::read(&out).unwrap();
    // Many more messages than the limit (in 512-byte blocks, one past the file) lets through.
    let many = temp("append-limit-many.jsonl");
    std::fs::write(&many, "{device_id: 1}\n".repeat(20_000)).unwrap();
    let blocks = before.len() / 512 + 2;
    let script = format!("trap '' XFSZ; ulimit -f {blocks}; exec \"$0\" \"$@\"");
    let failed = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_flatforge"))
        .args([
            "stream",
            "pack",
            "-s",
            SCHEMA,
            s(&many),
            "-o",
            s(&out),
            "--append",
        ])
        .current_dir(flatforge_testkit::workspace_root())
        .output()
        .unwrap();
    let stderr = text(&failed.stderr);
    assert_eq!(failed.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(s(&out)), "{stderr}");
    assert_eq!(std::fs::read(&out).unwrap(), before);
}

/// Writing through a symbolic link replaces its target, not the link (the rename of the
/// temporary file replaced the link with a file), for `stream pack` and `binary` alike.
#[cfg(unix)]
#[test]
fn output_through_a_symbolic_link_keeps_the_link() {
    let dir = temp("links");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (real, link) = (dir.join("real.ffs"), dir.join("link.ffs"));
    std::fs::write(&real, "old").unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let input = temp("links.jsonl");
    std::fs::write(&input, lines(3)).unwrap();
    assert_eq!(pack(&input, &link, &[]).status.code(), Some(0));
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let cat = flatforge(&["stream", "cat", "-s", SCHEMA, s(&real)], None);
    assert_eq!(text(&cat.stdout), lines(3));

    let (real, link) = (dir.join("real.bin"), dir.join("link.bin"));
    std::fs::write(&real, "old").unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let json = temp("links.json");
    std::fs::write(&json, "{device_id: 7}").unwrap();
    let out = flatforge(&["binary", "-s", SCHEMA, "-o", s(&link), s(&json)], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_ne!(std::fs::read(&real).unwrap(), b"old");
}
