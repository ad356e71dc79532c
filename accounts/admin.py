"""Admin for operators: players with their ledger, bean adjustments, bans and mutes.

Bean changes go through accounts.wallet like everywhere else; the balance field itself
is read-only here.
"""

import json
import uuid
from functools import partial

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.admin.models import LogEntry
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.core import validators
from django.db.models import Q
from django.forms.models import BaseInlineFormSet, BaseModelFormSet
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, ngettext_lazy

from mahjong.admin_readonly import ReadOnlyAdmin, ReadOnlyInline

from . import farming_admin, services, wallet
from .forms import (
    USERNAME_MAX_LENGTH,
    check_nickname_free,
    check_username_free,
    show_username_limit,
)
from .models import EconomySettings, LedgerEntry, RankLevel, User
from .templatetags.fan_names import fan_names


@admin.display(description=_("amount"), ordering="amount")
def _amount(entry) -> str:
    return f"{entry.amount:+,}"  # signed, grouped: 1,000 like the player's own ledger


@admin.display(description=_("balance after"), ordering="balance_after")
def _balance_after(entry) -> str:
    return f"{entry.balance_after:,}"


@admin.display(description=_("note"), ordering="note")
def _note(entry) -> str:
    # The site's own notes ("bot top-up", "stage stake") are stored in English: read in
    # the admin's language as on the player's profile; an operator's note is as typed.
    # The admin's mark for none: a list shows None as it, a read-only inline as "None".
    return entry.note_display or admin.site.empty_value_display


LEDGER_SHOWN = 50  # on a player's page; the whole ledger is a link away (ledger_link)
SKIPPED_NAMED = 10  # players a skip message names; a selection of 200 is "…" after them


class LatestLedgerFormSet(BaseInlineFormSet):
    """Only the newest LEDGER_SHOWN rows: the bank's ledger has a row per grant ever made,
    and a busy player's thousands; all of them made the page take seconds to minutes."""

    def get_queryset(self):
        if not hasattr(self, "_latest"):
            rows = super().get_queryset()
            newest = list(rows.values_list("pk", flat=True)[:LEDGER_SHOWN])
            self._latest = rows.filter(pk__in=newest)
        return self._latest


class LedgerInline(ReadOnlyInline):
    model = LedgerEntry
    fk_name = "account"
    formset = LatestLedgerFormSet
    fields = ("created_at", _amount, _balance_after, "reason", _note, "ref", "actor")
    ordering = ("-created_at", "-id")
    show_change_link = False
    verbose_name_plural = _("ledger (newest first)")

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("actor")


class AdjustBeansForm(forms.Form):
    amount = forms.IntegerField(
        label=_("Amount"),
        help_text=_("Positive to grant, negative to deduct, e.g. 5000 or -2000."),
        min_value=-wallet.MAX_ADJUSTMENT,
        max_value=wallet.MAX_ADJUSTMENT,
    )
    note = forms.CharField(
        label=_("Reason"), max_length=200, help_text=_("Recorded in each player's ledger.")
    )
    # One token per opened form: submitting the same form twice grants only once.
    token = forms.CharField(widget=forms.HiddenInput)

    def clean_amount(self):
        amount = self.cleaned_data["amount"]
        if amount == 0:
            raise forms.ValidationError(_("The amount must not be zero."))
        return amount


# What lifting a ban or a mute leaves alone; "n" picks the plural form.
NOT_BANNED = ngettext_lazy(
    "Skipped %(n)d player who was not banned: %(names)s.",
    "Skipped %(n)d players who were not banned: %(names)s.",
    "n",
)
NOT_MUTED = ngettext_lazy(
    "Skipped %(n)d player who was not muted: %(names)s.",
    "Skipped %(n)d players who were not muted: %(names)s.",
    "n",
)


ALREADY_FROZEN = ngettext_lazy(
    "Skipped %(n)d player who was frozen already: %(names)s.",
    "Skipped %(n)d players who were frozen already: %(names)s.",
    "n",
)
NOT_FROZEN = ngettext_lazy(
    "Skipped %(n)d player who was not frozen: %(names)s.",
    "Skipped %(n)d players who were not frozen: %(names)s.",
    "n",
)


class BanForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=200)


class MuteForm(forms.Form):
    hours = forms.IntegerField(label=_("Hours"), min_value=1, max_value=24 * 365, initial=24)


def _intermediate(modeladmin, request, queryset, *, form, title, action, submit):
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "form": form,
        "queryset": queryset,
        "action": action,
        "submit": submit,
        "action_checkbox_name": ACTION_CHECKBOX_NAME,
        "opts": modeladmin.model._meta,
    }
    return TemplateResponse(request, "admin/accounts/user/action_form.html", context)


class PlayerNames:
    """An operator's names are held to the players' own rules (accounts.forms): no second
    "Alice" on a leaderboard, no bots' badge, no invisible characters, and no user name
    that is another player's nickname. A name left as it was is not checked again."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields.get("username")  # read-only to a staff member without rights
        if field is not None:
            show_username_limit(field)

    def clean_nickname(self):
        nickname = self.cleaned_data["nickname"]
        if self.instance.pk and "nickname" not in self.changed_data:
            return nickname
        return check_nickname_free(nickname, exclude_pk=self.instance.pk)

    def clean_username(self):
        clean = getattr(super(), "clean_username", None)
        username = clean() if clean else self.cleaned_data["username"]
        if "username" not in self.changed_data:
            return username
        # Shown wherever a player has no nickname: held to sign-up's length, as 150
        # characters pushed every page wider than a phone.
        validators.MaxLengthValidator(USERNAME_MAX_LENGTH)(username)
        username = check_username_free(username, exclude_pk=self.instance.pk)
        # Sign-up and the add form refuse "ALICE" beside "alice" (log-in takes either case:
        # forms.stored_username); a rename was checked only in the exact case.
        others = User.objects.exclude(pk=self.instance.pk)
        if self.instance.pk and others.filter(username__iexact=username).exists():
            raise forms.ValidationError(self.instance.unique_error_message(User, ["username"]))
        return username


class PlayerCreationForm(PlayerNames, AdminUserCreationForm):
    class Meta(AdminUserCreationForm.Meta):
        model = User
        fields = ("username", "nickname")


class PlayerChangeForm(PlayerNames, UserChangeForm):
    class Meta(UserChangeForm.Meta):
        model = User

    def clean_rank_score(self):
        """No higher than the ladder's top: 999999 typed for 999 showed Lv.16 at once. A
        score live play has already taken past it is kept as it is."""
        score = self.cleaned_data["rank_score"]
        top = RankLevel.objects.order_by("-threshold").first()
        if top is None or score is None or "rank_score" not in self.changed_data:
            return score
        if score > max(top.threshold, self.instance.rank_score or 0):
            raise forms.ValidationError(
                _(
                    "The top rank level, %(level)s, starts at %(top)s: a rank score of "
                    "%(score)s is beyond the ladder."
                )
                % {"level": top.display_name, "top": f"{top.threshold:,}", "score": f"{score:,}"}
            )
        return score


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    form = PlayerChangeForm
    add_form = PlayerCreationForm
    list_display = (
        "username",
        "nickname_shown",
        "kind",
        "beans_shown",
        "rank_score",
        "games_played",
        "is_active",
        "muted_until",
        "date_joined",
    )
    list_filter = ("kind", "is_active", "is_staff")
    search_fields = ("username", "nickname", "email", "public_id")
    readonly_fields = (
        "public_id",
        "beans_shown",
        "ledger_link",
        "best_fans_shown",
        "leaderboards_shown",
        "last_login",
        "date_joined",
    )
    ordering = ("-date_joined",)
    inlines = [LedgerInline]
    actions = [
        "adjust_beans",
        "ban_players",
        "unban_players",
        "mute_players",
        "unmute_players",
        "freeze_leaderboards",
        "unfreeze_leaderboards",
    ]
    fieldsets = (
        (None, {"fields": ("username", "password", "public_id", "kind")}),
        (
            # Not "Player": right after the read-only Kind ("Player") it read "Player Player".
            _("Profile and record"),
            {
                "fields": (
                    "nickname",
                    "beans_shown",
                    "ledger_link",
                    "rank_score",
                    "games_played",
                    "games_won",
                    "best_fan",
                    "best_fans_shown",
                )
            },
        ),
        (
            _("Moderation"),
            {"fields": ("is_active", "ban_reason", "muted_until", "leaderboards_shown")},
        ),
        (
            _("Staff"),
            {
                "fields": ("is_staff", "is_superuser", "groups", "user_permissions"),
                "classes": ("collapse",),
            },
        ),
        (_("Dates"), {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = (
        (
            None,
            {
                "classes": ("wide",),
                "fields": ("username", "nickname", "usable_password", "password1", "password2"),
            },
        ),
    )

    # Who may run the site: only a superuser gives or takes these. A staff member with
    # the "change player" permission could otherwise make themselves a superuser.
    STAFF_FIELDS = ("is_staff", "is_superuser", "groups", "user_permissions")
    MODERATION_FIELDS = ("is_active", "ban_reason", "muted_until")

    def get_urls(self):
        # Before Django's own: its "<path:object_id>/" would take these for a player's id.
        view = self.admin_site.admin_view
        return [
            path(
                "bean-flows/",
                view(partial(farming_admin.bean_flows, self)),
                name="accounts_user_bean_flows",
            ),
            path(
                "bean-flows/<str:receiver>/<str:feeder>/",
                view(partial(farming_admin.bean_flow_evidence, self)),
                name="accounts_user_bean_flow_evidence",
            ),
            *super().get_urls(),
        ]

    def get_readonly_fields(self, request, obj=None):
        fields = super().get_readonly_fields(request, obj)
        if obj is not None:
            # What an account is was fixed when it was made (sign-up, the built-in bots,
            # house and bank): the bank may hold a negative balance, only it (the form
            # hit the database's check, a 500), a house or bank more is refused by a
            # constraint, and a player turned bot would be moved by the bot worker.
            fields = (*fields, "kind")
            if obj.kind != User.Kind.PLAYER:
                fields = (*fields, *self.MODERATION_FIELDS)  # see _players_of
        if not request.user.is_superuser:
            fields = (*fields, *self.STAFF_FIELDS)
        return fields

    # A player's record: an edit of it is logged with the values before and after.
    RECORD_FIELDS = ("rank_score", "games_played", "games_won", "best_fan")

    def construct_change_message(self, request, form, formsets, add=False):
        message = super().construct_change_message(request, form, formsets, add)
        edited = [f for f in self.RECORD_FIELDS if f in form.changed_data]
        if add or not edited:
            return message
        # A plain-text message (LogEntry shows it as written): the history then says
        # what the record was, not only that a field changed.
        said = LogEntry(change_message=json.dumps(message)).get_change_message()
        values = "; ".join(
            f"{form.fields[f].label}: {form.initial.get(f)!s} → {form.cleaned_data.get(f)!s}"
            for f in edited
        )
        return f"{said} {values}."

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        # Unticking "Active" is what the field's help tells an operator to do: a ban, made
        # through the same service as the action, so the player's tables close and they
        # leave the queue at once (not only at their next page); ticking it lifts the ban.
        if change and "is_active" in form.changed_data and obj.kind == User.Kind.PLAYER:
            if obj.is_active:
                services.unban(obj)
                obj.ban_reason = ""
            else:
                services.ban(obj, obj.ban_reason)

    def has_change_permission(self, request, obj=None):
        # A superuser's account (its password, its ban) is changed by superusers only.
        if obj is not None and obj.is_superuser and not request.user.is_superuser:
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        if obj is not None and obj.is_superuser and not request.user.is_superuser:
            return False
        return super().has_delete_permission(request, obj)

    @admin.display(description=_("nickname"), ordering="nickname")
    def nickname_shown(self, user) -> str:
        # A bot's, the bank's and the house's name in the admin's language, as on every
        # other page (their stored nicknames are Chinese); a player's as they chose it.
        if user.kind == User.Kind.PLAYER:
            return user.nickname or None  # None: the admin's "-" for none
        return user.display_name

    @admin.display(description=_("beans"), ordering="beans")
    def beans_shown(self, user) -> str:
        return f"{user.beans:,}"  # 1,000 as on the site; the raw 4040000 misreads easily

    # The fans are the settlement's record of a hand, not a figure to correct: shown, in
    # the admin's language. Setting the fan count to 0 clears the profile's biggest hand.
    @admin.display(description=_("biggest hand's fans"))
    def best_fans_shown(self, user) -> str:
        return fan_names(user.best_fans) or "-"

    @admin.display(description=_("ledger"))
    def ledger_link(self, user):
        if not user.pk:
            return "-"
        url = reverse("admin:accounts_ledgerentry_changelist")
        n = user.ledger.count()
        text = ngettext(
            "%(n)s entry; the newest %(shown)s are below",
            "%(n)s entries; the newest %(shown)s are below",
            n,
        ) % {"n": f"{n:,}", "shown": min(n, LEDGER_SHOWN)}
        return format_html(
            '{} · <a href="{}?account__id__exact={}">{}</a>', text, url, user.pk, _("show all")
        )

    @admin.display(description=_("leaderboards"))
    def leaderboards_shown(self, user) -> str:
        if not user.leaderboard_frozen:
            return _("Listed")
        return _("Frozen by %(operator)s at %(time)s") % {
            "operator": user.leaderboard_frozen_by or admin.site.empty_value_display,
            "time": date_format(timezone.localtime(user.leaderboard_frozen_at), "DATETIME_FORMAT"),
        }

    def get_inlines(self, request, obj):
        return self.inlines if obj else []  # a player being added has no ledger yet

    @admin.action(description=_("Grant or deduct beans…"), permissions=["change"])
    def adjust_beans(self, request, queryset):
        if self._touches_a_superuser(request, queryset) or self._pays_oneself(request, queryset):
            return None
        if "apply" in request.POST:
            form = AdjustBeansForm(request.POST)
            if form.is_valid():
                self._apply_adjustment(request, queryset, form.cleaned_data)
                return None
        else:
            form = AdjustBeansForm(initial={"token": uuid.uuid4().hex})
        return _intermediate(
            self,
            request,
            queryset,
            form=form,
            title=_("Grant or deduct beans"),
            action="adjust_beans",
            submit=_("Apply to these players"),
        )

    def _apply_adjustment(self, request, queryset, data):
        done = refused = 0
        for user in queryset:
            try:
                posting = wallet.adjust(
                    user,
                    data["amount"],
                    note=data["note"],
                    actor=request.user,
                    key=f"admin:{data['token']}:{user.public_id}",
                )
            except wallet.WalletError as exc:
                refused += 1
                self.message_user(request, str(exc), messages.ERROR)
            else:
                done += not posting.replayed
        if done:
            self.message_user(
                request,
                ngettext(
                    "Adjusted the beans of %(n)d player.",
                    "Adjusted the beans of %(n)d players.",
                    done,
                )
                % {"n": done},
                messages.SUCCESS,
            )
        elif not refused:  # every posting was a replay: the same form submitted again
            self.message_user(
                request,
                _("Nothing changed: this adjustment had been applied already."),
                messages.WARNING,
            )

    def _touches_a_superuser(self, request, queryset, refusal=None) -> bool:
        """A superuser's account is not a staff member's to change (has_change_permission),
        and an action is allowed by the permission alone: a staff member could mute one,
        lift a ban a superuser had made, or grant one beans. Refused with a message."""
        if request.user.is_superuser or not queryset.filter(is_superuser=True).exists():
            return False
        refusal = refusal or _("Only a superuser may change a superuser's account.")
        self.message_user(request, refusal, messages.ERROR)
        return True

    def _pays_oneself(self, request, queryset) -> bool:
        """No operator grants or deducts their own beans, a superuser neither: a grant is
        another operator's, named as its actor in the ledger. The whole selection is
        refused, so the rest is not half done."""
        if not queryset.filter(pk=request.user.pk).exists():
            return False
        self.message_user(
            request,
            _("You cannot grant or deduct your own beans: another operator must do it."),
            messages.ERROR,
        )
        return True

    def _players_of(self, request, queryset):
        """Bans and mutes are for players. A bot is one account per level, seated at many
        tables: its ban closed them all as its escape, each opponent paid the penalty
        from its float, and lifting it made the bot an active account. Bots, the bank and
        the house never log in or chat: they are left out, and the operator is told."""
        others = [str(user) for user in queryset.exclude(kind=User.Kind.PLAYER)]
        if others:
            self.message_user(
                request,
                _("Only players are banned or muted; left as they were: %(names)s.")
                % {"names": ", ".join(others)},
                messages.WARNING,
            )
        return queryset.filter(kind=User.Kind.PLAYER)

    def _moderated(self, request, queryset, refusal=None):
        """The players of a selection a ban or mute action applies to, or None (nothing to
        do, and the operator was told why): a staff member's selection with a superuser in
        it is refused whole, and bots, the bank and the house are left out."""
        if self._touches_a_superuser(request, queryset, refusal):
            return None
        players = self._players_of(request, queryset)
        return players if players.exists() else None

    def _skip(self, request, queryset, message) -> None:
        """Name the players an action leaves as they were (``message`` takes n and names):
        lifting a ban nobody had was reported as a success."""
        names = [str(user) for user in queryset[: SKIPPED_NAMED + 1]]
        if names:
            n = queryset.count() if len(names) > SKIPPED_NAMED else len(names)
            shown = ", ".join(names[:SKIPPED_NAMED]) + (", …" if n > SKIPPED_NAMED else "")
            self.message_user(request, message % {"n": n, "names": shown}, messages.WARNING)

    @admin.action(description=_("Ban (cannot log in)…"), permissions=["change"])
    def ban_players(self, request, queryset):
        queryset = self._moderated(request, queryset, _("Only a superuser may ban a superuser."))
        if queryset is None:
            return None
        form = BanForm(request.POST if "apply" in request.POST else None)
        if form.is_bound and form.is_valid():
            for user in queryset:
                services.ban(user, form.cleaned_data["reason"])
            n = len(queryset)
            self.message_user(
                request, ngettext("Banned %(n)d player.", "Banned %(n)d players.", n) % {"n": n}
            )
            return None
        return _intermediate(
            self,
            request,
            queryset,
            form=form,
            title=_("Ban players"),
            action="ban_players",
            submit=_("Ban"),
        )

    @admin.action(description=_("Lift the ban"), permissions=["change"])
    def unban_players(self, request, queryset):
        queryset = self._moderated(request, queryset)
        if queryset is None:
            return None
        self._skip(request, queryset.filter(is_active=True), NOT_BANNED)
        banned = list(queryset.filter(is_active=False))
        for user in banned:
            services.unban(user)
        if n := len(banned):
            self.message_user(
                request,
                ngettext("Lifted the ban of %(n)d player.", "Lifted the ban of %(n)d players.", n)
                % {"n": n},
            )

    @admin.action(description=_("Mute (no chat, no nickname change)…"), permissions=["change"])
    def mute_players(self, request, queryset):
        queryset = self._moderated(request, queryset)
        if queryset is None:
            return None
        form = MuteForm(request.POST if "apply" in request.POST else None)
        if form.is_bound and form.is_valid():
            for user in queryset:
                services.mute(user, form.cleaned_data["hours"])
            n = len(queryset)
            self.message_user(
                request, ngettext("Muted %(n)d player.", "Muted %(n)d players.", n) % {"n": n}
            )
            return None
        return _intermediate(
            self,
            request,
            queryset,
            form=form,
            title=_("Mute players"),
            action="mute_players",
            submit=_("Mute"),
        )

    @admin.action(description=_("Unmute"), permissions=["change"])
    def unmute_players(self, request, queryset):
        queryset = self._moderated(request, queryset)
        if queryset is None:
            return None
        # A mute whose time is up is no mute (User.is_muted): nothing to lift.
        is_muted = Q(muted_until__gt=timezone.now())
        self._skip(request, queryset.exclude(is_muted), NOT_MUTED)
        muted = list(queryset.filter(is_muted))
        for user in muted:
            services.unmute(user)
        if n := len(muted):
            self.message_user(
                request, ngettext("Unmuted %(n)d player.", "Unmuted %(n)d players.", n) % {"n": n}
            )

    @admin.action(description=_("Freeze from the leaderboards"), permissions=["change"])
    def freeze_leaderboards(self, request, queryset):
        """Beans farmed from other accounts (the Suspicious bean flows page posts here)
        win no place on a leaderboard; the player plays on. Who and when are kept on
        the account and in its history."""
        players = self._on_leaderboards(request, queryset)
        if players is None:
            return self._back(request)
        frozen = [user for user in players if services.freeze_leaderboards(user, request.user)]
        for user in frozen:
            self.log_change(request, user, "Frozen from the leaderboards")
        self._skip(request, players.exclude(pk__in=[u.pk for u in frozen]), ALREADY_FROZEN)
        if n := len(frozen):
            self.message_user(
                request,
                ngettext(
                    "Froze %(n)d player from the leaderboards.",
                    "Froze %(n)d players from the leaderboards.",
                    n,
                )
                % {"n": n},
            )
        return self._back(request)

    @admin.action(description=_("Let back on the leaderboards"), permissions=["change"])
    def unfreeze_leaderboards(self, request, queryset):
        players = self._on_leaderboards(request, queryset)
        if players is None:
            return None
        thawed = [user for user in players if services.unfreeze_leaderboards(user)]
        for user in thawed:
            self.log_change(request, user, "Let back on the leaderboards")
        self._skip(request, players.exclude(pk__in=[u.pk for u in thawed]), NOT_FROZEN)
        if n := len(thawed):
            self.message_user(
                request,
                ngettext(
                    "Let %(n)d player back on the leaderboards.",
                    "Let %(n)d players back on the leaderboards.",
                    n,
                )
                % {"n": n},
            )
        return None

    def _on_leaderboards(self, request, queryset):
        """The players of a selection (only players are ranked), or None: a staff
        member's selection with a superuser in it is refused whole."""
        if self._touches_a_superuser(request, queryset):
            return None
        return queryset.filter(kind=User.Kind.PLAYER)

    def _back(self, request):
        """Back to the page the action was posted from (the bean flows page sends
        ``next``), if it is one of this site's; else the player list, as any action."""
        target = request.POST.get("next", "")
        if url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
            return HttpResponseRedirect(target)
        return None


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = (
        "created_at",
        "account",
        _amount,
        _balance_after,
        "reason",
        _note,
        "ref",
        "counterpart",
        "actor",
    )
    list_filter = ("reason",)
    list_select_related = ("account", "actor", "counterpart")
    search_fields = ("account__username", "account__nickname", "idempotency_key", "ref", "note")
    date_hierarchy = "created_at"


