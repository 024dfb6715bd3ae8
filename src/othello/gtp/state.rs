//! What the engine knows between commands in Othello mode: the game, the clocks, how it
//! chooses moves and the searcher with its tables. The handlers go through its methods,
//! which keep the game and the front ends' habits together:
//! - a move or genmove by the colour not to move is taken only when the side to move has
//!   no move, and then that side's pass is inferred first (Quarry sends no passes; Edax
//!   plays the pass for the other side);
//! - `undo` takes back the last move together with the passes inferred just before it, so
//!   that a front end that never saw those passes undoes its own moves one by one;
//! - a failing method changes nothing.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::color::Color;
use crate::gtp::error::GtpError;
use crate::gtp::state::Common;
use crate::gtp::table::CommandTable;
use crate::othello::{
    Board, CannotUndo, Evaluation, Game, IllegalMove, Limits, Move, PlayerKind, SearchInfo,
    Searcher, Square, check_size, greedy_move, random_move,
};
use crate::rng::Rng;

/// The time per move of the searcher when neither `--time` nor a clock sent over GTP says
/// otherwise (the strength matches are played at one second a move).
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

/// `reg_genmove`'s searcher stops after this many nodes: deterministic, and a fraction
/// of a second on 8x8 in a release build.
pub const REG_GENMOVE_NODES: u64 = 200_000;

/// `reg_genmove`'s seed for the random player.
pub const REG_GENMOVE_SEED: u64 = 0x5245_4721;

/// `shicho-solve` without an argument solves positions with at most this many empties:
/// seconds on 8x8 on one thread (the times on FFO's published positions: doc/othello.md).
pub const DEFAULT_SOLVE_EMPTIES: u32 = 24;

/// Start-up settings, from the command line.
#[derive(Clone, Debug)]
pub struct Config {
    /// The board size (even, 4..=26; 8x8 if it is not an Othello size).
    pub size: usize,
    /// How genmove chooses.
    pub player: PlayerKind,
    /// Whether the searcher evaluates with the learnt pattern tables (`--eval`).
    pub learnt: bool,
    /// The searcher's time per move (`--time`); a clock can only shorten it.
    pub move_time: Option<Duration>,
    /// Threads for `shicho-solve` (`--threads`).
    pub solve_threads: usize,
    /// Seed of genmove's random choices.
    pub seed: u64,
    /// What `version` answers.
    pub version: String,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            size: 8,
            player: PlayerKind::Searcher,
            learnt: true,
            move_time: None,
            solve_threads: 1,
            seed: 1,
            version: env!("CARGO_PKG_VERSION").to_string(),
        }
    }
}

/// What the engine knows in Othello mode.
pub struct OthelloState {
    /// The table, the clocks, the interrupt flag, the version: what every game's state has.
    pub(super) common: Common<OthelloState>,
    game: Game,
    player: PlayerKind,
    /// The searcher's time per move (`--time`); a clock can only shorten it.
    move_time: Option<Duration>,
    /// Kept for the engine's life: its tables are 32 MB.
    searcher: Searcher,
    /// Threads for `shicho-solve` (`--threads`).
    solve_threads: usize,
    rng: Rng,
}

impl OthelloState {
    /// The standard start on the configured size (8x8 if that size is not an Othello
    /// size), searches stopped by `interrupt`.
    pub fn new(
        config: &Config,
        commands: &'static CommandTable<OthelloState>,
        interrupt: Arc<AtomicBool>,
    ) -> OthelloState {
        let size = check_size(config.size).unwrap_or(8);
        let mut searcher = Searcher::new();
        if config.learnt {
            searcher.evaluation = Evaluation::learnt();
        }
        OthelloState {
            common: Common::new(commands, interrupt, &config.version),
            game: Game::new(size).expect("a checked size"),
            player: config.player,
            move_time: config.move_time,
            searcher,
            solve_threads: config.solve_threads.max(1),
            rng: Rng::new(config.seed),
        }
    }

    // ----- the game -------------------------------------------------------------------

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn board(&self) -> &Board {
        self.game.board()
    }

    pub fn size(&self) -> usize {
        self.game.size()
    }

    /// The board rows, top row first, `X` Black, `O` White, `.` empty (a GoGui ruler's
    /// `gogui-rules_board`).
    pub fn rows(&self) -> Vec<String> {
        self.game.board().rows()
    }

    /// The side to move.
    pub fn to_move(&self) -> Color {
        self.game.to_move()
    }

    /// The moves of the side to move: its disc moves, `[Pass]` when it must pass, nothing
    /// when the game is over (a ruler's `gogui-rules_legal_moves`).
    pub fn legal_moves(&self) -> Vec<Move> {
        self.game.legal_moves()
    }

    /// Whether neither side can move.
    pub fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The result by discs on the board: `B+N`, `W+N` or `0` (final once the game is over).
    pub fn result(&self) -> String {
        self.game.score().to_string()
    }

