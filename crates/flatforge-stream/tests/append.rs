//! `StreamWriter::append`: more frames after those of an existing stream file, with its torn tail
//! cut first, its index rebuilt, a stream written with other options left untouched, and a file
//! that another writer holds refused.

use std::path::PathBuf;

use flatforge_stream::{
    recover_file, Checksum, Error, Format, ReaderOptions, StreamSlice, StreamWriter, WriterOptions,
};

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ffs-append-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// Appends `words` to the stream at `path` (created if missing); returns the frames found.
fn append(path: &PathBuf, opts: &WriterOptions, words: &[&str]) -> Result<u64, Error> {
    let (mut w, found) = StreamWriter::append(path, opts.clone())?;
    assert_eq!(w.frames(), found.frames);
    for word in words {
        w.write_with(|b| b.create_string(word))?;
    }
    w.finish()?;
    Ok(found.frames)
}

/// Every message of the stream at `path`, checking every frame.
fn read_all(path: &PathBuf, opts: &ReaderOptions) -> Vec<String> {
    let bytes = std::fs::read(path).expect("read");
    let stream = StreamSlice::new(&bytes, opts).expect("a stream");
    stream
        .messages::<&str>()
        .map(|m| m.expect("a valid frame").to_string())
        .collect()
}

#[test]
fn appends_to_framed_streams_with_every_checksum_and_index_setting() {
    for checksum in [Checksum::None, Checksum::Crc32c, Checksum::Xxh3] {
        for index in [false, true] {
            let path = temp(&format!("framed-{}-{index}", checksum.name()));
            let opts = WriterOptions::default()
                .checksum(checksum)
                .file_identifier(*b"WORD")
                .schema_hash(7)
                .index(index);
            assert_eq!(append(&path, &opts, &["a", "bb"]).unwrap(), 0);
            assert_eq!(append(&path, &opts, &[]).unwrap(), 2);
            assert_eq!(append(&path, &opts, &["ccc", "d"]).unwrap(), 2);
            let all = read_all(&path, &ReaderOptions::default());
            assert_eq!(all, ["a", "bb", "ccc", "d"], "{checksum:?} {index}");
            let bytes = std::fs::read(&path).unwrap();
            let stream = StreamSlice::new(&bytes, &ReaderOptions::default()).unwrap();
            match stream.index() {
                Ok(ix) => {
                    assert!(index);
                    assert_eq!(ix.len(), 4);
                    assert_eq!(ix.frame(2).unwrap().root::<&str>().unwrap(), "ccc");
                }
                Err(e) => assert!(!index, "{e}"),
            }
        }
    }
}

#[test]
fn a_torn_tail_is_cut_before_appending_and_reported() {
    let path = temp("torn");
    let opts = WriterOptions::default().checksum(Checksum::Crc32c);
    let torn = "a long last message, cut short by the crash ".repeat(8);
    append(&path, &opts, &["kept", &torn]).unwrap();
    let len = std::fs::metadata(&path).unwrap().len();
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(len - 2).unwrap(); // the crash: the last frame is cut short
    drop(file);
    let (mut w, found) = StreamWriter::append(&path, opts).unwrap();
    assert!(found.truncates());
    assert!(found.damage.as_ref().is_some_and(Error::is_truncation));
    assert_eq!(found.frames, 1);
    w.write_with(|b| b.create_string("after")).unwrap();
    w.finish().unwrap();
    assert_eq!(
        read_all(&path, &ReaderOptions::default()),
        ["kept", "after"]
    );
}

#[test]
fn an_index_footer_is_replaced_or_dropped() {
    let path = temp("footer");
    let indexed = WriterOptions::default().index(true);
    append(&path, &indexed, &["a", "b", "c"]).unwrap();
    let with_footer = std::fs::metadata(&path).unwrap().len();
    // Without an index now: the footer goes, and the stream ends after its frames.
    let (w, found) = StreamWriter::append(&path, WriterOptions::default()).unwrap();
    assert!(found.indexed && found.frames_end < with_footer);
    let frames_end = found.frames_end;
    w.finish().unwrap();
    assert_eq!(std::fs::metadata(&path).unwrap().len(), frames_end);
    let bytes = std::fs::read(&path).unwrap();
    let stream = StreamSlice::new(&bytes, &ReaderOptions::default()).unwrap();
    assert!(matches!(stream.index(), Err(Error::NoIndex)));
    assert_eq!(read_all(&path, &ReaderOptions::default()), ["a", "b", "c"]);
    // With an index again: it covers the frames written without one.
    append(&path, &indexed, &["d"]).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let index = StreamSlice::new(&bytes, &ReaderOptions::default())
        .unwrap()
        .index()
        .unwrap();
    assert_eq!(index.len(), 4);
    assert_eq!(index.frame(1).unwrap().root::<&str>().unwrap(), "b");
    assert_eq!(index.frame(3).unwrap().root::<&str>().unwrap(), "d");
}

