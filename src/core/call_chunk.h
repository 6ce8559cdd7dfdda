/* src/core/call_chunk.h: how many elements a call's argument kernel (kinds/dims/call_args.c)
 * converts at a time for its leaf: the kernel converts into stack scratch, and a leaf that
 * folds (leaves/reduce) shapes its trees by the same chunks, so both read the rule here. */
#ifndef CKERNEL_CORE_CALL_CHUNK_H
#define CKERNEL_CORE_CALL_CHUNK_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* call_args: converted arguments in CK__CALL_SCRATCH bytes of stack, chunks of at most
 * CK__CALL_MAX_CHUNK elements. */
#define CK__CALL_SCRATCH 8192
#define CK__CALL_MAX_CHUNK 1024
/* Elements per chunk of call_args for nargs arguments of `per` bytes per element in all:
 * each scratch area is rounded up to 8 bytes (room left for that), and whole vectors of 16
 * per chunk, so that a leaf's vector loop has no tail but the last. A float fold behind a
 * cast is a tree per such chunk, which the widening leaves keep. */
static inline size_t ck__call_args_chunk(size_t nargs, size_t per) {
    size_t chunk = (CK__CALL_SCRATCH - 8 * (nargs + 1)) / (per != 0 ? per : 1);
    chunk = chunk < CK__CALL_MAX_CHUNK ? chunk : CK__CALL_MAX_CHUNK;
    return chunk >= 16 ? chunk & ~(size_t)15 : chunk;
}

#ifdef __cplusplus
}
#endif

#endif
