"""The table's WebSockets: thin and synchronous (the ORM is involved). Authenticate, join
the groups, pass actions to the service, and on every "hand changed" hint re-read the
hand and send this viewer's fragments as out-of-band swaps. No rule branching here.

Players (``TableConsumer``, /ws/tables/<id>/):
client -> server: {"action": "discard 5m", "version": 7} (htmx ws-send with hx-vals), and
{"ping": 1} every presence.HEARTBEAT seconds (table.js): the connection is alive.
Spectators (``WatchConsumer``, /ws/tables/<id>/watch/) send nothing but pings: any
other message gets an error. They are capped per account and per table (tables.watchers);
past a cap the socket is told why and closed (CROWDED). Server -> client: HTML whose root
elements carry hx-swap-oob (htmx's ws extension).

Every frame first takes a token from its socket's own budget (tables.frames) as it
arrives, in the event loop: a script's flood closes the socket (FLOODED) and the frames
behind are dropped unread. Every message a player sends then takes a token from their bucket
(tables.ratelimit): a burst of moves gets "slow down" errors, not a disconnect. Every
socket also joins its user's group, so a log-out closes the sockets of that session
(close code LOGGED_OUT).

The page's socket (htmx's ws extension) retries only 1006, 1011, 1012 and 1013:
after any close code below it stays closed, showing what the server said before closing.
"""

from __future__ import annotations

import asyncio
import json

from asgiref.sync import async_to_sync
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import JsonWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation.trans_real import (
    get_supported_language_variant,
    parse_accept_lang_header,
)

from . import compiled, frames, presenters, ratelimit, services, sessions, spectators, watchers
from .models import Table

_SHARED_THREAD = settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
MAX_MESSAGE = 1024  # bytes; an action is a few dozen
REFUSED = 4403  # not seated here / may not watch this table
LOGGED_OUT = 4401  # the session logged out: htmx's ws extension does not reconnect
CROWDED = 4429  # past a cap on spectator sockets (tables.watchers.admit), as HTTP's 429
FLOODED = frames.FLOODED  # past the socket's frame budget, as WebSocket's 1008


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


class _TableSocket(JsonWebsocketConsumer):
    """What both sockets share: language, groups, the frame budget, the log-out close,
    errors."""

    table: Table
    language: str = ""
    groups_joined: tuple[str, ...] = ()

    async def __call__(self, scope, receive, send):
        """The frames come through the socket's inbox (tables.frames), which takes them
        off the server's queue as they arrive and closes a flooding socket there. The
        server's own send is kept for what the event loop does without a thread (forward
        a spectators' push)."""
        self.send_now = send
        inbox = frames.Inbox(receive, send, getattr(scope.get("user"), "pk", None))
        pump = asyncio.create_task(inbox.pump())
        try:
            return await super().__call__(scope, inbox.get, send)
        finally:
            pump.cancel()

    async def dispatch(self, message):
        """A hint of this socket's own move is dropped here: its screen has that view
        already (TableConsumer.receive_json), and no thread is taken for nothing.

        Channels runs every sync consumer of a process in one shared thread: one
        table's database wait would hold up every other table's push and move. A consumer
        still takes its own messages one at a time, whichever pool thread runs them.
        SQLite (the embedded default) allows one writer at a time anyway, and its
        in-memory test database refuses concurrent threads: there, the shared thread."""
        if message.get("origin") == self.channel_name:
            return
        await database_sync_to_async(self._dispatch, thread_sensitive=_SHARED_THREAD)(message)

    def websocket_connect(self, message):
        """An account whose socket flooded a moment ago opens none (tables.frames): the
        handshake is refused before any table is read."""
        if frames.cooling(self.scope.get("user")):
            self.close(code=FLOODED)
            return
        super().websocket_connect(message)

    def _dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        handler(message)

    def join(self, *groups: str) -> None:
        user = self.scope["user"]
        self.groups_joined = (*groups, sessions.user_group(user.pk))
        for group in self.groups_joined:
            async_to_sync(self.channel_layer.group_add)(group, self.channel_name)
        self.language = language_of(self.scope)
        self.accept()

    def disconnect(self, code):
        for group in self.groups_joined:
            async_to_sync(self.channel_layer.group_discard)(group, self.channel_name)

    def receive(self, text_data=None, bytes_data=None, **kwargs):
        with translation.override(self.language or settings.LANGUAGE_CODE):
            self._receive(text_data)

    def _receive(self, text_data):
        raise NotImplementedError

    def layer_resumed(self, event):
        """Redis came back (mahjong.channel_layer): hints may have been lost meanwhile. A
        socket still connecting (or refused) has no table yet: its snapshot is to come."""
        if getattr(self, "table", None) is not None:
            self.push()

    def session_ended(self, event):
        """A log-out (tables.sessions): close if it was this socket's session (None: every
        session), unless it is the session a password change kept."""
        own = getattr(self.scope.get("session"), "session_key", None)
        if own is not None and own == event.get("kept_session"):
            return
        if event.get("session") in (None, own):
            self.close(code=LOGGED_OUT)


