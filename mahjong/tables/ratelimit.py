"""A per-user token bucket on the messages a player sends to a table (WebSocket frames and
HTTP actions alike): a flood gets "slow down" errors, never a disconnect.

The bucket refills ``TABLES_ACTION_RATE`` tokens a second up to ``TABLES_ACTION_BURST``.
A player acts at most once per version of the hand and pings every 20 s, so honest play
stays far below the refill rate and a double click or a burst of claims fits in the
burst: only scripted floods ever run dry.

The bucket lives in the cache, so every web process sees the same one. On Redis the
refill-and-take is one Lua script (atomic across processes); other caches are
per-process, where a lock makes the read-modify-write atomic.
"""

from __future__ import annotations

import threading
import time
import weakref

from django.conf import settings
from django.core.cache import cache

DEFAULT_RATE = 10.0  # tokens per second
DEFAULT_BURST = 20

# KEYS[1] the bucket; ARGV now, rate, burst. Stores "tokens at time"; returns 1 if a
# token was taken. The key expires once a full refill has certainly happened.
_TAKE = """
local now, rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local saved = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens, at = tonumber(saved[1]), tonumber(saved[2])
if tokens == nil then tokens, at = burst, now end
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local taken = 0
if tokens >= 1 then tokens = tokens - 1; taken = 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('EXPIRE', KEYS[1], math.ceil(burst / rate) + 1)
return taken
"""

_local_lock = threading.Lock()
clock = time.time  # seconds; tests stop it


def limits() -> tuple[float, int]:
    rate = float(getattr(settings, "TABLES_ACTION_RATE", DEFAULT_RATE))
    burst = int(getattr(settings, "TABLES_ACTION_BURST", DEFAULT_BURST))
    return rate, burst


def allow(user_id: int, now: float | None = None) -> bool:
    """Take one token from this user's bucket; False when it is empty."""
    rate, burst = limits()
    now = clock() if now is None else now
    key = cache.make_key(f"tables:bucket:{user_id}")
    take = _redis_script()
    if take is not None:
        return bool(take(keys=[key], args=[repr(now), repr(rate), burst]))
    return _allow_in_process(key, now, rate, burst)


# Per cache backend (tests swap caches): the script on a client of the cache's primary,
# kept. Django's RedisCache makes a new client object on every call, and EVAL sends the
# script's text every time; a registered script is sent by its hash (EVALSHA).
_scripts: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _redis_script():
    inner = getattr(cache, "_cache", None)  # Django's RedisCache wraps a client factory
    get_client = getattr(inner, "get_client", None)
    if get_client is None:
        return None
    script = _scripts.get(inner)
    if script is None:
        script = _scripts[inner] = get_client(write=True).register_script(_TAKE)
    return script


def _allow_in_process(key: str, now: float, rate: float, burst: int) -> bool:
    with _local_lock:
        tokens, at = cache.get(key, (float(burst), now))
        tokens = min(burst, tokens + max(0.0, now - at) * rate)
        taken = tokens >= 1
        cache.set(key, (tokens - taken, now), timeout=int(burst / rate) + 2)
        return taken
