//! Typed view, writer round trip and fuzzing; the leaf parsers are tested in `parse.rs`.

use proptest::prelude::*;

use super::*;
use crate::color::Color;
use crate::sgf::{
    Collection, GameTree, MAX_NUMBER, SgfError, parse_collection, parse_collection_bytes,
};

fn game(text: &str) -> Result<SgfGame, SgfError> {
    SgfGame::from_collection(&parse_collection(text)?)
}

fn stone(point: (usize, usize), color: Option<Color>) -> SetupStone {
    SetupStone { point, color }
}

fn played(moves: &[SgfMove]) -> Vec<(Color, Option<(usize, usize)>)> {
    moves.iter().map(|m| (m.color, m.point)).collect()
}

#[test]
fn game_information() {
    let g = game(
        "(;GM[1]FF[4]SZ[13]KM[6.5]HA[2]PL[W]RU[Japanese]PB[Black\\]y]PW[White]BR[3d]WR[2k]\
         RE[W+0.5]DT[2024-01-02]EV[Cup]GN[Final]TM[600]OT[5x30 byo-yomi]C[root]\
         AB[dd][jj];W[gg])",
    )
    .unwrap();
    assert_eq!(g.size, 13);
    assert_eq!(g.komi, Some(6.5));
    assert_eq!(g.handicap, Some(2));
    assert_eq!(g.info.player_to_move, Some(Color::White));
    assert_eq!(g.rules.as_deref(), Some("Japanese"));
    assert_eq!(g.info.black_name.as_deref(), Some("Black]y"));
    assert_eq!(g.info.white_name.as_deref(), Some("White"));
    assert_eq!(g.info.black_rank.as_deref(), Some("3d"));
    assert_eq!(g.info.white_rank.as_deref(), Some("2k"));
    assert_eq!(g.info.result.as_deref(), Some("W+0.5"));
    assert_eq!(g.info.date.as_deref(), Some("2024-01-02"));
    assert_eq!(g.info.event.as_deref(), Some("Cup"));
    assert_eq!(g.info.game_name.as_deref(), Some("Final"));
    assert_eq!(g.info.time_limit, Some(600.0));
    assert_eq!(g.info.overtime.as_deref(), Some("5x30 byo-yomi"));
    assert_eq!(g.info.comment.as_deref(), Some("root"));
    // D10 and K4 in GTP terms: SGF rows count from the top.
    let black = Some(Color::Black);
    assert_eq!(g.setup, vec![stone((3, 9), black), stone((9, 3), black)]);
    assert_eq!(played(&g.moves), vec![(Color::White, Some((6, 6)))]);
}

#[test]
fn defaults_when_absent() {
    let g = game("(;)").unwrap();
    assert_eq!(g, SgfGame::new(19));
    assert_eq!(game("(;SZ[9:9])").unwrap().size, 9);
    assert_eq!(game("(;SZ[ 25 ])").unwrap().size, 25);
}

#[test]
fn malformed_game_information_is_left_out() {
    let g = game("(;KM[6,5]HA[-1]PL[X]TM[lots];B[aa])").unwrap();
    assert_eq!(
        (g.komi, g.handicap, g.info.player_to_move),
        (None, None, None)
    );
    assert_eq!(g.info.time_limit, None);
    assert_eq!(g.moves.len(), 1);
}

#[test]
fn compressed_point_lists_expand() {
    let g = game("(;SZ[5]AB[aa:bc][ee]AW[dd:cc]AE[])").unwrap();
    let (b, w) = (Some(Color::Black), Some(Color::White));
    assert_eq!(
        g.setup,
        vec![
            stone((0, 4), b),
            stone((1, 4), b),
            stone((0, 3), b),
            stone((1, 3), b),
            stone((0, 2), b),
            stone((1, 2), b),
            stone((4, 0), b),
            stone((2, 2), w),
            stone((3, 2), w),
            stone((2, 1), w),
            stone((3, 1), w),
        ]
    );
}

#[test]
fn passes_both_ways() {
    let g = game("(;SZ[19];B[];W[tt];B[aa])").unwrap();
    assert_eq!(
        played(&g.moves),
        vec![
            (Color::Black, None),
            (Color::White, None),
            (Color::Black, Some((0, 18)))
        ]
    );
    // On a board above 19 `tt` is a real point.
    let g = game("(;SZ[21];W[tt])").unwrap();
    assert_eq!(played(&g.moves), vec![(Color::White, Some((19, 1)))]);
}

