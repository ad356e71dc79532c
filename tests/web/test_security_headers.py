"""Every page carries a strict Content-Security-Policy and the other security headers,
and no template holds what that policy would refuse (issue 30, item 8)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted(
    path
    for top in ("templates", "mahjong", "lobby", "accounts")
    for path in (ROOT / top).glob("**/templates/**/*.html" if top != "templates" else "**/*.html")
)
INLINE = {
    "an inline <script>": re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>"),
    "a <style> block": re.compile(r"<style\b"),
    "an event-handler attribute": re.compile(r"\son[a-z]+\s*=\s*[\"']"),
}


def directives(response) -> dict[str, str]:
    policy = response["Content-Security-Policy"]
    return dict(part.strip().split(" ", 1) for part in policy.split(";"))


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/rules/", "/no-such-page/"])
def test_every_page_carries_a_strict_policy_and_the_other_headers(client, builtin, path):
    response = client.get(path)
    policy = directives(response)
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
    assert policy["object-src"] == "'none'" and policy["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy["default-src"] + policy["script-src"] + policy["style-src"]
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"
    assert "camera=()" in response["Permissions-Policy"]
    assert "geolocation=()" in response["Permissions-Policy"]


def test_the_templates_are_found():
    assert len(TEMPLATES) > 40 and ROOT / "templates" / "base.html" in TEMPLATES


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_template_holds_a_script_or_style_the_policy_refuses(template):
    text = template.read_text(encoding="utf-8")
    found = [what for what, pattern in INLINE.items() if pattern.search(text)]
    assert found == []
