//! SGF's numbers: `Number` (`SZ`, `HA`) and `Real` (`KM`, `TM`).
//!
//! FF[4] says `Number = ["+"|"-"] Digit {Digit}` and `Real = Number ["." Digit {Digit}]`;
//! files in the wild also write `KM[.5]`, `KM[6.]` and exponents, and are read alike.

/// Largest `Number` read: what a C `int` holds, as in the programs that write SGF.
pub const MAX_NUMBER: u32 = (1 << 31) - 1;

/// Leading ASCII digits of `b`.
fn digits(b: &[u8]) -> usize {
    b.iter().take_while(|c| c.is_ascii_digit()).count()
}

/// A non-negative `Number` without sign (`SZ`, `HA`), at most [`MAX_NUMBER`].
pub fn number(text: &str) -> Option<u32> {
    if text.is_empty() || digits(text.as_bytes()) != text.len() {
        return None;
    }
    text.parse::<u32>().ok().filter(|&n| n <= MAX_NUMBER)
}

/// A finite `Real`: `[sign] (digits ["." digits] / "." digits) [("e"/"E") [sign] digits]`.
pub fn real(text: &str) -> Option<f64> {
    let b = text.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let whole = digits(&b[i..]);
    i += whole;
    let mut fraction = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        fraction = digits(&b[i..]);
        i += fraction;
    }
    if whole == 0 && fraction == 0 {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        i += usize::from(matches!(b.get(i), Some(b'+' | b'-')));
        let exponent = digits(&b[i..]);
        if exponent == 0 {
            return None;
        }
        i += exponent;
    }
    if i != b.len() {
        return None;
    }
    text.parse::<f64>().ok().filter(|x| x.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(number("19"), Some(19));
        assert_eq!(number("007"), Some(7));
        assert_eq!(number("2147483647"), Some(MAX_NUMBER));
        for bad in ["", "-1", "+1", " 1", "1.0", "2147483648", "١"] {
            assert_eq!(number(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn reals() {
        for (text, want) in [
            ("6.5", 6.5),
            ("-3", -3.0),
            ("+0.5", 0.5),
            (".5", 0.5),
            ("7.", 7.0),
            ("1e3", 1000.0),
            ("1.e2", 100.0),
            ("1.5E-1", 0.15),
        ] {
            assert_eq!(real(text), Some(want), "{text:?}");
        }
        for bad in [
            "", ".", "-", "e5", "1e", "1e+", "nan", "inf", "1e999", "6,5", " 6.5", "--1",
        ] {
            assert_eq!(real(bad), None, "{bad:?}");
        }
    }
}
