//! The command table and the handlers of the standard GTP commands and their common
//! extensions (GNU Go's, GoGui's, KGS's, KataGo's rules commands, and `shicho-*`).

use std::time::Instant;

use crate::board::{Board, IllegalMove};
use crate::color::Color;
use crate::game::{Action, Game};
use crate::geometry::{Geometry, Topology, VertexError};
use crate::gtp::engine::{
    Engine, Handler, Reply, arity, color_arg, command_names, errors::*, find_command, float_arg,
    format_points, int_arg, sort_points,
};
use crate::gtp::parse;
use crate::handicap;
use crate::point::{Move, Point};
use crate::rules::Rules;
use crate::score::format_points as format_score_points;
use crate::search::dead_stones;
use crate::search::time::{Clock, TimeSystem};
use crate::search::{self, Decision, Player};
use crate::sgf::{self, SetupStone, SgfGame, SgfMove};

/// Every command the engine knows, in the order `list_commands` shows them.
pub const COMMANDS: &[(&str, Handler)] = &[
    // Administrative.
    ("protocol_version", |_, a| arity(a, 0).map(|()| "2".into())),
    ("name", |_, a| arity(a, 0).map(|()| "shicho".into())),
    ("version", |_, a| {
        arity(a, 0).map(|()| env!("CARGO_PKG_VERSION").into())
    }),
    ("known_command", known_command),
    ("list_commands", list_commands),
    ("quit", |_, _| Ok(String::new())),
    // Setup.
    ("boardsize", boardsize),
    ("clear_board", clear_board),
    ("komi", komi),
    ("fixed_handicap", fixed_handicap),
    ("place_free_handicap", place_free_handicap),
    ("set_free_handicap", set_free_handicap),
    // Play.
    ("play", play),
    ("genmove", genmove),
    ("undo", undo),
    ("gg-undo", gg_undo),
    ("reg_genmove", reg_genmove),
    ("kgs-genmove_cleanup", kgs_genmove_cleanup),
    ("shicho-player", shicho_player),
    ("black", |e, a| play_v1(e, a, Color::Black)),
    ("white", |e, a| play_v1(e, a, Color::White)),
    // Tournament.
    ("time_settings", time_settings),
    ("time_left", time_left),
    ("kgs-time_settings", kgs_time_settings),
    ("final_score", final_score),
    ("final_status_list", final_status_list),
    // Records.
    ("loadsgf", loadsgf),
    ("printsgf", printsgf),
    // Rules.
    ("kata-set-rules", kata_set_rules),
    ("kata-get-rules", kata_get_rules),
    ("shicho-rules", shicho_rules),
    // Observation (GNU Go's names and formats).
    ("showboard", showboard),
    ("shicho-shift", shicho_shift),
    ("list_stones", list_stones),
    ("color", color),
    ("is_legal", is_legal),
    ("all_legal", all_legal),
    ("captures", captures),
    ("countlib", countlib),
    ("findlib", findlib),
    ("cputime", cputime),
    ("shicho-chain_stones", chain_stones),
    ("shicho-hash", hash),
    ("shicho-ownership", ownership_board),
    // GoGui.
    ("gogui-analyze_commands", gogui_analyze_commands),
    ("gogui-interrupt", |_, _| Ok(String::new())),
    ("gogui-title", gogui_title),
    ("gogui-play_sequence", gogui_play_sequence),
    ("gogui-setup", gogui_setup),
    ("gogui-setup_player", gogui_setup_player),
];

/// GoGui's analyze menu: `type/label/command`, one per line.
const ANALYZE_COMMANDS: &[&str] = &[
    "plist/Liberties/findlib %p",
    "string/Liberty Count/countlib %p",
    "plist/Chain Stones/shicho-chain_stones %p",
    "plist/Legal Moves/all_legal %c",
    "string/Zobrist Hash/shicho-hash",
    "dboard/Ownership/shicho-ownership",
    "plist/Dead Stones/final_status_list dead",
    "plist/Seki Stones/final_status_list seki",
    "string/Final Score/final_score",
    "string/Rules/shicho-rules",
    "none/Shift Torus View/shicho-shift %s",
];

fn known_command(_: &mut Engine, args: &[String]) -> Reply {
    arity(args, 1)?;
    Ok(find_command(&args[0]).is_some().to_string())
}