class TableConsumer(_TableSocket):
    seat_index: int

    def connect(self):
        user = self.scope.get("user")
        public_id = self.scope["url_route"]["kwargs"]["public_id"]
        table = Table.objects.filter(public_id=public_id).first()
        seat = services.seat_of(table, user) if table else None
        if seat is None:
            self.close(code=REFUSED)
            return
        self.table, self.seat, self.seat_index = table, seat, seat.index
        self.join(table.group)
        services.connected(seat, self.channel_name)
        self.push(snapshot=True)

    def disconnect(self, code):
        if getattr(self, "seat", None) is None:
            return
        super().disconnect(code)
        services.disconnected(self.seat, self.channel_name)

    def _receive(self, text_data):
        if not ratelimit.allow(self.scope["user"].pk):
            return self.error(_("Slow down: too many messages. Nothing was done."))
        if text_data is None or len(text_data.encode()) > MAX_MESSAGE:
            return self.error(_("Message refused: too long or not text."))
        try:
            content = json.loads(text_data)
        except ValueError:
            return self.error(_("Message refused: not JSON."))
        if isinstance(content, dict) and "ping" in content and set(content) <= {"ping", "version"}:
            current = services.heartbeat(self.channel_name, self.table.pk)
            return self._heal(content.get("version"), current)
        problem = self._problem(content)
        if problem:
            return self.error(problem)
        self.receive_json(content)  # presence is kept by the pings, not by every move

    def _heal(self, version, current: int | None) -> None:
        """A hint lost on the way (a busy or restarted channel layer) would leave the page
        behind until the next move, and forever at the end of a hand; the heartbeat carries
        the page's version, so a stale page is re-rendered within one beat."""
        if type(version) is int and version != current:
            self.push()

    def _problem(self, content) -> str:
        """What is wrong with a message's shape, before the service judges the move."""
        if not isinstance(content, dict) or not isinstance(content.get("action"), str):
            return _("Message refused: expected an action.")
        version = content.get("version")
        if type(version) is not int:  # a bool is an int too: refuse True and False
            return _("Message refused: the version must be a whole number.")
        table = content.get("table", self.table.public_id)
        if table != self.table.public_id:
            return _("Message refused: this connection is for another table.")
        return ""

    def receive_json(self, content, **kwargs):
        with translation.override(self.language or settings.LANGUAGE_CODE):
            try:
                done = services.act(
                    self.table,
                    self.scope["user"],
                    content["action"],
                    content.get("version"),
                    origin=self.channel_name,
                )
            except services.TableError as exc:
                return self.push(notice=str(exc))
            # The mover's screen from the move's own reads; the other screens re-read on
            # the hint (this socket skips it: dispatch).
            html = presenters.fragments_after_move(done, self.seat_index)
            if html is None:
                return self.push()
            self.table = done.table
            self.send(text_data=html)

    def hand_changed(self, event):
        self.push()

    def watchers_changed(self, event):
        """A spectator came or went (tables.watchers): how many watch now."""
        with translation.override(self.language or settings.LANGUAGE_CODE):
            self.send(text_data=watchers.fragment(self.table.pk))

    def table_emote(self, event):
        """A preset emote from a seat (tables.emotes): shown to the other seat, unless muted."""
        from . import emotes

        html = emotes.fragment_for(
            event, self.seat_index, self.scope["user"], self.language or settings.LANGUAGE_CODE
        )
        if html:
            self.send(text_data=html)

    def push(self, notice: str = "", snapshot: bool = False):
        """This screen's fragments; a (re)connect's snapshot also has the count of
        spectators, which may have changed while the page was away (one frame)."""
        with translation.override(self.language or settings.LANGUAGE_CODE):
            self.table, html = presenters.fragments_now(self.table.pk, self.seat_index, notice)
            if snapshot:
                html += watchers.fragment(self.table.pk)
            self.send(text_data=html)

    def error(self, message: str):
        with translation.override(self.language or settings.LANGUAGE_CODE):
            self.send(text_data=presenters.notice_fragment(message))


