/* The CUDA C reference of bench_gpu.py: a mirror-halving counter in the style of the public
 * GPU counters, to time the package's numba-cuda kernels against, side by side.
 *
 *     gpu_reference N [DEPTH [REPEAT]]
 *
 * The host places the first DEPTH rows (default 6; the first-row queen in the left half,
 * weight 2, or in the middle column of an odd board, weight 1) and copies the prefixes to
 * the GPU. Each GPU thread takes prefixes from an atomic counter and searches each with an
 * explicit stack of 32-bit masks in shared memory, laid out [level * BLOCK + thread] (no
 * bank conflicts); the weighted counts are reduced per block and added to the total with
 * one atomic per block. Prints one line:
 *
 *     n=N count=C prefixes=P host=S kernel=S
 *
 * ``host``: seconds to build the prefixes; ``kernel``: the best of REPEAT launches (CUDA
 * events), after one launch that warms up. N <= 31.
 */
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#define BLOCK 128
#define MAX_LEVELS 20

#define CHECK(call)                                                                     \
    do {                                                                                \
        cudaError_t err_ = (call);                                                      \
        if (err_ != cudaSuccess) {                                                      \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
            exit(1);                                                                    \
        }                                                                               \
    } while (0)

struct Prefix {
    unsigned cols, diag, anti;
    unsigned weight;
};

static void prefixes(int n, int depth, int row, unsigned cols, unsigned diag, unsigned anti,
                     unsigned weight, std::vector<Prefix> &out)
{
    const unsigned full = (1u << n) - 1u;
    if (row == depth) {
        out.push_back(Prefix{cols, diag, anti, weight});
        return;
    }
    unsigned free = ~(cols | diag | anti) & full;
    if (row == 0)
        free &= (1u << ((n + 1) / 2)) - 1u;
    while (free) {
        unsigned bit = free & (0u - free);
        free ^= bit;
        unsigned w = weight;
        if (row == 0)
            w = (n % 2 == 1 && bit == (1u << (n / 2))) ? 1u : 2u;
        prefixes(n, depth, row + 1, cols | bit, ((diag | bit) << 1) & full, (anti | bit) >> 1,
                 w, out);
    }
}

__global__ void count_prefixes(int n, int depth, const Prefix *states, int n_states,
                               int *next, unsigned long long *total)
{
    __shared__ unsigned s_free[MAX_LEVELS * BLOCK];
    __shared__ unsigned s_cols[MAX_LEVELS * BLOCK];
    __shared__ unsigned s_diag[MAX_LEVELS * BLOCK];
    __shared__ unsigned s_anti[MAX_LEVELS * BLOCK];
    __shared__ unsigned long long partial[BLOCK];
    const int t = threadIdx.x;
    const unsigned full = (1u << n) - 1u;
    unsigned long long mine = 0;
    for (;;) {
        int i = atomicAdd(next, 1);
        if (i >= n_states)
            break;
        const Prefix p = states[i];
        unsigned cols = p.cols, diag = p.diag, anti = p.anti;
        unsigned free = ~(cols | diag | anti) & full;
        int sp = 0;
        int row = depth;
        unsigned long long count = 0;
        for (;;) {
            if (free) {
                unsigned bit = free & (0u - free);
                free ^= bit;
                unsigned nc = cols | bit;
                unsigned nd = ((diag | bit) << 1) & full;
                unsigned na = (anti | bit) >> 1;
                unsigned nf = ~(nc | nd | na) & full;
                if (row + 1 == n - 1) {
                    count += (nf != 0);
                } else if (nf) {
                    int k = sp * BLOCK + t;
                    s_free[k] = free;
                    s_cols[k] = cols;
                    s_diag[k] = diag;
                    s_anti[k] = anti;
                    ++sp;
                    ++row;
                    free = nf;
                    cols = nc;
                    diag = nd;
                    anti = na;
                }
            } else if (sp == 0) {
                break;
            } else {
                --sp;
                --row;
                int k = sp * BLOCK + t;
                free = s_free[k];
                cols = s_cols[k];
                diag = s_diag[k];
                anti = s_anti[k];
            }
        }
        mine += count * p.weight;
    }
    partial[t] = mine;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (t < s)
            partial[t] += partial[t + s];
        __syncthreads();
    }
    if (t == 0)
        atomicAdd(total, partial[0]);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: gpu_reference N [DEPTH [REPEAT]]\n");
        return 2;
    }
    const int n = atoi(argv[1]);
    const int depth = argc > 2 ? atoi(argv[2]) : 6;
    const int repeat = argc > 3 ? atoi(argv[3]) : 3;
    if (n < 4 || n > 31 || depth < 1 || depth > n - 2 || n - depth - 2 >= MAX_LEVELS) {
        fprintf(stderr, "need 4 <= N <= 31, 1 <= DEPTH <= N - 2, N - DEPTH - 2 < %d\n",
                MAX_LEVELS);
        return 2;
    }
    auto start = std::chrono::steady_clock::now();
    std::vector<Prefix> host;
    prefixes(n, depth, 0, 0u, 0u, 0u, 1u, host);
    double host_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const int n_states = (int)host.size();

    Prefix *states;
    int *next;
    unsigned long long *total;
    CHECK(cudaMalloc(&states, sizeof(Prefix) * (n_states ? n_states : 1)));
    CHECK(cudaMalloc(&next, sizeof(int)));
    CHECK(cudaMalloc(&total, sizeof(unsigned long long)));
    if (n_states)
        CHECK(cudaMemcpy(states, host.data(), sizeof(Prefix) * n_states,
                         cudaMemcpyHostToDevice));
    int device, sms, per_sm;
    CHECK(cudaGetDevice(&device));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, count_prefixes, BLOCK, 0));
    const int grid = sms * (per_sm > 0 ? per_sm : 1);

    cudaEvent_t begin, end;
    CHECK(cudaEventCreate(&begin));
    CHECK(cudaEventCreate(&end));
    unsigned long long count = 0;
    float best = -1.0f;
    for (int r = 0; r <= repeat; ++r) {  // r == 0 warms up
        CHECK(cudaMemset(next, 0, sizeof(int)));
        CHECK(cudaMemset(total, 0, sizeof(unsigned long long)));
        CHECK(cudaEventRecord(begin));
        count_prefixes<<<grid, BLOCK>>>(n, depth, states, n_states, next, total);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(end));
        CHECK(cudaEventSynchronize(end));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, begin, end));
        CHECK(cudaMemcpy(&count, total, sizeof(count), cudaMemcpyDeviceToHost));
        if (r > 0 && (best < 0 || ms < best))
            best = ms;
    }
    printf("n=%d count=%llu prefixes=%d host=%.6f kernel=%.6f\n", n, count, n_states,
           host_seconds, best / 1000.0);
    CHECK(cudaFree(states));
    CHECK(cudaFree(next));
    CHECK(cudaFree(total));
    return 0;
}
