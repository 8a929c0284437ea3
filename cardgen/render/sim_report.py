"""The simulation report: a one-page chart sheet drawn from the plain JSON dict of `cardgen simulate`.

It reads only that dict (never the engine or `cardgen.sim`), so a report can be
redrawn from a saved JSON file. Three panels answer the designer's questions at
a glance: does a seat dominate (win rates with 95 % intervals against the fair
share), do games end (length histogram, turn-cap stalemates in red), and which
cards matter (plays per game and win rate when played, dead cards in red).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import yaml
from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import Drawing, Line, Rect, String
from reportlab.lib.colors import Color, HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from cardgen.errors import CardgenError
from cardgen.paths import templates_dir
from cardgen.render.fonts import register_fonts

MM = 72 / 25.4
MAX_HIST_BARS = 40


class ReportError(CardgenError):
    """The simulation JSON lacks what the report needs, or the report file type is unknown."""


@dataclass(frozen=True)
class Style:
    """The report look, read from `templates/report/sim_report.yaml` (sizes already in points)."""

    width: float
    min_height: float
    margin: float
    gap: float
    top_h: float
    row: float
    name_w: float
    value_w: float
    held_w: float
    dpi: float
    font: dict[str, float]
    ink: dict[str, Color]
    ways: dict[str, Color]  # a plays bar's colour for each way of playing a card, in stacking order


@cache
def style() -> Style:
    with (templates_dir() / "report" / "sim_report.yaml").open(encoding="utf-8") as fh:
        d = yaml.safe_load(fh)
    p = d["page"]
    return Style(width=p["width"] * MM, min_height=p["min_height"] * MM, margin=p["margin"] * MM,
                 gap=d["gap"] * MM, top_h=d["top_panels_height"] * MM, row=d["card_row"] * MM,
                 name_w=d["card_name_width"] * MM, value_w=d["impact_value_width"] * MM,
                 held_w=d["held_share_width"] * MM, dpi=float(d["dpi"]),
                 font={k: float(v) for k, v in d["fonts"].items()},
                 ink={k: HexColor(v) for k, v in d["colours"].items()},
                 ways={k: HexColor(v) for k, v in d["ways"].items()})


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def _text(dr: Drawing, x: float, y: float, s: str, size: float, colour: Color, face: str = "Sans",
          anchor: str = "start") -> None:
    dr.add(String(x, y, s, fontName=face, fontSize=size, fillColor=colour, textAnchor=anchor))


def _fit(s: str, width: float, face: str, size: float) -> str:
    """Shorten a label with an ellipsis so it stays inside its column."""
    if stringWidth(s, face, size) <= width:
        return s
    while s and stringWidth(s + "…", face, size) > width:
        s = s[:-1]
    return s + "…"


def _nice_max(v: float, ticks: int = 4) -> float:
    """A round axis maximum at or above v whose `ticks` equal steps are round too (1, 2, 2.5, 5 x 10^k)."""
    if v <= 0:
        return float(ticks)
    mag = 1.0
    while mag * ticks * 10 < v:
        mag *= 10
    while mag * ticks > v and mag > 1e-6:
        mag /= 10
    for step in (1, 2, 2.5, 5, 10):
        if step * mag * ticks >= v:
            return step * mag * ticks
    return 10 * mag * ticks


def _axis_y(dr: Drawing, st: Style, x: float, y: float, w: float, h: float, top: float, fmt: str) -> None:
    """Horizontal grid lines with labels at 0, 1/4, ... of `top`."""
    for i in range(5):
        yy = y + h * i / 4
        dr.add(Line(x, yy, x + w, yy, strokeColor=st.ink["grid"], strokeWidth=0.4))
        _text(dr, x - 3, yy - 2.2, fmt.format(top * i / 4), st.font["small"], st.ink["muted"], anchor="end")


def _seat_panel(dr: Drawing, st: Style, res: dict[str, Any], x: float, y: float, w: float, h: float) -> None:
    rates = [float(r) for r in res["seat_win_rate"]]
    cis = [(float(lo), float(hi)) for lo, hi in res["seat_win_ci95"]]
    labels = [f"seat {i + 1}" for i in range(len(rates))]
    n = len(rates)
    agents = res.get("agent_win_rate", {})
    if len(agents) > 1:  # mixed bots: each bot's win rate per seat it took, beside the seats
        rates += [float(r) for r in agents.values()]
        cis += [(float(lo), float(hi)) for lo, hi in (res["agent_win_ci95"][a] for a in agents)]
        labels += list(agents)
    _text(dr, x, y + h - 10, "Wins by seat" + (" and by bot" if len(agents) > 1 else "") + " (95 % interval)",
          st.font["heading"], st.ink["text"], "Sans-Bold")
    stale = float(res.get("stalemate_rate", 0.0))
    fair = (1 - stale) / n if n else 0.0
    _text(dr, x, y + h - 21, f"seat 1 takes the first turn; red line: fair share {_pct(fair)}", st.font["small"],
          st.ink["muted"])
    px, py, pw, ph = x + 30, y + 16, w - 34, h - 44
    top = _nice_max(max([hi for _, hi in cis] + [fair, 0.01]) * 1.1)
    _axis_y(dr, st, px, py, pw, ph, top * 100, "{:g} %")
    slot = pw / max(len(rates), 1)
    bw = min(slot * 0.6, 60)
    for i, (r, (lo, hi)) in enumerate(zip(rates, cis, strict=True)):
        cx = px + slot * (i + 0.5)
        ink = st.ink["seat_bar"] if i < n else st.ink["agent_bar"]
        dr.add(Rect(cx - bw / 2, py, bw, ph * r / top, fillColor=ink, strokeColor=None))
        ylo, yhi = py + ph * lo / top, py + ph * hi / top
        for seg in ((cx, ylo, cx, yhi), (cx - 5, ylo, cx + 5, ylo), (cx - 5, yhi, cx + 5, yhi)):
            dr.add(Line(*seg, strokeColor=st.ink["error_bar"], strokeWidth=0.9))
        _text(dr, cx, yhi + 3, _pct(r), st.font["small"], st.ink["text"], anchor="middle")
        _text(dr, cx, py - 10, _fit(labels[i], slot - 2, "Sans", st.font["label"]), st.font["label"], st.ink["text"],
              anchor="middle")
    fy = py + ph * fair / top
    dr.add(Line(px, fy, px + slot * n, fy, strokeColor=st.ink["fair_line"], strokeWidth=1, strokeDashArray=[4, 3]))


def _bins(hist: dict[int, int]) -> tuple[list[tuple[int, int, int]], int]:
    """(first turn, last turn, games) bars, at most MAX_HIST_BARS of them, and the bin width."""
    lo, hi = min(hist), max(hist)
    width = max(1, -(-(hi - lo + 1) // MAX_HIST_BARS))
    bars: list[tuple[int, int, int]] = []
    start = lo - (lo % width) if width > 1 else lo
    while start <= hi:
        games = sum(n for t, n in hist.items() if start <= t < start + width)
        bars.append((start, start + width - 1, games))
        start += width
    return bars, width


def _length_panel(dr: Drawing, st: Style, res: dict[str, Any], x: float, y: float, w: float, h: float) -> None:
    hist = {int(t): int(n) for t, n in res.get("turn_histogram", {}).items()}
    _text(dr, x, y + h - 10, "Game length (turns)", st.font["heading"], st.ink["text"], "Sans-Bold")
    note = (f"mean {res['turns_mean']:.1f}, median {res['turns_p50']}, 95th percentile {res['turns_p95']}; "
            f"stalemates {res['stalemates']} ({_pct(float(res.get('stalemate_rate', 0.0)))})")
    _text(dr, x, y + h - 21, note, st.font["small"], st.ink["muted"])
    stale = int(res.get("stalemates", 0))
    cap = res.get("turn_cap")
    if stale and cap is not None:  # games stopped at the cap get their own red bar, apart from the others
        hist[int(cap)] = hist.get(int(cap), 0) - stale
        hist = {t: n for t, n in hist.items() if n > 0}
    if not hist and not stale:
        return
    px, py, pw, ph = x + 30, y + 16, w - 34, h - 44
    bars, width = _bins(hist) if hist else ([], 1)
    top = _nice_max(max([n for _, _, n in bars] + [stale]))
    _axis_y(dr, st, px, py, pw, ph, top, "{:g}")
    cap_w = pw / (len(bars) + 3) * 2 if stale else 0.0
    slot = (pw - cap_w) / max(len(bars), 1)
    for i, (_, _, n) in enumerate(bars):
        if n == 0:
            continue
        dr.add(Rect(px + slot * i + 0.4, py, max(slot - 0.8, 0.5), ph * n / top, fillColor=st.ink["hist_bar"],
                    strokeColor=None))
    every = max(1, round(len(bars) / 8))
    for i, (a, _, _) in enumerate(bars):
        if i % every == 0:
            _text(dr, px + slot * i, py - 10, str(a), st.font["small"], st.ink["muted"])
    if stale:
        cx = px + pw - cap_w / 2
        dr.add(Rect(cx - slot / 2 + 0.4, py, max(slot - 0.8, 0.5), ph * stale / top, fillColor=st.ink["cap_bar"],
                    strokeColor=None))
        _text(dr, cx, py - 10, f"cap {cap}", st.font["small"], st.ink["cap_bar"], anchor="middle")
    if not bars:
        return

    def mark(turns: int, colour: Color, label: str, dy: float) -> None:
        if turns > bars[-1][1]:
            return
        mx = px + slot * ((turns - bars[0][0]) / width + 0.5)
        dr.add(Line(mx, py, mx, py + ph, strokeColor=colour, strokeWidth=1, strokeDashArray=[3, 2]))
        _text(dr, mx + 2, py + ph - dy, label, st.font["small"], colour)

    mark(int(res["turns_p50"]), st.ink["median_line"], "median", 8)
    mark(int(res["turns_p95"]), st.ink["p95_line"], "95 %", 16)


def _impact_scale(cards: dict[str, dict[str, Any]], measure: str) -> float:
    """A symmetric axis, in points, that holds every interval (at least +-10)."""
    ends = [abs(float(v)) for c in cards.values() if c.get(measure, {}).get("ci95") for v in c[measure]["ci95"]]
    return _nice_max(max([*ends, 10.0]))


CARD_HEAD = 50  # points above the first card row: heading, note, legend, column labels


def _ways_legend(dr: Drawing, st: Style, cards: dict[str, dict[str, Any]], x: float, y: float) -> None:
    """A square of each way of playing that some card was played in, in stacking order."""
    used = {w for c in cards.values() for w in c.get("played_as", {})}
    for way, ink in st.ways.items():
        if way not in used:
            continue
        dr.add(Rect(x, y, 5, 5, fillColor=ink, strokeColor=None))
        _text(dr, x + 7, y + 0.6, way, st.font["small"], st.ink["text"])
        x += 7 + stringWidth(way, "Sans", st.font["small"]) + 9


def _plays_bar(dr: Drawing, st: Style, c: dict[str, Any], games: int, pmax: float, x: float, y: float,
               w: float, h: float) -> None:
    """The card's plays per game, stacked by the way it was played (a single bar when the JSON lacks it)."""
    ways = c.get("played_as")
    if not ways:
        dr.add(Rect(x, y, w * int(c["played"]) / games / pmax, h, fillColor=st.ink["play_bar"], strokeColor=None))
        return
    for way, ink in st.ways.items():
        n = int(ways.get(way, 0))
        if n:
            bw = w * n / games / pmax
            dr.add(Rect(x, y, bw, h, fillColor=ink, strokeColor=None))
            x += bw


