//! Memory-mapped streams: the file's pages are the buffer, so frames are read in place with no
//! copy and no read calls. The map starts on a page boundary and frames are 8-aligned in the file,
//! so every payload's 8-byte scalars are naturally aligned in memory.

use std::fs::File;
use std::path::Path;

use memmap2::Mmap;

use crate::error::Error;
use crate::read::{ReaderOptions, StreamSlice};

/// A stream file mapped into memory; [`slice`](Self::slice) reads it as a [`StreamSlice`].
///
/// ```
/// use flatforge_stream::{MappedStream, ReaderOptions, StreamWriter, WriterOptions};
/// let path = std::env::temp_dir().join(format!("ffs-mmap-doc-{}", std::process::id()));
/// let mut w = StreamWriter::new(std::fs::File::create(&path)?, WriterOptions::default())?;
/// w.write_with(|b| b.create_string("mapped"))?;
/// w.finish()?;
///
/// // SAFETY: nothing else writes to this temporary file while it is mapped.
/// let map = unsafe { MappedStream::open(&path, &ReaderOptions::default()) }?;
/// let stream = map.slice();
/// assert_eq!(stream.messages::<&str>().next().unwrap()?, "mapped");
/// # drop(map);
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct MappedStream {
    map: Mmap,
    slice_opts: ReaderOptions,
}

impl MappedStream {
    /// Maps the file at `path` and checks its header against `opts`.
    ///
    /// # Safety
    /// While the map lives, no one may modify or truncate the file (another process, or this one
    /// through another handle): the bytes would change under verified views, and a truncation
    /// makes reads fault. This is the contract of [`memmap2::Mmap::map`].
    ///
    /// ```
    /// use flatforge_stream::{Error, MappedStream, ReaderOptions, StreamWriter, WriterOptions};
    /// let path = std::env::temp_dir().join(format!("ffs-mmap-open-doc-{}", std::process::id()));
    /// let opts = WriterOptions::default().index(true);
    /// let mut w = StreamWriter::new(std::fs::File::create(&path)?, opts)?;
    /// for n in 0..3u64 {
    ///     w.write_with(|b| b.create_string(&n.to_string()))?;
    /// }
    /// w.finish()?;
    ///
    /// // SAFETY: nothing else writes to this temporary file while it is mapped.
    /// let map = unsafe { MappedStream::open(&path, &ReaderOptions::default()) }?;
    /// assert_eq!(map.slice().index()?.len(), 3);
    /// // The header is checked against the options when the file is opened.
    /// let tele = ReaderOptions::default().require_file_identifier(*b"TELE");
    /// // SAFETY: as above.
    /// let err = unsafe { MappedStream::open(&path, &tele) }.unwrap_err();
    /// assert!(matches!(err, Error::FileIdentifierMismatch { .. }));
    /// drop(map);
    /// std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub unsafe fn open(path: impl AsRef<Path>, opts: &ReaderOptions) -> Result<Self, Error> {
        let path = path.as_ref();
        let file = File::open(path).map_err(|cause| Error::Io { offset: 0, cause })?;
        // SAFETY: the caller guarantees the file is not modified while mapped.
        let map = unsafe { Mmap::map(&file) }.map_err(|cause| Error::Io { offset: 0, cause })?;
        #[cfg(unix)]
        {
            // Only a hint; a kernel that refuses it reads the same bytes.
            let _ = map.advise(memmap2::Advice::Sequential);
        }
        Self::from_map(map, opts)
    }

    /// Takes a map the caller made and checks its header against `opts`. With
    /// [`Format::Auto`](crate::Format::Auto), the layout is decided here, once.
    ///
    /// ```
    /// use flatforge_stream::{Format, MappedStream, ReaderOptions, StreamWriter, WriterOptions};
    /// let path = std::env::temp_dir().join(format!("ffs-mmap-from-doc-{}", std::process::id()));
    /// let plain = WriterOptions::default().format(Format::Plain);
    /// let mut w = StreamWriter::new(std::fs::File::create(&path)?, plain)?;
    /// w.write_with(|b| b.create_string("size-prefixed"))?;
    /// w.finish()?;
    ///
    /// let file = std::fs::File::open(&path)?;
    /// // SAFETY: nothing else writes to this temporary file while it is mapped.
    /// // The crate's own `memmap2`, the version `from_map` takes.
    /// let map = unsafe { flatforge_stream::memmap2::Mmap::map(&file) }?;
    /// let auto = ReaderOptions::default().format(Format::Auto);
    /// let stream = MappedStream::from_map(map, &auto)?;
    /// assert!(stream.slice().header().is_none()); // found to be a plain stream
    /// assert_eq!(stream.slice().messages::<&str>().next().unwrap()?, "size-prefixed");
    /// drop(stream);
    /// std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_map(map: Mmap, opts: &ReaderOptions) -> Result<Self, Error> {
        let slice = StreamSlice::new(&map, opts)?;
        // Keep the decided layout: an `Auto` reader must see the same layout every time.
        let format = if slice.header().is_some() {
            crate::Format::Framed
        } else {
            crate::Format::Plain
        };
        Ok(MappedStream {
            slice_opts: opts.clone().format(format),
            map,
        })
    }

    /// The mapped stream, ready to iterate or index.
    ///
    /// ```
    /// use flatforge_stream::{MappedStream, ReaderOptions, StreamWriter, WriterOptions};
    /// let path = std::env::temp_dir().join(format!("ffs-mmap-slice-doc-{}", std::process::id()));
    /// let mut w = StreamWriter::new(std::fs::File::create(&path)?, WriterOptions::default())?;
    /// for word in ["in", "place"] {
    ///     w.write_with(|b| b.create_string(word))?;
    /// }
    /// w.finish()?;
    ///
    /// // SAFETY: nothing else writes to this temporary file while it is mapped.
    /// let map = unsafe { MappedStream::open(&path, &ReaderOptions::default()) }?;
    /// let words: Vec<&str> = map.slice().messages::<&str>().collect::<Result<_, _>>()?;
    /// assert_eq!(words, ["in", "place"]);
    /// // The messages point into the map: nothing was copied.
    /// assert!(map.bytes().as_ptr_range().contains(&words[1].as_ptr()));
    /// drop(map);
    /// std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn slice(&self) -> StreamSlice<'_> {
        StreamSlice::new(&self.map, &self.slice_opts).expect("the header was checked by open")
    }

    /// The mapped bytes.
    ///
    /// ```
    /// use flatforge_stream::{MappedStream, ReaderOptions, StreamWriter, WriterOptions};
    /// let path = std::env::temp_dir().join(format!("ffs-mmap-bytes-doc-{}", std::process::id()));
    /// let mut w = StreamWriter::new(std::fs::File::create(&path)?, WriterOptions::default())?;
    /// w.write_with(|b| b.create_string("mapped"))?;
    /// w.finish()?;
    ///
    /// // SAFETY: nothing else writes to this temporary file while it is mapped.
    /// let map = unsafe { MappedStream::open(&path, &ReaderOptions::default()) }?;
    /// assert_eq!(map.bytes(), std::fs::read(&path)?);
    /// drop(map);
    /// std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn bytes(&self) -> &[u8] {
        &self.map
    }
}
