//! The byte layout of version 1 (specified in the crate docs): the stream header, frame headers,
//! the end marker and index footer, and the one deframing step every reader shares.

use crate::error::Error;

/// The first 8 bytes of a framed stream. Byte 3 has its high bit set, so that no plain stream
/// (whose first 4 bytes are a length below 2^31) starts with it; `\r\n`, `\x1a` and `\n` catch
/// text-mode transfers, as in PNG.
///
/// ```
/// use flatforge_stream::{Format, StreamWriter, WriterOptions, MAGIC};
/// let framed = StreamWriter::new(Vec::new(), WriterOptions::default())?.finish()?;
/// assert_eq!(framed[..8], MAGIC);
/// let plain = WriterOptions::default().format(Format::Plain);
/// let mut w = StreamWriter::new(Vec::new(), plain)?;
/// w.write_with(|b| b.create_string("no header"))?;
/// assert_ne!(w.finish()?[..8], MAGIC);
/// # Ok::<(), flatforge_stream::Error>(())
/// ```
pub const MAGIC: [u8; 8] = [b'F', b'F', b'S', 0xB5, b'\r', b'\n', 0x1A, b'\n'];

/// The format version this crate writes and reads.
///
/// ```
/// use flatforge_stream::{Error, Header, ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
/// use flatforge_stream::VERSION;
/// let bytes = StreamWriter::new(Vec::new(), WriterOptions::default())?.finish()?;
/// assert_eq!(bytes[8..10], VERSION.to_le_bytes());
/// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
/// assert_eq!(stream.header().map(|h| h.version), Some(VERSION));
///
/// // A header of another version (with its checksum fixed up) is rejected.
/// let mut next = Header::new(Default::default());
/// next.version = VERSION + 1;
/// let err = StreamSlice::new(&next.encode(), &ReaderOptions::default()).unwrap_err();
/// assert!(matches!(err, Error::UnsupportedVersion { version } if version == VERSION + 1));
/// # Ok::<(), flatforge_stream::Error>(())
/// ```
pub const VERSION: u16 = 1;

/// The size of the stream header.
///
/// ```
/// use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions, HEADER_LEN};
/// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
/// assert_eq!(w.position(), HEADER_LEN as u64); // the header is the first thing written
/// w.write_with(|b| b.create_string("first"))?;
/// let bytes = w.finish()?;
/// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
/// assert_eq!(stream.frames().next().unwrap()?.offset(), HEADER_LEN as u64);
/// # Ok::<(), flatforge_stream::Error>(())
/// ```
pub const HEADER_LEN: usize = 32;

/// Frames (and the index) start at stream offsets that are multiples of this.
///
/// ```
/// use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions, FRAME_ALIGN};
/// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
/// for text in ["a", "bcd", "efghijk"] {
///     w.write_with(|b| b.create_string(text))?;
/// }
/// let bytes = w.finish()?;
/// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
/// for frame in stream.frames() {
///     let frame = frame?;
///     assert_eq!(frame.offset() % FRAME_ALIGN as u64, 0);
///     // The payload is aligned too: its address in the stream is a multiple of 8.
///     let at = frame.payload().as_ptr() as usize - bytes.as_ptr() as usize;
///     assert_eq!(at % FRAME_ALIGN, 0);
/// }
/// # Ok::<(), flatforge_stream::Error>(())
/// ```
pub const FRAME_ALIGN: usize = 8;

/// The largest payload a frame can hold: FlatBuffers address at most 2^31 - 1 bytes.
///
/// ```
/// use flatforge_stream::{ReaderOptions, WriterOptions, MAX_PAYLOAD_LEN};
/// assert_eq!(MAX_PAYLOAD_LEN, (1 << 31) - 1);
/// // Larger limits are clamped to it.
/// assert_eq!(WriterOptions::default().max_frame_len(usize::MAX).max_frame_len, MAX_PAYLOAD_LEN);
/// assert_eq!(ReaderOptions::default().max_frame_len(usize::MAX).max_frame_len, MAX_PAYLOAD_LEN);
/// ```
pub const MAX_PAYLOAD_LEN: usize = flatforge::MAX_BUFFER_SIZE;

