"""Content: pydantic models, YAML loading with file:line:col errors, and the catalog."""
