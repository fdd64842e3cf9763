"""``python -m bench.engine``: see run.py."""

from bench.engine.run import main

raise SystemExit(main())
