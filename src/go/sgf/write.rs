//! [`SgfGame`] -> SGF FF[4] text.

use crate::color::Color;
use crate::go::sgf::record::{SetupStone, SgfGame, point_text};
use crate::sgf::write::{push_main_line, push_move, push_property, push_setup, record_start};

/// Writes `game` as one FF[4] game tree, UTF-8, with its moves as the only line of play.
///
/// Layout: the root node on the first line (`FF`, `GM`, `CA`, `AP`, `SZ`, then whichever
/// game information is present, then the root setup), then up to ten moves per line. Setup
/// attached to a move gets a node of its own before the move, since FF[4] does not allow
/// setup and move properties in one node. Passes are written `[]`, never `tt`.
///
/// Points must lie on the board; one that does not is logged and dropped (a move becomes a
/// pass) rather than written as a file that cannot be read back. Likewise a non-finite
/// komi or time is left out.
pub fn write_game(game: &SgfGame) -> String {
    let size = game.size;
    let mut out = record_start(1, size);
    if let Some(komi) = game.komi.filter(|k| k.is_finite()) {
        push_property(&mut out, "KM", &komi.to_string());
    }
    if let Some(handicap) = game.handicap {
        push_property(&mut out, "HA", &handicap.to_string());
    }
    if let Some(rules) = &game.rules {
        push_property(&mut out, "RU", rules);
    }
    game.info.write(&mut out);
    push_setup(&mut out, &setup_points(&game.setup, size));

    push_main_line(&mut out, &game.moves, |out, m| {
        if !m.setup.is_empty() {
            out.push(';');
            push_setup(out, &setup_points(&m.setup, size));
        }
        let point = match m.point {
            None => String::new(),
            Some(p) => point_text(p, size).unwrap_or_else(|| {
                log::error!("SGF writer: move {p:?} is off a {size}x{size} board; writing a pass");
                String::new()
            }),
        };
        push_move(out, m.color, &point, m.comment.as_deref());
    });
    if !game.trailing_setup.is_empty() {
        out.push_str("\n;");
        push_setup(&mut out, &setup_points(&game.trailing_setup, size));
    }
    out.push_str(")\n");
    out
}

/// The SGF points of `stones`; one off a board of `size` is logged and dropped.
fn setup_points(stones: &[SetupStone], size: usize) -> Vec<(String, Option<Color>)> {
    let on_board = |stone: &SetupStone| match point_text(stone.point, size) {
        Some(text) => Some((text, stone.color)),
        None => {
            log::error!(
                "SGF writer: setup point {:?} is off a {size}x{size} board; dropped",
                stone.point
            );
            None
        }
    };
    stones.iter().filter_map(on_board).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::sgf::record::SgfMove;

    #[test]
    fn known_answer() {
        let mut game = SgfGame::new(9);
        game.komi = Some(7.0);
        game.rules = Some("Chinese".to_string());
        game.info.black_name = Some("a]b\\c".to_string());
        game.info.result = Some("B+R".to_string());
        game.setup = vec![
            SetupStone {
                point: (2, 2),
                color: Some(Color::White),
            },
            SetupStone {
                point: (0, 8),
                color: Some(Color::Black),
            },
        ];
        game.moves = vec![
            SgfMove {
                setup: vec![],
                color: Color::Black,
                point: Some((4, 4)),
                comment: Some("1.5s".to_string()),
            },
            SgfMove {
                setup: vec![SetupStone {
                    point: (8, 0),
                    color: None,
                }],
                color: Color::White,
                point: None,
                comment: None,
            },
        ];
        let version = env!("CARGO_PKG_VERSION");
        assert_eq!(
            write_game(&game),
            format!(
                "(;FF[4]GM[1]CA[UTF-8]AP[shicho:{version}]SZ[9]KM[7]RU[Chinese]PB[a\\]b\\\\c]\
                 RE[B+R]AB[aa]AW[cg]\n;B[ee]C[1.5s];AE[ii];W[])\n"
            )
        );
    }

    #[test]
    fn off_board_points_are_not_written() {
        let mut game = SgfGame::new(5);
        game.setup = vec![SetupStone {
            point: (5, 0),
            color: Some(Color::Black),
        }];
        game.moves = vec![SgfMove {
            setup: vec![],
            color: Color::Black,
            point: Some((0, 99)),
            comment: None,
        }];
        let text = write_game(&game);
        assert!(text.ends_with("SZ[5]\n;B[])\n"), "{text}");
    }

    #[test]
    fn long_games_break_lines() {
        let mut game = SgfGame::new(19);
        game.moves = (0..25)
            .map(|i| SgfMove {
                setup: vec![],
                color: if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
                point: None,
                comment: None,
            })
            .collect();
        let text = write_game(&game);
        assert_eq!(text.lines().count(), 4);
        assert!(text.lines().all(|l| l.len() < 80));
    }
}
