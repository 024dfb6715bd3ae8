# Every command `list_commands` prints, with its normal answer, and its error paths.
#
# An error path is an expected failure: `N command   # the error text` followed by `#? [.*]*`.
# gogui-regress counts any `?` answer to a numbered test as a failure, and `.*` matches every
# success, so a command that wrongly succeeds shows up as an unexpected PASS. The error texts
# themselves are checked in tests/gtp_errors.rs.
#
# Fixed handicap placements, loadsgf (main line, setup, move number and vertex arguments) and
# the observation commands were checked against GNU Go 3.8 where it has the same command.
# SGF files are under games/ (relative to this file's folder, gogui-regress's working
# directory).

# ----- Administrative ----------------------------------------------------------------------
1 protocol_version
#? [2]
2 name
#? [shicho]
3 version
#? [\d+\.\d+\.\d+.*]
4 known_command genmove
#? [true]
5 known_command gogui-play_sequence
#? [true]
6 known_command frobnicate
#? [false]
# Command names are case sensitive.
7 known_command GENMOVE
#? [false]
8 known_command   # syntax error
#? [.*]*
9 known_command play genmove   # syntax error
#? [.*]*
10 list_commands
#? [protocol_version\nname\nversion\nknown_command\nlist_commands\nquit\n.*\nplay\ngenmove\n.*\ngogui-setup_player\n.*]
11 list_commands extra   # syntax error
#? [.*]*
12 protocol_version 2   # syntax error
#? [.*]*
13 frobnicate   # unknown command
#? [.*]*
14 Play b D4   # unknown command
#? [.*]*

# ----- boardsize, clear_board, komi ----------------------------------------------------------
20 boardsize 9
#? []
21 boardsize 2
#? []
22 boardsize 25
#? []
23 boardsize 1   # unacceptable size
#? [.*]*
24 boardsize 26   # unacceptable size
#? [.*]*
25 boardsize 0   # unacceptable size
#? [.*]*
26 boardsize -5   # syntax error
#? [.*]*
27 boardsize nine   # syntax error
#? [.*]*
28 boardsize 9.0   # syntax error
#? [.*]*
29 boardsize 99999999999999999999   # syntax error
#? [.*]*
30 boardsize   # syntax error
#? [.*]*
31 boardsize 9 9   # syntax error
#? [.*]*
# A failed boardsize leaves the board as it was: 25x25.
32 showboard
#? [.*Z.*25.*]
33 clear_board
#? []
34 clear_board now   # syntax error
#? [.*]*
35 komi 6.5
#? []
36 komi -12
#? []
37 komi 0
#? []
38 komi 1e3
#? []
39 komi 1000000
#? []
40 komi six   # syntax error
#? [.*]*
41 komi nan   # syntax error
#? [.*]*
42 komi 1e999   # syntax error
#? [.*]*
43 komi   # syntax error
#? [.*]*
44 komi 6.5 7   # syntax error
#? [.*]*
# A failed komi keeps the komi that was set.
45 shicho-rules
#? [.* komi 1000000]

# Komi survives boardsize and clear_board (Sabaki sends komi before boardsize, GoGui after).
komi 3.5
46 boardsize 9
#? []
47 shicho-rules
#? [chinese .*, komi 3\.5]
48 clear_board
#? []
49 gogui-title
#? [shicho 9x9 chinese komi 3\.5]
# An empty board is all dame: White wins by the komi.
50 final_score
#? [W\+3\.5]

# ----- Handicap ------------------------------------------------------------------------------
# fixed_handicap: GTP's placement, as GNU Go prints it (sorted, top row first). Test ids
# are size * 100 + stones.
boardsize 19
clear_board
1902 fixed_handicap 2
#? [Q16 D4]
clear_board
1903 fixed_handicap 3
#? [D16 Q16 D4]
clear_board
1904 fixed_handicap 4
#? [D16 Q16 D4 Q4]
clear_board
1905 fixed_handicap 5
#? [D16 Q16 K10 D4 Q4]
clear_board
1906 fixed_handicap 6
#? [D16 Q16 D10 Q10 D4 Q4]
clear_board
1907 fixed_handicap 7
#? [D16 Q16 D10 K10 Q10 D4 Q4]
clear_board
1908 fixed_handicap 8
#? [D16 K16 Q16 D10 Q10 D4 K4 Q4]
clear_board
1909 fixed_handicap 9
#? [D16 K16 Q16 D10 K10 Q10 D4 K4 Q4]
68 list_stones black
#? [D16 K16 Q16 D10 K10 Q10 D4 K4 Q4]
# White moves after the handicap stones.
69 shicho-explain w
#? [.*White.*]
70 fixed_handicap 2   # board not empty
#? [.*]*
clear_board
71 fixed_handicap 10   # invalid number of stones
#? [.*]*
72 fixed_handicap 1   # invalid number of stones
#? [.*]*
73 fixed_handicap 0   # invalid number of stones
#? [.*]*
74 fixed_handicap two   # syntax error
#? [.*]*
75 fixed_handicap   # syntax error
#? [.*]*
76 list_stones black
#? []

boardsize 13
1302 fixed_handicap 2
#? [K10 D4]
clear_board
1303 fixed_handicap 3
#? [D10 K10 D4]
clear_board
1304 fixed_handicap 4
#? [D10 K10 D4 K4]
clear_board
1305 fixed_handicap 5
#? [D10 K10 G7 D4 K4]
clear_board
1306 fixed_handicap 6
#? [D10 K10 D7 K7 D4 K4]
clear_board
1307 fixed_handicap 7
#? [D10 K10 D7 G7 K7 D4 K4]
clear_board
1308 fixed_handicap 8
#? [D10 G10 K10 D7 K7 D4 G4 K4]
clear_board
1309 fixed_handicap 9
#? [D10 G10 K10 D7 G7 K7 D4 G4 K4]

