import numpy as np, collections, warnings, sys
warnings.simplefilter('ignore')
import kernel
from bench.vasl_levels import load_level_results, location_table, level_boards
from bench.vasl_engine import load_board
model = sys.argv[1] if len(sys.argv) > 1 else 'vasl'
boards = [int(x) for x in sys.argv[2:]] or level_boards()
cnt = collections.Counter(); ex = {}
for n in boards:
    d = load_level_results(n); board, _ = load_board(n)
    hx, lv = location_table(board, d)
    a, b = d['a'], d['b']; ok = (hx[a] >= 0) & (hx[b] >= 0) & (d['status'] != 2)
    w = np.flatnonzero(ok)
    p = kernel.los_pairs(board, hx[a[w]], hx[b[w]], levels=lv[a[w]], target_levels=lv[b[w]], model=model)
    kinds = d['loc_kind']
    for k, i in enumerate(w):
        vb = d['status'][i] == 1; ob = not p.visible[k]
        if vb == ob: continue
        roof = 'roof' if (kinds[a[i]] == 2 or kinds[b[i]] == 2) else 'level'
        same = 'samehex' if hx[a[i]] == hx[b[i]] else ''
        key = ('VASL blocks' if vb else 'we block', roof, same, str(d['reasons'][d['reason'][i]])[:60] if vb else p.reason_name[k], int(d['case'][i]))
        cnt[key] += 1
        ex.setdefault(key, f"{board.location_name(hx[a[i]], lv[a[i]])}->{board.location_name(hx[b[i]], lv[b[i]])}")
for key, c in cnt.most_common(40):
    print(c, key, ex[key])
