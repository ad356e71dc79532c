"""Settings come from the environment, refuse bad values loudly, and pass check --deploy."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from mahjong import settings as s

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "raw, expected", [("true", True), ("0", False), ("Yes", True), ("off", False), ("", True)]
)
def test_env_bool_accepts_the_usual_spellings(monkeypatch, raw, expected):
    monkeypatch.setenv("X_FLAG", raw)
    assert s.env_bool("X_FLAG", True) is expected


@pytest.mark.parametrize(
    "helper, raw, message",
    [
        (lambda: s.env_bool("X", False), "maybe", "X='maybe' is not a boolean"),
        (lambda: s.env_int("X", 1), "ten", "X='ten' is not a whole number"),
        (lambda: s.env_int("X", 1, minimum=5), "3", "X=3 must be at least 5"),
        (lambda: s.env_list("X", []), "a,,b", "empty item"),
    ],
)
def test_malformed_values_fail_loudly_naming_the_variable(monkeypatch, helper, raw, message):
    monkeypatch.setenv("X", raw)
    with pytest.raises(ImproperlyConfigured, match=message):
        helper()


def test_a_postgres_url_is_parsed_into_django_settings():
    db = s.parse_database_url("postgres://u%40x:p%2Fw@db.example.com:6543/game?sslmode=require")
    assert (db["ENGINE"], db["NAME"], db["USER"], db["PASSWORD"], db["HOST"], db["PORT"]) == (
        "django.db.backends.postgresql",
        "game",
        "u@x",
        "p/w",
        "db.example.com",
        "6543",
    )
    assert db["OPTIONS"] == {"sslmode": "require"}


def test_sqlite_urls_relative_absolute_and_memory():
    assert s.parse_database_url("sqlite:///var/x.sqlite3")["NAME"] == str(ROOT / "var/x.sqlite3")
    assert s.parse_database_url("sqlite:////tmp/x.sqlite3")["NAME"] == "/tmp/x.sqlite3"
    assert s.parse_database_url("sqlite:///:memory:")["NAME"] == ":memory:"


@pytest.mark.parametrize(
    "url, message",
    [
        ("mysql://root@localhost/db", "unsupported scheme 'mysql'"),
        ("postgres://localhost", "name exactly one database"),
        ("postgres://localhost:port/db", "port is not a number"),
        ("sqlite://", "sqlite:///relative/path"),
    ],
)
def test_bad_database_urls_are_refused(url, message):
    with pytest.raises(ImproperlyConfigured, match=message):
        s.parse_database_url(url)


def test_redis_urls():
    assert s.parse_redis_url("redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"
    assert s.celery_broker_url("unix:///tmp/r.sock") == "redis+socket:///tmp/r.sock"
    assert s.celery_broker_url("redis://h:1/2") == "redis://h:1/2"
    with pytest.raises(ImproperlyConfigured, match="redis://host:port/db"):
        s.parse_redis_url("http://localhost:6379")


def _django(args, **env):
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL"}
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**clean, **env},
        timeout=120,
    )


def test_it_refuses_to_start_with_debug_off_and_the_development_key():
    result = _django(["check"], DEBUG="false")
    assert result.returncode != 0
    assert "DEBUG is off but SECRET_KEY is the development key" in result.stderr


def test_a_malformed_env_value_stops_the_process():
    result = _django(["check"], DEBUG="perhaps")
    assert result.returncode != 0 and "DEBUG='perhaps' is not a boolean" in result.stderr


def test_check_deploy_is_clean_with_production_values():
    result = _django(
        ["check", "--deploy", "--fail-level", "DEBUG"],
        DEBUG="false",
        SECRET_KEY="x" * 20 + "a-long-random-production-secret-0123456789",
        ALLOWED_HOSTS="mahjong.example.com",
        DATABASE_URL="sqlite:///:memory:",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_tasks_are_sent_through_the_configured_celery_app(settings):
    """Not Celery's default app, whose broker is amqp://localhost."""
    from lobby.tasks import expire_ticket_if_stale

    app = expire_ticket_if_stale.app
    assert app.main == "mahjong"
    assert app.conf.broker_url == settings.CELERY_BROKER_URL
    assert app.conf.task_always_eager == settings.CELERY_TASK_ALWAYS_EAGER


