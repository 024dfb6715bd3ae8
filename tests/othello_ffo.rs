//! Published endgame positions (FFO #40-44, 20-23 empties): the solver's score and move
//! against the published ones. Seconds each in a release build, far longer in debug, so
//! they are ignored by default: `cargo test --release --test othello_ffo -- --ignored`
//! (the bench `scripts/bench othello solve` runs and times them too).

mod othello_ffo_data;

use othello_ffo_data::FFO;
use shicho::othello::solve;

#[test]
fn the_positions_are_what_the_suite_says() {
    for p in &FFO {
        let b = p.board();
        assert!((20..=23).contains(&b.empties()), "FFO #{}", p.number);
        assert!(b.has_moves(p.to_move));
        // The published best moves are legal here.
        for m in p.best {
            let s = shicho::othello::Square::parse(m, 8).unwrap();
            assert!(b.is_legal(p.to_move, s), "FFO #{} {m}", p.number);
        }
    }
}

#[test]
#[ignore = "seconds in release, minutes in debug: cargo test --release --test othello_ffo -- --ignored"]
fn solves_ffo_40_to_44() {
    for p in &FFO {
        let s = solve(&p.board(), p.to_move, 64).unwrap();
        assert_eq!(s.score, p.score, "FFO #{}", p.number);
        assert!(
            p.best.contains(&s.best.to_string().as_str()),
            "FFO #{}: {} is not a published best move",
            p.number,
            s.best
        );
    }
}
