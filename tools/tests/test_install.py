"""Installing ember from the built variant indexes, the ways the README documents (release tests).

Needs dist/whl/ from tools/build_wheels.py + tools/make_index.py (ci/release_check.sh runs them
first). Every install happens in a fresh virtual environment with this machine's pip settings
switched off: ember distributions come only from the built indexes, third-party ones from PyPI.
"""

from __future__ import annotations

import re
import shlex
import shutil
import textwrap
from pathlib import Path

import make_index
import pytest
import release
import workspace
from build_wheels import find_python
from install_helpers import (
    INDEXES,
    TEST_DEPS,
    WHEELS,
    WORKSPACE_ONLY_TESTS,
    Venv,
    copy_tests,
    index_url,
    reversion_wheel,
    run,
    serve,
)
from packaging.utils import canonicalize_name
from workspace import ROOT, discover

pytestmark = pytest.mark.release

DISTS = discover()
CORE = next(d for d in DISTS.values() if d.compiled)
VERSION = str(CORE.version)


@pytest.fixture(scope="module", autouse=True)
def indexes_exist() -> None:
    for variant in ["plain", "cpu", "cu130"]:
        if not (INDEXES / variant / "simple" / "index.html").exists():
            pytest.fail(f"{INDEXES / variant} missing: run tools/build_wheels.py and make_index.py")


def core_version(venv: Venv) -> str:
    return venv.py("import ember_core; print(ember_core.__version__)")


def readme_section() -> str:
    readme = (ROOT / "README.md").read_text()
    return readme[readme.index("## Install") :]


def readme_block(language: str) -> str:
    """The first ``language`` code block of the README's install section."""
    match = re.search(rf"```{language}\n(.*?)```", readme_section(), flags=re.DOTALL)
    assert match, f"the README's install section has no {language} block"
    return match.group(1)


def readme_command(prefix: str, variant: str) -> list[str]:
    """The README's command starting with ``prefix`` for ``variant``, split into arguments."""
    blocks = re.findall(r"```bash\n(.*?)```", readme_section(), flags=re.DOTALL)
    for line in "".join(blocks).splitlines():
        words = shlex.split(line.split("#")[0])
        if " ".join(words).startswith(prefix) and f"<base>/{variant}/simple/" in words:
            return words
    raise AssertionError(f"the README has no `{prefix}` command for {variant}")


def with_base(words: list[str], base: str) -> list[str]:
    return [w.replace("<base>", base) for w in words]


def newer_plain_index(tmp_path: Path) -> str:
    """An index holding only a plain ember-core one patch above ours (a newer PyPI release)."""
    v = CORE.version
    newer = f"{v.major}.{v.minor}.{v.micro + 1}"
    plain = sorted((WHEELS / "plain").glob("*.whl"))
    make_index.write_index(tmp_path / "other", [reversion_wheel(w, newer, tmp_path) for w in plain])
    return (tmp_path / "other" / "simple").as_uri()


@pytest.mark.parametrize("transport", ["file", "http"])
@pytest.mark.parametrize("variant", ["cpu", "cu130"])
def test_readme_pip_recipe_gets_the_variant(tmp_path: Path, transport: str, variant: str) -> None:
    words = readme_command("pip install ember --extra-index-url", variant)
    assert f"ember-core=={VERSION}+{variant}" in words, "the README pins another version"
    venv = Venv(tmp_path / "venv")
    if transport == "file":
        venv.pip(*with_base(words, INDEXES.as_uri())[1:])
    else:
        with serve(INDEXES) as base:
            venv.pip(*with_base(words, base)[1:])
    assert core_version(venv) == f"{VERSION}+{variant}"
    probe = (
        "import ember; print(ember.version.variant, ember.cuda.device_count(), ember.ones(3).sum())"
    )
    expected_variant = "cuda" if variant.startswith("cu") else "cpu"
    assert venv.py(probe) == f"{expected_variant} 0 tensor(3.)"
    if variant == "cu130":
        # NVIDIA's runtime wheel came from PyPI and is what the device layer loaded, lazily.
        assert "nvidia-cuda-runtime" in venv.installed()
        code = (
            "from ember_core import _C; _C._cuda_device_count(); print(_C._cuda_runtime_version())"
        )
        assert venv.py(code).startswith("13.")


def test_pip_extra_index_url_alone_gets_the_variant(tmp_path: Path) -> None:
    venv = Venv(tmp_path / "venv")
    venv.pip("install", "--extra-index-url", index_url("cu130"), "ember-tensor")
    assert core_version(venv) == f"{VERSION}+cu130"


