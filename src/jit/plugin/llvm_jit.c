/* src/jit/plugin/llvm_jit.c: libckernel-jit, the JIT plugin (src/jit/jit_plugin.h): loop
 * nests generated as LLVM IR, optimised with the O3 pipeline for the host CPU, compiled to an
 * object file by a target machine no other compile is using, and linked into one ORC
 * LLJIT under a short lock. Each compile's code lives in its own resource tracker, removed
 * by release.
 *
 * Safety in a host: IR is verified before it is compiled (a failure is an error message,
 * never an abort); LLVM's command line and fatal-error handlers are never touched (the host
 * may have loaded the same libLLVM, e.g. through Mesa). Each compile has its own LLVM
 * context, so compiles run in parallel; only adding objects, looking up and removing code
 * take the lock.
 *
 * This file holds the plugin's LLVM state (the LLJIT, the host target, the pool of target
 * machines), its load, the compile of a nest (validated by llvm_jit_check.c, emitted by
 * llvm_jit_emit.c) into linked code, its release, and the exported table. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <llvm/Config/llvm-config.h>

#include "jit/jit_plugin.h"
#include "jit/plugin/llvm_jit_internal.h"

#if defined(__GNUC__) || defined(__clang__)
#  define CK__PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#  define CK__PLUGIN_EXPORT
#endif

static LLVMOrcLLJITRef jit;
static LLVMOrcJITDylibRef main_dylib;
static pthread_mutex_t jit_lock = PTHREAD_MUTEX_INITIALIZER;
char *ck__llvm_triple, *ck__llvm_host_cpu, *ck__llvm_host_features;
static atomic_ulong compiles;

/* Idle target machines. A target machine is not safe for two compiles at once, but one
 * compile after another may reuse it, and with it the subtarget it built for the host CPU
 * (its lowering tables), which a new one builds again. A compile takes one from here or
 * creates one, and puts it back after; beyond CK__IDLE_TMS idle ones they are disposed.
 * The ones kept live as long as the plugin, as the LLJIT does. */
enum { CK__IDLE_TMS = 4 };
static pthread_mutex_t tm_lock = PTHREAD_MUTEX_INITIALIZER;
static LLVMTargetMachineRef idle_tms[CK__IDLE_TMS];
static int n_idle_tms;

static LLVMTargetMachineRef take_target_machine(LLVMTargetRef target) {
    LLVMTargetMachineRef tm = NULL;
    pthread_mutex_lock(&tm_lock);
    if (n_idle_tms > 0) {
        tm = idle_tms[--n_idle_tms];
    }
    pthread_mutex_unlock(&tm_lock);
    return tm != NULL ? tm
                      : LLVMCreateTargetMachine(target, ck__llvm_triple, ck__llvm_host_cpu,
                                                ck__llvm_host_features, LLVMCodeGenLevelAggressive,
                                                LLVMRelocDefault, LLVMCodeModelJITDefault);
}

static void give_back_target_machine(LLVMTargetMachineRef tm) {
    pthread_mutex_lock(&tm_lock);
    if (n_idle_tms < CK__IDLE_TMS) {
        idle_tms[n_idle_tms++] = tm;
        tm = NULL;
    }
    pthread_mutex_unlock(&tm_lock);
    if (tm != NULL) {
        LLVMDisposeTargetMachine(tm);
    }
}

void ck__llvm_put_error(char *err, size_t cap, const char *what, const char *detail) {
    if (err != NULL && cap > 0) {
        snprintf(err, cap, "%s%s%s", what, detail != NULL ? ": " : "",
                 detail != NULL ? detail : "");
    }
}

/* Consumes e: its message into err. */
static int fail_llvm_error(LLVMErrorRef e, char *err, size_t cap, const char *what) {
    char *msg = LLVMGetErrorMessage(e);
    ck__llvm_put_error(err, cap, what, msg);
    LLVMDisposeErrorMessage(msg);
    return -1;
}

/* LLVM builds lazy statics on first use (the timer groups and option registries of a pass
 * pipeline and of code generation) and publishes them through its own atomics, which
 * ThreadSanitizer cannot see (libLLVM is not instrumented). Running the pipeline once over an
 * empty module here, inside the plugin's one-time load (pthread_once), creates them before
 * any two threads compile, ordered for every later compile by that pthread_once. Nothing
 * depends on its result. */
