"""The device & checkpoint lab's data (torch-free; filled by ``tutor.probes.checkpoint``).

The code strings below are exactly what the probe runs, so the lab can show them as written.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

#: the model class saved and refactored in part (c); defined in a module named ``mymodels``
MODEL_SOURCE = """\
class TinyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)
"""

#: the same module after a refactor that renamed the class
RENAMED_SOURCE = MODEL_SOURCE.replace("class TinyNet(", "class TinyClassifier(")

#: the same module after a refactor that renamed an attribute
CHANGED_SOURCE = MODEL_SOURCE.replace("self.fc", "self.head")

DEVICE_CODE = 'model = nn.Linear(4, 3, device="meta")\nx = torch.randn(2, 4)\nmodel(x)'
FIX_CODE = "device = next(model.parameters()).device\nout = model(x.to(device))"
MODEL_TO_CODE = 'model.to("cpu")'

STATE_DICT_MODEL = "nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))"
SAVE_CODE = "torch.save(model.state_dict(), path)"
LOAD_CODE = "fresh.load_state_dict(torch.load(path, weights_only=True))"


class Failure(BaseModel):
    """A real exception: its type and message."""

    type: str
    message: str


class DeviceDemo(BaseModel):
    """(a) A model on ``meta``, an input on ``cpu``: the error, then the fix."""

    code: str
    model_device: str
    input_device: str
    error: Failure | None
    fix_code: str
    fix_shape: list[int]
    fix_device: str
    model_to_code: str
    model_to: Failure | None
    """What moving a meta model with ``.to`` says (meta tensors hold no data)."""


class SavedEntry(BaseModel):
    """One tensor of a state_dict."""

    key: str
    shape: list[int]
    dtype: str
    numel: int


class RoundTrip(BaseModel):
    """(b) ``state_dict`` saved to the scratch dir and loaded back with ``weights_only=True``."""

    model: str
    save_code: str
    load_code: str
    file_name: str
    file_bytes: int
    tensor_bytes: int
    entries: list[SavedEntry]
    archive: list[str]
    """Member files of the saved zip archive."""
    globals: list[str]
    """The ``module.name`` references its pickle makes."""
    missing_keys: list[str]
    unexpected_keys: list[str]
    equal: bool
    """Every tensor equal after the load."""
    outputs_equal: bool
    """The reloaded model gives the same output on the same input."""


class PickledModel(BaseModel):
    """(c) ``torch.save(model)``: what it records and how it breaks."""

    source: str
    file_bytes: int
    archive: list[str]
    globals: list[str]
    class_path: str
    """The ``module.ClassName`` the pickle will import on load."""
    loads_unchanged: bool
    """Loading with ``weights_only=False`` works while the class is unchanged."""
    weights_only: Failure | None
    renamed_source: str
    renamed: Failure | None
    """Loading after the class was renamed."""
    changed_source: str
    changed: Failure | None
    """Loading after an attribute was renamed, then calling the model."""
    changed_loaded: bool = Field(default=False, description="whether the load itself worked")


class Checkpoint(BaseModel):
    """Everything the device & checkpoint lab shows."""

    device: DeviceDemo
    round_trip: RoundTrip
    pickled: PickledModel
    torch_version: str
