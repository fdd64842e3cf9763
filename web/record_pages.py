"""The records as pages: the list of stored games and matches, and a match to print.

Rendered on the server from the JSON of :mod:`web.records` (no script needed, so a page
prints as it reads). Every text from the record goes through :func:`html.escape`: a
title or a reason is whatever a person typed, never markup.
"""

from __future__ import annotations

import time
from html import escape
from typing import Any

PRINT_STYLE = """
  .record { max-width: 48rem; margin: 0 auto; padding: 0.75rem; }
  .record table { width: 100%; border-collapse: collapse; }
  .record td, .record th { text-align: left; padding: 0.3rem 0.4rem; border-bottom: 1px solid #30363d;
                           vertical-align: top; }
  .record .seq { color: #8b949e; width: 3rem; }
  .record .cite { color: #8b949e; font-size: 0.85em; }
  @media print {
    body { background: #fff; color: #000; }
    .record td, .record th { border-bottom: 1px solid #bbb; }
    .record .seq, .record .cite { color: #444; }
    .record a { color: #000; text-decoration: none; }
    .no-print { display: none; }
  }
"""


def when(at: float | None) -> str:
    """A time from the record, as a person reads it (UTC)."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(at)) if at else "—"


def page(title: str, body: str) -> str:
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{escape(title)} · Table Assistant</title><link rel="stylesheet" href="/static/style.css">'
            f"<style>{PRINT_STYLE}</style></head>\n<body class=\"records\"><main class=\"record\">\n"
            f"<h1>{escape(title)}</h1>\n{body}\n</main></body></html>\n")


def list_page(records: dict[str, Any]) -> str:
    """The stored games and matches, newest first, each with its links."""
    matches = "".join(
        f'<tr data-testid="match-row"><td class="seq">{m["id"]}</td>'
        f'<td><a href="/records/matches/{m["id"]}">Match {m["id"]}</a></td>'
        f"<td>{when(m['created'])}</td><td>{len(m['games'])} game{'s' if len(m['games']) != 1 else ''}</td></tr>"
        for m in reversed(records["matches"]))
    games = "".join(
        f'<tr data-testid="game-row"><td class="seq">{g["id"]}</td>'
        f'<td><a href="/records/games/{g["id"]}">{escape(g["title"] or "game " + str(g["id"]))}</a></td>'
        f"<td>{escape(g['era'])}</td><td>{g['entries']} entries</td><td>{when(g['last_at'] or g['created'])}</td></tr>"
        for g in reversed(records["games"]))
    body = (f"<h2>Matches</h2>\n<table data-testid=\"matches\">{matches or '<tr><td>No match yet.</td></tr>'}</table>\n"
            f"<h2>Games</h2>\n<table data-testid=\"games\">{games or '<tr><td>No game yet.</td></tr>'}</table>\n"
            '<p class="no-print"><a href="/">Back to the scoreboard</a> · <a href="/api/records">as JSON</a></p>')
    return page("Records", body)


def _result(result: dict[str, Any] | None) -> str:
    if not result:
        return "not decided"
    why = ", ".join(str(reason).replace("_", " ") for reason in result.get("why") or ())
    return f"{result.get('winner')} wins" + (f" ({why})" if why else "")


def _table(testid: str, rows: list[tuple[int, str]], empty: str = "None.") -> str:
    """Numbered rows (the entry, then its text, already HTML) as a table."""
    body = "".join(f'<tr><td class="seq">{seq}</td><td>{text}</td></tr>' for seq, text in rows)
    return f'<table data-testid="{testid}">{body or f"<tr><td>{empty}</td></tr>"}</table>'


def _game(game: dict[str, Any], judge: bool) -> str:
    name = game["title"] or f"Game {game['id']}"
    parts = [f'<section data-testid="game"><h2>{escape(name)} <small>({escape(game["era"])})</small></h2>'
             f'<p data-testid="game-result">Result: {escape(_result(game["result"]))}</p>',
             "<h3>Timeline</h3>" + _table("timeline", [(e["seq"], "<br>".join(escape(line) for line in e["lines"]))
                                                       for e in game["timeline"]], "No entry.")]
    if judge:
        parts.append("<h3>Refusals</h3>" + _table("refusals", [
            (r["seq"], f'<code>{escape(r["reason"])}</code> {escape(r["message"])}'
                       f'<div class="cite">{escape(r["citation"] or "no rulebook line")}</div>')
            for r in game["refusals"]]))
    parts.append("<h3>Corrections</h3>" + _table("corrections", [
        (c["seq"], f'Back to entry {c["to"]}, taking back {", ".join(str(s) for s in c["undone"])}: '
                   f'{escape(c["reason"])} ({escape(c["by"])})')
        for c in game["corrections"]]))
    parts.append("<h3>Penalties</h3>" + _table("penalties", [
        (p["seq"], f'{escape(p["player"])}: {escape(p["kind"])} ({escape(p["reason"])})') for p in game["penalties"]]))
    parts.append(f'<p class="no-print"><a href="/records/games/{game["id"]}">Replay on the scoreboard</a></p>'
                 "</section>")
    return "\n".join(parts)


def match_page(match: dict[str, Any]) -> str:
    """A match's record, to read or print: the score and result, then each game."""
    judge = match["view"] == "judge"
    score = match["score"]
    result = f"{match['result']['winner']} wins the match" if match["result"] else "not decided"
    settings = match["settings"]
    head = (f'<p data-testid="match-result"><strong>{escape(result)}</strong> · games won: A {score["A"]}, '
            f'B {score["B"]}</p><p>{escape(str(settings.get("era", "")))}, best of {settings.get("best_of", 3)}, '
            f'{settings.get("round_minutes", "?")}-minute round · '
            f'{"the judge&#x27;s record, with refusals" if judge else "as spectators saw it"}</p>')
    games = "\n".join(_game(game, judge) for game in match["games"]) or "<p>No game yet.</p>"
    return page(f"Match {match['id']}", head + games + '\n<p class="no-print"><a href="/records">All records</a></p>')
