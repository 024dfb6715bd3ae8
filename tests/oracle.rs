//! Oracle tests: seeded random games played on the fast `Game` and on the naive oracle side by
//! side, comparing everything observable after every action.
//!
//! The games mix plays by the side to move, plays by the side that just moved (GTP allows it),
//! plays on arbitrary points (often illegal: both sides must refuse, for the same reason),
//! retake attempts right after captures (to provoke ko), passes and undos. After each action
//! `compare_position` and `compare_legality` check stones, captures, hash, consistency,
//! chains, liberties, turn, history, score and the verdict on every play of both colours.
//!
//! Each game has its own seed. On a failure the seed, rules, size and actions so far are
//! printed, with the command that replays that one game (the `replay` test).

mod naive;

use naive::{Effects, Naive, Refusal};
use shicho::{
    Board, Color, Game, IllegalMove, Ko, KoRule, Move, PRESETS, Point, Rules, Scoring, SuicideRule,
    Topology, go::zobrist,
};

/// splitmix64: tiny, seedable and good enough to draw moves.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (the bias of a modulo is irrelevant here).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True with probability `percent`/100.
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick(&mut self, from: &[usize]) -> Option<usize> {
        (!from.is_empty()).then(|| from[self.below(from.len())])
    }
}

// How the random actions are drawn, in percent.
/// An undo instead of a move.
const UNDO_PERCENT: u64 = 8;
/// A pass instead of a play.
const PASS_PERCENT: u64 = 7;
/// A play by the side that just moved instead of the side to move.
const OFF_TURN_PERCENT: u64 = 15;
/// Right after a capture, a play on a point just emptied: the retake that ko rules forbid.
const RETAKE_PERCENT: u64 = 50;
/// A play next to the last play, for contact fights (and so captures and kos).
const CONTACT_PERCENT: u64 = 30;
/// The same on a big board, where scattered random stones would almost never capture.
const BIG_BOARD_CONTACT_PERCENT: u64 = 85;
/// A play on any point, legal or not.
const ANY_POINT_PERCENT: u64 = 10;

/// The legality of every play for both colours: `[colour index][point index]`.
type LegalityMap = [Vec<Result<(), Refusal>>; 2];

/// How much of the rules the games exercised, so that a change of the generator cannot make
/// the test quietly vacuous.
#[derive(Default, Debug)]
struct Coverage {
    size: usize,
    captures: usize,
    suicides: usize,
    undos: usize,
    /// Positions with a ko point on the board.
    ko_points: usize,
    /// Plays judged illegal, in the legality maps: occupied, suicide, ko, superko.
    refused: [usize; 4],
}

impl Coverage {
    fn add(&mut self, other: &Coverage) {
        self.captures += other.captures;
        self.suicides += other.suicides;
        self.undos += other.undos;
        self.ko_points += other.ko_points;
        for k in 0..4 {
            self.refused[k] += other.refused[k];
        }
    }
}

/// The game being played, printed if the test panics so that it can be replayed.
struct Record {
    seed: u64,
    size: usize,
    rules: Rules,
    planned: usize,
    actions: Vec<String>,
}

impl Drop for Record {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!(
                "oracle failure: seed {:#x}, {}x{} {}\nactions: {}\nreplay: ORACLE_SEED={:#x} ORACLE_SIZE={} ORACLE_RULES='{}' ORACLE_ACTIONS={} cargo test --test oracle replay -- --ignored --nocapture",
                self.seed,
                self.size,
                self.size,
                self.rules,
                self.actions.join(", "),
                self.seed,
                self.size,
                self.rules,
                self.planned,
            );
        }
    }
}

fn refusal(e: IllegalMove) -> Refusal {
    match e {
        IllegalMove::Occupied => Refusal::Occupied,
        IllegalMove::Suicide => Refusal::Suicide,
        IllegalMove::Ko => Refusal::Ko,
        IllegalMove::Superko => Refusal::Superko,
    }
}

