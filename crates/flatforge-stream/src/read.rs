//! Readers: [`StreamSlice`] over bytes in memory (a `Vec`, a memory map), which hands out frames
//! borrowed from those bytes without copying, and random access through the index; and
//! [`StreamReader`] over any [`io::Read`], which reads ahead into one reusable, 8-aligned buffer and
//! lends out one frame at a time. Both check every frame (guard, padding, length limit, checksum)
//! and leave payload verification to [`Frame::root`] (generated verifiers) or [`Frame::verify_with`]
//! (any other verifier).

use std::io::{self, Read, Seek, SeekFrom};
use std::marker::PhantomData;

use flatforge::{Follow, VerifierOptions};

use crate::error::{BoxError, Error};
use crate::format::{
    find_index, lead, u64_at, Checksum, Format, Header, IndexCheck, Layout, Step, HEADER_LEN,
    MAGIC, MAX_PAYLOAD_LEN, TRAILER_LEN,
};

/// What a reader expects of a stream, and its limits.
///
/// ```
/// use flatforge_stream::{Checksum, Format, ReaderOptions};
/// let opts = ReaderOptions::default()
///     .require_checksum(Checksum::Crc32c)
///     .require_file_identifier(*b"TELE")
///     .max_frame_len(1 << 20);
/// assert_eq!(opts.format, Format::Framed);
/// assert_eq!(opts.max_frame_len, 1 << 20);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReaderOptions {
    /// The layout to expect. Default [`Format::Framed`].
    pub format: Format,
    /// The checksum kind the header must declare; `None` (the default) accepts any.
    pub checksum: Option<Checksum>,
    /// The file identifier the header must declare (framed) or every message must carry (plain).
    pub file_identifier: Option<[u8; 4]>,
    /// The schema hash the header must declare.
    pub schema_hash: Option<u64>,
    /// Frames longer than this are rejected before anything is read or allocated for them.
    /// Default 64 MiB; at most 2^31 - 1.
    pub max_frame_len: usize,
    /// How many bytes [`StreamReader`] reads ahead at a time. Default 64 KiB.
    pub read_ahead: usize,
}

impl Default for ReaderOptions {
    fn default() -> Self {
        ReaderOptions {
            format: Format::Framed,
            checksum: None,
            file_identifier: None,
            schema_hash: None,
            max_frame_len: 64 << 20,
            read_ahead: 64 << 10,
        }
    }
}

impl ReaderOptions {
    /// Sets [`format`](Self::format).
    ///
    /// ```
    /// use flatforge_stream::{Error, Format, ReaderOptions, StreamSlice, StreamWriter};
    /// use flatforge_stream::WriterOptions;
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default().format(Format::Plain))?;
    /// w.write_with(|b| b.create_string("plain"))?;
    /// let plain = w.finish()?;
    /// // The default reader expects a framed stream ...
    /// let err = StreamSlice::new(&plain, &ReaderOptions::default()).unwrap_err();
    /// assert!(matches!(err, Error::BadMagic { .. }));
    /// // ... `Plain` (or `Auto`) reads bare size-prefixed buffers.
    /// let stream = StreamSlice::new(&plain, &ReaderOptions::default().format(Format::Plain))?;
    /// assert_eq!(stream.messages::<&str>().next().unwrap()?, "plain");
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn format(mut self, format: Format) -> Self {
        self.format = format;
        self
    }

    /// Sets [`checksum`](Self::checksum).
    ///
    /// ```
    /// use flatforge_stream::{Checksum, Error, ReaderOptions, StreamSlice, StreamWriter};
    /// use flatforge_stream::WriterOptions;
    /// let opts = WriterOptions::default().checksum(Checksum::Crc32c);
    /// let bytes = StreamWriter::new(Vec::new(), opts)?.finish()?;
    /// let crc = ReaderOptions::default().require_checksum(Checksum::Crc32c);
    /// assert!(StreamSlice::new(&bytes, &crc).is_ok());
    /// let xxh3 = ReaderOptions::default().require_checksum(Checksum::Xxh3);
    /// let err = StreamSlice::new(&bytes, &xxh3).unwrap_err();
    /// assert!(matches!(err, Error::ChecksumKindMismatch { found: Checksum::Crc32c, .. }));
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn require_checksum(mut self, checksum: Checksum) -> Self {
        self.checksum = Some(checksum);
        self
    }

    /// Sets [`file_identifier`](Self::file_identifier).
    ///
    /// ```
    /// use flatforge_stream::{Error, ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let opts = WriterOptions::default().file_identifier(*b"TELE");
    /// let bytes = StreamWriter::new(Vec::new(), opts)?.finish()?;
    /// let tele = ReaderOptions::default().require_file_identifier(*b"TELE");
    /// assert!(StreamSlice::new(&bytes, &tele).is_ok());
    /// let logs = ReaderOptions::default().require_file_identifier(*b"LOGS");
    /// let err = StreamSlice::new(&bytes, &logs).unwrap_err();
    /// let found = match err {
    ///     Error::FileIdentifierMismatch { found, .. } => found,
    ///     other => panic!("{other}"),
    /// };
    /// assert_eq!(found, Some(*b"TELE"));
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn require_file_identifier(mut self, id: [u8; 4]) -> Self {
        self.file_identifier = Some(id);
        self
    }

    /// Sets [`schema_hash`](Self::schema_hash).
    ///
    /// ```
    /// use flatforge_stream::{Error, ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let opts = WriterOptions::default().schema_hash(7);
    /// let bytes = StreamWriter::new(Vec::new(), opts)?.finish()?;
    /// assert!(StreamSlice::new(&bytes, &ReaderOptions::default().require_schema_hash(7)).is_ok());
    /// let err = StreamSlice::new(&bytes, &ReaderOptions::default().require_schema_hash(8));
    /// assert!(matches!(err, Err(Error::SchemaHashMismatch { expected: 8, found: Some(7) })));
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn require_schema_hash(mut self, hash: u64) -> Self {
        self.schema_hash = Some(hash);
        self
    }

    /// Sets [`max_frame_len`](Self::max_frame_len) (clamped to 2^31 - 1).
    ///
    /// ```
    /// use flatforge_stream::{Error, ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// w.write_with(|b| b.create_string(&"x".repeat(100)))?;
    /// let bytes = w.finish()?;
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default().max_frame_len(64))?;
    /// let err = stream.frames().next().unwrap().unwrap_err();
    /// assert!(matches!(err, Error::FrameTooLarge { frame: 0, max: 64, .. }));
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn max_frame_len(mut self, max: usize) -> Self {
        self.max_frame_len = max.min(MAX_PAYLOAD_LEN);
        self
    }

    /// Sets [`read_ahead`](Self::read_ahead) (at least 64 bytes).
    ///
    /// ```
    /// use flatforge_stream::{ReaderOptions, StreamReader, StreamWriter, WriterOptions};
    /// assert_eq!(ReaderOptions::default().read_ahead(1).read_ahead, 64);
    ///
    /// // A frame larger than the read-ahead is still read whole.
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// w.write_with(|b| b.create_string(&"x".repeat(1000)))?;
    /// let bytes = w.finish()?;
    /// let mut r = StreamReader::new(&bytes[..], &ReaderOptions::default().read_ahead(64))?;
    /// assert_eq!(r.next_frame()?.unwrap().root::<&str>()?.len(), 1000);
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn read_ahead(mut self, bytes: usize) -> Self {
        self.read_ahead = bytes.max(64);
        self
    }

    fn check_header(&self, h: &Header) -> Result<(), Error> {
        if let Some(expected) = self.checksum {
            if expected != h.checksum {
                return Err(Error::ChecksumKindMismatch {
                    expected,
                    found: h.checksum,
                });
            }
        }
        if self.file_identifier.is_some() && self.file_identifier != h.file_identifier {
            return Err(Error::FileIdentifierMismatch {
                expected: self.file_identifier,
                found: h.file_identifier,
            });
        }
        if let Some(expected) = self.schema_hash {
            if Some(expected) != h.schema_hash {
                return Err(Error::SchemaHashMismatch {
                    expected,
                    found: h.schema_hash,
                });
            }
        }
        Ok(())
    }

    /// Decides the layout from the first bytes (`prefix`, everything there is when `eof`), checks
    /// the header of a framed stream, and returns the layout, the header and the file identifier
    /// messages must carry.
    fn open(&self, prefix: &[u8], eof: bool) -> Result<Opened, Error> {
        let framed = match self.format {
            Format::Framed => true,
            Format::Plain => false,
            Format::Auto => {
                let n = prefix.len().min(8);
                prefix[..n] == MAGIC[..n] && (n == 8 || (eof && n > 0))
            }
        };
        let max_len = self.max_frame_len.min(MAX_PAYLOAD_LEN) as u64;
        if !framed {
            return Ok(Opened {
                layout: Layout {
                    checksum: None,
                    max_len,
                },
                header: None,
                ident: self.file_identifier,
            });
        }
        let header = Header::decode(prefix)?;
        self.check_header(&header)?;
        Ok(Opened {
            layout: Layout {
                checksum: Some(header.checksum),
                max_len,
            },
            header: Some(header),
            ident: header.file_identifier,
        })
    }
}

