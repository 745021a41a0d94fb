/* tests/unit/test_ladder_ini.c — LADDER.ini (arena/ladder/ladder_ini.h): every key read into its field, the defaults
 * where a key is left out, comments after values and headers read as in every config of the project, keys of another
 * runner warned about, docs/ladder.md's example loaded as written, and each kind of mistake refused with one line
 * naming the file, the line, the section and the key. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ladder_ini.h"
#include "test_util.h"

static const char full[] =
    "# a lab's ladder\n"
    "[ladder]\n"
    "listen = 0.0.0.0:8443\n"
    "db = /srv/ladder/arena.db\n"
    "state = /srv/ladder/state.db\n"
    "store = /srv/ladder/bots\n"
    "logs = /srv/ladder/logs\n"
    "approval = off\n"
    "rating_rounds = off\n"
    "secure_cookie = on\n"
    "variants = classical, abrupt\n"
    "boards = 3x3, 4x4\n"
    "placement_pairs = 8\n"
    "move_ms = 250\n"
    "runner = host\n"
    "concurrency = 4\n"
    "listen_league = tcp://0.0.0.0:5555\n"
    "server_key = /srv/ladder/server.key\n"
    "host_keys = /srv/keys/gpu1.key.pub, /srv/keys/gpu2.key.pub\n"
    "host_wait_s = 300\n"
    "allowed_dirs = /opt/lab/bots, /opt/lab/more\n"
    "\n[admins]\n"
    "alice = $argon2id$v=19$m=65536,t=2,p=1$UGaeV2IS/PnljQDjoTbcvA$E7UUAhq2nSPA9wNGGwJ+7vyfxXIkGg7vU6/kWKAZq9A\n"
    "bob = $argon2id$v=19$m=65536,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n"
    "\n[quota]\n"
    "submissions_per_day = 3\n"
    "games_per_day = 700\n"
    "bytes_stored = 1048576\n"
    "requests_per_minute = 30\n"
    "\n[archive]\n"
    "max_bytes = 65536\n"
    "max_unpacked_bytes = 1000000\n"
    "max_files = 50\n";

static void every_key_is_read(void **state)
{
    (void)state;
    ld_config c;
    char err[1024];
    if (ld_config_parse(full, strlen(full), "LADDER.ini", &c, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_string_equal(c.listen_host, "0.0.0.0");
    assert_int_equal(c.listen_port, 8443);
    assert_string_equal(c.db, "/srv/ladder/arena.db");
    assert_string_equal(c.state, "/srv/ladder/state.db");
    assert_string_equal(c.store, "/srv/ladder/bots");
    assert_string_equal(c.logs, "/srv/ladder/logs");
    assert_false(c.approval);
    assert_false(c.rating_rounds);
    assert_true(c.secure_cookie);
    assert_int_equal(c.n_admins, 2);
    assert_string_equal(c.admins[1].name, "bob");
    assert_true(strncmp(c.admins[1].pwhash, "$argon2id$v=19$m=65536,t=2,p=1$c2Fsd", 36) == 0);
    assert_int_equal(c.boards.n_boards, 2);
    assert_int_equal(c.placement_pairs, 8);
    assert_int_equal(c.move_ms, 250);
    assert_int_equal(c.runner, LD_RUN_HOST);
    assert_string_equal(ld_runner_name(c.runner), "host");
    assert_int_equal(c.concurrency, 4);
    assert_string_equal(c.listen_league, "tcp://0.0.0.0:5555");
    assert_int_equal(c.n_hosts, 2);
    assert_string_equal(c.host_keys[1], "/srv/keys/gpu2.key.pub");
    assert_int_equal(c.host_wait_s, 300);
    assert_int_equal(c.n_allowed, 2);
    assert_string_equal(c.allowed_dirs[1], "/opt/lab/more");
    assert_int_equal(c.submissions_per_day, 3);
    assert_int_equal(c.games_per_day, 700);
    assert_int_equal(c.bytes_stored, 1048576);
    assert_int_equal(c.requests_per_minute, 30);
    assert_int_equal(c.archive.archive_bytes, 65536);
    assert_int_equal(c.archive.unpacked_bytes, 1000000);
    assert_int_equal(c.archive.files, 50);
}

static void left_out_keys_take_their_defaults(void **state)
{
    (void)state;
    static const char small[] = "[ladder]\ndb = a.db\nstate = s.db\nstore = bots\nvariants = classical\nboards = 3x3\n";
    ld_config c;
    char err[1024];
    assert_int_equal(ld_config_parse(small, strlen(small), "L.ini", &c, err, sizeof err), 0);
    assert_string_equal(c.listen_host, "127.0.0.1");
    assert_int_equal(c.listen_port, 8080);
    assert_true(c.approval && c.rating_rounds && !c.secure_cookie);
    assert_true(c.fair_timing); /* a submitted bot is timed fairly unless the lab says otherwise */
    assert_int_equal(c.placement_pairs, 20);
    assert_int_equal(c.runner, LD_RUN_LOCAL);
    assert_int_equal(c.n_allowed, 0);
    assert_int_equal(c.n_hosts, 0);
    assert_int_equal(c.host_wait_s, 60);
    ld_limits l;
    ld_limits_default(&l);
    assert_int_equal(c.archive.files, l.files);
    assert_int_equal(c.archive.unpacked_bytes, l.unpacked_bytes);
}