/// The last 8 bytes of a stream that ends with an index footer.
///
/// ```
/// use flatforge_stream::{StreamWriter, WriterOptions, INDEX_MAGIC};
/// let finish = |index| -> Result<Vec<u8>, flatforge_stream::Error> {
///     let mut w = StreamWriter::new(Vec::new(), WriterOptions::default().index(index))?;
///     w.write_with(|b| b.create_string("frame"))?;
///     w.finish()
/// };
/// assert!(finish(true)?.ends_with(&INDEX_MAGIC));
/// assert!(!finish(false)?.ends_with(&INDEX_MAGIC));
/// # Ok::<(), flatforge_stream::Error>(())
/// ```
pub const INDEX_MAGIC: [u8; 8] = *b"FFSINDEX";

/// The size of the smallest FlatBuffer: a root offset, then at least the 4 bytes of the object it
/// points to. A plain stream's size prefix below it is damage, not a frame.
pub(crate) const MIN_MESSAGE_LEN: u32 = 8;

/// The length field of the end marker that precedes the index (its guard is 0, the complement).
pub(crate) const END_MARKER: u32 = u32::MAX;

/// The size of the index trailer (the last bytes of an indexed stream).
pub(crate) const TRAILER_LEN: usize = 32;

const FLAG_IDENTIFIER: u8 = 1;
const FLAG_SCHEMA_HASH: u8 = 2;

/// The checksum each frame of a stream carries. The header's checksum byte has room for more
/// kinds, so the enum may grow: a `match` on it needs a wildcard arm.
///
/// ```
/// use flatforge_stream::Checksum;
/// assert_eq!(Checksum::Crc32c.compute(b"123456789"), 0xe306_9283); // the CRC-32C check value
/// assert_eq!("xxh3".parse::<Checksum>(), Ok(Checksum::Xxh3));
/// assert_eq!(Checksum::None.frame_header_len(), 8);
/// assert_eq!(Checksum::Xxh3.frame_header_len(), 16);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Checksum {
    /// No checksum: frames are `length, guard, payload`.
    #[default]
    None,
    /// CRC-32C (Castagnoli) of the payload, computed with the CPU's CRC instructions when present.
    Crc32c,
    /// XXH3-64 of the payload (seed 0).
    Xxh3,
}

impl Checksum {
    /// Every kind.
    ///
    /// ```
    /// use flatforge_stream::Checksum;
    /// assert_eq!(Checksum::ALL.len(), 3);
    /// for kind in Checksum::ALL {
    ///     assert_eq!(Checksum::from_code(kind.code()), Some(kind));
    ///     assert_eq!(kind.name().parse::<Checksum>(), Ok(kind));
    /// }
    /// ```
    pub const ALL: [Checksum; 3] = [Checksum::None, Checksum::Crc32c, Checksum::Xxh3];

    /// The code stored in the stream header.
    ///
    /// ```
    /// use flatforge_stream::{Checksum, Header};
    /// assert_eq!(Checksum::Xxh3.code(), 2);
    /// assert_eq!(Header::new(Checksum::Xxh3).encode()[10], Checksum::Xxh3.code()); // byte 10
    /// ```
    pub fn code(self) -> u8 {
        match self {
            Checksum::None => 0,
            Checksum::Crc32c => 1,
            Checksum::Xxh3 => 2,
        }
    }

    /// The kind for a header code.
    ///
    /// ```
    /// use flatforge_stream::Checksum;
    /// assert_eq!(Checksum::from_code(1), Some(Checksum::Crc32c));
    /// assert_eq!(Checksum::from_code(9), None);
    /// ```
    pub fn from_code(code: u8) -> Option<Checksum> {
        match code {
            0 => Some(Checksum::None),
            1 => Some(Checksum::Crc32c),
            2 => Some(Checksum::Xxh3),
            _ => None,
        }
    }

