"""``python -m textmines``."""

from textmines.launch import main

raise SystemExit(main())
