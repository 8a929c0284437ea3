"""Games a simulation played, saved as files `cardgen replay --open` steps through (`simulate --save-games N`).

The saved games are the run's first N in seed order (game 0 to N-1), whatever `--jobs` or `--cluster`: a
simulated game depends only on the run seed and its number. Each is played again here from those seeds with
the engine's log kept, so it is move for move the game the simulation counted, and written as a save of
`cardgen play` whose deal is marked `deck_shuffled` (the shuffling generator goes on from the shuffle that
dealt the deck, so the game's later reshuffles are the simulation's too). Every file is replayed to the same
state before any is written (`verified_scenario`), and each is written whole or not at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from cardgen.engine.cards import card_info
from cardgen.engine.game import make_game, seat_names
from cardgen.engine.rules import new_game
from cardgen.engine.state import GameState
from cardgen.engine.views import observe
from cardgen.errors import CardgenError
from cardgen.model import CardSet
from cardgen.output import write_atomic
from cardgen.play.save import deal, verified_scenario
from cardgen.play.table import scenario_set_ref
from cardgen.sim.agents import make_agent
from cardgen.sim.play import DECISION_LIMIT
from cardgen.sim.runner import SimConfig, seats_of
from cardgen.sim.seeding import derive_seed


class SaveGamesError(CardgenError):
    """`--save-games` options that cannot save the games the simulation played."""


def check_save_games(count: int, cfg: SimConfig) -> None:
    """Refuse, before the run, a count the run does not have and a bot that would not play the same game again."""
    if count > cfg.games:
        raise SaveGamesError(f"--save-games {count} asks for more games than --games {cfg.games} plays")
    if cfg.budget.ms is not None and "search" in cfg.agents:
        raise SaveGamesError(f"--save-games needs the search bot's --budget in iterations: a budget of "
                             f"{cfg.budget} thinks for a time, so a game played again is not the same game")


def replayed_game(cs: CardSet, cfg: SimConfig, game: int) -> GameState:
    """Game `game` of the run `cfg`, played again to its end with the engine's log (as `sim.runner.run_range`
    plays it: the same deal, the same bots with the same seeds)."""
    info = card_info(cs)
    table = make_game(cs, seat_names(cfg.players), info=info)
    agents = [make_agent(a, derive_seed(cfg.seed, game, p + 1), cfg.budget) for p, a in enumerate(seats_of(cfg, game))]
    s = new_game(cs, cfg.players, seed=derive_seed(cfg.seed, game), record=True, info=info, game=table)
    views = [observe(s, p) for p in range(cfg.players)]
    for _ in range(DECISION_LIMIT):
        if s.result is not None:
            break
        p = s.to_act
        s.push(agents[p].choose(views[p]))
    return s


def saved_game(cs: CardSet, sets: Sequence[str], cfg: SimConfig, game: int) -> str:
    """Game `game` of the run as the text of a save (a scenario file that replays to the state it reached)."""
    s = replayed_game(cs, cfg, game)
    names = s.game.names
    opening = replace(deal(cs, [scenario_set_ref(r) for r in sets], names, derive_seed(cfg.seed, game)),
                      deck_shuffled=True)
    bots = ", ".join(f"{n} {a}" for n, a in zip(names, seats_of(cfg, game), strict=True))
    title = f"{cs.title}: game {game} of `cardgen simulate --seed {cfg.seed}`"
    description = (f"Played by the simulation's bots ({bots}): the deal, every decision and the state reached, "
                   "move for move as the simulation played it.")
    return verified_scenario(opening, cs, s, title, description)


def file_name(cs: CardSet, cfg: SimConfig, game: int, count: int) -> str:
    """`<set>-seed<S>-game<g>.yaml`, the number padded so the files list in game order."""
    stem = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in cs.name)
    return f"{stem}-seed{cfg.seed}-game{game:0{len(str(count - 1))}d}.yaml"


def save_games(cs: CardSet, sets: Sequence[str], cfg: SimConfig, count: int, folder: Path) -> list[Path]:
    """Save games 0 to `count`-1 of the run into `folder`; every file is made and checked before the first is
    written. Returns the paths written, in game order."""
    texts = [(folder / file_name(cs, cfg, g, count), saved_game(cs, sets, cfg, g)) for g in range(count)]
    for path, text in texts:
        write_atomic(path, text.encode("utf-8"))
    return [path for path, _ in texts]
