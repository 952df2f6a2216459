//! Fault tests: a stream cut at every byte offset, every byte of a stream flipped, limits, and
//! headers that disagree with the reader. Every case goes through every reader (see
//! `common::read_all`) and through `recover`.

mod common;

use std::io::Cursor;

use common::{event, read_all, write_events, Event, TelemetryEvent};
use flatforge_stream::{
    recover, Checksum, Error, Format, ReaderOptions, Recovery, StreamReader, StreamSlice,
    WriterOptions, HEADER_LEN,
};

/// Small streams: every checksum, with and without an index; 7 events of varying size.
fn cases() -> Vec<(WriterOptions, Vec<u8>)> {
    let events: Vec<Event> = (0..7).map(event).collect();
    let mut out = Vec::new();
    for checksum in Checksum::ALL {
        for index in [false, true] {
            let opts = WriterOptions::default()
                .checksum(checksum)
                .file_identifier(*b"TELE")
                .index(index);
            out.push((opts.clone(), write_events(&events, opts)));
        }
    }
    out
}

/// The frames of an intact stream: (offset, end of payload).
fn layout(bytes: &[u8], checksum: Checksum) -> Vec<(u64, u64)> {
    let o = read_all(bytes, &ReaderOptions::default());
    assert_eq!(o.end, Ok(()));
    assert!(o.events.iter().all(Option::is_some));
    let hlen = checksum.frame_header_len() as u64;
    o.frames
        .iter()
        .map(|(_, off, p)| (*off, off + hlen + p.len() as u64))
        .collect()
}

fn verify_event(f: &flatforge_stream::Frame<'_>) -> Result<(), Error> {
    f.root::<TelemetryEvent>().map(drop)
}

fn recover_bytes(bytes: &[u8]) -> Result<Recovery, Error> {
    recover(Cursor::new(bytes), &ReaderOptions::default(), verify_event)
}

#[test]
fn cut_at_every_offset() {
    for (opts, full) in cases() {
        let frames = layout(&full, opts.checksum);
        let last_end = frames.last().unwrap().1;
        let intact = read_all(&full, &ReaderOptions::default());
        for cut in 0..=full.len() {
            let bytes = &full[..cut];
            let o = read_all(bytes, &ReaderOptions::default());
            let k = frames.iter().filter(|f| f.1 <= cut as u64).count();
            let ctx = format!("{opts:?}, cut at {cut}");
            assert_eq!(
                o.frames,
                intact.frames[..k],
                "{ctx}: the complete frames come back"
            );
            assert_eq!(o.events, intact.events[..k], "{ctx}");
            let good_end = if k == 0 {
                HEADER_LEN as u64
            } else {
                frames[k - 1].1
            };
            let clean = cut == full.len() || cut as u64 == good_end;
            match &o.end {
                Ok(()) => assert!(clean, "{ctx}: a cut stream must not end cleanly"),
                Err(e) if cut < HEADER_LEN => assert!(e.truncation, "{ctx}: {e:?}"),
                Err(e) if cut as u64 >= last_end.next_multiple_of(8) + 8 => {
                    assert!(opts.index && e.index, "{ctx}: cut inside the index: {e:?}");
                }
                Err(e) => {
                    assert!(!clean, "{ctx}: {e:?}");
                    assert!(
                        e.truncation,
                        "{ctx}: a torn frame is reported as such: {e:?}"
                    );
                    assert_eq!(e.frame, Some(k as u64), "{ctx}: the torn frame's number");
                }
            }

            // Recovery keeps every complete frame and nothing else.
            match recover_bytes(bytes) {
                // Too little to tell a stream (the magic's first 4 bytes make a torn header).
                Err(e) => assert!(cut < 4 && e.is_truncation(), "{ctx}: {e}"),
                Ok(r) if cut < HEADER_LEN => {
                    assert_eq!((r.frames, r.valid_len), (0, 0), "{ctx}: a torn header");
                    assert!(r.damage.is_some_and(|d| d.is_truncation()), "{ctx}");
                }
                Ok(r) => {
                    assert_eq!(r.frames, k as u64, "{ctx}");
                    let expected = if clean { cut as u64 } else { good_end };
                    assert_eq!(r.valid_len, expected, "{ctx}");
                    let kept = read_all(&bytes[..r.valid_len as usize], &ReaderOptions::default());
                    assert_eq!((kept.frames.len(), kept.end), (k, Ok(())), "{ctx}");
                }
            }
        }
    }
}

