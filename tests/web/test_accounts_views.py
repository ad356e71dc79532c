"""Sign-up, log in/out, password change and profiles, through the test client."""

import pytest
from django.test import Client
from django.urls import reverse

from accounts import services
from accounts.models import EconomySettings, LedgerEntry, User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_signing_up_logs_in_and_grants_the_starting_beans(builtin, client):
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "newbie",
            "nickname": "小明",
            "password1": "a-long-pass-phrase",
            "password2": "a-long-pass-phrase",
        },
        follow=True,
    )
    assert response.redirect_chain[-1][0] == "/"
    user = User.objects.get(username="newbie")
    assert response.context["user"] == user
    assert user.nickname == "小明"
    assert user.beans == EconomySettings.load().signup_grant
    assert LedgerEntry.objects.get(account=user).reason == "signup"
    assert "小明" in response.content.decode()


def test_sign_up_shows_form_errors_and_creates_nothing(builtin, client):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "x", "password1": "a-long-pass-phrase", "password2": "different-pass"},
    )
    assert response.status_code == 200
    assert response.context["form"].errors["password2"]
    assert not User.objects.filter(username="x").exists()


def test_sign_up_refuses_a_nickname_in_use(alice, client):
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "copycat",
            "nickname": "alice",
            "password1": "a-long-pass-phrase",
            "password2": "a-long-pass-phrase",
        },
    )
    assert response.context["form"].errors["nickname"]
    assert not User.objects.filter(username="copycat").exists()


def test_sign_up_refuses_a_user_name_that_is_another_players_nickname(alice, client):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "ALICE", "password1": "a-long-pass-phrase", "password2": "a-long-pass-phrase"},
    )
    assert response.context["form"].errors["username"]  # alice is shown as "Alice"
    assert not User.objects.filter(username="ALICE").exists()


def test_a_nickname_may_not_copy_another_players_shown_name_or_the_bots_badge(
    alice, make_player, client_of
):
    make_player("qa1")  # no nickname: shown by the user name
    c = client_of(alice)
    for name in ("QA1", "🤖 Bot · Expert", "Expert🤖"):
        page = c.post(reverse("accounts:nickname"), {"nickname": name}, follow=True)
        alice.refresh_from_db()
        assert alice.nickname == "Alice", name
        assert page.context["nickname_form"].errors["nickname"], name
    c.post(reverse("accounts:nickname"), {"nickname": "alice"})  # one's own user name is fine
    alice.refresh_from_db()
    assert alice.nickname == "alice"


def test_a_nickname_may_not_hide_invisible_characters_or_full_width_lookalikes(
    alice, client_of, builtin
):
    """ "Alice\u200b" (zero-width space) passed as a second "Alice", "\u200b" alone showed
    as a blank name, and a full-width "Ａｌｉｃｅ" looked the same as "Alice"."""
    c = client_of(alice)
    for name in ["Bob\u200b", "\u200b", "\u202eecila", "a\u0007b"]:
        response = c.post(reverse("accounts:nickname"), {"nickname": name})
        assert response.context["nickname_form"].errors["nickname"], repr(name)
    alice.refresh_from_db()
    assert alice.nickname == "Alice"
    for name in ["Alice\u200b", "Ａｌｉｃｅ"]:
        response = Client().post(
            reverse("accounts:signup"),
            {
                "username": "mimic",
                "nickname": name,
                "password1": "a-long-pass-phrase",
                "password2": "a-long-pass-phrase",
            },
        )
        assert response.context["form"].errors["nickname"], repr(name)
    assert not User.objects.filter(username="mimic").exists()
    c.post(reverse("accounts:nickname"), {"nickname": "小明ＡＢ"})  # stored as it reads
    alice.refresh_from_db()
    assert alice.nickname == "小明AB"
    too_long = "㍻" * 13  # 13 characters typed, 26 once normalized
    response = c.post(reverse("accounts:nickname"), {"nickname": too_long})
    assert response.context["nickname_form"].errors["nickname"]