fn list_commands(_: &mut Engine, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(command_names().collect::<Vec<_>>().join("\n"))
}

// ----- setup ----------------------------------------------------------------------------

/// Forgets everything that belongs to the position rather than to the engine.
fn reset_position_state(e: &mut Engine) {
    e.reading = None;
    e.shift = (0, 0);
}

fn boardsize(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 1)?;
    let size = int_arg(&args[0])?;
    e.game
        .resize(size as usize)
        .map_err(|_| UNACCEPTABLE_SIZE.to_string())?;
    reset_position_state(e);
    Ok(String::new())
}

fn clear_board(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 0)?;
    e.game.clear();
    reset_position_state(e);
    Ok(String::new())
}

fn komi(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 1)?;
    e.game.set_komi(float_arg(&args[0])?);
    Ok(String::new())
}

/// Whether handicap stones may be placed: nothing on the board and nothing played.
fn board_is_empty(game: &Game) -> bool {
    game.history_len() == 0 && game.board().empties().len() == game.geometry().num_points()
}

/// Starts the game from `stones` as Black's handicap, White to move.
fn place_handicap(e: &mut Engine, stones: &[Point]) -> Reply {
    let geo = e.geo();
    let mut cells = vec![None; geo.num_points()];
    for &p in stones {
        cells[p.index()] = Some(Color::Black);
    }
    let board = Board::from_stones(geo, &cells).map_err(|_| BAD_VERTEX_LIST.to_string())?;
    e.game = Game::with_position(board, Color::White, e.game.rules(), e.game.komi());
    e.reading = None;
    Ok(format_points(geo, stones.iter().copied()))
}

fn fixed_handicap(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 1)?;
    let n = int_arg(&args[0])? as usize;
    if !board_is_empty(&e.game) {
        return Err(BOARD_NOT_EMPTY.into());
    }
    let stones = handicap::fixed(e.geo(), n).ok_or(INVALID_NUMBER_OF_STONES)?;
    place_handicap(e, &stones)
}

fn place_free_handicap(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 1)?;
    let n = int_arg(&args[0])? as usize;
    if !board_is_empty(&e.game) {
        return Err(BOARD_NOT_EMPTY.into());
    }
    let stones = handicap::free(e.geo(), n).ok_or(INVALID_NUMBER_OF_STONES)?;
    place_handicap(e, &stones)
}

fn set_free_handicap(e: &mut Engine, args: &[String]) -> Reply {
    if !board_is_empty(&e.game) {
        return Err(BOARD_NOT_EMPTY.into());
    }
    let geo = e.geo();
    if args.len() < 2 || args.len() >= geo.num_points() {
        return Err(BAD_VERTEX_LIST.into());
    }
    let mut stones = Vec::with_capacity(args.len());
    for a in args {
        match geo.parse_move(a) {
            Ok(Move::Play(p)) if !stones.contains(&p) => stones.push(p),
            _ => return Err(BAD_VERTEX_LIST.into()),
        }
    }
    place_handicap(e, &stones).map(|_| String::new())
}

// ----- play -----------------------------------------------------------------------------

/// Plays for `c`, with GTP's error texts: an off-board vertex cannot be played, so it is an
/// illegal move; text that is no vertex at all is a syntax error.
fn play_move(e: &mut Engine, c: Color, vertex: &str) -> Reply {
    let m = match e.geo().parse_move(vertex) {
        Ok(m) => m,
        Err(VertexError::OffBoard) => return Err(ILLEGAL_MOVE.into()),
        Err(VertexError::Syntax) => return Err(SYNTAX_ERROR.into()),
    };
    e.game.play(c, m).map_err(|_| ILLEGAL_MOVE.to_string())?;
    e.reading = None;
    Ok(String::new())
}

fn play(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 2)?;
    let c = color_arg(&args[0])?;
    play_move(e, c, &args[1])
}

/// GTP version 1's `black V` / `white V`, which GNU Go's older test suites still send.
fn play_v1(e: &mut Engine, args: &[String], c: Color) -> Reply {
    arity(args, 1)?;
    play_move(e, c, &args[0])
}

