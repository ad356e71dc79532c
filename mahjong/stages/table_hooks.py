"""The climb's part in a stage table's write path and screens (mahjong.tables.hooks),
connected at start-up by StagesConfig.ready."""

from django.dispatch import receiver

from mahjong.tables import hooks

from . import services


@receiver(hooks.stage_hand_settled, dispatch_uid="stages.settle_stage_hand")
def settle_stage_hand(sender, table, number, state, score, **kwargs) -> dict:
    return services.settle_stage_hand(table, number, state, score)


@receiver(hooks.stage_hand_starting, dispatch_uid="stages.stake_for_next_hand")
def stake_for_next_hand(sender, table, number, **kwargs) -> str | None:
    return services.stake_for_next_hand(table, number)


@receiver(hooks.stage_run_shown, dispatch_uid="stages.run_at")
def run_at(sender, table, **kwargs):
    return services.run_at(table)
