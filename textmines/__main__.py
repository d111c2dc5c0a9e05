"""``python -m textmines``."""

from textmines.cli import main

raise SystemExit(main())