/// The engine's decision for `c` in the current game. `deterministic` (reg_genmove) uses
/// the fixed seed and no clock, so the answer depends on the position only.
pub(crate) fn decide(e: &mut Engine, c: Color, deterministic: bool) -> Decision {
    let seed = if deterministic {
        crate::search::heuristic::REG_GENMOVE_SEED
    } else {
        e.rng.next_u64()
    };
    let mut params = e.search.clone();
    if e.player == Player::Mcts
        && !deterministic
        && let Some(budget) = e.clock.budget(c, e.geo().num_points())
    {
        params.time = Some(params.time.map_or(budget, |t| t.min(budget)));
    }
    search::decide(&e.game, c, e.player, &params, seed, &e.interrupt)
}

fn genmove_common(e: &mut Engine, args: &[String], cleanup: bool) -> Reply {
    arity(args, 1)?;
    let c = color_arg(&args[0])?;
    let start = Instant::now();
    let mut m = match decide(e, c, false) {
        Decision::Resign => {
            e.clock.charge(c, start.elapsed().as_secs_f64());
            return Ok("resign".into());
        }
        Decision::Play(m) => m,
    };
    if cleanup && m == Move::Pass {
        m = search::cleanup_move(&e.game, c, &e.search.tunables).unwrap_or(Move::Pass);
    }
    // The chooser only returns legal moves; should that ever fail, passing keeps the game
    // going rather than failing a command the spec says never fails.
    if e.game.play(c, m).is_err() {
        log::error!("chose an illegal move {}; passing", e.geo().format_move(m));
        m = Move::Pass;
        let _ = e.game.play(c, m);
    }
    e.clock.charge(c, start.elapsed().as_secs_f64());
    e.reading = None;
    Ok(e.geo().format_move(m))
}

fn genmove(e: &mut Engine, args: &[String]) -> Reply {
    genmove_common(e, args, false)
}

/// KGS's cleanup phase: like genmove, but no pass while dead opponent stones are left.
fn kgs_genmove_cleanup(e: &mut Engine, args: &[String]) -> Reply {
    genmove_common(e, args, true)
}

fn reg_genmove(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 1)?;
    let c = color_arg(&args[0])?;
    Ok(match decide(e, c, true) {
        Decision::Resign => "resign".into(),
        Decision::Play(m) => e.geo().format_move(m),
    })
}

/// `shicho-player mcts|heuristic|random [PLAYOUTS]`: how genmove chooses from now on (and, for the
/// tree search, its simulations per move). Without arguments: the current setting.
fn shicho_player(e: &mut Engine, args: &[String]) -> Reply {
    let name = |p: Player| match p {
        Player::Mcts => "mcts",
        Player::Heuristic => "heuristic",
        Player::Random => "random",
    };
    let (player, playouts) = match args {
        [] => return Ok(format!("{} {}", name(e.player), e.search.playouts)),
        [p] => (p, None),
        [p, n] => (p, Some(int_arg(n)?.max(1) as usize)),
        _ => return Err(SYNTAX_ERROR.into()),
    };
    e.player = match player.as_str() {
        "mcts" => Player::Mcts,
        "heuristic" => Player::Heuristic,
        "random" => Player::Random,
        _ => return Err(SYNTAX_ERROR.into()),
    };
    if let Some(n) = playouts {
        e.search.playouts = n;
    }
    Ok(String::new())
}

fn undo(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 0)?;
    e.game.undo().map_err(|_| CANNOT_UNDO.to_string())?;
    e.reading = None;
    Ok(String::new())
}

/// GNU Go's `gg-undo [n]`: takes back `n` moves (default 1), all or none.
fn gg_undo(e: &mut Engine, args: &[String]) -> Reply {
    let n = match args {
        [] => 1,
        [n] => int_arg(n)? as usize,
        _ => return Err(SYNTAX_ERROR.into()),
    };
    if n > e.game.history_len() {
        return Err(CANNOT_UNDO.into());
    }
    for _ in 0..n {
        e.game.undo().map_err(|_| CANNOT_UNDO.to_string())?;
    }
    e.reading = None;
    Ok(String::new())
}

// ----- tournament -----------------------------------------------------------------------

/// A time value: GTP says int, KataGo-style controllers send floats; both are taken.
fn seconds_arg(text: &str) -> Result<f64, String> {
    let x = float_arg(text)?;
    if x < 0.0 {
        Err(SYNTAX_ERROR.into())
    } else {
        Ok(x)
    }
}

