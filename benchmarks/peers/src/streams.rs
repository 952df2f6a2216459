//! WORKLOADS.md §4, flatstream-rs framed streams, on `schemas/telemetry.fbs`.
//!
//! Event `i` is [`event`]`(i)`: `TelemetryEvent {device_id: i, timestamp: 1672531200 + i, value:
//! i * 1.5}`; large messages add [`LARGE_PAYLOAD`] (4096 bytes) as `payload`. flatstream-rs cannot
//! be installed here, so the peer is [`baseline`]: frames written and read with the official crate,
//! in flatstream's layout `[u32 LE payload length][checksum][payload]` with no checksum, XXH3-64 or
//! CRC32C. A reader reads every field of every event into a [`Summary`], which must equal
//! [`Summary::expected`].
//!
//! ```
//! use flatforge_bench_peers::streams::{baseline, Checksum, Summary};
//!
//! let mut writer = baseline::Writer::new(Checksum::Xxh3);
//! let mut stream = Vec::new();
//! writer.write_events(&mut stream, 100, false);
//! assert_eq!(baseline::read_events(&stream, Checksum::Xxh3).unwrap(), Summary::expected(100, false));
//! ```

/// `timestamp` of event 0.
pub const BASE_TIMESTAMP: u64 = 1_672_531_200;

/// The length of a large message's payload string.
pub const LARGE_PAYLOAD_LEN: usize = 4096;

const fn large_payload() -> [u8; LARGE_PAYLOAD_LEN] {
    let mut bytes = [0; LARGE_PAYLOAD_LEN];
    let mut i = 0;
    while i < LARGE_PAYLOAD_LEN {
        bytes[i] = b'a' + (i % 26) as u8;
        i += 1;
    }
    bytes
}

const LARGE_PAYLOAD_BYTES: [u8; LARGE_PAYLOAD_LEN] = large_payload();

/// The payload of a large message: 4096 ASCII letters, `abc…zabc…`.
///
/// ```
/// use flatforge_bench_peers::streams::LARGE_PAYLOAD;
/// assert_eq!((LARGE_PAYLOAD.len(), &LARGE_PAYLOAD[..3]), (4096, "abc"));
/// ```
pub const LARGE_PAYLOAD: &str = match std::str::from_utf8(&LARGE_PAYLOAD_BYTES) {
    Ok(s) => s,
    Err(_) => panic!("the payload is ASCII"),
};

/// The fields of one message.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Event<'a> {
    /// `device_id`.
    pub device_id: u64,
    /// `timestamp`.
    pub timestamp: u64,
    /// `value`.
    pub value: f64,
    /// `payload`, written only by the large-message workload.
    pub payload: Option<&'a str>,
}

/// Event `i` of a stream; `large` adds [`LARGE_PAYLOAD`].
///
/// ```
/// let e = flatforge_bench_peers::streams::event(2, false);
/// assert_eq!((e.device_id, e.timestamp, e.value), (2, 1672531202, 3.0));
/// ```
pub fn event(i: u64, large: bool) -> Event<'static> {
    Event {
        device_id: i,
        timestamp: BASE_TIMESTAMP + i,
        value: i as f64 * 1.5,
        payload: large.then_some(LARGE_PAYLOAD),
    }
}

/// What a reader saw: every field of every event, folded.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Summary {
    /// Messages read.
    pub messages: u64,
    /// Wrapping sum of `device_id`.
    pub device_ids: u64,
    /// Wrapping sum of `timestamp`.
    pub timestamps: u64,
    /// Sum of `value`.
    pub values: f64,
    /// Total length of the payloads.
    pub payload_bytes: u64,
}

impl Summary {
    /// Folds one event in.
    pub fn add(&mut self, event: &Event<'_>) {
        self.messages += 1;
        self.device_ids = self.device_ids.wrapping_add(event.device_id);
        self.timestamps = self.timestamps.wrapping_add(event.timestamp);
        self.values += event.value;
        self.payload_bytes += event.payload.map_or(0, |p| p.len() as u64);
    }

    /// The summary of events `0..count`.
    ///
    /// ```
    /// use flatforge_bench_peers::streams::Summary;
    /// assert_eq!(Summary::expected(50, true).payload_bytes, 50 * 4096);
    /// ```
    pub fn expected(count: u64, large: bool) -> Self {
        let mut summary = Self::default();
        for i in 0..count {
            summary.add(&event(i, large));
        }
        summary
    }
}

/// The checksum of a frame, stored between the length and the payload.
///
/// ```
/// use flatforge_bench_peers::streams::Checksum;
/// assert_eq!(Checksum::ALL.map(Checksum::len), [0, 8, 4]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checksum {
    /// No checksum.
    None,
    /// XXH3-64 of the payload, 8 bytes LE.
    Xxh3,
    /// CRC32C of the payload, 4 bytes LE.
    Crc32c,
}

impl Checksum {
    /// The three framings of the workload.
    pub const ALL: [Self; 3] = [Self::None, Self::Xxh3, Self::Crc32c];

    /// Bytes the checksum takes in a frame.
    pub fn len(self) -> usize {
        match self {
            Self::None => 0,
            Self::Xxh3 => 8,
            Self::Crc32c => 4,
        }
    }