def _card_panel(dr: Drawing, st: Style, res: dict[str, Any], x: float, y: float, w: float, h: float) -> None:
    cards: dict[str, dict[str, Any]] = res["cards"]
    games = max(int(res["games"]), 1)
    measure = str(res.get("impact_measure", "opening"))
    changes: dict[str, str] = res.get("changes") or {}
    _text(dr, x, y + h - 10, f"Cards: plays per game, and impact (win rate of players with it in the {measure} hand "
          "minus the others')", st.font["heading"], st.ink["text"], "Sans-Bold")
    note = (f"strongest first; bars: 95 % interval; red: |z| >= 3 (an outlier); red names: never played in {games} "
            "games; % of holders: how many of the players who held the card played it")
    if changes:
        note += f"; highlighted: changed against {res.get('changes_against') or 'the base set'}"
    _text(dr, x, y + h - 21, note, st.font["small"], st.ink["muted"])
    _ways_legend(dr, st, cards, x, y + h - 33)
    order = list(res.get("impact_ranking") or cards)
    top_y = y + h - CARD_HEAD
    col_w = (w - st.name_w - 3 * st.gap - st.value_w) / 2
    ux, wx = x + st.name_w + st.gap / 2, x + st.name_w + col_w + 2.5 * st.gap
    bar_w = col_w - st.held_w
    per_game = [int(cards[c]["played"]) / games for c in order]
    pmax = _nice_max(max([*per_game, 0.01]))
    span = _impact_scale(cards, measure)
    _text(dr, ux, top_y + 6, f"plays per game (0 to {pmax:g})", st.font["label"], st.ink["text"])
    _text(dr, ux + col_w, top_y + 6, "% of holders", st.font["label"], st.ink["text"], anchor="end")
    _text(dr, wx, top_y + 6, f"impact in points (-{span:g} to +{span:g})", st.font["label"], st.ink["text"])
    bottom = top_y - st.row * len(order)
    for i, name in enumerate(order):  # the designer's changes first, under everything else
        if name in changes:
            ry = top_y - st.row * (i + 1)
            dr.add(Rect(x, ry, w, st.row, fillColor=st.ink["changed"], strokeColor=None))
            _text(dr, x + 1, ry + st.row * 0.28, changes[name], st.font["small"], st.ink["change_tag"], "Sans-Oblique")
    for gx, gw in ((ux, bar_w), (wx, col_w)):
        for i in range(5):
            lx = gx + gw * i / 4
            dr.add(Line(lx, bottom, lx, top_y + 2, strokeColor=st.ink["grid"], strokeWidth=0.4))
    for i in range(5):
        _text(dr, ux + bar_w * i / 4, bottom - 9, f"{pmax * i / 4:g}", st.font["small"], st.ink["muted"],
              anchor="middle")
        _text(dr, wx + col_w * i / 4, bottom - 9, f"{span * (i - 2) / 2:+g}", st.font["small"], st.ink["muted"],
              anchor="middle")
    zx = wx + col_w / 2
    dr.add(Line(zx, bottom, zx, top_y + 2, strokeColor=st.ink["fair_line"], strokeWidth=0.8, strokeDashArray=[3, 2]))

    def at(points: float) -> float:
        return zx + col_w / 2 * max(-1.0, min(1.0, points / span))

    for i, name in enumerate(order):
        c = cards[name]
        ry = top_y - st.row * (i + 1)
        dead = int(c["played"]) == 0
        label = _fit(name, st.name_w - 2 - (stringWidth(changes[name] + "  ", "Sans", st.font["small"])
                                             if name in changes else 0), "Cond", st.font["label"])
        _text(dr, x + st.name_w, ry + st.row * 0.28, label, st.font["label"],
              st.ink["dead"] if dead else st.ink["text"], "Cond", anchor="end")
        if dead:
            _text(dr, ux + 2, ry + st.row * 0.28, "never played", st.font["small"], st.ink["dead"], "Sans-Oblique")
        else:
            _plays_bar(dr, st, c, games, pmax, ux, ry + st.row * 0.15, bar_w, st.row * 0.7)
        share = c.get("played_when_held")
        if share is not None:
            _text(dr, ux + col_w, ry + st.row * 0.28, f"{100 * float(share):.0f} %", st.font["small"],
                  st.ink["dead"] if dead else st.ink["text"], anchor="end")
        f = c.get(measure) or {}
        if f.get("diff") is None:
            continue
        cy = ry + st.row / 2
        ink = st.ink["outlier"] if abs(float(f["z"])) >= 3 else st.ink["win_dot"]
        lo, hi = (float(v) for v in f["ci95"])
        dr.add(Line(at(lo), cy, at(hi), cy, strokeColor=st.ink["error_bar"], strokeWidth=0.7))
        dr.add(Rect(at(float(f["diff"])) - 1.8, cy - 1.8, 3.6, 3.6, fillColor=ink, strokeColor=None))
        _text(dr, wx + col_w + 2, cy - 2.2, f"{float(f['diff']):+.1f} (z {float(f['z']):+.1f})", st.font["small"],
              ink)


