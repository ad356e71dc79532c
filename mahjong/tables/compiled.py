"""The reads and writes every move repeats, compiled to SQL once.

Each push reads the table's latest hand (with its table) and the seats (with their
players), and each move reads the same under the table's lock. Django compiled these
joined selects (up to 60 columns) anew every time, which cost more than running them
(0.3-0.4 ms each on the bench machine, four of them per move). A ``CompiledRead`` builds
its queryset once per thread and database, with marker numbers where the arguments go,
keeps the SQL and Django's compiler, and then runs the SQL with the real arguments and
turns the rows into model instances as a queryset does (``ModelIterable``: the same
instances, the select_related objects included).

Only whole numbers are arguments (ids), and only plain selects (filters, select_related,
ordering, a slice; no annotations). A compiler is bound to its thread's connection,
hence one per thread.

The writes (the hand's UPDATE, the events' INSERT) are plain SQL over a model's fields,
built once per database, with each value converted by its field as the ORM converts it
(``get_db_prep_save``): what ``save(update_fields=...)`` and ``bulk_create`` send, without
building and compiling a query object on every move. They send no model signals; the
tables' models have no receivers.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from django.db import DatabaseError, connections
from django.db.models import QuerySet
from django.db.models.query import get_related_populators
from django.db.transaction import TransactionManagementError

from .models import Event, Hand, Seat, Table

MARKERS = (-739_000_001, -739_000_002, -739_000_003)  # never an id


@dataclass
class _Plan:
    """A compiled read, and how its rows become instances (as ModelIterable does it)."""

    sql: str
    params: list
    slots: dict[int, int]  # position in params -> which argument
    for_update: bool
    compiler: object
    converters: dict  # column -> the database's and the fields' conversions
    model: type
    span: slice  # the main model's columns in a row
    names: list[str]
    related: list  # the select_related objects' populators

    def instances(self, rows: list, using: str) -> list:
        if self.converters:
            rows = self.compiler.apply_converters(rows, self.converters)
        out = []
        for row in rows:
            obj = self.model.from_db(using, self.names, row[self.span])
            for populator in self.related:
                populator.populate(row, obj)
            out.append(obj)
        return out


class CompiledRead:
    def __init__(self, build: Callable[..., QuerySet]):
        self.build = build  # the queryset for the given ids (called with markers, once)
        self._local = threading.local()

    def __call__(self, *args: int, using: str = "default") -> list:
        plan = self._plan(using, len(args))
        connection = connections[using]
        if plan.for_update and connection.get_autocommit():
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        params = [args[plan.slots[i]] if i in plan.slots else p for i, p in enumerate(plan.params)]
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, params)
            rows = cursor.fetchall()
        return plan.instances(rows, using)

    def _plan(self, using: str, arity: int) -> _Plan:
        plans = self._local.__dict__.setdefault("plans", {})
        if using not in plans:
            plans[using] = _compile(self.build(*MARKERS[:arity]), using, arity)
        return plans[using]


def _compile(queryset: QuerySet, using: str, arity: int) -> _Plan:
    compiler = queryset.query.get_compiler(using=using)
    sql, params = compiler.as_sql()  # also fills compiler.select and klass_info
    if compiler.annotation_col_map:
        raise ValueError("a compiled read takes no annotations")
    slots = {i: MARKERS.index(p) for i, p in enumerate(params) if p in MARKERS}
    if sorted(slots.values()) != list(range(arity)):
        raise ValueError("each argument must appear once as a query parameter")
    # As the ORM: a lock only where the database has them (not SQLite).
    locks = queryset.query.select_for_update and compiler.connection.features.has_select_for_update
    select, klass_info = compiler.select, compiler.klass_info
    columns = klass_info["select_fields"]
    span = slice(columns[0], columns[-1] + 1)
    return _Plan(
        sql,
        list(params),
        slots,
        bool(locks),
        compiler,
        compiler.get_converters([s[0] for s in select[: compiler.col_count]]),
        klass_info["model"],
        span,
        [f[0].target.attname for f in select[span]],
        get_related_populators(klass_info, select, using),
    )


# ----- the reads -------------------------------------------------------------------------

_LATEST_HAND = CompiledRead(
    lambda table_id: (
        Hand.objects.select_related("table__tier").filter(table_id=table_id).order_by("-number")[:1]
    )
)
# The lock: every transition of a table locks its row first (services._lock). FOR NO KEY
# UPDATE, as an UPDATE of the row takes it: a row inserted meanwhile that refers to the
# table (a spectator's) only needs FOR KEY SHARE of it and does not wait. What the end of
# a hand reads of the table comes joined (only the table's row is locked).
_LOCKED_TABLE = CompiledRead(
    lambda table_id: (
        Table.objects.select_for_update(of=("self",), no_key=True)
        .select_related("ruleset", "tier", "match")
        .filter(pk=table_id)
        .order_by()
    )
)
# Read after the table's lock is granted, in a statement of its own: on PostgreSQL (READ
# COMMITTED) it then sees the hands committed by whoever held the lock before.
_CURRENT_HAND = CompiledRead(
    lambda table_id: Hand.objects.filter(table_id=table_id).order_by("-number")[:1]
)
_SEATS = CompiledRead(
    lambda table_id: Seat.objects.filter(table_id=table_id).select_related("user").order_by("index")
)


# A timer's first look (services.timer_fired): most find the hand moved on and stop here.
_TIMING = CompiledRead(
    lambda hand_id: (
        Hand.objects.filter(pk=hand_id, ended_at__isnull=True)
        .only("table_id", "version", "deadline", "pause_until", "timer_version")
        .order_by()[:1]
    )
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
    """The table's seats in order, with their players."""
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


# What a move changes of its hand (services._save). The move that ends a hand saves the
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
TIMER_FIELDS = ("timer_version", "timer_at")  # what services._arm sets on the hand
save_timer = CompiledUpdate(Hand, TIMER_FIELDS)
EVENT_FIELDS = ("hand", "seq", "version", "kind", "data", "created_at")
insert_events = CompiledInsert(Event, EVENT_FIELDS)  # rows of those fields' values