boardsize 9
902 fixed_handicap 2
#? [G7 C3]
clear_board
903 fixed_handicap 3
#? [C7 G7 C3]
clear_board
904 fixed_handicap 4
#? [C7 G7 C3 G3]
clear_board
905 fixed_handicap 5
#? [C7 G7 E5 C3 G3]
clear_board
906 fixed_handicap 6
#? [C7 G7 C5 G5 C3 G3]
clear_board
907 fixed_handicap 7
#? [C7 G7 C5 E5 G5 C3 G3]
clear_board
908 fixed_handicap 8
#? [C7 E7 G7 C5 G5 C3 E3 G3]
clear_board
909 fixed_handicap 9
#? [C7 E7 G7 C5 E5 G5 C3 E3 G3]
clear_board
84 fixed_handicap 10   # invalid number of stones
#? [.*]*

# Limits: 4 stones on 7x7 and even sizes, none below 7x7.
boardsize 7
85 fixed_handicap 4
#? [C5 E5 C3 E3]
clear_board
86 fixed_handicap 5   # invalid number of stones
#? [.*]*
boardsize 8
87 fixed_handicap 4
#? [C6 F6 C3 F3]
clear_board
88 fixed_handicap 5   # invalid number of stones
#? [.*]*
boardsize 6
89 fixed_handicap 2   # invalid number of stones
#? [.*]*

# A move on the board counts, and so does a pass in the history.
boardsize 9
play b e5
90 fixed_handicap 2   # board not empty
#? [.*]*
clear_board
play b pass
91 fixed_handicap 2   # board not empty
#? [.*]*

# place_free_handicap: the engine's own placement, then White to move.
boardsize 9
92 place_free_handicap 2
#? [G7 C3]
clear_board
93 place_free_handicap 4
#? [([A-HJ]\d ){3}[A-HJ]\d]
94 place_free_handicap 4   # board not empty
#? [.*]*
clear_board
95 place_free_handicap 12
#? [([A-HJ]\d ){11}[A-HJ]\d]
clear_board
96 place_free_handicap 1   # invalid number of stones
#? [.*]*
97 place_free_handicap 81   # invalid number of stones
#? [.*]*
98 place_free_handicap   # syntax error
#? [.*]*
99 place_free_handicap x   # syntax error
#? [.*]*

# set_free_handicap: the controller's placement.
clear_board
100 set_free_handicap a1 J9 e5
#? []
101 list_stones black
#? [J9 E5 A1]
102 set_free_handicap c3 g7   # board not empty
#? [.*]*
clear_board
103 set_free_handicap a1   # bad vertex list
#? [.*]*
104 set_free_handicap a1 a1   # bad vertex list
#? [.*]*
105 set_free_handicap a1 pass   # bad vertex list
#? [.*]*
106 set_free_handicap a1 z9   # bad vertex list
#? [.*]*
107 set_free_handicap a1 x   # bad vertex list
#? [.*]*
108 set_free_handicap   # bad vertex list
#? [.*]*
109 list_stones black
#? []
# A whole board but one point is the most the spec allows: 80 stones on 9x9.
110 set_free_handicap A9 B9 C9 D9 E9 F9 G9 H9 J9 A8 B8 C8 D8 E8 F8 G8 H8 J8 A7 B7 C7 D7 E7 F7 G7 H7 J7 A6 B6 C6 D6 E6 F6 G6 H6 J6 A5 B5 C5 D5 E5 F5 G5 H5 J5 A4 B4 C4 D4 E4 F4 G4 H4 J4 A3 B3 C3 D3 E3 F3 G3 H3 J3 A2 B2 C2 D2 E2 F2 G2 H2 J2 A1 B1 C1 D1 E1 F1 G1 H1
#? []
111 countlib a9
#? [1]
clear_board
112 set_free_handicap A9 B9 C9 D9 E9 F9 G9 H9 J9 A8 B8 C8 D8 E8 F8 G8 H8 J8 A7 B7 C7 D7 E7 F7 G7 H7 J7 A6 B6 C6 D6 E6 F6 G6 H6 J6 A5 B5 C5 D5 E5 F5 G5 H5 J5 A4 B4 C4 D4 E4 F4 G4 H4 J4 A3 B3 C3 D3 E3 F3 G3 H3 J3 A2 B2 C2 D2 E2 F2 G2 H2 J2 A1 B1 C1 D1 E1 F1 G1 H1 J1   # bad vertex list
#? [.*]*

# ----- play, genmove, undo -------------------------------------------------------------------
boardsize 9
clear_board
120 play b e5
#? []
121 play W D4
#? []
122 play black c3
#? []
# Two moves of one colour in a row are legal in GTP.
123 play black c4
#? []
124 play w pass
#? []
125 play B PASS
#? []
126 play white Pass
#? []
127 play b e5   # illegal move (occupied)
#? [.*]*
128 play b z9   # illegal move (off the board)
#? [.*]*
129 play b i5   # syntax error (no column I)
#? [.*]*
130 play b e10   # illegal move (off the board)
#? [.*]*
131 play red e6   # syntax error
#? [.*]*
132 play b   # syntax error
#? [.*]*
133 play b e6 e7   # syntax error
#? [.*]*
134 play   # syntax error
#? [.*]*
135 play b resign   # syntax error
#? [.*]*
136 list_stones black
#? [E5 C4 C3]
137 list_stones white
#? [D4]
# GTP version 1's black/white.
138 black f6
#? []
139 white f4
#? []
140 black f4   # illegal move
#? [.*]*
141 white   # syntax error
#? [.*]*
142 black b x   # syntax error
#? [.*]*

