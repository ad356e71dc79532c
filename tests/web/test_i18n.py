"""Chinese first, English second, and the committed .mo is the compiled .po: for every
catalog in the repository (the project's and each app's), and the table page rendered in
Chinese keeps no English."""

import gettext
import re
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "mahjong" / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"
SKIP = {".venv", "var", "tests", "node_modules", "build", "test-artifacts", "bench"}


def catalogs() -> list[Path]:
    """Every */locale/zh_Hans/LC_MESSAGES/django.po of the project, apps included."""
    found = []
    for top in sorted(ROOT.iterdir()):
        if top.is_dir() and not top.name.startswith(".") and top.name not in SKIP:
            found += sorted(top.glob("**/locale/zh_Hans/LC_MESSAGES/django.po"))
    return found


CATALOGS = catalogs()


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
            m = re.match(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?) "(.*)"$', line)
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


def test_the_catalogs_are_found():
    names = {str(p.relative_to(ROOT)).split("/locale/")[0] for p in CATALOGS}
    assert {"mahjong", "mahjong/tables"} <= names
    assert len(parse_po(PO.read_text(encoding="utf-8"))) > 200


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_message_is_translated_to_chinese_and_none_is_fuzzy(po):
    entries = parse_po(po.read_text(encoding="utf-8"))
    assert entries, f"{po}: no messages"
    assert [e["msgid"] for e in entries if "fuzzy" in e["flags"]] == []
    assert [e["msgid"] for e in entries if not all(e["msgstr"].values())] == []


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_committed_mo_file_matches_the_po_file(po):
    mo = po.with_suffix(".mo")
    assert mo.exists(), f"{mo} is missing: msgfmt -o django.mo django.po"
    compiled = gettext.GNUTranslations(mo.open("rb"))
    for e in parse_po(po.read_text(encoding="utf-8")):
        context = e.get("msgctxt")
        if "msgid_plural" in e:
            got = (
                compiled.npgettext(context, e["msgid"], e["msgid_plural"], 1)
                if context is not None
                else compiled.ngettext(e["msgid"], e["msgid_plural"], 1)
            )
        else:
            got = (
                compiled.pgettext(context, e["msgid"])
                if context is not None
                else compiled.gettext(e["msgid"])
            )
        assert got == e["msgstr"][0], (po, e["msgid"])


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
        reverse("accounts:preferences"),
    ]:
        html = c.get(url).content.decode()
        text = re.sub(r"<script.*?</script>|<[^>]+>", " ", html, flags=re.S)
        words = re.findall(r"\b[A-Za-z]{4,}\b", text)
        allowed = {"Online", "Alice", "English", "Rank", "classic"}
        assert [w for w in words if w not in allowed] == [], url


def english_words(html: str, allowed: set[str]) -> list[str]:
    """English words (4+ letters) left in the page's text: scripts, tags and the parts
    marked lang="en" on purpose (the fans' English names beside the Chinese) removed."""
    html = re.sub(r'<(\w+)[^>]*\blang="en"[^>]*>.*?</\1>', " ", html, flags=re.S)
    text = re.sub(r"<script.*?</script>|<[^>]+>", " ", html, flags=re.S)
    return [w for w in re.findall(r"\b[A-Za-z]{4,}\b", text) if w not in allowed]


@pytest.mark.django_db
def test_the_table_speaks_chinese_mid_hand_with_the_hint_and_at_the_end(alice, client_of):
    """Every string of the table page (switches, hint, popovers, result) in Chinese."""
    from accounts.models import User
    from catalogue.models import Ruleset
    from mahjong.engine.scripted import scripted_hand
    from mahjong.tables import services
    from tests.web.tables_support import play_out

    bot = User.objects.filter(kind=User.Kind.BOT).order_by("pk").first()
    table = services.open_table(Ruleset.objects.get(slug="classic"), [alice, bot])
    hand = table.current_hand()
    hand.state = scripted_hand(
        "classic", dealer_hand="123456789m11z22z3z", other_hand="444555666777z1m"
    ).to_dict()
    hand.save(update_fields=["state"])
    c = client_of(alice)
    allowed = {"Online", "Alice", "English", table.public_id}
    mid = c.get(table.get_absolute_url()).content.decode()
    assert 'data-testid="waits-hint"' in mid and "popover" in mid
    assert english_words(mid, allowed) == []
    play_out(table)
    end = c.get(table.get_absolute_url()).content.decode()
    assert "data-outcome" in end
    assert english_words(end, allowed) == []


# One Chinese term per thing across every catalog: "ranked" is 排位 (it feeds both the rank
# score and the rating), a bot is 电脑, the rake is 台费, a win is 胡 (点炮 for a win on
# a discard), a match is 对局, the biggest hand is 最大牌型, a private room 私人房间.
VARIANTS = {
    "计等级": "排位",
    "计入等级": "排位",
    "机器人": "电脑",
    "抽水": "台费",
    "和牌": "胡牌",
    "点和": "点炮",
    "比赛": "对局",
    "番型": "牌型",
    "私人房(?!间)": "私人房间",
}


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: str(p.relative_to(ROOT)))
def test_each_thing_has_one_chinese_term(po):
    found = [
        (e["msgid"], variant, term)
        for e in parse_po(po.read_text(encoding="utf-8"))
        for text in e["msgstr"].values()
        for variant, term in VARIANTS.items()
        if re.search(variant, text)
    ]
    assert found == []


