"""The Django admin as an operator uses it: validation messages, actions, lists."""

import re

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse

from accounts.models import LedgerEntry, User
from catalogue.models import Leaderboard, RoomTier, Ruleset
from mahjong.ratings.models import HandResult

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(builtin, client):
    admin = User.objects.create_superuser("boss", "boss@example.com", "pw-boss-123456")
    client.force_login(admin)
    client.cookies.load({"django_language": "en"})  # assert on English admin messages
    return admin


def ruleset_form(ruleset, **changes):
    data = {
        "slug": ruleset.slug,
        "engine_slug": ruleset.engine_slug,
        "name": ruleset.name,
        "name_en": ruleset.name_en,
        "overrides": "{}",
        "is_active": "on",
        "ordering": ruleset.ordering,
    }
    data.update(changes)
    return data


def change_url(ruleset):
    return reverse("admin:catalogue_ruleset_change", args=[ruleset.pk])


def form_errors(response, field):
    return response.context["adminform"].form.errors[field]


def test_a_value_the_engine_refuses_shows_the_engines_message(staff, client):
    classic = Ruleset.objects.get(slug="classic")
    response = client.post(change_url(classic), ruleset_form(classic, cap="-3"))
    assert response.status_code == 200
    assert form_errors(response, "cap") == [
        "Cap must be left empty or be a whole number from 1 to 1000; got -3."
    ]
    assert "overrides" not in response.context["adminform"].form.errors
    page = response.content.decode()
    assert "<th>Cap</th><td>13</td>" in page  # the saved rules, not the refused ones
    classic.refresh_from_db()
    assert classic.overrides == {}


def test_common_overrides_are_plain_fields_with_the_engine_default_shown(staff, client):
    classic = Ruleset.objects.get(slug="classic")
    page = client.get(change_url(classic)).content.decode()
    assert "Engine default: 13" in page and "Engine default: 15" in page  # cap, decision timer
    response = client.post(
        change_url(classic),
        ruleset_form(
            classic,
            cap="10",
            decision_timer="20",
            auto_win_on_timeout="no",
            fan__qing_yi_se="6",
        ),
    )
    assert response.status_code == 302
    classic.refresh_from_db()
    assert classic.overrides == {
        "cap": 10,
        "timers": {"decision": 20},
        "auto_win_on_timeout": False,
        "fan_values": {"qing_yi_se": 6},
    }
    rules = classic.engine()
    assert (rules.cap, rules.timers.decision, rules.auto_win_on_timeout) == (10, 20, False)
    page = client.get(change_url(classic)).content.decode()
    assert "<th>Cap</th><td>10</td>" in page
    # The JSON box shows only what has no field of its own.
    form = client.get(change_url(classic)).context["adminform"].form
    assert form.initial["overrides"] == {}
    assert form.initial["cap"] == 10 and form.initial["decision_timer"] == 20
    assert form.initial["fan__qing_yi_se"] == 6


def test_clearing_a_field_returns_to_the_engine_value(staff, client):
    classic = Ruleset.objects.get(slug="classic")
    classic.overrides = {"cap": 10, "timers": {"decision": 20}}
    classic.save()
    client.post(change_url(classic), ruleset_form(classic, decision_timer="20"))
    classic.refresh_from_db()
    assert classic.overrides == {"timers": {"decision": 20}}


def test_a_timer_out_of_range_is_reported_at_the_timer(staff, client):
    classic = Ruleset.objects.get(slug="classic")
    response = client.post(change_url(classic), ruleset_form(classic, decision_timer="1"))
    assert (
        form_errors(response, "decision_timer")[0]
        == "Decision timer (s) must be from 3 to 300; got 1."
    )


def test_an_unknown_override_names_what_is_allowed(staff, client):
    classic = Ruleset.objects.get(slug="classic")
    response = client.post(change_url(classic), ruleset_form(classic, overrides='{"tiles": 3}'))
    assert form_errors(response, "overrides")[0].startswith(
        '"tiles" cannot be overridden. Settings that can: auto_win_on_timeout, '
    )


def test_an_unknown_fan_is_refused_by_the_engine(staff, client):
    classic = Ruleset.objects.get(slug="classic")
    response = client.post(
        change_url(classic), ruleset_form(classic, overrides='{"fan_values": {"nope": 6}}')
    )
    [error] = form_errors(response, "overrides")
    assert error.startswith("Two-player Mahjong has no fan nope. Its fans: ")
    assert "qing_yi_se" in error and "da_si_xi" in error


def test_every_fan_is_a_field_with_its_names_and_default_and_saves_in_place(staff, client):
    """Fan values were JSON with internal keys the admin never listed (issue 31 item 12)."""
    from mahjong.engine.fans import table_for

    gb = Ruleset.objects.get(engine_slug="gb")
    page = client.get(change_url(gb)).content.decode()
    fans = table_for(gb.engine()).fans
    assert len(fans) > 80
    for fan in fans:
        assert f'name="fan__{fan.key}"' in page
    assert "清一色 / Full flush" in page and "qing_yi_se · engine default: 24" in page
    response = client.post(change_url(gb), ruleset_form(gb, fan__qing_yi_se="30", fan__hua_pai="0"))
    assert response.status_code == 302
    gb.refresh_from_db()
    assert gb.overrides == {"fan_values": {"qing_yi_se": 30, "hua_pai": 0}}
    page = client.get(change_url(gb)).content.decode()
    assert "<th>清一色 / Full flush</th><td>30</td>" in page  # the rules in effect
    client.post(change_url(gb), ruleset_form(gb, fan__hua_pai="0"))
    gb.refresh_from_db()
    assert gb.overrides == {"fan_values": {"hua_pai": 0}}  # blank is the default again


def test_a_fan_value_in_the_json_box_points_to_its_field(staff, client):
    classic = Ruleset.objects.get(slug="classic")
    response = client.post(
        change_url(classic), ruleset_form(classic, overrides='{"fan_values": {"qing_yi_se": 6}}')
    )
    assert "Set the fan values in their own fields above." in form_errors(response, "overrides")
    classic.refresh_from_db()
    assert classic.overrides == {}


def test_the_json_boxs_example_is_one_the_page_takes(staff, client):
    """Its help suggested {"fan_values": ...}, which the box refuses once fans are fields."""
    classic = Ruleset.objects.get(slug="classic")
    page = client.get(change_url(classic)).content.decode()
    example = re.search(r"as JSON, e\.g\. (\{.*?\}\})\. Leave", page).group(1)
    example = example.replace("&quot;", '"')
    assert "fan_values" not in example
    response = client.post(change_url(classic), ruleset_form(classic, overrides=example))
    assert response.status_code == 302
    classic.refresh_from_db()
    assert classic.overrides == {"haidi_draws": 5, "timers": {"bot_delay": 1}}


def test_a_new_rulesets_page_says_where_its_fans_are_set(staff, client):
    """The fan and option fields follow the engine ruleset, which a new one has not yet."""
    page = client.get(reverse("admin:catalogue_ruleset_add")).content.decode()
    assert "Fan values and options" in page
    assert "once the ruleset is saved" in page
    assert 'name="fan__' not in page


@pytest.mark.parametrize("typed, saved", [("0", 0.0), ("1", 1.0), ("0.25", 0.25)])
def test_the_stage_offer_probabilities_take_0_and_1(staff, client, typed, saved):
    """0 and 1 were refused ("must be a number; got 0"): only 0.0 and 1.0 were taken."""
    stage = Ruleset.objects.get(engine_slug="stage")
    page = client.get(change_url(stage)).content.decode()
    assert 'name="option__p_cuo"' in page and "p_cuo · engine default: 0.1" in page
    response = client.post(change_url(stage), ruleset_form(stage, option__p_cuo=typed))
    assert response.status_code == 302
    stage.refresh_from_db()
    assert stage.overrides == {"options": {"p_cuo": saved}}
    assert stage.engine().options["p_cuo"] == saved


def test_a_probability_over_one_is_refused_at_its_field(staff, client):
    stage = Ruleset.objects.get(engine_slug="stage")
    response = client.post(change_url(stage), ruleset_form(stage, option__p_swap="2"))
    assert response.status_code == 200 and form_errors(response, "option__p_swap")


def test_a_common_value_in_the_json_box_points_to_its_field(staff, client):
    classic = Ruleset.objects.get(slug="classic")
    response = client.post(change_url(classic), ruleset_form(classic, overrides='{"cap": 9}'))
    assert 'Set "Cap" in its own field above.' in form_errors(response, "overrides")
    classic.refresh_from_db()
    assert classic.overrides == {}


@pytest.mark.parametrize("typed, shown", [("null", "null"), ("[]", "[]"), ("[1]", "[1]")])
def test_overrides_that_are_no_json_object_are_refused_with_the_fields_above(
    staff, client, typed, shown
):
    """null was a server error (the column is NOT NULL); [] was saved as it was typed,
    and the cap typed with it was dropped without a word."""
    classic = Ruleset.objects.get(slug="classic")
    response = client.post(change_url(classic), ruleset_form(classic, cap="9", overrides=typed))
    assert response.status_code == 200
    assert form_errors(response, "overrides") == [
        f'Other overrides (JSON) must be a JSON object such as {{"name": value}}; got {shown}.'
    ]
    classic.refresh_from_db()
    assert classic.overrides == {}


def test_invalid_json_in_overrides_is_a_form_error(staff, client):
    classic = Ruleset.objects.get(slug="classic")
    response = client.post(change_url(classic), ruleset_form(classic, overrides="{cap: 3"))
    assert form_errors(response, "overrides")