# genmove plays its move; reg_genmove only names it.
clear_board
143 reg_genmove b
#? [[A-HJ][1-9]|PASS]
144 list_stones black
#? []
145 genmove b
#? [[A-HJ][1-9]|PASS]
146 list_stones black
#? [[A-HJ][1-9]]
147 genmove W
#? [[A-HJ][1-9]|PASS]
148 genmove white
#? [[A-HJ][1-9]|PASS]
149 kgs-genmove_cleanup b
#? [[A-HJ][1-9]|PASS]
150 genmove   # syntax error
#? [.*]*
151 genmove green   # syntax error
#? [.*]*
152 genmove b w   # syntax error
#? [.*]*
153 reg_genmove   # syntax error
#? [.*]*
154 reg_genmove x   # syntax error
#? [.*]*
155 kgs-genmove_cleanup   # syntax error
#? [.*]*
# Four moves were played.
156 gg-undo 4
#? []
157 list_stones black
#? []
158 undo   # cannot undo
#? [.*]*

# undo and gg-undo.
play b e5
play w e6
play b d5
160 undo
#? []
161 list_stones black
#? [E5]
162 gg-undo
#? []
163 list_stones white
#? []
164 gg-undo 2   # cannot undo (one move left)
#? [.*]*
165 list_stones black
#? [E5]
166 gg-undo 0
#? []
167 gg-undo 1
#? []
168 gg-undo 1   # cannot undo
#? [.*]*
169 undo now   # syntax error
#? [.*]*
170 gg-undo x   # syntax error
#? [.*]*
171 gg-undo 1 2   # syntax error
#? [.*]*
172 gg-undo -1   # syntax error
#? [.*]*
# An undone capture comes back, and so does the capture count.
clear_board
play w a1
play b a2
play b b1
173 captures black
#? [1]
174 undo
#? []
175 color a1
#? [white]
176 captures black
#? [0]

# Undo after handicap: the handicap stones stay.
clear_board
fixed_handicap 2
177 undo   # cannot undo
#? [.*]*
play w c7
178 undo
#? []
179 undo   # cannot undo
#? [.*]*
180 list_stones black
#? [G7 C3]
181 list_stones white
#? []
play w c7
play b d7
182 gg-undo 3   # cannot undo (only two moves)
#? [.*]*
183 gg-undo 2
#? []
184 list_stones black
#? [G7 C3]
clear_board
set_free_handicap a1 b2
play w c3
185 gg-undo 1
#? []
186 list_stones black
#? [B2 A1]
187 gg-undo 1   # cannot undo
#? [.*]*

# ----- Time ----------------------------------------------------------------------------------
190 time_settings 300 30 5
#? []
191 time_settings 0 1 0
#? []
192 time_settings 600 0 0
#? []
193 time_settings 0 10 1
#? []
194 time_left b 120 0
#? []
195 time_left white 25 3
#? []
196 time_left w 0 0
#? []
197 time_settings 300 30   # syntax error
#? [.*]*
198 time_settings -1 30 5   # syntax error
#? [.*]*
199 time_settings a b c   # syntax error
#? [.*]*
200 time_settings 300 30 -5   # syntax error
#? [.*]*
201 time_left b 10   # syntax error
#? [.*]*
202 time_left x 10 0   # syntax error
#? [.*]*
203 time_left b ten 0   # syntax error
#? [.*]*
204 time_left b 10 -1   # syntax error
#? [.*]*
205 kgs-time_settings none
#? []
206 kgs-time_settings absolute 600
#? []
207 kgs-time_settings canadian 600 300 25
#? []
208 kgs-time_settings byoyomi 600 30 5
#? []
209 kgs-time_settings   # syntax error
#? [.*]*
210 kgs-time_settings fischer 600 10   # syntax error
#? [.*]*
211 kgs-time_settings absolute   # syntax error
#? [.*]*
212 kgs-time_settings canadian 600 300   # syntax error
#? [.*]*
213 kgs-time_settings byoyomi 600 -30 5   # syntax error
#? [.*]*
214 kgs-time_settings none 5   # syntax error
#? [.*]*
# KataGo's kinds: KGS's and Fischer's (GTP2OGS sends fischer-capped with -1 for no limit).
2101 kata-list_time_settings
#? [none absolute byoyomi canadian fischer fischer-capped]
2102 kata-time_settings none
#? []
2103 kata-time_settings canadian 600 30.5 5
#? []
2104 kata-time_settings byoyomi 600 30 5
#? []
2105 kata-time_settings fischer 60 2
#? []
2106 time_left b 57 0
#? []
2107 time_left b 57 1   # a Fischer clock has no byo-yomi
#? [.*]*
2108 kata-time_settings fischer-capped 60 2 120 -1
#? []
2109 kata-time_settings fischer-capped 60.5 2.5 -1 10
#? []
2110 kata-time_settings fischer-capped 60 2 30 -1   # cap below main time
#? [.*]*
2111 kata-time_settings fischer 60   # syntax error
#? [.*]*
2112 kata-time_settings fischer -60 2   # syntax error
#? [.*]*
2113 kata-time_settings blitz 60   # unknown time system
#? [.*]*
2114 kata-time_settings   # syntax error
#? [.*]*
2115 kata-list_time_settings now   # syntax error
#? [.*]*
# genmove under a Fischer clock.
kata-time_settings fischer 10 1
2116 genmove b
#? [[A-HJ][1-9]|PASS]
# genmove with a clock running, in byo-yomi with one stone left.
kgs-time_settings byoyomi 0 5 1
time_left b 5 1
215 genmove b
#? [[A-HJ][1-9]|PASS]
216 cputime
#? [\d+\.\d{3}]
217 cputime 1   # syntax error
#? [.*]*

