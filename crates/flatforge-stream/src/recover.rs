//! Crash recovery: find where the intact part of a stream ends and cut the damaged tail off,
//! never a complete frame.
//!
//! A crash while writing leaves a torn last frame (the file ends inside it), or, after a power
//! loss on some file systems, a tail of zeros or stale bytes, or only part of the stream header.
//! [`recover`] reads the frames in order (checking guards, checksums and, with a verifier, the
//! messages) and stops at the first damaged one. If the stream simply ends early, or if no
//! complete frame follows the damage, the stream is cut just after the last good frame. If a
//! complete frame follows the damage (a corrupt frame in the middle, not a torn tail), it refuses
//! with [`Error::DamageBeforeGoodFrames`]: cutting would lose complete frames. A complete frame
//! whose message fails the verifier is not cut either: it refuses with
//! [`Error::InvalidIntactFrame`]. With checksums, a crash cannot leave one; in a stream without
//! checksums, a last frame whose payload a power loss zeroed looks complete too, and the error's
//! `intact_end` is where the caller may cut it off. A damaged index footer is cut off (it holds no
//! frames). Frames found after damage are evidence by their framing alone, so stale bytes that
//! hold a frame of another stream (a reused disk block) make recovery refuse rather than cut.
//!
//! Plain streams have no guards: there, the first frame that does not fit, is shorter than any
//! FlatBuffer (zeros) or fails the verifier ends the stream. A file whose very first frame is
//! damaged may be no stream at all, so a plain stream is never cut to nothing
//! ([`Error::NoCompleteFrame`]), nor is a framed stream read as a plain one
//! ([`Error::FramedNotPlain`]).

use std::fs::OpenOptions;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use crate::error::Error;
use crate::format::{
    is_torn_header, u32_at, Layout, Step, END_MARKER, FRAME_ALIGN, HEADER_LEN, MAGIC,
    MAX_PAYLOAD_LEN,
};
use crate::read::{Frame, ReaderOptions, StreamReader};
use crate::Format;

/// What [`recover`] found.
///
/// ```
/// use std::io::Cursor;
/// use flatforge_stream::{recover, ReaderOptions, StreamWriter, WriterOptions};
/// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default().index(true))?;
/// w.write_with(|b| b.create_string("a"))?;
/// w.write_with(|b| b.create_string("b"))?;
/// let bytes = w.finish()?;
/// let r = recover(Cursor::new(&bytes), &ReaderOptions::default(), |_| Ok(()))?;
/// assert_eq!((r.frames, r.indexed), (2, true));
/// assert_eq!((r.original_len, r.valid_len), (bytes.len() as u64, bytes.len() as u64));
/// assert!(r.frames_end < r.valid_len); // the index footer follows the frames
/// assert!(r.damage.is_none());
/// # Ok::<(), flatforge_stream::Error>(())
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub struct Recovery {
    /// Complete, valid frames (all kept).
    pub frames: u64,
    /// The stream's length before.
    pub original_len: u64,
    /// The length that keeps every good frame: the stream's length when nothing is damaged.
    pub valid_len: u64,
    /// Where the last good frame ends (if there is none: the header's end, or 0 without a
    /// header): `valid_len` less the index footer, if the stream has one. More frames can be
    /// written from here.
    pub frames_end: u64,
    /// Whether the stream ends with a valid index footer (only when nothing is cut).
    pub indexed: bool,
    /// The damage found at `valid_len`, if any.
    pub damage: Option<Error>,
}

impl Recovery {
    /// What an empty stream (or one of `len` bytes of a torn header) holds: nothing to keep.
    pub(crate) fn empty(len: u64) -> Recovery {
        Recovery {
            frames: 0,
            original_len: len,
            valid_len: 0,
            frames_end: 0,
            indexed: false,
            damage: (len > 0).then_some(Error::TruncatedHeader { available: len }),
        }
    }

    /// Whether the stream must be (or was) cut.
    ///
    /// ```
    /// use std::io::Cursor;
    /// use flatforge_stream::{recover, ReaderOptions, StreamWriter, WriterOptions};
    /// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
    /// w.write_with(|b| b.create_string("a"))?;
    /// let mut bytes = w.finish()?;
    /// let opts = ReaderOptions::default();
    /// assert!(!recover(Cursor::new(&bytes), &opts, |_| Ok(()))?.truncates());
    /// bytes.extend_from_slice(&[0; 16]); // a zero-filled tail, as after a power loss
    /// let r = recover(Cursor::new(&bytes), &opts, |_| Ok(()))?;
    /// assert!(r.truncates());
    /// assert_eq!(r.valid_len, bytes.len() as u64 - 16);
    /// # Ok::<(), flatforge_stream::Error>(())
    /// ```
    pub fn truncates(&self) -> bool {
        self.valid_len < self.original_len
    }
}

