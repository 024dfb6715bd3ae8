//! The players: the greedy rule against a naive reading of it on random positions of every
//! size (4x4 and 26x26 included), and the searcher against greedy and random in short
//! deterministic games (the timed matches are in `benches/othello.rs` and, over GTP, the
//! match runner).

mod othello_naive;

use std::sync::atomic::AtomicBool;

use othello_naive::{Naive, TestRng};
use shicho::Color;
use shicho::Rng;
use shicho::othello::{Game, Limits, Move, Searcher, Square, greedy_move, random_move};

#[test]
fn greedy_follows_the_rule_on_random_positions_of_every_size() {
    let mut rng = TestRng(11);
    for size in (4..=26).step_by(2) {
        let mut checked = 0;
        // A 26x26 game is some 700 positions.
        let games = if size <= 12 { 3 } else { 1 };
        for _game in 0..games {
            let mut naive = Naive::new(size);
            let mut game = Game::new(size).unwrap();
            let mut c = Color::Black;
            while !naive.game_over() {
                for colour in Color::ALL {
                    let fast = greedy_move(game.board(), colour).map(|s| (s.x(), s.y()));
                    assert_eq!(fast, naive.greedy(colour), "{size}x{size}\n{game}");
                    checked += 1;
                }
                let moves = naive.moves(c);
                if moves.is_empty() {
                    game.play(Move::Pass).unwrap();
                } else {
                    // Mostly random moves, for varied positions.
                    let (x, y) = moves[rng.below(moves.len())];
                    naive.play(c, x, y);
                    game.play(Move::Play(Square::new(x, y))).unwrap();
                }
                c = c.other();
            }
        }
        assert!(checked > 0);
    }
}

/// A game from `game` with `black` and `white` choosing; returns Black's disc difference.
fn play_out(
    mut game: Game,
    mut choose: impl FnMut(&Game, Color) -> Option<Square>,
    searcher_colour: Color,
    depth: u32,
) -> i32 {
    let mut searcher = Searcher::new();
    let stop = AtomicBool::new(false);
    while !game.is_over() {
        let c = game.to_move();
        let mv = if c == searcher_colour {
            searcher
                .choose(game.board(), c, &Limits::depth(depth), &stop, &mut |_| {})
                .best()
        } else {
            choose(&game, c).map_or(Move::Pass, Move::Play)
        };
        game.play(mv).unwrap();
    }
    game.score().difference()
}

/// Openings: `plies` random moves from the start.
fn opening(size: usize, plies: usize, seed: u64) -> Game {
    let mut rng = Rng::new(seed);
    let mut g = Game::new(size).unwrap();
    for _ in 0..plies {
        let m = random_move(g.board(), g.to_move(), &mut rng).map_or(Move::Pass, Move::Play);
        g.play(m).unwrap();
    }
    g
}

#[test]
fn the_searcher_at_depth_3_beats_greedy_from_varied_openings() {
    for seed in 0..3 {
        for searcher in Color::ALL {
            let start = opening(8, 4, seed);
            let diff = play_out(start, |g, c| greedy_move(g.board(), c), searcher, 3);
            let mine = if searcher == Color::Black {
                diff
            } else {
                -diff
            };
            assert!(mine > 0, "seed {seed}, searcher {searcher}: {diff}");
        }
    }
}

#[test]
fn the_searcher_beats_random_on_6x6_and_10x10() {
    let mut rng = Rng::new(5);
    // Depth 1 on 10x10: the multi-word board is slow in a debug build.
    for (size, seed, depth) in [(6, 1, 3), (6, 2, 3), (10, 3, 1)] {
        for searcher in Color::ALL {
            let diff = play_out(
                opening(size, 2, seed),
                |g, c| random_move(g.board(), c, &mut rng),
                searcher,
                depth,
            );
            let mine = if searcher == Color::Black {
                diff
            } else {
                -diff
            };
            assert!(
                mine > 0,
                "{size}x{size} seed {seed}, searcher {searcher}: {diff}"
            );
        }
    }
}
