/* arena/report/viewer_html.c — the game viewer's page (contract in viewer.h, gv_write_html): the three hex boards
 * as inline SVG drawn at the first ply shown, the controls, the frames as JSON in the page and the script that
 * steps through them (slider, buttons, ←/→, Home/End, ?ply=N), with the reports' style sheet (style.h) and its own
 * rules after it. No network resource. Also the pages of a league's forfeited games for a static report
 * (gv_write_forfeits). */
#define _GNU_SOURCE /* open_memstream */
#include "viewer.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "query.h"
#include "render.h"
#include "style.h"

/* Hexagon size: circumradius S, width W = sqrt(3) S; margins for the edges and the coordinates. */
#define S 20.0
#define W (1.7320508075688772 * S)
#define MX 30.0
#define MY 30.0

/* The viewer's own rules, after the reports' style sheet (style.h). */
static const char style[] =
    ".name { overflow-wrap: normal; word-break: keep-all; hyphens: none; white-space: nowrap; font-weight: 600; }\n"
    ".controls { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4em; margin: 0.6em 0; }\n"
    ".controls input[type=range] { flex: 1 1 12em; min-width: 8em; }\n"
    ".controls button { font-size: 1em; min-width: 2.6em; padding: 0.3em; }\n"
    "#where { font-variant-numeric: tabular-nums; white-space: nowrap; }\n"
    "#attempt { font-weight: 600; margin: 0.3em 0; } #attempt.opening { color: #6b4f00; }\n"
    "#attempt.rejected, #attempt.collision { color: #b00020; }\n"
    "#attempt.forfeit { color: #b00020; background: #fdecee; border-left: 4px solid #d50000; padding: 0.3em 0.6em; }\n"
    ".told p, #clock { margin: 0.15em 0; font-size: 0.9em; color: #333; }\n"
    ".boards { display: flex; flex-wrap: wrap; gap: 0.8em; }\n"
    ".boards figure { flex: 1 1 20em; margin: 0.4em 0 0; min-width: 0; }\n"
    ".boards figcaption { font-weight: 600; font-size: 0.9em; color: #1b1b1b; }\n"
    "svg.board { width: 100%; height: auto; max-height: 70vh; display: block; }\n"
    "svg.board polygon { stroke: #7a6a4a; stroke-width: 1; }\n"
    "svg.board polygon[data-stone='-'] { fill: #e9dcb8; }\n"
    "svg.board.view polygon[data-stone='-'] { fill: #c9ced6; }\n"
    "svg.board polygon[data-stone=b] { fill: #1f1f1f; }\n"
    "svg.board polygon[data-stone=w] { fill: #fbfbfb; }\n"
    "svg.board .edge-b { stroke: #1f1f1f; stroke-width: 6; fill: none; stroke-linejoin: round; }\n"
    "svg.board .edge-w { stroke: #9a9a9a; stroke-width: 6; fill: none; stroke-linejoin: round; }\n"
    "svg.board .coord { font-size: 11px; fill: #555; text-anchor: middle; dominant-baseline: middle; }\n"
    "svg.board .mark { pointer-events: none; fill: none; stroke-width: 3; }\n"
    "svg.board .mark.placed { stroke: #2e7d32; } svg.board .mark.hit { stroke: #d50000; stroke-width: 4; }\n"
    "svg.board .mark.flash { stroke: #ff8f00; stroke-dasharray: 4 3; }\n"
    "svg.board .mark.opening { fill: #c9a227; stroke: none; }\n"
    "svg.board .mark.illegal { stroke: #d50000; stroke-width: 3.5; stroke-linecap: round; stroke-linejoin: round; }\n"
    ".legend { font-size: 0.85em; color: #555; }\n"
    ".legend span { display: inline-block; margin-right: 1em; } .when { white-space: nowrap; }\n"
    ".legend .key { font-weight: 600; margin: 0; } .legend .key.placed { color: #2e7d32; }\n"
    ".legend .key.hit, .legend .key.illegal { color: #d50000; } .legend .key.flash { color: #c66a00; }\n"
    ".legend .key.opening { color: #8a6d00; }\n"
    "@media (max-width: 40em) { .boards figure { flex-basis: 100%; overflow: visible; }\n"
    "  .controls input[type=range] { order: -1; flex-basis: 100%; }\n"
    "  .controls button { min-width: 3em; min-height: 2.6em; } }\n";

