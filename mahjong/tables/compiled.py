"""The reads and writes every move repeats, as SQL written once.

Each push reads the table's latest hand (with its table) and the seats (with their
players), and each move reads the same under the table's lock. Django compiled these
joined selects (up to 60 columns) anew every time, which cost more than running them:
per read, 0.54-1.06 ms through the ORM against 0.19-0.23 ms here (measured in one run,
PostgreSQL, a loaded 2-core machine; about 2.5 ms of CPU per move and push).

A ``Read`` writes its SELECT once per database from the models' metadata (``_meta``:
tables, columns, the joins' keys), runs it on a cursor with the ids as parameters, and
builds each row's instances with ``Model.from_db``, as a queryset does: the related rows
joined in are set on their instance (``seat.user``), so reading them costs no query. The
values are converted as the ORM converts them (``_converter``) for the only field types
these models have beyond numbers and text: JSON (the field's own ``from_db_value``),
and on SQLite, which stores them as text and integers, date-times and booleans. A model
that gains another field type is refused when the read is first written
(tests/web/test_compiled_reads.py compares every read with the ORM's).

The writes (the hand's UPDATE, the events' INSERT) are plain SQL over a model's fields,
built once per database, with each value converted by its field as the ORM converts it
(``get_db_prep_save``): what ``save(update_fields=...)`` and ``bulk_create`` send, without
building and compiling a query object on every move. They send no model signals; the
tables' models have no receivers.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.db import DatabaseError, connections, models
from django.db.transaction import TransactionManagementError
from django.utils.dateparse import parse_datetime

from accounts.models import RankLevel, User
from catalogue.models import RoomTier, Ruleset

from .models import Event, Hand, Match, Seat, Table

# Field types read as the database gives them (numbers, text, keys).
_AS_GIVEN = (
    models.IntegerField,
    models.BigIntegerField,
    models.PositiveIntegerField,
    models.PositiveBigIntegerField,
    models.PositiveSmallIntegerField,
    models.AutoField,
    models.BigAutoField,
    models.CharField,
    models.ForeignKey,
)


def _sqlite_datetime(value):
    """An aware date-time from SQLite, which stores it in UTC (the connection's time zone)
    without its zone: as text, or as the naive value Django's sqlite3 converters parse."""
    if value is None:
        return value
    parsed = value if isinstance(value, datetime.datetime) else parse_datetime(value)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=datetime.UTC)


def _converter(field, connection):
    """How a column's value becomes the field's Python value, None for as given."""
    if isinstance(field, models.JSONField):
        return lambda value: field.from_db_value(value, None, connection)
    if isinstance(field, models.DateTimeField):
        return _sqlite_datetime if connection.vendor == "sqlite" else None
    if isinstance(field, models.BooleanField):
        return (
            (lambda value: None if value is None else bool(value))
            if (connection.vendor == "sqlite")
            else None
        )
    if isinstance(field, _AS_GIVEN):
        return None
    raise TypeError(
        f"{field.model.__name__}.{field.name}: a {type(field).__name__} is not "
        "read by tables.compiled; add its conversion"
    )


@dataclass(frozen=True)
class Part:
    """One model of a read's row: its alias, the columns taken (all if ``only`` is
    empty), and where it hangs: ``on`` the parent's instance as ``attribute``, joined by
    the parent's foreign key of that name (LEFT JOIN when ``optional``), or by ``join``,
    an ON condition of its own (the attribute is then a plain one, not a field)."""

    model: type
    alias: str
    on: str = ""  # the parent part's alias
    attribute: str = ""
    optional: bool = False
    only: tuple[str, ...] = ()
    join: str = ""

    def fields(self) -> list:
        concrete = self.model._meta.concrete_fields
        return [f for f in concrete if not self.only or f.attname in self.only or f.primary_key]


@dataclass
class _Sql:
    text: str
    names: list[list[str]]  # each part's attnames
    converters: list[list]  # each part's converters


