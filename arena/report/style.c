/* arena/report/style.c — the reports' style sheet, shared by the report pages and the game viewer (contract in
 * style.h). */
#include "style.h"

/* The style sheet. Names stay whole (no cell breaks inside a word; only the last text column of a table, which
 * holds sentences, wraps at spaces); a wide table scrolls inside its own box, never the page; on a phone the
 * figures keep a readable size and scroll inside theirs. */
const char rp_style[] =
    ":root { color-scheme: light; }\n"
    "body { font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; margin: 0 auto; padding: 0.8em;\n"
    "       max-width: 72em; color: #1b1b1b; background: #fff; line-height: 1.4; }\n"
    "h1 { font-size: 1.5em; margin: 0.3em 0; } h1 small { white-space: nowrap; } h2 { font-size: 1.2em; margin-top: 1.6em;\n"
    "     border-bottom: 1px solid #ddd; }\n"
    "nav { font-size: 0.9em; } nav a { margin-right: 0.8em; white-space: nowrap; }\n"
    ".scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; max-width: 100%; }\n"
    "table { border-collapse: collapse; margin: 0.8em 0 0.3em; font-size: 0.9em; }\n"
    "caption { text-align: left; font-weight: bold; padding-bottom: 0.3em; }\n"
    "th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; vertical-align: top; white-space: nowrap;\n"
    "         overflow-wrap: normal; word-break: keep-all; hyphens: none; }\n"
    "th { background: #f0f0f0; } td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }\n"
    "td:last-child:not(.num) { white-space: normal; min-width: 10ch; max-width: 32em; }\n"
    "details.hash { display: inline-block; font-family: ui-monospace, monospace; font-size: 0.9em; }\n"
    "details.hash > summary { cursor: pointer; } details.hash[open] { word-break: break-all; white-space: normal; }\n"
    "details.table > summary { cursor: pointer; color: #2a5db0; font-size: 0.9em; margin: 0.2em 0 0.8em; }\n"
    "details.section > summary { cursor: pointer; } details.section > summary h2 { display: inline-block; }\n"
    "#leaderboards { display: grid; grid-template-columns: repeat(auto-fill, minmax(26em, 1fr)); column-gap: 1.5em; }\n"
    "#leaderboards > h2, #leaderboards > p { grid-column: 1 / -1; }\n"
    "#leaderboards table { width: 100%; }\n"
    "p.note, p.scope { color: #555; font-size: 0.85em; margin-top: 0; }\n"
    "p.warning, li.warning { background: #fff3cd; border-left: 4px solid #e0a800; padding: 0.4em 0.6em; }\n"
    "ul.warnings { list-style: none; padding: 0; } li.warning { margin-bottom: 0.3em; }\n"
    "figure { margin: 1em 0; } figure img { width: 100%; max-width: 900px; height: auto; border: 1px solid #eee; }\n"
    "svg.fig { max-width: 100%; height: auto; display: block; }\n"
    "figcaption { font-size: 0.85em; color: #555; }\n"
    "pre { overflow-x: auto; background: #f7f7f7; padding: 0.5em; font-size: 0.85em; }\n"
    "@media (max-width: 40em) {\n"
    "  body { padding: 0.4em; } table { font-size: 0.8em; } th, td { padding: 0.15em 0.3em; }\n"
    "  #leaderboards { display: block; }\n"
    "  figure { overflow-x: auto; } figure img { width: 36em; max-width: none; } svg.fig { max-width: none; }\n"
    "}\n";
