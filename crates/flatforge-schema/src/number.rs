//! Number parsing with flatc's exact rules.
//!
//! flatc converts constants with `strtoll`/`strtoull`/`strtod` in the C locale: integers are
//! decimal or hex (`0x`, detected after any sign), may carry leading zeros and leading white
//! space, and must not overflow their type; floats take decimal and hex notation, `inf`,
//! `infinity` and `nan` in any case. These functions reproduce that, with correctly rounded
//! results (hex floats are converted exactly, not through decimal).

use crate::model::BaseType;

/// Why an integer constant was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IntError {
    /// Not a number at all (or trailing garbage).
    Invalid,
    /// A number, but outside the type's range.
    OutOfRange,
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// `strtoll`/`strtoull` over the whole string in the given base: sign, optional `0x` prefix in
/// base 16, digits. Returns (negative, magnitude) or an error (overflow of u64 is `OutOfRange`).
fn strtou(s: &[u8], base: u32) -> Result<(bool, u64), IntError> {
    let mut i = 0;
    while i < s.len() && is_space(s[i]) {
        i += 1;
    }
    let mut negative = false;
    if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
        negative = s[i] == b'-';
        i += 1;
    }
    if base == 16
        && s.get(i) == Some(&b'0')
        && matches!(s.get(i + 1), Some(b'x' | b'X'))
        && s.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
    {
        i += 2;
    }
    let digits_start = i;
    let mut value: u64 = 0;
    let mut overflow = false;
    while i < s.len() {
        let Some(d) = (s[i] as char).to_digit(base) else {
            break;
        };
        match value
            .checked_mul(u64::from(base))
            .and_then(|v| v.checked_add(u64::from(d)))
        {
            Some(v) => value = v,
            None => overflow = true,
        }
        i += 1;
    }
    if i == digits_start || i != s.len() {
        return Err(IntError::Invalid);
    }
    if overflow {
        return Err(IntError::OutOfRange);
    }
    Ok((negative, value))
}

/// flatc's base detection: hex when the first digit is a `0` followed by `x`/`X`.
fn detect_base(s: &[u8]) -> u32 {
    let first_digit = s.iter().position(u8::is_ascii_digit);
    match first_digit {
        Some(p) if s[p] == b'0' && matches!(s.get(p + 1), Some(b'x' | b'X')) => 16,
        _ => 10,
    }
}

/// The value of plain decimal digits (as most constants are), when there are few enough of them
/// that they fit any 64-bit type; `None` for anything else.
pub(crate) fn plain_decimal(s: &[u8]) -> Option<u64> {
    if s.is_empty() || s.len() > 18 {
        return None;
    }
    let mut value = 0;
    for &b in s {
        let digit = b.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        value = value * 10 + u64::from(digit);
    }
    Some(value)
}

/// `StringToNumber<int64_t>`.
pub(crate) fn parse_i64(s: &str) -> Result<i64, IntError> {
    if let Some(v) = plain_decimal(s.as_bytes()) {
        return Ok(v as i64);
    }
    let (neg, mag) = strtou(s.as_bytes(), detect_base(s.as_bytes()))?;
    if neg {
        if mag > (i64::MAX as u64) + 1 {
            return Err(IntError::OutOfRange);
        }
        Ok((mag as i64).wrapping_neg())
    } else {
        i64::try_from(mag).map_err(|_| IntError::OutOfRange)
    }
}

/// `StringToNumber<uint64_t>`: negative values other than `-0` are out of range.
pub(crate) fn parse_u64(s: &str) -> Result<u64, IntError> {
    if let Some(v) = plain_decimal(s.as_bytes()) {
        return Ok(v);
    }
    let (neg, mag) = strtou(s.as_bytes(), detect_base(s.as_bytes()))?;
    if neg && mag != 0 {
        return Err(IntError::OutOfRange);
    }
    Ok(mag)
}

/// The range of an integer base type, as (min, max) in i128.
pub(crate) const fn int_range(t: BaseType) -> (i128, i128) {
    match t {
        BaseType::Byte => (i8::MIN as i128, i8::MAX as i128),
        BaseType::UType | BaseType::Bool | BaseType::UByte => (0, u8::MAX as i128),
        BaseType::Short => (i16::MIN as i128, i16::MAX as i128),
        BaseType::UShort => (0, u16::MAX as i128),
        BaseType::Int => (i32::MIN as i128, i32::MAX as i128),
        BaseType::UInt => (0, u32::MAX as i128),
        BaseType::Long => (i64::MIN as i128, i64::MAX as i128),
        _ => (0, u64::MAX as i128),
    }
}

