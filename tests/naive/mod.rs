//! A deliberately simple reference implementation of the rules: the "naive oracle" that the
//! fast board and game are tested against (michi-style).
//!
//! How to read it: the position is a plain `Vec<Option<Color>>` indexed like shicho's points
//! (`y * size + x`, row 0 at the bottom). Neighbours are computed from `(x, y)` on every call
//! (wrapping on a torus); chains, liberties, captures and territory are flood fills; the
//! history is a list of whole positions, compared grid to grid for ko and superko; undo pops.
//! Nothing here calls shicho's board, geometry or game: only `Color`, `Move`, `Point` (as an
//! index) and the `Rules` settings are shared, so a bug in the fast code cannot hide here too.
//!
//! Plainness is the point: nothing is cached or incremental, and it is slow.

// Each test crate (`perft`, `oracle`) uses a different part of this module.
#![allow(dead_code)]

use shicho::{Color, KoRule, Move, Point, Rules, Scoring, SuicideRule, Topology};

/// A whole position: the contents of every point.
pub type Grid = Vec<Option<Color>>;

/// Why the naive rules refuse a move (mirrors the order of checks in the specification).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Refusal {
    Occupied,
    Suicide,
    /// Simple ko: the play recreates the position before the opponent's last move.
    Ko,
    /// Positional or situational superko.
    Superko,
}

/// What a play does to the stones, before the suicide and ko rules are considered.
pub struct Effects {
    pub grid: Grid,
    /// Opponent stones removed.
    pub captured: u32,
    /// Own stones removed (a suicide, legal or not).
    pub suicided: u32,
}

/// One move of the history.
#[derive(Clone, Debug)]
struct Turn {
    color: Color,
    mv: Move,
    /// Captures by Black and White before the move, restored by undo.
    captures_before: [u32; 2],
}

/// The naive game: rules, the position history and capture counts.
#[derive(Clone, Debug)]
pub struct Naive {
    size: usize,
    torus: bool,
    rules: Rules,
    /// `positions[i]` is the position before `turns[i]` and the colour to move then; the last
    /// entry is the current position. `positions[0]` is the empty board, Black to move.
    positions: Vec<(Grid, Color)>,
    turns: Vec<Turn>,
    /// Stones captured by Black and by White (opponent suicides included).
    captures: [u32; 2],
}

impl Naive {
    /// An empty board of `size` under `rules` (the topology comes from the rules).
    pub fn new(size: usize, rules: Rules) -> Naive {
        Naive {
            size,
            torus: rules.topology == Topology::Torus,
            rules,
            positions: vec![(vec![None; size * size], Color::Black)],
            turns: Vec::new(),
            captures: [0, 0],
        }
    }

    pub fn size(&self) -> usize {
        self.size
    }

    /// The current position.
    pub fn grid(&self) -> &Grid {
        &self
            .positions
            .last()
            .expect("positions[0] is never popped")
            .0
    }

    pub fn get(&self, p: Point) -> Option<Color> {
        self.grid()[p.index()]
    }

    /// Stones captured by `c`.
    pub fn captures(&self, c: Color) -> u32 {
        self.captures[c.index()]
    }

    /// The opponent of the last mover; Black at the start.
    pub fn to_move(&self) -> Color {
        self.positions
            .last()
            .expect("positions[0] is never popped")
            .1
    }

    /// Number of passes at the end of the history.
    pub fn consecutive_passes(&self) -> usize {
        self.turns
            .iter()
            .rev()
            .take_while(|t| t.mv == Move::Pass)
            .count()
    }

    /// Every move of the history, oldest first.
    pub fn moves(&self) -> Vec<(Color, Move)> {
        self.turns.iter().map(|t| (t.color, t.mv)).collect()
    }

    /// The orthogonal neighbours of point index `i`, straight from the coordinates. On a 2x2
    /// torus the same point comes twice; every user below is a flood fill, which doesn't care.
    pub fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> + use<> {
        let n = self.size as i64;
        let torus = self.torus;
        let (x, y) = ((i as i64) % n, (i as i64) / n);
        [(-1, 0), (1, 0), (0, -1), (0, 1)]
            .into_iter()
            .filter_map(move |(dx, dy)| {
                let (mut nx, mut ny) = (x + dx, y + dy);
                if torus {
                    nx = (nx + n) % n;
                    ny = (ny + n) % n;
                } else if nx < 0 || nx >= n || ny < 0 || ny >= n {
                    return None;
                }
                Some((ny * n + nx) as usize)
            })
    }

