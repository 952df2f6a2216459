//! Numbers: parsing scalar text as flatc accepts it (decimal and hex integers with a sign, decimal
//! and hex floats, `nan`/`inf`/`infinity`) with range checks per type, a one-pass fast path for
//! plain decimal numbers that gives the same bits (Clinger's for floats), and flatc's own float
//! printing (fixed notation, 6 decimals for `float` and 12 for `double`, trailing zeros trimmed)
//! for output that must match flatc byte for byte.

use std::io::Write;
use std::num::NonZeroUsize;

use crate::plan::{lanes, Sc};

/// Why scalar text was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum NumError {
    /// Not a number of the expected kind.
    Syntax,
    /// A hex float without its mandatory `p` exponent.
    HexFloatExponent,
    /// An integer outside the type's range.
    Range,
}

/// Appends `x` as flatc prints a `float`.
pub(crate) fn write_f32(out: &mut Vec<u8>, x: f32) {
    let start = out.len();
    let _ = write!(out, "{x:.6}");
    trim_zeros(out, start);
}

/// Appends `x` as flatc prints a `double`.
pub(crate) fn write_f64(out: &mut Vec<u8>, x: f64) {
    let start = out.len();
    let _ = write!(out, "{x:.12}");
    trim_zeros(out, start);
}

/// The text of a NaN or an infinity that is `negative` (its sign bit set): `nan`, `inf`, `-inf`.
/// flatc (`printf`) also prints the sign of a NaN, `-nan`; `flatc_text` does too (the NaN that
/// parsing writes is positive, and parsers ignore the sign of NaN).
fn non_finite_text(nan: bool, negative: bool, flatc_text: bool) -> &'static [u8] {
    match (nan, negative) {
        (true, true) if flatc_text => b"-nan",
        (true, _) => b"nan",
        (false, false) => b"inf",
        (false, true) => b"-inf",
    }
}

/// Writes [`non_finite_text`] to `out`, in quotes if `quoted` (strict JSON has no bare `nan`).
pub(crate) fn write_non_finite(
    out: &mut Vec<u8>,
    nan: bool,
    negative: bool,
    flatc_text: bool,
    quoted: bool,
) {
    let text = non_finite_text(nan, negative, flatc_text);
    if quoted {
        out.push(b'"');
        out.extend_from_slice(text);
        out.push(b'"');
    } else {
        out.extend_from_slice(text);
    }
}

/// Removes trailing zeros after the decimal point, keeping one digit after it.
fn trim_zeros(out: &mut Vec<u8>, start: usize) {
    if !out[start..].contains(&b'.') {
        return;
    }
    let mut end = out.len();
    while end > start && out[end - 1] == b'0' {
        end -= 1;
    }
    if out[end - 1] == b'.' {
        end += 1;
    }
    out.truncate(end);
}

/// The `(min, max)` of an integer type, for error messages.
pub(crate) fn int_range(sc: Sc) -> (i128, i128) {
    match sc {
        Sc::Bool | Sc::U8 => (0, 255),
        Sc::I8 => (-128, 127),
        Sc::I16 => (i16::MIN.into(), i16::MAX.into()),
        Sc::U16 => (0, u16::MAX.into()),
        Sc::I32 => (i32::MIN.into(), i32::MAX.into()),
        Sc::U32 => (0, u32::MAX.into()),
        Sc::I64 => (i64::MIN.into(), i64::MAX.into()),
        Sc::U64 | Sc::F32 | Sc::F64 => (0, u64::MAX.into()),
    }
}

/// The largest magnitudes of the negative and positive values of an integer type (as
/// [`int_range`] gives them).
#[inline(always)]
fn int_magnitudes(sc: Sc) -> (u64, u64) {
    match sc {
        Sc::Bool | Sc::U8 => (0, 255),
        Sc::I8 => (128, 127),
        Sc::I16 => (1 << 15, (1 << 15) - 1),
        Sc::U16 => (0, u16::MAX.into()),
        Sc::I32 => (1 << 31, (1 << 31) - 1),
        Sc::U32 => (0, u32::MAX.into()),
        Sc::I64 => (1 << 63, (1 << 63) - 1),
        Sc::U64 | Sc::F32 | Sc::F64 => (0, u64::MAX),
    }
}