/// Every base type, in the order of their discriminants (for tests over all of them).
#[cfg(test)]
pub(crate) const ALL_BASE_TYPES: [BaseType; BaseType::Vector64 as usize + 1] = {
    use BaseType::*;
    [
        None, UType, Bool, Byte, UByte, Short, UShort, Int, UInt, Long, ULong, Float, Double,
        String, Vector, Obj, Union, Array, Vector64,
    ]
};

/// The upper bound of [`int_range`] for each base type, by its discriminant (taken from it: the
/// types not listed have the bound of all others, `u64::MAX`).
const INT_MAX: [u64; BaseType::Vector64 as usize + 1] = {
    use BaseType::*;
    let mut max = [u64::MAX; Vector64 as usize + 1];
    let integers = [Byte, UType, Bool, UByte, Short, UShort, Int, UInt, Long];
    let mut i = 0;
    while i < integers.len() {
        max[integers[i] as usize] = int_range(integers[i]).1 as u64;
        i += 1;
    }
    max
};

/// The upper bound of [`int_range`]`(t)`, looked up.
#[inline(always)]
pub(crate) fn int_max(t: BaseType) -> u64 {
    INT_MAX[t as usize]
}

/// Parses an integer constant for an integer base type (bool included, as 0..=255), as flatc's
/// `StringToNumber<T>` does. Returns the value as i128.
#[inline]
pub(crate) fn parse_int_for(s: &str, t: BaseType) -> Result<i128, IntError> {
    // Plain digits (as most constants are) parse alike as int64 and uint64: only the range of
    // `t` remains to check, and of it only the upper bound (the value is not negative).
    if let Some(v) = plain_decimal(s.as_bytes()) {
        return if v > int_max(t) {
            Err(IntError::OutOfRange)
        } else {
            Ok(v.into())
        };
    }
    parse_other_int_for(s, t)
}

/// [`parse_int_for`] for constants that are not plain digits.
#[inline(never)]
fn parse_other_int_for(s: &str, t: BaseType) -> Result<i128, IntError> {
    match t {
        BaseType::ULong => parse_u64(s).map(i128::from),
        BaseType::Long => parse_i64(s).map(i128::from),
        _ => {
            // Smaller types parse as int64 (saturating) and are then range checked.
            let v = match parse_i64(s) {
                Ok(v) => i128::from(v),
                Err(IntError::OutOfRange) => return Err(IntError::OutOfRange),
                Err(e) => return Err(e),
            };
            let (lo, hi) = int_range(t);
            if v < lo || v > hi {
                return Err(IntError::OutOfRange);
            }
            Ok(v)
        }
    }
}

/// `strtod` over the whole string: `None` unless all of it is a number.
pub(crate) fn parse_f64(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && is_space(b[i]) {
        i += 1;
    }
    let mut negative = false;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        negative = b[i] == b'-';
        i += 1;
    }
    let rest = &s[i..];
    let lower = rest.to_ascii_lowercase();
    let magnitude = if lower == "inf" || lower == "infinity" {
        f64::INFINITY
    } else if lower == "nan" {
        f64::NAN
    } else if lower.starts_with("0x") {
        parse_hex_float(&rest.as_bytes()[2..])?
    } else {
        parse_decimal(rest)?
    };
    if magnitude.is_nan() {
        // flatc normalizes every NaN to the positive quiet NaN.
        return Some(f64::NAN);
    }
    Some(if negative { -magnitude } else { magnitude })
}

fn parse_decimal(s: &str) -> Option<f64> {
    // Validate the strtod grammar (Rust's parser accepts the same decimal forms, and more
    // spellings of special values, which are handled before).
    let b = s.as_bytes();
    let mut i = 0;
    let mut digits = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
        digits += 1;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return None;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
            j += 1;
        }
        let exp_start = j;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j > exp_start {
            i = j;
        }
    }
    if i != b.len() {
        return None;
    }
    s.parse::<f64>().ok()
}