#[test]
fn flip_every_byte() {
    for (opts, full) in cases() {
        let frames = layout(&full, opts.checksum);
        let n = frames.len();
        let last_end = frames.last().unwrap().1;
        let intact = read_all(&full, &ReaderOptions::default());
        for pos in 0..full.len() {
            for mask in [0x01u8, 0x80, 0xFF] {
                let mut bytes = full.clone();
                bytes[pos] ^= mask;
                let ctx = format!("{opts:?}, byte {pos} ^ {mask:#x}");
                let o = read_all(&bytes, &ReaderOptions::default());
                let recovered = recover_bytes(&bytes);
                if pos < HEADER_LEN {
                    let e = o.end.expect_err(&ctx);
                    assert!(o.frames.is_empty() && e.frame.is_none(), "{ctx}: {e:?}");
                    assert!(recovered.is_err(), "{ctx}");
                    continue;
                }
                // The frame whose bytes (padding before it included) hold `pos`, or n for the index.
                let i = frames.iter().position(|f| (pos as u64) < f.1).unwrap_or(n);
                let region_start = if i == 0 {
                    HEADER_LEN as u64
                } else {
                    frames[i - 1].1
                };
                assert_eq!(
                    o.frames[..i.min(o.frames.len())],
                    intact.frames[..i.min(o.frames.len())]
                );
                assert!(
                    o.frames.len() >= i,
                    "{ctx}: frames before the damage come back"
                );
                if i == n {
                    // The index (or the padding before it): every frame is intact.
                    assert_eq!(o.frames, intact.frames, "{ctx}");
                    let e = o.end.expect_err(&ctx);
                    assert_eq!(e.frame.unwrap_or(n as u64), n as u64, "{ctx}: {e:?}");
                    let r = recovered.expect(&ctx);
                    assert_eq!((r.frames, r.valid_len), (n as u64, last_end), "{ctx}");
                    continue;
                }
                if opts.checksum != Checksum::None {
                    // Checksums and guards catch every flip, in the frame it hits.
                    assert_eq!(
                        o.frames.len(),
                        i,
                        "{ctx}: the damaged frame is not returned"
                    );
                    let e = o.end.expect_err(&ctx);
                    assert_eq!(e.frame, Some(i as u64), "{ctx}: {e:?}");
                    let off = e.offset.unwrap();
                    assert!((region_start..frames[i].1).contains(&off), "{ctx}: {e:?}");
                    match recovered {
                        Err(Error::DamageBeforeGoodFrames { frame, .. }) => {
                            assert!(i + 1 < n && frame == i as u64, "{ctx}")
                        }
                        Ok(r) => {
                            assert_eq!(i + 1, n, "{ctx}: only a damaged last frame is cut");
                            assert_eq!((r.frames, r.valid_len), (i as u64, region_start), "{ctx}");
                        }
                        Err(e) => panic!("{ctx}: {e}"),
                    }
                } else {
                    // Without checksums a payload flip may pass the framing; then it is visible
                    // in the frame (or caught by the verifier), never in another frame.
                    let caught = o.end.as_ref().err().and_then(|e| e.frame) == Some(i as u64);
                    let changed = o.frames.get(i).is_some_and(|f| *f != intact.frames[i]);
                    assert!(caught || changed, "{ctx}: {o:?}");
                    if o.frames.len() > i + 1 {
                        assert_eq!(
                            o.frames[i + 1..],
                            intact.frames[i + 1..o.frames.len()],
                            "{ctx}"
                        );
                    }
                    if let Ok(r) = recovered {
                        assert!(r.frames >= i as u64 && r.valid_len >= region_start, "{ctx}");
                    }
                }
            }
        }
    }
}

