/* emucost: what basic operations cost on this machine, in ns per call, for docs/performance.md
 * ("Forwarding"): the VM check emulator-costs runs it in the guest, where TCG makes some of them
 * far dearer than others, and it runs on the host alike (gcc -O2 -o emucost emucost.c).
 * Prints one line: "clock_gettime N; malloc+free N; atomic-add N; mutex N; epoll_wait0 N;
 * getppid N; loop N" (loop: ns per 1,000 iterations of a multiply-add). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(void) {
  enum { N = 20000, S = 2000 };
  volatile long sink = 0;
  long long a, b;

  a = now_ns();
  for (int i = 0; i < N; i++) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    sink += t.tv_nsec;
  }
  b = now_ns();
  printf("clock_gettime %lld; ", (b - a) / N);

  a = now_ns();
  for (int i = 0; i < N; i++) {
    void *p = malloc(64);
    sink += (long)p;
    free(p);
  }
  b = now_ns();
  printf("malloc+free %lld; ", (b - a) / N);

  long counter = 0;
  a = now_ns();
  for (int i = 0; i < N; i++) __atomic_fetch_add(&counter, 1, __ATOMIC_SEQ_CST);
  b = now_ns();
  printf("atomic-add %lld; ", (b - a) / N);

  pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
  a = now_ns();
  for (int i = 0; i < N; i++) {
    pthread_mutex_lock(&mutex);
    pthread_mutex_unlock(&mutex);
  }
  b = now_ns();
  printf("mutex %lld; ", (b - a) / N);

  int ep = epoll_create1(EPOLL_CLOEXEC);
  struct epoll_event events[4];
  a = now_ns();
  for (int i = 0; i < S; i++) epoll_wait(ep, events, 4, 0);
  b = now_ns();
  printf("epoll_wait0 %lld; ", (b - a) / S);
  close(ep);

  a = now_ns();
  for (int i = 0; i < S; i++) sink += getppid();
  b = now_ns();
  printf("getppid %lld; ", (b - a) / S);

  a = now_ns();
  for (long i = 0; i < 10000000; i++) sink += i * 3;
  b = now_ns();
  printf("loop %lld\n", (b - a) / 10000);
  return 0;
}
