/* tools/ckernel/cli.h: what the commands of the ckernel program share. */
#ifndef CKERNEL_CLI_H
#define CKERNEL_CLI_H

/* Exit statuses: success, ckernel reported an error, usage error. */
enum { CLI_OK = 0, CLI_ERROR = 1, CLI_USAGE = 2 };

typedef struct cli_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
} cli_command;

/* Prints "ckernel: usage error: <msg>" and the hint to --help; returns CLI_USAGE. */
int cli_usage_error(const char *command, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Prints "ckernel: error: CK_ERR_X: <details>" for a failed ckernel call; returns CLI_ERROR. */
int cli_report(int status);

int cmd_info(int argc, char **argv);

#endif