# ----- Scoring -------------------------------------------------------------------------------
# A finished 5x5 game: Black wall on C, White wall on D, a dead White stone at A1.
boardsize 5
clear_board
komi 0.5
gogui-play_sequence b c1 w d1 b c2 w d2 b c3 w d3 b c4 w d4 b c5 w d5 b pass w a1 b pass w pass
220 final_score
#? [B\+4\.5]
221 final_status_list dead
#? [A1]
222 final_status_list alive
#? [C5 C4 C3 C2 C1\nD5 D4 D3 D2 D1]
223 final_status_list seki
#? []
224 final_status_list DEAD   # syntax error
#? [.*]*
225 final_status_list   # syntax error
#? [.*]*
226 final_status_list dead alive   # syntax error
#? [.*]*
227 final_score now   # syntax error
#? [.*]*
# Territory scoring counts the dead stone as a prisoner.
kata-set-rules japanese
228 final_score
#? [B\+5\.5]
kata-set-rules chinese
# An even result prints as 0.
komi 5
229 final_score
#? [0]

# ----- loadsgf and printsgf ------------------------------------------------------------------
# games/variations.sgf (9x9, KM 5.5): B E5, W C7, then the main line B G3, W G7, B C3, with
# variations at moves 3 and 5 that must not be played.
boardsize 19
komi 7.5
230 loadsgf games/variations.sgf
#? [white]
231 list_stones black
#? [E5 C3 G3]
232 list_stones white
#? [C7 G7]
233 shicho-rules
#? [.*komi 5\.5]
234 showboard
#? [.*A B C D E F G H J\n 9 .*]
# A move number: the position before that move.
235 loadsgf games/variations.sgf 3
#? [black]
236 list_stones black
#? [E5]
237 list_stones white
#? [C7]
238 loadsgf games/variations.sgf 1
#? [black]
239 list_stones black
#? []
240 loadsgf games/variations.sgf 100
#? [white]
241 list_stones black
#? [E5 C3 G3]
# A vertex: the position before the first move there.
242 loadsgf games/variations.sgf G3
#? [black]
243 list_stones black
#? [E5]
244 loadsgf games/variations.sgf c7
#? [white]
245 list_stones black
#? [E5]
246 list_stones white
#? []
# A vertex never played: the whole game.
247 loadsgf games/variations.sgf J9
#? [white]
248 list_stones black
#? [E5 C3 G3]
# The loaded game goes on.
249 play w c3   # illegal move (occupied)
#? [.*]*
250 play w d3
#? []
251 undo
#? []
252 gg-undo 5
#? []
253 undo   # cannot undo
#? [.*]*

# games/setup.sgf (7x7, KM 0, PL W): AB A7 B6, AW C5 D4; W E3, B F7; then a setup node
# (AE A7, AB G1, AW A1); W F6, B pass; then a last setup node (AW G6).
254 loadsgf games/setup.sgf
#? [white]
255 list_stones black
#? [F7 B6 G1]
256 list_stones white
#? [F6 G6 C5 D4 E3 A1]
257 shicho-rules
#? [.*komi 0]
258 loadsgf games/setup.sgf 1
#? [white]
259 list_stones black
#? [A7 B6]
260 list_stones white
#? [C5 D4]
# Before move 3 (W F6): the setup node before it is in place (GNU Go agrees, apart from AE,
# which GNU Go 3.8 ignores).
261 loadsgf games/setup.sgf 3
#? [white]
262 list_stones black
#? [F7 B6 G1]
263 list_stones white
#? [C5 D4 E3 A1]
264 loadsgf games/setup.sgf F6
#? [white]
265 list_stones black
#? [F7 B6 G1]
# A move number past the end loads everything, the last setup node included.
266 loadsgf games/setup.sgf 100
#? [white]
267 list_stones white
#? [F6 G6 C5 D4 E3 A1]
# Root setup stones are the start position, which undo never removes; the setup nodes in
# the middle are undone like moves (four moves and two setup nodes here).
268 gg-undo 5
#? []
269 list_stones black
#? [A7 B6]
270 list_stones white
#? [C5 D4 E3]
271 undo
#? []
272 undo   # cannot undo
#? [.*]*

# games/handicap.sgf (13x13, HA 3, KM 0.5): AB D10 K10 D4; W K4, B G7.
273 loadsgf games/handicap.sgf
#? [white]
274 list_stones black
#? [D10 K10 G7 D4]
275 loadsgf games/handicap.sgf 1
#? [white]
276 list_stones black
#? [D10 K10 D4]
277 undo   # cannot undo: handicap stones stay
#? [.*]*
278 shicho-rules
#? [.*komi 0\.5]

# A record where Black moves twice: stopping before the second Black move gives the move to
# Black, as GNU Go does; at the end White's move leaves Black to play.
1910 loadsgf games/twice.sgf 2
#? [black]
1911 loadsgf games/twice.sgf 3
#? [white]
1912 loadsgf games/twice.sgf
#? [black]
loadsgf games/handicap.sgf 1

