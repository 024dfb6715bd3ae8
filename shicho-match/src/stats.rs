//! Match statistics: results per engine and colour, the win rate with its 95% interval, and
//! the Elo difference that goes with it.
//!
//! With `n` games and a score `s` = wins + draws / 2 for engine A, the win rate is
//! `p = s / n`. Its 95% interval is Wilson's score interval, which unlike the textbook
//! `p ± 1.96·sqrt(p(1-p)/n)` stays inside [0, 1] and does not collapse to a point at 0 or n
//! wins:
//!
//! ```text
//! centre = (p + z²/2n) / (1 + z²/n)
//! half   = z / (1 + z²/n) · sqrt(p(1-p)/n + z²/4n²)        z = 1.96
//! ```
//!
//! The Elo difference is the logistic model's `D = -400·log10(1/p - 1)`, and its error bar
//! is that formula applied to the interval's ends (the map is monotone, so the ends carry
//! over). At p = 0 or 1 the difference is infinite and is printed as `-inf`/`+inf`; the
//! interval's other end still bounds it. Draws counting half is the usual convention and
//! keeps a draw-heavy match from looking more decisive than it is.

use std::collections::BTreeMap;
use std::fmt;

use shicho::Color;

use crate::game::{EndReason, GameRecord, Outcome};
use crate::rating::{Z95, elo, format_elo, wilson};

/// Wins, losses and draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wld {
    pub wins: usize,
    pub losses: usize,
    pub draws: usize,
}

impl Wld {
    pub fn games(&self) -> usize {
        self.wins + self.losses + self.draws
    }

    fn plus(self, o: Wld) -> Wld {
        Wld {
            wins: self.wins + o.wins,
            losses: self.losses + o.losses,
            draws: self.draws + o.draws,
        }
    }
}

impl fmt::Display for Wld {
    /// `wins-losses-draws`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}-{}", self.wins, self.losses, self.draws)
    }
}

/// Running totals over the games of a match. Engine 0 is "A", engine 1 is "B".
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub names: [String; 2],
    pub games: usize,
    /// `[engine][colour index]`
    pub by_colour: [[Wld; 2]; 2],
    pub reasons: BTreeMap<EndReason, usize>,
    pub moves: usize,
    /// Wall seconds in `genmove`, and the number of answers, per engine.
    pub think: [f64; 2],
    pub engine_moves: [usize; 2],
    /// CPU seconds per engine over the games where `cputime` was known, and their number.
    pub cpu: [f64; 2],
    pub cpu_games: [usize; 2],
}

impl Tally {
    pub fn new(names: [String; 2]) -> Tally {
        Tally {
            names,
            ..Tally::default()
        }
    }

    pub fn add(&mut self, r: &GameRecord) {
        self.add_outcome(&r.outcome());
    }

    pub fn add_outcome(&mut self, r: &Outcome) {
        self.games += 1;
        *self.reasons.entry(r.reason).or_default() += 1;
        self.moves += r.moves;
        for c in Color::ALL {
            let e = r.engine_of(c);
            let wld = &mut self.by_colour[e][c.index()];
            match r.winner {
                None => wld.draws += 1,
                Some(w) if w == c => wld.wins += 1,
                Some(_) => wld.losses += 1,
            }
            if let Some(n) = r.engine_moves {
                self.think[e] += r.think[c];
                self.engine_moves[e] += n[c];
            }
            if let Some(cpu) = r.cpu[c] {
                self.cpu[e] += cpu;
                self.cpu_games[e] += 1;
            }
        }
    }

    /// Engine `e`'s results over both colours.
    pub fn record(&self, e: usize) -> Wld {
        self.by_colour[e][0].plus(self.by_colour[e][1])
    }

    /// Engine A's score rate (draws half), `None` before any game.
    pub fn win_rate(&self) -> Option<f64> {
        let r = self.record(0);
        (self.games > 0).then(|| (r.wins as f64 + r.draws as f64 / 2.0) / self.games as f64)
    }

    /// The 95% Wilson interval of engine A's win rate.
    pub fn interval(&self) -> (f64, f64) {
        let r = self.record(0);
        wilson(r.wins as f64 + r.draws as f64 / 2.0, self.games as f64, Z95)
    }

    /// The live progress line (no line end).
    pub fn progress_line(&self, total: usize) -> String {
        let (a, b) = (self.record(0), self.record(1));
        let rate = self.win_rate().map_or("-".to_string(), |p| {
            let (lo, hi) = self.interval();
            format!("{:.1}% [{:.1}%, {:.1}%]", 100.0 * p, 100.0 * lo, 100.0 * hi)
        });
        format!(
            "games {}/{total}  {} {} - {} {}  draws {}  A win rate {rate}",
            self.games, self.names[0], a.wins, b.wins, self.names[1], a.draws
        )
    }

    /// The end-of-match summary, one fact per line, after the `title` line.
    pub fn summary(&self, title: &str) -> String {
        let mut out = vec![title.to_string()];
        for e in 0..2 {
            let r = self.record(e);
            out.push(format!(
                "{} = {}: {} wins, {} losses, {} draws (as Black {}, as White {})",
                ["A", "B"][e],
                self.names[e],
                r.wins,
                r.losses,
                r.draws,
                self.by_colour[e][0],
                self.by_colour[e][1]
            ));
        }
        let black = self.by_colour[0][0].plus(self.by_colour[1][0]);
        out.push(format!(
            "by colour: Black won {}, White won {}, draws {}",
            black.wins, black.losses, black.draws
        ));
        if let Some(p) = self.win_rate() {
            let (lo, hi) = self.interval();
            out.push(format!(
                "A win rate: {:.1}% (95% Wilson interval {:.1}% to {:.1}%, draws count half)",
                100.0 * p,
                100.0 * lo,
                100.0 * hi
            ));
            out.push(format!(
                "Elo A - B: {} (95% interval {} to {})",
                format_elo(elo(p)),
                format_elo(elo(lo)),
                format_elo(elo(hi))
            ));
            let reasons: Vec<String> = self
                .reasons
                .iter()
                .map(|(r, n)| format!("{r} {n}"))
                .collect();
            out.push(format!("ended by: {}", reasons.join(", ")));
            let per_move = |e: usize| {
                if self.engine_moves[e] == 0 {
                    "-".to_string()
                } else {
                    format!("{:.3} s", self.think[e] / self.engine_moves[e] as f64)
                }
            };
            let per_game = |e: usize| {
                if self.cpu_games[e] == 0 {
                    "-".to_string()
                } else {
                    format!("{:.2} s", self.cpu[e] / self.cpu_games[e] as f64)
                }
            };
            out.push(format!(
                "average game length: {:.1} moves; time per move: A {}, B {}; CPU per game: A {}, B {}",
                self.moves as f64 / self.games as f64,
                per_move(0),
                per_move(1),
                per_game(0),
                per_game(1)
            ));
        }
        out.join("\n")
    }
}
