"""Stage mode (关卡) on the live tables: a player's climb (``engine.stage_run``) saved in
``StageProgress``, each hand a live table with the player in seat 0 and the ``strong``
computer in seat 1 (``tables.services``), the stakes in beans through the wallet.

tables.services calls two hooks for a stage table, inside its own transaction:
``stake_for_next_hand`` before a next hand starts (a refusal closes the table) and
``settle_stage_hand`` when a hand ends. The first hand's stake is placed by ``play``.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from accounts import wallet
from accounts.builtin import bot_for
from accounts.models import LedgerEntry, User
from catalogue.models import Ruleset
from mahjong.engine import stage_run
from mahjong.engine.settlement import stage_hand_score
from mahjong.engine.shapes import DRAW
from mahjong.engine.stage_run import StageRun
from mahjong.tables import notes
from mahjong.tables import services as tables
from mahjong.tables.models import Table

from .models import StageProgress, StageSettings

PLAYER_SEAT = 0
COMPUTER_LEVEL = "strong"


class StageError(Exception):
    """A request the stage screen refuses; the message is shown to the player."""


# ----- reading ----------------------------------------------------------------------------


def progress_for(user) -> StageProgress:
    progress, _created = StageProgress.objects.get_or_create(
        user=user, defaults={"run": stage_run.start().to_dict()}
    )
    return progress


def run_of(progress: StageProgress) -> StageRun:
    return StageRun.from_dict(progress.run) if progress.run else stage_run.start()


def run_at(table: Table) -> StageRun | None:
    """The climb played at this stage table, for its top bar (read, not locked)."""
    run = StageProgress.objects.filter(table=table).values_list("run", flat=True).first()
    return StageRun.from_dict(run) if run else None


def live_table(progress: StageProgress) -> Table | None:
    """The player's stage table while it is open."""
    table = progress.table
    if table is None or table.status != Table.Status.PLAYING:
        return None
    return table


def stage_ruleset() -> Ruleset:
    rulesets = Ruleset.objects.filter(engine_slug="stage", is_active=True)
    ruleset = rulesets.order_by("ordering").first()
    if ruleset is None:
        raise StageError(_("Stage mode is not available right now."))
    return ruleset


# ----- stakes in beans --------------------------------------------------------------------


def _beans(points: int) -> int:
    return points * StageSettings.load().beans_per_point


def _stake_key(table_ref: str, number: int) -> str:
    return f"stage-stake:{table_ref}:{number}"


def _post_stake(user, run: StageRun, table_ref: str, number: int) -> None:
    """The stake leaves the player's beans for the bank (a ledger row)."""
    amount = _beans(run.level.stake)
    if amount:
        wallet.post(
            [(user, -amount), (wallet.bank(), amount)],
            reason=wallet.Reason.SETTLEMENT,
            key=_stake_key(table_ref, number),
            ref=table_ref,
            note="stage stake",
        )


def _staked_rate(user, stake: int, table_ref: str, number: int) -> int:
    """Beans per point of the hand in play: the rate its stake was placed at, read off
    the stake's ledger row. An operator who changes the rate mid-hand changes the next
    hand's: this one pays out (stake back, hand score) at the rate it was staked at."""
    paid = (
        LedgerEntry.objects.filter(idempotency_key=_stake_key(table_ref, number), account=user)
        .values_list("amount", flat=True)
        .first()
    )
    return -paid // stake if paid else 0


def _can_cover(user, run: StageRun) -> bool:
    beans = User.objects.values_list("beans", flat=True).get(pk=user.pk)
    return beans >= _beans(run.level.stake)


def _refusal(user, run: StageRun) -> str | None:
    """Why the next hand cannot start, placing nothing: a table note (``notes.encode``),
    read in the language of whoever reads it (``notes.text``)."""
    if run.status == stage_run.CLEARED:
        return notes.encode(
            gettext_noop("Stage %(n)s cleared! Go on to the next stage from the stage screen."),
            n=run.stage,
        )
    if run.status == stage_run.COMPLETE:
        return notes.encode(gettext_noop("All four stages cleared!"))
    if run.status == stage_run.FAILED:
        return notes.encode(_FAILED)
    if run.status != stage_run.READY:
        return notes.encode(gettext_noop("A stage hand is already being played."))
    if not _can_cover(user, run):
        return notes.encode(
            gettext_noop("You need %(beans)s beans for this stake."),
            beans=f"{_beans(run.level.stake):,}",
        )
    return None


_FAILED = gettext_noop("Stage failed: your score cannot cover the stake.")


def _save(progress: StageProgress, run: StageRun, **fields) -> None:
    progress.run = run.to_dict()
    progress.updated_at = timezone.now()
    for name, value in fields.items():
        setattr(progress, name, value)
    progress.save()


# ----- the stage screen's actions ---------------------------------------------------------


