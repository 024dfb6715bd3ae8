//! Runs `gtp-tests/tactics.tst` and `gtp-tests/genmove.tst` against the library, until the
//! GTP layer can run them for real (gogui-regress). Only the commands those files use are
//! understood, with GNU Go's answer formats; expected answers use a small regex subset
//! (literals, `(a|b)` groups, top-level `|`, a leading `!`).

use shicho::movegen::{REG_GENMOVE_SEED, genmove};
use shicho::tactics::{Budget, Outcome, ReadingStack};
use shicho::tactics::{attack, defend, does_attack, does_defend, ladder_attack};
use shicho::{Color, Game, Move, Point, Rng, Rules};

/// All the strings a pattern of the subset matches.
fn expand(pattern: &str) -> Vec<String> {
    fn alternatives(s: &[char], i: &mut usize) -> Vec<String> {
        let mut all = Vec::new();
        let mut current = vec![String::new()];
        while *i < s.len() {
            match s[*i] {
                '|' => {
                    *i += 1;
                    all.append(&mut current);
                    current = vec![String::new()];
                }
                ')' => break,
                '(' => {
                    *i += 1;
                    let group = alternatives(s, i);
                    *i += 1; // the ')'
                    current = current
                        .iter()
                        .flat_map(|c| group.iter().map(move |g| format!("{c}{g}")))
                        .collect();
                }
                ch => {
                    *i += 1;
                    current.iter_mut().for_each(|c| c.push(ch));
                }
            }
        }
        all.append(&mut current);
        all
    }
    let chars: Vec<char> = pattern.chars().collect();
    alternatives(&chars, &mut 0)
}

fn matches(pattern: &str, answer: &str) -> bool {
    match pattern.strip_prefix('!') {
        Some(p) => !expand(p).iter().any(|a| a == answer),
        None => expand(pattern).iter().any(|a| a == answer),
    }
}

struct Engine {
    game: Game,
    stack: ReadingStack,
    budget: Budget,
}

impl Engine {
    fn new() -> Engine {
        let game = Game::new(19, Rules::default(), 7.5).unwrap();
        let stack = ReadingStack::new(game.board().clone(), false);
        Engine {
            game,
            stack,
            budget: Budget::default(),
        }
    }

    fn point(&self, v: &str) -> Point {
        self.game.geometry().parse_point(v).unwrap()
    }

    fn reading(&self, r: (Outcome, Option<Point>)) -> String {
        match r {
            (Outcome::Fail, _) => "0".into(),
            (o, m) => format!(
                "{} {}",
                o.code(),
                self.game
                    .geometry()
                    .format_move(m.map_or(Move::Pass, Move::Play))
            ),
        }
    }

    fn run(&mut self, command: &[&str]) -> Result<String, String> {
        let b = self.stack.board().clone();
        let answer = match command {
            ["boardsize", n] => {
                self.game
                    .resize(n.parse().unwrap())
                    .map_err(|e| e.to_string())?;
                String::new()
            }
            ["clear_board"] => {
                self.game.clear();
                String::new()
            }
            ["play", c, v] => {
                let c: Color = c.parse().unwrap();
                let m = self.game.geometry().parse_move(v).unwrap();
                self.game.play(c, m).map_err(|e| e.to_string())?;
                String::new()
            }
            ["attack", v] => self.reading(attack(&b, self.point(v), self.budget)),
            ["defend", v] => self.reading(defend(&b, self.point(v), self.budget)),
            ["ladder_attack", v] => self.reading(ladder_attack(&b, self.point(v))),
            ["does_attack", m, v] => does_attack(&b, self.point(m), self.point(v), self.budget)
                .code()
                .to_string(),
            ["does_defend", m, v] => does_defend(&b, self.point(m), self.point(v), self.budget)
                .code()
                .to_string(),
            ["trymove", c, v] => {
                let m = self.game.geometry().parse_move(v).unwrap();
                self.stack
                    .trymove(c.parse().unwrap(), m)
                    .map_err(|e| e.to_string())?;
                return Ok(String::new());
            }
            ["tryko", c, v] => {
                let m = self.game.geometry().parse_move(v).unwrap();
                self.stack
                    .tryko(c.parse().unwrap(), m)
                    .map_err(|e| e.to_string())?;
                return Ok(String::new());
            }
            ["popgo"] => {
                self.stack.popgo().map_err(|e| e.to_string())?;
                return Ok(String::new());
            }
            ["increase_depths"] => {
                self.budget.increase_depths();
                return Ok(String::new());
            }
            ["decrease_depths"] => {
                self.budget.decrease_depths();
                return Ok(String::new());
            }
            ["reg_genmove", c] => {
                let m = genmove(
                    &self.game,
                    c.parse().unwrap(),
                    &mut Rng::new(REG_GENMOVE_SEED),
                );
                self.game.geometry().format_move(m)
            }
            _ => return Err(format!("unknown command {command:?}")),
        };
        // A command that changed the game starts a fresh reading stack, as GTP will.
        if matches!(command[0], "boardsize" | "clear_board" | "play") {
            let suicide = self.game.rules().suicide_allowed();
            self.stack.reset(self.game.board().clone(), suicide);
        }
        Ok(answer)
    }
}

fn run_suite(text: &str) -> (usize, Vec<String>) {
    let mut engine = Engine::new();
    let mut last: Option<(String, Result<String, String>)> = None;
    let mut tests = 0;
    let mut failures = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(rest) = line.strip_prefix("#?") {
            let pattern = rest
                .trim()
                .trim_start_matches('[')
                .trim_end_matches('*')
                .trim_end_matches(']');
            let (command, answer) = last.take().expect("an expectation follows a command");
            tests += 1;
            match answer {
                Ok(a) if matches(pattern, &a) => {}
                other => failures.push(format!("{command}: expected [{pattern}], got {other:?}")),
            }
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let numbered = words[0].parse::<u32>().is_ok();
        let command = if numbered { &words[1..] } else { &words[..] };
        let answer = engine.run(command);
        if !numbered {
            assert!(answer.is_ok(), "setup command failed: {line}: {answer:?}");
        }
        last = Some((line.to_string(), answer));
    }
    (tests, failures)
}

#[test]
fn the_regex_subset_expands_like_a_regex() {
    assert!(matches("1 (S4|T5)", "1 T5"));
    assert!(matches("1 S3|S4", "S4"));
    assert!(!matches("1 S3|S4", "1 S4"));
    assert!(matches("!(A1|C1)", "B2"));
    assert!(!matches("!(A1|C1)", "C1"));
}

#[test]
fn tactics_suite() {
    let (tests, failures) = run_suite(include_str!("../gtp-tests/tactics.tst"));
    assert!(tests > 30);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn genmove_suite() {
    let (tests, failures) = run_suite(include_str!("../gtp-tests/genmove.tst"));
    assert!(tests >= 7);
    assert!(failures.is_empty(), "{failures:#?}");
}
