//! Round trips: random messages through every writer path and every reader (proptest), plain
//! streams against the reference flatc in both directions, and aligned zero-copy views from memory
//! maps and the io::Read reader.

mod common;

use std::fs;
use std::path::PathBuf;

use common::{build, event, read, read_all, write_events, Event, TelemetryEvent};
use flatforge::Builder;
use flatforge_stream::{
    Checksum, Format, MappedStream, ReaderOptions, StreamReader, StreamSlice, StreamWriter,
    WriterOptions,
};
use proptest::collection::vec;
use proptest::prelude::*;

fn arb_event() -> impl Strategy<Value = Event> {
    (
        any::<u64>(),
        any::<u64>(),
        -1e300f64..1e300,
        proptest::option::of("[a-zé]{0,300}"),
        proptest::option::of(vec(any::<u64>(), 0..40)),
    )
        .prop_map(|(device_id, timestamp, value, payload, samples)| Event {
            device_id,
            timestamp,
            value,
            payload,
            samples,
        })
}

fn schema() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/schemas/telemetry.fbs")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ffs-{name}-{}", std::process::id()));
    fs::create_dir_all(&dir).expect("temp dir");
    dir
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_writer_path_round_trips_through_every_reader(
        events in vec(arb_event(), 0..40),
        checksum in 0..3usize,
        index in any::<bool>(),
        plain in any::<bool>(),
        batch_bytes in 0usize..3000,
        batch_frames in 1usize..70,
        prebuilt in any::<u64>(),
    ) {
        let mut opts = WriterOptions::default().batch(batch_bytes, batch_frames).file_identifier(*b"TELE");
        if plain {
            opts = opts.format(Format::Plain);
        } else {
            opts = opts.checksum(Checksum::ALL[checksum]).index(index);
        }
        let mut w = StreamWriter::new(Vec::new(), opts).unwrap();
        let mut b = Builder::new();
        for (i, e) in events.iter().enumerate() {
            if prebuilt >> (i % 64) & 1 == 1 {
                // A message finished elsewhere, then framed.
                b.reset();
                let root = build(&mut b, e).unwrap();
                if plain {
                    w.write_size_prefixed(b.finish_size_prefixed(root, Some(b"TELE")).unwrap()).unwrap();
                } else {
                    w.write_message(b.finish(root, Some(b"TELE")).unwrap()).unwrap();
                }
            } else {
                w.write_with(|b| build(b, e)).unwrap();
            }
        }
        prop_assert_eq!(w.frames(), events.len() as u64);
        let len = w.position();
        let bytes = w.finish().unwrap();
        if !index || plain {
            prop_assert_eq!(bytes.len() as u64, len);
        }
        let o = read_all(&bytes, &ReaderOptions::default().format(Format::Auto));
        prop_assert_eq!(&o.end, &Ok(()));
        let expected: Vec<Option<Event>> = events.iter().cloned().map(Some).collect();
        prop_assert_eq!(&o.events, &expected);
        if index && !plain {
            let stream = StreamSlice::new(&bytes, &ReaderOptions::default()).unwrap();
            let idx = stream.index().unwrap();
            prop_assert_eq!(idx.len(), events.len() as u64);
            for (n, e) in events.iter().enumerate() {
                let f = idx.frame(n as u64).unwrap();
                prop_assert_eq!(&read(f.root::<TelemetryEvent>().unwrap()), e);
            }
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in vec(any::<u8>(), 0..600), framed_header in any::<bool>(), checksum in 0..3usize) {
        let mut bytes = bytes;
        if framed_header {
            let h = flatforge_stream::Header::new(Checksum::ALL[checksum]).encode();
            bytes.splice(0..0, h);
        }
        for format in [Format::Framed, Format::Plain, Format::Auto] {
            let _ = read_all(&bytes, &ReaderOptions::default().format(format));
        }
    }
}

