/* tl_json_pipe.c: the trace JSON converter in a thread, reading what the
 * simulator writes into a pipe (tl_trace_json.h). */
#include "tl_trace_json.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct tl_json_pipe {
	pthread_t thread;
	FILE *in, *w;            /* the pipe's ends */
	FILE *json;
	const char *name;
	tl_json_opts o;
	tl_json_info info;
	int rc;
	char err[1024];
};

static void *run(void *arg)
{
	tl_json_pipe *p = arg;
	p->rc = tl_json_convert(p->in, p->name, p->json, &p->o, &p->info, p->err, sizeof p->err);
	/* The rest (after the window, or after an error) is read too, and
	 * copied to the tee, so that the writer never waits. */
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, p->in)) > 0)
		if (p->o.tee)
			fwrite(buf, 1, n, p->o.tee);
	fclose(p->in);
	return NULL;
}

FILE *tl_json_pipe_start(tl_json_pipe **pp, FILE *json, const char *name,
                         const tl_json_opts *o, char *err, size_t errlen)
{
	int fd[2];
	tl_json_pipe *p = calloc(1, sizeof *p);
	*pp = NULL;
	if (!p) {
		snprintf(err, errlen, "error: out of memory");
		return NULL;
	}
	if (pipe(fd)) {
		snprintf(err, errlen, "error: cannot make a pipe: %s", strerror(errno));
		free(p);
		return NULL;
	}
	p->in = fdopen(fd[0], "r");
	p->w = fdopen(fd[1], "w");
	if (!p->in || !p->w) {
		snprintf(err, errlen, "error: cannot open a pipe: %s", strerror(errno));
		if (p->in)
			fclose(p->in);
		else
			close(fd[0]);
		if (p->w)
			fclose(p->w);
		else
			close(fd[1]);
		free(p);
		return NULL;
	}
	p->json = json;
	p->name = name;
	p->o = *o;
	int rc = pthread_create(&p->thread, NULL, run, p);
	if (rc) {
		snprintf(err, errlen, "error: cannot start the trace JSON converter: %s", strerror(rc));
		fclose(p->in);
		fclose(p->w);
		free(p);
		return NULL;
	}
	*pp = p;
	return p->w;
}

int tl_json_pipe_finish(tl_json_pipe *p, tl_json_info *info, char *err, size_t errlen)
{
	int bad = fclose(p->w) != 0;
	pthread_join(p->thread, NULL);
	int rc = p->rc;
	if (rc)
		snprintf(err, errlen, "%s", p->err);
	else if (bad)
		snprintf(err, errlen, "%s: error: write failed on the pipe to the converter", p->name);
	if (info)
		*info = p->info;
	free(p);
	return rc || bad ? -1 : 0;
}
