"""The relay's own settings: Channels and the Redis channel layer, nothing else (no
database, no sessions, no product apps). ``REDIS_URL`` is the stack's Redis database."""

import os

from mahjong import channel_layer

SECRET_KEY = "bench-relay-only"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = ["channels"]
ASGI_APPLICATION = "bench.relay.asgi.application"
USE_TZ = True
# the site's own layer (mahjong.channel_layer), so the relay measures what the game runs on
CHANNEL_LAYERS = {"default": channel_layer.setting(os.environ["REDIS_URL"], "bench-relay")}