#[test]
fn plain_streams_are_concatenated_flatc_size_prefixed_buffers() {
    let dir = temp_dir("flatc");
    let events: Vec<Event> = (0..6).map(event).collect();

    // flatc -> our plain reader.
    let mut concatenated = Vec::new();
    for (i, e) in events.iter().enumerate() {
        let mut json = format!(
            "{{\"device_id\": {}, \"timestamp\": {}, \"value\": {:?}",
            e.device_id, e.timestamp, e.value
        );
        if let Some(p) = &e.payload {
            json.push_str(&format!(", \"payload\": {p:?}"));
        }
        if let Some(s) = &e.samples {
            json.push_str(&format!(", \"samples\": {s:?}"));
        }
        json.push('}');
        let path = dir.join(format!("e{i}.json"));
        fs::write(&path, json).unwrap();
        let out = flatforge_testkit::flatc()
            .args(["-b", "--size-prefixed", "-o"])
            .arg(&dir)
            .arg(schema())
            .arg(&path)
            .output()
            .expect("run flatc");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        concatenated.extend(fs::read(dir.join(format!("e{i}.bin"))).unwrap());
    }
    let plain = ReaderOptions::default().format(Format::Plain);
    let o = read_all(&concatenated, &plain);
    assert_eq!(o.end, Ok(()));
    let expected: Vec<Option<Event>> = events.iter().cloned().map(Some).collect();
    assert_eq!(o.events, expected);

    // Our plain writer -> flatc, one frame at a time.
    let ours = write_events(
        &events,
        WriterOptions::default()
            .format(Format::Plain)
            .file_identifier(*b"TELE"),
    );
    let stream = StreamSlice::new(&ours, &plain).unwrap();
    for (i, frame) in stream.frames().enumerate() {
        let path = dir.join(format!("ours{i}.bin"));
        fs::write(&path, frame.unwrap().buffer()).unwrap();
        let out = flatforge_testkit::flatc()
            .args([
                "--json",
                "--strict-json",
                "--defaults-json",
                "--size-prefixed",
                "--raw-binary",
                "-o",
            ])
            .arg(&dir)
            .arg(schema())
            .arg("--")
            .arg(&path)
            .output()
            .expect("run flatc");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let json = fs::read_to_string(dir.join(format!("ours{i}.json"))).unwrap();
        let e = &events[i];
        assert!(
            json.contains(&format!("\"device_id\": {}", e.device_id)),
            "{json}"
        );
        assert!(
            json.contains(&format!("\"timestamp\": {}", e.timestamp)),
            "{json}"
        );
        if let Some(p) = &e.payload {
            assert!(json.contains(&format!("\"payload\": {p:?}")), "{json}");
        }
    }
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn mapped_and_read_frames_give_aligned_views() {
    let dir = temp_dir("mmap");
    let path = dir.join("events.ffs");
    let events: Vec<Event> = (0..40)
        .map(|i| Event {
            samples: Some((0..i % 7 + 1).collect()),
            payload: Some("x".repeat(i as usize % 11)),
            ..event(i)
        })
        .collect();
    for checksum in Checksum::ALL {
        let opts = WriterOptions::default().checksum(checksum).index(true);
        let mut w = StreamWriter::new(fs::File::create(&path).unwrap(), opts).unwrap();
        for e in &events {
            w.write_with(|b| build(b, e)).unwrap();
        }
        w.sync().unwrap();
        w.finish().unwrap();

        // SAFETY: the test owns the file and does not change it while it is mapped.
        let map = unsafe { MappedStream::open(&path, &ReaderOptions::default()) }.unwrap();
        let stream = map.slice();
        let mut n = 0;
        for (m, e) in stream.messages::<TelemetryEvent>().zip(&events) {
            let m = m.unwrap();
            let samples = m.samples().unwrap();
            assert_eq!(
                samples.as_native_slice(),
                Some(&e.samples.as_ref().unwrap()[..])
            );
            n += 1;
        }
        assert_eq!(n, events.len());
        let index = stream.index().unwrap();
        let last = index.frame(39).unwrap().root::<TelemetryEvent>().unwrap();
        assert!(last.samples().unwrap().as_native_slice().is_some());
        drop(map);

        for read_ahead in [64, 1000, 64 << 10] {
            let file = fs::File::open(&path).unwrap();
            let mut r =
                StreamReader::new(file, &ReaderOptions::default().read_ahead(read_ahead)).unwrap();
            let mut seen = 0;
            r.for_each(|f| {
                let m = f.root::<TelemetryEvent>()?;
                let e = &events[f.number() as usize];
                assert_eq!(read(m), *e);
                let samples = m.samples().unwrap();
                assert_eq!(
                    samples.as_native_slice(),
                    Some(&e.samples.as_ref().unwrap()[..])
                );
                seen += 1;
                Ok::<(), flatforge_stream::Error>(())
            })
            .unwrap();
            assert_eq!(seen, events.len());
            assert!(r.ended_with_index());
        }
    }
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn empty_streams() {
    for opts in [
        WriterOptions::default(),
        WriterOptions::default()
            .index(true)
            .checksum(Checksum::Crc32c),
        WriterOptions::default().format(Format::Plain),
    ] {
        let bytes = write_events(&[], opts.clone());
        let o = read_all(&bytes, &ReaderOptions::default().format(Format::Auto));
        assert_eq!((o.frames.len(), o.end), (0, Ok(())), "{opts:?}");
    }
    let dir = temp_dir("empty");
    let path = dir.join("empty.ffs");
    fs::write(&path, b"").unwrap();
    // SAFETY: the test owns the file.
    let plain =
        unsafe { MappedStream::open(&path, &ReaderOptions::default().format(Format::Plain)) };
    assert_eq!(plain.unwrap().slice().frames().count(), 0);
    // SAFETY: as above.
    let framed = unsafe { MappedStream::open(&path, &ReaderOptions::default()) };
    assert!(framed.unwrap_err().is_truncation());
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn writer_options_that_contradict_the_format_are_refused() {
    let plain = WriterOptions::default().format(Format::Plain);
    for opts in [
        plain.clone().checksum(Checksum::Xxh3),
        plain.clone().index(true),
        plain.clone().schema_hash(1),
        WriterOptions::default().format(Format::Auto),
    ] {
        assert!(StreamWriter::new(Vec::new(), opts).is_err());
    }
    let mut w = StreamWriter::new(Vec::new(), plain).unwrap();
    assert!(w.write_message(&[0; 8]).is_err());
    assert!(w.write_size_prefixed(&[9, 0, 0, 0, 1]).is_err());
    let mut w = StreamWriter::new(Vec::new(), WriterOptions::default()).unwrap();
    assert!(w.write_size_prefixed(&[0, 0, 0, 0]).is_err());
}

/// A sink that fails after `budget` bytes: the writer reports it with the offset and refuses more.
struct Failing {
    budget: usize,
    written: Vec<u8>,
}

impl std::io::Write for Failing {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.budget == 0 {
            return Err(std::io::Error::other("disk full"));
        }
        let n = buf.len().min(self.budget);
        self.budget -= n;
        self.written.extend_from_slice(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_failed_write_leaves_a_recoverable_stream() {
    let events: Vec<Event> = (0..50).map(event).collect();
    let full = write_events(&events, WriterOptions::default().batch(0, 1));
    for budget in [40, 333, 1000, full.len() - 3] {
        let sink = Failing {
            budget,
            written: Vec::new(),
        };
        let mut w = StreamWriter::new(sink, WriterOptions::default().batch(0, 1)).unwrap();
        let mut failed = false;
        for e in &events {
            match w.write_with(|b| build(b, e)) {
                Ok(_) => assert!(!failed),
                Err(err) => {
                    if failed {
                        assert!(
                            matches!(err, flatforge_stream::Error::WriterFailed),
                            "{err}"
                        );
                    } else {
                        assert!(err.to_string().contains("disk full"), "{err}");
                    }
                    failed = true;
                }
            }
        }
        assert!(failed && w.finish().is_err());
    }
    // What reached the sink is a prefix of the stream: recover keeps its complete frames.
    let sink = Failing {
        budget: 1000,
        written: Vec::new(),
    };
    let mut w = StreamWriter::new(sink, WriterOptions::default().batch(0, 1)).unwrap();
    for e in &events {
        if w.write_with(|b| build(b, e)).is_err() {
            break;
        }
    }
    let written = w.get_ref().written.clone();
    assert_eq!(written, full[..1000]);
    let r = flatforge_stream::recover(
        std::io::Cursor::new(&written),
        &ReaderOptions::default(),
        |_| Ok(()),
    )
    .unwrap();
    let o = read_all(&written[..r.valid_len as usize], &ReaderOptions::default());
    assert_eq!(o.end, Ok(()));
    assert_eq!(
        o.events,
        events[..o.events.len()]
            .iter()
            .cloned()
            .map(Some)
            .collect::<Vec<_>>()
    );
    assert!(r.frames > 10);
}

/// Found by fuzzing (stream_read): a frame whose `value` is NaN made the readers look different
/// to the harness, which compared floats by value; they are compared bit for bit.
#[test]
fn readers_agree_on_nan_values() {
    let events = [Event {
        value: f64::NAN,
        ..event(1)
    }];
    let bytes = write_events(&events, WriterOptions::default());
    let o = read_all(&bytes, &ReaderOptions::default());
    assert_eq!(o.events, [Some(events[0].clone())]);
}

#[test]
fn frames_copied_into_the_batch_and_frames_left_in_their_builder_interleave() {
    // Frames from a few hundred bytes to 2 KiB, so that they fall on both sides of the size up to
    // which the writer copies a frame into its batch (and not the builder it was built in), in
    // every order, with every batching and checksum.
    let events: Vec<Event> = (0..120u64)
        .map(|i| Event {
            payload: Some("x".repeat(((i * 37) % 97) as usize * 20)),
            ..event(i)
        })
        .collect();
    for checksum in Checksum::ALL {
        for (bytes, frames) in [(0, 1), (3000, 5), (64 << 10, 64)] {
            let opts = WriterOptions::default()
                .checksum(checksum)
                .index(true)
                .batch(bytes, frames);
            let stream = write_events(&events, opts.clone());
            let o = read_all(&stream, &ReaderOptions::default());
            assert_eq!(o.end, Ok(()));
            let expected: Vec<Option<Event>> = events.iter().cloned().map(Some).collect();
            assert_eq!(o.events, expected, "{checksum:?} {bytes} {frames}");
            // The same frames, byte for byte, whatever the batching.
            let unbatched = write_events(&events, opts.clone().batch(0, 1));
            assert_eq!(stream, unbatched);
            // And as messages finished first, then framed (the header written from the payload).
            let mut w = StreamWriter::new(Vec::new(), opts).unwrap();
            let mut b = Builder::new();
            for e in &events {
                b.reset();
                let root = build(&mut b, e).unwrap();
                w.write_message(b.finish(root, None).unwrap()).unwrap();
            }
            assert_eq!(stream, w.finish().unwrap(), "{checksum:?} {bytes} {frames}");
        }
    }
}

#[test]
fn a_full_batch_of_frames_left_in_their_builders_fits_one_vectored_write() {
    // Every frame stays in its builder (two pieces each: its header and its payload) and only the
    // frame count limits the batch: a full batch of 64 frames is 128 pieces, the most one
    // vectored write takes; nothing is lost or reordered.
    let events: Vec<Event> = (0..200u64)
        .map(|i| Event {
            payload: Some("y".repeat(1100 + i as usize)),
            ..event(i)
        })
        .collect();
    let stream = write_events(
        &events,
        WriterOptions::default().batch(usize::MAX, usize::MAX),
    );
    let o = read_all(&stream, &ReaderOptions::default());
    assert_eq!(o.end, Ok(()));
    let expected: Vec<Option<Event>> = events.iter().cloned().map(Some).collect();
    assert_eq!(o.events, expected);
    assert_eq!(
        stream,
        write_events(&events, WriterOptions::default().batch(0, 1))
    );
}
