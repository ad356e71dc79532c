"""Writing generated assets: each file only when its bytes changed, so a regeneration
leaves untouched files (and their timestamps) alone."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path


def write_files(files: Mapping[str, str | bytes], out_dir: Path) -> list[Path]:
    """Write ``{name: content}`` (text as UTF-8) into ``out_dir``; the paths, in order."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, content in files.items():
        path = out_dir / name
        data = content.encode("utf-8") if isinstance(content, str) else content
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
        paths.append(path)
    return paths
