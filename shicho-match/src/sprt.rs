//! The sequential probability ratio test that stops a match once it has decided: does
//! engine A lead B by at least `elo1` (H1) or by at most `elo0` (H0)?
//!
//! # The model
//!
//! Elo differences are logistic: a difference `d` gives A the expected score
//! `L(d) = 1 / (1 + 10^(-d/400))` per game (draws counting half). The test compares
//! `s0 = L(elo0)` with `s1 = L(elo1)`.
//!
//! The unit of the test is a game (the trinomial model: loss, draw, win), or with
//! alternating colours a pair of games sharing an opening (the pentanomial model: A's pair
//! score 0, 1/2, 1, 3/2 or 2). Pairs are the better unit when the two games of a pair are
//! correlated, as they are when the opening favours one colour: the pair's score varies less
//! than two independent games would, so the test needs fewer games (Van den Bergh, "the
//! pentanomial model"; fishtest plays pairs for this reason).
//!
//! # The log-likelihood ratio
//!
//! The test is the generalized SPRT (GSPRT) of the multinomial model, as fishtest runs it
//! for logistic Elo (its `LLR_logistic`; Michel Van den Bergh's notes "Maximum likelihood
//! estimation for multinomial distributions with a given expectation value" and "A GSPRT
//! approximation"). With `N` units whose categories (scores `a_i`, 0..1: a pair's score is
//! halved) came up with frequencies `p_i`, each hypothesis `s` is represented by the
//! distribution of expected score `s` that makes the observations most likely,
//!
//! ```text
//! q_i(s) = p_i / (1 + x (a_i - s)),   x the root of  sum_i p_i (a_i - s) / (1 + x (a_i - s)) = 0,
//! ```
//!
//! and `LLR = N · sum_i p_i · ln(q_i(s1) / q_i(s0))`. For many units this is close to the
//! quadratic approximation `N (s1 - s0)(2m - s0 - s1) / 2v` (`m`, `v` the units' mean and
//! variance), which this module does not use: over the first few games of a Go match, when
//! every game so far went one way, `v` is near zero and that formula would call a winner
//! after two games, while the maximized likelihood stays near `2·ln(s1/s0)`. A category not
//! yet seen is counted as 0.001 of a unit (fishtest's regularization), so every `q_i` and
//! logarithm is defined.
//!
//! The test stops when the LLR leaves `(ln(β/(1-α)), ln((1-β)/α))`: below, H0 is accepted,
//! above, H1; `α` bounds the chance of accepting H1 when H0 holds, `β` the reverse.
//!
//! The verdict is a function of the results file alone: units are taken in game-number
//! order and the first crossing decides, so a resumed run, a run with several games in
//! flight and the merge of shards reach the same verdict at the same game.

use std::fmt;
use std::str::FromStr;

use crate::rating::{Z95, elo, format_elo};

/// What a zero count is replaced by (fishtest's regularization).
const EPSILON: f64 = 1e-3;

/// The test's settings: `--sprt ELO0,ELO1[,ALPHA,BETA]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtSpec {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl SprtSpec {
    /// `(lower, upper)`: the LLR bounds of H0 and H1.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }
}

impl fmt::Display for SprtSpec {
    /// The form `FromStr` reads: `0,10,0.05,0.05`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{},{},{},{}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

impl FromStr for SprtSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<SprtSpec, String> {
        let fields: Vec<&str> = s.split(',').map(str::trim).collect();
        if fields.len() != 2 && fields.len() != 4 {
            return Err(format!(
                "'{s}': give ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA (e.g. 0,10 or 0,10,0.05,0.05)"
            ));
        }
        let number = |what: &str, text: &str| -> Result<f64, String> {
            text.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| format!("'{s}': {what} '{text}' is not a number"))
        };
        let elo0 = number("ELO0", fields[0])?;
        let elo1 = number("ELO1", fields[1])?;
        let (alpha, beta) = if fields.len() == 4 {
            (number("ALPHA", fields[2])?, number("BETA", fields[3])?)
        } else {
            (0.05, 0.05)
        };
        if elo0 >= elo1 {
            return Err(format!("'{s}': ELO0 must be below ELO1"));
        }
        if elo0.abs() > 1000.0 || elo1.abs() > 1000.0 {
            return Err(format!(
                "'{s}': Elo bounds beyond ±1000 cannot be told apart"
            ));
        }
        for (what, p) in [("ALPHA", alpha), ("BETA", beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("'{s}': {what} must be above 0 and below 0.5"));
            }
        }
        Ok(SprtSpec {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }
}

