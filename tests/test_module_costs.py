"""The run's order of test modules (tests/module_costs.py): the most expensive first, the site's build covered."""

from types import SimpleNamespace

from module_costs import UNRECORDED_SECONDS, run_order, seconds_per_module


def item(nodeid, *fixtures):
    return SimpleNamespace(nodeid=nodeid, fixturenames=["request", *fixtures])


def test_modules_run_the_most_expensive_first_keeping_their_own_order():
    items = [item("tests/test_a.py::one"), item("tests/browser/test_b.py::one", "site_dir"),
             item("tests/test_a.py::two"), item("tests/test_c.py::one", "site_dir"), item("tests/test_new.py::one"),
             item("tests/browser/test_b.py::two", "page")]
    recorded = {"tests/test_a.py": 5, "tests/browser/test_b.py": 100, "tests/test_c.py": UNRECORDED_SECONDS + 1}
    order = [i.nodeid for i in run_order(items, recorded)]
    # test_b and test_c use the site: the most expensive module without it (test_new, not recorded) comes
    # second, so that the second worker has work while the first builds the site.
    assert order == ["tests/browser/test_b.py::one", "tests/browser/test_b.py::two", "tests/test_new.py::one",
                     "tests/test_c.py::one", "tests/test_a.py::one", "tests/test_a.py::two"]


def test_the_expensive_order_stands_when_the_second_module_does_not_use_the_site():
    items = [item("tests/test_a.py::one", "site_dir"), item("tests/test_b.py::one"), item("tests/test_c.py::one")]
    order = [i.nodeid for i in run_order(items, {"tests/test_a.py": 3, "tests/test_b.py": 2, "tests/test_c.py": 1})]
    assert order == ["tests/test_a.py::one", "tests/test_b.py::one", "tests/test_c.py::one"]


def test_recorded_seconds_are_summed_per_module_from_a_junit_report(tmp_path):
    report = tmp_path / "run.xml"
    report.write_text("""<testsuites><testsuite>
        <testcase classname="tests.test_layering" name="a" time="1.25"/>
        <testcase classname="tests.test_layering" name="b[x]" time="2"/>
        <testcase classname="tests.browser.test_parity" name="c" time="3.5"/>
        </testsuite></testsuites>""")
    assert seconds_per_module(report) == {"tests/browser/test_parity.py": 3.5, "tests/test_layering.py": 3.2}
