//! What an analysis learns of the score and of who owns each point, under each root move:
//! the sums its reports average, kept beside the tree and read without stopping the search.
//!
//! The positions that count, KataGo's way (a move's values are the average of the
//! network's outputs over the positions the search visited under it):
//! - With the network, every evaluation the search makes is counted once, under the root
//!   move whose subtree holds the evaluated node (the root's own evaluation apart). shicho
//!   evaluates a node only once it has `net_min_visits` visits (the zero search: every
//!   leaf), so a report evaluates, once, the position after each visited root move that
//!   has no evaluation yet, and the root when this search did not (a tree kept from the
//!   last move remembers evaluations made then): every move reported with visits has at
//!   least its own position counted.
//! - Without a network, every playout is counted under the root move it went through: its
//!   final margin by area (komi included) for the score, and who held each point at its end
//!   for the ownership.
//!
//! Everything is kept from Black's point of view (a lead Black's, an owner +1 Black's);
//! reports turn it to the side analysed.
//!
//! Each search thread writes its own slot, and the thread that reports writes one more:
//! one writer a slot, so plain loads and stores (no atomic additions, no lock) and no count
//! is ever lost. A reader merges the slots while the search runs; it may see a sample half
//! written, which moves a mean by a fraction of one sample.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use crate::color::Color;
use crate::go::board::Board;
use crate::go::network::model::Evaluation;
use crate::go::point::Move;
use crate::go::search::dead_stones::owner_at_end;

/// One thread's sums. An entry per move of the root (a point's index, then pass) and one
/// for the root's own position, last.
struct Slot {
    samples: Box<[AtomicU32]>,
    /// Sums of Black's chances of winning, as `f64` bits.
    win: Box<[AtomicU64]>,
    /// Sums of leads and of squared leads, as `f64` bits.
    lead: Box<[AtomicU64]>,
    lead_squared: Box<[AtomicU64]>,
    /// `points` sums an entry, as `f32` bits, when owners are tallied.
    owner: Box<[AtomicU32]>,
}

fn zeroed<T: Default>(len: usize) -> Box<[T]> {
    (0..len).map(|_| T::default()).collect()
}

/// Adds `x` to an `f64` that only this thread writes.
fn add_f64(sum: &AtomicU64, x: f64) {
    let v = f64::from_bits(sum.load(Ordering::Relaxed)) + x;
    sum.store(v.to_bits(), Ordering::Relaxed);
}

fn add_f32(sum: &AtomicU32, x: f32) {
    let v = f32::from_bits(sum.load(Ordering::Relaxed)) + x;
    sum.store(v.to_bits(), Ordering::Relaxed);
}

/// The samples of one entry, merged: how many, and the sums of their chances of winning,
/// leads and squared leads (Black's).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Sums {
    pub samples: u32,
    pub win: f64,
    pub lead: f64,
    pub lead_squared: f64,
}

impl Sums {
    /// Black's mean chance of winning over the samples, `None` without any.
    pub(crate) fn mean_win(&self) -> Option<f64> {
        (self.samples > 0).then(|| self.win / self.samples as f64)
    }

    /// The mean lead and its standard deviation over the samples, `None` without any.
    pub(crate) fn mean_and_stdev(&self) -> Option<(f64, f64)> {
        if self.samples == 0 {
            return None;
        }
        let n = self.samples as f64;
        let mean = self.lead / n;
        let variance = (self.lead_squared / n - mean * mean).max(0.0);
        Some((mean, variance.sqrt()))
    }

    fn add(&mut self, other: Sums) {
        self.samples += other.samples;
        self.win += other.win;
        self.lead += other.lead;
        self.lead_squared += other.lead_squared;
    }
}

/// The tally of one search: a slot per search thread and one for the reporter.
pub(crate) struct Tally {
    points: usize,
    owners: bool,
    slots: Box<[Slot]>,
    /// The network's policy at the root, in point order then pass, once evaluated.
    root_policy: OnceLock<Vec<f32>>,
}