struct Opened {
    layout: Layout,
    header: Option<Header>,
    ident: Option<[u8; 4]>,
}

/// One frame of a stream, borrowed from the reader's bytes: its checksum (if any) has been checked,
/// its payload not yet verified.
///
/// ```
/// use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
/// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
/// w.write_with(|b| b.create_string("hello"))?;
/// let bytes = w.finish()?;
/// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
/// let frame = stream.frames().next().unwrap()?;
/// assert_eq!((frame.number(), frame.offset()), (0, 32));
/// assert_eq!(frame.root::<&str>()?, "hello");
/// # Ok::<(), flatforge_stream::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Frame<'a> {
    number: u64,
    offset: u64,
    buffer: &'a [u8],
    size_prefixed: bool,
    file_identifier: Option<[u8; 4]>,
}

impl<'a> Frame<'a> {
    /// The frame number (the first frame is 0).
    ///
    /// ```
    /// use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// for text in ["a", "b", "c"] {
    ///     w.write_with(|b| b.create_string(text))?;
    /// }
    /// let bytes = w.finish()?;
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    /// let mut numbers = Vec::new();
    /// for frame in stream.frames() {
    ///     numbers.push(frame?.number());
    /// }
    /// assert_eq!(numbers, [0, 1, 2]);
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn number(&self) -> u64 {
        self.number
    }

    /// The byte offset of the frame (its header, or its size prefix in a plain stream).
    ///
    /// ```
    /// use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// w.write_with(|b| b.create_string("first"))?;
    /// w.write_with(|b| b.create_string("second"))?;
    /// let bytes = w.finish()?;
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    /// for frame in stream.frames() {
    ///     let frame = frame?;
    ///     // The frame header there starts with the payload's length.
    ///     let at = frame.offset() as usize;
    ///     let len = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    ///     assert_eq!(len as usize, frame.payload().len());
    /// }
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The FlatBuffer the frame carries, without the size prefix of a plain stream.
    ///
    /// ```
    /// use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let mut b = flatforge::Builder::new();
    /// let s = b.create_string("as built")?;
    /// let message = b.finish(s, None)?.to_vec();
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// w.write_message(&message)?;
    /// let bytes = w.finish()?;
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    /// let payload = stream.frames().next().unwrap()?.payload();
    /// assert_eq!(payload, message);
    /// assert_eq!(flatforge::root::<&str>(payload)?, "as built");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn payload(&self) -> &'a [u8] {
        if self.size_prefixed {
            &self.buffer[4..]
        } else {
            self.buffer
        }
    }

    /// The bytes to verify: the payload, or for a plain stream the size-prefixed buffer (its
    /// objects are aligned relative to the prefix, as flatc writes them).
    ///
    /// ```
    /// use flatforge_stream::{Format, ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default().format(Format::Plain))?;
    /// w.write_with(|b| b.create_string("prefixed"))?;
    /// let bytes = w.finish()?;
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default().format(Format::Plain))?;
    /// let frame = stream.frames().next().unwrap()?;
    /// assert_eq!(frame.buffer(), &bytes[..]); // the whole size-prefixed buffer
    /// assert_eq!(&frame.buffer()[4..], frame.payload());
    /// let opts = flatforge::VerifierOptions::default().with_size_prefixed(true);
    /// assert_eq!(flatforge::root_with_options::<&str>(frame.buffer(), &opts)?, "prefixed");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn buffer(&self) -> &'a [u8] {
        self.buffer
    }

    /// Whether [`buffer`](Self::buffer) starts with a size prefix (plain streams).
    ///
    /// ```
    /// use flatforge_stream::{Format, ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// for format in [Format::Framed, Format::Plain] {
    ///     let mut w = StreamWriter::new(Vec::new(), WriterOptions::default().format(format))?;
    ///     w.write_with(|b| b.create_string("x"))?;
    ///     let bytes = w.finish()?;
    ///     let stream = StreamSlice::new(&bytes, &ReaderOptions::default().format(format))?;
    ///     let frame = stream.frames().next().unwrap()?;
    ///     assert_eq!(frame.is_size_prefixed(), format == Format::Plain);
    /// }
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn is_size_prefixed(&self) -> bool {
        self.size_prefixed
    }

    /// The file identifier the payload must carry (declared by the stream header, or required by
    /// the reader of a plain stream).
    ///
    /// ```
    /// use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let opts = WriterOptions::default().file_identifier(*b"TELE");
    /// let mut w = StreamWriter::new(Vec::new(), opts)?;
    /// w.write_with(|b| b.create_string("tagged"))?;
    /// let bytes = w.finish()?;
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    /// let frame = stream.frames().next().unwrap()?;
    /// assert_eq!(frame.file_identifier(), Some(*b"TELE"));
    /// assert_eq!(&frame.payload()[4..8], b"TELE"); // the writer finished the message with it
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn file_identifier(&self) -> Option<[u8; 4]> {
        self.file_identifier
    }

    /// Verifies the payload with `T`'s generated verifier (default limits) and returns its root.
    ///
    /// ```
    /// use flatforge_stream::{Error, ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// w.write_with(|b| b.create_string("fine"))?;
    /// w.write_message(&[0xFF; 8])?; // framed as is, but no FlatBuffer
    /// let bytes = w.finish()?;
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    /// let mut frames = stream.frames();
    /// assert_eq!(frames.next().unwrap()?.root::<&str>()?, "fine");
    /// let err = frames.next().unwrap()?.root::<&str>().unwrap_err();
    /// assert!(matches!(err, Error::InvalidMessage { frame: 1, .. }));
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    #[inline]
    pub fn root<T: Follow<'a>>(&self) -> Result<T, Error> {
        self.root_with_options(&VerifierOptions::DEFAULT)
    }

    /// Verifies the payload with `T`'s generated verifier and the limits of `opts` and returns its
    /// root. The frame decides the size prefix, and its file identifier, if it has one, replaces
    /// the one in `opts`.
    ///
    /// ```
    /// use flatforge::VerifierOptions;
    /// use flatforge_stream::{Error, ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// w.write_with(|b| b.create_string(&"x".repeat(100)))?;
    /// let bytes = w.finish()?;
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    /// let frame = stream.frames().next().unwrap()?;
    /// let roomy = VerifierOptions::default().with_max_apparent_size(1 << 10);
    /// assert_eq!(frame.root_with_options::<&str>(&roomy)?.len(), 100);
    /// let tight = VerifierOptions::default().with_max_apparent_size(16);
    /// let err = frame.root_with_options::<&str>(&tight).unwrap_err();
    /// assert!(matches!(err, Error::InvalidMessage { frame: 0, .. }));
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    #[inline]
    pub fn root_with_options<T: Follow<'a>>(&self, opts: &VerifierOptions) -> Result<T, Error> {
        let result = if !self.size_prefixed
            && self.file_identifier.is_none()
            && *opts == VerifierOptions::DEFAULT
        {
            flatforge::root::<T>(self.buffer)
        } else {
            let mut opts = opts.clone().with_size_prefixed(self.size_prefixed);
            opts.file_identifier = self.file_identifier.or(opts.file_identifier);
            flatforge::root_with_options::<T>(self.buffer, &opts)
        };
        result.map_err(|e| self.invalid(Box::new(e)))
    }

    /// Verifies the frame with a verifier of the caller's (a schema-driven one, say); its error
    /// becomes [`Error::InvalidMessage`] with this frame's number and offset.
    ///
    /// ```
    /// # use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// # let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// # w.write_with(|b| b.create_string("hello"))?;
    /// # let bytes = w.finish()?;
    /// # let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    /// let frame = stream.frames().next().unwrap()?;
    /// let err = frame.verify_with(|f| if f.payload().len() > 8 { Err("too long") } else { Ok(()) });
    /// assert!(err.unwrap_err().to_string().contains("frame 0 at byte 32: too long"));
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn verify_with<E: Into<BoxError>>(
        &self,
        verify: impl FnOnce(&Frame<'a>) -> Result<(), E>,
    ) -> Result<(), Error> {
        verify(self).map_err(|e| self.invalid(e.into()))
    }

    #[cold]
    fn invalid(&self, cause: BoxError) -> Error {
        Error::InvalidMessage {
            frame: self.number,
            offset: self.offset,
            cause,
        }
    }
}

