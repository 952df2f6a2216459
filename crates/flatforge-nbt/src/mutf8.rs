//! Java's modified UTF-8: U+0000 is written `C0 80` and characters above U+FFFF as two 3-byte surrogates.
//!
//! Decoding takes a fast path when the bytes are plain UTF-8 (the common case: then the string is
//! borrowed, not copied). Plain UTF-8 that modified UTF-8 would spell differently (a raw NUL, 4-byte
//! sequences) is accepted too, as Minecraft tools write it; a lone surrogate cannot be a Rust string and is
//! an error.
//!
//! ```
//! use flatforge_nbt::mutf8;
//! let mut out = Vec::new();
//! mutf8::encode("a\0😀", &mut out);
//! assert_eq!(out, [0x61, 0xC0, 0x80, 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80]);
//! assert_eq!(mutf8::encoded_len("a\0😀"), out.len());
//! assert_eq!(mutf8::decode(&out).unwrap(), "a\0😀");
//! ```

use std::borrow::Cow;

/// Decodes modified UTF-8 (or plain UTF-8) into a string, borrowing when no conversion is needed.
///
/// ```
/// use flatforge_nbt::mutf8;
/// assert_eq!(mutf8::decode(b"abc").unwrap(), "abc");
/// assert_eq!(mutf8::decode(&[0x61, 0xC0, 0x80]).unwrap(), "a\0");
/// assert_eq!(mutf8::decode(&[0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80]).unwrap(), "\u{1F600}");
/// assert!(mutf8::decode(&[0xED, 0xA0, 0xBD]).is_err());
/// ```
pub fn decode(bytes: &[u8]) -> Result<Cow<'_, str>, &'static str> {
    match simdutf8::basic::from_utf8(bytes) {
        Ok(s) => Ok(Cow::Borrowed(s)),
        Err(_) => decode_slow(bytes).map(Cow::Owned),
    }
}

#[cold]
fn decode_slow(bytes: &[u8]) -> Result<String, &'static str> {
    let mut out = String::with_capacity(bytes.len());
    let mut i = 0;
    let cont = |i: usize| -> Result<u32, &'static str> {
        match bytes.get(i) {
            Some(&b) if b & 0xC0 == 0x80 => Ok(u32::from(b & 0x3F)),
            Some(_) => Err("invalid continuation byte"),
            None => Err("truncated sequence"),
        }
    };
    while i < bytes.len() {
        let b = bytes[i];
        if b < 0x80 {
            out.push(char::from(b));
            i += 1;
        } else if b & 0xE0 == 0xC0 {
            let c = (u32::from(b & 0x1F) << 6) | cont(i + 1)?;
            out.push(char::from_u32(c).ok_or("invalid code point")?);
            i += 2;
        } else if b & 0xF0 == 0xE0 {
            let unit = (u32::from(b & 0x0F) << 12) | (cont(i + 1)? << 6) | cont(i + 2)?;
            i += 3;
            if (0xD800..0xDC00).contains(&unit) {
                if bytes.get(i) != Some(&0xED) {
                    return Err("unpaired surrogate");
                }
                let low = (cont(i + 1)? << 6 | cont(i + 2)?) | 0xD000;
                if !(0xDC00..0xE000).contains(&low) {
                    return Err("unpaired surrogate");
                }
                i += 3;
                let c = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                out.push(char::from_u32(c).ok_or("invalid code point")?);
            } else {
                out.push(char::from_u32(unit).ok_or("unpaired surrogate")?);
            }
        } else if b & 0xF8 == 0xF0 {
            let c = (u32::from(b & 0x07) << 18)
                | (cont(i + 1)? << 12)
                | (cont(i + 2)? << 6)
                | cont(i + 3)?;
            out.push(char::from_u32(c).ok_or("invalid code point")?);
            i += 4;
        } else {
            return Err("invalid lead byte");
        }
    }
    Ok(out)
}

