//! A game: the board plus rules, komi, history (undo), superko and passes.

use crate::color::{ByColor, Color};
use crate::game::{BoardGame, GameKind};
use crate::go::board::{Board, IllegalMove, PlayOutcome, Snapshot};
use crate::go::geometry::{Geometry, SizeError};
use crate::go::point::{Move, Point};
use crate::go::rules::{KoRule, Rules};
use crate::go::score::{self, Score};
use crate::go::zobrist;

/// What one history entry did.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Action {
    /// A move of the given colour.
    Play(Color, Move),
    /// Stones put on or taken off the board by hand (SGF setup in the middle of a game).
    Setup,
}

/// A position together with the colour to move next: the unit of situational superko.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct State {
    hash: u64,
    to_move: Color,
}

/// How often the history keeps a snapshot of the position: undo restores the nearest one
/// and replays at most this many moves less one. A board per move would cost a copy of the
/// board a move, tens of KB on 25x25 (what that came to over a long game:
/// doc/benchmarks.md); this costs a few dozen bytes.
pub const SNAPSHOT_EVERY: usize = 16;

#[derive(Clone, Debug)]
struct Turn {
    action: Action,
    /// The position before this turn, kept every `SNAPSHOT_EVERY` turns and around setups
    /// (so that replaying from a snapshot never has to redo a setup).
    before: Option<Snapshot>,
}

/// A game of Go under some rules. Either colour may move at any time (GTP allows it); the
/// rules are checked for the colour that actually plays.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    komi: f64,
    /// The start position: handicap or setup stones, which undo never removes.
    start: Board,
    board: Board,
    history: Vec<Turn>,
    /// `states[i]` is the state before `history[i]`; the last one is the current state.
    states: Vec<State>,
}

impl Game {
    /// An empty board of `size` under `rules`, Black to move.
    ///
    /// # Errors
    /// `SizeError` when `size` is outside 2..=25.
    pub fn new(size: usize, rules: Rules, komi: f64) -> Result<Game, SizeError> {
        let geo = Geometry::get(size, rules.topology)?;
        Ok(Game::with_position(
            Board::new(geo),
            Color::Black,
            rules,
            komi,
        ))
    }

