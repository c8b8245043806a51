"""Fresh virtual environments, isolated pip/uv runs and a loopback index server for the release
tests. Every install here sees only the built ember indexes plus PyPI for third-party packages:
this machine's pip configuration (find-links, extra indexes, constraints) is switched off."""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import subprocess
import threading
import zipfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from build_wheels import find_python
from workspace import ROOT

INDEXES = Path(os.environ.get("EMBER_RELEASE_INDEXES", ROOT / "dist" / "whl"))
WHEELS = Path(os.environ.get("EMBER_RELEASE_WHEELS", ROOT / "dist" / "wheels"))
# scipy: the oracle of the special-function, distribution and matrix-function tests.
TEST_DEPS = [
    "pytest>=8",
    "hypothesis>=6.100",
    "numpy>=1.26",
    "scipy>=1.11",
    "safetensors>=0.4",
    "array-api-strict>=2.0",
]
# Tests of the editable workspace install itself, which a wheel install cannot pass by design.
WORKSPACE_ONLY_TESTS = [
    "test_namespace.py::test_portion_joins_the_namespace_in_the_dev_install",
    "test_namespace.py::test_portion_joins_the_namespace_from_wheels",  # builds from the workspace
    # Reads docs/serialization.md, which lives in the repository, not in a wheel.
    "test_torch_checkpoint.py::test_the_allowlist_is_short_and_documented",
]


def clean_env(**extra: str) -> dict[str, str]:
    """The environment minus every pip/uv setting of this machine, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "UV_", "VIRTUAL_ENV"))}
    # NOTE: not UV_NO_CONFIG, which also drops a project's own [tool.uv] indexes.
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.update(UV_PYTHON_DOWNLOADS="never", **extra)
    return env


def run(cmd: Sequence[str | Path], cwd: Path | None = None, check: bool = True) -> str:
    """Runs a command in the clean environment; returns its output (raises with it on failure)."""
    result = subprocess.run(
        [str(c) for c in cmd], cwd=cwd, env=clean_env(), capture_output=True, text=True
    )
    output = result.stdout + result.stderr
    if check and result.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, cmd))} failed ({result.returncode}):\n{output}")
    return output


class Venv:
    """A fresh virtual environment with pip, for one install scenario."""

    def __init__(self, path: Path, python: str = "3.11") -> None:
        run(["uv", "venv", "--seed", "--python", find_python(python), path])
        self.path = path
        self.python = path / "bin" / "python"

    def pip(self, *args: str | Path) -> str:
        return run([self.python, "-m", "pip", *args])

    def uv_pip(self, *args: str | Path) -> str:
        return run(["uv", "pip", "install", "--python", self.python, *args])

    def py(self, code: str, cwd: Path | None = None) -> str:
        return run([self.python, "-c", code], cwd=cwd).strip()

    def version_of(self, distribution: str) -> str:
        return self.py(f"import importlib.metadata as m; print(m.version({distribution!r}))")

    def installed(self) -> set[str]:
        code = "import importlib.metadata as m\nfor d in m.distributions(): print(d.name)"
        return set(self.py(code).split())


def index_url(variant: str) -> str:
    return (INDEXES / variant / "simple").as_uri()


@contextmanager
def serve(folder: Path) -> Iterator[str]:
    """Serves ``folder`` over HTTP on 127.0.0.1 (a free port) and yields its base URL."""
    handler = functools.partial(QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def reversion_wheel(wheel: Path, version: str, out: Path) -> Path:
    """A copy of ``wheel`` relabelled as ``version`` (METADATA, dist-info folder, file name).

    It stands in for "a newer plain release on another index" in resolution tests: what the
    resolver sees is the name, version and tags, which this sets; the contents are the original.
    """
    name, old = wheel.name.split("-")[:2]
    target = out / wheel.name.replace(f"{name}-{old}-", f"{name}-{version}-", 1)
    out.mkdir(parents=True, exist_ok=True)
    old_info, new_info = f"{name}-{old}.dist-info/", f"{name}-{version}.dist-info/"
    with zipfile.ZipFile(wheel) as src, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename.startswith(old_info):
                if item.filename.endswith(("/METADATA", "/RECORD")):
                    text = data.decode().replace(f"Version: {old}\n", f"Version: {version}\n")
                    data = text.replace(old_info, new_info).encode()
                item.filename = new_info + item.filename[len(old_info) :]
            dst.writestr(item, data)
    return target


def copy_tests(distribution_path: Path, into: Path) -> Path | None:
    """A copy of a distribution's tests folder outside the repository (so nothing there is
    importable from the workspace), or None when it has no tests."""
    tests = distribution_path / "tests"
    if not tests.is_dir():
        return None
    target = into / f"{distribution_path.name}_tests"
    shutil.copytree(tests, target, ignore=shutil.ignore_patterns("__pycache__"))
    # This ini makes `into` pytest's rootdir: the repository's settings do not apply, but its
    # shared hypothesis profile (the root conftest.py) does, loaded as a plugin: a second file
    # named conftest.py would shadow the tests' own `from conftest import ...`.
    shutil.copy(ROOT / "conftest.py", into / "ember_hypothesis_profile.py")
    (into / "pytest.ini").write_text(
        "[pytest]\npythonpath = .\naddopts = -p ember_hypothesis_profile\n"
    )
    return target
