//! The exact solver against plain minimax (tests/othello_naive) on random endgame positions
//! of several sizes, and on a few published positions of the FFO endgame suite.

mod othello_naive;

use othello_naive::{Naive, TestRng};
use shicho::Color;
use shicho::othello::{Board, Move, SolveError, Square, solve};

/// A random game from the start of `size`, stopped with `empties` empty squares and someone
/// to move; `None` if it ended before.
fn random_position(size: usize, empties: i32, rng: &mut TestRng) -> Option<(Naive, Color)> {
    let mut naive = Naive::new(size);
    let mut c = Color::Black;
    while naive.empties() > empties {
        let moves = naive.moves(c);
        if moves.is_empty() {
            if naive.moves(c.other()).is_empty() {
                return None;
            }
        } else {
            let (x, y) = moves[rng.below(moves.len())];
            naive.play(c, x, y);
        }
        c = c.other();
    }
    (!naive.game_over()).then_some((naive, c))
}

fn to_board(naive: &Naive) -> Board {
    let mut b = Board::empty(naive.size).unwrap();
    for y in 0..naive.size {
        for x in 0..naive.size {
            b.set(Square::new(x, y), naive.get(x, y));
        }
    }
    b
}

/// Solves `count` random positions and checks the score, and that the best move reaches it.
fn check(size: usize, empties: std::ops::RangeInclusive<i32>, count: usize, seed: u64) {
    let mut rng = TestRng(seed);
    let mut done = 0;
    while done < count {
        let e = *empties.start() + rng.below(empties.clone().count()) as i32;
        let Some((mut naive, c)) = random_position(size, e, &mut rng) else {
            continue;
        };
        let board = to_board(&naive);
        let s = solve(&board, c, 64).unwrap();
        let expected = naive.minimax(c);
        assert_eq!(s.score, expected, "{size}x{size}, {c} to move:\n{board}");
        // The best move must be worth the score.
        let after = match s.best {
            Move::Play(sq) => {
                let mut next = naive.clone();
                next.play(c, sq.x(), sq.y());
                -next.minimax(c.other())
            }
            Move::Pass => {
                assert!(naive.moves(c).is_empty());
                -naive.minimax(c.other())
            }
        };
        assert_eq!(
            after, expected,
            "{size}x{size}: best move {} is not best",
            s.best
        );
        done += 1;
    }
}

#[test]
fn four_by_four_from_the_start() {
    let mut naive = Naive::new(4);
    let board = to_board(&naive);
    let s = solve(&board, Color::Black, 12).unwrap();
    assert_eq!(s.score, naive.minimax(Color::Black));
}

#[test]
fn random_endgames_of_8x8() {
    check(8, 4..=9, 25, 1);
    check(8, 10..=10, 1, 6);
}

#[test]
fn random_endgames_of_6x6() {
    check(6, 4..=9, 15, 2);
}

#[test]
fn random_endgames_of_10x10_and_26x26() {
    check(10, 4..=8, 8, 3);
    check(26, 3..=5, 3, 4);
}

/// Plain minimax of 12 empties takes minutes in a debug build.
#[test]
#[ignore = "slow in debug: cargo test --release --test othello_solve -- --ignored"]
fn a_few_positions_with_12_empties() {
    check(8, 12..=12, 2, 5);
}

#[test]
fn refuses_beyond_the_limit() {
    let b = Board::new(8).unwrap();
    assert_eq!(
        solve(&b, Color::Black, 59),
        Err(SolveError::TooManyEmpties {
            empties: 60,
            limit: 59
        })
    );
}

/// Solves keep their table for the next (stale, not cleared): a position solved again after
/// another one searches the same nodes to the same answer as the first time.
#[test]
fn a_kept_table_searches_as_a_fresh_one() {
    let mut rng = TestRng(7);
    let positions: Vec<(Naive, Color)> =
        std::iter::from_fn(|| Some(random_position(8, 16, &mut rng)))
            .flatten()
            .take(2)
            .collect();
    let solve_at = |k: usize| solve(&to_board(&positions[k].0), positions[k].1, 64).unwrap();
    let first = solve_at(0);
    solve_at(1);
    let again = solve_at(0);
    assert!(
        first.nodes > 1000,
        "{} nodes: too few to use the table",
        first.nodes
    );
    assert_eq!(
        (again.best, again.score, again.nodes),
        (first.best, first.score, first.nodes)
    );
}
