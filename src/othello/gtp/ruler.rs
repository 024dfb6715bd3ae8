//! Othello under GoGui's ruler commands (`gtp::ruler`).

use crate::color::{ByColor, Color};
use crate::gtp::ruler::RulerGame;
use crate::othello::{Game, Move};

/// Othello as GoGui shows it. GoGui names points the Go way (rows counted from the
/// bottom), Othello front ends count rows from the top; so the rows are given bottom row
/// first: GoGui then draws row 1 at the bottom and its labels read as Othello's own
/// notation (`D3` is d3), and its moves reach `play` in the form the Othello commands
/// parse. (The picture is the start position mirrored top to bottom; the game is the
/// same.) GoGui skips the letter `I`, so this holds up to 8x8, the board Othello is played
/// on.
impl RulerGame for Game {
    fn game_id(&self) -> &'static str {
        "Othello"
    }

    fn board_size(&self) -> usize {
        self.size()
    }

    fn rows(&self) -> Vec<String> {
        let mut rows = self.board().rows();
        rows.reverse();
        rows
    }

    /// The disc moves, or `pass` alone when the side to move has none; empty at the end.
    fn legal_moves(&self) -> Vec<String> {
        let moves = Game::legal_moves(self);
        moves
            .iter()
            .map(|m| match m {
                Move::Play(s) => s.to_string(),
                Move::Pass => "pass".to_string(),
            })
            .collect()
    }

    fn side_to_move(&self) -> Color {
        self.to_move()
    }

    fn final_result(&self) -> String {
        let s = self.score();
        let counts = format!("Black {} discs, White {}", s.black, s.white);
        match s.winner() {
            None => format!("Draw. {counts}."),
            Some(c) => format!(
                "{} wins by {} ({s}). {counts}.",
                if c == Color::Black { "Black" } else { "White" },
                s.difference().abs()
            ),
        }
    }

    /// Discs each colour has turned over since the start.
    fn captured(&self) -> ByColor<u32> {
        let (start, _) = self.start();
        let mut board = start.clone();
        let mut flipped = ByColor::new(0, 0);
        for turn in self.history() {
            if let Move::Play(square) = turn.mv {
                // The history holds only legal moves, so replaying them cannot fail.
                flipped[turn.color] += board.play(turn.color, square).unwrap_or(0);
            }
        }
        flipped
    }

    /// A small square on each legal move of the side to move, and the disc counts in the
    /// status bar.
    fn board_gfx(&self) -> Option<String> {
        let s = self.score();
        let mut gfx = Vec::new();
        let squares: Vec<String> = self
            .board()
            .legal_moves(self.to_move())
            .iter()
            .map(|sq| sq.to_string())
            .collect();
        if !squares.is_empty() && !self.is_over() {
            gfx.push(format!("SQUARE {}", squares.join(" ")));
        }
        gfx.push(format!("TEXT Black {}  White {}", s.black, s.white));
        Some(gfx.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn othello_rows_put_row_one_at_the_bottom() {
        let mut g = Game::new(8).unwrap();
        let d3 = Move::parse("d3", 8).unwrap();
        g.play(d3).unwrap();
        let rows = RulerGame::rows(&g);
        // Othello's row 3 (third from the top) is GoGui's row 3 (third from the bottom).
        assert_eq!(rows[5], "...X....");
        assert_eq!(rows[4], "...XX...");
        assert_eq!(rows[3], "...XO...");
        assert_eq!(RulerGame::side_to_move(&g), Color::White);
        assert_eq!(RulerGame::captured(&g), ByColor::new(1, 0));
        assert_eq!(RulerGame::legal_moves(&g), ["C3", "E3", "C5"]);
        let gfx = RulerGame::board_gfx(&g).unwrap();
        assert_eq!(gfx, "SQUARE C3 E3 C5\nTEXT Black 4  White 1");
    }

    #[test]
    fn othello_final_result_counts_discs() {
        let mut g = Game::new(4).unwrap();
        while let Some(&m) = Game::legal_moves(&g).first() {
            g.play(m).unwrap();
        }
        assert!(RulerGame::legal_moves(&g).is_empty());
        let s = g.score();
        let text = RulerGame::final_result(&g);
        assert!(
            text.contains(&format!("Black {} discs, White {}", s.black, s.white)),
            "{text}"
        );
    }
}
