"""The checkpoint probe, run in-process with real torch: the meta-device mismatch, a state_dict
round trip, and a pickled model that breaks after a refactor; plus the recording's freshness."""

from __future__ import annotations

import sys

from labs.harness import kept
from tutor.probes.checkpoint import checkpoint


def test_device_mismatch_is_the_real_error(tmp_path):
    d = checkpoint(str(tmp_path)).device
    assert (d.model_device, d.input_device) == ("meta", "cpu")
    assert d.error is not None and d.error.type == "RuntimeError"
    assert "meta" in d.error.message and "cpu" in d.error.message
    assert d.fix_shape == [2, 3] and d.fix_device == "meta"
    assert d.model_to is not None and "to_empty" in d.model_to.message


def test_state_dict_round_trip(tmp_path):
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    r = checkpoint(str(scratch)).round_trip
    assert [e.key for e in r.entries] == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert [e.shape for e in r.entries] == [[8, 4], [8], [3, 8], [3]]
    assert r.tensor_bytes == (32 + 8 + 24 + 3) * 4
    assert r.file_bytes > r.tensor_bytes
    assert r.equal and r.outputs_equal and r.missing_keys == [] and r.unexpected_keys == []
    assert "torch._utils._rebuild_tensor_v2" in r.globals
    assert not any(g.startswith("mymodels") for g in r.globals)
    assert any(name.endswith("data.pkl") for name in r.archive)
    assert list(scratch.iterdir()) == []  # the probe's folder was cleaned up


def test_pickled_model_records_the_class_and_breaks(tmp_path):
    p = checkpoint(str(tmp_path)).pickled
    assert p.class_path == "mymodels.TinyNet" and "torch.nn.modules.linear.Linear" in p.globals
    assert p.loads_unchanged
    assert p.weights_only is not None and p.weights_only.type == "UnpicklingError"
    assert "mymodels.TinyNet" in p.weights_only.message and "\x1b" not in p.weights_only.message
    assert p.renamed is not None and p.renamed.type == "AttributeError"
    assert "Can't get attribute 'TinyNet'" in p.renamed.message
    assert p.changed_loaded and p.changed is not None and "'head'" in p.changed.message
    assert "mymodels" not in sys.modules  # the probe put the module table back


def test_recording_matches_the_probe(tmp_path):
    """The widget snapshots draw this file; it must still be what the probe says."""
    current = checkpoint(str(tmp_path)).model_dump(mode="json")
    assert kept("checkpoint.json", current) == current
