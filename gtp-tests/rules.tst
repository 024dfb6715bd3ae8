# Rules regressions: captures, suicide, ko and superko, and the torus, one preset at a time.
# Positions are built with `play` (either colour may move at any time in GTP) and observed
# with list_stones, captures, countlib, findlib, is_legal and final_score.
#
# The cases on the plane under Japanese or Chinese rules were checked against GNU Go 3.8
# (`gnugo --mode gtp`, with --chinese-rules, --allow-suicide, --positional-superko or
# --situational-superko where the rules here say so): same answers. The torus, Tromp-Taylor's
# single-stone suicide and Dao-qi's suicide-as-pass are beyond GNU Go; their expected answers
# follow the rules as README.md states them.
#
# A move that must be refused is written `N play ...   # illegal move` with `#? [.*]*`: an
# expected failure (gogui-regress counts any `?` answer to a numbered test as a failure) whose
# pattern matches every success, so a move wrongly accepted shows up as an unexpected PASS.
# The error texts themselves are checked in tests/gtp_errors.rs.

# ----- Capturing several chains with one stone (Chinese, the default) --------------------
#
#  3 . . . X .
#  2 . X X O X        White: B1 alone, D1-D2 together
#  1 X O . O X        Black C1 takes both chains: 3 stones.
#    A B C D E
boardsize 9
clear_board
play w b1
play w d1
play w d2
play b a1
play b b2
play b c2
play b e1
play b e2
play b d3
10 countlib b1
#? [1]
11 findlib d1
#? [C1]
12 countlib d2
#? [1]
13 is_legal b c1
#? [1]
14 play b c1
#? []
15 list_stones white
#? []
16 captures black
#? [3]
17 captures white
#? [0]
18 findlib c1
#? [B3 C3 A2 D2 B1 D1]
19 countlib c1
#? [6]

# ----- A capture that makes a move without liberties legal ---------------------------------
#
#  3 X . .
#  2 O X .         Black A1 has no liberty of its own but takes A2 and B1.
#  1 . O X
#    A B C
clear_board
play w b1
play w a2
play b c1
play b b2
play b a3
20 countlib a2
#? [1]
21 countlib b1
#? [1]
22 is_legal b a1
#? [1]
23 play b a1
#? []
24 list_stones white
#? []
25 captures black
#? [2]
26 findlib a1
#? [A2 B1]

# ----- Suicide is forbidden (Chinese) ------------------------------------------------------
#
# Single stone: Black A1 between White A2 and B1.
clear_board
play w b1
play w a2
30 is_legal b a1
#? [0]
31 play b a1   # illegal move
#? [.*]*
32 list_stones black
#? []
# White may play there: it is simply a move into its own eye.
33 is_legal w a1
#? [1]

# Two stones: Black B1 would join A1 and leave the pair without liberties.
#  2 O O .
#  1 X . O
#    A B C
clear_board
play b a1
play w a2
play w b2
play w c1
34 countlib a1
#? [1]
35 is_legal b b1
#? [0]
36 play b b1   # illegal move
#? [.*]*
37 list_stones black
#? [A1]
38 captures white
#? [0]

# ----- Multi-stone suicide is allowed (New Zealand) ----------------------------------------
# The same two-stone case: now Black B1 removes Black's own A1 and B1, which count as
# White's captures.
kata-set-rules new-zealand
clear_board
play b a1
play w a2
play w b2
play w c1
40 kata-get-rules
#? [.*"ko":"SITUATIONAL".*"suicide":true.*]
41 is_legal b b1
#? [1]
42 play b b1
#? []
43 list_stones black
#? []
44 captures white
#? [2]
45 captures black
#? [0]
46 list_stones white
#? [A2 B2 C1]
47 countlib a2
#? [5]

