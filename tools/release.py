"""Release helper: independent versions per distribution, sibling ranges, changelogs and tags.

Usage (from the repository root):
    uv run python tools/release.py list
    uv run python tools/release.py check
    uv run python tools/release.py bump ember-tensor patch          # or minor, major, 0.2.0
    uv run python tools/release.py bump ember-tensor minor --update-ranges
    uv run python tools/release.py sync-meta
    uv run python tools/release.py tag ember-tensor [--create]

``bump`` moves the distribution's ``## Unreleased`` changelog entries (plus any ``-m`` lines)
under the new version and writes the version into pyproject.toml and every ``__version__``
literal of its sources. It refuses a bump that leaves a sibling range unable to admit the new
version unless ``--update-ranges`` rewrites those ranges (each dependent then needs a release).
``check`` is what CI runs: every sibling dependency is an explicit range admitting the version in
the workspace, the meta-package depends on every distribution, versions agree everywhere, and
each changelog has a section for its current version.
"""

from __future__ import annotations

import argparse
import datetime
import re
import subprocess
import sys
import tomllib
from collections.abc import Sequence
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version
from workspace import (
    META_PACKAGE,
    ROOT,
    Distribution,
    ReleaseError,
    compatible_range,
    discover,
    load_distribution,
    table_span,
)

UNRELEASED = "## Unreleased"
_VERSION_LITERAL = re.compile(r'^(__version__(?:: str)? = )"([^"]*)"', re.MULTILINE)


def check(root: Path = ROOT) -> list[str]:
    """Every broken release rule of the workspace at ``root``, as one message each."""
    dists = discover(root)
    problems: list[str] = []
    for dist in dists.values():
        for req in dist.siblings:
            problems += _range_problems(dist, req, dists[canonicalize_name(req.name)])
        for path, found in version_literals(dist):
            if found != str(dist.version):
                problems.append(f"{path}: __version__ is {found!r}, {dist.name} is {dist.version}")
        if dist.requires_python is None:
            problems.append(f"{dist.pyproject}: no requires-python")
        if not dist.changelog.exists():
            problems.append(f"{dist.changelog}: missing (every distribution has a changelog)")
        elif _section_heading(dist.changelog.read_text(), str(dist.version)) is None:
            problems.append(f"{dist.changelog}: no section for the current version {dist.version}")
    problems += _meta_problems(dists)
    problems += _uv_source_problems(root, dists)
    return problems


def _range_problems(dist: Distribution, req: Requirement, target: Distribution) -> list[str]:
    where = f"{dist.pyproject}: {dist.name} requires {req}"
    operators = {spec.operator for spec in req.specifier}
    if not operators & {">=", ">", "~=", "=="} or not operators & {"<", "<=", "~=", "=="}:
        suggestion = f"{req.name}{compatible_range(target.version)}"
        return [f"{where}: write an explicit range such as {suggestion}"]
    if not req.specifier.contains(target.version, prereleases=True):
        return [f"{where}, which does not admit {target.name} {target.version} in the workspace"]
    return []


def _meta_problems(dists: dict[str, Distribution]) -> list[str]:
    meta = dists.get(META_PACKAGE)
    if meta is None:
        return [f"no meta-package {META_PACKAGE!r} under packages/"]
    listed = {canonicalize_name(r.name) for r in meta.siblings}
    return [
        f"{meta.pyproject}: the meta-package does not depend on {name} "
        "(run `tools/release.py sync-meta`)"
        for name in dists
        if name != META_PACKAGE and name not in listed
    ]


def _uv_source_problems(root: Path, dists: dict[str, Distribution]) -> list[str]:
    sources = tomllib.loads((root / "pyproject.toml").read_text())
    table = sources.get("tool", {}).get("uv", {}).get("sources", {})
    return [
        f"{root / 'pyproject.toml'}: [tool.uv.sources] lacks {name} = {{ workspace = true }}"
        for name in dists
        if table.get(name, {}).get("workspace") is not True
    ]


def version_literals(dist: Distribution) -> list[tuple[Path, str]]:
    """Every ``__version__ = "..."`` string literal in the distribution's sources."""
    found = []
    for path in sorted((dist.path / "src").rglob("*.py")):
        for match in _VERSION_LITERAL.finditer(path.read_text()):
            found.append((path, match.group(2)))
    return found


def next_version(current: Version, how: str) -> Version:
    """``major``/``minor``/``patch`` after ``current``, or an explicit higher version."""
    major, minor, patch = [*current.release, 0, 0][:3]
    steps = {
        "major": f"{major + 1}.0.0",
        "minor": f"{major}.{minor + 1}.0",
        "patch": f"{major}.{minor}.{patch + 1}",
    }
    try:
        new = Version(steps.get(how, how))
    except InvalidVersion as e:
        raise ReleaseError(f"[release] {how!r} is neither major/minor/patch nor a version") from e
    if new.local is not None or new <= current:
        raise ReleaseError(f"[release] new version {new} must be public and above {current}")
    return new


