"""``table-assistant``: the command line of SPEC §1.

Each command's handler imports what it needs when it runs, so ``deck check`` never
pays for OpenCV and ``recognize`` never starts a web server. The handlers for the
vision commands live in :mod:`table_assistant.recognize_command`.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Sequence
from typing import NoReturn

from assistant.editions import Edition, edition
from assistant.eras import DEFAULT_ERA, ERAS, UnknownEra
from assistant.mat_layout import MatLayout, MatLayoutError, load_layout
from assistant.paths import StorageError, home, usable_home
from assistant.quoting import quote
from table_assistant.messages import cut_short

ERA_HELP = f"rule edition: {', '.join(ERAS)} (default {DEFAULT_ERA}; 'standard' is an alias)"


def _era(value: str) -> Edition:
    """``--era`` read once, into the :class:`Edition` every command is handed."""
    try:
        return edition(value)
    except UnknownEra as error:
        raise argparse.ArgumentTypeError(cut_short(str(error))) from None


def _add_era(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--era", dest="edition", metavar="ERA", type=_era, default=DEFAULT_ERA,
                        help=ERA_HELP)


def _format(value: str) -> str:
    """``--format``: a format's name, checked here, looked up by the command."""
    from assistant.formats import UnknownFormat, format_named

    try:
        format_named(value)
    except UnknownFormat as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return value


def _add_address(parser: argparse.ArgumentParser) -> None:
    """Where the dashboard is (to be) served."""
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to serve on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=8000, help="the port to serve on (default 8000)")


def _add_decks(parser: argparse.ArgumentParser) -> None:
    """The two players' deck lists: names are read among their cards first."""
    parser.add_argument("--deck-a", metavar="F", help="player A's deck list (names are read among its cards first)")
    parser.add_argument("--deck-b", metavar="F", help="player B's deck list")


def _add_layout(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--layout", metavar="FILE",
                        help="the mat's zones as a JSON file (default: the usual playmat; see README.md)")


def _mat(args: argparse.Namespace) -> MatLayout | None:
    """``--layout``'s mat, read when the command runs: a bad file is one line, exit 2."""
    return load_layout(args.layout) if args.layout else None


def _add_record(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="PATH",
                        help="the game record (default $TABLE_ASSISTANT_HOME/games.sqlite)")


