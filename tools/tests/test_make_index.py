"""tools/make_index.py on small synthetic wheels: layout, links, hashes, requires-python."""

from __future__ import annotations

import hashlib
import re
import zipfile
from pathlib import Path

import make_index
import pytest


def fake_wheel(folder: Path, filename: str, requires_python: str = ">=3.10") -> Path:
    """A wheel holding only METADATA (enough for the index writer)."""
    folder.mkdir(parents=True, exist_ok=True)
    name, version = filename.split("-")[:2]
    path = folder / filename
    with zipfile.ZipFile(path, "w") as zf:
        metadata = f"Metadata-Version: 2.4\nName: {name}\nVersion: {version}\n"
        zf.writestr(
            f"{name}-{version}.dist-info/METADATA",
            metadata + (f"Requires-Python: {requires_python}\n" if requires_python else ""),
        )
    return path


@pytest.fixture
def wheels(tmp_path: Path) -> Path:
    root = tmp_path / "wheels"
    fake_wheel(root / "pure", "ember_tensor-0.1.0-py3-none-any.whl")
    fake_wheel(root / "pure", "ember-0.1.0-py3-none-any.whl", requires_python="")
    for variant, tag in [("plain", ""), ("cpu", "+cpu"), ("cu130", "+cu130")]:
        for py in ["cp311-cp311", "cp312-abi3"]:
            fake_wheel(root / variant, f"ember_core-0.1.0{tag}-{py}-manylinux_2_34_x86_64.whl")
    return root


def test_one_index_per_variant_with_its_core_and_every_pure_wheel(
    wheels: Path, tmp_path: Path
) -> None:
    out = tmp_path / "whl"
    assert make_index.main(["--wheels", str(wheels), "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["cpu", "cu130", "plain"]
    listing = (out / "cu130" / "simple" / "index.html").read_text()
    assert re.findall(r'href="([^"]+)"', listing) == ["ember/", "ember-core/", "ember-tensor/"]
    page = (out / "cu130" / "simple" / "ember-core" / "index.html").read_text()
    links = re.findall(r'<a href="([^"#]+)#sha256=([0-9a-f]{64})"', page)
    assert [href for href, _ in links] == [
        "../../files/ember_core-0.1.0%2Bcu130-cp311-cp311-manylinux_2_34_x86_64.whl",
        "../../files/ember_core-0.1.0%2Bcu130-cp312-abi3-manylinux_2_34_x86_64.whl",
    ]
    for href, digest in links:
        target = out / "cu130" / "simple" / "ember-core" / href.replace("%2B", "+")
        assert hashlib.sha256(target.read_bytes()).hexdigest() == digest
    assert 'data-requires-python="&gt;=3.10"' in page
    meta_page = (out / "plain" / "simple" / "ember" / "index.html").read_text()
    assert "data-requires-python" not in meta_page
    assert "+cpu" not in (out / "plain" / "simple" / "ember-core" / "index.html").read_text()


def test_missing_wheels_fail_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "pure").mkdir()
    assert make_index.main(["--wheels", str(tmp_path), "--out", str(tmp_path / "o")]) == 1
    assert "[make_index] no pure wheels" in capsys.readouterr().err
