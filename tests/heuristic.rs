//! The heuristic player's choices on diagrams, and a fuzz test of legality under every preset.

use shicho::go::search::heuristic::{Choice, REG_GENMOVE_SEED, Reason, choose, genmove};
use shicho::{Board, Color, Game, Geometry, Move, PRESETS, Rng, Rules, Topology};

fn game(text: &str, to_move: Color) -> Game {
    let n = text
        .lines()
        .filter(|l| l.chars().any(|c| matches!(c, '.' | 'X' | 'O')))
        .count();
    let board = Board::from_diagram(Geometry::get(n, Topology::Plane).unwrap(), text).unwrap();
    Game::with_position(board, to_move, Rules::default(), 7.5)
}

fn pick(g: &Game, c: Color) -> (String, Reason) {
    let Choice { mv, reason } = choose(g, c, &mut Rng::new(REG_GENMOVE_SEED));
    (g.geometry().format_move(mv), reason)
}

/// The ladder tutorial (White G7 G6; Black G8 F7 H7 H6) with `extra` stones.
fn tutorial(extra: &[(&str, char)]) -> String {
    let mut rows: Vec<Vec<char>> = vec![vec!['.'; 9]; 9];
    let geo = Geometry::get(9, Topology::Plane).unwrap();
    let base = [
        ("G7", 'O'),
        ("G6", 'O'),
        ("G8", 'X'),
        ("F7", 'X'),
        ("H7", 'X'),
        ("H6", 'X'),
    ];
    for (v, c) in base.iter().chain(extra) {
        let (x, y) = geo.xy(geo.parse_point(v).unwrap());
        rows[8 - y][x] = *c;
    }
    rows.iter()
        .map(|r| r.iter().collect::<String>() + "\n")
        .collect()
}

#[test]
fn plays_the_working_ladder() {
    let g = game(&tutorial(&[]), Color::Black);
    assert_eq!(pick(&g, Color::Black), ("G5".into(), Reason::Attack));
}

#[test]
fn plays_the_net_when_the_ladder_fails() {
    let g = game(&tutorial(&[("D3", 'O')]), Color::Black);
    assert_eq!(pick(&g, Color::Black), ("F5".into(), Reason::Attack));
}

#[test]
fn does_not_extend_a_dead_ladder() {
    // After Black's atari at G5 White is dead in the ladder: F6 would be a wasted move.
    let g = game(&tutorial(&[("G5", 'X')]), Color::White);
    let (mv, reason) = pick(&g, Color::White);
    assert_ne!(mv, "F6");
    assert_eq!(reason, Reason::Shape);
}

#[test]
fn escapes_when_it_can() {
    // With a breaker at D3 the same atari does not work: White runs at F6.
    let g = game(&tutorial(&[("G5", 'X'), ("D3", 'O')]), Color::White);
    assert_eq!(pick(&g, Color::White), ("F6".into(), Reason::Save));
}

#[test]
fn escapes_by_capturing_a_chasing_stone() {
    // White B3 in atari; extending at C3 fails but capturing Black B2 at C2 works.
    let g = game(
        "
        . . . . .
        . X X . .
        X O . X .
        O X . . .
        . O . . .",
        Color::White,
    );
    let (mv, reason) = pick(&g, Color::White);
    assert_eq!(mv, "C2");
    assert!(matches!(reason, Reason::Capture | Reason::Save));
}

#[test]
fn captures_the_big_chain() {
    // Black can take the single white stone at A9 (at A8) or the three stones E5 E4 E3
    // (at E2): the three.
    let g = game(
        "
        O X . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . X . . . .
        . . . X O X . . .
        . . . X O X . . .
        . . . X O X . . .
        . . . . . . . . .
        . . . . . . . . .",
        Color::Black,
    );
    assert_eq!(pick(&g, Color::Black), ("E2".into(), Reason::Capture));
}

#[test]
fn never_fills_its_own_eyes() {
    // Black lives with two eyes (A1, C1); the rest is White's. Black has nothing to do.
    let g = game(
        "
        . . . . .
        . . . . .
        O O O O O
        X X X X O
        . X . X O",
        Color::Black,
    );
    let (mv, _) = pick(&g, Color::Black);
    assert!(mv != "A1" && mv != "C1", "{mv}");
}

#[test]
fn passes_when_nothing_is_left() {
    let g = game(
        "
        . X O . .
        X X O . .
        . X O O O
        X X X X O
        . X . X O",
        Color::Black,
    );
    assert_eq!(pick(&g, Color::Black), ("PASS".into(), Reason::Pass));
}

#[test]
fn reg_genmove_is_deterministic() {
    let g = game(&tutorial(&[("D3", 'O'), ("C6", 'X')]), Color::White);
    let first = pick(&g, Color::White);
    for _ in 0..3 {
        assert_eq!(pick(&g, Color::White), first);
    }
}

#[test]
fn opens_on_a_sensible_point() {
    let g = Game::new(19, Rules::default(), 7.5).unwrap();
    let (mv, reason) = pick(&g, Color::Black);
    assert_eq!(reason, Reason::Shape);
    let p = g.geometry().parse_point(&mv).unwrap();
    let (x, y) = g.geometry().xy(p);
    let line = x.min(y).min(18 - x).min(18 - y);
    assert!((2..=3).contains(&line), "{mv}");
}

/// Random games under every preset (torus included): every generated move is legal, and
/// playing it keeps the game going until two passes.
#[test]
fn fuzz_genmove_is_always_legal() {
    let mut rng = Rng::new(7);
    for &(name, rules) in PRESETS.iter() {
        for size in [2, 3, 5, 7, 9] {
            let mut g = Game::new(size, rules, 7.5).unwrap();
            let mut color = Color::Black;
            let mut passes = 0;
            for turn in 0..120 {
                // Mostly random moves, to reach odd positions; genmove every third turn.
                let mv = if turn % 3 == 2 {
                    let mv = genmove(&g, color, &mut rng);
                    assert!(
                        g.is_legal(color, mv),
                        "{name} {size}: {mv:?}\n{:?}",
                        g.board()
                    );
                    mv
                } else {
                    let empties = g.board().empties().to_vec();
                    let start = (rng.next_u64() % (empties.len() as u64 + 1)) as usize;
                    empties
                        .iter()
                        .cycle()
                        .skip(start)
                        .take(empties.len())
                        .map(|&p| Move::Play(p))
                        .find(|&m| {
                            g.is_legal(color, m)
                                && !g.board().is_eye_shape(color, m.point().unwrap())
                        })
                        .unwrap_or(Move::Pass)
                };
                g.play(color, mv).unwrap();
                passes = if mv.is_pass() { passes + 1 } else { 0 };
                if passes == 2 {
                    break;
                }
                color = !color;
            }
        }
    }
}
