//! Positions 20 to 59 of the FFO endgame test suite (#40-#59 are Gunnar Andersson's
//! selection of positions from tournament games; #20-#39 the easier set that Edax's author
//! added in front of them), with their published best moves and exact scores; shared by
//! `tests/othello_ffo.rs` and `benches/othello.rs`.
//!
//! `ffo-20-59.txt` has one position a line: its number, the board (64 characters, a1 b1 ..
//! h1 then a2 .. h8, row 1 at the top; `X` Black, `O` White, `-` empty), the side to move,
//! the exact score for the side to move (empties to the winner) and every best move.

// The bench and the test use different parts.
#![allow(dead_code)]

use std::sync::atomic::AtomicBool;

use shicho::Color;
use shicho::othello::{Board, Limits, Solution, SolveOptions, Square, solve_with};

pub struct Ffo {
    pub number: u32,
    pub board: &'static str,
    pub to_move: Color,
    /// Every best move, as published.
    pub best: Vec<&'static str>,
    pub score: i32,
}

const TEXT: &str = include_str!("ffo-20-59.txt");

/// Every position, in order.
pub fn all() -> Vec<Ffo> {
    TEXT.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(f.len(), 5, "{line}");
            Ffo {
                number: f[0].parse().unwrap(),
                board: f[1],
                to_move: if f[2] == "X" {
                    Color::Black
                } else {
                    Color::White
                },
                score: f[3].parse().unwrap(),
                best: f[4].split(',').collect(),
            }
        })
        .collect()
}

/// The positions numbered `first..=last`.
pub fn range(first: u32, last: u32) -> Vec<Ffo> {
    all()
        .into_iter()
        .filter(|p| (first..=last).contains(&p.number))
        .collect()
}

impl Ffo {
    pub fn board(&self) -> Board {
        let mut b = Board::empty(8).unwrap();
        for (i, ch) in self.board.chars().enumerate() {
            let disc = match ch {
                'X' => Some(Color::Black),
                'O' => Some(Color::White),
                _ => None,
            };
            b.set(Square::from_index(i, 8), disc);
        }
        b
    }

    /// Solves it without limits (any number of empties) with `options`.
    pub fn solve(&self, options: &SolveOptions) -> Solution {
        let stop = AtomicBool::new(false);
        solve_with(
            &self.board(),
            self.to_move,
            64,
            &Limits::default(),
            &stop,
            options,
            &mut |_| {},
        )
        .expect("a solve without limits finishes")
    }

    /// Asserts that `s` solves this position: its score, and a published best move (as the
    /// engine writes it: `A2`). `how` names the solver's settings in a failure.
    pub fn assert_solved(&self, s: &Solution, how: &str) {
        assert_eq!(s.score, self.score, "FFO #{} ({how})", self.number);
        let mv = s.best.to_string();
        assert!(
            self.best.contains(&mv.as_str()),
            "FFO #{} ({how}): {mv} is not a published best move",
            self.number
        );
    }
}
