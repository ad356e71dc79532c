"""The stack's floor: a bare Channels consumer that relays each message to the other
member of a two-person group through the Redis channel layer. It does what every game
push does minus the game (no database, no engine, no rendering), so the load driver can
put the game's figures next to what daphne + channels-redis alone manage on this machine.

    ws://HOST:PORT/relay/<pair>/   send any text; the other member of <pair> receives it
    ws://HOST:PORT/durable/<pair>/ the same after one durable write, and the sender gets
                                   it back too: the floor of a move (DurableRelayConsumer)
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.relay.settings")

import django

django.setup()

import asyncio  # noqa: E402

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402


class RelayConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.group = f"pair-{self.scope['url_route']['kwargs']['pair']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        await self.channel_layer.group_send(
            self.group, {"type": "relay", "text": text_data, "sender": self.channel_name}
        )

    async def relay(self, event):
        if event["sender"] != self.channel_name:
            await self.send(text_data=event["text"])

    async def layer_resumed(self, event):
        """Redis came back (mahjong.channel_layer): a relay has no state to refresh."""


# One statement in autocommit: a single round trip that PostgreSQL makes durable (the
# commit's WAL flush) before the answer, the least a move can write. The table is made by
# bench/stack.py (DURABLE_TABLE) before the processes start.
UPSERT = (
    "INSERT INTO bench_durable_relay (pair, version, body) VALUES (%s, 1, %s) "
    "ON CONFLICT (pair) DO UPDATE SET version = bench_durable_relay.version + 1, "
    "body = excluded.body RETURNING version"
)
_pool = None
_pool_lock = asyncio.Lock()


async def pool():
    """This process's connections to the stack's database, as many as the site's (DB_POOL)."""
    global _pool
    async with _pool_lock:
        if _pool is None:
            from psycopg_pool import AsyncConnectionPool

            size = int(os.environ.get("DB_POOL") or 8)
            _pool = AsyncConnectionPool(
                os.environ["DATABASE_URL"],
                min_size=1,
                max_size=size,
                kwargs={"autocommit": True},
                open=False,
            )
            await _pool.open()
        return _pool


class DurableRelayConsumer(RelayConsumer):
    """What a move cannot do without: the click written durably, the mover's own screen
    and the other one's updated. No lock, no read, no rules, no rendering: a floor for the
    game's figures, not a model of them."""

    async def connect(self):
        self.pair = self.scope["url_route"]["kwargs"]["pair"]
        await super().connect()

    async def receive(self, text_data=None, bytes_data=None):
        async with (await pool()).connection() as conn:
            await (await conn.execute(UPSERT, (self.pair, text_data))).fetchone()
        await self.send(text_data=text_data)
        await super().receive(text_data=text_data)


application = ProtocolTypeRouter(
    {
        "websocket": URLRouter(
            [
                path("relay/<str:pair>/", RelayConsumer.as_asgi()),
                path("durable/<str:pair>/", DurableRelayConsumer.as_asgi()),
            ]
        )
    }
)