def _add_token(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--token", help="the console's token (default: a new one, printed at start)")


def _add_timeout(parser: argparse.ArgumentParser) -> None:
    """How long a live source may stay silent before the command gives up."""
    parser.add_argument("--timeout", type=_seconds, default=None, metavar="SECONDS",
                        help="give up on a camera or stream that sends no frame for this long (default 10)")


def _seconds(value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0, not {quote(value)}")
    return seconds


class _Version(argparse.Action):
    """``--version``. The version is looked up only when asked: importing
    ``importlib.metadata`` costs more than the rest of the command line's start."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **_: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="print the program's version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> NoReturn:
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("table-assistant")
        except PackageNotFoundError:
            found = "(version unknown: the package is not installed)"
        print(f"table-assistant {found}")
        parser.exit()


class _Parser(argparse.ArgumentParser):
    """argparse's parser, with its error messages cut short: argparse echoes a bad
    argument whole, and an argument can be 100 kB. Usage errors exit 2."""

    def error(self, message: str) -> NoReturn:
        super().error(cut_short(message))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="table-assistant",
        description="Watches a Pokémon TCG game on a playmat and keeps the game honest.",
        epilog="Data (the imported card database) lives in $TABLE_ASSISTANT_HOME "
               "(default ~/.local/share/table-assistant). Exit codes: see README.md.",
    )
    parser.add_argument("--version", action=_Version)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                     help="what to do ('table-assistant COMMAND --help' for its arguments)")

    demo = commands.add_parser("demo", help="the whole pipeline on a filmed demo game, with the dashboard")
    _add_address(demo)
    _add_era(demo)
    demo.add_argument("--once", action="store_true", help="end when the demo video does (default: serve until Ctrl-C)")
    demo.add_argument("--speed", type=float, default=1.0,
                      help="the video's pace: 1 is real time (default), 0 as fast as vision reads")
    _add_layout(demo)

    run = commands.add_parser("run", help="live: watch a camera, file, folder or stream")
    run.add_argument("--camera", required=True, help="camera index, file, image folder or URL")
    run.add_argument("--serial", default="none",
                     help="the coin device and damage displays: PORT, auto, sim or none (default none)")
    _add_decks(run)
    _add_era(run)
    _add_address(run)
    _add_timeout(run)
    _add_record(run)
    _add_token(run)
    _add_layout(run)
    run.add_argument("--once", action="store_true",
                     help="end when the source ends (a video file) instead of serving until Ctrl-C")

    mirror = commands.add_parser("mirror", help="infer table actions from a source, as JSON lines")
    mirror.add_argument("source", metavar="SRC", help="a video file, an image folder, a camera index or a stream URL")
    _add_decks(mirror)
    _add_era(mirror)
    mirror.add_argument("--json", action="store_true", help="print each action as one JSON line (SPEC §3)")
    _add_timeout(mirror)
    _add_layout(mirror)

    serve = commands.add_parser("serve", help="the dashboard and API alone, over a stored or new game")
    _add_address(serve)
    _add_record(serve)
    which = serve.add_mutually_exclusive_group()
    which.add_argument("--game", type=int, metavar="N", help="take up stored game N ('games' lists them)")
    which.add_argument("--new", action="store_true", help="start a new match instead of taking up the newest game")
    _add_era(serve)
    _add_token(serve)

    games = commands.add_parser("games", help="list the stored games and matches")
    _add_record(games)
    games.add_argument("--json", action="store_true", help="one JSON object with every game and match")

    markers = commands.add_parser("markers", help="write the playmat's four corner markers, to print")
    markers.add_argument("out", metavar="OUT", help="the file to write: a .png or a .pdf")

    recognize = commands.add_parser("recognize", help="find and name every card in images")
    recognize.add_argument("images", nargs="+", metavar="IMAGE",
                           help="image files (JPEG, PNG, ...), or folders of them")
    recognize.add_argument("--deck", action="append", default=[], metavar="F",
                           help="a deck list whose cards are read first (repeatable)")
    recognize.add_argument("--json", action="store_true", help="one JSON object per image (SPEC §2)")
    recognize.add_argument("--ocr", choices=("tesseract", "pp-ocr"), default="tesseract",
                           help="the text reader: Tesseract (default) or PP-OCR's learned recognizer")

    scenario = commands.add_parser("scenario", help="run position files or folders of them")
    scenario.add_argument("paths", nargs="+", metavar="PATH", help="a position file, or a folder of them")
    scenario.add_argument("--era", dest="edition", metavar="ERA", type=_era,
                          help="play every file under this era instead")
    scenario.add_argument("-v", "--verbose", action="store_true", help="print every file's result")

    deck = commands.add_parser("deck", help="deck lists")
    deck_commands = deck.add_subparsers(dest="deck_command", required=True, metavar="ACTION",
                                        help="what to do with a deck list")
    check = deck_commands.add_parser("check", help="check a deck list's legality")
    check.add_argument("file", metavar="F", help="the deck list (Pokémon TCG Live, PTCGO or deck-site text)")
    _add_era(check)
    check.add_argument("--format", type=_format, default=None, metavar="FORMAT",
                       help="the card pool: standard, expanded, unlimited, modified-2002, modified-2009, "
                            "modified-2011, or none (default: the era's own format; README 'Deck lists')")

    cards = commands.add_parser("cards", help="the local card database")
    card_commands = cards.add_subparsers(dest="cards_command", required=True, metavar="ACTION",
                                         help="what to do with the card database")
    importer = card_commands.add_parser("import", help="import pokemontcg.io card data")
    importer.add_argument("path", metavar="PATH",
                          help="a pokemontcg.io data folder (cards/en/*.json) or its release zip")
    return parser


#: The commands that never read or write under ``$TABLE_ASSISTANT_HOME`` (position
#: files carry their own cards); every other command, a new one too, has it checked.
NO_HOME = frozenset({"scenario"})


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command and give its exit code (SPEC §1; 2 for a usage error). Stored
    data that cannot be used is one line on stderr and exit 2, never a traceback."""
    args = build_parser().parse_args(argv)
    try:
        if args.command not in NO_HOME:
            usable_home()
        return HANDLERS[args.command](args)
    except (KeyboardInterrupt, BrokenPipeError):
        return 0
    except (StorageError, MatLayoutError) as error:
        return _fail(args, str(error))
    except sqlite3.DatabaseError as error:
        # Damage past a database's first page shows only when that part is read.
        return _fail(args, f"a database under {quote(str(home()))} cannot be read ({error}); "
                     "move the damaged file aside and run 'table-assistant cards import PATH' again")


def _fail(args: argparse.Namespace, message: str) -> int:
    """Exit 2 with ``message`` on stderr, after the command's name (``deck check``)."""
    action = getattr(args, f"{args.command}_command", None)
    print(f"table-assistant {args.command}{f' {action}' if action else ''}: {message}", file=sys.stderr)
    return 2


def _deck(args: argparse.Namespace) -> int:
    from assistant.formats import default_format, format_named
    from table_assistant.deck_command import check_deck_file

    deck_format = default_format(args.edition.era) if args.format is None else format_named(args.format)
    return check_deck_file(args.file, edition=args.edition, deck_format=deck_format, out=sys.stdout,
                           err=sys.stderr)


def _cards(args: argparse.Namespace) -> int:
    from table_assistant.cards_command import import_cards

    return import_cards(args.path, out=sys.stdout, err=sys.stderr)


def _scenario(args: argparse.Namespace) -> int:
    from assistant.scenario import run_paths

    return run_paths(args.paths, args.edition, verbose=args.verbose, out=sys.stdout, err=sys.stderr)


def _recognize(args: argparse.Namespace) -> int:
    from table_assistant.recognize_command import recognize

    return recognize(args.images, deck_files=args.deck, as_json=args.json, out=sys.stdout, ocr=args.ocr)


def _deck_files(args: argparse.Namespace) -> list[str]:
    return [f for f in (args.deck_a, args.deck_b) if f]


def _markers(args: argparse.Namespace) -> int:
    from table_assistant.markers_command import write_markers

    return write_markers(args.out, out=sys.stdout, err=sys.stderr)


def _mirror(args: argparse.Namespace) -> int:
    from table_assistant.mirror_command import mirror

    return mirror(args.source, deck_files=_deck_files(args), rules=args.edition, as_json=args.json, out=sys.stdout,
                  err=sys.stderr, give_up=args.timeout, mat=_mat(args))


def _run(args: argparse.Namespace) -> int:
    from table_assistant.run_command import run

    return run(args.camera, _deck_files(args), args.edition, serial=args.serial, host=args.host, port=args.port,
               db=args.db, token=args.token, once=args.once, give_up=args.timeout, out=sys.stdout, err=sys.stderr,
               mat=_mat(args))


def _serve(args: argparse.Namespace) -> int:
    from table_assistant.serve_command import serve

    return serve(args.db, args.game, args.new, args.edition, args.host, args.port, args.token, out=sys.stdout,
                 err=sys.stderr)


def _games(args: argparse.Namespace) -> int:
    from table_assistant.games_command import list_games

    return list_games(args.db, args.json, out=sys.stdout, err=sys.stderr)


def _demo(args: argparse.Namespace) -> int:
    from table_assistant.demo_command import demo

    return demo(host=args.host, port=args.port, era=args.edition, out=sys.stdout, err=sys.stderr, once=args.once,
                speed=args.speed, mat=_mat(args))


HANDLERS = {
    "demo": _demo,
    "run": _run,
    "mirror": _mirror,
    "markers": _markers,
    "serve": _serve,
    "games": _games,
    "recognize": _recognize,
    "scenario": _scenario,
    "deck": _deck,
    "cards": _cards,
}
