/* arena/report/render.c — the table of a document's formats (render.h). */
#include "render.h"

#include <string.h>

const render_format render_formats[] = {
    { "md", render_md },
    { "html", render_html },
    { "json", render_json },
};
const int render_n_formats = (int)(sizeof render_formats / sizeof render_formats[0]);

const render_format *render_find(const char *ext)
{
    for (int i = 0; i < render_n_formats; i++)
        if (strcmp(render_formats[i].ext, ext) == 0)
            return &render_formats[i];
    return NULL;
}