#[test]
fn a_missing_empty_or_torn_header_file_starts_a_new_stream() {
    let opts = WriterOptions::default();
    // (A torn header: the magic's first bytes, or the magic and part of the rest.)
    let torn: &[u8] = &[b'F', b'F', b'S', 0xB5, b'\r', b'\n', 0x1A, b'\n', 1, 0];
    for existing in [None, Some(&b""[..]), Some(&torn[..4]), Some(torn)] {
        let path = temp("fresh");
        if let Some(bytes) = existing {
            std::fs::write(&path, bytes).unwrap();
        }
        assert_eq!(append(&path, &opts, &["new"]).unwrap(), 0);
        assert_eq!(read_all(&path, &ReaderOptions::default()), ["new"]);
    }
}

#[test]
fn streams_written_with_other_options_or_damaged_inside_are_left_alone() {
    let path = temp("mismatch");
    let opts = WriterOptions::default()
        .checksum(Checksum::Xxh3)
        .file_identifier(*b"WORD")
        .schema_hash(7);
    append(&path, &opts, &["one", "two", "three"]).unwrap();
    let before = std::fs::read(&path).unwrap();
    let others = [
        opts.clone().checksum(Checksum::Crc32c),
        opts.clone().checksum(Checksum::None),
        WriterOptions::default()
            .checksum(Checksum::Xxh3)
            .schema_hash(7),
        opts.clone().file_identifier(*b"ELSE"),
        opts.clone().schema_hash(8),
        WriterOptions::default()
            .checksum(Checksum::Xxh3)
            .file_identifier(*b"WORD"),
        WriterOptions::default().format(Format::Plain),
    ];
    for other in others {
        let err = StreamWriter::append(&path, other.clone()).unwrap_err();
        assert!(
            matches!(err, Error::AppendMismatch { .. }),
            "{other:?}: {err}"
        );
        assert!(err.to_string().starts_with("cannot append"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), before, "{other:?}");
    }
    // A bit flipped in the first frame's payload, good frames after it: not a torn tail.
    let mut damaged = before.clone();
    damaged[32 + Checksum::Xxh3.frame_header_len() + 4] ^= 0x40;
    std::fs::write(&path, &damaged).unwrap();
    let err = StreamWriter::append(&path, opts.clone()).unwrap_err();
    assert!(matches!(err, Error::DamageBeforeGoodFrames { .. }), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), damaged);
    // Not a stream at all.
    std::fs::write(&path, b"just some text, not a stream of frames").unwrap();
    let err = StreamWriter::append(&path, opts).unwrap_err();
    assert!(matches!(err, Error::BadMagic { .. }), "{err}");
}

#[test]
fn appends_to_plain_streams() {
    let path = temp("plain");
    let opts = WriterOptions::default().format(Format::Plain);
    append(&path, &opts, &["x", "y"]).unwrap();
    assert_eq!(append(&path, &opts, &["z"]).unwrap(), 2);
    let read = ReaderOptions::default().format(Format::Plain);
    assert_eq!(read_all(&path, &read), ["x", "y", "z"]);
    // A framed writer does not take it for a torn framed stream.
    let err = StreamWriter::append(&path, WriterOptions::default()).unwrap_err();
    assert!(matches!(err, Error::BadMagic { .. }), "{err}");
    assert_eq!(read_all(&path, &read), ["x", "y", "z"]);
    // Nothing is cut from a plain stream: not a torn last buffer, nor a file that is no stream
    // (its first bytes read as a length longer than the file).
    let whole = std::fs::read(&path).unwrap();
    let notes = temp("notes.txt");
    for (bytes, no_frame) in [
        (&whole[..whole.len() - 3], false),
        (b"just some notes, not a stream\n", true),
    ] {
        std::fs::write(&notes, bytes).unwrap();
        let err = StreamWriter::append(&notes, opts.clone()).unwrap_err();
        if no_frame {
            assert!(
                matches!(&err, Error::NoCompleteFrame { cause } if cause.is_truncation()),
                "{err}"
            );
        } else {
            assert!(err.is_truncation(), "{err}");
        }
        assert_eq!(std::fs::read(&notes).unwrap(), bytes);
    }
}

