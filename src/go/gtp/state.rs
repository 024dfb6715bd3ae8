//! What the engine knows between commands: the game, the clocks, the reading stack, how it
//! chooses moves. Its fields are private; the handlers go through its methods, which keep
//! its invariants:
//! - the reading stack (`trymove`) lies on top of the game's current position and is judged
//!   by its suicide rule: every change of the game drops it;
//! - the torus view shift belongs to a board: a new board (size, clear, topology, loaded
//!   record) resets it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::color::Color;
use crate::go::board::{Board, IllegalMove};
use crate::go::game::{CannotUndo, Game};
use crate::go::geometry::{Geometry, SizeError};
use crate::go::point::Move;
use crate::go::rules::Rules;
use crate::go::search::heuristic::REG_GENMOVE_SEED;
use crate::go::search::memory::{self, MIN_TREE_NODES, TooLittleMemory};
use crate::go::search::{self, Decision, Level, Params, Player, Searcher, Watch};
use crate::go::tactics::{Budget, ReadingStack, StackEmpty};
use crate::gtp::state::Common;
use crate::gtp::table::CommandTable;
use crate::rng::Rng;

/// Start-up settings, from the command line.
#[derive(Clone, Debug)]
pub struct Config {
    pub rules: Rules,
    pub size: usize,
    pub komi: f64,
    /// Seed of genmove's random choices (reg_genmove always uses its own fixed seed).
    pub seed: u64,
    /// How genmove chooses.
    pub player: Player,
    /// What the tree search may spend (with `Player::Mcts`), and its weights. Its `time`
    /// (`--time`) is Othello's time per move too.
    pub search: Params,
    /// Whether the tree search goes on thinking while the opponent does (`--ponder`).
    pub ponder: bool,
    /// The tree search's strength (`--level`): 10 plays as `search` says.
    pub level: Level,
    /// The memory Go's search may hold, in MiB (`--max-memory`; `None`: the default tree).
    pub max_memory: Option<usize>,
    /// What `version` answers: shicho's own version, unless `--override-version` names
    /// another for a front end that reads it as its own engine's (Lizzie 0.7 takes it for
    /// Leela Zero's and waits on a dialog for anything below 0.15).
    pub version: String,
}

impl Default for Config {
    fn default() -> Config {
        let rules = Rules::default();
        Config {
            rules,
            size: rules.default_size(),
            komi: rules.default_komi(),
            seed: 1,
            player: Player::Mcts,
            search: Params::default(),
            ponder: false,
            level: Level::FULL,
            max_memory: None,
            version: env!("CARGO_PKG_VERSION").to_string(),
        }
    }
}

/// A search running on the opponent's time: its thread hands the searcher back, with the
/// tree it grew, when stopped.
struct Pondering {
    stop: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<Searcher>,
}

/// The engine's whole state.
pub struct State {
    /// The table, the clocks, the interrupt flag, the version: what every game's state has.
    pub(super) common: Common<State>,
    game: Game,
    /// Torus view offset for showboard (`shicho-shift`).
    view_shift: (usize, usize),
    rng: Rng,
    /// GNU Go's reading stack (`trymove`/`popgo`) over the game's position, made on the
    /// first `trymove` and dropped whenever the game changes.
    tried: Option<ReadingStack>,
    /// What `attack`, `defend` and friends may read (`increase_depths`/`decrease_depths`).
    budget: Budget,
    player: Player,
    params: Params,
    /// The root noise of analysis commands (KataGo's `analysisWideRootNoise`), in place of
    /// the genmove searches' `params.tunables.wide_root_noise` (`wideRootNoise`).
    analysis_wide_root_noise: f32,
    level: Level,
    /// MiB; `None`: the default tree (`search::memory`).
    max_memory: Option<usize>,
    /// The tree search, with the tree it keeps between moves.
    searcher: Searcher,
    ponder: bool,
    /// The search thinking on the opponent's time, if one runs.
    pondering: Option<Pondering>,
}

