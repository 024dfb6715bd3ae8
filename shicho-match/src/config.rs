//! What a match is: engines, board, rules, time, openings, output. Checked once, up front,
//! so that a typo fails before any engine starts rather than after the first game.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use shicho::Color;
use shicho::Game;
use shicho::Rng;
use shicho::Rules;
use shicho::game::GameKind;
use shicho::othello;
use shicho::{Geometry, Topology};
use shicho::{Move, Point};

use crate::clock::TimeControl;
use crate::judge::config::JudgeConfig;
use crate::settings::Shard;
use crate::sprt::SprtSpec;

/// A match setting that cannot work.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

/// How games start differently.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Openings {
    /// Every game starts from the empty board (or the handicap stones).
    #[default]
    None,
    /// This many random moves, on the third line or higher of a plane board of 7x7 or more
    /// (anywhere on a torus or a small board), so that they do not spoil the game.
    Random(usize),
    /// Move sequences (GTP vertices, colours alternating from the side to move), used in
    /// turn.
    List(Vec<Vec<String>>),
}

/// One match: everything the referee needs, already checked by [`MatchConfig::validate`].
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The game played: Go (the rules below) or Othello (the rules, komi and handicap are
    /// then unused).
    pub game: GameKind,
    /// The two engines' command lines, split into words. Engine 0 plays Black in the odd
    /// games (the first, third, ...), engine 1 White; with `alternate` they swap every
    /// other game.
    pub engines: [Vec<String>; 2],
    /// An engine asked `final_status_list dead` when the players disagree.
    pub referee: Option<Vec<String>>,
    pub size: usize,
    pub komi: f64,
    pub rules: Rules,
    pub games: usize,
    pub alternate: bool,
    /// Fixed handicap stones (0, or 2 up to 9 by GNU Go's placement).
    pub handicap: u32,
    /// Told to both engines (`time_settings`, or `kata-time_settings` for a Fischer clock,
    /// `kata-time_settings` or `kgs-time_settings` for Japanese byo-yomi) and enforced.
    pub time: Option<TimeControl>,
    /// A limit in seconds on every move, enforced; told to the engines as
    /// `time_settings 0 T 1` (T rounded down, at least 1) when there is no `time`.
    pub move_time: Option<f64>,
    /// Latency allowance added to every time limit.
    pub grace: Duration,
    /// How long any answer may take when no clock limits it; an engine silent for longer
    /// has stopped answering.
    pub answer_timeout: Duration,
    /// Moves (passes included) after which the game is scored as it stands.
    pub max_moves: usize,
    /// Games played at the same time, each by its own pair of engine processes.
    pub parallel: usize,
    pub openings: Openings,
    /// Seeds the random openings.
    pub seed: u64,
    pub out_dir: PathBuf,
    /// Print the live progress line to stderr.
    pub progress: bool,
    /// Stop as soon as this test has decided (`games` is then the most that are played).
    pub sprt: Option<SprtSpec>,
    /// Play only this slice of the games.
    pub shard: Option<Shard>,
    /// Judge every game as it finishes.
    pub judge: Option<JudgeConfig>,
}

impl MatchConfig {
    /// A configuration with the defaults the command line uses, for the given engines.
    pub fn new(engines: [Vec<String>; 2], out_dir: PathBuf) -> MatchConfig {
        let rules = Rules::default();
        let size = 9;
        MatchConfig {
            game: GameKind::Go,
            engines,
            referee: None,
            size,
            komi: rules.default_komi(),
            rules,
            games: 10,
            alternate: false,
            handicap: 0,
            time: None,
            move_time: None,
            grace: Duration::from_secs(1),
            answer_timeout: Duration::from_secs(120),
            max_moves: default_max_moves(size),
            parallel: 1,
            openings: Openings::None,
            seed: 1,
            out_dir,
            progress: false,
            sprt: None,
            shard: None,
            judge: None,
        }
    }

