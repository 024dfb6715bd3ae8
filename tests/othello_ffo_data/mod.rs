//! Positions 40 to 44 of the FFO endgame test suite (Gunnar Andersson's selection of
//! positions from tournament games, with their published best moves and exact scores),
//! shared by `tests/othello_ffo.rs` and `benches/othello.rs`.
//!
//! Each board is 64 characters, a1 b1 .. h1 then a2 .. h8 (row 1 at the top), `b` Black,
//! `w` White, `.` empty. Scores are for the side to move, empties to the winner.

// The bench and the test use different parts.
#![allow(dead_code)]

use shicho::Color;
use shicho::othello::{Board, Square};

pub struct Ffo {
    pub number: u32,
    pub board: &'static str,
    pub to_move: Color,
    /// Every best move, as published.
    pub best: &'static [&'static str],
    pub score: i32,
}

pub const FFO: [Ffo; 5] = [
    Ffo {
        number: 40,
        board: "w..wwwwb.wwwwwwbwwbbwwwbwwbwwwbbwwwwwwbb...wwwwb....w..b........",
        to_move: Color::Black,
        best: &["A2"],
        score: 38,
    },
    Ffo {
        number: 41,
        board: ".wwwww....wwwwb..wwwwww.bbbbbww..bbwwb..wwbwbb....wbbw...www..w.",
        to_move: Color::Black,
        best: &["H4"],
        score: 0,
    },
    Ffo {
        number: 42,
        board: "..www.......bb.wwwwwwbww.wwwwbwwb.wwwbbw...wwbww...wwwbw..wwww..",
        to_move: Color::Black,
        best: &["G2"],
        score: 6,
    },
    Ffo {
        number: 43,
        board: "..bbbbb...bbbb...wwwbb...wwbbbb..wwbbbw.wwwwbww....bwb....bbbbb.",
        to_move: Color::White,
        best: &["G3", "C7"],
        score: -12,
    },
    Ffo {
        number: 44,
        board: "..w.b.w...w.bw.w.wwbbbwwwwwwbbbwwwwwbb..bbwwbw....bbbb.....bbb..",
        to_move: Color::White,
        best: &["D2", "B8"],
        score: -14,
    },
];

impl Ffo {
    pub fn board(&self) -> Board {
        let mut b = Board::empty(8).unwrap();
        for (i, ch) in self.board.chars().enumerate() {
            let disc = match ch {
                'b' => Some(Color::Black),
                'w' => Some(Color::White),
                _ => None,
            };
            b.set(Square::from_index(i, 8), disc);
        }
        b
    }
}