static void warm_up(void) {
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef mod = LLVMModuleCreateWithNameInContext("ck_warm_up", ctx);
    LLVMTargetRef target;
    char *msg = NULL;
    if (LLVMGetTargetFromTriple(ck__llvm_triple, &target, &msg) == 0) {
        LLVMTargetMachineRef tm = take_target_machine(target); /* the first compile's */
        LLVMSetTarget(mod, ck__llvm_triple);
        LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
        LLVMErrorRef e = LLVMRunPasses(mod, "default<O3>", tm, opts);
        if (e != NULL) {
            LLVMConsumeError(e);
        }
        LLVMDisposePassBuilderOptions(opts);
        LLVMMemoryBufferRef obj = NULL;
        char *emsg = NULL;
        if (LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMObjectFile, &emsg, &obj) == 0) {
            LLVMDisposeMemoryBuffer(obj);
        }
        if (emsg != NULL) {
            LLVMDisposeMessage(emsg);
        }
        give_back_target_machine(tm);
    }
    if (msg != NULL) {
        LLVMDisposeMessage(msg);
    }
    LLVMDisposeModule(mod);
    LLVMContextDispose(ctx);
}

static int plugin_init(char *err, size_t cap) {
    if (LLVMInitializeNativeTarget() != 0 || LLVMInitializeNativeAsmPrinter() != 0) {
        ck__llvm_put_error(err, cap, "LLVM has no native target for this machine", NULL);
        return -1;
    }
    ck__llvm_triple = LLVMGetDefaultTargetTriple();
    ck__llvm_host_cpu = LLVMGetHostCPUName();
    ck__llvm_host_features = LLVMGetHostCPUFeatures();
    LLVMErrorRef e = LLVMOrcCreateLLJIT(&jit, LLVMOrcCreateLLJITBuilder());
    if (e != NULL) {
        return fail_llvm_error(e, err, cap, "cannot create the LLJIT");
    }
    main_dylib = LLVMOrcLLJITGetMainJITDylib(jit);
    /* Calls the optimiser may introduce (memcpy, memset, libm) resolve in the process. */
    LLVMOrcDefinitionGeneratorRef generator = NULL;
    e = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
        &generator, LLVMOrcLLJITGetGlobalPrefix(jit), NULL, NULL);
    if (e != NULL) {
        return fail_llvm_error(e, err, cap, "cannot search the process for symbols");
    }
    LLVMOrcJITDylibAddGenerator(main_dylib, generator);
    warm_up();
    return 0;
}

static const char *plugin_llvm_version(void) {
    return LLVM_VERSION_STRING;
}
static const char *plugin_cpu_name(void) {
    return ck__llvm_host_cpu != NULL ? ck__llvm_host_cpu : "";
}
static const char *plugin_cpu_features(void) {
    return ck__llvm_host_features != NULL ? ck__llvm_host_features : "";
}

/* ---- compile and link ---- */