/// Splits an optional leading `-` or `+` off `s`: whether it was `-`, and the rest.
fn split_sign(s: &[u8]) -> (bool, &[u8]) {
    match s.first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    }
}

/// Parses an integer: optional sign, then decimal digits or `0x` and hex digits.
fn parse_int(s: &[u8]) -> Result<i128, NumError> {
    let (neg, rest) = split_sign(s);
    let (radix, digits) = if rest.len() > 2 && rest[0] == b'0' && rest[1] | 0x20 == b'x' {
        (16, &rest[2..])
    } else {
        (10, rest)
    };
    if digits.is_empty() {
        return Err(NumError::Syntax);
    }
    let mut v: i128 = 0;
    for &c in digits {
        let d = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' if radix == 16 => c - b'a' + 10,
            b'A'..=b'F' if radix == 16 => c - b'A' + 10,
            _ => return Err(NumError::Syntax),
        };
        v = v * radix + i128::from(d);
        if v > i128::from(u64::MAX) + 1 {
            // Keep consuming to report syntax errors first, without overflowing.
            v = i128::from(u64::MAX) + 2;
        }
    }
    Ok(if neg { -v } else { v })
}

/// Parses integer text for `sc` (an integer type or bool) and returns the raw bits. A bool keeps
/// its value as flatc keeps it (a byte in [0, 255]: `2` stays 2, it is not made 1).
pub(crate) fn parse_integer(s: &[u8], sc: Sc) -> Result<u64, NumError> {
    // Fast path: up to 18 decimal digits, optionally negative, fit an i64 without overflow.
    let (neg, digits) = match s.first() {
        Some(b'-') => (true, &s[1..]),
        _ => (false, s),
    };
    let mut v: i64 = 0;
    let mut ok = !digits.is_empty() && digits.len() <= 18;
    if ok {
        for &c in digits {
            let d = c.wrapping_sub(b'0');
            ok &= d < 10;
            // Wrapping: a non-digit (d up to 255) may overflow, and then `ok` is false and `v`
            // unused; with digits only, 18 of them cannot overflow.
            v = v.wrapping_mul(10).wrapping_add(i64::from(d));
        }
    }
    if ok {
        let v = i128::from(if neg { -v } else { v });
        let (min, max) = int_range(sc);
        if v < min || v > max {
            return Err(NumError::Range);
        }
        return Ok(v as i64 as u64);
    }
    let v = parse_int(s)?;
    let (min, max) = int_range(sc);
    if v < min || v > max {
        return Err(NumError::Range);
    }
    Ok(v as i64 as u64)
}

/// Exact powers of ten for Clinger's fast path: every `10^k` up to `10^22` is an `f64` (5^22 <
/// 2^53), and up to `10^10` an `f32` (5^10 < 2^24).
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];
const POW10_F32: [f32; 11] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];

/// `10^k` for the digits [`digits8`] reads.
const POW10_U64: [u64; 9] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
];

/// Reads up to eight decimal digits at `src[at..]`: their value and how many there are.
///
/// Eight bytes are loaded as one little-endian word (the first digit in the lowest byte) and `'0'`
/// is subtracted from each byte. A byte is a digit when the result is below 10, which adding 0x76
/// shows in its high bit; borrows and carries between bytes only go upwards, from a non-digit
/// into the bytes after it, so the lowest marked byte is exactly the first non-digit. Shifting
/// the `n` digits to the top of the word (zeros, that is leading zero digits, below them) leaves
/// an eight-digit number, which three multiplications fold in pairs: two digits per 16 bits, four
/// per 32, then all eight.
#[inline(always)]
fn digits8(src: &[u8], at: usize) -> (u64, usize) {
    let Some(chunk) = src.get(at..at + 8) else {
        // Near the end of the input: one digit at a time.
        let mut v = 0;
        let mut n = 0;
        while let Some(&c) = src.get(at + n) {
            if n == 8 || !c.is_ascii_digit() {
                break;
            }
            v = v * 10 + u64::from(c - b'0');
            n += 1;
        }
        return (v, n);
    };
    let mut w = [0; 8];
    w.copy_from_slice(chunk);
    let d = u64::from_le_bytes(w).wrapping_sub(lanes(b'0'));
    let other = (d.wrapping_add(lanes(0x76)) | d) & lanes(0x80);
    let n = (other.trailing_zeros() / 8) as usize;
    if n == 0 {
        return (0, 0);
    }
    let v = d << (64 - 8 * n);
    let v = (v.wrapping_mul(10 << 8 | 1) >> 8) & 0x00FF_00FF_00FF_00FF;
    let v = (v.wrapping_mul(100 << 16 | 1) >> 16) & 0x0000_FFFF_0000_FFFF;
    let v = v.wrapping_mul(10_000 << 32 | 1) >> 32;
    (v, n)
}

