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
    pub unsafe fn open(path: impl AsRef<Path>, opts: &ReaderOptions) -> Result<Self, Error> {
        let path = path.as_ref();
        let file = File::open(path).map_err(|source| Error::Io { offset: 0, source })?;
        // SAFETY: the caller guarantees the file is not modified while mapped.
        let map = unsafe { Mmap::map(&file) }.map_err(|source| Error::Io { offset: 0, source })?;
        #[cfg(unix)]
        {
            // Only a hint; a kernel that refuses it reads the same bytes.
            let _ = map.advise(memmap2::Advice::Sequential);
        }
        Self::from_map(map, opts)
    }

    /// Takes a map the caller made and checks its header against `opts`.
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
    pub fn slice(&self) -> StreamSlice<'_> {
        StreamSlice::new(&self.map, &self.slice_opts).expect("the header was checked by open")
    }

    /// The mapped bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.map
    }
}