impl State {
    /// A state whose searches stop when `interrupt` is raised: the engine gives every
    /// game's state the one flag its session raises.
    pub fn with_interrupt(
        config: &Config,
        commands: &'static CommandTable<State>,
        interrupt: Arc<AtomicBool>,
    ) -> State {
        let game = Game::new(config.size, config.rules, config.komi).unwrap_or_else(|_| {
            Game::new(19, config.rules, config.komi).expect("19x19 is a valid size")
        });
        State {
            common: Common::new(commands, interrupt, &config.version),
            game,
            rng: Rng::new(config.seed),
            view_shift: (0, 0),
            tried: None,
            budget: Budget::default(),
            player: config.player,
            params: config.search.clone(),
            analysis_wide_root_noise: 0.0,
            level: config.level,
            max_memory: config.max_memory,
            // `--max-memory` is checked at start; a configuration made in code with too
            // little gets the smallest arena.
            searcher: Searcher::with_capacity(
                memory::tree_nodes(config.max_memory, config.search.threads)
                    .unwrap_or(MIN_TREE_NODES),
            ),
            ponder: config.ponder,
            pondering: None,
        }
    }

    // ----- the game -------------------------------------------------------------------

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn geo(&self) -> &'static Geometry {
        self.game.geometry()
    }

    /// The position the observation and reading commands look at: the top of the reading
    /// stack, if any, else the game's.
    pub fn board(&self) -> &Board {
        self.tried.as_ref().map_or(self.game.board(), |r| r.board())
    }

    /// Plays `c`'s move by the game's rules.
    ///
    /// # Errors
    /// Why the move is illegal; nothing changes.
    pub fn play(&mut self, c: Color, m: Move) -> Result<(), IllegalMove> {
        self.game.play(c, m)?;
        self.tried = None;
        Ok(())
    }

    /// Plays the moves in order, all or none.
    ///
    /// # Errors
    /// The first illegal move; nothing changes.
    pub fn play_all(&mut self, moves: &[(Color, Move)]) -> Result<(), IllegalMove> {
        let mut game = self.game.clone();
        for &(c, m) in moves {
            game.play(c, m)?;
        }
        self.replace_game(game);
        Ok(())
    }

    /// Takes back `n` moves, all or none.
    ///
    /// # Errors
    /// `CannotUndo` when fewer than `n` can be taken back.
    pub fn undo(&mut self, n: usize) -> Result<(), CannotUndo> {
        if n > self.game.history_len() {
            return Err(CannotUndo);
        }
        for _ in 0..n {
            self.game.undo()?;
        }
        self.tried = None;
        Ok(())
    }

    /// A new empty board of `size`, komi and rules kept.
    ///
    /// # Errors
    /// `SizeError` for a size the board does not take; nothing changes.
    pub fn resize(&mut self, size: usize) -> Result<(), SizeError> {
        self.game.resize(size)?;
        self.new_board();
        Ok(())
    }

    /// Empties the board and the history; komi and rules kept.
    pub fn clear(&mut self) {
        self.game.clear();
        self.new_board();
    }

    pub fn set_komi(&mut self, komi: f64) {
        self.game.set_komi(komi);
    }

    /// Changes the rules; a change of topology empties the board.
    pub fn set_rules(&mut self, rules: Rules) {
        let topology_changes = rules.topology != self.game.rules().topology;
        self.game.set_rules(rules);
        if topology_changes {
            self.new_board();
        }
        // The reading stack judges its moves by the suicide rule it was made with: like
        // every other change of the game, a rules change ends the sequence, so that
        // trymove and is_legal never disagree.
        self.tried = None;
    }

    /// Replaces the game by another on the same board (handicap, setup stones).
    pub fn replace_game(&mut self, game: Game) {
        self.game = game;
        self.tried = None;
    }

    /// Replaces the game by one on a board of its own (a loaded record).
    pub fn load_game(&mut self, game: Game) {
        self.game = game;
        self.new_board();
    }

    /// Who moves first, before any move; `false` once moves have been played.
    pub fn set_start_player(&mut self, c: Color) -> bool {
        self.game.set_start_player(c)
    }

    /// Forgets what belonged to the old board rather than to the engine.
    fn new_board(&mut self) {
        self.tried = None;
        self.view_shift = (0, 0);
    }

    // ----- legality, inside and outside a reading sequence --------------------------------

    /// Legality by the game's rules, or by the board alone inside a reading sequence.
    pub fn is_legal(&self, c: Color, m: Move) -> bool {
        match &self.tried {
            None => self.game.is_legal(c, m),
            Some(r) => r
                .board()
                .check(c, m, self.game.rules().suicide_allowed())
                .is_ok(),
        }
    }

    // ----- choosing moves -------------------------------------------------------------

    pub fn player(&self) -> Player {
        self.player
    }

    pub fn set_player(&mut self, player: Player) {
        self.player = player;
    }

    /// What the tree search may spend, and its weights.
    pub fn params(&self) -> &Params {
        &self.params
    }

    pub fn set_playouts(&mut self, playouts: usize) {
        self.params.playouts = Some(playouts);
    }

    /// The simulations a search may run (`None`: the default, or the clock decides).
    pub fn set_playout_cap(&mut self, playouts: Option<usize>) {
        self.params.playouts = playouts;
    }

    /// What an analysis command's search may spend: the engine's params with the analysis
    /// root noise.
    pub fn analysis_params(&self) -> Params {
        let mut params = self.params.clone();
        params.tunables.wide_root_noise = self.analysis_wide_root_noise;
        params
    }

    /// The root noise of the genmove searches (KataGo's `wideRootNoise`).
    pub fn wide_root_noise(&self) -> f32 {
        self.params.tunables.wide_root_noise
    }

    /// The root noise of the analysis commands (KataGo's `analysisWideRootNoise`).
    pub fn analysis_wide_root_noise(&self) -> f32 {
        self.analysis_wide_root_noise
    }

    pub fn set_wide_root_noise(&mut self, genmove: f32) {
        self.params.tunables.wide_root_noise = genmove;
    }

    pub fn set_analysis_wide_root_noise(&mut self, analysis: f32) {
        self.analysis_wide_root_noise = analysis;
    }

    /// The time a move may take, besides the clock's budget (`None`: the clock's alone).
    pub fn set_move_time(&mut self, time: Option<Duration>) {
        self.params.time = time;
    }

    pub fn level(&self) -> Level {
        self.level
    }

    pub fn set_level(&mut self, level: Level) {
        self.level = level;
    }

    /// Whether the tree search thinks on the opponent's time (`--ponder`).
    pub fn ponder(&self) -> bool {
        self.ponder
    }

    /// Pondering from the engine's next move on (a command has already stopped any).
    pub fn set_ponder(&mut self, ponder: bool) {
        self.ponder = ponder;
    }

    /// The memory limit in MiB, `None` for the default tree.
    pub fn max_memory(&self) -> Option<usize> {
        self.max_memory
    }

    /// Nodes a search tree may hold under the memory limit.
    pub fn tree_nodes(&self) -> usize {
        memory::tree_nodes(self.max_memory, self.params.threads).unwrap_or(MIN_TREE_NODES)
    }

    /// Sets the memory limit (MiB; `None`: the default tree) and the search threads
    /// together, since the threads' share comes out of the limit. A tree kept under the
    /// old limit is forgotten if the arena's size changes.
    ///
    /// # Errors
    /// The limit leaves too little for the tree with that many threads; nothing changes.
    pub fn set_memory_and_threads(
        &mut self,
        max_memory: Option<usize>,
        threads: usize,
    ) -> Result<(), TooLittleMemory> {
        let nodes = memory::tree_nodes(max_memory, threads)?;
        self.max_memory = max_memory;
        self.params.threads = threads;
        self.searcher.set_capacity(nodes);
        Ok(())
    }

    /// A fresh seed from the engine's generator (genmove, analysis).
    pub fn next_seed(&mut self) -> u64 {
        self.rng.next_u64()
    }

    /// The search's settings for `c`'s move under the clock: its budget caps the time
    /// (with `--time`, the smaller of the two), and where the clock alone decides, a share
    /// of main time may stretch a search whose choice is still open.
    fn timed_params(&self, c: Color) -> Params {
        let mut params = self.params.clone();
        if self.player != Player::Mcts {
            return params;
        }
        let board = self.game.board();
        let empties = board.empties().len();
        let Some(mut budget) = self.common.clock.budget(c, empties) else {
            return params;
        };
        let points = board.geometry().num_points();
        let even = self.common.clock.main_share(c, empties);
        let middle_weight = params.tunables.middle_game_weight as f64;
        let planned = if middle_weight == 1.0 {
            even
        } else {
            self.common
                .clock
                .phase_weighted_share(c, empties, points, middle_weight)
        };
        let middle = self.common.clock.middle_game_share(c, empties, points);
        let weight = params.tunables.middle_game_time as f64;
        let share = match (planned, middle) {
            (Some(planned), Some(middle)) if weight > 0.0 => {
                Some(planned.mul_f64(1.0 - weight) + middle.mul_f64(weight))
            }
            _ => planned,
        };
        // The budget moves with the share, down as well as up: the even share is already
        // in it.
        if let (Some(even), Some(share)) = (even, share) {
            budget = (budget + share)
                .saturating_sub(even)
                .max(Duration::from_millis(10));
        }
        // A `--time` cap is the user's limit: only the clock's own budget is stretched.
        if params.time.is_none() {
            let stretch = params.tunables.unsettled_extension as f64;
            params.extension = share
                .map(|share| share.mul_f64(stretch))
                .filter(|e| !e.is_zero());
        }
        let time = params.time.map_or(budget, |t| t.min(budget));
        // A clock that limits every move (capped Fischer) bounds the stretch too.
        if let Some(cap) = self.common.clock.move_cap() {
            params.extension = params
                .extension
                .map(|e| e.min(cap.saturating_sub(time)))
                .filter(|e| !e.is_zero());
        }
        params.time = Some(time);
        params
    }

    /// The engine's decision for `c`. `deterministic` (reg_genmove) uses the fixed seed,
    /// no clock and a fresh tree, so the answer depends on the position only.
    pub fn decide(&mut self, c: Color, deterministic: bool) -> Decision {
        if deterministic {
            let (game, stop) = (&self.game, &self.common.interrupt);
            let mut searcher = Searcher::with_capacity(self.tree_nodes());
            if let Some(row) = self.level_row() {
                let search = |p: &Params| searcher.search(game, c, p, REG_GENMOVE_SEED, stop);
                return search::decide_at_level(
                    game,
                    c,
                    row,
                    &self.params,
                    REG_GENMOVE_SEED,
                    search,
                );
            }
            let seed = REG_GENMOVE_SEED;
            return search::decide(
                game,
                c,
                self.player,
                &self.params,
                seed,
                stop,
                &mut searcher,
            );
        }
        self.decide_watched(c, None)
    }

    /// The row of the table the tree search plays by, below full strength (the other
    /// players have no levels).
    fn level_row(&self) -> Option<search::Row> {
        self.level.row().filter(|_| self.player == Player::Mcts)
    }

    /// genmove's decision for `c`, the tree search reported to `watch` as it runs.
    fn decide_watched(&mut self, c: Color, watch: Option<Watch<'_>>) -> Decision {
        let seed = self.next_seed();
        let params = self.timed_params(c);
        let (row, player) = (self.level_row(), self.player);
        let (game, stop) = (&self.game, &*self.common.interrupt);
        let searcher = &mut self.searcher;
        let search = |p: &Params| match watch {
            Some(watch) => search::genmove_observed(searcher, game, c, p, seed, stop, watch),
            None => searcher.search(game, c, p, seed, stop),
        };
        match row {
            Some(row) => search::decide_at_level(game, c, row, &params, seed, search),
            None if player == Player::Mcts => search(&params).decision,
            None => search::decide(game, c, player, &params, seed, stop, searcher),
        }
    }

    /// genmove: decides, plays and charges the clock. `cleanup` (KGS's cleanup phase)
    /// does not pass while dead opponent stones are left.
    pub fn genmove(&mut self, c: Color, cleanup: bool) -> Decision {
        self.genmove_watched(c, cleanup, None)
    }

    /// genmove, its tree search reported to `watch` as it runs (the genmove_analyze
    /// commands): the same move, as long as `watch` avoids none.
    pub fn genmove_watched(
        &mut self,
        c: Color,
        cleanup: bool,
        watch: Option<Watch<'_>>,
    ) -> Decision {
        let start = Instant::now();
        let mut m = match self.decide_watched(c, watch) {
            Decision::Resign => {
                self.common.clock.charge(c, start.elapsed().as_secs_f64());
                return Decision::Resign;
            }
            Decision::Play(m) => m,
        };
        if cleanup && m == Move::Pass {
            m = search::cleanup_move(&self.game, c, &self.params.tunables).unwrap_or(Move::Pass);
        }
        // The chooser only returns legal moves; should that ever fail, passing keeps the
        // game going rather than failing a command the spec says never fails.
        if self.game.play(c, m).is_err() {
            log::error!(
                "chose an illegal move {}; passing",
                self.geo().format_move(m)
            );
            m = Move::Pass;
            let _ = self.game.play(c, m);
        }
        self.common.clock.charge(c, start.elapsed().as_secs_f64());
        self.tried = None;
        self.start_pondering();
        Decision::Play(m)
    }

    /// With `--ponder`, searches the position after the engine's move until the next
    /// command comes, so that the next search starts from a grown tree.
    fn start_pondering(&mut self) {
        // A level below full strength reads what its row says, not what a ponder grew.
        if !self.ponder
            || self.level_row().is_some()
            || self.player != Player::Mcts
            || self.game.consecutive_passes() >= 2
        {
            return;
        }
        let game = self.game.clone();
        let c = game.to_move();
        let params = Params {
            playouts: Some(usize::MAX / 4),
            time: None,
            resign_below: 0.0,
            ..self.params.clone()
        };
        let seed = self.next_seed();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let mut searcher = std::mem::take(&mut self.searcher);
        let thread = std::thread::spawn(move || {
            searcher.search(&game, c, &params, seed, &flag);
            searcher
        });
        self.pondering = Some(Pondering { stop, thread });
    }

    /// Forgets the kept tree and the network's cache of evaluations (KataGo's
    /// `clear_cache`): the next search starts from nothing.
    pub fn clear_cache(&mut self) {
        self.searcher.clear();
        if let Some(network) = &self.params.network {
            network.0.clear_cache();
        }
    }

    /// Stops the search running on the opponent's time and takes its tree back. Every
    /// command does this before anything else.
    pub fn stop_pondering(&mut self) {
        if let Some(p) = self.pondering.take() {
            p.stop.store(true, Ordering::Relaxed);
            // A ponder that panicked leaves a fresh searcher, its arena as the limit says.
            let capacity = self.tree_nodes();
            self.searcher = p
                .thread
                .join()
                .unwrap_or_else(|_| Searcher::with_capacity(capacity));
        }
    }

    // ----- time -----------------------------------------------------------------------

    // ----- GNU Go's reading stack and budget --------------------------------------------

    /// `trymove` (`tryko` with `ignore_ko`): plays on the reading stack, which the
    /// observation and reading commands then look at; the game is untouched.
    ///
    /// # Errors
    /// Why the move is illegal; nothing changes.
    pub fn trymove(&mut self, c: Color, m: Move, ignore_ko: bool) -> Result<(), IllegalMove> {
        let suicide_allowed = self.game.rules().suicide_allowed();
        let game_board = self.game.board();
        let stack = self
            .tried
            .get_or_insert_with(|| ReadingStack::new(game_board.clone(), suicide_allowed));
        let tried = if ignore_ko {
            stack.tryko(c, m)
        } else {
            stack.trymove(c, m)
        };
        if stack.depth() == 0 {
            self.tried = None;
        }
        tried
    }

    /// `popgo`: takes back the last tried move.
    ///
    /// # Errors
    /// `StackEmpty` when nothing was tried.
    pub fn popgo(&mut self) -> Result<(), StackEmpty> {
        let stack = self.tried.as_mut().ok_or(StackEmpty)?;
        stack.popgo()?;
        if stack.depth() == 0 {
            self.tried = None;
        }
        Ok(())
    }

    pub fn budget(&self) -> Budget {
        self.budget
    }

    pub fn budget_mut(&mut self) -> &mut Budget {
        &mut self.budget
    }

    // ----- the torus view -------------------------------------------------------------

    pub fn view_shift(&self) -> (usize, usize) {
        self.view_shift
    }

    pub fn set_view_shift(&mut self, shift: (usize, usize)) {
        self.view_shift = shift;
    }

    // ----- interrupts -----------------------------------------------------------------

    /// The flag a reader thread sets when GoGui's `# interrupt` line arrives; searches and
    /// analyses stop when they see it. The engine never clears it itself: whoever raises
    /// it knows which commands it is meant for, and clears it before any other (the
    /// session does, see `session::run`).
    pub fn interrupt_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.common.interrupt)
    }
}