fn time_settings(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 3)?;
    let main = seconds_arg(&args[0])?;
    let byo = seconds_arg(&args[1])?;
    let stones = int_arg(&args[2])?;
    e.clock = Clock::from_gtp(main, byo, stones);
    Ok(String::new())
}

fn time_left(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 3)?;
    let c = color_arg(&args[0])?;
    let time = float_arg(&args[1])?;
    let stones = int_arg(&args[2])?;
    e.clock.set_left(c, time, stones);
    Ok(String::new())
}

/// KGS's `kgs-time_settings none | absolute M | canadian M B S | byoyomi M B P`.
fn kgs_time_settings(e: &mut Engine, args: &[String]) -> Reply {
    let system = match args.first().map(String::as_str) {
        Some("none") if args.len() == 1 => TimeSystem::Unlimited,
        Some("absolute") if args.len() == 2 => TimeSystem::Absolute {
            main: seconds_arg(&args[1])?,
        },
        Some("canadian") if args.len() == 4 => {
            let (main, period, stones) = (
                seconds_arg(&args[1])?,
                seconds_arg(&args[2])?,
                int_arg(&args[3])?,
            );
            if stones == 0 {
                TimeSystem::Unlimited
            } else {
                TimeSystem::Canadian {
                    main,
                    period,
                    stones,
                }
            }
        }
        Some("byoyomi") if args.len() == 4 => {
            let (main, period, periods) = (
                seconds_arg(&args[1])?,
                seconds_arg(&args[2])?,
                int_arg(&args[3])?,
            );
            if periods == 0 {
                TimeSystem::Absolute { main }
            } else {
                TimeSystem::Japanese {
                    main,
                    period,
                    periods,
                }
            }
        }
        _ => return Err(SYNTAX_ERROR.into()),
    };
    e.clock = Clock::new(system);
    Ok(String::new())
}

fn status(e: &Engine) -> dead_stones::LifeAndDeath {
    dead_stones::estimate(
        e.game.board(),
        e.game.to_move(),
        e.game.rules().suicide_allowed(),
        &e.search.tunables,
    )
}

fn final_score(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 0)?;
    let dead = status(e).dead_stones();
    let score = e.game.score(&dead);
    if !score.margin().is_finite() {
        return Err(CANNOT_SCORE.into());
    }
    Ok(score.to_string())
}

/// One chain per line, as GNU Go prints it.
fn final_status_list(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 1)?;
    let s = status(e);
    let chains = match args[0].as_str() {
        "alive" => s.alive,
        "dead" => s.dead,
        "seki" => s.seki,
        _ => return Err(SYNTAX_ERROR.into()),
    };
    let geo = e.geo();
    let mut lines: Vec<(Point, String)> = chains
        .into_iter()
        .map(|chain| {
            let mut sorted = chain.clone();
            sort_points(geo, &mut sorted);
            (sorted[0], format_points(geo, chain))
        })
        .collect();
    lines.sort_by_key(|(p, _)| {
        let (x, y) = geo.xy(*p);
        (std::cmp::Reverse(y), x)
    });
    Ok(lines
        .into_iter()
        .map(|(_, l)| l)
        .collect::<Vec<_>>()
        .join("\n"))
}

// ----- records --------------------------------------------------------------------------

/// Largest SGF file `loadsgf` reads: the parser needs tens of bytes of memory per byte.
const MAX_SGF_BYTES: u64 = 16 << 20;

/// Where replaying a record stops.
enum Stop {
    End,
    /// Before the move with this number (1 = the first move).
    BeforeMove(usize),
    /// Before the first move at this point.
    BeforePoint(usize, usize),
}

fn loadsgf(e: &mut Engine, args: &[String]) -> Reply {
    let (file, stop) = match args {
        [file] => (file, None),
        [file, stop] => (file, Some(stop)),
        _ => return Err(SYNTAX_ERROR.into()),
    };
    let stop = match stop {
        None => Stop::End,
        Some(text) => match parse::parse_int(text) {
            Ok(n) => Stop::BeforeMove(n as usize),
            // The vertex is resolved against the file's own board size below.
            Err(_) => match parse_vertex_xy(text) {
                Some((x, y)) => Stop::BeforePoint(x, y),
                None => return Err(SYNTAX_ERROR.into()),
            },
        },
    };
    let game = read_sgf(e, file, stop).map_err(|why| {
        log::warn!("loadsgf {file}: {why}");
        CANNOT_LOAD_FILE.to_string()
    })?;
    let to_move = game.to_move();
    e.game = game;
    reset_position_state(e);
    Ok(to_move.name().to_string())
}

