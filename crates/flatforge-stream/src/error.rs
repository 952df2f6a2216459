//! The one error type of the crate: every fault names what went wrong and where (frame number and
//! byte offset from the start of the stream). Each message is complete on its own: an error that
//! has a cause (an I/O error, a verifier's error) prints it and does not also return it as its
//! [`source`](std::error::Error::source), so that a report that walks the chain (`anyhow`'s `{:#}`)
//! prints it once.

use std::io;

use crate::format::Checksum;

/// A boxed error from a payload verifier supplied by the caller.
///
/// ```
/// use flatforge_stream::{BoxError, Error};
/// let cause: BoxError = "field `id` is missing".into();
/// let err = Error::InvalidMessage { frame: 4, offset: 160, cause };
/// assert_eq!(err.to_string(), "invalid message in frame 4 at byte 160: field `id` is missing");
/// ```
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// What went wrong while writing, reading, seeking or recovering a stream.
///
/// Frame numbers count from 0; offsets are bytes from the start of the stream (the file), and for
/// a frame they point at its header.
///
/// ```
/// use flatforge_stream::{Error, ReaderOptions, StreamSlice};
/// let err = StreamSlice::new(b"not a stream at all", &ReaderOptions::default()).unwrap_err();
/// assert!(matches!(err, Error::BadMagic { .. }));
/// assert!(err.to_string().contains("not a flatforge stream"));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The underlying reader or writer failed.
    ///
    /// ```
    /// use std::error::Error as _;
    /// use flatforge_stream::Error;
    /// let cause = std::io::Error::other("disk full");
    /// let err = Error::Io { offset: 96, cause };
    /// assert_eq!(err.to_string(), "I/O error at byte 96: disk full");
    /// assert!(err.source().is_none()); // printed above, not chained again
    /// ```
    #[error("I/O error at byte {offset}: {cause}")]
    Io {
        /// Stream position where it happened.
        offset: u64,
        /// The I/O error (part of the message).
        cause: io::Error,
    },
    /// The stream does not start with the magic number of the framed format.
    #[error("not a flatforge stream: it starts with {found:02x?}, not the stream magic")]
    BadMagic {
        /// The first bytes found (up to 8).
        found: Vec<u8>,
    },
    /// The stream ends inside its 32-byte header.
    #[error("the stream header is cut short: {available} of 32 bytes")]
    TruncatedHeader {
        /// Bytes present.
        available: u64,
    },
    /// The header says a version this reader does not know.
    #[error("stream format version {version} is not supported (this reader knows version 1)")]
    UnsupportedVersion {
        /// The version in the header.
        version: u16,
    },
    /// The header's checksum or one of its fields is wrong.
    #[error("corrupt stream header: {reason}")]
    CorruptHeader {
        /// What is wrong.
        reason: &'static str,
    },
    /// The header declares another checksum kind than the reader requires.
    #[error("the stream uses {found} checksums, but the reader requires {expected}")]
    ChecksumKindMismatch {
        /// What the reader requires.
        expected: Checksum,
        /// What the header says.
        found: Checksum,
    },
    /// The header declares another file identifier than the reader requires.
    #[error(
        "the stream holds messages with file identifier {}, but the reader requires {}",
        ident(found),
        ident(expected)
    )]
    FileIdentifierMismatch {
        /// What the reader requires.
        expected: Option<[u8; 4]>,
        /// What the header says.
        found: Option<[u8; 4]>,
    },
    /// [`StreamWriter::append`](crate::StreamWriter::append): the stream holds frames written
    /// with other options than the writer's (checksum kind, file identifier, schema hash, format).
    #[error("cannot append to the stream: it has {found}, the writer {wanted}")]
    AppendMismatch {
        /// What the stream has (`"crc32c checksums"`, ...).
        found: String,
        /// What the writer's options ask for.
        wanted: String,
    },
    /// Another handle holds the stream file's advisory lock ([`lock_file`](crate::lock_file)): a
    /// writer appending to it, or a recovery.
    #[error("the file is locked by another writer or recovery; try again when it has finished")]
    Locked,
    /// The header declares another schema hash than the reader requires.
    #[error(
        "the stream was written with schema hash {}, but the reader requires {expected:#018x}",
        hash(found)
    )]
    SchemaHashMismatch {
        /// What the reader requires.
        expected: u64,
        /// What the header says.
        found: Option<u64>,
    },
    /// The stream ends inside a frame: the writer stopped (crashed) while writing it.
    #[error(
        "frame {frame} at byte {offset} is cut short (torn write?): it needs {needed} bytes, \
         {available} are present"
    )]
    Truncated {
        /// Frame number.
        frame: u64,
        /// Offset of the frame.
        offset: u64,
        /// Bytes the frame needs (padding, header and payload, as far as known).
        needed: u64,
        /// Bytes present from the frame's start to the end of the stream.
        available: u64,
    },
    /// A frame header's length and its guard (the length's complement) disagree.
    #[error(
        "corrupt header of frame {frame} at byte {offset}: length {len:#010x}, guard {guard:#010x}"
    )]
    CorruptFrameHeader {
        /// Frame number.
        frame: u64,
        /// Offset of the frame.
        offset: u64,
        /// The length field.
        len: u32,
        /// The guard field.
        guard: u32,
    },
    /// The padding before a frame, or a reserved field in its header, is not zero.
    #[error("frame {frame} at byte {offset}: non-zero padding or reserved bytes")]
    BadPadding {
        /// Frame number.
        frame: u64,
        /// Offset of the first non-zero byte.
        offset: u64,
    },
    /// A frame's length exceeds the configured maximum; rejected before reading or allocating.
    #[error("frame {frame} at byte {offset} is {len} bytes long, more than the maximum of {max}")]
    FrameTooLarge {
        /// Frame number.
        frame: u64,
        /// Offset of the frame.
        offset: u64,
        /// The length in its header.
        len: u64,
        /// The configured maximum.
        max: u64,
    },
    /// A plain stream's size prefix gives fewer bytes than the smallest FlatBuffer has (8: the root
    /// offset, then at least the 4 bytes of a table's vtable offset or a string's or vector's
    /// length): no buffer starts there. A zero-filled tail, as a crash can leave, reads as such a
    /// frame.
    ///
    /// ```
    /// use flatforge_stream::{Error, Format, ReaderOptions, StreamSlice, StreamWriter};
    /// use flatforge_stream::WriterOptions;
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default().format(Format::Plain))?;
    /// w.write_with(|b| b.create_string("before the crash"))?;
    /// let mut bytes = w.finish()?;
    /// let end = bytes.len() as u64;
    /// bytes.extend_from_slice(&[0; 64]); // zeros where the next buffers were to be written
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default().format(Format::Plain))?;
    /// let mut frames = stream.frames();
    /// assert_eq!(frames.next().unwrap()?.root::<&str>()?, "before the crash");
    /// let err = frames.next().unwrap().unwrap_err();
    /// assert!(matches!(err, Error::FrameTooSmall { frame: 1, len: 0, offset } if offset == end));
    /// assert!(frames.next().is_none()); // the damage ends the frames
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    #[error(
        "frame {frame} at byte {offset} is {len} bytes long, shorter than any FlatBuffer (at least \
         8 bytes): a zero-filled or damaged tail?"
    )]
    FrameTooSmall {
        /// Frame number.
        frame: u64,
        /// Offset of the frame (its size prefix).
        offset: u64,
        /// The length in its size prefix.
        len: u64,
    },
    /// A frame's payload does not match its checksum.
    #[error(
        "checksum mismatch in frame {frame} at byte {offset}: {kind} stored {stored:#x}, \
         computed {computed:#x}"
    )]
    ChecksumMismatch {
        /// Frame number.
        frame: u64,
        /// Offset of the frame.
        offset: u64,
        /// The checksum kind.
        kind: Checksum,
        /// The checksum in the frame header.
        stored: u64,
        /// The checksum of the payload.
        computed: u64,
    },
    /// A frame's payload failed verification as a FlatBuffer.
    #[error("invalid message in frame {frame} at byte {offset}: {cause}")]
    InvalidMessage {
        /// Frame number.
        frame: u64,
        /// Offset of the frame.
        offset: u64,
        /// What the verifier found (a [`flatforge::Error`] for generated verifiers; part of the
        /// message).
        cause: BoxError,
    },
    /// The stream has no index footer (random access needs one).
    #[error("the stream has no index footer")]
    NoIndex,
    /// The index footer is malformed.
    #[error("corrupt index at byte {offset}: {reason}")]
    CorruptIndex {
        /// Where the problem was found.
        offset: u64,
        /// What is wrong.
        reason: &'static str,
    },
    /// A frame number past the end of the index.
    #[error("frame {frame} does not exist: the stream has {frames} frames")]
    FrameOutOfRange {
        /// The frame asked for.
        frame: u64,
        /// The number of frames.
        frames: u64,
    },
    /// A frame is corrupt but complete frames follow it, so truncating would lose data.
    #[error(
        "frame {frame} at byte {offset} is damaged but a complete frame follows at byte \
         {next_good}: not truncating (that would lose complete frames); cause: {cause}"
    )]
    DamageBeforeGoodFrames {
        /// The first damaged frame.
        frame: u64,
        /// Its offset.
        offset: u64,
        /// The offset of a complete, valid frame after it.
        next_good: u64,
        /// The damage.
        cause: Box<Error>,
    },
    /// Recovery met a complete frame, its framing (and checksum) intact, whose message fails the
    /// verifier: with checksums, not the damage a crash leaves (the schema may be the wrong one),
    /// so it is not cut; without them, possibly a last frame whose payload a power loss zeroed,
    /// which the caller may cut at `intact_end`.
    ///
    /// ```
    /// use std::io::Cursor;
    /// use flatforge_stream::{recover, Error, ReaderOptions, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// w.write_with(|b| b.create_string("a"))?;
    /// let bytes = w.finish()?;
    /// let refuse = |_: &flatforge_stream::Frame<'_>| Err(Error::InvalidOptions("wrong schema"));
    /// let err = recover(Cursor::new(&bytes), &ReaderOptions::default(), refuse).unwrap_err();
    /// assert!(matches!(err, Error::InvalidIntactFrame { frame: 0, intact_end: 32, .. }));
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    #[error(
        "frame {frame} at byte {offset} is complete and intact, but its message is invalid: not \
         truncating (recovery cuts only damaged framing, never a complete frame); cause: {cause}"
    )]
    InvalidIntactFrame {
        /// The frame.
        frame: u64,
        /// Its offset.
        offset: u64,
        /// Where the frames before it end (with their padding): the length that drops this frame
        /// and all after it, if the caller decides to (see [`recover`](crate::recover)).
        intact_end: u64,
        /// What the verifier found.
        cause: Box<Error>,
    },
    /// Recovery of a plain stream found no complete, valid frame at its start: the file may be no
    /// stream at all, so it is not cut to nothing.
    ///
    /// ```
    /// use std::io::Cursor;
    /// use flatforge_stream::{recover, Error, Format, ReaderOptions};
    /// let opts = ReaderOptions::default().format(Format::Plain);
    /// let err = recover(Cursor::new(b"hello, world\n"), &opts, |_| Ok(())).unwrap_err();
    /// assert!(matches!(err, Error::NoCompleteFrame { .. }));
    /// ```
    #[error(
        "no complete frame at the start: the file may not be a plain stream, so it is not cut to \
         nothing ({cause})"
    )]
    NoCompleteFrame {
        /// What the first frame's damage is.
        cause: Box<Error>,
    },
    /// A file read as a plain stream starts with the magic of a framed one.
    ///
    /// ```
    /// use std::io::Cursor;
    /// use flatforge_stream::{recover, Error, Format, ReaderOptions, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// w.write_with(|b| b.create_string("a"))?;
    /// let framed = w.finish()?;
    /// let opts = ReaderOptions::default().format(Format::Plain);
    /// let err = recover(Cursor::new(&framed), &opts, |_| Ok(())).unwrap_err();
    /// assert!(matches!(err, Error::FramedNotPlain));
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    #[error("it starts with the magic of a framed stream, not as a plain one")]
    FramedNotPlain,
    /// Building a message failed.
    #[error("cannot build the message: {0}")]
    Build(flatforge::BuildError),
    /// The options contradict each other or the format.
    #[error("invalid options: {0}")]
    InvalidOptions(&'static str),
    /// A previous write failed part-way, so the stream's end is unknown; the writer refuses more.
    #[error("an earlier write failed; the stream may end in a torn frame (run recover)")]
    WriterFailed,
}

