from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from catalogue.models import Ruleset
from mahjong.engine import stage_run

from .models import StageProgress, StageSettings

# A climb's status as the engine stores it ("ready"), said in the admin's language.
STATUS_LABELS = {
    stage_run.READY: _("between hands"),
    stage_run.IN_HAND: _("in a hand"),
    stage_run.CLEARED: _("stage cleared"),
    stage_run.COMPLETE: _("all stages cleared"),
    stage_run.FAILED: _("failed: retry the stage"),
}


@admin.register(StageProgress)
class StageProgressAdmin(admin.ModelAdmin):
    list_display = ("user", "stage", "score", "status", "best_stage", "best_hands", "updated_at")
    search_fields = ("user__username", "user__nickname")
    readonly_fields = ("run", "table", "best_at", "updated_at")
    ordering = ("-best_stage", "best_hands")

    def has_add_permission(self, request):
        return False  # a player's progress is made by the stage service on their first visit

    def get_readonly_fields(self, request, obj=None):
        # Whose climb it is: moving it to another account handed them its stake and table.
        return (*super().get_readonly_fields(request, obj), "user")

    @admin.display(description=_("stage"))
    def stage(self, obj):
        return obj.run.get("stage")

    @admin.display(description=_("score"))
    def score(self, obj):
        return obj.run.get("score")

    @admin.display(description=_("status"))
    def status(self, obj):
        status = obj.run.get("status")
        return STATUS_LABELS.get(status, status)


@admin.register(StageSettings)
class StageSettingsAdmin(admin.ModelAdmin):
    list_display = ("__str__", "beans_per_point")
    readonly_fields = ("probabilities",)

    @admin.display(description=_("offer and rigged-deal probabilities"))
    def probabilities(self, obj):
        """They are the stage ruleset's options: edited there, as overrides."""
        ruleset = Ruleset.objects.filter(engine_slug="stage").first()
        if ruleset is None:
            return "-"
        options = ", ".join(f"{k} = {v}" for k, v in ruleset.engine().options.items())
        url = reverse("admin:catalogue_ruleset_change", args=[ruleset.pk])
        return format_html('{} (<a href="{}">{}</a>)', options, url, _("edit the stage ruleset"))

    def has_add_permission(self, request):
        return not StageSettings.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False
