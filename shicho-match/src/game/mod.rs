//! One refereed game: setup, moves checked by the rules core, clocks, and the end (count,
//! resignation or forfeit).
//!
//! The referee's own game is the authority. Every answer to `genmove` is parsed and
//! checked against it before anyone else sees it; only a legal move is forwarded to the
//! opponent with `play`. Whatever goes wrong is pinned on one engine as a [`Forfeit`] and
//! ends the game: garbage from an engine is a loss for that engine, never a failure of the
//! referee.
//!
//! [`GameInPlay`] referees every game the same way, through the rules core's
//! [`BoardGame`]: the engines' board and clocks, the opening, asking for a move, checking
//! it and telling the opponent, the move limit, the record. What differs is a
//! [`RefereedGame`]'s:
//! - `go`: the rules command, komi and handicap; after two passes the dead stones
//!   (`settle`, with the order in which they are decided) and the area or territory count;
//! - `othello`: `set_game` or `list_games`, forced passes played by the referee, the discs.

use std::fmt;
use std::time::{Duration, Instant, SystemTime};

use shicho::Score;
use shicho::game::BoardGame;
use shicho::gtp::parse::parse_float;
use shicho::{ByColor, Color};
use shicho::{Game, Move, Point};

pub(crate) mod go;
pub(crate) mod othello;
pub(crate) mod settle;

use crate::clock::{ClockReading, RefereeClock};
use crate::config::MatchConfig;
use crate::engine_process::{EngineError, EngineProcess, Slot};

/// How a game ended: the `reason` column of the results file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EndReason {
    /// The rules ended the game (Go: two passes; Othello: no move for either side),
    /// counted by the referee.
    Score,
    Resign,
    /// A move later than its limit plus grace, or none at all with a clock running.
    Time,
    /// An unparsable answer to `genmove`, a move the rules forbid, or `?` to `genmove`.
    Illegal,
    /// The engine could not start, exited, or stopped answering (no clock running).
    Crash,
    /// The engine refused a command it must accept (`boardsize`, `clear_board`, `komi`,
    /// a legal `play`, the handicap).
    Error,
    /// The move limit was reached; the position was counted as after two passes.
    MaxMoves,
}

impl EndReason {
    pub const ALL: [EndReason; 7] = [
        EndReason::Score,
        EndReason::Resign,
        EndReason::Time,
        EndReason::Illegal,
        EndReason::Crash,
        EndReason::Error,
        EndReason::MaxMoves,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Score => "score",
            EndReason::Resign => "resign",
            EndReason::Time => "time",
            EndReason::Illegal => "illegal",
            EndReason::Crash => "crash",
            EndReason::Error => "error",
            EndReason::MaxMoves => "maxmoves",
        }
    }

    /// The reason named `name` (the results file's `reason` column).
    pub fn from_name(name: &str) -> Option<EndReason> {
        EndReason::ALL.into_iter().find(|r| r.as_str() == name)
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Who chose a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// Part of the opening the referee set (random or listed).
    Opening,
    /// Answer to `genmove`.
    Engine,
    /// Answer during the play-out that settles disputed dead stones.
    Cleanup,
    /// Othello: a pass the referee played for a player without a legal move (it is not
    /// asked: some engines cannot answer `pass`).
    Forced,
}

/// A move of either game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayedMove {
    Go(Move),
    Othello(shicho::othello::Move),
}

impl PlayedMove {
    /// The Go move, if this is one.
    pub fn go(self) -> Option<Move> {
        match self {
            PlayedMove::Go(m) => Some(m),
            PlayedMove::Othello(_) => None,
        }
    }

    /// The Othello move, if this is one.
    pub fn othello(self) -> Option<shicho::othello::Move> {
        match self {
            PlayedMove::Othello(m) => Some(m),
            PlayedMove::Go(_) => None,
        }
    }
}

impl From<Move> for PlayedMove {
    fn from(m: Move) -> PlayedMove {
        PlayedMove::Go(m)
    }
}

impl From<shicho::othello::Move> for PlayedMove {
    fn from(m: shicho::othello::Move) -> PlayedMove {
        PlayedMove::Othello(m)
    }
}

/// The game as the referee played it.
#[derive(Clone, Debug)]
pub enum Played {
    Go(Game),
    Othello(shicho::othello::Game),
}