impl Tally {
    /// A tally for a board of `points` points searched by `threads` threads, each point's
    /// owner tallied too when `owners`.
    pub(crate) fn new(points: usize, threads: usize, owners: bool) -> Tally {
        let entries = points + 2;
        let slots = (0..=threads)
            .map(|_| Slot {
                samples: zeroed(entries),
                win: zeroed(entries),
                lead: zeroed(entries),
                lead_squared: zeroed(entries),
                owner: zeroed(if owners { entries * points } else { 0 }),
            })
            .collect();
        Tally {
            points,
            owners,
            slots,
            root_policy: OnceLock::new(),
        }
    }

    /// The slot the reporting thread writes (the search threads have `0..threads`).
    pub(crate) fn reporter_slot(&self) -> usize {
        self.slots.len() - 1
    }

    /// The entry of the root move `under`, or of the root itself for `None`.
    fn entry(&self, under: Option<Move>) -> usize {
        match under {
            Some(Move::Play(p)) => p.index(),
            Some(Move::Pass) => self.points,
            None => self.points + 1,
        }
    }

    /// One sample: Black's chance of winning and lead, and `owner(i)` Black's ownership of
    /// point `i` when owners are tallied.
    fn record(
        &self,
        slot: usize,
        under: Option<Move>,
        win: f64,
        lead: f64,
        owner: impl Fn(usize) -> f32,
    ) {
        let slot = &self.slots[slot];
        let e = self.entry(under);
        add_f64(&slot.win[e], win);
        add_f64(&slot.lead[e], lead);
        add_f64(&slot.lead_squared[e], lead * lead);
        if self.owners {
            let sums = &slot.owner[e * self.points..(e + 1) * self.points];
            for (i, sum) in sums.iter().enumerate() {
                add_f32(sum, owner(i));
            }
        }
        // Counted last, so that a reader rarely counts a sample whose sums it lacks.
        let n = &slot.samples[e];
        n.store(n.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
    }

    /// The network's evaluation `e` of a position with `to_move` to play, under the root
    /// move `under` (`None`: the root's own position).
    pub(crate) fn record_net(
        &self,
        slot: usize,
        under: Option<Move>,
        to_move: Color,
        e: &Evaluation,
    ) {
        let (sign, win) = match to_move {
            Color::Black => (1.0, e.win as f64),
            Color::White => (-1.0, 1.0 - e.win as f64),
        };
        self.record(slot, under, win, sign * e.lead as f64, |i| {
            sign as f32 * e.ownership[i]
        });
    }

    /// A finished playout under the root move `under`: Black's area margin and the board at
    /// its end.
    pub(crate) fn record_playout(
        &self,
        slot: usize,
        under: Option<Move>,
        margin: f64,
        board: &Board,
    ) {
        let win = match margin.partial_cmp(&0.0) {
            Some(std::cmp::Ordering::Greater) => 1.0,
            Some(std::cmp::Ordering::Less) => 0.0,
            _ => 0.5,
        };
        self.record(slot, under, win, margin, |i| {
            owner_at_end(board, crate::go::point::Point::from_index(i)) as f32
        });
    }

    /// Keeps the network's policy at the root (the first one given).
    pub(crate) fn set_root_policy(&self, policy: &[f32]) {
        let _ = self.root_policy.set(policy.to_vec());
    }

    /// The network's policy at the root, once evaluated.
    pub(crate) fn root_policy(&self) -> Option<&[f32]> {
        self.root_policy.get().map(Vec::as_slice)
    }

    /// The samples under the root move `under` (`None`: of the root's own position alone).
    pub(crate) fn sums(&self, under: Option<Move>) -> Sums {
        let e = self.entry(under);
        let mut sums = Sums::default();
        for slot in &self.slots {
            sums.add(self.sums_at(slot, e));
        }
        sums
    }

    /// Every sample of the search: the root's own and those under each of its moves.
    pub(crate) fn sums_everywhere(&self) -> Sums {
        let mut sums = Sums::default();
        for slot in &self.slots {
            for e in 0..self.points + 2 {
                sums.add(self.sums_at(slot, e));
            }
        }
        sums
    }

    fn sums_at(&self, slot: &Slot, e: usize) -> Sums {
        Sums {
            samples: slot.samples[e].load(Ordering::Relaxed),
            win: f64::from_bits(slot.win[e].load(Ordering::Relaxed)),
            lead: f64::from_bits(slot.lead[e].load(Ordering::Relaxed)),
            lead_squared: f64::from_bits(slot.lead_squared[e].load(Ordering::Relaxed)),
        }
    }

    /// Adds the owner sums of the samples under `under` (`None`: every sample of the
    /// search) to `out`, a point each; false, and nothing added, when owners are not
    /// tallied.
    pub(crate) fn add_owners(&self, under: Option<Move>, out: &mut [f64]) -> bool {
        if !self.owners {
            return false;
        }
        let entries = match under {
            Some(m) => {
                let e = self.entry(Some(m));
                e..e + 1
            }
            None => 0..self.points + 2,
        };
        for slot in &self.slots {
            for e in entries.clone() {
                let sums = &slot.owner[e * self.points..(e + 1) * self.points];
                for (o, s) in out.iter_mut().zip(sums) {
                    *o += f32::from_bits(s.load(Ordering::Relaxed)) as f64;
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::point::Point;

    /// The side to move wins 0.5 + lead / 10 of the time.
    fn evaluation(lead: f32, ownership: Vec<f32>) -> Evaluation {
        Evaluation {
            policy: vec![],
            win: 0.5 + lead / 10.0,
            lead,
            ownership,
        }
    }

    #[test]
    fn evaluations_count_under_their_root_move_from_blacks_side() {
        let t = Tally::new(4, 2, true);
        let a = Some(Move::Play(Point::from_index(1)));
        // Black to move after the root move a: Black leads by 3, owns point 0.
        t.record_net(
            0,
            a,
            Color::Black,
            &evaluation(3.0, vec![1.0, 0.0, 0.0, -0.5]),
        );
        // White to move two plies further, on another thread: White leads by 1.
        t.record_net(
            1,
            a,
            Color::White,
            &evaluation(1.0, vec![-1.0, 0.5, 0.0, 0.0]),
        );
        let sums = t.sums(a);
        assert_eq!(sums.samples, 2);
        let win = sums.mean_win().unwrap();
        assert!(
            (win - 0.6).abs() < 1e-6,
            "Black's chances 0.8 and 0.4: {win}"
        );
        let (mean, stdev) = sums.mean_and_stdev().unwrap();
        assert_eq!((mean, stdev), (1.0, 2.0), "Black's leads 3 and -1");
        let mut owners = vec![0.0; 4];
        assert!(t.add_owners(a, &mut owners));
        assert_eq!(owners, [2.0, -0.5, 0.0, -0.5], "sums of Black's ownership");
        // Nothing under the other moves; the root's own evaluation counts at the root only.
        assert_eq!(t.sums(Some(Move::Pass)).mean_and_stdev(), None);
        t.record_net(
            t.reporter_slot(),
            None,
            Color::White,
            &evaluation(-2.0, vec![0.0; 4]),
        );
        assert_eq!(t.sums(None).mean_and_stdev(), Some((2.0, 0.0)));
        assert_eq!(t.sums(a).samples, 2);
        let all = t.sums_everywhere();
        assert_eq!((all.samples, all.lead), (3, 4.0));
    }

    #[test]
    fn playouts_count_their_margin_and_who_held_each_point() {
        // Black holds the left column, White the right, the middle point is dame.
        let board = Board::square_from_diagram(
            "X . O
             X . O
             X . O",
        );
        let t = Tally::new(9, 1, true);
        t.record_playout(0, Some(Move::Pass), -3.5, &board);
        let (mean, _) = t.sums(Some(Move::Pass)).mean_and_stdev().unwrap();
        assert_eq!(mean, -3.5);
        let mut owners = vec![0.0; 9];
        t.add_owners(None, &mut owners);
        let geo = board.geometry();
        let at = |v: &str| owners[geo.parse_point(v).unwrap().index()];
        assert_eq!((at("A1"), at("B2"), at("C3")), (1.0, 0.0, -1.0));
    }

    #[test]
    fn without_owners_only_the_score_is_kept() {
        let t = Tally::new(4, 1, false);
        t.record_net(0, None, Color::Black, &evaluation(1.0, vec![1.0; 4]));
        let mut owners = vec![0.0; 4];
        assert!(!t.add_owners(None, &mut owners));
        assert_eq!(owners, [0.0; 4]);
        assert_eq!(t.sums(None).samples, 1);
    }
}
