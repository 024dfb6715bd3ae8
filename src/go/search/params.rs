//! What a search may spend ([`Params`]) and the weights it decides with ([`Tunables`]).
//!
//! Both are plain values handed to the search by its caller: nothing in the search reads a
//! global, so two searches with different weights can run side by side (a tuning match in
//! one process, a test with its own weights).

use std::time::Duration;

use crate::go::network::direct::Precision;
use crate::go::network::evaluator::Evaluator;
use crate::go::network::weights::Weights;
use crate::go::search::pattern::gammas::LARGE_BOARD;
use crate::go::search::playout::params::PolicyParams;
use crate::go::search::tunable::{Range, tunables};

tunables! {
    /// The search's weights, each declared once: its default, the range a `SHICHO_TUNE`
    /// value is clamped to, and one comment (`shicho tunables` lists them; so does the
    /// table in `doc/search.md`). Priors are virtual (visits, wins) every child of the tree
    /// starts with.
    ///
    /// `SHICHO_TUNE=name=value,...` overrides them for tuning matches ([`Tunables::from_env`]).
    #[derive(Clone, Debug, PartialEq)]
    pub struct Tunables {
        /// Simulations through a leaf before it gets children of its own, while the tree's
        /// arena is nearly empty.
        expand_visits: u32 = 2, Range::AtLeast(1.0);
        /// How the expansion threshold rises as the arena fills: `expand_visits` times
        /// `1 + expand_growth * fill^2` (fill from 0 to 1). A long search on a big board thus
        /// slows its growth instead of meeting a full arena, and a short one expands early.
        expand_growth: f32 = 15.0, Range::AtLeast(0.0);
        /// Visits at which a child's own statistics weigh as much as its RAVE statistics.
        /// 1000 on every board: 19x19 self-play chose it over Pachi's 4000 and 400
        /// (`doc/strength.md`).
        rave_equiv: f32 = 1000.0, Range::AtLeast(1.0);
        /// Extra RAVE weight of a play right after the node, falling linearly to none at the
        /// playout's end (a play counts `1 + rave_distance * (end - ply) / (end - depth)`).
        rave_distance: u32 = 3, Range::Within(0.0, 100.0);
        /// Weight of a child's criticality in its RAVE statistics (0: none): how strongly
        /// holding the child's point at the end of its playouts goes with winning them
        /// (Coulom's criticality, in Pachi's form; -0.5 to 0.5) adds `crit_rave *
        /// criticality` of its RAVE visits as virtual wins, so the points a race or a
        /// life-and-death fight turns on rise as a long search learns which they are. Below 2,
        /// so that a negative criticality never takes all the RAVE visits away.
        crit_rave: f32 = 0.0, Range::Within(0.0, 1.9);
        /// Real visits a child needs before its criticality counts: below, the estimate is noise.
        crit_min_visits: u32 = 2000, Range::AtLeast(0.0);
        /// The score's share of a playout's value (the rest is the win or loss): among wins a
        /// larger margin is worth more, among losses a smaller one, so the search neither
        /// gives away points it need not nor gives up when a little behind. The win rates the
        /// search reports include it.
        score_weight: f32 = 0.0, Range::Within(0.0, 1.0);
        /// The margin (points) at which the score's share is all or nothing.
        score_span: f32 = 40.0, Range::AtLeast(1.0);
        /// Every child starts with this many virtual visits at a 50% win rate.
        prior_even: f32 = 10.0, Range::AtLeast(1.0);
        /// The pass child's virtual win rate over its `prior_even` visits while there are other
        /// moves: low, so that a pass is tried only once every move looks lost, but not none.
        /// When the first moves tried lose every playout, the RAVE statistics of the others
        /// are all losses too, and a pass starting at 0% was never visited: in a seki that only
        /// passing keeps, the search played a move breaking it (or, for the other side,
        /// counted on the break and misread the game as won).
        prior_pass_share: f32 = 0.1, Range::Within(0.0, 1.0);
        /// Extra virtual wins for capturing one stone.
        prior_capture_one: f32 = 15.0, Range::Any;
        /// Extra virtual wins for capturing more than one stone.
        prior_capture_many: f32 = 30.0, Range::Any;
        /// Extra virtual wins for saving an own chain in atari (the extension gets 2+ liberties).
        prior_save: f32 = 20.0, Range::Any;
        /// Extra virtual losses for a self-atari that captures nothing.
        prior_self_atari: f32 = 10.0, Range::Any;
        /// Extra virtual wins at Manhattan distance 1 and 2 from the last move.
        prior_near_last: [f32; 2] = [12.0, 8.0], Range::Any;
        /// Extra virtual losses for extending into a working ladder; extra virtual wins for an
        /// atari whose ladder works.
        prior_ladder: f32 = 20.0, Range::Any;
        /// Extra virtual wins for a move that fits a 3x3 shape pattern.
        prior_pattern: f32 = 10.0, Range::Any;
        /// Extra virtual losses for the first two lines far from any stone (plane boards only).
        prior_empty_edge: f32 = 10.0, Range::Any;
        /// Extra virtual wins at the root for the heuristics' tactical choice (capture, save,
        /// ladder or net attack, defence read out).
        prior_heuristic: f32 = 40.0, Range::Any;
        /// Extra virtual wins at the root for each of the heuristics' other tactical moves
        /// (captures, saves, attacks and defences read out on smaller chains). Off: self-play
        /// on 9x9 and 19x19 found no gain in it (`doc/strength.md`).
        prior_tactics: f32 = 0.0, Range::Any;
        /// Virtual visits ranked by the learnt move weights (0: the hand-set bonuses above
        /// instead); a move's share of them are wins, by its strength relative to the best.
        prior_gamma_visits: f32 = 20.0, Range::AtLeast(0.0);
        /// How steeply the win share falls with the relative strength (`share = ratio^power`).
        prior_gamma_power: f32 = 0.5, Range::AtLeast(0.0);
        /// Virtual wins (as many visits) times the square root of a move's chance of being
        /// played by the learnt weights (0: none), on boards smaller than [`LARGE_BOARD`].
        prior_prob_visits: f32 = 200.0, Range::AtLeast(0.0);
        /// The same on boards of [`LARGE_BOARD`] and more, which have their own table and want
        /// less of it (the figure 19x19 self-play chose: `doc/strength.md`).
        prior_prob_visits_large: f32 = 100.0, Range::AtLeast(0.0);
        /// The deepest tree level (moves below the root) whose priors read the root's ownership
        /// estimate for the learnt weights' owner feature; deeper nodes go without it. The
        /// estimate is the root's: a few moves down, a threat can unsettle an area it calls
        /// settled, and the feature's extreme levels (about 0.06 on 19x19) then bury the urgent
        /// move there, such as capturing a dead chain that a threat would bring back to life.
        prior_owner_depth: u32 = u32::MAX, Range::AtLeast(0.0);
        /// The same for captures and escapes from atari alone: below this level they go without
        /// the owner feature even where other moves keep it, since a capture or an escape is
        /// what changes who owns an area, and the root's estimate cannot know it will be played.
        prior_owner_tactics_depth: u32 = u32::MAX, Range::AtLeast(0.0);
        /// Simulations after which the owner feature reads the root's estimate pooled with the
        /// search's own playouts (each weighing as one of the root's), so that a long search
        /// learns which areas its lines unsettle; `u32::MAX`: the root's estimate alone.
        prior_owner_live_min: u32 = u32::MAX, Range::AtLeast(0.0);
        /// Under a clock, the share of a move's main-time budget the search may add when its
        /// choice is still open at the budget's end (`Root::unsettled`; Huang, Coulom and Lin,
        /// "Time Management for Monte-Carlo Tree Search in Go", 2010). 0: never; the
        /// default is what 9x9 self-play under a clock chose (`doc/strength.md`).
        unsettled_extension: f32 = 1.0, Range::Within(0.0, 4.0);
        /// Under a time limit, whether a search stops once the most visited root move can no
        /// longer be overtaken in the simulations the time left allows (1), saving the rest of
        /// the move's time, or always runs to its deadline (0).
        early_stop: u32 = 1, Range::Within(0.0, 1.0);
        /// Under a clock, how far a move's share of main time moves from the even share towards
        /// the middle game's (`Clock::middle_game_share`: more before the yose, so less after).
        /// 0: the even share; 1: the middle game's, as Pachi spends it.
        middle_game_time: f32 = 0.0, Range::Within(0.0, 1.0);
        /// Under a clock, how much a middle-game move weighs against a fuseki or yose move when
        /// main time is planned over the moves to come (`Clock::phase_weighted_share`). 1: all
        /// alike (the even share); 1.5 is the shape of Pachi 12.90's own schedule.
        middle_game_weight: f32 = 1.0, Range::Within(0.25, 4.0);
        /// Real visits a node needs before the network gives its children their priors (in
        /// place of the learnt weights'); the root gets them at once. Evaluating the net costs
        /// as much as tens of playouts, so only the nodes the search returns to earn it.
        net_min_visits: u32 = 8, Range::Within(0.0, 1e9);
        /// With the network: virtual visits ranked by its policy, a move's share of them wins
        /// by `(p / best p) ^ net_power` (the form of `prior_gamma_visits`).
        net_visits: f32 = 20.0, Range::AtLeast(0.0);
        /// How steeply that win share falls with the policy's relative chance (the form of
        /// `prior_gamma_power`).
        net_power: f32 = 0.5, Range::Within(0.0, 8.0);
        /// With the network: virtual wins (as many visits) times the square root of the
        /// policy's chance for the move (the form of `prior_prob_visits`).
        net_prob_visits: f32 = 200.0, Range::AtLeast(0.0);
        /// With the network: virtual visits a node gains, when its children get their priors,
        /// at the value head's win rate (0: the value head unused), on boards smaller than
        /// [`LARGE_BOARD`]. The evaluation that gives the children their priors values the node
        /// for nothing; SPRTs in 9x9 self-play chose the figure, doubling it until a doubling
        /// lost (`doc/strength.md`).
        net_value_visits: f32 = 80.0, Range::AtLeast(0.0);
        /// The same on boards of [`LARGE_BOARD`] and more, where the value head is weaker (its
        /// held-out losses are in `train/README.md`).
        net_value_visits_large: f32 = 20.0, Range::AtLeast(0.0);
        /// With the network: the value head's weight in a simulation's result, against the
        /// playout's (AlphaGo's lambda). 1 is AlphaGo Zero's search, the zero search: no
        /// playouts, every leaf valued by the network, children chosen by PUCT
        /// (`strategy::Zero`; without a network, 1 leaves the playouts' search as it is).
        net_value_mix: f32 = 0.0, Range::Within(0.0, 1.0);
        /// White's extra komi in the search of a handicap game that shicho plays (either
        /// side), in points a handicap stone, at the start (0: the game searched as it is
        /// counted); analyses leave it out. The game's count keeps the real komi
        /// (`handicap.rs`). 7 by 80 games giving 9 stones to GNU Go (`doc/servers.md`).
        handicap_komi: f32 = 7.0, Range::AtLeast(0.0);
        /// The moves over which the extra komi falls to 0, as a share of the board's points.
        handicap_komi_fade: f32 = 0.5, Range::Within(0.01, 4.0);
        /// PUCT's exploration constant (the zero search, `net_value_mix` 1), Leela Zero's for
        /// win rates from 0 to 1.
        puct: f32 = 0.8, Range::Within(0.0, 100.0);
        /// PUCT's first-play urgency reduction, Leela Zero's: a child not yet visited starts
        /// from its visited siblings' mean less this times the square root of their policy share.
        fpu_reduction: f32 = 0.25, Range::Within(0.0, 1.0);
        /// KataGo's `wideRootNoise`, for analyses that want more moves looked at (KaTrain
        /// asks 0.04): at the root, each choice of a child adds to its value, half the time,
        /// this many times half a standard normal's size in win rate (KataGo's utility is
        /// twice a win rate), and PUCT's policy is raised to `1 / (1 + 4 * noise)`. 0: none.
        wide_root_noise: f32 = 0.0, Range::Within(0.0, 5.0);
    }
    /// The playout policy's rates and limits (set by their own names).
    policy: PolicyParams,
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

    /// The defaults with `name=value` overrides (comma separated; `prior_near_last` takes
    /// `a/b`). Unknown names and bad values are reported and ignored.
    pub fn with_overrides(text: &str) -> Tunables {
        let mut t = Tunables::default();
        for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let applied = item
                .split_once('=')
                .is_some_and(|(name, value)| t.set(name.trim(), value));
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

/// A handle on a network (its weights and the cache of their answers), shared by every
/// search that uses it. Two handles are equal when they hold the same one.
#[derive(Clone)]
pub struct Network(pub std::sync::Arc<Evaluator>);

impl Network {
    pub fn new(weights: Weights) -> Network {
        Network(std::sync::Arc::new(Evaluator::new(weights)))
    }

    pub fn weights(&self) -> &Weights {
        self.0.weights()
    }

    /// The net built into the binary.
    pub fn builtin() -> Network {
        static BUILTIN: std::sync::OnceLock<Network> = std::sync::OnceLock::new();
        BUILTIN
            .get_or_init(|| Network::new(Weights::builtin().clone()))
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
                Ok(Some(Network::new(weights)))
            }
        }
    }
}