    /// The size of a frame header with this checksum: 8 (length and guard), plus 8 for a checksum.
    ///
    /// ```
    /// use flatforge_stream::{Checksum, ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// use flatforge_stream::HEADER_LEN;
    /// for kind in Checksum::ALL {
    ///     let mut w = StreamWriter::new(Vec::new(), WriterOptions::default().checksum(kind))?;
    ///     w.write_with(|b| b.create_string("one frame"))?;
    ///     let bytes = w.finish()?;
    ///     let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    ///     let payload = stream.frames().next().unwrap()?.payload().len();
    ///     // stream header, frame header, payload: nothing else.
    ///     assert_eq!(bytes.len(), HEADER_LEN + kind.frame_header_len() + payload);
    /// }
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    #[inline]
    pub fn frame_header_len(self) -> usize {
        match self {
            Checksum::None => 8,
            Checksum::Crc32c | Checksum::Xxh3 => 16,
        }
    }

    /// The checksum of `payload` (CRC-32C zero-extended to 64 bits).
    ///
    /// ```
    /// use flatforge_stream::{Checksum, ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// assert_eq!(Checksum::Crc32c.compute(b"123456789"), 0xe306_9283); // the CRC-32C check value
    /// assert_eq!(Checksum::None.compute(b"123456789"), 0);
    ///
    /// // A frame header stores (at bytes 8..16 of the frame) `compute` of its payload.
    /// let opts = WriterOptions::default().checksum(Checksum::Xxh3);
    /// let mut w = StreamWriter::new(Vec::new(), opts)?;
    /// w.write_with(|b| b.create_string("checked"))?;
    /// let bytes = w.finish()?;
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    /// let frame = stream.frames().next().unwrap()?;
    /// let at = frame.offset() as usize;
    /// let stored = u64::from_le_bytes(bytes[at + 8..at + 16].try_into().unwrap());
    /// assert_eq!(stored, Checksum::Xxh3.compute(frame.payload()));
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    #[inline]
    pub fn compute(self, payload: &[u8]) -> u64 {
        match self {
            Checksum::None => 0,
            Checksum::Crc32c => u64::from(crc32c(payload)),
            Checksum::Xxh3 => xxhash_rust::xxh3::xxh3_64(payload),
        }
    }

    /// The name used on the command line and in messages.
    ///
    /// ```
    /// use flatforge_stream::Checksum;
    /// assert_eq!(Checksum::Crc32c.name(), "crc32c");
    /// assert_eq!(Checksum::Crc32c.to_string(), "crc32c"); // `Display` prints the name
    /// assert_eq!("crc32c".parse::<Checksum>(), Ok(Checksum::Crc32c)); // and `FromStr` reads it
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Checksum::None => "none",
            Checksum::Crc32c => "crc32c",
            Checksum::Xxh3 => "xxh3",
        }
    }
}

/// Inputs shorter than this take [`crc32c_sse42`] on CPUs with SSE4.2: below 3 × 256 bytes, the
/// `crc32c` crate's shortest interleaved block, the crate runs the same serial loop of 8-byte CRC
/// instructions, after a setup that costs more than the whole CRC of a small frame's payload.
const SHORT_CRC: usize = 3 * 256;

/// CRC-32C (Castagnoli) of `data`, as `crc32c::crc32c` computes it.
#[inline]
pub(crate) fn crc32c(data: &[u8]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if data.len() < SHORT_CRC && std::is_x86_feature_detected!("sse4.2") {
        // SAFETY: the CPU has SSE4.2, checked just above.
        return unsafe { crc32c_sse42(data) };
    }
    crc32c::crc32c(data)
}

/// CRC-32C of `data` with the CPU's CRC instruction: 8 bytes at a time, then the last 0 to 7.
///
/// # Safety
/// The CPU must have SSE4.2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse4.2")]
// The intrinsics are safe to call here from Rust 1.87 on; the crate supports older compilers.
#[allow(unused_unsafe)]
unsafe fn crc32c_sse42(data: &[u8]) -> u32 {
    use std::arch::x86_64::{_mm_crc32_u64, _mm_crc32_u8};
    let mut crc = u64::from(u32::MAX);
    let mut words = data.chunks_exact(8);
    for word in &mut words {
        let word = u64::from_le_bytes(word.try_into().expect("8 bytes"));
        // SAFETY: SSE4.2 is enabled for this function, whose caller checked the CPU has it.
        crc = unsafe { _mm_crc32_u64(crc, word) };
    }
    let mut crc = crc as u32;
    for &byte in words.remainder() {
        // SAFETY: as above.
        crc = unsafe { _mm_crc32_u8(crc, byte) };
    }
    !crc
}

