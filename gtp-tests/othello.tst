# Othello mode: every command `list_commands` prints there, with its normal answer and its
# error paths, and the front ends' habits (Quarry sends no passes and may send two moves of
# one colour; Edax-style play/genmove for the colour not to move).
#
# The engine starts in Go mode (scripts/regress and gogui-regress start it without
# arguments): this suite switches first. Vertices are Othello's: row 1 at the top, no
# column letter skipped (A1 is the upper-left corner, D3 the fourth column, third row).
# Error paths are expected failures (`#? [.*]*`); their texts are checked in
# tests/othello_gtp.rs.

set_game Othello

# ----- Administrative ----------------------------------------------------------------------
1 list_games
#? [Go\nOthello]
2 known_command shicho-solve
#? [true]
# Go's commands are not there in Othello mode.
3 known_command fixed_handicap
#? [false]
4 list_commands
#? [protocol_version\nname\nversion\nknown_command\nlist_commands\nquit\nlist_games\nset_game\nboardsize\n.*\nplay\ngenmove\n.*\nshicho-perft\n.*]
5 fixed_handicap 2   # unknown command in Othello mode
#? [.*]*
6 set_game chess   # unsupported game
#? [.*]*
7 set_game   # syntax error
#? [.*]*
8 set_game othello
#? []

# ----- Board and moves ---------------------------------------------------------------------
10 boardsize 8
#? []
11 boardsize 9   # unacceptable size: Othello boards are even
#? [.*]*
12 boardsize 28   # unacceptable size
#? [.*]*
13 boardsize 2   # unacceptable size
#? [.*]*
14 komi 6.5
#? []
15 komi x   # syntax error
#? [.*]*
16 showboard
#? [A B C D E F G H\n 1  \. \. \. \. \. \. \. \. 1.*\n 4  \. \. \. O X \. \. \. 4\s*\n 5  \. \. \. X O \. \. \. 5.*Black to move]
17 all_legal black
#? [D3 C4 F5 E6]
18 all_legal white
#? [E3 F4 C5 D6]
19 list_stones white
#? [D4 E5]
20 list_stones black
#? [E4 D5]
21 is_legal b d3
#? [1]
22 is_legal b a1
#? [0]
23 is_legal b pass
#? [0]
24 play b a1   # illegal move: flips nothing
#? [.*]*
25 play b d4   # illegal move: occupied
#? [.*]*
26 play b i1   # illegal move: off this board (I is a column, not skipped)
#? [.*]*
27 play b 3d   # syntax error
#? [.*]*
28 play w e3   # wrong color: Black has moves
#? [.*]*
29 play b pass   # illegal move: Black has moves
#? [.*]*
30 play B D3
#? []
31 color d4
#? [black]
32 color d3
#? [black]
33 color a1
#? [empty]
34 color z9   # invalid coordinate
#? [.*]*
35 genmove b   # wrong color
#? [.*]*
36 reg_genmove w
#? [[C-F][3-6]]
37 undo
#? []
38 undo   # cannot undo
#? [.*]*

# A finished game: Black wipes White out in nine moves.
40 clear_board
#? []
play b D3
play w C3
play b F5
play w F4
play b F3
play w D2
play b D1
play w E3
41 play b B3
#? []
42 final_score
#? [B\+13]
43 genmove w
#? [PASS]
44 genmove b
#? [PASS]
45 play w pass
#? []
46 all_legal white
#? []
47 showboard
#? [.*Black \(X\): 13  White \(O\): 0  Game over: B\+13]
# Solved as endgame suites count, for White (to move after B3): the 51 empty squares go to
# the winner.
39 shicho-solve
#? [PASS -64]
48 shicho-perft 3
#? [0]
49 shicho-perft 2
#? [1]