/// A whole stream in memory (a byte slice or a memory map): frames are borrowed, never copied.
///
/// ```
/// use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
/// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default().index(true))?;
/// for word in ["alpha", "beta", "gamma"] {
///     w.write_with(|b| b.create_string(word))?;
/// }
/// let bytes = w.finish()?;
///
/// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
/// let words: Vec<&str> = stream.messages::<&str>().collect::<Result<_, _>>()?;
/// assert_eq!(words, ["alpha", "beta", "gamma"]);
/// let index = stream.index()?;
/// assert_eq!(index.len(), 3);
/// assert_eq!(index.frame(2)?.root::<&str>()?, "gamma");
/// # Ok::<(), flatforge_stream::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct StreamSlice<'a> {
    data: &'a [u8],
    header: Option<Header>,
    layout: Layout,
    ident: Option<[u8; 4]>,
    start: usize,
}

impl<'a> StreamSlice<'a> {
    /// Checks the header of `data` (for framed streams) against `opts`.
    ///
    /// ```
    /// use flatforge_stream::{Error, ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let bytes = StreamWriter::new(Vec::new(), WriterOptions::default())?.finish()?;
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    /// assert_eq!(stream.frames().count(), 0);
    /// let err = StreamSlice::new(&bytes[..20], &ReaderOptions::default()).unwrap_err();
    /// assert!(matches!(err, Error::TruncatedHeader { available: 20 }));
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn new(data: &'a [u8], opts: &ReaderOptions) -> Result<Self, Error> {
        let o = opts.open(data, true)?;
        Ok(StreamSlice {
            data,
            start: if o.header.is_some() { HEADER_LEN } else { 0 },
            header: o.header,
            layout: o.layout,
            ident: o.ident,
        })
    }

    /// The header of a framed stream (`None` for plain streams).
    ///
    /// ```
    /// use flatforge_stream::{Checksum, ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let opts = WriterOptions::default().checksum(Checksum::Xxh3).file_identifier(*b"TELE");
    /// let bytes = StreamWriter::new(Vec::new(), opts)?.finish()?;
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    /// let header = stream.header().unwrap();
    /// assert_eq!((header.checksum, header.file_identifier), (Checksum::Xxh3, Some(*b"TELE")));
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn header(&self) -> Option<&Header> {
        self.header.as_ref()
    }

