"""Render report blocks as one self-contained HTML page, figures embedded as PNG data."""

from __future__ import annotations

import base64
import html
import re
from pathlib import Path

from .document import Block, Bullets, Figure, Heading, Table, Text

STYLE = """
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em;
       color: #222; line-height: 1.45; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; }
th { background: #f3f3f3; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 1em 0; } figure img { max-width: 100%; } figcaption { font-style: italic; }
code { background: #f5f5f5; padding: 0 0.2em; } .csv { font-size: 0.8em; color: #666; }
"""


def render_html(blocks: list[Block], root: Path, title: str) -> str:
    body = "\n".join(_render(b, root) for b in blocks)
    return (f"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
            f"{body}\n</body>\n</html>\n")


def _inline(text: str) -> str:
    escaped = html.escape(text, quote=False)
    escaped = re.sub(r"`([^`]+)`", r"<code>\1</code>", escaped)
    escaped = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", escaped)
    return re.sub(r"\[([^\]]+)\]\(([^)]+)\)", r'<a href="\2">\1</a>', escaped)


def _render(block: Block, root: Path) -> str:
    if isinstance(block, Heading):
        return f"<h{block.level}>{_inline(block.text)}</h{block.level}>"
    if isinstance(block, Text):
        return f"<p>{_inline(block.text)}</p>"
    if isinstance(block, Bullets):
        return "<ul>\n" + "\n".join(f"<li>{_inline(i)}</li>" for i in block.items) + "\n</ul>"
    if isinstance(block, Table):
        head = "".join(f"<th>{html.escape(c)}</th>" for c in block.columns)
        rows = "\n".join("<tr>" + "".join(_cell(c) for c in row) + "</tr>" for row in block.rows)
        csv = f'<div class="csv">CSV: <a href="{html.escape(block.csv)}">{html.escape(block.csv)}</a></div>' \
            if block.csv else ""
        return f"<table>\n<tr>{head}</tr>\n{rows}\n</table>{csv}"
    if isinstance(block, Figure):
        data = base64.b64encode((root / block.png).read_bytes()).decode("ascii")
        pdf = f' (<a href="{html.escape(block.pdf)}">PDF</a>)' if block.pdf else ""
        return (f'<figure><img src="data:image/png;base64,{data}" alt="{html.escape(block.caption)}">'
                f"<figcaption>{_inline(block.caption)}{pdf}</figcaption></figure>")
    raise TypeError(f"unknown block {block!r}")


def _cell(text: str) -> str:
    numeric = bool(re.match(r"^[+\-−<]?\d", text))
    return f'<td class="num">{_inline(text)}</td>' if numeric else f"<td>{_inline(text)}</td>"