def bump(
    root: Path,
    name: str,
    how: str,
    messages: Sequence[str] = (),
    update_ranges: bool = False,
    date: str | None = None,
) -> Distribution:
    """Bumps one distribution (see the module docstring); returns it as re-read from disk."""
    dists = discover(root)
    dist = dists.get(canonicalize_name(name))
    if dist is None:
        raise ReleaseError(f"[release] no distribution {name!r}; known: {', '.join(dists)}")
    new = next_version(dist.version, how)
    stale = [
        (other, req)
        for other in dists.values()
        for req in other.siblings
        if canonicalize_name(req.name) == dist.name and not req.specifier.contains(new, True)
    ]
    if stale and not update_ranges:
        listed = "; ".join(f"{o.name} requires {r}" for o, r in stale)
        raise ReleaseError(
            f"[release] {dist.name} {new} would break: {listed}. Pass --update-ranges to write "
            f"{dist.name}{compatible_range(new)} there (those distributions then need a release)"
        )
    changelog = dist.changelog.read_text() if dist.changelog.exists() else ""
    entries = [*_unreleased_entries(changelog), *(f"- {m}" for m in messages)]
    if not entries:
        raise ReleaseError(
            f"[release] {dist.changelog} has no entries under '{UNRELEASED}': add them, or pass -m"
        )
    day = date or datetime.date.today().isoformat()
    dist.changelog.write_text(_release_changelog(changelog, dist.name, str(new), day, entries))
    _write_version(dist, new)
    for other, req in stale:
        _write_requirement(other, req, f"{req.name}{compatible_range(new)}")
        _add_unreleased(other, f"- Requires {dist.name}{compatible_range(new)}.")
    return load_distribution(dist.pyproject)


def _unreleased_entries(changelog: str) -> list[str]:
    start = changelog.find(UNRELEASED + "\n")
    if start < 0:
        return []
    body = changelog[start + len(UNRELEASED) + 1 :]
    end = re.search(r"^## ", body, flags=re.MULTILINE)
    return [line for line in body[: end.start() if end else None].splitlines() if line.strip()]


def _release_changelog(
    changelog: str, name: str, version: str, day: str, entries: list[str]
) -> str:
    if not changelog:
        changelog = f"# Changelog: {name}\n\n{UNRELEASED}\n"
    section = f"{UNRELEASED}\n\n## {version} ({day})\n\n" + "\n".join(entries) + "\n"
    start = changelog.find(UNRELEASED + "\n")
    if start < 0:
        return changelog.rstrip("\n") + "\n\n" + section
    body = changelog[start + len(UNRELEASED) + 1 :]
    end = re.search(r"^## ", body, flags=re.MULTILINE)
    rest = body[end.start() :] if end else ""
    return changelog[:start] + section + ("\n" + rest if rest else "")


def _add_unreleased(dist: Distribution, entry: str) -> None:
    text = dist.changelog.read_text() if dist.changelog.exists() else f"# Changelog: {dist.name}\n"
    if UNRELEASED + "\n" not in text:
        text = text.rstrip("\n") + f"\n\n{UNRELEASED}\n"
    start = text.find(UNRELEASED + "\n") + len(UNRELEASED) + 1
    entries = _unreleased_entries(text)
    body = text[start:]
    end = re.search(r"^## ", body, flags=re.MULTILINE)
    rest = body[end.start() :] if end else ""
    new_body = "\n" + "\n".join([*entries, entry]) + "\n" + ("\n" + rest if rest else "")
    dist.changelog.write_text(text[:start] + new_body)


def _section_heading(changelog: str, version: str) -> str | None:
    match = re.search(rf"^## \[?{re.escape(version)}\]?(\s.*)?$", changelog, flags=re.MULTILINE)
    return match.group(0) if match else None


def _write_version(dist: Distribution, new: Version) -> None:
    text = dist.pyproject.read_text()
    header = "[[tool.dynamic-metadata]]" if dist.dynamic_version else "[project]"
    start, end = table_span(text, header)
    table, count = re.subn(
        rf'^version = "{re.escape(str(dist.version))}"',
        f'version = "{new}"',
        text[start:end],
        count=1,
        flags=re.MULTILINE,
    )
    if count != 1:
        raise ReleaseError(f"[release] {dist.pyproject}: no `version = ...` line in {header}")
    dist.pyproject.write_text(text[:start] + table + text[end:])
    for path, found in version_literals(dist):
        if found == str(dist.version):
            source = path.read_text()
            path.write_text(_VERSION_LITERAL.sub(lambda m: f'{m.group(1)}"{new}"', source))


