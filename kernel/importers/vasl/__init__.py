"""Import real ASL boards from VASL board data (``LOSData`` + ``BoardMetadata.xml``).

VASL, the ASL module for the VASSAL engine, ships every geomorphic board as an
archive that carries, beside the picture, a pixel grid of terrain and ground
elevation (``LOSData``), per-board metadata (``BoardMetadata.xml``: building
types per hex) and, shared by all boards, a terrain table
(``SharedBoardMetadata.xml``).  This package reads those files (its own parser,
written from the format description in ``docs/vasl-agreement.md``) and turns
the pixels into a board of our model (:class:`kernel.maps.specs.BoardSpec`,
ruleset ``asl``, layout ``geomorphic``):

* **hex terrain**: each pixel belongs to the hex whose centre is nearest; a hex
  gets the terrain that dominates its area, the terrain under its centre dot,
  any building depicted in it (ASL B.1: an Open Ground centre dot never makes
  a building hex Open Ground) and any inherent terrain near its centre (B.6);
  two features that share a hex add up (A2.4, e.g. the building-woods hex 2I9);
* **ground level**: the elevation under the hex's centre dot (B.1; a depression
  terrain under the centre dot -- gully, stream -- gives its own level);
* **buildings**: stone or wooden from the pixels, upper levels from
  ``BoardMetadata.xml`` (``Stone Building, 2 Level`` -> ``levels=2``);
* **hexsides**: walls, hedges, bocage and cliffs sampled around each
  hexside's midpoint; road hexsides where road pixels cross the midpoint region
  between two road hexes; ``touch`` bits (Bypass, A4.3) where the hex's
  obstacle pixels reach a hexside's midpoint.

VASL terrain is mapped onto our ASL terrain names by typeCode
(:data:`~kernel.importers.vasl.terrain_map.TERRAIN_CODES`, every code of VASL's
table).  A VASL terrain with no ``asl`` equivalent is imported as Open Ground
with a :class:`VaslImportWarning` naming its code and the hexes concerned; a
pixel code missing from the VASL terrain table is an error.

The package, stage by stage: :mod:`~kernel.importers.vasl.files` (the archive
and its files), :mod:`~kernel.importers.vasl.pixels` (pixel geometry),
:mod:`~kernel.importers.vasl.terrain_map` (VASL terrain -> ``asl`` terrain),
:mod:`~kernel.importers.vasl.hex_terrain` (stage 1, per hex),
:mod:`~kernel.importers.vasl.hexsides` (stage 3, per hexside) and
:mod:`~kernel.importers.vasl.build` (the whole import).
"""