def test_a_friend_invited_to_a_room_signs_up_and_lands_in_the_room(alice, client):
    """The room's "log in to join" led to a log-in page whose sign-up link dropped the
    room: a friend without an account signed up and landed in the lobby, the link lost."""
    import re

    from catalogue.models import Ruleset
    from lobby import rooms

    room = rooms.create(alice, Ruleset.objects.get(slug="classic"), 1)
    page = client.get(room.get_absolute_url()).content.decode()
    signup = f"{reverse('accounts:signup')}?next=/rooms/{room.code}/"
    assert f'href="{signup}"' in page  # offered beside "log in to join"
    login = client.get(f"{reverse('accounts:login')}?next=/rooms/{room.code}/").content.decode()
    assert f'href="{signup}"' in login
    form = client.get(signup).content.decode()
    assert re.search(rf'name="next" value="/rooms/{room.code}/"', form)
    assert f'?next=/rooms/{room.code}/"' in form.split("<form")[1].split("</section>")[0]
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "friend",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": room.get_absolute_url(),
        },
    )
    assert response.status_code == 302 and response.url == room.get_absolute_url()
    assert User.objects.filter(username="friend").exists()


def test_with_no_sign_up_grant_the_welcome_does_not_count_zero_beans(builtin, client):
    EconomySettings.objects.update_or_create(pk=1, defaults={"signup_grant": 0})
    response = client.post(
        reverse("accounts:signup"),
        {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD},
        follow=True,
    )
    said = [str(m) for m in response.context["messages"]]
    assert said == ["欢迎！"]
    assert not LedgerEntry.objects.filter(account__username="newbie").exists()


def test_the_sign_up_page_and_the_lobby_promise_the_grant_only_when_there_is_one(builtin, client):
    """They promised free beans (注册即送欢乐豆) without a number, and still did when the
    operator had set the grant to 0: the new player found none. The amount is said, or
    nothing is."""
    signup, lobby = reverse("accounts:signup"), reverse("lobby:home")
    EconomySettings.objects.update_or_create(pk=1, defaults={"signup_grant": 12_000})
    assert "新玩家注册即送 12,000 欢乐豆" in client.get(signup).content.decode()
    assert "注册即送 12,000 欢乐豆" in client.get(lobby).content.decode()
    client.cookies.load({"django_language": "en"})
    assert "New players receive 12,000 beans" in client.get(signup).content.decode()
    assert "Sign up and get 12,000 free beans" in client.get(lobby).content.decode()
    EconomySettings.objects.filter(pk=1).update(signup_grant=0)
    for language in ("en", "zh-hans"):
        client.cookies.load({"django_language": language})
        for page in (client.get(signup), client.get(lobby)):
            text = page.content.decode()
            assert "free beans" not in text and "New players receive" not in text
            assert "注册即送" not in text
    assert f'href="{signup}">注册</a>' in client.get(lobby).content.decode()


def test_sign_up_goes_to_the_lobby_when_next_is_another_site(builtin, client):
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "lured",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": "https://evil.example/",
        },
    )
    assert response.status_code == 302 and response.url == reverse("lobby:home")
    page = client.get(f"{reverse('accounts:signup')}?next=//evil.example/").content.decode()
    assert "evil" not in page


def test_a_user_name_is_held_to_a_nicknames_length(builtin, client):
    """A user name is shown wherever a player has no nickname: 150 characters of it made
    every page wider than a phone's screen. Sign-up holds it to 24, as a nickname."""
    form = client.get(reverse("accounts:signup")).content.decode()
    assert 'maxlength="24"' in form and 'maxlength="150"' not in form
    for name, ok in [("L" * 25, False), ("L" * 24, True)]:
        response = client.post(
            reverse("accounts:signup"),
            {
                "username": name,
                "password1": "a-long-pass-phrase",
                "password2": "a-long-pass-phrase",
            },
        )
        assert User.objects.filter(username=name).exists() is ok, len(name)
        if not ok:
            assert response.context["form"].errors["username"]


def test_a_user_names_error_says_chinese_characters_are_allowed(builtin, client):
    """Django's message (in its Chinese, 只能包含英文字母…) said only English letters and
    left out "+", while the validator takes any letter: 小明 signs up."""
    url = reverse("accounts:signup")
    pw = {"password1": "a-long-pass-phrase", "password2": "a-long-pass-phrase"}
    errors = client.post(url, {"username": "小 明", **pw}).context["form"].errors["username"]
    assert errors == ["请输入有效的用户名：只能包含汉字、字母、数字和 @ . + - _，不能有空格。"]
    client.cookies.load({"django_language": "en"})
    errors = client.post(url, {"username": "小 明", **pw}).context["form"].errors["username"]
    assert errors == [
        "Enter a valid user name: letters (Chinese characters too), digits and"
        " @ . + - _ only, without spaces."
    ]
    client.post(url, {"username": "小明", **pw})
    assert User.objects.filter(username="小明").exists()


