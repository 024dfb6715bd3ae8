//! Tactical reading on diagrams: the worked examples, ladders, nets, snapbacks, ko.

use shicho::go::tactics::{
    Budget, Outcome, attack, defend, does_attack, does_defend, ladder_attack, ladder_captures,
    ladder_escape,
};
use shicho::{Board, Geometry, Point, Topology};

fn board(topology: Topology, text: &str) -> Board {
    let n = text
        .lines()
        .filter(|l| l.chars().any(|c| matches!(c, '.' | 'X' | 'O')))
        .count();
    Board::from_diagram(Geometry::get(n, topology).unwrap(), text).unwrap()
}

fn plane(text: &str) -> Board {
    board(Topology::Plane, text)
}

/// An empty `size` board of `topology` with stones given as `B:D4 W:Q16 ...`, built through
/// a diagram like the small positions.
fn stones(size: usize, topology: Topology, list: &str) -> Board {
    let geo = Geometry::get(size, topology).unwrap();
    let mut rows = vec![vec!['.'; size]; size];
    for item in list.split_whitespace() {
        let (c, v) = item.split_once(':').unwrap();
        let (x, y) = geo.xy(geo.parse_point(v).unwrap());
        rows[size - 1 - y][x] = if c == "B" { 'X' } else { 'O' };
    }
    let text: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
    Board::from_diagram(geo, &text.join("\n")).unwrap()
}

fn pt(b: &Board, v: &str) -> Point {
    b.geometry().parse_point(v).unwrap()
}

fn show(b: &Board, r: (Outcome, Option<Point>)) -> String {
    match r.1 {
        Some(p) => format!("{} {}", r.0.code(), b.geometry().format_point(p)),
        None if r.0 == Outcome::Fail => "0".to_string(),
        None => format!("{} PASS", r.0.code()),
    }
}

fn att(b: &Board, v: &str) -> String {
    show(b, attack(b, pt(b, v), Budget::default()))
}

fn def(b: &Board, v: &str) -> String {
    show(b, defend(b, pt(b, v), Budget::default()))
}

fn lad(b: &Board, v: &str) -> String {
    show(b, ladder_attack(b, pt(b, v)))
}

/// The ladder tutorial's position (White G7 G6; Black G8 F7 H7 H6), Black to play, with
/// `extra` stones added.
fn tutorial(extra: &str) -> Board {
    stones(
        9,
        Topology::Plane,
        &format!("W:G7 W:G6 B:G8 B:F7 B:H7 B:H6 {extra}"),
    )
}

#[test]
fn worked_example_the_ladder_works() {
    let b = tutorial("");
    assert_eq!(lad(&b, "G7"), "1 G5");
    assert_eq!(att(&b, "G7"), "1 G5");
    assert_eq!(def(&b, "G7"), "1 G5");
}

#[test]
fn worked_example_a_breaker_at_d3_but_a_net_at_f5() {
    let b = tutorial("W:D3");
    assert_eq!(lad(&b, "G7"), "0");
    assert_eq!(att(&b, "G7"), "1 F5");
}

#[test]
fn worked_example_white_g4_captures_a_chasing_stone() {
    let b = tutorial("W:G4");
    assert_eq!(lad(&b, "G7"), "0");
    assert_eq!(att(&b, "G7"), "0");
}

#[test]
fn worked_examples_agree_with_gnugo_on_defence_too() {
    // GNU Go 3.8: `defend G7` is `1 G5` in all three positions.
    for extra in ["", "W:D3", "W:G4"] {
        assert_eq!(def(&tutorial(extra), "G7"), "1 G5", "{extra}");
    }
    // After the net at F5 White is dead (GNU Go: `trymove b F5`, `defend G7` -> 0).
    let mut b = tutorial("W:D3");
    b.play(
        shicho::Color::Black,
        shicho::Move::Play(pt(&b, "F5")),
        false,
    )
    .unwrap();
    assert_eq!(def(&b, "G7"), "0");
    let b = tutorial("W:D3");
    let net = |v: &str| does_attack(&b, pt(&b, v), pt(&b, "G7"), Budget::default());
    assert_eq!(net("F5"), Outcome::Win);
    assert_eq!(net("G5"), Outcome::Fail);
    assert_eq!(net("F6"), Outcome::Fail);
}

