//! A position's analysis as KataGo's analysis engine writes it (`getAnalysisJson` in
//! `cpp/search/searchresults.cpp`): `moveInfos`, `rootInfo` and, as asked, `ownership`
//! and `policy`, every number from the perspective the query asks for.
//!
//! What each of KataGo's keys holds here, where shicho's search differs from KataGo's:
//! - `visits`, `edgeVisits`: the move's simulations (shicho's tree has no transpositions,
//!   so they are the same); `weight`, `edgeWeight`, `playSelectionValue` likewise, every
//!   simulation weighing one and the most visited move ranking first (`order`).
//! - `winrate`: with a network, its value averaged over the positions the search counted
//!   under the move, as the scores are (KataGo's way); without one, the mean result of the
//!   move's simulations. `utility` the same on KataGo's scale from -1 to 1 (shicho's search
//!   values wins; its small share of score is in the results already); `lcb` and
//!   `utilityLcb` two standard errors below them.
//! - `scoreLead`, `scoreMean`, `scoreSelfplay`: the mean lead over the positions the search
//!   counted under the move (`search::analysis`); shicho's network has one score output,
//!   the lead. `scoreStdev`: the leads' spread over those positions.
//! - `rootInfo`'s `raw...` keys: the network's own evaluation of the position (absent
//!   without a network, as KataGo leaves them out without one); `rawNoResultProb` is 0 and
//!   the outputs shicho's network has no head for (`rawStWrError`, `rawStScoreError`,
//!   `rawVarTimeLeft`, `rawScoreSelfplayStdev`) are 0, as KataGo's own code fills them for
//!   its older networks without those heads.
//! - `thisHash` and `symHash`: shicho's 64-bit Zobrist hashes (of the stones, the side to
//!   move and the ko point; `symHash` the least over the board's eight symmetries), written
//!   in KataGo's 32 hexadecimal digits.
//! - `noResultValue` (asked for with `includeNoResultValue`): 0, no game here ends without
//!   a result.
//! - `isSymmetryOf` never appears: shicho searches every move, symmetric or not.

use serde_json::{Map, Value};

use crate::color::Color;
use crate::go::game::Game;
use crate::go::geometry::Geometry;
use crate::go::network::model::Evaluation;
use crate::go::point::{Move, Point};
use crate::go::search::{AnalysisLine, Report};
use crate::go::zobrist;

use super::query::{Include, Turn};
use super::settings::Perspective;

/// KataGo's output precision: significant digits.
const PRECISION: i32 = 8;

/// `x` to [`PRECISION`] significant digits, as KataGo's `Global::roundDynamic` writes
/// numbers; a value that is no number (which JSON cannot hold) as 0.
pub fn rounded(x: f64) -> Value {
    if !x.is_finite() {
        return Value::from(0.0);
    }
    if x == 0.0 {
        return Value::from(0.0);
    }
    let magnitude = x.abs().log10().floor() as i32;
    let scale = 10f64.powi(PRECISION - 1 - magnitude);
    let r = (x * scale).round() / scale;
    Value::from(if r.is_finite() { r } else { x })
}

/// A move as KataGo writes it: `D4`, `pass`.
pub fn move_text(geo: &Geometry, m: Move) -> String {
    match m {
        Move::Pass => "pass".to_string(),
        Move::Play(p) => geo.format_point(p),
    }
}

/// Values in point order, as KataGo lists a board: the top row first, left to right.
fn top_left_first(geo: &Geometry, value_at: impl Fn(Point) -> f64) -> Vec<Value> {
    let n = geo.size();
    (0..n)
        .rev()
        .flat_map(|y| (0..n).map(move |x| (x, y)))
        .map(|(x, y)| rounded(geo.point(x, y).map_or(0.0, &value_at)))
        .collect()
}

/// A board of owners (the side analysed's, point order) from `sign`'s side.
fn owners(geo: &Geometry, values: Option<&[f64]>, sign: f64) -> Value {
    Value::Array(top_left_first(geo, |p| {
        values
            .and_then(|v| v.get(p.index()))
            .map_or(0.0, |&v| sign * v)
    }))
}

/// What every number is told from: the side analysed's results turned over or not.
struct Side {
    sign: f64,
}

impl Side {
    fn winrate(&self, w: f64) -> f64 {
        if self.sign > 0.0 { w } else { 1.0 - w }
    }
}