class WatchConsumer(_TableSocket):
    """A spectator: the public view only (tables.spectators), and never an action. It is
    not in the table's group: the players' hints, emotes and count of spectators are for
    the players; its view comes rendered, pushed to its language's group."""

    shown: tuple[int, int] = (0, 0)  # (hand number, version) of the view the page shows

    async def dispatch(self, message):
        """A pushed view goes straight out from the event loop: no thread, no read."""
        if message["type"] != "watch.view":
            return await super().dispatch(message)
        at = tuple(message["at"])
        if at >= self.shown:  # a push overtaken by a newer snapshot would step back
            self.shown = at
            await self.send_now({"type": "websocket.send", "text": message["html"]})

    def connect(self):
        user = self.scope.get("user")
        public_id = self.scope["url_route"]["kwargs"]["public_id"]
        table = Table.objects.filter(public_id=public_id).first()
        if table is None or not user.is_authenticated or spectators.refusal(table):
            self.close(code=REFUSED)
            return
        self.language = language_of(self.scope)
        with translation.override(self.language):
            refusal = watchers.admit(table, user, self.channel_name, self.language)
        if refusal:
            self.accept()
            return self._say_and_close(refusal, CROWDED)
        self.table = table
        self.join(spectators.watch_group(table), spectators.view_group(table, self.language))
        self.push()

    def disconnect(self, code):
        if getattr(self, "table", None) is None:
            return  # refused: it never counted
        super().disconnect(code)
        watchers.left(self.table, self.channel_name)

    def _receive(self, text_data):
        if not ratelimit.allow(self.scope["user"].pk):
            return self.error(_("Slow down: too many messages. Nothing was done."))
        if text_data is not None and len(text_data) < MAX_MESSAGE:
            try:
                if json.loads(text_data) == {"ping": 1}:
                    user, channel = self.scope["user"], self.channel_name
                    return watchers.beat(self.table, user, channel, language=self.language)
            except ValueError:
                pass
        return self.error(_("Spectators cannot act at this table."))

    def watch_closed(self, event):
        """The host closed the private room to spectators (spectators.close_watchers): say
        so before closing, or the page just froze with its clock run out, the socket's
        reconnects refused without a word."""
        with translation.override(self.language or settings.LANGUAGE_CODE):  # the page's
            message = _("The host of this private room does not allow spectators.")
        self._say_and_close(message, REFUSED)

    def _say_and_close(self, message: str, code: int) -> None:
        with translation.override(self.language or settings.LANGUAGE_CODE):
            self.send(text_data=spectators.closed_fragment(message))
        self.close(code=code)

    def push(self):
        hand = compiled.latest_hand(self.table.pk)
        self.table = hand.table
        self.shown = (hand.number, hand.version)
        with translation.override(self.language or settings.LANGUAGE_CODE):
            self.send(text_data=spectators.fragments(self.table, hand))

    def error(self, message: str):
        with translation.override(self.language or settings.LANGUAGE_CODE):
            self.send(text_data=spectators.notice_fragment(message))
