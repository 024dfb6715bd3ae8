//! One refereed game: setup, moves checked by the rules core, clocks, and the end (score,
//! resignation or forfeit).
//!
//! The referee's own [`Game`] is the authority. Every answer to `genmove` is parsed and
//! checked against it before anyone else sees it; only a legal move is forwarded to the
//! opponent with `play`. Whatever goes wrong is pinned on one engine as a [`Forfeit`] and
//! ends the game: garbage from an engine is a loss for that engine, never a failure of the
//! referee.
//!
//! Dead stones after two passes, in order of preference:
//! 1. both engines' `final_status_list dead`, if they agree (each list is widened to whole
//!    chains, so an engine naming one stone of a dead chain still agrees with one naming
//!    all of them);
//! 2. otherwise the `--referee` engine's list, after replaying the game into it;
//! 3. otherwise the game is played out: the engines continue with `kgs-genmove_cleanup`
//!    (plain `genmove` if they lack it) until two more passes, and every stone of the
//!    two-pass position that did not survive the play-out is dead. The two-pass position
//!    is then counted, so under territory scoring nobody loses points for filling their
//!    own territory while proving a group dead (KGS handles Japanese-rules bots the
//!    same way).
//!
//! An unusable list (a vertex off the board or on an empty point, text that is no vertex)
//! counts as no opinion rather than as a loss: the game itself was finished legally.

use std::fmt;
use std::time::{Duration, Instant, SystemTime};

use shicho::Game;
use shicho::Score;
use shicho::gtp::parse::parse_float;
use shicho::{ByColor, Color};
use shicho::{Move, Point};

pub(crate) mod othello;
pub(crate) mod settle;

use crate::clock::RefereeClock;
use crate::config::MatchConfig;
use crate::engine_process::{EngineError, EngineProcess, Slot};

/// How a game ended: the `reason` column of the results file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EndReason {
    /// Two passes, counted by the referee.
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

/// The game as the referee played it.
#[derive(Clone, Debug)]
pub enum Played {
    Go(Game),
    Othello(shicho::othello::Game),
}

/// One move of the record.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveRecord {
    pub color: Color,
    pub mv: PlayedMove,
    pub kind: MoveKind,
    /// Wall time the engine took, for engine moves.
    pub seconds: Option<f64>,
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
    /// Othello: the discs on the board at the end, however the game ended.
    pub discs: Option<shicho::othello::Score>,
    /// CPU seconds by `cputime` over the game, when the engine implements it.
    pub cpu: ByColor<Option<f64>>,
    /// Wall seconds spent answering `genmove` (and cleanup moves).
    pub think: ByColor<f64>,
    /// Number of `genmove` answers.
    pub engine_moves: ByColor<usize>,
}

impl GameRecord {
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

enum Answer {
    Play(Move, f64),
    Resign,
}

/// The game in progress; `G` is the referee's game (Go's or Othello's).
pub(crate) struct GameInPlay<'a, G> {
    cfg: &'a MatchConfig,
    players: ByColor<&'a mut Slot>,
    referee: Option<&'a mut Slot>,
    game: G,
    handicap: Vec<Point>,
    moves: Vec<MoveRecord>,
    clocks: ByColor<RefereeClock>,
    think: ByColor<f64>,
    engine_moves: ByColor<usize>,
}

/// Plays one game between the engines in `players` (by colour).
pub fn play_game(
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
        game: cfg.start_game(),
        handicap: cfg.handicap_stones(),
        moves: Vec::new(),
        clocks: ByColor::new(clock.clone(), clock),
        think: ByColor::new(0.0, 0.0),
        engine_moves: ByColor::new(0, 0),
    };
    let mut cpu_before = ByColor::new(None, None);
    let opening = cfg.opening(spec.opening);
    let outcome = table.run(&opening, &mut cpu_before);
    let cpu_after = ByColor::new(table.cputime(Color::Black), table.cputime(Color::White));
    let cpu = ByColor::new(
        cpu_used(cpu_before.black, cpu_after.black),
        cpu_used(cpu_before.white, cpu_after.white),
    );
    let (winner, result, reason, detail, score, dead) = match outcome {
        Ok(settled) => (
            settled.score.winner(),
            settled.score.to_string(),
            settled.reason,
            settled.detail,
            Some(settled.score),
            settled.dead,
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
        game: Played::Go(table.game),
        winner,
        result,
        reason,
        detail,
        score,
        dead,
        discs: None,
        cpu,
        think: table.think,
        engine_moves: table.engine_moves,
    }
}

