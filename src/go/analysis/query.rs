//! Reading one input line: an action (`query_version`, `terminate`, ...) or a query, the
//! positions it asks for built as games. The fields are checked in KataGo's order and a
//! bad one is answered with KataGo's text (`cpp/command/analysis.cpp`), so a front end
//! that handles KataGo's errors handles shicho's.
//!
//! Where shicho differs: boards are square and from 2 to 25 (`boardYSize` must equal
//! `boardXSize`); `rootFpuReductionMax`, `rootPolicyTemperature` and the ownership
//! standard deviations are checked as KataGo checks them, then ignored with a warning
//! naming the field (shicho has no such setting); an initial position with a chain
//! without liberties is refused (KataGo takes it and searches nonsense).

use std::time::Duration;

use serde_json::{Map, Value};

use crate::color::Color;
use crate::go::board::Board;
use crate::go::game::Game;
use crate::go::geometry::{Geometry, MAX_SIZE, MIN_SIZE};
use crate::go::point::{Move, Point};
use crate::go::search::AvoidMoves;

use super::message::Message;
use super::rules::{self, RulesError};
use super::settings::Settings;

/// The keys a query may have (KataGo's); any other draws a warning.
const EXPECTED_KEYS: [&str; 31] = [
    "id",
    "action",
    "terminateId",
    "turnNumbers",
    "boardXSize",
    "boardYSize",
    "initialStones",
    "moves",
    "initialPlayer",
    "analyzeTurns",
    "priorities",
    "rules",
    "komi",
    "whiteHandicapBonus",
    "overrideSettings",
    "maxVisits",
    "analysisPVLen",
    "rootFpuReductionMax",
    "rootPolicyTemperature",
    "includeMovesOwnership",
    "includeMovesOwnershipStdev",
    "includeOwnership",
    "includeOwnershipStdev",
    "includePolicy",
    "includePVVisits",
    "includeNoResultValue",
    "reportDuringSearchEvery",
    "firstReportDuringSearchAfter",
    "priority",
    "allowMoves",
    "avoidMoves",
];

/// KataGo's warning for a key it does not know.
const UNUSED_FIELD: &str = "Unexpected or unused field, do you have a typo? (set warnUnusedFields=false in the config to disable this warning)";

/// shicho's warning for a field KataGo honours and shicho has no setting for.
pub const UNSUPPORTED_FIELD: &str = "Not supported by shicho, ignored";

/// Priorities lie within KataGo's bounds, ±2^62.
const MAX_PRIORITY: i64 = 0x3FFF_FFFF_FFFF_FFFF;

/// What the report of a position holds beyond the moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Include {
    /// The longest principal variation after a move (the move not counted).
    pub pv_len: usize,
    pub ownership: bool,
    pub moves_ownership: bool,
    pub policy: bool,
    pub pv_visits: bool,
    pub no_result_value: bool,
}

/// One position a query asks about.
#[derive(Clone, Debug)]
pub struct Turn {
    /// Moves played before it (KataGo's `turnNumber`).
    pub number: usize,
    pub game: Game,
    /// The side analysed.
    pub to_move: Color,
    pub priority: i64,
}

/// A query: what is asked of every position in it.
#[derive(Clone, Debug)]
pub struct Query {
    pub id: String,
    pub turns: Vec<Turn>,
    pub settings: Settings,
    pub avoid: AvoidMoves,
    pub include: Include,
    /// Reports while the search runs: first after `.0`, then every `.1`.
    pub report_during_search: Option<(Duration, Duration)>,
}

/// The special actions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    QueryVersion,
    QueryModels,
    ClearCache,
    /// `terminate` (one id's queries) or `terminate_all` (`id` None), the turns optionally
    /// restricted.
    Terminate {
        id: Option<String>,
        turns: Option<Vec<i64>>,
    },
}

/// What a line asks for.
#[derive(Clone, Debug)]
pub enum Request {
    /// An action, with the line's object (its answer echoes it).
    Action(Action, Map<String, Value>),
    Analyse(Box<Query>),
}

/// A line read: the messages to write (warnings, or the error that ended the reading),
/// then what it asks for unless an error stopped it.
#[derive(Debug)]
pub struct Parsed {
    pub messages: Vec<Message>,
    pub request: Option<Request>,
}

