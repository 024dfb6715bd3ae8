//! Seeded random input: real commands with absurd arguments, garbage, long lines.

use shicho::Rng;
use shicho::engine::{command_names, othello_command_names};

use crate::session::preprocessed;

pub fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len())]
}

pub fn chance(rng: &mut Rng, percent: usize) -> bool {
    rng.below(100) < percent
}

/// An id: mostly small, sometimes with leading zeros or 40 digits long.
pub fn random_id(rng: &mut Rng) -> String {
    match rng.below(6) {
        0 => format!("{:03}", rng.below(1000)),
        1 => (0..40)
            .map(|_| char::from(b'0' + rng.below(10) as u8))
            .collect(),
        2 => "0".to_string(),
        _ => rng.below(100_000).to_string(),
    }
}

pub fn random_int(rng: &mut Rng) -> String {
    pick(
        rng,
        &[
            "0",
            "1",
            "2",
            "3",
            "4",
            "5",
            "7",
            "9",
            "13",
            "19",
            "25",
            "26",
            "-1",
            "-2147483648",
            "2147483647",
            "2147483648",
            "4294967296",
            "99999999999999999999999999",
            "007",
            "+3",
            "1.5",
            "",
        ],
    )
    .to_string()
}

pub fn random_float(rng: &mut Rng) -> String {
    pick(
        rng,
        &[
            "6.5",
            "0",
            "-7.5",
            "0.5",
            "1e308",
            "-1.7976931348623157e308",
            "1e999",
            "nan",
            "inf",
            "-0",
            ".5",
            "5.",
            "1e-300",
            "3",
        ],
    )
    .to_string()
}

pub fn random_color(rng: &mut Rng) -> String {
    pick(
        rng,
        &[
            "b", "w", "B", "W", "black", "white", "BLACK", "White", "x", "", "bw",
        ],
    )
    .to_string()
}

/// A vertex, mostly on a board of `size`.
pub fn random_vertex(rng: &mut Rng, size: usize) -> String {
    const LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
    match rng.below(20) {
        0 => "pass".into(),
        1 => "PASS".into(),
        2 => "I5".into(),
        3 => format!("A{}", rng.below(30)),
        4 => format!("z{}", rng.below(30)),
        5 => "resign".into(),
        6 => "A-1".into(),
        7 => "AA1".into(),
        _ => {
            let x = rng.below(size.max(1));
            let y = rng.below(size.max(1)) + 1;
            let letter = char::from(LETTERS[x.min(LETTERS.len() - 1)]);
            if chance(rng, 50) {
                format!("{}{y}", letter.to_ascii_lowercase())
            } else {
                format!("{letter}{y}")
            }
        }
    }
}

pub fn random_token(rng: &mut Rng, size: usize) -> String {
    match rng.below(8) {
        0 => random_int(rng),
        1 => random_float(rng),
        2 => random_color(rng),
        3 | 4 => random_vertex(rng, size),
        5 => pick(
            rng,
            &[
                "alive",
                "dead",
                "seki",
                "none",
                "absolute",
                "canadian",
                "byoyomi",
                "japanese",
                "chinese",
                "aga",
                "new-zealand",
                "tromp-taylor",
                "daoqi",
                "ko=simple,suicide=allowed,scoring=area,topology=torus",
                "true",
                "genmove",
                "play",
            ],
        )
        .to_string(),
        6 => format!("f{}.sgf", rng.below(5)),
        _ => (0..1 + rng.below(8))
            .map(|_| char::from(33 + rng.below(94) as u8))
            .filter(|&c| c != '#')
            .collect(),
    }
}

/// Commands whose cost grows with the board (Monte-Carlo ownership): only on small boards,
/// so that the debug build stays quick.
pub const SLOW: &[&str] = &[
    "final_score",
    "final_status_list",
    "shicho-ownership",
    "kgs-genmove_cleanup",
];

/// Tracks the board size the engine should have, to aim moves at the board.
pub struct Gen {
    pub rng: Rng,
    pub size: usize,
    pub names: Vec<&'static str>,
    /// Othello mode: its commands, its board sizes, and no switch back to Go.
    pub othello: bool,
}

impl Gen {
    pub fn new(seed: u64) -> Gen {
        Gen {
            rng: Rng::new(seed),
            size: 19,
            names: command_names().filter(|&n| n != "quit").collect(),
            othello: false,
        }
    }

    /// Input for an engine started with `--game othello`.
    pub fn othello(seed: u64) -> Gen {
        Gen {
            rng: Rng::new(seed),
            size: 8,
            names: othello_command_names()
                .filter(|&n| n != "quit" && n != "set_game")
                .collect(),
            othello: true,
        }
    }