def _required(res: dict[str, Any]) -> None:
    need = ("set", "games", "players", "agent", "seed", "seat_win_rate", "seat_win_ci95", "turns_mean", "turns_p50",
            "turns_p95", "stalemates", "cards")
    missing = [k for k in need if k not in res]
    if missing:
        raise ReportError(f"simulation results lack {', '.join(missing)}; redo them with `cardgen simulate --json`")


def report_drawing(res: dict[str, Any]) -> Drawing:
    """The whole report as one reportlab Drawing (the page grows taller for sets with many cards)."""
    _required(res)
    register_fonts()
    st = style()
    n_cards = len(res["cards"])
    card_h = CARD_HEAD + st.row * n_cards + 14
    agree_h = st.top_h * 1.4 if res.get("rank_agreement") else 0.0
    height = max(st.min_height, 2 * st.margin + 36 + st.top_h + st.gap + card_h + (st.gap + agree_h if agree_h else 0))
    dr = Drawing(st.width, height)
    m = st.margin
    title = res.get("title") or res["set"]
    _text(dr, m, height - m - 12, f"Simulated games: {title}", st.font["title"], st.ink["text"], "Sans-Bold")
    viol = int(res.get("invariant_violations", 0))
    sub = (f"set {res['set']} · {res['games']} games · {res['players']} players · agent {res['agent']} · "
           f"seed {res['seed']} · invariant violations {viol}")
    _text(dr, m, height - m - 26, sub, st.font["subtitle"], st.ink["dead"] if viol else st.ink["muted"])
    inner = st.width - 2 * m
    half = (inner - st.gap) / 2
    ty = height - m - 36 - st.top_h
    _seat_panel(dr, st, res, m, ty, half, st.top_h)
    _length_panel(dr, st, res, m + half + st.gap, ty, half, st.top_h)
    _card_panel(dr, st, res, m, ty - st.gap - card_h, inner, card_h)
    if agree_h:
        _agreement_panel(dr, st, res, m, ty - 2 * st.gap - card_h - agree_h, inner, agree_h)
    return dr


