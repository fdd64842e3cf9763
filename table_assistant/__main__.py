import sys

from table_assistant.cli import main

# Guarded: the second card reader is a spawned process, which imports this module again
# (as "__mp_main__") and must not run the command a second time.
if __name__ == "__main__":
    sys.exit(main())
