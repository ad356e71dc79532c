"""The reads every move repeats, compiled to SQL once per thread.

Each push reads the table's latest hand (with its table) and the seats (with their
players), and each move reads the same under the hand's lock. Django compiled these
joined selects (up to 60 columns) anew every time, which cost more than running them
(0.3-0.4 ms each on the bench machine, four of them per move). A ``CompiledRead`` builds
its queryset once per thread and database, with marker numbers where the arguments go,
keeps the SQL and Django's compiler, and then runs the SQL with the real arguments and
turns the rows into model instances as a queryset does (``ModelIterable``: the same
instances, the select_related objects included).

Only whole numbers are arguments (ids), and only plain selects (filters, select_related,
ordering, a slice; no annotations). A compiler is bound to its thread's connection,
hence one per thread.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable

from django.db import connections
from django.db.models import QuerySet
from django.db.models.query import get_related_populators
from django.db.transaction import TransactionManagementError

from .models import Hand, Seat

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
# The lock's read: what the end of a hand reads of the table comes joined (only the hand
# row is locked).
_LOCKED_HAND = CompiledRead(
    lambda table_id: (
        Hand.objects.select_for_update(of=("self",))
        .select_related("table__ruleset", "table__tier", "table__match")
        .filter(table_id=table_id)
        .order_by("-number")[:1]
    )
)
_SEATS = CompiledRead(
    lambda table_id: Seat.objects.filter(table_id=table_id).select_related("user").order_by("index")
)


def latest_hand(table_id: int) -> Hand | None:
    """The table's current hand with the table and its room tier (a push)."""
    rows = _LATEST_HAND(table_id)
    return rows[0] if rows else None


def locked_hand(table_id: int) -> Hand | None:
    """The table's current hand, its row locked for the transaction, with the table, its
    ruleset, room tier and match (a move)."""
    rows = _LOCKED_HAND(table_id)
    return rows[0] if rows else None


def seats(table_id: int) -> list[Seat]:
    """The table's seats in order, with their players."""
    return _SEATS(table_id)
