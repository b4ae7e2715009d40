/* viz_timeline_test.c: unit tests of the timeline reader (placeholder). */
#include "check.h"
#include "viz_timeline.h"
int main(void)
{
	uint64_t t;
	CHECK(viz_parse_time("1.5us", &t) == 0);
	CHECK_EQ_U64(t, 1500);
	return check_done();
}
