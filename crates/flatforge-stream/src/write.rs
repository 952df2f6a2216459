//! The writer: builds each message in a reused builder and hands a batch of finished frames to the
//! sink with one write (a vectored one when a builder's payload is among them). A small frame (up to
//! [`COPY_MAX`] bytes) is finished straight into the batch buffer behind its frame header
//! ([`Builder::finish_into`]: the message's data is copied once, and its root offset written in the
//! copy), and its builder reused at once: one short copy costs less than one more slice for the
//! sink, and the one builder stays in cache. A larger frame's payload stays in its builder (which joins a pool, a spare taking
//! its place) until the sink takes it, so it is never copied, and its header ends the batch
//! buffer's piece before it.
//!
//! What survives a crash: frames handed to the sink are whole or, for the last one of a failed or
//! interrupted write, torn (readers report it, [`recover_file`](crate::recover_file) cuts it
//! off). Frames still in the batch are lost if the process dies; [`StreamWriter::flush`] hands
//! them to the sink (for a file: the OS, so they survive the process), [`StreamWriter::sync`] also
//! asks a file to reach the disk (they survive a power loss).

use std::fs::{File, OpenOptions};
use std::io::{self, IoSlice, Read, Seek, SeekFrom, Write};
use std::path::Path;

use flatforge::{BuildError, Builder, Offset};

use crate::error::Error;
use crate::format::{
    encode_index, is_torn_header, lead, write_frame_header, Checksum, Format, Header, HEADER_LEN,
    INDEX_MAGIC, MAGIC, MAX_PAYLOAD_LEN, MIN_MESSAGE_LEN,
};
use crate::read::ReaderOptions;
use crate::recover::Recovery;

/// The most slices one vectored write takes. A frame adds two pieces at most (the run of `side`
/// before it, its builder), and only a frame left in its builder closes a run of `side`, so a
/// batch of at most `MAX_SEGS / 2` frames (what `batch_frames` is clamped to) never needs more.
const MAX_SEGS: usize = 128;

/// Frames up to this size are copied into the batch buffer; larger ones are handed to the sink
/// from the builder they were built in.
pub(crate) const COPY_MAX: usize = 1024;

/// How a [`StreamWriter`] writes.
///
/// ```
/// use flatforge_stream::{Checksum, WriterOptions};
/// let opts = WriterOptions::default()
///     .checksum(Checksum::Xxh3)
///     .file_identifier(*b"TELE")
///     .index(true);
/// assert_eq!(opts.batch_frames, 64);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct WriterOptions {
    /// [`Format::Framed`] (the default) or [`Format::Plain`] (bare size-prefixed buffers; no
    /// header, checksum, schema hash or index).
    pub format: Format,
    /// The checksum of each frame. Default none.
    pub checksum: Checksum,
    /// The file identifier every message is finished with, declared in the header.
    pub file_identifier: Option<[u8; 4]>,
    /// The schema hash declared in the header.
    pub schema_hash: Option<u64>,
    /// Whether [`StreamWriter::finish`] appends an index footer (8 bytes per frame, kept in memory
    /// until then). Default false.
    pub index: bool,
    /// Frames are handed to the sink once this many bytes are pending. Default 64 KiB.
    pub batch_bytes: usize,
    /// ... or once this many frames are pending (at most 64). Default 64.
    pub batch_frames: usize,
    /// The largest payload accepted. Default 64 MiB; at most 2^31 - 1.
    pub max_frame_len: usize,
}

impl Default for WriterOptions {
    fn default() -> Self {
        WriterOptions {
            format: Format::Framed,
            checksum: Checksum::None,
            file_identifier: None,
            schema_hash: None,
            index: false,
            batch_bytes: 64 << 10,
            batch_frames: 64,
            max_frame_len: 64 << 20,
        }
    }
}

impl WriterOptions {
    /// Sets [`format`](Self::format).
    ///
    /// ```
    /// use flatforge_stream::{Checksum, Error, Format, StreamWriter, WriterOptions};
    /// let plain = WriterOptions::default().format(Format::Plain);
    /// let mut w = StreamWriter::new(Vec::new(), plain.clone())?;
    /// w.write_with(|b| b.create_string("bare"))?;
    /// let bytes = w.finish()?;
    /// // No header: the stream starts with the first buffer's size prefix.
    /// assert_eq!(u32::from_le_bytes(bytes[..4].try_into().unwrap()) as usize, bytes.len() - 4);
    /// // Plain streams have no checksums.
    /// let err = StreamWriter::new(Vec::new(), plain.checksum(Checksum::Crc32c)).unwrap_err();
    /// assert!(matches!(err, Error::InvalidOptions(_)));
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
    /// let mut w = StreamWriter::new(Vec::new(), opts)?;
    /// w.write_with(|b| b.create_string("checked"))?;
    /// let mut bytes = w.finish()?;
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    /// assert_eq!(stream.header().unwrap().checksum, Checksum::Crc32c);
    /// *bytes.last_mut().unwrap() ^= 1; // flip a bit of the payload
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    /// let err = stream.frames().next().unwrap().unwrap_err();
    /// assert!(matches!(err, Error::ChecksumMismatch { frame: 0, kind: Checksum::Crc32c, .. }));
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn checksum(mut self, checksum: Checksum) -> Self {
        self.checksum = checksum;
        self
    }

    /// Sets [`file_identifier`](Self::file_identifier).
    ///
    /// ```
    /// use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let opts = WriterOptions::default().file_identifier(*b"LOGS");
    /// let mut w = StreamWriter::new(Vec::new(), opts)?;
    /// w.write_with(|b| b.create_string("line"))?;
    /// let bytes = w.finish()?;
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    /// assert_eq!(stream.header().unwrap().file_identifier, Some(*b"LOGS"));
    /// let frame = stream.frames().next().unwrap()?;
    /// assert!(flatforge::buffer_has_identifier(frame.payload(), b"LOGS", false));
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn file_identifier(mut self, id: [u8; 4]) -> Self {
        self.file_identifier = Some(id);
        self
    }