    /// A real command with random, often wrong, arguments.
    pub fn command(&mut self) -> String {
        let rng = &mut self.rng;
        let mut name = *pick(rng, &self.names);
        // Moves and board changes more often than the rest, so that positions develop.
        if chance(rng, 50) {
            name = *pick(
                rng,
                &[
                    "play",
                    "play",
                    "play",
                    "play",
                    "undo",
                    "boardsize",
                    "is_legal",
                    "kata-set-rules",
                ],
            );
        }
        if SLOW.contains(&name) && self.size > 9 && !self.othello {
            name = "showboard";
        }
        let size = self.size;
        let args: Vec<String> = match name {
            "play" | "is_legal" | "trymove" | "tryko" | "genmove" if chance(rng, 80) => {
                let color = pick(rng, &["b", "w", "B", "W", "black", "white"]).to_string();
                if name == "genmove" {
                    vec![color]
                } else {
                    vec![color, random_vertex(rng, size)]
                }
            }
            "kata-set-rules" if chance(rng, 80) => vec![
                pick(
                    rng,
                    &[
                        "japanese",
                        "chinese",
                        "aga",
                        "new-zealand",
                        "tromp-taylor",
                        "daoqi",
                        "ko=simple,suicide=allowed,scoring=territory,topology=torus",
                    ],
                )
                .to_string(),
            ],
            "boardsize" if self.othello && chance(rng, 80) => {
                let n = *pick(rng, &[3, 4, 4, 6, 6, 8, 8, 8, 9, 10, 26, 28]);
                if shicho::othello::check_size(n).is_ok() {
                    self.size = n;
                }
                vec![n.to_string()]
            }
            // Small numbers only: a deep count or a large solve is minutes, by design.
            "shicho-perft" | "shicho-solve" if self.othello => {
                vec![pick(rng, &["0", "1", "3", "5", "8", "x", "-1", "99"]).to_string()]
            }
            "shicho-player" if self.othello && chance(rng, 80) => {
                vec![pick(rng, &["searcher", "greedy", "random", "mcts"]).to_string()]
            }
            "boardsize" if chance(rng, 80) => {
                let n = *pick(rng, &[2, 3, 4, 5, 5, 7, 7, 9, 9, 9, 13, 19, 25]);
                self.size = n;
                vec![n.to_string()]
            }
            // Never a large number of playouts: a later genmove would take minutes.
            "shicho-player" if chance(rng, 80) => {
                let mut args = vec![pick(rng, &["mcts", "heuristic", "random"]).to_string()];
                if chance(rng, 50) {
                    args.push((1 + rng.below(16)).to_string());
                }
                args
            }
            "gogui-play_sequence" | "gogui-setup" => (0..rng.below(12))
                .flat_map(|_| [random_color(rng), random_vertex(rng, size)])
                .collect(),
            "set_free_handicap" => (0..rng.below(12))
                .map(|_| random_vertex(rng, size))
                .collect(),
            _ => (0..rng.below(5)).map(|_| random_token(rng, size)).collect(),
        };
        let mut line = name.to_string();
        for a in args {
            line.push(' ');
            line.push_str(&a);
        }
        line
    }

    /// Printable garbage: random ASCII, sometimes starting with a number.
    pub fn printable_garbage(&mut self) -> Vec<u8> {
        let rng = &mut self.rng;
        let len = rng.below(80);
        let mut line: Vec<u8> = (0..len).map(|_| 32 + rng.below(95) as u8).collect();
        if chance(rng, 30) {
            let mut id = random_id(rng).into_bytes();
            id.push(b' ');
            id.extend(line);
            line = id;
        }
        line
    }

    /// Any bytes but LF: control characters, CR, tabs, NUL, invalid UTF-8.
    pub fn binary_garbage(&mut self) -> Vec<u8> {
        let rng = &mut self.rng;
        (0..rng.below(120))
            .map(|_| {
                loop {
                    let b = rng.below(256) as u8;
                    if b != b'\n' {
                        break b;
                    }
                }
            })
            .collect()
    }

    /// A line that must get no response.
    pub fn silent(&mut self) -> Vec<u8> {
        let rng = &mut self.rng;
        let choices: &[&[u8]] = &[
            b"",
            b"   ",
            b"\t\t",
            b"\r",
            b"# a comment",
            b"   # indented comment",
            b"#? [expected]",
            b"# interrupt",
            b"\x00\x01\x02",
            b"\xff\xfe\xc3",
            b" \x7f \x1b[0m ",
            b"#",
        ];
        pick(rng, choices).to_vec()
    }

    /// Wraps a command line the way sloppy controllers do: an id, CR LF, tabs, a comment.
    pub fn dress(&mut self, command: String) -> Vec<u8> {
        let rng = &mut self.rng;
        let mut line = String::new();
        if chance(rng, 50) {
            line.push_str(&random_id(rng));
            line.push(if chance(rng, 20) { '\t' } else { ' ' });
        }
        line.push_str(&if chance(rng, 10) {
            command.replace(' ', "\t")
        } else {
            command
        });
        if chance(rng, 10) {
            line.push_str(" # trailing comment");
        }
        let mut bytes = line.into_bytes();
        if chance(rng, 10) {
            bytes.push(b'\r');
        }
        if chance(rng, 3) {
            // A control character or a high byte inside a token is deleted.
            let at = rng.below(bytes.len() + 1);
            bytes.insert(at, *pick(rng, &[0u8, 1, 7, 27, 127, 200]));
        }
        bytes
    }

    /// A command line that must not end the session.
    pub fn is_quit(line: &[u8]) -> bool {
        let text = preprocessed(line);
        let mut tokens = text.split(' ');
        let first = tokens.next().unwrap_or("");
        let name = if first.bytes().all(|b| b.is_ascii_digit()) {
            tokens.next().unwrap_or("")
        } else {
            first
        };
        name == "quit"
    }

    pub fn line(&mut self) -> Vec<u8> {
        let line = match self.rng.below(100) {
            0..=54 => {
                let command = self.command();
                self.dress(command)
            }
            55..=71 => self.printable_garbage(),
            72..=84 => self.binary_garbage(),
            _ => self.silent(),
        };
        if Gen::is_quit(&line) {
            b"name".to_vec()
        } else {
            line
        }
    }
}