    /// Checks every setting that does not need a running engine.
    ///
    /// # Errors
    /// A message naming the bad setting.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let bad = |m: String| Err(ConfigError(m));
        for (i, argv) in self.engines.iter().enumerate() {
            if argv.is_empty() {
                return bad(format!("engine {} has an empty command line", i + 1));
            }
        }
        if self.referee.as_ref().is_some_and(Vec::is_empty) {
            return bad("the referee has an empty command line".into());
        }
        if !self.komi.is_finite() {
            return bad("komi must be a finite number".into());
        }
        if self.games == 0 {
            return bad("--games must be at least 1".into());
        }
        if self.parallel == 0 {
            return bad("--parallel must be at least 1".into());
        }
        if self.max_moves == 0 {
            return bad("--max-moves must be at least 1".into());
        }
        if let Some(t) = self.move_time
            && !(t.is_finite() && t > 0.0)
        {
            return bad("--move-time must be a positive number of seconds".into());
        }
        if let Some(j) = &self.judge {
            if j.argv.is_empty() {
                return bad("the judge has an empty command line".into());
            }
            if j.visits == 0 {
                return bad("--judge-visits must be at least 1".into());
            }
            if self.game == GameKind::Othello {
                return bad("the judge reads Go games only".into());
            }
        }
        if self.game == GameKind::Othello {
            return self.validate_othello();
        }
        let geo = Geometry::get(self.size, self.rules.topology)
            .map_err(|e| ConfigError(e.to_string()))?;
        handicap_points(geo, self.handicap).map_err(ConfigError)?;
        if let Openings::List(list) = &self.openings {
            if list.is_empty() {
                return bad("the openings file holds no opening".into());
            }
            for (i, opening) in list.iter().enumerate() {
                self.opening_moves(opening)
                    .map_err(|e| ConfigError(format!("opening {}: {e}", i + 1)))?;
            }
        }
        Ok(())
    }

    /// The Othello settings: the board size, no handicap, listed openings legal.
    fn validate_othello(&self) -> Result<(), ConfigError> {
        othello::check_size(self.size).map_err(|e| ConfigError(e.to_string()))?;
        if self.handicap != 0 {
            return Err(ConfigError("Othello has no handicap".into()));
        }
        if self.referee.is_some() {
            return Err(ConfigError(
                "Othello needs no referee engine (the discs decide)".into(),
            ));
        }
        if let Openings::List(list) = &self.openings {
            if list.is_empty() {
                return Err(ConfigError("the openings file holds no opening".into()));
            }
            for (i, opening) in list.iter().enumerate() {
                self.othello_opening_moves(opening)
                    .map_err(|e| ConfigError(format!("opening {}: {e}", i + 1)))?;
            }
        }
        Ok(())
    }

    /// The Othello start position on the match's size (8x8 if that size is no Othello
    /// size: `validate` refuses it first).
    pub fn start_othello_game(&self) -> othello::Game {
        othello::Game::new(self.size)
            .or_else(|_| othello::Game::new(8))
            .expect("8x8 is an Othello size")
    }

    /// The Othello opening with index `pair`: random legal moves from the start (never a
    /// pass: the opening stops short instead), or a listed one.
    pub fn othello_opening(&self, pair: usize) -> Vec<othello::Move> {
        match &self.openings {
            Openings::None => Vec::new(),
            Openings::Random(n) => {
                let mut rng =
                    Rng::new(self.seed ^ (pair as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
                let mut game = self.start_othello_game();
                let mut moves = Vec::new();
                for _ in 0..*n {
                    let c = game.to_move();
                    let Some(s) = othello::random_move(game.board(), c, &mut rng) else {
                        break;
                    };
                    let m = othello::Move::Play(s);
                    if game.play(m).is_err() {
                        break;
                    }
                    moves.push(m);
                }
                moves
            }
            Openings::List(list) if !list.is_empty() => self
                .othello_opening_moves(&list[pair % list.len()])
                .unwrap_or_default(),
            Openings::List(_) => Vec::new(),
        }
    }

    /// A listed Othello opening (Othello vertices, colours alternating), each move checked
    /// legal in turn.
    fn othello_opening_moves(&self, vertices: &[String]) -> Result<Vec<othello::Move>, String> {
        let mut game = self.start_othello_game();
        let mut moves = Vec::new();
        for v in vertices {
            let m = othello::Move::parse(v, game.size()).map_err(|e| format!("{v}: {e}"))?;
            if m == othello::Move::Pass {
                return Err(format!("{v}: openings hold no passes"));
            }
            game.play(m).map_err(|e| format!("{v}: {e}"))?;
            moves.push(m);
        }
        Ok(moves)
    }

    /// The empty game with the handicap stones on it, White to move after a handicap.
    pub fn start_game(&self) -> Game {
        // validate() checked size and handicap; without that, fall back to an empty 9x9
        // board rather than panic.
        let geo = Geometry::get(self.size, self.rules.topology)
            .or_else(|_| Geometry::get(9, self.rules.topology))
            .expect("9 is a valid size");
        let mut cells = vec![None; geo.num_points()];
        for p in handicap_points(geo, self.handicap).unwrap_or_default() {
            cells[p.index()] = Some(Color::Black);
        }
        let to_move = if cells.iter().any(Option::is_some) {
            Color::White
        } else {
            Color::Black
        };
        // Star points are never adjacent, so every handicap stone has liberties.
        let board =
            shicho::Board::from_stones(geo, &cells).expect("handicap stones have liberties");
        Game::with_position(board, to_move, self.rules, self.komi)
    }

    /// The handicap stones, in the order of GTP's fixed placement.
    pub fn handicap_stones(&self) -> Vec<Point> {
        handicap_points(self.start_game().geometry(), self.handicap).unwrap_or_default()
    }

    /// The opening of the game with index `pair` (games sharing an opening share it).
    pub fn opening(&self, pair: usize) -> Vec<Move> {
        match &self.openings {
            Openings::None => Vec::new(),
            Openings::Random(n) => self.random_opening(pair, *n),
            Openings::List(list) if !list.is_empty() => self
                .opening_moves(&list[pair % list.len()])
                .unwrap_or_default(),
            Openings::List(_) => Vec::new(),
        }
    }

    /// A listed opening as moves, each checked legal from the start position.
    fn opening_moves(&self, vertices: &[String]) -> Result<Vec<Move>, String> {
        let mut game = self.start_game();
        let mut moves = Vec::new();
        for v in vertices {
            let m = game
                .geometry()
                .parse_move(v)
                .map_err(|e| format!("{v}: {e}"))?;
            let c = game.to_move();
            game.play(c, m).map_err(|e| format!("{v}: {e}"))?;
            moves.push(m);
        }
        Ok(moves)
    }

    fn random_opening(&self, pair: usize, n: usize) -> Vec<Move> {
        let mut rng = Rng::new(self.seed ^ (pair as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut game = self.start_game();
        let geo = game.geometry();
        let size = self.size;
        let central = |p: Point| {
            let (x, y) = geo.xy(p);
            geo.topology() == Topology::Torus
                || size < 7
                || (2..size - 2).contains(&x) && (2..size - 2).contains(&y)
        };
        let mut moves = Vec::new();
        for _ in 0..n {
            let c = game.to_move();
            let candidates: Vec<Point> = geo
                .points()
                .filter(|&p| central(p) && game.is_legal(c, Move::Play(p)))
                .collect();
            if candidates.is_empty() {
                break;
            }
            let m = Move::Play(candidates[rng.below(candidates.len())]);
            if game.play(c, m).is_err() {
                break;
            }
            moves.push(m);
        }
        moves
    }

    /// Which engine plays Black in game `index` (0-based over the output directory).
    pub fn black_engine(&self, index: usize) -> usize {
        if self.alternate { index % 2 } else { 0 }
    }

    /// Which opening game `index` uses: with alternating colours both games of a pair play
    /// the same opening, once with each engine as Black, so an unbalanced opening favours
    /// nobody.
    pub fn opening_index(&self, index: usize) -> usize {
        if self.alternate { index / 2 } else { index }
    }
}

/// Three moves per point of the board: past that, something loops. (19x19 gives 1083,
/// close to gogui-twogtp's 1000; an Othello game never gets near it.)
pub fn default_max_moves(size: usize) -> usize {
    3 * size * size
}

/// The fixed handicap stones ([`handicap::fixed`](shicho::go::handicap::fixed), GNU Go's
/// placement) for `stones` on `geo`.
///
/// # Errors
/// The number of stones is not possible on this size (1 is never: one stone is no
/// handicap, play with a low komi instead).
pub fn handicap_points(geo: &Geometry, stones: u32) -> Result<Vec<Point>, String> {
    if stones == 0 {
        return Ok(Vec::new());
    }
    shicho::go::handicap::fixed(geo, stones as usize).ok_or_else(|| {
        let (size, max) = (geo.size(), shicho::go::handicap::max_fixed(geo.size()));
        format!("a handicap of {stones} is not possible on {size}x{size} (0, or 2 to {max})")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handicap_counts_are_checked() {
        let geo = |n| Geometry::get(n, Topology::Plane).unwrap();
        assert_eq!(handicap_points(geo(9), 0), Ok(vec![]));
        assert_eq!(handicap_points(geo(9), 4).unwrap().len(), 4);
        assert!(handicap_points(geo(9), 1).is_err());
        assert!(handicap_points(geo(8), 5).unwrap_err().contains("2 to 4"));
        assert!(handicap_points(geo(5), 2).is_err());
    }

    #[test]
    fn openings_are_legal_repeatable_and_paired() {
        let mut cfg = MatchConfig::new([vec!["a".into()], vec!["b".into()]], "x".into());
        cfg.openings = Openings::Random(4);
        cfg.alternate = true;
        let a = cfg.opening(cfg.opening_index(2));
        assert_eq!(a.len(), 4);
        assert_eq!(a, cfg.opening(cfg.opening_index(3)));
        assert_ne!(a, cfg.opening(cfg.opening_index(4)));
        cfg.openings = Openings::List(vec![vec!["E5".into(), "E5".into()]]);
        assert!(cfg.validate().unwrap_err().0.contains("occupied"));
        cfg.openings = Openings::List(vec![vec!["E5".into(), "C3".into()]]);
        cfg.validate().unwrap();
        assert_eq!(cfg.opening(7).len(), 2);
    }

    #[test]
    fn othello_openings_are_legal_and_sizes_checked() {
        let mut cfg = MatchConfig::new([vec!["a".into()], vec!["b".into()]], "x".into());
        cfg.game = GameKind::Othello;
        cfg.size = 8;
        cfg.openings = Openings::Random(6);
        cfg.validate().unwrap();
        let moves = cfg.othello_opening(3);
        assert_eq!(moves.len(), 6);
        assert_eq!(moves, cfg.othello_opening(3));
        let mut game = cfg.start_othello_game();
        for m in moves {
            game.play(m).unwrap();
        }
        cfg.openings = Openings::List(vec![vec!["d3".into(), "C3".into()]]);
        cfg.validate().unwrap();
        cfg.openings = Openings::List(vec![vec!["a1".into()]]);
        assert!(cfg.validate().unwrap_err().0.contains("a1"));
        cfg.openings = Openings::None;
        cfg.size = 9;
        assert!(cfg.validate().unwrap_err().0.contains("unacceptable size"));
    }
}