#[cfg(test)]
mod tests {
    use crate::clock::Clock;
    use std::time::Duration;

    use super::*;
    use crate::clock::{SUDDEN_DEATH_RESERVE, TimeSystem};
    use crate::go::gtp::GO;
    use crate::go::search::Tunables;

    fn state_with(search: Params) -> State {
        State::with_interrupt(
            &Config {
                size: 9,
                search,
                ..Config::default()
            },
            &GO,
            Arc::default(),
        )
    }

    #[test]
    fn only_the_clocks_own_main_time_stretches_a_search() {
        let stretching = Params {
            tunables: Tunables {
                unsettled_extension: 1.0,
                ..Tunables::default()
            },
            ..Params::default()
        };
        let mut s = state_with(stretching.clone());
        assert_eq!(
            s.timed_params(Color::Black),
            stretching,
            "no clock, no limit"
        );
        // An empty 9x9 board: 24.3 moves expected; with 1 s and the sudden-death reserve
        // kept back, 24.3 s to spread, a second each.
        let main = 25.3 / (1.0 - SUDDEN_DEATH_RESERVE);
        s.common.clock = Clock::from_gtp(main, 0.0, 0);
        let p = s.timed_params(Color::Black);
        let second = |d: Option<Duration>| (d.unwrap().as_secs_f64() - 1.0).abs() < 0.01;
        assert!(second(p.time), "{:?}", p.time);
        assert!(second(p.extension), "{:?}", p.extension);
        // In byo-yomi the period is not to be overrun.
        s.common.clock = Clock::from_gtp(0.0, 10.0, 1);
        assert_eq!(s.timed_params(Color::Black).extension, None);
        // Under --time the user's limit holds.
        let mut s = state_with(Params {
            time: Some(Duration::from_millis(500)),
            ..stretching.clone()
        });
        s.common.clock = Clock::from_gtp(25.3, 0.0, 0);
        let p = s.timed_params(Color::Black);
        assert_eq!(p.time, Some(Duration::from_millis(500)));
        assert_eq!(p.extension, None);
        // Switched off, it stretches nothing.
        let mut s = state_with(Params {
            tunables: Tunables {
                unsettled_extension: 0.0,
                ..Tunables::default()
            },
            ..Params::default()
        });
        s.common.clock = Clock::from_gtp(25.0, 0.0, 0);
        assert_eq!(s.timed_params(Color::Black).extension, None);
    }