/// By hand, not `#[from]`: that would make the builder's error the source too, and it is already
/// in the message.
impl From<flatforge::BuildError> for Error {
    fn from(e: flatforge::BuildError) -> Error {
        Error::Build(e)
    }
}

fn ident(id: &Option<[u8; 4]>) -> String {
    match id {
        Some(id) => format!("{:?}", String::from_utf8_lossy(id)),
        None => "none".to_owned(),
    }
}

fn hash(h: &Option<u64>) -> String {
    match h {
        Some(h) => format!("{h:#018x}"),
        None => "none".to_owned(),
    }
}

impl Error {
    /// The frame number the error is about, if it is about one frame.
    ///
    /// ```
    /// use flatforge_stream::{Checksum, Error, ReaderOptions, StreamSlice, StreamWriter};
    /// use flatforge_stream::WriterOptions;
    /// let opts = WriterOptions::default().checksum(Checksum::Xxh3);
    /// let mut w = StreamWriter::new(Vec::new(), opts)?;
    /// w.write_with(|b| b.create_string("good"))?;
    /// w.write_with(|b| b.create_string("bad"))?;
    /// let mut bytes = w.finish()?;
    /// *bytes.last_mut().unwrap() ^= 0x80; // damage the last payload
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    /// let err = stream.frames().find_map(Result::err).unwrap();
    /// assert!(matches!(err, Error::ChecksumMismatch { .. }));
    /// assert_eq!(err.frame(), Some(1));
    /// assert_eq!(Error::NoIndex.frame(), None); // about the whole stream
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn frame(&self) -> Option<u64> {
        match self {
            Error::Truncated { frame, .. }
            | Error::CorruptFrameHeader { frame, .. }
            | Error::BadPadding { frame, .. }
            | Error::FrameTooLarge { frame, .. }
            | Error::FrameTooSmall { frame, .. }
            | Error::ChecksumMismatch { frame, .. }
            | Error::InvalidMessage { frame, .. }
            | Error::DamageBeforeGoodFrames { frame, .. }
            | Error::InvalidIntactFrame { frame, .. } => Some(*frame),
            _ => None,
        }
    }

