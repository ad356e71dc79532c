"""Per-player settings, remembered on the user row so they follow the player to any
device: sound, emote mute, the table's comfort toggles and the language.

- /accounts/settings/           the settings page (a form of every preference)
- /accounts/settings/toggle/    one switch from the table (HTMX): name=auto_win&on=1
- /accounts/language/           the top bar's language switcher: Django's set_language,
                                and the choice stored on a logged-in player
- LanguagePreferenceMiddleware  a logged-in player's stored language wins over the
                                browser's cookie (e.g. on a new device after logging in)
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST
from django.views.i18n import set_language

from .models import User

# The switches a table page may flip on its own (each a BooleanField on User).
TOGGLES = ("sound_on", "motion_on", "emotes_muted", "auto_win", "auto_pass", "discard_drawn")


def _language_choices():
    return [("", gettext_lazy("As the browser says"))] + [
        (code, translation.get_language_info(code)["name_local"]) for code, _n in settings.LANGUAGES
    ]


class PreferencesForm(forms.ModelForm):
    language = forms.ChoiceField(label=gettext_lazy("Language"), required=False, choices=())

    class Meta:
        model = User
        fields = [*TOGGLES, "language"]
        help_texts = {
            "motion_on": gettext_lazy(
                "Tiles travel to the river, calls show large, a win turns its hand face up."
            ),
            "auto_win": gettext_lazy("Declare a win as soon as the rules allow it."),
            "auto_pass": gettext_lazy("Let every chow, pong and kong chance go without asking."),
            "discard_drawn": gettext_lazy(
                "When you have nothing else to decide, discard the tile you just drew."
            ),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["language"].choices = _language_choices()


@login_required
@require_http_methods(["GET", "POST"])
def page(request):
    form = PreferencesForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        # Said in the language the next page is shown in, which may be the new one.
        with translation.override(user.language or translation.get_language()):
            messages.success(request, _("Your settings are saved."))
        response = redirect("accounts:preferences")
        if user.language:
            remember_cookie(response, user.language)
        else:  # "as the browser says": the cookie of an earlier choice would still win
            response.delete_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                path=settings.LANGUAGE_COOKIE_PATH,
                domain=settings.LANGUAGE_COOKIE_DOMAIN,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            )
        return response
    return render(request, "accounts/preferences.html", {"form": form})


@login_required
@require_POST
def toggle(request):
    name, on = request.POST.get("name", ""), request.POST.get("on", "")
    if name not in TOGGLES or on not in ("0", "1"):
        return HttpResponseBadRequest(_("Unknown setting or value."))
    User.objects.filter(pk=request.user.pk).update(**{name: on == "1"})
    return HttpResponse(status=204)


@require_POST
def language(request):
    """The language switcher: Django's set_language (cookie and redirect), and for a
    logged-in player the choice is remembered on their account."""
    response = set_language(request)
    code = request.POST.get("language", "")
    if request.user.is_authenticated and translation.check_for_language(code):
        code = translation.get_supported_language_variant(code)
        User.objects.filter(pk=request.user.pk).update(language=code)
    return response


class LanguagePreferenceMiddleware:
    """After AuthenticationMiddleware: a player's stored language is the page's language,
    and the cookie is brought in line so the table's WebSocket pushes agree."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        wanted = user.language if user is not None and user.is_authenticated else ""
        cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        if not wanted or wanted == cookie or not translation.check_for_language(wanted):
            return self.get_response(request)
        translation.activate(wanted)
        request.LANGUAGE_CODE = translation.get_language()
        response = self.get_response(request)
        if settings.LANGUAGE_COOKIE_NAME not in response.cookies:  # not a switch just made
            remember_cookie(response, wanted)
        return response


def remember_cookie(response, code: str) -> None:
    """The language cookie as Django's set_language writes it."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
