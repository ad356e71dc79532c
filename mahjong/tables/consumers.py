"""The table's WebSocket: thin and synchronous (the ORM is involved). Authenticate, join
the table's group, pass actions to the service, and on every "hand changed" hint re-read
the hand and send this viewer's fragments as out-of-band swaps. No rule branching here.

Client -> server: {"action": "discard 5m", "version": 7} (htmx ws-send with hx-vals), and
{"ping": 1} every presence.HEARTBEAT seconds (table.js): the connection is alive.
Server -> client: HTML whose root elements carry hx-swap-oob (htmx's ws extension).
"""

from __future__ import annotations

import json

from asgiref.sync import async_to_sync
from channels.generic.websocket import JsonWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation.trans_real import (
    get_supported_language_variant,
    parse_accept_lang_header,
)

from . import presenters, services
from .models import Table

MAX_MESSAGE = 1024  # bytes; an action is a few dozen


def language_of(scope) -> str:
    """The page's language for pushes: the language cookie, else Accept-Language, as
    LocaleMiddleware chooses it for HTTP."""
    wanted = [scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME)]
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    wanted += [code for code, _q in parse_accept_lang_header(accept)]
    for code in filter(None, wanted):
        try:
            return get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


class TableConsumer(JsonWebsocketConsumer):
    table: Table
    seat_index: int
    language: str = ""

    def connect(self):
        user = self.scope.get("user")
        public_id = self.scope["url_route"]["kwargs"]["public_id"]
        table = Table.objects.filter(public_id=public_id).first()
        seat = services.seat_of(table, user) if table else None
        if seat is None:
            self.close(code=4403)
            return
        self.table, self.seat, self.seat_index = table, seat, seat.index
        self.language = language_of(self.scope)
        async_to_sync(self.channel_layer.group_add)(table.group, self.channel_name)
        self.accept()
        services.connected(seat, self.channel_name)
        self.push()

    def disconnect(self, code):
        if getattr(self, "seat", None) is None:
            return
        async_to_sync(self.channel_layer.group_discard)(self.table.group, self.channel_name)
        services.disconnected(self.seat, self.channel_name)

    def receive(self, text_data=None, bytes_data=None, **kwargs):
        with translation.override(self.language or settings.LANGUAGE_CODE):
            self._receive(text_data)

    def _receive(self, text_data):
        if text_data is None or len(text_data.encode()) > MAX_MESSAGE:
            return self.error(_("Message refused: too long or not text."))
        try:
            content = json.loads(text_data)
        except ValueError:
            return self.error(_("Message refused: not JSON."))
        if isinstance(content, dict) and set(content) == {"ping"}:
            services.heartbeat(self.channel_name)
            return None
        if not isinstance(content, dict) or not isinstance(content.get("action"), str):
            return self.error(_("Message refused: expected an action."))
        services.heartbeat(self.channel_name)
        self.receive_json(content)

    def receive_json(self, content, **kwargs):
        with translation.override(self.language or settings.LANGUAGE_CODE):
            try:
                services.act(
                    self.table, self.scope["user"], content["action"], content.get("version")
                )
            except services.TableError as exc:
                self.push(notice=str(exc))

    def hand_changed(self, event):
        self.table.refresh_from_db()
        self.push()

    def push(self, notice: str = ""):
        with translation.override(self.language or settings.LANGUAGE_CODE):
            self.send(text_data=presenters.fragments(self.table, self.seat_index, notice=notice))

    def error(self, message: str):
        with translation.override(self.language or settings.LANGUAGE_CODE):
            self.send(text_data=presenters.notice_fragment(message))