def test_readme_pip_pin_beats_a_newer_plain_release(tmp_path: Path) -> None:
    other = newer_plain_index(tmp_path)
    words = with_base(
        readme_command("pip install ember --extra-index-url", "cu130"), INDEXES.as_uri()
    )
    unpinned = Venv(tmp_path / "unpinned")
    unpinned.pip(
        *[w for w in words[1:] if not w.startswith("ember-core==")], "--extra-index-url", other
    )
    # pip takes the highest version across indexes: this is why the README pins the variant.
    assert "+" not in core_version(unpinned)
    pinned = Venv(tmp_path / "pinned")
    pinned.pip(*words[1:], "--extra-index-url", other)
    assert core_version(pinned) == f"{VERSION}+cu130"


def test_readme_uv_recipe_needs_no_pin(tmp_path: Path) -> None:
    other = newer_plain_index(tmp_path)
    words = with_base(readme_command("uv pip install ember --index", "cu130"), INDEXES.as_uri())
    venv = Venv(tmp_path / "venv")
    venv.uv_pip(*words[3:], "--index", other)
    assert core_version(venv) == f"{VERSION}+cu130"


@pytest.mark.parametrize("transport", ["file", "http"])
def test_readme_uv_project_with_explicit_indexes_and_extras(tmp_path: Path, transport: str) -> None:
    project = tmp_path / "consumer"
    project.mkdir()
    header = 'name = "consumer"\nversion = "0.1.0"\nrequires-python = ">=3.10"\n'
    template = readme_block("toml").replace("[project]\n", "[project]\n" + header, 1)
    # Stands in for PyPI, where the pure distributions and the plain ember-core are published.
    template += '\n[[tool.uv.index]]\nname = "pypi-ember"\nurl = "<base>/plain/simple/"\n'

    def sync_and_check(base: str) -> None:
        (project / "pyproject.toml").write_text(template.replace("<base>", base))
        python = project / ".venv" / "bin" / "python"
        for extra, label in [("cu130", "+cu130"), ("cpu", "+cpu"), (None, "")]:
            chosen = ["--extra", extra] if extra else []
            run(["uv", "sync", *chosen, "--python", find_python("3.11")], cwd=project)
            version = run([python, "-c", "import ember_core; print(ember_core.__version__)"])
            assert version.strip() == f"{VERSION}{label}"

    if transport == "file":
        sync_and_check(INDEXES.as_uri())
    else:
        with serve(INDEXES) as base:
            sync_and_check(base)


def ember_closure(name: str) -> set[str]:
    """A distribution and every ember distribution it requires, transitively."""
    found = {name}
    for req in DISTS[name].siblings:
        found |= ember_closure(canonicalize_name(req.name))
    return found


def installed_ember(venv: Venv) -> set[str]:
    names = {canonicalize_name(n) for n in venv.installed()}
    return {n for n in names if n == "ember" or n.startswith("ember-")}


TESTED = [(d.name, "3.11") for d in DISTS.values() if (d.path / "tests").is_dir()]


@pytest.mark.parametrize(("name", "python"), [*TESTED, ("ember-tensor", "3.12")])
def test_each_distribution_alone_passes_its_own_tests(
    tmp_path: Path, name: str, python: str
) -> None:
    venv = Venv(tmp_path / "venv", python)
    venv.uv_pip("--index", index_url("cpu"), name, *TEST_DEPS)
    assert installed_ember(venv) == ember_closure(name)
    tests = copy_tests(DISTS[name].path, tmp_path)
    assert tests is not None
    deselect = [f"--deselect={tests.name}/{t}" for t in WORKSPACE_ONLY_TESTS]
    run(
        [venv.python, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *deselect, tests],
        cwd=tmp_path,
    )


def test_only_ember_tensor_names_what_to_install(tmp_path: Path) -> None:
    venv = Venv(tmp_path / "venv")
    venv.pip("install", "--extra-index-url", index_url("cpu"), "ember-tensor")
    assert installed_ember(venv) == {"ember-core", "ember-tensor"}
    code = textwrap.dedent("""\
        import ember
        print((ember.arange(4) * 2).sum().item())
        for attempt in ("ember.zeros(2, requires_grad=True)", "__import__('ember.nn')"):
            try:
                eval(attempt)
            except (RuntimeError, ModuleNotFoundError) as e:
                print(e)
        """)
    first, grad, nn = venv.py(code).splitlines()
    assert first == "12"
    assert "needs the ember-autograd distribution (pip install ember-autograd)" in grad
    assert nn.startswith("No module named 'ember.nn'") and "pip install ember-nn" in nn


