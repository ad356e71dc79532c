"""The rule book's pages: public, read-only, one per ruleset the site offers."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET

from catalogue.models import Ruleset

from . import book
from . import calculator as fan_calculator


def _offered():
    return Ruleset.objects.filter(is_active=True)


@require_GET
def index(request):
    rulesets = [{"row": row, "summary": book.summary(row.engine_slug)} for row in _offered()]
    return render(
        request,
        "rulebook/index.html",
        {
            "rulesets": rulesets,
            "basics": book.play_rules("common"),
            "basics_summary": book.summary("common"),
        },
    )


def _row(slug: str) -> Ruleset:
    row = _offered().filter(slug=slug).first()
    if row is None:
        raise Http404("No such ruleset")
    return row


@require_GET
def ruleset(request, slug: str):
    row = _row(slug)
    rs = row.engine()
    return render(
        request,
        "rulebook/ruleset.html",
        {
            "row": row,
            "summary": book.summary(row.engine_slug),
            "facts": book.facts(rs),
            "formula": book.formula(rs),
            "play": book.play_rules(row.engine_slug),
            "fans": book.fan_rows(rs),
            "multiplies": book.multiplies(rs),
            "cap": rs.cap,
            "rooms": row.tiers.filter(is_active=True),
            "others": _offered().exclude(pk=row.pk),
        },
    )


@require_GET
def calculator(request, slug: str):
    """A GET form, so a scored hand has a link to share; htmx swaps the result alone."""
    row = _row(slug)
    form = fan_calculator.HandForm(request.GET or None, row.engine())
    context = {
        "row": row,
        "form": form,
        "result": fan_calculator.score(form) if form.is_valid() else None,
    }
    if request.htmx:
        return render(request, "rulebook/calculator.html#calculator", context)
    return render(request, "rulebook/calculator.html", context)