    /// Sets [`schema_hash`](Self::schema_hash).
    ///
    /// ```
    /// use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let opts = WriterOptions::default().schema_hash(0xfeed);
    /// let bytes = StreamWriter::new(Vec::new(), opts)?.finish()?;
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    /// assert_eq!(stream.header().unwrap().schema_hash, Some(0xfeed));
    /// let other = ReaderOptions::default().require_schema_hash(0xbeef);
    /// assert!(StreamSlice::new(&bytes, &other).is_err());
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn schema_hash(mut self, hash: u64) -> Self {
        self.schema_hash = Some(hash);
        self
    }

    /// Sets [`index`](Self::index).
    ///
    /// ```
    /// use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default().index(true))?;
    /// for n in 0..20u64 {
    ///     w.write_with(|b| b.create_string(&n.to_string()))?;
    /// }
    /// let bytes = w.finish()?;
    /// let index = StreamSlice::new(&bytes, &ReaderOptions::default())?.index()?;
    /// assert_eq!(index.len(), 20);
    /// assert_eq!(index.frame(12)?.root::<&str>()?, "12");
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn index(mut self, index: bool) -> Self {
        self.index = index;
        self
    }

    /// Sets [`batch_bytes`](Self::batch_bytes) and [`batch_frames`](Self::batch_frames); `(0, 1)`
    /// hands every frame to the sink at once.
    ///
    /// ```
    /// use flatforge_stream::{StreamWriter, WriterOptions};
    /// // By default, a small frame waits in the batch (with the header) ...
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// w.write_with(|b| b.create_string("pending"))?;
    /// assert!(w.get_ref().is_empty());
    /// // ... with `batch(0, 1)`, every frame reaches the sink when it is written.
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default().batch(0, 1))?;
    /// w.write_with(|b| b.create_string("written"))?;
    /// assert_eq!(w.get_ref().len() as u64, w.position());
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn batch(mut self, bytes: usize, frames: usize) -> Self {
        self.batch_bytes = bytes;
        self.batch_frames = frames;
        self
    }

    /// Sets [`max_frame_len`](Self::max_frame_len) (clamped to 2^31 - 1).
    ///
    /// ```
    /// use flatforge_stream::{Error, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default().max_frame_len(64))?;
    /// assert_eq!(w.write_with(|b| b.create_string("short"))?, 0);
    /// let err = w.write_with(|b| b.create_string(&"x".repeat(100))).unwrap_err();
    /// assert!(matches!(err, Error::FrameTooLarge { frame: 1, max: 64, .. }));
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn max_frame_len(mut self, max: usize) -> Self {
        self.max_frame_len = max.min(MAX_PAYLOAD_LEN);
        self
    }
}

/// A pending piece of the batch.
#[derive(Clone, Copy, Debug)]
enum Seg {
    /// The finished payload in the next builder of the pool (of a frame over [`COPY_MAX`] bytes;
    /// its header ends the piece before).
    Pool,
    /// Bytes of `side`.
    Side(usize, usize),
}

/// The pending bytes that are not in a builder, in a buffer that is zeroed once and reused, so that
/// appending a frame is a bounds check and a copy (of fixed-size moves for a small frame).
#[derive(Debug, Default)]
struct Side {
    /// Initialized (zeroed once) to its length; the pending bytes are `buf[..len]`.
    buf: Vec<u8>,
    len: usize,
}

impl Side {
    #[inline(always)]
    fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    fn bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    fn clear(&mut self) {
        self.len = 0;
    }

    /// The next `n` bytes, to be written by the caller.
    #[inline(always)]
    fn room(&mut self, n: usize) -> &mut [u8] {
        let start = self.len;
        let end = start + n;
        if end > self.buf.len() {
            self.grow(end);
        }
        self.len = end;
        &mut self.buf[start..end]
    }

    /// The next `n` bytes, to be written by the caller, if the buffer holds them: `None` (with
    /// nothing changed) calls for [`grow`](Self::grow). No call on the way, so that what the caller
    /// read before stays in registers.
    #[inline(always)]
    fn try_room(&mut self, n: usize) -> Option<&mut [u8]> {
        let room = self.buf.get_mut(self.len..)?.get_mut(..n)?;
        self.len += n;
        Some(room)
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self, needed: usize) {
        let len = needed.max(2 * self.buf.len()).max(4096);
        self.buf.resize(len, 0);
    }

    fn extend(&mut self, bytes: &[u8]) {
        self.room(bytes.len()).copy_from_slice(bytes);
    }
}

/// A builder for the messages of a writer whose payloads are at most `max_len` bytes.
fn new_builder(max_len: usize) -> Builder {
    let mut b = Builder::with_capacity(1024);
    b.set_max_size(max_len + 32);
    b
}

/// Writes `lead` zeros and the frame header of `payload` into `head` (`lead` + the header's length
/// bytes).
#[inline(always)]
fn put_frame_header(head: &mut [u8], lead: usize, checksum: Checksum, payload: &[u8]) {
    // `lead` is under 8 and the header at least 8 bytes long: one store zeroes the lead.
    head[..8].copy_from_slice(&[0; 8]);
    write_frame_header(&mut head[lead..], checksum, payload);
}

