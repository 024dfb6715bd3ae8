//! `shicho analysis`, KataGo's JSON analysis engine, through the built binary: the format of
//! its answers against KataGo 1.18's recorded ones for the same queries
//! (`tests/data/analysis-engine`, recorded with `scripts/compare-analysis --record`: every
//! key KataGo writes, with its JSON type), then what the recording cannot show: several
//! queries in flight answered as each finishes, reports during the search, `terminate` of
//! queued and running positions, `terminate_all`, KaTrain's command line, and bad input of
//! every kind answered with an error line while the engine goes on serving.

mod gtp_session;

use std::io::Write;
use std::process::{Child, ChildStdin};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long any one answer may take (debug build, shared machine).
const ANSWER_TIMEOUT: Duration = Duration::from_secs(120);

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/analysis-engine");

/// The engine driven line by line, as KaTrain drives it.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let args: Vec<&str> = ["analysis"].iter().chain(args).copied().collect();
        let (child, stdin, lines) = gtp_session::spawn(&args);
        Engine {
            child,
            stdin: Some(stdin),
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("input open");
        writeln!(stdin, "{line}").expect("the engine reads");
        stdin.flush().expect("the engine reads");
    }

    /// The next line, as JSON: every line the engine writes is one JSON object.
    fn next(&self) -> Value {
        let line = self
            .lines
            .recv_timeout(ANSWER_TIMEOUT)
            .expect("an answer in time");
        let value: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert!(value.is_object(), "{line}");
        value
    }

    /// Closes the input and reads every line until the engine exits, which it must do
    /// cleanly (a panic exits with 101).
    fn finish(mut self) -> Vec<Value> {
        drop(self.stdin.take());
        let mut answers = Vec::new();
        let deadline = Instant::now() + ANSWER_TIMEOUT;
        while let Ok(line) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            answers.push(serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}")));
        }
        let status = self.child.wait().expect("the engine exits");
        assert!(status.success(), "the engine exits cleanly: {status}");
        answers
    }
}

fn read_lines(name: &str) -> Vec<String> {
    std::fs::read_to_string(format!("{FIXTURES}/{name}"))
        .expect("the fixture")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

/// What pairs an answer with KataGo's: the id, the kind of line, the turn of an analysis or
/// the field of a message; a line without an id by its rank among those.
fn pairing_key(answer: &Value, unnamed: &mut usize) -> String {
    let kind = ["error", "warning", "action", "noResults"]
        .into_iter()
        .find(|k| answer.get(k).is_some())
        .unwrap_or("analysis");
    match answer.get("id").and_then(Value::as_str) {
        None => {
            *unnamed += 1;
            format!("{kind} #{unnamed}")
        }
        Some(id) => {
            let detail = if kind == "analysis" || kind == "noResults" {
                &answer["turnNumber"]
            } else {
                answer.get("field").unwrap_or(&Value::Null)
            };
            format!("{id}/{kind}/{detail}")
        }
    }
}

fn keyed(answers: &[Value]) -> Vec<(String, Value)> {
    let mut unnamed = 0;
    answers
        .iter()
        .map(|a| (pairing_key(a, &mut unnamed), a.clone()))
        .collect()
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "object",
    }
}

/// Every key of KataGo's `reference` in `ours` with its JSON type (an integer of KataGo's
/// must be an integer; a float may be written either way), a list's items compared with
/// KataGo's first.
fn same_shape(reference: &Value, ours: &Value, path: &str, problems: &mut Vec<String>) {
    let (r, o) = (type_name(reference), type_name(ours));
    if r != o && !(r == "number" && o == "integer") {
        problems.push(format!("{path}: {o}, KataGo's is {r}"));
        return;
    }
    match (reference, ours) {
        (Value::Object(r), Value::Object(o)) => {
            for (key, value) in r {
                match o.get(key) {
                    None => problems.push(format!("{path}.{key}: missing")),
                    Some(ours) => same_shape(value, ours, &format!("{path}.{key}"), problems),
                }
            }
        }
        (Value::Array(r), Value::Array(o)) if !r.is_empty() => {
            if o.is_empty() {
                problems.push(format!("{path}: empty"));
            }
            for (i, item) in o.iter().enumerate() {
                same_shape(&r[0], item, &format!("{path}[{i}]"), problems);
            }
        }
        _ => {}
    }
}

/// The error and warning texts where shicho's cannot be KataGo's: its board sizes, its lack
/// of a configuration file, its JSON parser's words.
const TEXTS_OF_ITS_OWN: [&str; 3] = [
    "badsize/error/\"boardXSize\"",
    "badoverride/error/\"overrideSettings\"",
    "error #4",
];