@dataclass
class Read:
    """A SELECT of ``parts`` (the first is the row's model) with ``where`` (``%s`` for
    the ids), ``order`` and ``limit``; ``lock``: the first part's row, FOR NO KEY UPDATE
    where the database has row locks (PostgreSQL; SQLite locks the whole database at
    BEGIN, settings' IMMEDIATE), and then only inside a transaction, as the ORM's."""

    parts: tuple[Part, ...]
    where: str
    order: str = ""
    limit: int | None = None
    lock: bool = False
    _sql: dict[str, _Sql] = field(default_factory=dict)

    def __call__(self, *args: int, using: str = "default") -> list:
        connection = connections[using]
        if self.lock and connection.vendor == "postgresql" and connection.get_autocommit():
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        sql = self._sql.get(connection.vendor) or self._write(connection)
        with connection.cursor() as cursor:
            cursor.execute(sql.text, list(args))
            rows = cursor.fetchall()
        return [self._instances(row, sql, using) for row in rows]

    def _instances(self, row, sql: _Sql, using: str):
        made: dict[str, object] = {}
        at = 0
        for part, names, converters in zip(self.parts, sql.names, sql.converters):
            values = list(row[at : at + len(names)])
            at += len(names)
            for i, convert in enumerate(converters):
                if convert is not None:
                    values[i] = convert(values[i])
            if part.optional and values[names.index(part.model._meta.pk.attname)] is None:
                # the LEFT JOIN found no row
                instance = None
            else:
                instance = part.model.from_db(using, names, values)
            made[part.alias] = instance
            if part.on:
                parent = made[part.on]
                if parent is not None:
                    setattr(parent, part.attribute, instance)
        return made[self.parts[0].alias]

    def _write(self, connection) -> _Sql:
        columns, joins, names, converters = [], [], [], []
        for part in self.parts:
            fields = part.fields()
            columns += [f'{part.alias}."{f.column}"' for f in fields]
            names.append([f.attname for f in fields])
            converters.append([_converter(f, connection) for f in fields])
            table = f'"{part.model._meta.db_table}" {part.alias}'
            if not part.on:
                joins.append(table)
                continue
            kind = "LEFT OUTER JOIN" if part.optional else "INNER JOIN"
            joins.append(f"{kind} {table} ON {part.join or self._key_join(part)}")
        text = f"SELECT {', '.join(columns)} FROM {' '.join(joins)} WHERE {self.where}"
        if self.order:
            text += f" ORDER BY {self.order}"
        if self.limit is not None:
            text += f" LIMIT {self.limit}"
        if self.lock and connection.vendor == "postgresql":
            text += f" FOR NO KEY UPDATE OF {self.parts[0].alias}"
        self._sql[connection.vendor] = _Sql(text, names, converters)
        return self._sql[connection.vendor]

    def _key_join(self, part: Part) -> str:
        parent = next(p for p in self.parts if p.alias == part.on)
        key = parent.model._meta.get_field(part.attribute)
        return f'{part.alias}."{part.model._meta.pk.column}" = {part.on}."{key.column}"'


# ----- the reads -------------------------------------------------------------------------

_LATEST_HAND = Read(
    (
        Part(Hand, "h"),
        Part(Table, "t", on="h", attribute="table"),
        Part(RoomTier, "r", on="t", attribute="tier", optional=True),
    ),
    where='h."table_id" = %s',
    order='h."number" DESC',
    limit=1,
)
# The lock: every transition of a table locks its row first (services.locking). FOR NO
# KEY UPDATE, as an UPDATE of the row takes it: a row inserted meanwhile that refers to
# the table (a spectator's) only needs FOR KEY SHARE of it and does not wait. What the end
# of a hand reads of the table comes joined (only the table's row is locked).
_LOCKED_TABLE = Read(
    (
        Part(Table, "t"),
        Part(Ruleset, "rs", on="t", attribute="ruleset"),
        Part(RoomTier, "r", on="t", attribute="tier", optional=True),
        Part(Match, "m", on="t", attribute="match", optional=True),
    ),
    where='t."id" = %s',
    lock=True,
)
# Read after the table's lock is granted, in a statement of its own: on PostgreSQL (READ
# COMMITTED) it then sees the hands committed by whoever held the lock before.
_CURRENT_HAND = Read(
    (Part(Hand, "h"),), where='h."table_id" = %s', order='h."number" DESC', limit=1
)
# Each player's rank level (accounts.ranks: the highest threshold the rank score reaches)
# comes joined, for the seat plate's badge at no query of its own.
_RANK_LEVEL = (
    f'rl."id" = (SELECT l."id" FROM "{RankLevel._meta.db_table}" l'
    ' WHERE l."threshold" <= u."rank_score" ORDER BY l."threshold" DESC LIMIT 1)'
)
_SEATS = Read(
    (
        Part(Seat, "s"),
        Part(User, "u", on="s", attribute="user"),
        Part(RankLevel, "rl", on="u", attribute="rank_level", optional=True, join=_RANK_LEVEL),
    ),
    where='s."table_id" = %s',
    order='s."index"',
)
# A timer's first look (services.timer_fired): most find the hand moved on and stop here.
_TIMING = Read(
    (Part(Hand, "h", only=("table_id", "version", "deadline", "pause_until", "timer_version")),),
    where='h."id" = %s AND h."ended_at" IS NULL',
    limit=1,
)