/* The script: frames from #frames; show(k) sets every cell's data-stone, the marks and the texts. */
static const char script[] =
    "<script>\n"
    "(function () {\n"
    "'use strict';\n"
    "var G = JSON.parse(document.getElementById('frames').textContent), F = G.frames, last = F.length - 1;\n"
    "var slider = document.getElementById('ply'), NS = 'http://www.w3.org/2000/svg', cur = 0;\n"
    "var who = { B: 'Black', W: 'White' }, other = { B: 'W', W: 'B' };\n"
    "var boards = ['truth', 'black', 'white'].map(function (b) {\n"
    "  var svg = document.querySelector('svg[data-board=' + b + ']'), cells = [];\n"
    "  svg.querySelectorAll('polygon[data-cell]').forEach(function (p) { cells[+p.getAttribute('data-cell')] = p; });\n"
    "  return { name: b, svg: svg, cells: cells, marks: svg.querySelector('g.marks') };\n"
    "});\n"
    "function cellIndex(name) {\n"
    "  if (!name || name === 'swap') return -1;\n"
    "  var c = name.charCodeAt(0) - 97, r = parseInt(name.slice(1), 10) - 1;\n"
    "  return r * G.cols + c;\n"
    "}\n"
    "function mark(b, i, cls, rad) {\n"
    "  var p = b.cells[i]; if (!p) return;\n"
    "  var e = document.createElementNS(NS, 'circle');\n"
    "  e.setAttribute('cx', p.getAttribute('data-x')); e.setAttribute('cy', p.getAttribute('data-y'));\n"
    "  e.setAttribute('r', rad); e.setAttribute('class', 'mark ' + cls); e.setAttribute('data-cell', i);\n"
    "  b.marks.appendChild(e);\n"
    "}\n"
    "function cross(b, i) {\n"
    "  var p = b.cells[i]; if (!p) return;\n"
    "  var x = +p.getAttribute('data-x'), y = +p.getAttribute('data-y'), d = 6;\n"
    "  var edge = document.createElementNS(NS, 'polygon'), e = document.createElementNS(NS, 'path');\n"
    "  edge.setAttribute('points', p.getAttribute('points'));\n"
    "  e.setAttribute('d', 'M' + (x - d) + ' ' + (y - d) + 'L' + (x + d) + ' ' + (y + d) +\n"
    "    'M' + (x + d) + ' ' + (y - d) + 'L' + (x - d) + ' ' + (y + d));\n"
    "  [edge, e].forEach(function (m) {\n"
    "    m.setAttribute('class', 'mark illegal'); m.setAttribute('data-cell', i); b.marks.appendChild(m);\n"
    "  });\n"
    "}\n"
    "function toldText(t) {\n"
    "  switch (t.kind) {\n"
    "  case 'placed': return 'its stone at ' + t.cell + ' was placed';\n"
    "  case 'rejected': return t.cell + ' holds a hidden stone: rejected, it moves again';\n"
    "  case 'collided': return t.cell + ' holds a hidden stone: collision, its turn is lost';\n"
    "  case 'opp_placed': return 'the opponent placed at ' + t.cell;\n"
    "  case 'opp_hit': return 'the opponent hit one of its stones (noisy report, no cell)';\n"
    "  case 'opp_hit_at': return 'the opponent hit its stone at ' + t.cell + ' (flash report)';\n"
    "  case 'swap': return 'swap: White\\u2019s stone is now at ' + t.cell;\n"
    "  }\n"
    "  return t.kind;\n"
    "}\n"
    "function seconds(ms) {\n"
    "  return ms === null ? '?' : ms < 1000 ? ms.toFixed(1) + ' ms' : (ms / 1000).toFixed(2) + ' s';\n"
    "}\n"
    "function describe(f) {\n"
    "  var el = document.getElementById('attempt'), s;\n"
    "  el.className = (f.n ? f.outcome + (f.opening ? ' opening' : '') : '') + (f.n === G.forfeit ? ' forfeit' : '');\n"
    "  if (!f.n) s = 'Start: ' + (G.opening ? 'the opening follows; ' : '') + 'Black moves first.';\n"
    "  else if (f.outcome === 'illegal')\n"
    "    s = f.n + '. ' + who[f.player] + ' ' + (f.cell || '(no cell of the board)') + ': illegal, not played';\n"
    "  else {\n"
    "    s = f.n + '. ' + who[f.player] + ' ' + f.cell + ': ' + f.outcome;\n"
    "    if (f.outcome === 'rejected') s += ' (a hidden ' + who[other[f.player]] + ' stone; ' + who[f.player] + ' moves again)';\n"
    "    if (f.outcome === 'collision') s += ' (a hidden ' + who[other[f.player]] + ' stone; the turn is lost)';\n"
    "    if (f.opening) s += ' \\u2014 opening, played by the referee';\n"
    "  }\n"
    "  if (f.n === last) s += ' \\u2014 ' + (G.reason === 'connected' ? who[G.winner] + ' wins (connected)' :\n"
    "    who[other[G.winner]] + ' forfeits (' + G.reason + (G.detail ? ': ' + G.detail : '') + '): ' + who[G.winner] +\n"
    "    ' wins');\n"
    "  else s += ' \\u2014 ' + who[f.to_move] + ' to move';\n"
    "  el.textContent = s;\n"
    "  ['B', 'W'].forEach(function (p) {\n"
    "    var t = f.told[p].map(toldText).join('; ');\n"
    "    document.getElementById('told-' + p).textContent = who[p] + ' was told: ' + (t || 'nothing');\n"
    "  });\n"
    "  document.getElementById('clock').textContent = 'Thinking time: ' + (f.ms === null ? '' : 'this attempt ' +\n"
    "    f.ms.toFixed(1) + ' ms; ') + 'Black ' + seconds(f.clock[0]) + ', White ' + seconds(f.clock[1]) + ' so far' +\n"
    "    ['B', 'W'].map(function (p, i) { return f.left[i] === null ? '' : '; ' + who[p] + '\\u2019s clock ' +\n"
    "      seconds(f.left[i]) + ' left (' + G.time_control[i] + ')'; }).join('');\n"
    "  document.getElementById('where').textContent = 'attempt ' + f.n + ' of ' + last;\n"
    "}\n"
    "function show(k) {\n"
    "  k = Math.max(0, Math.min(last, k | 0)); cur = k;\n"
    "  var f = F[k];\n"
    "  boards.forEach(function (b) {\n"
    "    var s = f[b.name];\n"
    "    for (var i = 0; i < s.length; i++) b.cells[i].setAttribute('data-stone', s[i]);\n"
    "    while (b.marks.firstChild) b.marks.removeChild(b.marks.firstChild);\n"
    "    for (var j = 1; j <= Math.min(G.opening, k); j++) {\n"
    "      var c = cellIndex(F[j].cell);\n"
    "      if (c >= 0 && s[c] !== '-') mark(b, c, 'opening', 4);\n"
    "    }\n"
    "  });\n"
    "  if (f.n && f.cell && f.cell !== 'swap') {\n"
    "    var hit = f.outcome === 'rejected' || f.outcome === 'collision', i = cellIndex(f.cell);\n"
    "    [boards[0], boards[f.player === 'B' ? 1 : 2]].forEach(function (b) {\n"
    "      if (f.outcome === 'illegal') cross(b, i); else mark(b, i, hit ? 'hit' : 'placed', 9);\n"
    "    });\n"
    "  }\n"
    "  ['B', 'W'].forEach(function (p) {\n"
    "    f.told[p].forEach(function (t) {\n"
    "      if (t.kind === 'opp_hit_at') mark(boards[p === 'B' ? 1 : 2], cellIndex(t.cell), 'flash', 13);\n"
    "    });\n"
    "  });\n"
    "  slider.value = k;\n"
    "  describe(f);\n"
    "  document.body.setAttribute('data-ply', k);\n"
    "  try { history.replaceState(null, '', '?ply=' + k + location.hash); } catch (e) { /* file: pages */ }\n"
    "}\n"
    "slider.addEventListener('input', function () { show(+slider.value); });\n"
    "document.getElementById('first').onclick = function () { show(0); };\n"
    "document.getElementById('prev').onclick = function () { show(cur - 1); };\n"
    "document.getElementById('next').onclick = function () { show(cur + 1); };\n"
    "document.getElementById('last').onclick = function () { show(last); };\n"
    "document.addEventListener('keydown', function (e) {\n"
    "  var k = { ArrowLeft: cur - 1, ArrowRight: cur + 1, Home: 0, End: last }[e.key];\n"
    "  if (k === undefined || e.altKey || e.ctrlKey || e.metaKey) return;\n"
    "  e.preventDefault(); show(k);\n"
    "});\n"
    "var q = /(?:^|[?&])ply=(\\d{1,6})(?:&|$)/.exec(location.search);\n"
    "show(q ? parseInt(q[1], 10) : +document.body.getAttribute('data-ply'));\n"
    "})();\n"
    "</script>\n";