impl Network {
    /// These weights computed in `precision` (`--net-precision`): the same handle for
    /// float32, else a copy made ready for it (where the core lacks the precision's
    /// instructions the copy computes in float32, as the original would).
    pub fn with_precision(self, precision: Precision) -> Network {
        if precision == self.weights().precision {
            return self;
        }
        Network::new(self.weights().clone().with_precision(precision))
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
            "Network({} blocks, {} channels, {:?})",
            self.weights().blocks.len(),
            self.weights().channels,
            self.weights().precision
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
    fn every_listed_name_sets_a_field() {
        let listing = Tunables::listing();
        let mut names: Vec<&str> = listing.iter().map(|t| t.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), listing.len(), "a name listed twice");
        for listed in &listing {
            // A value that is not the default (6 where the default is 7, 0 for a switch
            // that is on).
            let value = match (listed.kind, listed.default.as_str(), listed.range) {
                ("number/number", _, _) => "7/7",
                (_, "1", Range::Within(0.0, 1.0)) => "0",
                (_, "7", _) => "6",
                _ => "7",
            };
            let mut t = Tunables::default();
            assert!(t.set(listed.name, value), "{}", listed.name);
            // Nor is it a bound the value is clamped to.
            assert_ne!(t, Tunables::default(), "{}", listed.name);
        }
        assert!(!Tunables::default().set("policy", "7"));
    }

    /// The table of `doc/search.md` that lists the tunables, as their declarations give it.
    fn doc_table() -> String {
        let mut table =
            String::from("| name | default | values | what it is |\n|---|---|---|---|\n");
        for t in Tunables::listing() {
            table += &format!(
                "| `{}` | {} | {}, {} | {} |\n",
                t.name,
                t.default,
                t.kind,
                t.range,
                t.doc_paragraph().replace('|', "\\|")
            );
        }
        table
    }

    #[test]
    fn the_docs_list_every_tunable_as_declared() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/doc/search.md");
        let doc = std::fs::read_to_string(path).expect("doc/search.md");
        let start = doc.find("| name | default |").expect("the tunables' table");
        let end = doc[start..]
            .find("\n\n")
            .map_or(doc.len(), |n| start + n + 1);
        let want = doc_table();
        assert!(
            doc[start..end] == want,
            "doc/search.md's table of tunables is not the declarations'; it should read:\n{want}"
        );
    }
}
