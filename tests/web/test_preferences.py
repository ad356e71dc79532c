"""Per-player settings (accounts.preferences): the settings page, the table's switches and
the language, remembered on the account and applied on any device after logging in."""

import pytest
from django.conf import settings
from django.test import Client

from accounts.models import User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

TOGGLE = "/accounts/settings/toggle/"


def fresh(user) -> User:
    return User.objects.get(pk=user.pk)


def test_the_settings_page_saves_every_preference(client_of, alice):
    c = client_of(alice)
    page = c.get("/accounts/settings/").content.decode()
    assert 'name="auto_win"' in page and 'name="language"' in page and "设置" in page
    reply = c.post(
        "/accounts/settings/",
        {"sound_on": "on", "emotes_muted": "on", "auto_pass": "on", "language": "en"},
    )
    assert reply.status_code == 302
    me = fresh(alice)
    assert 'name="motion_on"' in page and "动画效果" in page
    assert (me.sound_on, me.emotes_muted, me.auto_win, me.auto_pass, me.discard_drawn) == (
        True,
        True,
        False,
        True,
        False,
    )
    assert not me.motion_on  # an unticked box
    assert me.language == "en" and reply.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"


def test_a_bad_language_is_refused_and_changes_nothing(client_of, alice):
    reply = client_of(alice).post("/accounts/settings/", {"language": "xx", "auto_win": "on"})
    assert reply.status_code == 200 and "error" in reply.content.decode()
    assert fresh(alice).language == "" and not fresh(alice).auto_win


def test_a_table_switch_flips_one_setting(client_of, alice):
    c = client_of(alice)
    assert c.post(TOGGLE, {"name": "discard_drawn", "on": "1"}).status_code == 204
    assert fresh(alice).discard_drawn
    assert c.post(TOGGLE, {"name": "sound_on", "on": "0"}).status_code == 204
    assert not fresh(alice).sound_on
    assert fresh(alice).motion_on
    assert c.post(TOGGLE, {"name": "motion_on", "on": "0"}).status_code == 204
    assert not fresh(alice).motion_on


@pytest.mark.parametrize(
    "data", [{"name": "beans", "on": "1"}, {"name": "auto_win", "on": "yes"}, {}]
)
def test_a_bad_switch_is_refused_and_changes_nothing(client_of, alice, data):
    before = fresh(alice)
    assert client_of(alice).post(TOGGLE, data).status_code == 400
    after = fresh(alice)
    assert (after.auto_win, after.beans) == (before.auto_win, before.beans)


def test_switches_need_a_login_and_a_post(client, alice, client_of):
    assert client.post(TOGGLE, {"name": "auto_win", "on": "1"}).status_code == 302
    assert client_of(alice).get(TOGGLE).status_code == 405


def test_the_switcher_remembers_the_language_on_the_account(client_of, alice):
    c = client_of(alice)
    reply = c.post("/accounts/language/", {"language": "en", "next": "/"})
    assert reply.status_code == 302 and reply.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    assert fresh(alice).language == "en"
    assert '<html lang="en">' in c.get("/").content.decode()


def test_the_remembered_language_applies_after_logging_in_elsewhere(alice):
    User.objects.filter(pk=alice.pk).update(language="en")
    other_device = Client()  # no language cookie: the browser would say Chinese
    reply = other_device.post(
        "/accounts/login/", {"username": "alice", "password": PASSWORD}, follow=True
    )
    assert '<html lang="en">' in reply.content.decode()
    assert other_device.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"


def test_a_visitor_can_still_switch_without_an_account(client):
    reply = client.post("/accounts/language/", {"language": "en", "next": "/"})
    assert reply.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    assert '<html lang="en">' in client.get("/").content.decode()


def test_switching_back_on_a_device_with_another_cookie_wins(client_of, alice):
    """The stored choice is applied unless the request itself is the switch."""
    User.objects.filter(pk=alice.pk).update(language="en")
    c = client_of(alice)
    c.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"
    reply = c.post("/accounts/language/", {"language": "zh-hans", "next": "/"})
    assert reply.cookies[settings.LANGUAGE_COOKIE_NAME].value == "zh-hans"
    assert fresh(alice).language == "zh-hans"
    assert '<html lang="zh-hans">' in c.get("/").content.decode()


def test_choosing_as_the_browser_says_lets_the_browser_decide_again(client_of, alice):
    c = client_of(alice)
    english = c.post("/accounts/settings/", {"language": "en"}, follow=True)
    assert [str(m) for m in english.context["messages"]] == ["Your settings are saved."]
    reply = c.post("/accounts/settings/", {"language": ""}, headers={"accept-language": "zh-CN"})
    assert fresh(alice).language == ""
    assert reply.cookies[settings.LANGUAGE_COOKIE_NAME].value == ""  # deleted
    page = c.get("/accounts/settings/", headers={"accept-language": "zh-CN"})
    assert page.content.decode().count('lang="zh-hans"') == 1
