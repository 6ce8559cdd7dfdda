/* ckernel/ckernel.h: the umbrella header; includes every public header. */
#ifndef CKERNEL_CKERNEL_H
#define CKERNEL_CKERNEL_H

#include "ckernel/export.h"
#include "ckernel/version.h"
#include "ckernel/status.h"
#include "ckernel/alloc.h"
#include "ckernel/kernel.h"
#include "ckernel/builder.h"
#include "ckernel/types.h"
#include "ckernel/memblock.h"
#include "ckernel/arrmeta.h"
#include "ckernel/array.h"
#include "ckernel/config.h"
#include "ckernel/cpu.h"
#include "ckernel/eval.h"
#include "ckernel/assign.h"
#include "ckernel/parallel.h"
#include "ckernel/callable.h"
#include "ckernel/expr.h"
#include "ckernel/jit.h"

#endif
