from django import forms
from django.utils.translation import gettext_lazy as _

from . import rooms
from .models import SOLO_ENGINE_RULESETS, PrivateRoom, Ruleset


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
    code = forms.CharField(
        label=_("Room code"),
        max_length=12,
        widget=forms.TextInput(attrs={"placeholder": "ABC234", "autocomplete": "off",
                                     "aria-label": _("Room code")}),
    )

    def clean_code(self):
        code = rooms.normalize_code(self.cleaned_data["code"])
        self.room = PrivateRoom.objects.filter(code=code).first()
        if self.room is None:
            raise forms.ValidationError(_("No room has the code %(code)s.") % {"code": code})
        return code
