"""Invariant soak: many random games of each bundled set and of both mixes, every invariant after every move.

    python bench/soak.py --games 100000            # each of classic, lunch, beer, lunch+beer, beer+lunch
    python bench/soak.py --games 2000 --set lunch --set beer
    python bench/soak.py --games 20000 --groups beer,lunch+beer,beer+lunch
    python bench/soak.py --games 25000 --start 25000 --groups beer   # the next shard: games 25000-49999
    PYTHONPATH=OTHER python bench/soak.py --games 20000 --digest   # the same games on another engine?

Game i of every group (i counts from --start, so shards of a long soak run apart and add up) is dealt
from seed i with 2 to 6 players (i mod 5) and random bots; after every move
the engine's per-move `Checker` runs (cards conserved, life + pool = the starting total, statuses, who
acts), every 50th game is logged and also checked move by move against the cards played (`check_step`),
and `check_state` looks at every card at the end. `lunch+beer` and `beer+lunch` must play the very same
games: their results are compared game by game. Prints the exact number of games and moves checked and
every violation (exit code 1 if any). `--digest` also prints, per group, the SHA-256 of every move of every
game in order and each result: two engines (another checkout on PYTHONPATH, or CARDGEN_PURE=1) that print
the same digests played the same games move for move.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

from tqdm import tqdm

from cardgen.engine.agents import RandomAgent
from cardgen.engine.cards import card_info
from cardgen.engine.invariants import Checker, check_state, snapshot
from cardgen.engine.rules import new_game, push
from cardgen.engine.views import observe
from cardgen.loader import load_sets
from cardgen.model import CardSet

GROUPS = (("classic",), ("lunch",), ("beer",), ("lunch", "beer"), ("beer", "lunch"))
LOGGED_EVERY = 50
MOVE_LIMIT = 200_000


def play(cs: CardSet, info: tuple[object, ...], i: int, digest: hashlib._Hash | None = None
         ) -> tuple[tuple[object, ...], int, list[str]]:
    """Game i: its result (winner, reason, turns, life, pool), the moves checked, and any problems (every move
    and the result also go into `digest`)."""
    players = 2 + i % 5
    logged = i % LOGGED_EVERY == 0
    s = new_game(cs, players, seed=i, record=logged, info=info)  # type: ignore[arg-type]
    agents = [RandomAgent(i * 8 + p) for p in range(players)]
    checker = Checker(s.game)
    problems = check_state(s)
    moves = 0
    while s.result is None and not problems and moves < MOVE_LIMIT:
        before = snapshot(s) if logged else None
        move = agents[s.to_act].choose(observe(s, s.to_act))
        if digest is not None:
            digest.update(f"{s.to_act} {move.kind} {move.card} {move.target} {move.choice};".encode())
        push(s, move, False)
        moves += 1
        problems = checker.state(s)
        if before is not None:
            problems += checker.step(before, s)
            s.log = s.log[-200:] if s.log is not None else None  # check_step reads only the new tail
    if s.result is None and not problems:
        problems = [f"no end after {MOVE_LIMIT} moves"]
    problems += check_state(s)
    r = s.result
    result = ((r.winner, str(r.reason), r.turns) if r else None, tuple(s.life), s.pool)
    if digest is not None:
        digest.update(f"{result}\n".encode())
    return result, moves, problems


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1000, help="games per group")
    ap.add_argument("--start", type=int, default=0, help="index of the first game (default 0)")
    ap.add_argument("--set", action="append", dest="sets", help="one group (repeat to mix; default: all five)")
    ap.add_argument("--groups", help="groups to play, comma-separated, a mix written a+b (default: all five)")
    ap.add_argument("--digest", action="store_true", help="print a digest of every move of every game per group")
    ap.add_argument("--game-digests", type=Path, metavar="FILE",
                    help="write each game's digest to FILE (group, game, digest a line): count the games that differ")
    args = ap.parse_args()
    groups = ([tuple(args.sets)] if args.sets else [tuple(g.split("+")) for g in args.groups.split(",")]
              if args.groups else list(GROUPS))
    results: dict[tuple[str, ...], list[tuple[object, ...]]] = {}
    failed = 0
    for group in groups:
        cs = load_sets(list(group))
        info = card_info(cs)
        t0 = time.process_time()
        moves, bad = 0, []
        outcomes: list[tuple[object, ...]] = []
        digest = hashlib.sha256() if args.digest else None
        per_game: list[str] = []
        indices = range(args.start, args.start + args.games)
        for i in tqdm(indices, desc="+".join(group), unit="game", file=sys.stderr, disable=None):
            own = hashlib.sha256() if digest is not None or args.game_digests else None
            result, n, problems = play(cs, info, i, own)
            if own is not None:
                per_game.append(f"{'+'.join(group)} {i} {own.hexdigest()}\n")
                if digest is not None:
                    digest.update(own.digest())  # the group's digest: of its games' digests, in order
            moves += n
            outcomes.append(result)
            if problems:
                bad.append(f"game {i}: {'; '.join(problems[:3])}")
        results[group] = outcomes
        if args.game_digests:
            with args.game_digests.open("a", encoding="utf-8") as out:
                out.writelines(per_game)
        failed += len(bad)
        print(f"{'+'.join(group):<12} {args.games} games (from {args.start}), {moves} moves checked, "
              f"{len(bad)} with violations, "
              f"{time.process_time() - t0:.0f} s CPU", flush=True)
        for line in bad[:10]:
            print("   ", line)
        if digest is not None:
            print(f"{'+'.join(group):<12} digest of every move and result: {digest.hexdigest()}", flush=True)
    if ("lunch", "beer") in results and ("beer", "lunch") in results:
        a, b = results["lunch", "beer"], results["beer", "lunch"]
        differ = sum(x != y for x, y in zip(a, b, strict=True))
        failed += differ
        print(f"lunch+beer vs beer+lunch: {len(a) - differ} of {len(a)} games identical")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
