"""The order in which test modules run: the most expensive first, so that pytest-xdist (--dist loadscope,
a module per worker at a time, tests/run.sh) ends with small modules on every worker instead of one worker
finishing a long module alone while the others are idle.

The cost of a module is its tests' seconds in a recorded run (module_seconds.json). To record them again:

    bash tests/run.sh --junitxml=/tmp/run.xml && PYTHONPATH=. python3 tests/module_costs.py /tmp/run.xml
"""

import json
import sys
import xml.etree.ElementTree as ElementTree
from collections import defaultdict
from pathlib import Path

from grader.instructor.outputs.atomic import write_atomically

RECORDED = Path(__file__).with_name("module_seconds.json")
TESTS = RECORDED.parent
# A module not recorded yet: assumed fairly expensive, since one that starts late is what stretches the run.
UNRECORDED_SECONDS = 60


def run_order(items, recorded):
    """`items` grouped by module, the most expensive module first (then by path); a module's own order is kept.

    The site's build (the session fixture `site_dir`) is made by the first worker that asks for it while the
    others wait: the second module is the most expensive one that does not use the site, so that the second
    worker has work of its own during the build.
    """
    modules = defaultdict(list)
    for item in items:
        modules[item.nodeid.split("::")[0]].append(item)
    order = sorted(modules, key=lambda path: (-recorded.get(path, UNRECORDED_SECONDS), path))
    without_site = [path for path in order if not any("site_dir" in item.fixturenames for item in modules[path])]
    if len(order) > 2 and without_site and without_site[0] not in order[:2]:
        order.remove(without_site[0])
        order.insert(1, without_site[0])
    return [item for path in order for item in modules[path]]


def recorded_seconds():
    """{module path as pytest names it (tests/...): seconds}, or {} when nothing was recorded."""
    return json.loads(RECORDED.read_text()) if RECORDED.exists() else {}


def seconds_per_module(junit_xml):
    """{module path: sum of its tests' seconds} from a JUnit XML report of a run from the project's root."""
    seconds = defaultdict(float)
    for case in ElementTree.parse(junit_xml).iter("testcase"):
        parts = case.get("classname").split(".")
        # The class of a test in a class is the last part: the module is the longest prefix that is a file.
        path = next("/".join(parts[:end]) + ".py" for end in range(len(parts), 0, -1)
                    if (TESTS.parent / ("/".join(parts[:end]) + ".py")).is_file())
        seconds[path] += float(case.get("time"))
    return {path: round(total, 1) for path, total in sorted(seconds.items())}


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(f"usage: python3 {sys.argv[0]} JUNIT_XML")
    write_atomically(RECORDED, json.dumps(seconds_per_module(sys.argv[1]), indent=1) + "\n")
    print(f"wrote {RECORDED}")