fn refusal_index(r: Refusal) -> usize {
    match r {
        Refusal::Occupied => 0,
        Refusal::Suicide => 1,
        Refusal::Ko => 2,
        Refusal::Superko => 3,
    }
}

/// The naive oracle's verdict on every play of both colours.
fn naive_legality(naive: &Naive) -> LegalityMap {
    let n = naive.size() * naive.size();
    Color::ALL.map(|c| {
        (0..n)
            .map(|i| naive.check(c, Move::Play(Point::from_index(i))))
            .collect()
    })
}

/// Checks that the fast game gives the naive verdict (and reason) on every play of both
/// colours and allows both passes, and that the board's look-ahead and ko point agree with the
/// naive effects of each play on an empty point; returns the verdicts.
fn compare_legality(game: &Game, naive: &Naive, ctx: &str, cov: &mut Coverage) -> LegalityMap {
    let n = naive.size() * naive.size();
    let mut map: LegalityMap = [Vec::with_capacity(n), Vec::with_capacity(n)];
    if let Some(ko) = game.board().ko() {
        assert_eq!(naive.get(ko.point), None, "{ctx}: ko point on a stone");
        cov.ko_points += 1;
    }
    for c in Color::ALL {
        assert!(game.is_legal(c, Move::Pass), "{ctx}: {c} may not pass");
        for i in 0..n {
            let p = Point::from_index(i);
            let slow = match naive.get(p) {
                Some(_) => Err(Refusal::Occupied),
                None => {
                    // The effects serve both the look-ahead check and the verdict.
                    let effects = naive.effects(c, p);
                    compare_effects(game, naive, c, p, &effects, ctx);
                    compare_ko_point(game, naive, c, p, &effects, ctx);
                    naive.verdict(c, &effects)
                }
            };
            let m = Move::Play(p);
            let fast = game.check(c, m).map_err(refusal);
            assert_eq!(
                fast,
                slow,
                "{ctx}: {c} {}: fast {fast:?}, naive {slow:?}\n{}",
                game.geometry().format_move(m),
                game.board().diagram()
            );
            assert_eq!(game.is_legal(c, m), slow.is_ok(), "{ctx}: is_legal");
            if let Err(r) = slow {
                cov.refused[refusal_index(r)] += 1;
            }
            map[c.index()].push(slow);
        }
    }
    map
}

/// The board's look-ahead on the empty point `p` (`hash_after`, `is_suicide`,
/// `captures_something`, `is_eye_shape`) against the naive effects of the play.
fn compare_effects(game: &Game, naive: &Naive, c: Color, p: Point, e: &Effects, ctx: &str) {
    let board = game.board();
    let name = game.geometry().format_point(p);
    let hash = (0..e.grid.len()).fold(0, |h, i| match e.grid[i] {
        Some(x) => h ^ zobrist::stone_key(Point::from_index(i), x),
        None => h,
    });
    assert_eq!(
        board.hash_after(c, p),
        hash,
        "{ctx}: hash_after({c}, {name})"
    );
    assert_eq!(
        board.is_suicide(c, p),
        e.suicided > 0,
        "{ctx}: is_suicide({c}, {name})"
    );
    assert_eq!(
        board.captures_something(c, p),
        e.captured > 0,
        "{ctx}: captures_something({c}, {name})"
    );
    let eye = naive
        .neighbours(p.index())
        .all(|q| naive.get(Point::from_index(q)) == Some(c));
    assert_eq!(
        board.is_eye_shape(c, p),
        eye,
        "{ctx}: is_eye_shape({c}, {name})"
    );
}