#[test]
fn main_line_takes_the_first_variation() {
    let g = game("(;SZ[9];B[aa](;W[bb];B[cc](;W[dd])(;W[ee]))(;W[ff]))").unwrap();
    let moves: Vec<_> = g.moves.iter().map(|m| m.point).collect();
    assert_eq!(
        moves,
        vec![Some((0, 8)), Some((1, 7)), Some((2, 6)), Some((3, 5))]
    );
}

#[test]
fn setup_in_the_main_line_stays_in_order() {
    let g =
        game("(;SZ[9]B[ee]C[root];W[aa];AB[bb];AE[aa]C[lost];B[cc]AW[dd]C[both];AB[ii])").unwrap();
    let (b, w) = (Some(Color::Black), Some(Color::White));
    assert_eq!(
        g.moves,
        vec![
            SgfMove {
                setup: vec![],
                color: Color::Black,
                point: Some((4, 4)),
                comment: None
            },
            SgfMove {
                setup: vec![],
                color: Color::White,
                point: Some((0, 8)),
                comment: None
            },
            SgfMove {
                setup: vec![stone((1, 7), b), stone((0, 8), None), stone((3, 5), w)],
                color: Color::Black,
                point: Some((2, 6)),
                comment: Some("both".to_string())
            },
        ]
    );
    assert_eq!(g.trailing_setup, vec![stone((8, 0), b)]);
    assert_eq!(g.info.comment.as_deref(), Some("root"));
}

#[test]
fn latin1_names() {
    let g = SgfGame::from_collection(
        &parse_collection_bytes(b"(;CA[ISO-8859-1]PB[G\xf6del])").unwrap(),
    )
    .unwrap();
    assert_eq!(g.info.black_name.as_deref(), Some("Gödel"));
}

#[test]
fn bad_games_are_errors() {
    let bad_size = |s: &str| Err(SgfError::BadSize(s.to_string()));
    assert_eq!(game("(;SZ[0])"), bad_size("0"));
    assert_eq!(game("(;SZ[1])"), bad_size("1"));
    assert_eq!(game("(;SZ[26])"), bad_size("26"));
    assert_eq!(game("(;SZ[99])"), bad_size("99"));
    assert_eq!(game("(;SZ[-9])"), bad_size("-9"));
    assert_eq!(game("(;SZ[19:13])"), bad_size("19:13"));
    assert_eq!(game("(;SZ[big])"), bad_size("big"));
    assert_eq!(
        game("(;SZ[99999999999999999999])"),
        bad_size("99999999999999999999")
    );
    assert_eq!(game("(;GM[2])"), Err(SgfError::NotGo("2".to_string())));

    let bad_point = |ident: &str, value: &str| {
        Err(SgfError::BadPoint {
            ident: ident.to_string(),
            value: value.to_string(),
        })
    };
    assert_eq!(game("(;SZ[9];B[ja])"), bad_point("B", "ja"));
    assert_eq!(game("(;SZ[9];W[aj])"), bad_point("W", "aj"));
    assert_eq!(game("(;SZ[9];W[tt])"), Ok(game("(;SZ[9];W[])").unwrap()));
    assert_eq!(game("(;SZ[21];W[vv])"), bad_point("W", "vv"));
    assert_eq!(game("(;B[a])"), bad_point("B", "a"));
    assert_eq!(game("(;B[abc])"), bad_point("B", "abc"));
    assert_eq!(game("(;B[A1])"), bad_point("B", "A1"));
    assert_eq!(game("(;SZ[9]AB[aa:jj])"), bad_point("AB", "aa:jj"));
    assert_eq!(game("(;SZ[19]AW[tt])"), bad_point("AW", "tt"));
    assert_eq!(game("(;AE[aa:])"), bad_point("AE", "aa:"));

    assert!(matches!(game("(;B[aa]W[bb])"), Err(SgfError::BadMove(_))));
    assert!(matches!(game("(;;B[aa][bb])"), Err(SgfError::BadMove(_))));
    assert_eq!(
        SgfGame::from_collection(&Collection(vec![])),
        Err(SgfError::NoGameTree)
    );
    assert_eq!(
        SgfGame::from_collection(&Collection(vec![GameTree::default()])),
        Err(SgfError::NoGameTree)
    );
}

#[test]
fn errors_display_on_one_line() {
    for e in [
        SgfError::Syntax {
            offset: 3,
            reason: "unexpected end of input".to_string(),
        },
        SgfError::NoGameTree,
        SgfError::TooDeep,
        SgfError::NotGo("3".to_string()),
        SgfError::BadSize("99".to_string()),
        SgfError::BadPoint {
            ident: "B".to_string(),
            value: "zz".to_string(),
        },
        SgfError::BadMove("two moves in one node".to_string()),
    ] {
        let text = e.to_string();
        assert!(!text.is_empty() && !text.contains('\n'), "{text}");
    }
}

