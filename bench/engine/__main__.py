"""``python -m bench.engine``: see run.py."""

from bench.engine.run import main

if __name__ == "__main__":  # as table_assistant/__main__.py
    raise SystemExit(main())
