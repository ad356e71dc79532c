import pytest


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # Registration hashes a password per player; PBKDF2's deliberate slowness is not
    # what these tests are about.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def empty_cache():
    # Throttle counters live in the cache; each test starts with none.
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
