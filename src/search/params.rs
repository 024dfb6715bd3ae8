//! What a search may spend ([`Params`]) and the weights it decides with ([`Tunables`]).
//!
//! Both are plain values handed to the search by its caller: nothing in the search reads a
//! global, so two searches with different weights can run side by side (a tuning match in
//! one process, a test with its own weights).

use std::time::Duration;

use crate::search::network::weights::Weights;
use crate::search::pattern::gammas::LARGE_BOARD;
use crate::search::playout::last::MAX_KO_MOVES;
use crate::search::playout::params::PolicyParams;

/// The search's weights, with their defaults and one comment each. Priors are virtual
/// (visits, wins) every child of the tree starts with.
///
/// `SHICHO_TUNE=name=value,...` overrides them for tuning matches ([`Tunables::from_env`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Tunables {
    /// Simulations through a leaf before it gets children of its own, while the tree's
    /// arena is nearly empty.
    pub expand_visits: u32,
    /// How the expansion threshold rises as the arena fills: `expand_visits` times
    /// `1 + expand_growth * fill^2` (fill from 0 to 1). A long search on a big board thus
    /// slows its growth instead of meeting a full arena, and a short one expands early.
    pub expand_growth: f32,
    /// Visits at which a child's own statistics weigh as much as its RAVE statistics.
    /// 1000 on every board: on 19x19 at 1 s a move both Pachi's 4000 (22-37) and 400
    /// (13-25) lost to it.
    pub rave_equiv: f32,
    /// Extra RAVE weight of a play right after the node, falling linearly to none at the
    /// playout's end (a play counts `1 + rave_distance * (end - ply) / (end - depth)`).
    pub rave_distance: u32,
    /// Weight of a child's criticality in its RAVE statistics (0: none): how strongly
    /// holding the child's point at the end of its playouts goes with winning them
    /// (Coulom's criticality, in Pachi's form; -0.5 to 0.5) adds `crit_rave *
    /// criticality` of its RAVE visits as virtual wins, so the points a race or a
    /// life-and-death fight turns on rise as a long search learns which they are. Below 2,
    /// so that a negative criticality never takes all the RAVE visits away.
    pub crit_rave: f32,
    /// Real visits a child needs before its criticality counts: below, the estimate is noise.
    pub crit_min_visits: u32,
    /// The score's share of a playout's value (the rest is the win or loss): among wins a
    /// larger margin is worth more, among losses a smaller one, so the search neither
    /// gives away points it need not nor gives up when a little behind. The win rates the
    /// search reports include it.
    pub score_weight: f32,
    /// The margin (points) at which the score's share is all or nothing.
    pub score_span: f32,
    /// Every child starts with this many virtual visits at a 50% win rate.
    pub prior_even: f32,
    /// The pass child's virtual win rate over its `prior_even` visits while there are other
    /// moves: low, so that a pass is tried only once every move looks lost, but not none.
    /// When the first moves tried lose every playout, the RAVE statistics of the others
    /// are all losses too, and a pass starting at 0% was never visited: in a seki that only
    /// passing keeps, the search played a move breaking it (or, for the other side,
    /// counted on the break and misread the game as won).
    pub prior_pass_share: f32,
    /// Extra virtual wins for capturing one stone, and more than one.
    pub prior_capture_one: f32,
    pub prior_capture_many: f32,
    /// Extra virtual wins for saving an own chain in atari (the extension gets 2+ liberties).
    pub prior_save: f32,
    /// Extra virtual losses for a self-atari that captures nothing.
    pub prior_self_atari: f32,
    /// Extra virtual wins at Manhattan distance 1 and 2 from the last move.
    pub prior_near_last: [f32; 2],
    /// Extra virtual losses for extending into a working ladder; extra virtual wins for an
    /// atari whose ladder works.
    pub prior_ladder: f32,
    /// Extra virtual wins for a move that fits a 3x3 shape pattern.
    pub prior_pattern: f32,
    /// Extra virtual losses for the first two lines far from any stone (plane boards only).
    pub prior_empty_edge: f32,
    /// Extra virtual wins at the root for the heuristics' tactical choice (capture, save,
    /// ladder or net attack, defence read out).
    pub prior_heuristic: f32,
    /// Extra virtual wins at the root for each of the heuristics' other tactical moves
    /// (captures, saves, attacks and defences read out on smaller chains). 20 scored
    /// 107-93 against 0 over 200 games of 19x19 self-play and 106-94 on 9x9: within the
    /// noise, so off.
    pub prior_tactics: f32,
    /// Virtual visits ranked by the learnt move weights (0: the hand-set bonuses above
    /// instead); a move's share of them are wins, by its strength relative to the best.
    pub prior_gamma_visits: f32,
    /// How steeply the win share falls with the relative strength (`share = ratio^power`).
    pub prior_gamma_power: f32,
    /// Virtual wins (as many visits) times the square root of a move's chance of being
    /// played by the learnt weights (0: none), on boards smaller than [`LARGE_BOARD`].
    pub prior_prob_visits: f32,
    /// The same on boards of [`LARGE_BOARD`] and more, which have their own table and want
    /// less of it (on 19x19, 100 won 66-34 against 200 and 300 lost 14-36 in self-play).
    pub prior_prob_visits_large: f32,
    /// The deepest tree level (moves below the root) whose priors read the root's ownership
    /// estimate for the learnt weights' owner feature; deeper nodes go without it. The
    /// estimate is the root's: a few moves down, a threat can unsettle an area it calls
    /// settled, and the feature's extreme levels (about 0.06 on 19x19) then bury the urgent
    /// move there, such as capturing a dead chain that a threat would bring back to life.
    pub prior_owner_depth: u32,
    /// The same for captures and escapes from atari alone: below this level they go without
    /// the owner feature even where other moves keep it, since a capture or an escape is
    /// what changes who owns an area, and the root's estimate cannot know it will be played.
    pub prior_owner_tactics_depth: u32,
    /// Simulations after which the owner feature reads the root's estimate pooled with the
    /// search's own playouts (each weighing as one of the root's), so that a long search
    /// learns which areas its lines unsettle; `u32::MAX`: the root's estimate alone.
    pub prior_owner_live_min: u32,
    /// Under a clock, the share of a move's main-time budget the search may add when its
    /// choice is still open at the budget's end (`Root::unsettled`; Huang, Coulom and Lin,
    /// "Time Management for Monte-Carlo Tree Search in Go", 2010). 0: never; 1 won 123-77
    /// against 0 in 9x9 self-play under a 20 s clock each.
    pub unsettled_extension: f32,
    /// Under a clock, how far a move's share of main time moves from the even share towards
    /// the middle game's (`Clock::middle_game_share`: more before the yose, so less after).
    /// 0: the even share; 1: the middle game's, as Pachi spends it.
    pub middle_game_time: f32,
    /// Under a clock, how much a middle-game move weighs against a fuseki or yose move when
    /// main time is planned over the moves to come (`Clock::phase_weighted_share`). 1: all
    /// alike (the even share); 1.5 is the shape of Pachi 12.90's own schedule.
    pub middle_game_weight: f32,
    /// Real visits a node needs before the network gives its children their priors (in
    /// place of the learnt weights'); the root gets them at once. Evaluating the net costs
    /// as much as tens of playouts, so only the nodes the search returns to earn it.
    pub net_min_visits: u32,
    /// With the network: virtual visits ranked by its policy, a move's share of them wins
    /// by `(p / best p) ^ net_power` (the form of `prior_gamma_visits`).
    pub net_visits: f32,
    pub net_power: f32,
    /// With the network: virtual wins (as many visits) times the square root of the
    /// policy's chance for the move (the form of `prior_prob_visits`).
    pub net_prob_visits: f32,
    /// With the network: virtual visits a node gains, when its children get their priors,
    /// at the value head's win rate (0: the value head unused), on boards smaller than
    /// [`LARGE_BOARD`]. The evaluation that gives the children their priors values the node
    /// for nothing; in SPRTs on 9x9, 20 beat 0, 40 beat 20 and 80 beat 40; 160 did not beat 80.
    pub net_value_visits: f32,
    /// The same on boards of [`LARGE_BOARD`] and more, where the value head is weaker
    /// (held-out loss 0.547 on 19x19 against 0.375 on 9x9).
    pub net_value_visits_large: f32,
    /// With the network: the value head's weight in a simulation's result, against the
    /// playout's (AlphaGo's lambda). 1 is AlphaGo Zero's search: no playouts, every leaf
    /// valued by the network, children chosen by PUCT.
    pub net_value_mix: f32,
    /// PUCT's exploration constant and first-play urgency reduction (the search at
    /// `net_value_mix` 1), Leela Zero's for win rates from 0 to 1.
    pub puct: f32,
    pub fpu_reduction: f32,
    /// The playout policy's rates and limits.
    pub policy: PolicyParams,
}

