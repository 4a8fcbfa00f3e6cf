import sys

if sys.version_info < (3, 11):  # before any import that needs it (tomllib): one clear line instead
    sys.exit(f"error: the grader needs Python 3.11 or later; this is Python {sys.version.split()[0]}")

from grader.cli import main  # noqa: E402

sys.exit(main())
