/* tools/ckernel/cli.h: what the commands of the ckernel program share. */
#ifndef CKERNEL_CLI_H
#define CKERNEL_CLI_H

#include "ckernel/ckernel.h"

/* Exit statuses: success, ckernel reported an error, usage error. */
enum { CLI_OK = 0, CLI_ERROR = 1, CLI_USAGE = 2 };
/* Not an exit status: the arguments were parsed and the command should run. */
enum { CLI_PARSED = -1 };

typedef struct cli_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
} cli_command;

/* Prints "ckernel: usage error: <msg>" and the hint to --help; returns CLI_USAGE. */
int cli_usage_error(const char *command, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Prints "ckernel: error: CK_ERR_X: <details>" for a failed ckernel call; returns CLI_ERROR.
 * A refusal by the program's default allocation limit adds a line on how to change it. */
int cli_report(int status);
/* Where the allocation limit in effect comes from: "this machine's physical memory;
 * CKERNEL_ALLOC_LIMIT is not set", "CKERNEL_ALLOC_LIMIT", "CKERNEL_ALLOC_LIMIT=off", ... */
const char *cli_alloc_limit_origin(void);

/* Prints a command's help, each "{targets}" in it replaced by this architecture's CPU target
 * names ("baseline|avx2|avx512"). */
void cli_print_help(const char *help);

/* Options every kernel-building command takes. */
typedef struct cli_common {
    ck_eval_ctx ctx;
    ck_cpu_target target;
    int has_target;
} cli_common;

/* Matches argv[*i] against "--name VALUE" / "--name=VALUE": returns 1 when it is that option
 * (advancing *i past a separate value; *value NULL when the value is missing), else 0. */
int cli_option_value(int argc, char **argv, int *i, const char *name, const char **value);
/* --errmode MODE, --target T, --jit and --no-jit (CK_EVAL_JIT / CK_EVAL_NO_JIT): returns 1
 * when argv[*i] was one of them, with *status CLI_OK or the usage error already reported. */
int cli_common_option(const char *command, int argc, char **argv, int *i, cli_common *c,
                      int *status);
/* The options of the callable commands (call, eval, reduce, accumulate and their explains)
 * beyond cli_common_option's: --allow-unsafe, --unaligned (`explain` only: sources and
 * destination read as unaligned) and --out DST. Returns 1 when argv[*i] was one of them or
 * a common option, with *status CLI_OK or the usage error already reported. */
int cli_callable_option(const char *command, int argc, char **argv, int *i, int explain,
                        cli_common *c, const char **out, int *status);
/* The arguments of a kernel-building command: --help (prints `help`), --errmode, --target,
 * --unaligned (when allowed), exactly `nargs` positionals into args (`missing` names them in
 * the usage error). Applies --target. Returns CLI_PARSED to go on, else the exit status. */
int cli_parse_kernel_command(const char *command, const char *help, int argc, char **argv,
                             cli_common *c, int allow_unaligned, const char **args, int nargs,
                             const char *missing);
/* Applies --target (caps the CPU target) and checks CKERNEL_CPU_TARGET: CLI_OK or reported. */
int cli_apply_target(const cli_common *c);
/* Parses a datashape, reporting failure; returns CLI_OK or CLI_ERROR. */
int cli_parse_type(const char *text, ck_type **out);
/* Arrmeta for t in C order (ck_calloc'd, 1 byte when t has none; *out NULL when that fails);
 * var dims and pointers refer to `arena`. Returns a status: CK_ERR_NOMEM with ck_calloc's
 * message (the request, or the allocation limit), else ck_arrmeta_default_construct's. */
int cli_make_arrmeta(const ck_type *t, ck_memblock *arena, char **out);

/* Prints a described kernel tree, its size and where the builder holds it, and with
 * CK_EVAL_JIT in ctx what the JIT decided (the tail of every explain). */
void cli_print_tree(const char *text, size_t size, const ck_builder *b, const ck_eval_ctx *ctx);

int cmd_info(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_assign(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_callables(int argc, char **argv);
int cmd_call(int argc, char **argv);
/* `explain --call ...`: the kernel of a call (cmd_explain hands over when it sees --call). */
int cmd_explain_call(int argc, char **argv);
int cmd_eval(int argc, char **argv);
/* `explain --eval ...`: the kernel of an expression (cmd_explain hands over). */
int cmd_explain_eval(int argc, char **argv);
int cmd_reduce(int argc, char **argv);
int cmd_accumulate(int argc, char **argv);
/* `explain --reduce ...` / `explain --accumulate ...`: the kernel of a reduction or an
 * accumulation (cmd_explain hands over). */
int cmd_explain_reduce(int argc, char **argv);

#endif
