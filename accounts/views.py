"""Sign-up and profiles. Log in/out and password change are Django's views (urls.py)."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from . import ranks, services, throttle
from .forms import NicknameForm, SignupForm
from .models import EconomySettings, User
from .signals import password_changed, profile_context


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's view; the player's other sessions lose their open table sockets too, which
    a new password otherwise only logged out at their next HTTP request."""

    def form_valid(self, form):
        kept_session = self.request.session.session_key  # before Django cycles the key
        response = super().form_valid(form)
        password_changed.send(sender=User, user_id=form.user.pk, kept_session=kept_session)
        return response


def _next_url(request) -> str:
    """The page that sent the visitor to sign up (a friend's room link, through the log-in
    page), if it is one of this site's; else ""."""
    url = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return url if safe else ""


@require_http_methods(["GET", "POST"])
def signup(request):
    next_url = _next_url(request)
    if request.user.is_authenticated:
        return redirect(next_url or "lobby:home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid() and not throttle.signup_allowed(request):
        form.add_error(
            None, _("Too many new accounts from your network today. Try again tomorrow.")
        )
    elif request.method == "POST" and form.is_valid():
        user = services.register(
            username=form.cleaned_data["username"],
            password=form.cleaned_data["password1"],
            nickname=form.cleaned_data.get("nickname", ""),
        )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _welcome(user))
        return redirect(next_url or "lobby:home")
    # The page promises the grant only when there is one (the operator may set it to 0).
    grant = EconomySettings.load().signup_grant
    return render(
        request, "accounts/signup.html", {"form": form, "next": next_url, "signup_grant": grant}
    )


def _welcome(user) -> str:
    """The new player's greeting, with the beans the sign-up grant gave (none when the
    operator set it to 0: "you received 0 beans" read as an error)."""
    if not user.beans:
        return _("Welcome!")
    return _("Welcome! You received %(beans)s beans to start with.") % {"beans": f"{user.beans:,}"}


@login_required
def my_profile(request):
    return redirect(request.user.get_absolute_url())


def player(request, public_id):
    shown = get_object_or_404(User, public_id=public_id, kind__in=[User.Kind.PLAYER, User.Kind.BOT])
    is_me = request.user.is_authenticated and request.user.pk == shown.pk
    context = {
        "shown": shown,
        "is_me": is_me,
        "rank": ranks.progress(shown.rank_score),
        **profile_context(shown),
        "nickname_form": NicknameForm(instance=shown) if is_me else None,
        "ledger": shown.ledger.all()[:20] if is_me else None,
    }
    return render(request, "accounts/profile.html", context)


@login_required
@require_http_methods(["POST"])
def edit_nickname(request):
    user = request.user
    form = NicknameForm(request.POST, instance=user)
    if user.is_muted:
        form.add_error(None, _("You are muted and cannot change your nickname right now."))
    elif form.is_valid():
        form.save()
        if not request.htmx:
            messages.success(request, _("Nickname saved."))
            return redirect(user.get_absolute_url())
        # Said in the fragment: a message would wait in the session for the next page.
        return render(
            request,
            "accounts/profile.html#nickname",
            {
                "shown": user,
                "is_me": True,
                "nickname_form": NicknameForm(instance=user),
                "saved": True,
                "oob": True,
            },
        )
    else:
        user.refresh_from_db(fields=["nickname"])
    context = {"shown": user, "is_me": True, "nickname_form": form}
    if request.htmx:
        return render(request, "accounts/profile.html#nickname", context)
    return render(
        request,
        "accounts/profile.html",
        {
            **context,
            "rank": ranks.progress(user.rank_score),
            **profile_context(user),
            "ledger": user.ledger.all()[:20],
        },
    )
