"""Pictures (matplotlib, imported lazily): one module per kind of picture.

Modules
-------
common        hex geometry, the A4 page, colours; save(figure, path) writes PNG or SVG
board_map     board_picture(board): terrain, hill levels, hexsides, roads, names;
              the board layer drawn under every other picture
fire_map      fire_picture(board, fire): a field of fire (visible / hindered / blocked, cover)
movement_map  movement_picture(board, field, ...): movement costs, the reachable area and a path
los_trace     los_picture(board, result): one LOS, the hexes it crosses, where it is blocked
matrix_map    values_picture(board, values, ...): any per-hex number as a colour map (e.g. hexes seen)
labels        draw_labels(page, x, y, texts, ...): many labels as one glyph path (SVG: <text>)
picture_files svg_text(figure), write_figure_png(figure, file): how save writes SVG and PNG
svg_paths     fast_svg_collections(): matplotlib's SVG of path collections, same bytes, less time
counter_marks draw_counters(page, board, counters): SMOKE, vehicles and units with legend entries
art_layer     draw_art(page, board): the board's art (per-pixel terrain) under a picture, the grid over it
page_data     page_data(board, ...): the tables the interactive map page embeds
page          map_page(board, path, ...): the interactive map page (one offline HTML file)

The public functions are also ``kernel.board_picture``, ..., ``kernel.save_picture``.
"""