# ----- Passes: Quarry sends none, Edax names the colour ------------------------------------
# After White's C1 Black has no move: White moves again, the pass is inferred.
50 clear_board
#? []
play b D3
play w C3
play b E6
play w D2
play b D1
play w E1
play b B2
play w C1
51 all_legal black
#? []
52 is_legal b pass
#? [1]
53 reg_genmove b
#? [PASS]
54 play w A3
#? []
55 printsgf
#? [.*W\[ca\];B\[\];W\[ac\]\)]
# Undo takes back White's A3 and Black's inferred pass together: Quarry never saw the pass.
56 undo
#? []
57 genmove w
#? [[A-H][1-8]]
58 undo
#? []
# Edax's way: genmove for the colour not to move plays the other side's forced pass first.
59 genmove b
#? [PASS]
60 printsgf
#? [.*W\[ca\];B\[\]\)]
61 play b a1   # wrong color (White has moves)
#? [.*]*

# ----- SGF ---------------------------------------------------------------------------------
70 loadsgf games/othello-pass.sgf
#? [white]
71 showboard
#? [.*\n 1  X \. O O O \. \. \. 1.*White to move]
72 loadsgf games/othello-pass.sgf 9
#? [white]
73 list_stones white
#? [C1 D1 E1 D2]
74 loadsgf games/othello-pass.sgf A1
#? [black]
75 loadsgf games/othello-setup.sgf
#? [black]
76 showboard
#? [A B C D\n 1  O \. \. \. 1\s*\n 2  O X \. \. 2\s*\n 3  O \. \. \. 3\s*\n 4  \. \. \. \. 4.*Black to move]
77 loadsgf games/twice.sgf   # cannot load file: a Go record
#? [.*]*
78 loadsgf games/nonexistent.sgf   # cannot load file
#? [.*]*
79 loadsgf games/othello-pass.sgf 3d   # syntax error
#? [.*]*
80 printsgf games/othello-roundtrip.out.sgf
#? []
81 loadsgf games/othello-roundtrip.out.sgf
#? [black]

# ----- Setup -------------------------------------------------------------------------------
90 boardsize 4
#? []
91 gogui-setup b a1 w b2
#? []
92 gogui-setup_player w
#? []
93 showboard
#? [.*\n 1  X \. \. \. 1\s*\n 2  \. O X \. 2.*White to move]
94 gogui-setup b a9   # illegal move: off the board
#? [.*]*
95 gogui-setup b   # syntax error
#? [.*]*
96 gogui-setup b pass   # syntax error
#? [.*]*
play w d2
97 gogui-setup b a4   # board not empty: a move was played
#? [.*]*
98 gogui-setup_player b   # moves have been played
#? [.*]*

# ----- Time --------------------------------------------------------------------------------
100 time_settings 300 0 0
#? []
101 time_left black 120 0
#? []
102 kgs-time_settings byoyomi 10 5 3
#? []
103 time_settings 1 x 0   # syntax error
#? [.*]*
104 time_settings 0 1 0
#? []

# ----- Players, solver, perft --------------------------------------------------------------
110 boardsize 8
#? []
111 shicho-player
#? [searcher]
112 shicho-player greedy
#? []
113 genmove b
#? [D3]
114 shicho-player searcher
#? []
115 shicho-player alphago   # syntax error
#? [.*]*
clear_board
116 shicho-perft 6
#? [8200]
117 shicho-perft 13   # too large
#? [.*]*
118 shicho-solve   # too many empty squares
#? [.*]*
# 4x4 from the start: White wins 11 to 3 with perfect play, two squares left empty: -10
# for Black, counted as endgame suites count (empties to the winner).
119 boardsize 4
#? []
120 shicho-solve
#? [[A-D][1-4] -10]
121 shicho-solve 11   # too many empty squares
#? [.*]*
122 shicho-solve 99   # too large
#? [.*]*
123 lz-analyze b 0 interval x   # syntax error
#? [.*]*
124 cputime
#? [\d+\.\d+]
125 gogui-analyze_commands
#? [.*shicho-solve.*]

# ----- Back to Go --------------------------------------------------------------------------
130 set_game Go
#? []
131 known_command fixed_handicap
#? [true]
132 boardsize 9
#? []
133 play b D3
#? []
