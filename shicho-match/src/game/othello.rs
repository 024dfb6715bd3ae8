//! One refereed Othello game: the engines switched to Othello, moves checked by shicho's
//! Othello core, forced passes played by the referee, the discs counted at the end.
//!
//! - **Setup**: `set_game Othello` to an engine that lists `set_game` (it must accept);
//!   an engine that only lists `list_games` must name Othello there; an engine with
//!   neither is taken to play Othello already (GRhino-style). Then `boardsize`,
//!   `clear_board` and the time settings; no komi.
//! - **Moves**: the engine to move answers `genmove`. An unparsable answer, a move the
//!   rules forbid, a `pass` while it has a move, or `?` loses the game for it (the classic
//!   program's rule); `resign` resigns. Time and crashes are judged as in Go.
//! - **Forced passes**: a player with no legal move is not asked (Quarry's engines answer
//!   only vertices). The referee plays its pass and sends `play COLOUR pass` to both
//!   engines; an engine that refuses it (GRhino answers `? syntax error`) is left to infer
//!   the pass from the next move of the other colour, as it does from Quarry.
//! - **End**: when neither side can move, the discs decide: `B+12`, `W+4` or `0`.

use std::time::{Instant, SystemTime};

use shicho::othello::{Game, Move, Score};
use shicho::{ByColor, Color};

use crate::clock::RefereeClock;
use crate::engine_process::Slot;
use crate::game::{
    EndReason, Forfeit, GameInPlay, GameRecord, GameSpec, MoveKind, MoveRecord, Played, PlayedMove,
    cpu_used, quote, resigned,
};

/// A finished Othello game: the discs and how it ended.
struct Counted {
    score: Score,
    reason: EndReason,
    detail: String,
}

/// Plays one Othello game between the engines in `players` (by colour).
pub fn play_othello_game(spec: GameSpec<'_>, players: ByColor<&mut Slot>) -> GameRecord {
    let start = SystemTime::now();
    let started = Instant::now();
    let cfg = spec.cfg;
    let clock = RefereeClock::new(cfg.time, cfg.move_time);
    let mut table = GameInPlay {
        cfg,
        players,
        referee: None,
        game: cfg.start_othello_game(),
        handicap: Vec::new(),
        moves: Vec::new(),
        clocks: ByColor::new(clock.clone(), clock),
        think: ByColor::new(0.0, 0.0),
        engine_moves: ByColor::new(0, 0),
    };
    let opening = cfg.othello_opening(spec.opening);
    let mut cpu_before = ByColor::new(None, None);
    let outcome = table.run_othello(&opening, &mut cpu_before);
    let cpu_after = ByColor::new(table.cputime(Color::Black), table.cputime(Color::White));
    let cpu = ByColor::new(
        cpu_used(cpu_before.black, cpu_after.black),
        cpu_used(cpu_before.white, cpu_after.white),
    );
    let (winner, result, reason, detail) = match outcome {
        Ok(counted) => (
            counted.score.winner(),
            counted.score.to_string(),
            counted.reason,
            counted.detail,
        ),
        Err(f) => {
            let winner = f.loser.other();
            let code = match f.reason {
                EndReason::Resign => 'R',
                EndReason::Time => 'T',
                _ => 'F',
            };
            (
                Some(winner),
                format!("{}+{code}", winner.letter()),
                f.reason,
                f.detail,
            )
        }
    };
    GameRecord {
        number: spec.number,
        start,
        duration: started.elapsed(),
        black_engine: spec.black_engine,
        names: spec.names,
        handicap: Vec::new(),
        discs: Some(table.game.score()),
        moves: table.moves,
        game: Played::Othello(table.game),
        winner,
        result,
        reason,
        detail,
        score: None,
        dead: Vec::new(),
        cpu,
        think: table.think,
        engine_moves: table.engine_moves,
    }
}