impl Default for Tunables {
    fn default() -> Tunables {
        Tunables {
            expand_visits: 2,
            expand_growth: 15.0,
            rave_equiv: 1000.0,
            rave_distance: 3,
            crit_rave: 0.0,
            crit_min_visits: 2000,
            score_weight: 0.0,
            score_span: 40.0,
            prior_even: 10.0,
            prior_pass_share: 0.1,
            prior_capture_one: 15.0,
            prior_capture_many: 30.0,
            prior_save: 20.0,
            prior_self_atari: 10.0,
            prior_near_last: [12.0, 8.0],
            prior_ladder: 20.0,
            prior_pattern: 10.0,
            prior_empty_edge: 10.0,
            prior_heuristic: 40.0,
            prior_tactics: 0.0,
            prior_gamma_visits: 20.0,
            prior_gamma_power: 0.5,
            prior_prob_visits: 200.0,
            prior_prob_visits_large: 100.0,
            prior_owner_depth: u32::MAX,
            prior_owner_tactics_depth: u32::MAX,
            prior_owner_live_min: u32::MAX,
            unsettled_extension: 1.0,
            middle_game_time: 0.0,
            middle_game_weight: 1.0,
            net_min_visits: 8,
            net_visits: 20.0,
            net_power: 0.5,
            net_prob_visits: 200.0,
            net_value_visits: 80.0,
            net_value_visits_large: 20.0,
            net_value_mix: 0.0,
            puct: 0.8,
            fpu_reduction: 0.25,
            policy: PolicyParams::default(),
        }
    }
}

