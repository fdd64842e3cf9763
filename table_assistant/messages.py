"""Messages to the user, kept readable whatever they quote.

Most messages quote an input with :func:`assistant.quoting.quote`; this is the last
guard for a whole message built elsewhere (by argparse, or around an input quoted whole),
so that no single error line can flood a terminal or a log.
"""

from __future__ import annotations

#: The longest message shown whole, in characters.
MESSAGE_LIMIT = 300


def cut_short(message: str, limit: int = MESSAGE_LIMIT) -> str:
    """``message``, or its first ``limit`` characters and the length of the whole."""
    if len(message) <= limit:
        return message
    return f"{message[:limit]}… ({len(message):,} characters)"
