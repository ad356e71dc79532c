"""Small counters in the cache (Redis in production, shared by every web process) that
slow down password guessing and sign-up farming of the free beans."""

from django.conf import settings
from django.core.cache import cache


def client_ip(request) -> str:
    # mahjong.client_address has already put the address our own proxies saw here
    # (TRUSTED_PROXY_HOPS); the client cannot choose it by writing X-Forwarded-For.
    return request.META.get("REMOTE_ADDR", "unknown")


def count(key: str) -> int:
    return cache.get(key, 0)


def hit(key: str, window: int) -> int:
    """Count one event in a window that starts at the first event; return the new count."""
    cache.add(key, 0, timeout=window)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=window)
        return 1


def reset(key: str) -> None:
    cache.delete(key)


def login_key(request, username: str) -> str:
    return f"login-fail:{client_ip(request)}:{username.strip().lower()}"


def signup_key(request) -> str:
    return f"signup:{client_ip(request)}"


def login_blocked(request, username: str) -> bool:
    return count(login_key(request, username)) >= settings.LOGIN_FAILURE_LIMIT


def signup_allowed(request) -> bool:
    return hit(signup_key(request), 24 * 3600) <= settings.SIGNUPS_PER_IP_PER_DAY