impl Tunables {
    /// The absolute prior's virtual wins for a board of `size` (the figure for its table).
    pub fn prior_prob_visits_for(&self, size: usize) -> f32 {
        if size < LARGE_BOARD {
            self.prior_prob_visits
        } else {
            self.prior_prob_visits_large
        }
    }

    /// The value head's virtual visits for a board of `size`.
    pub fn net_value_visits_for(&self, size: usize) -> f32 {
        if size < LARGE_BOARD {
            self.net_value_visits
        } else {
            self.net_value_visits_large
        }
    }

    /// Visits a leaf needs before it is expanded, with the tree's arena `fill` full (0 to 1).
    pub fn expand_threshold(&self, fill: f32) -> u32 {
        let grown = self.expand_visits as f32 * (1.0 + self.expand_growth * fill * fill);
        grown as u32
    }
}

/// How a `SHICHO_TUNE` value sets its field: most take one number, `prior_near_last` two
/// (`a/b`).
enum Setter {
    One(fn(&mut Tunables, f32)),
    Two(fn(&mut Tunables, f32, f32)),
}

use Setter::{One, Two};

fn percent(v: f32) -> u32 {
    v.clamp(0.0, 100.0) as u32
}

/// Every name `SHICHO_TUNE` understands. A value is clamped where a field has a range.
const SETTERS: &[(&str, Setter)] = &[
    (
        "expand_visits",
        One(|t, v| t.expand_visits = v.max(1.0) as u32),
    ),
    ("expand_growth", One(|t, v| t.expand_growth = v.max(0.0))),
    ("rave_equiv", One(|t, v| t.rave_equiv = v.max(1.0))),
    (
        "rave_distance",
        One(|t, v| t.rave_distance = v.clamp(0.0, 100.0) as u32),
    ),
    ("crit_rave", One(|t, v| t.crit_rave = v.clamp(0.0, 1.9))),
    (
        "crit_min_visits",
        One(|t, v| t.crit_min_visits = v.max(0.0) as u32),
    ),
    (
        "score_weight",
        One(|t, v| t.score_weight = v.clamp(0.0, 1.0)),
    ),
    ("score_span", One(|t, v| t.score_span = v.max(1.0))),
    ("prior_even", One(|t, v| t.prior_even = v.max(1.0))),
    (
        "prior_pass_share",
        One(|t, v| t.prior_pass_share = v.clamp(0.0, 1.0)),
    ),
    ("prior_capture_one", One(|t, v| t.prior_capture_one = v)),
    ("prior_capture_many", One(|t, v| t.prior_capture_many = v)),
    ("prior_save", One(|t, v| t.prior_save = v)),
    ("prior_self_atari", One(|t, v| t.prior_self_atari = v)),
    ("prior_ladder", One(|t, v| t.prior_ladder = v)),
    ("prior_pattern", One(|t, v| t.prior_pattern = v)),
    ("prior_empty_edge", One(|t, v| t.prior_empty_edge = v)),
    ("prior_heuristic", One(|t, v| t.prior_heuristic = v)),
    ("prior_tactics", One(|t, v| t.prior_tactics = v)),
    (
        "prior_gamma_visits",
        One(|t, v| t.prior_gamma_visits = v.max(0.0)),
    ),
    (
        "prior_gamma_power",
        One(|t, v| t.prior_gamma_power = v.max(0.0)),
    ),
    (
        "prior_prob_visits",
        One(|t, v| t.prior_prob_visits = v.max(0.0)),
    ),
    (
        "prior_prob_visits_large",
        One(|t, v| t.prior_prob_visits_large = v.max(0.0)),
    ),
    (
        "prior_owner_depth",
        One(|t, v| t.prior_owner_depth = v.max(0.0) as u32),
    ),
    (
        "prior_owner_tactics_depth",
        One(|t, v| t.prior_owner_tactics_depth = v.max(0.0) as u32),
    ),
    (
        "prior_owner_live_min",
        One(|t, v| t.prior_owner_live_min = v.max(0.0) as u32),
    ),
    (
        "unsettled_extension",
        One(|t, v| t.unsettled_extension = v.clamp(0.0, 4.0)),
    ),
    (
        "middle_game_time",
        One(|t, v| t.middle_game_time = v.clamp(0.0, 1.0)),
    ),
    (
        "middle_game_weight",
        One(|t, v| t.middle_game_weight = v.clamp(0.25, 4.0)),
    ),
    (
        "net_min_visits",
        One(|t, v| t.net_min_visits = v.clamp(0.0, 1e9) as u32),
    ),
    ("net_visits", One(|t, v| t.net_visits = v.max(0.0))),
    ("net_power", One(|t, v| t.net_power = v.clamp(0.0, 8.0))),
    (
        "net_prob_visits",
        One(|t, v| t.net_prob_visits = v.max(0.0)),
    ),
    (
        "net_value_visits",
        One(|t, v| t.net_value_visits = v.max(0.0)),
    ),
    (
        "net_value_visits_large",
        One(|t, v| t.net_value_visits_large = v.max(0.0)),
    ),
    (
        "net_value_mix",
        One(|t, v| t.net_value_mix = v.clamp(0.0, 1.0)),
    ),
    ("puct", One(|t, v| t.puct = v.clamp(0.0, 100.0))),
    (
        "fpu_reduction",
        One(|t, v| t.fpu_reduction = v.clamp(0.0, 1.0)),
    ),
    (
        "atari_percent",
        One(|t, v| t.policy.atari_percent = percent(v)),
    ),
    (
        "nakade_percent",
        One(|t, v| t.policy.nakade_percent = percent(v)),
    ),
    (
        "two_lib_percent",
        One(|t, v| t.policy.two_lib_percent = percent(v)),
    ),
    (
        "race_percent",
        One(|t, v| t.policy.race_percent = percent(v)),
    ),
    (
        "pattern_percent",
        One(|t, v| t.policy.pattern_percent = percent(v)),
    ),
    (
        "reply_percent",
        One(|t, v| t.policy.reply_percent = percent(v)),
    ),
    (
        "left_atari_percent",
        One(|t, v| t.policy.left_atari_percent = percent(v)),
    ),
    ("ko_percent", One(|t, v| t.policy.ko_percent = percent(v))),
    (
        "ko_moves",
        One(|t, v| t.policy.ko_moves = v.clamp(0.0, MAX_KO_MOVES as f32) as u32),
    ),
    (
        "self_atari_percent",
        One(|t, v| t.policy.self_atari_percent = percent(v)),
    ),
    (
        "fill_board_tries",
        One(|t, v| t.policy.fill_board_tries = v.max(0.0) as u32),
    ),
    (
        "ladder_nodes",
        One(|t, v| t.policy.ladder_nodes = v.max(0.0) as u32),
    ),
    ("prior_near_last", Two(|t, a, b| t.prior_near_last = [a, b])),
];

