"""Chinese first, English second, and the committed .mo is the compiled .po."""

import gettext
import re
from pathlib import Path

import pytest
from django.urls import reverse

LOCALE = Path(__file__).resolve().parents[2] / "mahjong" / "locale"
PO = LOCALE / "zh_Hans" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")


def parse_po(text: str) -> list[dict]:
    """Just enough of the PO format for this check: entries with their flags."""
    entries, current, key = [], None, None
    for line in text.splitlines() + [""]:
        if not line.strip():
            if current:
                entries.append(current)
            current, key = None, None
            continue
        current = current or {"flags": "", "msgstr": {}}
        if line.startswith("#,"):
            current["flags"] += line
        elif line.startswith("#"):
            continue
        else:
            m = re.match(r'(msgid_plural|msgid|msgstr(?:\[(\d+)\])?) "(.*)"$', line)
            if m:
                key = (
                    ("msgstr", int(m.group(2) or 0))
                    if m.group(1).startswith("msgstr")
                    else m.group(1)
                )
                value = m.group(3)
            else:
                value = re.match(r'"(.*)"$', line).group(1)
            if isinstance(key, tuple):
                current["msgstr"][key[1]] = current["msgstr"].get(key[1], "") + value
            else:
                current[key] = current.get(key, "") + value
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}

    def decode(s):
        return re.sub(r"\\(.)", lambda m: escapes[m.group(1)], s)

    for e in entries:
        for k in ("msgid", "msgid_plural"):
            if k in e:
                e[k] = decode(e[k])
        e["msgstr"] = {n: decode(v) for n, v in e["msgstr"].items()}
    return [e for e in entries if e.get("msgid")]


def test_every_message_is_translated_to_chinese_and_none_is_fuzzy():
    entries = parse_po(PO.read_text(encoding="utf-8"))
    assert len(entries) > 200
    assert [e["msgid"] for e in entries if "fuzzy" in e["flags"]] == []
    assert [e["msgid"] for e in entries if not all(e["msgstr"].values())] == []


def test_the_committed_mo_file_matches_the_po_file():
    compiled = gettext.GNUTranslations(MO.open("rb"))
    for e in parse_po(PO.read_text(encoding="utf-8")):
        if "msgid_plural" in e:
            assert compiled.ngettext(e["msgid"], e["msgid_plural"], 1) == e["msgstr"][0], e["msgid"]
        else:
            assert compiled.gettext(e["msgid"]) == e["msgstr"][0], e["msgid"]


@pytest.mark.django_db
def test_the_lobby_speaks_chinese_by_default_and_english_on_request(builtin, client):
    chinese = client.get("/").content.decode()
    assert '<html lang="zh-hans">' in chinese and "快速匹配" not in chinese  # needs login
    assert "二人麻将，随时开局" in chinese and "排行榜" in chinese
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    english = client.get("/").content.decode()
    assert '<html lang="en">' in english and "Two-player mahjong, any time" in english
    assert "Novice" in english  # data names follow the language too


@pytest.mark.django_db
def test_no_template_has_an_untranslated_english_sentence(alice, client_of):
    """Rendered pages in Chinese keep no English UI text outside data and identifiers."""
    c = client_of(alice)
    for url in [
        "/",
        reverse("lobby:leaderboards"),
        alice.get_absolute_url(),
        reverse("lobby:room_new"),
    ]:
        html = c.get(url).content.decode()
        text = re.sub(r"<script.*?</script>|<[^>]+>", " ", html, flags=re.S)
        words = re.findall(r"\b[A-Za-z]{4,}\b", text)
        allowed = {"Online", "Alice", "English", "Rank", "classic"}
        assert [w for w in words if w not in allowed] == [], url