/// Writes a stream of messages to any [`io::Write`].
///
/// Messages are built straight into the writer's buffers ([`write_with`](Self::write_with)) and
/// handed to the sink in batches. Call [`finish`](Self::finish) at the end (it writes the index
/// footer when asked for, and flushes); dropping the writer hands pending frames to the sink but
/// ignores errors, like [`io::BufWriter`].
///
/// ```
/// use flatforge_stream::{Checksum, ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
/// let opts = WriterOptions::default().checksum(Checksum::Crc32c);
/// let mut w = StreamWriter::new(Vec::new(), opts)?;
/// for i in 0..100u64 {
///     w.write_with(|b| {
///         b.start_table();
///         b.add_scalar(0, i, 0)?;
///         b.end_table()
///     })?;
/// }
/// let bytes = w.finish()?;
/// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
/// let mut sum = 0;
/// for t in stream.messages::<flatforge::Table>() {
///     sum += t?.get::<u64>(0)?.unwrap_or(0);
/// }
/// assert_eq!(sum, 4950);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct StreamWriter<W: Write> {
    out: Option<W>,
    /// Builds the next message.
    builder: Builder,
    /// `pool[..used]` hold the payloads pending as `Seg::Pool` (each swapped in from `builder`);
    /// the others are spares.
    pool: Vec<Builder>,
    used: usize,
    /// The pending pieces before `side[open..]`; empty while no frame is pending in a builder.
    segs: Vec<Seg>,
    /// Pending bytes that are not in a builder: the header, copied frames, index footer.
    side: Side,
    /// `side[open..]` is pending but in no piece yet: the run of bytes since the last builder's
    /// frame, which `write_batch` (or the next such frame) closes as one piece.
    open: usize,
    /// The stream position of the first pending byte.
    batch_start: u64,
    /// The batch is handed to the sink once `pos` reaches `flush_pos` or `frames` reaches
    /// `flush_frames` (one comparison each per frame, set when a batch starts).
    flush_pos: u64,
    flush_frames: u64,
    pos: u64,
    frames: u64,
    index: Option<Vec<u64>>,
    checksum: Checksum,
    plain: bool,
    /// A framed stream without checksums, file identifier or index: `finish_frame` takes a path
    /// with those known absent. Set at construction (`abandon` changes the index only to end the
    /// stream).
    bare: bool,
    ident: Option<[u8; 4]>,
    hlen: usize,
    batch_bytes: usize,
    batch_frames: usize,
    max_len: usize,
    /// Payloads up to this length (the smaller of [`COPY_MAX`] and `max_len`) are finished straight
    /// into the batch; larger ones (or too large ones) are left to
    /// [`finish_in_builder`](Self::finish_in_builder).
    copy_max: usize,
    failed: bool,
    /// The header of a framed stream (written again by `rotate`).
    header: Option<Header>,
    /// For a writer from [`append`](StreamWriter::append): the stream it found, to which
    /// [`abandon`](StreamWriter::abandon) returns.
    origin: Option<Origin>,
}

/// The stream [`StreamWriter::append`] found: where its frames end, how many there are, and its
/// index footer, if it had one.
#[derive(Debug)]
struct Origin {
    pos: u64,
    frames: u64,
    footer: OriginFooter,
}

/// Whether the stream found ended with an index footer, and where its frames are when the
/// appending writer keeps no index of its own.
#[derive(Debug)]
enum OriginFooter {
    None,
    /// The appending writer's index, cut back to the frames found.
    WritersIndex,
    /// The frames' offsets (the appending writer writes no index).
    Offsets(Vec<u64>),
}

impl<W: Write> StreamWriter<W> {
    /// A writer to `out`; a framed stream's header is the first pending bytes of the batch.
    ///
    /// ```
    /// use flatforge_stream::{Error, Format, StreamWriter, WriterOptions, HEADER_LEN};
    /// let file = std::io::BufWriter::new(Vec::new()); // any `io::Write`: a file, a socket, ...
    /// let w = StreamWriter::new(file, WriterOptions::default())?;
    /// assert_eq!((w.frames(), w.position()), (0, HEADER_LEN as u64));
    /// // A reader can detect the format; a writer must be told.
    /// let auto = WriterOptions::default().format(Format::Auto);
    /// assert!(matches!(StreamWriter::new(Vec::new(), auto), Err(Error::InvalidOptions(_))));
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn new(out: W, opts: WriterOptions) -> Result<Self, Error> {
        let plain = Self::plain(&opts)?;
        let mut w = StreamWriter::at(out, &opts, plain, 0, 0);
        if let Some(header) = w.header {
            w.push_side(&header.encode());
        }
        Ok(w)
    }

    /// Checks `opts`; returns whether they ask for a plain stream.
    fn plain(opts: &WriterOptions) -> Result<bool, Error> {
        let plain = match opts.format {
            Format::Framed => false,
            Format::Plain => true,
            Format::Auto => return Err(Error::InvalidOptions("a writer needs a definite format")),
        };
        if plain && (opts.checksum != Checksum::None || opts.schema_hash.is_some() || opts.index) {
            return Err(Error::InvalidOptions(
                "plain streams have no header, checksums or index",
            ));
        }
        Ok(plain)
    }

    /// A writer whose sink is at stream position `pos`, after `frames` frames (and, for a framed
    /// stream, after the header, which it knows but does not write).
    fn at(out: W, opts: &WriterOptions, plain: bool, pos: u64, frames: u64) -> Self {
        let max_len = opts.max_frame_len.min(MAX_PAYLOAD_LEN);
        let mut w = StreamWriter {
            out: Some(out),
            builder: new_builder(max_len),
            pool: Vec::new(),
            used: 0,
            segs: Vec::with_capacity(MAX_SEGS),
            side: Side::default(),
            open: 0,
            batch_start: 0,
            flush_pos: 0,
            flush_frames: 0,
            pos,
            frames,
            index: opts.index.then(Vec::new),
            checksum: opts.checksum,
            plain,
            bare: !plain
                && opts.checksum == Checksum::None
                && opts.file_identifier.is_none()
                && !opts.index,
            ident: opts.file_identifier,
            hlen: opts.checksum.frame_header_len(),
            batch_bytes: opts.batch_bytes,
            batch_frames: opts.batch_frames.clamp(1, MAX_SEGS / 2),
            max_len,
            copy_max: COPY_MAX.min(max_len),
            failed: false,
            header: (!plain).then(|| {
                let mut header = Header::new(opts.checksum);
                header.file_identifier = opts.file_identifier;
                header.schema_hash = opts.schema_hash;
                header
            }),
            origin: None,
        };
        w.start_batch();
        w
    }

