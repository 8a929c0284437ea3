"""Which soak games two engines play differently, and what in the new engine's log comes before the difference.

    python bench/soak_explain.py changed OLD_DIGESTS NEW_DIGESTS                 # games whose digests differ
    python bench/soak_explain.py moves --group classic --games 17,40 > new.jsonl  # on the engine on the path
    PYTHONPATH=OTHER python bench/soak_explain.py moves --group classic --games 17,40 > old.jsonl
    python bench/soak_explain.py compare old.jsonl new.jsonl --marks StunLifted,DeferredEnd

The digest files are `bench/soak.py --game-digests` output. `moves` replays those games exactly as the soak
does (seed i, 2 + i mod 5 players, random bots) and writes each game's moves and the kinds of its log events
(plus `DeferredEnd` where a knock-out left at most one player standing and the game went on: a card still had
hits to land). `compare` finds each game's first differing move and says whether one of the `--marks` events
came before it in the new game: a change a rule change explains.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cardgen.engine.agents import RandomAgent
from cardgen.engine.cards import card_info
from cardgen.engine.rules import new_game, push
from cardgen.engine.views import observe
from cardgen.loader import load_sets


def changed(old: Path, new: Path) -> None:
    def read(path: Path) -> dict[tuple[str, int], str]:
        out = {}
        for line in path.read_text(encoding="utf-8").splitlines():
            group, game, digest = line.split()
            out[group, int(game)] = digest
        return out

    a, b = read(old), read(new)
    groups = sorted({g for g, _ in a} | {g for g, _ in b})
    for group in groups:
        games = sorted(i for g, i in a if g == group and (g, i) in b)
        differ = [i for i in games if a[group, i] != b[group, i]]
        print(f"{group:<12} {len(games)} games compared, {len(differ)} differ"
              + (f": {','.join(map(str, differ[:40]))}{' ...' if len(differ) > 40 else ''}" if differ else ""))


def moves(group: str, games: list[int]) -> None:
    cs = load_sets(group.split("+"))
    info = card_info(cs)
    for i in games:
        players = 2 + i % 5
        s = new_game(cs, players, seed=i, record=True, info=info)
        agents = [RandomAgent(i * 8 + p) for p in range(players)]
        out: list[str] = []
        at: list[int] = []  # the move each log event came with (0: before the first move)
        while s.result is None:
            move = agents[s.to_act].choose(observe(s, s.to_act))
            out.append(f"{s.to_act} {move.kind} {move.card} {move.target} {move.choice}")
            at += [len(out) - 1] * (len(s.log or []) - len(at))
            push(s, move, False)
        log = s.log or []
        at += [len(out) - 1] * (len(log) - len(at))
        marks: list[tuple[int, str]] = []
        standing = players
        for k, e in enumerate(log):
            name = type(e).__name__
            standing += (name == "Revived") - (name == "Unconscious")
            if name == "Unconscious" and standing <= 1 and k + 1 < len(log) and type(log[k + 1]).__name__ != "GameOver":
                marks.append((at[k], "DeferredEnd"))  # the game went on: a card still had hits to land
            marks.append((at[k], name))
        print(json.dumps({"game": i, "moves": out, "marks": marks, "result": str(s.result)}))


def compare(old: Path, new: Path, wanted: set[str]) -> None:
    a = {g["game"]: g for g in map(json.loads, old.read_text(encoding="utf-8").splitlines())}
    b = {g["game"]: g for g in map(json.loads, new.read_text(encoding="utf-8").splitlines())}
    explained = 0
    for i in sorted(a):
        x, y = a[i]["moves"], b[i]["moves"]
        first = next((k for k in range(min(len(x), len(y))) if x[k] != y[k]), min(len(x), len(y)))
        before = sorted({name for at, name in b[i]["marks"] if at <= first and name in wanted})
        explained += bool(before)
        print(f"game {i}: first difference at move {first} of {len(x)} / {len(y)}; "
              f"before it: {', '.join(before) or 'none of ' + ', '.join(sorted(wanted))}")
    print(f"{explained} of {len(a)} changed games have a marked event before their first difference")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    c = sub.add_parser("changed")
    c.add_argument("old", type=Path)
    c.add_argument("new", type=Path)
    m = sub.add_parser("moves")
    m.add_argument("--group", required=True)
    m.add_argument("--games", required=True)
    k = sub.add_parser("compare")
    k.add_argument("old", type=Path)
    k.add_argument("new", type=Path)
    k.add_argument("--marks", default="StunLifted,DeferredEnd")
    args = ap.parse_args()
    if args.what == "changed":
        changed(args.old, args.new)
    elif args.what == "moves":
        moves(args.group, [int(g) for g in args.games.split(",") if g])
    else:
        compare(args.old, args.new, set(args.marks.split(",")))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
