/* arena/cli/commands.h — entry points of the arena subcommands (argv[0] is the subcommand's name).
 * Each returns the process exit status. */
#ifndef ARENA_CLI_COMMANDS_H
#define ARENA_CLI_COMMANDS_H

int cmd_replay(int argc, char **argv);
int cmd_tree(int argc, char **argv);
int cmd_random(int argc, char **argv);
int cmd_match(int argc, char **argv);
int cmd_league(int argc, char **argv);
int cmd_games(int argc, char **argv);
int cmd_ratings(int argc, char **argv);
int cmd_matrix(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_ladder(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_host(int argc, char **argv);
int cmd_exploit(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_keygen(int argc, char **argv);
int cmd_payoff(int argc, char **argv);
int cmd_pone(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_classify(int argc, char **argv);

#endif