# Files that cannot be loaded leave the game as it was.
279 loadsgf games/malformed.sgf   # cannot load file
#? [.*]*
280 loadsgf games/badsize.sgf   # cannot load file
#? [.*]*
281 loadsgf games/nonexistent.sgf   # cannot load file
#? [.*]*
282 loadsgf games   # cannot load file (a folder)
#? [.*]*
283 loadsgf   # syntax error
#? [.*]*
284 loadsgf games/variations.sgf 3 4   # syntax error
#? [.*]*
285 loadsgf games/variations.sgf -3   # syntax error
#? [.*]*
286 list_stones black
#? [D10 K10 D4]
287 gogui-title
#? [shicho 13x13 chinese komi 0\.5]

# printsgf, and a round trip through a file.
loadsgf games/setup.sgf
290 printsgf
#? [\(;FF\[4\].*SZ\[7\]KM\[0\].*;W\[ee\];B\[fa\];.*AE\[aa\].*;W\[fb\];B\[\]\s*;AW\[gb\]\)]
291 printsgf games/roundtrip.out.sgf
#? []
clear_board
292 loadsgf games/roundtrip.out.sgf
#? [white]
293 list_stones black
#? [F7 B6 G1]
294 list_stones white
#? [F6 G6 C5 D4 E3 A1]
295 gg-undo 5
#? []
296 list_stones black
#? [A7 B6]
297 list_stones white
#? [C5 D4 E3]
# With handicap stones and komi.
boardsize 9
komi 0.5
fixed_handicap 3
play w e5
play b pass
298 printsgf games/roundtrip.out.sgf
#? []
boardsize 19
komi 7.5
299 loadsgf games/roundtrip.out.sgf
#? [white]
300 list_stones black
#? [C7 G7 C3]
301 list_stones white
#? [E5]
302 shicho-rules
#? [.*komi 0\.5]
303 undo
#? []
304 undo
#? []
305 undo   # cannot undo
#? [.*]*
306 printsgf no/such/folder/x.sgf   # cannot write file
#? [.*]*
307 printsgf a b   # syntax error
#? [.*]*
# Setup stones all Black with Black to move (not a handicap): the player to move survives.
boardsize 9
gogui-setup b a1 b b2
gogui-setup_player b
308 printsgf games/roundtrip.out.sgf
#? []
309 loadsgf games/roundtrip.out.sgf
#? [black]
310 list_stones black
#? [B2 A1]
# And White to move after mixed setup stones.
clear_board
gogui-setup b a1 w b2
gogui-setup_player w
printsgf games/roundtrip.out.sgf
311 loadsgf games/roundtrip.out.sgf
#? [white]

# ----- Rules ---------------------------------------------------------------------------------
312 kata-set-rules japanese
#? []
313 kata-get-rules
#? [\{"hasButton":false,"ko":"SIMPLE","scoring":"TERRITORY","suicide":false,"tax":"NONE","whiteHandicapBonus":"0","topology":"PLANE","preset":"japanese"\}]
314 shicho-rules
#? [japanese \(ko simple, suicide forbidden, scoring territory, topology plane\), komi 0\.5]
315 kata-set-rules tromp-taylor
#? []
316 kata-get-rules
#? [.*"ko":"POSITIONAL","scoring":"AREA","suicide":true.*"preset":"tromp-taylor".*]
317 kata-set-rules ko=situational,suicide=forbidden,scoring=area,topology=plane
#? []
318 kata-get-rules
#? [.*"ko":"SITUATIONAL".*"suicide":false.*]
# Rule changes on one topology keep the game.
319 list_stones black
#? [A1]
320 kata-set-rules klingon   # unknown rules
#? [.*]*
321 kata-set-rules   # syntax error
#? [.*]*
322 kata-set-rules chinese japanese   # syntax error
#? [.*]*
323 kata-get-rules now   # syntax error
#? [.*]*
324 shicho-rules now   # syntax error
#? [.*]*
# A failed kata-set-rules keeps the rules (these settings are AGA's, and print so).
325 shicho-rules
#? [aga \(ko situational, suicide forbidden, scoring area, topology plane\), komi 0\.5]
# A new topology starts an empty board of the same size; komi stays.
326 kata-set-rules daoqi
#? []
327 list_stones black
#? []
328 gogui-title
#? [shicho 9x9 daoqi komi 0\.5]
# KGS's names (kgsGtp sends kgs-rules as each game starts); back on the plane.
2201 kgs-rules japanese
#? []
2202 shicho-rules
#? [japanese .*]
2203 kgs-rules new_zealand
#? []
2204 shicho-rules
#? [new-zealand .*]
# kgsGtp may add parameters one day; they are to be ignored.
2205 kgs-rules aga more to come
#? []
2206 shicho-rules
#? [aga .*]
2207 kgs-rules chinese
#? []
2208 shicho-rules
#? [chinese .*]
2209 kgs-rules tromp-taylor   # not a KGS name
#? [.*]*
2210 kgs-rules   # syntax error
#? [.*]*
2211 shicho-rules
#? [chinese .*]

# ----- Server bridges --------------------------------------------------------------------------
# kgsGtp's chat and end of game.
2301 kgs-chat private alice Hello there, how strong are you?
#? [Hello! I am shicho, a Go program\. .*]
2302 kgs-chat game bob gg
#? [Hello! .*]
2303 kgs-chat game   # syntax error
#? [.*]*
2304 kgs-chat lobby carol hi   # syntax error
#? [.*]*
2305 kgs-game_over
#? []
2306 kgs-game_over now   # syntax error
#? [.*]*

