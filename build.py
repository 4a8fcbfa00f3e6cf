"""Build the static site into _site/, or build it and serve it.

    python build.py [--out DIR] [--exercises DIR] [--pyodide-url URL | --pyodide-dist DIR] [--no-cache]
    python build.py serve [--port 8000] [--host 127.0.0.1] [same options]

Exit code 2 when the site cannot be built (the message says which file and why).
"""

import argparse
import dataclasses
import sys
import threading
from pathlib import Path

from sitebuild import BuildError, shown_path
from sitebuild.pipeline import BuildOptions, build_site
from sitebuild.live import BuildState, watch
from sitebuild.serve import serve

EXIT_UNUSABLE = 2


def main(argv=None):
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command != "serve" and (args.port is not None or args.host is not None):
        parser.error("--port and --host only go with the serve command")
    if args.pyodide_url and args.pyodide_dist:
        parser.error("give either --pyodide-url or --pyodide-dist, not both")
    options = BuildOptions(**{name: value for name, value in (
        ("out_dir", args.out), ("exercises_dir", args.exercises),
        ("pyodide_url", args.pyodide_url), ("pyodide_dist", args.pyodide_dist),
    ) if value is not None}, live_reload=args.command == "serve", include_drafts=args.command == "serve",
        use_cache=not args.no_cache)
    try:
        report = build_site(options)
    except BuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_UNUSABLE
    plural = "s" if report.exercises != 1 else ""
    print(f"Built {report.exercises} exercise{plural} into {shown_path(options.out_dir)} in {report.seconds:.2f} s "
          f"({report.summary()})")
    if report.cache_warning:
        print(f"warning: the build cache could not be written ({report.cache_warning}); "
              "the next build will redo the work", file=sys.stderr)
    if args.command == "serve":
        state = BuildState()
        folders = (options.exercises_dir, options.project_root / "site")
        # Rebuilds read the cache even after --no-cache: the first build has just refreshed it.
        rebuild_options = dataclasses.replace(options, use_cache=True)
        threading.Thread(target=watch, args=(rebuild_options, folders, state), daemon=True).start()
        print(f"Watching {', '.join(shown_path(f) for f in folders)}: pages rebuild and reload on change.")
        try:
            serve(options.out_dir, args.host or "127.0.0.1", 8000 if args.port is None else args.port, state,
                  isolate=options.pyodide_url is None)
        except OSError as exc:
            print(f"error: cannot serve on {args.host or '127.0.0.1'}:{args.port or 8000}: {exc.strerror}",
                  file=sys.stderr)
            return EXIT_UNUSABLE
    return 0


def _parser():
    parser = argparse.ArgumentParser(prog="python build.py", description="Build the exercise site (and serve it).")
    parser.add_argument("command", nargs="?", choices=("build", "serve"), default="build",
                        help="build (default) or build then serve over HTTP")
    parser.add_argument("--out", type=Path, metavar="DIR", help="output folder (default: _site/ in the project)")
    parser.add_argument("--exercises", type=Path, metavar="DIR",
                        help="folder of exercises to build (default: exercises/ in the project)")
    parser.add_argument("--pyodide-url", metavar="URL",
                        help="load Pyodide from this URL (e.g. a CDN) instead of copying it into the site")
    parser.add_argument("--pyodide-dist", type=Path, metavar="DIR",
                        help="take the self-hosted Pyodide from this official release folder "
                             "instead of node_modules + the wheel cache")
    parser.add_argument("--no-cache", action="store_true",
                        help="validate every exercise and bundle the scripts again instead of reusing earlier "
                             "results (formulas come from their own cache, keyed by KaTeX's version)")
    parser.add_argument("--port", type=int, help="serve: port to listen on (default: 8000)")
    parser.add_argument("--host", help="serve: address to listen on (default: 127.0.0.1)")
    return parser


if __name__ == "__main__":
    sys.exit(main())
