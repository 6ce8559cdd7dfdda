/* src/values/datetime.c: the values of datetime64[unit] and timedelta64[unit]: the proleptic
 * Gregorian calendar (days from a civil date and back, over every int64 day without
 * overflow), conversion between units (floored to coarser units, overflow-checked to finer
 * ones, as NumPy's astype), and ISO 8601 text at a unit's precision (datetime.h). */
#include "values/datetime.h"

#include <string.h>

#include "ckernel/status.h"

static const char *const ck__units[CK_NUM_DATETIME_UNITS] = {"Y", "M",  "W",  "D",  "h",
                                                             "m", "s", "ms", "us", "ns"};

/* Nanoseconds in one of each fixed unit (0: Y and M have no fixed length). */
static const int64_t ck__unit_ns[CK_NUM_DATETIME_UNITS] = {
    0, 0, INT64_C(604800000000000), INT64_C(86400000000000), INT64_C(3600000000000),
    INT64_C(60000000000), INT64_C(1000000000), INT64_C(1000000), INT64_C(1000), 1};

/* The largest |year| of a civil date: its days since 1970 (about 365.2425 a year) stay
 * well inside int64, so the calendar's sums never overflow. */
#define CK__MAX_YEAR INT64_C(25000000000000000)

const char *ck__unit_name(int unit) {
    return unit >= 0 && unit < CK_NUM_DATETIME_UNITS ? ck__units[unit] : NULL;
}

/* a / b rounded toward negative infinity, and the remainder that goes with it (b > 0). */
static int64_t floor_div(int64_t a, int64_t b, int64_t *rem) {
    int64_t q = a / b, r = a % b;
    if (r < 0) {
        q--;
        r += b;
    }
    if (rem != NULL) {
        *rem = r;
    }
    return q;
}

/* v * k, with CK__TIME_OVERFLOW when it leaves int64 or lands on NaT (the product modulo
 * 2^64 in *out either way). */
static int mul_checked(int64_t v, int64_t k, int64_t *out) {
    const int ovf = __builtin_mul_overflow(v, k, out);
    return ovf || *out == CK_DATETIME_NAT ? CK__TIME_OVERFLOW : CK__TIME_OK;
}

/* Days from 1970-01-01 to y-m-d (Hinnant's days_from_civil, in 400-year eras of 146097
 * days, the year starting in March so that the leap day ends it); |y| <= CK__MAX_YEAR. */