    /// The chain through the stone at `i` in `grid` and its liberties, each sorted by index.
    pub fn chain_in(&self, grid: &Grid, i: usize) -> (Vec<usize>, Vec<usize>) {
        let color = grid[i];
        assert!(color.is_some(), "chain_in asked about an empty point");
        let mut stones = vec![i];
        let mut libs = Vec::new();
        // `stones` doubles as the work list: everything before `next` has been expanded.
        let mut next = 0;
        while next < stones.len() {
            for q in self.neighbours(stones[next]) {
                if grid[q].is_none() {
                    if !libs.contains(&q) {
                        libs.push(q);
                    }
                } else if grid[q] == color && !stones.contains(&q) {
                    stones.push(q);
                }
            }
            next += 1;
        }
        stones.sort();
        libs.sort();
        (stones, libs)
    }

    /// The chain through the stone on `p` in the current position, and its liberties.
    pub fn chain(&self, p: Point) -> (Vec<usize>, Vec<usize>) {
        self.chain_in(self.grid(), p.index())
    }

    /// What `c` playing on the empty point `p` does to the stones, whatever the suicide and
    /// ko rules: place the stone, remove opponent chains left without liberties, then the
    /// mover's own chain if it has none.
    pub fn effects(&self, c: Color, p: Point) -> Effects {
        let i = p.index();
        assert!(self.grid()[i].is_none(), "effects of a play on a stone");
        let mut grid = self.grid().clone();
        grid[i] = Some(c);
        let mut captured = 0;
        for q in self.neighbours(i) {
            if grid[q] == Some(c.other()) {
                let (stones, libs) = self.chain_in(&grid, q);
                if libs.is_empty() {
                    captured += stones.len() as u32;
                    for s in stones {
                        grid[s] = None;
                    }
                }
            }
        }
        let mut suicided = 0;
        let (stones, libs) = self.chain_in(&grid, i);
        if libs.is_empty() {
            suicided = stones.len() as u32;
            for s in stones {
                grid[s] = None;
            }
        }
        Effects {
            grid,
            captured,
            suicided,
        }
    }

    /// The position that stood just before the last move of `c`'s opponent, if it moved.
    pub fn before_opponent_move(&self, c: Color) -> Option<&Grid> {
        let last = self.turns.iter().rposition(|t| t.color == c.other())?;
        Some(&self.positions[last].0)
    }

    /// Whether `c`'s opponent has moved and every move since was a pass by `c`.
    pub fn only_passes_since_opponent_move(&self, c: Color) -> bool {
        match self.turns.iter().rposition(|t| t.color == c.other()) {
            Some(last) => self.turns[last + 1..].iter().all(|t| t.mv == Move::Pass),
            None => false,
        }
    }

    /// Whether the rules let `c` make a play with these effects: the suicide rule, then the
    /// ko rule.
    pub fn verdict(&self, c: Color, effects: &Effects) -> Result<(), Refusal> {
        if effects.suicided > 0 && self.rules.suicide == SuicideRule::Forbidden {
            return Err(Refusal::Suicide);
        }
        let after = &effects.grid;
        match self.rules.ko {
            KoRule::Simple => {
                if self.before_opponent_move(c) == Some(after) {
                    return Err(Refusal::Ko);
                }
            }
            KoRule::Positional => {
                if self.positions.iter().any(|(g, _)| g == after) {
                    return Err(Refusal::Superko);
                }
            }
            KoRule::Situational => {
                if self
                    .positions
                    .iter()
                    .any(|(g, next)| *next == c.other() && g == after)
                {
                    return Err(Refusal::Superko);
                }
            }
        }
        Ok(())
    }

