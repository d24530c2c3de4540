/* The C reference of bench_variants.py: plain recursive bitboard counters, one thread.
 *
 *     variants_reference torus N        toroidal queens, first-row queen in column 0, times N
 *     variants_reference superqueen N   superqueens, every first-row column (no symmetry)
 *
 * Prints the count and the seconds it took.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef unsigned long long u64;

static int n;
static u64 full;

static u64 torus(int row, u64 cols, u64 diag, u64 anti)
{
    if (row == n)
        return 1;
    u64 count = 0;
    u64 free = ~(cols | diag | anti) & full;
    while (free) {
        u64 bit = free & -free;
        u64 d = diag | bit, a = anti | bit;
        free ^= bit;
        count += torus(row + 1, cols | bit, ((d << 1) | (d >> (n - 1))) & full,
                       ((a >> 1) | (a << (n - 1))) & full);
    }
    return count;
}

/* near: the squares of this row the knights of the two rows above attack; above: the queen
 * of the row above. */
static u64 superqueen(int row, u64 cols, u64 diag, u64 anti, u64 near, u64 above)
{
    if (row == n)
        return 1;
    u64 count = 0;
    u64 free = ~(cols | diag | anti | near) & full;
    while (free) {
        u64 bit = free & -free;
        free ^= bit;
        count += superqueen(row + 1, cols | bit, (diag | bit) << 1, (anti | bit) >> 1,
                            (bit << 2) | (bit >> 2) | (above << 1) | (above >> 1), bit);
    }
    return count;
}

int main(int argc, char **argv)
{
    if (argc != 3 || (n = atoi(argv[2])) < 2 || n > 63) {
        fprintf(stderr, "usage: %s torus|superqueen N (2 <= N <= 63)\n", argv[0]);
        return 2;
    }
    full = (1ULL << n) - 1;
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    u64 total;
    if (strcmp(argv[1], "torus") == 0)
        total = n * torus(1, 1, 2, 1ULL << (n - 1)); /* row 0: the queen in column 0 */
    else
        total = superqueen(0, 0, 0, 0, 0, 0);
    clock_gettime(CLOCK_MONOTONIC, &end);
    printf("%llu %.6f\n", total,
           (end.tv_sec - start.tv_sec) + 1e-9 * (end.tv_nsec - start.tv_nsec));
    return 0;
}
