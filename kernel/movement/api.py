"""TEMPORARY shim while the package is being split (removed before this change lands)."""
from kernel.movement.fields import MovementField, movement_field, movement_graph, movement_matrix, reachable  # noqa: F401
from kernel.movement.inputs import board_edge_hexes  # noqa: F401
from kernel.movement.tables import FLAG_ALL, FLAG_STOP, UNREACHABLE, MovementTables, movement_tables  # noqa: F401