    /// Frames written so far (pending ones included).
    ///
    /// ```
    /// use flatforge_stream::{StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// for text in ["a", "b", "c"] {
    ///     w.write_with(|b| b.create_string(text))?;
    /// }
    /// assert_eq!(w.frames(), 3);
    /// assert!(w.get_ref().is_empty()); // all three still pending
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// The stream length so far (pending bytes included).
    ///
    /// ```
    /// use flatforge_stream::{StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// w.write_with(|b| b.create_string("a"))?;
    /// w.write_with(|b| b.create_string("b"))?;
    /// let len = w.position();
    /// assert_eq!(w.finish()?.len() as u64, len); // no index: nothing is added at the end
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn position(&self) -> u64 {
        self.pos
    }

    /// The sink.
    ///
    /// ```
    /// use flatforge_stream::{StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// w.write_with(|b| b.create_string("a"))?;
    /// assert_eq!(w.get_ref().len(), 0); // pending in the writer
    /// w.flush()?;
    /// assert_eq!(w.get_ref().len() as u64, w.position());
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn get_ref(&self) -> &W {
        self.out.as_ref().expect("present until finish")
    }

    /// Builds one message with `build` in a reused builder (reset, not finished: return the root)
    /// and frames it; returns its frame number.
    ///
    /// ```
    /// # use flatforge_stream::{StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// assert_eq!(w.write_with(|b| b.create_string("first"))?, 0);
    /// assert_eq!(w.write_with(|b| b.create_string("second"))?, 1);
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    #[inline]
    pub fn write_with<T: ?Sized>(
        &mut self,
        build: impl FnOnce(&mut Builder) -> Result<Offset<T>, BuildError>,
    ) -> Result<u64, Error> {
        self.try_write_with(|b| build(b).map_err(Error::from))
    }

    /// [`write_with`](Self::write_with) for a `build` with an error type of its own (a JSON
    /// parser's, say). A failed `build` writes nothing.
    ///
    /// ```
    /// use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// type BoxError = Box<dyn std::error::Error>;
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// for line in ["12", "x", "30"] {
    ///     let written = w.try_write_with(|b| -> Result<_, BoxError> {
    ///         let n: u32 = line.parse()?;
    ///         b.start_table();
    ///         b.add_scalar(0, n, 0)?;
    ///         Ok(b.end_table()?)
    ///     });
    ///     assert_eq!(written.is_ok(), line != "x");
    /// }
    /// assert_eq!(w.frames(), 2);
    /// let bytes = w.finish()?;
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    /// let mut values = Vec::new();
    /// for table in stream.messages::<flatforge::Table>() {
    ///     values.push(table?.get::<u32>(0)?.unwrap_or(0));
    /// }
    /// assert_eq!(values, [12, 30]);
    /// # Ok::<(), BoxError>(())
    /// ```
    #[inline]
    pub fn try_write_with<T: ?Sized, E: From<Error>>(
        &mut self,
        build: impl FnOnce(&mut Builder) -> Result<Offset<T>, E>,
    ) -> Result<u64, E> {
        if self.failed {
            return Err(Error::WriterFailed.into());
        }
        self.builder.reset();
        let root = build(&mut self.builder)?;
        let frame_len = self.finish_frame(root)?;
        self.count_frame(frame_len)?;
        Ok(self.frames - 1)
    }

    /// Keeps the finished payload in `builder` pending as the batch's next piece, and puts a spare
    /// builder in its place.
    fn keep_builder(&mut self) {
        self.close_side();
        if self.used == self.pool.len() {
            self.pool.push(new_builder(self.max_len));
        }
        core::mem::swap(&mut self.builder, &mut self.pool[self.used]);
        self.used += 1;
        self.segs.push(Seg::Pool);
    }

    /// Finishes the message in the current builder and adds its frame to the batch: a small frame
    /// is finished into the batch (its header written in front), a larger one stays in its builder
    /// (its header goes to `side` as the piece before it). Returns the frame's length.
    #[inline(always)]
    fn finish_frame<T: ?Sized>(&mut self, root: Offset<T>) -> Result<usize, Error> {
        if self.bare {
            return self.finish_framed::<true, T>(root);
        }
        if self.plain {
            let b = &self.builder;
            let ident = self.ident.as_ref();
            // The size prefix is the frame header.
            let len = b.finished_size_prefixed_len(ident.is_some());
            if len - 4 > self.copy_max {
                return self.finish_in_builder(root);
            }
            let Some(frame) = self.side.try_room(len) else {
                return self.grow_and_finish_frame(root, len);
            };
            // `frame` is the `finished_size_prefixed_len` bytes that this fills.
            b.finish_size_prefixed_into(root, ident, frame);
            return Ok(len);
        }
        self.finish_framed::<false, T>(root)
    }

    /// [`finish_frame`](Self::finish_frame) for a framed stream; `BARE` when the writer is `bare`,
    /// which leaves out the tests for a file identifier, checksum and index.
    #[inline(always)]
    fn finish_framed<const BARE: bool, T: ?Sized>(
        &mut self,
        root: Offset<T>,
    ) -> Result<usize, Error> {
        let (ident, checksum) = if BARE {
            (None, Checksum::None)
        } else {
            (self.ident.as_ref(), self.checksum)
        };
        let b = &self.builder;
        let len = b.finished_len(ident.is_some());
        if len > self.copy_max {
            return self.finish_in_builder(root);
        }
        // Finished straight into the batch, behind its header.
        let lead = lead(self.pos);
        let head_len = lead + checksum.frame_header_len();
        let Some(frame) = self.side.try_room(head_len + len) else {
            return self.grow_and_finish_frame(root, head_len + len);
        };
        let (head, payload) = frame.split_at_mut(head_len);
        // `payload` is the `finished_len` bytes that `finish_into` fills.
        b.finish_into(root, ident, payload);
        put_frame_header(head, lead, checksum, payload);
        if !BARE {
            if let Some(index) = &mut self.index {
                index.push(self.pos + lead as u64);
            }
        }
        Ok(head_len + len)
    }