/// Converts the part of a hex float after `0x`, exactly (round to nearest, ties to even).
fn parse_hex_float(b: &[u8]) -> Option<f64> {
    let mut i = 0;
    let mut mant: u128 = 0;
    let mut sticky = false;
    let mut exp2: i64 = 0;
    let mut digits = 0;
    let mut seen_dot = false;
    while i < b.len() {
        let c = b[i];
        if c == b'.' && !seen_dot {
            seen_dot = true;
            i += 1;
            continue;
        }
        let Some(d) = (c as char).to_digit(16) else {
            break;
        };
        digits += 1;
        if mant >> 120 == 0 {
            mant = (mant << 4) | u128::from(d);
            if seen_dot {
                exp2 -= 4;
            }
        } else {
            // Too many digits to hold: keep the magnitude, remember lost bits.
            sticky |= d != 0;
            if !seen_dot {
                exp2 += 4;
            }
        }
        i += 1;
    }
    if digits == 0 {
        return None;
    }
    if i < b.len() && (b[i] == b'p' || b[i] == b'P') {
        let mut j = i + 1;
        let mut neg = false;
        if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
            neg = b[j] == b'-';
            j += 1;
        }
        let start = j;
        let mut e: i64 = 0;
        while j < b.len() && b[j].is_ascii_digit() {
            e = (e * 10 + i64::from(b[j] - b'0')).min(1 << 40);
            j += 1;
        }
        if j > start {
            exp2 += if neg { -e } else { e };
            i = j;
        }
    }
    if i != b.len() {
        return None;
    }
    Some(compose_f64(mant, sticky, exp2))
}

