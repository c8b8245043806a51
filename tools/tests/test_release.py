"""tools/release.py on a miniature workspace (and `check` on the real one)."""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

import pytest
import release
from packaging.version import Version
from release_helpers import mini_workspace_fixture, write_member  # noqa: F401 - a fixture
from workspace import ROOT, ReleaseError, compatible_range, discover


def test_the_repository_satisfies_every_release_rule() -> None:
    assert release.check(ROOT) == []


def test_discovery_finds_every_member_and_the_dynamic_core_version(mini_workspace: Path) -> None:
    dists = discover(mini_workspace)
    assert sorted(dists) == ["ember", "ember-autograd", "ember-core", "ember-tensor"]
    assert dists["ember-core"].dynamic_version and dists["ember-core"].compiled
    assert dists["ember-core"].version == Version("0.1.0")
    assert [r.name for r in dists["ember-autograd"].siblings] == ["ember-tensor"]
    assert release.check(mini_workspace) == []


@pytest.mark.parametrize(
    ("version", "expected"),
    [("0.3.2", ">=0.3,<0.4"), ("1.2.0", ">=1.2,<2"), ("0.10.0", ">=0.10,<0.11")],
)
def test_compatible_range(version: str, expected: str) -> None:
    assert compatible_range(Version(version)) == expected


def test_patch_bump_moves_unreleased_entries_and_every_version_literal(
    mini_workspace: Path,
) -> None:
    tensor = mini_workspace / "packages" / "tensor"
    log = tensor / "CHANGELOG.md"
    log.write_text(log.read_text().replace("## Unreleased\n", "## Unreleased\n\n- Fixed sum.\n"))
    dist = release.bump(mini_workspace, "ember-tensor", "patch", ["Faster."], date="2026-02-03")
    assert dist.version == Version("0.1.1")
    text = log.read_text()
    assert "## Unreleased\n\n## 0.1.1 (2026-02-03)\n\n- Fixed sum.\n- Faster.\n" in text
    assert "## 0.1.0 (2026-01-01)" in text  # the older section is kept below
    assert (tensor / "src" / "tensor" / "__init__.py").read_text() == '__version__ = "0.1.1"\n'
    assert release.check(mini_workspace) == []
    assert release.tag(mini_workspace, "ember-tensor", create=False).startswith(
        "git tag -a ember-tensor-v0.1.1 "
    )


def test_bump_of_the_dynamic_core_version_edits_the_provider_setting(mini_workspace: Path) -> None:
    dist = release.bump(mini_workspace, "ember-core", "0.1.5", ["Kernels."], date="2026-02-03")
    data = tomllib.loads(dist.pyproject.read_text())
    assert data["tool"]["dynamic-metadata"][0]["version"] == "0.1.5"
    assert data["tool"]["uv"]["cache-keys"]  # the rest of the file is untouched
    assert "version" not in data["project"]


def test_minor_bump_refuses_to_break_a_dependent_range(mini_workspace: Path) -> None:
    with pytest.raises(ReleaseError, match=r"ember-autograd requires ember-tensor<0.2,>=0.1"):
        release.bump(mini_workspace, "ember-tensor", "minor", ["New ops."])
    assert discover(mini_workspace)["ember-tensor"].version == Version("0.1.0")


def test_minor_bump_with_update_ranges_rewrites_dependents(mini_workspace: Path) -> None:
    release.bump(mini_workspace, "ember-tensor", "minor", ["New ops."], update_ranges=True)
    dists = discover(mini_workspace)
    assert dists["ember-tensor"].version == Version("0.2.0")
    for name in ["ember-autograd", "ember"]:
        (req,) = [r for r in dists[name].siblings if r.name == "ember-tensor"]
        assert str(req.specifier) == "<0.3,>=0.2"
        assert "- Requires ember-tensor>=0.2,<0.3." in dists[name].changelog.read_text()
    assert release.check(mini_workspace) == []


def test_check_reports_each_broken_rule(mini_workspace: Path) -> None:
    autograd = mini_workspace / "packages" / "autograd" / "pyproject.toml"
    autograd.write_text(autograd.read_text().replace("ember-tensor>=0.1,<0.2", "ember-tensor>=0.1"))
    meta = mini_workspace / "packages" / "ember" / "pyproject.toml"
    meta.write_text(meta.read_text().replace('  "ember-autograd>=0.1,<0.2",\n', ""))
    init = mini_workspace / "packages" / "tensor" / "src" / "tensor" / "__init__.py"
    init.write_text('__version__ = "0.0.9"\n')
    write_member(mini_workspace, "nn", "ember-nn", "0.1.0", ["ember-tensor>=0.2,<0.3"], False)
    problems = "\n".join(release.check(mini_workspace))
    assert "write an explicit range such as ember-tensor>=0.1,<0.2" in problems
    assert "does not depend on ember-autograd" in problems
    assert "__version__ is '0.0.9', ember-tensor is 0.1.0" in problems
    assert "does not admit ember-tensor 0.1.0" in problems
    assert "nn/CHANGELOG.md: missing" in problems
    assert "[tool.uv.sources] lacks ember-nn" in problems


def test_sync_meta_adds_a_new_distribution(mini_workspace: Path) -> None:
    write_member(mini_workspace, "data", "ember-data", "0.2.0", ["ember-tensor>=0.1,<0.2"])
    assert release.sync_meta(mini_workspace) == ["ember-data>=0.2,<0.3"]
    meta = discover(mini_workspace)["ember"]
    assert "ember-data" in [r.name for r in meta.siblings]
    assert release.sync_meta(mini_workspace) == []


@pytest.mark.parametrize("how", ["0.0.5", "0.1.0", "0.2.0+cpu", "sideways"])
def test_bump_rejects_bad_versions(mini_workspace: Path, how: str) -> None:
    with pytest.raises(ReleaseError, match=r"^\[release\]"):
        release.bump(mini_workspace, "ember-core", how, ["x"])


def test_bump_needs_changelog_entries_and_a_known_name(mini_workspace: Path) -> None:
    with pytest.raises(ReleaseError, match=r"no entries under '## Unreleased'"):
        release.bump(mini_workspace, "ember-tensor", "patch")
    with pytest.raises(ReleaseError, match=r"no distribution 'ember-jit'"):
        release.bump(mini_workspace, "ember-jit", "patch", ["x"])


def test_tag_create_runs_git_on_a_clean_tree(mini_workspace: Path) -> None:
    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=mini_workspace, check=True, capture_output=True, text=True
        ).stdout

    git("init", "-q")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "0")
    release.bump(mini_workspace, "ember-tensor", "patch", ["Fix."])
    with pytest.raises(ReleaseError, match=r"commit the changes"):
        release.tag(mini_workspace, "ember-tensor", create=True)
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "release")
    release.tag(mini_workspace, "ember-tensor", create=True)
    assert git("tag", "--list").split() == ["ember-tensor-v0.1.1"]


def test_cli_check_exit_codes(mini_workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert release.main(["--root", str(mini_workspace), "check"]) == 0
    (mini_workspace / "packages" / "tensor" / "CHANGELOG.md").unlink()
    assert release.main(["--root", str(mini_workspace), "check"]) == 1
    assert "CHANGELOG.md: missing" in capsys.readouterr().err
