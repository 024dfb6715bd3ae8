//! Othello under GoGui's ruler commands (`gtp::ruler`).
//!
//! GoGui names points the Go way (rows counted from the bottom), Othello front ends count
//! rows from the top; so the rows are given bottom row first: GoGui then draws row 1 at the
//! bottom and its labels read as Othello's own notation (`D3` is d3), and its moves reach
//! `play` in the form the Othello commands parse. (The picture is the start position
//! mirrored top to bottom; the game is the same.) GoGui skips the letter `I`, so this holds
//! up to 8x8, the board Othello is played on.

use crate::color::Color;
use crate::game::BoardGame;
use crate::gtp::ruler::Ruled;
use crate::othello::Game;
use crate::othello::gtp::state::OthelloState;

impl Ruled for OthelloState {
    type Game = Game;

    fn ruled(&self) -> &Game {
        self.game()
    }

    fn game_id(&self) -> &'static str {
        "Othello"
    }

    fn final_result(&self) -> String {
        final_result(self.game())
    }

    fn gogui_rows(&self) -> Vec<String> {
        gogui_rows(self.game())
    }

    fn board_gfx(&self) -> Option<String> {
        Some(board_gfx(self.game()))
    }
}

/// The rows bottom row first (see above).
fn gogui_rows(game: &Game) -> Vec<String> {
    let mut rows = game.rows();
    rows.reverse();
    rows
}

fn final_result(game: &Game) -> String {
    let s = game.score();
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

/// A small square on each legal move of the side to move, and the disc counts in the
/// status bar.
fn board_gfx(game: &Game) -> String {
    let s = game.score();
    let mut gfx = Vec::new();
    let squares: Vec<String> = game
        .board()
        .legal_moves(game.to_move())
        .iter()
        .map(|sq| sq.to_string())
        .collect();
    if !squares.is_empty() && !game.is_over() {
        gfx.push(format!("SQUARE {}", squares.join(" ")));
    }
    gfx.push(format!("TEXT Black {}  White {}", s.black, s.white));
    gfx.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::ByColor;
    use crate::othello::Move;

    #[test]
    fn othello_rows_put_row_one_at_the_bottom() {
        let mut g = Game::new(8).unwrap();
        let d3 = Move::parse("d3", 8).unwrap();
        g.play(d3).unwrap();
        let rows = gogui_rows(&g);
        // Othello's row 3 (third from the top) is GoGui's row 3 (third from the bottom).
        assert_eq!(rows[5], "...X....");
        assert_eq!(rows[4], "...XX...");
        assert_eq!(rows[3], "...XO...");
        assert_eq!(BoardGame::to_move(&g), Color::White);
        assert_eq!(BoardGame::captured(&g), ByColor::new(1, 0));
        let legal: Vec<String> = BoardGame::legal_moves(&g)
            .into_iter()
            .map(|m| g.format_move(m))
            .collect();
        assert_eq!(legal, ["C3", "E3", "C5"]);
        assert_eq!(board_gfx(&g), "SQUARE C3 E3 C5\nTEXT Black 4  White 1");
    }

    #[test]
    fn othello_final_result_counts_discs() {
        let mut g = Game::new(4).unwrap();
        while let Some(&m) = Game::legal_moves(&g).first() {
            g.play(m).unwrap();
        }
        assert!(BoardGame::legal_moves(&g).is_empty());
        let s = g.score();
        let text = final_result(&g);
        assert!(
            text.contains(&format!("Black {} discs, White {}", s.black, s.white)),
            "{text}"
        );
    }
}