impl std::fmt::Display for Checksum {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Checksum {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Checksum::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| format!("unknown checksum `{s}` (expected none, crc32c or xxh3)"))
    }
}

/// The stream header: what a reader needs to know before the first frame.
///
/// ```
/// use flatforge_stream::{Checksum, Header};
/// let h = Header::new(Checksum::Xxh3).with_file_identifier(*b"TELE").with_schema_hash(42);
/// let bytes = h.encode();
/// assert_eq!(Header::decode(&bytes)?, h);
/// # Ok::<(), flatforge_stream::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Header {
    /// The format version.
    pub version: u16,
    /// The checksum every frame carries.
    pub checksum: Checksum,
    /// The file identifier every message carries (bytes 4..8 of each payload), if declared.
    pub file_identifier: Option<[u8; 4]>,
    /// A 64-bit identity of the schema the messages follow, if declared.
    pub schema_hash: Option<u64>,
}

impl Header {
    /// A version-1 header with `checksum` and no schema identity.
    ///
    /// ```
    /// use flatforge_stream::{Checksum, Header, VERSION};
    /// let h = Header::new(Checksum::Crc32c);
    /// assert_eq!((h.version, h.checksum), (VERSION, Checksum::Crc32c));
    /// assert_eq!((h.file_identifier, h.schema_hash), (None, None));
    /// ```
    pub fn new(checksum: Checksum) -> Header {
        Header {
            version: VERSION,
            checksum,
            file_identifier: None,
            schema_hash: None,
        }
    }

    /// Sets the file identifier.
    ///
    /// ```
    /// use flatforge_stream::{Checksum, Header, ReaderOptions, StreamSlice, StreamWriter};
    /// use flatforge_stream::WriterOptions;
    /// let opts = WriterOptions::default().file_identifier(*b"TELE");
    /// let bytes = StreamWriter::new(Vec::new(), opts)?.finish()?;
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    /// let expected = Header::new(Checksum::None).with_file_identifier(*b"TELE");
    /// assert_eq!(stream.header(), Some(&expected));
    /// assert_eq!(&expected.encode()[12..16], b"TELE");
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn with_file_identifier(mut self, id: [u8; 4]) -> Header {
        self.file_identifier = Some(id);
        self
    }

    /// Sets the schema hash.
    ///
    /// ```
    /// use flatforge_stream::{Checksum, Header};
    /// let h = Header::new(Checksum::None).with_schema_hash(0x1234_5678_9abc_def0);
    /// assert_eq!(h.schema_hash, Some(0x1234_5678_9abc_def0));
    /// assert_eq!(h.encode()[16..24], 0x1234_5678_9abc_def0u64.to_le_bytes());
    /// assert_eq!(Header::decode(&h.encode())?.schema_hash, h.schema_hash);
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn with_schema_hash(mut self, hash: u64) -> Header {
        self.schema_hash = Some(hash);
        self
    }

    /// The 32 header bytes.
    ///
    /// ```
    /// use flatforge_stream::{Checksum, Header, StreamWriter, WriterOptions, MAGIC};
    /// let opts = WriterOptions::default().checksum(Checksum::Crc32c).schema_hash(7);
    /// let bytes = StreamWriter::new(Vec::new(), opts)?.finish()?;
    /// let h = Header::new(Checksum::Crc32c).with_schema_hash(7);
    /// assert_eq!(bytes[..], h.encode()); // what the writer puts first
    /// assert_eq!(h.encode()[..8], MAGIC);
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn encode(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[..8].copy_from_slice(&MAGIC);
        h[8..10].copy_from_slice(&self.version.to_le_bytes());
        h[10] = self.checksum.code();
        let mut flags = 0;
        if let Some(id) = self.file_identifier {
            flags |= FLAG_IDENTIFIER;
            h[12..16].copy_from_slice(&id);
        }
        if let Some(hash) = self.schema_hash {
            flags |= FLAG_SCHEMA_HASH;
            h[16..24].copy_from_slice(&hash.to_le_bytes());
        }
        h[11] = flags;
        let crc = crc32c::crc32c(&h[..28]);
        h[28..].copy_from_slice(&crc.to_le_bytes());
        h
    }

