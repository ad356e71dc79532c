"""The client's address comes from our own proxies' hops, never from what the client
wrote at the left of X-Forwarded-For (issue 30, item 2)."""

import asyncio
import re
import secrets
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from mahjong import client_address
from tests.conftest import PASSWORD

ROOT = Path(__file__).resolve().parents[2]
NGINX = "10.0.0.1"  # the proxy daphne sees as its peer


def behind_nginx() -> Client:
    """A test client whose requests reach daphne from nginx, the peer of every request."""
    return Client(REMOTE_ADDR=NGINX)


def forged_chain(real_address: str) -> dict:
    """A fresh made-up address on the left, as the client writes it; nginx appends the real."""
    made_up = f"198.18.{secrets.randbelow(256)}.{secrets.randbelow(256)}"
    return {"X-Forwarded-For": f"{made_up}, {real_address}"}


@pytest.mark.django_db
def test_a_forged_chain_is_still_locked_out_after_the_wrong_password_limit(alice, settings):
    settings.LOGIN_FAILURE_LIMIT, settings.TRUSTED_PROXY_HOPS = 3, 1
    url = reverse("accounts:login")
    guesser = behind_nginx()
    for _ in range(3):
        guesser.post(
            url, {"username": "alice", "password": "wrong"}, headers=forged_chain("203.0.113.7")
        )
    locked = guesser.post(
        url, {"username": "alice", "password": PASSWORD}, headers=forged_chain("203.0.113.7")
    )
    assert locked.context["form"].errors["__all__"][0].startswith("登录失败次数过多")
    assert not locked.context["user"].is_authenticated
    # Alice herself, at another address behind the same proxy, is not locked out.
    own = behind_nginx().post(
        url, {"username": "alice", "password": PASSWORD}, headers=forged_chain("192.0.2.20")
    )
    assert own.status_code == 302


@pytest.mark.django_db
def test_a_forged_chain_is_still_refused_past_the_sign_ups_per_address(builtin, settings):
    settings.SIGNUPS_PER_IP_PER_DAY, settings.TRUSTED_PROXY_HOPS = 2, 1

    def sign_up(name, real_address):
        return behind_nginx().post(
            reverse("accounts:signup"),
            {"username": name, "password1": "long-phrase-9", "password2": "long-phrase-9"},
            headers=forged_chain(real_address),
        )

    for n in range(3):
        farmed = sign_up(f"farm{n}", "203.0.113.7")
    assert farmed.status_code == 200 and farmed.context["form"].non_field_errors()
    assert sign_up("neighbour", "192.0.2.20").status_code == 302
    farmed_names = User.objects.filter(username__startswith="farm").values_list("username")
    assert sorted(name for (name,) in farmed_names) == ["farm0", "farm1"]


@pytest.mark.django_db
def test_with_no_trusted_hops_the_header_is_ignored(alice, settings):
    settings.LOGIN_FAILURE_LIMIT, settings.TRUSTED_PROXY_HOPS = 2, 0
    url = reverse("accounts:login")
    direct = Client(REMOTE_ADDR="203.0.113.7")
    for _ in range(2):
        direct.post(
            url, {"username": "alice", "password": "wrong"}, headers=forged_chain("1.2.3.4")
        )
    locked = direct.post(
        url, {"username": "alice", "password": PASSWORD}, headers=forged_chain("5.6.7.8")
    )
    assert locked.context["form"].errors["__all__"][0].startswith("登录失败次数过多")


@pytest.mark.parametrize(
    "forwarded, hops, expected",
    [
        ([], 0, "10.0.0.1"),
        (["6.6.6.6, 203.0.113.7"], 0, "10.0.0.1"),  # no proxy trusted: the peer
        (["6.6.6.6, 203.0.113.7"], 1, "203.0.113.7"),
        (["6.6.6.6, 203.0.113.7, 10.0.0.9"], 2, "203.0.113.7"),  # load balancer + nginx
        (["6.6.6.6", "203.0.113.7"], 1, "203.0.113.7"),  # repeated headers, in order
        ([], 1, "10.0.0.1"),  # came round the proxy: the peer, never a guess
        (["203.0.113.7"], 2, "10.0.0.1"),  # fewer entries than hops
        (["6.6.6.6, not-an-address"], 1, "10.0.0.1"),
        (["2001:DB8::1"], 1, "2001:db8::1"),
    ],
)
def test_the_address_is_read_from_the_right_by_the_trusted_hops(forwarded, hops, expected):
    assert client_address.from_forwarded("10.0.0.1", forwarded, hops) == expected


def test_a_websocket_scope_gets_the_same_address(settings):
    settings.TRUSTED_PROXY_HOPS = 1
    seen = {}

    async def app(scope, receive, send):
        seen.update(scope)

    scope = {
        "type": "websocket",
        "client": (NGINX, 40000),
        "headers": [(b"x-forwarded-for", b"6.6.6.6, 203.0.113.7"), (b"host", b"example.com")],
    }
    asyncio.run(client_address.for_websockets(app)(scope, None, None))
    assert seen["client"] == ("203.0.113.7", 0)


@pytest.mark.parametrize("path", ["docs/OPERATIONS.md", "mahjong/run.py", "README.md"])
def test_no_documented_daphne_command_trusts_the_leftmost_address(path):
    daphne_commands = re.findall(r"daphne\s[^`\n]*", (ROOT / path).read_text())
    assert not [command for command in daphne_commands if "--proxy-headers" in command]
