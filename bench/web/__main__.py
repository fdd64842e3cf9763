"""``python -m bench.web``: see run.py."""

from bench.web.run import main

if __name__ == "__main__":
    raise SystemExit(main())
