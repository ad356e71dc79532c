"""`make run` and `make test` install from requirements/lock.txt (with --require-hashes), not
from pyproject.toml. A pin changed in pyproject.toml without `make lock` would be silently
ignored by every install: this fails instead.

Every requirement of `[project] dependencies`, the `test` extra and `[build-system] requires`
(the editable install is built without isolation, from the lock's setuptools) must be in the
lock at a version it allows, `name==version` pins at exactly that version, each with at
least one sha256 hash. No database: this reads two files."""

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = ROOT / "pyproject.toml"
LOCK = ROOT / "requirements" / "lock.txt"
EXTRA = "test"


def normalize(name: str) -> str:
    """PEP 503: Django_Foo.bar and django-foo-bar are one project."""
    return re.sub(r"[-_.]+", "-", name).lower()


def declared(pyproject: Path) -> list[Requirement]:
    """The requirements the lock is generated from (extras such as celery[redis] are kept on
    the Requirement; its name alone is what the lock lists)."""
    data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    lines = [
        *data["project"]["dependencies"],
        *data["project"].get("optional-dependencies", {}).get(EXTRA, []),
        *data.get("build-system", {}).get("requires", []),
    ]
    return [Requirement(line) for line in lines]


def locked(lock: Path) -> dict[str, tuple[str, int]]:
    """{normalized name: (version, number of sha256 hashes)} from a pip-compile lock."""
    entries: dict[str, list] = {}
    current = None
    for raw in lock.read_text(encoding="utf-8").splitlines():
        line = raw.split(" #", 1)[0].strip().removesuffix("\\").strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("--hash="):
            assert current is not None, f"a hash before any requirement: {raw!r}"
            if line.startswith("--hash=sha256:"):
                entries[current][1] += 1
            continue
        if line.startswith("-"):
            current = None  # an option line (--index-url ...), not a requirement
            continue
        requirement = Requirement(line)
        specs = list(requirement.specifier)
        assert len(specs) == 1 and specs[0].operator == "==", f"not a pin in the lock: {raw!r}"
        current = normalize(requirement.name)
        assert current not in entries, f"{current} is locked twice"
        entries[current] = [specs[0].version, 0]
    return {name: (version, hashes) for name, (version, hashes) in entries.items()}


def disagreements(pyproject: Path, lock: Path) -> list[str]:
    """Each way the lock fails pyproject.toml, in words; [] when they agree."""
    entries = locked(lock)
    problems = []
    for requirement in declared(pyproject):
        name = normalize(requirement.name)
        if name not in entries:
            problems.append(f"{requirement} is not in {lock.name}")
            continue
        version, hashes = entries[name]
        pins = [s.version for s in requirement.specifier if s.operator in ("==", "===")]
        if pins and any(Version(pin) != Version(version) for pin in pins):
            problems.append(f"{requirement} is pinned, but {lock.name} has {name}=={version}")
        elif not requirement.specifier.contains(version, prereleases=True):
            problems.append(f"{requirement} does not allow {lock.name}'s {name}=={version}")
        if hashes == 0:
            problems.append(f"{name}=={version} has no --hash=sha256: line in {lock.name}")
    return problems


def test_the_lock_has_every_pin_of_pyproject_at_its_version_with_hashes():
    assert disagreements(PYPROJECT, LOCK) == [], "run `make lock` after changing a pin"


def test_the_lock_is_not_empty_and_every_entry_is_hashed():
    entries = locked(LOCK)
    assert len(entries) > len(declared(PYPROJECT))  # the transitive dependencies too
    assert [name for name, (_, hashes) in entries.items() if hashes == 0] == []


def test_a_pin_changed_without_make_lock_is_caught(tmp_path):
    text = PYPROJECT.read_text(encoding="utf-8")
    django = next(r for r in declared(PYPROJECT) if normalize(r.name) == "django")
    (old,) = [s.version for s in django.specifier]
    changed = tmp_path / "pyproject.toml"
    changed.write_text(text.replace(f'"Django=={old}"', '"Django==5.2.999"'), encoding="utf-8")
    assert disagreements(changed, LOCK) == [
        f"Django==5.2.999 is pinned, but lock.txt has django=={old}"
    ]

    added = tmp_path / "added.toml"
    added.write_text(
        text.replace('"pytest==', '"no-such-dist==1.0",\n    "pytest=='), encoding="utf-8"
    )
    assert disagreements(added, LOCK) == ["no-such-dist==1.0 is not in lock.txt"]


def test_names_and_extras_are_normalized_and_hashes_are_required(tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        '[project]\ndependencies = ["Zope.Interface==8.7", "celery[redis]==5.7.0"]\n',
        encoding="utf-8",
    )
    lock = tmp_path / "lock.txt"
    lock.write_text(
        "celery==5.7.0 \\\n    --hash=sha256:" + "0" * 64 + "\n    # via errenmajiang\n"
        "zope-interface==8.7\n    # via twisted\n",
        encoding="utf-8",
    )
    assert disagreements(pyproject, lock) == [
        "zope-interface==8.7 has no --hash=sha256: line in lock.txt"
    ]
