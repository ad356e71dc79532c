"""The stack's floor: a bare Channels consumer that relays each message to the other
member of a two-person group through the Redis channel layer. It does what every game
push does minus the game (no database, no engine, no rendering), so the load driver can
put the game's figures next to what daphne + channels-redis alone manage on this machine.

    ws://HOST:PORT/relay/<pair>/   send any text; the other member of <pair> receives it
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.relay.settings")

import django  # noqa: E402

django.setup()

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


application = ProtocolTypeRouter(
    {"websocket": URLRouter([path("relay/<str:pair>/", RelayConsumer.as_asgi())])}
)
