//! Published endgame positions (FFO #20-59, 6-34 empties): the data against the rules, and
//! the solver's score and move against the published ones on the positions that solve in
//! well under a second even in a debug build. The rest are the bench's
//! (`scripts/bench othello ffo 20-39`, `scripts/bench othello ffo 40-59`).

mod othello_ffo_data;

use shicho::othello::{Evaluation, SolveOptions, solve};

#[test]
fn the_positions_are_what_the_suite_says() {
    let all = othello_ffo_data::all();
    assert_eq!(all.len(), 40);
    for (p, n) in all.iter().zip(20..) {
        assert_eq!(p.number, n);
        let b = p.board();
        assert!((6..=34).contains(&b.empties()), "FFO #{}", p.number);
        assert!(b.has_moves(p.to_move));
        // The published best moves are legal here.
        for m in &p.best {
            let s = shicho::othello::Square::parse(m, 8).unwrap();
            assert!(b.is_legal(p.to_move, s), "FFO #{} {m}", p.number);
        }
    }
}

#[test]
fn solves_the_smallest_positions() {
    for p in othello_ffo_data::all() {
        let board = p.board();
        if board.empties() > 16 {
            continue;
        }
        let s = solve(&board, p.to_move, 64).unwrap();
        p.assert_solved(&s, "one thread");
    }
}

/// Threads share the table and split nodes with 12 empties or more: the answer must not
/// depend on how the work fell, nor on the evaluation of the solver's estimates.
#[test]
fn threads_and_either_evaluation_give_the_same_answers() {
    for p in othello_ffo_data::all() {
        if !(14..=15).contains(&p.board().empties()) {
            continue;
        }
        for (threads, evaluation) in [(3, Evaluation::learnt()), (1, Evaluation::Hand)] {
            let options = SolveOptions {
                threads,
                table_bits: 18,
                evaluation,
            };
            let s = p.solve(&options);
            p.assert_solved(&s, &format!("{threads} threads"));
        }
    }
}
