/*
 * A slow disk for one directory, for `npm run chaos`: LD_PRELOAD'ed into the embedded-database server, it delays
 * every write, pwrite, fsync and fdatasync of a file under SLOW_DISK_DIR by the number of microseconds written in
 * the file SLOW_DISK_CONTROL (0 or absent: no delay), read at most every 100 ms. Other files are not touched.
 * Built by the chaos suite with the system's cc: cc -shared -fPIC -O2 -o slow-disk.so slow-disk.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long delay_us(void) {
  static long cached = 0;
  static struct timespec last = {0, 0};
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  if ((now.tv_sec - last.tv_sec) * 1000000000L + (now.tv_nsec - last.tv_nsec) < 100000000L) return cached;
  last = now;
  const char *control = getenv("SLOW_DISK_CONTROL");
  cached = 0;
  if (!control) return 0;
  FILE *f = fopen(control, "r");
  if (!f) return 0;
  if (fscanf(f, "%ld", &cached) != 1) cached = 0;
  fclose(f);
  return cached;
}

static void maybe_wait(int fd) {
  const char *dir = getenv("SLOW_DISK_DIR");
  if (!dir || fd < 3) return;
  long us = delay_us();
  if (us <= 0) return;
  char link[64], target[4096];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, target, sizeof target - 1);
  if (n <= 0) return;
  target[n] = 0;
  if (strncmp(target, dir, strlen(dir)) == 0) usleep((useconds_t)us);
}

#define WRAP(ret, name, params, args)                               \
  ret name params {                                                 \
    static ret(*real) params = NULL;                                \
    if (!real) real = (ret(*) params)dlsym(RTLD_NEXT, #name);       \
    maybe_wait(fd);                                                 \
    return real args;                                               \
  }

WRAP(ssize_t, write, (int fd, const void *buf, size_t count), (fd, buf, count))
WRAP(ssize_t, pwrite, (int fd, const void *buf, size_t count, off_t offset), (fd, buf, count, offset))
WRAP(ssize_t, pwrite64, (int fd, const void *buf, size_t count, off_t offset), (fd, buf, count, offset))
WRAP(int, fsync, (int fd), (fd))
WRAP(int, fdatasync, (int fd), (fd))