    /// Whether frames carry no checksum.
    pub fn is_empty(self) -> bool {
        self == Self::None
    }

    /// The name used in benchmark ids (`""` for none).
    pub fn suffix(self) -> &'static str {
        match self {
            Self::None => "",
            Self::Xxh3 => "_xxh3",
            Self::Crc32c => "_crc32c",
        }
    }

    fn compute(self, payload: &[u8]) -> u64 {
        match self {
            Self::None => 0,
            Self::Xxh3 => xxhash_rust::xxh3::xxh3_64(payload),
            Self::Crc32c => u64::from(crc32c::crc32c(payload)),
        }
    }
}

/// A malformed stream, with the byte offset of the frame at fault.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StreamError {
    /// The stream ends inside a frame.
    #[error("truncated frame at byte {offset}")]
    Truncated {
        /// Offset of the frame.
        offset: usize,
    },
    /// The payload does not match its checksum.
    #[error("checksum mismatch in the frame at byte {offset}")]
    ChecksumMismatch {
        /// Offset of the frame.
        offset: usize,
    },
    /// The payload is not a valid `TelemetryEvent`.
    #[error("invalid TelemetryEvent in the frame at byte {offset}: {source}")]
    Invalid {
        /// Offset of the frame.
        offset: usize,
        /// What the verifier found.
        source: flatbuffers::InvalidFlatbuffer,
    },
}

/// The baseline: frames written and read with the official `flatbuffers` crate.
pub mod baseline {
    use super::{event, Checksum, Event, StreamError, Summary};
    use crate::generated::official_telemetry::peers::telemetry as fb;
    use flatbuffers::FlatBufferBuilder;

    /// Builds events with one reused builder and frames them.
    ///
    /// ```
    /// use flatforge_bench_peers::streams::{baseline, event, Checksum};
    /// let mut writer = baseline::Writer::new(Checksum::None);
    /// let mut stream = Vec::new();
    /// writer.write(&mut stream, &event(1, false));
    /// assert_eq!(u32::from_le_bytes(stream[..4].try_into().unwrap()) as usize, stream.len() - 4);
    /// ```
    pub struct Writer {
        fbb: FlatBufferBuilder<'static>,
        checksum: Checksum,
    }

    impl Writer {
        /// A writer framing with `checksum`.
        pub fn new(checksum: Checksum) -> Self {
            Self {
                fbb: FlatBufferBuilder::with_capacity(8192),
                checksum,
            }
        }

        /// Builds `event` and appends its frame to `out`.
        pub fn write(&mut self, out: &mut Vec<u8>, event: &Event<'_>) {
            let fbb = &mut self.fbb;
            fbb.reset();
            let payload = event.payload.map(|p| fbb.create_string(p));
            let root = fb::TelemetryEvent::create(
                fbb,
                &fb::TelemetryEventArgs {
                    device_id: event.device_id,
                    timestamp: event.timestamp,
                    value: event.value,
                    payload,
                },
            );
            fbb.finish(root, None);
            let payload = fbb.finished_data();
            let len = u32::try_from(payload.len()).expect("an event is far below 4 GiB");
            out.extend_from_slice(&len.to_le_bytes());
            let checksum = self.checksum.compute(payload).to_le_bytes();
            out.extend_from_slice(&checksum[..self.checksum.len()]);
            out.extend_from_slice(payload);
        }

        /// Clears `out`, then writes events `0..count` into it.
        pub fn write_events(&mut self, out: &mut Vec<u8>, count: u64, large: bool) {
            out.clear();
            for i in 0..count {
                self.write(out, &event(i, large));
            }
        }
    }

    /// Deframes `stream`, checks each checksum, verifies each payload and reads all its fields.
    ///
    /// ```
    /// use flatforge_bench_peers::streams::{baseline, Checksum};
    /// let mut stream = Vec::new();
    /// baseline::Writer::new(Checksum::Crc32c).write_events(&mut stream, 3, false);
    /// stream[20] ^= 1;
    /// assert!(baseline::read_events(&stream, Checksum::Crc32c).is_err());
    /// ```
    pub fn read_events(stream: &[u8], checksum: Checksum) -> Result<Summary, StreamError> {
        let mut summary = Summary::default();
        let mut offset = 0;
        while offset < stream.len() {
            let header = 4 + checksum.len();
            let truncated = StreamError::Truncated { offset };
            let frame = stream.get(offset..offset + header).ok_or(truncated)?;
            let (len, stored) = frame.split_at(4);
            let len = u32::from_le_bytes(len.try_into().expect("4 bytes")) as usize;
            let payload = stream
                .get(offset + header..)
                .and_then(|rest| rest.get(..len))
                .ok_or(StreamError::Truncated { offset })?;
            let mut expected = [0; 8];
            expected[..stored.len()].copy_from_slice(stored);
            if checksum.compute(payload) != u64::from_le_bytes(expected) {
                return Err(StreamError::ChecksumMismatch { offset });
            }
            let e = fb::root_as_telemetry_event(payload)
                .map_err(|source| StreamError::Invalid { offset, source })?;
            summary.add(&Event {
                device_id: e.device_id(),
                timestamp: e.timestamp(),
                value: e.value(),
                payload: e.payload(),
            });
            offset += header + len;
        }
        Ok(summary)
    }
}