def _write_requirement(dist: Distribution, old: Requirement, new: str) -> None:
    text = dist.pyproject.read_text()
    start, end = table_span(text, "[project]")
    # The string literal as written (str(old) normalises the order of its specifiers).
    for match in re.finditer(r'"([^"]+)"', text[start:end]):
        try:
            found = Requirement(match.group(1))
        except InvalidRequirement:
            continue
        if found == old:
            at, stop = start + match.start(1), start + match.end(1)
            dist.pyproject.write_text(text[:at] + new + text[stop:])
            return
    raise ReleaseError(f"[release] {dist.pyproject}: cannot find the requirement {old}")


def sync_meta(root: Path = ROOT) -> list[str]:
    """Makes the meta-package depend on every distribution present; returns what it added."""
    dists = discover(root)
    meta = dists[META_PACKAGE]
    listed = {canonicalize_name(r.name) for r in meta.siblings}
    missing = [d for name, d in dists.items() if name != META_PACKAGE and name not in listed]
    if not missing:
        return []
    text = meta.pyproject.read_text()
    start, end = table_span(text, "[project]")
    match = re.search(r"^dependencies = \[(.*?)^\]", text[start:end], re.MULTILINE | re.DOTALL)
    if match is None:
        raise ReleaseError(f"[release] {meta.pyproject}: no multi-line `dependencies = [` list")
    added = [f"{d.name}{compatible_range(d.version)}" for d in missing]
    lines = "".join(f'  "{req}",\n' for req in added)
    at = start + match.end() - 1  # just before the closing bracket
    meta.pyproject.write_text(text[:at] + lines + text[at:])
    for req in added:
        _add_unreleased(meta, f"- Depends on {req}.")
    return added


def tag(root: Path, name: str, create: bool) -> str:
    """The tag command for a distribution's current version; runs it when ``create``."""
    dists = discover(root)
    dist = dists.get(canonicalize_name(name))
    if dist is None:
        raise ReleaseError(f"[release] no distribution {name!r}; known: {', '.join(dists)}")
    problems = check(root)
    if problems:
        raise ReleaseError("[release] fix these before tagging:\n  " + "\n  ".join(problems))
    command = ["git", "tag", "-a", dist.tag, "-m", f"{dist.name} {dist.version}"]
    if create:
        status = subprocess.run(
            ["git", "status", "--porcelain", "--", str(dist.path)],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        )
        if status.stdout.strip():
            raise ReleaseError(f"[release] commit the changes under {dist.path} before tagging")
        result = subprocess.run(command, cwd=root, capture_output=True, text=True)
        if result.returncode != 0:
            raise ReleaseError(f"[release] {' '.join(command)} failed: {result.stderr.strip()}")
    return " ".join(f"'{c}'" if " " in c else c for c in command)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="workspace root")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="distributions, versions and sibling ranges")
    sub.add_parser("check", help="fail when a release rule is broken")
    sub.add_parser("sync-meta", help="make the meta-package depend on every distribution")
    p_bump = sub.add_parser("bump", help="bump one distribution's version and changelog")
    p_bump.add_argument("name")
    p_bump.add_argument("how", help="major, minor, patch or an explicit version")
    p_bump.add_argument("-m", "--message", action="append", default=[], help="changelog entry")
    p_bump.add_argument("--update-ranges", action="store_true")
    p_bump.add_argument("--date", help="release date for the changelog (default: today)")
    p_tag = sub.add_parser("tag", help="print (or --create) the git tag of a distribution")
    p_tag.add_argument("name")
    p_tag.add_argument("--create", action="store_true")
    args = parser.parse_args(argv)
    try:
        if args.command == "list":
            for dist in discover(args.root).values():
                siblings = ", ".join(str(r) for r in dist.siblings) or "-"
                print(f"{dist.name:<24} {dist.version!s:<10} requires {siblings}")
        elif args.command == "check":
            problems = check(args.root)
            for problem in problems:
                print(problem, file=sys.stderr)
            if problems:
                return 1
            print(f"release rules hold for {len(discover(args.root))} distributions")
        elif args.command == "sync-meta":
            added = sync_meta(args.root)
            print("added: " + ", ".join(added) if added else "the meta-package is complete")
        elif args.command == "bump":
            dist = bump(args.root, args.name, args.how, args.message, args.update_ranges, args.date)
            print(f"{dist.name} is now {dist.version}; commit, then: release.py tag {dist.name}")
        else:
            print(tag(args.root, args.name, args.create))
    except ReleaseError as e:
        print(e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