class RankLadderFormSet(BaseModelFormSet):
    """The list edits several thresholds at once: each row is checked against the others
    as submitted. Checked one by one against the saved ladder, two rows each in order
    with it were saved out of order together (level 2 at 70, level 3 at 50), and a pair
    raised together in order was refused for the old value of the other."""

    def full_clean(self):
        if self.is_bound:
            ladder = {
                pk: (level, threshold)
                for pk, level, threshold in RankLevel.objects.values_list(
                    "pk", "level", "threshold"
                )
            }
            for form in self.forms:
                threshold = _whole_number(form["threshold"].data)
                if form.instance.pk in ladder and threshold is not None:
                    ladder[form.instance.pk] = (form.instance.level, threshold)
            for form in self.forms:
                form.instance.ladder = [v for pk, v in ladder.items() if pk != form.instance.pk]
        super().full_clean()


def _whole_number(text) -> int | None:
    try:
        return int(text)
    except (TypeError, ValueError):
        return None  # the field says what is wrong with it


@admin.register(RankLevel)
class RankLevelAdmin(admin.ModelAdmin):
    list_display = ("level", "name", "name_en", "threshold")
    list_editable = ("name", "name_en", "threshold")
    search_fields = ("name", "name_en")

    def get_changelist_formset(self, request, **kwargs):
        return super().get_changelist_formset(request, formset=RankLadderFormSet, **kwargs)


@admin.register(EconomySettings)
class EconomySettingsAdmin(admin.ModelAdmin):
    list_display = ("__str__", "signup_grant", "relief_amount")

    def has_add_permission(self, request):
        return not EconomySettings.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False