    /// [`finish_frame`](Self::finish_frame) when the batch buffer is short of the `n` bytes of the
    /// frame: grows it first.
    #[cold]
    #[inline(never)]
    fn grow_and_finish_frame<T: ?Sized>(
        &mut self,
        root: Offset<T>,
        n: usize,
    ) -> Result<usize, Error> {
        self.side.grow(self.side.len() + n);
        self.finish_frame(root)
    }

    /// [`finish_frame`](Self::finish_frame) for a message over [`COPY_MAX`] bytes, or over the
    /// largest payload: finished in its builder, which joins the batch.
    #[inline(never)]
    fn finish_in_builder<T: ?Sized>(&mut self, root: Offset<T>) -> Result<usize, Error> {
        let b = &mut self.builder;
        let ident = self.ident.as_ref();
        let frame_len = if self.plain {
            let frame = b.finish_size_prefixed(root, ident)?;
            let len = frame.len() - 4;
            if len > self.max_len {
                return Err(self.too_large(len));
            }
            frame.len()
        } else {
            let lead = lead(self.pos);
            let head_len = lead + self.checksum.frame_header_len();
            let payload = b.finish(root, ident)?;
            let len = payload.len();
            if len > self.max_len {
                return Err(self.too_large(len));
            }
            if let Some(index) = &mut self.index {
                index.push(self.pos + lead as u64);
            }
            put_frame_header(self.side.room(head_len), lead, self.checksum, payload);
            head_len + len
        };
        self.keep_builder();
        Ok(frame_len)
    }

    #[cold]
    fn too_large(&self, len: usize) -> Error {
        Error::FrameTooLarge {
            frame: self.frames,
            offset: self.pos + lead(self.pos) as u64,
            len: len as u64,
            max: self.max_len as u64,
        }
    }

    /// Frames a message that is already finished (`flatforge::Builder::finish`, or bytes from
    /// elsewhere); it is not verified. Small messages are copied into the batch, large ones are
    /// written straight from `payload`. Framed streams only: a plain stream takes
    /// [`write_size_prefixed`](Self::write_size_prefixed).
    ///
    /// ```
    /// use flatforge_stream::{Format, ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let mut b = flatforge::Builder::new();
    /// let s = b.create_string("built elsewhere")?;
    /// let message = b.finish(s, None)?;
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// assert_eq!(w.write_message(message)?, 0);
    /// let bytes = w.finish()?;
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    /// assert_eq!(stream.messages::<&str>().next().unwrap()?, "built elsewhere");
    ///
    /// let plain = WriterOptions::default().format(Format::Plain);
    /// let mut w = StreamWriter::new(Vec::new(), plain)?;
    /// assert!(w.write_message(message).is_err()); // plain streams take size-prefixed buffers
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_message(&mut self, payload: &[u8]) -> Result<u64, Error> {
        if self.plain {
            return Err(Error::InvalidOptions(
                "plain streams take size-prefixed buffers (write_size_prefixed)",
            ));
        }
        self.write_raw(payload, None)
    }