# ----- Simple ko (Japanese) -----------------------------------------------------------------
#
#  6 . X O .
#  5 X O . O       Black F5 takes E5; White may not take back at once, only after a
#  4 . X O .       move elsewhere (a ko threat) and Black's answer.
#    D E F G
kata-set-rules japanese
clear_board
play b d5
play b e6
play b e4
play w e5
play w g5
play w f6
play w f4
50 countlib e5
#? [1]
51 play b f5
#? []
52 captures black
#? [1]
53 countlib f5
#? [1]
54 findlib f5
#? [E5]
55 is_legal w e5
#? [0]
56 play w e5   # illegal move
#? [.*]*
57 list_stones white
#? [F6 G5 F4]
# The threat and its answer: now the retake is legal.
play w c7
play b c3
58 is_legal w e5
#? [1]
59 play w e5
#? []
60 captures white
#? [1]
# And Black in turn may not retake at once.
61 is_legal b f5
#? [0]
62 play b f5   # illegal move
#? [.*]*
# Passes are moves too: after White and Black pass, Black's retake is legal again.
play w pass
play b pass
63 is_legal b f5
#? [1]

# The same immediate retake under Chinese rules (positional superko) is illegal too.
kata-set-rules chinese
clear_board
play b d5
play b e6
play b e4
play w e5
play w g5
play w f6
play w f4
play b f5
64 is_legal w e5
#? [0]

# ----- A snapback is not a ko ---------------------------------------------------------------
#
#  3 X X X X
#  2 O O O X       Black throws in at A1; White takes it at B1; Black takes five stones
#  1 . . O X       back at A1, which is legal at once because it is no ko.
#    A B C D
kata-set-rules japanese
clear_board
play b a3
play b b3
play b c3
play b d3
play b d2
play b d1
play w a2
play w b2
play w c2
play w c1
70 countlib b2
#? [2]
71 findlib c1
#? [A1 B1]
72 play b a1
#? []
73 countlib a1
#? [1]
74 countlib c2
#? [1]
75 play w b1
#? []
76 captures white
#? [1]
77 countlib b1
#? [1]
78 findlib b1
#? [A1]
79 is_legal b a1
#? [1]
80 play b a1
#? []
81 captures black
#? [5]
82 list_stones white
#? []
83 countlib a1
#? [2]

# ----- A triple ko: positional (Chinese) and situational (AGA) superko ----------------------
#
# Three kos on the C and D columns, at rows 2, 5 and 8. In each, Black takes by playing on
# the D column, White by playing on the C column:
#
#  9 . . X O .
#  8 . X O . O     ko 3: White holds it (C8)
#  7 . . X O .
#  6 . . X O .
#  5 . X . X O     ko 2: Black holds it (D5)
#  4 . . X O .
#  3 . . X O .
#  2 . X O . O     ko 1: White holds it (C2)
#  1 . . X O .
#    A B C D E
#
# Call this position S, with Black to move.
kata-set-rules chinese
clear_board
play b b2
play b c3
play b c1
play b b5
play b c6
play b c4
play b b8
play b c9
play b c7
play b d5
play w e2
play w d3
play w d1
play w e5
play w d6
play w d4
play w e8
play w d9
play w d7
play w c2
play w c8
90 countlib c2
#? [1]
91 countlib d5
#? [1]
92 countlib c8
#? [1]

# The cycle: each side takes a ko in turn; White's sixth capture (C8) would bring back S
# with Black to move. Both superko rules forbid it; simple ko (Japanese) allows it.
play b d2
play w c5
play b d8
play w c2
play b d5
93 is_legal w c8
#? [0]
94 play w c8   # illegal move
#? [.*]*
kata-set-rules aga
95 is_legal w c8
#? [0]
kata-set-rules japanese
96 is_legal w c8
#? [1]
97 play w c8
#? []
98 list_stones white
#? [D9 C8 E8 D7 D6 E5 D4 D3 C2 E2 D1]

# Back to S. Now Black passes once on the way, so the same stones come back with WHITE to
# move: positional superko forbids Black D5, situational superko allows it (S had Black to
# move, this would have White to move).
100 gg-undo 6
#? []
101 list_stones black
#? [C9 B8 C7 C6 B5 D5 C4 C3 B2 C1]
kata-set-rules chinese
play b d2
play w c5
play b pass
play w c2
102 is_legal b d5
#? [0]
103 play b d5   # illegal move
#? [.*]*
kata-set-rules aga
104 is_legal b d5
#? [1]
kata-set-rules japanese
105 is_legal b d5
#? [1]
kata-set-rules aga
106 play b d5
#? []
107 captures black
#? [2]
108 list_stones black
#? [C9 B8 C7 C6 B5 D5 C4 C3 B2 C1]

