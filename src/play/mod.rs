//! `shicho play`: a board in the terminal, for a person against the engine or two people
//! at one keyboard, in Go (any rules, Dao-qi on a torus included) and Othello.
//!
//! It is a front end like the GTP session, beside `gtp` in the layers: it uses the rules
//! cores (`game`, `othello`), the players (`search`, the Othello searcher) and the SGF
//! writer, and writes its diagrams to stdout (it is not GTP: nothing else reads stdout).
//!
//! How to read it:
//! - [`options`]: the command-line options (`shicho play --help`).
//! - `played`: what the session needs of a game (`PlayedGame`), and its two
//!   implementations `go` (Go and Dao-qi) and `othello`.
//! - `diagram`: the board as text: `X`, `O`, `.`, the last move in parentheses, labels on
//!   all four sides (on the torus they follow the points when the view is shifted).
//! - `record`: the CSV log row and the start time.
//! - [`session`]: the loop: read a line, play it or say in one line why not, redraw.

mod diagram;
mod go;
pub mod options;
mod othello;
mod played;
mod record;
pub mod session;

pub use options::Options;
pub use session::run;
