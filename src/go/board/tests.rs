use super::*;
use crate::go::geometry::Topology;

fn board(topology: Topology, text: &str) -> Board {
    let n = text.lines().filter(|l| !l.trim().is_empty()).count();
    Board::from_diagram(Geometry::get(n, topology).unwrap(), text).unwrap()
}

fn pt(b: &Board, v: &str) -> Point {
    b.geometry().parse_point(v).unwrap()
}

fn play(b: &mut Board, c: Color, v: &str, suicide: bool) -> Result<PlayOutcome, IllegalMove> {
    let p = pt(b, v);
    let r = b.play(c, Move::Play(p), suicide);
    b.check_consistency().unwrap();
    r
}

#[test]
fn captures_several_chains_at_once() {
    let mut b = board(
        Topology::Plane,
        "
        . X O X .
        X O . O X
        . X O X .
        . . X . .
        . . . . .",
    );
    let out = play(&mut b, Color::Black, "C4", false).unwrap();
    assert_eq!(out.captured, 4);
    assert_eq!(b.captures(Color::Black), 4);
    for v in ["C5", "B4", "D4", "C3"] {
        assert_eq!(b.get(pt(&b, v)), None, "{v}");
    }
    assert_eq!(b.liberty_count(pt(&b, "C4")), 4);
}

#[test]
fn a_capturing_play_into_no_liberties_is_not_suicide() {
    let mut b = board(
        Topology::Plane,
        "
        . X O .
        X O . .
        . . . .
        . . . .",
    );
    assert!(!b.is_suicide(Color::White, pt(&b, "A4")));
    assert!(b.captures_something(Color::White, pt(&b, "A4")));
    let out = play(&mut b, Color::White, "A4", false).unwrap();
    assert_eq!(
        out,
        PlayOutcome {
            captured: 1,
            suicided: 0
        }
    );
    assert_eq!(b.liberty_count(pt(&b, "A4")), 1);
}

#[test]
fn forbidden_and_allowed_single_stone_suicide() {
    let text = "
        . X .
        X X .
        . . .";
    let mut b = board(Topology::Plane, text);
    let before = b.clone();
    assert_eq!(
        play(&mut b, Color::White, "A3", false),
        Err(IllegalMove::Suicide)
    );
    assert_eq!(b, before);
    let out = play(&mut b, Color::White, "A3", true).unwrap();
    assert_eq!(
        out,
        PlayOutcome {
            captured: 0,
            suicided: 1
        }
    );
    assert_eq!(b.captures(Color::Black), 1);
    assert_eq!(
        b.hash(),
        before.hash(),
        "a single-stone suicide leaves the stones as they were"
    );
}

#[test]
fn multi_stone_suicide_removes_the_whole_chain() {
    let mut b = board(
        Topology::Plane,
        "
        . X O .
        X X O .
        O O . .
        . . . .",
    );
    assert_eq!(
        play(&mut b.clone(), Color::Black, "A4", false),
        Err(IllegalMove::Suicide)
    );
    let out = play(&mut b, Color::Black, "A4", true).unwrap();
    assert_eq!(
        out,
        PlayOutcome {
            captured: 0,
            suicided: 4
        }
    );
    assert_eq!(b.captures(Color::White), 4);
    assert_eq!(b.stone_count(Color::Black), 0);
    assert_eq!(b.liberty_count(pt(&b, "C4")), 5);
}

#[test]
fn simple_ko_is_banned_until_the_capturer_moves_again() {
    let mut b = board(
        Topology::Plane,
        "
        . X O .
        X O . O
        . X O .
        . . . .",
    );
    let out = play(&mut b, Color::Black, "C3", false).unwrap();
    assert_eq!(out.captured, 1);
    assert_eq!(
        b.ko(),
        Some(Ko {
            point: pt(&b, "B3"),
            banned: Color::White
        })
    );
    assert_eq!(
        play(&mut b, Color::White, "B3", false),
        Err(IllegalMove::Ko)
    );
    // White's own pass does not lift the ban; Black's move elsewhere does.
    b.pass(Color::White);
    assert_eq!(
        play(&mut b, Color::White, "B3", false),
        Err(IllegalMove::Ko)
    );
    play(&mut b, Color::Black, "A1", false).unwrap();
    assert_eq!(play(&mut b, Color::White, "B3", false).unwrap().captured, 1);
}

#[test]
fn snapback_is_not_a_ko() {
    let mut b = board(
        Topology::Plane,
        "
        . . . . .
        X X X X X
        X O O O X
        X O . O X
        X O . O X",
    );
    assert_eq!(play(&mut b, Color::Black, "C1", false).unwrap().captured, 0);
    assert_eq!(play(&mut b, Color::White, "C2", false).unwrap().captured, 1);
    assert_eq!(b.ko(), None, "the capturing chain has more than one stone");
    assert_eq!(play(&mut b, Color::Black, "C1", false).unwrap().captured, 8);
}

