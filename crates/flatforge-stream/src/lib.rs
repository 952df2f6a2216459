//! Framed FlatBuffers message streams: many messages in one file, pipe or socket.
//!
//! - [`StreamWriter`] builds each message in a reused builder, with the frame header in front, and
//!   hands batches of frames to any [`std::io::Write`] with vectored writes: a small frame is copied
//!   once into the batch, a large one (over 1 KiB) goes to the sink from its builder, uncopied.
//! - [`StreamSlice`] reads a stream held in memory or a [`MappedStream`] (memory map) with zero
//!   copies, and finds frames by number through the index footer ([`StreamSlice::index`]).
//! - [`StreamReader`] reads from any [`std::io::Read`] through one reusable buffer, one frame at a
//!   time, and seeks by frame number when the reader can seek.
//! - Every reader checks each frame's framing and checksum; [`Frame::root`] verifies its message
//!   with a generated verifier (any type implementing [`flatforge::Verify`]), and
//!   [`Frame::verify_with`] with any other (a schema-driven one, say).
//! - [`recover`](fn@recover) finds where a stream torn by a crash ends, and [`recover_file`] cuts
//!   the torn tail off a file, never a complete frame.
//! - [`StreamWriter::append`] continues a stream file (after a restart, say): it checks the header
//!   against the writer's options, cuts a torn tail off, and writes the index footer again over
//!   old and new frames; [`StreamWriter::abandon`] takes the new frames back (all-or-nothing
//!   appends).
//! - [`lock_file`] is the advisory lock by which `append` and `recover_file` keep out of each
//!   other's way (a second appender to a file gets [`Error::Locked`], not interleaved frames).
//!
//! ```
//! use flatforge_stream::{Checksum, ReaderOptions, StreamReader, StreamWriter, WriterOptions};
//!
//! let opts = WriterOptions::default().checksum(Checksum::Crc32c).index(true);
//! let mut w = StreamWriter::new(Vec::new(), opts)?;
//! for name in ["ada", "grace", "edsger"] {
//!     w.write_with(|b| b.create_string(name))?;
//! }
//! let bytes = w.finish()?;
//!
//! let mut r = StreamReader::new(&bytes[..], &ReaderOptions::default())?;
//! let mut names = Vec::new();
//! while let Some(frame) = r.next_frame()? {
//!     names.push(frame.root::<&str>()?.to_owned());
//! }
//! assert_eq!(names, ["ada", "grace", "edsger"]);
//! # Ok::<(), flatforge_stream::Error>(())
//! ```
//!
//! # The format, version 1
//!
//! All integers are little-endian. Offsets count bytes from the start of the stream.
//!
//! ## Header (32 bytes, at offset 0)
//!
//! | bytes  | field |
//! | ------ | ----- |
//! | 0..8   | magic `46 46 53 B5 0D 0A 1A 0A` ([`MAGIC`]: `FFS`, a byte with its high bit set, `\r\n\x1a\n`) |
//! | 8..10  | version, `u16` = 1 ([`VERSION`]); readers reject other versions |
//! | 10     | checksum kind: 0 none, 1 CRC-32C, 2 XXH3-64 ([`Checksum`]) |
//! | 11     | flags: bit 0 a file identifier is declared, bit 1 a schema hash is declared; other bits 0 |
//! | 12..16 | file identifier (zero when not declared): every payload carries it at bytes 4..8 |
//! | 16..24 | schema hash, `u64` (zero when not declared): an identity of the schema, compared for equality (flatforge's tools write `schema_hash`, feature `schema`) |
//! | 24..28 | reserved, zero |
//! | 28..32 | CRC-32C of bytes 0..28 |
//!
//! A reader that requires a checksum kind, file identifier or schema hash ([`ReaderOptions`])
//! rejects a header that declares another (or none) before reading any frame: the two sides never
//! silently disagree on the framing.
//!
//! ## Frames
//!
//! Each frame starts at an offset that is a multiple of 8 ([`FRAME_ALIGN`]); the 0 to 7 bytes
//! between the end of the previous payload (or the header) and the frame are zero. A frame is:
//!
//! | bytes | field |
//! | ----- | ----- |
//! | 0..4  | payload length `n`, `u32`, at most 2^31 - 1 |
//! | 4..8  | guard: `!n` (the bitwise complement): a torn or overwritten length is detected, never followed |
//! | 8..16 | checksum of the payload, only when the header declares one: CRC-32C as a `u32` then 4 zero bytes, or XXH3-64 (seed 0) as a `u64` |
//! | then  | the payload: one FlatBuffer of `n` bytes, as `Builder::finish` makes it (no size prefix) |
//!
//! The frame header is 8 or 16 bytes, so every payload starts at a multiple of 8 too. A FlatBuffer
//! aligns its objects relative to its own start, so in a memory map (which starts on a page
//! boundary) every 8-byte scalar of every payload is naturally aligned: verified views can be
//! handed out in place. The stream ends right after the last payload, or with an index footer.
//!
//! ## Index footer (optional, written by [`StreamWriter::finish`])
//!
//! At the next multiple of 8 after the last payload (zero padding before it, as for a frame):
//!
//! | bytes      | field |
//! | ---------- | ----- |
//! | 0..8       | end marker: a frame header with length `0xFFFF_FFFF` and guard 0 (no frame is that long) |
//! | 8..16      | frame count `c`, `u64` |
//! | 16..16+8c  | the offset of each frame, `u64`, increasing |
//! | then 0..8  | offset of the end marker, `u64` |
//! | 8..16      | frame count `c` again, `u64` |
//! | 16..20     | CRC-32C of everything from the end marker up to here |
//! | 20..24     | reserved, zero |
//! | 24..32     | [`INDEX_MAGIC`] `FFSINDEX`: the stream's last 8 bytes |
//!
//! A random-access reader reads the last 32 bytes (the trailer), finds the marker and entries from
//! it, and checks the CRC; a sequential reader meets the marker where the next frame would be and
//! checks the footer up to the end of the stream.
//!
//! ## Plain streams
//!
//! [`Format::Plain`]: no header, no padding, no checksum, no index: bare size-prefixed FlatBuffers
//! (`u32` length, then the buffer), concatenated, exactly as `flatc --size-prefixed` (or
//! `Builder::finish_size_prefixed`) writes them. Their objects are aligned relative to the size
//! prefix, so they are verified with the prefix ([`Frame::buffer`]). A size prefix below 8 starts
//! no buffer (the smallest FlatBuffer is a root offset and the 4 bytes at least of the object it
//! points to): readers report it as damage ([`Error::FrameTooSmall`]), and writers never write one.
//!
//! # What survives a crash
//!
//! The writer keeps up to [`WriterOptions::batch_bytes`] / [`WriterOptions::batch_frames`] of
//! finished frames before handing them to the sink in one vectored write. A process crash loses the
//! frames not yet handed over; [`StreamWriter::flush`] hands them over (for a file, they then
//! survive the process), [`StreamWriter::sync`] also syncs a file to disk (they survive a power
//! loss). A write cut short leaves a torn last frame: every reader reports it as
//! [`Error::Truncated`] after returning all complete frames, and [`recover_file`] cuts it off. A
//! zero-filled or garbage tail (a power loss on some file systems) fails the frame guard or the
//! checksum and is cut off too, unless complete frames follow it (then the damage is not a torn
//! tail and recovery refuses). Without checksums, a last frame whose header survived but whose
//! payload was zeroed passes the guard: recovery keeps it, or, with a verifier, refuses and says
//! where to cut. A complete frame whose message fails the verifier given to
//! recovery is no crash damage: recovery refuses rather than cut it (the schema may be the wrong
//! one). A crash right after creating a stream can leave part of its header: recovery cuts it to
//! nothing. In a plain stream, zeros read as a size prefix below 8, damage too; with no guards to
//! find frames after damage by, a plain stream is cut at its first damage, but never to nothing (a
//! file whose first frame is damaged may be no stream at all), and [`StreamWriter::append`] cuts
//! nothing from one: it refuses.
//!
//! Two processes must not write one file at once. [`StreamWriter::append`] and [`recover_file`]
//! hold the file's advisory lock ([`lock_file`]) while they use it, so a second one fails with
//! [`Error::Locked`] instead of interleaving frames or cutting frames being written.
//!
//! # Faults
//!
//! Every error names the frame number and byte offset: a checksum mismatch
//! ([`Error::ChecksumMismatch`]), a length over the reader's maximum, rejected before any read or
//! allocation for the frame ([`Error::FrameTooLarge`]), a plain frame shorter than any FlatBuffer
//! ([`Error::FrameTooSmall`]), a guard mismatch ([`Error::CorruptFrameHeader`]), a message its
//! verifier rejects ([`Error::InvalidMessage`]).
#![deny(missing_docs)]

mod error;
mod format;
mod lock;
mod mmap;
mod read;
mod recover;
#[cfg(feature = "schema")]
mod schema_hash;
mod write;

pub use error::{BoxError, Error};
pub use format::{
    Checksum, Format, Header, FRAME_ALIGN, HEADER_LEN, INDEX_MAGIC, MAGIC, MAX_PAYLOAD_LEN, VERSION,
};
pub use lock::lock_file;
/// The `memmap2` crate, whose [`Mmap`](memmap2::Mmap) [`MappedStream::from_map`] takes: name it
/// as `flatforge_stream::memmap2` to use the same version.
pub use memmap2;
pub use mmap::MappedStream;
pub use read::{Frame, Frames, Index, Messages, ReaderOptions, StreamReader, StreamSlice};
pub use recover::{recover, recover_file, Recovery};
#[cfg(feature = "schema")]
pub use schema_hash::schema_hash;
pub use write::{StreamWriter, WriterOptions};