#[test]
fn every_key_of_katagos_answers_is_in_shichos_with_its_type() {
    let queries = read_lines("queries.jsonl");
    let theirs: Vec<Value> = read_lines("katago.jsonl")
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut engine = Engine::start(&["--threads", "2"]);
    for q in &queries {
        engine.send(q);
    }
    let ours = keyed(&engine.finish());
    let theirs = keyed(&theirs);
    let mut problems = Vec::new();
    for (key, reference) in &theirs {
        let Some((_, answer)) = ours.iter().find(|(k, _)| k == key) else {
            problems.push(format!("{key}: no such answer"));
            continue;
        };
        same_shape(reference, answer, key, &mut problems);
        for kind in ["error", "warning"] {
            if reference.get(kind).is_some()
                && !TEXTS_OF_ITS_OWN.contains(&key.as_str())
                && reference[kind] != answer[kind]
            {
                problems.push(format!("{key}: {} for {}", answer[kind], reference[kind]));
            }
        }
    }
    let extra: Vec<&String> = ours
        .iter()
        .map(|(k, _)| k)
        .filter(|k| theirs.iter().all(|(t, _)| t != *k))
        .collect();
    assert!(extra.is_empty(), "lines KataGo does not write: {extra:?}");
    assert!(problems.is_empty(), "{problems:#?}");

    // What the shapes alone do not say: the boards' lengths, the illegal moves in the
    // policy, the turns analysed and who is to move in each, the PV's length.
    let get = |key: &str| &ours.iter().find(|(k, _)| k == key).unwrap().1;
    let handicap = get("handicap/analysis/0");
    let policy = handicap["policy"].as_array().unwrap();
    assert_eq!(policy.len(), 82);
    let illegal: Vec<usize> = (0..82)
        .filter(|&i| policy[i].as_f64().unwrap() < 0.0)
        .collect();
    assert_eq!(illegal, [24, 56], "G7 and C3, the top row first");
    let total: f64 = policy
        .iter()
        .filter_map(Value::as_f64)
        .filter(|&p| p >= 0.0)
        .sum();
    assert!((total - 1.0).abs() < 1e-3, "the policy sums to 1: {total}");
    assert_eq!(handicap["ownership"].as_array().unwrap().len(), 81);
    assert_eq!(
        handicap["rootInfo"]["currentPlayer"], "W",
        "White after handicap"
    );
    for info in get("movesownership/analysis/1")["moveInfos"]
        .as_array()
        .unwrap()
    {
        assert_eq!(info["ownership"].as_array().unwrap().len(), 81);
    }
    assert_eq!(get("turns/analysis/0")["rootInfo"]["currentPlayer"], "B");
    assert_eq!(get("turns/analysis/2")["rootInfo"]["currentPlayer"], "B");
    for info in get("pvlen/analysis/1")["moveInfos"].as_array().unwrap() {
        assert!(info["pv"].as_array().unwrap().len() <= 3, "analysisPVLen 2");
    }
    for info in get("pvvisits/analysis/2")["moveInfos"].as_array().unwrap() {
        let (pv, visits) = (&info["pv"], &info["pvVisits"]);
        assert_eq!(
            pv.as_array().unwrap().len(),
            visits.as_array().unwrap().len()
        );
        assert_eq!(visits[0], info["visits"]);
    }
    let avoided = get("avoid/analysis/0")["moveInfos"].as_array().unwrap();
    assert!(
        avoided
            .iter()
            .all(|i| !["E5", "C3", "G7"].contains(&i["move"].as_str().unwrap()))
    );
    let allowed = get("allow/analysis/0")["moveInfos"].as_array().unwrap();
    assert!(
        allowed
            .iter()
            .all(|i| ["E5", "C3"].contains(&i["move"].as_str().unwrap()))
    );
    assert_eq!(get("override/analysis/1")["rootInfo"]["currentPlayer"], "W");
}

/// A 9x9 query that searches until it is stopped or its time is up.
fn long_query(id: &str, extra: Value) -> String {
    let mut q = json!({
        "id": id, "moves": [["B", "E5"]], "rules": "chinese", "komi": 7,
        "boardXSize": 9, "boardYSize": 9, "maxVisits": 1_000_000_000,
        "overrideSettings": {"maxTime": 60},
    });
    q.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    q.to_string()
}

fn short_query(id: &str) -> String {
    json!({
        "id": id, "moves": [], "rules": "japanese", "komi": 6.5,
        "boardXSize": 9, "boardYSize": 9, "maxVisits": 8,
    })
    .to_string()
}

