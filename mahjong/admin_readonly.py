"""Model admins and inlines that show rows and never write them: for the records of what
happened (ledger legs, ratings, tables), which only the services that made them change."""

from django.contrib import admin


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyInline(admin.TabularInline):
    """The rows of such a record under their parent: shown, never added, changed or
    deleted there (list the shown fields in ``fields``; they are all read-only)."""

    extra = 0
    can_delete = False

    def get_readonly_fields(self, request, obj=None):
        return self.fields

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False
