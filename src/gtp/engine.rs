//! The engine as a front end sees it: one raw input line in, one framed response out.
//!
//! [`Engine::handle`] preprocesses and parses the line (`parse`), looks the command up in the
//! command table of the game being played, runs its handler on that game's state (Go's
//! [`State`] or [`OthelloState`]), and frames the reply (`response`). Analysis commands
//! that stream reports go through [`Engine::handle_streaming`].
//!
//! One engine, two games: the engine holds a state per game and plays one of them at a
//! time. `set_game` (answered by the state, which cannot replace itself) asks for the
//! other; the engine switches once the command has answered, and the game switched to
//! starts afresh on its board size. The Othello state is made on first use (its
//! searcher's tables are 32 MB) and kept, with its settings, for the engine's life. Every
//! state shares the one interrupt flag the session raises.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::go::game::Game;
use crate::gtp::commands::command_table::GtpState;
use crate::gtp::commands::{self, analyze};
use crate::gtp::error::GtpError;
use crate::gtp::games::GameKind;
use crate::gtp::othello::OTHELLO;
use crate::gtp::othello::analyze as othello_analyze;
use crate::gtp::othello::state::OthelloState;
use crate::gtp::parse::{self, CommandLine, CommandLineErrorKind};
use crate::gtp::response::{Reply, Response, frame};
use crate::gtp::state::{Config, State};

/// A GTP engine: the state of each game and which one is played.
pub struct Engine {
    playing: GameKind,
    state: State,
    othello: Option<Box<OthelloState>>,
    config: Config,
    interrupt: Arc<AtomicBool>,
}

/// Runs `command` on a game's state, by its table.
fn run<S: GtpState>(state: &mut S, command: &CommandLine, line: &str) -> Reply {
    match state.commands().find(state, &command.name) {
        Some(c) => {
            log::debug!("command: {line}");
            (c.run)(state, &command.args)
        }
        None => Err(GtpError::UnknownCommand),
    }
}

impl Engine {
    pub fn new(config: Config) -> Engine {
        let interrupt = Arc::new(AtomicBool::new(false));
        let mut engine = Engine {
            playing: GameKind::Go,
            state: State::with_interrupt(&config, &commands::GO, Arc::clone(&interrupt)),
            othello: None,
            config,
            interrupt,
        };
        if engine.config.game == GameKind::Othello {
            engine.othello_state();
            engine.playing = GameKind::Othello;
        }
        engine
    }

    /// The game being played.
    pub fn playing(&self) -> GameKind {
        self.playing
    }

    /// The Othello state, made on first use.
    fn othello_state(&mut self) -> &mut OthelloState {
        let (config, interrupt) = (&self.config, &self.interrupt);
        self.othello.get_or_insert_with(|| {
            Box::new(OthelloState::new(config, &OTHELLO, Arc::clone(interrupt)))
        })
    }

    /// The Othello state, if Othello has been played (GoGui rulers, tests).
    pub fn othello(&self) -> Option<&OthelloState> {
        self.othello.as_deref()
    }

    /// Plays `game` from now on; a switch starts the game afresh on its board size.
    fn switch_to(&mut self, game: GameKind) {
        if game == self.playing {
            return;
        }
        log::info!("switching to {game}");
        match game {
            GameKind::Go => self.state.clear(),
            GameKind::Othello => self.othello_state().clear(),
        }
        self.playing = game;
    }

    /// The flag a reader thread sets when GoGui's `# interrupt` line arrives; searches and
    /// analyses stop when they see it. The engine never clears it itself: whoever raises it
    /// knows which commands it is meant for, and clears it before any other (the session
    /// does, see `session::run`).
    pub fn interrupt_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.interrupt)
    }

    /// The Go game (whichever game is being played).
    pub fn game(&self) -> &Game {
        self.state.game()
    }

    /// Whether GoGui asked the running command to stop early.
    pub fn interrupted(&self) -> bool {
        self.interrupt.load(Ordering::Relaxed)
    }

    /// Answers one raw input line. `None` for lines that get no response (empty, comments).
    pub fn handle(&mut self, raw: &[u8]) -> Option<Response> {
        let line = parse::preprocess(raw)?;
        let command = match parse::parse_command_line(&line) {
            Ok(c) => c,
            Err(e) => {
                return match e.kind {
                    CommandLineErrorKind::Empty => None,
                    CommandLineErrorKind::MissingName => Some(Response {
                        text: frame(e.id.as_deref(), &Err(GtpError::Syntax)),
                        quit: false,
                    }),
                };
            }
        };
        let quit = command.name == "quit";
        self.state.stop_pondering();
        let (reply, request) = match self.playing {
            GameKind::Go => (
                run(&mut self.state, &command, &line),
                self.state.take_game_request(),
            ),
            GameKind::Othello => {
                let othello = self.othello_state();
                (run(othello, &command, &line), othello.take_game_request())
            }
        };
        if let Some(game) = request {
            self.switch_to(game);
        }
        Some(Response {
            text: frame(command.id.as_deref(), &reply),
            quit,
        })
    }

    /// Like [`Engine::handle`], but an analysis command streams its reports to `out` until
    /// `stop` says new input is waiting; it then returns `None`, everything being written.
    ///
    /// # Errors
    /// Writing to `out` failed.
    pub fn handle_streaming(
        &mut self,
        raw: &[u8],
        out: &mut dyn std::io::Write,
        stop: &dyn Fn() -> bool,
    ) -> std::io::Result<Option<Response>> {
        let streaming = parse::preprocess(raw)
            .and_then(|line| parse::parse_command_line(&line).ok())
            .and_then(|c| analyze::dialect(&c.name).map(|d| (c, d)));
        let Some((command, dialect)) = streaming else {
            return Ok(self.handle(raw));
        };
        let id = command.id.as_deref();
        self.state.stop_pondering();
        let streamed = match self.playing {
            GameKind::Go => {
                analyze::stream(&mut self.state, id, &command.args, dialect, out, stop)?
            }
            GameKind::Othello => {
                let othello = self.othello_state();
                othello_analyze::stream(othello, id, &command.args, dialect, out, stop)?
            }
        };
        match streamed {
            Ok(()) => Ok(None),
            Err(error) => Ok(Some(Response {
                text: frame(id, &Err(error)),
                quit: false,
            })),
        }
    }
}
