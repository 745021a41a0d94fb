/* arena/cli/cmd_classify.c — `arena classify`: who wins every small board of every dark variant (black,
 * white, neither with Black's value or an interval on it, or open), with the time and memory each took,
 * certificates of the sure wins, `--check` to verify certificates (classify.h, docs/solved.md), and `--policy` to
 * write a verified value certificate's strategies as a policy file (valcert_policy.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "board.h"
#include "classify.h"
#include "cli.h"
#include "clock.h"
#include "commands.h"
#include "surewin.h"
#include "valcert.h"
#include "valcert_policy.h"
#include "variant.h"

static const char help[] =
    "usage: arena classify [--max-cells N] [--variants V,V,...] [--budget-s S] [--max-nodes N]\n"
    "                      [--certificates DIR [--max-memory MB]] [--first-moves [--first-moves-budget-s S]]\n"
    "                      [--progress] [--json | --format text|json]\n"
    "       arena classify --check [--sample N [--full-cells N]] [--max-histories N] FILE...\n"
    "       arena classify --check --policy OUT FILE\n\n"
    "For every board RxC with R, C >= 2 and R*C <= N and every variant asked for: whether Black wins with\n"
    "probability one (a sure win: every hidden placement, every opponent behaviour), White does, or neither\n"
    "(docs/surewin.md); for neither, Black's value: exact from the double oracle when its bounds meet within\n"
    "a third of the budget, else from Black's sequence-form LP (CLP) when it finishes within half the time\n"
    "left, otherwise an interval [lower, upper] from exact best responses (to the double oracle's strategies\n"
    "or to CFR+'s average strategies trained for the rest of the budget, at least a sixth of it; the\n"
    "narrower). When the game tree is too large: best responses to the uniform policy (at most 9 cells),\n"
    "then the double oracle without the tree and the sequence-form double oracle for the rest of the\n"
    "budget (exact when their bounds meet, else their interval). Exact values are also shown as the simplest\n"
    "fraction within 1e-10 (denominator at most 20000), when there is one. A board whose sure-win searches\n"
    "do not finish within the budget is open. docs/solved.md has the table.\n\n"
    "  --max-cells N        largest board, in cells (default 16, at most 16)\n"
    "  --variants LIST      dark variants, comma-separated (default: all six)\n"
    "  --budget-s S         seconds per board and variant, all stages (default 60)\n"
    "  --max-nodes N        largest game tree for the double oracle, the LP and CFR+ (default 5000000)\n"
    "  --memo-mb M          largest sure-win memo per player (default 4096)\n"
    "  --certificates DIR   write every sure win as DIR/RxC-VARIANT-PLAYER.cert (docs/surewin.md) and every\n"
    "                       value's policy (double oracle, LP or CFR+) as DIR/RxC-VARIANT.policy, and its\n"
    "                       value certificate (exact rational bounds, --check verifies it) as\n"
    "                       DIR/RxC-VARIANT.value; a -noisy/-flash row whose tree does not fit plays\n"
    "                       the plain row's DIR/RxC-VARIANT.value deaf to the reports first (written as\n"
    "                       DIR/RxC-VARIANT-blind.value; how: report-blind) and seeds the oracle with it;\n"
    "                       a row whose own DIR/RxC-VARIANT.value is there starts from it once it\n"
    "                       verifies (how: certificate), replaced only by a narrower one\n"
    "  --max-memory MB      with --certificates: the kept certificate's check and the report-blind step\n"
    "                       each run in a child process stopped once it adds MB resident megabytes (the\n"
    "                       row goes on without it; its note says so; default: what the system has\n"
    "                       available when the step starts, less a tenth and 512 MB)\n"
    "  --first-moves        also the value after each of Black's first cells (the game with Black's first\n"
    "                       attempt fixed to it), on the rows with an exact value: the double oracle with\n"
    "                       Black's root action fixed (without the tree, the sequence oracle with Black's\n"
    "                       first attempt fixed; with --certificates each cell's certificate as\n"
    "                       DIR/RxC-VARIANT-first-CELL.value), or for a sure win which cells keep it\n"
    "  --first-moves-budget-s S  seconds for one row's first-move table, all cells (default: --budget-s)\n"
    "  --progress           a line on stderr after each row: the row, its outcome, the time so far and\n"
    "                       about how long the rows left take at the average so far (the default when\n"
    "                       stderr is a terminal)\n"
    "  --json               a list of rows {\"board\", \"variant\", \"outcome\", \"value\", \"lower\", \"upper\",\n"
    "                       \"seconds\", \"peak_mb\", \"how\", \"fraction\"} (how: sure-win search, double\n"
    "                       oracle, lp, cfr+ bounds, sequence oracle, sequence-oracle bounds,\n"
    "                       report-blind, certificate, uniform or none; fraction \"p/q\" or null); with\n"
    "                       --first-moves also \"first_moves\": [{\"cell\", \"value\", \"lower\", \"upper\",\n"
    "                       \"how\", \"fraction\", \"best_response\"}] (on a board Black wins surely also\n"
    "                       \"sure_win\"); best_response: Black's best response after the cell against\n"
    "                       White's equilibrium strategy of the whole board (the double oracle's; null\n"
    "                       otherwise): the board's value on the best cells, less on cells no equilibrium\n"
    "                       opens with\n"
    "  --format F           text (default: a table) or json (--json)\n"
    "  --check              verify certificate FILEs with the independent checker: the rules engine against\n"
    "                       every opponent behaviour, on every board (undecided past --max-histories);\n"
    "                       a value certificate (arena solve --certificate) by both exact best responses in\n"
    "                       rationals: \"verified: value P/Q\" or \"verified: value in [P/Q, P/Q]\"\n"
    "  --sample N           instead play N random opponents per certificate: a certificate that wins them\n"
    "                       all is \"sampled: N games won, not verified\" (exit status 3), never verified\n"
    "  --full-cells N       with --sample: boards of at most N cells still get the full check (default 0)\n"
    "  --max-histories N    the full check's cap: game states walked (a value certificate: histories, per best\n"
    "                       response) past which it stops, undecided (default 200000000; 0: no cap)\n"
    "  --policy OUT         with --check of one value certificate: once it is verified, write both players'\n"
    "                       strategies as a policy file (docs/policy-format.md, algorithm 'certificate')\n"
    "                       that bin/policy-bot plays: the certified strategies, from the empty board\n\n"
    "Exit status: 0 done (with --check: every file verified against every opponent behaviour), 1 a\n"
    "certificate refuted or undecided or a file not read or not written, 2 bad input, 3 (--check --sample)\n"
    "none refuted or undecided but some only sampled, not verified.\n";

enum { CHECK_SAMPLED_ONLY = 3 }; /* the exit status of --check when some certificate was only sampled */