/// The logistic model's expected score at Elo difference `d`.
pub fn expected_score(d: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-d / 400.0))
}

/// The unit of the test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Single games: counts of A's losses, draws, wins.
    Trinomial,
    /// Pairs of games sharing an opening, colours swapped: counts of A's pair scores 0,
    /// 1/2, 1, 3/2, 2 (LL, LD+DL, LW+WL+DD, WD+DW, WW).
    Pentanomial,
}

impl Model {
    /// Number of categories.
    pub fn categories(self) -> usize {
        match self {
            Model::Trinomial => 3,
            Model::Pentanomial => 5,
        }
    }
}

/// The LLR of H1 against H0 for `counts` (one count per category, lowest score first:
/// 3 for single games, 5 for pairs), the GSPRT's maximized likelihood ratio. 0 before any
/// unit.
pub fn llr(spec: &SprtSpec, counts: &[usize]) -> f64 {
    let k = counts.len();
    if k < 2 || counts.iter().all(|&c| c == 0) {
        return 0.0;
    }
    let weights: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { EPSILON } else { c as f64 })
        .collect();
    let n: f64 = weights.iter().sum();
    let pdf: Vec<(f64, f64)> = weights
        .iter()
        .enumerate()
        .map(|(i, w)| (i as f64 / (k - 1) as f64, w / n))
        .collect();
    let q0 = most_likely_with_mean(&pdf, expected_score(spec.elo0));
    let q1 = most_likely_with_mean(&pdf, expected_score(spec.elo1));
    n * pdf
        .iter()
        .zip(q0.iter().zip(&q1))
        .map(|(&(_, p), (a, b))| p * (b / a).ln())
        .sum::<f64>()
}

/// The distribution on the categories of `pdf` (`(score, frequency)`, every frequency
/// above 0, scores spanning `s`) that has expected score `s` and makes `pdf` most likely:
/// `q_i = p_i / (1 + x (a_i - s))` with `x` the root of the secular equation, found by
/// bisection (its left side falls from +inf to -inf across the interval where every
/// `1 + x (a_i - s)` is positive).
fn most_likely_with_mean(pdf: &[(f64, f64)], s: f64) -> Vec<f64> {
    let top = pdf.iter().map(|&(a, _)| a - s).fold(f64::MIN, f64::max);
    let bottom = pdf.iter().map(|&(a, _)| a - s).fold(f64::MAX, f64::min);
    let f = |x: f64| {
        pdf.iter()
            .map(|&(a, p)| p * (a - s) / (1.0 + x * (a - s)))
            .sum::<f64>()
    };
    let (mut lo, mut hi) = (-1.0 / top, -1.0 / bottom);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = 0.5 * (lo + hi);
    pdf.iter().map(|&(a, p)| p / (1.0 + x * (a - s))).collect()
}

/// `(units, mean, variance)` of the unit scores (category `i` of `k` scores `i/(k-1)`);
/// `None` without units (or a zero variance).
fn moments(counts: &[usize]) -> Option<(f64, f64, f64)> {
    let k = counts.len();
    if k < 2 || counts.iter().all(|&c| c == 0) {
        return None;
    }
    let weight = |c: usize| c as f64;
    let n: f64 = counts.iter().map(|&c| weight(c)).sum();
    let score = |i: usize| i as f64 / (k - 1) as f64;
    let mean = counts
        .iter()
        .enumerate()
        .map(|(i, &c)| weight(c) * score(i))
        .sum::<f64>()
        / n;
    let variance = counts
        .iter()
        .enumerate()
        .map(|(i, &c)| weight(c) * (score(i) - mean).powi(2))
        .sum::<f64>()
        / n;
    (variance > 0.0).then_some((n, mean, variance))
}

/// A's score rate over the units and its 95% interval (normal approximation with the
/// units' own variance, which for pairs is the pentanomial one); `None` before any unit.
pub fn score_interval(counts: &[usize]) -> Option<(f64, f64, f64)> {
    let n: usize = counts.iter().sum();
    if n == 0 {
        return None;
    }
    match moments(counts) {
        Some((n, mean, variance)) => {
            let half = Z95 * (variance / n).sqrt();
            Some((mean, (mean - half).max(0.0), (mean + half).min(1.0)))
        }
        // Every unit scored the same: no spread to measure.
        None => {
            let k = counts.len();
            let i = counts.iter().position(|&c| c > 0).unwrap_or(0);
            let s = i as f64 / (k - 1) as f64;
            Some((s, s, s))
        }
    }
}