def _agreement_panel(dr: Drawing, st: Style, res: dict[str, Any], x: float, y: float, w: float, h: float) -> None:
    """Each card's impact under this run's bot against its impact under the other bot, with the rank
    correlations: points near the diagonal, and a rho near 1, mean the cheap bot ranks cards alike."""
    ag = res["rank_agreement"]
    _text(dr, x, y + h - 10, f"Card ranking: agent {res['agent']} against {ag['against']} (same games)",
          st.font["heading"], st.ink["text"], "Sans-Bold")
    _text(dr, x, y + h - 21, f"Spearman rho {ag['spearman']}, Kendall tau {ag['kendall']} over {ag['cards']} cards; "
          "each dot a card's impact in points; dashed: equal impact", st.font["small"], st.ink["muted"])
    pts = [(float(a), float(b)) for a, b in ag["impact"].values()]
    if not pts:
        return
    span = _nice_max(max([abs(v) for p in pts for v in p] + [10.0]))
    side = h - 44
    px, py = x + 40, y + 16
    for i in range(5):
        v = span * (i - 2) / 2
        gx, gy = px + side * i / 4, py + side * i / 4
        dr.add(Line(gx, py, gx, py + side, strokeColor=st.ink["grid"], strokeWidth=0.4))
        dr.add(Line(px, gy, px + side, gy, strokeColor=st.ink["grid"], strokeWidth=0.4))
        _text(dr, gx, py - 9, f"{v:+g}", st.font["small"], st.ink["muted"], anchor="middle")
        _text(dr, px - 3, gy - 2.2, f"{v:+g}", st.font["small"], st.ink["muted"], anchor="end")
    dr.add(Line(px, py, px + side, py + side, strokeColor=st.ink["fair_line"], strokeWidth=0.8,
                strokeDashArray=[3, 2]))
    _text(dr, px + side / 2, py - 18, f"impact under {ag['against']}", st.font["label"], st.ink["text"],
          anchor="middle")
    _text(dr, px + side + 8, py + side - 4, f"vertical: impact under {res['agent']}", st.font["label"],
          st.ink["text"])

    def at(v: float) -> float:
        return side * (max(-span, min(span, v)) + span) / (2 * span)

    ranked = sorted(ag["impact"].items(), key=lambda kv: -abs(float(kv[1][1]) - float(kv[1][0])))
    for a, b in ag["impact"].values():
        dr.add(Rect(px + at(float(a)) - 1.6, py + at(float(b)) - 1.6, 3.2, 3.2, fillColor=st.ink["win_dot"],
                    strokeColor=None))
    _text(dr, px + side + 8, py + side - 16, "largest disagreements:", st.font["small"], st.ink["muted"])
    for i, (name, (a, b)) in enumerate(ranked[:6]):
        _text(dr, px + side + 8, py + side - 26 - 9 * i, f"{name}: {float(a):+.1f} -> {float(b):+.1f}",
              st.font["small"], st.ink["text"])