    /// Parses and checks the first bytes of a stream (at least 32 are needed).
    ///
    /// ```
    /// use flatforge_stream::{Checksum, Error, Header};
    /// let mut bytes = Header::new(Checksum::Xxh3).encode();
    /// assert_eq!(Header::decode(&bytes)?.checksum, Checksum::Xxh3);
    /// let err = Header::decode(&bytes[..20]).unwrap_err();
    /// assert!(matches!(err, Error::TruncatedHeader { available: 20 }));
    /// bytes[10] = 1; // another checksum kind, without fixing the header's CRC
    /// assert!(matches!(Header::decode(&bytes), Err(Error::CorruptHeader { .. })));
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn decode(bytes: &[u8]) -> Result<Header, Error> {
        let magic_len = bytes.len().min(8);
        if bytes[..magic_len] != MAGIC[..magic_len] {
            return Err(Error::BadMagic {
                found: bytes[..magic_len].to_vec(),
            });
        }
        if bytes.len() < HEADER_LEN {
            return Err(Error::TruncatedHeader {
                available: bytes.len() as u64,
            });
        }
        let h = &bytes[..HEADER_LEN];
        if crc32c::crc32c(&h[..28]) != u32_at(h, 28) {
            return Err(Error::CorruptHeader {
                reason: "header checksum mismatch",
            });
        }
        let version = u16::from_le_bytes([h[8], h[9]]);
        if version != VERSION {
            return Err(Error::UnsupportedVersion { version });
        }
        let checksum = Checksum::from_code(h[10]).ok_or(Error::CorruptHeader {
            reason: "unknown checksum kind",
        })?;
        let flags = h[11];
        if flags & !(FLAG_IDENTIFIER | FLAG_SCHEMA_HASH) != 0 || u32_at(h, 24) != 0 {
            return Err(Error::CorruptHeader {
                reason: "unknown flags or non-zero reserved bytes",
            });
        }
        let file_identifier = (flags & FLAG_IDENTIFIER != 0).then(|| {
            let mut id = [0; 4];
            id.copy_from_slice(&h[12..16]);
            id
        });
        let schema_hash = (flags & FLAG_SCHEMA_HASH != 0).then(|| u64_at(h, 16));
        if (file_identifier.is_none() && u32_at(h, 12) != 0)
            || (schema_hash.is_none() && u64_at(h, 16) != 0)
        {
            return Err(Error::CorruptHeader {
                reason: "identity bytes set without their flag",
            });
        }
        Ok(Header {
            version,
            checksum,
            file_identifier,
            schema_hash,
        })
    }
}

/// Which layout a stream has. More layouts may be added: a `match` on it needs a wildcard arm.
///
/// ```
/// use flatforge_stream::{Format, ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
/// let mut streams = Vec::new();
/// for format in [Format::Framed, Format::Plain] {
///     let mut w = StreamWriter::new(Vec::new(), WriterOptions::default().format(format))?;
///     w.write_with(|b| b.create_string("same message"))?;
///     streams.push(w.finish()?);
/// }
/// // A plain stream is one size-prefixed buffer after another: 4 bytes of length first.
/// let len = u32::from_le_bytes(streams[1][..4].try_into().unwrap()) as usize;
/// assert_eq!(len + 4, streams[1].len());
/// // An `Auto` reader reads both; it finds a header in the framed one only.
/// let auto = ReaderOptions::default().format(Format::Auto);
/// for (bytes, framed) in streams.iter().zip([true, false]) {
///     let stream = StreamSlice::new(bytes, &auto)?;
///     assert_eq!(stream.header().is_some(), framed);
///     assert_eq!(stream.messages::<&str>().next().unwrap()?, "same message");
/// }
/// # Ok::<(), flatforge_stream::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// The framed format of this crate: header, aligned frames with optional checksums, optional
    /// index footer.
    #[default]
    Framed,
    /// Bare size-prefixed FlatBuffers, concatenated, as `flatc --size-prefixed` writes them.
    Plain,
    /// For readers: framed when the stream starts with [`MAGIC`], plain otherwise.
    Auto,
}