    #[test]
    fn a_clock_that_caps_every_move_caps_the_stretch_too() {
        let mut s = state_with(Params {
            tunables: Tunables {
                unsettled_extension: 1.0,
                ..Tunables::default()
            },
            ..Params::default()
        });
        // 10 minutes and 10 s a move on 9x9, no move over 40 s: the budget (10 s and a
        // share of the rest, 34 s) and its stretch both fit in 40 s less the margin.
        s.common.clock = Clock::new(TimeSystem::Fischer {
            main: 600.0,
            increment: 10.0,
            limit: None,
            per_move: Some(40.0),
        });
        let p = s.timed_params(Color::Black);
        let (time, extension) = (seconds(p.time), seconds(p.extension));
        assert!(time > 30.0, "{time}");
        assert!(
            (time + extension - 39.0).abs() < 1e-6,
            "{time} + {extension}"
        );
        // Uncapped, the stretch is a share of main time past the increment.
        s.common.clock = Clock::new(TimeSystem::Fischer {
            main: 600.0,
            increment: 10.0,
            limit: None,
            per_move: None,
        });
        let p = s.timed_params(Color::Black);
        assert!(
            seconds(p.time) > 30.0 && seconds(p.extension) > 20.0,
            "{p:?}"
        );
    }

    fn seconds(d: Option<Duration>) -> f64 {
        d.unwrap().as_secs_f64()
    }

