"""The page's labels are text and its size is bounded: no HTML from a ruleset or board name reaches the
document as markup (the template never uses innerHTML), and a map too big for a page is refused up front."""

from __future__ import annotations

import json
import re
import time
from importlib import resources

import pytest

import kernel
from kernel.cli import main
from kernel.render import page as page_module
from kernel.render.page import map_page_html
from tests.shared_data import vasl_folder

HOSTILE = '<img src=x onerror="alert(document.title)">'


def test_the_template_builds_no_markup_from_strings():
    template = resources.files("kernel.render").joinpath("page_template.html").read_text(encoding="utf-8")
    assert not re.search(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write", template)


def test_a_hostile_terrain_name_is_only_in_the_json(tmp_path):
    text = (kernel.data_dir() / "rulesets" / "asl.toml").read_text()
    ruleset = tmp_path / "hostile.toml"
    ruleset.write_text(text.replace("[terrain.orchard]", "[terrain." + json.dumps(HOSTILE) + "]"))
    board = kernel.random_board(str(ruleset), 10, 8, seed=1, terrain_density=1.0)
    page = map_page_html(board, max_allowance=2, title="__DATA__ </title><script>x()</script>")
    assert HOSTILE not in page  # the JSON holds it with '"' escaped, inside <script type=application/json>
    escaped = json.dumps(HOSTILE)[1:-1].replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    assert escaped in page and "<!--" not in page.split('id="hk-data"')[1].split("</script>")[0]
    assert "<script>x()" not in page and page.count('id="hk-data"') == 1


def test_a_map_too_big_for_a_page_is_refused_before_any_work(tmp_path, capsys):
    board = kernel.random_board("asl", 52, 100, seed=1)
    assert len(board) > getattr(page_module, "MAX_PAGE_HEXES", 5000)
    start = time.perf_counter()
    with pytest.raises(ValueError, match=r"has 5200 hexes: expected at most 5000 for a page"):
        map_page_html(board)
    assert time.perf_counter() - start < 1.0
    lines = ["[boards]"] + [f"{r} {c} 71 as {10 + 5 * r + c}" for r in range(4) for c in range(5)]
    scenario = tmp_path / "big.scenario"
    scenario.write_text("\n".join(lines) + "\n")
    code = main(["page", "--map", str(scenario), "--out", str(tmp_path / "p.html")])
    err = capsys.readouterr().err.splitlines()
    assert code == 2 and len(err) == 1 and "hexes: expected at most 5000 for a page" in err[0], err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.scenario"]


def test_the_default_page_stays_within_3_mb():
    """What ``hexkernel page`` writes for the bundled map (all its tables, paths and steps)."""
    assert len(map_page_html(kernel.load("default")).encode("utf-8")) <= 3_000_000


def test_a_vasl_board_page_with_its_art_stays_within_4_mb():
    import warnings
    from pathlib import Path

    folder = vasl_folder() / "bd04"
    if not folder.is_dir():
        pytest.skip("VASL board data (../shared/vasl) not present")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        text = map_page_html(kernel.load(str(folder)))
    assert "data:image/png;base64," in text and '"los_depiction"' in text
    assert len(text.encode("utf-8")) <= 4_000_000