impl From<Game> for Played {
    fn from(game: Game) -> Played {
        Played::Go(game)
    }
}

impl From<shicho::othello::Game> for Played {
    fn from(game: shicho::othello::Game) -> Played {
        Played::Othello(game)
    }
}

/// One move of the record.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveRecord {
    pub color: Color,
    pub mv: PlayedMove,
    pub kind: MoveKind,
    /// Wall time the engine took, for engine moves.
    pub seconds: Option<f64>,
    /// The mover's clock after the move (the increment added), for engine moves under a
    /// time control.
    pub clock: Option<ClockReading>,
}

/// Everything known about one finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 1-based, counted over the output directory (a resumed run continues the count).
    pub number: usize,
    pub start: SystemTime,
    pub duration: Duration,
    /// Which engine (0 or 1) played Black.
    pub black_engine: usize,
    /// Players' names (`name version`) by colour.
    pub names: ByColor<String>,
    /// Go's handicap stones (none in Othello).
    pub handicap: Vec<Point>,
    pub moves: Vec<MoveRecord>,
    /// The game as the referee played it: the start position and every move of `moves`.
    pub game: Played,
    /// `None` for a draw.
    pub winner: Option<Color>,
    /// SGF `RE` form: `B+3.5`, `W+R`, `B+T`, `W+F` (forfeit: illegal, crash, error), `0`.
    pub result: String,
    pub reason: EndReason,
    /// One line for humans: who did what, or how dead stones were decided.
    pub detail: String,
    /// The count, for Go games that were counted.
    pub score: Option<Score>,
    /// Go's dead stones (none in Othello).
    pub dead: Vec<Point>,
    /// CPU seconds by `cputime` over the game, when the engine implements it.
    pub cpu: ByColor<Option<f64>>,
    /// Wall seconds spent answering `genmove` (and cleanup moves).
    pub think: ByColor<f64>,
    /// Number of `genmove` answers.
    pub engine_moves: ByColor<usize>,
}

impl GameRecord {
    /// Othello: the discs on the board at the end, however the game ended.
    pub fn discs(&self) -> Option<shicho::othello::Score> {
        match &self.game {
            Played::Othello(game) => Some(game.score()),
            Played::Go(_) => None,
        }
    }

    /// Which engine (0 or 1) won, `None` for a draw.
    pub fn winning_engine(&self) -> Option<usize> {
        self.winner.map(|c| self.engine_of(c))
    }

    /// Which engine played `c`.
    pub fn engine_of(&self, c: Color) -> usize {
        match c {
            Color::Black => self.black_engine,
            Color::White => 1 - self.black_engine,
        }
    }

    /// What the statistics need of the game.
    pub fn outcome(&self) -> Outcome {
        Outcome {
            number: self.number,
            black_engine: self.black_engine,
            winner: self.winner,
            reason: self.reason,
            moves: self.moves.len(),
            think: self.think,
            engine_moves: Some(self.engine_moves),
            cpu: self.cpu,
        }
    }
}

/// A finished game as the statistics see it: from a record just played, or from a row of
/// a results file.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub number: usize,
    /// Which engine (0 or 1) played Black.
    pub black_engine: usize,
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub reason: EndReason,
    pub moves: usize,
    /// Wall seconds spent answering `genmove`, by colour.
    pub think: ByColor<f64>,
    /// `genmove` answers by colour; unknown for a row of a results file.
    pub engine_moves: Option<ByColor<usize>>,
    pub cpu: ByColor<Option<f64>>,
}

impl Outcome {
    /// Which engine played `c`.
    pub fn engine_of(&self, c: Color) -> usize {
        match c {
            Color::Black => self.black_engine,
            Color::White => 1 - self.black_engine,
        }
    }

    /// Engine A's score: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn score_of_a(&self) -> f64 {
        match self.winner {
            None => 0.5,
            Some(c) if self.engine_of(c) == 0 => 1.0,
            Some(_) => 0.0,
        }
    }
}

/// What one game needs besides the engines.
pub struct GameSpec<'a> {
    pub cfg: &'a MatchConfig,
    pub number: usize,
    pub black_engine: usize,
    pub names: ByColor<String>,
    /// Which opening the game plays (see `MatchConfig::opening_index`).
    pub opening: usize,
}

