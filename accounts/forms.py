import unicodedata

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core import validators
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from . import bans, throttle
from .models import BOT_BADGE, User

# Control, format (zero-width, direction marks), private-use, unassigned, line/paragraph
# separators: nothing a reader sees, or text that reorders what follows it.
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"})


def check_nickname_free(nickname: str, *, exclude_pk=None) -> str:
    """A name shown as nobody else's: not another player's nickname, nor another's user
    name (shown when they have no nickname), nor with the bots' badge."""
    # NFKC first: a full-width "ａｌｉｃｅ" is then the "alice" it looks like.
    nickname = unicodedata.normalize("NFKC", nickname).strip()
    if any(unicodedata.category(ch) in INVISIBLE_CATEGORIES for ch in nickname):
        # A zero-width space made "alice\u200b" pass as a second "alice", and a nickname
        # of only invisible characters showed as a blank name.
        raise forms.ValidationError(_("A nickname cannot hold invisible or control characters."))
    limit = User._meta.get_field("nickname").max_length
    if len(nickname) > limit:  # NFKC may lengthen it ("㍻" is "平成")
        raise forms.ValidationError(
            _("A nickname is at most %(limit)d characters.") % {"limit": limit}
        )
    if BOT_BADGE in nickname:
        raise forms.ValidationError(
            _("A nickname cannot hold the bots' badge %(badge)s.") % {"badge": BOT_BADGE}
        )
    others = User.objects.exclude(pk=exclude_pk)
    taken = others.filter(Q(nickname__iexact=nickname) | Q(username__iexact=nickname))
    if nickname and taken.exists():
        raise forms.ValidationError(_("This nickname is taken."))
    return nickname


USERNAME_MAX_LENGTH = 24  # as a nickname's


def show_username_limit(field) -> None:
    """The browser's limit and the help text of a user name field, in sign-up's words."""
    field.widget.attrs["maxlength"] = str(USERNAME_MAX_LENGTH)
    field.help_text = _(
        "Required. At most %(limit)d characters: letters (Chinese characters too), digits"
        " and @ . + - _ only."
    ) % {"limit": USERNAME_MAX_LENGTH}


def check_username_free(username: str, exclude_pk=None) -> str:
    """A user name may not be another player's nickname: both would show the same name."""
    others = User.objects.exclude(pk=exclude_pk) if exclude_pk else User.objects
    if others.filter(nickname__iexact=username).exists():
        raise forms.ValidationError(_("This name is another player's nickname."))
    return username


class SignupForm(UserCreationForm):
    nickname = forms.CharField(
        label=_("Nickname"),
        max_length=24,
        required=False,
        help_text=_("Shown at the table and on leaderboards. Optional."),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "nickname")
        # The model's UnicodeUsernameValidator takes any letter (\w), Chinese ones too;
        # Django's Chinese message said only English letters (英文字母) and left out "+".
        error_messages = {
            "username": {
                "invalid": _(
                    "Enter a valid user name: letters (Chinese characters too), digits and"
                    " @ . + - _ only, without spaces."
                )
            }
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The user name is shown wherever a player has no nickname, so it is held to the
        # nickname's length: a 150-character name pushed every page wider than a phone.
        field = self.fields["username"]
        field.max_length = USERNAME_MAX_LENGTH
        field.validators.append(validators.MaxLengthValidator(USERNAME_MAX_LENGTH))
        show_username_limit(field)

    def clean_username(self):
        return check_username_free(super().clean_username())

    def clean_nickname(self):
        return check_nickname_free(self.cleaned_data["nickname"])


class NicknameForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("nickname",)
        labels = {"nickname": _("Nickname")}
        # The profile shows the field inline, without its <label>: name it for screen readers,
        # and say what it is on screen while empty (a player without a nickname saw a blank box).
        widgets = {
            "nickname": forms.TextInput(
                attrs={"aria-label": _("Nickname"), "placeholder": _("Nickname")}
            )
        }

    def clean_nickname(self):
        return check_nickname_free(self.cleaned_data["nickname"], exclude_pk=self.instance.pk)


def stored_username(typed: str) -> str:
    """The account's user name as stored, for one typed in another case ("alice" for
    "Alice"): sign-up lets nobody take a name that differs only in case, so log-in does
    not ask for the case either. An exact match wins; names that differ only in case (an
    operator's rename made them before the admin refused it) are ambiguous: kept as typed."""
    names = User.objects.filter(username__iexact=typed).values_list("username", flat=True)
    names = list(names[:2])
    if typed in names or len(names) != 1:
        return typed
    return names[0]


class LoginForm(AuthenticationForm):
    """Django's login form, refusing further guesses after repeated failures."""

    def clean(self):
        username = self.cleaned_data.get("username") or ""
        if self.request is not None and throttle.login_blocked(self.request, username):
            minutes = settings.LOGIN_FAILURE_WINDOW // 60
            raise forms.ValidationError(
                ngettext(
                    "Too many failed log-ins. Try again in %(minutes)d minute.",
                    "Too many failed log-ins. Try again in %(minutes)d minutes.",
                    minutes,
                )
                % {"minutes": minutes},
                code="throttled",
            )
        if username:  # the failure count above is kept per lower-cased name already
            username = self.cleaned_data["username"] = stored_username(username)
        try:
            cleaned = super().clean()
        except forms.ValidationError:
            # a right password refused for another reason (the admin's staff check) is no
            # guess: counted, it locked a player out of the site for trying /admin/login/
            if self.request is not None and self.user_cache is None:
                throttle.hit(
                    throttle.login_key(self.request, username), settings.LOGIN_FAILURE_WINDOW
                )
            self._refuse_if_banned(username, self.cleaned_data.get("password") or "")
            raise
        if self.request is not None:
            throttle.reset(throttle.login_key(self.request, username))
        return cleaned

    @staticmethod
    def _refuse_if_banned(username: str, password: str) -> None:
        """The backend refuses a banned player as if the password were wrong; whoever
        knows the password is told the truth instead (it reveals nothing to a guesser)."""
        user = User.objects.filter(username=username, is_active=False, kind=User.Kind.PLAYER)
        user = user.first()
        if user is None or not password or not user.check_password(password):
            return
        raise forms.ValidationError(bans.message(user), code="banned")


class AdminLoginForm(LoginForm, AdminAuthenticationForm):
    """The admin's log-in, with the site's lockout and any-case user name: Django's own
    form let a guesser try an operator's password without end at /admin/login/.
    AdminAuthenticationForm adds only its staff check, which LoginForm's clean reaches."""