/// The 19x19 ladder from the upper right corner runs across the whole board to the lower left.
const LONG_LADDER: &str = "W:Q16 W:Q15 B:Q17 B:P16 B:R16 B:R15";

#[test]
fn a_ladder_across_the_board_works_towards_the_far_corner() {
    let b = stones(19, Topology::Plane, LONG_LADDER);
    assert_eq!(lad(&b, "Q16"), "1 Q14");
    assert_eq!(att(&b, "Q16"), "1 Q14");
    assert_eq!(def(&b, "Q16"), "1 Q14");
}

#[test]
fn a_breaker_of_the_defenders_colour_anywhere_on_the_path_stops_the_ladder() {
    // GNU Go 3.8 agrees on every one of these (ladder_attack and attack both 0).
    for breaker in ["C3", "C4", "D4", "E5", "F6", "H8", "J9", "K10"] {
        let b = stones(19, Topology::Plane, &format!("{LONG_LADDER} W:{breaker}"));
        assert_eq!(lad(&b, "Q16"), "0", "breaker {breaker}");
        assert_eq!(att(&b, "Q16"), "0", "breaker {breaker}");
    }
}

#[test]
fn a_stone_of_the_attackers_colour_on_the_path_only_helps() {
    let b = stones(19, Topology::Plane, &format!("{LONG_LADDER} B:K10"));
    assert_eq!(lad(&b, "Q16"), "1 Q14");
    assert_eq!(att(&b, "Q16"), "1 Q14");
}

#[test]
fn a_ladder_along_the_edge() {
    // White E2 E1 against the first line: crawling along it dies (GNU Go: 1 F2 for all).
    let b = plane(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . X . . . .
        . . . X O . . . .
        . . . X O . . . .",
    );
    assert_eq!(lad(&b, "E2"), "1 F2");
    assert_eq!(att(&b, "E2"), "1 F2");
    assert_eq!(def(&b, "E2"), "1 F2");
}

#[test]
fn a_ladder_with_a_chasing_stone_short_of_liberties_fails() {
    // The same long ladder, but a white stone next to the path puts a chasing stone in
    // atari: White captures it and escapes.
    let b = tutorial("W:G4");
    // Black's atari at G5 leaves the G5 stone with two liberties; after White F6 and Black
    // F5 White is out. The naive reader ("extend at the liberties") says dead.
    assert_eq!(lad(&b, "G7"), "0");
    let mut after = b.clone();
    after
        .play(
            shicho::Color::Black,
            shicho::Move::Play(pt(&b, "G5")),
            false,
        )
        .unwrap();
    assert_eq!(
        show(&after, ladder_escape(&after, pt(&b, "G7")))
            .chars()
            .next(),
        Some('1')
    );
}

#[test]
fn an_escape_from_atari_by_capturing() {
    // White B3 is in atari and extending at C3 leaves one liberty; but Black B2 is in atari
    // too: capturing it at C2 is the escape (GNU Go: defend B3 -> 1 C2, attack B3 -> 1 C3).
    let b = plane(
        "
        . . . . .
        . X X . .
        X O . X .
        O X . . .
        . O . . .",
    );
    assert_eq!(show(&b, ladder_escape(&b, pt(&b, "B3"))), "1 C2");
    assert_eq!(def(&b, "B3"), "1 C2");
    // With White to move first at C3... the attacker to move takes at C3.
    assert_eq!(att(&b, "B3"), "1 C3");
}

