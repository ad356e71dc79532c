"""The relay's own settings: Channels and the Redis channel layer, nothing else (no
database, no sessions, no product apps). ``REDIS_URL`` is the stack's Redis database."""

import os

SECRET_KEY = "bench-relay-only"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = ["channels"]
ASGI_APPLICATION = "bench.relay.asgi.application"
USE_TZ = True
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": [os.environ["REDIS_URL"]], "prefix": "bench-relay"},
    }
}
