"""The text report of :mod:`bench.vasl_engine`: per board and overall, the agreement and the
disagreement classes (with examples, how VASL traced the LOS, and the sorted B9.2 kinds)."""

from __future__ import annotations


def _format_classes(title: str, classes: list[dict], lines: list[str]) -> None:
    lines.append(f"  {title}:")
    if not classes:
        lines.append("    none")
    for c in classes:
        lines.append(f"    {c['count']:6d}  {c['class']}")
        lines.append(f"            e.g. {', '.join(c['examples'])}")
        if "along_hexside" in c:
            lines.append("            VASL traced: " + ", ".join(f"{k} {v}" for k, v in c["along_hexside"].items()))
        for kind in c.get("kinds", ()):
            lines.append(f"            {kind['count']:6d}  {kind['kind']} [{kind['nature']}], "
                         f"e.g. {', '.join(kind['examples'])}")
        if c.get("explained"):
            steps = ", ".join(f"{k} {v}" for k, v in c["blocking_steps"].items())
            lines.append(f"            blocking step ({c['explained']} explained): {steps}")
        if c.get("levels") and c["class"].startswith(("blind hex", "hill")):
            shown = list(c["levels"].items())
            more = f", ... ({len(shown) - 6} more)" if len(shown) > 6 else ""
            lines.append("            levels: " + ", ".join(f"{k}: {v}" for k, v in shown[:6]) + more)
        if c.get("vasl_hindrance") and c["class"].startswith("hindrance"):
            lines.append("            VASL's hindrance DRM: " + ", ".join(f"{k} {v}" for k, v in c["vasl_hindrance"].items()))


def format_report(results: list[dict], total: dict | None = None) -> str:
    """The text report: one block per board, then the totals over all boards."""
    lines = []
    for r in results:
        lines.append(f"board {r['board']}: {r['agreement']:.2f} % agree on blocked/clear "
                     f"({r['agree']} of {r['compared']} ordered pairs; {r['seconds']:.1f} s; model {r['model']})")
        lines.append(f"  hexes: VASL {r['hexes']}, imported board {r['board_hexes']}; missing from the board: "
                     f"{len(r['missing_hexes'])}{' ' + ' '.join(r['missing_hexes']) if r['missing_hexes'] else ''}; "
                     f"not in VASL's list: {len(r['extra_hexes'])}")
        lines.append(f"  excluded: {r['excluded_exception']} pairs VASL answered with an exception, "
                     f"{r['excluded_missing']} pairs with a missing hex (of {r['ordered_pairs']})")
        lines.append(f"  both blocked {r['both_blocked']}, both clear {r['both_clear']} "
                     f"(equal hindrance DRM on {r['hindrance_equal']}), VASL blocks/we see {r['vasl_blocks_we_see']}, "
                     f"we block/VASL sees {r['we_block_vasl_sees']}")
        for message in r["import_warnings"]:
            lines.append(f"  import warning: {message}")
        _format_classes("VASL blocks, hexkernel sees (by VASL's reason)", r["classes"]["vasl_blocks"], lines)
        _format_classes("hexkernel blocks, VASL sees (by our blocking hex)", r["classes"]["we_block"], lines)
        _format_classes("both clear, another hindrance DRM", r["classes"].get("hindrance", []), lines)
        lines.append("")
    if total is not None and len(results) > 1:
        lines.append(f"all boards {total['boards']}: {total['agreement']:.2f} % agree "
                     f"({total['agree']} of {total['compared']}; excluded {total['excluded_exception']} exception "
                     f"and {total['excluded_missing']} missing-hex pairs); VASL blocks/we see "
                     f"{total['vasl_blocks_we_see']}, we block/VASL sees {total['we_block_vasl_sees']}; "
                     f"equal hindrance DRM on {total['hindrance_equal']} of {total['both_clear']} both-clear pairs "
                     f"({100.0 * total['hindrance_equal'] / max(total['both_clear'], 1):.2f} %)")
        _format_classes("VASL blocks, hexkernel sees", total["classes"]["vasl_blocks"], lines)
        _format_classes("hexkernel blocks, VASL sees", total["classes"]["we_block"], lines)
        _format_classes("both clear, another hindrance DRM", total["classes"].get("hindrance", []), lines)
        lines.append("")
        lines.append("per board: " + ", ".join(f"{r['board']} {r['agreement']:.2f} %" for r in results))
    return "\n".join(lines)
