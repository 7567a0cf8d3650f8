// The C shim of touchd: the system headers Swift imports, and the few helpers it cannot express.
// Every helper is prefixed `ctouchd_` and says why it must be C.
#ifndef CTOUCHD_SHIM_H
#define CTOUCHD_SHIM_H

#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <libevdev/libevdev.h>
#include <libudev.h>

// `input_event_sec`/`input_event_usec` are macros over a layout that differs between 32- and
// 64-bit time_t; Swift cannot import them.
static inline long long ctouchd_event_sec(const struct input_event *ev) { return (long long)ev->input_event_sec; }
static inline long long ctouchd_event_usec(const struct input_event *ev) { return (long long)ev->input_event_usec; }

// ioctl request numbers built by _IOW/_IOR macros are not importable; these wrap the two touchd uses.
// EVIOCSCLOCKID: report event times on CLOCK_MONOTONIC, as libinput does.
static inline int ctouchd_set_clock_monotonic(int fd) {
  int clk = CLOCK_MONOTONIC;
  return ioctl(fd, EVIOCSCLOCKID, &clk);
}

#endif