/// Stones, hash, consistency, chains and liberties, captures, turn, history and score.
fn compare_position(game: &Game, naive: &Naive, ctx: &str) {
    let board = game.board();
    let geo = game.geometry();
    let n = naive.size() * naive.size();
    let mut hash = 0;
    // Each chain is flood filled once (into `chains`); its stones are then checked one by one.
    let mut chains = Vec::new();
    let mut chain_of: Vec<Option<usize>> = vec![None; n];
    for i in 0..n {
        let p = Point::from_index(i);
        let name = geo.format_point(p);
        assert_eq!(
            board.get(p),
            naive.get(p),
            "{ctx}: stone on {name}\n{}",
            board.diagram()
        );
        let Some(c) = naive.get(p) else { continue };
        hash ^= zobrist::stone_key(p, c);
        if chain_of[i].is_none() {
            let chain = naive.chain(p);
            for &s in &chain.0 {
                chain_of[s] = Some(chains.len());
            }
            chains.push(chain);
        }
        let (stones, libs) = &chains[chain_of[i].unwrap()];
        let mut fast_stones: Vec<usize> = board.chain_stones(p).map(Point::index).collect();
        fast_stones.sort();
        assert_eq!(&fast_stones, stones, "{ctx}: chain of {name}");
        assert_eq!(board.chain_len(p), stones.len(), "{ctx}: chain_len {name}");
        // `liberties` promises index order, so there is no sort before comparing.
        let fast_libs: Vec<usize> = board.liberties(p).map(Point::index).collect();
        assert_eq!(&fast_libs, libs, "{ctx}: liberties of {name}");
        assert_eq!(
            board.liberty_count(p),
            libs.len(),
            "{ctx}: liberty_count {name}"
        );
        // Once per chain: it costs a pass over the board.
        for q in (stones[0] == i).then_some(0..n).into_iter().flatten() {
            assert_eq!(
                board.is_liberty_of(Point::from_index(q), p),
                libs.contains(&q),
                "{ctx}: is_liberty_of({q}, {name})"
            );
        }
    }
    assert_eq!(
        board.hash(),
        hash,
        "{ctx}: hash differs from the recomputed one"
    );
    if let Err(e) = board.check_consistency() {
        panic!("{ctx}: check_consistency: {e}\n{}", board.diagram());
    }
    for c in Color::ALL {
        assert_eq!(
            board.captures(c),
            naive.captures(c),
            "{ctx}: captures by {c}"
        );
    }
    assert_eq!(game.to_move(), naive.to_move(), "{ctx}: to_move");
    assert_eq!(
        game.consecutive_passes(),
        naive.consecutive_passes(),
        "{ctx}: consecutive passes"
    );
    let moves: Vec<(Color, Move)> = game.moves().collect();
    assert_eq!(moves, naive.moves(), "{ctx}: move history");
    compare_score(game, naive, &[], ctx);
}

/// `Game::score` against the naive area or territory count, with the stones on `dead` taken
/// off (none during the game).
fn compare_score(game: &Game, naive: &Naive, dead: &[usize], ctx: &str) {
    let points: Vec<Point> = dead.iter().map(|&i| Point::from_index(i)).collect();
    let fast = game.score(&points);
    let slow = naive.score_with_dead(dead);
    for c in Color::ALL {
        let i = c.index();
        assert_eq!(fast.stones[c], slow.stones[i], "{ctx}: stones of {c}");
        assert_eq!(
            fast.territory[c], slow.territory[i],
            "{ctx}: territory of {c}"
        );
        assert_eq!(
            fast.prisoners[c], slow.prisoners[i],
            "{ctx}: prisoners of {c}"
        );
    }
    let margin = f64::from(slow.totals[0]) - f64::from(slow.totals[1]) - game.komi();
    assert_eq!(
        fast.margin(),
        margin,
        "{ctx}: score margin (dead {dead:?})\n{}",
        game.board().diagram()
    );
}