/// `mant * 2^exp2` (plus a sticky fraction below the last bit), correctly rounded to f64.
fn compose_f64(mant: u128, sticky: bool, exp2: i64) -> f64 {
    if mant == 0 {
        return 0.0;
    }
    let bits = 128 - i64::from(mant.leading_zeros());
    // Exponent of the leading bit.
    let e = exp2 + bits - 1;
    if e > 1023 {
        return f64::INFINITY;
    }
    // Significant bits the result can hold at this exponent.
    let keep = if e >= -1022 { 53 } else { 53 - (-1022 - e) };
    if keep < 0 {
        return 0.0;
    }
    let shift = bits - keep;
    let mut m: u128;
    if shift <= 0 {
        m = mant << (-shift) as u32;
    } else if shift > 127 {
        return 0.0;
    } else {
        let shift = shift as u32;
        m = mant >> shift;
        let rem = mant & ((1u128 << shift) - 1);
        let half = 1u128 << (shift - 1);
        if rem > half || (rem == half && (sticky || m & 1 == 1)) {
            m += 1;
        }
    }
    // Assemble: the value is m * 2^(e - keep + 1).
    let mut e = e;
    if keep == 53 && m == 1u128 << 53 {
        m >>= 1;
        e += 1;
    }
    if e > 1023 {
        return f64::INFINITY;
    }
    if keep == 53 {
        let frac = (m as u64) & ((1u64 << 52) - 1);
        let biased = (e + 1023) as u64;
        f64::from_bits((biased << 52) | frac)
    } else {
        // Subnormal (or rounded up into the smallest normal): m counts units of 2^-1074.
        f64::from_bits(m as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_max_is_the_upper_bound_of_int_range() {
        for (i, t) in ALL_BASE_TYPES.into_iter().enumerate() {
            assert_eq!(t as usize, i);
            assert_eq!(i128::from(int_max(t)), int_range(t).1, "{t:?}");
        }
    }

    #[test]
    fn the_decimal_fast_path_agrees_with_strtou() {
        for s in [
            "0",
            "7",
            "000123",
            "65535",
            "999999999999999999",
            "123456789012345678",
        ] {
            assert_eq!(
                plain_decimal(s.as_bytes()),
                strtou(s.as_bytes(), 10).ok().map(|r| r.1)
            );
        }
        for s in ["", "1234567890123456789", "+5", " 5", "0x1", "1.0"] {
            assert_eq!(plain_decimal(s.as_bytes()), None, "{s}");
        }
    }

    #[test]
    fn plain_digits_take_the_type_range_as_strtoll_does() {
        let types = [
            BaseType::Bool,
            BaseType::Byte,
            BaseType::UByte,
            BaseType::Short,
            BaseType::UShort,
            BaseType::Int,
            BaseType::UInt,
            BaseType::Long,
            BaseType::ULong,
            BaseType::UType,
        ];
        let texts = [
            "0",
            "1",
            "127",
            "128",
            "255",
            "256",
            "32767",
            "32768",
            "65535",
            "65536",
            "2147483647",
            "2147483648",
            "4294967295",
            "4294967296",
            "000000000000000255",
            "999999999999999999",
        ];
        for t in types {
            for s in texts {
                // The general route: int64 or uint64 conversion, then the range of `t`.
                let expected = match t {
                    BaseType::ULong => parse_u64(s).map(i128::from),
                    BaseType::Long => parse_i64(s).map(i128::from),
                    _ => parse_i64(s).map(i128::from).and_then(|v| {
                        let (lo, hi) = int_range(t);
                        if v < lo || v > hi {
                            Err(IntError::OutOfRange)
                        } else {
                            Ok(v)
                        }
                    }),
                };
                assert_eq!(parse_int_for(s, t), expected, "{s} {t:?}");
            }
        }
    }

    #[test]
    fn integers() {
        assert_eq!(parse_i64("123"), Ok(123));
        assert_eq!(parse_i64("-0x10"), Ok(-16));
        assert_eq!(parse_i64("007"), Ok(7));
        assert_eq!(parse_i64(" +5"), Ok(5));
        assert_eq!(parse_i64("9223372036854775807"), Ok(i64::MAX));
        assert_eq!(parse_i64("-9223372036854775808"), Ok(i64::MIN));
        assert_eq!(parse_i64("9223372036854775808"), Err(IntError::OutOfRange));
        assert_eq!(parse_i64("0xFFFFFFFFFFFFFFFF"), Err(IntError::OutOfRange));
        assert_eq!(parse_i64("1.5"), Err(IntError::Invalid));
        assert_eq!(parse_i64("0x"), Err(IntError::Invalid));
        assert_eq!(parse_i64(""), Err(IntError::Invalid));
        assert_eq!(parse_u64("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(parse_u64("0xFFFFFFFFFFFFFFFF"), Ok(u64::MAX));
        assert_eq!(parse_u64("-1"), Err(IntError::OutOfRange));
        assert_eq!(parse_u64("-0"), Ok(0));
        assert_eq!(parse_u64("18446744073709551616"), Err(IntError::OutOfRange));
        assert_eq!(parse_int_for("255", BaseType::UByte), Ok(255));
        assert_eq!(
            parse_int_for("256", BaseType::UByte),
            Err(IntError::OutOfRange)
        );
        assert_eq!(
            parse_int_for("-129", BaseType::Byte),
            Err(IntError::OutOfRange)
        );
        assert_eq!(parse_int_for("2", BaseType::Bool), Ok(2));
        assert_eq!(parse_int_for("0xFFFFFFFF", BaseType::UInt), Ok(0xFFFF_FFFF));
    }

    #[test]
    fn floats() {
        assert_eq!(parse_f64("1.5"), Some(1.5));
        assert_eq!(parse_f64("5."), Some(5.0));
        assert_eq!(parse_f64(".5e1"), Some(5.0));
        assert_eq!(parse_f64("-inf"), Some(f64::NEG_INFINITY));
        assert_eq!(parse_f64("Infinity"), Some(f64::INFINITY));
        assert!(parse_f64("-NaN").unwrap().is_nan());
        assert!(parse_f64("-nan").unwrap().is_sign_positive());
        assert_eq!(parse_f64("0x1p4"), Some(16.0));
        assert_eq!(parse_f64("0x1.8p1"), Some(3.0));
        assert_eq!(parse_f64("-0x.8p0"), Some(-0.5));
        assert_eq!(parse_f64("0x1p-1074"), Some(f64::from_bits(1)));
        assert_eq!(parse_f64("0x1p-1075"), Some(0.0));
        assert_eq!(parse_f64("0x1.8p-1075"), Some(f64::from_bits(1)));
        assert_eq!(parse_f64("0x1.fffffffffffffp1023"), Some(f64::MAX));
        assert_eq!(parse_f64("0x1.fffffffffffff8p1023"), Some(f64::INFINITY));
        assert_eq!(parse_f64("0x1.00000000000008p0"), Some(1.0));
        assert_eq!(
            parse_f64("0x1.00000000000018p0"),
            Some(1.0 + 2.0 * f64::EPSILON)
        );
        assert_eq!(
            parse_f64("0x1.000000000000080000000000000000001p0"),
            Some(1.0 + f64::EPSILON)
        );
        assert_eq!(
            parse_f64("0x1.ffffffffffffep-1023"),
            Some(f64::from_bits(0x000f_ffff_ffff_ffff))
        );
        assert_eq!(parse_f64("1e400"), Some(f64::INFINITY));
        assert_eq!(parse_f64("pi"), None);
        assert_eq!(parse_f64("1e"), None);
        assert_eq!(parse_f64("nan(1)"), None);
        assert_eq!(parse_f64("."), None);
        assert_eq!(parse_f64(""), None);
    }
}