typedef struct compiled_handle {
    LLVMOrcResourceTrackerRef rt;
} compiled_handle;

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int plugin_compile(const ck__jit_nest *nest, ck__jit_compiled *out, char *err,
                          size_t cap) {
    if (ck__llvm_check_nest(nest, err, cap) != 0) {
        return -1;
    }
    const double t0 = now_ms();
    const unsigned long id = atomic_fetch_add(&compiles, 1);
    char single_name[48], strided_name[48];
    snprintf(single_name, sizeof single_name, "ck_jit_%lu_single", id);
    snprintf(strided_name, sizeof strided_name, "ck_jit_%lu_strided", id);

    gen g;
    memset(&g, 0, sizeof g);
    g.nest = nest;
    g.leaf_runs = !ck__llvm_converts_itself(nest);
    g.ctx = LLVMContextCreate();
    g.mod = LLVMModuleCreateWithNameInContext("ckernel_jit", g.ctx);
    g.b = LLVMCreateBuilderInContext(g.ctx);
    g.i1 = LLVMInt1TypeInContext(g.ctx);
    g.i8 = LLVMInt8TypeInContext(g.ctx);
    g.i32 = LLVMInt32TypeInContext(g.ctx);
    g.i64 = LLVMInt64TypeInContext(g.ctx);
    g.i128 = LLVMInt128TypeInContext(g.ctx);
    g.ptr = LLVMPointerType(g.i8, 0);
    g.f32 = LLVMFloatTypeInContext(g.ctx);
    g.f64 = LLVMDoubleTypeInContext(g.ctx);

    int rc = -1;
    char *msg = NULL;
    LLVMTargetMachineRef tm = NULL;
    LLVMMemoryBufferRef obj = NULL;
    LLVMValueRef nest_fn = ck__llvm_emit_nest_fn(&g);
    if (nest_fn != NULL) {
        ck__llvm_add_target_attributes(&g, nest_fn);
        ck__llvm_emit_entry_points(&g, nest_fn, single_name, strided_name);
        if (LLVMVerifyModule(g.mod, LLVMReturnStatusAction, &msg) != 0) {
            ck__llvm_put_error(err, cap, "generated IR failed verification", msg);
        } else {
            LLVMTargetRef target;
            LLVMDisposeMessage(msg);
            msg = NULL;
            if (LLVMGetTargetFromTriple(ck__llvm_triple, &target, &msg) != 0) {
                ck__llvm_put_error(err, cap, "no target for the host triple", msg);
            } else {
                /* This compile's own target machine while it runs (take_target_machine). */
                tm = take_target_machine(target);
                LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
                char *dl = LLVMCopyStringRepOfTargetData(td);
                LLVMSetDataLayout(g.mod, dl);
                LLVMDisposeMessage(dl);
                LLVMDisposeTargetData(td);
                LLVMSetTarget(g.mod, ck__llvm_triple);
                LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
                LLVMPassBuilderOptionsSetLoopVectorization(opts, 1);
                LLVMPassBuilderOptionsSetSLPVectorization(opts, 1);
                LLVMPassBuilderOptionsSetLoopUnrolling(opts, 1);
                LLVMErrorRef e = LLVMRunPasses(g.mod, "default<O3>", tm, opts);
                LLVMDisposePassBuilderOptions(opts);
                if (e != NULL) {
                    fail_llvm_error(e, err, cap, "optimisation failed");
                } else if (LLVMTargetMachineEmitToMemoryBuffer(tm, g.mod, LLVMObjectFile, &msg,
                                                               &obj) != 0) {
                    ck__llvm_put_error(err, cap, "code generation failed", msg);
                } else {
                    rc = 0;
                }
            }
        }
    }
    if (msg != NULL) {
        LLVMDisposeMessage(msg);
    }
    if (tm != NULL) {
        give_back_target_machine(tm);
    }
    LLVMDisposeBuilder(g.b);
    LLVMDisposeModule(g.mod);
    LLVMContextDispose(g.ctx);
    if (rc != 0) {
        if (obj != NULL) {
            LLVMDisposeMemoryBuffer(obj);
        }
        return -1;
    }
    const size_t bytes = LLVMGetBufferSize(obj);

    compiled_handle *h = (compiled_handle *)calloc(1, sizeof *h);
    if (h == NULL) {
        LLVMDisposeMemoryBuffer(obj);
        ck__llvm_put_error(err, cap, "out of memory", NULL);
        return -1;
    }
    LLVMOrcExecutorAddress single_addr = 0, strided_addr = 0;
    pthread_mutex_lock(&jit_lock);
    h->rt = LLVMOrcJITDylibCreateResourceTracker(main_dylib);
    LLVMErrorRef e = LLVMOrcLLJITAddObjectFileWithRT(jit, h->rt, obj); /* takes obj */
    if (e == NULL) {
        e = LLVMOrcLLJITLookup(jit, &single_addr, single_name);
    }
    if (e == NULL) {
        e = LLVMOrcLLJITLookup(jit, &strided_addr, strided_name);
    }
    if (e != NULL) {
        LLVMErrorRef e2 = LLVMOrcResourceTrackerRemove(h->rt);
        if (e2 != NULL) {
            LLVMConsumeError(e2);
        }
        LLVMOrcReleaseResourceTracker(h->rt);
        pthread_mutex_unlock(&jit_lock);
        free(h);
        return fail_llvm_error(e, err, cap, "linking the compiled code failed");
    }
    pthread_mutex_unlock(&jit_lock);
    out->handle = h;
    memcpy(&out->single, &single_addr, sizeof out->single);
    memcpy(&out->strided, &strided_addr, sizeof out->strided);
    out->compile_ms = now_ms() - t0;
    out->code_bytes = bytes;
    out->inner_leaf = nest->op == CK__JIT_OP_ASSIGN && nest->arg_id[0] != nest->dst_id &&
                      !ck__llvm_converts_itself(nest);
    return 0;
}

static void plugin_release(void *handle) {
    compiled_handle *h = (compiled_handle *)handle;
    if (h == NULL) {
        return;
    }
    pthread_mutex_lock(&jit_lock);
    LLVMErrorRef e = LLVMOrcResourceTrackerRemove(h->rt);
    if (e != NULL) {
        LLVMConsumeError(e);
    }
    LLVMOrcReleaseResourceTracker(h->rt);
    /* Symbol names of removed code stay in the string pool until cleared. */
    LLVMOrcSymbolStringPoolClearDeadEntries(
        LLVMOrcExecutionSessionGetSymbolStringPool(LLVMOrcLLJITGetExecutionSession(jit)));
    pthread_mutex_unlock(&jit_lock);
    free(h);
}

static const ck__jit_plugin plugin = {
    CK__JIT_ABI_VERSION, plugin_init,    plugin_llvm_version, plugin_cpu_name,
    plugin_cpu_features, plugin_compile, plugin_release};

CK__PLUGIN_EXPORT const ck__jit_plugin *ck_jit_plugin_v1(void);
const ck__jit_plugin *ck_jit_plugin_v1(void) {
    return &plugin;
}