    /// The bytes of the stream.
    ///
    /// ```
    /// use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let bytes = StreamWriter::new(Vec::new(), WriterOptions::default())?.finish()?;
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    /// assert!(std::ptr::eq(stream.bytes(), &bytes[..])); // the same bytes, not a copy
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn bytes(&self) -> &'a [u8] {
        self.data
    }

    /// The frames in order; after an error the iterator ends. Reaching the end marker checks the
    /// index footer too.
    ///
    /// ```
    /// use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// for text in ["one", "two", "three"] {
    ///     w.write_with(|b| b.create_string(text))?;
    /// }
    /// let mut bytes = w.finish()?;
    /// bytes.truncate(bytes.len() - 2); // the last frame is torn
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    /// let mut frames = stream.frames();
    /// assert_eq!(frames.next().unwrap()?.root::<&str>()?, "one");
    /// assert_eq!(frames.next().unwrap()?.root::<&str>()?, "two");
    /// assert!(frames.next().unwrap().unwrap_err().is_truncation());
    /// assert!(frames.next().is_none());
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn frames(&self) -> Frames<'a> {
        self.frames_at(self.start, 0)
    }

    /// The frames from the one numbered `number` at `pos`, a position inside the data.
    fn frames_at(&self, pos: usize, number: u64) -> Frames<'a> {
        let quick_limit = match self.layout.checksum {
            // The maximum is at most `MAX_PAYLOAD_LEN`, 2^31 - 1: this does not overflow.
            Some(Checksum::None) => self.layout.max_len + 1,
            _ => 0,
        };
        Frames {
            stream: *self,
            rest: &self.data[pos..],
            lead: lead(pos as u64),
            frame: number,
            done: false,
            quick_limit,
        }
    }

    /// The frames' payloads verified as `T` (the root type), in order; ends after an error.
    ///
    /// ```
    /// use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// for text in ["north", "south"] {
    ///     w.write_with(|b| b.create_string(text))?;
    /// }
    /// let bytes = w.finish()?;
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    /// let all: Vec<&str> = stream.messages::<&str>().collect::<Result<_, _>>()?;
    /// assert_eq!(all, ["north", "south"]);
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn messages<T: Follow<'a>>(&self) -> Messages<'a, T> {
        Messages {
            frames: self.frames(),
            _t: PhantomData,
        }
    }

    /// The index footer, checked (its checksum and every entry): for random access by frame number.
    ///
    /// ```
    /// use flatforge_stream::{Error, ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let write = |index| -> Result<Vec<u8>, Error> {
    ///     let mut w = StreamWriter::new(Vec::new(), WriterOptions::default().index(index))?;
    ///     for n in 0..5u64 {
    ///         w.write_with(|b| b.create_string(&n.to_string()))?;
    ///     }
    ///     w.finish()
    /// };
    /// let indexed = write(true)?;
    /// let index = StreamSlice::new(&indexed, &ReaderOptions::default())?.index()?;
    /// assert_eq!(index.frame(3)?.root::<&str>()?, "3");
    /// let unindexed = write(false)?;
    /// let stream = StreamSlice::new(&unindexed, &ReaderOptions::default())?;
    /// assert!(matches!(stream.index(), Err(Error::NoIndex)));
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn index(&self) -> Result<Index<'a>, Error> {
        if self.header.is_none() {
            return Err(Error::NoIndex);
        }
        let (marker, entries) = find_index(self.data)?;
        Ok(Index {
            stream: *self,
            marker,
            entries,
        })
    }

    /// Decodes the frame numbered `number` at `pos`, the frames ending at `limit`.
    #[inline(always)]
    fn frame_at(
        &self,
        pos: usize,
        number: u64,
        limit: usize,
    ) -> Result<Option<(Frame<'a>, usize)>, Error> {
        let window = &self.data[pos..limit];
        match self.layout.step(window, pos as u64, number, true)? {
            Step::Frame {
                offset,
                buffer,
                end,
                ..
            } => Ok(Some((
                Frame {
                    number,
                    offset,
                    buffer: &window[buffer.0..buffer.1],
                    size_prefixed: self.header.is_none(),
                    file_identifier: self.ident,
                },
                pos + end,
            ))),
            Step::End(None) => Ok(None),
            Step::End(Some(marker)) => {
                check_index_block(&self.data[marker as usize..], marker, number)?;
                Ok(None)
            }
            Step::NeedMore(_) => unreachable!("the whole stream is in the window"),
        }
    }
}

/// Checks the index footer that starts at `marker` and must reach exactly to the end of `block`.
fn check_index_block(block: &[u8], marker: u64, frames: u64) -> Result<(), Error> {
    let short = || Error::CorruptIndex {
        offset: marker,
        reason: "the index is cut short",
    };
    let head = block.get(..16).ok_or_else(short)?;
    let mut check = IndexCheck::new(marker, head, frames)?;
    let entries = check.entry_bytes_left() as usize;
    // Entries are checked in stream order up to a cut, as the stream reader sees them.
    let present = entries.min((block.len() - 16) / 8 * 8);
    check.entries(&block[16..16 + present])?;
    if present < entries {
        return Err(short());
    }
    let trailer = block
        .get(16 + entries..16 + entries + TRAILER_LEN)
        .ok_or_else(short)?;
    check.trailer(trailer)?;
    if block.len() != 16 + entries + TRAILER_LEN {
        return Err(Error::CorruptIndex {
            offset: marker + (16 + entries + TRAILER_LEN) as u64,
            reason: "bytes after the index",
        });
    }
    Ok(())
}

/// The frames of a [`StreamSlice`], in order; made by [`StreamSlice::frames`] and
/// [`Index::frames_from`]. After an error it ends.
///
/// ```
/// use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
/// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
/// for len in [10, 2000, 30] {
///     w.write_with(|b| b.create_string(&"x".repeat(len)))?;
/// }
/// let bytes = w.finish()?;
/// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
/// let mut largest = (0, 0);
/// for frame in stream.frames() {
///     let frame = frame?;
///     largest = largest.max((frame.payload().len(), frame.number()));
/// }
/// assert_eq!(largest.1, 1);
/// # Ok::<(), flatforge_stream::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Frames<'a> {
    stream: StreamSlice<'a>,
    /// The bytes after the last frame returned: a slice rather than a position, so that the bytes
    /// ahead are bounded with one comparison.
    rest: &'a [u8],
    /// The padding before the next frame: `lead` of the position of `rest`, carried from frame to
    /// frame (from the last length) so that finding the next frame waits on one load, not on
    /// the position as well. Kept up to date, and used, only for frames without a checksum: the
    /// quick path of checksummed frames takes it from the position and leaves this stale (the
    /// quick path without one, tried first, loads through it and drops the result on the length).
    lead: usize,
    frame: u64,
    done: bool,
    /// One more than the longest frame the quick path of frames without a checksum takes: the
    /// stream's maximum length when its frames have no checksum and the iterator is not done, else
    /// 0, which no length is below. The one comparison per frame that the length needs anyway
    /// then also tells whether that path may run at all.
    quick_limit: u64,
}

impl<'a> Frames<'a> {
    /// The stream position after the last frame returned (where a recovered stream would end).
    ///
    /// ```
    /// use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// w.write_with(|b| b.create_string("whole"))?;
    /// w.write_with(|b| b.create_string("torn"))?;
    /// let mut bytes = w.finish()?;
    /// bytes.truncate(bytes.len() - 1);
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    /// let mut frames = stream.frames();
    /// while let Some(Ok(_)) = frames.next() {}
    /// // Cut there, the stream holds the good frames and nothing else.
    /// let good = &bytes[..frames.position() as usize];
    /// let cut = StreamSlice::new(good, &ReaderOptions::default())?;
    /// assert_eq!(cut.messages::<&str>().collect::<Result<Vec<_>, _>>()?, ["whole"]);
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn position(&self) -> u64 {
        self.pos() as u64
    }

    /// Ends the iteration.
    fn stop(&mut self) {
        self.done = true;
        self.quick_limit = 0;
    }

    #[inline(always)]
    fn pos(&self) -> usize {
        self.stream.data.len() - self.rest.len()
    }

