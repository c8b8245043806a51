"""Print the non-ember requirements declared by the wheels in a folder, one per line.

Used by docker/Dockerfile.cpu: third-party dependencies are installed from PyPI first, then the
ember wheels with `pip install --no-index`, so no ember distribution is ever taken from PyPI.
Requirements that only apply to an extra are skipped; other environment markers are kept.
"""

from __future__ import annotations

import re
import sys
import zipfile
from email.parser import Parser
from pathlib import Path


def requirements(folder: Path) -> list[str]:
    found: set[str] = set()
    for wheel in sorted(folder.glob("*.whl")):
        with zipfile.ZipFile(wheel) as zf:
            name = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
            metadata = Parser().parsestr(zf.read(name).decode("utf-8"))
        for req in metadata.get_all("Requires-Dist") or []:
            project = re.split(r"[\s\[<>=!~;(]", req.strip(), maxsplit=1)[0]
            normalized = re.sub(r"[-_.]+", "-", project).lower()
            if normalized == "ember" or normalized.startswith("ember-"):
                continue
            if re.search(r"\bextra\s*==", req):
                continue
            found.add(req.strip())
    return sorted(found)


if __name__ == "__main__":
    print("\n".join(requirements(Path(sys.argv[1] if len(sys.argv) > 1 else "dist"))))