def test_log_in_and_log_out(alice, client):
    response = client.post(reverse("accounts:login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get("/").context["user"] == alice
    client.post(reverse("accounts:logout"))
    assert not client.get("/").context["user"].is_authenticated


def test_the_user_name_is_matched_in_any_case_as_sign_up_keeps_it_unique(
    alice, make_player, client
):
    """Sign-up refuses "ALICE" once "alice" exists, so the name is hers in any case: typed
    "ALICE" (a phone capitalises the first letter) it was refused as a wrong password."""
    url = reverse("accounts:login")
    client.cookies.load({"django_language": "en"})
    wrong = client.post(url, {"username": "ALICE", "password": "wrong"})
    assert wrong.context["form"].errors["__all__"] == [
        "Please enter a correct username and password. Note that both fields may be case-sensitive."
    ]
    assert client.post(url, {"username": "ALICE", "password": PASSWORD}).status_code == 302
    assert client.get("/").context["user"] == alice
    # Two names that differ only in case (an operator's rename): each by its exact name.
    sam, _sam = make_player("sam"), make_player("Sam")
    other = Client()
    assert other.post(url, {"username": "SAM", "password": PASSWORD}).status_code == 200
    assert other.post(url, {"username": "sam", "password": PASSWORD}).status_code == 302
    assert other.get("/").context["user"] == sam
    # A banned player who knows the password is told why, in any case too.
    services.ban(alice, "cheating")
    banned = Client().post(url, {"username": "ALICE", "password": PASSWORD})
    assert "此账号已被封禁：cheating" in banned.context["form"].non_field_errors()


def test_repeated_wrong_passwords_lock_the_login_for_a_while(alice, client, settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    url = reverse("accounts:login")
    for _ in range(3):
        assert client.post(url, {"username": "alice", "password": "wrong"}).status_code == 200
    response = client.post(url, {"username": "Alice", "password": PASSWORD})
    assert response.status_code == 200
    assert response.context["form"].errors["__all__"][0].startswith("登录失败次数过多")
    assert not response.context["user"].is_authenticated
    # Another player from the same address is not locked out.
    other = client.post(url, {"username": "bob", "password": "wrong"})
    assert not other.context["form"].errors["__all__"][0].startswith("登录失败次数过多")


def test_a_successful_login_resets_the_failure_count(alice, client, settings):
    settings.LOGIN_FAILURE_LIMIT = 2
    url = reverse("accounts:login")
    client.post(url, {"username": "alice", "password": "wrong"})
    assert client.post(url, {"username": "alice", "password": PASSWORD}).status_code == 302
    client.post(reverse("accounts:logout"))
    client.post(url, {"username": "alice", "password": "wrong"})
    assert client.post(url, {"username": "alice", "password": PASSWORD}).status_code == 302


def test_sign_ups_per_address_are_limited(builtin, client, settings):
    settings.SIGNUPS_PER_IP_PER_DAY = 2
    for n in range(3):
        response = client.post(
            reverse("accounts:signup"),
            {
                "username": f"farm{n}",
                "password1": "a-long-pass-phrase",
                "password2": "a-long-pass-phrase",
            },
        )
        client.post(reverse("accounts:logout"))
    assert response.status_code == 200 and response.context["form"].non_field_errors()
    assert sorted(
        User.objects.filter(username__startswith="farm").values_list("username", flat=True)
    ) == ["farm0", "farm1"]


def test_a_banned_player_cannot_log_in_and_is_logged_out(alice, client, client_of):
    logged_in = client_of(alice)
    services.ban(alice, "cheating")
    response = client.post(reverse("accounts:login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 200 and response.context["form"].errors
    assert not logged_in.get("/").context["user"].is_authenticated
    # With the right password she is told why; a wrong one learns nothing of the ban.
    assert "此账号已被封禁：cheating" in response.context["form"].non_field_errors()
    guess = client.post(reverse("accounts:login"), {"username": "alice", "password": "nope"})
    assert "封禁" not in str(guess.context["form"].non_field_errors())


def test_a_player_banned_while_logged_in_is_told_on_the_page_they_land_on(alice, bob, client_of):
    """Their session ended with no word: the next page was the lobby (or the log-in page)
    as a visitor's, and only a log-in attempt said the account was banned."""
    zh, en = client_of(alice), client_of(bob)
    en.cookies.load({"django_language": "en"})
    services.ban(alice, "cheating")
    services.ban(bob, "")
    page = zh.get(reverse("lobby:home"))
    assert not page.context["user"].is_authenticated
    assert "此账号已被封禁：cheating" in page.content.decode()
    assert "封禁" not in zh.get(reverse("lobby:home")).content.decode()  # told once
    landed = en.get(reverse("accounts:profile"), follow=True)  # to the log-in page
    assert landed.redirect_chain[-1][0].startswith(reverse("accounts:login"))
    assert "This account is banned." in landed.content.decode()


def test_a_ban_met_by_an_htmx_request_reloads_the_page_that_says_so(
    alice, bob, outsider, client_of, htmx
):
    """The first request after a ban is often a poll: the lobby's refresh of its rooms, the
    waiting page's status. The notice was queued in that fragment, which shows no messages,
    and the page went on reading as the player's until some later page said it; a poll
    that needs a log-in had the whole log-in page, notice and all, swapped into it."""
    zh, en = client_of(alice), client_of(bob)
    en.cookies.load({"django_language": "en"})
    en.post(reverse("lobby:quick_join", args=["novice"]))
    ticket = bob.queue_tickets.get()
    services.ban(alice, "cheating")
    services.ban(bob, "")

    poll = zh.get(reverse("lobby:home"), headers=htmx(target="tiers"))
    assert poll["HX-Refresh"] == "true" and "封禁" not in poll.content.decode()
    page = zh.get(reverse("lobby:home"))  # the reload htmx makes
    assert not page.context["user"].is_authenticated
    assert "此账号已被封禁：cheating" in page.content.decode()
    assert "封禁" not in zh.get(reverse("lobby:home")).content.decode()  # told once
    assert "HX-Refresh" not in zh.get(reverse("lobby:home"), headers=htmx(target="tiers"))

    poll = en.get(ticket.get_absolute_url(), headers=htmx())
    assert poll["HX-Refresh"] == "true" and "banned" not in poll.content.decode()
    landed = en.get(ticket.get_absolute_url(), follow=True)  # the reload: to the log-in page
    assert landed.redirect_chain[-1][0].startswith(reverse("accounts:login"))
    assert "This account is banned." in landed.content.decode()

    # htmx restoring a page from history swaps in the body it gets, ignoring HX-Refresh
    back = client_of(outsider)
    services.ban(outsider, "cheating")
    page = back.get(reverse("lobby:home"), headers={**htmx(), "HX-History-Restore-Request": "true"})
    assert "HX-Refresh" not in page and "此账号已被封禁：cheating" in page.content.decode()


def test_change_password(alice, client_of):
    c = client_of(alice)
    response = c.post(
        reverse("accounts:password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "another-long-one-9",
            "new_password2": "another-long-one-9",
        },
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("another-long-one-9")


def test_my_profile_shows_beans_rank_progress_and_ledger(alice, client_of):
    User.objects.filter(pk=alice.pk).update(
        rank_score=100, games_played=10, games_won=4, best_fan=13, best_fans=["qing_yi_se"]
    )
    c = client_of(alice)
    response = c.get(reverse("accounts:profile"), follow=True)
    html = response.content.decode()
    assert response.redirect_chain[-1][0] == f"/accounts/players/{alice.public_id}/"
    rank = response.context["rank"]
    assert (rank.level.level, rank.next_level.level, rank.percent) == (3, 4, 28)  # 80 -> 150
    assert "40%" in html and "清一色" in html and "20,000" in html
    assert response.context["ledger"]
    # the counters take practice games too, which the leaderboards leave out: it says so
    assert "包括与电脑的练习局" in html and "排行榜只计排位房间" in html


def test_another_players_profile_hides_their_ledger(alice, bob, client_of):
    response = client_of(bob).get(alice.get_absolute_url())
    assert response.status_code == 200
    assert response.context["ledger"] is None
    assert b"password" not in response.content.lower()


def test_the_biggest_hand_is_named_in_the_pages_language(alice, client):
    # as tables.services stores it: the fans' keys
    User.objects.filter(pk=alice.pk).update(
        best_fan=62, best_fans=["qing_long", "hun_yi_se", "men_qian_qing", "hua_pai"]
    )
    page = client.get(alice.get_absolute_url()).content.decode()
    # the fans on a line of their own under the count (a long list on a phone)
    assert '62 番</span><span class="fans muted small">清龙、混一色、门前清、花牌</span>' in page
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    page = client.get(alice.get_absolute_url()).content.decode()
    assert (
        '>62 fan</span><span class="fans muted small">'
        "Pure straight, Half flush, Concealed hand, Flower<"
    ) in page
    assert "混一色" not in page


def test_system_accounts_have_no_profile(builtin, client):
    from accounts import wallet

    assert client.get(wallet.house().get_absolute_url()).status_code == 404


def test_nickname_change_over_htmx_returns_the_fragment(alice, bob, client_of, htmx):
    c = client_of(alice)
    response = c.post(reverse("accounts:nickname"), {"nickname": "Bob"}, headers=htmx())
    assert response.status_code == 200
    assert b'id="nickname"' in response.content and b"<html" not in response.content
    assert "taken" in response.content.decode() or "已被" in response.content.decode()
    response = c.post(reverse("accounts:nickname"), {"nickname": "Queen"}, headers=htmx())
    alice.refresh_from_db()
    assert alice.nickname == "Queen" and b"Queen" in response.content


def test_a_nickname_saved_over_htmx_is_said_and_shown_at_once_not_on_the_next_page(
    alice, client_of, htmx
):
    """The fragment said nothing while "Nickname saved." waited in the session for the
    lobby, and the top bar and the page's title kept the old name."""
    import re

    c = client_of(alice)
    page = c.post(reverse("accounts:nickname"), {"nickname": "Queen"}, headers=htmx())
    html = page.content.decode()
    assert re.search(r'<p class="muted small" role="status">[^<]+</p>', html)
    assert "<title>Queen · 二人麻将 Online</title>" in html
    assert '<span id="topbar-name" hx-swap-oob="true">Queen ·</span>' in html
    assert 'id="profile-avatar"' not in html  # the face is the account's, not the name's
    assert 'id="save-nickname"' in html  # htmx gives the focus back to the button
    lobby = c.get(reverse("lobby:home")).content.decode()
    assert "昵称已保存" not in lobby and "Nickname saved" not in lobby
    # a full page shows none of the swap's extras
    profile = c.get(alice.get_absolute_url()).content.decode()
    assert profile.count("<title>") == 1 and "hx-swap-oob" not in profile
    assert 'role="status">' not in profile.split('id="nickname"')[1].split("</form>")[0]


def test_a_muted_player_cannot_change_nickname(alice, client_of):
    services.mute(alice, hours=2)
    client_of(alice).post(reverse("accounts:nickname"), {"nickname": "Loud"})
    alice.refresh_from_db()
    assert alice.nickname == "Alice"


def test_a_too_short_password_is_refused_in_chinese(builtin, client):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "shorty", "password1": "k9!x", "password2": "k9!x"},
    )
    errors = " ".join(response.context["form"].errors["password2"])
    assert "密码太短，至少要有 8 个字符" in errors and "too short" not in errors
    assert not User.objects.filter(username="shorty").exists()


def test_the_lockout_message_counts_its_minutes_in_english(alice, client, settings):
    settings.LOGIN_FAILURE_LIMIT, settings.LOGIN_FAILURE_WINDOW = 1, 60
    client.cookies.load({"django_language": "en"})
    url = reverse("accounts:login")
    client.post(url, {"username": "alice", "password": "wrong"})
    said = client.post(url, {"username": "alice", "password": PASSWORD}).context["form"]
    assert said.errors["__all__"] == ["Too many failed log-ins. Try again in 1 minute."]


def _described_by(html: str) -> dict[str, list[str]]:
    """Each field's aria-describedby ids -> those the page has no element for."""
    import re

    missing = {}
    for tag in re.findall(r"<(?:input|select|textarea)\b[^>]*>", html):
        ids = re.search(r'aria-describedby="([^"]*)"', tag)
        name = re.search(r'name="([^"]*)"', tag)
        if ids and name:
            missing[name.group(1)] = [i for i in ids.group(1).split() if f'id="{i}"' not in html]
    return missing


def test_a_fields_error_and_help_are_tied_to_it_for_screen_readers(
    alice, builtin, client, client_of
):
    """Django points each field's aria-describedby at <id>_helptext and <id>_error; the
    pages gave neither an id, so a screen reader read the field without its error."""
    page = client.post(
        reverse("accounts:signup"),
        {"username": "x", "password1": "a-long-pass", "password2": "different-pass"},
    )
    html = page.content.decode()
    assert 'aria-invalid="true"' in html and 'id="id_password2_error"' in html
    assert _described_by(html) and not any(_described_by(html).values())
    c = client_of(alice)
    for response in (
        c.post(reverse("accounts:nickname"), {"nickname": "🤖 Bot · Expert"}, follow=True),
        c.post(reverse("lobby:room_find"), {"code": "??"}, HTTP_HX_REQUEST="true"),
        c.post(reverse("accounts:password_change"), {"old_password": "wrong"}),
    ):
        html = response.content.decode()
        assert 'aria-invalid="true"' in html, response.request["PATH_INFO"]
        assert not any(_described_by(html).values()), _described_by(html)
    settings = c.get(reverse("accounts:preferences")).content.decode()  # the switches' help
    assert _described_by(settings) and not any(_described_by(settings).values())


def test_the_lobbys_room_code_field_is_named_for_screen_readers(alice, builtin, client_of):
    """The join-by-code field had no label: a screen reader read its placeholder, ABC234."""
    html = client_of(alice).get(reverse("lobby:home")).content.decode()
    import re

    field = re.search(r'<input type="text" name="code"[^>]*>', html).group(0)
    assert 'aria-label="房间号"' in field, field


def test_the_profiles_empty_nickname_box_says_what_it_is(make_player, client_of):
    """Shown inline without a label: a player with no nickname saw a blank box."""
    import re

    html = client_of(make_player("nonick")).get(reverse("accounts:profile"), follow=True)
    field = re.search(r'<input type="text" name="nickname"[^>]*>', html.content.decode()).group(0)
    assert 'placeholder="昵称"' in field and 'aria-label="昵称"' in field, field


def test_a_bots_profile_has_no_rank_progress(client, builtin):
    """A bot is never ranked: its profile (linked from a match page) shows no level and no
    "40 more to 雀仔" it could never earn."""
    from accounts.models import User

    bot = User.objects.filter(kind=User.Kind.BOT).order_by("pk").first()
    page = client.get(bot.get_absolute_url()).content.decode()
    assert "电脑不参与排位" in page and "等级分 0<" not in page and "还差" not in page


def test_the_admin_log_in_locks_out_guessers_and_takes_any_case(make_player, client, settings):
    """/admin/login/ was Django's own form: no lockout, so an operator's password could be
    guessed without end, and the name only in its stored case."""
    settings.LOGIN_FAILURE_LIMIT = 3
    operator = make_player("Ops")
    operator.is_staff = True
    operator.save(update_fields=["is_staff"])
    url = reverse("admin:login")
    assert client.post(url, {"username": "ops", "password": PASSWORD}).status_code == 302
    assert client.get(reverse("admin:index")).status_code == 200
    client.logout()
    for _ in range(3):
        assert client.post(url, {"username": "ops", "password": "wrong"}).status_code == 200
    locked = client.post(url, {"username": "Ops", "password": PASSWORD})
    assert locked.context["form"].errors["__all__"][0].startswith("登录失败次数过多")
    assert client.get(reverse("admin:index")).status_code == 302
    # A player who is not staff is still refused with the admin's own words.
    make_player("carol")
    refused = Client().post(url, {"username": "carol", "password": PASSWORD})
    assert refused.status_code == 200 and not refused.context["user"].is_authenticated


def test_a_player_at_the_admin_log_in_is_not_locked_out_of_the_site(make_player, settings):
    """The staff check refusing a right password counted as a failed guess, and the count
    is shared with the site's log-in: three tries at /admin/login/ locked the player out."""
    settings.LOGIN_FAILURE_LIMIT = 3
    make_player("carol")
    client = Client()
    for _ in range(4):
        refused = client.post(reverse("admin:login"), {"username": "carol", "password": PASSWORD})
        assert not refused.context["user"].is_authenticated
    site = client.post(reverse("accounts:login"), {"username": "carol", "password": PASSWORD})
    assert site.status_code == 302 and "_auth_user_id" in client.session