#[test]
fn queries_in_flight_are_answered_as_each_finishes_and_terminate_stops_them() {
    let mut engine = Engine::start(&["--threads", "2", "--weights", "none"]);
    engine.send(&long_query(
        "long",
        json!({"reportDuringSearchEvery": 0.05}),
    ));
    engine.send(&short_query("short"));
    // The short query, sent second, is answered while the long one searches on.
    let mut during = 0;
    loop {
        let answer = engine.next();
        if answer["id"] == "short" {
            assert_eq!(answer["isDuringSearch"], false);
            break;
        }
        assert_eq!(answer["id"], "long");
        assert_eq!(answer["isDuringSearch"], true, "{answer}");
        during += 1;
    }
    // Reports keep coming every 0.05 s, each with more visits than the one before.
    let mut visits = 0;
    while during < 3 {
        let answer = engine.next();
        assert_eq!(answer["isDuringSearch"], true);
        let now = answer["rootInfo"]["visits"].as_u64().unwrap();
        assert!(now >= visits, "{now} after {visits}");
        visits = now;
        during += 1;
    }
    engine.send(r#"{"id":"stop","action":"terminate","terminateId":"long"}"#);
    let mut echoed = false;
    loop {
        let answer = engine.next();
        if answer["id"] == "stop" {
            assert_eq!(answer["action"], "terminate");
            echoed = true;
        } else if answer["isDuringSearch"] == false {
            // The search stopped: its answer is what it found so far.
            assert_eq!(answer["id"], "long");
            assert!(
                answer["moveInfos"]
                    .as_array()
                    .is_some_and(|m| !m.is_empty())
            );
            break;
        }
    }
    if !echoed {
        assert_eq!(engine.next()["id"], "stop");
    }
    let rest = engine.finish();
    assert!(rest.iter().all(|a| a["isDuringSearch"] != true), "{rest:?}");
}

impl Engine {
    /// The next line that is not a report during a search.
    fn next_final(&self) -> Value {
        loop {
            let answer = self.next();
            if answer["isDuringSearch"] != true {
                return answer;
            }
        }
    }
}

#[test]
fn terminate_answers_queued_turns_without_results() {
    // One worker: the first query runs, the other waits in the queue.
    let mut engine = Engine::start(&["--threads", "1", "--weights", "none"]);
    engine.send(&long_query(
        "running",
        json!({"reportDuringSearchEvery": 0.05}),
    ));
    engine.send(&long_query("queued", json!({"analyzeTurns": [0, 1]})));
    // Once the first search reports, it has something to answer with when stopped.
    assert_eq!(engine.next()["id"], "running");
    engine.send(r#"{"id":"t","action":"terminate","terminateId":"queued","turnNumbers":[1]}"#);
    assert_eq!(
        engine.next_final(),
        json!({"id":"queued","isDuringSearch":false,"noResults":true,"turnNumber":1})
    );
    assert_eq!(
        engine.next_final(),
        json!({"action":"terminate","id":"t","terminateId":"queued","turnNumbers":[1]})
    );
    engine.send(r#"{"id":"all","action":"terminate_all"}"#);
    let mut answers = [
        engine.next_final(),
        engine.next_final(),
        engine.next_final(),
    ];
    answers.sort_by_key(|a| a["id"].to_string());
    assert_eq!(answers[0]["action"], "terminate_all");
    assert_eq!(
        answers[1],
        json!({"id":"queued","isDuringSearch":false,"noResults":true,"turnNumber":0})
    );
    assert_eq!(answers[2]["id"], "running");
    assert!(
        answers[2]["moveInfos"].is_array(),
        "a running search answers"
    );
    assert!(engine.finish().iter().all(|a| a["isDuringSearch"] == true));
}

/// One query's answer from a fresh engine (the same seed each time).
fn answer_alone(query: &str) -> Value {
    let mut engine = Engine::start(&["--threads", "1", "--weights", "none"]);
    engine.send(query);
    let answer = engine.next();
    engine.finish();
    answer
}

#[test]
fn numbers_are_told_from_the_side_asked_for() {
    let query = |side: &str| {
        json!({
            "id": side, "moves": [["B", "E5"]], "rules": "chinese", "komi": 7,
            "boardXSize": 9, "boardYSize": 9, "maxVisits": 30, "includeOwnership": true,
            "overrideSettings": {"reportAnalysisWinratesAs": side},
        })
        .to_string()
    };
    let black = answer_alone(&query("BLACK"));
    let white = answer_alone(&query("WHITE"));
    let to_move = answer_alone(&query("SIDETOMOVE"));
    let number = |a: &Value, key: &str| a["rootInfo"][key].as_f64().unwrap();
    assert!((number(&black, "winrate") + number(&white, "winrate") - 1.0).abs() < 1e-6);
    assert!((number(&black, "scoreLead") + number(&white, "scoreLead")).abs() < 1e-6);
    assert_eq!(
        number(&white, "winrate"),
        number(&to_move, "winrate"),
        "White to move"
    );
    let owners = |a: &Value| -> Vec<f64> {
        a["ownership"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect()
    };
    let (b, w) = (owners(&black), owners(&white));
    assert!(b.iter().zip(&w).all(|(b, w)| (b + w).abs() < 1e-6));
    // E5, Black's stone, is Black's.
    assert!(b[40] > 0.5, "{}", b[40]);
}

#[test]
fn katrains_command_line_is_taken() {
    let mut engine = Engine::start(&[
        "-model",
        "/no/such/kata1-b18c384.bin.gz",
        "-config",
        "/no/such/analysis.cfg",
        "-override-config",
        "homeDataDir=/tmp,maxVisits=5,numAnalysisThreads=2",
        "-quit-without-waiting",
    ]);
    engine.send(r#"{"id":"v","action":"query_version"}"#);
    let version = engine.next();
    assert_eq!(version["action"], "query_version");
    assert!(version["version"].is_string() && version["git_hash"].is_string());
    engine.send(&short_query("q").replace(r#","maxVisits":8"#, ""));
    let answer = engine.next();
    assert_eq!(
        answer["rootInfo"]["visits"], 5,
        "maxVisits from -override-config"
    );
    engine.send(r#"{"id":"c","action":"clear_cache"}"#);
    assert_eq!(engine.next(), json!({"action":"clear_cache","id":"c"}));
    engine.finish();
}

/// Values that are wrong for nearly every field: other types, huge and tiny numbers.
const BAD_VALUES: [&str; 16] = [
    "null",
    "true",
    "-1",
    "0",
    "1e300",
    "-1e300",
    "18446744073709551616",
    "3.5",
    "\"\"",
    "\"x\"",
    "\"E5\"",
    "[]",
    "[[]]",
    "[[\"B\"]]",
    "{}",
    "{\"a\":{\"b\":[1,2,{}]}}",
];

#[test]
fn bad_input_is_answered_with_an_error_and_the_engine_goes_on() {
    let mut engine = Engine::start(&["--threads", "2", "--weights", "none", "--max-visits", "2"]);
    let mut lines: Vec<String> = [
        "",
        "not json",
        "{",
        "[]",
        "\"id\"",
        "{\"id\":3}",
        "{\"id\":\"a\",\"action\":7}",
        "{\"id\":\"a\",\"action\":\"terminate\"}",
        "{\"id\":\"a\",\"action\":\"terminate_all\",\"turnNumbers\":\"x\"}",
        "{\"id\":\"\u{1F600}\",\"moves\":[[\"B\",\"\u{1F600}\"]],\"rules\":\"chinese\",\"boardXSize\":9,\"boardYSize\":9}",
        "{\"id\":\"deep\",\"moves\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]}",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    lines.push(format!(
        "{{\"id\":\"long\",\"moves\":\"{}\"}}",
        "E5".repeat(50_000)
    ));
    // Every field of a good query in turn given every bad value.
    let good: Value = serde_json::from_str(
        r#"{"id":"f","moves":[["B","E5"]],"initialStones":[["W","C3"]],"initialPlayer":"W",
            "rules":"chinese","komi":7,"boardXSize":9,"boardYSize":9,"maxVisits":2,
            "analyzeTurns":[0,1],"includeOwnership":true,"includeMovesOwnership":true,
            "includePolicy":true,"includePVVisits":true,"analysisPVLen":3,"priority":1,
            "avoidMoves":[{"player":"B","moves":["D4"],"untilDepth":1}],
            "reportDuringSearchEvery":1.0,"overrideSettings":{"maxVisits":2}}"#,
    )
    .unwrap();
    let fields: Vec<String> = good.as_object().unwrap().keys().cloned().collect();
    for field in &fields {
        for bad in BAD_VALUES {
            let mut q = good.clone();
            q[field.as_str()] = serde_json::from_str(bad).unwrap();
            lines.push(q.to_string());
        }
    }
    for setting in [
        "maxTime",
        "maxVisits",
        "reportAnalysisWinratesAs",
        "wideRootNoise",
        "puct",
    ] {
        for bad in BAD_VALUES {
            let mut q = good.clone();
            q["overrideSettings"] = json!({"maxVisits": 2, "maxTime": 5});
            q["overrideSettings"][setting] = serde_json::from_str(bad).unwrap();
            lines.push(q.to_string());
        }
    }
    for line in &lines {
        engine.send(line);
    }
    engine.send(r#"{"id":"still here","action":"query_version"}"#);
    let answers = engine.finish();
    assert!(
        answers.iter().any(|a| a["id"] == "still here"),
        "the engine reads on after bad input"
    );
    // Every line that is no query of its own draws an error of its own.
    let errors = answers.iter().filter(|a| a.get("error").is_some()).count();
    assert!(errors >= 10, "{errors} errors");
    for a in &answers {
        if let Some(text) = a.get("error") {
            assert!(text.as_str().is_some_and(|t| !t.is_empty()), "{a}");
        }
    }
}
