//! JSON string escaping as flatc does it: `\n \t \r \b \f \" \\` by name, other control
//! characters and DEL as `\u00XX`, non-ASCII as `\uXXXX` (uppercase hex, surrogate pairs above
//! U+FFFF) unless natural UTF-8 output is asked for. Unlike flatc, control characters are escaped
//! in natural UTF-8 output too, so that the output stays valid JSON (DEL stays raw there, as in
//! flatc).

/// Escape classes: 0 plain, 1 always escaped (controls, quote, backslash), 2 escaped unless natural
/// UTF-8 is asked for (DEL and non-ASCII).
const CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = if i < 0x20 || i == b'"' as usize || i == b'\\' as usize {
            1
        } else if i >= 0x7F {
            2
        } else {
            0
        };
        i += 1;
    }
    t
};

const HEX: &[u8; 16] = b"0123456789ABCDEF";

#[inline]
fn u_escape(out: &mut Vec<u8>, c: u32) {
    out.extend_from_slice(&[
        b'\\',
        b'u',
        HEX[(c >> 12) as usize & 15],
        HEX[(c >> 8) as usize & 15],
        HEX[(c >> 4) as usize & 15],
        HEX[c as usize & 15],
    ]);
}

/// Appends `s` (valid UTF-8) as a quoted JSON string.
pub(crate) fn escape(out: &mut Vec<u8>, s: &[u8], natural_utf8: bool) {
    out.reserve(s.len() + 2);
    out.push(b'"');
    let mut start = 0;
    let mut i = 0;
    while i < s.len() {
        let b = s[i];
        let class = CLASS[usize::from(b)];
        if class == 0 || (class == 2 && natural_utf8) {
            i += 1;
            continue;
        }
        out.extend_from_slice(&s[start..i]);
        if class == 1 {
            match b {
                b'\n' => out.extend_from_slice(b"\\n"),
                b'\t' => out.extend_from_slice(b"\\t"),
                b'\r' => out.extend_from_slice(b"\\r"),
                8 => out.extend_from_slice(b"\\b"),
                12 => out.extend_from_slice(b"\\f"),
                b'"' => out.extend_from_slice(b"\\\""),
                b'\\' => out.extend_from_slice(b"\\\\"),
                _ => u_escape(out, u32::from(b)),
            }
            i += 1;
        } else if b == 0x7F {
            u_escape(out, 0x7F);
            i += 1;
        } else {
            let (c, n) = decode(&s[i..]);
            if c <= 0xFFFF {
                u_escape(out, c);
            } else {
                let base = c - 0x10000;
                u_escape(out, (base >> 10) + 0xD800);
                u_escape(out, (base & 0x3FF) + 0xDC00);
            }
            i += n;
        }
        start = i;
    }
    out.extend_from_slice(&s[start..]);
    out.push(b'"');
}

/// Decodes the UTF-8 sequence at the start of `s` (valid, non-ASCII): the code point and length.
fn decode(s: &[u8]) -> (u32, usize) {
    let b0 = u32::from(s[0]);
    let cont = |i: usize| s.get(i).map_or(0, |&b| u32::from(b) & 0x3F);
    if b0 < 0xE0 {
        (((b0 & 0x1F) << 6) | cont(1), 2)
    } else if b0 < 0xF0 {
        (((b0 & 0x0F) << 12) | (cont(1) << 6) | cont(2), 3)
    } else {
        (
            ((b0 & 0x07) << 18) | (cont(1) << 12) | (cont(2) << 6) | cont(3),
            4,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::escape;

    fn esc(s: &str, natural: bool) -> String {
        let mut out = Vec::new();
        escape(&mut out, s.as_bytes(), natural);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn escapes_like_flatc() {
        assert_eq!(
            esc("a\"b\\c\n\t\u{1}\u{7f}\u{e9}\u{4e2d}\u{1f600}/", false),
            r#""a\"b\\c\n\t\u0001\u007F\u00E9\u4E2D\uD83D\uDE00/""#
        );
        assert_eq!(esc("\u{8}\u{c}\r", false), r#""\b\f\r""#);
    }

    #[test]
    fn natural_utf8_keeps_non_ascii_and_escapes_controls() {
        assert_eq!(esc("é中😀\u{1}\u{7f}", true), "\"é中😀\\u0001\u{7f}\"");
    }
}
