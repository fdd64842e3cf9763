"""``python -m bench.table``: see run.py."""

from bench.table.run import main

if __name__ == "__main__":
    raise SystemExit(main())
