//! [`Name`], the name of a compound entry in the owned tree: kept inline when short (nearly every tag
//! name is), so reading a compound does not allocate once per entry.

use std::fmt;

use crate::mutf8;

/// The longest name kept inline; [`Name`] is 24 bytes either way.
pub(crate) const INLINE: usize = 22;

/// A compound entry's name: up to [`INLINE`] bytes stored in place, longer names on the heap.
#[derive(Clone)]
pub(crate) struct Name(Repr);

/// Private, so that only [`Name::new`] and [`Name::inline_ascii`] make one: the inline bytes are always
/// a copy of a whole `&str`, or ASCII.
#[derive(Clone)]
enum Repr {
    /// A short name whose UTF-8 is also its modified UTF-8 (no NUL, nothing above U+FFFF), zero-padded.
    Plain { len: u8, bytes: [u8; INLINE] },
    /// Another short name, zero-padded.
    Inline { len: u8, bytes: [u8; INLINE] },
    /// A longer name.
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
        let len = b.len() as u8;
        Name(if mutf8::is_plain(s) {
            Repr::Plain { len, bytes }
        } else {
            Repr::Inline { len, bytes }
        })
    }

    /// The name spelled by `b` when it is ASCII without NUL (so the same in UTF-8 and modified UTF-8:
    /// nothing to decode) and short enough to be kept inline; `None` otherwise, to be decoded and made
    /// with [`Name::new`].
    ///
    /// Reads a few whole words rather than each byte (two that overlap in the middle when the length is
    /// between two word sizes) and shifts them into the three words of the padded name in registers.
    /// The name is then stored at fixed offsets: assembling it in memory with overlapping stores at
    /// offsets that depend on the length, and moving it, stalled every later load of it on store
    /// forwarding.
    #[inline(always)]
    pub(crate) fn inline_ascii(b: &[u8]) -> Option<Name> {
        if !short_ascii(b) {
            return None;
        }
        let n = b.len();
        // Bytes 0..16 and 16..22 of the zero-padded name.
        let (low, high): (u128, u64) = match n {
            0 => (0, 0),
            1..=3 => {
                let byte = |i: usize| u128::from(b[i]) << (8 * i);
                (byte(0) | byte(n / 2) | byte(n - 1), 0)
            }
            4..=7 => {
                let first = u32::from_le_bytes(b[..4].try_into().expect("4 bytes"));
                let last = u32::from_le_bytes(b[n - 4..].try_into().expect("4 bytes"));
                (u128::from(first) | u128::from(last) << (8 * (n - 4)), 0)
            }
            8..=16 => {
                let first = mutf8::word(&b[..8]);
                let last = mutf8::word(&b[n - 8..]);
                (u128::from(first) | u128::from(last) << (8 * (n - 8)), 0)
            }
            _ => {
                let last = u128_at(b, n - 16);
                (u128_at(b, 0), (last >> (8 * (32 - n))) as u64)
            }
        };
        let mut bytes = [0; INLINE];
        bytes[..16].copy_from_slice(&low.to_le_bytes());
        bytes[16..].copy_from_slice(&high.to_le_bytes()[..INLINE - 16]);
        Some(Name(Repr::Plain {
            len: n as u8,
            bytes,
        }))
    }

    /// The length and the zero-padded bytes of a name kept inline, when the encoding can write them as
    /// they are: any inline name in UTF-8 (`java` false), only plain ones in modified UTF-8.
    #[inline(always)]
    pub(crate) fn padded(&self, java: bool) -> Option<(usize, &[u8; INLINE])> {
        match &self.0 {
            Repr::Plain { len, bytes } => Some((usize::from(*len), bytes)),
            Repr::Inline { len, bytes } if !java => Some((usize::from(*len), bytes)),
            _ => None,
        }
    }

    /// The name as a string slice.
    #[inline]
    pub(crate) fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Plain { len, bytes } | Repr::Inline { len, bytes } => {
                let b = &bytes[..usize::from(*len)];
                // SAFETY: `Repr` is private to this module, and the only places that make a `Plain` or
                // an `Inline` are `Name::new`, which copies all of a `&str` to `bytes[..len]`, and
                // `Name::inline_ascii`, which copies bytes it has checked are all below 0x80: either way
                // valid UTF-8.
                unsafe { std::str::from_utf8_unchecked(b) }
            }
            Repr::Heap(s) => s,
        }
    }
}