/// Whether `head`, a whole file's bytes, is part of a stream header: a crash right after creating
/// the stream. It must hold the magic's first 4 bytes at least (the fourth, 0xB5, is in no text)
/// and be shorter than a header.
pub(crate) fn is_torn_header(head: &[u8]) -> bool {
    (4..HEADER_LEN).contains(&head.len()) && MAGIC.starts_with(&head[..head.len().min(8)])
}

#[inline(always)]
pub(crate) fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

#[inline(always)]
pub(crate) fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// Zero bytes that precede a frame starting at stream position `pos`.
#[inline(always)]
pub(crate) fn lead(pos: u64) -> usize {
    (pos.wrapping_neg() as usize) & (FRAME_ALIGN - 1)
}

/// How frames are laid out in one stream: what the deframing step needs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout {
    /// `None` for plain streams.
    pub(crate) checksum: Option<Checksum>,
    pub(crate) max_len: u64,
}

/// The outcome of one deframing step on the bytes from the current position.
#[derive(Debug)]
pub(crate) enum Step {
    /// At least this many bytes (from the position) are needed to decide.
    NeedMore(usize),
    /// A complete frame whose checksum matched. `buffer` is the range handed to verifiers (for
    /// plain streams it includes the size prefix), `end` where the next frame's step starts; both
    /// relative to the position.
    Frame {
        offset: u64,
        buffer: (usize, usize),
        end: usize,
    },
    /// The clean end of the stream (no more bytes), or the end marker at this offset.
    End(Option<u64>),
}

impl Layout {
    /// Decodes the frame at stream position `pos` from `window` (the bytes from `pos` on); `eof`
    /// says the window holds everything up to the end of the stream.
    #[inline(always)]
    pub(crate) fn step(
        &self,
        window: &[u8],
        pos: u64,
        frame: u64,
        eof: bool,
    ) -> Result<Step, Error> {
        if window.is_empty() {
            return Ok(if eof {
                Step::End(None)
            } else {
                Step::NeedMore(1)
            });
        }
        let truncated = |offset: u64, needed: usize| Error::Truncated {
            frame,
            offset,
            needed: needed as u64,
            available: window.len() as u64,
        };
        let Some(checksum) = self.checksum else {
            // Plain: a u32 length, then that many bytes.
            if window.len() < 4 {
                return if eof {
                    Err(truncated(pos, 4))
                } else {
                    Ok(Step::NeedMore(4))
                };
            }
            let len = u32_at(window, 0);
            if u64::from(len) > self.max_len {
                return Err(Error::FrameTooLarge {
                    frame,
                    offset: pos,
                    len: len.into(),
                    max: self.max_len,
                });
            }
            if len < MIN_MESSAGE_LEN {
                // No FlatBuffer is this short: zeros (a zero-filled tail) or other damage.
                return Err(too_small(frame, pos, len));
            }
            let end = 4 + len as usize;
            if window.len() < end {
                return if eof {
                    Err(truncated(pos, end))
                } else {
                    Ok(Step::NeedMore(end))
                };
            }
            return Ok(Step::Frame {
                offset: pos,
                buffer: (0, end),
                end,
            });
        };
        let lead = lead(pos);
        let offset = pos + lead as u64;
        let min = lead + 8;
        if window.len() < min {
            return if eof {
                Err(truncated(offset, min))
            } else {
                Ok(Step::NeedMore(min))
            };
        }
        // One load for the padding: the low `lead` bytes of the first 8 must be zero.
        let padding = u64_at(window, 0) & ((1u64 << (lead * 8)) - 1);
        if padding != 0 {
            return Err(Error::BadPadding {
                frame,
                offset: pos + u64::from(padding.trailing_zeros() / 8),
            });
        }
        let head = u64_at(window, lead);
        let (len, guard) = (head as u32, (head >> 32) as u32);
        if guard != !len {
            return Err(Error::CorruptFrameHeader {
                frame,
                offset,
                len,
                guard,
            });
        }
        if len == END_MARKER {
            return Ok(Step::End(Some(offset)));
        }
        if u64::from(len) > self.max_len {
            return Err(Error::FrameTooLarge {
                frame,
                offset,
                len: len.into(),
                max: self.max_len,
            });
        }
        let payload_start = lead + checksum.frame_header_len();
        let end = payload_start + len as usize;
        if window.len() < end {
            return if eof {
                Err(truncated(offset, end - lead))
            } else {
                Ok(Step::NeedMore(end))
            };
        }
        let payload = &window[payload_start..end];
        match checksum {
            Checksum::None => {}
            Checksum::Crc32c => {
                if u32_at(window, lead + 12) != 0 {
                    return Err(Error::BadPadding {
                        frame,
                        offset: offset + 12,
                    });
                }
                check(
                    frame,
                    offset,
                    checksum,
                    u32_at(window, lead + 8).into(),
                    payload,
                )?;
            }
            Checksum::Xxh3 => check(frame, offset, checksum, u64_at(window, lead + 8), payload)?,
        }
        Ok(Step::Frame {
            offset,
            buffer: (payload_start, end),
            end,
        })
    }
}

