# The heuristic move generator through reg_genmove (deterministic: fixed seed).
# GNU Go 3.8 plays the same moves except where a comment says why not.
shicho-player heuristic

# The ladder tutorial: White G7 G6, Black G8 F7 H7 H6. Black plays the working ladder.
boardsize 9
clear_board
play white G7
play white G6
play black G8
play black F7
play black H7
play black H6
1 reg_genmove black
#? [G5]

# White in atari in a working ladder: extending at F6 is a wasted move.
play black G5
2 reg_genmove white
#? [!F6]

# With a white breaker at D3 the same atari fails: White escapes at F6. (GNU Go plays G3,
# a whole-board choice; its reading agrees that F6 escapes: defend G7 -> 1 F6.)
boardsize 9
clear_board
play white G7
play white G6
play black G8
play black F7
play black H7
play black H6
play white D3
play black G5
3 reg_genmove white
#? [F6]

# With the breaker Black plays the net instead of the ladder.
boardsize 9
clear_board
play white G7
play white G6
play black G8
play black F7
play black H7
play black H6
play white D3
4 reg_genmove black
#? [F5]

# Capture the big chain: three stones at E2 rather than one at A8. (GNU Go plays B8: it
# counts the three stones as dead already.)
boardsize 9
clear_board
play white A9
play black B9
play white E5
play white E4
play white E3
play black E6
play black D5
play black D4
play black D3
play black F5
play black F4
play black F3
5 reg_genmove black
#? [E2]

# Escape from atari by capturing a chasing stone (C2), not by extending (C3).
boardsize 5
clear_board
play black B4
play black C4
play black A3
play black D3
play black B2
play white B3
play white A2
play white B1
6 reg_genmove white
#? [C2]

# Never fill an own eye: Black lives with eyes at A1 and C1 and has nothing else to do.
boardsize 5
clear_board
play white A3
play white B3
play white C3
play white D3
play white E3
play white E2
play white E1
play black A2
play black B2
play black C2
play black D2
play black B1
play black D1
7 reg_genmove black
#? [!(A1|C1)]
