"""The hex lattice: exact integer geometry and grid coordinates (the lowest layer; imports nothing of hexkernel but the dtypes)."""
