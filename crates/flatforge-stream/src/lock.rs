//! The advisory lock that keeps two processes from changing one stream file at once: taken by
//! [`StreamWriter::append`](crate::StreamWriter::append) and [`recover_file`](crate::recover_file),
//! and open to anyone through [`lock_file`].

use std::fs::{File, TryLockError};
use std::io;

use crate::Error;

/// Takes the exclusive advisory lock of a stream file without waiting, as
/// [`StreamWriter::append`](crate::StreamWriter::append) and [`recover_file`](crate::recover_file)
/// do: [`Error::Locked`] if another open handle holds it (an appending writer, a recovery, or any
/// program calling this). The lock is held until `file` and every handle cloned from it are closed;
/// a crashed process holds none. Call it on a file you write with [`StreamWriter::new`] to keep
/// appenders and recoveries out while you write.
///
/// The lock is advisory: programs that do not ask for it are not stopped. It is taken on Unix
/// (`flock`) only. On Windows, where file locks are mandatory and would also stop readers from
/// following the stream as it grows, this returns `Ok` and takes no lock.
///
/// [`StreamWriter::new`]: crate::StreamWriter::new
///
/// ```
/// use flatforge_stream::{lock_file, Error};
/// let path = std::env::temp_dir().join(format!("ffs-lock-doc-{}", std::process::id()));
/// let first = std::fs::File::create(&path)?;
/// lock_file(&first)?;
/// let second = std::fs::File::open(&path)?;
/// # #[cfg(unix)]
/// assert!(matches!(lock_file(&second), Err(Error::Locked)));
/// drop(first);
/// lock_file(&second)?; // the first handle is closed
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn lock_file(file: &File) -> Result<(), Error> {
    if cfg!(windows) {
        return Ok(());
    }
    match file.try_lock() {
        Ok(()) => Ok(()),
        Err(TryLockError::WouldBlock) => Err(Error::Locked),
        // A file system without locks (some network ones): nothing to coordinate through.
        Err(TryLockError::Error(e)) if e.kind() == io::ErrorKind::Unsupported => Ok(()),
        Err(TryLockError::Error(cause)) => Err(Error::Io { offset: 0, cause }),
    }
}
