/* arena/report/style.h — the one style sheet of the report pages (render_html.c) and the game viewer
 * (viewer_html.c): type, margins, colours, the header (title, lead line, navigation), tables, figures and
 * warnings, and the phone layout. A page writes it inside its own <style> element, followed by any rules of its
 * own. */
#ifndef ARENA_REPORT_STYLE_H
#define ARENA_REPORT_STYLE_H

/* CSS rules only (no <style> tags), each line ending in a newline. */
extern const char rp_style[];

#endif