/// Reads one input line (trimmed, not empty), its queries starting from `defaults`.
pub fn parse(line: &str, defaults: &Settings) -> Parsed {
    let mut messages = Vec::new();
    let request = read_line(line, defaults, &mut messages)
        .map_err(|e| messages.push(e))
        .ok();
    Parsed { messages, request }
}

fn read_line(
    line: &str,
    defaults: &Settings,
    messages: &mut Vec<Message>,
) -> Result<Request, Message> {
    let value: Value = serde_json::from_str(line).map_err(|e| {
        Message::error(format!(
            "{e} - could not parse input line as json request: {line}"
        ))
    })?;
    let Value::Object(object) = value else {
        return Err(Message::error(format!(
            "Request line was valid json but was not an object, ignoring: {value}"
        )));
    };
    let Some(Value::String(id)) = object.get("id") else {
        return Err(Message::error("Request must have a string \"id\" field"));
    };
    let id = id.clone();
    if let Some(Value::String(action)) = object.get("action") {
        let action = read_action(&id, action, &object)?;
        return Ok(Request::Action(action, object));
    }
    let query = read_query(&id, &object, defaults, messages)?;
    Ok(Request::Analyse(Box::new(query)))
}

/// Turn numbers of a terminate action: KataGo's error for anything but integers.
fn turn_numbers(id: &str, object: &Map<String, Value>) -> Result<Option<Vec<i64>>, Message> {
    let Some(value) = object.get("turnNumbers") else {
        return Ok(None);
    };
    integers(value).map(Some).ok_or_else(|| {
        Message::field_error(
            id,
            "turnNumbers",
            "If provided, must be an array of integers indicating turns to terminate",
        )
    })
}

fn read_action(id: &str, action: &str, object: &Map<String, Value>) -> Result<Action, Message> {
    Ok(match action {
        "query_version" => Action::QueryVersion,
        "query_models" => Action::QueryModels,
        "clear_cache" => Action::ClearCache,
        "terminate" => {
            let Some(Value::String(target)) = object.get("terminateId") else {
                return Err(Message::field_error(
                    id,
                    "terminateId",
                    "Requests for a terminate action must have a string \"terminateId\" field",
                ));
            };
            Action::Terminate {
                id: Some(target.clone()),
                turns: turn_numbers(id, object)?,
            }
        }
        "terminate_all" => Action::Terminate {
            id: None,
            turns: turn_numbers(id, object)?,
        },
        _ => {
            return Err(Message::error(
                "'action' field must be 'query_version' or 'query_models' or 'clear_cache' or 'terminate' or 'terminate_all'",
            ));
        }
    })
}

/// An array of integers, or `None`.
fn integers(value: &Value) -> Option<Vec<i64>> {
    value.as_array()?.iter().map(Value::as_i64).collect()
}

/// A query's fields, read for the query `id`.
struct Fields<'a> {
    id: &'a str,
    object: &'a Map<String, Value>,
}