/// Text with a good share of the characters SGF treats specially.
fn text_strategy() -> impl Strategy<Value = String> {
    prop_oneof![any::<String>(), "[\\]\\\\:;()a \n\r\t]{0,12}"]
}

fn point_strategy(size: usize) -> impl Strategy<Value = (usize, usize)> {
    (0..size, 0..size)
}

/// A setup list as the writer leaves it: each point once, grouped black, white, empty.
fn setup_strategy(size: usize, max: usize) -> impl Strategy<Value = Vec<SetupStone>> {
    let color = prop_oneof![
        Just(Some(Color::Black)),
        Just(Some(Color::White)),
        Just(None)
    ];
    proptest::collection::vec((point_strategy(size), color), 0..max).prop_map(|stones| {
        let mut seen = std::collections::HashSet::new();
        let mut list: Vec<SetupStone> = stones
            .into_iter()
            .filter(|&(p, _)| seen.insert(p))
            .map(|(point, color)| SetupStone { point, color })
            .collect();
        list.sort_by_key(|s| match s.color {
            Some(Color::Black) => 0,
            Some(Color::White) => 1,
            None => 2,
        });
        list
    })
}

fn move_strategy(size: usize) -> impl Strategy<Value = SgfMove> {
    let color = prop_oneof![Just(Color::Black), Just(Color::White)];
    let setup = prop_oneof![
        4 => Just(Vec::new()),
        1 => setup_strategy(size, 4),
    ];
    (
        setup,
        color,
        proptest::option::weighted(0.9, point_strategy(size)),
        proptest::option::of(text_strategy()),
    )
        .prop_map(|(setup, color, point, comment)| SgfMove {
            setup,
            color,
            point,
            comment,
        })
}

fn real_strategy() -> impl Strategy<Value = f64> {
    prop_oneof![
        (-400i32..400).prop_map(|k| f64::from(k) / 2.0),
        any::<f64>().prop_filter("finite", |x| x.is_finite()),
    ]
}

fn game_strategy() -> impl Strategy<Value = SgfGame> {
    (2usize..=25).prop_flat_map(|size| {
        let info = (
            proptest::option::of(real_strategy()),
            proptest::option::of(0..=MAX_NUMBER),
            proptest::option::of(prop_oneof![Just(Color::Black), Just(Color::White)]),
            proptest::option::of(real_strategy()),
            proptest::collection::vec(proptest::option::of(text_strategy()), 12),
        );
        let record = (
            setup_strategy(size, 12),
            proptest::collection::vec(move_strategy(size), 0..40),
            prop_oneof![3 => Just(Vec::new()), 1 => setup_strategy(size, 4)],
        );
        (info, record).prop_map(
            move |((komi, handicap, to_move, time, texts), (setup, moves, trailing))| {
                let mut g = SgfGame::new(size);
                g.komi = komi;
                g.handicap = handicap;
                g.info.player_to_move = to_move;
                g.info.time_limit = time;
                let mut texts = texts.into_iter();
                for field in [
                    &mut g.rules,
                    &mut g.info.black_name,
                    &mut g.info.white_name,
                    &mut g.info.black_rank,
                    &mut g.info.white_rank,
                    &mut g.info.result,
                    &mut g.info.date,
                    &mut g.info.event,
                    &mut g.info.game_name,
                    &mut g.info.overtime,
                    &mut g.info.comment,
                ] {
                    *field = texts.next().flatten();
                }
                g.setup = setup;
                g.moves = moves;
                g.trailing_setup = trailing;
                g
            },
        )
    })
}

proptest! {
    #[test]
    fn written_games_read_back(g in game_strategy()) {
        let text = write_game(&g);
        let back = parse_collection(&text).and_then(|c| SgfGame::from_collection(&c));
        prop_assert_eq!(back, Ok(g), "{}", text);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        if let Ok(c) = parse_collection_bytes(&bytes) {
            let _ = SgfGame::from_collection(&c);
        }
    }

    #[test]
    fn sgf_like_text_never_panics(text in "[()\\[\\];\\\\:ABWEKMSZHTPLCa-z0-9 \n]{0,200}") {
        if let Ok(c) = parse_collection(&text) {
            let _ = SgfGame::from_collection(&c);
        }
    }

    #[test]
    fn mutated_records_never_panic(
        g in game_strategy(),
        cuts in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
    ) {
        let mut bytes = write_game(&g).into_bytes();
        for (at, byte) in cuts {
            let i = at.index(bytes.len());
            bytes[i] = byte;
        }
        if let Ok(c) = parse_collection_bytes(&bytes) {
            let _ = SgfGame::from_collection(&c);
        }
    }
}