/// Column and row (from the bottom) of a vertex text, whatever the board size.
fn parse_vertex_xy(text: &str) -> Option<(usize, usize)> {
    let geo = Geometry::get(crate::geometry::MAX_SIZE, Topology::Plane).ok()?;
    match geo.parse_move(text) {
        Ok(Move::Play(p)) => Some(geo.xy(p)),
        _ => None,
    }
}

fn read_sgf(e: &Engine, file: &str, stop: Stop) -> Result<Game, String> {
    use std::io::Read;
    if is_special_file(file) {
        return Err("not a regular file".into());
    }
    let handle = std::fs::File::open(file).map_err(|err| err.to_string())?;
    let mut bytes = Vec::new();
    handle
        .take(MAX_SGF_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|err| err.to_string())?;
    if bytes.len() as u64 > MAX_SGF_BYTES {
        return Err("file too large".into());
    }
    let collection = sgf::parse_collection_bytes(&bytes).map_err(|err| err.to_string())?;
    let record = SgfGame::from_collection(&collection).map_err(|err| err.to_string())?;
    // A record names its rules; where they are ones we know (a torus game above all), the
    // position only means what it meant under them.
    let rules = record
        .rules
        .as_deref()
        .and_then(|r| r.parse::<Rules>().ok())
        .unwrap_or(e.game.rules());
    let geo = Geometry::get(record.size, rules.topology).map_err(|err| err.to_string())?;
    let point = |(x, y): (usize, usize)| {
        geo.point(x, y)
            .ok_or_else(|| format!("point {x},{y} off the board"))
    };
    let mut cells = vec![None; geo.num_points()];
    for s in &record.setup {
        cells[point(s.point)?.index()] = s.color;
    }
    let start =
        Board::from_stones(geo, &cells).map_err(|_| "setup leaves a chain without liberties")?;
    let handicap_like = record.setup.iter().all(|s| s.color == Some(Color::Black))
        && record.setup.len() >= 2
        && record.handicap.unwrap_or(0) >= 2;
    let first = record.player_to_move.unwrap_or(if handicap_like {
        Color::White
    } else {
        Color::Black
    });
    let komi = record.komi.unwrap_or(e.game.komi());
    let mut game = Game::with_position(start, first, rules, komi);
    let mut stopped = false;
    for (i, mv) in record.moves.iter().enumerate() {
        // The setup nodes before a move are part of the position that move is played in,
        // so they are in place even when loading stops before it (GNU Go does the same).
        apply_setup(&mut game, &mv.setup, &point)?;
        stopped = match stop {
            Stop::End => false,
            Stop::BeforeMove(n) => i + 1 >= n,
            Stop::BeforePoint(x, y) => mv.point == Some((x, y)),
        };
        if stopped {
            // GNU Go gives the move to the colour of the move it stopped before, even where
            // a record lets one colour move twice.
            game.set_to_move(mv.color);
            break;
        }
        let m = match mv.point {
            Some(xy) => Move::Play(point(xy)?),
            None => Move::Pass,
        };
        if let Err(why) = game.play(mv.color, m) {
            // Records made under other rules may break ours (a superko, a suicide): the
            // record is what happened, so it is replayed as it stands.
            if why == IllegalMove::Occupied {
                return Err(format!("move {} is on an occupied point", i + 1));
            }
            log::warn!(
                "move {} is illegal under {} ({why}); replayed anyway",
                i + 1,
                game.rules()
            );
            game.play_forced(mv.color, m)
                .map_err(|why| why.to_string())?;
        }
    }
    // A stop that was never reached (a move number past the end, a vertex never played)
    // loads the whole record, setup after the last move included.
    if !stopped {
        apply_setup(&mut game, &record.trailing_setup, &point)?;
    }
    Ok(game)
}

fn apply_setup(
    game: &mut Game,
    setup: &[SetupStone],
    point: &impl Fn((usize, usize)) -> Result<Point, String>,
) -> Result<(), String> {
    if setup.is_empty() {
        return Ok(());
    }
    let changes = setup
        .iter()
        .map(|s| Ok((point(s.point)?, s.color)))
        .collect::<Result<Vec<_>, String>>()?;
    game.setup(&changes)
        .map_err(|_| "setup leaves a chain without liberties".to_string())
}

