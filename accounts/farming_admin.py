"""The admin's "Suspicious bean flows" page (accounts.farming) and each pair's evidence:
the ledger rows of the hands settled between the two. Reached from the admin's index;
freezing a pair's receiver from the leaderboards is the players' admin action, posted
from the page."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from . import farming
from .models import EconomySettings, User

PERIOD_LABELS = {
    "7": _("Last 7 days"),
    "30": _("Last 30 days"),
    "all": _("Since the start"),
}


def _period(request) -> str:
    period = request.GET.get("period", "")
    return period if period in farming.PERIODS else farming.DEFAULT_PERIOD


def _check_viewer(model_admin, request) -> None:
    """Staff who may see the players (admin_view has sent everyone else to log in)."""
    if not model_admin.has_view_permission(request):
        raise PermissionDenied


def _context(model_admin, request, period: str, **extra) -> dict:
    return {
        **model_admin.admin_site.each_context(request),
        "opts": User._meta,
        "period": period,
        "periods": [(key, PERIOD_LABELS[key]) for key in farming.PERIODS],
        **extra,
    }


def bean_flows(model_admin, request):
    """The pairs whose flows pass the operator's thresholds (EconomySettings)."""
    _check_viewer(model_admin, request)
    period = _period(request)
    economy = EconomySettings.load()
    pairs = farming.suspicious_pairs(
        farming.since(period),
        threshold=economy.farming_threshold,
        share_percent=economy.farming_share,
    )
    context = _context(
        model_admin,
        request,
        period,
        title=_("Suspicious bean flows"),
        pairs=pairs,
        economy=economy,
        can_freeze=model_admin.has_change_permission(request),
        settings_url=reverse("admin:accounts_economysettings_change", args=[economy.pk]),
    )
    return TemplateResponse(request, "admin/accounts/user/bean_flows.html", context)


def bean_flow_evidence(model_admin, request, receiver: str, feeder: str):
    """The ledger rows of every hand settled between two players."""
    _check_viewer(model_admin, request)
    period = _period(request)
    players = User.objects.filter(kind=User.Kind.PLAYER)
    one = get_object_or_404(players, public_id=receiver)
    other = get_object_or_404(players, public_id=feeder)
    rows = farming.evidence(one, other, farming.since(period))
    context = _context(
        model_admin,
        request,
        period,
        title=_("Bean flows between %(one)s and %(other)s") % {"one": one, "other": other},
        receiver=one,
        feeder=other,
        rows=rows[: farming.EVIDENCE_SHOWN],
        total=rows.count(),
        shown=farming.EVIDENCE_SHOWN,
        ledger_url=reverse("admin:accounts_ledgerentry_changelist"),
    )
    return TemplateResponse(request, "admin/accounts/user/bean_flow_evidence.html", context)