impl Fields<'_> {
    fn error(&self, field: &str, text: impl Into<String>) -> Message {
        Message::field_error(self.id, field, text)
    }

    fn has(&self, field: &str) -> bool {
        self.object.contains_key(field)
    }

    /// An integer field within `min..=max`: KataGo's `parseInteger`.
    fn integer(&self, field: &str, min: i64, max: i64, text: &str) -> Result<i64, Message> {
        self.object
            .get(field)
            .and_then(Value::as_i64)
            .filter(|x| (min..=max).contains(x))
            .ok_or_else(|| self.error(field, text))
    }

    /// A number field within `min..=max`: KataGo's `parseDouble`.
    fn number(&self, field: &str, min: f64, max: f64, text: &str) -> Result<f64, Message> {
        self.object
            .get(field)
            .and_then(Value::as_f64)
            .filter(|x| x.is_finite() && (min..=max).contains(x))
            .ok_or_else(|| self.error(field, text))
    }

    /// A boolean field, false when absent.
    fn flag(&self, field: &str) -> Result<bool, Message> {
        match self.object.get(field) {
            None => Ok(false),
            Some(v) => v
                .as_bool()
                .ok_or_else(|| self.error(field, "Must be a boolean")),
        }
    }

    /// A player field: `B`, `W`, `black`, `white`, any case.
    fn player(&self, field: &str) -> Result<Color, Message> {
        self.object
            .get(field)
            .and_then(Value::as_str)
            .and_then(parse_player)
            .ok_or_else(|| self.error(field, "Must be \"b\" or \"w\""))
    }

    /// `[[PLAYER, VERTEX], ...]` on a board of `size`.
    fn moves(&self, field: &str, size: usize, pass: bool) -> Result<Vec<(Color, Loc)>, Message> {
        const PAIRS: &str =
            "Must be an array of pairs of the form: [\"b\" or \"w\", GTP board vertex]";
        let array = self
            .object
            .get(field)
            .and_then(Value::as_array)
            .ok_or_else(|| self.error(field, PAIRS))?;
        array
            .iter()
            .map(|pair| {
                let (player, vertex) = match pair.as_array().map(Vec::as_slice) {
                    Some([Value::String(p), Value::String(v)]) => (p, v),
                    _ => return Err(self.error(field, PAIRS)),
                };
                let c = parse_player(player).ok_or_else(|| {
                    self.error(field, format!("Could not parse player: {player}"))
                })?;
                let loc = parse_location(vertex, size)
                    .filter(|&l| pass || l != Loc::Pass)
                    .ok_or_else(|| {
                        self.error(field, format!("Could not parse board location: {vertex}"))
                    })?;
                Ok((c, loc))
            })
            .collect()
    }
}

fn parse_player(text: &str) -> Option<Color> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Color::Black),
        "w" | "white" => Some(Color::White),
        _ => None,
    }
}

/// A vertex as KataGo reads it, before the board's geometry is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loc {
    Pass,
    /// Column from the left, row from the bottom.
    At(usize, usize),
}

impl Loc {
    /// The move on `geo`'s board.
    pub fn on(self, geo: &Geometry) -> Move {
        match self {
            Loc::Pass => Move::Pass,
            // Read within the board's size, so the point exists.
            Loc::At(x, y) => geo.point(x, y).map_or(Move::Pass, Move::Play),
        }
    }
}

/// KataGo's vertices on a board of `size`: `pass` (or `pss`), a column letter (A to Z
/// without I, any case) and a row number from the bottom, or `(x,y)` counted from the
/// top left.
pub fn parse_location(text: &str, size: usize) -> Option<Loc> {
    let s = text.trim();
    if s.len() < 2 {
        return None;
    }
    if s.eq_ignore_ascii_case("pass") || s.eq_ignore_ascii_case("pss") {
        return Some(Loc::Pass);
    }
    let (x, row_from_top) = if let Some(inner) = s.strip_prefix('(') {
        let (x, y) = inner.strip_suffix(')')?.split_once(',')?;
        (x.trim().parse::<i64>().ok()?, y.trim().parse::<i64>().ok()?)
    } else {
        let letter = s.chars().next()?;
        let column = match letter.to_ascii_uppercase() {
            c @ 'A'..='H' => c as i64 - 'A' as i64,
            c @ 'J'..='Z' => c as i64 - 'A' as i64 - 1,
            _ => return None,
        };
        let row: i64 = s[1..].parse().ok()?;
        (column, size as i64 - row)
    };
    let n = size as i64;
    if !(0..n).contains(&x) || !(0..n).contains(&row_from_top) {
        return None;
    }
    Some(Loc::At(x as usize, (n - 1 - row_from_top) as usize))
}