    /// The next frame of a framed stream when it is whole and sound (zero padding before it, its
    /// guard, length and checksum right), with one bounds check for the padding and length and one
    /// for the payload; `None` leaves everything else (plain frames, the end, the end marker,
    /// damage, a short last frame) to the deframing step, which decides and reports it.
    #[inline(always)]
    fn next_sound(&mut self) -> Option<Frame<'a>> {
        // Frames without a checksum are tried first, with no test of the stream's kind or of the
        // iterator's end (see `quick_limit`).
        if let Some(frame) = self.next_sound_in::<false>(Checksum::None) {
            return Some(frame);
        }
        match self.stream.layout.checksum {
            Some(kind @ (Checksum::Crc32c | Checksum::Xxh3)) if !self.done => {
                self.next_sound_in::<true>(kind)
            }
            _ => None,
        }
    }

    /// [`next_sound`](Self::next_sound) in a stream whose frames have the checksum `kind`
    /// (`CHECKED` when it is not [`Checksum::None`]).
    ///
    /// Without a checksum, finding frames is a chain of dependent loads: the padding before the
    /// next frame comes from the last length (one step shorter than from the position). With one,
    /// hashing dominates, and a value less to keep across its call pays more: the padding comes
    /// from the position.
    #[inline(always)]
    fn next_sound_in<const CHECKED: bool>(&mut self, kind: Checksum) -> Option<Frame<'a>> {
        // From the end of the previous frame: the padding, the frame header, and more.
        let rest = self.rest;
        let window: &[u8; 16] = rest.first_chunk()?;
        let pos = self.pos();
        let pad = if CHECKED { lead(pos as u64) } else { self.lead };
        let head = u64_at(window, pad);
        let len = head as u32;
        // The end marker's length exceeds every maximum, which is at most 2^31 - 1. Tested first:
        // it is the test that sends checksummed frames on, at the least cost to them.
        let too_long = if CHECKED {
            u64::from(len) > self.stream.layout.max_len
        } else {
            u64::from(len) >= self.quick_limit
        };
        if too_long {
            return None;
        }
        // Past the length, the stream is framed and its padding carried (or not needed).
        debug_assert_eq!(
            pad,
            lead(pos as u64),
            "the carried padding is the position's"
        );
        // The padding is zero when the word at its start is the header shifted past it.
        if u64_at(window, 0) != head << (8 * pad) || (head >> 32) as u32 != !len {
            return None;
        }
        let start = pad + kind.frame_header_len();
        // The next frame's position is the payload's start plus its length: the start does not
        // wait on this frame's header, so the length is the one addition that does (as against
        // adding start and length first, and then the sum).
        let body = rest.get(start..)?;
        let payload = body.get(..len as usize)?;
        if CHECKED && !checksum_matches(kind, &rest[pad + 8..start], payload) {
            return None;
        }
        self.rest = &body[payload.len()..];
        if !CHECKED {
            // The payload starts 8-aligned (the frame does, and its header is 8 bytes), so the
            // padding after it depends on its length alone.
            self.lead = lead(u64::from(len));
        }
        self.frame += 1;
        Some(Frame {
            number: self.frame - 1,
            offset: (pos + pad) as u64,
            buffer: payload,
            size_prefixed: false,
            file_identifier: self.stream.ident,
        })
    }
}

/// Whether `stored`, a frame header's checksum field (a CRC-32C then 4 zero bytes, or an XXH3-64),
/// is the checksum `kind` of `payload`. Out of line, as the hashing is.
#[inline(never)]
fn checksum_matches(kind: Checksum, stored: &[u8], payload: &[u8]) -> bool {
    u64_at(stored, 0) == kind.compute(payload)
}

impl<'a> Iterator for Frames<'a> {
    type Item = Result<Frame<'a>, Error>;

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        if let Some(frame) = self.next_sound() {
            return Some(Ok(frame));
        }
        if self.done {
            return None;
        }
        let data_len = self.stream.data.len();
        match self.stream.frame_at(self.pos(), self.frame, data_len) {
            Ok(Some((frame, end))) => {
                self.rest = &self.stream.data[end..];
                self.lead = lead(end as u64);
                self.frame += 1;
                Some(Ok(frame))
            }
            Ok(None) => {
                self.stop();
                None
            }
            Err(e) => {
                self.stop();
                Some(Err(e))
            }
        }
    }
}

impl std::iter::FusedIterator for Frames<'_> {}

/// The verified messages of a [`StreamSlice`], in order; made by [`StreamSlice::messages`]. It
/// ends after the first error, be it in the framing or in a message.
///
/// ```
/// use flatforge_stream::{Error, ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
/// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
/// w.write_with(|b| b.create_string("a"))?;
/// w.write_message(&[0xFF; 8])?; // not a FlatBuffer
/// w.write_with(|b| b.create_string("c"))?;
/// let bytes = w.finish()?;
/// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
/// let mut messages = stream.messages::<&str>();
/// assert_eq!(messages.next().unwrap()?, "a");
/// assert!(matches!(messages.next(), Some(Err(Error::InvalidMessage { frame: 1, .. }))));
/// assert!(messages.next().is_none()); // frame 2 is not reached
/// # Ok::<(), flatforge_stream::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Messages<'a, T> {
    frames: Frames<'a>,
    _t: PhantomData<fn() -> T>,
}

impl<'a, T: Follow<'a>> Iterator for Messages<'a, T> {
    type Item = Result<T, Error>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let result = match self.frames.next()? {
            Ok(frame) => frame.root::<T>(),
            Err(e) => Err(e),
        };
        if result.is_err() {
            self.frames.stop();
        }
        Some(result)
    }
}

/// The checked index footer of a [`StreamSlice`]: frame offsets by number; made by
/// [`StreamSlice::index`].
///
/// ```
/// use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
/// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default().index(true))?;
/// for n in 0..100u64 {
///     w.write_with(|b| b.create_string(&format!("event {n}")))?;
/// }
/// let bytes = w.finish()?;
/// let index = StreamSlice::new(&bytes, &ReaderOptions::default())?.index()?;
/// let last = index.frame(index.len() - 1)?;
/// assert_eq!((last.number(), last.root::<&str>()?), (99, "event 99"));
/// # Ok::<(), flatforge_stream::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Index<'a> {
    stream: StreamSlice<'a>,
    marker: u64,
    entries: &'a [u8],
}

impl<'a> Index<'a> {
    /// The number of frames.
    ///
    /// ```
    /// use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default().index(true))?;
    /// for n in 0..3u64 {
    ///     w.write_with(|b| b.create_string(&n.to_string()))?;
    /// }
    /// let bytes = w.finish()?;
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    /// assert_eq!(stream.index()?.len(), 3);
    /// assert_eq!(stream.index()?.len(), stream.frames().count() as u64);
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn len(&self) -> u64 {
        (self.entries.len() / 8) as u64
    }

    /// Whether the stream has no frames.
    ///
    /// ```
    /// use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default().index(true))?;
    /// let empty = w.rotate(Vec::new())?; // a finished stream without frames
    /// w.write_with(|b| b.create_string("one"))?;
    /// let one = w.finish()?;
    /// let index = |bytes| StreamSlice::new(bytes, &ReaderOptions::default())?.index();
    /// assert!(index(&empty)?.is_empty());
    /// assert!(!index(&one)?.is_empty());
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The offset of frame `number`.
    ///
    /// ```
    /// use flatforge_stream::{Error, ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default().index(true))?;
    /// w.write_with(|b| b.create_string("a"))?;
    /// w.write_with(|b| b.create_string("b"))?;
    /// let bytes = w.finish()?;
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    /// let index = stream.index()?;
    /// let second = stream.frames().nth(1).unwrap()?;
    /// assert_eq!(index.offset(1)?, second.offset());
    /// assert!(matches!(index.offset(2), Err(Error::FrameOutOfRange { frame: 2, frames: 2 })));
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn offset(&self, number: u64) -> Result<u64, Error> {
        if number >= self.len() {
            return Err(Error::FrameOutOfRange {
                frame: number,
                frames: self.len(),
            });
        }
        Ok(u64_at(self.entries, number as usize * 8))
    }