    /// A game starting from `board` (setup or handicap stones, which undo never removes),
    /// with `to_move` to play. The board's geometry decides the topology.
    pub fn with_position(board: Board, to_move: Color, mut rules: Rules, komi: f64) -> Game {
        rules.topology = board.geometry().topology();
        let state = State {
            hash: board.hash(),
            to_move,
        };
        Game {
            rules,
            komi,
            start: board.clone(),
            board,
            history: Vec::new(),
            states: vec![state],
        }
    }

    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn geometry(&self) -> &'static Geometry {
        self.board.geometry()
    }

    pub fn size(&self) -> usize {
        self.board.size()
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    pub fn komi(&self) -> f64 {
        self.komi
    }

    /// Black's handicap: the black stones of a start position without white ones (placed
    /// by the handicap commands or an SGF's setup); one stone is an even game's first move,
    /// so 0. KataGo also counts black moves played before White's first, as some servers
    /// place free handicap so; every GTP front end shicho has met places it with
    /// `set_free_handicap`, and a position set up by playing one colour's stones in a row
    /// (as a test or a problem is) is not a handicap game.
    pub fn handicap_stones(&self) -> usize {
        let cells = self.start.cells();
        if cells.contains(&Some(Color::White)) {
            return 0;
        }
        match cells.iter().filter(|c| **c == Some(Color::Black)).count() {
            0 | 1 => 0,
            n => n,
        }
    }

    /// Komi plus what the rules give White for Black's handicap stones: all White receives
    /// beyond the board, the komi the count and the search use.
    pub fn effective_komi(&self) -> f64 {
        self.komi + self.rules.handicap_bonus.points(self.handicap_stones())
    }

    pub fn set_komi(&mut self, komi: f64) {
        self.komi = komi;
    }

    /// Changes the rules. A change of topology changes what every stone touches, so it
    /// starts an empty board of the same size; other changes keep the game going.
    pub fn set_rules(&mut self, rules: Rules) {
        if rules.topology != self.rules.topology {
            let geo =
                Geometry::get(self.size(), rules.topology).expect("the current size is valid");
            *self = Game::with_position(Board::new(geo), Color::Black, rules, self.komi);
        } else {
            self.rules = rules;
        }
    }

    /// Empties the board and forgets the history, keeping size, rules and komi.
    pub fn clear(&mut self) {
        *self = Game::with_position(
            Board::new(self.geometry()),
            Color::Black,
            self.rules,
            self.komi,
        );
    }

    /// Empties the board at a new size, keeping rules and komi.
    ///
    /// # Errors
    /// `SizeError` (and the game is unchanged) when `size` is outside 2..=25.
    pub fn resize(&mut self, size: usize) -> Result<(), SizeError> {
        let geo = Geometry::get(size, self.rules.topology)?;
        *self = Game::with_position(Board::new(geo), Color::Black, self.rules, self.komi);
        Ok(())
    }

    /// The colour to move next: the opponent of the last mover, Black at the start (White
    /// after handicap stones).
    pub fn to_move(&self) -> Color {
        self.current().to_move
    }

    /// The moves and setups played since the start position, oldest first.
    pub fn actions(&self) -> impl Iterator<Item = Action> + '_ {
        self.history.iter().map(|t| t.action)
    }

    /// The position before history entry `t` (`t == history_len()`: the current one).
    /// It is rebuilt from the nearest snapshot, so this costs up to `SNAPSHOT_EVERY` plays.
    ///
    /// # Panics
    /// When `t > history_len()`.
    pub fn position_before(&self, t: usize) -> Board {
        assert!(t <= self.history.len(), "no history entry {t}");
        if t == self.history.len() {
            return self.board.clone();
        }
        let from = (1..=t)
            .rev()
            .find(|&i| self.history[i].before.is_some())
            .unwrap_or(0);
        let mut board = match &self.history[from].before {
            Some(snapshot) if from > 0 => Board::restore(self.geometry(), snapshot),
            _ => self.start.clone(),
        };
        for turn in &self.history[from..t] {
            match turn.action {
                Action::Play(c, m) => {
                    board.play_unchecked(c, m);
                }
                // A setup is always followed by a snapshot, so it is never replayed.
                Action::Setup => unreachable!("replay never crosses a setup"),
            }
        }
        board
    }

    /// The hash of every position of the game, the start and the current one included.
    pub fn position_hashes(&self) -> impl Iterator<Item = u64> + '_ {
        self.states.iter().map(|s| s.hash)
    }

    /// Appends a turn, before the board changes: its snapshot, when one is due, is of the
    /// current board.
    fn push_turn(&mut self, action: Action) {
        let t = self.history.len();
        let keep = t > 0
            && (t.is_multiple_of(SNAPSHOT_EVERY)
                || action == Action::Setup
                || self.history[t - 1].action == Action::Setup);
        let before = keep.then(|| self.board.snapshot());
        self.history.push(Turn { action, before });
    }

    /// The moves played, oldest first (setups left out).
    pub fn moves(&self) -> impl Iterator<Item = (Color, Move)> + '_ {
        self.actions().filter_map(|a| match a {
            Action::Play(c, m) => Some((c, m)),
            Action::Setup => None,
        })
    }

    /// The last move played, if the last action was a move.
    pub fn last_move(&self) -> Option<(Color, Move)> {
        match self.history.last()?.action {
            Action::Play(c, m) => Some((c, m)),
            Action::Setup => None,
        }
    }

    /// Number of history entries (moves and setups) that undo can take back.
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// The board as it stood at the start (after handicap or initial setup).
    pub fn start_board(&self) -> &Board {
        &self.start
    }

    /// Number of passes at the end of the history.
    pub fn consecutive_passes(&self) -> usize {
        self.history
            .iter()
            .rev()
            .take_while(|t| matches!(t.action, Action::Play(_, Move::Pass)))
            .count()
    }

    fn current(&self) -> State {
        *self.states.last().expect("there is always a current state")
    }

    /// Whether `c` may play `m` now.
    pub fn is_legal(&self, c: Color, m: Move) -> bool {
        self.check(c, m).is_ok()
    }

    /// Checks the move against every rule: occupied point, suicide, the ko rule.
    ///
    /// # Errors
    /// The reason the move is illegal.
    pub fn check(&self, c: Color, m: Move) -> Result<(), IllegalMove> {
        let Move::Play(p) = m else { return Ok(()) };
        if self.board.get(p).is_some() {
            return Err(IllegalMove::Occupied);
        }
        if !self.rules.suicide_allowed() && self.board.is_suicide(c, p) {
            return Err(IllegalMove::Suicide);
        }
        self.check_repetition(c, p)
    }

    fn check_repetition(&self, c: Color, p: Point) -> Result<(), IllegalMove> {
        let after = self.board.hash_after(c, p);
        match self.rules.ko {
            KoRule::Simple => {
                // The position just before the opponent's last move (a pass counts).
                let opponent_last = self
                    .history
                    .iter()
                    .rposition(|t| matches!(t.action, Action::Play(x, _) if x == c.other()));
                match opponent_last {
                    Some(i) if self.states[i].hash == after => Err(IllegalMove::Ko),
                    _ => Ok(()),
                }
            }
            KoRule::Positional => {
                if self.states.iter().any(|s| s.hash == after) {
                    Err(IllegalMove::Superko)
                } else {
                    Ok(())
                }
            }
            KoRule::Situational => {
                let next = State {
                    hash: after,
                    to_move: c.other(),
                };
                if self.states.contains(&next) {
                    Err(IllegalMove::Superko)
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Plays `m` for `c` if the rules allow it.
    ///
    /// # Errors
    /// The reason the move is illegal; the game is then unchanged.
    pub fn play(&mut self, c: Color, m: Move) -> Result<PlayOutcome, IllegalMove> {
        self.check(c, m)?;
        self.play_forced(c, m)
    }

    /// Plays `m` for `c` without the ko and suicide rules, for game records made under other
    /// rules (an SGF file may hold a superko violation under ours). The point must be empty.
    ///
    /// # Errors
    /// `Occupied` (and nothing changes) when the point holds a stone.
    pub fn play_forced(&mut self, c: Color, m: Move) -> Result<PlayOutcome, IllegalMove> {
        if let Move::Play(p) = m
            && self.board.get(p).is_some()
        {
            return Err(IllegalMove::Occupied);
        }
        self.push_turn(Action::Play(c, m));
        let outcome = self.board.play_unchecked(c, m);
        self.states.push(State {
            hash: self.board.hash(),
            to_move: c.other(),
        });
        Ok(outcome)
    }

    /// Sets who moves first from the start position. Only possible before any move:
    /// returns whether it was.
    pub fn set_start_player(&mut self, c: Color) -> bool {
        if !self.history.is_empty() {
            return false;
        }
        self.set_to_move(c);
        true
    }

    /// Sets who moves next, as a game record may say (one colour moving twice). It changes
    /// the current situation, so situational superko sees the new player to move.
    pub fn set_to_move(&mut self, c: Color) {
        if let Some(state) = self.states.last_mut() {
            state.to_move = c;
        }
    }

    /// Replaces the stones on the given points (`None` empties a point), as SGF's AB/AW/AE do
    /// in the middle of a game. Undo takes it back; the colour to move is unchanged.
    ///
    /// # Errors
    /// The first stone of a chain that would be left without liberties; nothing changes.
    pub fn setup(&mut self, changes: &[(Point, Option<Color>)]) -> Result<(), Point> {
        let mut cells = self.board.cells().to_vec();
        for &(p, c) in changes {
            cells[p.index()] = c;
        }
        let mut board = Board::from_stones(self.geometry(), &cells)?;
        board.set_captures(
            self.board.captures(Color::Black),
            self.board.captures(Color::White),
        );
        let to_move = self.to_move();
        self.push_turn(Action::Setup);
        self.board = board;
        self.states.push(State {
            hash: self.board.hash(),
            to_move,
        });
        Ok(())
    }

    /// Takes back the last move or setup.
    ///
    /// # Errors
    /// `CannotUndo` when the history is empty (handicap and start stones are not undoable).
    pub fn undo(&mut self) -> Result<Action, CannotUndo> {
        let t = self.history.len().checked_sub(1).ok_or(CannotUndo)?;
        self.board = self.position_before(t);
        self.states.pop();
        Ok(self.history.pop().map_or(Action::Setup, |turn| turn.action))
    }

    /// The situational hash of the current state (position and colour to move).
    pub fn state_hash(&self) -> u64 {
        let s = self.current();
        s.hash ^ zobrist::to_move_key(s.to_move)
    }

    /// The score by the game's rules with `dead` stones removed (and, under territory
    /// scoring, counted as prisoners).
    pub fn score(&self, dead: &[Point]) -> Score {
        score::score(&self.board, self.rules.scoring, self.effective_komi(), dead)
    }
}

/// `undo` with nothing to take back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CannotUndo;

impl std::fmt::Display for CannotUndo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("cannot undo")
    }
}

impl std::error::Error for CannotUndo {}

impl BoardGame for Game {
    type Move = Move;

    const PASS: Move = Move::Pass;

    fn kind(&self) -> GameKind {
        GameKind::Go
    }

    fn size(&self) -> usize {
        Game::size(self)
    }

    fn to_move(&self) -> Color {
        Game::to_move(self)
    }

    /// Every legal point in reading order, then the pass, until two passes in a row end the
    /// game.
    fn legal_moves(&self) -> Vec<Move> {
        if self.is_over() {
            return Vec::new();
        }
        let geo = self.geometry();
        let c = Game::to_move(self);
        let mut points: Vec<Point> = geo
            .points()
            .filter(|&p| self.is_legal(c, Move::Play(p)))
            .collect();
        geo.sort_reading_order(&mut points);
        let mut moves: Vec<Move> = points.into_iter().map(Move::Play).collect();
        moves.push(Move::Pass);
        moves
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        self.geometry().parse_move(text).map_err(|e| e.to_string())
    }

    fn format_move(&self, m: Move) -> String {
        self.geometry().format_move(m)
    }

    fn play(&mut self, m: Move) -> Result<(), String> {
        let c = Game::to_move(self);
        Game::play(self, c, m).map(drop).map_err(|e| e.to_string())
    }

    fn undo(&mut self) -> bool {
        Game::undo(self).is_ok()
    }

    /// The moves of the history: a position set up by hand is no move.
    fn moves_played(&self) -> usize {
        self.moves().count()
    }

    fn is_over(&self) -> bool {
        self.consecutive_passes() >= 2
    }

    fn rows(&self) -> Vec<String> {
        let geo = self.geometry();
        let board = self.board();
        let n = geo.size();
        (0..n)
            .rev()
            .map(|y| {
                (0..n)
                    .map(|x| match geo.point(x, y).and_then(|p| board.get(p)) {
                        Some(Color::Black) => 'X',
                        Some(Color::White) => 'O',
                        None => '.',
                    })
                    .collect()
            })
            .collect()
    }

    fn captured(&self) -> ByColor<u32> {
        let board = self.board();
        ByColor::new(board.captures(Color::Black), board.captures(Color::White))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::geometry::Topology;

    fn game(preset: &str, size: usize) -> Game {
        Game::new(size, Rules::preset(preset).unwrap(), 0.5).unwrap()
    }

    fn mv(g: &Game, v: &str) -> Move {
        g.geometry().parse_move(v).unwrap()
    }

    fn play(g: &mut Game, c: Color, v: &str) -> Result<PlayOutcome, IllegalMove> {
        let m = mv(g, v);
        g.play(c, m)
    }

    #[test]
    fn undo_restores_exactly_and_fails_on_empty_history() {
        let mut g = game("chinese", 9);
        assert_eq!(g.undo(), Err(CannotUndo));
        let empty = g.board().clone();
        play(&mut g, Color::Black, "E5").unwrap();
        play(&mut g, Color::White, "pass").unwrap();
        assert_eq!(g.consecutive_passes(), 1);
        assert_eq!(g.to_move(), Color::Black);
        g.undo().unwrap();
        g.undo().unwrap();
        assert_eq!(g.board(), &empty);
        assert_eq!(g.to_move(), Color::Black);
    }

    /// A game from `stones` black handicap stones, White to move.
    fn handicap_game(preset: &str, stones: usize) -> Game {
        let geo = Geometry::get(9, Topology::Plane).unwrap();
        let mut cells = vec![None; geo.num_points()];
        for p in crate::go::handicap::fixed(geo, stones).unwrap_or_default() {
            cells[p.index()] = Some(Color::Black);
        }
        let board = Board::from_stones(geo, &cells).unwrap();
        Game::with_position(board, Color::White, Rules::preset(preset).unwrap(), 7.0)
    }

    #[test]
    fn handicap_stones_give_white_the_bonus_its_rules_say() {
        // Black's area is the whole 9x9 board, 81 points.
        for (preset, stones, komi) in [
            ("chinese", 4, 7.0 + 4.0),
            ("aga", 4, 7.0 + 3.0),
            ("japanese", 4, 7.0),
            ("new-zealand", 4, 7.0),
            ("tromp-taylor", 4, 7.0),
            ("chinese", 0, 7.0),
        ] {
            let g = handicap_game(preset, stones);
            assert_eq!(g.handicap_stones(), stones, "{preset}");
            assert_eq!(g.effective_komi(), komi, "{preset} {stones}");
            assert_eq!(g.score(&[]).komi, komi, "{preset} {stones}");
        }
        // Stones of both colours are a set-up position, not a handicap; so are one colour's
        // stones played in a row.
        let mut g = game("chinese", 9);
        g.setup(&[(mv(&g, "C3").point().unwrap(), Some(Color::Black))])
            .unwrap();
        for v in ["D4", "E5", "F6"] {
            play(&mut g, Color::Black, v).unwrap();
        }
        assert_eq!(g.handicap_stones(), 0);
        let mut cells = handicap_game("chinese", 2).start_board().cells().to_vec();
        cells[mv(&g, "E5").point().unwrap().index()] = Some(Color::White);
        let board = Board::from_stones(g.geometry(), &cells).unwrap();
        let g = Game::with_position(board, Color::Black, Rules::default(), 7.0);
        assert_eq!(g.handicap_stones(), 0);
    }

    #[test]
    fn illegal_moves_leave_the_game_unchanged() {
        let mut g = game("chinese", 9);
        play(&mut g, Color::Black, "E5").unwrap();
        let before = g.board().clone();
        assert_eq!(play(&mut g, Color::White, "E5"), Err(IllegalMove::Occupied));
        assert_eq!(g.board(), &before);
        assert_eq!(g.history_len(), 1);
    }

    #[test]
    fn single_stone_suicide_under_positional_vs_situational_superko() {
        // White A1 is a single-stone suicide: on the 3x3 plane Black holds B1 and A2, on the
        // 3x3 torus also C1 and A3 (A1's neighbours across the edges).
        for (preset, legal) in [
            ("tromp-taylor", false),
            ("daoqi", true),
            ("new-zealand", true),
        ] {
            let mut g = Game::new(3, Rules::preset(preset).unwrap(), 0.0).unwrap();
            let black: &[&str] = if preset == "daoqi" {
                &["B1", "A2", "C1", "A3"]
            } else {
                &["B1", "A2"]
            };
            for v in black {
                play(&mut g, Color::Black, v).unwrap();
                play(&mut g, Color::White, "pass").unwrap();
            }
            g.undo().unwrap();
            let r = play(&mut g, Color::White, "A1");
            assert_eq!(r.is_ok(), legal, "{preset}: {r:?}");
            if legal {
                // It acted as a pass, once: the same suicide by White again would repeat
                // (position, Black to move) only after another pass by Black.
                assert_eq!(g.board().get(mv(&g, "A1").point().unwrap()), None);
                play(&mut g, Color::Black, "pass").unwrap();
                assert_eq!(play(&mut g, Color::White, "A1"), Err(IllegalMove::Superko));
            }
        }
    }

    #[test]
    fn set_rules_with_a_new_topology_clears_the_board() {
        let mut g = game("chinese", 9);
        play(&mut g, Color::Black, "E5").unwrap();
        g.set_rules(Rules::preset("japanese").unwrap());
        assert_eq!(g.history_len(), 1);
        g.set_rules(Rules::preset("daoqi").unwrap());
        assert_eq!(g.history_len(), 0);
        assert_eq!(g.geometry().topology(), Topology::Torus);
        assert_eq!(g.size(), 9);
    }
}