    /// A new game on a board of `size`.
    ///
    /// # Errors
    /// `UnacceptableSize` for an odd size or one outside 4..=26; nothing changes.
    pub fn resize(&mut self, size: usize) -> Result<(), GtpError> {
        self.game = Game::new(size).map_err(|_| GtpError::UnacceptableSize)?;
        Ok(())
    }

    /// The standard start on the same size.
    pub fn clear(&mut self) {
        self.game.clear();
    }

    /// Replaces the game (a loaded record, a setup).
    pub fn load_game(&mut self, game: Game) {
        self.game = game;
    }

    /// `play c mv`: by the rules, whoever is to move (see the module comment). A pass on
    /// a finished game is accepted and changes nothing: neither side has a move, and a
    /// controller closing the game with passes should not fail.
    ///
    /// # Errors
    /// `WrongColor` when `c` is not to move and the side to move has a move;
    /// `IllegalMove` for any other move the rules refuse.
    pub fn play(&mut self, c: Color, mv: Move) -> Result<(), GtpError> {
        if self.game.is_over() && mv == Move::Pass {
            return Ok(());
        }
        self.game.play_as(c, mv).map(|_| ()).map_err(gtp_error)
    }

    /// Takes back the last move and the passes inferred just before it.
    ///
    /// # Errors
    /// `CannotUndo` with no move to take back.
    pub fn undo(&mut self) -> Result<(), CannotUndo> {
        let mut undone = self.game.clone();
        undone.undo()?;
        while undone.history().last().is_some_and(|t| t.inferred) {
            undone.undo()?;
        }
        self.game = undone;
        Ok(())
    }

    /// Sets up discs (`None` empties a square) and optionally the side to move, before any
    /// move.
    ///
    /// # Errors
    /// `BoardNotEmpty` once moves have been played.
    pub fn setup(
        &mut self,
        changes: &[(Square, Option<Color>)],
        to_move: Option<Color>,
    ) -> Result<(), GtpError> {
        if !self.game.history().is_empty() {
            return Err(GtpError::BoardNotEmpty);
        }
        self.game.setup(changes, to_move);
        Ok(())
    }

    /// Who moves first, before any move.
    ///
    /// # Errors
    /// `MovesPlayed` once moves have been played.
    pub fn set_to_move(&mut self, c: Color) -> Result<(), GtpError> {
        if !self.game.history().is_empty() {
            return Err(GtpError::MovesPlayed);
        }
        self.game.set_to_move(c);
        Ok(())
    }

    // ----- choosing moves -------------------------------------------------------------

    pub fn player(&self) -> PlayerKind {
        self.player
    }

    pub fn set_player(&mut self, player: PlayerKind) {
        self.player = player;
    }

    /// genmove: makes it `c`'s turn (inferring the other side's forced pass), chooses,
    /// plays and charges the clock. `Pass` only when `c` has no move; on a finished game
    /// `Pass` and nothing is played.
    ///
    /// # Errors
    /// `WrongColor` when `c` is not to move and the side to move has a move; nothing
    /// changes.
    pub fn genmove(&mut self, c: Color) -> Result<Move, GtpError> {
        if self.game.is_over() {
            return Ok(Move::Pass);
        }
        let start = Instant::now();
        self.game.give_turn_to(c).map_err(gtp_error)?;
        let budget = self.time_budget(c);
        let mut mv = self.choose(c, &Limits::time(budget), false);
        if let Err(why) = self.game.play(mv) {
            // The players answer legal moves only; should that ever fail, the first legal
            // move keeps the game going rather than failing a command that cannot fail.
            log::error!("chose {mv}, which is illegal ({why}); playing the first legal move");
            mv = self
                .game
                .legal_moves()
                .first()
                .copied()
                .unwrap_or(Move::Pass);
            let _ = self.game.play(mv);
        }
        self.common.clock.charge(c, start.elapsed().as_secs_f64());
        Ok(mv)
    }

    /// reg_genmove: the move genmove would choose for `c`, deterministically (a node
    /// limit, a fixed seed), not played.
    ///
    /// # Errors
    /// `WrongColor` as for genmove.
    pub fn reg_genmove(&mut self, c: Color) -> Result<Move, GtpError> {
        if self.game.is_over() {
            return Ok(Move::Pass);
        }
        let mut turned = self.game.clone();
        turned.give_turn_to(c).map_err(gtp_error)?;
        let board = turned.board().clone();
        Ok(self.choose_on(&board, c, &Limits::nodes(REG_GENMOVE_NODES), true))
    }

    /// The time the searcher may take for `c`'s next move: the clock's budget (its main
    /// time spread over `c`'s share of the empty squares, a safety margin kept), capped
    /// by `--time`; without a clock `--time`, or the default.
    fn time_budget(&self, c: Color) -> Duration {
        let own_moves_left = f64::from(self.game.board().empties()) / 2.0;
        match (
            self.common.clock.budget_for_moves(c, own_moves_left),
            self.move_time,
        ) {
            (Some(clock), Some(cap)) => clock.min(cap),
            (Some(clock), None) => clock,
            (None, cap) => cap.unwrap_or(DEFAULT_MOVE_TIME),
        }
    }