def test_rating_is_pingfen_and_rank_score_is_dengjifen():
    entries = [e for po in CATALOGS for e in parse_po(po.read_text(encoding="utf-8"))]
    for e in entries:
        text = e["msgstr"][0]
        if re.search(r"\brat(ing|ed)\b", e["msgid"], re.I):
            assert "等级分" not in text, e["msgid"]
        if re.search(r"\brank score\b", e["msgid"], re.I):
            assert "等级分" in text and "评分" not in text, e["msgid"]


@pytest.mark.django_db
def test_the_result_panel_writes_labels_and_beans_as_the_rest_of_the_site(
    alice, bob, client_of, settings
):
    """分数：8 (a full-width colon, no space) in Chinese, "Points: 8" in English; the beans
    won or lost and the rake as 1,000 like every other amount of beans."""
    from catalogue.models import Ruleset
    from mahjong.tables import services
    from tests.web.tables_support import play_out

    settings.MAHJONG_TEST_SEED = "history-rake"  # ends in a win with a rake (test_history)
    table = services.open_table(
        Ruleset.objects.get(engine_slug="quesheng"), [alice, bob], beans_per_point=1000
    )
    hand = play_out(table)
    beans, rake = hand.result["beans"], hand.result["rake"]
    assert rake >= 1000 and max(abs(b) for b in beans) >= 1000, hand.result
    c = client_of(alice)
    html = c.get(table.get_absolute_url()).content.decode()
    assert "分数：<b" in html and "欢乐豆：<b" in html and f"台费：{rake:,}" in html
    assert f">{beans[0]:,}</b>" in html and "种子：<code>" in html
    assert not re.search(r"[\u4e00-\u9fff]: ", html)  # no ASCII colon after Chinese
    c.post(reverse("set_language"), {"language": "en", "next": "/"})
    html = c.get(table.get_absolute_url()).content.decode()
    assert "Points: <b" in html and f"Rake: {rake:,}" in html and "Seed: <code>" in html


@pytest.mark.django_db
def test_the_turn_countdown_counts_in_the_pages_language(alice, bob, client_of):
    """The clock's script writes data-unit with the seconds: 15秒 in Chinese (it wrote 15s
    on every page), 15s in English; the spectators' clock the same."""
    from accounts.models import User
    from catalogue.models import Ruleset
    from mahjong.tables import services

    bot = User.objects.filter(kind=User.Kind.BOT).order_by("pk").first()
    table = services.open_table(Ruleset.objects.get(slug="classic"), [alice, bot])
    watched = client_of(bob).get(reverse("tables:watch", args=[table.public_id]))
    assert 'data-unit="{n}秒"' in watched.content.decode()
    c = client_of(alice)
    assert 'data-unit="{n}秒"' in c.get(table.get_absolute_url()).content.decode()
    c.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert 'data-unit="{n}s"' in c.get(table.get_absolute_url()).content.decode()
    for script in ("table.js", "watch.js"):
        js = (ROOT / "static" / "tables" / script).read_text(encoding="utf-8")
        assert 'clock.dataset.unit || "{n}s").replace("{n}", left)' in js
        assert 'left + "s"' not in js


def test_a_message_in_two_catalogs_is_translated_the_same_in_both():
    """Django reads one of them (LOCALE_PATHS first, then the apps in INSTALLED_APPS
    order): a second, different translation is never shown, and misleads its editor."""
    seen: dict[tuple, dict[str, str]] = {}
    for po in CATALOGS:
        app = str(po.relative_to(ROOT)).split("/locale/")[0]
        for e in parse_po(po.read_text(encoding="utf-8")):
            seen.setdefault((e.get("msgctxt"), e["msgid"]), {})[app] = e["msgstr"][0]
    differing = {key[1]: by_app for key, by_app in seen.items() if len(set(by_app.values())) > 1}
    assert differing == {}


@pytest.mark.django_db
def test_counted_words_of_the_history_pages_take_the_singular_for_one():
    """1 point, 1 tile in the wall (they said "1 points", "1 tiles"); Chinese one form."""
    from django.template import Context, Template
    from django.utils import translation

    snippets = {
        "lobby/history/hand.html": "{{ p }} point{% plural %}{{ p }} points",
        "lobby/history/replay.html": "{{ n }} tile in the wall{% plural %}{{ n }} tiles in",
    }
    for name, text in snippets.items():  # the templates count, as rendered below
        assert text in (ROOT / "templates" / name).read_text(encoding="utf-8"), name
    page = Template(
        "{% load i18n %}{% blocktranslate count p=p %}{{ p }} point{% plural %}{{ p }} points"
        "{% endblocktranslate %}|{% blocktranslate count n=p %}{{ n }} tile in the wall"
        "{% plural %}{{ n }} tiles in the wall{% endblocktranslate %}"
    )
    with translation.override("en"):
        assert page.render(Context({"p": 1})) == "1 point|1 tile in the wall"
        assert page.render(Context({"p": 2})) == "2 points|2 tiles in the wall"
    with translation.override("zh-hans"):
        assert page.render(Context({"p": 1})) == "1 分|牌墙剩余 1 张"


def test_english_text_names_a_chinese_term_in_english_first():
    """An English page reads in English: a Chinese term comes as a gloss after its English
    name, "Pick from the wall (搓牌): ...", never alone ("搓牌: take any tile...", "Declare
    胡 as soon as...", "Let every 吃/碰/杠 chance...", a table line reading 海底捞月)."""
    cjk = re.compile(r"[\u3400-\u9fff]")
    bare = []
    for po in CATALOGS:
        for e in parse_po(po.read_text(encoding="utf-8")):
            for text in (e["msgid"], e.get("msgid_plural", "")):
                outside = re.sub(r"\([^()]*\)", "", text).replace("二人麻将 Online", "")
                if cjk.search(outside):
                    bare.append(text)
    assert bare == []