    #[test]
    fn the_middle_game_draws_more_of_main_time_when_asked() {
        let with_weight = |middle_game_time| Params {
            tunables: Tunables {
                middle_game_time,
                ..Tunables::default()
            },
            ..Params::default()
        };
        // A 9x9 board nearly a fifth full (16 stones), near the fuseki's end: 65 empty
        // points, 19.5 moves expected, 8.2 of them before the yose.
        let timed = |middle_game_time| {
            let mut s = state_with(with_weight(middle_game_time));
            let black = ["C3", "D3", "E3", "F3", "G3", "C4", "D4", "E4"];
            let white = ["C7", "D7", "E7", "F7", "G7", "C6", "D6", "E6"];
            for (b, w) in black.into_iter().zip(white) {
                for (c, v) in [(Color::Black, b), (Color::White, w)] {
                    let p = s.game.board().geometry().parse_point(v).unwrap();
                    s.game.play(c, Move::Play(p)).unwrap();
                }
            }
            s.common.clock = Clock::from_gtp(100.0, 0.0, 0);
            s.timed_params(Color::Black)
        };
        let even = timed(0.0);
        let middle = timed(1.0);
        let half = timed(0.5);
        assert!(
            seconds(middle.time) > 1.3 * seconds(even.time),
            "{middle:?} {even:?}"
        );
        assert!(seconds(middle.extension) > 1.3 * seconds(even.extension));
        let between = (seconds(even.time) + seconds(middle.time)) / 2.0;
        assert!((seconds(half.time) - between).abs() < 0.01, "{half:?}");
    }

