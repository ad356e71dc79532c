"""The vendored htmx files are exactly the ones static/vendor/README.md documents, the
pages name their icon, and each kind of message has its colour."""

import hashlib
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders

VENDOR = Path(__file__).resolve().parents[2] / "static" / "vendor"


def test_vendored_files_match_the_hashes_in_the_readme():
    rows = re.findall(
        r"^\| `([^`]+)/` \| `[^`]+` \| [\d.]+ \| `package/dist/([^`]+)`.*\| `([0-9a-f]{64})` \|$",
        (VENDOR / "README.md").read_text(),
        flags=re.M,
    )
    assert len(rows) == 2
    for directory, filename, digest in rows:
        assert hashlib.sha256((VENDOR / directory / filename).read_bytes()).hexdigest() == digest


def test_the_base_template_loads_the_vendored_files_and_no_cdn():
    base = (VENDOR.parents[1] / "templates" / "base.html").read_text()
    assert "vendor/htmx-2.0.11/htmx.min.js" in base and "vendor/htmx-ext-ws-2.0.4/ws.min.js" in base
    assert "https://" not in base and "//unpkg" not in base


@pytest.mark.django_db
def test_pages_name_an_icon_that_is_served(client):
    """A page without one makes the browser ask for /favicon.ico, a 404 on every visit."""
    page = client.get("/accounts/login/").content.decode()
    icon = re.search(r'<link rel="icon" type="image/svg\+xml" href="([^"]+)">', page)
    assert icon and icon.group(1).startswith(settings.STATIC_URL)
    assert finders.find(icon.group(1).removeprefix(settings.STATIC_URL))


@pytest.mark.django_db
def test_favicon_ico_redirects_to_the_static_icon_and_the_admin_names_it(client, django_user_model):
    """Browsers ask for /favicon.ico anyway (and the admin's pages named no icon): it was a
    404 and a console error on every page, the admin's included."""
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    target = response["Location"]
    assert target == f"{settings.STATIC_URL}favicon.svg"
    found = finders.find(target.removeprefix(settings.STATIC_URL))
    assert found and Path(found).read_text().startswith("<svg ")
    assert len(Path(found).read_bytes()) < 1024  # a small hand-written icon

    page = client.get("/").content.decode()
    assert f'<link rel="icon" type="image/svg+xml" href="{target}">' in page
    icon = f'<link rel="icon" type="image/svg+xml" href="{target}">'
    assert icon in client.get("/admin/login/").content.decode()
    staff = django_user_model.objects.create_superuser("root", password="pw-long-enough-1")
    client.force_login(staff)
    for url in ("/admin/", "/admin/accounts/user/", f"/admin/accounts/user/{staff.pk}/change/"):
        assert icon in client.get(url).content.decode(), url


def test_each_level_of_message_but_success_has_a_colour_of_its_own():
    """A message is drawn ``flash <level>``; a level without a rule of its own is the plain
    flash, green, as a success. "You left during a hand: that counts as an escape." (a
    warning) read as good news."""
    css = (VENDOR.parents[0] / "css" / "site.css").read_text()
    for level in ("info", "warning", "error"):
        assert re.search(rf"^\.flash\.{level} \{{[^}}]*background:", css, flags=re.M), level