static void cell_centre(const gv_game *g, int r, int c, double *x, double *y)
{
    (void)g;
    *x = MX + W * (c + r / 2.0) + W / 2;
    *y = MY + S + 1.5 * S * r;
}

/* The four edges: Black's top and bottom, White's left and right. */
static void edges(const gv_game *g, FILE *f)
{
    double x, y;
    fputs("<polyline class=\"edge-b\" points=\"", f);
    for (int c = 0; c < g->cols; c++) {
        cell_centre(g, 0, c, &x, &y);
        fprintf(f, "%.1f,%.1f %.1f,%.1f %.1f,%.1f ", x - W / 2, y - S / 2, x, y - S, x + W / 2, y - S / 2);
    }
    fputs("\"/>\n<polyline class=\"edge-b\" points=\"", f);
    for (int c = 0; c < g->cols; c++) {
        cell_centre(g, g->rows - 1, c, &x, &y);
        fprintf(f, "%.1f,%.1f %.1f,%.1f %.1f,%.1f ", x - W / 2, y + S / 2, x, y + S, x + W / 2, y + S / 2);
    }
    for (int side = 0; side < 2; side++) {
        fputs("\"/>\n<polyline class=\"edge-w\" points=\"", f);
        for (int r = 0; r < g->rows; r++) {
            cell_centre(g, r, side ? g->cols - 1 : 0, &x, &y);
            double ex = side ? x + W / 2 : x - W / 2;
            fprintf(f, "%.1f,%.1f %.1f,%.1f ", ex, y - S / 2, ex, y + S / 2);
        }
    }
    fputs("\"/>\n", f);
}

