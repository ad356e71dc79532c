"""The end of a hand: fans, points and beans (the ledger), the players' stats and rank
score; the stage climb and the ratings take part through mahjong.tables.hooks."""

from __future__ import annotations

import logging

from django.db.models import Case, F, Q, Value, When

from accounts import ranks, wallet
from accounts.models import User
from mahjong.engine.errors import EngineError
from mahjong.engine.fans import score_win, wild_reading
from mahjong.engine.session import base_points
from mahjong.engine.settlement import HOUSE, settle
from mahjong.engine.settlement import Table as MoneyFacts
from mahjong.engine.shapes import ESCAPE
from mahjong.engine.state import GameState
from mahjong.engine.tiles import format_tiles

from .. import hooks
from ..models import Table
from .locking import Locked

log = logging.getLogger(__name__)


def finish(locked: Locked, state: GameState, called_off: bool = False) -> dict:
    """What the end-of-hand panel shows, and the beans moved through the wallet ledger in
    this same transaction (idempotent per hand by the ledger's key). A hand the operator
    ``called_off`` is not counted: it was never played out, so it adds to nobody's games
    played, rank score or rating (a stage stake still comes back, as on any draw). The
    result says so: the engine's outcome is a plain draw, and the history must not read
    流局 for it (lobby.history)."""
    table, outcome, rs = locked.table, state.outcome, state.ruleset
    score = score_win(rs, outcome.context) if outcome.context is not None else None
    if score is not None and not score.is_win:
        score = None
    # The hand's base: the room's 底分 times the ruleset's level for this hand -- 1 but in
    # wenzhou, whose progressive base B (10/20/30/40) rises with the dealer's wins (9.5).
    base = table.base_points * base_points(rs, state.session)
    facts = dict(base=base, dealer=state.dealer, dealer_streak=state.session.streak)
    try:
        points = settle(rs, outcome, score, MoneyFacts(**facts))
    except EngineError as exc:  # e.g. stage has no escape settlement
        log.warning("hand %s: nothing to settle (%s)", locked.hand.pk, exc)
        points = None
    result = {
        "kind": outcome.kind,
        "winner": outcome.winner,
        "loser": outcome.loser,
        "escaper": outcome.escaper,
        "called_off": called_off,
        "fans": [
            {
                "key": f.key,
                "zh": f.zh,
                "en": f.en,
                "fan": f.fan,
                "count": f.count,
                "points": f.points,
            }
            for f in (score.fans if score else ())
        ],
        "total": score.total if score else 0,
        "decomposition": _decomposition(score),
        # which tiles of it a 财神 plays (温州): marked on the result, not the wild's face
        "wild_played": _wild_played(score, outcome.context),
        "points": points.points if points else 0,
        "deltas": [points.delta(0), points.delta(1)] if points else [0, 0],
        # the house's cut of the points (quesheng's 5%): the deltas then sum to minus it,
        # and a table without beans must say where the winner's missing points went
        "points_rake": points.rake if points else 0,
        "beans": None,
        "rake": 0,
    }
    if table.beans_per_point and points is not None:
        result.update(_pay(locked, state, score, facts))
    if state.session.stage:  # 关卡: the player's climb settles the hand (mahjong.stages)
        for shown in hooks.answers(
            hooks.stage_hand_settled,
            table=table,
            number=locked.hand.number,
            state=state,
            score=score,
        ):
            result.update(shown)
    if not called_off:
        _record_stats(locked, outcome, score)
        _record_rank(locked, result["deltas"])
        hooks.answers(hooks.hand_recorded, locked=locked, result=result)  # ratings, once
    return result


def _decomposition(score) -> str:
    if score is None or score.decomposition is None:
        return ""
    return " ".join(format_tiles(block.tiles) for block in score.decomposition.blocks)


def _wild_played(score, context) -> list[list[bool]] | None:
    if score is None or context is None or context.wild is None:
        return None
    return [[wild for _kind, wild in block] for block in wild_reading(score.decomposition, context)]