/// The error for a plain frame shorter than any FlatBuffer, out of line: the deframing step is
/// inlined into the readers' loops, and must not grow there for a check of plain streams.
#[cold]
#[inline(never)]
fn too_small(frame: u64, offset: u64, len: u32) -> Error {
    Error::FrameTooSmall {
        frame,
        offset,
        len: len.into(),
    }
}

/// Out of line: the hashing would make the deframing step too large to inline into the readers'
/// loops, and a call costs little next to a hash.
#[inline(never)]
fn check(
    frame: u64,
    offset: u64,
    kind: Checksum,
    stored: u64,
    payload: &[u8],
) -> Result<(), Error> {
    let computed = kind.compute(payload);
    if computed == stored {
        Ok(())
    } else {
        Err(Error::ChecksumMismatch {
            frame,
            offset,
            kind,
            stored,
            computed,
        })
    }
}

/// Writes the frame header for a `len`-byte payload with `checksum` into `out` (whose length is
/// `checksum.frame_header_len()`).
#[inline(always)]
pub(crate) fn write_frame_header(out: &mut [u8], checksum: Checksum, payload: &[u8]) {
    let len = payload.len() as u32;
    let words = u64::from(len) | u64::from(!len) << 32;
    out[..8].copy_from_slice(&words.to_le_bytes());
    if checksum != Checksum::None {
        out[8..16].copy_from_slice(&checksum.compute(payload).to_le_bytes());
    }
}

/// Checks the index footer piece by piece (the stream reader sees it in chunks): the end marker at
/// `marker`, the count (which must equal the frames read, when known), entries that increase and
/// point at aligned offsets between the header and the marker, and the trailer with its checksum.
#[derive(Debug)]
pub(crate) struct IndexCheck {
    marker: u64,
    crc: u32,
    count: u64,
    seen: u64,
    last: u64,
}

impl IndexCheck {
    /// Starts with the 16 bytes at the marker: the marker and the count, which must be `frames`
    /// (the frames read, or the count in the trailer).
    pub(crate) fn new(marker: u64, head: &[u8], frames: u64) -> Result<IndexCheck, Error> {
        let count = u64_at(head, 8);
        if frames != count {
            return Err(Error::CorruptIndex {
                offset: marker + 8,
                reason: "the frame count differs from the frames in the stream or the trailer",
            });
        }
        Ok(IndexCheck {
            marker,
            crc: crc32c::crc32c(&head[..16]),
            count,
            seen: 0,
            last: 0,
        })
    }

    /// Bytes of entries still expected.
    pub(crate) fn entry_bytes_left(&self) -> u64 {
        (self.count - self.seen).saturating_mul(8)
    }