/// Zeros after a plain stream's buffers (a zero-filled tail) are damage, not empty buffers: the
/// appender refuses, as for any damage in a plain stream, and leaves the file as it is.
#[test]
fn a_plain_stream_with_a_zero_filled_tail_is_refused() {
    let path = temp("plain-zeros");
    let opts = WriterOptions::default().format(Format::Plain);
    append(&path, &opts, &["x", "y"]).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    let end = bytes.len() as u64;
    bytes.resize(bytes.len() + 4096, 0);
    std::fs::write(&path, &bytes).unwrap();
    let err = StreamWriter::append(&path, opts).unwrap_err();
    assert!(
        matches!(err, Error::FrameTooSmall { frame: 2, len: 0, offset } if offset == end),
        "{err}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
}

#[test]
fn short_files_are_not_taken_for_a_torn_header_unless_they_start_like_one() {
    let opts = WriterOptions::default();
    for short in [&b"F"[..], b"FFS", b"FFSX and more", b"hello"] {
        let path = temp("short");
        std::fs::write(&path, short).unwrap();
        assert!(
            StreamWriter::append(&path, opts.clone()).is_err(),
            "{short:?}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), short);
    }
}

/// Two appenders, or an appender and a recovery, never work on one file at once: the second one
/// fails with `Error::Locked` and changes nothing, until the first one's file is closed.
#[cfg(unix)]
#[test]
fn a_second_appender_or_a_recovery_is_refused_while_a_writer_holds_the_file() {
    let path = temp("locked");
    let opts = WriterOptions::default().index(true);
    append(&path, &opts, &["a", "b"]).unwrap();
    // A torn tail, which the refused calls must not cut (nor the footer drop).
    let whole = std::fs::read(&path).unwrap();
    let torn = &whole[..whole.len() - 3];
    std::fs::write(&path, torn).unwrap();

    let (mut first, found) = StreamWriter::append(&path, opts.clone()).unwrap();
    assert!(found.truncates());
    let cut = std::fs::read(&path).unwrap();
    let err = StreamWriter::append(&path, opts.clone()).unwrap_err();
    assert!(matches!(err, Error::Locked), "{err}");
    let err = recover_file(&path, &ReaderOptions::default(), |_| Ok(())).unwrap_err();
    assert!(matches!(err, Error::Locked), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), cut);

    first.write_with(|b| b.create_string("c")).unwrap();
    let file = first.finish().unwrap();
    // `finish` hands the file back with the lock: still held.
    let err = StreamWriter::append(&path, opts.clone()).unwrap_err();
    assert!(matches!(err, Error::Locked), "{err}");
    drop(file);
    assert_eq!(append(&path, &opts, &["d"]).unwrap(), 3);
    assert_eq!(
        read_all(&path, &ReaderOptions::default()),
        ["a", "b", "c", "d"]
    );
    let r = recover_file(&path, &ReaderOptions::default(), |_| Ok(())).unwrap();
    assert_eq!((r.frames, r.truncates()), (4, false));
}

/// `abandon` takes back what an append wrote, flushed frames and pending ones, and leaves the file
/// byte for byte as it was (its index footer written again): for every format, checksum and index
/// setting, and for a file that `append` created. The appending writer can be used again after.
#[test]
fn abandon_leaves_the_file_as_append_found_it() {
    let framed = [Checksum::None, Checksum::Crc32c, Checksum::Xxh3]
        .into_iter()
        .flat_map(|c| [false, true].map(|index| WriterOptions::default().checksum(c).index(index)));
    let plain = WriterOptions::default().format(Format::Plain);
    for (i, opts) in framed.chain([plain]).enumerate() {
        let path = temp(&format!("abandon-{i}"));
        for existing in [&[][..], &["a", "bb"]] {
            let _ = std::fs::remove_file(&path);
            if !existing.is_empty() {
                append(&path, &opts, existing).unwrap();
            }
            // (A file that `append` creates is left empty: nothing, as it found it.)
            assert_eq!(path.exists(), !existing.is_empty());
            let before = std::fs::read(&path).unwrap_or_default();
            let (mut w, _) = StreamWriter::append(&path, opts.clone()).unwrap();
            for n in 0..50 {
                w.write_with(|b| b.create_string(&"x".repeat(n * 40)))
                    .unwrap();
                if n == 30 {
                    w.flush().unwrap();
                }
            }
            assert!(std::fs::read(&path).unwrap().len() > before.len() + 10_000);
            w.abandon().unwrap();
            assert_eq!(
                std::fs::read(&path).unwrap(),
                before,
                "{opts:?} {existing:?}"
            );
            append(&path, &opts, &["c"]).unwrap();
            let mut all = existing.to_vec();
            all.push("c");
            let read = ReaderOptions::default().format(Format::Auto);
            assert_eq!(read_all(&path, &read), all, "{opts:?}");
        }
    }
    // The footer comes back as it was when the appending writer's index setting differs from
    // the stream's: none added, none lost.
    for (written, appended) in [(false, true), (true, false)] {
        let path = temp(&format!("abandon-index-{written}"));
        append(
            &path,
            &WriterOptions::default().index(written),
            &["a", "bb"],
        )
        .unwrap();
        let before = std::fs::read(&path).unwrap();
        let (mut w, found) =
            StreamWriter::append(&path, WriterOptions::default().index(appended)).unwrap();
        assert_eq!(found.indexed, written);
        w.write_with(|b| b.create_string("taken back")).unwrap();
        w.flush().unwrap();
        w.abandon().unwrap();
        assert_eq!(
            std::fs::read(&path).unwrap(),
            before,
            "index {written} -> {appended}"
        );
    }
    // After `rotate` to another file the writer cannot cut that file back: an error, and the
    // pending frames are not written (they were when the writer was dropped).
    let (w, _) = StreamWriter::append(temp("abandon-rotated"), WriterOptions::default()).unwrap();
    let mut w = w;
    let other = temp("abandon-other");
    w.rotate(std::fs::File::create(&other).unwrap()).unwrap();
    w.write_with(|b| b.create_string("pending")).unwrap();
    assert!(matches!(w.abandon(), Err(Error::InvalidOptions(_))));
    assert_eq!(std::fs::read(&other).unwrap(), b"");
}
