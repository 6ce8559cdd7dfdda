/* bench/baselines_time.c: the plain C loops of the datetime text workloads
 * (text/cast/datetime64[s]->U32 and back), written as a C programmer would with the C
 * library: gmtime_r and snprintf for the text of seconds since 1970, sscanf and a day count
 * by the month table for reading it; the text is NumPy's ("2026-11-25T20:31:42") in a U32
 * value (UTF-32, NUL-padded). Compiled as baselines.c is (no -march flags, noinline). */
#define _POSIX_C_SOURCE 200809L /* gmtime_r */
/* A 64-bit time_t on 32-bit hosts too (glibc 2.34 and later): the years 1800 to 2200 do not
 * fit 32 bits of seconds. */
#define _FILE_OFFSET_BITS 64
#define _TIME_BITS 64
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "baselines.h"

#define CKB_NOINLINE __attribute__((noinline))

CKB_NOINLINE int ckb_loop_datetime_s_u32(uint32_t *out, size_t units, const int64_t *src,
                                         size_t n) {
    char buf[64];
    for (size_t i = 0; i < n; i++) {
        const time_t t = (time_t)src[i];
        struct tm tm;
        if (gmtime_r(&t, &tm) == NULL) {
            return 1;
        }
        const int len = snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d",
                                 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                                 tm.tm_min, tm.tm_sec);
        if (len < 0 || (size_t)len > units) {
            return 1;
        }
        uint32_t *o = out + i * units;
        for (int k = 0; k < len; k++) {
            o[k] = (unsigned char)buf[k];
        }
        for (size_t k = (size_t)len; k < units; k++) {
            o[k] = 0;
        }
    }
    return 0;
}

static int is_leap(long y) {
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

CKB_NOINLINE int ckb_loop_u32_datetime_s(int64_t *out, const uint32_t *src, size_t units,
                                         size_t n) {
    static const int before[12] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
    char buf[64];
    for (size_t i = 0; i < n; i++) {
        const uint32_t *u = src + i * units;
        size_t len = 0;
        for (; len < units && u[len] != 0; len++) {
            if (len + 1 >= sizeof buf || u[len] > 0x7f) {
                return 1;
            }
            buf[len] = (char)u[len];
        }
        buf[len] = '\0';
        int y, mo, d, h, mi, s, used = 0;
        if (sscanf(buf, "%d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &s, &used) != 6 ||
            (size_t)used != len || mo < 1 || mo > 12) {
            return 1;
        }
        /* days since 1970-01-01 of a year after 1 BC: whole years, then the month table */
        const long py = y - 1L;
        long days = 365L * py + py / 4 - py / 100 + py / 400 - 719162L;
        days += before[mo - 1] + (mo > 2 && is_leap(y)) + d - 1;
        out[i] = ((int64_t)days * 24 + h) * 3600 + mi * 60 + s;
    }
    return 0;
}
