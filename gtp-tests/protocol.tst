# Protocol basics: ids, framing, administrative commands.
1 protocol_version
#? [2]
2 name
#? [shicho]
3 known_command play
#? [true]
4 known_command frobnicate
#? [false]
5 list_commands
#? [.*\nplay\n.*genmove.*]
6 frobnicate
#? [unknown command]*
7 boardsize 9   # trailing comments are ignored
#? []
8 boardsize 1
#? [unacceptable size]*
9 boardsize 26
#? [unacceptable size]*
10 boardsize nine
#? [syntax error]*