# ----- The torus view ------------------------------------------------------------------------
kata-set-rules daoqi
boardsize 5
play b a1
play w b2
330 showboard
#? [A B C D E\n 5  \. \. \. \. \.  5\n.*\n 1  X \. \. \. \.  1\n    A B C D E\n.*]
331 shicho-shift 1 1
#? []
332 showboard
#? [B C D E A\n 1  \. \. \. \. X  1\n 5 .*\n 2  O \. \. \. \.  2\n    B C D E A\n.*view shifted by 1 1]
333 shicho-shift -1,-1
#? []
334 showboard
#? [E A B C D\n.*view shifted by 4 4]
335 shicho-shift 1   # syntax error
#? [.*]*
336 shicho-shift a b   # syntax error
#? [.*]*
# Only what is drawn changes.
337 list_stones black
#? [A1]
338 clear_board
#? []
339 showboard
#? [A B C D E\n.*captures: black 0 white 0]
kata-set-rules chinese
340 shicho-shift 1 1   # only on a torus
#? [.*]*

# GoGui's ruler commands (gogui-rules_*), offered on the torus: GoGui draws this board and
# lets players click only where the ruler allows (tests/gogui/check.py runs them in GoGui).
# White A3 is taken by E3, its neighbour across the left edge.
kata-set-rules daoqi
boardsize 5
gogui-play_sequence w a3 b a4 b a2 b b3 b e3
341 gogui-rules_game_id
#? [Daoqi]
342 gogui-rules_board_size
#? [5]
343 gogui-rules_board
#? [\. \. \. \. \.\nX \. \. \. \.\n\. X \. \. X\nX \. \. \. \.\n\. \. \. \. \.]
344 gogui-rules_captured_count
#? [1 0]
345 gogui-rules_side_to_move
#? [white]
346 gogui-rules_legal_moves
#? [A5 B5 C5 D5 E5 B4 .* A3 .* E1 pass]
347 gogui-rules_board x   # syntax error
#? [.*]*
# Two passes end the game: no legal move, and the result for GoGui's dialog.
gogui-play_sequence w pass b pass
348 gogui-rules_legal_moves
#? []
349 gogui-rules_final_result
#? [Black wins by .*komi .*]
kata-set-rules chinese

# ----- Observation ---------------------------------------------------------------------------
boardsize 9
clear_board
play b e5
play b e6
play w d5
play w f5
350 showboard
#? [A B C D E F G H J\n 9  (\. ){9} 9\n.*\n 5  \. \. \. O X O \. \. \.  5\n.*black to move, captures: black 0 white 0]
351 showboard now   # syntax error
#? [.*]*
352 list_stones black
#? [E6 E5]
353 list_stones w
#? [D5 F5]
354 list_stones green   # invalid color
#? [.*]*
355 list_stones   # syntax error
#? [.*]*
356 color e5
#? [black]
357 color d5
#? [white]
358 color a1
#? [empty]
359 color z1   # invalid coordinate
#? [.*]*
360 color   # syntax error
#? [.*]*
361 is_legal b e5
#? [0]
362 is_legal w a1
#? [1]
363 is_legal b pass
#? [1]
364 is_legal b   # invalid color or coordinate
#? [.*]*
365 is_legal b z9   # invalid color or coordinate
#? [.*]*
366 is_legal x a1   # invalid color or coordinate
#? [.*]*
367 all_legal b
#? [A9 B9 .* H1 J1]
368 all_legal   # syntax error
#? [.*]*
369 all_legal x   # invalid color
#? [.*]*
370 captures black
#? [0]
371 captures x   # invalid color
#? [.*]*
372 countlib e5
#? [4]
373 findlib e5
#? [E7 D6 F6 E4]
374 countlib a1   # vertex must not be empty
#? [.*]*
375 findlib a1   # vertex must not be empty
#? [.*]*
376 countlib z1   # invalid coordinate
#? [.*]*
377 findlib   # syntax error
#? [.*]*
378 shicho-chain_stones e6
#? [E6 E5]
379 shicho-chain_stones a1   # vertex must not be empty
#? [.*]*
380 shicho-hash
#? [stones [0-9a-f]{16} situation [0-9a-f]{16}]
381 shicho-hash x   # syntax error
#? [.*]*
382 shicho-ownership
#? [(-?\d\.\d\d( -?\d\.\d\d){8}\n){8}-?\d\.\d\d( -?\d\.\d\d){8}]
383 shicho-ownership x   # syntax error
#? [.*]*

# ----- GoGui ---------------------------------------------------------------------------------
390 gogui-analyze_commands
#? [plist/Liberties/findlib %p\n.*string/Final Score/final_score\n.*gfx/Move Choice/shicho-explain %m(\n.*)?]
391 gogui-interrupt
#? []
392 gogui-title
#? [shicho 9x9 chinese komi 0\.5]
393 gogui-title x   # syntax error
#? [.*]*

# gogui-play_sequence: all the moves or none.
clear_board
394 gogui-play_sequence b e5 w e6 B D4 W pass b c3
#? []
395 list_stones black
#? [E5 D4 C3]
396 gogui-play_sequence b f5 w f6 b e5   # illegal move (E5 is taken): nothing is played
#? [.*]*
397 list_stones black
#? [E5 D4 C3]
398 gogui-play_sequence b f5 w   # syntax error
#? [.*]*
399 gogui-play_sequence b f5 w i5   # syntax error
#? [.*]*
400 list_stones black
#? [E5 D4 C3]
401 gogui-play_sequence
#? []
402 gg-undo 5
#? []
403 list_stones black
#? []

