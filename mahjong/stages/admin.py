from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from .models import StageProgress, StageSettings


@admin.register(StageProgress)
class StageProgressAdmin(admin.ModelAdmin):
    list_display = ("user", "stage", "score", "status", "best_stage", "best_hands", "updated_at")
    search_fields = ("user__username", "user__nickname")
    readonly_fields = ("run", "table", "best_at", "updated_at")
    raw_id_fields = ("user",)
    ordering = ("-best_stage", "best_hands")

    @admin.display(description=_("stage"))
    def stage(self, obj):
        return obj.run.get("stage")

    @admin.display(description=_("score"))
    def score(self, obj):
        return obj.run.get("score")

    @admin.display(description=_("status"))
    def status(self, obj):
        return obj.run.get("status")


@admin.register(StageSettings)
class StageSettingsAdmin(admin.ModelAdmin):
    list_display = ("__str__", "beans_per_point")

    def has_add_permission(self, request):
        return not StageSettings.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False