/// Which hypothesis the test accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hypothesis {
    H0,
    H1,
}

/// The test run over games in game-number order.
#[derive(Clone, Debug)]
pub struct Sprt {
    pub spec: SprtSpec,
    pub model: Model,
    /// Units per category, lowest score first.
    pub counts: Vec<usize>,
    /// The LLR after the last complete unit (at the verdict, once there is one).
    pub llr: f64,
    /// Games counted (those of complete units up to the verdict).
    pub games: usize,
    /// The verdict and the number of the game that completed the deciding unit.
    pub verdict: Option<(Hypothesis, usize)>,
    /// The first game of an unfinished pair: its number and A's score.
    pending: Option<(usize, f64)>,
}

impl Sprt {
    pub fn new(spec: SprtSpec, model: Model) -> Sprt {
        Sprt {
            spec,
            model,
            counts: vec![0; model.categories()],
            llr: 0.0,
            games: 0,
            verdict: None,
            pending: None,
        }
    }

    /// Adds game `number` with A's score (1 win, 0.5 draw, 0 loss). Games must come in
    /// number order without gaps (the caller stops at a gap); with pairs, games `2k+1` and
    /// `2k+2` form a unit. Ignored once the test has decided. Returns whether this game
    /// decided it.
    pub fn add(&mut self, number: usize, score: f64) -> bool {
        if self.verdict.is_some() {
            return false;
        }
        let index = |halves: f64| halves.round().max(0.0) as usize;
        match self.model {
            Model::Trinomial => {
                self.counts[index(2.0 * score).min(2)] += 1;
                self.games += 1;
            }
            Model::Pentanomial => {
                let pair = (number - 1) / 2;
                match self.pending.take() {
                    Some((first, s)) if (first - 1) / 2 == pair => {
                        self.counts[index(2.0 * (s + score)).min(4)] += 1;
                        self.games += 2;
                    }
                    // A pair cut short (never with gap-free input): its first game is
                    // dropped, the new one opens a pair if it is the first of one.
                    _ => {
                        if number % 2 == 1 {
                            self.pending = Some((number, score));
                        }
                        return false;
                    }
                }
            }
        }
        self.llr = llr(&self.spec, &self.counts);
        let (lower, upper) = self.spec.bounds();
        let decided = if self.llr >= upper {
            Some(Hypothesis::H1)
        } else if self.llr <= lower {
            Some(Hypothesis::H0)
        } else {
            None
        };
        self.verdict = decided.map(|h| (h, number));
        decided.is_some()
    }

    /// Complete units counted.
    pub fn units(&self) -> usize {
        self.counts.iter().sum()
    }

    /// The progress line's part: `LLR 1.23 [-2.94, 2.94]`, and the verdict once there.
    pub fn progress(&self) -> String {
        let (lower, upper) = self.spec.bounds();
        let mut text = format!("LLR {:.2} [{lower:.2}, {upper:.2}]", self.llr);
        if let Some((h, _)) = self.verdict {
            text.push_str(&format!(" {h:?} accepted"));
        }
        text
    }

