"""`cardgen play`: a rules-enforced web table for a set, against the bots or friends (docs/playing.md).

`table` holds the game and its seats, `wording` says it in the rules' words, `save` writes it as a
scenario, `art` makes the card pictures, `server` serves it all, `launch` starts a table from the command.
"""
