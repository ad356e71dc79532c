"""The end-to-end site runs on the suite's kind of database: PostgreSQL in CI (a database
of its own, made for the run), SQLite on a laptop."""

from __future__ import annotations

import os
import sqlite3
from urllib.parse import urlsplit

import pytest

from tests.e2e.conftest import _is_postgres

pytestmark = pytest.mark.e2e


def test_the_site_keeps_its_players_in_the_suites_kind_of_database(player, site_database):
    page = player("pam")
    name = page.inner_text(".topbar .me").split("·")[0].strip()
    assert name == "Pam"
    if _is_postgres(os.environ.get("DATABASE_URL", "")):
        import psycopg

        assert _is_postgres(site_database)
        assert urlsplit(site_database).path.startswith("/test_e2e_")
        with psycopg.connect(site_database) as conn:
            found = conn.execute(
                "SELECT count(*) FROM accounts_user WHERE nickname = %s", ["Pam"]
            ).fetchone()
    else:
        assert site_database.startswith("sqlite:///")
        with sqlite3.connect(site_database.removeprefix("sqlite:///")) as conn:
            found = conn.execute(
                "SELECT count(*) FROM accounts_user WHERE nickname = ?", ["Pam"]
            ).fetchone()
    assert found[0] >= 1