/// The board's ko point at `p` for `c` against simple ko computed naively from the effects of
/// that play. Sound: a banned retake must recreate the position before the opponent's last
/// move. Complete where the board can know it: when `c` has only passed since that move (a
/// stone played in between clears the board's ko point, even a suicide that changes nothing,
/// while the history-based rule of `Game` still sees the repetition).
fn compare_ko_point(game: &Game, naive: &Naive, c: Color, p: Point, e: &Effects, ctx: &str) {
    let ko = game.board().ko();
    let banned = ko
        == Some(Ko {
            point: p,
            banned: c,
        });
    let retake = e.captured > 0 && naive.before_opponent_move(c) == Some(&e.grid);
    let name = game.geometry().format_point(p);
    if banned {
        assert!(retake, "{ctx}: {ko:?} bans a play that repeats nothing");
    } else if retake && naive.only_passes_since_opponent_move(c) {
        panic!("{ctx}: {c} retaking at {name} is not the ko point ({ko:?})");
    }
}

/// What undo must restore: the fast board (stones, ko point, captures) and the verdicts.
struct Snapshot {
    board: Board,
    legality: LegalityMap,
}

/// Draws the next play for `color`. `emptied` are the points the last play captured.
fn choose_play(
    rng: &mut Rng,
    naive: &Naive,
    legality: &LegalityMap,
    color: Color,
    emptied: &[usize],
) -> Move {
    let n = naive.size() * naive.size();
    let legal = |i: &usize| legality[color.index()][*i].is_ok();
    if !emptied.is_empty() && rng.chance(RETAKE_PERCENT) {
        // Legal or not: a refused retake is as much a test as an allowed one.
        return Move::Play(Point::from_index(rng.pick(emptied).unwrap()));
    }
    if rng.chance(ANY_POINT_PERCENT) {
        return Move::Play(Point::from_index(rng.below(n)));
    }
    let contact = if naive.size() >= 13 {
        BIG_BOARD_CONTACT_PERCENT
    } else {
        CONTACT_PERCENT
    };
    if let Some((_, Move::Play(last))) = naive.moves().last()
        && rng.chance(contact)
    {
        let near: Vec<usize> = naive.neighbours(last.index()).filter(legal).collect();
        if let Some(i) = rng.pick(&near) {
            return Move::Play(Point::from_index(i));
        }
    }
    let all: Vec<usize> = (0..n).filter(legal).collect();
    rng.pick(&all)
        .map_or(Move::Pass, |i| Move::Play(Point::from_index(i)))
}