ALLOWED = (
    "auto_win_on_timeout, bao_ting, base_points, cap, discard_multiplier, escape_penalty, "
    "fan_values, haidi_draws, max_guo, min_fan, options, rake_percent, rob_kong, "
    "self_draw_multiplier, tian_ting, timers"
)
# One row per kind of check the engine makes on overrides (mahjong.engine.errors
# RULESET_CHECKS): the ruleset row, what the operator typed, the field the message is
# under, and the message in the English and in the Chinese admin.
REFUSALS = [
    (
        "classic",
        {"decision_timer": "0"},
        "decision_timer",
        "Decision timer (s) must be from 3 to 300; got 0.",
        "出牌时限（秒）必须在 3 到 300 之间，当前为 0。",
    ),
    (
        "classic",
        {"cap": "-1"},
        "cap",
        "Cap must be left empty or be a whole number from 1 to 1000; got -1.",
        "封顶必须留空或是 1 到 1000 之间的整数，当前为 -1。",
    ),
    (
        "classic",
        {"min_fan": "-1"},
        "min_fan",
        "Minimum fan must be a whole number from 0 to 1000; got -1.",
        "起胡番数必须是 0 到 1000 之间的整数，当前为 -1。",
    ),
    (
        "classic",
        {"base_points": "0"},
        "base_points",
        "Base must be a whole number from 1 to 1000; got 0.",
        "底分必须是 1 到 1000 之间的整数，当前为 0。",
    ),
    # A typo of many digits: saved, it failed the settlement of the first hand it ended.
    (
        "classic",
        {"base_points": "99999999999"},
        "base_points",
        "Base must be a whole number from 1 to 1000; got 99999999999.",
        "底分必须是 1 到 1000 之间的整数，当前为 99999999999。",
    ),
    (
        "classic",
        {"escape_penalty": "1000000000000"},
        "escape_penalty",
        "Escape penalty must be a whole number from 0 to 1000; got 1000000000000.",
        "逃跑惩罚必须是 0 到 1000 之间的整数，当前为 1000000000000。",
    ),
    (
        "classic",
        {"self_draw_multiplier": "1000"},
        "self_draw_multiplier",
        "Self-draw multiplier must be a whole number from 1 to 10; got 1000.",
        "自摸倍数必须是 1 到 10 之间的整数，当前为 1000。",
    ),
    (
        "classic",
        {"cap": "100000"},
        "cap",
        "Cap must be left empty or be a whole number from 1 to 1000; got 100000.",
        "封顶必须留空或是 1 到 1000 之间的整数，当前为 100000。",
    ),
    (
        "classic",
        {"rake_percent": "150"},
        "rake_percent",
        "Rake % must be a whole number from 0 to 50; got 150.",
        "台费 %必须是 0 到 50 之间的整数，当前为 150。",
    ),
    (
        "classic",
        {"overrides": '{"bao_ting": "yes"}'},
        "overrides",
        '"bao_ting" must be true or false; got "yes".',
        '"bao_ting"必须是 true 或 false，当前为 "yes"。',
    ),
    (
        "classic",
        {"overrides": '{"timers": 5}'},
        "overrides",
        '"timers" must be a JSON object such as {"name": value}; got 5.',
        '"timers"必须是 JSON 对象，例如 {"name": value}，当前为 5。',
    ),
    (
        "classic",
        {"overrides": "[1, 2]"},
        "overrides",
        'Other overrides (JSON) must be a JSON object such as {"name": value}; got [1, 2].',
        '其他覆盖设置（JSON）必须是 JSON 对象，例如 {"name": value}，当前为 [1, 2]。',
    ),
    (
        "classic",
        {"overrides": '{"tiles": 3}'},
        "overrides",
        f'"tiles" cannot be overridden. Settings that can: {ALLOWED}.',
        f'"tiles"不能覆盖。可以覆盖的设置：{ALLOWED}。',
    ),
    (
        "classic",
        {"overrides": '{"timers": {"nap": 3}}'},
        "overrides",
        'There is no timer "nap". The timers are: '
        "decision, locked_delay, escape, bot_delay, claim_pause.",
        '没有计时器"nap"。计时器有：decision, locked_delay, escape, bot_delay, claim_pause。',
    ),
    (
        "classic",
        {"overrides": '{"options": {"nope": true}}'},
        "overrides",
        'Two-player Mahjong has no option "nope". Its options: none.',
        '二人麻将没有选项"nope"。它的选项：无。',
    ),
    (
        "stage",
        {"option__p_cuo": "1.5"},
        "option__p_cuo",
        "Chance of a pick-from-the-wall offer after a draw (搓牌) is a probability: it must be "
        "from 0 to 1; got 1.5.",
        "搓牌出现概率是概率，必须在 0 到 1 之间，当前为 1.5。",
    ),
    (
        "gb",
        {"fan__qing_yi_se": "-1"},
        "fan__qing_yi_se",
        "The value of the fan qing_yi_se must be a whole number from 0 to 1000; got -1.",
        "牌型 qing_yi_se 的番数必须是 0 到 1000 之间的整数，当前为 -1。",
    ),
    (
        "gb",
        {"fan__qing_yi_se": "99999999999999999999999"},
        "fan__qing_yi_se",
        "The value of the fan qing_yi_se must be a whole number from 0 to 1000; "
        "got 99999999999999999999999.",
        "牌型 qing_yi_se 的番数必须是 0 到 1000 之间的整数，当前为 99999999999999999999999。",
    ),
    (
        "classic",
        {"overrides": '{"bao_ting": false}'},
        "overrides",
        '"tian_ting" needs "bao_ting" to be true.',
        '"tian_ting"需要"bao_ting"为 true。',
    ),
    (
        "classic",
        {"overrides": '{"max_guo": 2}'},
        "overrides",
        '"max_guo" must be 0: Two-player Mahjong has no passing a win to double it (过胡); got 2.',
        '二人麻将没有过胡，"max_guo"必须为 0，当前为 2。',
    ),
    (
        "classic",
        {"overrides": '{"haidi_draws": 0}'},
        "overrides",
        '"haidi_draws" must be at least 1: Two-player Mahjong has a last-tiles phase (海底捞月); '
        "got 0.",
        '二人麻将有海底捞月阶段，"haidi_draws"必须不小于 1，当前为 0。',
    ),
    (
        "classic",
        {"overrides": '{"haidi_draws": 11}'},
        "overrides",
        '"haidi_draws" must be at most 10; got 11.',
        '"haidi_draws"不能大于 10，当前为 11。',
    ),
    (
        "classic",
        {"cap": "5", "min_fan": "6"},
        "cap",
        "Cap (5) must not be below Minimum fan (6).",
        "封顶（5）不能低于起胡番数（6）。",
    ),
    (
        "classic",
        {"discard_multiplier": "5"},
        "self_draw_multiplier",
        "Self-draw multiplier (3) must not be below Discard multiplier (5).",
        "自摸倍数（3）不能低于点炮倍数（5）。",
    ),
]


@pytest.mark.parametrize("slug,changes,field,english,chinese", REFUSALS)
def test_a_refused_override_is_said_in_the_admins_language_with_the_fields_label(
    staff, client, slug, changes, field, english, chinese
):
    row = Ruleset.objects.get(slug=slug)
    for language, expected in (("en", english), ("zh-hans", chinese)):
        client.cookies.load({"django_language": language})
        response = client.post(change_url(row), ruleset_form(row, **changes))
        assert response.status_code == 200
        errors = response.context["adminform"].form.errors
        assert errors.get(field) == [expected], errors
        assert Ruleset.objects.get(pk=row.pk).overrides == {}  # nothing saved


def test_the_checks_no_admin_field_reaches_are_said_in_both_languages():
    """An unknown ruleset or winning form (code, not the form, makes those)."""
    from django.utils import translation

    from catalogue.ruleset_messages import describe
    from mahjong.engine.errors import InvalidRuleset

    forms = InvalidRuleset("x", code="unknown_forms", setting=("forms",), value=["knitted"])
    slug = InvalidRuleset("x", code="unknown_ruleset", value="riichi", allowed=["classic"])
    with translation.override("en"):
        assert describe(forms) == 'Unknown winning forms: ["knitted"].'
        assert describe(slug) == 'There is no engine ruleset "riichi".'
    with translation.override("zh-hans"):
        assert describe(forms) == '未知的胡牌形式：["knitted"]。'
        assert describe(slug) == '没有引擎规则"riichi"。'


def test_a_room_tier_with_min_above_max_is_refused(staff, client):
    tier = RoomTier.objects.get(slug="novice")
    response = client.post(
        reverse("admin:catalogue_roomtier_change", args=[tier.pk]),
        {
            "slug": "novice",
            "name": "新手场",
            "name_en": "Novice",
            "ruleset": tier.ruleset_id,
            "beans_per_point": 50,
            "entry_min": 9_000,
            "entry_max": 8_000,
            "is_active": "on",
            "ordering": 0,
        },
    )
    assert response.context["adminform"].form.errors["entry_max"] == [
        "The maximum must not be below the minimum."
    ]


