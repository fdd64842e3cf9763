import sys

from table_assistant.cli import main

sys.exit(main())