static void mistakes_are_one_line_naming_file_line_and_key(void **state)
{
    (void)state;
    static const char base[] = "[ladder]\ndb = a.db\nstate = s.db\nstore = bots\nvariants = classical\nboards = 3x3\n";
    const char *cases[][2] = {
        { "placement_pairs = 0\n", "L.ini:7: [ladder] placement_pairs: '0': expected a whole number from 1 to 10000" },
        { "runner = cloud\n", "L.ini:7: [ladder] runner: 'cloud': expected local, host or slurm" },
        { "listen = localhost:80\n", "L.ini:7: [ladder] listen: 'localhost:80': expected an IPv4 address" },
        { "approval = maybe\n", "L.ini:7: [ladder] approval: 'maybe': expected on or off" },
        { "admins = alice\n", "L.ini:7: [ladder] admins: no longer makes admins (a sign-up under the name could" },
        { "[admins]\nal ice = $argon2id$x\n", "L.ini:8: [admins] al ice: 'al ice': not an account name" },
        { "[admins]\nalice = secret\n", "L.ini:8: [admins] alice: 'secret': expected the hash of its password" },
        { "[quota] # per account\ngames_per_day = 1 ; a day\nx = 1\n", "L.ini:9: [quota] x: unknown key" },
        { "allowed_dirs = bots\n", "L.ini:7: [ladder] allowed_dirs: 'bots': expected an absolute directory path" },
        { "colour = red\n", "L.ini:7: [ladder] colour: unknown key" },
        { "db = b.db\n", "L.ini:7: [ladder] db: repeated (the first is at line 2)" },
        { "[quota]\ngames_per_day = -1\n", "L.ini:8: [quota] games_per_day: '-1': expected a whole number" },
        { "[archive]\nmax_files = lots\n", "L.ini:8: [archive] max_files: 'lots'" },
        { "[extra]\nx = 1\n", "L.ini:8: [extra] x: unknown section" },
        { "runner = host\n", "L.ini: [ladder] listen_league: missing for runner = host" },
        { "runner = host\nlisten_league = tcp://0.0.0.0:5555\nserver_key = k.key\n",
          "L.ini: [ladder] host_keys: missing for runner = host (the public key files of the hosts" },
        { "host_keys = a#b.pub\n", "L.ini:7: [ladder] host_keys: 'a#b.pub': expected the path of a host's .pub" },
        { "host_wait_s = -1\n", "L.ini:7: [ladder] host_wait_s: '-1': expected a whole number from 0 to 86400" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024], err[1024];
        snprintf(text, sizeof text, "%s%s", base, cases[i][0]);
        ld_config c;
        assert_int_equal(ld_config_parse(text, strlen(text), "L.ini", &c, err, sizeof err), -1);
        if (strncmp(err, cases[i][1], strlen(cases[i][1])) != 0)
            fail_msg("case %zu: expected '%s' in: %s", i, cases[i][1], err);
        assert_null(strchr(err, '\n'));
    }
    ld_config c;
    char err[1024];
    static const char nostate[] = "[ladder]\ndb = a.db\nstore = b\nvariants = all\nboards = 3x3\n";
    assert_int_equal(ld_config_parse(nostate, strlen(nostate), "L.ini", &c, err, sizeof err), -1);
    assert_string_equal(err, "L.ini: [ladder] state: missing (required: db, state, store, variants, boards)");
    static const char early[] = "db = a.db\n";
    assert_int_equal(ld_config_parse(early, strlen(early), "L.ini", &c, err, sizeof err), -1);
    assert_string_equal(err, "L.ini:1: db: a key before any section (expected [ladder] first)");
    assert_int_equal(ld_config_load("/nonexistent/LADDER.ini", &c, err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/LADDER.ini: cannot open"));
}

/* A '#' or ';' after a space ends a value, as in a league config; inside a word it is part of it; headers take them. */
static void comments_after_values_and_headers(void **state)
{
    (void)state;
    static const char text[] = "[ladder]   # the ladder\ndb = a.db   # results\nstate = s.db ; its own\n"
                               "store = bots#1\nvariants = classical\t# one\nboards = 3x3\n"
                               "listen = 127.0.0.1:18090   # loopback\n[quota]  ; per account\ngames_per_day = 9 # a day\n";
    ld_config c;
    char err[1024];
    if (ld_config_parse(text, strlen(text), "L.ini", &c, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_string_equal(c.db, "a.db");
    assert_string_equal(c.state, "s.db");
    assert_string_equal(c.store, "bots#1");
    assert_int_equal(c.listen_port, 18090);
    assert_int_equal(c.games_per_day, 9);
}

/* Keys of a runner the ladder does not use are read and said to do nothing; with their runner, nothing is said. */
static void keys_of_another_runner_are_warned_about(void **state)
{
    (void)state;
    static const char text[] = "[ladder]\ndb = a.db\nstate = s.db\nstore = b\nvariants = classical\nboards = 3x3\n"
                               "slurm_shards = 8\nhost_keys = /k/a.pub\nrunner = local\n";
    ld_config c;
    char err[1024];
    assert_int_equal(ld_config_parse(text, strlen(text), "L.ini", &c, err, sizeof err), 0);
    assert_int_equal(c.n_warnings, 2);
    assert_string_equal(c.warnings[0], "L.ini:7: [ladder] slurm_shards: ignored with runner = local (it is for runner = "
                                       "slurm)");
    assert_non_null(strstr(c.warnings[1], "L.ini:8: [ladder] host_keys: ignored with runner = local"));
    static const char slurm[] = "[ladder]\ndb = a.db\nstate = s.db\nstore = b\nvariants = classical\nboards = 3x3\n"
                                "slurm_shards = 8\nrunner = slurm\n";
    assert_int_equal(ld_config_parse(slurm, strlen(slurm), "L.ini", &c, err, sizeof err), 0);
    assert_int_equal(c.n_warnings, 0);
}

/* The LADDER.ini of docs/ladder.md, taken from its ```ini block, loads as written. */
static void the_docs_example_loads_as_written(void **state)
{
    (void)state;
    FILE *f = fopen("docs/ladder.md", "r");
    assert_non_null(f);
    static char text[16384];
    size_t n = 0;
    bool in = false, done = false;
    char line[1024];
    while (!done && fgets(line, sizeof line, f)) {
        if (!in && strncmp(line, "```ini", 6) == 0)
            in = true;
        else if (in && strncmp(line, "```", 3) == 0)
            done = true;
        else if (in && n + strlen(line) < sizeof text)
            n += (size_t)snprintf(text + n, sizeof text - n, "%s", line);
    }
    fclose(f);
    assert_true(done && n > 500);
    ld_config c;
    char err[1024];
    if (ld_config_parse(text, n, "docs/ladder.md", &c, err, sizeof err) != 0)
        fail_msg("docs/ladder.md's LADDER.ini: %s", err);
    assert_string_equal(c.state, "/srv/ladder/state.db");
    assert_int_equal(c.n_admins, 1);
    assert_int_equal(c.runner, LD_RUN_LOCAL);
    assert_int_equal(c.n_warnings, 2); /* its slurm and host keys, with runner = local */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(comments_after_values_and_headers),
        cmocka_unit_test(keys_of_another_runner_are_warned_about),
        cmocka_unit_test(the_docs_example_loads_as_written),
        cmocka_unit_test(every_key_is_read),
        cmocka_unit_test(left_out_keys_take_their_defaults),
        cmocka_unit_test(mistakes_are_one_line_naming_file_line_and_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