/// The bytes that may continue a number or identifier token: letters, digits, `_` and `.`.
const TOKEN: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric() || b == b'_' || b == b'.';
        c += 1;
    }
    t
};

/// Whether `c` may continue a number or identifier token (so the number's text is not over).
#[inline(always)]
fn continues_token(c: u8) -> bool {
    TOKEN[usize::from(c)]
}

/// The fast path for the numbers most JSON holds: reads `-?digits[.digits][(e|E)[+-]digits]` at
/// `text[at..]` in one pass and returns the value's bits for `sc` (as [`parse_integer`] and
/// [`parse_float`] return them) and where the number ends.
///
/// `None` sends the caller to the general path ([`parse_integer`], [`parse_float`]), which also
/// reports every error: text of another shape (a `+` sign, a leading zero, hex, `nan`), a float
/// for an integer type, an integer out of range or of more than 20 digits.
///
/// Floats take Clinger's fast path, which is exact: the digits make an integer `m` and the text's
/// value is `m * 10^e`; when `m` and `10^|e|` are both exactly representable (`m <= 2^53` and `|e|
/// <= 22` for `f64`, `2^24` and 10 for `f32`), one IEEE multiplication or division rounds `m *
/// 10^e` correctly, which is what the general path computes too. Other floats of this shape are
/// converted from their text as the general path converts them.
///
/// (The end of a number is never 0; as a `NonZeroUsize` it makes the result fit two registers.)
#[inline(never)]
pub(crate) fn fast_decimal(text: &str, at: usize, sc: Sc) -> Option<(u64, NonZeroUsize)> {
    let src = text.as_bytes();
    let neg = src.get(at) == Some(&b'-');
    let start = at + usize::from(neg);
    // Eight digits at a time; up to 19 digits cannot overflow, more are checked.
    let (mut m, mut n) = digits8(src, start);
    let mut i = start + n;
    while n == 8 {
        let v;
        (v, n) = digits8(src, i);
        m = if i + n - start <= 19 {
            m * POW10_U64[n] + v
        } else {
            m.checked_mul(POW10_U64[n])?.checked_add(v)?
        };
        i += n;
    }
    let int_digits = i - start;
    if int_digits == 0 || (int_digits > 1 && src[start] == b'0') {
        return None;
    }
    if !sc.is_float() {
        if src.get(i).copied().is_some_and(continues_token) {
            return None;
        }
        let (max_neg, max) = int_magnitudes(sc);
        if m > if neg { max_neg } else { max } {
            return None;
        }
        let bits = if neg { m.wrapping_neg() } else { m };
        return Some((bits, NonZeroUsize::new(i)?));
    }
    // `m * 10^exp` is the value while `exact`; otherwise (more than 19 significant digits, an
    // exponent of five digits or more) the text is only scanned here.
    let mut digits = int_digits;
    let mut exp: i64 = 0;
    let mut exact = true;
    if src.get(i) == Some(&b'.') {
        i += 1;
        loop {
            let (v, n) = digits8(src, i);
            digits += n;
            if digits <= 19 {
                m = m * POW10_U64[n] + v;
                exp -= n as i64;
            } else {
                exact = false;
            }
            i += n;
            if n < 8 {
                break;
            }
        }
    }
    if src.get(i).is_some_and(|&c| c | 0x20 == b'e') {
        i += 1;
        let (exp_neg, rest) = split_sign(&src[i..]);
        i = src.len() - rest.len();
        let exp_start = i;
        let mut x: i64 = 0;
        while let Some(&c) = src.get(i) {
            let d = c.wrapping_sub(b'0');
            if d >= 10 {
                break;
            }
            if i - exp_start < 4 {
                x = x * 10 + i64::from(d);
            } else {
                exact = false;
            }
            i += 1;
        }
        if i == exp_start {
            return None;
        }
        exp += if exp_neg { -x } else { x };
    }
    if src.get(i).copied().is_some_and(continues_token) {
        return None;
    }
    let end = NonZeroUsize::new(i)?;
    let pow = exp.unsigned_abs() as usize;
    let v = if exact && sc == Sc::F32 && m <= 1 << 24 && pow < POW10_F32.len() {
        let x = m as f32;
        f64::from(if exp < 0 {
            x / POW10_F32[pow]
        } else {
            x * POW10_F32[pow]
        })
    } else if exact && sc == Sc::F64 && m <= 1 << 53 && pow < POW10.len() {
        let x = m as f64;
        if exp < 0 {
            x / POW10[pow]
        } else {
            x * POW10[pow]
        }
    } else {
        // The text is a plain decimal (ASCII, so `at..i` are character boundaries): convert it
        // as the general path does in the end.
        return decimal(text.get(at..i)?, sc).ok().map(|bits| (bits, end));
    };
    Some((if neg { -v } else { v }.to_bits(), end))
}

