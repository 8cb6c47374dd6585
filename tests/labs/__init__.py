"""The lab tests. A package so that they can share ``labs.harness`` under
``--import-mode=importlib`` (pytest imports these files as ``labs.<name>``)."""
