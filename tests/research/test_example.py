"""The training example runs in quick mode and saves its plot."""

from __future__ import annotations

import importlib.util
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_policy.py"


def test_train_policy_quick(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("train_policy", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    curve = module.main(["--quick", "--plot", str(tmp_path / "curve.png")])
    assert curve
    assert (tmp_path / "curve.png").exists()
