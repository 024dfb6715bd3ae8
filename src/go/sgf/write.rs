//! [`SgfGame`] -> SGF FF[4] text.

use crate::color::Color;
use crate::go::sgf::record::{SetupStone, SgfGame, point_text};
use crate::sgf::write::{MOVES_PER_LINE, push_property, push_value};

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
    let mut out = String::new();
    out.push_str("(;FF[4]GM[1]CA[UTF-8]");
    push_property(
        &mut out,
        "AP",
        &format!("shicho:{}", env!("CARGO_PKG_VERSION")),
    );
    push_property(&mut out, "SZ", &size.to_string());
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
    push_setup(&mut out, &game.setup, size);

    for (i, m) in game.moves.iter().enumerate() {
        if i % MOVES_PER_LINE == 0 {
            out.push('\n');
        }
        if !m.setup.is_empty() {
            out.push(';');
            push_setup(&mut out, &m.setup, size);
        }
        out.push(';');
        let point = match m.point {
            None => String::new(),
            Some(p) => point_text(p, size).unwrap_or_else(|| {
                log::error!("SGF writer: move {p:?} is off a {size}x{size} board; writing a pass");
                String::new()
            }),
        };
        push_property(&mut out, &m.color.letter().to_string(), &point);
        if let Some(comment) = &m.comment {
            push_property(&mut out, "C", comment);
        }
    }
    if !game.trailing_setup.is_empty() {
        out.push_str("\n;");
        push_setup(&mut out, &game.trailing_setup, size);
    }
    out.push_str(")\n");
    out
}

/// `AB`, `AW`, `AE` properties for `stones`, one per kind, each kind in list order.
fn push_setup(out: &mut String, stones: &[SetupStone], size: usize) {
    for (ident, color) in [
        ("AB", Some(Color::Black)),
        ("AW", Some(Color::White)),
        ("AE", None),
    ] {
        let mut first = true;
        for stone in stones.iter().filter(|s| s.color == color) {
            let Some(text) = point_text(stone.point, size) else {
                log::error!(
                    "SGF writer: setup point {:?} is off a {size}x{size} board; dropped",
                    stone.point
                );
                continue;
            };
            if first {
                out.push_str(ident);
                first = false;
            }
            push_value(out, &text);
        }
    }
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
