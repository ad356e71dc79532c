from django import forms
from django.utils.translation import gettext_lazy as _

from catalogue.models import SOLO_ENGINE_RULESETS, Ruleset
from mahjong.tables.models import Match

from . import rooms
from .models import PrivateRoom


class PrivateRoomForm(forms.Form):
    ruleset = forms.ModelChoiceField(
        label=_("Ruleset"),
        empty_label=None,
        queryset=Ruleset.objects.filter(is_active=True).exclude(
            engine_slug__in=SOLO_ENGINE_RULESETS
        ),
    )
    base_points = forms.IntegerField(
        label=_("Base (底分)"),
        min_value=1,
        max_value=rooms.MAX_BASE,
        initial=1,
        help_text=_("Points are multiplied by the base."),
    )


class JoinByCodeForm(forms.Form):
    # No max_length on the field: a longer paste was told Django's "at most 12 characters",
    # a limit that is not the code's; clean_code says how long a code is. The browser's
    # maxlength stays, with room for spaces around a pasted code.
    code = forms.CharField(
        label=_("Room code"),
        widget=forms.TextInput(
            attrs={
                "placeholder": "ABC234",
                "autocomplete": "off",
                "maxlength": "12",
                "aria-label": _("Room code"),
            }
        ),
    )

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_code(self):
        code = rooms.normalize_code(self.cleaned_data["code"])
        length = PrivateRoom._meta.get_field("code").max_length
        if len(code) != length:
            raise forms.ValidationError(
                _("Room codes are %(length)d characters.") % {"length": length}
            )
        self.room = PrivateRoom.objects.select_related("match").filter(code=code).first()
        if self.room is None:
            raise forms.ValidationError(_("No room has the code %(code)s.") % {"code": code})
        if self.room.state != PrivateRoom.State.OPEN and not self._back_to_own_match():
            # Its page says only that it is no longer open: say it here, where the code was
            # typed, rather than send the player to that dead end.
            raise forms.ValidationError(_("Room %(code)s is no longer open.") % {"code": code})
        return code

    def _back_to_own_match(self) -> bool:
        """A player of the room's match still in play: the room's page takes them to it."""
        match = self.room.match
        return (
            match is not None
            and match.state in (Match.State.READY, Match.State.PLAYING)
            and self.user is not None
            and self.user.is_authenticated
            and match.seat_of(self.user) is not None
        )