# ----- Single-stone suicide: Tromp-Taylor forbids it, Dao-qi plays it as a pass ------------
#
# Under Tromp-Taylor (positional superko, suicide allowed) Black A1 would remove itself and
# recreate the current position: illegal. A two-stone suicide makes a new position: legal.
kata-set-rules tromp-taylor
boardsize 9
play w b1
play w a2
110 is_legal b a1
#? [0]
111 play b a1   # illegal move
#? [.*]*
play b j9
play w h9
play w h8
play w j7
112 is_legal b j8
#? [1]
113 play b j8
#? []
114 list_stones black
#? []
115 captures white
#? [2]

# Dao-qi (torus, situational superko, suicide allowed): A1's neighbours are B1, A2 and,
# across the edges, E1 and A5. Black A1 among four white stones is legal once, and acts as
# a pass (White to move, nothing changed); after White passes it would repeat the same
# (position, White to move) pair: illegal.
kata-set-rules daoqi
boardsize 5
play w b1
play w a2
play w e1
play w a5
120 kata-get-rules
#? [.*"topology":"TORUS".*]
121 is_legal b a1
#? [1]
122 play b a1
#? []
123 list_stones black
#? []
124 list_stones white
#? [A5 A2 B1 E1]
125 captures white
#? [1]
play w pass
126 is_legal b a1
#? [0]
127 play b a1   # illegal move
#? [.*]*

# ----- Captures that wrap around the torus (Dao-qi, 5x5) -----------------------------------
#
# Black A1 has four liberties (no corners on a torus); White surrounds it across both edges.
clear_board
play b a1
130 countlib a1
#? [4]
131 findlib a1
#? [A5 A2 B1 E1]
play w b1
play w a2
play w e1
132 countlib a1
#? [1]
133 findlib a1
#? [A5]
134 play w a5
#? []
135 color a1
#? [empty]
136 captures white
#? [1]
137 countlib e1
#? [4]
138 findlib e1
#? [E5 E2 A1 D1]

# A chain that wraps: A3 and E3 are neighbours. Black captures it across the edge.
clear_board
play w a3
play w e3
140 shicho-chain_stones a3
#? [A3 E3]
141 countlib e3
#? [6]
play b a4
play b a2
play b e4
play b e2
play b b3
142 findlib a3
#? [D3]
143 play b d3
#? []
144 list_stones white
#? []
145 captures black
#? [2]

# ----- Scoring a settled position: area vs territory ---------------------------------------
#
# 5x5, Black wall on C, White wall on D, one dead White stone at A1 inside Black's area.
kata-set-rules chinese
boardsize 5
komi 0.5
play b c1
play b c2
play b c3
play b c4
play b c5
play w d1
play w d2
play w d3
play w d4
play w d5
# Area: Black 15 points, White 10, komi 0.5.
150 final_score
#? [B\+4\.5]
play w a1
151 final_status_list dead
#? [A1]
# A1 is dead: still Black's area.
152 final_score
#? [B\+4\.5]
# Territory: Black 10 points plus the dead stone as a prisoner, White 5, komi 0.5.
kata-set-rules japanese
153 final_score
#? [B\+5\.5]

# ----- Handicap: White's bonus for Black's stones ------------------------------------------
#
# Four handicap stones on 9x9, nothing else: Black's area is the whole board (81 points).
# Chinese rules give White a point a stone beyond komi, AGA's all but one, Japanese none.
boardsize 9
komi 7
kata-set-rules chinese
fixed_handicap 4
160 kata-get-rules
#? [.*"whiteHandicapBonus":"N".*]
161 final_score
#? [B\+70]
kata-set-rules aga
162 kata-get-rules
#? [.*"whiteHandicapBonus":"N-1".*]
163 final_score
#? [B\+71]
# Territory: 77 empty points, no bonus.
kata-set-rules japanese
164 kata-get-rules
#? [.*"whiteHandicapBonus":"0".*]
165 final_score
#? [B\+70]
kata-set-rules ko=positional,suicide=forbidden,scoring=area,topology=plane,handicap=0
166 final_score
#? [B\+74]
# An even game has no bonus.
kata-set-rules chinese
clear_board
play b e5
167 final_score
#? [B\+74]
