//! [`Name`], the name of a compound entry in the owned tree: kept inline when short (nearly every tag
//! name is), so reading a compound does not allocate once per entry.

use std::fmt;

/// The longest name kept inline; [`Name`] is 24 bytes either way.
const INLINE: usize = 22;

/// A compound entry's name: up to [`INLINE`] bytes stored in place, longer names on the heap.
#[derive(Clone)]
pub(crate) struct Name(Repr);

/// Private, so that only [`Name::new`] makes one: the inline bytes are always a copy of a whole `&str`.
#[derive(Clone)]
enum Repr {
    Inline { len: u8, bytes: [u8; INLINE] },
    Heap(Box<str>),
}

impl Name {
    /// A copy of `s`.
    #[inline]
    pub(crate) fn new(s: &str) -> Name {
        let b = s.as_bytes();
        if b.len() > INLINE {
            return Name(Repr::Heap(s.into()));
        }
        let mut bytes = [0; INLINE];
        bytes[..b.len()].copy_from_slice(b);
        Name(Repr::Inline {
            len: b.len() as u8,
            bytes,
        })
    }

    /// The name as a string slice.
    #[inline]
    pub(crate) fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Inline { len, bytes } => {
                let b = &bytes[..usize::from(*len)];
                // SAFETY: `Repr` is private to this module and `Name::new` is the only place that makes an
                // `Inline`: `bytes[..len]` is a copy of all of a `&str`, so it is valid UTF-8.
                unsafe { std::str::from_utf8_unchecked(b) }
            }
            Repr::Heap(s) => s,
        }
    }
}

impl PartialEq for Name {
    #[inline]
    fn eq(&self, other: &Name) -> bool {
        self.as_str() == other.as_str()
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::{Name, INLINE};

    #[test]
    fn names_of_every_length_come_back_unchanged_inline_or_not() {
        assert_eq!(std::mem::size_of::<Name>(), 24);
        for len in 0..INLINE + 10 {
            // Multi-byte characters too, ending exactly at and across the inline limit.
            for fill in ["a", "é", "€", "😀"] {
                let s: String = fill.repeat(len).chars().take(len).collect();
                let name = Name::new(&s);
                assert_eq!(name.as_str(), s);
                assert_eq!(name.clone(), name);
                assert_eq!(format!("{name:?}"), format!("{s:?}"));
            }
        }
        assert_ne!(Name::new("ab"), Name::new("abc"));
        assert_ne!(Name::new(&"x".repeat(30)), Name::new(&"x".repeat(31)));
    }
}