impl Tunables {
    /// The defaults with `name=value` overrides (comma separated; `prior_near_last` takes
    /// `a/b`). Unknown names and bad values are reported and ignored.
    pub fn with_overrides(text: &str) -> Tunables {
        let mut t = Tunables::default();
        for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let applied = item.split_once('=').is_some_and(|(name, value)| {
                let name = name.trim();
                match SETTERS.iter().find(|(n, _)| *n == name) {
                    Some((_, One(set))) => value.trim().parse().map(|v| set(&mut t, v)).is_ok(),
                    Some((_, Two(set))) => match value.split_once('/') {
                        Some((a, b)) => match (a.parse(), b.parse()) {
                            (Ok(a), Ok(b)) => {
                                set(&mut t, a, b);
                                true
                            }
                            _ => false,
                        },
                        None => false,
                    },
                    None => false,
                }
            });
            if !applied {
                log::warn!("SHICHO_TUNE: ignoring '{item}'");
            }
        }
        t
    }

    /// The defaults, or `SHICHO_TUNE`'s overrides when that variable is set.
    pub fn from_env() -> Tunables {
        match std::env::var("SHICHO_TUNE") {
            Ok(text) => {
                let t = Tunables::with_overrides(&text);
                log::info!("tunables: {t:?}");
                t
            }
            Err(_) => Tunables::default(),
        }
    }
}