/// Plays one seeded random game of `actions` actions on both implementations, comparing after
/// each, then undoes it all. With `full_every` > 1 the fast verdict on every play is compared
/// only every that many actions (and after each undo); the action taken is always compared.
fn random_game(
    seed: u64,
    size: usize,
    rules: Rules,
    actions: usize,
    full_every: usize,
) -> Coverage {
    let mut rng = Rng(seed);
    let mut record = Record {
        seed,
        size,
        rules,
        planned: actions,
        actions: Vec::new(),
    };
    let mut cov = Coverage::default();
    let komi = [0.0, 0.5, 6.5, 7.0][rng.below(4)];
    let mut game = Game::new(size, rules, komi).unwrap();
    let mut naive = Naive::new(size, rules);
    let mut snapshots: Vec<Snapshot> = Vec::new();
    let mut emptied: Vec<usize> = Vec::new();
    compare_position(&game, &naive, "start");
    let mut legality = compare_legality(&game, &naive, "start", &mut cov);
    for step in 0..actions {
        if rng.chance(UNDO_PERCENT) {
            let ctx = format!("action {step} (undo)");
            record.actions.push("undo".into());
            let fast = game.undo();
            let slow = naive.undo();
            assert_eq!(fast.is_ok(), slow, "{ctx}: undo succeeded on one side only");
            compare_position(&game, &naive, &ctx);
            legality = compare_legality(&game, &naive, &ctx, &mut cov);
            if let Some(snap) = snapshots.pop() {
                cov.undos += 1;
                assert!(game.board() == &snap.board, "{ctx}: board not restored");
                assert_eq!(game.board().hash(), snap.board.hash(), "{ctx}: hash");
                assert!(legality == snap.legality, "{ctx}: legality not restored");
            }
            emptied.clear();
            continue;
        }
        let color = if rng.chance(OFF_TURN_PERCENT) {
            naive.to_move().other()
        } else {
            naive.to_move()
        };
        let m = if rng.chance(PASS_PERCENT) {
            Move::Pass
        } else {
            choose_play(&mut rng, &naive, &legality, color, &emptied)
        };
        let text = format!("{} {}", color.letter(), game.geometry().format_move(m));
        let ctx = format!("action {step} ({text})");
        let before = game.board().clone();
        let before_len = game.history_len();
        let captures_before = Color::ALL.map(|c| naive.captures(c));
        let grid_before = naive.grid().clone();
        match (game.play(color, m), naive.play(color, m)) {
            (Ok(outcome), Ok(())) => {
                record.actions.push(text);
                let gained = |c: Color| naive.captures(c) - captures_before[c.index()];
                assert_eq!(outcome.captured, gained(color), "{ctx}: outcome.captured");
                assert_eq!(
                    outcome.suicided,
                    gained(color.other()),
                    "{ctx}: outcome.suicided"
                );
                cov.captures += usize::from(outcome.captured > 0);
                cov.suicides += usize::from(outcome.suicided > 0);
                emptied = (0..grid_before.len())
                    .filter(|&i| grid_before[i].is_some() && naive.grid()[i].is_none())
                    .collect();
                snapshots.push(Snapshot {
                    board: before,
                    legality,
                });
            }
            (Err(fast), Err(slow)) => {
                record.actions.push(format!("({text}: refused)"));
                assert_eq!(refusal(fast), slow, "{ctx}: reason of the refusal");
                assert!(
                    game.board() == &before,
                    "{ctx}: a refused play changed the board"
                );
                assert_eq!(
                    game.history_len(),
                    before_len,
                    "{ctx}: refused play recorded"
                );
            }
            (fast, slow) => panic!("{ctx}: fast {fast:?}, naive {slow:?}\n{}", before.diagram()),
        }
        compare_position(&game, &naive, &ctx);
        legality = if step % full_every == 0 {
            compare_legality(&game, &naive, &ctx, &mut cov)
        } else {
            naive_legality(&naive)
        };
    }
    // Count the final position with a few random chains called dead.
    for _ in 0..3 {
        let stones: Vec<usize> = (0..size * size)
            .filter(|&i| naive.grid()[i].is_some())
            .collect();
        let mut dead = Vec::new();
        for _ in 0..rng.below(4) {
            if let Some(i) = rng.pick(&stones) {
                dead.extend(naive.chain(Point::from_index(i)).0);
            }
        }
        compare_score(&game, &naive, &dead, "final count with dead stones");
    }
    // Take the whole game back: every undo must restore the recorded state exactly.
    let mut step = 0;
    while let Some(snap) = snapshots.pop() {
        let ctx = format!("unwinding, {} moves left", snapshots.len());
        game.undo().unwrap();
        assert!(naive.undo(), "{ctx}: naive has no move to undo");
        assert!(game.board() == &snap.board, "{ctx}: board not restored");
        compare_position(&game, &naive, &ctx);
        if step % full_every == 0 {
            let legality = compare_legality(&game, &naive, &ctx, &mut cov);
            assert!(legality == snap.legality, "{ctx}: legality not restored");
        }
        step += 1;
    }
    assert_eq!(game.history_len(), 0, "a refused play was recorded");
    drop(record);
    cov
}

/// Every preset, and every preset moved to the other topology.
fn preset_rules() -> Vec<Rules> {
    let mut out = Vec::new();
    for (_, rules) in PRESETS {
        for topology in [Topology::Plane, Topology::Torus] {
            out.push(Rules { topology, ..rules });
        }
    }
    out
}

/// Every combination of the settings (presets among them), e.g. simple ko with suicide.
fn every_rules() -> Vec<Rules> {
    let mut out = Vec::new();
    for ko in [KoRule::Simple, KoRule::Positional, KoRule::Situational] {
        for suicide in [SuicideRule::Forbidden, SuicideRule::Allowed] {
            for scoring in [Scoring::Area, Scoring::Territory] {
                for topology in [Topology::Plane, Topology::Torus] {
                    out.push(Rules::new(ko, suicide, scoring, topology));
                }
            }
        }
    }
    out
}

