//! Othello perft: the published 8x8 counts, and the fast perft against the naive one on
//! other sizes. Passes are moves; nothing follows two passes in a row.

mod othello_naive;

use othello_naive::Naive;
use shicho::Color;
use shicho::othello::Game;

/// perft(1..=10) from the 8x8 start, the published values.
const PUBLISHED_8X8: [u64; 10] = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284];

#[test]
fn eight_by_eight_matches_the_published_counts() {
    let g = Game::new(8).unwrap();
    for (d, &expected) in (1..).zip(PUBLISHED_8X8.iter()) {
        assert_eq!(g.perft(d), expected, "perft({d})");
    }
}

/// perft(1..=depth) by both implementations, which must agree.
fn both(size: usize, depth: u32) -> Vec<u64> {
    let naive = Naive::new(size);
    let game = Game::new(size).unwrap();
    let counts: Vec<u64> = (1..=depth)
        .map(|d| {
            let slow = naive.perft(Color::Black, d, 0);
            assert_eq!(game.perft(d), slow, "{size}x{size} perft({d})");
            slow
        })
        .collect();
    println!("{size}x{size}: {counts:?}");
    counts
}

/// The whole 4x4 tree: no sequence lasts 20 plies (12 discs, passes between, two closing
/// passes). The naive side counts every depth in one walk; the fast side is asked at the
/// depths that a debug build answers quickly plus the deepest ones.
#[test]
fn four_by_four_agrees_with_the_naive_rules_to_the_end() {
    let profile = Naive::new(4).perft_profile(Color::Black, 20);
    let game = Game::new(4).unwrap();
    for d in (1..=10).chain([15, 19, 20]) {
        assert_eq!(game.perft(d as u32), profile[d], "4x4 perft({d})");
    }
    assert!(profile[19] > 0);
    assert_eq!(profile[20], 0);
}

#[test]
fn six_by_six_agrees_with_the_naive_rules() {
    both(6, 6);
}

#[test]
fn eight_by_eight_agrees_with_the_naive_rules() {
    both(8, 5);
}

#[test]
fn ten_by_ten_agrees_with_the_naive_rules() {
    both(10, 4);
}