    /// Frame `number`, found through the index and checked like any other frame (it must end
    /// before the index).
    ///
    /// ```
    /// use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default().index(true))?;
    /// for text in ["zero", "one", "two"] {
    ///     w.write_with(|b| b.create_string(text))?;
    /// }
    /// let bytes = w.finish()?;
    /// let index = StreamSlice::new(&bytes, &ReaderOptions::default())?.index()?;
    /// let frame = index.frame(1)?;
    /// assert_eq!((frame.number(), frame.root::<&str>()?), (1, "one"));
    /// assert!(index.frame(3).is_err());
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn frame(&self, number: u64) -> Result<Frame<'a>, Error> {
        let offset = self.offset(number)? as usize;
        match self.stream.frame_at(offset, number, self.marker as usize)? {
            Some((frame, _)) => Ok(frame),
            None => Err(Error::CorruptIndex {
                offset: self.marker,
                reason: "an entry points at the end of the frames",
            }),
        }
    }

    /// The frames from `number` on, read sequentially.
    ///
    /// ```
    /// use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default().index(true))?;
    /// for n in 0..10u64 {
    ///     w.write_with(|b| b.create_string(&n.to_string()))?;
    /// }
    /// let bytes = w.finish()?;
    /// let index = StreamSlice::new(&bytes, &ReaderOptions::default())?.index()?;
    /// let tail: Vec<&str> = index
    ///     .frames_from(7)?
    ///     .map(|f| f?.root::<&str>())
    ///     .collect::<Result<_, _>>()?;
    /// assert_eq!(tail, ["7", "8", "9"]);
    /// assert_eq!(index.frames_from(10)?.count(), 0); // the end is a valid start
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn frames_from(&self, number: u64) -> Result<Frames<'a>, Error> {
        let pos = if number == self.len() {
            self.marker as usize
        } else {
            self.offset(number)? as usize
        };
        // The index was checked: its offsets and its marker lie inside the data.
        Ok(self.stream.frames_at(pos, number))
    }
}

/// A stream read from any [`io::Read`] (a file, a socket, a pipe) through one reusable buffer.
///
/// It reads ahead [`ReaderOptions::read_ahead`] bytes at a time, keeps frames 8-aligned in memory
/// as they are in the stream, and grows the buffer only for a frame larger than it (after checking
/// the frame's length against [`ReaderOptions::max_frame_len`]). Frames are lent out one at a time
/// ([`next_frame`](Self::next_frame), [`for_each`](Self::for_each)).
///
/// ```
/// use flatforge_stream::{ReaderOptions, StreamReader, StreamWriter, WriterOptions};
/// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
/// for n in 0..3u64 {
///     w.write_with(|b| b.create_string(&n.to_string()))?;
/// }
/// let bytes = w.finish()?;
///
/// let mut r = StreamReader::new(&bytes[..], &ReaderOptions::default())?;
/// let mut seen = String::new();
/// while let Some(frame) = r.next_frame()? {
///     seen.push_str(frame.root::<&str>()?);
/// }
/// assert_eq!(seen, "012");
/// # Ok::<(), flatforge_stream::Error>(())
/// ```
#[derive(Debug)]
pub struct StreamReader<R> {
    inner: R,
    buf: Vec<u8>,
    /// Index in `buf` of an 8-aligned address.
    base: usize,
    /// `buf[start..end]` holds the unread stream bytes from stream position `pos`.
    start: usize,
    end: usize,
    pos: u64,
    eof: bool,
    done: bool,
    frame: u64,
    layout: Layout,
    header: Option<Header>,
    ident: Option<[u8; 4]>,
    read_ahead: usize,
    /// The index found by `seek_frame`: marker offset and frame count.
    index: Option<(u64, u64)>,
    /// Whether the frames ended with a valid index footer.
    indexed: bool,
}

impl<R: Read> StreamReader<R> {
    /// Reads and checks the header (for framed streams) against `opts`.
    ///
    /// ```
    /// use flatforge_stream::{Error, ReaderOptions, StreamReader, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// w.write_with(|b| b.create_string("read"))?;
    /// let bytes = w.finish()?;
    /// let mut r = StreamReader::new(&bytes[..], &ReaderOptions::default())?;
    /// assert_eq!(r.next_frame()?.unwrap().root::<&str>()?, "read");
    /// let err = StreamReader::new(&b"GIF89a..."[..], &ReaderOptions::default()).unwrap_err();
    /// assert!(matches!(err, Error::BadMagic { .. }));
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn new(inner: R, opts: &ReaderOptions) -> Result<Self, Error> {
        let mut r = StreamReader {
            inner,
            buf: Vec::new(),
            base: 0,
            start: 0,
            end: 0,
            pos: 0,
            eof: false,
            done: false,
            frame: 0,
            layout: Layout {
                checksum: None,
                max_len: 0,
            },
            header: None,
            ident: None,
            read_ahead: opts.read_ahead.max(64),
            index: None,
            indexed: false,
        };
        let need = match opts.format {
            Format::Plain => 0,
            Format::Auto => 8,
            Format::Framed => HEADER_LEN,
        };
        r.fill(need)?;
        if opts.format == Format::Auto && r.window().get(..8) == Some(&MAGIC[..]) {
            r.fill(HEADER_LEN)?;
        }
        let o = opts.open(r.window(), r.eof)?;
        if o.header.is_some() {
            r.consume(HEADER_LEN);
        }
        r.layout = o.layout;
        r.header = o.header;
        r.ident = o.ident;
        Ok(r)
    }

    /// The header of a framed stream (`None` for plain streams).
    ///
    /// ```
    /// use flatforge_stream::{Checksum, Format, ReaderOptions, StreamReader, StreamWriter};
    /// use flatforge_stream::WriterOptions;
    /// let opts = WriterOptions::default().checksum(Checksum::Crc32c);
    /// let framed = StreamWriter::new(Vec::new(), opts)?.finish()?;
    /// let r = StreamReader::new(&framed[..], &ReaderOptions::default())?;
    /// assert_eq!(r.header().map(|h| h.checksum), Some(Checksum::Crc32c));
    /// let plain = ReaderOptions::default().format(Format::Plain);
    /// assert!(StreamReader::new(&[][..], &plain)?.header().is_none());
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn header(&self) -> Option<&Header> {
        self.header.as_ref()
    }

    /// The stream position after the last frame returned.
    ///
    /// ```
    /// use flatforge_stream::{ReaderOptions, StreamReader, StreamWriter, WriterOptions};
    /// use flatforge_stream::HEADER_LEN;
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// w.write_with(|b| b.create_string("a"))?;
    /// let after_first = w.position();
    /// w.write_with(|b| b.create_string("b"))?;
    /// let bytes = w.finish()?;
    /// let mut r = StreamReader::new(&bytes[..], &ReaderOptions::default())?;
    /// assert_eq!(r.position(), HEADER_LEN as u64);
    /// r.next_frame()?;
    /// assert_eq!(r.position(), after_first);
    /// r.next_frame()?;
    /// assert_eq!(r.position(), bytes.len() as u64);
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn position(&self) -> u64 {
        self.pos
    }