    #[test]
    fn a_weighted_middle_game_costs_the_opening_time() {
        let timed = |middle_game_weight, stones: usize| {
            let mut s = state_with(Params {
                tunables: Tunables {
                    middle_game_weight,
                    ..Tunables::default()
                },
                ..Params::default()
            });
            // Pairs of stones down the board's columns, far from one another.
            let columns = ["A", "C", "E", "G", "J"];
            let mut rows = columns
                .iter()
                .flat_map(|c| (1..=9).map(move |r| format!("{c}{r}")));
            for _ in 0..stones / 2 {
                for c in [Color::Black, Color::White] {
                    let v = rows.next().unwrap();
                    let p = s.game.board().geometry().parse_point(&v).unwrap();
                    s.game.play(c, Move::Play(p)).unwrap();
                }
            }
            s.common.clock = Clock::from_gtp(100.0, 0.0, 0);
            s.timed_params(Color::Black)
        };
        // The opening (9x9, empty): less than the even share, budget and extension alike.
        let (even, weighted) = (timed(1.0, 0), timed(1.5, 0));
        assert!(
            seconds(weighted.time) < 0.9 * seconds(even.time),
            "{weighted:?} {even:?}"
        );
        assert!(seconds(weighted.extension) < 0.9 * seconds(even.extension));
        // The middle game (a quarter of the board taken): more.
        let (even, weighted) = (timed(1.0, 20), timed(1.5, 20));
        assert!(
            seconds(weighted.time) > 1.1 * seconds(even.time),
            "{weighted:?} {even:?}"
        );
        assert!(seconds(weighted.extension) > 1.1 * seconds(even.extension));
    }

    #[test]
    fn pondering_grows_the_tree_until_the_next_command() {
        let config = Config {
            size: 9,
            search: Params {
                playouts: Some(300),
                ..Params::default()
            },
            ponder: true,
            ..Config::default()
        };
        // A debug build on a loaded machine may need far longer than a quiet one (1 s was
        // not enough beside two engines of a match at full load), so the ponder is given
        // ever longer until the tree has grown; only a ponder that never grows it fails.
        let mut wait = std::time::Duration::from_millis(500);
        let mut s = loop {
            let mut s = State::with_interrupt(&config, &GO, Arc::default());
            let Decision::Play(_) = s.genmove(Color::Black, false) else {
                panic!("resigned on an empty board")
            };
            std::thread::sleep(wait);
            s.stop_pondering();
            let visits = s.searcher.kept_visits();
            if visits > 300 {
                break s;
            }
            assert!(wait.as_secs() < 60, "pondered {visits} visits in {wait:?}");
            wait *= 4;
        };
        // Without --ponder the tree holds only what genmove searched.
        s.ponder = false;
        s.genmove(Color::White, false);
        assert!(s.pondering.is_none());
    }
}