def timing(hand_id: int) -> Hand | None:
    """The unfinished hand's table, version, deadline, claim pause and timer version (the
    rest deferred)."""
    rows = _TIMING(hand_id)
    return rows[0] if rows else None


def latest_hand(table_id: int) -> Hand | None:
    """The table's current hand with the table and its room tier (a push)."""
    rows = _LATEST_HAND(table_id)
    return rows[0] if rows else None


def locked_table(table_id: int) -> Table | None:
    """The table, its row locked for the transaction, with its ruleset, room tier and
    match (a move, and every other transition of the table)."""
    rows = _LOCKED_TABLE(table_id)
    return rows[0] if rows else None


def current_hand(table_id: int) -> Hand | None:
    """The table's newest hand, without its table: under the table's lock, the latest."""
    rows = _CURRENT_HAND(table_id)
    return rows[0] if rows else None


def seats(table_id: int) -> list[Seat]:
    """The table's seats in order, with their players and each one's rank level
    (``seat.user.rank_level``, None below the first)."""
    return _SEATS(table_id)


# ----- the writes ------------------------------------------------------------------------


class _Columns:
    """Some of a model's fields, as SQL: quoted names, and values as the database takes them.
    A subclass's ``_build(qn, table, columns, rows)`` writes its statement, kept per
    database and number of rows."""

    def __init__(self, model, names: tuple[str, ...]):
        self.model = model
        self.fields = [model._meta.get_field(name) for name in names]
        self._sql: dict[tuple[str, int], str] = {}

    def values(self, raw, connection) -> list:
        return [f.get_db_prep_save(v, connection) for f, v in zip(self.fields, raw, strict=True)]

    def statement(self, connection, rows: int) -> str:
        key = (connection.alias, rows)
        if key not in self._sql:
            qn = connection.ops.quote_name
            columns = [qn(f.column) for f in self.fields]
            self._sql[key] = self._build(qn, qn(self.model._meta.db_table), columns, rows)
        return self._sql[key]


class CompiledUpdate(_Columns):
    """``obj.save(update_fields=names)`` as one UPDATE by primary key."""

    def __call__(self, obj, using: str = "default") -> None:
        connection = connections[using]
        raw = [f.pre_save(obj, False) for f in self.fields]
        with connection.cursor() as cursor:
            cursor.execute(self.statement(connection, 1), [*self.values(raw, connection), obj.pk])
            if cursor.rowcount != 1:
                raise DatabaseError(f"{self.model.__name__} {obj.pk}: no row to update")

    def _build(self, qn, table: str, columns: list[str], rows: int) -> str:
        sets = ", ".join(f"{c} = %s" for c in columns)
        return f"UPDATE {table} SET {sets} WHERE {qn(self.model._meta.pk.column)} = %s"


class CompiledInsert(_Columns):
    """``bulk_create`` of rows given as tuples of the fields' values (no ids read back)."""

    def __call__(self, rows: list[tuple], using: str = "default") -> None:
        if not rows:
            return
        connection = connections[using]
        params = [v for row in rows for v in self.values(row, connection)]
        with connection.cursor() as cursor:
            cursor.execute(self.statement(connection, len(rows)), params)

    def _build(self, qn, table: str, columns: list[str], rows: int) -> str:
        one = "(" + ", ".join(["%s"] * len(columns)) + ")"
        return f"INSERT INTO {table} ({', '.join(columns)}) VALUES {', '.join([one] * rows)}"


# What a move changes of its hand (services.moves.save). The move that ends a hand saves the
# whole row (its outcome, the ranked flag): once a hand, no need to compile it away.
MOVE_FIELDS = (
    "version",
    "state",
    "event_count",
    "deadline",
    "pause_until",
    "held",
    "timer_version",
    "timer_at",
)
save_move = CompiledUpdate(Hand, MOVE_FIELDS)
TIMER_FIELDS = ("timer_version", "timer_at")  # what services.recording.arm sets on the hand
save_timer = CompiledUpdate(Hand, TIMER_FIELDS)
EVENT_FIELDS = ("hand", "seq", "version", "kind", "data", "created_at")
insert_events = CompiledInsert(Event, EVENT_FIELDS)  # rows of those fields' values