static int64_t days_from_civil(int64_t y, int m, int d) {
    y -= m <= 2;
    int64_t yoe;
    const int64_t era = floor_div(y, 400, &yoe);
    const int64_t doy = (153 * ((m + 9) % 12) + 2) / 5 + d - 1;
    const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* The civil date of day z since 1970-01-01, for every int64 z (the era is split off first,
 * so nothing overflows), plus `eras` more 400-year eras. */
static void civil_from_days(int64_t z, int64_t eras, int64_t *y, int *m, int *d) {
    int64_t doe;
    int64_t era = floor_div(z, 146097, &doe);
    doe += 719468; /* from 0000-03-01 */
    era += doe / 146097 + eras;
    doe %= 146097;
    const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const int64_t mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

static int is_leap(int64_t y) {
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int days_in_month(int64_t y, int m) {
    static const int dim[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && is_leap(y) ? 29 : dim[m - 1];
}

/* v between two fixed units. */
static int fixed_convert(int64_t v, int su, int du, int64_t *out) {
    if (ck__unit_ns[su] >= ck__unit_ns[du]) {
        return mul_checked(v, ck__unit_ns[su] / ck__unit_ns[du], out);
    }
    *out = floor_div(v, ck__unit_ns[du] / ck__unit_ns[su], NULL);
    return CK__TIME_OK;
}

int ck__time_convert(int64_t v, int su, int du, int is_delta, int64_t *out) {
    if (v == CK_DATETIME_NAT || su == du) {
        *out = v;
        return CK__TIME_OK;
    }
    if (ck__unit_is_calendar(su) && ck__unit_is_calendar(du)) {
        if (su == CK_UNIT_Y) {
            return mul_checked(v, 12, out);
        }
        *out = floor_div(v, 12, NULL);
        return CK__TIME_OK;
    }
    if (!ck__unit_is_calendar(su) && !ck__unit_is_calendar(du)) {
        return fixed_convert(v, su, du, out);
    }
    if (is_delta) {
        *out = CK_DATETIME_NAT; /* refused when the kernel is built */
        return CK__TIME_OVERFLOW;
    }
    /* A datetime through the calendar: to days (floored), then to the unit. */
    int64_t days;
    if (ck__unit_is_calendar(su)) {
        int64_t month = 0;
        const int64_t years = su == CK_UNIT_Y ? v : floor_div(v, 12, &month);
        if (years > CK__MAX_YEAR - 1970 || years < -CK__MAX_YEAR - 1970) {
            *out = CK_DATETIME_NAT;
            return CK__TIME_OVERFLOW;
        }
        days = days_from_civil(1970 + years, (int)month + 1, 1);
        return fixed_convert(days, CK_UNIT_D, du, out);
    }
    if (su == CK_UNIT_W) { /* whole 400-year eras are 20871 weeks: no overflow */
        int64_t weeks;
        const int64_t eras = floor_div(v, 20871, &weeks);
        int64_t y;
        int m, d;
        civil_from_days(weeks * 7, eras, &y, &m, &d);
        *out = du == CK_UNIT_Y ? y - 1970 : (y - 1970) * 12 + m - 1;
        return CK__TIME_OK;
    }
    fixed_convert(v, su, CK_UNIT_D, &days); /* floored: cannot overflow */
    int64_t y;
    int m, d;
    civil_from_days(days, 0, &y, &m, &d);
    *out = du == CK_UNIT_Y ? y - 1970 : (y - 1970) * 12 + m - 1;
    return CK__TIME_OK;
}

/* ---- text ---- */

/* "00" .. "99": two digits per step (the text cast writes millions of these). */
static const char ck__digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

static char *put2(char *p, unsigned v) {
    memcpy(p, ck__digit_pairs + 2 * v, 2);
    return p + 2;
}

/* The decimal digits of v, at least `width` of them (zeros in front). */
static char *put_uint(char *p, uint64_t v, int width) {
    char tmp[20];
    int n = 0;
    while (v >= 100) {
        memcpy(tmp + sizeof tmp - (n += 2), ck__digit_pairs + 2 * (v % 100), 2);
        v /= 100;
    }
    if (v >= 10) {
        memcpy(tmp + sizeof tmp - (n += 2), ck__digit_pairs + 2 * v, 2);
    } else {
        tmp[sizeof tmp - ++n] = (char)('0' + v);
    }
    for (; n < width; width--) {
        *p++ = '0';
    }
    memcpy(p, tmp + sizeof tmp - n, (size_t)n);
    return p + n;
}

/* The year as NumPy writes it: at least four places, the sign inside them ("-001", "0099",
 * "10000"). y is a year of the calendar or of Y's range (Y's v + 1970 may pass INT64_MAX:
 * the caller gives it as unsigned). */
static char *put_year(char *p, int64_t y) {
    if (y < 0) {
        *p++ = '-';
        return put_uint(p, 0 - (uint64_t)y, 3);
    }
    return put_uint(p, (uint64_t)y, 4);
}

/* Hours, minutes, seconds and the fraction of `rest` units into a day, as far as the unit
 * goes ("T20", "T20:31", "T20:31:42.500"). */
static char *put_time(char *p, int64_t rest, int unit) {
    const int64_t per_s = unit >= CK_UNIT_s ? ck__unit_ns[CK_UNIT_s] / ck__unit_ns[unit] : 0;
    const int64_t secs = unit >= CK_UNIT_s ? rest / per_s
                                           : rest * (ck__unit_ns[unit] / ck__unit_ns[CK_UNIT_s]);
    *p++ = 'T';
    p = put2(p, (unsigned)(secs / 3600));
    if (unit >= CK_UNIT_m) {
        *p++ = ':';
        p = put2(p, (unsigned)(secs / 60 % 60));
    }
    if (unit >= CK_UNIT_s) {
        *p++ = ':';
        p = put2(p, (unsigned)(secs % 60));
    }
    if (unit > CK_UNIT_s) {
        *p++ = '.';
        p = put_uint(p, (uint64_t)(rest % per_s), 3 * (unit - CK_UNIT_s));
    }
    return p;
}

size_t ck__time_format(int64_t v, int unit, int is_delta, char *buf) {
    char *p = buf;
    if (v == CK_DATETIME_NAT) {
        memcpy(buf, "NaT", 4);
        return 3;
    }
    if (is_delta) {
        if (v < 0) {
            *p++ = '-';
        }
        p = put_uint(p, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, 1);
    } else if (unit == CK_UNIT_Y) {
        /* v + 1970 beyond INT64_MAX is a positive year: its digits from the unsigned sum */
        p = v > INT64_MAX - 1970 ? put_uint(p, (uint64_t)v + 1970u, 4) : put_year(p, v + 1970);
    } else if (unit == CK_UNIT_M) {
        int64_t month;
        const int64_t years = floor_div(v, 12, &month);
        p = put_year(p, years + 1970);
        *p++ = '-';
        p = put2(p, (unsigned)month + 1);
    } else {
        int64_t y, rest = 0;
        int m, d;
        if (unit == CK_UNIT_W) {
            int64_t weeks;
            const int64_t eras = floor_div(v, 20871, &weeks);
            civil_from_days(weeks * 7, eras, &y, &m, &d);
        } else {
            const int64_t days = floor_div(v, ck__unit_ns[CK_UNIT_D] / ck__unit_ns[unit], &rest);
            civil_from_days(days, 0, &y, &m, &d);
        }
        p = put_year(p, y);
        *p++ = '-';
        p = put2(p, (unsigned)m);
        *p++ = '-';
        p = put2(p, (unsigned)d);
        if (unit > CK_UNIT_D) {
            p = put_time(p, rest, unit);
        }
    }
    *p = '\0';
    return (size_t)(p - buf);
}

static int is_digit(char c) {
    return c >= '0' && c <= '9';
}

/* Exactly two digits at s[*i] (in s[0..n)), into *v; 0 when not there. */
static int two_digits(const char *s, size_t n, size_t *i, int *v) {
    if (*i + 2 > n || !is_digit(s[*i]) || !is_digit(s[*i + 1])) {
        return 0;
    }
    *v = (s[*i] - '0') * 10 + (s[*i + 1] - '0');
    *i += 2;
    return 1;
}

static int parse_delta(const char *s, size_t n, int64_t *out, const char **why) {
    size_t i = s[0] == '+' || s[0] == '-';
    const int neg = s[0] == '-';
    if (i == n) {
        *why = "a timedelta is an integer count of its unit or NaT";
        return CK_ERR_TEXT;
    }
    uint64_t mag = 0;
    int big = 0;
    for (; i < n; i++) {
        if (!is_digit(s[i])) {
            *why = "a timedelta is an integer count of its unit or NaT";
            return CK_ERR_TEXT;
        }
        const unsigned dg = (unsigned)(s[i] - '0');
        big |= mag > (UINT64_MAX - dg) / 10;
        mag = mag * 10 + dg;
    }
    /* INT64_MIN is NaT: the range is symmetric */
    if (big || mag > (uint64_t)INT64_MAX) {
        return CK_ERR_OVERFLOW;
    }
    *out = neg ? -(int64_t)mag : (int64_t)mag;
    return CK_OK;
}

int ck__time_parse(const char *s, size_t n, int unit, int is_delta, int64_t *out,
                   const char **why) {
    *why = "";
    if (n == 0 || (n == 3 && (s[0] | 0x20) == 'n' && (s[1] | 0x20) == 'a' &&
                   (s[2] | 0x20) == 't')) {
        *out = CK_DATETIME_NAT; /* NumPy reads empty text as NaT too */
        return CK_OK;
    }
    if (is_delta) {
        return parse_delta(s, n, out, why);
    }
    size_t i = s[0] == '+' || s[0] == '-';
    const int neg = s[0] == '-';
    int64_t year = 0;
    int big = 0;
    const size_t year_at = i;
    for (; i < n && is_digit(s[i]); i++) {
        big |= year > CK__MAX_YEAR / 10;
        year = big ? year : year * 10 + (s[i] - '0');
    }
    if (i == year_at) {
        *why = "a datetime starts with its year";
        return CK_ERR_TEXT;
    }
    big |= year > CK__MAX_YEAR;
    year = neg ? -year : year;
    int month = 1, day = 1, hour = 0, minute = 0, second = 0, time = 0;
    int64_t frac_ns = 0; /* the fraction of a second, to nanoseconds (more digits: floored) */
    if (i < n) {
        if (s[i++] != '-' || !two_digits(s, n, &i, &month)) {
            *why = "the year is followed by '-' and a two-digit month";
            return CK_ERR_TEXT;
        }
    }
    if (i < n) {
        if (s[i++] != '-' || !two_digits(s, n, &i, &day)) {
            *why = "the month is followed by '-' and a two-digit day";
            return CK_ERR_TEXT;
        }
    }
    if (i < n) {
        time = 1;
        if ((s[i] != 'T' && s[i] != ' ') || (i++, !two_digits(s, n, &i, &hour))) {
            *why = "the date is followed by 'T' (or a space) and a two-digit hour";
            return CK_ERR_TEXT;
        }
    }
    if (i < n && s[i] != 'Z') {
        if (s[i++] != ':' || !two_digits(s, n, &i, &minute)) {
            *why = "the hour is followed by ':' and two-digit minutes";
            return CK_ERR_TEXT;
        }
        if (i < n && s[i] != 'Z') {
            if (s[i++] != ':' || !two_digits(s, n, &i, &second)) {
                *why = "the minutes are followed by ':' and two-digit seconds";
                return CK_ERR_TEXT;
            }
            if (i < n && s[i] == '.') {
                int64_t scale = INT64_C(100000000);
                for (i++; i < n && is_digit(s[i]); i++, scale /= 10) {
                    frac_ns += (s[i] - '0') * scale;
                }
            }
        }
    }
    if (i < n && time && s[i] == 'Z') {
        i++; /* UTC, which every datetime is */
    }
    if (i < n) {
        *why = time ? "the time ends with its seconds' fraction or 'Z' (no other offsets)"
                    : "unexpected text after the date";
        return CK_ERR_TEXT;
    }
    if (month < 1 || month > 12) {
        *why = "the month is out of range (01 to 12)";
        return CK_ERR_TEXT;
    }
    if (day < 1 || (!big && day > days_in_month(year, month))) {
        *why = "the day is out of range for its month";
        return CK_ERR_TEXT;
    }
    if (hour > 23 || minute > 59 || second > 59) {
        *why = hour > 23 ? "the hour is out of range (00 to 23)"
               : minute > 59 ? "the minutes are out of range (00 to 59)"
                             : "the seconds are out of range (00 to 59; no leap seconds)";
        return CK_ERR_TEXT;
    }
    if (big) {
        return CK_ERR_OVERFLOW;
    }
    if (unit == CK_UNIT_Y || unit == CK_UNIT_M) {
        *out = unit == CK_UNIT_Y ? year - 1970 : (year - 1970) * 12 + month - 1;
        return CK_OK;
    }
    const int64_t days = days_from_civil(year, month, day);
    if (unit == CK_UNIT_W || unit == CK_UNIT_D) {
        *out = unit == CK_UNIT_D ? days : floor_div(days, 7, NULL);
        return CK_OK;
    }
    const int64_t in_day = ((hour * INT64_C(60) + minute) * 60 + second) * INT64_C(1000000000) +
                           frac_ns;
    /* Before 1970 the day's start can be out of range where the time is not (the first
     * nanosecond is 1677-09-21T00:12:43.145224193): count from the next day's start back. */
    const int64_t per_day = ck__unit_ns[CK_UNIT_D] / ck__unit_ns[unit];
    const int back = days < 0;
    int64_t v;
    if (mul_checked(days + back, per_day, &v) != CK__TIME_OK ||
        __builtin_add_overflow(v, in_day / ck__unit_ns[unit] - back * per_day, &v) ||
        v == CK_DATETIME_NAT) {
        return CK_ERR_OVERFLOW;
    }
    *out = v;
    return CK_OK;
}