/// Whether `s` is `nan`, `inf` or `infinity` (any case), with an optional sign.
fn special(s: &[u8]) -> Option<f64> {
    let (neg, rest) = split_sign(s);
    let v = if rest.eq_ignore_ascii_case(b"nan") {
        f64::NAN
    } else if rest.eq_ignore_ascii_case(b"inf") || rest.eq_ignore_ascii_case(b"infinity") {
        f64::INFINITY
    } else {
        return None;
    };
    // NaN loses its sign, as flatc's parser normalizes it.
    Some(if neg && !v.is_nan() { -v } else { v })
}

/// Parses float text for `sc` (`F32` or `F64`) and returns the raw bits of the value as an `f64`
/// (rounded once to `f32` first for `F32`).
pub(crate) fn parse_float(s: &[u8], sc: Sc) -> Result<u64, NumError> {
    if let Some(v) = special(s) {
        return Ok(v.to_bits());
    }
    let (neg, rest) = split_sign(s);
    if rest.len() > 1 && rest[0] == b'0' && rest[1] | 0x20 == b'x' {
        let v = hex_float(&rest[2..], sc)?;
        return Ok(if neg { -v } else { v }.to_bits());
    }
    if !valid_decimal(rest) {
        return Err(NumError::Syntax);
    }
    // `valid_decimal` checked the text is ASCII.
    decimal(std::str::from_utf8(s).map_err(|_| NumError::Syntax)?, sc)
}

/// Converts decimal float text (`[-+]digits[.digits][e[+-]digits]`, checked by the caller) for
/// `sc`, rounding once (to `f32` directly for `F32`).
fn decimal(text: &str, sc: Sc) -> Result<u64, NumError> {
    let v = if sc == Sc::F32 {
        f64::from(text.parse::<f32>().map_err(|_| NumError::Syntax)?)
    } else {
        text.parse::<f64>().map_err(|_| NumError::Syntax)?
    };
    Ok(v.to_bits())
}

/// `digits [. digits] [e [sign] digits]` with at least one digit in the mantissa.
fn valid_decimal(s: &[u8]) -> bool {
    let mut i = 0;
    let mut mant = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        i += 1;
        mant += 1;
    }
    if i < s.len() && s[i] == b'.' {
        i += 1;
        while i < s.len() && s[i].is_ascii_digit() {
            i += 1;
            mant += 1;
        }
    }
    if mant == 0 {
        return false;
    }
    if i < s.len() && s[i] | 0x20 == b'e' {
        i += 1;
        if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
            i += 1;
        }
        let start = i;
        while i < s.len() && s[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    i == s.len()
}

