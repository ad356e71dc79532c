"""A model admin that shows rows and never writes them: for the records of what happened
(ledger legs, ratings), which only the services that made them may change."""

from django.contrib import admin


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
