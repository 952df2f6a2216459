//! WORKLOADS.md §4 with `flatforge-stream` and flatforge's generated `TelemetryEvent` (code from
//! `flatforge-build` in `build.rs`, same schema as the baseline): it joins each `streams/*` group
//! as `flatforge`.
//!
//! Frames are flatforge-stream's format (a header, then 8-aligned frames of length, guard, optional
//! checksum and payload); a reader checks each frame's checksum, verifies its payload with the
//! generated verifier and reads every field, as the baseline does.
//!
//! ```
//! use flatforge_bench_peers::flatforge_streams::{read_events, Writer};
//! use flatforge_bench_peers::streams::{Checksum, Summary};
//!
//! let mut w = Writer::new(Checksum::Crc32c);
//! let stream = w.write_events(100, false).to_vec();
//! assert_eq!(read_events(&stream).unwrap(), Summary::expected(100, false));
//! ```

use crate::streams::{event, Checksum, Event, Summary};
use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions};

/// The generated code for `schemas/telemetry.fbs`.
#[allow(unreachable_pub, dead_code)]
mod telemetry {
    include!(concat!(
        env!("OUT_DIR"),
        "/flatforge/telemetry_generated.rs"
    ));
}

use telemetry::peers::telemetry as fb;

/// The flatforge-stream checksum for the workload's.
pub fn checksum(c: Checksum) -> flatforge_stream::Checksum {
    match c {
        Checksum::None => flatforge_stream::Checksum::None,
        Checksum::Xxh3 => flatforge_stream::Checksum::Xxh3,
        Checksum::Crc32c => flatforge_stream::Checksum::Crc32c,
    }
}

/// A stream writer kept across streams: each [`Writer::write_events`] starts a new stream in a
/// reused `Vec` (`StreamWriter::rotate`) and builds every event straight into the writer's buffers.
pub struct Writer {
    w: StreamWriter<Vec<u8>>,
    spare: Vec<u8>,
}

impl Writer {
    /// A writer framing with `checksum`.
    pub fn new(c: Checksum) -> Self {
        let opts = WriterOptions::default().checksum(checksum(c));
        Self {
            w: StreamWriter::new(Vec::new(), opts).expect("valid options"),
            spare: Vec::new(),
        }
    }

    /// Starts a new stream and writes events `0..count` into it; returns the stream's bytes.
    pub fn write_events(&mut self, count: u64, large: bool) -> &[u8] {
        let mut out = std::mem::take(&mut self.spare);
        out.clear();
        self.spare = self.w.rotate(out).expect("a Vec takes every write");
        for i in 0..count {
            let e = event(i, large);
            self.w
                .write_with(|b| {
                    let payload = e.payload.map(|p| b.create_string(p)).transpose()?;
                    fb::TelemetryEvent::create(
                        b,
                        &fb::TelemetryEventArgs {
                            device_id: e.device_id,
                            timestamp: e.timestamp,
                            value: e.value,
                            payload,
                        },
                    )
                })
                .expect("an event fits");
        }
        self.w.flush().expect("a Vec takes every write");
        self.w.get_ref()
    }
}

impl Writer {
    /// Starts a new stream and writes events `0..count` into it as flatstream-rs's benchmarks
    /// serialize them: each event's three fields as 24 little-endian bytes in a `[ubyte]` vector,
    /// the vector the message's root (no table). Returns the stream's bytes.
    ///
    /// ```
    /// use flatforge_bench_peers::flatforge_streams::{count_frames, Writer};
    /// use flatforge_bench_peers::streams::Checksum;
    ///
    /// let stream = Writer::new(Checksum::None).write_vector_events(100).to_vec();
    /// assert_eq!(count_frames(&stream).unwrap(), 100);
    /// ```
    pub fn write_vector_events(&mut self, count: u64) -> &[u8] {
        let mut out = std::mem::take(&mut self.spare);
        out.clear();
        self.spare = self.w.rotate(out).expect("a Vec takes every write");
        for i in 0..count {
            let e = event(i, false);
            let mut bytes = [0u8; 24];
            bytes[..8].copy_from_slice(&e.device_id.to_le_bytes());
            bytes[8..16].copy_from_slice(&e.timestamp.to_le_bytes());
            bytes[16..].copy_from_slice(&e.value.to_le_bytes());
            self.w
                .write_with(|b| b.create_vector(&bytes))
                .expect("an event fits");
        }
        self.w.flush().expect("a Vec takes every write");
        self.w.get_ref()
    }
}

/// Reads a stream held in memory (a `Vec` or a memory map): checks each frame, verifies its payload
/// with the generated verifier and reads every field.
pub fn read_events(stream: &[u8]) -> Result<Summary, flatforge_stream::Error> {
    let mut summary = Summary::default();
    let stream = StreamSlice::new(stream, &ReaderOptions::default())?;
    for e in stream.messages::<fb::TelemetryEvent>() {
        let e = e?;
        summary.add(&Event {
            device_id: e.device_id(),
            timestamp: e.timestamp(),
            value: e.value(),
            payload: e.payload(),
        });
    }
    Ok(summary)
}

/// Deframes a stream held in memory and counts its frames, checking each frame's framing and
/// checksum but not its payload: the operation flatstream-rs publishes as its read benchmark.
///
/// ```
/// use flatforge_bench_peers::flatforge_streams::{count_frames, Writer};
/// use flatforge_bench_peers::streams::Checksum;
///
/// let stream = Writer::new(Checksum::Xxh3).write_events(100, false).to_vec();
/// assert_eq!(count_frames(&stream).unwrap(), 100);
/// ```
pub fn count_frames(stream: &[u8]) -> Result<u64, flatforge_stream::Error> {
    let stream = StreamSlice::new(stream, &ReaderOptions::default())?;
    let mut count = 0;
    for frame in stream.frames() {
        frame?;
        count += 1;
    }
    Ok(count)
}
