// The C shim of touchd: the system headers Swift imports, and the few helpers it cannot express.
// Every helper is prefixed `ctouchd_` and says why it must be C.
#ifndef CTOUCHD_SHIM_H
#define CTOUCHD_SHIM_H

#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <linux/uinput.h>
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

// EVIOCGRAB is libevdev_grab's; UI_SET_PHYS is not libevdev's: libevdev_uinput_create_from_device
// does not copy a description's phys, so touchd sets it on its own /dev/uinput fd before handing the
// fd to libevdev (the phys marks touchd's virtual devices: DeviceDecision.ownPhysPrefix).
static inline int ctouchd_uinput_set_phys(int fd, const char *phys) { return ioctl(fd, UI_SET_PHYS, phys); }

// epoll, for DevicePoll: Glibc's Swift module leaves <sys/epoll.h> out, and `struct epoll_event` is
// packed on x86_64.
static inline int ctouchd_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }
// Watches `fd` for input, level-triggered; `token` comes back from ctouchd_epoll_ready.
static inline int ctouchd_epoll_add(int ep, int fd, unsigned long long token) {
  struct epoll_event ev = {.events = EPOLLIN, .data.u64 = token};
  return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
}
static inline int ctouchd_epoll_remove(int ep, int fd) { return epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL); }
// Waits at most `timeout` ms (0: not at all) and writes up to `max` (at most 64) ready tokens; returns
// their count, or -1 with errno.
static inline int ctouchd_epoll_ready(int ep, unsigned long long *tokens, int max, int timeout) {
  struct epoll_event events[64];
  int n = epoll_wait(ep, events, max < 64 ? max : 64, timeout);
  for (int i = 0; i < n; i++) tokens[i] = events[i].data.u64;
  return n;
}

#endif