def report_pdf(res: dict[str, Any], drawing: Callable[[dict[str, Any]], Drawing] | None = None) -> bytes:
    """The report as PDF bytes (invariant: the same results give the same bytes)."""
    dr = (drawing or report_drawing)(res)
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(dr.width, dr.height), invariant=1, initialFontName="Sans")
    c.setTitle(f"Simulated games: {res.get('set') or res.get('b')}")
    c.setCreator("cardgen simulate")
    renderPDF.draw(dr, c, 0, 0)
    c.showPage()
    c.save()
    return buf.getvalue()


def report_png(res: dict[str, Any], dpi: float | None = None,
               drawing: Callable[[dict[str, Any]], Drawing] | None = None) -> bytes:
    """The report rasterised from its PDF (so PNG and PDF cannot differ)."""
    import pypdfium2

    pdf = report_pdf(res, drawing)
    doc = pypdfium2.PdfDocument(pdf)
    try:
        image = doc[0].render(scale=(dpi or style().dpi) / 72).to_pil().convert("RGB")
    finally:
        doc.close()
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def report_bytes(res: dict[str, Any], suffix: str,
                 drawing: Callable[[dict[str, Any]], Drawing] | None = None) -> bytes:
    """PDF or PNG bytes by file suffix (".pdf" / ".png")."""
    kind = suffix.lower()
    if kind == ".pdf":
        return report_pdf(res, drawing)
    if kind == ".png":
        return report_png(res, drawing=drawing)
    raise ReportError(f"--report must end in .pdf or .png, not '{suffix or '(no suffix)'}'")