/* One board: its cells with their stones at frame x, the coordinates, an empty group for the marks. */
static void board(const gv_game *g, const char *which, const char *stones, FILE *f)
{
    double width = 2 * MX + W * (g->cols + (g->rows - 1) / 2.0), height = 2 * MY + 2 * S + 1.5 * S * (g->rows - 1);
    fprintf(f, "<svg class=\"board%s\" data-board=\"%s\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
               "xmlns=\"http://www.w3.org/2000/svg\">\n",
            strcmp(which, "truth") ? " view" : "", which, ceil(width), ceil(height));
    edges(g, f);
    for (int r = 0; r < g->rows; r++)
        for (int c = 0; c < g->cols; c++) {
            double x, y;
            cell_centre(g, r, c, &x, &y);
            int i = r * g->cols + c;
            char name[HX_CELL_NAME_MAX];
            hx_cell_name(i, g->cols, name);
            fprintf(f, "<polygon data-cell=\"%d\" data-name=\"%s\" data-x=\"%.1f\" data-y=\"%.1f\" data-stone=\"%c\" "
                       "points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\"><title>%s</title>"
                       "</polygon>\n",
                    i, name, x, y, stones[i], x, y - S, x + W / 2, y - S / 2, x + W / 2, y + S / 2, x, y + S,
                    x - W / 2, y + S / 2, x - W / 2, y - S / 2, name);
        }
    for (int c = 0; c < g->cols; c++) { /* column letters above, row numbers to the left */
        double x, y;
        cell_centre(g, 0, c, &x, &y);
        fprintf(f, "<text class=\"coord\" x=\"%.1f\" y=\"%.1f\">%c</text>", x, y - S - 12, 'a' + c);
    }
    for (int r = 0; r < g->rows; r++) {
        double x, y;
        cell_centre(g, r, 0, &x, &y);
        fprintf(f, "<text class=\"coord\" x=\"%.1f\" y=\"%.1f\">%d</text>", x - W / 2 - 14, y, r + 1);
    }
    fputs("\n<g class=\"marks\"></g>\n</svg>\n", f);
}