/// Parses the part of a hex float after `0x`: hex digits with an optional point, then the
/// mandatory binary exponent `p[sign]digits`; rounds once to the target type.
fn hex_float(s: &[u8], sc: Sc) -> Result<f64, NumError> {
    let mut m: u64 = 0;
    let mut e: i64 = 0;
    let mut sticky = false;
    let mut dot = false;
    let mut digits = 0;
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        let d = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' => c - b'A' + 10,
            b'.' if !dot => {
                dot = true;
                i += 1;
                continue;
            }
            _ => break,
        };
        digits += 1;
        if m >> 60 == 0 {
            m = m * 16 + u64::from(d);
            if dot {
                e -= 4;
            }
        } else {
            sticky |= d != 0;
            if !dot {
                e += 4;
            }
        }
        i += 1;
    }
    if digits == 0 {
        return Err(NumError::Syntax);
    }
    if i == s.len() {
        return Err(NumError::HexFloatExponent);
    }
    if s[i] | 0x20 != b'p' {
        return Err(NumError::Syntax);
    }
    i += 1;
    let (neg, rest) = split_sign(&s[i..]);
    i = s.len() - rest.len();
    if i == s.len() {
        return Err(NumError::Syntax);
    }
    let mut x: i64 = 0;
    for &c in &s[i..] {
        if !c.is_ascii_digit() {
            return Err(NumError::Syntax);
        }
        x = (x * 10 + i64::from(c - b'0')).min(1 << 20);
    }
    e += if neg { -x } else { x };
    let e = e.clamp(-(1 << 21), 1 << 21) as i32;
    Ok(if sc == Sc::F32 {
        f64::from(f32::from_bits(
            round_bits(m, sticky, e, 24, -126, 127) as u32
        ))
    } else {
        f64::from_bits(round_bits(m, sticky, e, 53, -1022, 1023))
    })
}

