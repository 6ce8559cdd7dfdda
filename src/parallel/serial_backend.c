/* src/parallel/serial_backend.c: the backend when ckernel is built without oneTBB
 * (CK_WITH_TBB=OFF). Same API and results; everything runs on the calling thread, so
 * ck_get_num_threads() is 1 and the front end never plans a parallel job. A job that reaches
 * it anyway (it cannot, today) runs as one call. */
#include "ckernel/eval.h"
#include "common/internal.h"
#include "parallel/parallel_internal.h"

int ck__par_backend_run(const ck__par_job *job) {
    const ck__fp_env env = ck__par_fpenv_enter(job->fp_mode);
    const int rc = ck__par_run_piece(job, 0, job->count);
    ck__par_fpenv_leave(env);
    return ck__par_serial_status(rc);
}

int ck__par_backend_cancelled(void) {
    return 0; /* one call, on one thread: nothing else can have failed */
}

int ck__par_backend_hardware_threads(void) {
    return 1;
}

int ck__par_backend_is_parallel(void) {
    return 0;
}

const char *ck__par_backend_name(void) {
    return "serial";
}
