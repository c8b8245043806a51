"""Helpers of the release tests (tools/ and tools/tests/ are on pytest's pythonpath)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest


def write_member(
    root: Path, folder: str, name: str, version: str, deps: list[str], changelog: bool = True
) -> Path:
    """A hatchling member with a static version, one ``__version__`` literal and a changelog."""
    path = root / "packages" / folder
    (path / "src" / folder).mkdir(parents=True)
    listed = "".join(f'  "{d}",\n' for d in deps)
    (path / "pyproject.toml").write_text(
        textwrap.dedent(f"""\
        [build-system]
        requires = ["hatchling>=1.25"]
        build-backend = "hatchling.build"

        [project]
        name = "{name}"
        version = "{version}"
        requires-python = ">=3.10"
        dependencies = [
        """)
        + listed
        + "]\n"
    )
    (path / "src" / folder / "__init__.py").write_text(f'__version__ = "{version}"\n')
    if changelog:
        (path / "CHANGELOG.md").write_text(
            f"# Changelog: {name}\n\n## Unreleased\n\n## {version} (2026-01-01)\n\n- First.\n"
        )
    return path


@pytest.fixture(name="mini_workspace")
def mini_workspace_fixture(tmp_path: Path) -> Path:
    """core (dynamic version, like ember-core) <- tensor <- autograd, and the meta-package."""
    core = tmp_path / "packages" / "core"
    core.mkdir(parents=True)
    (core / "pyproject.toml").write_text(
        textwrap.dedent("""\
        [build-system]
        requires = ["scikit-build-core>=1.1"]
        build-backend = "scikit_build_core.build"

        [project]
        name = "ember-core"
        dynamic = ["version", "dependencies"]
        requires-python = ">=3.10"
        dependencies = []

        [[tool.dynamic-metadata]]
        provider = { path = "build_support", module = "ember_variant" }
        version = "0.1.0"

        [tool.uv]
        cache-keys = [{ file = "pyproject.toml" }]
        """)
    )
    (core / "CHANGELOG.md").write_text(
        "# Changelog: ember-core\n\n## Unreleased\n\n## 0.1.0 (2026-01-01)\n\n- First.\n"
    )
    write_member(tmp_path, "tensor", "ember-tensor", "0.1.0", ["ember-core>=0.1,<0.2"])
    write_member(tmp_path, "autograd", "ember-autograd", "0.1.0", ["ember-tensor>=0.1,<0.2"])
    write_member(
        tmp_path,
        "ember",
        "ember",
        "0.1.0",
        ["ember-core>=0.1,<0.2", "ember-tensor>=0.1,<0.2", "ember-autograd>=0.1,<0.2"],
    )
    names = ["ember-core", "ember-tensor", "ember-autograd", "ember"]
    sources = "".join(f"{n} = {{ workspace = true }}\n" for n in names)
    (tmp_path / "pyproject.toml").write_text(
        '[tool.uv.workspace]\nmembers = ["packages/*"]\n\n[tool.uv.sources]\n' + sources
    )
    return tmp_path
