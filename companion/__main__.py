"""`python -m companion` works like the `companion` command."""

from companion.cli import main

raise SystemExit(main())