/// The current game as an SGF record.
pub(crate) fn game_record(game: &Game) -> SgfGame {
    let geo = game.geometry();
    let xy = |p: Point| geo.xy(p);
    let stones_of = |b: &Board| -> Vec<SetupStone> {
        geo.points()
            .filter_map(|p| {
                b.get(p).map(|c| SetupStone {
                    point: xy(p),
                    color: Some(c),
                })
            })
            .collect()
    };
    let mut record = SgfGame::new(geo.size());
    record.komi = Some(game.komi());
    record.rules = Some(game.rules().to_string());
    record.setup = stones_of(game.start_board());
    if !record.setup.is_empty() && record.setup.iter().all(|s| s.color == Some(Color::Black)) {
        record.handicap = Some(record.setup.len() as u32);
    }
    let actions: Vec<Action> = game.actions().collect();
    let mut pending_setup = Vec::new();
    for (i, &action) in actions.iter().enumerate() {
        match action {
            Action::Play(c, m) => record.moves.push(SgfMove {
                setup: std::mem::take(&mut pending_setup),
                color: c,
                point: m.point().map(xy),
                comment: None,
            }),
            Action::Setup => {
                let (before, after) = (game.position_before(i), game.position_before(i + 1));
                for p in geo.points() {
                    if before.get(p) != after.get(p) {
                        pending_setup.push(SetupStone {
                            point: xy(p),
                            color: after.get(p),
                        });
                    }
                }
            }
        }
    }
    record.trailing_setup = pending_setup;
    // Before the first move a reader has to guess who starts (Black, or White after what
    // looks like a handicap: Black stones only, HA[2] or more), and Black stones set up by
    // gogui-setup with Black to move look just like a handicap; PL says it outright.
    if game.moves().next().is_none() && (game.to_move() == Color::White || !record.setup.is_empty())
    {
        record.player_to_move = Some(game.to_move());
    }
    if geo.topology() == Topology::Torus {
        record.comment = Some("Played on a torus (Dao-qi): coordinates wrap on both axes.".into());
    }
    record
}

/// Whether `path` names something other than a regular file (a folder, a FIFO, a device).
/// loadsgf and printsgf refuse those: opening a FIFO waits for the other end and a terminal
/// for input, either of which would hang the session; /dev/stdin would eat our own commands
/// and /dev/stdout would put a record into the GTP stream.
fn is_special_file(path: &str) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file())
}

/// `printsgf [file]`: the game as SGF, or written to `file`.
fn printsgf(e: &mut Engine, args: &[String]) -> Reply {
    let text = sgf::write_game(&game_record(&e.game));
    match args {
        [] => Ok(text),
        [file] if is_special_file(file) => Err("cannot write file: not a regular file".into()),
        [file] => std::fs::write(file, text)
            .map(|()| String::new())
            .map_err(|err| format!("cannot write file: {err}")),
        _ => Err(SYNTAX_ERROR.into()),
    }
}

// ----- rules ----------------------------------------------------------------------------

fn kata_set_rules(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 1)?;
    let rules: Rules = args[0]
        .parse()
        .map_err(|err: crate::rules::UnknownRules| err.to_string())?;
    let topology_changes = rules.topology != e.game.rules().topology;
    e.game.set_rules(rules);
    if topology_changes {
        reset_position_state(e);
    }
    // The reading stack judges its moves by the suicide rule it was made with: like every
    // other change of the game, a rules change ends the sequence, so that trymove and
    // is_legal never disagree.
    e.reading = None;
    Ok(String::new())
}

/// KataGo's JSON form, plus the topology and the preset name.
fn kata_get_rules(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 0)?;
    let r = e.game.rules();
    let ko = match r.ko {
        crate::rules::KoRule::Simple => "SIMPLE",
        crate::rules::KoRule::Positional => "POSITIONAL",
        crate::rules::KoRule::Situational => "SITUATIONAL",
    };
    let scoring = match r.scoring {
        crate::rules::Scoring::Area => "AREA",
        crate::rules::Scoring::Territory => "TERRITORY",
    };
    Ok(format!(
        "{{\"hasButton\":false,\"ko\":\"{ko}\",\"scoring\":\"{scoring}\",\"suicide\":{},\"tax\":\"NONE\",\"whiteHandicapBonus\":\"0\",\"topology\":\"{}\",\"preset\":\"{r}\"}}",
        r.suicide_allowed(),
        r.topology.name().to_uppercase()
    ))
}

