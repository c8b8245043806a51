"""The distributions of the ember workspace, discovered from packages/*/pyproject.toml.

Shared by the release tools (release.py, build_wheels.py, make_index.py): nothing here lists
distributions by name except the meta-package ``ember`` and the one compiled distribution, which
is recognised by its build backend (scikit-build-core).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
META_PACKAGE = "ember"
# ember-core's public version lives in its metadata provider's settings (build_support/).
VARIANT_PROVIDER = "ember_variant"


class ReleaseError(Exception):
    """A release rule is broken; the message says which and how to fix it."""


@dataclass
class Distribution:
    """One workspace member: its name, folder, version and requirements."""

    name: str
    path: Path
    version: Version
    requires_python: str | None
    requirements: list[Requirement]
    compiled: bool
    # True when the version is a setting of ember-core's metadata provider, not [project].version.
    dynamic_version: bool = False
    siblings: list[Requirement] = field(default_factory=list)

    @property
    def pyproject(self) -> Path:
        return self.path / "pyproject.toml"

    @property
    def changelog(self) -> Path:
        return self.path / "CHANGELOG.md"

    @property
    def tag(self) -> str:
        """The git tag of this version: ``ember-tensor-v0.1.1``."""
        return f"{self.name}-v{self.version}"


def load_distribution(pyproject: Path) -> Distribution:
    """Reads one member's pyproject.toml."""
    data = tomllib.loads(pyproject.read_text())
    project = data.get("project", {})
    name = project.get("name")
    if not name:
        raise ReleaseError(f"[release] {pyproject}: no [project].name")
    dynamic = "version" in project.get("dynamic", [])
    if dynamic:
        raw = _provider_version(data, pyproject)
    elif "version" in project:
        raw = project["version"]
    else:
        raise ReleaseError(f"[release] {pyproject}: no [project].version")
    backend = data.get("build-system", {}).get("build-backend", "")
    requirements = [Requirement(r) for r in project.get("dependencies", [])]
    return Distribution(
        name=canonicalize_name(name),
        path=pyproject.parent,
        version=Version(raw),
        requires_python=project.get("requires-python"),
        requirements=requirements,
        compiled=backend.startswith("scikit_build_core"),
        dynamic_version=dynamic,
    )


def _provider_version(data: dict[str, object], pyproject: Path) -> str:
    tool = data.get("tool", {})
    entries = tool.get("dynamic-metadata", []) if isinstance(tool, dict) else []
    for entry in entries:
        provider = entry.get("provider", {})
        if isinstance(provider, dict) and provider.get("module") == VARIANT_PROVIDER:
            version = entry.get("version")
            if isinstance(version, str):
                return version
    raise ReleaseError(
        f"[release] {pyproject}: version is dynamic but no [[tool.dynamic-metadata]] entry of "
        f"{VARIANT_PROVIDER} sets `version`"
    )


def discover(root: Path = ROOT) -> dict[str, Distribution]:
    """Every workspace member under ``root/packages``, by canonical name."""
    dists = [load_distribution(p) for p in sorted((root / "packages").glob("*/pyproject.toml"))]
    by_name = {d.name: d for d in dists}
    if len(by_name) != len(dists):
        raise ReleaseError("[release] two workspace members share a name")
    for dist in dists:
        dist.siblings = [r for r in dist.requirements if canonicalize_name(r.name) in by_name]
    return by_name


def compatible_range(version: Version) -> str:
    """The range dependents write for ``version``: ``>=0.3,<0.4`` (0.x) or ``>=1.2,<2``."""
    major, minor = version.major, version.minor
    if major == 0:
        return f">=0.{minor},<0.{minor + 1}"
    return f">={major}.{minor},<{major + 1}"


def table_span(text: str, header: str) -> tuple[int, int]:
    """Character span of the TOML table whose header line is exactly ``header``."""
    match = re.search(rf"^{re.escape(header)}[ \t]*$", text, flags=re.MULTILINE)
    if match is None:
        raise ReleaseError(f"[release] no {header} table")
    end = re.search(r"^\[", text[match.end() :], flags=re.MULTILINE)
    return match.end(), match.end() + end.start() if end else len(text)
