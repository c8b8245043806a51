"""Other distributions' subpackages join the ``ember`` namespace, editable and from wheels.

ember-tensor owns ``ember/__init__.py`` (which calls ``pkgutil.extend_path``); every other
distribution ships only its own ``ember/<name>/`` folder. Both checks run in fresh interpreters.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
UV = os.environ.get("UV") or shutil.which("uv")

# Run in a fresh interpreter: imports `ember` and the fake portion, and reports where they live.
PROBE = textwrap.dedent(
    """
    import sys
    import ember
    import ember.fakeportion
    import ember_core._C

    assert ember._C is ember_core._C, ember._C
    assert ember.fakeportion.MARKER == "fakeportion", ember.fakeportion.MARKER
    assert ember.tensor([1, 2]).tolist() == [1, 2]
    print(ember.__file__)
    print(ember.fakeportion.__file__)
    """
)


def write_portion(root: Path) -> None:
    """An `ember/fakeportion` package with no `ember/__init__.py`, like ember-nn's layout."""
    package = root / "ember" / "fakeportion"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text('MARKER = "fakeportion"\n')
    (package / "py.typed").write_text("")


def run_probe(python: str, extra_path: Path | None = None) -> list[str]:
    code = PROBE
    if extra_path is not None:
        code = f"import sys\nsys.path.insert(0, {str(extra_path)!r})\n" + PROBE
    result = subprocess.run(
        [python, "-c", code], capture_output=True, text=True, timeout=120, cwd="/"
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_portion_joins_the_namespace_in_the_dev_install(tmp_path: Path) -> None:
    write_portion(tmp_path)
    ember_file, portion_file = run_probe(sys.executable, extra_path=tmp_path)
    assert Path(ember_file).is_relative_to(ROOT / "packages" / "tensor" / "src")
    assert Path(portion_file) == tmp_path / "ember" / "fakeportion" / "__init__.py"


def uv(*args: str, cwd: Path = ROOT) -> None:
    assert UV is not None
    result = subprocess.run([UV, *args], capture_output=True, text=True, timeout=300, cwd=cwd)
    assert result.returncode == 0, f"uv {' '.join(args)} failed:\n{result.stderr}"


@pytest.mark.skipif(UV is None, reason="needs the uv executable")
def test_portion_joins_the_namespace_from_wheels(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    # A throwaway distribution shipping only ember/fakeportion/.
    portion = tmp_path / "fakeportion"
    write_portion(portion)
    (portion / "pyproject.toml").write_text(
        textwrap.dedent(
            """
            [build-system]
            requires = ["hatchling"]
            build-backend = "hatchling.build"

            [project]
            name = "ember-fakeportion"
            version = "0.0.1"

            [tool.hatch.build.targets.wheel]
            packages = ["ember"]
            """
        )
    )
    uv("build", "--wheel", "--out-dir", str(dist), str(ROOT / "packages" / "tensor"))
    uv("build", "--wheel", "--out-dir", str(dist), str(portion))
    wheels = sorted(dist.glob("*.whl"))
    assert [w.name.split("-")[0] for w in wheels] == ["ember_fakeportion", "ember_tensor"]

    venv = tmp_path / "venv"
    uv("venv", "--python", sys.executable, str(venv))
    python = str(venv / "bin" / "python")
    uv("pip", "install", "--no-deps", "--python", python, *map(str, wheels))

    # ember-core is not built here: borrow the dev environment's copy (its editable hook included).
    dev_site = Path(sysconfig.get_paths()["purelib"])
    venv_site = Path(
        subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    hooks = [str(dev_site)]
    for pth in sorted(dev_site.glob("*ember_core*.pth")):
        hooks += [line for line in pth.read_text().splitlines() if line.startswith("import")]
    (venv_site / "zz_ember_core_dev.pth").write_text("\n".join(hooks) + "\n")

    ember_file, portion_file = run_probe(python)
    assert Path(ember_file).is_relative_to(venv_site)
    assert Path(portion_file).is_relative_to(venv_site)
    assert (venv_site / "ember" / "py.typed").exists()
    assert not (venv_site / "ember_core").exists()  # only the two wheels were installed
