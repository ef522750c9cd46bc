"""The Stepper's style sheet: a panel whose kernel is gone greys out and says why (the learner's
second day), and a disabled button looks disabled in every theme.

A panel is dead when its widgets have no kernel behind them. ipywidgets knows it in two cases — the
kernel restarted, or the notebook was reopened and its panels came back from the saved widget
state — and puts the class ``jupyter-widgets-disconnected`` on the views. When the kernel is shut
down with the notebook open, ipywidgets changes nothing, but JupyterLab's notebook toolbar does:
its kernel indicator's ``data-status`` becomes ``unknown`` (or ``dead``), which a ``:has()``
selector reads. When another kernel is then started in the same tab, the course's JupyterLab
plugin (``labextension/``) marks every panel drawn before it ``hl-orphan``. Either way the buttons
and fields grey out and take no clicks, the tabs and folds still open (a saved record stays
readable), and one line right above the buttons says what happened and how to get a live panel
back; pressing anywhere on the dead panel lights that line up. No messages go to the kernel, so a
busy kernel is never mistaken for a dead one.

A static renderer (an untrusted notebook, GitHub, nbconvert) shows the panel's HTML fallback
instead, which says it is a saved record.
"""

from __future__ import annotations

import html

from ..text import t

__all__ = ["DEAD", "panel_style_html", "static_note"]

# A dead panel, as selectors: disconnected by ipywidgets, or in a notebook whose kernel is gone.
# Wrapped in :where() so they add no specificity: the rule that keeps a fork's own line hidden
# inside its original's panel then wins over every rule that shows a line.
DEAD = (
    ".hl-stepper:where(.jupyter-widgets-disconnected)",
    ".hl-stepper:where(.hl-orphan)",  # drawn before the notebook's kernel was replaced (labextension/)
    ':where(.jp-NotebookPanel:has(.jp-Notebook-ExecutionIndicator[data-status="unknown"])) .hl-stepper',
    ':where(.jp-NotebookPanel:has(.jp-Notebook-ExecutionIndicator[data-status="dead"])) .hl-stepper',
)
# The panel's own line (a child of the panel's HTML widget).
_LINE = "> .widget-html > .widget-html-content > .hl-stale"


# A filled button greyed out would still be a filled block, darker than its disabled neighbours: the
# reopened panel's orange 停止 turned dark grey and looked pressed. Every style but the plain one fills.
_FILLED = ".jupyter-button:is(.mod-primary, .mod-success, .mod-info, .mod-warning, .mod-danger)"
_UNFILLED = "background-color: var(--jp-layout-color2, #eee); color: var(--jp-ui-font-color1, #333);"


def _dead_rules(dead: str) -> str:
    # One block per way of being dead: a browser without :has() drops only the blocks that use it.
    # Buttons, inputs and choices need a kernel; tabs, accordion titles and <details> do not.
    return f"""
{dead} {_LINE} {{ display: block !important; }}
{dead} :is(.widget-button, .widget-toggle-button, input, textarea) {{
  opacity: 0.45; pointer-events: none; filter: grayscale(1);
}}
{dead} {_FILLED} {{ {_UNFILLED} }}
{dead} .hl-status {{ opacity: 0.6; }}
{dead}:active {_LINE} {{ outline: 2px solid #c8372d; background: rgba(200,55,45,0.18) !important; }}
"""


_CSS = (
    # ipywidgets' broken-link icon: the panel's own box carries the class too, not only its children.
    ":is(.hl-stepper.jupyter-widgets-disconnected, .hl-stepper .jupyter-widgets-disconnected)::before "
    "{ display: none; }\n"
    + "".join(map(_dead_rules, DEAD))
    + f".hl-stepper .hl-stepper {_LINE} {{ display: none !important; }}\n"
    + ".hl-stepper :is(.jupyter-button, .widget-toggle-button):disabled { filter: grayscale(1); opacity: 0.45; }\n"
    + f".hl-stepper {_FILLED}:disabled {{ {_UNFILLED} }}\n"
    # ipywidgets gives a label's and an HTML widget's text the height of a button row (28 px) as its line
    # height, to line one-line labels up with buttons: text that wraps (the signature below, the
    # comparison's endings, the timeline's hint on a laptop screen) was double-spaced, a blank line
    # between its lines. The panel's text keeps the transcript cards' spacing.
    + ".hl-stepper :is(.widget-html-content, .widget-label.hl-signature) { line-height: 1.45; }\n"
    # A label keeps to one line and clips what does not fit: a long signature (a write_file with a whole
    # report) lost its end on a laptop screen. This one wraps instead, anywhere, as JSON has few spaces.
    + ".hl-stepper .widget-label.hl-signature "
    "{ white-space: normal; overflow-wrap: anywhere; height: auto; min-width: 0; flex: 1 1 0; }\n"
    # Its first line on the line of its name, which keeps the button row's height and centres its text.
    ".hl-stepper .widget-hbox:has(> .widget-label.hl-signature) { align-items: baseline; }\n"
    # The timeline's comparison scrolls in its own box, but an HTML widget's text is a flex item as wide as its
    # content: the box never got narrower than the table, and the tab cut the fork's column off. The tabs'
    # 15 px padding each side leaves a table 428 px at 900 px beside the file browser; 8 px gives it 442.
    ".hl-timeline .widget-html-content { min-width: 0; }\n"
    ".hl-stepper .jupyter-widget-TabPanel > .jupyter-widget-TabPanel-tabContents { padding: 8px; }\n"
)

_LINE_HTML = (
    '<div class="hl-stale" style="display:none;border-left:4px solid #888;background:rgba(128,128,128,0.12);'
    'padding:4px 8px;margin:2px 0 6px;font-weight:600">{}</div>'
)


def panel_style_html() -> str:
    """The style sheet and the hidden line, for an HTML widget right above the panel's buttons."""
    return f"<style>{_CSS}</style>" + _LINE_HTML.format(html.escape(t("ui.stale.widget")))


def static_note() -> str:
    """The first line of a panel's HTML fallback: what the reader sees is a record, not a live panel."""
    return (
        f'<div class="hl-stale-static" style="font-size:12px;opacity:0.75;margin-bottom:2px">'
        f"{html.escape(t('ui.stale.static'))}</div>"
    )
