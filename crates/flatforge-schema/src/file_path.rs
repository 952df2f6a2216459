//! [`FilePath`]: the path of a schema file in the model and the source map, kept inline when it
//! is short, so that compiling from a short file name allocates nothing for its path.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::ffi::OsStr;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::path::{Path, PathBuf};

use compact_str::CompactString;

/// The path of a schema file: a [`Path`] (it dereferences to one), stored inline when it is
/// UTF-8 of up to 24 bytes (`monster.fbs`, `schemas/monster.fbs`), on the heap otherwise.
///
/// It compares, orders and hashes as the [`Path`] it holds.
///
/// ```
/// use std::path::{Path, PathBuf};
/// use flatforge_schema::FilePath;
/// let path = FilePath::from("schemas/monster.fbs");
/// assert_eq!(path.file_name().and_then(|n| n.to_str()), Some("monster.fbs"));
/// assert_eq!(path, Path::new("schemas/monster.fbs"));
/// assert_eq!(PathBuf::from(path), PathBuf::from("schemas/monster.fbs"));
/// assert_eq!(format!("{:?}", FilePath::from("a.fbs")), "\"a.fbs\"");
/// ```
#[derive(Clone, Default)]
pub struct FilePath(Repr);

/// A UTF-8 path is always `Text` (so that equal paths have the same form); `Other` holds the
/// rest.
#[derive(Clone)]
enum Repr {
    Text(CompactString),
    Other(PathBuf),
}

impl Default for Repr {
    fn default() -> Repr {
        Repr::Text(CompactString::default())
    }
}

impl FilePath {
    /// The path as a [`Path`].
    ///
    /// ```
    /// let path = flatforge_schema::FilePath::from("a.fbs");
    /// assert_eq!(path.as_path().extension().and_then(|e| e.to_str()), Some("fbs"));
    /// ```
    pub fn as_path(&self) -> &Path {
        match &self.0 {
            Repr::Text(text) => Path::new(text.as_str()),
            Repr::Other(path) => path,
        }
    }

    /// The path as a [`PathBuf`].
    ///
    /// ```
    /// let path = flatforge_schema::FilePath::from("a.fbs");
    /// assert_eq!(path.into_path_buf(), std::path::PathBuf::from("a.fbs"));
    /// ```
    pub fn into_path_buf(self) -> PathBuf {
        match self.0 {
            Repr::Text(text) => PathBuf::from(text.into_string()),
            Repr::Other(path) => path,
        }
    }
}

impl Deref for FilePath {
    type Target = Path;

    fn deref(&self) -> &Path {
        self.as_path()
    }
}

impl AsRef<Path> for FilePath {
    fn as_ref(&self) -> &Path {
        self.as_path()
    }
}

impl AsRef<OsStr> for FilePath {
    fn as_ref(&self) -> &OsStr {
        self.as_path().as_os_str()
    }
}

impl Borrow<Path> for FilePath {
    fn borrow(&self) -> &Path {
        self.as_path()
    }
}

impl From<&str> for FilePath {
    fn from(path: &str) -> FilePath {
        FilePath(Repr::Text(CompactString::new(path)))
    }
}

impl From<String> for FilePath {
    fn from(path: String) -> FilePath {
        FilePath(Repr::Text(CompactString::from(path)))
    }
}

impl From<&Path> for FilePath {
    fn from(path: &Path) -> FilePath {
        match path.to_str() {
            Some(text) => FilePath::from(text),
            None => FilePath(Repr::Other(path.to_path_buf())),
        }
    }
}

impl From<PathBuf> for FilePath {
    fn from(path: PathBuf) -> FilePath {
        match path.into_os_string().into_string() {
            Ok(text) => FilePath::from(text),
            Err(other) => FilePath(Repr::Other(PathBuf::from(other))),
        }
    }
}

impl From<FilePath> for PathBuf {
    fn from(path: FilePath) -> PathBuf {
        path.into_path_buf()
    }
}

impl PartialEq for FilePath {
    fn eq(&self, other: &FilePath) -> bool {
        self.as_path() == other.as_path()
    }
}

impl Eq for FilePath {}

impl PartialEq<Path> for FilePath {
    fn eq(&self, other: &Path) -> bool {
        self.as_path() == other
    }
}

impl PartialEq<&Path> for FilePath {
    fn eq(&self, other: &&Path) -> bool {
        self.as_path() == *other
    }
}

impl PartialEq<PathBuf> for FilePath {
    fn eq(&self, other: &PathBuf) -> bool {
        self.as_path() == other.as_path()
    }
}

impl PartialOrd for FilePath {
    fn partial_cmp(&self, other: &FilePath) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for FilePath {
    fn cmp(&self, other: &FilePath) -> Ordering {
        self.as_path().cmp(other.as_path())
    }
}

impl Hash for FilePath {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_path().hash(state);
    }
}

impl fmt::Debug for FilePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_path(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::FilePath;
    use std::collections::hash_map::DefaultHasher;
    use std::hash::{Hash, Hasher};
    use std::path::{Path, PathBuf};

    fn hash_of(value: impl Hash) -> u64 {
        let mut hasher = DefaultHasher::new();
        value.hash(&mut hasher);
        hasher.finish()
    }

    #[test]
    fn short_and_long_paths_keep_their_text_and_act_as_paths() {
        for len in [0, 1, 23, 24, 25, 100] {
            let text: String = "ab/".repeat(len).chars().take(len).collect();
            for path in [
                FilePath::from(text.as_str()),
                FilePath::from(text.clone()),
                FilePath::from(Path::new(&text)),
                FilePath::from(PathBuf::from(&text)),
            ] {
                assert_eq!(path.as_os_str(), text.as_str());
                assert_eq!(path, Path::new(&text));
                assert_eq!(path, PathBuf::from(&text));
                assert_eq!(hash_of(&path), hash_of(Path::new(&text)));
                assert_eq!(path.clone().into_path_buf(), PathBuf::from(&text));
            }
        }
    }

    #[test]
    fn compares_and_orders_as_paths() {
        // `a/b` and `a//b` are the same path, as `Path` sees it.
        assert_eq!(FilePath::from("a/b"), FilePath::from("a//b"));
        assert_eq!(
            hash_of(FilePath::from("a/b")),
            hash_of(FilePath::from("a//b"))
        );
        assert!(FilePath::from("a/b") < FilePath::from("a.b"));
        assert!(Path::new("a/b") < Path::new("a.b"));
        assert_eq!(FilePath::default(), Path::new(""));
    }

    #[cfg(unix)]
    #[test]
    fn keeps_paths_that_are_not_utf8() {
        use std::ffi::OsStr;
        use std::os::unix::ffi::OsStrExt;
        let raw = Path::new(OsStr::from_bytes(b"caf\xe9.fbs"));
        let path = FilePath::from(raw);
        assert_eq!(path, raw);
        assert_eq!(FilePath::from(raw.to_path_buf()), path);
        assert_eq!(path.into_path_buf(), raw);
    }
}
