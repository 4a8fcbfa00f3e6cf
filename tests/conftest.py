"""Fixtures and hooks for the whole test suite."""

import pytest

from made_once import shipped_site
from module_costs import recorded_seconds, run_order


def pytest_collection_modifyitems(items):
    items[:] = run_order(items, recorded_seconds())


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory):
    """The shipped catalogue's site (made_once.shipped_site), built once for the whole run."""
    return shipped_site(tmp_path_factory)