fn shicho_rules(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 0)?;
    let r = e.game.rules();
    Ok(format!(
        "{r} (ko {}, suicide {}, scoring {}, topology {}), komi {}",
        r.ko,
        r.suicide,
        r.scoring,
        r.topology,
        format_score_points(e.game.komi())
    ))
}

// ----- observation ----------------------------------------------------------------------

/// The board the observation commands look at: the top of the reading stack, if any.
pub(crate) fn current_board(e: &Engine) -> &Board {
    e.reading.as_ref().map_or(e.game.board(), |r| r.board())
}

fn showboard(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 0)?;
    let board = current_board(e);
    let (dx, dy) = e.shift;
    let mut out = String::from("\n");
    out.push_str(&board.diagram_shifted(dx, dy));
    let g = &e.game;
    out.push_str(&format!(
        "\nrules {} komi {}, {} to move, captures: black {} white {}",
        g.rules(),
        format_score_points(g.komi()),
        g.to_move(),
        board.captures(Color::Black),
        board.captures(Color::White)
    ));
    if let Some(ko) = board.ko() {
        out.push_str(&format!(
            ", ko at {} (banned for {})",
            e.geo().format_point(ko.point),
            ko.banned
        ));
    }
    if e.geo().topology() == Topology::Torus && e.shift != (0, 0) {
        out.push_str(&format!(", view shifted by {dx} {dy}"));
    }
    Ok(out)
}

/// `shicho-shift DX DY`: draw the torus so that the point (DX, DY) columns/rows to the right
/// and up sits in the lower left corner. It changes only what showboard draws.
fn shicho_shift(e: &mut Engine, args: &[String]) -> Reply {
    if e.geo().topology() != Topology::Torus {
        return Err("the view can only be shifted on a torus".into());
    }
    let n = e.geo().size() as i64;
    let shift = |text: &str| -> Result<usize, String> {
        let v: i64 = text.parse().map_err(|_| SYNTAX_ERROR.to_string())?;
        Ok(v.rem_euclid(n) as usize)
    };
    e.shift = match args {
        [dx, dy] => (shift(dx)?, shift(dy)?),
        // GoGui's `%s` sends the two numbers as one argument only if quoted; accept "DX,DY".
        [both] => match both.split_once(',') {
            Some((dx, dy)) => (shift(dx)?, shift(dy)?),
            None => return Err(SYNTAX_ERROR.into()),
        },
        _ => return Err(SYNTAX_ERROR.into()),
    };
    Ok(String::new())
}

fn gg_color_arg(text: &str) -> Result<Color, String> {
    parse::parse_color(text).map_err(|_| "invalid color".to_string())
}

fn list_stones(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 1)?;
    let c = gg_color_arg(&args[0])?;
    let board = current_board(e);
    Ok(format_points(
        e.geo(),
        e.geo().points().filter(|&p| board.get(p) == Some(c)),
    ))
}

fn color(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 1)?;
    let p = e.point_arg(&args[0])?;
    Ok(current_board(e)
        .get(p)
        .map_or("empty", Color::name)
        .to_string())
}

/// Legality by the game's rules, or by the board alone inside a reading sequence.
fn legal_now(e: &Engine, c: Color, m: Move) -> bool {
    match &e.reading {
        None => e.game.is_legal(c, m),
        Some(r) => r
            .board()
            .check(c, m, e.game.rules().suicide_allowed())
            .is_ok(),
    }
}

fn is_legal(e: &mut Engine, args: &[String]) -> Reply {
    let (c, m) = e.gg_move_args(args)?;
    Ok(if legal_now(e, c, m) { "1" } else { "0" }.into())
}

fn all_legal(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 1)?;
    let c = gg_color_arg(&args[0])?;
    let legal: Vec<Point> = e
        .geo()
        .points()
        .filter(|&p| legal_now(e, c, Move::Play(p)))
        .collect();
    Ok(format_points(e.geo(), legal))
}

fn captures(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 1)?;
    let c = gg_color_arg(&args[0])?;
    Ok(current_board(e).captures(c).to_string())
}