/* The frames' JSON, safe inside <script>: '<', '>' and '&' (only ever inside JSON strings) as \u escapes. */
static void frames_json(const gv_game *g, FILE *f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) {
        fputs("{\"frames\":[]}", f);
        return;
    }
    gv_write_json(g, m);
    fclose(m);
    for (size_t i = 0; i < len; i++)
        if (buf[i] == '<' || buf[i] == '>' || buf[i] == '&')
            fprintf(f, "\\u%04x", (unsigned)buf[i]);
        else
            fputc(buf[i], f);
    free(buf);
}

static void head(const gv_game *g, FILE *f)
{
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
               "<title>Game %lld (%s %dx%d)</title>\n<style>\n%s%s</style>\n</head>\n",
            (long long)g->id, hx_variant_name(g->variant), g->rows, g->cols, rp_style, style);
}

/* A name, as text or (g->link_pages) a link to /KIND/ID. */
static void name(const gv_game *g, FILE *f, const char *kind, int64_t id, const char *text)
{
    fputs("<span class=\"name\">", f);
    if (g->link_pages && id > 0)
        fprintf(f, "<a href=\"/%s/%lld\">", kind, (long long)id);
    render_html_text(f, text);
    fputs(g->link_pages && id > 0 ? "</a></span>" : "</span>", f);
}

/* The title, the players and the result. */
static void header(const gv_game *g, FILE *f)
{
    fprintf(f, "<header>\n<h1>Game %lld <small>%s %dx%d</small></h1>\n<p>Black ", (long long)g->id,
            hx_variant_name(g->variant), g->rows, g->cols);
    name(g, f, "agent", g->black_id, g->black);
    fputs(" against White ", f);
    name(g, f, "agent", g->white_id, g->white);
    fprintf(f, ": %s wins", g->winner == HX_BLACK ? "Black" : "White");
    if (strcmp(g->reason, "connected") == 0)
        fputs(" (connected)", f);
    else {
        fputs(" by forfeit: ", f);
        render_html_text(f, g->reason);
        if (g->detail[0]) {
            fputs(" (", f);
            render_html_text(f, g->detail);
            fputc(')', f);
        }
    }
    bool illegal = g->forfeit >= 0 && g->frames[g->forfeit].illegal;
    fprintf(f, "; %d attempts%s", g->n_frames - 1 - illegal, illegal ? " and the illegal one" : "");
    if (g->opening)
        fprintf(f, ", the first %d the opening", g->opening);
    if (g->league[0]) {
        fputs("; league ", f);
        name(g, f, "league", g->league_id, g->league);
    }
    if (g->started[0]) {
        fputs("; started <span class=\"when\">", f);
        render_html_text(f, g->started);
        fputs("</span>", f);
    }
    fputs(".</p>\n</header>\n", f);
}

