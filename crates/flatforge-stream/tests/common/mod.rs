//! Shared by the integration tests: TelemetryEvent values, a stream writer for them, and a harness
//! that reads a stream through every reader (slice, io::Read with several read sizes) and checks
//! that they all see the same frames and the same error.
#![allow(dead_code, unreachable_pub)]

use std::io::{self, Read};

use flatforge::{BuildError, Builder, Offset};
use flatforge_stream::{
    Error, ReaderOptions, StreamReader, StreamSlice, StreamWriter, WriterOptions,
};
pub use flatforge_stream_fixtures::telemetry::flatforge::stream::fixtures::{
    TelemetryEvent, TelemetryEventArgs,
};

/// The fields of one TelemetryEvent.
#[derive(Clone, Debug)]
pub struct Event {
    pub device_id: u64,
    pub timestamp: u64,
    pub value: f64,
    pub payload: Option<String>,
    pub samples: Option<Vec<u64>>,
}

/// Bit-exact, so that a NaN read from a damaged frame equals itself when readers are compared.
impl PartialEq for Event {
    fn eq(&self, other: &Self) -> bool {
        (
            self.device_id,
            self.timestamp,
            self.value.to_bits(),
            &self.payload,
            &self.samples,
        ) == (
            other.device_id,
            other.timestamp,
            other.value.to_bits(),
            &other.payload,
            &other.samples,
        )
    }
}

/// Event `i` of the test streams: every third has a payload of varying length, every fourth samples.
pub fn event(i: u64) -> Event {
    Event {
        device_id: i,
        timestamp: 1_672_531_200 + i,
        value: i as f64 * 1.5,
        payload: (i % 3 == 1).then(|| "p".repeat(i as usize % 13)),
        samples: (i % 4 == 2).then(|| (0..i % 5).map(|k| k * 1000 + i).collect()),
    }
}

pub fn build(b: &mut Builder, e: &Event) -> Result<Offset<TelemetryEvent<'static>>, BuildError> {
    let payload = e
        .payload
        .as_deref()
        .map(|p| b.create_string(p))
        .transpose()?;
    let samples = e
        .samples
        .as_deref()
        .map(|s| b.create_vector(s))
        .transpose()?;
    TelemetryEvent::create(
        b,
        &TelemetryEventArgs {
            device_id: e.device_id,
            timestamp: e.timestamp,
            value: e.value,
            payload,
            samples,
        },
    )
}

pub fn read(t: TelemetryEvent<'_>) -> Event {
    Event {
        device_id: t.device_id(),
        timestamp: t.timestamp(),
        value: t.value(),
        payload: t.payload().map(str::to_owned),
        samples: t.samples().map(|s| s.iter().collect()),
    }
}

/// A stream of `events` written with `opts` (through `write_with`).
pub fn write_events(events: &[Event], opts: WriterOptions) -> Vec<u8> {
    let mut w = StreamWriter::new(Vec::new(), opts).expect("valid options");
    for e in events {
        w.write_with(|b| build(b, e)).expect("write to a Vec");
    }
    w.finish().expect("finish to a Vec")
}

/// What a reader saw: `(number, offset, payload)` of each frame, the decoded events of the frames
/// that verify, and how it ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub frames: Vec<(u64, u64, Vec<u8>)>,
    pub events: Vec<Option<Event>>,
    pub end: Result<(), Summary>,
}

/// An error, reduced to what every reader must agree on.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub text: String,
    pub frame: Option<u64>,
    pub offset: Option<u64>,
    pub truncation: bool,
    pub index: bool,
}

impl Summary {
    pub fn of(e: &Error) -> Summary {
        Summary {
            text: e.to_string(),
            frame: e.frame(),
            offset: e.offset(),
            truncation: e.is_truncation(),
            index: matches!(e, Error::CorruptIndex { .. }),
        }
    }
}

fn push(o: &mut Outcome, f: &flatforge_stream::Frame<'_>) {
    o.frames
        .push((f.number(), f.offset(), f.payload().to_vec()));
    o.events.push(f.root::<TelemetryEvent>().ok().map(read));
}

fn via_slice(bytes: &[u8], opts: &ReaderOptions) -> Outcome {
    let mut o = Outcome {
        frames: Vec::new(),
        events: Vec::new(),
        end: Ok(()),
    };
    let stream = match StreamSlice::new(bytes, opts) {
        Ok(s) => s,
        Err(e) => {
            o.end = Err(Summary::of(&e));
            return o;
        }
    };
    for f in stream.frames() {
        match f {
            Ok(f) => push(&mut o, &f),
            Err(e) => o.end = Err(Summary::of(&e)),
        }
    }
    o
}

/// Hands out at most `n` bytes per read call.
struct Trickle<'a> {
    data: &'a [u8],
    n: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.n.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn via_reader(bytes: &[u8], opts: &ReaderOptions, per_read: usize) -> Outcome {
    let mut o = Outcome {
        frames: Vec::new(),
        events: Vec::new(),
        end: Ok(()),
    };
    let src = Trickle {
        data: bytes,
        n: per_read,
    };
    let mut r = match StreamReader::new(src, opts) {
        Ok(r) => r,
        Err(e) => {
            o.end = Err(Summary::of(&e));
            return o;
        }
    };
    loop {
        match r.next_frame() {
            Ok(Some(f)) => push(&mut o, &f),
            Ok(None) => break,
            Err(e) => {
                o.end = Err(Summary::of(&e));
                break;
            }
        }
    }
    assert!(matches!(r.next_frame(), Ok(None)), "a reader stays ended");
    o
}

/// Reads `bytes` through every reader and checks that they agree.
pub fn read_all(bytes: &[u8], opts: &ReaderOptions) -> Outcome {
    let slice = via_slice(bytes, opts);
    for (read_ahead, per_read) in [(64 << 10, usize::MAX), (64, usize::MAX), (64, 7), (100, 1)] {
        let o = via_reader(bytes, &opts.clone().read_ahead(read_ahead), per_read);
        assert_eq!(
            o, slice,
            "StreamReader (read-ahead {read_ahead}, {per_read} bytes per read) disagrees with StreamSlice"
        );
    }
    slice
}