def _pool_of(**env) -> subprocess.CompletedProcess:
    script = "from django.conf import settings; print(settings.DATABASES['default']['OPTIONS'])"
    return _django(["shell", "-c", script], **env)


def test_db_pool_gives_each_process_a_psycopg_pool_and_refuses_what_cannot_work():
    pg = "postgres://mahjong@127.0.0.1:5432/mahjong"
    result = _pool_of(DATABASE_URL=pg, DB_POOL="6")
    assert result.returncode == 0, result.stderr
    assert "'pool': {'min_size': 1, 'max_size': 6, 'timeout': 20}" in result.stdout
    assert "'prepare_threshold': 5" in result.stdout  # its connections live on
    plain = _pool_of(DATABASE_URL=pg).stdout
    assert "pool" not in plain and "prepare_threshold" not in plain  # off unless asked for
    assert "'server_side_binding': True" in plain
    client_side = _pool_of(DATABASE_URL=pg, DB_SERVER_BINDING="false").stdout
    assert "'server_side_binding': False" in client_side
    assert "server_side_binding" not in _pool_of(DATABASE_URL="sqlite:///:memory:").stdout
    refused = {
        "DB_POOL is for PostgreSQL": _pool_of(DATABASE_URL="sqlite:///:memory:", DB_POOL="4"),
        "exclude each other": _pool_of(DATABASE_URL=pg, DB_POOL="4", DB_CONN_MAX_AGE="60"),
        "DB_POOL=-1 must be at least 0": _pool_of(DATABASE_URL=pg, DB_POOL="-1"),
    }
    for message, result in refused.items():
        assert result.returncode != 0 and message in result.stderr, (message, result.stderr)


def test_with_redis_the_site_runs_the_pub_sub_layer_that_reports_redis_coming_back():
    script = "from django.conf import settings; print(settings.CHANNEL_LAYERS['default'])"
    result = _django(["shell", "-v", "0", "-c", script], REDIS_URL="redis://127.0.0.1:6379/9")
    assert result.returncode == 0, result.stderr
    assert "'BACKEND': 'mahjong.channel_layer.ResumingChannelLayer'" in result.stdout
    assert "'address': 'redis://127.0.0.1:6379/9'" in result.stdout


def test_make_run_serves_with_debug_off_unless_told_and_keeps_its_own_key(tmp_path, monkeypatch):
    from mahjong import run

    monkeypatch.setattr(run, "BASE_DIR", tmp_path)
    env = run.local_settings({"PATH": "/bin"})
    assert env["DEBUG"] == "false" and env["SECURE_SSL_REDIRECT"] == "false"
    assert len(env["SECRET_KEY"]) >= 50 and env["SECRET_KEY"] != s.DEV_SECRET_KEY
    assert run.local_settings({})["SECRET_KEY"] == env["SECRET_KEY"]  # made once
    assert (tmp_path / "var" / "secret_key").stat().st_mode & 0o077 == 0
    told = run.local_settings({"DEBUG": "1", "SECRET_KEY": "mine", "SECURE_COOKIES": "true"})
    assert (told["DEBUG"], told["SECRET_KEY"], told["SECURE_COOKIES"]) == ("1", "mine", "true")


def test_make_runs_settings_load_with_debug_off_and_pass_the_checks(tmp_path, monkeypatch):
    from mahjong import run

    monkeypatch.setattr(run, "BASE_DIR", tmp_path)
    env = run.local_settings({})
    result = _django(
        ["check", "--fail-level", "WARNING"],
        **{name: env[name] for name in (*run.LOCAL_DEFAULTS, "SECRET_KEY")},
        DATABASE_URL="sqlite:///:memory:",
    )
    assert result.returncode == 0, result.stdout + result.stderr