def test_a_room_played_in_cannot_be_deleted_and_the_operator_is_told_why(staff, client, alice, bob):
    """Deleting a room with tables said "your account doesn't have permission to delete
    the following types of objects: table", to a superuser too: the records of the games
    played in it keep it. The operator is told that, and to close the room instead."""
    from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME

    from mahjong.tables import services

    novice = RoomTier.objects.get(slug="novice")
    spare = RoomTier.objects.create(
        slug="spare",
        name="备用场",
        name_en="Spare",
        ruleset=novice.ruleset,
        beans_per_point=10,
        entry_min=0,
        entry_max=1_000,
    )
    services.open_table(novice.ruleset, [alice, bob], tier=novice, beans_per_point=50)
    said = [
        "Novice cannot be deleted: players have played or queued in it, and those records"
        " keep its name. Untick Open to close it instead."
    ]
    page = client.get(reverse("admin:catalogue_roomtier_delete", args=[novice.pk]), follow=True)
    assert page.redirect_chain[-1][0] == reverse(
        "admin:catalogue_roomtier_change", args=[novice.pk]
    )
    assert [str(m) for m in page.context["messages"]] == said
    assert "permission" not in page.content.decode()
    # The list's action refuses the whole selection, and the confirmed post too.
    changelist = reverse("admin:catalogue_roomtier_changelist")
    for data in ({}, {"post": "yes"}):
        done = client.post(
            changelist,
            {"action": "delete_selected", **data, ACTION_CHECKBOX_NAME: [novice.pk, spare.pk]},
            follow=True,
        )
        assert [str(m) for m in done.context["messages"]] == said
    assert RoomTier.objects.filter(pk__in=[novice.pk, spare.pk]).count() == 2
    # A room nobody has played in is deleted as before.
    asked = client.get(reverse("admin:catalogue_roomtier_delete", args=[spare.pk])).content.decode()
    assert "Are you sure you want to delete the room tier" in asked
    client.post(
        changelist,
        {"action": "delete_selected", "post": "yes", ACTION_CHECKBOX_NAME: [spare.pk]},
        follow=True,
    )
    assert not RoomTier.objects.filter(pk=spare.pk).exists()
    client.cookies.load({"django_language": "zh-hans"})
    page = client.get(reverse("admin:catalogue_roomtier_delete", args=[novice.pk]), follow=True)
    assert [str(m) for m in page.context["messages"]] == [
        "新手场 不能删除：已有玩家在其中对局或排队，这些记录保留着场次的名称。"
        "如要关闭，请取消勾选“开放”。"
    ]


def test_a_room_tier_cannot_play_the_single_player_stages(staff, client):
    tier = RoomTier.objects.get(slug="novice")
    response = client.post(
        reverse("admin:catalogue_roomtier_change", args=[tier.pk]),
        {
            "slug": "novice",
            "name": "新手场",
            "name_en": "Novice",
            "ruleset": Ruleset.objects.get(slug="stage").pk,
            "beans_per_point": 50,
            "entry_min": 1_000,
            "entry_max": 60_000,
            "is_active": "on",
            "ordering": 0,
        },
    )
    assert "played against the computer" in response.context["adminform"].form.errors["ruleset"][0]
    tier.refresh_from_db()
    assert tier.ruleset.slug == "classic"


def test_a_leaderboard_cannot_slice_a_running_total_by_period(staff, client):
    response = client.post(
        reverse("admin:catalogue_leaderboard_add"),
        {
            "name": "x",
            "metric": "beans",
            "period": "week",
            "size": 10,
            "visible": "on",
            "ordering": 0,
        },
    )
    assert "running total" in response.context["adminform"].form.errors["period"][0]
    response = client.post(
        reverse("admin:catalogue_leaderboard_add"),
        {
            "name": "周榜 新手场",
            "metric": "net_beans",
            "period": "week",
            "min_games": 0,
            "size": 10,
            "visible": "on",
            "tier": RoomTier.objects.get(slug="novice").pk,
            "ordering": 0,
        },
    )
    assert response.status_code == 302
    assert Leaderboard.objects.filter(name="周榜 新手场", tier__slug="novice").exists()


def _action(client, action, users, follow=False, **data):
    return client.post(
        reverse("admin:accounts_user_changelist"),
        {"action": action, ACTION_CHECKBOX_NAME: [u.pk for u in users], **data},
        follow=follow,
    )


def test_grant_beans_through_the_intermediate_form_writes_ledger_rows_once(
    staff, client, alice, bob
):
    form_page = _action(client, "adjust_beans", [alice, bob])
    assert form_page.status_code == 200 and b"Grant or deduct beans" in form_page.content
    token = form_page.context["form"].initial["token"]
    data = {"apply": "1", "amount": "5000", "note": "tournament prize", "token": token}
    _action(client, "adjust_beans", [alice, bob], **data)
    again = _action(client, "adjust_beans", [alice, bob], follow=True, **data)  # a double submit
    assert any("Nothing changed" in str(m) for m in again.context["messages"])
    for player in (alice, bob):
        player.refresh_from_db()
        assert player.beans == 25_000
        entry = player.ledger.get(reason="admin_grant")
        assert (entry.note, entry.actor) == ("tournament prize", staff)


def test_an_operator_cannot_grant_or_deduct_their_own_beans(staff, client, alice):
    """A staff member with the 'change player' permission, or a superuser, could grant
    themselves any amount: the ledger named them as the actor of their own grant. Refused
    whole, a selection with another player in it too, before and at the form."""
    from django.contrib.auth.models import Permission

    staffer = User.objects.create_user("staffer", password="pw-staff-123456", is_staff=True)
    staffer.user_permissions.add(
        *Permission.objects.filter(codename__in=["view_user", "change_user"])
    )
    refusal = ["You cannot grant or deduct your own beans: another operator must do it."]
    apply = {"apply": "1", "amount": "5000", "note": "bonus", "token": "t-self"}
    for operator in (staff, staffer):
        client.force_login(operator)
        opened = _action(client, "adjust_beans", [operator, alice], follow=True)
        assert [str(m) for m in opened.context["messages"]] == refusal
        done = _action(client, "adjust_beans", [operator, alice], follow=True, **apply)
        assert [str(m) for m in done.context["messages"]] == refusal
    assert not LedgerEntry.objects.filter(reason="admin_grant").exists()
    beans = dict(User.objects.values_list("username", "beans"))
    assert (beans["boss"], beans["staffer"], beans["alice"]) == (0, 0, 20_000)
    # Another operator's grant is theirs to make.
    client.force_login(staffer)
    _action(client, "adjust_beans", [alice], follow=True, **apply)
    assert User.objects.get(pk=alice.pk).beans == 25_000
    client.cookies.load({"django_language": "zh-hans"})
    said = _action(client, "adjust_beans", [staffer], follow=True)
    assert [str(m) for m in said.context["messages"]] == [
        "不能给自己发放或扣除欢乐豆：须由其他管理员操作。"
    ]


def test_a_deduction_larger_than_the_balance_is_refused_with_a_message(staff, client, alice):
    response = _action(
        client,
        "adjust_beans",
        [alice],
        apply="1",
        amount="-20001",
        note="abuse",
        token="t-1",
        follow=True,
    )
    alice.refresh_from_db()
    assert alice.beans == 20_000
    said = [str(m) for m in response.context["messages"]]
    assert any("Cannot pay 20,001: " in m and "20,000 beans" in m for m in said)
    assert not any("Adjusted" in m for m in said)  # nothing was, so no success is claimed


def test_an_amount_beyond_the_limit_is_a_form_error(staff, client, alice):
    for amount in ("99999999999999999999", "-1000000001"):
        response = _action(
            client, "adjust_beans", [alice], apply="1", amount=amount, note="typo", token="t-2"
        )
        assert response.status_code == 200 and response.context["form"].errors["amount"]
    alice.refresh_from_db()
    assert alice.beans == 20_000 and not LedgerEntry.objects.filter(reason="admin_grant").exists()


def test_the_adjust_form_requires_a_reason(staff, client, alice):
    response = _action(client, "adjust_beans", [alice], apply="1", amount="100", note="", token="t")
    assert response.status_code == 200 and response.context["form"].errors["note"]
    assert not LedgerEntry.objects.filter(reason="admin_grant").exists()


def test_ban_and_mute_actions(staff, client, alice, bob):
    _action(client, "ban_players", [alice], apply="1", reason="collusion")
    _action(client, "mute_players", [bob], apply="1", hours="24")
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert (alice.is_active, alice.ban_reason) == (False, "collusion")
    assert bob.is_muted
    _action(client, "unban_players", [alice])
    _action(client, "unmute_players", [bob])
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert alice.is_active and not bob.is_muted


def test_lifting_a_ban_or_a_mute_a_player_did_not_have_is_skipped_and_said(
    staff, client, alice, bob, outsider
):
    """'Lift the ban' on three players, one of them banned, said 'Lifted the ban of 3
    players.' and 'Unmuted' counted the unmuted too: the operator believed they had undone
    bans that never were. Those are left as they were and named."""
    import datetime

    from django.utils import timezone

    _action(client, "ban_players", [alice], apply="1", reason="collusion", follow=True)
    lifted = _action(client, "unban_players", [alice, bob, outsider], follow=True)
    assert [str(m) for m in lifted.context["messages"]] == [
        f"Skipped 2 players who were not banned: {outsider}, {bob}.",
        "Lifted the ban of 1 player.",
    ]
    assert User.objects.get(pk=alice.pk).is_active
    # A mute whose time is up is none: only Bob's is lifted, the rest are left untouched.
    _action(client, "mute_players", [bob], apply="1", hours="24", follow=True)
    ended = timezone.now() - datetime.timedelta(hours=1)
    User.objects.filter(pk=outsider.pk).update(muted_until=ended)
    unmuted = _action(client, "unmute_players", [alice, bob, outsider], follow=True)
    assert [str(m) for m in unmuted.context["messages"]] == [
        f"Skipped 2 players who were not muted: {outsider}, {alice}.",
        "Unmuted 1 player.",
    ]
    assert User.objects.get(pk=bob.pk).muted_until is None
    assert User.objects.get(pk=outsider.pk).muted_until == ended
    # Nobody to lift: only the skip is said, no success.
    none = _action(client, "unban_players", [bob], follow=True)
    assert [str(m) for m in none.context["messages"]] == [
        f"Skipped 1 player who was not banned: {bob}."
    ]
    client.cookies.load({"django_language": "zh-hans"})
    said = _action(client, "unmute_players", [alice], follow=True)
    assert [str(m) for m in said.context["messages"]] == [f"已跳过 1 位未被禁言的玩家：{alice}。"]


