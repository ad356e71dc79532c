from urllib.parse import urlsplit, urlunsplit

import pytest


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # Registration hashes a password per player; PBKDF2's deliberate slowness is not
    # what these tests are about.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def default_language():
    """Each test starts in the site's language. The test client runs a request in the test's
    own thread, and LocaleMiddleware leaves that request's language active after it: a test
    whose client reads English made every later test's gettext English."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


def _private_cache_location(location: str) -> str:
    """The configured Redis server, database 15: clear() is a FLUSHDB, and database 0
    belongs to whatever else uses this server (a `make run`, the channel layer)."""
    parts = urlsplit(location)
    if parts.scheme not in ("redis", "rediss"):
        return location  # a unix socket: a private embedded server
    return urlunsplit(parts._replace(path="/15"))


@pytest.fixture(autouse=True)
def empty_cache(settings):
    # Throttle counters live in the cache; each test starts with none.
    from django.core.cache import cache

    cache_config = settings.CACHES["default"]
    if cache_config["BACKEND"].endswith("RedisCache"):
        location = _private_cache_location(cache_config["LOCATION"])
        settings.CACHES = {"default": {**cache_config, "LOCATION": location}}
    cache.clear()
    yield
    cache.clear()
