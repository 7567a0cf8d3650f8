// The forwarding shortcut's path, first in each input handler: see include/forward_path.h.
#include "forward_path.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/input.h>

#include <libevdev/libevdev.h>

/// Results buffered per entry: one frame's events. A frame with more (a hundred fingers' worth)
/// ends the path's read; the pipeline reads the rest from libevdev.
#define TOUCHD_PATH_BUFFER 512

struct touchd_path_entry {
  touchd_path_reader reader;
  void *context;
  int uinput_fd;
  touchd_shortcut *shortcut;
  uint64_t token;
  int head, count;
  struct {
    int status;
    touchd_shortcut_event event;
  } buffer[TOUCHD_PATH_BUFFER];
  /// The composed frame as written to uinput (the kernel stamps it).
  struct input_event *out;
  int64_t write_errors;
  touchd_path_entry *next;
};

struct touchd_forward_path {
  touchd_path_entry *entries;
};

touchd_forward_path *touchd_forward_path_create(void) { return calloc(1, sizeof(touchd_forward_path)); }

void touchd_forward_path_destroy(touchd_forward_path *path) { free(path); }

/// libevdev_next_event in normal mode, as a reader.
static int evdev_reader(void *context, touchd_shortcut_event *event) {
  struct input_event ev;
  int rc = libevdev_next_event(context, LIBEVDEV_READ_FLAG_NORMAL, &ev);
  *event = (touchd_shortcut_event){
    (int64_t)ev.input_event_sec * 1000000 + (int64_t)ev.input_event_usec, ev.type, ev.code, ev.value};
  return rc;
}

touchd_path_entry *touchd_forward_path_attach(
  touchd_forward_path *path, struct libevdev *evdev, int uinput_fd, touchd_shortcut *shortcut, uint64_t token) {
  return touchd_forward_path_attach_reader(path, evdev_reader, evdev, uinput_fd, shortcut, token);
}

touchd_path_entry *touchd_forward_path_attach_reader(
  touchd_forward_path *path, touchd_path_reader reader, void *context, int uinput_fd, touchd_shortcut *shortcut,
  uint64_t token) {
  touchd_path_entry *entry = calloc(1, sizeof *entry);
  if (!entry) return NULL;
  entry->out = calloc((size_t)(3 * shortcut->virtual_slots + 3), sizeof(struct input_event));
  if (!entry->out) {
    free(entry);
    return NULL;
  }
  entry->reader = reader;
  entry->context = context;
  entry->uinput_fd = uinput_fd;
  entry->shortcut = shortcut;
  entry->token = token;
  entry->next = path->entries;
  path->entries = entry;
  return entry;
}

void touchd_forward_path_detach(touchd_forward_path *path, touchd_path_entry *entry) {
  for (touchd_path_entry **at = &path->entries; *at; at = &(*at)->next) {
    if (*at == entry) {
      *at = entry->next;
      break;
    }
  }
  free(entry->out);
  free(entry);
}

static int64_t monotonic_microseconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/// Writes the shortcut's composed frame in one write(2), as UinputDevice.write does.
static void write_frame(touchd_path_entry *entry) {
  const touchd_shortcut *s = entry->shortcut;
  for (int i = 0; i < s->event_count; i++) {
    entry->out[i].type = s->events[i].type;
    entry->out[i].code = s->events[i].code;
    entry->out[i].value = s->events[i].value;
  }
  size_t size = sizeof(struct input_event) * (size_t)s->event_count;
  ssize_t written;
  do written = write(entry->uinput_fd, entry->out, size);
  while (written < 0 && errno == EINTR);
  if (written != (ssize_t)size) entry->write_errors += 1;
  entry->shortcut->written_at = monotonic_microseconds();
}

/// What reading an entry came to.
enum entry_result { ENTRY_EMPTY, ENTRY_READ, ENTRY_WRITTEN };

/// Reads an armed entry up to the end of one frame: ENTRY_EMPTY when its device had nothing,
/// ENTRY_WRITTEN when the shortcut composed the frame and it was written, ENTRY_READ when what was
/// read is the pipeline's alone (a frame the shortcut does not take, SYN_DROPPED, an error, part
/// of a frame).
static enum entry_result run_entry(touchd_path_entry *entry) {
  touchd_shortcut *s = entry->shortcut;
  while (entry->count < TOUCHD_PATH_BUFFER) {
    touchd_shortcut_event ev;
    int rc = entry->reader(entry->context, &ev);
    if (rc == -EINTR) continue;
    // Nothing (another device woke the handler), or part of a frame: the pipeline reads the rest.
    if (rc == -EAGAIN) return entry->count == 0 ? ENTRY_EMPTY : ENTRY_READ;
    int at = (entry->head + entry->count) % TOUCHD_PATH_BUFFER;
    entry->buffer[at].status = rc;
    entry->buffer[at].event = ev;
    entry->count += 1;
    if (rc != LIBEVDEV_READ_STATUS_SUCCESS) return ENTRY_READ;  // SYN_DROPPED, or an error: the pipeline's
    if (touchd_shortcut_feed(s, ev)) {
      write_frame(entry);
      return ENTRY_WRITTEN;
    }
    if (ev.type == EV_SYN && ev.code == SYN_REPORT) return ENTRY_READ;  // a frame the pipeline takes
  }
  return ENTRY_READ;
}

int touchd_forward_path_run(touchd_forward_path *path) {
  int frames = 0;
  bool held = false;
  for (touchd_path_entry *entry = path->entries; entry; entry = entry->next) held = held || entry->count > 0;
  // One device at most: its frame is the first the handler delivers, so the state the shortcut was
  // armed from is the state the pipeline delivers it in.
  for (touchd_path_entry *entry = path->entries; entry && !held; entry = entry->next) {
    if (!entry->shortcut->armed) continue;
    enum entry_result result = run_entry(entry);
    if (result == ENTRY_EMPTY) continue;
    if (result == ENTRY_WRITTEN) frames = 1;
    break;
  }
  // Arming lasts one run: nothing else on the queue finds a shortcut armed.
  for (touchd_path_entry *entry = path->entries; entry; entry = entry->next) touchd_shortcut_disarm(entry->shortcut);
  return frames;
}

int touchd_forward_path_pending(touchd_forward_path *path, uint64_t *tokens, int max) {
  int n = 0;
  for (touchd_path_entry *entry = path->entries; entry; entry = entry->next) {
    if (entry->count > 0) {
      if (n < max) tokens[n] = entry->token;
      n += 1;
    }
  }
  return n;
}

bool touchd_path_entry_next(touchd_path_entry *entry, int *status, touchd_shortcut_event *event) {
  if (entry->count == 0) return false;
  *status = entry->buffer[entry->head].status;
  *event = entry->buffer[entry->head].event;
  entry->head = (entry->head + 1) % TOUCHD_PATH_BUFFER;
  entry->count -= 1;
  return true;
}

int64_t touchd_path_entry_write_errors(const touchd_path_entry *entry) { return entry->write_errors; }
