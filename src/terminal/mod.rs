//! The terminal board (`shicho play`), for a person against the engine or two people at
//! one keyboard, whichever game: the session loop, what it needs of a game (`played`), the
//! diagrams and the CSV log. Each game's part is in its wing (`go::terminal`,
//! `othello::terminal`); `engine::play` makes the game from the command line.
//!
//! It is a front end like the GTP session, and writes its diagrams to stdout (it is not
//! GTP: nothing else reads stdout).

pub mod csv_log;
pub mod diagram;
pub mod played;
pub mod session;