# gogui-setup: stones of both colours before any move; gogui-setup_player: who starts.
404 gogui-setup b a1 w b2 b c3 w d4
#? []
405 list_stones black
#? [C3 A1]
406 list_stones white
#? [D4 B2]
407 gogui-setup_player w
#? []
408 shicho-explain w
#? [.*White.*]
409 undo   # cannot undo: setup stones are the start position
#? [.*]*
410 gogui-setup b e5 w e5 b   # syntax error
#? [.*]*
411 gogui-setup b e5 w z5   # syntax error
#? [.*]*
412 gogui-setup b pass   # syntax error
#? [.*]*
413 gogui-setup x a2   # syntax error
#? [.*]*
# A1 would have no liberty left: all or nothing.
414 gogui-setup b e5 w a2 w b1   # illegal move
#? [.*]*
415 list_stones black
#? [C3 A1]
416 gogui-setup_player purple   # syntax error
#? [.*]*
417 gogui-setup_player   # syntax error
#? [.*]*
play w e5
418 gogui-setup b f5   # board not empty (a move has been played)
#? [.*]*
419 gogui-setup_player b   # moves have been played
#? [.*]*
420 list_stones white
#? [E5 D4 B2]

# GoGui's ruler commands: plane Go is GoGui's own game, so only the game id is offered there
# (the torus offers them all: see "The torus view").
421 gogui-rules_game_id
#? [Go]
422 known_command gogui-rules_board
#? [false]
423 gogui-rules_legal_moves   # unknown command (only on the torus)
#? [.*]*

# ----- GNU Go's reading commands -------------------------------------------------------------
# The ladder: White G7 G6 in a working ladder (Black G8 F7 H7 H6).
boardsize 9
clear_board
gogui-play_sequence w g7 w g6 b g8 b f7 b h7 b h6
430 attack g7
#? [1 G5]
431 defend g7
#? [[123] [A-HJ]\d]
432 ladder_attack g7
#? [1 G5]
433 does_attack g5 g7
#? [1]
434 does_defend f6 g7
#? [[0-3]]
435 shicho-ladder_captures
#? [G7 G6]
436 shicho-explain b
#? [TRIANGLE G5\nTEXT Black G5: .*]
437 attack a1   # vertex must not be empty
#? [.*]*
438 defend z9   # invalid coordinate
#? [.*]*
439 attack   # syntax error
#? [.*]*
440 ladder_attack g8   # string must have exactly 2 liberties
#? [.*]*
441 does_attack g7 g7   # move vertex must be empty
#? [.*]*
442 does_defend g5 a1   # string vertex must not be empty
#? [.*]*
443 does_attack g5   # syntax error
#? [.*]*
444 shicho-explain   # syntax error
#? [.*]*
445 shicho-ladder_captures x   # syntax error
#? [.*]*
# The reading stack: observation commands look at its top; the game is untouched.
446 trymove b g5
#? []
447 countlib g7
#? [1]
448 list_stones black
#? [G8 F7 H7 H6 G5]
449 tryko w f6
#? []
450 popgo
#? []
451 popgo
#? []
452 popgo   # Stack empty.
#? [.*]*
453 countlib g7
#? [2]
454 trymove b g7   # illegal move
#? [.*]*
455 trymove x g5   # invalid color or coordinate
#? [.*]*
456 trymove b   # invalid color or coordinate
#? [.*]*
457 increase_depths
#? []
458 decrease_depths
#? []
459 increase_depths 1   # syntax error
#? [.*]*
460 decrease_depths 1   # syntax error
#? [.*]*

# A rules change ends a reading sequence, as every other change of the game does, so that
# trymove and is_legal never judge by different rules.
boardsize 9
gogui-play_sequence b a1 w a2 w b2 w c1
trymove w e5
kata-set-rules new-zealand
461 color e5
#? [empty]
462 is_legal b b1
#? [1]
463 trymove b b1
#? []
464 color a1
#? [empty]
465 popgo
#? []

# ----- Players and the search --------------------------------------------------------------
# The tree search is the default player (20000 playouts); the heuristic and random players
# answer genmove too.
480 shicho-player
#? [mcts 20000]
481 shicho-player heuristic
#? []
boardsize 9
clear_board
482 genmove b
#? [[A-HJ][1-9]|PASS]
483 shicho-player random 300
#? []
484 shicho-player
#? [random 300]
485 genmove w
#? [[A-HJ][1-9]|PASS]
486 shicho-player mcts
#? []
487 shicho-player
#? [mcts 300]
488 genmove b
#? [[A-HJ][1-9]|PASS|resign]
489 reg_genmove w
#? [[A-HJ][1-9]|PASS|resign]
490 shicho-search w
#? [(LABEL ([A-HJ][1-9] \d+ ?)+\n)?(VAR ([bw] ([A-HJ][1-9]|PASS) ?)+\n)?TEXT 300 playouts in .*: White .* wins \d+\.\d%]
491 shicho-player alphago   # syntax error
#? [.*]*
492 shicho-player mcts many   # syntax error
#? [.*]*
493 shicho-player mcts 10 20   # syntax error
#? [.*]*
494 shicho-search   # syntax error
#? [.*]*
495 shicho-search purple   # syntax error
#? [.*]*
# A failed shicho-player keeps the player.
496 shicho-player
#? [mcts 300]
497 list_stones black
#? [[A-HJ][1-9]( [A-HJ][1-9])?|]

