"""`python -m ember.info`: components, variant, CPU capability, threads, CUDA."""

from __future__ import annotations

import json
import subprocess
import sys

import ember
import ember_core
from ember.info import info


def test_info_reports_this_environment() -> None:
    data = info()
    assert data["components"]["ember-core"] == ember_core.__version__
    assert data["components"]["ember-tensor"] == ember.__version__
    assert data["variant"] == ember.version.variant
    assert data["cpu_capability"] in {"baseline", "avx2", "avx512"}
    assert data["threads"] == ember.get_num_threads()
    assert data["cuda"]["devices"] == [
        ember.cuda.get_device_name(i) for i in range(ember.cuda.device_count())
    ]


def test_module_runs_as_a_script_with_text_and_json() -> None:
    env_run = [sys.executable, "-m", "ember.info"]
    text = subprocess.run(env_run, check=True, capture_output=True, text=True).stdout
    assert f"ember-core               {ember_core.__version__}" in text
    assert f"variant:        {ember.version.variant}" in text
    out = subprocess.run([*env_run, "--json"], check=True, capture_output=True, text=True).stdout
    assert json.loads(out)["ember_core"] == ember_core.__version__


def test_forced_capability_is_reported() -> None:
    env = {"EMBER_CPU_CAPABILITY": "baseline", "PATH": ""}
    cmd = [sys.executable, "-m", "ember.info", "--json"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout
    data = json.loads(out)
    assert data["cpu_capability"] == "baseline"
    assert data["cpu_capability_forced"] == "baseline"