    /// The summary's lines about the test.
    pub fn summary(&self) -> Vec<String> {
        let (lower, upper) = self.spec.bounds();
        let unit = match self.model {
            Model::Trinomial => "single games (trinomial: L, D, W)",
            Model::Pentanomial => {
                "pairs of games sharing an opening (pentanomial: LL, LD, LW+DD, DW, WW)"
            }
        };
        let mut out = vec![format!(
            "SPRT: H0 Elo A - B = {} against H1 = {} (logistic Elo), alpha {}, beta {}; \
             unit: {unit}; LLR: the GSPRT's maximized likelihood ratio",
            self.spec.elo0, self.spec.elo1, self.spec.alpha, self.spec.beta
        )];
        let counts: Vec<String> = self.counts.iter().map(usize::to_string).collect();
        out.push(format!(
            "SPRT counts: [{}] over {} games",
            counts.join(", "),
            self.games
        ));
        out.push(match self.verdict {
            Some((h, number)) => format!(
                "SPRT verdict: {h:?} accepted after {} games (at game {number}); LLR {:.3} \
                 (bounds {lower:.3}, {upper:.3})",
                self.games, self.llr
            ),
            None => format!(
                "SPRT verdict: none yet after {} games; LLR {:.3} within ({lower:.3}, \
                 {upper:.3})",
                self.games, self.llr
            ),
        });
        if let Some((s, lo, hi)) = score_interval(&self.counts) {
            out.push(format!(
                "SPRT Elo A - B: {} (95% interval {} to {}; score {:.1}%), over the games \
                 the test counted{}",
                format_elo(elo(s)),
                format_elo(elo(lo)),
                format_elo(elo(hi)),
                100.0 * s,
                if self.verdict.is_some() {
                    ", not corrected for stopping at a bound"
                } else {
                    ""
                }
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(s: &str) -> SprtSpec {
        s.parse().unwrap()
    }

    #[test]
    fn settings_are_parsed_and_checked() {
        let s = spec("0,10");
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 10.0, 0.05, 0.05));
        let (lo, hi) = s.bounds();
        assert!((lo + 2.944_438_979).abs() < 1e-6 && (hi - 2.944_438_979).abs() < 1e-6);
        assert_eq!(spec("-5, 5, 0.1, 0.2").to_string(), "-5,5,0.1,0.2");
        for bad in [
            "10",
            "10,0",
            "a,5",
            "0,5,0.05",
            "0,5,0,0.05",
            "0,5,0.05,0.5",
            "0,inf",
        ] {
            assert!(bad.parse::<SprtSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn llr_known_answers() {
        let s = spec("0,20");
        // Two wins: the most likely distributions put all they can on a win, so the LLR
        // is about 2·ln(s1/s0), not the quadratic formula's hundreds.
        let two = llr(&s, &[0, 0, 2]);
        let want = 2.0 * (expected_score(20.0) / 0.5).ln();
        assert!((two - want).abs() < 1e-3, "{two} vs {want}");
        // Many units: near the quadratic approximation N(s1-s0)(2m-s0-s1)/2v (4% apart
        // here, the score a long way from both hypotheses).
        let d = expected_score(20.0) - 0.5;
        let quadratic = 1000.0 * d * (1.2 - 1.0 - d) / 0.48;
        let exact = llr(&s, &[400, 0, 600]);
        assert!(
            (exact / quadratic - 1.0).abs() < 0.05,
            "{exact} vs {quadratic}"
        );
        // The mirror image of the results under the mirrored bounds.
        let m = llr(&spec("-20,0"), &[600, 0, 400]);
        assert!((m + exact).abs() < 1e-6, "{m} {exact}");
        assert_eq!(llr(&s, &[0, 0, 0]), 0.0);
        // Results exactly at the midpoint of the hypotheses: no evidence either way.
        let mid = expected_score(10.0);
        let counts = [
            (1000.0 * (1.0 - mid)).round() as usize,
            0,
            (1000.0 * mid).round() as usize,
        ];
        assert!(llr(&s, &counts).abs() < 0.05);
    }

    #[test]
    fn the_most_likely_distribution_has_the_mean() {
        let pdf = [(0.0, 0.2), (0.25, 0.1), (0.5, 0.3), (0.75, 0.1), (1.0, 0.3)];
        for s in [0.1, 0.5, 0.64, 0.9] {
            let q = most_likely_with_mean(&pdf, s);
            let total: f64 = q.iter().sum();
            let mean: f64 = q.iter().zip(&pdf).map(|(q, (a, _))| q * a).sum();
            assert!((total - 1.0).abs() < 1e-9 && (mean - s).abs() < 1e-9, "{s}");
        }
    }

    #[test]
    fn pairs_form_units_and_the_first_crossing_decides() {
        let mut t = Sprt::new(spec("0,200"), Model::Pentanomial);
        assert!(!t.add(1, 1.0));
        assert_eq!(t.units(), 0);
        t.add(2, 0.5);
        assert_eq!(t.counts, [0, 0, 0, 1, 0]);
        let mut n = 2;
        while t.verdict.is_none() {
            n += 1;
            t.add(n, 1.0);
            assert!(n < 100);
        }
        assert_eq!(t.verdict, Some((Hypothesis::H1, n)));
        assert_eq!(n % 2, 0);
        assert_eq!(t.games, n);
        let frozen = t.llr;
        t.add(n + 1, 0.0);
        assert_eq!((t.llr, t.games), (frozen, n));
        assert!(t.summary().join("\n").contains("H1 accepted"));
    }

    #[test]
    fn score_intervals() {
        let (s, lo, hi) = score_interval(&[40, 0, 60]).unwrap();
        assert!((s - 0.6).abs() < 1e-12);
        assert!((hi - s - Z95 * (0.24f64 / 100.0).sqrt()).abs() < 1e-12 && lo < s);
        assert_eq!(score_interval(&[0, 0, 3]), Some((1.0, 1.0, 1.0)));
        assert_eq!(score_interval(&[0, 0, 0]), None);
    }
}