def _pay(locked: Locked, state: GameState, score, facts: dict) -> dict:
    users = [s.user for s in locked.seats]
    # Lock the players' rows (and the house's, in the wallet's primary-key order) before
    # reading the balances the payment is capped at: the seats were read without a lock,
    # and a deduction committed since would make the payment exceed the balance
    # (tests/faults/test_money.py). The same query finds the house for the rake.
    rows = {
        u.pk: u
        for u in User.objects.select_for_update()
        .filter(Q(pk__in=[u.pk for u in users]) | Q(kind=User.Kind.HOUSE))
        .order_by("pk")
    }
    house = next((u for u in rows.values() if u.kind == User.Kind.HOUSE), None)
    beans = [rows[u.pk].beans for u in users]
    money = settle(
        state.ruleset,
        state.outcome,
        score,
        MoneyFacts(
            per_point=locked.table.beans_per_point, balances=beans, bring_ins=beans, **facts
        ),
    )
    legs: dict[int, list] = {}
    for t in money.transfers:
        for who, sign in ((t.payer, -1), (t.payee, 1)):
            account = (house or wallet.house()) if who == HOUSE else users[who]
            legs.setdefault(account.pk, [account, 0])[1] += sign * t.amount
    postings = [(acc, amount) for acc, amount in legs.values() if amount]
    if postings:
        ref = locked.table.match.public_id if locked.table.match_id else locked.table.public_id
        wallet.post(
            postings,
            reason=wallet.Reason.SETTLEMENT,
            key=f"hand:{locked.table.public_id}:{locked.hand.number}",
            # Each seat's row names the opponent, an escape's penalty says so: the
            # operators' page of suspicious bean flows reads both (accounts.farming).
            note=wallet.ESCAPE_NOTE if state.outcome.kind == ESCAPE else "",
            ref=ref,
            counterparts={users[0].pk: users[1], users[1].pk: users[0]},
        )
    return {"beans": [money.delta(0), money.delta(1)], "rake": money.rake}


def _record_stats(locked: Locked, outcome, score) -> None:
    """The profile's counters: hands played and won, the biggest winning hand. One UPDATE
    (every SET reads the row's old values, so the best-hand test sees the old best)."""
    humans = [s.user_id for s in locked.seats if not s.is_bot]
    if not humans:
        return
    counters = {"games_played": F("games_played") + 1}
    if outcome.winner is not None and not locked.seats[outcome.winner].is_bot:
        winner = locked.seats[outcome.winner].user_id
        counters["games_won"] = _only_for(Q(pk=winner), "games_won", F("games_won") + 1)
        if score is not None:
            better = Q(pk=winner, best_fan__lt=score.total)
            keys = [f.key for f in score.fans]
            best = Value(keys, output_field=User._meta.get_field("best_fans"))
            counters["best_fan"] = _only_for(better, "best_fan", Value(score.total))
            counters["best_fans"] = _only_for(better, "best_fans", best)
    User.objects.filter(pk__in=humans).update(**counters)


def _only_for(rows: Q, field: str, value):
    """SET ``field`` to ``value`` in the rows matching ``rows``, leave it elsewhere."""
    return Case(When(rows, then=value), default=F(field), output_field=User._meta.get_field(field))


def is_ranked(table: Table) -> bool:
    """Ranked play is a room tier's game, whatever its ruleset (ratings and the leaderboards'
    hand results): not private rooms, unranked matches or play vs a bot."""
    if table.tier_id is None:
        return False
    return table.match_id is None or table.match.ranked


def counts_for_rank(table: Table) -> bool:
    """RULES.md 4.6: the rank score counts the points of classic rooms only."""
    return is_ranked(table) and table.ruleset.engine_slug == "classic"


def _record_rank(locked: Locked, deltas: list[int]) -> None:
    """Marks a ranked hand (the ratings read the flag) and adds each human's net points of
    a classic room's hand to their rank score, in the settlement's transaction; the flag
    (under the row lock) makes it once per hand."""
    hand = locked.hand
    if hand.ranked or not is_ranked(locked.table):
        return
    hand.ranked = True
    if not counts_for_rank(locked.table):
        return
    for seat in locked.seats:
        if not seat.is_bot:
            ranks.add_points(seat.user_id, deltas[seat.index])
