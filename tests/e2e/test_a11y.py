"""axe-core (from npm) run in chromium on the lobby, the table mid-hand and at the end of a
hand, the replay, the profile and the settings page, at both screen sizes: no serious or
critical violation."""

from __future__ import annotations

import pytest

from tests.e2e.tour import BLOCKING, PAGES, SIZES, tour  # noqa: F401

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", PAGES)
def test_no_serious_accessibility_violation(tour, size, name):  # noqa: F811
    blocking = [v for v in tour[size].violations[name] if v["impact"] in BLOCKING]
    assert blocking == []
