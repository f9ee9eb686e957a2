"""How the reports (conformance, sass-diff) look and are written: one style sheet for the HTML pages
(disagreements and removed lines in red, added lines in green), and one writer of a report's
Markdown, HTML and JSON files."""

from pathlib import Path

from . import cache


def write_reports(out_dir: Path, name: str, texts: dict, markdown_path: Path = None):
    """out_dir/<name>.<ext> for each {ext: text} ("md", "html", "json"), written atomically; the Markdown
    also to markdown_path (a copy to publish)."""
    for ext, text in texts.items():
        cache.atomic_write(out_dir / f"{name}.{ext}", text)
    if markdown_path:
        cache.atomic_write(Path(markdown_path), texts["md"])


CSS = """body{font:14px system-ui,sans-serif;margin:1.5em}table{border-collapse:collapse;margin-bottom:1.5em}
td,th{border:1px solid #ccc;padding:3px 5px;vertical-align:top;font-size:12px}th{background:#f3f3f3}
td.rej{background:#fafafa;color:#777}td.bad{background:#ffd7d7;font-weight:bold}td.unk{background:#eee;color:#999}
td.err{background:#ffe9a8}code{font-size:12px}details{font-size:11px}pre{white-space:pre-wrap;max-width:40em}
.add{background:#e6ffec}.del{background:#ffebe9}pre.diff{font-size:12px;max-width:none}"""
