//! Oracle tests: seeded random Othello games on every even size 4..=26, played on the fast
//! `Game` and on the naive board side by side. After every move: every square, the legal
//! moves of both colours, the flips of every legal move of the side to move, pass and game
//! over, the disc counts, and the incremental hash against the recomputed one. On 8x8 the
//! general multi-word path is also held against the `u64` one. Some moves are undone and
//! replayed (undo must restore exactly), and forced passes are sometimes played explicitly,
//! sometimes inferred from a move by the other colour.

mod othello_naive;

use othello_naive::{Naive, TestRng};
use shicho::Color;
use shicho::othello::{Game, IllegalMove, Move, Square};

/// Every observable of `game` against `naive` (with `to_move` the naive side to move).
fn compare(game: &Game, naive: &Naive, to_move: Color, context: &str) {
    let b = game.board();
    let n = naive.size;
    for y in 0..n {
        for x in 0..n {
            assert_eq!(
                b.get(Square::new(x, y)),
                naive.get(x, y),
                "{context}: square ({x}, {y})\n{game}"
            );
        }
    }
    assert_eq!(game.to_move(), to_move, "{context}: side to move");
    assert_eq!(b.hash(), b.recomputed_hash(), "{context}: hash");
    for c in Color::ALL {
        assert_eq!(b.count(c) as i32, naive.count(c), "{context}: count");
        let fast: Vec<(usize, usize)> = b.legal_moves(c).iter().map(|s| (s.x(), s.y())).collect();
        assert_eq!(fast, naive.moves(c), "{context}: moves of {c}\n{game}");
        assert_eq!(b.has_moves(c), !fast.is_empty(), "{context}");
        if n == 8 {
            assert_eq!(
                b.legal_moves_general(c),
                b.legal_moves(c),
                "{context}: wide path"
            );
        }
    }
    for s in b.legal_moves(to_move) {
        let fast: Vec<(usize, usize)> =
            b.flips(to_move, s).iter().map(|f| (f.x(), f.y())).collect();
        assert_eq!(
            fast,
            naive.flips(to_move, s.x(), s.y()),
            "{context}: flips of {s}"
        );
        if n == 8 {
            assert_eq!(
                b.flips_general(to_move, s),
                b.flips(to_move, s),
                "{context}"
            );
        }
    }
    assert_eq!(game.is_over(), naive.game_over(), "{context}: game over");
}

/// One random game of `size` from `seed`; returns the number of moves played.
fn random_game(size: usize, seed: u64) -> usize {
    let mut rng = TestRng(seed);
    let mut game = Game::new(size).unwrap();
    let mut naive = Naive::new(size);
    let mut to_move = Color::Black;
    let mut moves = 0;
    compare(
        &game,
        &naive,
        to_move,
        &format!("{size}x{size} seed {seed} start"),
    );
    while !naive.game_over() {
        let context = format!("{size}x{size} seed {seed} move {moves}");
        let legal = naive.moves(to_move);
        if legal.is_empty() {
            // A forced pass: explicit half the time, otherwise inferred from the opponent's
            // move, which must then be legal for the opponent.
            assert_eq!(game.legal_moves(), [Move::Pass], "{context}");
            if rng.below(2) == 0 {
                game.play(Move::Pass).unwrap();
            } else {
                let (x, y) = naive.moves(to_move.other())[0];
                let played = game
                    .play_as(to_move.other(), Move::Play(Square::new(x, y)))
                    .unwrap();
                assert!(played.inferred_pass, "{context}");
                naive.play(to_move.other(), x, y);
                moves += 1;
                compare(&game, &naive, to_move, &context);
                continue;
            }
            to_move = to_move.other();
        } else {
            let (x, y) = legal[rng.below(legal.len())];
            let s = Square::new(x, y);
            // Off turn, a move is refused because the side to move can move.
            assert_eq!(
                game.play_as(to_move.other(), Move::Play(s)),
                Err(IllegalMove::WrongColor)
            );
            assert_eq!(game.play(Move::Pass), Err(IllegalMove::PassWithMoves));
            if rng.below(10) == 0 {
                // Undo restores exactly; then the move is played again.
                let before = game.clone();
                game.play(Move::Play(s)).unwrap();
                game.undo().unwrap();
                assert_eq!(game, before, "{context}: undo");
            }
            let flipped = game.play(Move::Play(s)).unwrap();
            assert_eq!(flipped as usize, naive.flips(to_move, x, y).len());
            naive.play(to_move, x, y);
            to_move = to_move.other();
        }
        moves += 1;
        compare(&game, &naive, to_move, &context);
    }
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.play(Move::Pass), Err(IllegalMove::GameOver));
    let s = game.score();
    let expected = match naive.count(Color::Black) - naive.count(Color::White) {
        0 => "0".to_string(),
        d if d > 0 => format!("B+{d}"),
        d => format!("W+{}", -d),
    };
    assert_eq!(s.to_string(), expected);
    moves
}

#[test]
fn random_games_on_every_size_agree_with_the_naive_rules() {
    for size in (4..=26).step_by(2) {
        // More games where games are short; a 26x26 game is about 700 moves.
        let games = if size <= 8 {
            12
        } else if size <= 14 {
            3
        } else {
            1
        };
        for g in 0..games {
            let seed = 1000 * size as u64 + g;
            let n = random_game(size, seed);
            assert!(n > 0);
        }
    }
}

#[test]
fn undo_takes_a_whole_game_back() {
    let mut rng = TestRng(7);
    let mut game = Game::new(8).unwrap();
    let start = game.clone();
    loop {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        game.play(legal[rng.below(legal.len())]).unwrap();
    }
    assert!(game.is_over());
    while game.undo().is_ok() {}
    assert_eq!(game, start);
}
