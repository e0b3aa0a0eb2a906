// driver runs the contend library's work from C threads: WAVES waves of
// THREADS pthreads, each calling ContendWork CALLS times, so that Go is
// entered on threads Go did not make, and again on new ones after the first
// have exited. It prints the library's report line.
//
// Usage: driver THREADS WAVES CALLS STEPS
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "libcontend.h"

static int calls, steps;

struct job {
	pthread_t thread;
	int first; // id of the first call
};

static void *run(void *arg) {
	struct job *j = arg;
	for (int c = 0; c < calls; c++)
		ContendWork(j->first + c, steps);
	return NULL;
}

int main(int argc, char **argv) {
	if (argc != 5) {
		fprintf(stderr, "usage: driver THREADS WAVES CALLS STEPS\n");
		return 2;
	}
	int threads = atoi(argv[1]), waves = atoi(argv[2]);
	calls = atoi(argv[3]);
	steps = atoi(argv[4]);
	if (threads <= 0 || waves <= 0 || calls <= 0 || steps <= 0) {
		fprintf(stderr, "driver: every argument must be a positive number\n");
		return 2;
	}
	struct job *jobs = calloc(threads, sizeof *jobs);
	for (int w = 0; w < waves; w++) {
		for (int t = 0; t < threads; t++) {
			jobs[t].first = (w * threads + t) * calls;
			int err = pthread_create(&jobs[t].thread, NULL, run, &jobs[t]);
			if (err != 0) {
				fprintf(stderr, "driver: pthread_create: error %d\n", err);
				return 1;
			}
		}
		for (int t = 0; t < threads; t++)
			pthread_join(jobs[t].thread, NULL);
	}
	char buf[512];
	ContendReport((long long)threads * waves * calls * steps, buf, sizeof buf);
	printf("%s\n", buf);
	return 0;
}
