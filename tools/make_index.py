"""Writes one static PEP 503 index per ember-core variant from the wheels build_wheels.py made.

Usage (from the repository root):
    uv run python tools/make_index.py            # dist/wheels/* -> dist/whl/<variant>/simple/

For each variant folder dist/wheels/<variant>/ (plain, cpu, cu130, ...), dist/whl/<variant>/ gets
``files/`` (that variant's ember-core wheels plus every pure wheel from dist/wheels/pure/) and
``simple/`` (``index.html`` listing the projects, ``<project>/index.html`` listing its files with
relative links, ``+`` encoded as ``%2B``, ``#sha256=`` fragments and ``data-requires-python``).
Each index holds ember distributions only: use it next to PyPI (``--extra-index-url`` with pip, an
explicit ``[[tool.uv.index]]`` with uv) so third-party dependencies still come from PyPI.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import os
import shutil
import sys
import zipfile
from collections import defaultdict
from collections.abc import Sequence
from email.parser import Parser
from pathlib import Path
from urllib.parse import quote

from packaging.utils import canonicalize_name, parse_wheel_filename
from workspace import ROOT

PAGE = '<!DOCTYPE html>\n<html>\n<head><meta name="pypi:repository-version" content="1.0">\
<title>{title}</title></head>\n<body>\n<h1>{title}</h1>\n{links}\n</body>\n</html>\n'


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def requires_python(wheel: Path) -> str | None:
    """The wheel's Requires-Python metadata, if any."""
    with zipfile.ZipFile(wheel) as zf:
        name = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = Parser().parsestr(zf.read(name).decode("utf-8"))
    value = metadata.get("Requires-Python")
    return str(value) if value else None


def link_or_copy(source: Path, target: Path) -> None:
    target.unlink(missing_ok=True)
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def write_index(index_root: Path, wheels: Sequence[Path]) -> dict[str, list[str]]:
    """Writes ``files/`` and ``simple/`` under ``index_root``; returns the files per project."""
    shutil.rmtree(index_root, ignore_errors=True)
    files = index_root / "files"
    files.mkdir(parents=True)
    projects: dict[str, list[Path]] = defaultdict(list)
    for wheel in wheels:
        link_or_copy(wheel, files / wheel.name)
        projects[canonicalize_name(parse_wheel_filename(wheel.name)[0])].append(files / wheel.name)
    simple = index_root / "simple"
    simple.mkdir()
    listing = "\n".join(f'<a href="{p}/">{p}</a><br>' for p in sorted(projects))
    (simple / "index.html").write_text(PAGE.format(title="Simple index", links=listing))
    for project, project_files in sorted(projects.items()):
        links = []
        for path in sorted(project_files):
            href = f"../../files/{quote(path.name)}#sha256={sha256(path)}"
            attrs = f'href="{html.escape(href)}"'
            python = requires_python(path)
            if python:
                attrs += f' data-requires-python="{html.escape(python)}"'
            links.append(f"<a {attrs}>{html.escape(path.name)}</a><br>")
        (simple / project).mkdir()
        page = PAGE.format(title=f"Links for {project}", links="\n".join(links))
        (simple / project / "index.html").write_text(page)
    return {p: sorted(f.name for f in fs) for p, fs in projects.items()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheels", type=Path, default=ROOT / "dist" / "wheels")
    parser.add_argument("--out", type=Path, default=ROOT / "dist" / "whl")
    args = parser.parse_args(argv)
    pure = sorted((args.wheels / "pure").glob("*.whl"))
    if not pure:
        print(f"[make_index] no pure wheels in {args.wheels / 'pure'}", file=sys.stderr)
        return 1
    variants = sorted(p for p in args.wheels.iterdir() if p.is_dir() and p.name != "pure")
    for variant_dir in variants:
        core = sorted(variant_dir.glob("*.whl"))
        if not core:
            print(f"[make_index] no wheels in {variant_dir}", file=sys.stderr)
            return 1
        projects = write_index(args.out / variant_dir.name, [*core, *pure])
        count = sum(len(f) for f in projects.values())
        print(f"{args.out / variant_dir.name / 'simple'}: {len(projects)} projects, {count} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
