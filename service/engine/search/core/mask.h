/* A set of cells inside the core, `mask`, at the build's width (SS_MASK_WORDS words of 64 bits, set by
   build_core.py): one word is a plain uint64_t, as the core always was; more words (two or eight, a power
   of two) are a vector of GCC's (`vector_size`), on which &, |, ^ and ~ act word by word as on one word. So the algorithms read the
   same at every width: those four operators stay operators, and everything else a set of cells needs
   (emptiness, equality, a cell's bit, the lowest cell, counts, shifts) is a function here, compiled to
   the same instructions as before at one word. The interface's ss_mask (sanmoku_search.h) is a plain
   struct of the same words for cffi: mask_in and mask_out convert at the entry points. */
#ifndef SS_MASK_H
#define SS_MASK_H

#include <stdint.h>
#include <string.h>

#include "sanmoku_search.h"

/* The empty set, and every cell of the width. */
#define NO_CELLS ((mask){0})
#define ALL_CELLS (~NO_CELLS)

#if SS_MASK_WORDS == 1

typedef uint64_t mask;

static inline mask mask_in(ss_mask m) { return m; }
static inline ss_mask mask_out(mask m) { return m; }

static inline int any(mask m) { return m != 0; }
static inline int same(mask a, mask b) { return a == b; }
static inline mask bit(int cell) { return (mask)1 << cell; }
static inline int lowest_cell(mask m) { return __builtin_ctzll(m); }
static inline int highest_cell(mask m) { return 63 - __builtin_clzll(m); }
static inline int count(mask m) { return __builtin_popcountll(m); }
static inline int more_than_one(mask m) { return (m & (m - 1)) != 0; }
static inline mask without_lowest(mask m) { return m & (m - 1); } /* m less its lowest cell */
static inline mask lowest_only(mask m) { return m & -m; }         /* m's lowest cell alone */
static inline mask first_cells(int n) { return n == 64 ? ~(mask)0 : bit(n) - 1; } /* cells 0 .. n - 1 */
static inline mask shift_up(mask m, int n) { return m << n; }   /* cell c to c + n, 0 <= n < 64 */
static inline mask shift_down(mask m, int n) { return m >> n; } /* cell c to c - n, 0 <= n < 64 */
static inline mask mask_plus(mask a, mask b) { return a + b; }  /* as numbers (columns.h: a stone atop each column) */
static inline int mask_order(mask a, mask b) { return (a > b) - (a < b); } /* a total order, to sort */
static inline mask every_cell_if(int yes) { return (mask)0 - (mask)yes; } /* all cells when yes, else none */
static inline uint64_t mask_word(mask m) { return m; } /* a word that tells apart the masks of a key (tt.h) */

/* Shared between two threads (dfpn.h's pn_help), where cells are only ever added: atomic by word. */
static inline mask atomic_mask_load(const mask *m, int order) { return __atomic_load_n(m, order); }
static inline void atomic_mask_or(mask *m, mask add, int order) { __atomic_fetch_or(m, add, order); }

#else

typedef uint64_t mask __attribute__((vector_size(8 * SS_MASK_WORDS)));

static inline mask mask_in(ss_mask m) {
    mask out;
    memcpy(&out, m.w, sizeof out);
    return out;
}

static inline ss_mask mask_out(mask m) {
    ss_mask out;
    memcpy(out.w, &m, sizeof out.w);
    return out;
}

static inline int any(mask m) {
    uint64_t all = 0;
    for (int i = 0; i < SS_MASK_WORDS; i++) all |= m[i];
    return all != 0;
}

static inline int same(mask a, mask b) { return !any(a ^ b); }

static inline mask bit(int cell) {
    mask out = {0};
    out[cell >> 6] = (uint64_t)1 << (cell & 63);
    return out;
}

static inline int lowest_cell(mask m) {
    for (int i = 0; i < SS_MASK_WORDS - 1; i++)
        if (m[i]) return 64 * i + __builtin_ctzll(m[i]);
    return 64 * (SS_MASK_WORDS - 1) + __builtin_ctzll(m[SS_MASK_WORDS - 1]);
}