    /// The number of the next frame.
    ///
    /// ```
    /// use flatforge_stream::{ReaderOptions, StreamReader, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// w.write_with(|b| b.create_string("a"))?;
    /// let bytes = w.finish()?;
    /// let mut r = StreamReader::new(&bytes[..], &ReaderOptions::default())?;
    /// assert_eq!(r.next_frame_number(), 0);
    /// assert_eq!(r.next_frame()?.map(|f| f.number()), Some(0));
    /// assert_eq!(r.next_frame_number(), 1);
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn next_frame_number(&self) -> u64 {
        self.frame
    }

    /// Whether the frames ended with a valid index footer (known once `next_frame` returned `None`).
    ///
    /// ```
    /// use flatforge_stream::{ReaderOptions, StreamReader, StreamWriter, WriterOptions};
    /// for index in [true, false] {
    ///     let mut w = StreamWriter::new(Vec::new(), WriterOptions::default().index(index))?;
    ///     w.write_with(|b| b.create_string("a"))?;
    ///     let bytes = w.finish()?;
    ///     let mut r = StreamReader::new(&bytes[..], &ReaderOptions::default())?;
    ///     assert!(!r.ended_with_index()); // not known yet
    ///     while r.next_frame()?.is_some() {}
    ///     assert_eq!(r.ended_with_index(), index);
    /// }
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn ended_with_index(&self) -> bool {
        self.indexed
    }

    /// The reader, handing back the underlying reader (read-ahead bytes are lost).
    ///
    /// ```
    /// use flatforge_stream::{ReaderOptions, StreamReader, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// w.write_with(|b| b.create_string("a"))?;
    /// w.write_with(|b| b.create_string("b"))?;
    /// let bytes = w.finish()?;
    /// let mut r = StreamReader::new(&bytes[..], &ReaderOptions::default())?;
    /// r.next_frame()?;
    /// let rest: &[u8] = r.into_inner();
    /// // The second frame was read ahead into the reader's buffer: it is not in `rest`.
    /// assert!(rest.is_empty());
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn into_inner(self) -> R {
        self.inner
    }

    #[inline(always)]
    fn window(&self) -> &[u8] {
        &self.buf[self.start..self.end]
    }

    #[inline(always)]
    fn consume(&mut self, n: usize) {
        self.start += n;
        self.pos += n as u64;
    }

    /// Reads until `need` unread bytes are buffered or the stream ends. The buffer grows with the
    /// bytes that arrive, at most doubling them (plus the read-ahead): a frame length that claims
    /// gigabytes costs memory only as its bytes come.
    fn fill(&mut self, need: usize) -> Result<(), Error> {
        while self.end - self.start < need && !self.eof {
            // Read into the free tail first; once it is full, move the unread bytes to the front
            // and, if that is not enough, grow the buffer to about twice their size.
            if self.start + need > self.buf.len() && self.end == self.buf.len() {
                let unread = self.end - self.start;
                let room = need
                    .min(unread.saturating_mul(2).saturating_add(self.read_ahead))
                    .max(unread + 1);
                self.make_room(room);
            }
            let end = self.end;
            match self.inner.read(&mut self.buf[end..]) {
                Ok(0) => self.eof = true,
                Ok(n) => self.end += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(cause) => {
                    self.done = true;
                    return Err(Error::Io {
                        offset: self.pos + (self.end - self.start) as u64,
                        cause,
                    });
                }
            }
        }
        Ok(())
    }

    /// Moves the unread bytes to the front (keeping their alignment), growing the buffer if
    /// `need` bytes plus the read-ahead do not fit.
    #[cold]
    fn make_room(&mut self, need: usize) {
        let unread = self.end - self.start;
        let skew = (self.pos % 8) as usize;
        let want = 8 + skew + need.max(unread) + self.read_ahead;
        if self.buf.len() < want.max(self.read_ahead + 16) {
            let mut buf = vec![0u8; want.max(self.read_ahead + 16)];
            let base = buf.as_ptr().align_offset(8).min(7);
            buf[base + skew..base + skew + unread].copy_from_slice(&self.buf[self.start..self.end]);
            self.buf = buf;
            self.base = base;
        } else {
            self.buf.copy_within(self.start..self.end, self.base + skew);
        }
        self.start = self.base + skew;
        self.end = self.start + unread;
    }

    /// The next frame, or `None` at the end of the stream. After an error, returns `None`.
    ///
    /// ```
    /// use flatforge_stream::{ReaderOptions, StreamReader, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// w.write_with(|b| b.create_string("kept"))?;
    /// w.write_with(|b| b.create_string("torn"))?;
    /// let mut bytes = w.finish()?;
    /// bytes.truncate(bytes.len() - 4);
    /// let mut r = StreamReader::new(&bytes[..], &ReaderOptions::default())?;
    /// assert_eq!(r.next_frame()?.unwrap().root::<&str>()?, "kept");
    /// assert!(r.next_frame().unwrap_err().is_truncation());
    /// assert!(r.next_frame()?.is_none());
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    #[inline]
    pub fn next_frame(&mut self) -> Result<Option<Frame<'_>>, Error> {
        loop {
            if self.done {
                return Ok(None);
            }
            let step = self
                .layout
                .step(self.window(), self.pos, self.frame, self.eof);
            match step {
                Ok(Step::Frame {
                    offset,
                    buffer,
                    end,
                    ..
                }) => {
                    let at = self.start;
                    self.consume(end);
                    self.frame += 1;
                    return Ok(Some(Frame {
                        number: self.frame - 1,
                        offset,
                        buffer: &self.buf[at + buffer.0..at + buffer.1],
                        size_prefixed: self.header.is_none(),
                        file_identifier: self.ident,
                    }));
                }
                Ok(Step::NeedMore(n)) => self.fill(n)?,
                Ok(Step::End(None)) => {
                    self.done = true;
                    return Ok(None);
                }
                Ok(Step::End(Some(marker))) => {
                    self.done = true;
                    self.consume((marker - self.pos) as usize);
                    self.read_index()?;
                    return Ok(None);
                }
                Err(e) => {
                    self.done = true;
                    return Err(e);
                }
            }
        }
    }

    /// Calls `f` with every remaining frame in order; returns the number of frames.
    ///
    /// ```
    /// # use flatforge_stream::{ReaderOptions, StreamReader, StreamWriter, WriterOptions};
    /// # let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// # for n in 0..3u64 { w.write_with(|b| b.create_string(&n.to_string()))?; }
    /// # let bytes = w.finish()?;
    /// let mut r = StreamReader::new(&bytes[..], &ReaderOptions::default())?;
    /// let mut total = 0;
    /// let frames = r.for_each(|frame| {
    ///     total += frame.root::<&str>()?.len();
    ///     Ok::<(), flatforge_stream::Error>(())
    /// })?;
    /// assert_eq!((frames, total), (3, 3));
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn for_each<E: From<Error>>(
        &mut self,
        mut f: impl FnMut(Frame<'_>) -> Result<(), E>,
    ) -> Result<u64, E> {
        let mut n = 0;
        while let Some(frame) = self.next_frame()? {
            f(frame)?;
            n += 1;
        }
        Ok(n)
    }

    /// Reads and checks the index footer at the current position (the end marker), then the end.
    fn read_index(&mut self) -> Result<(), Error> {
        let marker = self.pos;
        let short = Error::CorruptIndex {
            offset: marker,
            reason: "the index is cut short",
        };
        self.fill(16)?;
        if self.window().len() < 16 {
            return Err(short);
        }
        let mut check = IndexCheck::new(marker, &self.window()[..16], self.frame)?;
        self.consume(16);
        let chunk = (self.read_ahead / 8).max(1) * 8;
        while check.entry_bytes_left() > 0 {
            let n = check.entry_bytes_left().min(chunk as u64) as usize;
            self.fill(n)?;
            if self.window().len() < n {
                // Check the entries before the cut first, as a slice reader does.
                let present = self.window().len() / 8 * 8;
                check.entries(&self.buf[self.start..self.start + present])?;
                return Err(short);
            }
            check.entries(&self.buf[self.start..self.start + n])?;
            self.consume(n);
        }
        self.fill(TRAILER_LEN + 1)?;
        if self.window().len() < TRAILER_LEN {
            return Err(short);
        }
        check.trailer(&self.buf[self.start..self.start + TRAILER_LEN])?;
        self.consume(TRAILER_LEN);
        if !self.window().is_empty() {
            return Err(Error::CorruptIndex {
                offset: self.pos,
                reason: "bytes after the index",
            });
        }
        self.indexed = true;
        Ok(())
    }
}