/// A seed per game, mixed from its parameters so that games differ but runs repeat.
fn game_seed(size: usize, rules_index: usize, game: usize) -> u64 {
    Rng(((size as u64) << 32) ^ ((rules_index as u64) << 16) ^ game as u64).next()
}

/// `games` games of `actions` actions under each of `rules` on a `size` board.
fn play_all_rules(rules: &[Rules], size: usize, games: usize, actions: usize) -> Coverage {
    let mut total = Coverage {
        size,
        ..Coverage::default()
    };
    for (ri, &rules) in rules.iter().enumerate() {
        for g in 0..games {
            total.add(&random_game(
                game_seed(size, ri, g),
                size,
                rules,
                actions,
                1,
            ));
        }
    }
    println!("{size}x{size}: {total:?}");
    total
}

/// Fails if the games never captured, suicided, undid, met each kind of refusal or a ko.
fn assert_covers_everything(cov: &Coverage) {
    assert!(
        cov.captures > 0 && cov.suicides > 0 && cov.undos > 0,
        "{cov:?}"
    );
    assert!(cov.refused.iter().all(|&k| k > 0), "{cov:?}");
    // A 2x2 board has no ko shape: a capture there takes two stones or leaves two liberties.
    if cov.size > 2 {
        assert!(cov.ko_points > 0, "{cov:?}");
    }
}

#[test]
fn random_games_2x2() {
    assert_covers_everything(&play_all_rules(&every_rules(), 2, 6, 80));
}

#[test]
fn random_games_3x3() {
    assert_covers_everything(&play_all_rules(&every_rules(), 3, 4, 100));
}

#[test]
fn random_games_4x4() {
    assert_covers_everything(&play_all_rules(&every_rules(), 4, 3, 120));
}

#[test]
fn random_games_5x5() {
    assert_covers_everything(&play_all_rules(&every_rules(), 5, 1, 200));
}

#[test]
fn random_games_7x7() {
    assert_covers_everything(&play_all_rules(&preset_rules(), 7, 1, 160));
}

#[test]
fn random_games_9x9() {
    assert_covers_everything(&play_all_rules(&preset_rules(), 9, 1, 140));
}

#[test]
fn random_game_19x19() {
    let cov = random_game(
        game_seed(19, 0, 0),
        19,
        Rules::preset("chinese").unwrap(),
        320,
        25,
    );
    println!("19x19: {cov:?}");
}

/// Replays one game from the parameters a failure printed.
#[test]
#[ignore = "replays one game: set ORACLE_SEED, ORACLE_SIZE, ORACLE_RULES and ORACLE_ACTIONS"]
fn replay() {
    let var = |name: &str| std::env::var(name).unwrap_or_else(|_| panic!("set {name}"));
    let seed = var("ORACLE_SEED");
    let seed = match seed.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).unwrap(),
        None => seed.parse().unwrap(),
    };
    let size = var("ORACLE_SIZE").parse().unwrap();
    let rules: Rules = var("ORACLE_RULES").parse().unwrap();
    let actions = var("ORACLE_ACTIONS").parse().unwrap();
    println!("{:?}", random_game(seed, size, rules, actions, 1));
}

/// More and longer games on small boards, with seeds the default run does not use.
#[test]
#[ignore = "a minute in a debug build: cargo test --release --test oracle soak -- --ignored"]
fn soak() {
    let mut total = Coverage::default();
    for size in [2usize, 3, 4, 5, 6] {
        for (ri, &rules) in every_rules().iter().enumerate() {
            for g in 0..3 {
                total.add(&random_game(
                    game_seed(size, ri, 1000 + g),
                    size,
                    rules,
                    300,
                    1,
                ));
            }
        }
    }
    println!("{total:?}");
}
