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

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::game::GameKind;
use crate::go;
use crate::go::game::Game;
use crate::go::gtp::GO;
use crate::go::gtp::state::State;
use crate::gtp::analysis::{self, Stream, Streamed};
use crate::gtp::error::GtpError;
use crate::gtp::parse::{self, CommandLine, CommandLineErrorKind};
use crate::gtp::response::{Reply, Response, frame};
use crate::gtp::session::Answerer;
use crate::gtp::state::GtpState;
use crate::othello;
use crate::othello::gtp::OTHELLO;
use crate::othello::gtp::state::OthelloState;

/// Start-up settings, from the command line: each game's, and the game played first.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// The game played from the start (`--game`); `set_game` switches.
    pub game: GameKind,
    pub go: go::gtp::state::Config,
    pub othello: othello::gtp::state::Config,
}

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
    match state.common().commands.find(state, &command.name) {
        Some(c) => {
            log::debug!("command: {line}");
            (c.run)(state, &command.args)
        }
        None => Err(GtpError::UnknownCommand),
    }
}

/// Whether a game's state answers the command `name` now (an analysis command it does not
/// answer is unknown, as any other).
fn offers<S: GtpState>(state: &S, name: &str) -> bool {
    state.common().commands.find(state, name).is_some()
}

/// Runs a streamed analysis command on a game's state.
fn stream_on<S: GtpState>(state: &mut S, stream: Stream<'_>) -> Streamed {
    state.before_command();
    state.stream_analysis(stream)
}

/// Runs `command` on a game's state, then takes the game the command asked for, if any.
fn answer<S: GtpState>(
    state: &mut S,
    command: &CommandLine,
    line: &str,
) -> (Reply, Option<GameKind>) {
    state.before_command();
    let reply = run(state, command, line);
    (reply, state.common_mut().take_game_request())
}

impl Engine {
    pub fn new(config: Config) -> Engine {
        let interrupt = Arc::new(AtomicBool::new(false));
        let mut engine = Engine {
            playing: GameKind::Go,
            state: State::with_interrupt(&config.go, &GO, Arc::clone(&interrupt)),
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
            Box::new(OthelloState::new(
                &config.othello,
                &OTHELLO,
                Arc::clone(interrupt),
            ))
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
        let (reply, request) = match self.playing {
            GameKind::Go => answer(&mut self.state, &command, &line),
            GameKind::Othello => answer(self.othello_state(), &command, &line),
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
        out: &mut dyn Write,
        stop: &dyn Fn() -> bool,
    ) -> io::Result<Option<Response>> {
        let streaming = parse::preprocess(raw)
            .and_then(|line| parse::parse_command_line(&line).ok())
            .and_then(|c| analysis::analysis_command(&c.name).map(|d| (c, d)))
            .filter(|(c, _)| match self.playing {
                GameKind::Go => offers(&self.state, &c.name),
                GameKind::Othello => offers(self.othello_state(), &c.name),
            });
        let Some((command, (dialect, kind))) = streaming else {
            return Ok(self.handle(raw));
        };
        let id = command.id.as_deref();
        let stream = Stream {
            id,
            args: &command.args,
            dialect,
            kind,
            out,
            stop,
        };
        let streamed = match self.playing {
            GameKind::Go => stream_on(&mut self.state, stream)?,
            GameKind::Othello => stream_on(self.othello_state(), stream)?,
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

impl Answerer for Engine {
    fn interrupt_flag(&self) -> Arc<AtomicBool> {
        Engine::interrupt_flag(self)
    }

    fn handle_streaming(
        &mut self,
        raw: &[u8],
        out: &mut dyn Write,
        stop: &dyn Fn() -> bool,
    ) -> io::Result<Option<Response>> {
        Engine::handle_streaming(self, raw, out, stop)
    }
}

/// Every command the Go engine knows, in the order `list_commands` shows them (GoGui's
/// ruler commands other than `gogui-rules_game_id` only on the torus).
pub fn command_names() -> impl Iterator<Item = &'static str> {
    GO.names()
}

/// Every command the engine knows in Othello mode, in the order `list_commands` shows them.
pub fn othello_command_names() -> impl Iterator<Item = &'static str> {
    OTHELLO.names()
}
