"""``table-assistant``: the command line of SPEC §1.

Each command's handler imports what it needs when it runs, so ``deck check`` never
pays for OpenCV and ``recognize`` never starts a web server. The handlers for the
vision commands live in :mod:`table_assistant.recognize_command`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from assistant.eras import DEFAULT_ERA, ERAS, UnknownEra, canonical_era

ERA_HELP = f"rule edition: {', '.join(ERAS)} (default {DEFAULT_ERA}; 'standard' is an alias)"


def _era(value: str) -> str:
    try:
        return canonical_era(value)
    except UnknownEra as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _add_era(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--era", type=_era, default=DEFAULT_ERA, help=ERA_HELP)


def _add_address(parser: argparse.ArgumentParser) -> None:
    """Where the dashboard is (to be) served."""
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="table-assistant",
        description="Watches a Pokémon TCG game on a playmat and keeps the game honest.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    demo = commands.add_parser("demo", help="the whole pipeline on embedded defaults")
    _add_address(demo)
    _add_era(demo)

    run = commands.add_parser("run", help="live: watch a camera, file, folder or stream")
    run.add_argument("--camera", required=True, help="camera index, file, image folder or URL")
    run.add_argument("--serial", default="none", help="PORT, auto, sim or none")
    run.add_argument("--deck-a")
    run.add_argument("--deck-b")
    _add_era(run)
    _add_address(run)

    mirror = commands.add_parser("mirror", help="infer table actions from a source, as JSON lines")
    mirror.add_argument("source")
    mirror.add_argument("--deck-a")
    mirror.add_argument("--deck-b")
    _add_era(mirror)
    mirror.add_argument("--json", action="store_true")

    serve = commands.add_parser("serve", help="the dashboard and API alone")
    _add_address(serve)
    serve.add_argument("--db")

    recognize = commands.add_parser("recognize", help="find and name every card in images")
    recognize.add_argument("images", nargs="+", metavar="IMAGE")
    recognize.add_argument("--deck", action="append", default=[], metavar="F")
    recognize.add_argument("--json", action="store_true")

    scenario = commands.add_parser("scenario", help="run position files or folders of them")
    scenario.add_argument("paths", nargs="+", metavar="PATH")
    scenario.add_argument("--era", type=_era, help="play every file under this era instead")
    scenario.add_argument("-v", "--verbose", action="store_true", help="print every file's result")

    deck = commands.add_parser("deck", help="deck lists")
    deck_commands = deck.add_subparsers(dest="deck_command", required=True, metavar="ACTION")
    check = deck_commands.add_parser("check", help="check a deck list's legality")
    check.add_argument("file", metavar="F")
    _add_era(check)

    cards = commands.add_parser("cards", help="the local card database")
    card_commands = cards.add_subparsers(dest="cards_command", required=True, metavar="ACTION")
    importer = card_commands.add_parser("import", help="import pokemontcg.io card data")
    importer.add_argument("path", metavar="PATH")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return HANDLERS[args.command](args)
    except (KeyboardInterrupt, BrokenPipeError):
        return 0


def _deck(args: argparse.Namespace) -> int:
    from table_assistant.deck_command import check_deck_file

    return check_deck_file(args.file, era=args.era, out=sys.stdout)


def _cards(args: argparse.Namespace) -> int:
    from table_assistant.cards_command import import_cards

    return import_cards(args.path, out=sys.stdout)


def _scenario(args: argparse.Namespace) -> int:
    from assistant.scenario import run_paths

    return run_paths(args.paths, era=args.era, verbose=args.verbose, out=sys.stdout)


def _recognize(args: argparse.Namespace) -> int:
    from table_assistant.recognize_command import recognize

    return recognize(args.images, deck_files=args.deck, as_json=args.json, out=sys.stdout)


def _deck_files(args: argparse.Namespace) -> list[str]:
    return [f for f in (args.deck_a, args.deck_b) if f]


def _mirror(args: argparse.Namespace) -> int:
    from table_assistant.mirror_command import mirror

    return mirror(args.source, deck_files=_deck_files(args), era=args.era, as_json=args.json, out=sys.stdout)


def _run(args: argparse.Namespace) -> int:
    """Live play. The dashboard and the serial device are not built yet, so for now the
    table actions the mirror infers (with their verdicts under ``--era``) are printed."""
    from table_assistant.mirror_command import mirror

    print(f"run: the dashboard (http://{args.host}:{args.port}/) and the serial device are not built yet; "
          "printing the table actions instead.", file=sys.stderr)
    return mirror(args.camera, deck_files=_deck_files(args), era=args.era, as_json=False, out=sys.stdout)


def _not_yet(args: argparse.Namespace) -> int:
    print(
        f"table-assistant {args.command}: not built yet. Try 'table-assistant deck check' "
        "on an embedded deck, or 'table-assistant scenario'.",
        file=sys.stderr,
    )
    return 2


def _demo(args: argparse.Namespace) -> int:
    from table_assistant.demo_command import demo

    return demo(host=args.host, port=args.port, era=args.era, out=sys.stdout)


HANDLERS = {
    "demo": _demo,
    "run": _run,
    "mirror": _mirror,
    "serve": _not_yet,
    "recognize": _recognize,
    "scenario": _scenario,
    "deck": _deck,
    "cards": _cards,
}