# ----- Live analysis ---------------------------------------------------------------------------
# analyze, lz-analyze and kata-analyze answer as a stream that runs until new input arrives;
# gogui-regress waits for the end of a response before it sends the next line, so only their
# error paths can be tested here. The streams are tested in tests/analysis.rs,
# tests/robustness.rs and by the Sabaki client.
501 analyze purple   # syntax error
#? [.*]*
502 lz-analyze b 10 interval   # syntax error
#? [.*]*
503 kata-analyze w interval x   # syntax error
#? [.*]*
504 lz-analyze 10 20   # syntax error
#? [.*]*
505 kata-analyze b 10 avoid b Z9 1   # bad analysis argument: 'Z9' is not a vertex of this board
#? [.*]*
506 lz-analyze b 10 ownership true   # bad analysis argument: ownership is a key of the kata- commands
#? [.*]*
# The genmove variants end by themselves: `=id` on a line of its own, the reports (with
# interval 0, one, at the end), then `play MOVE`. gogui-regress reads the text after the
# response's first space: the first report's first group on.
507 kata-genmove_analyze w 0 ownership true rootInfo true
#? [move [A-HJ][1-9] visits \d+ winrate 0\.\d+ scoreMean -?\d+\.\d+ scoreStdev .* rootInfo visits .* ownership( -?[01]\.\d+){81}\nplay ([A-HJ][1-9]|pass|resign)]
508 lz-genmove_analyze b 0 allow b A1,J9 1
#? [move (A1|J9) visits \d+ winrate \d+ prior \d+ lcb \d+ order 0 pv .*\nplay (A1|J9|resign)]
509 genmove_analyze w 0 maxmoves 1
#? [move [A-HJ][1-9] visits \d+ winrate \d+ scoreMean .* order 0 pv [^\n]*\nplay ([A-HJ][1-9]|pass|resign)]
510 kata-genmove_analyze b 10 foo 3   # bad analysis argument: unknown key 'foo'
#? [.*]*
# The network's raw outputs, KataGo's layout.
511 kata-raw-nn w 0
#? [symmetry 0\nwhiteWin 0\.\d+\nwhiteLoss 0\.\d+\nnoResult 0\.0+\nwhiteLead -?\d+\.\d+\n.*\npolicy\n.*\npolicyPass \d\.\d+\nwhiteOwnership(\n( ?-?\d\.\d{7}){9}){9}]
512 kata-raw-nn 8   # symmetry must be 'all' or 0 to 7, not '8'
#? [.*]*
513 kata-raw-nn b   # syntax error
#? [.*]*
# KataGo's clear_cache: the kept tree and the network's cache forgotten; nothing else.
514 clear_cache
#? []
515 clear_cache now   # syntax error
#? [.*]*

# ----- Settings --------------------------------------------------------------------------------
# KataGo's and Leela Zero's ways to change a setting while the engine runs; each is read back,
# and the suite's defaults restored at the end. The error texts are checked in tests/settings.rs.
521 kata-list-params
#? [maxVisits maxPlayouts maxTime numSearchThreads ponderingEnabled wideRootNoise analysisWideRootNoise level maxMemory]
522 kata-get-param level
#? [10]
523 kata-set-param level 3
#? []
524 kata-get-param level
#? [3]
525 kata-set-param maxVisits 400
#? []
526 kata-get-param maxPlayouts
#? [400]
527 kata-set-param maxTime 2.5
#? []
528 kata-get-param maxTime
#? [2.5]
529 kata-set-param maxMemory 200
#? []
530 kata-get-param maxMemory
#? [200]
531 kata-set-param ponderingEnabled false
#? []
532 kata-get-param numSearchThreads
#? [1]
533 genmove w
#? [[A-HJ][1-9]|PASS|resign]
534 lz-setoption
#? [option name Maximum Memory Use \(MiB\) type spin default 1112 min 89 max \d+\noption name Visits .*\noption name Playouts .*\noption name Pondering type check default false\noption name Level type spin default 10 min 1 max 10]
535 kata-set-param maxTime 1e20
#? []
536 kata-get-param maxTime
#? [1e20]
537 lz-setoption name visits value 0
#? []
538 kata-get-param maxVisits
#? [20000]
539 lz-setoption name Level value 10
#? []
540 lz-setoption name Maximum Memory Use (MiB) value 1112
#? []
541 kata-set-param level 11   # Could not set params: level must be 1 to 10, not '11'
#? [.*]*
542 kata-set-param maxVisits 0   # Could not set params: maxVisits must be a whole number from 1
#? [.*]*
543 kata-set-param maxMemory 10   # Could not set params: maxMemory 10 MiB is too little: ...
#? [.*]*
544 kata-set-param wideRootNoise 6   # Could not set params: Key 'wideRootNoise' must be in the range 0 to 5
#? [.*]*
545 kata-set-param level   # syntax error
#? [.*]*
546 kata-get-param frobnicate   # Invalid parameter: frobnicate
#? [.*]*
547 kata-get-param   # syntax error
#? [.*]*
548 kata-list-params all   # syntax error
#? [.*]*
549 lz-setoption name lagbuffer value 100   # Unknown option
#? [.*]*
550 lz-setoption name visits value -3   # incorrect value: visits must be 0 to 1000000000
#? [.*]*
551 lz-setoption visits 3   # incorrect syntax for lz-setoption
#? [.*]*
# The failures changed nothing.
552 kata-get-param level
#? [10]
553 kata-get-param wideRootNoise
#? [0]
# The analysis commands' root noise, set, read back and restored.
554 kata-set-param analysisWideRootNoise 0.04
#? []
555 kata-get-param analysisWideRootNoise
#? [0.04]
556 kata-set-param analysisWideRootNoise 0
#? []

# ----- quit ----------------------------------------------------------------------------------
600 quit
#? []
