//! Agreement with GNU Go 3.8 on realistic positions: does `attack` (and `defend`) succeed for
//! the same chains? The data comes from `scripts/gnugo-reading-data` (GNU Go self-play
//! games; every chain with at most four liberties asked at a few move numbers).
//!
//! Only success or failure is compared (GNU Go's move may be one of several good ones, and
//! its ko codes follow a different ko scheme).

use shicho::go::tactics::{Budget, attack, defend};
use shicho::{Board, Color, Geometry, Point, Topology};

const DATA: &str = include_str!("data/gnugo-reading.txt");

/// The agreement reached when the data was made (see the test's output); a drop below it
/// is a regression worth a look.
const MIN_ATTACK_AGREEMENT: f64 = 0.95;
const MIN_DEFEND_AGREEMENT: f64 = 0.95;

struct Tally {
    agree: usize,
    total: usize,
    hard_agree: usize,
    hard_total: usize,
}

impl Tally {
    fn new() -> Tally {
        Tally {
            agree: 0,
            total: 0,
            hard_agree: 0,
            hard_total: 0,
        }
    }
    fn add(&mut self, agrees: bool, hard: bool) {
        self.total += 1;
        self.agree += agrees as usize;
        if hard {
            self.hard_total += 1;
            self.hard_agree += agrees as usize;
        }
    }
    fn rate(&self) -> f64 {
        self.agree as f64 / self.total.max(1) as f64
    }
}

fn replay(size: usize, moves: &[&str]) -> Board {
    let geo = Geometry::get(size, Topology::Plane).unwrap();
    let mut b = Board::new(geo);
    for m in moves {
        let (c, v) = m.split_once(':').unwrap();
        let c: Color = c.parse().unwrap();
        let mv = geo.parse_move(v).unwrap();
        b.play(c, mv, false).unwrap();
    }
    b
}

#[test]
fn agrees_with_gnugo_on_who_wins() {
    let mut board: Option<Board> = None;
    let (mut att, mut def) = (Tally::new(), Tally::new());
    let mut disagreements = Vec::new();
    for (n, line) in DATA.lines().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["position", size, moves @ ..] => {
                board = Some(replay(size.parse().unwrap(), moves));
            }
            [kind @ ("attack" | "defend"), v, answer @ ..] => {
                let b = board.as_ref().unwrap();
                let p: Point = b.geometry().parse_point(v).unwrap();
                let gnugo = answer[0] != "0";
                let ours = if *kind == "attack" {
                    attack(b, p, Budget::default())
                } else {
                    defend(b, p, Budget::default())
                };
                // "Hard": GNU Go sees a capture or a chain that dies; the rest is mostly
                // chains that are simply safe.
                let hard = b.liberty_count(p) <= 2 || (*kind == "attack") == gnugo;
                let agrees = ours.0.succeeds() == gnugo;
                if !agrees {
                    disagreements.push(format!(
                        "line {}: {kind} {v}: gnugo {}, ours {:?} {:?}\n{}",
                        n + 1,
                        answer.join(" "),
                        ours.0,
                        ours.1.map(|m| b.geometry().format_point(m)),
                        b.diagram()
                    ));
                }
                if *kind == "attack" {
                    att.add(agrees, hard);
                } else {
                    def.add(agrees, hard);
                }
            }
            _ => {}
        }
    }
    for d in &disagreements {
        println!("{d}");
    }
    println!(
        "attack: {}/{} ({:.1}%), hard cases {}/{}; defend: {}/{} ({:.1}%), hard cases {}/{}",
        att.agree,
        att.total,
        100.0 * att.rate(),
        att.hard_agree,
        att.hard_total,
        def.agree,
        def.total,
        100.0 * def.rate(),
        def.hard_agree,
        def.hard_total
    );
    assert!(att.rate() >= MIN_ATTACK_AGREEMENT);
    assert!(def.rate() >= MIN_DEFEND_AGREEMENT);
}