/* "H:MM:SS" of s seconds. */
static void print_hms(double s)
{
    long t = (long)(s + 0.5);
    fprintf(stderr, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

/* One line on stderr after each row (--progress, or stderr a terminal): the row, its outcome and bounds, and
 * the time so far with the rows left at the average row's time so far (the budgets bound each row's search,
 * not a kept certificate's check). */
static void print_progress(const cl_row *r, int done, int total, double elapsed)
{
    fprintf(stderr, "arena classify: %d/%d %dx%d %s: %s", done, total, r->rows, r->cols, hx_variant_name(r->variant),
            cl_outcome_name(r->outcome));
    if (r->outcome == CL_NEITHER && r->exact)
        fprintf(stderr, " %+.6f", r->value);
    else if (r->outcome == CL_NEITHER)
        fprintf(stderr, " [%+.6f, %+.6f]", r->lower, r->upper);
    fprintf(stderr, " (%s, %.1f s); elapsed ", r->how, r->seconds + r->first_seconds);
    print_hms(elapsed);
    if (done < total) {
        fprintf(stderr, ", about ");
        print_hms(elapsed / done * (total - done));
        fprintf(stderr, " left");
    }
    fputc('\n', stderr);
}

enum { O_MAX_CELLS = 0x300, O_VARIANTS, O_BUDGET, O_MAX_NODES, O_MEMO, O_CERTS, O_JSON, O_CHECK, O_FULL, O_SAMPLE, O_HELP, O_FORMAT, O_FIRST, O_FIRST_BUDGET, O_POLICY, O_MAX_HIST, O_MAX_MEMORY, O_PROGRESS };

static int parse_variants(const char *text, hx_variant *out)
{
    int n = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        hx_variant v = cli_variant("classify", tok);
        if (sw_rules_of(v) < 0)
            cli_usage_error("classify", "--variants: '%s' is not a dark variant", tok);
        if (n == HX_VARIANT_COUNT)
            cli_usage_error("classify", "--variants: too many names");
        out[n++] = v;
    }
    if (!n)
        cli_usage_error("classify", "--variants: give at least one variant");
    return n;
}

static void print_number(double x, bool present)
{
    if (present)
        printf("%.9g", x);
    else
        printf("null");
}

static void print_fraction_json(long num, long den)
{
    if (den > 0)
        printf("\"%ld/%ld\"", num, den);
    else
        printf("null");
}

static void print_row_json(const cl_row *r, bool first, bool first_moves)
{
    printf("%s{\"board\": \"%dx%d\", \"variant\": \"%s\", \"outcome\": \"%s\", \"value\": ", first ? "" : ",\n ",
           r->rows, r->cols, hx_variant_name(r->variant), cl_outcome_name(r->outcome));
    print_number(r->value, r->exact);
    printf(", \"lower\": %.9g, \"upper\": %.9g, \"seconds\": %.3f, \"peak_mb\": %.1f, \"how\": \"%s\", \"fraction\": ",
           r->lower, r->upper, r->seconds, r->peak_mb, r->how);
    print_fraction_json(r->num, r->exact ? r->den : 0);
    if (first_moves) {
        printf(", \"first_moves_seconds\": %.3f, \"first_moves\": [", r->first_seconds);
        for (int i = 0; i < r->n_first; i++) {
            const cl_first_move *m = &r->first[i];
            char name[HX_CELL_NAME_MAX];
            hx_cell_name(m->cell, r->cols, name);
            printf("%s{\"cell\": \"%s\", \"value\": ", i ? ", " : "", name);
            print_number(m->value, m->exact);
            printf(", \"lower\": %.9g, \"upper\": %.9g, \"how\": \"%s\", \"fraction\": ", m->lower + 0.0, m->upper + 0.0, m->how);
            print_fraction_json(m->num, m->exact ? m->den : 0);
            if (r->outcome == CL_BLACK)
                printf(", \"sure_win\": %s", m->exact && m->value == 1 ? "true" : "false");
            printf(", \"best_response\": ");
            print_number(m->br, m->has_br);
            printf("}");
        }
        printf("]");
    }
    printf("}");
}

/* An exact value as its fraction ("+9/11", "+1", "0"), else to 6 decimals. */
static void format_value(char *out, size_t len, double value, long num, long den)
{
    if (den == 1)
        snprintf(out, len, "%+ld", num);
    else if (den > 0)
        snprintf(out, len, "%+ld/%ld", num, den);
    else
        snprintf(out, len, "%+.6f", value);
    if (den > 0 && num == 0)
        snprintf(out, len, "0");
}

static void print_row_text(const cl_row *r)
{
    char board[16], value[32];
    snprintf(board, sizeof board, "%dx%d", r->rows, r->cols);
    if (r->exact)
        format_value(value, sizeof value, r->value, r->num, r->den);
    else
        snprintf(value, sizeof value, "-");
    printf("%-6s %-16s %-8s %-12s [%+.4f, %+.4f] %7.4f %9.2f %8.1f  %-16s %s\n", board, hx_variant_name(r->variant),
           cl_outcome_name(r->outcome), value, r->lower, r->upper, r->upper - r->lower, r->seconds, r->peak_mb, r->how,
           r->note);
    if (r->n_first) {
        printf("       first moves (%.2f s):", r->first_seconds);
        for (int i = 0; i < r->n_first; i++) {
            const cl_first_move *m = &r->first[i];
            char name[HX_CELL_NAME_MAX], v[64];
            hx_cell_name(m->cell, r->cols, name);
            if (m->exact)
                format_value(v, sizeof v, m->value, m->num, m->den);
            else if (m->no_sure_win)
                snprintf(v, sizeof v, "<1 (no sure win)");
            else
                snprintf(v, sizeof v, "[%+.4f, %+.4f]", m->lower, m->upper);
            printf(" %s %s", name, v);
            if (m->has_br)
                printf(" (br %+.4f)", m->br);
            printf("%s", i + 1 < r->n_first ? "," : "\n");
        }
    }
    fflush(stdout);
}

/* The verified value certificate at path written as a policy file at out (valcert_policy.h). */
static int write_policy(const char *path, const char *out)
{
    char err[512];
    vc_cert *c = vc_load(path, err, sizeof err);
    if (!c) {
        fprintf(stderr, "arena classify: %s\n", err);
        return CLI_FAILED;
    }
    int rc = vc_policy_save(c, out, err, sizeof err);
    if (rc == 0)
        printf("wrote %s: %u information states (bin/policy-bot --policy %s plays them)\n", out, vc_state_count(c), out);
    else
        fprintf(stderr, "arena classify: %s\n", err);
    vc_free(c);
    return rc == 0 ? CLI_OK : CLI_FAILED;
}

/* Checks every FILE; the exit status: CLI_FAILED if any was refuted or undecided, else CHECK_SAMPLED_ONLY if
 * any was only sampled, else CLI_OK. A last line counts them. */
static int check_files(int argc, char **argv, uint64_t sample, int full_cells, uint64_t max_states,
                       const char *policy_out)
{
    if (optind >= argc)
        cli_usage_error("classify", "--check: give certificate files");
    if (policy_out && (argc - optind != 1 || sample))
        cli_usage_error("classify", "--policy: give exactly one value certificate, checked in full (no --sample)");
    if (policy_out && !vc_is_value_file(argv[optind]))
        cli_usage_error("classify", "--policy: %s is not a value certificate (its first line is not 'darkhex-value 1')",
                        argv[optind]);
    int count[CL_CHECK_UNDECIDED + 1] = { 0 };
    double t0 = clk_now();
    for (int i = optind; i < argc; i++) {
        char msg[1024];
        cl_check r = cl_check_certificate_cap(argv[i], sample, full_cells, max_states, msg, sizeof msg);
        printf("%s\n", msg);
        fflush(stdout);
        count[r]++;
    }
    static const char *const names[] = { "verified", "sampled only, not verified", "refuted", "undecided" };
    printf("%d certificate%s:", argc - optind, argc - optind == 1 ? "" : "s");
    const char *sep = " ";
    for (int k = 0; k <= CL_CHECK_UNDECIDED; k++)
        if (count[k]) {
            printf("%s%d %s", sep, count[k], names[k]);
            sep = ", ";
        }
    printf(" (%.2f s)\n", clk_now() - t0);
    if (count[CL_CHECK_REFUTED] || count[CL_CHECK_UNDECIDED])
        return CLI_FAILED;
    if (policy_out)
        return write_policy(argv[optind], policy_out);
    return count[CL_CHECK_SAMPLED] ? CHECK_SAMPLED_ONLY : CLI_OK;
}

int cmd_classify(int argc, char **argv)
{
    static const struct option options[] = {
        { "max-cells", required_argument, 0, O_MAX_CELLS }, { "variants", required_argument, 0, O_VARIANTS },
        { "budget-s", required_argument, 0, O_BUDGET },     { "max-nodes", required_argument, 0, O_MAX_NODES },
        { "memo-mb", required_argument, 0, O_MEMO },        { "certificates", required_argument, 0, O_CERTS },
        { "json", no_argument, 0, O_JSON },                 { "check", no_argument, 0, O_CHECK },
        { "full-cells", required_argument, 0, O_FULL },     { "sample", required_argument, 0, O_SAMPLE },
        { "help", no_argument, 0, O_HELP },                 { "format", required_argument, 0, O_FORMAT },
        { "first-moves", no_argument, 0, O_FIRST },         { "first-moves-budget-s", required_argument, 0, O_FIRST_BUDGET },
        { "policy", required_argument, 0, O_POLICY },       { "max-histories", required_argument, 0, O_MAX_HIST },
        { "max-memory", required_argument, 0, O_MAX_MEMORY }, { "progress", no_argument, 0, O_PROGRESS },
        { 0, 0, 0, 0 },
    };
    cl_options o;
    cl_options_default(&o);
    o.max_nodes = 5000000;
    hx_variant variants[HX_VARIANT_COUNT];
    int n_variants = parse_variants("classical,classical-noisy,classical-flash,abrupt,abrupt-noisy,abrupt-flash", variants);
    int max_cells = SW_MAX_CELLS, full_cells = 0, c;
    uint64_t sample = 0, max_states = CL_CHECK_MAX_STATES; /* no sampling unless asked for */
    bool json = false, check = false, progress = false;
    const char *policy_out = NULL;
    while ((c = cli_getopt("classify", argc, argv, options)) != -1) {
        if (c == O_MAX_CELLS)
            max_cells = (int)cli_count("classify", "--max-cells", optarg, 4, SW_MAX_CELLS);
        else if (c == O_VARIANTS)
            n_variants = parse_variants(optarg, variants);
        else if (c == O_BUDGET)
            o.budget_s = (double)cli_count("classify", "--budget-s", optarg, 1, 1000000);
        else if (c == O_MAX_NODES)
            o.max_nodes = (uint32_t)cli_count("classify", "--max-nodes", optarg, 1, UINT32_MAX);
        else if (c == O_MEMO)
            o.memo_bytes = cli_count("classify", "--memo-mb", optarg, 1, 1u << 20) << 20;
        else if (c == O_CERTS)
            o.out_dir = optarg;
        else if (c == O_JSON)
            json = true;
        else if (c == O_FORMAT)
            json = cli_format_parse("classify", optarg) == CLI_JSON;
        else if (c == O_CHECK)
            check = true;
        else if (c == O_FIRST)
            o.first_moves = true;
        else if (c == O_FIRST_BUDGET)
            o.first_budget_s = (double)cli_count("classify", "--first-moves-budget-s", optarg, 1, 1000000);
        else if (c == O_FULL)
            full_cells = (int)cli_count("classify", "--full-cells", optarg, 0, 64);
        else if (c == O_SAMPLE)
            sample = cli_count("classify", "--sample", optarg, 1, UINT32_MAX);
        else if (c == O_POLICY)
            policy_out = optarg;
        else if (c == O_MAX_HIST)
            max_states = cli_count("classify", "--max-histories", optarg, 0, UINT64_MAX);
        else if (c == O_PROGRESS)
            progress = true;
        else if (c == O_MAX_MEMORY)
            o.max_memory_mb = (double)cli_count("classify", "--max-memory", optarg, 1, 1u << 24);
        else if (c == O_HELP) {
            fputs(help, stdout);
            return CLI_OK;
        }
    }
    if (policy_out && !check)
        cli_usage_error("classify", "--policy goes with --check (arena classify --check --policy OUT FILE)");
    if (o.max_memory_mb > 0 && !o.out_dir)
        cli_usage_error("classify", "--max-memory goes with --certificates DIR (it guards the steps that read the "
                                    "certificates there)");
    if (check)
        return check_files(argc, argv, sample, full_cells, max_states, policy_out);
    if (optind < argc)
        cli_usage_error("classify", "unexpected argument '%s' (see 'arena classify --help')", argv[optind]);
    struct stat dir;
    if (o.out_dir && stat(o.out_dir, &dir) != 0)
        cli_usage_error("classify", "--certificates %s: %s (make the directory first: mkdir -p %s)", o.out_dir,
                        errno == ENOENT ? "no such directory" : strerror(errno), o.out_dir);
    if (o.out_dir && !S_ISDIR(dir.st_mode))
        cli_usage_error("classify", "--certificates %s: not a directory", o.out_dir);
    if (o.out_dir && access(o.out_dir, W_OK | X_OK) != 0)
        cli_usage_error("classify", "--certificates %s: cannot write in it: %s", o.out_dir, strerror(errno));
    if (json)
        printf("[");
    else
        printf("%-6s %-16s %-8s %-12s %-19s %7s %9s %8s  %-16s %s\n", "board", "variant", "outcome", "value",
               "[lower, upper]", "width", "seconds", "peak_mb", "how", "note");
    int status = CLI_OK, total = 0, done = 0;
    bool first = true;
    for (int rows = 2; rows <= max_cells / 2; rows++)
        for (int cols = 2; rows * cols <= max_cells; cols++)
            total += n_variants;
    progress = progress || isatty(STDERR_FILENO);
    double t0 = clk_now();
    for (int rows = 2; rows <= max_cells / 2; rows++)
        for (int cols = 2; rows * cols <= max_cells; cols++)
            for (int i = 0; i < n_variants; i++) {
                cl_row r;
                if (cl_classify(rows, cols, variants[i], &o, &r) != 0) {
                    fprintf(stderr, "arena classify: %dx%d %s: %s\n", rows, cols, hx_variant_name(variants[i]), r.note);
                    status = CLI_FAILED;
                }
                if (json)
                    print_row_json(&r, first, o.first_moves);
                else
                    print_row_text(&r);
                fflush(stdout); /* a night's run keeps every row finished, whatever stops it */
                first = false;
                if (progress)
                    print_progress(&r, ++done, total, clk_now() - t0);
            }
    if (json)
        printf("]\n");
    return status;
}