static inline int highest_cell(mask m) {
    for (int i = SS_MASK_WORDS - 1; i > 0; i--)
        if (m[i]) return 64 * i + 63 - __builtin_clzll(m[i]);
    return 63 - __builtin_clzll(m[0]);
}

static inline int count(mask m) {
    int n = 0;
    for (int i = 0; i < SS_MASK_WORDS; i++) n += __builtin_popcountll(m[i]);
    return n;
}

static inline int more_than_one(mask m) {
    int seen = 0;
    for (int i = 0; i < SS_MASK_WORDS; i++) {
        if (!m[i]) continue;
        if (seen || (m[i] & (m[i] - 1))) return 1;
        seen = 1;
    }
    return 0;
}

static inline mask without_lowest(mask m) {
    for (int i = 0; i < SS_MASK_WORDS; i++)
        if (m[i]) {
            m[i] &= m[i] - 1;
            break;
        }
    return m;
}

static inline mask lowest_only(mask m) {
    mask out = {0};
    for (int i = 0; i < SS_MASK_WORDS; i++)
        if (m[i]) {
            out[i] = m[i] & -m[i];
            break;
        }
    return out;
}

static inline mask first_cells(int n) {
    mask out = {0};
    for (int i = 0; i < SS_MASK_WORDS; i++, n -= 64) out[i] = n >= 64 ? ~(uint64_t)0 : n > 0 ? ((uint64_t)1 << n) - 1 : 0;
    return out;
}

static inline mask shift_up(mask m, int n) {
    mask out = {0};
    int words = n >> 6, bits = n & 63;
    for (int i = SS_MASK_WORDS - 1; i >= words; i--) {
        uint64_t w = m[i - words] << bits;
        if (bits && i - words > 0) w |= m[i - words - 1] >> (64 - bits);
        out[i] = w;
    }
    return out;
}

static inline mask shift_down(mask m, int n) {
    mask out = {0};
    int words = n >> 6, bits = n & 63;
    for (int i = 0; i + words < SS_MASK_WORDS; i++) {
        uint64_t w = m[i + words] >> bits;
        if (bits && i + words + 1 < SS_MASK_WORDS) w |= m[i + words + 1] << (64 - bits);
        out[i] = w;
    }
    return out;
}

static inline mask mask_plus(mask a, mask b) {
    mask out;
    uint64_t carry = 0;
    for (int i = 0; i < SS_MASK_WORDS; i++) {
        uint64_t s = a[i] + carry;
        carry = s < carry;
        out[i] = s + b[i];
        carry |= out[i] < s;
    }
    return out;
}

static inline mask every_cell_if(int yes) { return NO_CELLS - (uint64_t)yes; }

static inline int mask_order(mask a, mask b) {
    for (int i = SS_MASK_WORDS - 1; i >= 0; i--)
        if (a[i] != b[i]) return a[i] > b[i] ? 1 : -1;
    return 0;
}

/* A hash of the words: the key of a wide mask (tt.h), which the table checks with a second one. */
static inline uint64_t mask_word(mask m) {
    uint64_t h = 0;
    for (int i = 0; i < SS_MASK_WORDS; i++) {
        h = (h ^ m[i]) * 0x9E3779B97F4A7C15ULL;
        h ^= h >> 31;
    }
    return h;
}

/* Word by word: a reader may see some words' new cells before others', each cell with its order. */
static inline mask atomic_mask_load(const mask *m, int order) {
    mask out;
    for (int i = 0; i < SS_MASK_WORDS; i++) out[i] = __atomic_load_n((const uint64_t *)m + i, order);
    return out;
}

static inline void atomic_mask_or(mask *m, mask add, int order) {
    for (int i = 0; i < SS_MASK_WORDS; i++)
        if (add[i]) __atomic_fetch_or((uint64_t *)m + i, add[i], order);
}

#endif

/* The stack a search's thread gets at this width (entry.c, threads.c): alpha-beta keeps about 35 KB a ply
   at eight words and the proof-number search about 120 KB a level, past the 8 MB a thread has by default
   (an empty 20x20 board's proof overflowed it). Address space: only the pages a search reaches are used. */
enum { SEARCH_STACK = SS_MASK_WORDS >= 8 ? 256 << 20 : 0 }; /* 0: the default */

#endif
