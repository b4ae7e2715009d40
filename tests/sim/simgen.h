/* simgen.h: writes the collective schedules of SPEC section 7, and an
 * incast, with the goal_writer API, for the simulator's tests and
 * benchmark. */
#ifndef SIMGEN_H
#define SIMGEN_H

#include <stddef.h>
#include <stdint.h>

/* Binomial broadcast from rank 0: rank r != 0 receives from r - 2^h (2^h
 * its lowest set bit; for rank 0, h = ceil(log2 P)), then sends to r + 2^k
 * for k = h-1 down to 0 (largest subtree first) where r + 2^k < P; every
 * send requires the receive. */
int simgen_binomial(const char *path, uint64_t P, uint64_t size, char *err, size_t n);

/* Dissemination: in round k = 0 .. ceil(log2 P) - 1 rank r sends to
 * (r + 2^k) mod P, then receives from (r - 2^k) mod P (tag k); the send of
 * round k requires the receive of round k - 1, the receive of round k
 * requires the send of round k. */
int simgen_dissemination(const char *path, uint64_t P, uint64_t size, char *err, size_t n);

/* Linear scatter: rank 0 sends to 1 .. P-1 (independent sends, in order);
 * rank i receives from 0. */
int simgen_scatter(const char *path, uint64_t P, uint64_t size, char *err, size_t n);

/* Incast: every rank r != 0 sends k messages to rank 0 (tag 0), then does k
 * calcs of 0 ns; rank 0 does a calc of d ns, then k0 calcs of 0 ns, and
 * posts (P-1)*k receives from any source.  Every op is a root: the sends
 * of a rank, its calcs and the messages at rank 0 wait for one CPU or NIC. */
int simgen_incast(const char *path, uint64_t P, uint64_t k, uint64_t k0, uint64_t d,
                  uint64_t size, char *err, size_t n);

#endif