#[test]
fn a_throw_in_makes_a_snapback() {
    // White B2 C2 D2 B1 has two liberties C1 and D1. After Black's throw-in at C1, taking it
    // at D1 leaves White with one liberty: the snapback. GNU Go: defend B2 -> 0.
    let b = plane(
        "
        . . . . . .
        . . . . . .
        . . . . . .
        X X X X . .
        X O O O X .
        X O . . X O",
    );
    let mut after = b.clone();
    after
        .play(
            shicho::Color::Black,
            shicho::Move::Play(pt(&b, "C1")),
            false,
        )
        .unwrap();
    assert_eq!(def(&after, "B2"), "0");
    assert_eq!(
        does_defend(&after, pt(&b, "D1"), pt(&b, "B2"), Budget::default()),
        Outcome::Fail
    );
    assert!(does_attack(&b, pt(&b, "C1"), pt(&b, "B2"), Budget::default()).succeeds());
    assert!(shicho::go::tactics::chains::is_snapback(
        &b,
        shicho::Color::Black,
        pt(&b, "C1")
    ));
}

#[test]
fn ko_results_use_gnu_gos_codes() {
    // White E5 can be taken at F5, but that is a ko: code 2 (the attacker takes first).
    let b = plane(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . X O . . .
        . . . X O . O . .
        . . . . X O . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
    );
    assert_eq!(att(&b, "E5"), "2 F5");
    assert_eq!(def(&b, "E5"), "1 F5");
    // After Black takes, White may not retake at once: code 3 (needs a threat first).
    let mut after = b.clone();
    after
        .play(
            shicho::Color::Black,
            shicho::Move::Play(pt(&b, "F5")),
            false,
        )
        .unwrap();
    assert_eq!(att(&after, "F5"), "3 E5");
    assert_eq!(def(&after, "F5"), "1 E5");
    // does_attack plays only legal moves: the banned retake is no attack.
    assert_eq!(
        does_attack(&after, pt(&b, "E5"), pt(&b, "F5"), Budget::default()),
        Outcome::Fail
    );
}

#[test]
fn a_ladder_on_a_torus_circles_and_ends() {
    // On a torus there is no edge: the ladder runs round and meets its own stones. It must
    // end (repetition and the ply bound count as escapes) and agree with full reading.
    for size in [7, 9, 13, 19, 25] {
        let b = stones(size, Topology::Torus, "W:D4 W:D3 B:D5 B:C4 B:E4 B:E3");
        let ladder = ladder_attack(&b, pt(&b, "D4"));
        let full = attack(&b, pt(&b, "D4"), Budget::default());
        assert!(
            !ladder.0.succeeds() || full.0.succeeds(),
            "size {size}: {ladder:?} {full:?}"
        );
        let _ = ladder_captures(&b);
    }
}

#[test]
fn ladder_captures_lists_every_ladder_victim() {
    let b = tutorial("");
    let found = ladder_captures(&b);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].chain, b.chain_head(pt(&b, "G7")));
    assert_eq!(found[0].attack, pt(&b, "G5"));
    assert!(ladder_captures(&tutorial("W:G4")).is_empty());
}

#[test]
fn empty_points_and_strong_chains_give_no_answers() {
    let b = tutorial("");
    assert_eq!(att(&b, "A1"), "0");
    assert_eq!(def(&b, "A1"), "0");
    assert_eq!(lad(&b, "A1"), "0");
    // Black F7 has three liberties and cannot be taken.
    assert_eq!(att(&b, "F7"), "0");
    assert_eq!(lad(&b, "F7"), "0");
}

