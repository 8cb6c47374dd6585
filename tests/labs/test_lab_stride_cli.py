"""`tutor lab stride --json`: one JSON object on stdout in the contract's shape, computed
through the real sandbox; bad input exits 1 with the reason on stderr."""

from __future__ import annotations

import json

from click.testing import CliRunner

from tutor.cli import main


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["lab", *args])
    return result.exit_code, result.stdout, result.stderr


def test_stride_json_contract():
    code, out, _ = run("stride", "torch.randn(2, 3, 4).permute(2, 0, 1)", "--view", "24", "--json")
    assert code == 0
    data = json.loads(out)
    for key in ("shape", "stride", "storage_offset", "contiguous", "dtype", "element_size"):
        assert key in data
    assert data["shape"] == [4, 2, 3] and data["stride"] == [1, 12, 4]
    assert data["storage_offset"] == 0 and data["contiguous"] is False
    assert data["dtype"] == "torch.float32" and data["element_size"] == 4
    assert data["offsets"][:3] == [[0, 0, 0, 0], [0, 0, 1, 4], [0, 0, 2, 8]]
    assert len(data["offsets"]) == 24
    assert data["view"]["ok"] is False and "view size is not compatible" in data["view"]["error"]


def test_stride_text_and_errors():
    code, out, _ = run("stride", "torch.arange(10)[2::3]")
    assert code == 0 and "stride (3,)" in out and "storage_offset 2" in out
    code, out, err = run("stride", "torch.randn(")
    assert code == 1 and out == "" and "syntax error" in err
