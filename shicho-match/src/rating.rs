//! The numbers behind a win rate: Wilson's score interval, and the logistic Elo difference
//! that goes with a score (`stats`' module comment says why these).

/// The normal quantile for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wilson's score interval for a score of `score` (wins plus half the draws) in `n` games,
/// at normal quantile `z`. `(0, 1)` for no games.
pub fn wilson(score: f64, n: f64, z: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let p = score / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = z / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At 0 or n the exact end is 0 or 1; rounding would leave a speck such as 1e-17,
    // which the Elo formula turns into a finite but meaningless -7000.
    let lo = if score <= 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let hi = if score >= n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (lo, hi)
}

/// The Elo difference that makes `p` the expected score: `-400·log10(1/p - 1)`, infinite
/// at 0 and 1.
pub fn elo(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// An Elo difference with its sign, `+inf`/`-inf` at the ends.
pub fn format_elo(d: f64) -> String {
    if d.is_infinite() {
        if d > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else if d.round() == 0.0 {
        // Not "-0" for a slightly negative difference.
        "0".to_string()
    } else {
        format!("{:+.0}", d.round())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-4
    }

    #[test]
    fn wilson_known_answers() {
        // 7 of 10: the classic example gives [0.397, 0.892].
        let (lo, hi) = wilson(7.0, 10.0, Z95);
        assert!(close(lo, 0.3968) && close(hi, 0.8922), "{lo} {hi}");
        // No wins still leaves room above zero.
        let (lo, hi) = wilson(0.0, 50.0, Z95);
        assert_eq!(lo, 0.0);
        assert!(close(hi, 0.0713), "{hi}");
        // Symmetric around one half.
        let (lo, hi) = wilson(25.0, 50.0, Z95);
        assert!(close(lo + hi, 1.0));
        assert_eq!(wilson(0.0, 0.0, Z95), (0.0, 1.0));
        for n in [1.0, 7.0, 50.0, 100.0, 1000.0] {
            assert_eq!(wilson(0.0, n, Z95).0, 0.0);
            assert_eq!(wilson(n, n, Z95).1, 1.0);
        }
    }

    #[test]
    fn elo_known_answers() {
        assert_eq!(elo(0.5), 0.0);
        assert!((elo(0.75) - 190.85).abs() < 0.01);
        assert!((elo(0.25) + 190.85).abs() < 0.01);
        assert_eq!(elo(0.0), f64::NEG_INFINITY);
        assert_eq!(format_elo(elo(1.0)), "+inf");
        assert_eq!(format_elo(-190.85), "-191");
        assert_eq!(format_elo(-0.2), "0");
    }
}