#[test]
fn the_reading_stack_tries_and_pops_moves() {
    use shicho::go::tactics::{ReadingStack, StackEmpty};
    use shicho::{Color, IllegalMove, Move};
    // The ko position after Black took at F5: White may not retake at E5 at once.
    let mut b = plane(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . X O . . .
        . . . X O . O . .
        . . . . X O . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
    );
    let base = b.clone();
    b.play(Color::Black, Move::Play(pt(&b, "F5")), false)
        .unwrap();
    let mut stack = ReadingStack::new(b.clone(), false);
    assert_eq!(stack.popgo(), Err(StackEmpty));
    assert_eq!(StackEmpty.to_string(), "Stack empty.");
    let e5 = Move::Play(pt(&b, "E5"));
    assert_eq!(stack.trymove(Color::White, e5), Err(IllegalMove::Ko));
    assert_eq!(stack.depth(), 0);
    // tryko retakes as if a threat had been answered.
    stack.tryko(Color::White, e5).unwrap();
    assert_eq!(stack.depth(), 1);
    assert_eq!(stack.board().get(pt(&b, "F5")), None);
    assert_eq!(att(stack.board(), "E5"), "3 F5");
    assert_eq!(
        stack.tryko(Color::Black, Move::Play(pt(&b, "D5"))),
        Err(IllegalMove::Occupied)
    );
    stack.trymove(Color::Black, Move::Pass).unwrap();
    stack.popgo().unwrap();
    stack.popgo().unwrap();
    assert_eq!(stack.board(), &b);
    assert_eq!(stack.popgo(), Err(StackEmpty));
    stack.reset(base.clone(), true);
    assert_eq!(stack.board(), &base);
}

#[test]
fn increase_and_decrease_depths_only_move_the_budget() {
    let mut budget = Budget::default();
    budget.increase_depths();
    assert!(budget.nodes > Budget::default().nodes && budget.depth > Budget::default().depth);
    budget.decrease_depths();
    assert_eq!(budget, Budget::default());
    for _ in 0..100 {
        budget.decrease_depths();
    }
    // Still enough to read the tutorial ladder.
    assert_eq!(
        show(
            &tutorial(""),
            attack(&tutorial(""), pt(&tutorial(""), "G7"), budget)
        ),
        "1 G5"
    );
}

/// Random legal positions on planes and tori of every small size: every query on every chain
/// answers (no panic, no endless loop) and the answers are consistent with each other.
#[test]
fn fuzz_reading_on_random_positions() {
    use shicho::go::tactics::{ReadingStack, chains::chain_heads};
    use shicho::{Color, Game, Move, Rng, Rules};
    let mut rng = Rng::new(11);
    for topology in [Topology::Plane, Topology::Torus] {
        for size in [2, 3, 4, 5, 7, 9] {
            let rules = Rules {
                topology,
                ..Rules::default()
            };
            let mut g = Game::new(size, rules, 0.0).unwrap();
            let mut color = Color::Black;
            for _ in 0..size * size * 2 {
                let empties = g.board().empties().to_vec();
                let mv = (0..8)
                    .map(|_| empties.get((rng.next_u64() % (empties.len() as u64 + 1)) as usize))
                    .filter_map(|p| p.copied().map(Move::Play))
                    .find(|&m| g.is_legal(color, m))
                    .unwrap_or(Move::Pass);
                g.play(color, mv).unwrap();
                color = !color;
                let b = g.board();
                for h in chain_heads(b) {
                    let budget = Budget::with_nodes(300);
                    let a = attack(b, h, budget);
                    let d = defend(b, h, budget);
                    let l = ladder_attack(b, h);
                    let e = ladder_escape(b, h);
                    // A chain in atari that the attacker cannot take must be able to live...
                    // only when budgets do not cut; so check only the cheap facts:
                    if b.liberty_count(h) == 1 && b.ko().is_none() {
                        assert!(a.0.succeeds(), "a chain in atari can be captured\n{b:?}");
                    }
                    if b.liberty_count(h) > 4 {
                        assert_eq!(a.0, Outcome::Fail);
                    }
                    let _ = (d, l, e);
                }
                let _ = ladder_captures(b);
                let mut stack = ReadingStack::new(b.clone(), true);
                if let Some(&p) = b.empties().first() {
                    let _ = stack.tryko(color, Move::Play(p));
                    let _ = stack.trymove(!color, Move::Pass);
                }
            }
        }
    }
}