    /// The byte offset the error points at, when it has one.
    ///
    /// ```
    /// use flatforge_stream::{Error, ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// w.write_with(|b| b.create_string("whole"))?;
    /// let torn_at = w.position(); // where the next frame starts
    /// w.write_with(|b| b.create_string("torn"))?;
    /// let mut bytes = w.finish()?;
    /// bytes.truncate(bytes.len() - 2);
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    /// let err = stream.frames().find_map(Result::err).unwrap();
    /// assert_eq!(err.offset(), Some(torn_at.next_multiple_of(8)));
    /// assert_eq!(Error::NoIndex.offset(), None);
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn offset(&self) -> Option<u64> {
        match self {
            Error::Io { offset, .. }
            | Error::Truncated { offset, .. }
            | Error::CorruptFrameHeader { offset, .. }
            | Error::BadPadding { offset, .. }
            | Error::FrameTooLarge { offset, .. }
            | Error::FrameTooSmall { offset, .. }
            | Error::ChecksumMismatch { offset, .. }
            | Error::InvalidMessage { offset, .. }
            | Error::CorruptIndex { offset, .. }
            | Error::DamageBeforeGoodFrames { offset, .. }
            | Error::InvalidIntactFrame { offset, .. } => Some(*offset),
            _ => None,
        }
    }

