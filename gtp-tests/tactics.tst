# Tactical reading: ladders, nets, snapbacks, counter-captures, ko.
# GNU Go's commands and answer formats (attack/defend: 0, or code and move; code 1 = success,
# 2 = through a ko taken first, 3 = through a ko needing a threat first).
# Every expected answer below is also GNU Go 3.8's answer, except where a comment says.

# The ladder tutorial: White G7 G6, Black G8 F7 H7 H6, Black to play.
# White dies in a ladder starting at G5.
boardsize 9
clear_board
play white G7
play white G6
play black G8
play black F7
play black H7
play black H6
1 ladder_attack G7
#? [1 G5]
2 attack G7
#? [1 G5]
3 defend G7
#? [1 G5]
4 does_attack G5 G7
#? [1]

# Add White D3: the stone breaks the ladder, but the net (geta) at F5 still works.
play white D3
10 ladder_attack G7
#? [0]
11 attack G7
#? [1 F5]
12 does_attack F5 G7
#? [1]
# GNU Go answers 0 on a fresh board but 1 after the queries above (its cached worm data);
# its own reading agrees that after G5 White escapes at F6.
13 does_attack G5 G7
#? [0]
14 does_attack F6 G7
#? [0]
15 defend G7
#? [1 G5]
trymove black F5
16 defend G7
#? [0]
# The tried stone itself is a chain the commands accept (GNU Go's reading.tst asks that way).
17 countlib F5
#? [4]
18 attack F5
#? [0]
popgo

# Instead add White G4: White captures a chasing stone, so it cannot be taken at all.
# The naive reader ("extend at the liberties") says the ladder works.
boardsize 9
clear_board
play white G7
play white G6
play black G8
play black F7
play black H7
play black H6
play white G4
20 ladder_attack G7
#? [0]
21 attack G7
#? [0]
22 defend G7
#? [1 G5]

# A ladder across the whole 19x19 board, from the upper right to the lower left corner.
boardsize 19
clear_board
play white Q16
play white Q15
play black Q17
play black P16
play black R16
play black R15
30 ladder_attack Q16
#? [1 Q14]
31 attack Q16
#? [1 Q14]
32 defend Q16
#? [1 Q14]

# A black stone on the path only helps the attacker.
play black K10
33 ladder_attack Q16
#? [1 Q14]
34 attack Q16
#? [1 Q14]

# A white stone anywhere on the path breaks it.
boardsize 19
clear_board
play white Q16
play white Q15
play black Q17
play black P16
play black R16
play black R15
play white D4
35 ladder_attack Q16
#? [0]
36 attack Q16
#? [0]

boardsize 19
clear_board
play white Q16
play white Q15
play black Q17
play black P16
play black R16
play black R15
play white J9
37 ladder_attack Q16
#? [0]
38 attack Q16
#? [0]

# Along the first line: White E2 E1 crawls and dies.
boardsize 9
clear_board
play white E2
play white E1
play black E3
play black D2
play black D1
40 ladder_attack E2
#? [1 F2]
41 attack E2
#? [1 F2]
42 defend E2
#? [1 F2]

# A counter-capture: White B3 is in atari and extending at C3 does not help, but Black B2 is
# in atari too.
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
50 defend B3
#? [1 C2]
51 attack B3
#? [1 C3]

# Snapback: after Black's throw-in at C1, taking it at D1 leaves White in atari.
boardsize 6
clear_board
play black A3
play black B3
play black C3
play black D3
play black A2
play black A1
play black E2
play black E1
play white B2
play white C2
play white D2
play white B1
play white F1
60 attack B2
#? [1 (C1|D1)]
61 defend B2
#? [0]
trymove black C1
62 defend B2
#? [0]
popgo

# Ko: White E5 can be taken at F5 by a ko capture (code 2); after Black takes, White must
# find a threat before retaking (code 3).
boardsize 9
clear_board
play black D5
play black E6
play black E4
play white F6
play white F4
play white G5
play white E5
70 attack E5
#? [2 F5]
71 defend E5
#? [1 F5]
play black F5
72 attack F5
#? [3 E5]
73 defend F5
#? [1 E5]
74 does_attack E5 F5
#? [0]
