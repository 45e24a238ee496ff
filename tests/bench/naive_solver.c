/* The naive compiled baseline of the table benchmark: a memoised negamax from the empty board over a
 * dense base-3 index (one byte per board, 3^cells bytes), with the service's byte encoding, so that a
 * retrograde solver in numpy is measured against what a plain C program does.
 *
 *   cc -O2 -o naive_solver naive_solver.c && ./naive_solver ROWS COLS K [misere]
 *
 * prints "value=<byte> positions=<reachable positions valued> seconds=<solve time>".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_LINES 256
static int rows, cols, k, misere, cells;
static uint32_t lines[MAX_LINES];
static int line_count;
static uint64_t place[32];
static uint8_t *memo;
static long long valued;

static void make_lines(void) {
    static const int dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            for (int d = 0; d < 4; d++) {
                uint32_t mask = 0;
                int ok = 1;
                for (int i = 0; i < k && ok; i++) {
                    int rr = r + dirs[d][0] * i, cc = c + dirs[d][1] * i;
                    if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) ok = 0;
                    else mask |= 1u << (rr * cols + cc);
                }
                if (ok) lines[line_count++] = mask;
            }
}

static int holds_line(uint32_t marks) {
    for (int i = 0; i < line_count; i++)
        if ((marks & lines[i]) == lines[i]) return 1;
    return 0;
}

/* Byte of the position for the side to move: 1 + r loss, 128 + r draw, 255 - r win. */
static uint8_t seen_by_mover(uint8_t child) {
    if (child >= 192) return 1 + (255 - child) + 1;   /* the child wins for its mover: a loss */
    if (child >= 128) return child + 1;                /* a draw, one ply longer */
    return 255 - (child - 1) - 1;                      /* the child loses: a win */
}

static uint8_t solve(uint32_t mover, uint32_t last, uint64_t index, int mover_digit) {
    if (memo[index]) return memo[index];
    uint8_t value;
    if (holds_line(last)) {
        value = misere ? 255 : 1;
    } else if (__builtin_popcount(mover | last) == cells) {
        value = 128;
    } else {
        uint8_t best = 255;
        for (int cell = 0; cell < cells; cell++) {
            uint32_t bit = 1u << cell;
            if ((mover | last) & bit) continue;
            uint8_t child = solve(last, mover | bit, index + mover_digit * place[cell], 3 - mover_digit);
            if (child < best) best = child;
        }
        value = seen_by_mover(best);
    }
    valued++;
    return memo[index] = value;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s ROWS COLS K [misere]\n", argv[0]);
        return 2;
    }
    rows = atoi(argv[1]), cols = atoi(argv[2]), k = atoi(argv[3]);
    misere = argc > 4 && strcmp(argv[4], "misere") == 0;
    cells = rows * cols;
    uint64_t size = 1;
    for (int c = cells - 1; c >= 0; c--) place[c] = size, size *= 3;
    make_lines();
    memo = calloc(size, 1);
    if (!memo) return 1;
    struct timespec start, stop;
    clock_gettime(CLOCK_MONOTONIC, &start);
    uint8_t root = solve(0, 0, 0, 2);
    clock_gettime(CLOCK_MONOTONIC, &stop);
    double seconds = (stop.tv_sec - start.tv_sec) + (stop.tv_nsec - start.tv_nsec) / 1e9;
    printf("value=%d positions=%lld seconds=%.3f\n", root, valued, seconds);
    return 0;
}