#[test]
fn checksum_mismatch_names_frame_and_offset() {
    let events: Vec<Event> = (0..4).map(event).collect();
    let mut bytes = write_events(&events, WriterOptions::default().checksum(Checksum::Xxh3));
    let frames = layout(&bytes, Checksum::Xxh3);
    let (offset, end) = frames[2];
    bytes[end as usize - 1] ^= 0x10;
    let stream = StreamSlice::new(&bytes, &ReaderOptions::default()).unwrap();
    let err = stream.frames().nth(2).unwrap().unwrap_err();
    assert!(
        matches!(err, Error::ChecksumMismatch { frame: 2, offset: o, kind: Checksum::Xxh3, .. } if o == offset),
        "{err:?}"
    );
    assert!(
        err.to_string().starts_with(&format!(
            "checksum mismatch in frame 2 at byte {offset}: xxh3 stored"
        )),
        "{err}"
    );
}

#[test]
fn frame_over_the_limit_is_rejected_before_reading_it() {
    // A header and one frame header claiming 2^31 - 1 bytes, with nothing after it: the readers
    // must reject the length itself, not try to read or allocate 2 GiB.
    let mut bytes = flatforge_stream::Header::new(Checksum::None)
        .encode()
        .to_vec();
    let len = i32::MAX as u32;
    bytes.extend_from_slice(&len.to_le_bytes());
    bytes.extend_from_slice(&(!len).to_le_bytes());
    let o = read_all(&bytes, &ReaderOptions::default());
    let e = o.end.unwrap_err();
    assert!(
        e.text.contains("more than the maximum of 67108864"),
        "{e:?}"
    );
    assert_eq!((e.frame, e.offset), (Some(0), Some(32)));

    // A real frame over a lower limit.
    let events: Vec<Event> = (0..3).map(event).collect();
    let bytes = write_events(&events, WriterOptions::default());
    let small = ReaderOptions::default().max_frame_len(16);
    let e = read_all(&bytes, &small).end.unwrap_err();
    assert!(e.text.starts_with("frame 0 at byte 32 is"), "{e:?}");

    // The writer refuses too.
    let opts = WriterOptions::default().max_frame_len(64);
    let mut w = flatforge_stream::StreamWriter::new(Vec::new(), opts).unwrap();
    let big = Event {
        payload: Some("x".repeat(100)),
        ..event(0)
    };
    assert!(w.write_with(|b| common::build(b, &big)).is_err());
    w.write_with(|b| common::build(b, &event(0))).unwrap();
    let bytes = w.finish().unwrap();
    assert_eq!(
        read_all(&bytes, &ReaderOptions::default()).events,
        [Some(event(0))]
    );
}

#[test]
fn header_disagreements_are_errors_not_misframing() {
    let events: Vec<Event> = (0..3).map(event).collect();
    let opts = WriterOptions::default()
        .checksum(Checksum::Crc32c)
        .file_identifier(*b"TELE")
        .schema_hash(0x1234);
    let bytes = write_events(&events, opts);
    let expect = |ropts: ReaderOptions, needle: &str| {
        let e = read_all(&bytes, &ropts).end.unwrap_err();
        assert!(e.text.contains(needle), "{e:?}");
        assert_eq!(e.frame, None);
    };
    expect(
        ReaderOptions::default().require_checksum(Checksum::Xxh3),
        "uses crc32c checksums, but the reader requires xxh3",
    );
    expect(
        ReaderOptions::default().require_file_identifier(*b"MONS"),
        "file identifier \"TELE\", but the reader requires \"MONS\"",
    );
    expect(
        ReaderOptions::default().require_schema_hash(0x9999),
        "schema hash 0x0000000000001234",
    );
    let ok = ReaderOptions::default()
        .require_checksum(Checksum::Crc32c)
        .require_file_identifier(*b"TELE")
        .require_schema_hash(0x1234);
    assert_eq!(read_all(&bytes, &ok).events.len(), 3);

    // A framed stream read as plain: the magic is an impossible length, rejected at once.
    let e = read_all(&bytes, &ReaderOptions::default().format(Format::Plain))
        .end
        .unwrap_err();
    assert_eq!((e.frame, e.offset), (Some(0), Some(0)), "{e:?}");
    // A plain stream read as framed.
    let plain = write_events(&events, WriterOptions::default().format(Format::Plain));
    let e = read_all(&plain, &ReaderOptions::default()).end.unwrap_err();
    assert!(e.text.starts_with("not a flatforge stream"), "{e:?}");
    // Auto tells them apart.
    let auto = ReaderOptions::default().format(Format::Auto);
    assert_eq!(
        read_all(&plain, &auto).events,
        read_all(&bytes, &auto).events
    );
    // Messages carry the writer's identifier; a plain reader may require one.
    let plain = write_events(
        &events,
        WriterOptions::default()
            .format(Format::Plain)
            .file_identifier(*b"TELE"),
    );
    let plain_opts = ReaderOptions::default().format(Format::Plain);
    let tele = read_all(
        &plain,
        &plain_opts.clone().require_file_identifier(*b"TELE"),
    );
    let all: Vec<Option<Event>> = events.iter().cloned().map(Some).collect();
    assert_eq!(tele.events, all);
    let mons = read_all(&plain, &plain_opts.require_file_identifier(*b"MONS"));
    assert_eq!(
        (mons.frames.len(), mons.events),
        (3, vec![None, None, None])
    );
}

