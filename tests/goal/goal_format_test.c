/* goal_format_test.c: unit tests of the binary format library. */
#include "goal.h"
#include "../check.h"
int main(void) { CHECK(sizeof(goal_op) == 32); return check_done(); }
