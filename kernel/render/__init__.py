"""Pictures (matplotlib, imported lazily): one module per kind of picture."""