def compare_drawing(res: dict[str, Any]) -> Drawing:
    """The `cardgen compare` chart: each card's change of impact from A to B with its 95 % interval, flagged
    cards in red, and the seat win rates of both versions."""
    missing = [k for k in ("a", "b", "cards", "seats", "impact_measure", "flagged") if k not in res]
    if missing:
        raise ReportError(f"comparison results lack {', '.join(missing)}; redo them with `cardgen compare --json`")
    register_fonts()
    st = style()
    m = str(res["impact_measure"])
    names = [n for n, c in res["cards"].items() if "change" in c.get(m, {})]
    names.sort(key=lambda n: -float(res["cards"][n][m]["change"]))
    height = max(st.min_height, 2 * st.margin + 84 + st.row * len(names) + 40)
    dr = Drawing(st.width, height)
    x0, top = st.margin, height - st.margin
    _text(dr, x0, top - 12, f"Compared: {res['a']} -> {res['b']}", st.font["title"], st.ink["text"], "Sans-Bold")
    _text(dr, x0, top - 26, f"{res['games']} games each · {res['players']} players · agent {res['agent']} · seed "
          f"{res['seed']} · {res['common_random_numbers']}", st.font["subtitle"], st.ink["muted"])
    facts = []
    if res["seats"]:
        facts.append("Seat win rates: " + "; ".join(f"seat {s['seat']} {_pct(float(s['a']))} -> "
                                                    f"{_pct(float(s['b']))} (Holm p {s['p_holm']:.3g})"
                                                    for s in res["seats"]))
    length = res.get("length")
    if length and "b" in length:
        facts.append(f"Game length: {float(length['a']):.1f} -> {float(length['b']):.1f} turns "
                     f"({float(length['change']):+.1f}, 95 % interval {float(length['low']):+.1f} to "
                     f"{float(length['high']):+.1f})")
    _text(dr, x0, top - 38, "  ·  ".join(facts), st.font["small"], st.ink["text"])
    changes: dict[str, str] = res.get("changes") or {}
    refs: dict[str, str] = res.get("references") or {}
    _text(dr, x0, top - 56, f"Change of each card's impact ({m} hand), B minus A, in points, with its 95 % interval; "
          f"red: flagged (Holm-adjusted p < {res['alpha']:g})", st.font["heading"], st.ink["text"], "Sans-Bold")
    if changes:
        _text(dr, x0, top - 65, "highlighted: the cards you changed; a new card's figure is against the base card "
              "at the edge of its role's band (named)", st.font["small"], st.ink["muted"])
    span = _nice_max(max([abs(float(v)) for n in names for v in res["cards"][n][m]["ci95"]] + [10.0]))
    cx0 = x0 + st.name_w + st.gap
    cw = st.width - st.margin - cx0 - st.value_w - 40
    y_top = top - 74
    bottom = y_top - st.row * len(names)
    for i, name in enumerate(names):  # the designer's changes first, under everything else
        if name in changes:
            ry = y_top - st.row * (i + 1)
            dr.add(Rect(x0, ry, st.width - 2 * st.margin, st.row, fillColor=st.ink["changed"], strokeColor=None))
            _text(dr, x0 + 1, ry + st.row * 0.28, changes[name], st.font["small"], st.ink["change_tag"],
                  "Sans-Oblique")
    mid = cx0 + cw / 2
    for i in range(5):
        lx = cx0 + cw * i / 4
        dr.add(Line(lx, bottom, lx, y_top + 2, strokeColor=st.ink["grid"], strokeWidth=0.4))
        _text(dr, lx, bottom - 9, f"{span * (i - 2) / 2:+g}", st.font["small"], st.ink["muted"], anchor="middle")
    dr.add(Line(mid, bottom, mid, y_top + 2, strokeColor=st.ink["fair_line"], strokeWidth=0.8, strokeDashArray=[3, 2]))

    def at(points: float) -> float:
        return mid + cw / 2 * max(-1.0, min(1.0, points / span))

    for i, name in enumerate(names):
        row = res["cards"][name][m]
        ry = y_top - st.row * (i + 1)
        cy = ry + st.row / 2
        ink = st.ink["outlier"] if row.get("flagged") else st.ink["win_dot"]
        _text(dr, x0 + st.name_w, ry + st.row * 0.28, _fit(name, st.name_w - 2, "Cond", st.font["label"]),
              st.font["label"], st.ink["outlier"] if row.get("flagged") else st.ink["text"], "Cond", anchor="end")
        lo, hi = (float(v) for v in row["ci95"])
        dr.add(Line(at(lo), cy, at(hi), cy, strokeColor=st.ink["error_bar"], strokeWidth=0.7))
        dr.add(Rect(at(float(row["change"])) - 1.8, cy - 1.8, 3.6, 3.6, fillColor=ink, strokeColor=None))
        if name in refs:
            detail = f"vs {refs[name]}; "
        else:
            a, b = row["a"].get("diff"), row["b"].get("diff")
            detail = (f"A {float(a):+.1f}, " if a is not None else "") + (f"B {float(b):+.1f}; " if b is not None
                                                                           else "")
        _text(dr, cx0 + cw + 4, cy - 2.2, f"{float(row['change']):+.1f}  ({detail}Holm p {float(row['p_holm']):.3g})",
              st.font["small"], ink)
    return dr


def compare_report_bytes(res: dict[str, Any], suffix: str) -> bytes:
    """The comparison chart as PDF or PNG bytes."""
    return report_bytes(res, suffix, compare_drawing)
