import numpy as np, kernel
from bench import vasl_multi as M
data = M.load_multi_results("v02-03")
board = M.load_composition(data)
r = kernel.los(board, "2U8", "3W1", model="vasl")
print(r.explain() if hasattr(r,'explain') else r)
from kernel.maps.art import board_art
art = board_art(board)
print(type(art), getattr(art,'pixels',None).shape if hasattr(art,'pixels') else '')
