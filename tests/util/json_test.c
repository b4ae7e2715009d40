/* json_test.c: the JSON writer of util/json.h: separators and keys at
 * every depth, empty objects and arrays, escaping, numbers as given. */
#include "check.h"
#include "json.h"

#include <stdlib.h>

/* What fn writes through a writer, as a string (freed by the caller). */
static char *written(void (*fn)(uj *j))
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	if (!f)
		return NULL;
	uj j;
	uj_init(&j, f);
	fn(&j);
	fclose(f);
	return buf;
}

static void doc(uj *j)
{
	uj_obj(j, NULL);
	uj_raw(j, "complete", "true");
	uj_u64(j, "P", 18446744073709551615ull);
	uj_i64(j, "noise_ns", -5);
	uj_arr(j, "ranges");
	uj_obj(j, NULL);
	uj_u64(j, "first", 0);
	uj_raw(j, "last", "null");
	uj_end(j);
	uj_obj(j, NULL);
	uj_end(j);
	uj_end(j);
	uj_arr(j, "slow");
	uj_str(j, NULL, "0,17-31:1.5");
	uj_str(j, NULL, "x");
	uj_end(j);
	uj_arr(j, "none");
	uj_end(j);
	uj_obj(j, "network");
	uj_str(j, "topology", "fattree:k=4,levels=1");
	uj_end(j);
	uj_end(j);
}

static void escapes(uj *j)
{
	uj_arr(j, NULL);
	uj_str(j, NULL, "a \"quoted\" \\ back\tslash\n\x01");
	uj_str(j, NULL, "");
	uj_end(j);
}

static void keys(uj *j)
{
	uj_obj(j, NULL);
	uj_str(j, "k\"ey", "v");
	uj_end(j);
}

int main(void)
{
	char *s = written(doc);
	CHECK_STR(s, "{\"complete\": true, \"P\": 18446744073709551615, \"noise_ns\": -5, "
	             "\"ranges\": [{\"first\": 0, \"last\": null}, {}], \"slow\": [\"0,17-31:1.5\", "
	             "\"x\"], \"none\": [], \"network\": {\"topology\": \"fattree:k=4,levels=1\"}}");
	free(s);
	s = written(escapes);
	CHECK_STR(s, "[\"a \\\"quoted\\\" \\\\ back\\u0009slash\\u000a\\u0001\", \"\"]");
	free(s);
	s = written(keys);
	CHECK_STR(s, "{\"k\\\"ey\": \"v\"}");
	free(s);
	return check_done();
}