def test_meta_package_imports_everything_and_runs_the_readme_example(tmp_path: Path) -> None:
    venv = Venv(tmp_path / "venv")
    venv.pip("install", "--extra-index-url", index_url("cpu"), "ember")
    assert installed_ember(venv) == set(DISTS)
    # Every module every installed ember distribution ships imports.
    code = textwrap.dedent("""\
        import importlib, importlib.metadata as md
        names = set()
        for dist in md.distributions():
            if (dist.metadata["Name"] or "").startswith("ember"):
                for f in dist.files or []:
                    p = str(f)
                    if p.endswith(".py") and p.split("/")[0] in ("ember", "ember_core"):
                        names.add(p[:-3].replace("/", ".").removesuffix(".__init__"))
        for name in sorted(names):
            importlib.import_module(name)
        print(len(names))
        """)
    assert int(venv.py(code)) >= 5
    example = tmp_path / "example.py"
    example.write_text(readme_block("python"))
    run([venv.python, example], cwd=tmp_path)


def test_downstream_pin_of_an_older_component(tmp_path: Path) -> None:
    """ember-tensor and the meta-package move on a minor version (made with release.py on a copy
    of the workspace); a downstream project pinning ember-tensor to the previous minor still gets
    it, with the newest ember-core, while an unpinned one gets the new release."""
    copy = tmp_path / "workspace"
    shutil.copytree(
        ROOT / "packages",
        copy / "packages",
        ignore=shutil.ignore_patterns("build", "tests", "__pycache__", "*.so"),
    )
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    release.bump(copy, "ember-tensor", "minor", ["Next minor."], update_ranges=True)
    # Every other pure distribution requiring ember-tensor got a new range: release it as a patch.
    rebuilt = ["ember-tensor"]
    for dist in workspace.discover(copy).values():
        needs_tensor = any(r.name == "ember-tensor" for r in dist.siblings)
        if needs_tensor and not dist.compiled and dist.name not in ("ember", "ember-tensor"):
            release.bump(copy, dist.name, "patch", ["Admits ember-tensor's next minor."])
            rebuilt.append(dist.name)
    release.bump(copy, "ember", "minor", ["Next minor."], update_ranges=True)
    rebuilt.append("ember")
    assert release.check(copy) == []
    newer = tmp_path / "newer"
    for dist in workspace.discover(copy).values():
        if dist.name in rebuilt:
            run(["uv", "build", "--wheel", "--out-dir", newer, dist.path])
    previous = sorted((INDEXES / "cpu" / "files").glob("*.whl"))
    make_index.write_index(tmp_path / "index", [*previous, *newer.glob("*.whl")])
    url = (tmp_path / "index" / "simple").as_uri()
    old = DISTS["ember-tensor"].version
    pinned = Venv(tmp_path / "pinned")
    pinned.uv_pip(
        "--index",
        url,
        f"ember-tensor>={old.major}.{old.minor},<{old.major}.{old.minor + 1}",
        "ember-core",
    )
    assert pinned.version_of("ember-tensor") == str(old)
    assert pinned.py("import ember; print(ember.ones(2).sum())") == "tensor(2.)"
    moved_on = Venv(tmp_path / "moved_on")
    moved_on.uv_pip("--index", url, "ember")
    assert moved_on.version_of("ember-tensor") == f"{old.major}.{old.minor + 1}.0"


@pytest.mark.parametrize("python", ["3.10", "3.12", "3.13"])
def test_wheels_for_other_pythons(tmp_path: Path, python: str) -> None:
    """3.10 has its own wheel; 3.12 and 3.13 share the abi3 one."""
    venv = Venv(tmp_path / "venv", python)
    venv.uv_pip("--index", index_url("cpu"), "ember-tensor")
    assert core_version(venv) == f"{VERSION}+cpu"
    assert venv.py("import ember; print((ember.arange(3.0) @ ember.arange(3.0)).item())") == "5.0"
    wheel_tag = venv.py(
        "import importlib.metadata as m; d = m.distribution('ember-core');"
        "print([l for l in d.read_text('WHEEL').splitlines() if l.startswith('Tag:')][0])"
    )
    assert wheel_tag.startswith("Tag: cp310-cp310-" if python == "3.10" else "Tag: cp312-abi3-")