void gv_write_html(const gv_game *g, int ply, FILE *f)
{
    int last = g->n_frames - 1;
    ply = ply < 0 ? gv_start(g) : ply > last ? last : ply;
    head(g, f);
    fprintf(f, "<body data-ply=\"%d\">\n", ply);
    header(g, f);
    fprintf(f, "<div class=\"controls\">\n<button id=\"first\" title=\"first (Home)\">&#xAB;</button>"
               "<button id=\"prev\" title=\"previous (&#x2190;)\">&#x25C0;</button>\n"
               "<input type=\"range\" id=\"ply\" min=\"0\" max=\"%d\" value=\"%d\" aria-label=\"attempt\">\n"
               "<button id=\"next\" title=\"next (&#x2192;)\">&#x25B6;</button>"
               "<button id=\"last\" title=\"last (End)\">&#xBB;</button>\n"
               "<output id=\"where\">attempt %d of %d</output>\n</div>\n",
            last, ply, ply, last);
    fputs("<p id=\"attempt\"></p>\n<div class=\"told\"><p id=\"told-B\"></p><p id=\"told-W\"></p></div>\n"
          "<p id=\"clock\"></p>\n<div class=\"boards\">\n",
          f);
    static const char *const which[] = { "truth", "black", "white" };
    static const char *const caption[] = { "True board", "Black\u2019s view", "White\u2019s view" };
    const gv_frame *x = &g->frames[ply];
    const char *stones[] = { x->truth, x->view[0], x->view[1] };
    for (int b = 0; b < 3; b++) {
        fprintf(f, "<figure>\n<figcaption>%s</figcaption>\n", caption[b]);
        board(g, which[b], stones[b], f);
        fputs("</figure>\n", f);
    }
    fputs("</div>\n<p class=\"legend\"><span>Black joins top and bottom (dark edges), White left and right (grey "
          "edges).</span> <span>Grey cells: unknown to that player.</span> <span><b class=\"key placed\">Green "
          "ring</b>: the stone placed.</span> <span><b class=\"key hit\">Red ring</b>: a rejection (classical: a "
          "hidden stone, the mover moves again) or a collision (abrupt: a hidden stone, the turn is lost).</span> ",
          f);
    if (g->forfeit >= 0 && g->frames[g->forfeit].illegal)
        fputs("<span><b class=\"key illegal\">Red outline and cross</b>: the illegal attempt that lost the game by "
              "forfeit (not played), on the true board and the mover's view.</span> ",
              f);
    fputs("<span><b class=\"key flash\">Orange dashes</b>: where a flash report told the stone's owner it was hit."
          "</span> <span><b class=\"key opening\">Gold dot</b>: an opening stone.</span> <span>Keys: &#x2190; "
          "&#x2192; Home End.</span></p>\n<script type=\"application/json\" id=\"frames\">",
          f);
    frames_json(g, f);
    fputs("</script>\n", f);
    if (g->link_pages) /* the server's page: its JSON twin */
        fprintf(f, "<footer><p class=\"note\"><a href=\"/game/%lld.json\">This page as JSON</a>.</p></footer>\n",
                (long long)g->id);
    fprintf(f, "%s</body>\n</html>\n", script);
}

/* Each agent's latest forfeited game of the league (the loser's newest), into ids; their count. */
static int latest_forfeits(store_db *s, int64_t league, int64_t *ids, int cap, char *err, size_t errlen)
{
    store_games *q = store_query(s, &(store_filter){ .league = league, .reason = "forfeit", .newest_first = true });
    if (!q) {
        snprintf(err, errlen, "%s", store_error(s));
        return -1;
    }
    static int64_t losers[1024];
    int n = 0, m = 0, rc;
    store_game_row row;
    while ((rc = store_games_next(q, &row)) == 1 && n < cap) {
        int64_t loser = row.winner == HX_BLACK ? row.white_id : row.black_id, k = 0;
        while (k < m && losers[k] != loser)
            k++;
        if (k < m || m == (int)(sizeof losers / sizeof losers[0]))
            continue;
        losers[m++] = loser;
        ids[n++] = row.id;
    }
    if (rc < 0)
        snprintf(err, errlen, "%s", store_error(s));
    store_games_end(q);
    return rc < 0 ? -1 : n;
}

int gv_write_forfeits(store_db *s, int64_t league, const char *dir, char *err, size_t errlen)
{
    static int64_t ids[256];
    int n = latest_forfeits(s, league, ids, 256, err, errlen);
    if (n <= 0)
        return n;
    char path[PATH_MAX + 64], tmp[PATH_MAX + 72];
    snprintf(path, sizeof path, "%s/games", dir);
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    for (int k = 0; k < n; k++) {
        gv_game g;
        if (gv_build(s, ids[k], &g, err, errlen) != GV_OK) {
            gv_free(&g);
            return -1;
        }
        snprintf(path, sizeof path, "%s/games/game-%lld.html", dir, (long long)ids[k]);
        snprintf(tmp, sizeof tmp, "%s.tmp", path);
        FILE *f = fopen(tmp, "w");
        if (f)
            gv_write_html(&g, -1, f);
        gv_free(&g);
        if (!f || (ferror(f) | (fclose(f) != 0)) || rename(tmp, path) != 0) {
            snprintf(err, errlen, "%s: %s", path, f ? "cannot write (disk full?)" : strerror(errno));
            return -1;
        }
    }
    return n;
}