def play(user) -> Table:
    """Go to the stage table: the open one, or a new table whose first hand starts now
    (stake placed)."""
    with transaction.atomic():
        progress = StageProgress.objects.select_for_update().get(pk=progress_for(user).pk)
        table = live_table(progress)
        if table is not None:
            return table
        in_play = tables.in_play_refusal(user)
        if in_play:
            raise StageError(in_play)
        run = run_of(progress)
        refusal = _refusal(user, run)
        if refusal:
            raise StageError(notes.text(refusal))
        run = stage_run.begin_hand(run)
        if run.status == stage_run.FAILED:
            _save(progress, run)
            raise StageError(_("Stage failed: your score cannot cover the stake."))
        try:  # checked again under the player's row lock: another tab may have sat down
            table = tables.open_table(
                stage_ruleset(),
                [user, bot_for(COMPUTER_LEVEL)],
                bot_level=COMPUTER_LEVEL,
                stage=run.stage,
            )
        except tables.TableError as exc:
            raise StageError(str(exc)) from None
        _post_stake(user, run, table.public_id, 1)
        _save(progress, run, table=table)
        return table


def advance(user) -> StageRun:
    """After a clear: enter the next stage at its starting score."""
    return _move_on(user, stage_run.CLEARED, stage_run.next_stage)


def retry(user) -> StageRun:
    """After a failure: the stage again from its starting score."""
    return _move_on(user, stage_run.FAILED, stage_run.retry)


def restart(user) -> StageRun:
    """A new climb from stage 1 (the best result stays)."""
    with transaction.atomic():
        progress = StageProgress.objects.select_for_update().get(pk=progress_for(user).pk)
        if run_of(progress).status == stage_run.IN_HAND:
            raise StageError(_("Finish the hand in play first."))
        run = stage_run.start()
        _leave_table(progress)
        _save(progress, run, table=None)
        return run


def _move_on(user, status: str, step) -> StageRun:
    with transaction.atomic():
        progress = StageProgress.objects.select_for_update().get(pk=progress_for(user).pk)
        run = run_of(progress)
        if run.status != status:
            raise StageError(_("That is not possible now."))
        run = step(run)
        _leave_table(progress)
        _save(progress, run, table=None)
        return run


def _leave_table(progress: StageProgress) -> None:
    """The finished attempt's table closes (its last hand is over: no escape)."""
    table = live_table(progress)
    if table is not None:
        tables.leave(table, progress.user)


# ----- hooks called by tables.services inside its transaction ----------------------------


def _progress_at(table: Table) -> StageProgress | None:
    return StageProgress.objects.select_for_update().filter(table=table).first()


def stake_for_next_hand(table: Table, number: int) -> str | None:
    """Before hand ``number`` at a stage table: place the stake, or say why not (the
    table then closes; the stage screen shows the way on)."""
    progress = _progress_at(table)
    if progress is None:
        return notes.encode(gettext_noop("This stage table is no longer in play."))
    run = run_of(progress)
    refusal = _refusal(progress.user, run)
    if refusal:
        return refusal
    run = stage_run.begin_hand(run)
    _save(progress, run)
    if run.status == stage_run.FAILED:
        return notes.encode(_FAILED)
    _post_stake(progress.user, run, table.public_id, number)
    return None


def settle_stage_hand(table: Table, number: int, state, score) -> dict:
    """The hand's end for the climb (RULES.md 5.3): stake back and hand score on a win,
    stake back on a draw, nothing on a computer win or a leave; the best result kept.
    Returns what the table's result panel shows."""
    progress = _progress_at(table)
    if progress is None:
        return {}
    run = run_of(progress)
    if run.status != stage_run.IN_HAND:
        return {}
    outcome = state.outcome
    before, stake = run.score, run.level.stake
    rate = _staked_rate(progress.user, stake, table.public_id, number)
    won = outcome.winner == PLAYER_SEAT and outcome.context is not None and score is not None
    base_score = stage_hand_score(score) if won else 0
    run = stage_run.finish_hand(
        run,
        won=won,
        drawn=outcome.kind == DRAW,
        base_score=base_score,
        player_dealt=state.dealer == PLAYER_SEAT,
    )
    gained = run.score - before
    beans = gained * rate
    if beans:
        wallet.post(
            [(wallet.bank(), -beans), (progress.user, beans)],
            reason=wallet.Reason.SETTLEMENT,
            key=f"hand:{table.public_id}:{number}",
            ref=table.public_id,
            note="stage hand",
        )
    if run.status in (stage_run.CLEARED, stage_run.COMPLETE):
        progress.record_clear(run.stage, run.hands)
    _save(progress, run)
    return {
        "points": run.last_score,
        "deltas": [gained - run.level.stake, 0],
        "beans": [beans - stake * rate, 0],
        "stage": {
            "number": run.stage,
            "score": run.score,
            "pass_score": run.level.pass_score,
            "paid": run.last_score,
            "streak": run.streak,
            # 三连庄拍分 (RULES.md 5.4.1): the panel says why the hand scored double
            "doubled": won and run.last_score > base_score,
            "status": run.status,
        },
    }