/// Two standard errors below a win rate over `visits` simulations.
fn lower_bound(winrate: f64, visits: u32) -> f64 {
    winrate - 2.0 * (winrate * (1.0 - winrate) / visits.max(1) as f64).sqrt()
}

fn move_info(
    geo: &Geometry,
    line: &AnalysisLine,
    order: usize,
    side: &Side,
    include: &Include,
) -> Value {
    let mut info = Map::new();
    let mut put = |key: &str, v: Value| {
        info.insert(key.to_string(), v);
    };
    let visits = line.visits;
    let winrate = side.winrate(line.winrate);
    let lcb = side.winrate(lower_bound(line.winrate, visits));
    let lead = side.sign * line.score.lead;
    put("move", Value::from(move_text(geo, line.mv)));
    put("visits", Value::from(visits));
    put("edgeVisits", Value::from(visits));
    put("weight", rounded(visits as f64));
    put("edgeWeight", rounded(visits as f64));
    put("playSelectionValue", rounded(visits as f64));
    put("winrate", rounded(winrate));
    put("utility", rounded(2.0 * winrate - 1.0));
    put("lcb", rounded(lcb));
    put("utilityLcb", rounded(2.0 * lcb - 1.0));
    put("scoreLead", rounded(lead));
    put("scoreMean", rounded(lead));
    put("scoreSelfplay", rounded(lead));
    put("scoreStdev", rounded(line.score.stdev));
    put("prior", rounded(line.prior));
    put("order", Value::from(order));
    if include.no_result_value {
        put("noResultValue", rounded(0.0));
    }
    let pv_len = line.pv.len().min(include.pv_len + 1);
    let pv = &line.pv[..pv_len];
    put(
        "pv",
        Value::Array(pv.iter().map(|&m| Value::from(move_text(geo, m))).collect()),
    );
    if include.pv_visits {
        let visits: Vec<Value> = (0..pv_len)
            .map(|i| Value::from(line.pv_visits.get(i).copied().unwrap_or(0)))
            .collect();
        put("pvVisits", Value::Array(visits.clone()));
        put("pvEdgeVisits", Value::Array(visits));
    }
    if include.moves_ownership {
        put(
            "ownership",
            owners(geo, line.ownership.as_deref(), side.sign),
        );
    }
    Value::Object(info)
}

/// A situational hash: the stones seen through `transform` (a point's image), the side
/// to move and the ko point.
fn position_hash(game: &Game, to_move: Color, transform: impl Fn(Point) -> Point) -> u64 {
    let board = game.board();
    let mut hash = zobrist::to_move_key(to_move);
    for p in board.geometry().points() {
        if let Some(c) = board.get(p) {
            hash ^= zobrist::stone_key(transform(p), c);
        }
    }
    if let Some(ko) = board.ko() {
        // A key of its own for "the ko point, banned to this side": a stone's key turned.
        hash ^= zobrist::stone_key(transform(ko.point), ko.banned).rotate_left(29);
    }
    hash
}

/// The eight symmetries of the square (KataGo's numbering is not needed: only the least
/// hash over all of them is written).
fn symmetric(geo: &Geometry, p: Point, symmetry: usize) -> Point {
    let n = geo.size();
    let (x, y) = geo.xy(p);
    let (x, y) = if symmetry & 4 != 0 { (y, x) } else { (x, y) };
    let x = if symmetry & 1 != 0 { n - 1 - x } else { x };
    let y = if symmetry & 2 != 0 { n - 1 - y } else { y };
    geo.point(x, y).unwrap_or(p)
}

fn hash_text(hash: u64) -> Value {
    Value::from(format!("{:032X}", hash as u128))
}

fn root_info(turn: &Turn, report: &Report, raw: Option<&Evaluation>, side: &Side) -> Value {
    let geo = turn.game.geometry();
    let root = &report.root;
    let mut info = Map::new();
    let mut put = |key: &str, v: Value| {
        info.insert(key.to_string(), v);
    };
    let winrate = side.winrate(root.winrate);
    let lead = side.sign * root.score.lead;
    put("visits", Value::from(root.visits));
    put("weight", rounded(root.visits as f64));
    put("winrate", rounded(winrate));
    put("utility", rounded(2.0 * winrate - 1.0));
    put("scoreLead", rounded(lead));
    put("scoreSelfplay", rounded(lead));
    put("scoreStdev", rounded(root.score.stdev));
    if let Some(e) = raw {
        let raw_lead = side.sign * e.lead as f64;
        put("rawWinrate", rounded(side.winrate(e.win as f64)));
        put("rawLead", rounded(raw_lead));
        put("rawScoreSelfplay", rounded(raw_lead));
        for absent in [
            "rawScoreSelfplayStdev",
            "rawNoResultProb",
            "rawStWrError",
            "rawStScoreError",
            "rawVarTimeLeft",
        ] {
            put(absent, rounded(0.0));
        }
    }
    let this = position_hash(&turn.game, turn.to_move, |p| p);
    let least = (0..8)
        .map(|s| position_hash(&turn.game, turn.to_move, |p| symmetric(geo, p, s)))
        .min()
        .unwrap_or(this);
    put("thisHash", hash_text(this));
    put("symHash", hash_text(least));
    put(
        "currentPlayer",
        Value::from(turn.to_move.letter().to_string()),
    );
    Value::Object(info)
}