/// `avoidMoves` or `allowMoves` into `avoid`, on `geo`'s board.
fn read_avoid(f: &Fields<'_>, geo: &Geometry, avoid: &mut AvoidMoves) -> Result<(), Message> {
    const DICTS: &str = "Must be a list of dicts with subfields 'player', 'moves', 'untilDepth'";
    let allow = f.has("allowMoves");
    if allow && f.has("avoidMoves") {
        return Err(f.error(
            "allowMoves",
            "Cannot specify both allowMoves and avoidMoves",
        ));
    }
    let field = if allow { "allowMoves" } else { "avoidMoves" };
    let Some(value) = f.object.get(field) else {
        return Ok(());
    };
    let list = value.as_array().ok_or_else(|| f.error(field, DICTS))?;
    if allow && list.len() > 2 {
        return Err(f.error(
            field,
            "Currently allowMoves only allows at most one entry per player",
        ));
    }
    let (size, points) = (geo.size(), geo.num_points());
    let mut allowed = Vec::new();
    for entry in list {
        let Some(dict) = entry.as_object().filter(|d| {
            ["moves", "untilDepth", "player"]
                .iter()
                .all(|k| d.contains_key(*k))
        }) else {
            return Err(f.error(field, DICTS));
        };
        let sub = Fields {
            id: f.id,
            object: dict,
        };
        let c = sub.player("player")?;
        let moves = dict
            .get("moves")
            .and_then(Value::as_array)
            .ok_or_else(|| sub.error("moves", "Must be an array of GTP board vertices"))?
            .iter()
            .map(|v| {
                let text = v
                    .as_str()
                    .ok_or_else(|| sub.error("moves", "Must be an array of GTP board vertices"))?;
                parse_location(text, size)
                    .map(|l| l.on(geo))
                    .ok_or_else(|| {
                        sub.error("moves", format!("Could not parse board location: {text}"))
                    })
            })
            .collect::<Result<Vec<Move>, Message>>()?;
        let until = sub.integer("untilDepth", 1, 1_000_000_000, "Must be a positive integer")?;
        if allow {
            if allowed.contains(&c) {
                return Err(f.error(
                    field,
                    "Cannot specify allowMoves more than once for the same player",
                ));
            }
            allowed.push(c);
            avoid.allow_only(c, &moves, until as u32, points);
        } else {
            avoid.avoid(c, &moves, until as u32, points);
        }
    }
    Ok(())
}

/// Which turns to analyse (`analyzeTurns`, else the last): for each turn, `None` if it is
/// not analysed, else its own priority if `priorities` gives one.
fn read_turns(f: &Fields<'_>, moves: usize) -> Result<Vec<Option<Option<i64>>>, Message> {
    let mut analysed = vec![None; moves + 1];
    let Some(value) = f.object.get("analyzeTurns") else {
        if f.has("priorities") {
            integers(&f.object["priorities"]).ok_or_else(|| {
                f.error(
                    "priorities",
                    "Must specify an array of integers indicating priorities",
                )
            })?;
            return Err(f.error(
                "priorities",
                "Can only specify when also specifying analyzeTurns",
            ));
        }
        analysed[moves] = Some(None);
        return Ok(analysed);
    };
    let turns = integers(value).ok_or_else(|| {
        f.error(
            "analyzeTurns",
            "Must specify an array of integers indicating turns to analyze",
        )
    })?;
    for &t in &turns {
        if t < 0 || t as u64 > moves as u64 {
            return Err(f.error("analyzeTurns", format!("Invalid turn number: {t}")));
        }
        analysed[t as usize] = Some(None);
    }
    if let Some(value) = f.object.get("priorities") {
        let priorities = integers(value).ok_or_else(|| {
            f.error(
                "priorities",
                "Must specify an array of integers indicating priorities",
            )
        })?;
        if priorities.len() != turns.len() {
            return Err(f.error("priorities", "Must be of matching length to analyzeTurns"));
        }
        for (&t, &p) in turns.iter().zip(&priorities) {
            if !(-MAX_PRIORITY..=MAX_PRIORITY).contains(&p) {
                return Err(f.error("priorities", format!("Invalid priority: {p}")));
            }
            analysed[t as usize] = Some(Some(p));
        }
    }
    Ok(analysed)
}

/// The board size (square), from `boardXSize` and `boardYSize`.
fn read_size(f: &Fields<'_>) -> Result<usize, Message> {
    let text = format!("Must provide an integer from {MIN_SIZE} to {MAX_SIZE}");
    for field in ["boardXSize", "boardYSize"] {
        if !f.has(field) {
            return Err(f.error(field, text.as_str()));
        }
    }
    let (min, max) = (MIN_SIZE as i64, MAX_SIZE as i64);
    let x = f.integer("boardXSize", min, max, &text)?;
    let y = f.integer("boardYSize", min, max, &text)?;
    if x != y {
        return Err(f.error(
            "boardYSize",
            "Must be equal to boardXSize: shicho plays square boards only",
        ));
    }
    Ok(x as usize)
}