    /// Feeds a whole number of entries.
    pub(crate) fn entries(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.crc = crc32c::crc32c_append(self.crc, bytes);
        for e in bytes.chunks_exact(8) {
            let off = u64::from_le_bytes(e.try_into().expect("8 bytes"));
            let ok = off >= HEADER_LEN as u64
                && off < self.marker
                && off % FRAME_ALIGN as u64 == 0
                && (self.seen == 0 || off > self.last);
            if !ok {
                return Err(Error::CorruptIndex {
                    offset: self.marker + 16 + self.seen * 8,
                    reason: "an entry is not an increasing, aligned frame offset",
                });
            }
            self.last = off;
            self.seen += 1;
        }
        Ok(())
    }

    /// Checks the 32-byte trailer after the entries.
    pub(crate) fn trailer(self, t: &[u8]) -> Result<u64, Error> {
        // `seen`, not `count`: only entries actually fed are known to fit in the stream.
        let at = self.marker + 16 + self.seen * 8;
        let bad = |reason| Error::CorruptIndex { offset: at, reason };
        if t[24..32] != INDEX_MAGIC {
            return Err(bad("the trailer's magic is missing"));
        }
        if u64_at(t, 0) != self.marker || u64_at(t, 8) != self.count {
            return Err(bad("the trailer disagrees with the index"));
        }
        if u32_at(t, 20) != 0 {
            return Err(bad("non-zero reserved bytes"));
        }
        if crc32c::crc32c_append(self.crc, &t[..16]) != u32_at(t, 16) {
            return Err(bad("index checksum mismatch"));
        }
        Ok(self.count)
    }
}

/// The index footer for frames at `offsets`, with the end marker at `marker`.
pub(crate) fn encode_index(marker: u64, offsets: &[u64]) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 + offsets.len() * 8 + TRAILER_LEN);
    out.extend_from_slice(&END_MARKER.to_le_bytes());
    out.extend_from_slice(&(!END_MARKER).to_le_bytes());
    out.extend_from_slice(&(offsets.len() as u64).to_le_bytes());
    for o in offsets {
        out.extend_from_slice(&o.to_le_bytes());
    }
    out.extend_from_slice(&marker.to_le_bytes());
    out.extend_from_slice(&(offsets.len() as u64).to_le_bytes());
    let crc = crc32c::crc32c(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&INDEX_MAGIC);
    out
}

/// Locates and checks the index of `data` (a whole framed stream) from its end: returns the marker
/// offset and the entry bytes.
pub(crate) fn find_index(data: &[u8]) -> Result<(u64, &[u8]), Error> {
    let len = data.len();
    if len < HEADER_LEN + 16 + TRAILER_LEN || data[len - 8..] != INDEX_MAGIC {
        return Err(Error::NoIndex);
    }
    let t = &data[len - TRAILER_LEN..];
    let marker = u64_at(t, 0);
    let count = u64_at(t, 8);
    let at = (len - TRAILER_LEN) as u64;
    let expected_end = count
        .checked_mul(8)
        .and_then(|e| e.checked_add(marker))
        .and_then(|e| e.checked_add(16));
    if marker < HEADER_LEN as u64
        || !marker.is_multiple_of(FRAME_ALIGN as u64)
        || expected_end != Some(at)
    {
        return Err(Error::CorruptIndex {
            offset: at,
            reason: "the trailer does not describe an index ending here",
        });
    }
    let m = marker as usize;
    let head = &data[m..m + 16];
    if u32_at(head, 0) != END_MARKER || u32_at(head, 4) != !END_MARKER {
        return Err(Error::CorruptIndex {
            offset: marker,
            reason: "no end marker where the trailer says",
        });
    }
    let mut check = IndexCheck::new(marker, head, count)?;
    let entries = &data[m + 16..len - TRAILER_LEN];
    check.entries(entries)?;
    check.trailer(t)?;
    Ok((marker, entries))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32c_matches_the_crate_at_every_length_and_alignment() {
        let data: Vec<u8> = (0..2100u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        for start in 0..8 {
            for len in (0..SHORT_CRC + 40).chain([1500, 2048]) {
                let d = &data[start..start + len];
                assert_eq!(crc32c(d), crc32c::crc32c(d), "start {start}, length {len}");
            }
        }
        assert_eq!(crc32c(b"123456789"), 0xe306_9283);
    }
}
