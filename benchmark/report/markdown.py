"""Render report blocks as Markdown: padded pipe tables read well in a terminal and on GitHub."""

from __future__ import annotations

from .document import Block, Bullets, Figure, Heading, Table, Text


def render_markdown(blocks: list[Block]) -> str:
    parts = [_render(b) for b in blocks]
    return "\n\n".join(parts).rstrip() + "\n"


def _render(block: Block) -> str:
    if isinstance(block, Heading):
        return "#" * block.level + " " + block.text
    if isinstance(block, Text):
        return block.text
    if isinstance(block, Bullets):
        return "\n".join(f"- {item}" for item in block.items)
    if isinstance(block, Table):
        return _table(block)
    if isinstance(block, Figure):
        link = f" ([PDF]({block.pdf}))" if block.pdf else ""
        return f"![{block.caption}]({block.png})\n\n*{block.caption}*{link}"
    raise TypeError(f"unknown block {block!r}")


def _table(table: Table) -> str:
    cells = [list(table.columns)] + [list(r) for r in table.rows]
    cells = [[c.replace("|", "\\|") for c in row] for row in cells]
    widths = [max(3, *(len(row[j]) for row in cells)) for j in range(len(table.columns))]
    numeric = [all(_is_number(row[j]) for row in cells[1:]) and len(cells) > 1 for j in range(len(widths))]

    def line(row):
        return "| " + " | ".join(c.rjust(w) if num else c.ljust(w)
                                 for c, w, num in zip(row, widths, numeric)) + " |"

    rule = "| " + " | ".join(("-" * (w - 1) + ":") if num else "-" * w
                             for w, num in zip(widths, numeric)) + " |"
    out = [line(cells[0]), rule] + [line(r) for r in cells[1:]]
    if table.csv:
        out.append(f"\nCSV: `{table.csv}`")
    return "\n".join(out)


def _is_number(cell: str) -> bool:
    head = cell.split(" ")[0].lstrip("+-−<").rstrip("%")
    return head.replace(".", "", 1).replace("e-", "", 1).isdigit() or cell in ("–", "nan")