    /// Appends a size-prefixed buffer (as `flatc --size-prefixed` or
    /// `Builder::finish_size_prefixed` make it) to a plain stream; its prefix must match its length,
    /// and give at least the 8 bytes of the smallest FlatBuffer (readers take a shorter frame for
    /// damage, [`Error::FrameTooSmall`]).
    ///
    /// ```
    /// use flatforge_stream::{Error, Format, StreamWriter, WriterOptions};
    /// let mut b = flatforge::Builder::new();
    /// let s = b.create_string("x")?;
    /// let buf = b.finish_size_prefixed(s, None)?.to_vec();
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default().format(Format::Plain))?;
    /// w.write_size_prefixed(&buf)?;
    /// let err = w.write_size_prefixed(&[4, 0, 0, 0, 1, 2, 3, 4]).unwrap_err();
    /// assert!(matches!(err, Error::FrameTooSmall { frame: 1, len: 4, .. }));
    /// assert_eq!(w.finish()?, buf);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_size_prefixed(&mut self, buf: &[u8]) -> Result<u64, Error> {
        if !self.plain {
            return Err(Error::InvalidOptions(
                "framed streams take unprefixed messages (write_message)",
            ));
        }
        let Some(prefix) = buf.get(..4) else {
            return Err(Error::InvalidOptions(
                "a size-prefixed buffer has at least 4 bytes",
            ));
        };
        let len = u32::from_le_bytes(prefix.try_into().expect("4 bytes")) as usize;
        if len != buf.len() - 4 {
            return Err(Error::InvalidOptions(
                "the size prefix does not match the buffer's length",
            ));
        }
        if len < MIN_MESSAGE_LEN as usize {
            return Err(Error::FrameTooSmall {
                frame: self.frames,
                offset: self.pos,
                len: len as u64,
            });
        }
        self.write_raw(&buf[4..], Some(&buf[..4]))
    }

    fn write_raw(&mut self, payload: &[u8], prefix: Option<&[u8]>) -> Result<u64, Error> {
        if self.failed {
            return Err(Error::WriterFailed);
        }
        if payload.len() > self.max_len {
            return Err(self.too_large(payload.len()));
        }
        let lead = if self.plain { 0 } else { lead(self.pos) };
        let mut head = [0u8; 24];
        let head_len = match prefix {
            Some(p) => {
                head[..4].copy_from_slice(p);
                4
            }
            None => {
                write_frame_header(&mut head[lead..lead + self.hlen], self.checksum, payload);
                lead + self.hlen
            }
        };
        if let Some(index) = &mut self.index {
            index.push(self.pos + lead as u64);
        }
        // `len * 4 < batch_bytes`, without the product (which could overflow a 32-bit usize).
        if payload.len() < self.batch_bytes.div_ceil(4) {
            self.side.extend(&head[..head_len]);
            self.side.extend(payload);
            self.count_frame(head_len + payload.len())?;
        } else {
            self.write_batch()?;
            let mut bufs = [IoSlice::new(&head[..head_len]), IoSlice::new(payload)];
            let out = self.out.as_mut().expect("present until finish");
            if let Err(cause) = write_all_vectored(out, &mut bufs) {
                self.failed = true;
                return Err(Error::Io {
                    offset: self.pos,
                    cause,
                });
            }
            self.pos += (head_len + payload.len()) as u64;
            self.frames += 1;
            self.start_batch();
        }
        Ok(self.frames - 1)
    }

    /// Appends bytes that are not a frame (header, footer) to the batch.
    fn push_side(&mut self, bytes: &[u8]) {
        self.side.extend(bytes);
        self.pos += bytes.len() as u64;
    }

    /// Ends the open run of `side` as a piece (before a builder's frame joins the batch).
    fn close_side(&mut self) {
        if self.open < self.side.len() {
            self.segs.push(Seg::Side(self.open, self.side.len()));
            self.open = self.side.len();
        }
    }

    /// Counts a frame of `len` bytes just added to the batch, and hands the batch to the sink if
    /// it is full.
    #[inline]
    fn count_frame(&mut self, len: usize) -> Result<(), Error> {
        self.pos += len as u64;
        self.frames += 1;
        if self.pos >= self.flush_pos || self.frames >= self.flush_frames {
            self.write_batch()?;
        }
        Ok(())
    }

    /// Starts an empty batch at the current position.
    fn start_batch(&mut self) {
        self.batch_start = self.pos;
        self.flush_pos = self.pos.saturating_add(self.batch_bytes as u64);
        self.flush_frames = self.frames + self.batch_frames as u64;
    }

    /// Hands the pending bytes to the sink: `side` with one write while no frame is pending in a
    /// builder, else the pieces with vectored writes.
    fn write_batch(&mut self) -> Result<(), Error> {
        if self.pos == self.batch_start {
            return Ok(());
        }
        let start = self.batch_start;
        let result = if self.segs.is_empty() {
            let out = self.out.as_mut().expect("present until finish");
            out.write_all(self.side.bytes())
        } else {
            self.close_side();
            let mut slices = [IoSlice::new(&[]); MAX_SEGS];
            let mut builders = self.pool.iter();
            for (slot, seg) in slices.iter_mut().zip(&self.segs) {
                *slot = IoSlice::new(match *seg {
                    Seg::Pool => builders
                        .next()
                        .expect("one builder per Pool piece")
                        .finished_data(),
                    Seg::Side(a, b) => &self.side.bytes()[a..b],
                });
            }
            let n = self.segs.len();
            let out = self.out.as_mut().expect("present until finish");
            write_all_vectored(out, &mut slices[..n])
        };
        self.segs.clear();
        self.side.clear();
        self.open = 0;
        self.used = 0;
        self.start_batch();
        result.map_err(|cause| {
            self.failed = true;
            Error::Io {
                offset: start,
                cause,
            }
        })
    }

    /// Hands every pending frame to the sink and flushes it. For a file, the frames then survive
    /// the process (they are in the OS); see [`sync`](StreamWriter::sync) for power loss.
    ///
    /// ```
    /// use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// w.write_with(|b| b.create_string("must not be lost"))?;
    /// w.flush()?;
    /// // The sink holds a readable stream now, before `finish`.
    /// let stream = StreamSlice::new(w.get_ref(), &ReaderOptions::default())?;
    /// assert_eq!(stream.messages::<&str>().next().unwrap()?, "must not be lost");
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn flush(&mut self) -> Result<(), Error> {
        if self.failed {
            return Err(Error::WriterFailed);
        }
        self.write_batch()?;
        let offset = self.pos;
        let out = self.out.as_mut().expect("present until finish");
        out.flush().map_err(|cause| Error::Io { offset, cause })
    }

    /// Writes the pending frames and the index footer (if asked for), flushes, and returns the sink.
    ///
    /// ```
    /// use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// use flatforge_stream::INDEX_MAGIC;
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default().index(true))?;
    /// w.write_with(|b| b.create_string("last words"))?;
    /// let frames_end = w.position();
    /// let bytes = w.finish()?;
    /// assert!(bytes.len() as u64 > frames_end); // the index footer follows the frames
    /// assert!(bytes.ends_with(&INDEX_MAGIC));
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    /// assert_eq!(stream.index()?.frame(0)?.root::<&str>()?, "last words");
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn finish(mut self) -> Result<W, Error> {
        self.end_stream()?;
        Ok(self.out.take().expect("present until finish"))
    }

    /// Ends the current stream like [`finish`](Self::finish) and starts a new one in `out` with the
    /// same options, keeping the writer's buffers; returns the finished stream's sink (log
    /// rotation, or one in-memory stream after another).
    ///
    /// ```
    /// # use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// w.write_with(|b| b.create_string("first stream"))?;
    /// let first = w.rotate(Vec::new())?;
    /// w.write_with(|b| b.create_string("second stream"))?;
    /// let second = w.finish()?;
    /// for (bytes, text) in [(first, "first stream"), (second, "second stream")] {
    ///     let s = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    ///     assert_eq!(s.messages::<&str>().map(Result::unwrap).collect::<Vec<_>>(), [text]);
    /// }
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn rotate(&mut self, out: W) -> Result<W, Error> {
        self.end_stream()?;
        let old = self.out.replace(out).expect("present until finish");
        self.origin = None;
        self.pos = 0;
        self.frames = 0;
        self.start_batch();
        if let Some(index) = &mut self.index {
            index.clear();
        }
        if let Some(header) = self.header {
            self.push_side(&header.encode());
        }
        Ok(old)
    }

    fn end_stream(&mut self) -> Result<(), Error> {
        if self.failed {
            return Err(Error::WriterFailed);
        }
        let footer = self.index.as_ref().map(|offsets| {
            let lead = lead(self.pos);
            let mut footer = vec![0u8; lead];
            footer.extend_from_slice(&encode_index(self.pos + lead as u64, offsets));
            footer
        });
        if let Some(footer) = footer {
            self.write_batch()?;
            self.push_side(&footer);
        }
        self.flush()
    }
}

