/* goal_format_int.h: what the binary format's writer (goal_writer.c)
 * and reader (goal_format.c) share: error text, padding and the rules for
 * labels.  Private to the format's library. */
#ifndef GOAL_FORMAT_INT_H
#define GOAL_FORMAT_INT_H

#include "goal.h"

#include <stddef.h>
#include <stdint.h>

#define PAD8(x) (((uint64_t)(x) + 7u) & ~(uint64_t)7u)

/* printf into err (errlen bytes; nothing when err is NULL or errlen 0). */
void goal_fmt_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Is label (len bytes) the canonical label of op index i, "l<i+1>"?
 * Compares digits from the last: no formatting (one call per op). */
static inline int label_is_canonical(const char *label, size_t len, uint32_t i)
{
	uint32_t v = i + 1;
	if (len < 2 || label[0] != 'l' || label[1] == '0')
		return 0;
	while (--len) {
		if (!v || label[len] != (char)('0' + v % 10))
			return 0;
		v /= 10;
	}
	return v == 0;
}

/* Whether c may be a label's character (first: its first). */
static inline int label_char(int c, int first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'
		|| (!first && c >= '0' && c <= '9');
}

/* Slots of the label hash table for a rank of n ops: a power of two >= 2n. */
static inline uint64_t label_slots(uint64_t n)
{
	uint64_t k = 16;
	while (k < 2 * n)
		k *= 2;
	return k;
}

/* Can the labels of a rank with a label blob be written as GOAL text that
 * compiles back to the same rank (goal_dump)?  blob holds the n labels of
 * the rank ("" = unlabeled), ops and nedges are the rank's.  Yes when every
 * label is no GOAL keyword, no two labels are equal, every op that has a
 * dependency or a dependent has a label, and some label is not canonical
 * (a rank of canonical labels has no blob).  ht is scratch of
 * label_slots(n) entries.  Returns 0, or -1 with the reason in msg.  O(label
 * bytes), one hash per label. */
/* Is name (len bytes) a GOAL label that is no keyword (a job's name)?
 * Returns 0, or -1 with the reason in msg ("'x y' is not a label ..."). */
int goal_name_check(const char *name, size_t len, char *msg, size_t msglen);

int goal_labels_check(const char *blob, uint32_t n, const goal_op *ops, uint32_t nedges,
                      uint32_t *ht, char *msg, size_t msglen);

#endif