impl<R: Read + Seek> StreamReader<R> {
    /// Positions the reader at frame `number` through the index footer (checked once, on first
    /// use); the next [`next_frame`](Self::next_frame) returns that frame.
    ///
    /// ```
    /// use std::io::Cursor;
    /// use flatforge_stream::{ReaderOptions, StreamReader, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default().index(true))?;
    /// for n in 0..10u64 {
    ///     w.write_with(|b| b.create_string(&n.to_string()))?;
    /// }
    /// let bytes = w.finish()?;
    /// let mut r = StreamReader::new(Cursor::new(bytes), &ReaderOptions::default())?;
    /// r.seek_frame(7)?;
    /// assert_eq!(r.next_frame()?.unwrap().root::<&str>()?, "7");
    /// assert_eq!(r.frame_count()?, 10);
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn seek_frame(&mut self, number: u64) -> Result<(), Error> {
        let (marker, count) = self.load_index()?;
        if number > count {
            return Err(Error::FrameOutOfRange {
                frame: number,
                frames: count,
            });
        }
        let target = if number == count {
            marker
        } else {
            let mut e = [0; 8];
            self.read_at(marker + 16 + number * 8, &mut e)?;
            u64::from_le_bytes(e)
        };
        self.seek_to(target)?;
        self.frame = number;
        self.done = false;
        Ok(())
    }

    /// The number of frames, from the index footer.
    ///
    /// ```
    /// use std::io::Cursor;
    /// use flatforge_stream::{Error, ReaderOptions, StreamReader, StreamWriter, WriterOptions};
    /// let write = |index| -> Result<Vec<u8>, Error> {
    ///     let mut w = StreamWriter::new(Vec::new(), WriterOptions::default().index(index))?;
    ///     for n in 0..4u64 {
    ///         w.write_with(|b| b.create_string(&n.to_string()))?;
    ///     }
    ///     w.finish()
    /// };
    /// let opts = ReaderOptions::default();
    /// let mut r = StreamReader::new(Cursor::new(write(true)?), &opts)?;
    /// assert_eq!(r.frame_count()?, 4);
    /// let mut r = StreamReader::new(Cursor::new(write(false)?), &opts)?;
    /// assert!(matches!(r.frame_count(), Err(Error::NoIndex)));
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn frame_count(&mut self) -> Result<u64, Error> {
        Ok(self.load_index()?.1)
    }

    /// The index's end marker position and frame count, checked on first use. Reading it moves the
    /// inner reader, which is put back where the buffered bytes end, so that reading frames goes on
    /// where it was.
    fn load_index(&mut self) -> Result<(u64, u64), Error> {
        if let Some(found) = self.index {
            return Ok(found);
        }
        let resume = self.pos + (self.end - self.start) as u64;
        let found = self.read_footer();
        self.inner
            .seek(SeekFrom::Start(resume))
            .map_err(|cause| Error::Io {
                offset: resume,
                cause,
            })?;
        let found = found?;
        self.index = Some(found);
        Ok(found)
    }

    /// Reads and checks the index footer (see [`load_index`](Self::load_index)).
    fn read_footer(&mut self) -> Result<(u64, u64), Error> {
        if self.header.is_none() {
            return Err(Error::NoIndex);
        }
        let io = |offset| move |cause| Error::Io { offset, cause };
        let len = self.inner.seek(SeekFrom::End(0)).map_err(io(0))?;
        if len < (HEADER_LEN + 16 + TRAILER_LEN) as u64 {
            return Err(Error::NoIndex);
        }
        let at = len - TRAILER_LEN as u64;
        let mut t = [0u8; TRAILER_LEN];
        self.read_at(at, &mut t)?;
        if t[24..] != crate::format::INDEX_MAGIC {
            return Err(Error::NoIndex);
        }
        let marker = u64_at(&t, 0);
        let count = u64_at(&t, 8);
        let fits = count
            .checked_mul(8)
            .and_then(|e| e.checked_add(marker))
            .and_then(|e| e.checked_add(16))
            == Some(at);
        if !fits || marker < HEADER_LEN as u64 || !marker.is_multiple_of(8) {
            return Err(Error::CorruptIndex {
                offset: at,
                reason: "the trailer does not describe an index ending here",
            });
        }
        let mut head = [0u8; 16];
        self.read_at(marker, &mut head)?;
        if head[..8] != [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0] {
            return Err(Error::CorruptIndex {
                offset: marker,
                reason: "no end marker where the trailer says",
            });
        }
        let mut check = IndexCheck::new(marker, &head, count)?;
        let mut chunk = vec![0u8; (count * 8).min(64 << 10) as usize];
        while check.entry_bytes_left() > 0 {
            let n = check.entry_bytes_left().min(chunk.len() as u64) as usize;
            self.inner.read_exact(&mut chunk[..n]).map_err(io(marker))?;
            check.entries(&chunk[..n])?;
        }
        check.trailer(&t)?;
        Ok((marker, count))
    }

    fn read_at(&mut self, offset: u64, out: &mut [u8]) -> Result<(), Error> {
        let io = |cause| Error::Io { offset, cause };
        self.inner.seek(SeekFrom::Start(offset)).map_err(io)?;
        self.inner.read_exact(out).map_err(io)
    }

    fn seek_to(&mut self, offset: u64) -> Result<(), Error> {
        self.inner
            .seek(SeekFrom::Start(offset))
            .map_err(|cause| Error::Io { offset, cause })?;
        self.pos = offset;
        let skew = (offset % 8) as usize;
        self.start = self.base + skew;
        self.end = self.start;
        if self.buf.len() < self.end {
            self.buf.resize(self.end, 0);
        }
        self.eof = false;
        Ok(())
    }
}
