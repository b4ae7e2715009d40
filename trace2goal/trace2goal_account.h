/* trace2goal_account.h: where a traced run's time went (trace2goal
 * --account; docs/trace2goal.md, "Accounting for the traced time").  Each
 * rank's traced time, from the end of its MPI_Init to the start of its
 * MPI_Finalize, is split exactly into
 *   MPI:         the time inside the MPI calls between them (each call's
 *                end minus its start), also summed by call over all ranks;
 *   tracer:      the recorder's own time: its buffer flushes ("# flush:"
 *                lines) and, where the trace says it ("# tracer overhead:
 *                N ns per call"), N ns for each of those calls;
 *   computation: the rest.
 * Times are whole ns: each microsecond time of the trace rounded to the
 * nearest ns. */
#ifndef TRACE2GOAL_ACCOUNT_H
#define TRACE2GOAL_ACCOUNT_H

#include "trace2goal_conv.h"

#include <stdio.h>

struct t2g_account;

/* Reads every rank of src once (with the reader options to) and accounts
 * for its time.  Returns the account (free with t2g_account_free), or NULL
 * with the message in err ("FILE...: error: ..." as the reader gives it, or
 * "error: out of memory"). */
struct t2g_account *t2g_account_run(const struct t2g_source *src, const struct tr_options *to,
                                    char *err, size_t errlen);

/* The account as text: a line per rank and one for all ranks ("rank 0",
 * ..., "all ranks": traced, computation, MPI and tracer ns), their shares
 * of the whole, the MPI calls by time (most first; ties by name), and the
 * tracer's time per call. */
void t2g_account_print(FILE *f, const struct t2g_account *a);

void t2g_account_free(struct t2g_account *a);

#endif