/// The length of `s` in modified UTF-8.
///
/// ```
/// assert_eq!(flatforge_nbt::mutf8::encoded_len("a\0\u{1F600}"), 1 + 2 + 6);
/// ```
pub fn encoded_len(s: &str) -> usize {
    if is_plain(s) {
        return s.len();
    }
    s.chars()
        .map(|c| match c {
            '\0' => 2,
            c if u32::from(c) > 0xFFFF => 6,
            c => c.len_utf8(),
        })
        .sum()
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;
const F0: u64 = 0xF0F0_F0F0_F0F0_F0F0;
/// Padding for short strings: an ASCII byte other than NUL, which no check flags.
const SPACES: u64 = 0x2020_2020_2020_2020;

/// Non-zero when a byte of `x` is zero (the high bit of the lowest such byte is set; bits above it may be
/// set too).
#[inline(always)]
fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// Non-zero when one of the eight bytes of `v` keeps a string from being plain: 0x00, or 0xF0 and above
/// (whose high four bits, flipped, are zero). Masks of several words can be or-ed and tested once.
#[inline(always)]
fn bad_bytes(v: u64) -> u64 {
    zero_bytes(v) | zero_bytes((v & F0) ^ F0)
}

#[inline(always)]
fn bad(v: u64) -> bool {
    bad_bytes(v) != 0
}

/// Non-zero when a byte of `v` is 0x00 or 0x80 and above, that is when `v` is not ASCII without NUL: a
/// cheaper test than [`bad_bytes`] that passes the usual strings, and those only (when it fails, the string
/// may still be plain). Subtracting one from each byte sets its high bit when it was 0x00 (a borrow out of
/// a zero byte can set more, but only when there is one).
#[inline(always)]
pub(crate) fn not_ascii_bytes(v: u64) -> u64 {
    (v.wrapping_sub(ONES) | v) & HIGHS
}

#[inline(always)]
pub(crate) fn word(c: &[u8]) -> u64 {
    u64::from_le_bytes(c.try_into().expect("8 bytes"))
}

/// The three bytes `b[0]`, `b[n / 2]` and `b[n - 1]` (every byte of a string of one to three bytes) as
/// one word, padded so that only they can make it [`bad`].
#[inline(always)]
pub(crate) fn word_1_to_3(b: &[u8]) -> u64 {
    let n = b.len();
    u64::from(b[0]) | u64::from(b[n / 2]) << 8 | u64::from(b[n - 1]) << 16 | SPACES << 24
}

/// The first and the last four bytes (overlapping: every byte of a string of four to seven bytes) as
/// one word.
#[inline(always)]
pub(crate) fn word_4_to_7(b: &[u8]) -> u64 {
    let lo = u32::from_le_bytes(b[..4].try_into().expect("4 bytes"));
    let hi = u32::from_le_bytes(b[b.len() - 4..].try_into().expect("4 bytes"));
    u64::from(lo) | u64::from(hi) << 32
}

/// True when the UTF-8 bytes of `s` are already its modified UTF-8 (no NUL, nothing above U+FFFF): no
/// byte is 0x00 and none is a 4-byte lead (0xF0–0xF7; 0xF8–0xFF cannot occur in UTF-8). Checked eight bytes
/// at a time; strings under eight bytes (most tag names) with one or two overlapping loads.
#[inline]
pub(crate) fn is_plain(s: &str) -> bool {
    plain_bytes(s.as_bytes())
}

/// [`is_plain`] for the bytes of a string.
#[inline]
fn plain_bytes(b: &[u8]) -> bool {
    let n = b.len();
    match n {
        0 => true,
        1..=3 => !bad(word_1_to_3(b)),
        4..=7 => !bad(word_4_to_7(b)),
        _ => {
            // Whole chunks, then the last eight bytes (overlapping the previous chunk) for the rest.
            let mut chunks = b.chunks_exact(8);
            !(chunks.any(|c| bad(word(c))) || bad(word(&b[n - 8..])))
        }
    }
}

/// The longest string [`copy_short`] copies.
pub(crate) const SHORT: usize = 32;

/// Copies `s` to the start of `dst` when it is at most [`SHORT`] bytes long and, if `check` is set, plain
/// (see [`is_plain`]); returns whether it did (`dst` then holds `s` in its first `s.len()` bytes).
///
/// The copy moves a few whole words instead of calling `memcpy`: two that overlap in the middle when the
/// length is between two word sizes (bytes 0..8 and n-8..n cover a string of 8 to 16 bytes), and the
/// check reads the words the copy moves, with [`not_ascii_bytes`] first ([`plain_bytes`] only for the
/// strings that it does not pass).
#[inline(always)]
pub(crate) fn copy_short(s: &[u8], dst: &mut [u8; SHORT], check: bool) -> bool {
    let n = s.len();
    // Copies the eight bytes at `off`; returns their `not_ascii_bytes` mask.
    let mut word_at = |off: usize| {
        let w = &s[off..off + 8];
        dst[off..off + 8].copy_from_slice(w);
        not_ascii_bytes(word(w))
    };
    let mask = match n {
        0 => 0,
        1..=3 => {
            for i in [0, n / 2, n - 1] {
                dst[i] = s[i];
            }
            not_ascii_bytes(word_1_to_3(s))
        }
        4..=7 => {
            dst[..4].copy_from_slice(&s[..4]);
            dst[n - 4..n].copy_from_slice(&s[n - 4..]);
            not_ascii_bytes(word_4_to_7(s))
        }
        8..=16 => word_at(0) | word_at(n - 8),
        17..=SHORT => word_at(0) | word_at(8) | word_at(n - 16) | word_at(n - 8),
        _ => return false,
    };
    !check || mask == 0 || plain_bytes(s)
}

/// Appends the modified UTF-8 of `s` to `out`.
///
/// ```
/// let mut out = Vec::new();
/// flatforge_nbt::mutf8::encode("\0", &mut out);
/// assert_eq!(out, [0xC0, 0x80]);
/// ```
pub fn encode(s: &str, out: &mut Vec<u8>) {
    if is_plain(s) {
        out.extend_from_slice(s.as_bytes());
        return;
    }
    for c in s.chars() {
        match c {
            '\0' => out.extend_from_slice(&[0xC0, 0x80]),
            c if u32::from(c) > 0xFFFF => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let u = u32::from(*unit);
                    out.extend_from_slice(&[
                        0xE0 | (u >> 12) as u8,
                        0x80 | ((u >> 6) & 0x3F) as u8,
                        0x80 | (u & 0x3F) as u8,
                    ]);
                }
            }
            c => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{copy_short, is_plain, SHORT};

    #[test]
    fn is_plain_matches_the_bytewise_definition_at_every_length_and_position() {
        for len in 0..40 {
            let base = "a".repeat(len);
            assert!(is_plain(&base), "{len}");
            for pos in 0..len {
                for bad in ["\0", "\u{1F600}"] {
                    let mut s = base.clone();
                    s.replace_range(pos..pos + 1, bad);
                    assert!(!is_plain(&s), "{s:?}");
                }
                let mut s = base.clone();
                s.replace_range(pos..pos + 1, "é\u{FFFF}");
                assert!(is_plain(&s), "{s:?}");
            }
        }
    }

    #[test]
    fn copy_short_copies_exactly_the_short_strings_it_accepts() {
        for len in 0..=SHORT + 8 {
            let base: String = (0..len)
                .map(|i| char::from(b'a' + (i % 26) as u8))
                .collect();
            let mut bads = vec![base.clone()];
            for pos in 0..len {
                // Not plain (NUL, 4-byte sequences), and plain but not ASCII (2- and 3-byte sequences).
                for bad in ["\0", "\u{1F600}", "é", "\u{FFFF}"] {
                    let mut s = base.clone();
                    s.replace_range(pos..pos + 1, bad);
                    bads.push(s);
                }
            }
            for s in &bads {
                let b = s.as_bytes();
                for check in [false, true] {
                    let mut dst = [0xAA; SHORT];
                    let fits = b.len() <= SHORT;
                    let copied = copy_short(b, &mut dst, check);
                    assert_eq!(copied, fits && (!check || is_plain(s)), "{s:?} {check}");
                    if copied {
                        assert_eq!(&dst[..b.len()], b, "{s:?}");
                        assert!(dst[b.len()..].iter().all(|&x| x == 0xAA), "{s:?}");
                    }
                }
            }
        }
    }
}