/// What `--weights` is when not given.
pub const DEFAULT_WEIGHTS: &str = "builtin";

/// Simulations per move when neither a number nor a time limit is given.
pub const DEFAULT_PLAYOUTS: usize = 20_000;

/// What the search may spend and how it decides.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// Simulations per move at most. `None`: [`DEFAULT_PLAYOUTS`] without a time limit, and
    /// no cap under one (the clock decides).
    pub playouts: Option<usize>,
    /// Wall-clock limit per move, if any (the clock's budget when a time control is set).
    pub time: Option<Duration>,
    /// More wall-clock time the search may take when its choice is still open at `time`
    /// (set from the clock's main time and `Tunables::unsettled_extension`).
    pub extension: Option<Duration>,
    /// Resign when the best move wins less often than this, two searches in a row (0 never
    /// resigns).
    pub resign_below: f64,
    /// Threads searching one shared tree.
    pub threads: usize,
    /// The weights of the tree, its priors and its playouts.
    pub tunables: Tunables,
    /// The neural network giving the priors, if any (`--weights`).
    pub network: Option<Network>,
}

/// A handle on a network's weights, shared by every search that uses them. Two handles are
/// equal when they hold the same weights.
#[derive(Clone)]
pub struct Network(pub std::sync::Arc<Weights>);

