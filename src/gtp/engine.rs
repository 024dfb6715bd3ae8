//! The engine as a front end sees it: one raw input line in, one framed response out.
//!
//! [`Engine::handle`] preprocesses and parses the line (`parse`), looks the command up in the
//! state's command table, runs its handler on the [`State`], and frames the reply
//! (`response`). Analysis commands that stream reports go through
//! [`Engine::handle_streaming`].

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::game::Game;
use crate::gtp::commands::command_table::GtpState;
use crate::gtp::commands::{self, analyze};
use crate::gtp::error::GtpError;
use crate::gtp::parse::{self, CommandLineErrorKind};
use crate::gtp::response::{Response, frame};
use crate::gtp::state::{Config, State};

/// A GTP engine: its state and the command table of the game it plays.
pub struct Engine {
    state: State,
}

impl Engine {
    pub fn new(config: Config) -> Engine {
        Engine {
            state: State::new(&config, &commands::GO),
        }
    }

    /// The flag a reader thread sets when GoGui's `# interrupt` line arrives; searches and
    /// analyses stop when they see it. The engine never clears it itself: whoever raises it
    /// knows which commands it is meant for, and clears it before any other (the session
    /// does, see `session::run`).
    pub fn interrupt_flag(&self) -> Arc<AtomicBool> {
        self.state.interrupt_flag()
    }

    pub fn game(&self) -> &Game {
        self.state.game()
    }

    /// Whether GoGui asked the running command to stop early.
    pub fn interrupted(&self) -> bool {
        self.state.interrupted()
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
        let reply = match self.state.commands().find(&self.state, &command.name) {
            Some(c) => {
                log::debug!("command: {line}");
                (c.run)(&mut self.state, &command.args)
            }
            None => Err(GtpError::UnknownCommand),
        };
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
        match analyze::stream(&mut self.state, id, &command.args, dialect, out, stop)? {
            Ok(()) => Ok(None),
            Err(error) => Ok(Some(Response {
                text: frame(id, &Err(error)),
                quit: false,
            })),
        }
    }
}