/// Finds the intact part of the stream in `src`; `verify` checks each frame's message (`|_| Ok(())`
/// to check only the framing). Nothing is modified: [`recover_file`] cuts a file to
/// [`Recovery::valid_len`].
///
/// It reads the frames in order (checking guards, checksums and, with `verify`, the messages) and
/// stops at the first damaged one. If the stream simply ends early, or if no complete frame
/// follows the damage, the intact part ends just after the last good frame. If a complete frame
/// (guard and checksum intact) follows the damage (a corrupt frame in the middle, not a torn
/// tail), it refuses with [`Error::DamageBeforeGoodFrames`]: cutting would lose complete frames.
/// A complete frame whose message `verify` rejects is refused too ([`Error::InvalidIntactFrame`]:
/// with checksums a crash does not leave one, and the schema may be wrong; without them, it may be
/// a last frame whose payload a power loss zeroed, which the caller may cut at the error's
/// `intact_end`). A damaged index footer is left out of
/// the intact part (it holds no frames). A file holding only part of a stream header (4 bytes of
/// the magic at least) has nothing to keep: its intact part is empty.
///
/// Plain streams have no guards: there, the first frame that does not fit, is shorter than any
/// FlatBuffer (zeros) or fails `verify` ends the stream; but a file whose first frame does so may
/// be no stream at all, and is refused ([`Error::NoCompleteFrame`]), as is a framed stream read as
/// a plain one ([`Error::FramedNotPlain`]).
///
/// ```
/// use std::io::Cursor;
/// use flatforge_stream::{recover, ReaderOptions, StreamWriter, WriterOptions};
/// let mut w = StreamWriter::new(Vec::new(), WriterOptions::default())?;
/// for word in ["one", "two", "three"] {
///     w.write_with(|b| b.create_string(word))?;
/// }
/// let mut bytes = w.finish()?;
/// let whole = bytes.len() as u64;
/// bytes.truncate(bytes.len() - 3); // a torn last frame
///
/// let r = recover(Cursor::new(&bytes), &ReaderOptions::default(), |f| f.root::<&str>().map(drop))?;
/// assert_eq!(r.frames, 2);
/// assert!(r.truncates() && r.damage.unwrap().is_truncation());
/// assert!(r.valid_len < whole - 3);
/// # Ok::<(), flatforge_stream::Error>(())
/// ```
pub fn recover<R: Read + Seek>(
    mut src: R,
    opts: &ReaderOptions,
    mut verify: impl FnMut(&Frame<'_>) -> Result<(), Error>,
) -> Result<Recovery, Error> {
    let io = |offset| move |cause| Error::Io { offset, cause };
    let original_len = src.seek(SeekFrom::End(0)).map_err(io(0))?;
    src.seek(SeekFrom::Start(0)).map_err(io(0))?;
    let mut head = [0u8; HEADER_LEN];
    let head_len = original_len.min(HEADER_LEN as u64) as usize;
    src.read_exact(&mut head[..head_len]).map_err(io(0))?;
    src.seek(SeekFrom::Start(0)).map_err(io(0))?;
    let head = &head[..head_len];
    let plain_asked = opts.format == Format::Plain;
    if plain_asked && head.starts_with(&MAGIC) {
        return Err(Error::FramedNotPlain);
    }
    if !plain_asked && is_torn_header(head) {
        return Ok(Recovery::empty(original_len));
    }
    // No length limit: nothing is allocated per frame here, and a frame the writer wrote must not
    // be cut because this reader's limit is lower.
    let opts = opts.clone().max_frame_len(MAX_PAYLOAD_LEN);
    let mut r = StreamReader::new(&mut src, &opts)?;
    let checksum = r.header().map(|h| h.checksum);
    let plain = checksum.is_none();
    let mut frames = 0;
    let mut good = r.position();
    let damage = loop {
        let frame = match r.next_frame() {
            Ok(None) => break None,
            Ok(Some(frame)) => frame,
            Err(e) => break Some(e),
        };
        if let Err(e) = verify(&frame) {
            if !plain {
                return Err(Error::InvalidIntactFrame {
                    frame: frames,
                    offset: frame.offset(),
                    intact_end: good,
                    cause: Box::new(e),
                });
            }
            break Some(e);
        }
        frames += 1;
        good = r.position();
    };
    let indexed = damage.is_none() && r.ended_with_index();
    drop(r);
    let Some(damage) = damage else {
        return Ok(Recovery {
            frames,
            original_len,
            valid_len: original_len,
            frames_end: good,
            indexed,
            damage: None,
        });
    };
    let tail_damage = damage.is_truncation() || matches!(damage, Error::CorruptIndex { .. });
    if let (false, Some(checksum)) = (tail_damage, checksum) {
        let layout = Layout {
            checksum: Some(checksum),
            max_len: MAX_PAYLOAD_LEN as u64,
        };
        let next = find_good_frame(&mut src, good, original_len, layout, frames)?;
        if let Some(next_good) = next {
            return Err(Error::DamageBeforeGoodFrames {
                frame: frames,
                offset: damage.offset().unwrap_or(good),
                next_good,
                cause: Box::new(damage),
            });
        }
    }
    if plain && frames == 0 {
        return Err(Error::NoCompleteFrame {
            cause: Box::new(damage),
        });
    }
    Ok(Recovery {
        frames,
        original_len,
        valid_len: good,
        frames_end: good,
        indexed: false,
        damage: Some(damage),
    })
}

/// Scans the aligned offsets from `from` on for a complete frame whose guard and checksum are
/// intact: evidence that the damage is not a torn tail. Its message is not verified: the frame is
/// evidence however it reads (a schema that is not the stream's must not make frames look lost).
fn find_good_frame<R: Read + Seek>(
    src: &mut R,
    from: u64,
    len: u64,
    layout: Layout,
    number: u64,
) -> Result<Option<u64>, Error> {
    let io = |offset| move |cause| Error::Io { offset, cause };
    let hlen = layout.checksum.map_or(8, |c| c.frame_header_len()) as u64;
    let mut off = from.next_multiple_of(FRAME_ALIGN as u64);
    src.seek(SeekFrom::Start(off)).map_err(io(off))?;
    let mut words = BufReader::with_capacity(64 << 10, &mut *src);
    let mut word = [0u8; 8];
    let mut candidate = Vec::new();
    while off + hlen <= len {
        words.read_exact(&mut word).map_err(io(off))?;
        let (n, guard) = (u32_at(&word, 0), u32_at(&word, 4));
        let fits = off + hlen + u64::from(n) <= len;
        if guard == !n && n != END_MARKER && fits {
            // Rare: read the candidate whole, then continue the scan where it was.
            let end = (off + hlen) as usize + n as usize;
            candidate.resize(end - off as usize, 0);
            words.seek(SeekFrom::Start(off)).map_err(io(off))?;
            words.read_exact(&mut candidate).map_err(io(off))?;
            if let Ok(Step::Frame { .. }) = layout.step(&candidate, off, number, true) {
                return Ok(Some(off));
            }
            words.seek(SeekFrom::Start(off + 8)).map_err(io(off))?;
        }
        off += 8;
    }
    Ok(None)
}

/// Recovers the stream file at `path` in place: cuts it to [`Recovery::valid_len`] and syncs it
/// when the tail is damaged (see [`recover`]). Run it when no writer has the file open: it holds
/// the file's lock ([`lock_file`](crate::lock_file)) meanwhile, and fails with [`Error::Locked`]
/// while an appending writer holds it.
///
/// ```
/// use flatforge_stream::{recover_file, ReaderOptions, StreamSlice, StreamWriter, WriterOptions};
/// let path = std::env::temp_dir().join(format!("ffs-recover-doc-{}", std::process::id()));
/// let mut w = StreamWriter::new(std::fs::File::create(&path)?, WriterOptions::default())?;
/// w.write_with(|b| b.create_string("kept"))?;
/// w.write_with(|b| b.create_string("torn"))?;
/// let len = w.finish()?.metadata()?.len();
/// std::fs::OpenOptions::new().write(true).open(&path)?.set_len(len - 5)?; // crash mid-write
///
/// let r = recover_file(&path, &ReaderOptions::default(), |_| Ok(()))?;
/// assert_eq!((r.frames, r.truncates()), (1, true));
/// let bytes = std::fs::read(&path)?;
/// let stream = StreamSlice::new(&bytes, &ReaderOptions::default())?;
/// let all: Vec<&str> = stream.messages::<&str>().collect::<Result<_, _>>()?;
/// assert_eq!(all, ["kept"]);
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn recover_file(
    path: impl AsRef<Path>,
    opts: &ReaderOptions,
    verify: impl FnMut(&Frame<'_>) -> Result<(), Error>,
) -> Result<Recovery, Error> {
    let io = |offset| move |cause| Error::Io { offset, cause };
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .map_err(io(0))?;
    crate::lock_file(&file)?;
    let recovery = recover(&mut file, opts, verify)?;
    if recovery.truncates() {
        let at = recovery.valid_len;
        file.set_len(at).map_err(io(at))?;
        file.sync_all().map_err(io(at))?;
    }
    Ok(recovery)
}
