"""The typed observation of what is pending: one `Pending` per step on the stack, built by the engine.

Bots, trackers and the table read these instead of the engine's frames (OpenSpiel's observer idea): a frame
is the engine's working record of a step, changed in place as the step runs and free to change shape when
the rules code does; a `Pending` is an immutable summary of it in the rules' own terms, with no engine object
inside. `PlayerView.step` is the one deciding now, `PlayerView.steps` all of them, bottom first (the turn,
then the cards in flight...). The bots, the
trackers, the balance lab and the table all read these fields: change one only together with its readers.

Fields (None where a field does not apply to the kind):

- `kind`: which kind of step (`StepKind`, one per frame class);
- `player`: whose step it is: the turn's player, the card's player (a strike, an opener, an answer, a heal),
  the holder (a hold's tick, a let-go), the combo's or free attack's player, the blocker (after a block), the
  player dropping or bracing, the dodged attack's player (direction);
- `card`: the design played (a strike, an opener, an answer, a heal; a tick's hold card);
- `target`: whom it is aimed at: a window's target, a combo's or free attack's victim, the attacker a blocker
  may grab back (after a block);
- `asking`: the seats a response window will still ask, in order (the one deciding first); () elsewhere;
- `damage`: what it deals next if nothing stops it: a strike's next hit, a hold's tick, the damage a player
  braces for;
- `damage_left`: a strike's hits still to come, summed;
- `heal`: a heal card's amount;
- `multiplier`: a combo's (or an opener's) multiplier of its follow-ups' damage, as the card says (1 elsewhere);
- `phase`: a turn's phase (`Phase`);
- `answer`, `defence`: what an answer does to the step below it (`Answer`) and how (the defence kind it
  plays, or `cancel` / `redirect` for a humiliation);
- `defences`: the defence kinds its target may play against it now (a strike, an opener, a tick);
- `answers`: the kinds of answer the rules admit to it at all (`Answer`; the cards in hand decide the rest;
  out-of-turn attacks, which may interject in most windows, are not answers);
- `sealed`: nothing may answer it (a Lunch Money Grab's free attack).

Each frame makes its own (`Frame.pending`: the step knows what may answer it); `pending_of(state,
frame)` asks it. The classes live in `cardgen.engine.pending`, below the frames.
"""

from __future__ import annotations

from cardgen.engine.pending import FIELDS, WINDOWS, Pending, StepKind
from cardgen.engine.state import Frame, GameState


def pending_of(s: GameState, f: Frame) -> Pending:
    """The `Pending` of frame `f` of state `s`: the frame's own (`Frame.pending`)."""
    return f.pending(s)


__all__ = ["FIELDS", "WINDOWS", "Pending", "StepKind", "pending_of"]