    /// Whether the stream simply ends early (a torn write): the frames before are intact.
    ///
    /// ```
    /// use flatforge_stream::{Error, ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// w.write_with(|b| b.create_string("cut short"))?;
    /// let bytes = w.finish()?;
    /// let torn = &bytes[..bytes.len() - 1];
    /// let stream = StreamSlice::new(torn, &ReaderOptions::default())?;
    /// assert!(stream.frames().next().unwrap().unwrap_err().is_truncation());
    /// let header_only = StreamSlice::new(&bytes[..10], &ReaderOptions::default()).unwrap_err();
    /// assert!(header_only.is_truncation());
    /// assert!(!Error::NoIndex.is_truncation());
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn is_truncation(&self) -> bool {
        matches!(
            self,
            Error::Truncated { .. } | Error::TruncatedHeader { .. }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The message of `e` and of every source after it, as `anyhow` prints a chain with `{:#}`.
    fn chain(e: &Error) -> String {
        let mut text = e.to_string();
        let mut cause = std::error::Error::source(e);
        while let Some(c) = cause {
            text.push_str(&format!(": {c}"));
            cause = c.source();
        }
        text
    }

    #[test]
    fn a_cause_is_printed_once_in_a_chain() {
        let io = Error::Io {
            offset: 8,
            cause: io::Error::other("No space left on device"),
        };
        assert_eq!(chain(&io), "I/O error at byte 8: No space left on device");
        let invalid = Error::InvalidMessage {
            frame: 1,
            offset: 40,
            cause: "field `id` is missing".into(),
        };
        assert_eq!(
            chain(&invalid),
            "invalid message in frame 1 at byte 40: field `id` is missing"
        );
        let mut b = flatforge::Builder::new();
        b.set_max_size(8);
        let build = Error::from(b.create_string(&"x".repeat(64)).unwrap_err());
        let text = chain(&build);
        let cause = match &build {
            Error::Build(e) => e.to_string(),
            other => panic!("{other}"),
        };
        assert_eq!(text.matches(&cause).count(), 1, "{text}");
    }
}