/// A plain stream with zeros after it (a zero-filled tail, as a crash can leave) or a size prefix
/// below 8 (shorter than any FlatBuffer): every reader returns the buffers before it, then
/// reports the damage there; recovery cuts it off and keeps every buffer, with a verifier or
/// without one.
#[test]
fn a_plain_streams_zero_filled_tail_is_damage() {
    let events: Vec<Event> = (0..5).map(event).collect();
    let plain = write_events(&events, WriterOptions::default().format(Format::Plain));
    let opts = ReaderOptions::default().format(Format::Plain);
    let intact = read_all(&plain, &opts);
    let end = plain.len() as u64;
    let zero_tails = (1..=64).map(|zeros| vec![0u8; zeros]);
    // A short size prefix with the bytes it promises, and more after them.
    let short_frames = (0..8u8).map(|len| {
        let mut tail = vec![len, 0, 0, 0];
        tail.extend((0..len + 16).map(|i| i | 0x40));
        tail
    });
    for tail in zero_tails.chain(short_frames) {
        let bytes = [&plain[..], &tail].concat();
        let ctx = format!("tail {tail:?}");
        let o = read_all(&bytes, &opts);
        assert_eq!(o.frames, intact.frames, "{ctx}");
        let e = o.end.expect_err(&ctx);
        assert_eq!((e.frame, e.offset), (Some(5), Some(end)), "{ctx}: {e:?}");
        // Fewer than 4 bytes: a cut size prefix; else one that is too small.
        assert_eq!(e.truncation, tail.len() < 4, "{ctx}: {e:?}");
        if tail.len() >= 4 {
            assert!(
                e.text.contains("shorter than any FlatBuffer"),
                "{ctx}: {e:?}"
            );
        }
        for r in [
            recover(Cursor::new(&bytes), &opts, verify_event),
            recover(Cursor::new(&bytes), &opts, |_| Ok(())),
        ] {
            let r = r.expect(&ctx);
            assert_eq!((r.frames, r.valid_len), (5, end), "{ctx}");
        }
    }
}

#[test]
fn mid_stream_damage_is_not_truncated_away() {
    let events: Vec<Event> = (0..10).map(event).collect();
    let mut bytes = write_events(&events, WriterOptions::default().checksum(Checksum::Crc32c));
    let frames = layout(&bytes, Checksum::Crc32c);
    // Zero a whole frame in the middle, as a lost disk block would.
    let (start, end) = frames[4];
    bytes[start as usize..end as usize].fill(0);
    match recover_bytes(&bytes) {
        Err(Error::DamageBeforeGoodFrames {
            frame: 4,
            offset,
            next_good,
            ..
        }) => {
            assert_eq!(offset, start);
            assert!(next_good >= end, "{next_good}");
        }
        other => panic!("{other:?}"),
    }
    // A zeroed tail (power loss) is cut.
    let mut bytes = write_events(&events, WriterOptions::default());
    let frames = layout(&bytes, Checksum::None);
    let cut = frames[7].0 as usize;
    bytes[cut..].fill(0);
    let r = recover_bytes(&bytes).unwrap();
    assert_eq!((r.frames, r.valid_len), (7, frames[6].1));
}