/// Whether `b` is at most [`INLINE`] bytes, all ASCII but NUL: what [`Name::inline_ascii`] keeps and
/// [`ascii_str`] takes. Checks a few whole words rather than each byte: two that overlap in the middle
/// when the length is between two word sizes.
#[inline(always)]
fn short_ascii(b: &[u8]) -> bool {
    let n = b.len();
    let bad = match n {
        0 => false,
        1..=3 => bad_u64(mutf8::word_1_to_3(b)),
        4..=7 => bad_u64(mutf8::word_4_to_7(b)),
        8..=16 => bad_u64(mutf8::word(&b[..8])) | bad_u64(mutf8::word(&b[n - 8..])),
        17..=INLINE => bad_u128(u128_at(b, 0)) | bad_u128(u128_at(b, n - 16)),
        _ => true,
    };
    !bad
}

/// `b` as a string when it is short ASCII without NUL ([`short_ascii`]): a string value that reads the
/// same in every variant, with no decoding or UTF-8 validation to do. `None` otherwise.
#[inline(always)]
pub(crate) fn ascii_str(b: &[u8]) -> Option<&str> {
    if !short_ascii(b) {
        return None;
    }
    // SAFETY: `short_ascii` checked that every byte of `b` is below 0x80: ASCII is valid UTF-8.
    Some(unsafe { std::str::from_utf8_unchecked(b) })
}

/// Whether a byte of `x` is 0 or 0x80 and above (see [`mutf8::not_ascii_bytes`]).
#[inline(always)]
fn bad_u64(x: u64) -> bool {
    mutf8::not_ascii_bytes(x) != 0
}

/// [`bad_u64`] for 16 bytes.
#[inline(always)]
fn bad_u128(x: u128) -> bool {
    (x.wrapping_sub(u128::MAX / 255) | x) & (u128::MAX / 255 * 0x80) != 0
}

#[inline(always)]
fn u128_at(b: &[u8], at: usize) -> u128 {
    u128::from_le_bytes(b[at..at + 16].try_into().expect("16 bytes"))
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
    use super::{ascii_str, Name, INLINE};

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
    }

    #[test]
    fn inline_ascii_takes_exactly_the_short_ascii_names_without_nul_and_copies_them_whole() {
        for len in 0..INLINE + 10 {
            let base: String = (0..len)
                .map(|i| char::from(b'a' + (i % 26) as u8))
                .collect();
            let name = Name::inline_ascii(base.as_bytes());
            assert_eq!(
                name.as_ref().map(Name::as_str),
                (len <= INLINE).then_some(&*base)
            );
            if let Some(name) = name {
                let (n, padded) = name.padded(true).expect("plain");
                assert_eq!(&padded[..n], base.as_bytes());
                assert!(padded[n..].iter().all(|&b| b == 0));
            }
            // A NUL (which modified UTF-8 spells C0 80) or a byte of 0x80 or above anywhere is refused.
            for pos in 0..len {
                let mut b = base.clone().into_bytes();
                for bad in [0, 0x80, 0xC3, 0xFF] {
                    b[pos] = bad;
                    assert!(Name::inline_ascii(&b).is_none(), "{b:?}");
                }
            }
        }
    }

    #[test]
    fn ascii_str_takes_exactly_the_short_ascii_strings_without_nul() {
        for len in 0..INLINE + 10 {
            let base: String = (0..len)
                .map(|i| char::from(b'!' + (i % 94) as u8))
                .collect();
            assert_eq!(
                ascii_str(base.as_bytes()),
                (len <= INLINE).then_some(&*base),
                "{len}"
            );
            for pos in 0..len {
                let mut b = base.clone().into_bytes();
                for bad in [0, 0x80, 0xC3, 0xFF] {
                    b[pos] = bad;
                    assert_eq!(ascii_str(&b), None, "{b:?}");
                }
            }
        }
    }

    #[test]
    fn only_names_that_need_no_conversion_are_written_as_they_are_in_java() {
        for (s, plain) in [("abc", true), ("é€", true), ("a\0", false), ("😀", false)] {
            let name = Name::new(s);
            assert_eq!(name.padded(true).is_some(), plain, "{s:?}");
            let (n, padded) = name.padded(false).expect("inline");
            assert_eq!(&padded[..n], s.as_bytes());
        }
        let long = Name::new(&"x".repeat(INLINE + 1));
        assert!(long.padded(false).is_none() && long.padded(true).is_none());
        assert_ne!(Name::new(&"x".repeat(30)), Name::new(&"x".repeat(31)));
    }
}