pub(crate) fn cpu_used(before: Option<f64>, after: Option<f64>) -> Option<f64> {
    Some((after? - before?).max(0.0))
}

/// A counted game.
struct Settled {
    score: Score,
    reason: EndReason,
    detail: String,
    dead: Vec<Point>,
}

/// At most this many characters of an engine's answer go into a record.
const QUOTE_LIMIT: usize = 40;

/// How to tell an engine the match's rules, given what it lists (GTP has no rules
/// command): KataGo's `kata-set-rules` (shicho answers it too) with the preset's name or
/// shicho's custom form, else KGS's `kgs-rules` (Pachi) for the four rule sets KGS has.
pub(crate) fn rules_command(rules: shicho::Rules, knows: impl Fn(&str) -> bool) -> Option<String> {
    if knows("kata-set-rules") {
        // KataGo's `chinese` is simple ko, so it would play moves the referee's positional
        // superko forfeits; its `chinese-ogs` is shicho's `chinese` (an alias shicho takes).
        // Every other preset means the same to both (checked with `kata-get-rules`).
        return Some(match rules.preset_name() {
            Some("chinese") => "kata-set-rules chinese-ogs".to_string(),
            _ => format!("kata-set-rules {rules}"),
        });
    }
    let kgs = match rules.preset_name()? {
        "new-zealand" => "new_zealand",
        name @ ("japanese" | "chinese" | "aga") => name,
        _ => return None,
    };
    knows("kgs-rules").then(|| format!("kgs-rules {kgs}"))
}

/// `text` cut short for quoting in a record.
pub(crate) fn quote(text: &str) -> String {
    let mut q: String = text.chars().take(QUOTE_LIMIT).collect();
    if text.chars().count() > QUOTE_LIMIT {
        q.push_str("...");
    }
    q
}