    /// Checks `c` playing `m` against every rule; on success, what a play does.
    fn judge(&self, c: Color, m: Move) -> Result<Option<Effects>, Refusal> {
        let Move::Play(p) = m else { return Ok(None) };
        if self.grid()[p.index()].is_some() {
            return Err(Refusal::Occupied);
        }
        let effects = self.effects(c, p);
        self.verdict(c, &effects)?;
        Ok(Some(effects))
    }

    /// Whether `c` may play `m` now, and if not, why.
    pub fn check(&self, c: Color, m: Move) -> Result<(), Refusal> {
        self.judge(c, m).map(|_| ())
    }

    pub fn is_legal(&self, c: Color, m: Move) -> bool {
        self.check(c, m).is_ok()
    }

    /// Plays `m` for `c` if legal.
    ///
    /// # Errors
    /// Why not; nothing changes then.
    pub fn play(&mut self, c: Color, m: Move) -> Result<(), Refusal> {
        let outcome = self.judge(c, m)?;
        self.turns.push(Turn {
            color: c,
            mv: m,
            captures_before: self.captures,
        });
        let grid = match outcome {
            None => self.grid().clone(),
            Some(o) => {
                self.captures[c.index()] += o.captured;
                self.captures[c.other().index()] += o.suicided;
                o.grid
            }
        };
        self.positions.push((grid, c.other()));
        Ok(())
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        let Some(turn) = self.turns.pop() else {
            return false;
        };
        self.positions.pop();
        self.captures = turn.captures_before;
        true
    }

    /// Number of legal move sequences of exactly `depth` plies from here, colours alternating
    /// from `to_move()`, a pass always legal, no ply after two consecutive passes.
    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.consecutive_passes() >= 2 {
            return 0;
        }
        let c = self.to_move();
        let moves = (0..self.size * self.size)
            .map(|i| Move::Play(Point::from_index(i)))
            .chain([Move::Pass]);
        let mut total = 0;
        for m in moves {
            if self.play(c, m).is_ok() {
                total += self.perft(depth - 1);
                self.undo();
            }
        }
        total
    }

    /// The count of the current position with no dead stones: stones and empty regions that
    /// reach only one colour under area scoring, those regions and captures under territory
    /// scoring (komi left out).
    pub fn score(&self) -> NaiveScore {
        self.score_with_dead(&[])
    }

    /// The count after taking the stones on the `dead` points off the board; each counts as a
    /// prisoner of the other colour.
    pub fn score_with_dead(&self, dead: &[usize]) -> NaiveScore {
        let mut grid = self.grid().clone();
        let mut prisoners = self.captures;
        for &i in dead {
            if let Some(c) = grid[i].take() {
                prisoners[c.other().index()] += 1;
            }
        }
        let mut stones = [0u32; 2];
        for c in grid.iter().flatten() {
            stones[c.index()] += 1;
        }
        let mut territory = [0u32; 2];
        let mut seen = vec![false; grid.len()];
        for start in 0..grid.len() {
            if grid[start].is_some() || seen[start] {
                continue;
            }
            let mut size = 0;
            let mut reaches = [false; 2];
            let mut stack = vec![start];
            seen[start] = true;
            while let Some(i) = stack.pop() {
                size += 1;
                for q in self.neighbours(i) {
                    match grid[q] {
                        Some(c) => reaches[c.index()] = true,
                        None if !seen[q] => {
                            seen[q] = true;
                            stack.push(q);
                        }
                        None => {}
                    }
                }
            }
            match reaches {
                [true, false] => territory[0] += size,
                [false, true] => territory[1] += size,
                _ => {}
            }
        }
        let totals = match self.rules.scoring {
            Scoring::Area => [stones[0] + territory[0], stones[1] + territory[1]],
            Scoring::Territory => [territory[0] + prisoners[0], territory[1] + prisoners[1]],
        };
        NaiveScore {
            stones,
            territory,
            prisoners,
            totals,
        }
    }
}

/// The naive count, indexed by `Color::index()`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct NaiveScore {
    pub stones: [u32; 2],
    pub territory: [u32; 2],
    /// Captures plus dead stones, by the colour that gets them.
    pub prisoners: [u32; 2],
    pub totals: [u32; 2],
}
