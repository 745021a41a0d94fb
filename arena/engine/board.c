/* arena/engine/board.c — board sizes and cell names: parsing and formatting. */
#include "board.h"

#include <ctype.h>

static bool parse_side(const char **p, int *out)
{
    const char *s = *p;
    int v = 0, digits = 0;
    while (isdigit((unsigned char)*s) && digits < 4) {
        v = v * 10 + (*s - '0');
        s++;
        digits++;
    }
    if (digits == 0 || isdigit((unsigned char)*s))
        return false;
    *out = v;
    *p = s;
    return true;
}

bool hx_board_parse(const char *text, int *rows, int *cols, const char **why)
{
    const char *s = text;
    int r, c;
    if (!parse_side(&s, &r) || (*s != 'x' && *s != 'X')) {
        *why = "expected ROWSxCOLS, e.g. 3x3";
        return false;
    }
    s++;
    if (!parse_side(&s, &c) || *s != '\0') {
        *why = "expected ROWSxCOLS, e.g. 3x3";
        return false;
    }
    if (r < HX_MIN_SIDE || r > HX_MAX_SIDE || c < HX_MIN_SIDE || c > HX_MAX_SIDE) {
        *why = "each side must be between 2 and 19";
        return false;
    }
    *rows = r;
    *cols = c;
    return true;
}

int hx_cell_parse(const char *text, int rows, int cols, const char **why)
{
    const char *s = text;
    if (!isalpha((unsigned char)*s)) {
        *why = "a cell is a column letter and a row number, e.g. a1";
        return -1;
    }
    int c = tolower((unsigned char)*s) - 'a';
    s++;
    int r;
    if (*s == '0' || !parse_side(&s, &r) || *s != '\0') {
        *why = "a cell is a column letter and a row number, e.g. a1";
        return -1;
    }
    if (c >= cols) {
        *why = "column is outside the board";
        return -1;
    }
    if (r < 1 || r > rows) {
        *why = "row is outside the board";
        return -1;
    }
    return (r - 1) * cols + c;
}

void hx_cell_name(int cell, int cols, char out[HX_CELL_NAME_MAX])
{
    unsigned row = (unsigned)(cell / cols + 1) % 100, n = 0;
    out[n++] = (char)('a' + cell % cols);
    if (row >= 10)
        out[n++] = (char)('0' + row / 10);
    out[n++] = (char)('0' + row % 10);
    out[n] = '\0';
}

bool hx_set_joins(int rows, int cols, int player, uint64_t set)
{
    static const int dr[6] = { -1, -1, 0, 0, 1, 1 }, dc[6] = { 0, 1, -1, 1, -1, 0 };
    int cells = rows * cols;
    uint64_t seen = 0, todo = 0;
    for (int c = 0; c < cells; c++)
        if ((set >> c & 1) && (player == 0 ? c / cols == 0 : c % cols == 0))
            todo |= 1ull << c;
    while (todo) {
        int c = __builtin_ctzll(todo);
        todo &= todo - 1;
        if (seen >> c & 1)
            continue;
        seen |= 1ull << c;
        int r = c / cols, q = c % cols;
        if (player == 0 ? r == rows - 1 : q == cols - 1)
            return true;
        for (int i = 0; i < 6; i++) {
            int rr = r + dr[i], qq = q + dc[i];
            if (rr < 0 || rr >= rows || qq < 0 || qq >= cols)
                continue;
            int d = rr * cols + qq;
            if ((set >> d & 1) && !(seen >> d & 1))
                todo |= 1ull << d;
        }
    }
    return false;
}