/// The engine of `loser` lost the game: why, in a line.
#[derive(Clone, Debug)]
pub(crate) struct Forfeit {
    loser: Color,
    reason: EndReason,
    detail: String,
}

/// A game the rules (or the move limit) ended, counted.
pub(crate) struct Count {
    /// `None` for a draw.
    winner: Option<Color>,
    /// SGF `RE` form: `B+3.5`, `W+4`, `0`.
    result: String,
    /// How it was counted: how the dead stones were decided, or the discs.
    detail: String,
    /// Go's count and its dead stones.
    score: Option<Score>,
    dead: Vec<Point>,
}

/// What the referee does differently in each game. The rest is the same for every game and
/// is [`GameInPlay`]'s, done through the rules core's [`BoardGame`]: the board and the
/// clocks for both engines, the opening, asking for a move and checking it, telling the
/// opponent, the move limit, the record.
pub(crate) trait RefereedGame:
    BoardGame<Move: Into<PlayedMove>> + Into<Played> + Sized
{
    /// The position the match's games start from (Go: the handicap stones on it).
    fn start(cfg: &MatchConfig) -> Self;

    /// The opening with index `pair` (see `MatchConfig::opening_index`).
    fn opening(cfg: &MatchConfig, pair: usize) -> Vec<Self::Move>;

    /// Go's handicap stones, in the order engines are told them.
    fn handicap(_cfg: &MatchConfig) -> Vec<Point> {
        Vec::new()
    }

    /// Tells engine `c` the game and its rules, before its board is set (a new game or
    /// topology replaces the board).
    fn announce(table: &mut GameInPlay<'_, Self>, c: Color) -> Result<(), Forfeit>;

    /// Tells engine `c`, on its cleared board, what else the start position holds (Go: komi
    /// and handicap).
    fn set_up_board(_table: &mut GameInPlay<'_, Self>, _c: Color) -> Result<(), Forfeit> {
        Ok(())
    }

    /// Whether the side to move has no choice but to pass (Othello): the referee then
    /// passes for it without asking, since some engines cannot answer `pass`.
    fn must_pass(&self) -> bool {
        false
    }

    /// Counts the game once the rules or the move limit ended it, with the engines' help
    /// where the count needs it (Go's dead stones).
    fn count(table: &mut GameInPlay<'_, Self>) -> Result<Count, Forfeit>;
}

/// The game in progress; `G` is the referee's game (Go's or Othello's).
pub(crate) struct GameInPlay<'a, G> {
    cfg: &'a MatchConfig,
    players: ByColor<&'a mut Slot>,
    /// The engine that decides Go's disputed dead stones, if the match has one.
    referee: Option<&'a mut Slot>,
    game: G,
    handicap: Vec<Point>,
    moves: Vec<MoveRecord>,
    clocks: ByColor<RefereeClock>,
    think: ByColor<f64>,
    engine_moves: ByColor<usize>,
}

/// Plays one game between the engines in `players` (by colour); Go's disputed dead stones
/// may go to the `referee` engine.
pub(crate) fn play_game<G: RefereedGame>(
    spec: GameSpec<'_>,
    players: ByColor<&mut Slot>,
    referee: Option<&mut Slot>,
) -> GameRecord {
    let start = SystemTime::now();
    let started = Instant::now();
    let cfg = spec.cfg;
    let clock = RefereeClock::new(cfg.time, cfg.move_time);
    let mut table = GameInPlay {
        cfg,
        players,
        referee,
        game: G::start(cfg),
        handicap: G::handicap(cfg),
        moves: Vec::new(),
        clocks: ByColor::new(clock.clone(), clock),
        think: ByColor::new(0.0, 0.0),
        engine_moves: ByColor::new(0, 0),
    };
    let mut cpu_before = ByColor::new(None, None);
    let opening = G::opening(cfg, spec.opening);
    let outcome = table.run(&opening, &mut cpu_before);
    let cpu_after = ByColor::new(table.cputime(Color::Black), table.cputime(Color::White));
    let cpu = ByColor::new(
        cpu_used(cpu_before.black, cpu_after.black),
        cpu_used(cpu_before.white, cpu_after.white),
    );
    let (winner, result, reason, detail, score, dead) = match outcome {
        Ok((reason, count)) => (
            count.winner,
            count.result,
            reason,
            count.detail,
            count.score,
            count.dead,
        ),
        Err(f) => {
            let winner = f.loser.other();
            let code = match f.reason {
                EndReason::Resign => 'R',
                EndReason::Time => 'T',
                _ => 'F',
            };
            let result = format!("{}+{code}", winner.letter());
            (Some(winner), result, f.reason, f.detail, None, Vec::new())
        }
    };
    GameRecord {
        number: spec.number,
        start,
        duration: started.elapsed(),
        black_engine: spec.black_engine,
        names: spec.names,
        handicap: table.handicap,
        moves: table.moves,
        game: table.game.into(),
        winner,
        result,
        reason,
        detail,
        score,
        dead,
        cpu,
        think: table.think,
        engine_moves: table.engine_moves,
    }
}

fn cpu_used(before: Option<f64>, after: Option<f64>) -> Option<f64> {
    Some((after? - before?).max(0.0))
}

/// At most this many characters of an engine's answer go into a record.
const QUOTE_LIMIT: usize = 40;

/// `text` cut short for quoting in a record.
pub(crate) fn quote(text: &str) -> String {
    let mut q: String = text.chars().take(QUOTE_LIMIT).collect();
    if text.chars().count() > QUOTE_LIMIT {
        q.push_str("...");
    }
    q
}

/// A game from setup to its end, the same for every game.
impl<G: RefereedGame> GameInPlay<'_, G> {
    /// The game up to its count: how it ended, and the count.
    fn run(
        &mut self,
        opening: &[G::Move],
        cpu: &mut ByColor<Option<f64>>,
    ) -> Result<(EndReason, Count), Forfeit> {
        self.setup(opening)?;
        for c in Color::ALL {
            cpu[c] = self.cputime(c);
        }
        let reason = self.play_main()?;
        let mut count = G::count(self)?;
        if reason == EndReason::MaxMoves {
            count.detail = format!(
                "move limit {} reached; {}",
                self.cfg.max_moves, count.detail
            );
        }
        Ok((reason, count))
    }

    /// The game, its rules, the board, the start position and time for both engines, then
    /// the opening.
    fn setup(&mut self, opening: &[G::Move]) -> Result<(), Forfeit> {
        for c in Color::ALL {
            G::announce(self, c)?;
            self.command(c, &format!("boardsize {}", self.cfg.size))?;
            self.command(c, "clear_board")?;
            G::set_up_board(self, c)?;
            self.announce_time(c)?;
        }
        for &m in opening {
            let c = self.game.to_move();
            // Openings are legal by construction (random ones are drawn from legal moves,
            // listed ones were checked up front); stop early rather than trust a broken
            // one.
            let v = self.game.format_move(m);
            if let Err(e) = self.game.play(m) {
                log::warn!("opening move {v} is illegal here ({e}); opening cut short");
                break;
            }
            self.moves.push(MoveRecord {
                color: c,
                mv: m.into(),
                kind: MoveKind::Opening,
                seconds: None,
                clock: None,
            });
            let command = format!("play {} {v}", c.name());
            self.command(Color::Black, &command)?;
            self.command(Color::White, &command)?;
        }
        Ok(())
    }

    /// Moves until the rules end the game or the move limit is reached.
    fn play_main(&mut self) -> Result<EndReason, Forfeit> {
        loop {
            if self.game.is_over() {
                return Ok(EndReason::Score);
            }
            if self.moves.len() >= self.cfg.max_moves {
                return Ok(EndReason::MaxMoves);
            }
            let c = self.game.to_move();
            if self.game.must_pass() {
                self.forced_pass(c)?;
            } else {
                self.engine_move(c, "genmove", MoveKind::Engine)?;
            }
        }
    }

    /// Asks `c`, the side to move, for a move with `command` (`genmove` or its cleanup
    /// form), checks it (time, syntax, rules), plays it and tells the opponent.
    fn engine_move(&mut self, c: Color, command: &str, kind: MoveKind) -> Result<(), Forfeit> {
        let (word, secs) = self.genmove_text(c, command)?;
        if word.eq_ignore_ascii_case("resign") {
            return Err(resigned(c));
        }
        let illegal = |detail| Forfeit {
            loser: c,
            reason: EndReason::Illegal,
            detail,
        };
        let m = self.game.parse_move(&word).map_err(|e| {
            illegal(format!(
                "{c} answered '{}', not a move on this board ({e})",
                quote(&word)
            ))
        })?;
        let v = self.game.format_move(m);
        if let Err(e) = self.game.play(m) {
            return Err(illegal(format!("{c} played {v}, which is illegal ({e})")));
        }
        self.moves.push(MoveRecord {
            color: c,
            mv: m.into(),
            kind,
            seconds: Some(secs),
            clock: self.clocks[c].reading(),
        });
        self.command(c.other(), &format!("play {} {v}", c.name()))?;
        Ok(())
    }

    /// `c` has no legal move but the pass: the referee passes for it and tells both
    /// engines (one that refuses is left to infer the pass from the next move).
    fn forced_pass(&mut self, c: Color) -> Result<(), Forfeit> {
        // `must_pass`: the pass is `c`'s one legal move.
        if let Err(e) = self.game.play(G::PASS) {
            log::error!("the referee's own pass for {c} was refused ({e})");
        }
        self.moves.push(MoveRecord {
            color: c,
            mv: G::PASS.into(),
            kind: MoveKind::Forced,
            seconds: None,
            clock: None,
        });
        let command = format!("play {} {}", c.name(), self.game.format_move(G::PASS));
        for e in Color::ALL {
            if self.optional(e, &command)?.is_none() {
                log::debug!("{e} engine refused '{command}'; it infers the pass");
            }
        }
        Ok(())
    }
}