/// The search and report settings of a query.
fn read_settings(
    f: &Fields<'_>,
    defaults: &Settings,
    messages: &mut Vec<Message>,
) -> Result<Settings, Message> {
    let mut settings = defaults.clone();
    if let Some(value) = f.object.get("overrideSettings") {
        let overrides = value
            .as_object()
            .ok_or_else(|| f.error("overrideSettings", "Must be an object"))?;
        let unknown = settings
            .override_with(overrides)
            .map_err(|why| f.error("overrideSettings", why))?;
        if !unknown.is_empty() {
            messages.push(Message::field_warning(
                f.id,
                "overrideSettings",
                format!("Unknown config params: {}", unknown.join(",")),
            ));
        }
    }
    if f.has("maxVisits") {
        let max = super::settings::MAX_VISITS as i64;
        settings.max_visits =
            f.integer("maxVisits", 1, max, "Must be an integer from 1 to 2^50")? as usize;
    }
    Ok(settings)
}

fn read_query(
    id: &str,
    object: &Map<String, Value>,
    defaults: &Settings,
    messages: &mut Vec<Message>,
) -> Result<Query, Message> {
    let f = Fields { id, object };
    let size = read_size(&f)?;
    let stones = match f.has("initialStones") {
        true => f.moves("initialStones", size, false)?,
        false => Vec::new(),
    };
    if !f.has("moves") {
        return Err(f.error("moves", "Must specify an array of [player,location] pairs"));
    }
    let moves = f.moves("moves", size, true)?;
    let initial_player = match f.has("initialPlayer") {
        true => Some(f.player("initialPlayer")?),
        false => None,
    };
    let analysed = read_turns(&f, moves.len())?;
    let mut read = match object.get("rules") {
        Some(value) => rules::read(value).map_err(|e| f.error("rules", e.text()))?,
        None => return Err(f.error("rules", RulesError::WrongType.text())),
    };
    let geo = Geometry::get(size, read.rules.topology).map_err(|_| {
        f.error(
            "boardXSize",
            format!("Must provide an integer from {MIN_SIZE} to {MAX_SIZE}"),
        )
    })?;
    let mut komi = read.komi;
    if f.has("komi") {
        const KOMI: &str = "Must be a integer or half-integer from -400.0 to 400.0";
        komi = f.number("komi", -400.0, 400.0, KOMI)?;
        if (komi * 2.0).fract() != 0.0 {
            return Err(f.error("komi", KOMI));
        }
    }
    if let Some(value) = object.get("whiteHandicapBonus") {
        let text = value
            .as_str()
            .ok_or_else(|| f.error("whiteHandicapBonus", "Must be a string"))?;
        read.rules.handicap_bonus = rules::handicap_bonus(text).ok_or_else(|| {
            f.error(
                "whiteHandicapBonus",
                format!(
                    "Rules::parseWhiteHandicapBonusRule: Invalid whiteHandicapBonus rule: {text}"
                ),
            )
        })?;
    }
    let settings = read_settings(&f, defaults, messages)?;
    let mut include = Include {
        pv_len: 15,
        ownership: false,
        moves_ownership: false,
        policy: false,
        pv_visits: false,
        no_result_value: false,
    };
    if f.has("analysisPVLen") {
        include.pv_len = f.integer(
            "analysisPVLen",
            1,
            1000,
            "Must be an integer from 1 to 1000",
        )? as usize;
    }
    let mut unsupported = Vec::new();
    if f.has("rootFpuReductionMax") {
        f.number(
            "rootFpuReductionMax",
            0.0,
            2.0,
            "Must be a number from 0.0 to 2.0",
        )?;
        unsupported.push("rootFpuReductionMax");
    }
    if f.has("rootPolicyTemperature") {
        f.number(
            "rootPolicyTemperature",
            0.01,
            100.0,
            "Must be a number from 0.01 to 100.0",
        )?;
        unsupported.push("rootPolicyTemperature");
    }
    include.moves_ownership = f.flag("includeMovesOwnership")?;
    if f.flag("includeMovesOwnershipStdev")? {
        unsupported.push("includeMovesOwnershipStdev");
    }
    include.ownership = f.flag("includeOwnership")?;
    if f.flag("includeOwnershipStdev")? {
        unsupported.push("includeOwnershipStdev");
    }
    include.policy = f.flag("includePolicy")?;
    include.pv_visits = f.flag("includePVVisits")?;
    include.no_result_value = f.flag("includeNoResultValue")?;
    let mut report = None;
    const SECONDS: &str = "Must be number of seconds from 0.001 to 1000000.0";
    if f.has("reportDuringSearchEvery") {
        let every = f.number("reportDuringSearchEvery", 0.001, 1e6, SECONDS)?;
        report = Some((every, every));
    }
    if f.has("firstReportDuringSearchAfter") {
        let first = f.number("firstReportDuringSearchAfter", 0.001, 1e6, SECONDS)?;
        report = Some((first, report.map_or(1e30, |(_, every)| every)));
    }
    let mut priority = 0;
    if f.has("priority") {
        if f.has("priorities") {
            return Err(f.error("priority", "Cannot specify both priority and priorities"));
        }
        priority = f.integer(
            "priority",
            -MAX_PRIORITY,
            MAX_PRIORITY,
            "Must be a number between -2^62 and 2^62",
        )?;
    }
    let mut avoid = AvoidMoves::none();
    read_avoid(&f, geo, &mut avoid)?;

    let mut cells = vec![None; geo.num_points()];
    for &(c, loc) in &stones {
        if let Move::Play(p) = loc.on(geo) {
            cells[p.index()] = Some(c);
        }
    }
    let board = Board::from_stones(geo, &cells).map_err(|p: Point| {
        f.error(
            "initialStones",
            format!("A chain without liberties at {}", geo.format_point(p)),
        )
    })?;
    let first = initial_player.unwrap_or_else(|| match moves.first() {
        Some(&(c, _)) => c,
        None => handicap_player(&board),
    });
    if read.approximated {
        let given = object
            .get("rules")
            .map(super::settings::value_text)
            .unwrap_or_default();
        messages.push(Message::field_warning(
            id,
            "rules",
            format!(
                "Rules {given} not supported by shicho, using {} instead",
                read.rules
            ),
        ));
    }
    for field in unsupported {
        messages.push(Message::field_warning(id, field, UNSUPPORTED_FIELD));
    }
    for key in object.keys() {
        if !EXPECTED_KEYS.contains(&key.as_str()) {
            messages.push(Message::field_warning(id, key, UNUSED_FIELD));
        }
    }

    let mut game = Game::with_position(board, first, read.rules, komi);
    let mut turns = Vec::new();
    let mut next = first;
    for (number, &analysed) in analysed.iter().enumerate() {
        if let Some(own) = analysed {
            turns.push(Turn {
                number,
                game: game.clone(),
                to_move: next,
                priority: own.unwrap_or(priority),
            });
        }
        let Some(&(c, loc)) = moves.get(number) else {
            break;
        };
        if c != next {
            game.set_to_move(c);
        }
        let mv = loc.on(geo);
        if game.play_forced(c, mv).is_err() {
            let vertex = match mv {
                Move::Pass => "pass".to_string(),
                m => geo.format_move(m),
            };
            return Err(f.error("moves", format!("Illegal move {number}: {vertex}")));
        }
        next = c.other();
    }
    Ok(Query {
        id: id.to_string(),
        turns,
        settings,
        avoid,
        include,
        report_during_search: report.map(|(first, every)| {
            (
                Duration::from_secs_f64(first.min(1e9)),
                Duration::from_secs_f64(every.min(1e9)),
            )
        }),
    })
}

/// Who moves first from a position without moves: White after handicap stones (two or
/// more Black stones and no White one), as KataGo decides, else Black.
fn handicap_player(board: &Board) -> Color {
    if board.stone_count(Color::White) == 0 && board.stone_count(Color::Black) >= 2 {
        Color::White
    } else {
        Color::Black
    }
}