impl GameInPlay<'_, Game> {
    fn run(
        &mut self,
        opening: &[Move],
        cpu: &mut ByColor<Option<f64>>,
    ) -> Result<Settled, Forfeit> {
        self.setup(opening)?;
        for c in Color::ALL {
            cpu[c] = self.cputime(c);
        }
        let reason = self.play_main()?;
        let end = self.game.clone();
        let (dead, how) = self.settle(&end)?;
        let score = end.score(&dead);
        let detail = match reason {
            EndReason::MaxMoves => format!("move limit {} reached; {how}", self.cfg.max_moves),
            _ => how,
        };
        Ok(Settled {
            score,
            reason,
            detail,
            dead,
        })
    }

    /// Rules, board, komi, handicap and time for both engines, then the opening.
    fn setup(&mut self, opening: &[Move]) -> Result<(), Forfeit> {
        let geo = self.game.geometry();
        let handicap: Vec<String> = self.handicap.iter().map(|&p| geo.format_point(p)).collect();
        let time = self.time_settings_command();
        let match_rules = self.cfg.rules;
        for c in Color::ALL {
            // First, since a change of topology replaces the board. An engine that refuses
            // plays by its own rules, its moves still checked by the match's.
            let engine = self.engine(c)?;
            if let Some(rules) = rules_command(match_rules, |command| engine.knows(command))
                && self.optional(c, &rules)?.is_none()
            {
                log::warn!("{} refused `{rules}`; it plays by its own rules", c.name());
            }
            self.command(c, &format!("boardsize {}", self.cfg.size))?;
            self.command(c, "clear_board")?;
            self.command(c, &format!("komi {}", self.cfg.komi))?;
            if !handicap.is_empty() {
                if self.knows(c, "set_free_handicap")? {
                    self.command(c, &format!("set_free_handicap {}", handicap.join(" ")))?;
                } else {
                    for v in &handicap {
                        self.command(c, &format!("play black {v}"))?;
                    }
                }
            }
            if let Some(time) = &time
                && self.knows(c, "time_settings")?
            {
                self.optional(c, time)?;
            }
        }
        for &m in opening {
            let c = self.game.to_move();
            // Openings are legal by construction (random ones are drawn from legal
            // points, listed ones were checked up front); stop early rather than trust a
            // broken one.
            if self.game.play(c, m).is_err() {
                log::warn!("opening move {m:?} is illegal here; opening cut short");
                break;
            }
            self.moves.push(MoveRecord {
                color: c,
                mv: PlayedMove::Go(m),
                kind: MoveKind::Opening,
                seconds: None,
            });
            let command = format!("play {} {}", c.name(), geo.format_move(m));
            self.command(Color::Black, &command)?;
            self.command(Color::White, &command)?;
        }
        Ok(())
    }

    /// Moves until two passes in a row or the move limit.
    fn play_main(&mut self) -> Result<EndReason, Forfeit> {
        loop {
            if self.game.consecutive_passes() >= 2 {
                return Ok(EndReason::Score);
            }
            if self.moves.len() >= self.cfg.max_moves {
                return Ok(EndReason::MaxMoves);
            }
            let c = self.game.to_move();
            match self.ask_move(c, false)? {
                Answer::Resign => return Err(resigned(c)),
                Answer::Play(m, secs) => self.apply(c, m, MoveKind::Engine, secs)?,
            }
        }
    }

    /// Asks `c` for a move and checks it: time, syntax, rules.
    fn ask_move(&mut self, c: Color, cleanup: bool) -> Result<Answer, Forfeit> {
        let name = if cleanup && self.knows(c, "kgs-genmove_cleanup")? {
            "kgs-genmove_cleanup"
        } else {
            "genmove"
        };
        let (word, secs) = self.genmove_text(c, name)?;
        if word.eq_ignore_ascii_case("resign") {
            return Ok(Answer::Resign);
        }
        let forfeit = |reason, detail| Forfeit {
            loser: c,
            reason,
            detail,
        };
        let geo = self.game.geometry();
        let m = geo.parse_move(&word).map_err(|e| {
            forfeit(
                EndReason::Illegal,
                format!(
                    "{c} answered '{}', not a move on this board ({e})",
                    quote(&word)
                ),
            )
        })?;
        self.game.check(c, m).map_err(|e| {
            forfeit(
                EndReason::Illegal,
                format!("{c} played {}, which is illegal ({e})", geo.format_move(m)),
            )
        })?;
        Ok(Answer::Play(m, secs))
    }

    /// Plays a checked engine move and tells the opponent.
    fn apply(&mut self, c: Color, m: Move, kind: MoveKind, secs: f64) -> Result<(), Forfeit> {
        // `ask_move` checked the move against this very game.
        if let Err(e) = self.game.play(c, m) {
            return Err(Forfeit {
                loser: c,
                reason: EndReason::Illegal,
                detail: format!("{c} move is illegal ({e})"),
            });
        }
        self.moves.push(MoveRecord {
            color: c,
            mv: PlayedMove::Go(m),
            kind,
            seconds: Some(secs),
        });
        let v = self.game.geometry().format_move(m);
        self.command(c.other(), &format!("play {} {v}", c.name()))?;
        Ok(())
    }
}

/// What both games' referees do: engines, commands, clocks.
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

pub(crate) fn resigned(c: Color) -> Forfeit {
    Forfeit {
        loser: c,
        reason: EndReason::Resign,
        detail: format!("{c} resigned"),
    }
}

/// The forfeit for an engine error on `command`.
pub(crate) fn blame(c: Color, command: &str, e: &EngineError) -> Forfeit {
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

#[cfg(test)]
mod tests {
    use super::*;
    use shicho::Rules;

    fn told(preset: &str, listed: &[&str]) -> Option<String> {
        rules_command(Rules::preset(preset).unwrap(), |c| listed.contains(&c))
    }

    #[test]
    fn rules_go_by_katago_s_command_else_by_kgs_s_names() {
        let both = ["kgs-rules", "kata-set-rules"];
        assert_eq!(told("daoqi", &both).unwrap(), "kata-set-rules daoqi");
        assert_eq!(told("japanese", &both).unwrap(), "kata-set-rules japanese");
        assert_eq!(
            told("chinese", &both).unwrap(),
            "kata-set-rules chinese-ogs"
        );
        assert_eq!(
            Rules::preset("chinese-ogs"),
            Rules::preset("chinese"),
            "shicho must read what the runner sends it"
        );
        let kgs = ["kgs-rules"];
        assert_eq!(told("japanese", &kgs).unwrap(), "kgs-rules japanese");
        assert_eq!(told("new-zealand", &kgs).unwrap(), "kgs-rules new_zealand");
        // Rule sets KGS has no name for are not sent.
        assert_eq!(told("tromp-taylor", &kgs), None);
        assert_eq!(told("daoqi", &kgs), None);
        assert_eq!(told("chinese", &[]), None);
    }
}