impl StreamWriter<File> {
    /// Opens the stream file at `path` to write frames after those it holds, or creates it (with
    /// a header) if it does not exist or is empty; returns the writer and what was found.
    ///
    /// A framed stream must declare the writer's options in its header: checksum kind, file
    /// identifier and schema hash (else [`Error::AppendMismatch`], and the file is not touched).
    /// Its frames are checked as [`recover`](crate::recover) checks them: a torn last frame (the
    /// writer crashed) is cut off first, so the new frames do not follow a broken one
    /// ([`Recovery::truncates`] tells); damage followed by good frames is an error, and nothing
    /// is cut. An index footer is replaced by the frames and, with [`WriterOptions::index`], by a
    /// new footer over old and new frames at [`finish`](Self::finish). A file of 4 to 31 bytes
    /// that starts like a header (a crash while it was written) is started again.
    ///
    /// A plain stream has no header or guards to tell a torn frame from a file that is not a
    /// stream, so nothing is ever cut from one: it must parse as whole size-prefixed buffers
    /// (each carrying the writer's file identifier, if it has one, and none shorter than a
    /// FlatBuffer: a zero-filled tail is refused too), else the reader's error is returned and the
    /// file is not touched.
    ///
    /// The writer holds the file's advisory lock ([`lock_file`](crate::lock_file)) until the file
    /// is closed (the writer dropped, or the `File` that [`finish`](Self::finish) returns): while
    /// it does, a second `append` or a [`recover_file`](crate::recover_file) of the same file
    /// fails with [`Error::Locked`] and changes nothing.
    ///
    /// ```
    /// use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let path = std::env::temp_dir().join(format!("ffs-append-doc-{}", std::process::id()));
    /// # let _ = std::fs::remove_file(&path);
    /// let opts = WriterOptions::default().index(true);
    /// for run in ["first", "second"] {
    ///     let (mut w, found) = StreamWriter::append(&path, opts.clone())?;
    ///     assert!(!found.truncates());
    ///     w.write_with(|b| b.create_string(run))?;
    ///     w.finish()?;
    /// }
    /// let bytes = std::fs::read(&path)?;
    /// let index = StreamSlice::new(&bytes, &ReaderOptions::default())?.index()?;
    /// assert_eq!(index.len(), 2);
    /// assert_eq!(index.frame(1)?.root::<&str>()?, "second");
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn append(path: impl AsRef<Path>, opts: WriterOptions) -> Result<(Self, Recovery), Error> {
        let plain = Self::plain(&opts)?;
        let io = |offset| move |cause| Error::Io { offset, cause };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io(0))?;
        crate::lock_file(&file)?;
        let len = file.metadata().map_err(io(0))?.len();
        let mut head = [0u8; HEADER_LEN];
        let n = len.min(HEADER_LEN as u64) as usize;
        file.read_exact(&mut head[..n]).map_err(io(0))?;
        let head = &head[..n];
        // Part of a header (anything else short is not taken for a stream).
        let torn_header = !plain && is_torn_header(head);
        if len == 0 || torn_header {
            // Nothing was written, or only part of the header (a crash right after creating).
            file.set_len(0).map_err(io(0))?;
            file.seek(SeekFrom::Start(0)).map_err(io(0))?;
            let found = Recovery::empty(len);
            let mut w = Self::new(file, opts)?;
            w.origin = Some(Origin {
                pos: 0,
                frames: 0,
                footer: OriginFooter::None,
            });
            return Ok((w, found));
        }
        let mut read_opts = ReaderOptions::default().format(opts.format);
        if plain {
            if head.starts_with(&MAGIC) {
                return Err(mismatch("the framed format".into(), "the plain one".into()));
            }
            // Each message must carry the identifier the new ones will.
            read_opts.file_identifier = opts.file_identifier;
        } else {
            check_header(&Header::decode(head)?, &opts)?;
        }
        // The frames' offsets are needed for the writer's index, or for `abandon` to write the
        // stream's own footer again: not for an unindexed stream appended without an index.
        let mut indexed_tail = [0u8; 8];
        let may_be_indexed = !plain && len >= (HEADER_LEN + 8) as u64 && {
            file.seek(SeekFrom::End(-8)).map_err(io(len - 8))?;
            file.read_exact(&mut indexed_tail).map_err(io(len - 8))?;
            indexed_tail == INDEX_MAGIC
        };
        let keep_offsets = opts.index || may_be_indexed;
        let mut offsets = Vec::new();
        let found = crate::recover(&mut file, &read_opts, |frame| {
            if keep_offsets {
                offsets.push(frame.offset());
            }
            Ok(())
        })?;
        if plain {
            // Plain frames have no guards: a tail that does not parse may be a torn frame or a
            // file that is no stream at all. Nothing is cut (`recover` cuts on request).
            if let Some(damage) = found.damage {
                return Err(damage);
            }
        }
        let end = found.frames_end;
        file.set_len(end).map_err(io(end))?;
        file.seek(SeekFrom::Start(end)).map_err(io(end))?;
        let mut w = Self::at(file, &opts, plain, end, found.frames);
        // `abandon` restores the footer as it was: an index only if there was one.
        let footer = match (found.indexed, &mut w.index) {
            (false, index) => {
                if let Some(index) = index {
                    *index = offsets;
                }
                OriginFooter::None
            }
            (true, Some(index)) => {
                *index = offsets;
                OriginFooter::WritersIndex
            }
            (true, None) => OriginFooter::Offsets(offsets),
        };
        w.origin = Some(Origin {
            pos: end,
            frames: found.frames,
            footer,
        });
        Ok((w, found))
    }

    /// Takes back every frame written since [`append`](Self::append) opened the file, pending or
    /// not, and finishes: the file ends with the frames it had, and an index footer over them if
    /// it had one (whatever [`WriterOptions::index`] says), or nothing if it was empty. The lock
    /// is held throughout, so no other writer's frames can be cut; this works after a failed
    /// write too. For all-or-nothing appends: call it when anything went wrong before
    /// [`finish`](Self::finish).
    ///
    /// Only for writers from [`append`](Self::append) (else [`Error::InvalidOptions`], and the
    /// pending frames are dropped unwritten): a writer from [`new`](Self::new) does not know what
    /// its file held before.
    ///
    /// ```
    /// use flatforge_stream::{StreamWriter, WriterOptions};
    /// let path = std::env::temp_dir().join(format!("ffs-abandon-doc-{}", std::process::id()));
    /// # let _ = std::fs::remove_file(&path);
    /// let opts = WriterOptions::default().index(true);
    /// let (mut w, _) = StreamWriter::append(&path, opts.clone())?;
    /// w.write_with(|b| b.create_string("kept"))?;
    /// w.finish()?;
    /// let before = std::fs::read(&path)?;
    ///
    /// let (mut w, _) = StreamWriter::append(&path, opts)?;
    /// w.write_with(|b| b.create_string("taken back"))?;
    /// w.flush()?; // in the file now
    /// w.write_with(|b| b.create_string("never written"))?;
    /// w.abandon()?;
    /// assert_eq!(std::fs::read(&path)?, before);
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn abandon(mut self) -> Result<File, Error> {
        // The pending frames are dropped unwritten (also when the file cannot be cut back).
        self.segs.clear();
        self.side.clear();
        self.open = 0;
        self.used = 0;
        let Some(Origin {
            pos,
            frames,
            footer,
        }) = self.origin.take()
        else {
            self.failed = true;
            return Err(Error::InvalidOptions(
                "only a writer from `append` can take its frames back",
            ));
        };
        // The file is cut to where `append` found it, with the footer it had.
        self.pos = pos;
        self.frames = frames;
        self.failed = false;
        self.start_batch();
        match footer {
            OriginFooter::None => self.index = None,
            OriginFooter::WritersIndex => {
                if let Some(index) = &mut self.index {
                    index.truncate(frames as usize);
                }
            }
            OriginFooter::Offsets(offsets) => self.index = Some(offsets),
        }
        let file = self.out.as_mut().expect("present until finish");
        let io = |cause| Error::Io { offset: pos, cause };
        file.set_len(pos).map_err(io)?;
        file.seek(SeekFrom::Start(pos)).map_err(io)?;
        self.finish()
    }

    /// [`flush`](Self::flush), then `File::sync_data`: the frames written so far survive a crash
    /// of the machine. The cost is a disk round trip; call it at the points that must be durable.
    ///
    /// ```
    /// use flatforge_stream::{ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
    /// let path = std::env::temp_dir().join(format!("ffs-sync-doc-{}", std::process::id()));
    /// let mut w = StreamWriter::new(std::fs::File::create(&path)?, WriterOptions::default())?;
    /// w.write_with(|b| b.create_string("durable"))?;
    /// w.sync()?;
    /// // The file holds the frame, though the writer is not finished.
    /// let bytes = std::fs::read(&path)?;
    /// assert_eq!(bytes.len() as u64, w.position());
    /// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
    /// assert_eq!(stream.messages::<&str>().next().unwrap()?, "durable");
    /// drop(w);
    /// std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn sync(&mut self) -> Result<(), Error> {
        self.flush()?;
        let offset = self.pos;
        let out = self.out.as_mut().expect("present until finish");
        out.sync_data().map_err(|cause| Error::Io { offset, cause })
    }
}

