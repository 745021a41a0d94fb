/* arena/engine/gale.c — Gale's algorithm (gale.h): the bordered board and the boundary walk. */
#include "gale.h"

#define GALE_NO_CELL 0xffff

void gale_init(gale_board *b, int rows, int cols)
{
    int s = cols + 2;
    b->rows = rows, b->cols = cols, b->stride = s, b->npad = (rows + 2) * s;
    for (int p = 0; p < b->npad; p++) {
        int r = p / s - 1, c = p % s - 1;
        uint8_t code = 0;
        if (r >= 0 && r < rows && c >= 0 && c < cols) {
            code = (uint8_t)(GALE_BLACK | (r == 0 ? GALE_FIRST_ROW : 0) | (r == rows - 1 ? GALE_LAST_ROW : 0) |
                             (c == 0 ? GALE_FIRST_COL : 0) | (c == cols - 1 ? GALE_LAST_COL : 0));
            b->cell_of[p] = (uint16_t)(r * cols + c);
            b->pad_of[r * cols + c] = (uint16_t)p;
        } else {
            /* Border: Black above and below, White left and right. The four corners are never reached. */
            code = (c >= 0 && c < cols) ? GALE_BLACK : 0;
            b->cell_of[p] = GALE_NO_CELL;
        }
        b->code[p] = code;
    }
}

void gale_fill(gale_board *b, const uint8_t *colours)
{
    for (int i = 0; i < b->rows * b->cols; i++)
        gale_set(b, i, colours[i]);
}

/* The winner's cells from the walk's log (bit 15: a White step), from its last visit to the first edge. */
static int gale_path(const gale_board *b, const uint16_t *log, int n, int winner, uint16_t *path)
{
    uint16_t tag = winner == HX_WHITE ? 0x8000 : 0;
    int len = 0;
    for (int i = 0; i < n; i++) {
        if ((log[i] & 0x8000) != tag)
            continue;
        uint16_t cell = b->cell_of[log[i] & 0x7fff];
        if (cell == GALE_NO_CELL)
            len = 0; /* back on the first edge: the chain starts again */
        else
            path[len++] = cell;
    }
    return len;
}

int gale_walk(const gale_board *b, int corner, uint16_t *path, int *len)
{
    /* The six neighbour offsets in clockwise order; the walk keeps Black's cell L and White's cell R = L +
     * off[k] and looks at the cell they share ahead, L + off[k - 1]. If it is Black it becomes L (and the
     * direction to R turns to k + 1), else it becomes R (direction k - 1). From the bottom-right corner the
     * same walk runs on the board turned by 180 degrees: every offset negated, the stops on the first row
     * and column. */
    const int s = b->stride, sign = corner == GALE_TOP_LEFT ? 1 : -1;
    const int ahead[6] = { sign * -1, sign * -s, sign * (-s + 1), sign * 1, sign * s, sign * (s - 1) };
    const uint8_t stop_black = corner == GALE_TOP_LEFT ? GALE_LAST_ROW : GALE_FIRST_ROW;
    const uint8_t stop_white = corner == GALE_TOP_LEFT ? GALE_LAST_COL : GALE_FIRST_COL;
    static const uint8_t next[6] = { 1, 2, 3, 4, 5, 0 }, prev[6] = { 5, 0, 1, 2, 3, 4 };
    /* Start on the corner: L the border cell above a1 (R the one left of it), or the mirror image. */
    int l = corner == GALE_TOP_LEFT ? 1 : b->npad - 2, k = 4, n = 0, winner = HX_NOBODY;
    uint16_t log[GALE_PATH_MAX];
    const uint8_t *code = b->code;
    while (n < GALE_PATH_MAX) {
        int t = l + ahead[k];
        uint8_t c = code[t];
        if (c & GALE_BLACK) {
            l = t, k = next[k];
            log[n++] = (uint16_t)t;
            if (c & stop_black) {
                winner = HX_BLACK;
                break;
            }
        } else {
            k = prev[k];
            log[n++] = (uint16_t)(t | 0x8000);
            if (c & stop_white) {
                winner = HX_WHITE;
                break;
            }
        }
    }
    if (path)
        *len = winner == HX_NOBODY ? 0 : gale_path(b, log, n, winner, path);
    return winner;
}