fn countlib(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 1)?;
    let p = e.stone_arg(&args[0])?;
    Ok(current_board(e).liberty_count(p).to_string())
}

fn findlib(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 1)?;
    let p = e.stone_arg(&args[0])?;
    Ok(format_points(e.geo(), current_board(e).liberties(p)))
}

fn chain_stones(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 1)?;
    let p = e.stone_arg(&args[0])?;
    Ok(format_points(e.geo(), current_board(e).chain_stones(p)))
}

fn hash(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(format!(
        "stones {:016x} situation {:016x}",
        current_board(e).hash(),
        e.game.state_hash()
    ))
}

/// Monte-Carlo ownership as a GoGui `dboard`: +1 Black's, -1 White's, top row first.
fn ownership_board(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 0)?;
    let own = dead_stones::ownership(
        e.game.board(),
        e.game.to_move(),
        dead_stones::OWNERSHIP_PLAYOUTS,
        dead_stones::OWNERSHIP_SEED,
        &e.search.tunables,
    );
    let geo = e.geo();
    let n = geo.size();
    let rows: Vec<String> = (0..n)
        .rev()
        .map(|y| {
            (0..n)
                .map(|x| format!("{:.2}", own[y * n + x]))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    Ok(rows.join("\n"))
}

/// Process CPU time (user + system) in seconds, as GNU Go reports it.
fn cputime(_: &mut Engine, args: &[String]) -> Reply {
    arity(args, 0)?;
    Ok(format!("{:.3}", process_cpu_seconds()))
}

#[cfg(unix)]
pub(crate) fn process_cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes into the struct we hand it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return 0.0;
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

#[cfg(not(unix))]
pub(crate) fn process_cpu_seconds() -> f64 {
    0.0
}

// ----- GoGui ----------------------------------------------------------------------------

fn gogui_analyze_commands(_: &mut Engine, args: &[String]) -> Reply {
    arity(args, 0)?;
    let mut lines: Vec<&str> = ANALYZE_COMMANDS.to_vec();
    lines.extend(crate::gtp::reading::ANALYZE_COMMANDS);
    Ok(lines.join("\n"))
}

fn gogui_title(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 0)?;
    let g = &e.game;
    Ok(format!(
        "shicho {}x{} {} komi {}",
        g.size(),
        g.size(),
        g.rules(),
        format_score_points(g.komi())
    ))
}

/// Colour/vertex pairs, checked before anything is played.
fn move_pairs(e: &Engine, args: &[String]) -> Result<Vec<(Color, Move)>, String> {
    if !args.len().is_multiple_of(2) {
        return Err(SYNTAX_ERROR.into());
    }
    args.chunks(2)
        .map(|pair| Ok((color_arg(&pair[0])?, e.move_arg(&pair[1])?)))
        .collect()
}

/// `gogui-play_sequence C V C V ...`: all the moves, or none of them.
fn gogui_play_sequence(e: &mut Engine, args: &[String]) -> Reply {
    let moves = move_pairs(e, args)?;
    let mut game = e.game.clone();
    for (c, m) in moves {
        game.play(c, m).map_err(|_| ILLEGAL_MOVE.to_string())?;
    }
    e.game = game;
    e.reading = None;
    Ok(String::new())
}

/// `gogui-setup C V C V ...`: setup stones for the start position, before any move; all
/// or none.
fn gogui_setup(e: &mut Engine, args: &[String]) -> Reply {
    let stones = move_pairs(e, args)?;
    if e.game.history_len() != 0 {
        return Err(BOARD_NOT_EMPTY.into());
    }
    let mut cells = e.game.board().cells().to_vec();
    for (c, m) in stones {
        let Move::Play(p) = m else {
            return Err(SYNTAX_ERROR.into());
        };
        cells[p.index()] = Some(c);
    }
    let board = Board::from_stones(e.geo(), &cells).map_err(|_| ILLEGAL_MOVE.to_string())?;
    e.game = Game::with_position(board, e.game.to_move(), e.game.rules(), e.game.komi());
    e.reading = None;
    Ok(String::new())
}

fn gogui_setup_player(e: &mut Engine, args: &[String]) -> Reply {
    arity(args, 1)?;
    let c = color_arg(&args[0])?;
    if e.game.set_start_player(c) {
        Ok(String::new())
    } else {
        Err("moves have been played".into())
    }
}