/// Recovery never cuts what a crash does not leave: complete frames that fail the verifier (a
/// wrong schema, say), a file that is no plain stream, a framed stream read as a plain one. Each
/// is refused and the file is left as it was.
#[test]
fn recovery_refuses_to_cut_complete_frames_or_what_is_no_stream() {
    let events: Vec<Event> = (0..4).map(event).collect();
    let wrong_schema = |_: &flatforge_stream::Frame<'_>| -> Result<(), Error> {
        Err(Error::InvalidOptions("not this schema"))
    };
    for checksum in Checksum::ALL {
        let bytes = write_events(&events, WriterOptions::default().checksum(checksum));
        let frames = layout(&bytes, checksum);
        let opts = ReaderOptions::default();
        match recover(Cursor::new(&bytes), &opts, wrong_schema) {
            Err(Error::InvalidIntactFrame {
                frame: 0,
                offset,
                intact_end,
                ..
            }) => {
                assert_eq!(offset, frames[0].0, "{checksum:?}");
                assert_eq!(intact_end, HEADER_LEN as u64, "{checksum:?}");
            }
            other => panic!("{checksum:?}: {other:?}"),
        }
        // Damage in the first frame, complete frames after it: the frames after it are evidence
        // whether they verify or not.
        let mut damaged = bytes.clone();
        damaged[frames[0].0 as usize + 4] ^= 0xFF; // the guard
        for verify in [verify_event, wrong_schema] {
            let err = recover(Cursor::new(&damaged), &opts, verify).unwrap_err();
            assert!(
                matches!(err, Error::DamageBeforeGoodFrames { frame: 0, .. }),
                "{checksum:?}: {err}"
            );
        }
        // The same refusals through a file, which stays as it was.
        let path = std::env::temp_dir().join(format!(
            "ffs-recover-refuse-{}-{checksum:?}",
            std::process::id()
        ));
        std::fs::write(&path, &bytes).unwrap();
        let err = flatforge_stream::recover_file(&path, &opts, wrong_schema).unwrap_err();
        assert!(matches!(err, Error::InvalidIntactFrame { .. }), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
        std::fs::remove_file(&path).unwrap();
    }

    // Without checksums, a last payload zeroed by a power loss: refused, with where to cut (the
    // end of the frame before it, its padding included).
    let unsummed = write_events(&events, WriterOptions::default());
    let frames = layout(&unsummed, Checksum::None);
    let mut zeroed = unsummed.clone();
    let (last, end) = frames[3];
    zeroed[last as usize + 8..end as usize].fill(0);
    match recover(
        Cursor::new(&zeroed),
        &ReaderOptions::default(),
        verify_event,
    ) {
        Err(Error::InvalidIntactFrame {
            frame: 3,
            intact_end,
            ..
        }) => {
            assert!(
                intact_end >= frames[2].1 && intact_end <= last,
                "{intact_end}"
            );
            let kept = read_all(&zeroed[..intact_end as usize], &ReaderOptions::default());
            assert_eq!((kept.frames.len(), kept.end), (3, Ok(())));
        }
        other => panic!("{other:?}"),
    }

    let plain = ReaderOptions::default().format(Format::Plain);
    let framed = write_events(&events, WriterOptions::default());
    let err = recover(Cursor::new(&framed), &plain, |_| Ok(())).unwrap_err();
    assert!(matches!(err, Error::FramedNotPlain), "{err}");
    // Not a stream: its first 4 bytes read as a length longer than the file, or zeros.
    for not_a_stream in [
        &b"just some notes\n"[..],
        &[0x1f, 0x8b, 8, 0, 0, 0][..],
        &[0; 64][..],
    ] {
        for verify in [verify_event, |_: &flatforge_stream::Frame<'_>| Ok(())] {
            let err = recover(Cursor::new(not_a_stream), &plain, verify).unwrap_err();
            assert!(matches!(err, Error::NoCompleteFrame { .. }), "{err}");
        }
    }
    // A plain stream whose first buffer fails the verifier is no stream to cut either.
    let plain_stream = write_events(&events, WriterOptions::default().format(Format::Plain));
    let err = recover(Cursor::new(&plain_stream), &plain, wrong_schema).unwrap_err();
    assert!(matches!(err, Error::NoCompleteFrame { .. }), "{err}");
}