def test_a_skip_of_many_players_names_ten_and_counts_them_all(staff, client, make_player):
    """'Lift the ban' on a page of 12 unbanned players named all 12 in one message (200
    from a full page): the first ten are named, the count says how many."""
    players = [make_player(f"p{i:02d}") for i in range(12)]
    said = [
        str(m) for m in _action(client, "unban_players", players, follow=True).context["messages"]
    ]
    assert len(said) == 1 and said[0].startswith("Skipped 12 players who were not banned: ")
    assert said[0].endswith(", ….") and said[0].count(", ") == 10


def test_an_operator_can_add_a_player_with_a_nickname(staff, client):
    response = client.post(
        reverse("admin:accounts_user_add"),
        {
            "username": "vip",
            "nickname": "贵宾",
            "usable_password": "true",
            "password1": "a-long-pass-phrase",
            "password2": "a-long-pass-phrase",
        },
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    vip = User.objects.get(username="vip")
    assert (vip.nickname, vip.kind, vip.beans) == ("贵宾", "player", 0)
    assert vip.check_password("a-long-pass-phrase")


def test_the_player_page_shows_the_ledger_read_only(staff, client, alice):
    response = client.get(reverse("admin:accounts_user_change", args=[alice.pk]))
    inline = response.context["inline_admin_formsets"][0]
    assert inline.formset.queryset.count() == alice.ledger.count() == 1  # the sign-up grant
    assert not inline.has_add_permission and not inline.has_change_permission
    assert reverse("admin:accounts_ledgerentry_add") not in response.content.decode()


def test_player_search_by_nickname_and_no_query_per_row(
    staff, client, make_player, django_assert_max_num_queries
):
    for i in range(30):
        make_player(f"p{i}", nickname=f"雀友{i}")
    with django_assert_max_num_queries(12):
        response = client.get(reverse("admin:accounts_user_changelist"))
    assert response.status_code == 200
    found = client.get(reverse("admin:accounts_user_changelist"), {"q": "雀友7"})
    assert [u.username for u in found.context["cl"].result_list] == ["p7"]


@pytest.mark.parametrize(
    "model",
    [
        "ledgerentry",
        "roomtier",
        "ruleset",
        "leaderboard",
        "match",
        "queueticket",
        "privateroom",
        "ranklevel",
        "economysettings",
    ],
)
def test_every_admin_list_renders_with_few_queries(
    staff, client, model, alice, bob, django_assert_max_num_queries
):
    app = {
        "ledgerentry": "accounts",
        "ranklevel": "accounts",
        "economysettings": "accounts",
        "roomtier": "catalogue",
        "ruleset": "catalogue",
        "leaderboard": "catalogue",
        "match": "tables",
    }.get(model, "lobby")
    with django_assert_max_num_queries(15):
        response = client.get(reverse(f"admin:{app}_{model}_changelist"))
    assert response.status_code == 200


def test_tables_hands_and_events_are_looked_up_not_edited(staff, client, alice, bob):
    """Only tables.services opens and changes tables: the admin adds, edits and deletes none
    (a hand-added table without a hand broke the spectator page and the sweeper)."""
    from mahjong.tables import services
    from mahjong.tables.models import Event, Hand, Table

    table = services.open_table(Ruleset.objects.get(slug="classic"), [alice, bob])
    hand = table.current_hand()
    event = Event.objects.filter(hand=hand).first() or Event.objects.create(
        hand=hand, seq=99, version=1, kind="test", data={}
    )
    for model, row in ((Table, table), (Hand, hand), (Event, event)):
        name = f"admin:tables_{model._meta.model_name}"
        assert client.get(reverse(f"{name}_changelist")).status_code == 200
        assert client.get(reverse(f"{name}_add")).status_code == 403
        page = client.get(reverse(f"{name}_change", args=[row.pk]))
        assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
        assert client.post(reverse(f"{name}_change", args=[row.pk]), {}).status_code == 403
        delete = reverse(f"{name}_delete", args=[row.pk])
        assert client.post(delete, {"post": "yes"}).status_code == 403
    assert Table.objects.count() == 1 and Hand.objects.filter(pk=hand.pk).exists()


def test_matches_queue_tickets_private_rooms_and_stage_progress_are_not_added_by_hand(
    staff, client
):
    """The lobby's and the stages' services make these rows; an operator looks them up."""
    for name in ("tables_match", "lobby_queueticket", "lobby_privateroom", "stages_stageprogress"):
        assert client.get(reverse(f"admin:{name}_changelist")).status_code == 200, name
        assert client.get(reverse(f"admin:{name}_add")).status_code == 403, name


def test_the_admin_speaks_chinese_for_tables_and_ratings(builtin, client):
    """Page titles and column headers of the live-table and rating pages in zh-hans (Django
    translates its own words; the app, model and field names are the project's)."""
    import re

    admin = User.objects.create_superuser("boss", "boss@example.com", "pw-boss-123456")
    client.force_login(admin)
    pages = [reverse("admin:index"), reverse("admin:app_list", args=["tables"])]
    for model in ("table", "hand", "event"):
        pages.append(reverse(f"admin:tables_{model}_changelist"))
    for model in ("rating", "ratingchange"):
        pages.append(reverse(f"admin:ratings_{model}_changelist"))
    labels = re.compile(r"<(title|h1|caption|th)\b[^>]*>(.*?)</\1>", flags=re.S)
    for url in pages:
        html = client.get(url).content.decode()
        assert '<html lang="zh-hans"' in html, url
        text = " ".join(re.sub(r"<[^>]+>", " ", inner) for _tag, inner in labels.findall(html))
        english = re.findall(r"\b[A-Za-z]{4,}\b", text)
        # Django 5.2's hidden column headers of the index ("Model name", "Change or view
        # list link") have no Chinese in Django's own catalog: Django's words, not ours.
        djangos = {"Django", "Model", "name", "Change", "view", "list", "link"}
        assert [w for w in english if w not in djangos | {"Online"}] == [], (url, english)


def test_a_closed_tables_note_reads_as_text_in_the_admin(staff, client, alice, bob):
    """The note is stored as a message and its arguments (tables.notes); the operator
    reads the sentence, not that JSON."""
    from mahjong.tables import services
    from mahjong.tables.models import Table

    table = services.open_table(Ruleset.objects.get(slug="classic"), [alice, bob])
    services.leave(table, alice)
    assert Table.objects.get(pk=table.pk).note.startswith("{")
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    page = client.get(reverse("admin:tables_table_change", args=[table.pk])).content.decode()
    assert f"{alice.display_name} left the table." in page and "&quot;msg&quot;" not in page


def test_action_messages_count_players_in_good_english(staff, client, alice, bob):
    """ "Banned 1 player." / "Banned 2 players.", not "player(s)"; one line in Chinese."""
    one = _action(client, "ban_players", [alice], apply="1", reason="x", follow=True)
    assert [str(m) for m in one.context["messages"]] == ["Banned 1 player."]
    _action(client, "ban_players", [bob], apply="1", reason="x", follow=True)
    two = _action(client, "unban_players", [alice, bob], follow=True)
    assert [str(m) for m in two.context["messages"]] == ["Lifted the ban of 2 players."]
    client.cookies.load({"django_language": "zh-hans"})
    muted = _action(client, "mute_players", [alice, bob], apply="1", hours="1", follow=True)
    assert [str(m) for m in muted.context["messages"]] == ["已禁言 2 位玩家。"]


def test_bean_amounts_in_the_admin_are_grouped_as_on_the_site(staff, client, alice):
    """20,000 and +20,000 like the lobby and the profile; 20000 beside -4040000 misreads."""
    players = client.get(reverse("admin:accounts_user_changelist")).content.decode()
    assert '<td class="field-beans_shown">20,000</td>' in players
    ledger = client.get(reverse("admin:accounts_ledgerentry_changelist")).content.decode()
    amounts = re.findall(r'class="field-_(?:amount|balance_after)">([^<]*)<', ledger)
    assert "+20,000" in amounts and "-20,000" in amounts
    assert all(re.fullmatch(r"[+-]?\d{1,3}(,\d{3})*", a) for a in amounts), amounts
    sorted_ = client.get(reverse("admin:accounts_user_changelist"), {"o": "4"})
    assert sorted_.status_code == 200  # the grouped column still sorts by the balance
    page = _action(client, "adjust_beans", [alice]).content.decode()
    assert "· 20,000</li>" in page
    detail = client.get(reverse("admin:accounts_user_change", args=[alice.pk])).content.decode()
    assert "+20,000" in detail
    # The balance itself, at the top of the page, was the raw 20000.
    assert re.search(r'<label>Beans:</label>\s*<div class="readonly">20,000</div>', detail)


def test_every_admin_label_is_chinese(builtin, rf):
    """The admin in the site's language: each registered model's names, its fields' names,
    help texts and choices, and the admin's own columns, forms and actions. (A field
    without a verbose_name, or a msgid missing from the catalogs, shows English.)"""
    from django.contrib import admin
    from django.utils import translation

    boss = User.objects.create_superuser("boss", "boss@example.com", "pw-boss-123456")
    request = rf.get("/admin/")
    request.user = boss
    english = []

    def check(where, text):
        if not text:
            return
        with translation.override("en"):
            en = str(text)
        with translation.override("zh-hans"):
            zh = str(text)
        if zh == en and re.search(r"[a-z]{3}", zh) and en != "ID":
            english.append((where, zh))

    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label == "auth":
            continue  # Django's own
        opts = model._meta
        check(opts.label, opts.verbose_name)
        check(opts.label, opts.verbose_name_plural)
        for field in opts.get_fields():
            if getattr(field, "auto_created", False) or not hasattr(field, "verbose_name"):
                continue
            check(f"{opts.label}.{field.name}", field.verbose_name)
            check(f"{opts.label}.{field.name}", field.help_text)
            for _value, label in field.choices or ():
                check(f"{opts.label}.{field.name}", label)
        columns = [*model_admin.get_list_display(request), *model_admin.readonly_fields]
        for name in columns:
            function = name if callable(name) else getattr(model_admin, name, None)
            check(f"{opts.label} column {name}", getattr(function, "short_description", ""))
        for _func, name, description in model_admin._get_base_actions():
            check(f"{opts.label} action {name}", description)
        if model_admin.has_add_permission(request):
            for name, field in model_admin.get_form(request).base_fields.items():
                check(f"{opts.label} form {name}", field.label)
                check(f"{opts.label} form {name}", field.help_text)
    assert english == []


def _close_tables(client, tables, follow=True):
    return client.post(
        reverse("admin:tables_table_changelist"),
        {"action": "close_tables", ACTION_CHECKBOX_NAME: [t.pk for t in tables], "confirmed": "1"},
        follow=follow,
    )


def test_closing_a_table_asks_first(staff, client, alice, bob):
    """The action ended a hand in play at once, on one click of the actions menu."""
    from mahjong.tables import services
    from mahjong.tables.models import Table

    table = services.open_table(Ruleset.objects.get(slug="classic"), [alice, bob])
    asked = client.post(
        reverse("admin:tables_table_changelist"),
        {"action": "close_tables", ACTION_CHECKBOX_NAME: [table.pk]},
    )
    page = asked.content.decode()
    assert asked.status_code == 200 and table.public_id in page
    assert 'name="confirmed"' in page and "nobody pays" in page
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and table.current_hand().ended_at is None
    _close_tables(client, [table])
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED


def test_the_admin_shows_a_hand_in_play_as_a_spectator_sees_it(staff, client, alice, bob):
    """Its raw state held both concealed hands and the wall, and the seed; the tiles were
    integers. Until the hand ends the operator sees counts, rivers and melds, as tiles."""
    from mahjong.engine.tiles import format_tiles
    from mahjong.tables import services
    from mahjong.tables.models import Event

    table = services.open_table(Ruleset.objects.get(slug="classic"), [alice, bob])
    hand = table.current_hand()
    state = hand.game()
    page = client.get(reverse("admin:tables_hand_change", args=[hand.pk])).content.decode()
    assert state.seed.hex() not in page and '"live"' not in page and '"concealed"' not in page
    assert "13 concealed tiles" in page and "/static/tiles/" in page
    assert "Revealed when the hand ends." in page
    deal = Event.objects.filter(hand=hand, kind="hand").first()
    event_page = client.get(reverse("admin:tables_event_change", args=[deal.pk])).content
    assert format_tiles(state.seat(deal.data["seat"]).concealed) not in event_page.decode()
    services.close_by_operator(table.pk)  # the hand ends: everything may be seen
    page = client.get(reverse("admin:tables_hand_change", args=[hand.pk])).content.decode()
    assert state.seed.hex() in page and "concealed tiles" not in page
    event_page = client.get(reverse("admin:tables_event_change", args=[deal.pk])).content
    assert format_tiles(state.seat(deal.data["seat"]).concealed) in event_page.decode()


def test_an_operator_closes_a_stuck_table_and_the_hand_in_play_ends_drawn(
    staff, client, alice, bob
):
    """A table stuck mid-hand: the operator closes it from the admin. Nobody is to blame,
    so the hand ends drawn (no winner, no penalty, no bean moves) through tables.services,
    the players read why, and the hand still replays from its seed and moves."""
    from lobby import replays
    from mahjong.tables import services
    from mahjong.tables.models import Table

    tier = RoomTier.objects.get(slug="novice")
    table = services.open_table(
        tier.ruleset, [alice, bob], tier=tier, beans_per_point=tier.beans_per_point
    )
    ledger_rows = LedgerEntry.objects.count()
    response = _close_tables(client, [table])
    assert [str(m) for m in response.context["messages"]] == [
        "Closed 1 table (hands called off: 1)."
    ]
    table.refresh_from_db()
    hand = table.current_hand()
    assert table.status == Table.Status.FINISHED
    assert table.note_text == "Closed by the site's operator."
    assert hand.ended_at is not None and hand.deadline is None
    assert hand.result["kind"] == "draw" and hand.result["beans"] in (None, [0, 0])
    assert LedgerEntry.objects.count() == ledger_rows
    assert [u.beans for u in User.objects.filter(pk__in=[alice.pk, bob.pk])] == [20_000] * 2
    # Never played out, so it counts for nothing: no game played, rank score or rating.
    players = User.objects.filter(pk__in=[alice.pk, bob.pk])
    assert [(u.games_played, u.rank_score) for u in players] == [
        (alice.games_played, alice.rank_score),
        (bob.games_played, bob.rank_score),
    ]
    assert not hand.ranked and not HandResult.objects.filter(hand=hand).exists()
    steps = replays.rebuild(hand)
    assert steps[-1].action == "call_off" and steps[-1].state.ended
    page = client.get(
        reverse("history:replay", args=[table.public_id, hand.number]), {"step": len(steps) - 1}
    )
    assert page.status_code == 200
    assert "Called off by the site&#x27;s operator" in page.content.decode()
    # Closing it again changes nothing and says so.
    again = _close_tables(client, [table])
    assert [str(m) for m in again.context["messages"]] == ["No open table was selected."]


def test_a_table_between_hands_closes_without_a_new_hand(staff, client, alice, bob):
    from mahjong.tables import services
    from mahjong.tables.models import Hand, Table

    table = services.open_table(Ruleset.objects.get(slug="classic"), [alice, bob])
    assert services.close_by_operator(table.pk) == "called_off"
    Table.objects.filter(pk=table.pk).update(status=Table.Status.PLAYING)  # reopened
    assert services.close_by_operator(table.pk) == "closed"
    assert Hand.objects.filter(table=table).count() == 1


def test_a_staff_member_who_may_only_view_tables_cannot_close_them(builtin, client, alice, bob):
    from django.contrib.auth.models import Permission

    from mahjong.tables import services
    from mahjong.tables.models import Table

    viewer = User.objects.create_user("viewer", password="pw-viewer-123456", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_table"))
    client.force_login(viewer)
    table = services.open_table(Ruleset.objects.get(slug="classic"), [alice, bob])
    page = client.get(reverse("admin:tables_table_changelist"))
    assert page.status_code == 200 and "close_tables" not in page.content.decode()
    _close_tables(client, [table])
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


def test_a_players_page_shows_the_newest_ledger_rows_and_links_to_all(
    staff, client, alice, django_assert_max_num_queries
):
    """The bank has a ledger row per grant ever made, a busy player thousands: the page
    listed every one (28 s for 1,500 rows). It shows the newest 50 and links to the rest."""
    from accounts import wallet
    from accounts.admin import LEDGER_SHOWN

    for i in range(LEDGER_SHOWN + 10):
        wallet.adjust(alice, 1, note=f"gift {i}", actor=None, key=f"gift:{i}")
    with django_assert_max_num_queries(25):
        response = client.get(reverse("admin:accounts_user_change", args=[alice.pk]))
    inline = response.context["inline_admin_formsets"][0]
    shown = [form.instance.note for form in inline.formset.forms]
    assert len(shown) == LEDGER_SHOWN and shown[0] == f"gift {LEDGER_SHOWN + 9}"
    page = response.content.decode()
    assert "61 entries; the newest 50 are below" in page
    link = f"{reverse('admin:accounts_ledgerentry_changelist')}?account__id__exact={alice.pk}"
    assert f'href="{link}"' in page
    everything = client.get(link)
    assert everything.context["cl"].result_count == LEDGER_SHOWN + 11  # with the sign-up grant


def test_a_staff_member_who_manages_players_cannot_raise_their_own_rights(builtin, client, alice):
    """ "change player" is for nicknames, beans, bans: not for making oneself a superuser,
    nor for taking over a superuser's account (password, ban)."""
    from django.contrib.auth.models import Permission

    boss = User.objects.create_superuser("boss", "boss@example.com", "pw-boss-123456")
    staffer = User.objects.create_user("staffer", password="pw-staff-123456", is_staff=True)
    staffer.user_permissions.add(
        *Permission.objects.filter(codename__in=["view_user", "change_user"])
    )
    client.force_login(staffer)
    client.cookies.load({"django_language": "en"})
    own = reverse("admin:accounts_user_change", args=[staffer.pk])
    page = client.get(own).content.decode()
    assert 'name="is_superuser"' not in page and 'name="user_permissions"' not in page
    data = {
        "username": "staffer",
        "nickname": "Sneaky",
        "rank_score": 0,
        "games_played": 0,
        "games_won": 0,
        "best_fan": 0,
        "is_active": "on",
        "is_superuser": "on",
        "is_staff": "on",
        "user_permissions": [1, 2, 3],
        "ledger-TOTAL_FORMS": 0,
        "ledger-INITIAL_FORMS": 0,
    }
    assert client.post(own, data).status_code == 302
    staffer.refresh_from_db()
    assert staffer.nickname == "Sneaky"  # the player's fields still change
    assert not staffer.is_superuser and staffer.user_permissions.count() == 2
    # The superuser's account: looked at, not changed.
    boss_page = reverse("admin:accounts_user_change", args=[boss.pk])
    assert 'name="_save"' not in client.get(boss_page).content.decode()
    password = reverse("admin:auth_user_password_change", args=[boss.pk])
    assert client.get(password).status_code == 403
    refused = client.post(
        reverse("admin:accounts_user_changelist"),
        {"action": "ban_players", ACTION_CHECKBOX_NAME: [boss.pk], "apply": "1", "reason": "x"},
        follow=True,
    )
    assert [str(m) for m in refused.context["messages"]] == [
        "Only a superuser may ban a superuser."
    ]
    boss.refresh_from_db()
    assert boss.is_active
    # A player is still the staff member's to look after.
    alice_page = reverse("admin:accounts_user_change", args=[alice.pk])
    assert 'name="_save"' in client.get(alice_page).content.decode()


def test_an_operator_finds_a_table_its_hands_and_events_by_player_or_table_id(
    staff, client, alice, bob, outsider
):
    """ "My table is stuck": the table list is searched by the player's name and shows who
    sits there; its hands and events by the table's public id, newest first."""
    from mahjong.tables import services

    classic = Ruleset.objects.get(slug="classic")
    old = services.open_table(classic, [outsider, bob])
    services.leave(old, outsider)
    table = services.open_table(classic, [alice, bob])
    tables = client.get(reverse("admin:tables_table_changelist"), {"q": "alice"})
    assert [t.pk for t in tables.context["cl"].result_list] == [table.pk]
    assert "Alice · Bob" in tables.content.decode()
    hands = client.get(reverse("admin:tables_hand_changelist"), {"q": table.public_id})
    assert [h.table_id for h in hands.context["cl"].result_list] == [table.pk]
    events = client.get(reverse("admin:tables_event_changelist"), {"q": table.public_id})
    listed = list(events.context["cl"].result_list)
    assert listed and {e.hand.table_id for e in listed} == {table.pk}
    assert [e.pk for e in listed] == sorted((e.pk for e in listed), reverse=True)
    link = rf'class="field-table"><a [^>]*>{table.public_id}</a>'
    assert re.search(link, events.content.decode())


def test_a_rank_level_out_of_order_is_refused(staff, client):
    """Level 5 at 100 points while level 4 needs 150: a player at 160 points would read
    level 4 above level 5's threshold. The threshold must rise with the level."""
    from accounts.models import RankLevel

    five = RankLevel.objects.get(level=5)
    url = reverse("admin:accounts_ranklevel_change", args=[five.pk])
    data = {"level": 5, "name": five.name, "name_en": five.name_en, "threshold": 100}
    response = client.post(url, data)
    assert response.status_code == 200
    assert form_errors(response, "threshold") == [
        "Level 4 needs 150: a higher level needs a higher rank score."
    ]
    assert RankLevel.objects.get(pk=five.pk).threshold == 300
    assert client.post(url, {**data, "threshold": 299}).status_code == 302  # in order
    assert RankLevel.objects.get(pk=five.pk).threshold == 299


def test_a_ruleset_that_rooms_play_cannot_become_the_solo_stage_rules(staff, client):
    """RoomTier refuses the stage rules; switching the ruleset under the rooms instead made
    every room on it play the one-player stage engine."""
    classic = Ruleset.objects.get(slug="classic")
    rooms = ", ".join(t.name_en for t in classic.tiers.all())
    response = client.post(change_url(classic), ruleset_form(classic, engine_slug="stage"))
    assert response.status_code == 200
    assert form_errors(response, "engine_slug") == [
        f"{rooms} play this ruleset in two-player rooms; Stage mode is played against the "
        "computer. Give those rooms another ruleset first."
    ]
    assert Ruleset.objects.get(pk=classic.pk).engine_slug == "classic"
    unused = Ruleset.objects.create(slug="spare", engine_slug="classic", name="备用")
    response = client.post(change_url(unused), ruleset_form(unused, engine_slug="stage"))
    assert response.status_code == 302


def test_an_inactive_ruleset_is_not_played_in_an_open_room(staff, client):
    """Unticking "active" on a ruleset left every open room on it dealing that ruleset in
    the lobby. The ruleset names the open rooms instead; a room cannot open on it."""
    classic = Ruleset.objects.get(slug="classic")
    rooms = ", ".join(t.name_en for t in classic.tiers.filter(is_active=True))
    response = client.post(change_url(classic), {**ruleset_form(classic), "is_active": ""})
    assert form_errors(response, "is_active") == [
        f"{rooms} are open and play this ruleset: close them or give them another ruleset first."
    ]
    assert Ruleset.objects.get(pk=classic.pk).is_active
    spare = Ruleset.objects.create(slug="spare", engine_slug="classic", name="备用")
    response = client.post(change_url(spare), {**ruleset_form(spare), "is_active": ""})
    assert response.status_code == 302
    tier = RoomTier.objects.get(slug="novice")
    response = client.post(
        reverse("admin:catalogue_roomtier_change", args=[tier.pk]),
        {
            "slug": "novice",
            "name": "新手场",
            "name_en": "Novice",
            "ruleset": spare.pk,
            "beans_per_point": 50,
            "entry_min": 1_000,
            "entry_max": 8_000,
            "is_active": "on",
            "ordering": 0,
            "bot_fill_level": "efficient",
        },
    )
    assert response.context["adminform"].form.errors["ruleset"] == [
        "备用 is not active: an open room cannot play it."
    ]
    assert RoomTier.objects.get(pk=tier.pk).ruleset_id == classic.pk


def test_what_an_account_is_cannot_be_changed_in_the_admin(staff, client, alice):
    """Turning the bank (whose balance is negative by design) into a player was a 500 from
    the database's check; a player made house or bank met a constraint's raw message."""
    bank = User.objects.get(kind=User.Kind.BANK)
    for user, kind in ((bank, "player"), (alice, "house"), (alice, "bot")):
        url = reverse("admin:accounts_user_change", args=[user.pk])
        assert 'name="kind"' not in client.get(url).content.decode()
        data = {
            "username": user.username,
            "kind": kind,
            "nickname": user.nickname,
            "rank_score": 0,
            "games_played": 0,
            "games_won": 0,
            "best_fan": 0,
            "is_active": "on",
            "ledger-TOTAL_FORMS": 0,
            "ledger-INITIAL_FORMS": 0,
        }
        assert client.post(url, data).status_code == 302
        assert User.objects.get(pk=user.pk).kind == user.kind


def test_adjusting_the_bank_is_refused_with_a_message(staff, client, alice):
    """The bank pays every adjustment: adjusting it posted to it twice (a ValueError, a
    500 for the whole batch, the other players' grants rolled back or not by chance)."""
    bank = User.objects.get(kind=User.Kind.BANK)
    form_page = _action(client, "adjust_beans", [bank, alice])
    token = form_page.context["form"].initial["token"]
    data = {"apply": "1", "amount": "500", "note": "test", "token": token}
    done = _action(client, "adjust_beans", [bank, alice], follow=True, **data)
    assert [str(m) for m in done.context["messages"]] == [
        "The bank pays every adjustment: it cannot be adjusted itself.",
        "Adjusted the beans of 1 player.",
    ]
    assert User.objects.get(pk=alice.pk).beans == 20_500


def test_closing_a_stage_table_mid_hand_gives_the_stake_back(staff, client, alice):
    """关卡: the hand called off is a drawn stage hand, and a drawn stage hand returns the
    stake (RULES.md 3.13.4 takes it only from a player who leaves)."""
    from mahjong.stages import services as stages
    from mahjong.tables.models import Table

    before = User.objects.get(pk=alice.pk).beans
    table = stages.play(alice)
    staked = User.objects.get(pk=alice.pk).beans
    response = _close_tables(client, [table])
    assert [str(m) for m in response.context["messages"]] == [
        "Closed 1 table (hands called off: 1)."
    ]
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
    assert table.current_hand().result["kind"] == "draw"
    assert staked < before  # the stake left when the hand was dealt
    assert User.objects.get(pk=alice.pk).beans == before


def test_every_admin_form_label_starts_with_a_capital(builtin, rf):
    """Django capitalises a model field's verbose name for its form field, not a label
    given to a declared field: "engine ruleset:", "cap:", "bot level:" stood beside
    "Slug:" and "Name (Chinese):"."""
    from django.contrib import admin
    from django.utils import translation

    boss = User.objects.create_superuser("boss", "boss@example.com", "pw-boss-123456")
    request = rf.get("/admin/")
    request.user = boss
    lowercase = []
    with translation.override("en"):
        for model, model_admin in admin.site._registry.items():
            obj = model._default_manager.first()
            forms = [model_admin.get_form(request)]
            if obj is not None:
                forms.append(model_admin.get_form(request, obj, change=True))
            for form in forms:
                for name, field in form.base_fields.items():
                    label = str(field.label or "")
                    if label[:1].islower():
                        lowercase.append((model._meta.label, name, label))
    assert lowercase == []


def test_a_players_kind_is_not_followed_by_a_section_of_the_same_name(staff, client, alice):
    """The read-only Kind ("Player") ran into the next section's heading "Player": the
    page read "Kind: Player Player"."""
    page = client.get(reverse("admin:accounts_user_change", args=[alice.pk])).content.decode()
    kind = re.search(r'field-kind.*?<div class="readonly">([^<]*)</div>', page, re.S).group(1)
    assert kind == "Player"
    headings = re.findall(r'<h2 id="fieldset-[^"]*" class="fieldset-heading">([^<]*)</h2>', page)
    assert headings and kind not in headings


@pytest.mark.parametrize(
    "language,shown,not_shown",
    [
        ("en", ["Bank (grants)", "House (rake)", "🤖 Bot · Expert"], ["银行", "平台", "电脑·"]),
        ("zh-hans", ["银行（发放）", "平台（台费）", "🤖 电脑·高手"], ["Bank (grants)", "Bot · "]),
    ],
)
def test_the_bank_house_and_bots_are_named_in_the_admins_language(
    staff, client, language, shown, not_shown
):
    """Their nicknames were stored in Chinese when the accounts were made: the English
    admin showed 银行（发放） for the bank and, in the players list, 电脑·高手 for a bot
    it named 🤖 Bot · Expert elsewhere. The stored rows stay; what is shown follows the
    admin's language."""
    client.cookies.load({"django_language": language})
    players = client.get(reverse("admin:accounts_user_changelist")).content.decode()
    ledger = client.get(reverse("admin:accounts_ledgerentry_changelist")).content.decode()
    cells = " ".join(re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", players + ledger, re.S))
    for name in shown:
        assert name in cells
    for name in not_shown:
        assert name not in cells


def _player_form(user, **changes):
    data = {
        "username": user.username,
        "nickname": user.nickname,
        "rank_score": user.rank_score,
        "games_played": user.games_played,
        "games_won": user.games_won,
        "best_fan": user.best_fan,
        "is_active": "on",
        "ledger-TOTAL_FORMS": 0,
        "ledger-INITIAL_FORMS": 0,
    }
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


def test_unticking_active_on_a_players_page_bans_them_at_their_table_and_in_the_queue(
    staff, client, alice, bob, outsider, django_capture_on_commit_callbacks
):
    """The field's help says "unselect this instead of deleting accounts": done so, the
    player's table stayed open (the opponent played on against their timers) and their
    quick-match ticket waited on, as if the ban had been the action's."""
    from lobby import matchmaking
    from lobby.models import QueueTicket
    from mahjong.tables import services
    from mahjong.tables.models import Table

    tier = RoomTier.objects.get(slug="novice")
    table = services.open_table(tier.ruleset, [alice, bob], tier=tier, beans_per_point=50)
    ticket = matchmaking.join(outsider, tier)
    for player in (alice, outsider):
        url = reverse("admin:accounts_user_change", args=[player.pk])
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(url, _player_form(player, is_active=None, ban_reason="bot"))
        assert response.status_code == 302
    table.refresh_from_db()
    ticket.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert table.current_hand().result["kind"] == "escape"
    assert ticket.state == QueueTicket.State.CANCELLED
    assert User.objects.get(pk=alice.pk).ban_reason == "bot"
    # Ticked again: the ban is lifted, its reason with it.
    url = reverse("admin:accounts_user_change", args=[alice.pk])
    assert client.post(url, _player_form(alice, ban_reason="bot")).status_code == 302
    alice.refresh_from_db()
    assert alice.is_active and alice.ban_reason == ""


@pytest.mark.parametrize(
    "language, nickname, said",
    [
        ("en", "bob", "This nickname is taken."),
        ("en", "BOB", "This nickname is taken."),
        ("en", "🤖 Bot", "A nickname cannot hold the bots' badge 🤖."),
        ("en", "Al\u200bice", "A nickname cannot hold invisible or control characters."),
        ("zh-hans", "Bob", "该昵称已被使用。"),
    ],
)
def test_an_operator_cannot_give_a_player_another_players_or_a_bots_name(
    staff, client, alice, bob, language, nickname, said
):
    """The admin's form took any name: a second "Bob" on the leaderboards, or a player
    passing as a bot; the sign-up and profile forms refuse them."""
    client.cookies.load({"django_language": language})
    url = reverse("admin:accounts_user_change", args=[alice.pk])
    response = client.post(url, _player_form(alice, nickname=nickname))
    assert form_errors(response, "nickname") == [said]
    assert User.objects.get(pk=alice.pk).nickname == "Alice"


def test_an_operator_cannot_name_an_account_after_another_players_nickname(
    staff, client, alice, bob
):
    url = reverse("admin:accounts_user_change", args=[alice.pk])
    response = client.post(url, _player_form(alice, username="Bob"))
    assert form_errors(response, "username") == ["This name is another player's nickname."]
    added = client.post(
        reverse("admin:accounts_user_add"),
        {"username": "vip", "nickname": "alice", "usable_password": "false"},
    )
    assert form_errors(added, "nickname") == ["This nickname is taken."]
    assert not User.objects.filter(username="vip").exists()
    # A name that is the player's own passes, and so does an unchanged one.
    assert client.post(url, _player_form(alice, nickname="alice")).status_code == 302
    assert client.post(url, _player_form(alice, nickname="alice")).status_code == 302


@pytest.mark.parametrize(
    "language, said",
    [
        ("en", "A player cannot have won more games than they played (2)."),
        ("zh-hans", "胜局数不能多于对局数（2）。"),
    ],
)
def test_more_games_won_than_played_is_refused(staff, client, alice, language, said):
    """Saved, the profile and the win-rate board showed a win rate of 450%."""
    client.cookies.load({"django_language": language})
    url = reverse("admin:accounts_user_change", args=[alice.pk])
    response = client.post(url, _player_form(alice, games_played=2, games_won=9))
    assert form_errors(response, "games_won") == [said]
    alice.refresh_from_db()
    assert (alice.games_played, alice.games_won) == (0, 0)
    assert client.post(url, _player_form(alice, games_played=9, games_won=2)).status_code == 302


def test_an_edit_of_a_players_record_logs_the_values_before_and_after(staff, client, alice):
    """The history said only "Changed rank score": nobody could tell what it had been."""
    from django.contrib.admin.models import LogEntry

    User.objects.filter(pk=alice.pk).update(rank_score=120, games_played=10, games_won=4)
    alice.refresh_from_db()
    url = reverse("admin:accounts_user_change", args=[alice.pk])
    assert client.post(url, _player_form(alice, rank_score=150, games_played=12)).status_code == 302
    entry = LogEntry.objects.filter(object_id=str(alice.pk)).latest("action_time")
    said = entry.get_change_message()
    assert "Rank score: 120 → 150" in said and "Games played: 10 → 12" in said
    history = client.get(reverse("admin:accounts_user_history", args=[alice.pk]))
    assert "Rank score: 120 → 150" in history.content.decode()


def test_a_rank_score_beyond_the_top_level_is_refused(staff, client, alice):
    """999999 (a typo of 999) was taken and showed Lv.16, 自摸王, at once."""
    url = reverse("admin:accounts_user_change", args=[alice.pk])
    response = client.post(url, _player_form(alice, rank_score=999_999))
    assert form_errors(response, "rank_score") == [
        "The top rank level, 自摸王 (King of Self-Draw), starts at 200,000: a rank score of "
        "999,999 is beyond the ladder."
    ]
    alice.refresh_from_db()
    assert alice.rank_score == 0
    assert client.post(url, _player_form(alice, rank_score=200_000)).status_code == 302
    # a score live play took past the top is kept when the page is saved again
    User.objects.filter(pk=alice.pk).update(rank_score=250_000)
    alice.refresh_from_db()
    assert client.post(url, _player_form(alice, nickname="Al")).status_code == 302


def _rank_list(client, thresholds: dict[int, int]):
    """The rank levels' list saved with the thresholds of some levels changed."""
    from accounts.models import RankLevel

    rows = list(RankLevel.objects.all())
    data = {"form-TOTAL_FORMS": len(rows), "form-INITIAL_FORMS": len(rows), "_save": "Save"}
    for i, row in enumerate(rows):
        data.update(
            {
                f"form-{i}-id": row.pk,
                f"form-{i}-name": row.name,
                f"form-{i}-name_en": row.name_en,
                f"form-{i}-threshold": thresholds.get(row.level, row.threshold),
            }
        )
    return client.post(reverse("admin:accounts_ranklevel_changelist"), data)


def test_thresholds_edited_together_in_the_list_are_checked_against_each_other(staff, client):
    """Levels 2 and 3 need 40 and 80. Each row was checked against the saved ladder
    only: 70 and 50 were each in order with it and were saved together out of order,
    while 100 and 120, in order, were refused for level 3's old 80."""
    from accounts.models import RankLevel

    def saved():
        return dict(RankLevel.objects.filter(level__in=[2, 3]).values_list("level", "threshold"))

    refused = _rank_list(client, {2: 70, 3: 50})
    assert refused.status_code == 200
    errors = [e["threshold"] for e in refused.context["cl"].formset.errors if e]
    assert errors == [
        ["Level 3 needs 50: a higher level needs a higher rank score."],
        ["Level 2 needs 70: a higher level needs a higher rank score."],
    ]
    assert saved() == {2: 40, 3: 80}
    assert _rank_list(client, {2: 100, 3: 120}).status_code == 302
    assert saved() == {2: 100, 3: 120}


def test_bans_and_mutes_leave_bots_the_bank_and_the_house_alone(
    staff, client, alice, bob, django_capture_on_commit_callbacks
):
    """A bot is one account per level, seated at many tables: banning it closed them all
    as its escape (each opponent paid from its float), and lifting the ban made the bot
    an active account. Only the players of a selection are banned; the rest are named."""
    from mahjong.tables import services
    from mahjong.tables.models import Table

    tier = RoomTier.objects.get(slug="novice")
    bot = User.objects.get(username="bot-novice")
    bank = User.objects.get(kind=User.Kind.BANK)
    table = services.open_table(tier.ruleset, [bob, bot], tier=tier, beans_per_point=50)
    with django_capture_on_commit_callbacks(execute=True):
        done = _action(
            client, "ban_players", [bot, bank, alice], follow=True, apply="1", reason="test"
        )
    assert [str(m) for m in done.context["messages"]] == [
        f"Only players are banned or muted; left as they were: {bot}, {bank}.",
        "Banned 1 player.",
    ]
    for action in ("unban_players", "mute_players", "unmute_players"):
        _action(client, action, [bot], apply="1", hours="24")
    table.refresh_from_db()
    bot.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert (bot.is_active, bot.ban_reason, bot.muted_until) == (False, "", None)
    assert not User.objects.get(pk=alice.pk).is_active
    # Nor on the bot's page: its Active box is not offered.
    page = client.get(reverse("admin:accounts_user_change", args=[bot.pk])).content.decode()
    assert 'name="is_active"' not in page and 'name="ban_reason"' not in page


@pytest.mark.parametrize(
    "action, data",
    [
        ("mute_players", {"apply": "1", "hours": "24"}),
        ("unban_players", {}),
        ("unmute_players", {}),
        ("adjust_beans", {"apply": "1", "amount": "5000", "note": "x", "token": "t-9"}),
    ],
)
def test_a_staff_member_cannot_moderate_or_pay_a_superuser_by_an_action(
    builtin, client, action, data
):
    """The superuser's page is read-only to them, but the actions asked only for the
    'change player' permission: a staff member muted a superuser, lifted a ban another
    superuser had made, or granted one beans."""
    from django.contrib.auth.models import Permission

    boss = User.objects.create_superuser("boss", "boss@example.com", "pw-boss-123456")
    User.objects.filter(pk=boss.pk).update(is_active=False, ban_reason="left the company")
    staffer = User.objects.create_user("staffer", password="pw-staff-123456", is_staff=True)
    staffer.user_permissions.add(
        *Permission.objects.filter(codename__in=["view_user", "change_user"])
    )
    client.force_login(staffer)
    client.cookies.load({"django_language": "en"})
    done = _action(client, action, [boss], follow=True, **data)
    assert [str(m) for m in done.context["messages"]] == [
        "Only a superuser may change a superuser's account."
    ]
    boss.refresh_from_db()
    assert (boss.is_active, boss.muted_until, boss.beans) == (False, None, 0)


def test_an_operator_cannot_give_a_player_a_user_name_longer_than_sign_up_allows(
    staff, client, alice
):
    """Shown wherever a player has no nickname: 150 characters pushed every page wider
    than a phone, which is why sign-up takes 24."""
    url = reverse("admin:accounts_user_change", args=[alice.pk])
    response = client.post(url, _player_form(alice, username="a" * 25))
    assert form_errors(response, "username") == [
        "Ensure this value has at most 24 characters (it has 25)."
    ]
    added = client.post(
        reverse("admin:accounts_user_add"), {"username": "b" * 30, "usable_password": "false"}
    )
    assert form_errors(added, "username") == [
        "Ensure this value has at most 24 characters (it has 30)."
    ]
    assert User.objects.get(pk=alice.pk).username == "alice"
    assert client.post(url, _player_form(alice, username="a" * 24)).status_code == 302
    page = client.get(url).content.decode()
    assert 'maxlength="24"' in page and "At most 24 characters" in page


def test_an_operator_cannot_rename_a_player_to_another_players_name_in_another_case(
    staff, client, bob, make_player
):
    """Sign-up refuses "DAVE" beside "dave", and log-in takes a name in any case, but a
    rename in the admin was checked in the exact case only: Bob renamed "DAVE" showed as a
    second dave (who has no nickname), and neither could log in as "Dave"."""
    make_player("dave")
    url = reverse("admin:accounts_user_change", args=[bob.pk])
    response = client.post(url, _player_form(bob, username="DAVE"))
    assert form_errors(response, "username") == ["A user with that username already exists."]
    assert User.objects.get(pk=bob.pk).username == "bob"
    assert client.post(url, _player_form(bob, username="Bob")).status_code == 302
    assert User.objects.get(pk=bob.pk).username == "Bob"


def test_a_players_ledger_rows_are_captioned_in_the_admins_language(staff, client, alice):
    """Each row of the ledger on a player's page was captioned "9 +20000 signup": the
    account's internal id and the stored reason code, in the Chinese admin too."""
    client.cookies.load({"django_language": "zh-hans"})
    url = reverse("admin:accounts_user_change", args=[alice.pk])
    page = client.get(url).content.decode()
    assert "+20,000 · 注册赠送" in page
    assert f"{alice.pk} +20000 signup" not in page


def test_the_sites_own_ledger_notes_are_read_in_the_admins_language(staff, client, alice):
    """The profile says 电脑补豆 for a bot's top-up; the Chinese admin said "bot top-up"."""
    from accounts.bot_wallets import top_up

    bot = User.objects.get(username="bot-novice")
    top_up(bot, bot.beans + 5_000)
    client.cookies.load({"django_language": "zh-hans"})
    ledger = client.get(reverse("admin:accounts_ledgerentry_changelist")).content.decode()
    assert '<td class="field-_note">电脑补豆</td>' in ledger
    page = client.get(reverse("admin:accounts_user_change", args=[bot.pk])).content.decode()
    assert "电脑补豆" in page and "bot top-up" not in page
    # A row without a note (the bot's float) shows the admin's "-", not "None".
    assert re.search(r'<td class="field-_note">\s*<p>-</p>', page) and "<p>None</p>" not in page


def test_a_sign_up_grant_or_relief_beyond_an_administrators_grant_is_refused(staff, client):
    """A typo of many digits was saved, and every sign-up or relief would have paid it."""
    from accounts.models import EconomySettings

    url = reverse("admin:accounts_economysettings_change", args=[EconomySettings.load().pk])
    for language, said in (
        ("en", "At most 1,000,000,000 beans."),
        ("zh-hans", "最多 1,000,000,000 欢乐豆。"),
    ):
        client.cookies.load({"django_language": language})
        response = client.post(url, {"signup_grant": "2000000000", "relief_amount": "3000"})
        assert form_errors(response, "signup_grant") == [said]
    assert EconomySettings.load().signup_grant == 20_000
    # the form's other fields (the bean flows page's thresholds) as the page sends them
    others = {"farming_threshold": "20000", "farming_share": "90"}
    done = client.post(url, {"signup_grant": "1000000000", "relief_amount": "5000", **others})
    assert done.status_code == 302 and EconomySettings.load().relief_amount == 5_000


def _tier_form(tier, **changes):
    data = {
        "slug": tier.slug,
        "name": tier.name,
        "name_en": tier.name_en,
        "ruleset": tier.ruleset_id,
        "beans_per_point": tier.beans_per_point,
        "entry_min": tier.entry_min,
        "entry_max": tier.entry_max,
        "is_active": "on",
        "ordering": tier.ordering,
        "bot_fill_seconds": tier.bot_fill_seconds or "",
        "bot_fill_level": "efficient",
    }
    data.update(changes)
    return data


def test_a_rooms_entry_out_of_range_is_refused_in_words(staff, client):
    """A typo of many digits was refused with 'less than or equal to 9223372036854775807'."""
    tier = RoomTier.objects.get(slug="senior")
    url = reverse("admin:catalogue_roomtier_change", args=[tier.pk])
    page = client.get(url).content.decode()
    assert "lower-case letters, digits and hyphens" in page  # the slug says what it is
    response = client.post(url, _tier_form(tier, entry_max="99999999999999999"))
    assert form_errors(response, "entry_max") == [
        "A room's entry is at most 1,000,000,000,000 beans."
    ]
    assert "9223372036854775807" not in response.content.decode()
    response = client.post(url, _tier_form(tier, beans_per_point="99999999999"))
    assert form_errors(response, "beans_per_point") == ["A point is worth at most 1,000,000 beans."]
    assert "2147483647" not in response.content.decode()
    tier.refresh_from_db()
    assert tier.beans_per_point < 1_000_000


def test_a_change_of_the_cheapest_entry_warns_that_the_relief_line_moved(staff, client):
    """The daily relief goes to players below the cheapest open room's entry: a new room's
    minimum changed it for everyone, and nothing said so."""
    from catalogue.models import relief_threshold

    novice = RoomTier.objects.get(slug="novice")
    before = relief_threshold()
    url = reverse("admin:catalogue_roomtier_change", args=[novice.pk])
    response = client.post(url, _tier_form(novice, entry_min=before + 500), follow=True)
    said = [str(m) for m in response.context["messages"]]
    assert any("The daily relief's line moved from" in m and f"{before:,}" in m for m in said), said
    novice.refresh_from_db()
    quiet = client.post(url, _tier_form(novice, name_en="Beginners"), follow=True)
    assert not any("relief" in str(m) for m in quiet.context["messages"])


def test_a_players_biggest_hand_is_shown_by_its_fans_names_and_kept_on_save(staff, client, alice):
    """The fans are kept as keys: the admin names them in its language and a save of the
    form (which has no field for them) leaves them as the settlement wrote them."""
    fans = ["qing_long", "hun_yi_se"]
    User.objects.filter(pk=alice.pk).update(best_fan=9, best_fans=fans)
    alice.refresh_from_db()
    url = reverse("admin:accounts_user_change", args=[alice.pk])
    assert "Pure straight, Half flush" in client.get(url).content.decode()
    client.cookies.load({"django_language": "zh-hans"})
    assert "清龙、混一色" in client.get(url).content.decode()
    assert client.post(url, _player_form(alice, rank_score=10)).status_code == 302
    alice.refresh_from_db()
    assert alice.best_fans == fans