impl Network {
    /// The net built into the binary.
    pub fn builtin() -> Network {
        static BUILTIN: std::sync::OnceLock<Network> = std::sync::OnceLock::new();
        BUILTIN
            .get_or_init(|| Network(std::sync::Arc::new(Weights::builtin().clone())))
            .clone()
    }
}

impl Network {
    /// What `--weights` names: `builtin`, `none` (the classic engine, no network) or a
    /// safetensors file.
    ///
    /// # Errors
    /// The file cannot be read or is not a usable network; the text says which and why.
    pub fn from_option(spec: &str) -> Result<Option<Network>, String> {
        match spec {
            "builtin" => Ok(Some(Network::builtin())),
            "none" => Ok(None),
            path => {
                let bytes = std::fs::read(path).map_err(|e| format!("--weights {path}: {e}"))?;
                let weights =
                    Weights::from_bytes(&bytes).map_err(|e| format!("--weights {path}: {e}"))?;
                Ok(Some(Network(std::sync::Arc::new(weights))))
            }
        }
    }
}

impl PartialEq for Network {
    fn eq(&self, other: &Network) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Network({} blocks, {} channels)",
            self.0.blocks.len(),
            self.0.channels
        )
    }
}

impl Params {
    /// The simulations a search may run: the number given, else the default without a time
    /// limit and no cap with one.
    pub fn playout_limit(&self) -> usize {
        match (self.playouts, self.time) {
            (Some(n), _) => n.max(1),
            (None, None) => DEFAULT_PLAYOUTS,
            (None, Some(_)) => usize::MAX / 4,
        }
    }
}