/// Reading the index in the middle of a stream (here larger than the read-ahead, so not all of it
/// is buffered) does not disturb the frames still to come: it used to leave the inner reader at the
/// index, and the next frames were read from there.
#[test]
fn counting_frames_mid_stream_keeps_the_reading_position() {
    let events: Vec<Event> = (0..400).map(event).collect();
    let bytes = write_events(&events, WriterOptions::default().index(true));
    let opts = ReaderOptions::default().read_ahead(256);
    assert!(bytes.len() > 8 * 256);
    let mut r = StreamReader::new(Cursor::new(&bytes), &opts).unwrap();
    let mut got = Vec::new();
    while let Some(f) = r.next_frame().unwrap() {
        got.push(common::read(f.root::<TelemetryEvent>().unwrap()));
        if got.len() == 3 {
            assert_eq!(r.frame_count().unwrap(), 400);
        }
    }
    assert_eq!(got, events);
}

#[test]
fn seek_by_frame_number() {
    let events: Vec<Event> = (0..20).map(event).collect();
    for checksum in Checksum::ALL {
        let bytes = write_events(
            &events,
            WriterOptions::default().checksum(checksum).index(true),
        );
        let stream = StreamSlice::new(&bytes, &ReaderOptions::default()).unwrap();
        let index = stream.index().unwrap();
        assert_eq!(index.len(), 20);
        let mut r = StreamReader::new(Cursor::new(&bytes), &ReaderOptions::default()).unwrap();
        assert_eq!(r.frame_count().unwrap(), 20);
        for n in [19, 0, 7, 7, 13, 1] {
            let f = index.frame(n).unwrap();
            assert_eq!(
                common::read(f.root::<TelemetryEvent>().unwrap()),
                events[n as usize]
            );
            r.seek_frame(n).unwrap();
            let f = r.next_frame().unwrap().unwrap();
            assert_eq!(f.number(), n);
            assert_eq!(
                common::read(f.root::<TelemetryEvent>().unwrap()),
                events[n as usize]
            );
        }
        // Reading on from a seek goes to the end and checks the index there.
        r.seek_frame(17).unwrap();
        let rest = r.for_each(|_| Ok::<(), Error>(())).unwrap();
        assert_eq!(rest, 3);
        assert!(r.ended_with_index());
        r.seek_frame(20).unwrap();
        assert!(r.next_frame().unwrap().is_none());
        assert!(matches!(
            r.seek_frame(21),
            Err(Error::FrameOutOfRange {
                frame: 21,
                frames: 20
            })
        ));
        assert!(matches!(
            index.frame(20),
            Err(Error::FrameOutOfRange { .. })
        ));
        let tail: Vec<_> = index
            .frames_from(18)
            .unwrap()
            .map(|f| f.unwrap().number())
            .collect();
        assert_eq!(tail, [18, 19]);
    }
    // No index: a clear error.
    let bytes = write_events(&events, WriterOptions::default());
    let stream = StreamSlice::new(&bytes, &ReaderOptions::default()).unwrap();
    assert!(matches!(stream.index(), Err(Error::NoIndex)));
    let mut r = StreamReader::new(Cursor::new(&bytes), &ReaderOptions::default()).unwrap();
    assert!(matches!(r.seek_frame(0), Err(Error::NoIndex)));
}

#[test]
fn garbage_never_panics() {
    // Deterministic pseudo-random garbage, with and without a valid header in front.
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let header = flatforge_stream::Header::new(Checksum::None).encode();
    for len in 0..400 {
        let mut bytes: Vec<u8> = (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 56) as u8
            })
            .collect();
        for opts in [
            ReaderOptions::default(),
            ReaderOptions::default().format(Format::Plain),
            ReaderOptions::default().format(Format::Auto),
        ] {
            let _ = read_all(&bytes, &opts);
        }
        bytes.splice(0..0, header);
        let _ = read_all(&bytes, &ReaderOptions::default());
        let _ = recover_bytes(&bytes);
    }
}

