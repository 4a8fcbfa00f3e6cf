"""Every exercise page in Chromium accepts its reference solution and rejects its starter.

A module of its own: it visits every page of the catalogue, the longest single test of the suite, and
pytest-xdist (--dist loadscope) hands out whole modules, so on its own it runs beside the other page tests.
"""

import json

from page_helpers import EXERCISES, editor_text, grade_in_page


def test_each_exercise_page_accepts_its_solution_and_rejects_its_starter(page, base_url):
    # One page, reaching each exercise by its link on the index (the runtime stays loaded).
    page.goto(f"{base_url}/index.html")
    wrong = {}
    for exercise_id in sorted(p.parent.name for p in EXERCISES.glob("*/exercise.toml")):
        page.click(f'a[href="exercises/{exercise_id}/"]')
        page.wait_for_function("id => document.body.dataset.exerciseId === id && window.editorView", arg=exercise_id)
        starter = (EXERCISES / exercise_id / "starter.py").read_text()
        shown = editor_text(page)
        starter_report = grade_in_page(page, shown)
        report = grade_in_page(page, (EXERCISES / exercise_id / "solution.py").read_text())
        if shown != starter or starter_report["passed"] or not report["passed"]:
            wrong[exercise_id] = {"editor shows the starter": shown == starter,
                                  "starter passed": starter_report["passed"], "solution": report}
        page.go_back()
        page.wait_for_function("document.body.dataset.exerciseId === undefined")
    assert not wrong, json.dumps(wrong, indent=1)