impl Default for Params {
    fn default() -> Params {
        Params {
            playouts: None,
            time: None,
            extension: None,
            resign_below: 0.1,
            threads: 1,
            tunables: Tunables::default(),
            network: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_set_their_fields_and_bad_items_change_nothing() {
        let t = Tunables::with_overrides(
            " rave_equiv = 1000 ,prior_near_last=3/4,expand_visits=0,nonsense=1,prior_save=x,\
             pattern_percent=250,prior_near_last=5",
        );
        let want = Tunables {
            rave_equiv: 1000.0,
            prior_near_last: [3.0, 4.0],
            expand_visits: 1,
            policy: PolicyParams {
                pattern_percent: 100,
                ..PolicyParams::default()
            },
            ..Tunables::default()
        };
        assert_eq!(t, want);
        assert_eq!(Tunables::with_overrides(""), Tunables::default());
    }

    #[test]
    fn the_expansion_threshold_rises_with_the_arena_fill() {
        let t = Tunables {
            expand_visits: 2,
            expand_growth: 15.0,
            ..Tunables::default()
        };
        assert_eq!(t.expand_threshold(0.0), 2);
        assert_eq!(t.expand_threshold(0.2), 3);
        assert_eq!(t.expand_threshold(0.5), 9);
        assert_eq!(t.expand_threshold(1.0), 32);
        let fixed = Tunables {
            expand_growth: 0.0,
            ..t
        };
        assert_eq!(fixed.expand_threshold(1.0), 2);
    }

    #[test]
    fn every_field_has_a_name() {
        let all = SETTERS
            .iter()
            .map(|(name, setter)| match setter {
                One(_) => format!("{name}=7"),
                Two(_) => format!("{name}=7/7"),
            })
            .collect::<Vec<_>>()
            .join(",");
        let t = Tunables::with_overrides(&all);
        let d = Tunables::default();
        // Each field differs from its default once set to 7 (no default is 7).
        assert_ne!(t.expand_visits, d.expand_visits);
        assert_ne!(t.expand_growth, d.expand_growth);
        assert_ne!(t.rave_equiv, d.rave_equiv);
        assert_ne!(t.rave_distance, d.rave_distance);
        assert_ne!(t.crit_rave, d.crit_rave);
        assert_ne!(t.crit_min_visits, d.crit_min_visits);
        assert_ne!(t.score_weight, d.score_weight);
        assert_ne!(t.score_span, d.score_span);
        assert_ne!(t.prior_even, d.prior_even);
        assert_ne!(t.prior_pass_share, d.prior_pass_share);
        assert_ne!(t.prior_capture_one, d.prior_capture_one);
        assert_ne!(t.prior_capture_many, d.prior_capture_many);
        assert_ne!(t.prior_save, d.prior_save);
        assert_ne!(t.prior_self_atari, d.prior_self_atari);
        assert_ne!(t.prior_near_last, d.prior_near_last);
        assert_ne!(t.prior_ladder, d.prior_ladder);
        assert_ne!(t.prior_pattern, d.prior_pattern);
        assert_ne!(t.prior_empty_edge, d.prior_empty_edge);
        assert_ne!(t.prior_heuristic, d.prior_heuristic);
        assert_ne!(t.prior_tactics, d.prior_tactics);
        assert_ne!(t.prior_gamma_visits, d.prior_gamma_visits);
        assert_ne!(t.unsettled_extension, d.unsettled_extension);
        assert_ne!(t.middle_game_time, d.middle_game_time);
        assert_ne!(t.middle_game_weight, d.middle_game_weight);
        assert_ne!(t.prior_prob_visits_large, d.prior_prob_visits_large);
        assert_ne!(t.prior_owner_depth, d.prior_owner_depth);
        assert_ne!(t.prior_owner_tactics_depth, d.prior_owner_tactics_depth);
        assert_ne!(t.prior_owner_live_min, d.prior_owner_live_min);
        assert_ne!(t.prior_gamma_power, d.prior_gamma_power);
        assert_ne!(t.net_min_visits, d.net_min_visits);
        assert_ne!(t.net_visits, d.net_visits);
        assert_ne!(t.net_power, d.net_power);
        assert_ne!(t.net_prob_visits, d.net_prob_visits);
        assert_ne!(t.net_value_visits, d.net_value_visits);
        assert_ne!(t.net_value_visits_large, d.net_value_visits_large);
        assert_ne!(t.net_value_mix, d.net_value_mix);
        assert_ne!(t.puct, d.puct);
        assert_ne!(t.fpu_reduction, d.fpu_reduction);
        assert_ne!(t.policy.atari_percent, d.policy.atari_percent);
        assert_ne!(t.policy.nakade_percent, d.policy.nakade_percent);
        assert_ne!(t.policy.two_lib_percent, d.policy.two_lib_percent);
        assert_ne!(t.policy.race_percent, d.policy.race_percent);
        assert_ne!(t.policy.pattern_percent, d.policy.pattern_percent);
        assert_ne!(t.policy.reply_percent, d.policy.reply_percent);
        assert_ne!(t.policy.left_atari_percent, d.policy.left_atari_percent);
        assert_ne!(t.policy.ko_percent, d.policy.ko_percent);
        assert_ne!(t.policy.ko_moves, d.policy.ko_moves);
        assert_ne!(t.policy.self_atari_percent, d.policy.self_atari_percent);
        assert_ne!(t.policy.fill_board_tries, d.policy.fill_board_tries);
        assert_ne!(t.policy.ladder_nodes, d.policy.ladder_nodes);
    }
}