impl<W: Write> Drop for StreamWriter<W> {
    fn drop(&mut self) {
        if self.out.is_some() && !self.failed {
            // Like `BufWriter`: pending frames go to the sink; errors cannot be reported here.
            let _ = self.write_batch();
        }
    }
}

/// The error for a stream whose header `found` disagrees with the writer's `opts`.
fn check_header(found: &Header, opts: &WriterOptions) -> Result<(), Error> {
    let ident = |id: Option<[u8; 4]>| match id {
        Some(id) => format!("file identifier \"{}\"", id.escape_ascii()),
        None => "no file identifier".into(),
    };
    let hash = |h: Option<u64>| match h {
        Some(h) => format!("schema hash {h:#018x}"),
        None => "no schema hash".into(),
    };
    if found.checksum != opts.checksum {
        let kind = |c: Checksum| format!("{} checksums", c.name());
        return Err(mismatch(kind(found.checksum), kind(opts.checksum)));
    }
    if found.file_identifier != opts.file_identifier {
        return Err(mismatch(
            ident(found.file_identifier),
            ident(opts.file_identifier),
        ));
    }
    if found.schema_hash != opts.schema_hash {
        return Err(mismatch(hash(found.schema_hash), hash(opts.schema_hash)));
    }
    Ok(())
}

fn mismatch(found: String, wanted: String) -> Error {
    Error::AppendMismatch { found, wanted }
}

/// `write_all` for vectored writes (the standard one is unstable).
fn write_all_vectored<W: Write>(out: &mut W, mut bufs: &mut [IoSlice<'_>]) -> io::Result<()> {
    IoSlice::advance_slices(&mut bufs, 0);
    while !bufs.is_empty() {
        match out.write_vectored(bufs) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => IoSlice::advance_slices(&mut bufs, n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{Side, COPY_MAX};

    #[test]
    fn room_keeps_every_pending_byte_when_it_grows() {
        let mut side = Side::default();
        let mut expected = Vec::new();
        for n in (0..=COPY_MAX).step_by(7) {
            let frame: Vec<u8> = (0..n).map(|i| (i * 7 + n) as u8).collect();
            side.room(n).copy_from_slice(&frame);
            expected.extend_from_slice(&frame);
            assert_eq!(side.bytes(), &expected[..], "{n}");
        }
    }
}
