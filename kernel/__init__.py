"""hexkernel: exact line of sight and movement for hex-and-counter wargames.

The public API:

* :func:`load` compiles a map (scenario, board file or bundled name) into a
  :class:`Board` of dense numpy arrays;
* :func:`load_ruleset` reads a ruleset (``asl``, ``valor-victory``, ``ccn``);
* :mod:`kernel.grid.lattice` and :mod:`kernel.grid.coordinates` hold the lattice and
  the grid-coordinate grammar;
* :func:`random_board` makes seeded random maps for tests and benchmarks.
"""

from kernel.loading import load
from kernel.maps.board import Board
from kernel.maps.rulesets import load_ruleset

__all__ = ["Board", "load", "load_ruleset"]
__version__ = "0.1.0"