/// Rounds `m * 2^e` (plus a sticky bit for nonzero bits below `m`) to nearest, ties to even, in an
/// IEEE format with a `p`-bit significand and exponents `emin..=emax`; returns the bits (no sign).
fn round_bits(m: u64, sticky: bool, e: i32, p: i32, emin: i32, emax: i32) -> u64 {
    if m == 0 {
        return 0;
    }
    let lz = m.leading_zeros() as i32;
    let m = m << lz;
    let mut top = e + 63 - lz;
    let pp = if top >= emin { p } else { p - (emin - top) };
    if pp < 0 {
        return 0;
    }
    let shift = (64 - pp) as u32;
    let wide = u128::from(m);
    let mut keep = (wide >> shift) as u64;
    let rem = wide & ((1u128 << shift) - 1);
    let half = 1u128 << (shift - 1);
    if rem > half || (rem == half && (sticky || keep & 1 == 1)) {
        keep += 1;
    }
    let bias = emax;
    let frac_bits = (p - 1) as u32;
    if top >= emin {
        if keep == 1u64 << p {
            keep >>= 1;
            top += 1;
        }
        if top > emax {
            return ((2 * bias + 1) as u64) << frac_bits;
        }
        (((top + bias) as u64) << frac_bits) | (keep & ((1u64 << frac_bits) - 1))
    } else {
        keep
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f64_of(s: &str) -> f64 {
        f64::from_bits(parse_float(s.as_bytes(), Sc::F64).unwrap())
    }

    fn f32_of(s: &str) -> f32 {
        f64::from_bits(parse_float(s.as_bytes(), Sc::F32).unwrap()) as f32
    }

    #[test]
    fn hex_floats_round_once() {
        assert_eq!(f64_of("0x1.8p1"), 3.0);
        assert_eq!(f64_of("-0x1p-1074"), -5e-324);
        assert_eq!(f64_of("0x1p-1075"), 0.0);
        assert_eq!(f64_of("0x1.8p-1075"), 5e-324);
        assert_eq!(f64_of("0x1.fffffffffffff8p1023"), f64::INFINITY);
        assert_eq!(f64_of("0x1.fffffffffffffp1023"), f64::MAX);
        assert_eq!(f32_of("0x1.000001p0"), 1.0);
        assert_eq!(f32_of("0x1.000003p0"), 1.000_000_2);
        assert_eq!(f32_of("0x1p-149"), f32::from_bits(1));
        assert_eq!(f64_of("0x.8p1"), 1.0);
        assert_eq!(
            f64_of("0x123456789abcdef0123p0"),
            0x123456789abcdef0123u128 as f64
        );
        assert_eq!(
            parse_float(b"0x10", Sc::F64),
            Err(NumError::HexFloatExponent)
        );
    }

    #[test]
    fn decimal_floats_and_specials() {
        assert_eq!(f64_of("1e-20"), 1e-20);
        assert_eq!(f64_of(".5"), 0.5);
        assert_eq!(f64_of("5."), 5.0);
        assert_eq!(f32_of("2.71"), 2.71);
        assert!(f64_of("-nan").is_nan() && f64_of("-nan").is_sign_positive());
        assert_eq!(f64_of("-Infinity"), f64::NEG_INFINITY);
        assert_eq!(parse_float(b"1e", Sc::F64), Err(NumError::Syntax));
        assert_eq!(parse_float(b"1.5x", Sc::F64), Err(NumError::Syntax));
    }

    #[test]
    fn integers_with_ranges() {
        assert_eq!(parse_integer(b"0x1F", Sc::I32), Ok(31));
        assert_eq!(parse_integer(b"-0x10", Sc::I64), Ok(-16i64 as u64));
        assert_eq!(parse_integer(b"010", Sc::I32), Ok(10));
        assert_eq!(parse_integer(b"+5", Sc::U8), Ok(5));
        assert_eq!(parse_integer(b"2", Sc::Bool), Ok(2));
        assert_eq!(parse_integer(b"-1", Sc::U8), Err(NumError::Range));
        assert_eq!(parse_integer(b"128", Sc::I8), Err(NumError::Range));
        // 18 bytes with non-digits: the fast path must not overflow (it panicked in debug builds).
        assert_eq!(
            parse_integer(b"1!!!!!!!!!!!!!!!!1", Sc::I32),
            Err(NumError::Syntax)
        );
        assert_eq!(
            parse_integer(
                b"-\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff",
                Sc::I64
            ),
            Err(NumError::Syntax)
        );
        assert_eq!(
            parse_integer(b"18446744073709551615", Sc::U64),
            Ok(u64::MAX)
        );
        assert_eq!(
            parse_integer(b"18446744073709551616", Sc::U64),
            Err(NumError::Range)
        );
        assert_eq!(
            parse_integer(b"99999999999999999999999999999999999999999", Sc::U64),
            Err(NumError::Range)
        );
        assert_eq!(parse_integer(b"1.0", Sc::I32), Err(NumError::Syntax));
    }

    const ALL: [Sc; 11] = [
        Sc::Bool,
        Sc::I8,
        Sc::U8,
        Sc::I16,
        Sc::U16,
        Sc::I32,
        Sc::U32,
        Sc::I64,
        Sc::U64,
        Sc::F32,
        Sc::F64,
    ];

    /// What the general path makes of `text` for `sc`.
    fn general(text: &str, sc: Sc) -> Result<u64, NumError> {
        if sc.is_float() {
            parse_float(text.as_bytes(), sc)
        } else {
            parse_integer(text.as_bytes(), sc)
        }
    }

    /// The fast path's result for `text` followed by a delimiter, checked against the general
    /// path whenever it answers.
    fn fast(text: &str, sc: Sc) -> Option<u64> {
        let src = format!("{text},");
        let (bits, end) = fast_decimal(&src, 0, sc)?;
        assert_eq!(end.get(), text.len(), "{text} as {sc:?}");
        assert_eq!(Ok(bits), general(text, sc), "{text} as {sc:?}");
        Some(bits)
    }

    #[test]
    fn fast_path_takes_plain_numbers_exactly() {
        assert_eq!(fast("100", Sc::I32), Some(100));
        assert_eq!(fast("-50", Sc::I16), Some(-50i64 as u64));
        assert_eq!(fast("18446744073709551615", Sc::U64), Some(u64::MAX));
        assert_eq!(fast("-9223372036854775808", Sc::I64), Some(i64::MIN as u64));
        assert_eq!(fast("7", Sc::Bool), Some(7));
        assert_eq!(
            fast("4.14159", Sc::F32),
            Some(f64::from(4.14159f32).to_bits())
        );
        assert_eq!(
            fast("4.141543243244554", Sc::F64),
            Some(4.141543243244554f64.to_bits())
        );
        assert_eq!(fast("-0.0", Sc::F64), Some((-0.0f64).to_bits()));
        assert_eq!(fast("1.5e-7", Sc::F64), Some(1.5e-7f64.to_bits()));
        assert_eq!(fast("25E+3", Sc::F32), Some(25e3f64.to_bits()));
        assert_eq!(fast("5.", Sc::F64), Some(5f64.to_bits()));
        // Floats outside Clinger's fast path, converted from their text.
        assert_eq!(
            fast("3.1415432432445543", Sc::F64),
            Some(3.1415432432445543f64.to_bits())
        );
        assert_eq!(fast("16777217", Sc::F32), Some(16777216f64.to_bits()));
        assert_eq!(fast("1e23", Sc::F64), Some(1e23f64.to_bits()));
        assert_eq!(fast("1e11", Sc::F32), Some(f64::from(1e11f32).to_bits()));
        assert_eq!(fast("1e-00400", Sc::F64), Some(0f64.to_bits()));
        // Every integer type's limits are exact.
        for sc in ALL.into_iter().filter(|sc| !sc.is_float()) {
            let (min, max) = int_range(sc);
            for v in [min, max] {
                assert!(fast(&v.to_string(), sc).is_some(), "{v} as {sc:?}");
            }
            for v in [min - 1, max + 1] {
                assert_eq!(fast(&v.to_string(), sc), None, "{v} as {sc:?}");
            }
        }
        // Everything else goes to the general path.
        for (text, sc) in [
            ("18446744073709551616", Sc::U64),
            ("128", Sc::I8),
            ("-1", Sc::U32),
            ("010", Sc::I32),
            ("0x10", Sc::I32),
            ("+5", Sc::I32),
            ("1.5", Sc::I32),
            ("1e3", Sc::I64),
            ("-", Sc::I32),
            ("1e", Sc::F64),
            ("1.5x", Sc::F64),
            ("123456789012345678901.5", Sc::F64),
        ] {
            assert_eq!(fast(text, sc), None, "{text} as {sc:?}");
        }
    }

    #[test]
    fn eight_digits_at_a_time_stop_at_the_first_other_byte() {
        for n in 0..=10 {
            let digits: String = "9081726354".chars().take(n).collect();
            for stop in [
                b"," as &[u8],
                b" ",
                b"/",
                b":",
                b"\x00",
                b"\xff",
                b"a",
                b".",
            ] {
                for pad in [0, 1, 12] {
                    let mut src = b"x".to_vec();
                    src.extend_from_slice(digits.as_bytes());
                    src.extend_from_slice(stop);
                    src.extend(std::iter::repeat_n(b'7', pad));
                    let want = digits.get(..n.min(8)).unwrap();
                    let (v, k) = digits8(&src, 1);
                    assert_eq!(k, want.len(), "{src:?}");
                    assert_eq!(v, want.parse().unwrap_or(0), "{src:?}");
                }
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn fast_path_agrees_with_the_general_path(
            neg in proptest::bool::ANY,
            int in "[0-9]{0,21}",
            frac in proptest::option::of("[0-9]{0,20}"),
            exp in proptest::option::of("[eE][+-]?[0-9]{0,5}"),
        ) {
            let text = format!(
                "{}{int}{}{}",
                if neg { "-" } else { "" },
                frac.map(|f| format!(".{f}")).unwrap_or_default(),
                exp.unwrap_or_default(),
            );
            for sc in ALL {
                fast(&text, sc);
            }
        }
    }

    #[test]
    fn flatc_float_text() {
        let f = |x: f64| {
            let mut v = Vec::new();
            write_f64(&mut v, x);
            String::from_utf8(v).unwrap()
        };
        assert_eq!(f(1.0), "1.0");
        assert_eq!(f(0.1), "0.1");
        assert_eq!(f(1e-20), "0.0");
        assert_eq!(f(-0.0), "-0.0");
        assert_eq!(f(1e17), "100000000000000000.0");
        let mut v = Vec::new();
        write_f32(&mut v, 1.5e-5);
        assert_eq!(v, b"0.000015");
    }
}