    fn choose(&mut self, c: Color, limits: &Limits, deterministic: bool) -> Move {
        let board = self.game.board().clone();
        self.choose_on(&board, c, limits, deterministic)
    }

    /// `c`'s move on `board` by the player in force.
    fn choose_on(&mut self, board: &Board, c: Color, limits: &Limits, deterministic: bool) -> Move {
        match self.player {
            PlayerKind::Greedy => greedy_move(board, c).map_or(Move::Pass, Move::Play),
            PlayerKind::Random => {
                let mut fixed = Rng::new(REG_GENMOVE_SEED);
                let rng = if deterministic {
                    &mut fixed
                } else {
                    &mut self.rng
                };
                random_move(board, c, rng).map_or(Move::Pass, Move::Play)
            }
            PlayerKind::Searcher => {
                let info = self.search(board, c, limits, &self.interrupt_flag(), &mut |i| {
                    log::debug!(
                        "depth {} score {} nodes {} {:.2}s pv {}",
                        i.depth,
                        i.score,
                        i.nodes,
                        i.elapsed.as_secs_f64(),
                        i.pv.iter()
                            .map(|m| format_move(*m))
                            .collect::<Vec<_>>()
                            .join(" ")
                    );
                });
                log::info!(
                    "searched {} nodes in {:.2}s: {} score {}",
                    info.nodes,
                    info.elapsed.as_secs_f64(),
                    format_move(info.best()),
                    info.score
                );
                info.best()
            }
        }
    }

    /// Runs the searcher (its tables are the engine's) on `board` for `c`, until `limits`
    /// or `stop`; `report` sees every completed iteration.
    pub fn search(
        &mut self,
        board: &Board,
        c: Color,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchInfo {
        self.searcher.choose(board, c, limits, stop, report)
    }

    /// The searcher itself, for a search run on another thread (streamed analysis).
    pub fn searcher_mut(&mut self) -> &mut Searcher {
        &mut self.searcher
    }

    // ----- interrupts -----------------------------------------------------------------

    /// Threads `shicho-solve` runs on.
    pub fn solve_threads(&self) -> usize {
        self.solve_threads
    }

    /// The flag GoGui's `# interrupt` raises (shared by every game's state).
    pub fn interrupt_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.common.interrupt)
    }

    pub fn interrupted(&self) -> bool {
        self.common.interrupted()
    }
}

/// A move as GTP writes it: `D3`, or `PASS`.
pub fn format_move(mv: Move) -> String {
    match mv {
        Move::Play(s) => s.to_string(),
        Move::Pass => "PASS".to_string(),
    }
}

/// The GTP error for a move the game refused.
fn gtp_error(why: IllegalMove) -> GtpError {
    match why {
        IllegalMove::WrongColor => GtpError::WrongColor,
        _ => GtpError::IllegalMove,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::Clock;
    use crate::clock::SUDDEN_DEATH_RESERVE;
    use crate::othello::gtp::OTHELLO;

    fn state(time: Option<f64>) -> OthelloState {
        let config = Config {
            move_time: time.map(Duration::from_secs_f64),
            ..Config::default()
        };
        OthelloState::new(&config, &OTHELLO, Arc::default())
    }

    #[test]
    fn the_clock_spreads_main_time_over_the_movers_empty_squares() {
        let secs = |s: &OthelloState| s.time_budget(Color::Black).as_secs_f64();
        let mut s = state(None);
        assert_eq!(secs(&s), DEFAULT_MOVE_TIME.as_secs_f64());
        // 60 empties: 30 moves for Black; with one second and the sudden-death reserve
        // kept back, 60 s to spread.
        let main = 61.0 / (1.0 - SUDDEN_DEATH_RESERVE);
        s.common.clock = Clock::from_gtp(main, 0.0, 0);
        assert!((secs(&s) - 2.0).abs() < 1e-9, "{}", secs(&s));
        let mut capped = state(Some(0.5));
        capped.common.clock = Clock::from_gtp(main, 0.0, 0);
        assert_eq!(secs(&capped), 0.5);
    }

    #[test]
    fn undo_takes_an_inferred_pass_with_the_move_after_it() {
        let mut s = state(None);
        for (c, v) in [
            (Color::Black, "D3"),
            (Color::White, "C3"),
            (Color::Black, "E6"),
            (Color::White, "D2"),
            (Color::Black, "D1"),
            (Color::White, "E1"),
            (Color::Black, "B2"),
            (Color::White, "C1"),
            (Color::White, "A3"),
        ] {
            s.play(c, Move::parse(v, 8).unwrap()).unwrap();
        }
        assert_eq!(s.game().history().len(), 10);
        s.undo().unwrap();
        assert_eq!(s.game().history().len(), 8);
        assert_eq!(s.to_move(), Color::Black);
    }
}