#[test]
fn captures_wrap_around_the_torus() {
    let text = "
        . . . . .
        . . . . .
        . . . . .
        X . . . .
        O X . . X";
    let mut b = board(Topology::Torus, text);
    assert_eq!(
        b.liberty_count(pt(&b, "A1")),
        1,
        "A1's last liberty is A5, across the edge"
    );
    assert_eq!(play(&mut b, Color::Black, "A5", false).unwrap().captured, 1);
    assert_eq!(b.get(pt(&b, "A1")), None);
    assert!(Board::from_diagram(Geometry::get(5, Topology::Plane).unwrap(), text).is_err());
}

#[test]
fn liberties_are_exact_and_in_index_order() {
    let b = board(
        Topology::Plane,
        "
        . . . .
        . X X .
        . X . .
        . . . .",
    );
    let libs: Vec<String> = b
        .liberties(pt(&b, "B3"))
        .map(|p| b.geometry().format_point(p))
        .collect();
    assert_eq!(libs, ["B1", "A2", "C2", "A3", "D3", "B4", "C4"]);
    assert_eq!(b.liberty_count(pt(&b, "C3")), 7);
    assert!(b.is_liberty_of(pt(&b, "C2"), pt(&b, "B2")));
    assert!(!b.is_liberty_of(pt(&b, "D2"), pt(&b, "B2")));
}

#[test]
fn clone_from_restores_exactly() {
    let mut b = board(
        Topology::Plane,
        "
        . X O .
        X O . O
        . X O .
        . . . .",
    );
    let saved = b.clone();
    play(&mut b, Color::Black, "C3", false).unwrap();
    assert_ne!(b, saved);
    b.clone_from(&saved);
    assert_eq!(b, saved);
    assert_eq!(b.hash(), saved.hash());
    b.check_consistency().unwrap();
}

#[test]
fn setup_rejects_chains_without_liberties() {
    let g = Geometry::get(2, Topology::Plane).unwrap();
    assert!(Board::from_diagram(g, "X O\nO .").is_err());
    assert!(Board::from_diagram(g, "X X\nX X").is_err());
    assert!(Board::from_diagram(g, "X O\n. .").is_ok());
}

/// Every table of the two boards, the stale entries and the order of the empty points
/// included: what a copy restores and an undo must too.
fn identical(a: &Board, b: &Board) -> bool {
    a.cells.0 == b.cells.0
        && a.head.0 == b.head.0
        && a.next.0 == b.next.0
        && a.chains.0 == b.chains.0
        && a.lib_bits.0 == b.lib_bits.0
        && a.empties == b.empties
        && a.empty_index.0 == b.empty_index.0
        && a.ko == b.ko
        && a.hash == b.hash
        && a.captures == b.captures
}

#[test]
fn an_undone_play_leaves_every_table_as_it_was() {
    let mut rng = crate::Rng::new(7);
    let mut tried = [0usize; 2];
    for (size, topology, games) in [
        (5, Topology::Plane, 6),
        (9, Topology::Plane, 4),
        (9, Topology::Torus, 4),
        (19, Topology::Plane, 2),
        (25, Topology::Plane, 1),
    ] {
        let geo = Geometry::get(size, topology).unwrap();
        for _game in 0..games {
            let mut b = Board::new(geo);
            let mut c = Color::Black;
            for _move in 0..size * size {
                let empties = b.empties.clone();
                // Each empty point may be tried, legal or not: refused plays must change nothing.
                for _try in 0..4 {
                    let p = empties[rng.below(empties.len())];
                    let saved = b.clone();
                    let mut copied = b.clone();
                    match b.play_undoable(c, p) {
                        Some(u) => {
                            copied.play_unchecked(c, Move::Play(p));
                            assert!(identical(&b, &copied), "the play as play_unchecked's");
                            if tried[0].is_multiple_of(16) {
                                b.check_consistency().unwrap();
                            }
                            b.undo(&u);
                            tried[0] += 1;
                        }
                        None => {
                            assert!(
                                copied.play_unchecked(c, Move::Play(p)) != PlayOutcome::default()
                                    || copied.get(p).is_none(),
                                "refused only a capture or a suicide"
                            );
                            tried[1] += 1;
                        }
                    }
                    assert!(
                        identical(&b, &saved),
                        "{size} {topology:?}: undone as it was"
                    );
                }
                let candidates: Vec<Point> = empties
                    .iter()
                    .copied()
                    .filter(|&p| b.playout_candidate(c, p).is_some())
                    .collect();
                if candidates.is_empty() {
                    break;
                }
                let p = candidates[rng.below(candidates.len())];
                b.play(c, Move::Play(p), false).unwrap();
                c = c.other();
            }
        }
    }
    // Both kinds were met often.
    assert!(tried[0] > 5_000 && tried[1] > 300, "{tried:?}");
}