/// Found by fuzzing (stream_read): an index whose count at the end marker is 2^64 - 1 while the
/// trailer says 1 overflowed computing the entries' length when the index was looked up.
#[test]
fn index_count_disagreeing_with_trailer() {
    let bytes: &[u8] = &[
        0x46, 0x46, 0x53, 0xb5, 0x0d, 0x0a, 0x1a, 0x0a, 0x01, 0x00, 0x00, 0x01, 0x54, 0x45, 0x4c,
        0x45, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x66, 0x6a,
        0x91, 0xd7, 0x20, 0x00, 0x00, 0x00, 0xdf, 0xff, 0xff, 0xff, 0x14, 0x00, 0x00, 0x00, 0x54,
        0x45, 0x4c, 0x45, 0x00, 0x00, 0x00, 0x00, 0x08, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x04, 0x00,
        0x08, 0x00, 0x00, 0x00, 0x00, 0xcd, 0xb0, 0x63, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff,
        0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x20, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x48, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xcf, 0xa1, 0xa2, 0x54, 0x00, 0x00, 0x00, 0x00,
        0x46, 0x46, 0x53, 0x49, 0x4e, 0x44, 0x45, 0x58,
    ];
    let o = read_all(bytes, &ReaderOptions::default());
    assert_eq!(o.frames.len(), 1);
    assert!(o.end.unwrap_err().index);
    let stream = StreamSlice::new(bytes, &ReaderOptions::default()).unwrap();
    assert!(matches!(stream.index(), Err(Error::CorruptIndex { .. })));
    let mut r = StreamReader::new(Cursor::new(bytes), &ReaderOptions::default()).unwrap();
    assert!(matches!(r.seek_frame(0), Err(Error::CorruptIndex { .. })));
    let r = recover_bytes(bytes).unwrap();
    assert_eq!((r.frames, r.valid_len), (1, 72));
}