/// What refereeing does with the engines in every game: commands, clocks, `genmove`.
impl<G> GameInPlay<'_, G> {
    fn engine(&mut self, c: Color) -> Result<&mut EngineProcess, Forfeit> {
        let timeout = self.cfg.answer_timeout;
        self.players[c].get(timeout).map_err(|e| Forfeit {
            loser: c,
            reason: EndReason::Crash,
            detail: format!("{c} engine failed to start: {e}"),
        })
    }

    fn knows(&mut self, c: Color, command: &str) -> Result<bool, Forfeit> {
        Ok(self.engine(c)?.knows(command))
    }

    /// A command the engine must accept.
    fn command(&mut self, c: Color, command: &str) -> Result<String, Forfeit> {
        let timeout = self.cfg.answer_timeout;
        self.engine(c)?
            .send(command, timeout)
            .map_err(|e| blame(c, command, &e))
    }

    /// A command the engine may refuse (it is then ignored).
    fn optional(&mut self, c: Color, command: &str) -> Result<Option<String>, Forfeit> {
        match self.command(c, command) {
            Ok(text) => Ok(Some(text)),
            Err(f) if f.reason == EndReason::Error => Ok(None),
            Err(f) => Err(f),
        }
    }

    /// The engine's `cputime`, if it is running, lists it and answers a number. Asked
    /// outside the game proper, so a failure costs nothing but the number.
    fn cputime(&mut self, c: Color) -> Option<f64> {
        let timeout = self.cfg.answer_timeout;
        let engine = self.players[c].alive()?;
        if !engine.knows("cputime") {
            return None;
        }
        let text = engine.send("cputime", timeout).ok()?;
        parse_float(text.trim()).ok().filter(|t| *t >= 0.0)
    }

    fn time_settings_command(&self) -> Option<String> {
        if let Some(tc) = self.cfg.time {
            Some(tc.gtp_command())
        } else {
            self.cfg
                .move_time
                .map(|t| format!("time_settings 0 {} 1", (t.floor() as u32).max(1)))
        }
    }

    /// Tells engine `c` the time control in the nearest words it understands. A Fischer
    /// clock or Japanese byo-yomi goes as KataGo's `kata-time_settings` to an engine that
    /// takes that kind, Japanese byo-yomi else as KGS's `kgs-time_settings` to one that
    /// lists it; every other control, and these where the engine takes neither or refuses
    /// it, goes as GTP's `time_settings` (Fischer and Japanese then in Canadian terms, see
    /// [`TimeControl::gtp_command`](crate::clock::TimeControl::gtp_command)), which
    /// `time_left` then speaks too.
    fn announce_time(&mut self, c: Color) -> Result<(), Forfeit> {
        if let Some(control) = self.cfg.time {
            if let Some((kind, kata)) = control.kata_kind().zip(control.kata_command())
                && self.kata_takes(c, kind)?
                && self.optional(c, &kata)?.is_some()
            {
                return Ok(());
            }
            if let Some(kgs) = control.kgs_command()
                && self.knows(c, "kgs-time_settings")?
                && self.optional(c, &kgs)?.is_some()
            {
                return Ok(());
            }
            self.clocks[c].tell_as_canadian();
        }
        if let Some(time) = self.time_settings_command()
            && self.knows(c, "time_settings")?
        {
            self.optional(c, &time)?;
        }
        Ok(())
    }

    /// Whether engine `c` takes `kata-time_settings KIND`: it lists the command, and its
    /// `kata-list_time_settings`, if it lists that, names the kind. KataGo brought in both
    /// at once, with Fischer clocks, and its `kata-time_settings` reads KGS's kinds as
    /// `kgs-time_settings` does (one handler answers both): an engine that lists the
    /// command alone is trusted with those, but not with `fischer`.
    fn kata_takes(&mut self, c: Color, kind: &str) -> Result<bool, Forfeit> {
        if !self.knows(c, "kata-time_settings")? {
            return Ok(false);
        }
        if !self.knows(c, "kata-list_time_settings")? {
            return Ok(kind != "fischer");
        }
        let kinds = self.optional(c, "kata-list_time_settings")?;
        Ok(kinds.is_some_and(|k| k.split_whitespace().any(|listed| listed == kind)))
    }

    /// Sends `time_left` (to engines that know it) and `name c` (genmove or its cleanup
    /// form), and hands back the answer's text and the seconds it took, charged to `c`'s
    /// clock; late, refused or missing answers are forfeits.
    fn genmove_text(&mut self, c: Color, name: &str) -> Result<(String, f64), Forfeit> {
        if let Some((secs, stones)) = self.clocks[c].time_left()
            && self.knows(c, "time_left")?
        {
            self.optional(c, &format!("time_left {} {secs} {stones}", c.name()))?;
        }
        let allowed = self.clocks[c].allowed();
        let grace = self.cfg.grace.as_secs_f64();
        let timeout = allowed.map_or(self.cfg.answer_timeout, |a| {
            Duration::from_secs_f64(a + grace)
        });
        let command = format!("{name} {}", c.name());
        let engine = self.engine(c)?;
        let asked = Instant::now();
        let answer = engine.send(&command, timeout);
        let secs = asked.elapsed().as_secs_f64();
        self.think[c] += secs;
        self.engine_moves[c] += 1;
        let forfeit = |reason, detail| Forfeit {
            loser: c,
            reason,
            detail,
        };
        let text = match answer {
            Ok(text) => text,
            Err(EngineError::Timeout(_)) if allowed.is_some() => {
                return Err(forfeit(
                    EndReason::Time,
                    format!(
                        "{c} gave no move within its {:.2} s (+{grace} s grace)",
                        allowed.unwrap_or_default()
                    ),
                ));
            }
            Err(EngineError::Refused(text)) => {
                return Err(forfeit(
                    EndReason::Illegal,
                    format!("{c} answered '? {}' to {name}", quote(&text)),
                ));
            }
            Err(e) => return Err(blame(c, &command, &e)),
        };
        if let Some(a) = allowed
            && secs > a + grace
        {
            return Err(forfeit(
                EndReason::Time,
                format!("{c} took {secs:.2} s for a move, {a:.2} s allowed (+{grace} s grace)"),
            ));
        }
        self.clocks[c].charge(secs);
        Ok((text.trim().to_string(), secs))
    }
}

fn resigned(c: Color) -> Forfeit {
    Forfeit {
        loser: c,
        reason: EndReason::Resign,
        detail: format!("{c} resigned"),
    }
}

/// The forfeit for an engine error on `command`.
fn blame(c: Color, command: &str, e: &EngineError) -> Forfeit {
    let reason = match e {
        EngineError::Refused(_) => EndReason::Error,
        EngineError::Timeout(_) | EngineError::Died(_) => EndReason::Crash,
    };
    Forfeit {
        loser: c,
        reason,
        detail: format!("{c} engine, on '{command}': {e}"),
    }
}
