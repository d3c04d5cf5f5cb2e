"""Maps as data: board/overlay/scenario text formats, rulesets, mapboard composition, the compiled :class:`~kernel.maps.board.Board` and random maps."""