/// Found by fuzzing (stream_read): an index cut short after a bad entry was reported as cut short
/// by the slice reader and as a bad entry by the stream reader; both now check the entries before
/// the cut first.
#[test]
fn readers_agree_on_a_cut_index_with_a_bad_entry() {
    let bytes: &[u8] = &[
        0x46, 0x46, 0x53, 0xb5, 0x0d, 0x0a, 0x1a, 0x0a, 0x01, 0x00, 0x00, 0x01, 0x54, 0x45, 0x4c,
        0x45, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x66, 0x6a,
        0x91, 0xd7, 0x20, 0x00, 0x00, 0x00, 0xdf, 0xff, 0xff, 0xff, 0x14, 0x00, 0x00, 0x00, 0x54,
        0x45, 0x4c, 0x45, 0x00, 0x00, 0x00, 0x00, 0x08, 0x00, 0x0c, 0x00, 0x00, 0xff, 0xfa, 0x00,
        0x08, 0x00, 0x00, 0x00, 0x00, 0xcd, 0xb0, 0x63, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00,
        0x00, 0xbf, 0xff, 0xff, 0xff, 0x18, 0x00, 0x00, 0x00, 0x54, 0x45, 0x4c, 0x45, 0x00, 0x00,
        0x00, 0x00, 0x0c, 0x00, 0x20, 0x00, 0x08, 0x00, 0x10, 0x00, 0x18, 0x00, 0x04, 0x00, 0x0c,
        0x00, 0x00, 0x00, 0x1c, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x01, 0xcd, 0xb0, 0x63, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf8,
        0x3f, 0x01, 0x00, 0x00, 0x00, 0x70, 0x00, 0x00, 0x00, 0x50, 0x00, 0x00, 0x00, 0xaf, 0xff,
        0xff, 0xff, 0x18, 0x00, 0x00, 0x00, 0x54, 0x45, 0x4c, 0x45, 0x00, 0x00, 0x0e, 0x00, 0x20,
        0x00, 0x08, 0x00, 0x10, 0x00, 0x18, 0x00, 0x00, 0x00, 0x04, 0x00, 0x0e, 0x00, 0x00, 0x00,
        0x20, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0xcd, 0xb0,
        0x63, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x40, 0x00, 0x00,
        0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0xbf, 0xff, 0xff, 0xff,
        0x18, 0x00, 0x00, 0x00, 0x54, 0x45, 0x4c, 0x45, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x20,
        0x00, 0x08, 0x00, 0x10, 0x00, 0x18, 0x00, 0x04, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x1c, 0x00,
        0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xcd, 0xb0, 0x63, 0x00,
        0x00, 0x00, 0x41, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x12, 0x40, 0x03, 0x00, 0x00, 0x00,
        0x70, 0x70, 0x70, 0x00, 0x30, 0x00, 0x00, 0x00, 0xcf, 0xff, 0xff, 0xff, 0x14, 0x00, 0x00,
        0x00, 0x54, 0x45, 0x4c, 0x45, 0x00, 0x00, 0x0a, 0x00, 0x1c, 0x00, 0x04, 0x00, 0x0c, 0x00,
        0x14, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04,
        0xcd, 0xb0, 0x63, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x18, 0x40,
        0x68, 0x00, 0x00, 0x00, 0x97, 0xff, 0xff, 0xff, 0x45, 0x1c, 0x00, 0x54, 0x00, 0x00, 0x4c,
        0x45, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0e, 0x00, 0x24, 0x00, 0x0c, 0x00, 0x14, 0x00,
        0x1c, 0x00, 0x04, 0x00, 0x08, 0x00, 0x0e, 0x00, 0x00, 0x00, 0x3c, 0x00, 0x00, 0x00, 0x20,
        0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0xcd, 0xb0, 0x63,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1e, 0x40, 0x00, 0x00, 0x00,
        0x00, 0x02, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x06, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x70,
        0x70, 0x70, 0x70, 0x70, 0x00, 0x00, 0x00, 0x30, 0x00, 0x00, 0x00, 0xcf, 0xff, 0xff, 0xff,
        0x14, 0x00, 0x00, 0x00, 0x54, 0x45, 0x4c, 0x45, 0x00, 0x00, 0x0a, 0x00, 0x1c, 0x00, 0x04,
        0x00, 0x0c, 0x00, 0x14, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x06, 0xcd, 0xb0, 0x63, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x22, 0x40, 0x48, 0x00, 0x00, 0x00, 0xb7, 0xff, 0xff, 0xff, 0x18, 0x00, 0x00, 0x00,
        0x54, 0x45, 0x4c, 0x45, 0x00, 0x2b, 0x00, 0x00, 0x0c, 0x00, 0x20, 0x00, 0x08, 0x00, 0x10,
        0x00, 0x18, 0x00, 0x04, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x07, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07, 0xcd, 0xb0, 0x63, 0x00, 0x01, 0x03, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x25, 0x40, 0x00, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00,
        0x70, 0x70, 0x70, 0x70, 0x70, 0x70, 0x70, 0x00, 0x50, 0x00, 0x00, 0x00, 0xaf, 0xff, 0xff,
        0xff, 0x18, 0x00, 0x00, 0x00, 0x54, 0x45, 0x4c, 0x45, 0x00, 0x00, 0x0e, 0x00, 0x20, 0x00,
        0x08, 0x00, 0x10, 0x00, 0x18, 0x00, 0x00, 0x00, 0x04, 0x00, 0x0e, 0x00, 0x00, 0x00, 0x20,
        0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0xcd, 0xb0, 0x63,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x28, 0x40, 0x00, 0x00, 0x00,
        0x00, 0x02, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x09, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x09,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x48, 0x00, 0x00, 0x00, 0x00, 0x00, 0xd8, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,
        0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x60, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0xb8, 0x02, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x7b, 0x7b, 0x62, 0x0c, 0x00, 0x00, 0x00, 0x00, 0x46, 0x46, 0x53, 0x49, 0x4e, 0x44,
        0x45, 0x58,
    ];
    let o = read_all(bytes, &ReaderOptions::default());
    let e = o.end.unwrap_err();
    assert!(e.index && e.text.contains("an entry is not"), "{e:?}");
}

#[test]
fn messages_end_at_the_first_invalid_message_with_every_checksum() {
    // Frame 1 is sound but no FlatBuffer; frame 2 is sound and valid, and must not be reached.
    for checksum in Checksum::ALL {
        let opts = WriterOptions::default().checksum(checksum);
        let mut w = flatforge_stream::StreamWriter::new(Vec::new(), opts).unwrap();
        w.write_with(|b| b.create_string("a")).unwrap();
        w.write_message(&[0xFF; 8]).unwrap();
        w.write_with(|b| b.create_string("c")).unwrap();
        let bytes = w.finish().unwrap();
        let stream = StreamSlice::new(&bytes, &ReaderOptions::default()).unwrap();
        let mut messages = stream.messages::<&str>();
        assert_eq!(messages.next().unwrap().unwrap(), "a", "{checksum:?}");
        let e = messages.next().unwrap().unwrap_err();
        assert!(
            matches!(e, Error::InvalidMessage { frame: 1, .. }),
            "{checksum:?}: {e:?}"
        );
        assert!(messages.next().is_none(), "{checksum:?}");
        assert!(messages.next().is_none(), "{checksum:?}");
    }
}