impl GameInPlay<'_, Game> {
    fn run_othello(
        &mut self,
        opening: &[Move],
        cpu: &mut ByColor<Option<f64>>,
    ) -> Result<Counted, Forfeit> {
        self.setup_othello(opening)?;
        for c in Color::ALL {
            cpu[c] = self.cputime(c);
        }
        loop {
            if self.game.is_over() {
                let score = self.game.score();
                return Ok(Counted {
                    score,
                    reason: EndReason::Score,
                    detail: format!("discs {}-{}", score.black, score.white),
                });
            }
            if self.moves.len() >= self.cfg.max_moves {
                let score = self.game.score();
                return Ok(Counted {
                    score,
                    reason: EndReason::MaxMoves,
                    detail: format!(
                        "move limit {} reached; discs {}-{}",
                        self.cfg.max_moves, score.black, score.white
                    ),
                });
            }
            let c = self.game.to_move();
            if self.game.board().has_moves(c) {
                self.engine_move(c)?;
            } else {
                self.forced_pass(c)?;
            }
        }
    }

    /// Switches both engines to Othello on the match's board, sets the clocks, plays the
    /// opening.
    fn setup_othello(&mut self, opening: &[Move]) -> Result<(), Forfeit> {
        let time = self.time_settings_command();
        for c in Color::ALL {
            if self.knows(c, "set_game")? {
                self.command(c, "set_game Othello")?;
            } else if self.knows(c, "list_games")?
                && let Some(games) = self.optional(c, "list_games")?
                && !games
                    .lines()
                    .any(|g| g.trim().eq_ignore_ascii_case("othello"))
            {
                return Err(Forfeit {
                    loser: c,
                    reason: EndReason::Error,
                    detail: format!("{c} engine does not play Othello (list_games: {games})"),
                });
            }
            self.command(c, &format!("boardsize {}", self.cfg.size))?;
            self.command(c, "clear_board")?;
            if let Some(time) = &time
                && self.knows(c, "time_settings")?
            {
                self.optional(c, time)?;
            }
        }
        for &m in opening {
            let c = self.game.to_move();
            // Openings are drawn from legal moves; stop rather than trust a broken one.
            if m == Move::Pass || self.game.play(m).is_err() {
                log::warn!("opening move {m} is not playable here; opening cut short");
                break;
            }
            self.moves.push(MoveRecord {
                color: c,
                mv: PlayedMove::Othello(m),
                kind: MoveKind::Opening,
                seconds: None,
            });
            let command = format!("play {} {m}", c.name());
            self.command(Color::Black, &command)?;
            self.command(Color::White, &command)?;
        }
        Ok(())
    }

    /// Asks `c` (who has a legal move) for its move, checks it and tells the opponent.
    fn engine_move(&mut self, c: Color) -> Result<(), Forfeit> {
        let (word, secs) = self.genmove_text(c, "genmove")?;
        if word.eq_ignore_ascii_case("resign") {
            return Err(resigned(c));
        }
        let illegal = |detail| Forfeit {
            loser: c,
            reason: EndReason::Illegal,
            detail,
        };
        let m = Move::parse(&word, self.game.size()).map_err(|e| {
            illegal(format!(
                "{c} answered '{}', not a move on this board ({e})",
                quote(&word)
            ))
        })?;
        if let Err(e) = self.game.play(m) {
            return Err(illegal(format!("{c} played {m}, which is illegal ({e})")));
        }
        self.moves.push(MoveRecord {
            color: c,
            mv: PlayedMove::Othello(m),
            kind: MoveKind::Engine,
            seconds: Some(secs),
        });
        self.command(c.other(), &format!("play {} {m}", c.name()))?;
        Ok(())
    }

    /// `c` has no legal move: the referee passes for it and tells both engines (a refusal
    /// leaves the engine to infer the pass).
    fn forced_pass(&mut self, c: Color) -> Result<(), Forfeit> {
        // `c` has no disc move and the game is not over: a pass is its legal move.
        if let Err(e) = self.game.play(Move::Pass) {
            log::error!("the referee's own pass for {c} was refused ({e})");
        }
        self.moves.push(MoveRecord {
            color: c,
            mv: PlayedMove::Othello(Move::Pass),
            kind: MoveKind::Forced,
            seconds: None,
        });
        let command = format!("play {} pass", c.name());
        for e in Color::ALL {
            if self.optional(e, &command)?.is_none() {
                log::debug!("{e} engine refused '{command}'; it infers the pass");
            }
        }
        Ok(())
    }
}