/// The network's policy (or the search's priors) as KataGo lists it: the top row first,
/// then pass; -1 for a move the side analysed may not play.
fn policy(turn: &Turn, report: &Report) -> Value {
    let geo = turn.game.geometry();
    let c = turn.to_move;
    let points = geo.num_points();
    let share = |i: usize| report.policy.as_ref().and_then(|p| p.get(i)).copied();
    let mut values = top_left_first(geo, |p| {
        if turn.game.is_legal(c, Move::Play(p)) {
            share(p.index()).unwrap_or(0.0)
        } else {
            -1.0
        }
    });
    values.push(rounded(share(points).unwrap_or(0.0)));
    Value::Array(values)
}

/// The answer for `turn` of query `id` from `report`; `raw` is the network's evaluation of
/// the position, if there is a network.
pub fn analysis(
    id: &str,
    turn: &Turn,
    report: &Report,
    raw: Option<&Evaluation>,
    perspective: Perspective,
    include: &Include,
    during_search: bool,
) -> Value {
    let geo = turn.game.geometry();
    let side = Side {
        sign: perspective.sign(turn.to_move),
    };
    let mut answer = Map::new();
    answer.insert("id".into(), Value::from(id));
    answer.insert("turnNumber".into(), Value::from(turn.number));
    answer.insert("isDuringSearch".into(), Value::from(during_search));
    let infos = report
        .lines
        .iter()
        .enumerate()
        .map(|(order, line)| move_info(geo, line, order, &side, include))
        .collect();
    answer.insert("moveInfos".into(), Value::Array(infos));
    answer.insert("rootInfo".into(), root_info(turn, report, raw, &side));
    if include.policy {
        answer.insert("policy".into(), policy(turn, report));
    }
    if include.ownership {
        let root = report.root.ownership.as_deref();
        answer.insert("ownership".into(), owners(geo, root, side.sign));
    }
    Value::Object(answer)
}

/// The answer for a position terminated before any search: KataGo's `noResults`.
pub fn no_results(id: &str, turn: usize) -> Value {
    let mut answer = Map::new();
    answer.insert("id".into(), Value::from(id));
    answer.insert("turnNumber".into(), Value::from(turn));
    answer.insert("isDuringSearch".into(), Value::from(false));
    answer.insert("noResults".into(), Value::from(true));
    Value::Object(answer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::Rules;

    #[test]
    fn numbers_keep_eight_significant_digits() {
        assert_eq!(rounded(0.402_166_973_123), Value::from(0.402_166_97));
        assert_eq!(rounded(-12.345_678_912), Value::from(-12.345_679));
        assert_eq!(rounded(f64::NAN), Value::from(0.0));
        assert_eq!(rounded(500.0), Value::from(500.0));
    }

    #[test]
    fn hashes_are_the_same_for_symmetric_positions_only() {
        let mut a = Game::new(9, Rules::default(), 7.5).unwrap();
        let mut b = a.clone();
        let geo = a.geometry();
        a.play(Color::Black, geo.parse_move("C3").unwrap()).unwrap();
        b.play(Color::Black, geo.parse_move("G7").unwrap()).unwrap();
        let hashes = |g: &Game| {
            let this = position_hash(g, Color::White, |p| p);
            let sym = (0..8)
                .map(|s| position_hash(g, Color::White, |p| symmetric(geo, p, s)))
                .min()
                .unwrap();
            (this, sym)
        };
        let (this_a, sym_a) = hashes(&a);
        let (this_b, sym_b) = hashes(&b);
        assert_ne!(this_a, this_b);
        assert_eq!(sym_a, sym_b);
        assert_eq!(hash_text(this_a).as_str().unwrap().len(), 32);
    }
}
