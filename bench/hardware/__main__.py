"""``python -m bench.hardware``: see run.py."""

from bench.hardware.run import main

if __name__ == "__main__":
    raise SystemExit(main())
