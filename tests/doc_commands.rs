//! `doc/gtp.md` promises every command shicho answers: each name `list_commands` prints, in Go
//! on the plane and on the torus (where the GoGui ruler's commands are offered), with the
//! built-in network as the engine starts by default (which offers `kata-raw-nn`), and in
//! Othello mode, stands in that file's tables, and each command the tables name is one
//! shicho knows.

use shicho::engine::{Config, Engine};
use shicho::game::GameKind;
use shicho::{Rules, go};

const DOC: &str = include_str!("../doc/gtp.md");

/// Go as the binary starts it: with the built-in network.
fn go_with_network() -> Config {
    Config {
        go: go::gtp::state::Config {
            search: go::search::Params {
                network: Some(go::search::Network::builtin()),
                ..Default::default()
            },
            ..Default::default()
        },
        ..Config::default()
    }
}

fn commands(config: Config) -> Vec<String> {
    let mut e = Engine::new(config);
    let text = e.handle(b"list_commands").expect("an answer").text;
    let body = text.strip_prefix("= ").expect("list_commands succeeds");
    body.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

/// The command names the tables' first columns show: each code span's first word.
fn documented() -> Vec<String> {
    DOC.lines()
        .filter(|l| l.starts_with("| `"))
        .flat_map(|l| {
            let first = l[1..].split(" | ").next().unwrap_or("");
            first
                .split('`')
                .skip(1)
                .step_by(2)
                .filter_map(|span| span.split_whitespace().next().map(String::from))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn every_command_is_documented() {
    let torus: Rules = "daoqi".parse().unwrap();
    let modes = [
        ("Go", Config::default()),
        ("Go with the network", go_with_network()),
        (
            "Dao-qi",
            Config {
                go: go::gtp::state::Config {
                    rules: torus,
                    size: 9,
                    ..Default::default()
                },
                ..Config::default()
            },
        ),
        (
            "Othello",
            Config {
                game: GameKind::Othello,
                ..Config::default()
            },
        ),
    ];
    let doc = documented();
    for (mode, config) in modes {
        for name in commands(config) {
            assert!(
                doc.contains(&name),
                "{mode}: `{name}` is missing from doc/gtp.md"
            );
        }
    }
}

#[test]
fn every_documented_command_is_known() {
    let mut go = Engine::new(go_with_network());
    let mut othello = Engine::new(Config {
        game: GameKind::Othello,
        ..Config::default()
    });
    let mut torus = Engine::new(Config {
        go: go::gtp::state::Config {
            rules: "daoqi".parse().unwrap(),
            size: 9,
            ..Default::default()
        },
        ..Config::default()
    });
    for name in documented() {
        let known = [&mut go, &mut othello, &mut torus].into_iter().any(|e| {
            e.handle(format!("known_command {name}").as_bytes())
                .is_some_and(|r| r.text.starts_with("= true"))
        });
        assert!(known, "doc/gtp.md names `{name}`, which no mode knows");
    }
}
