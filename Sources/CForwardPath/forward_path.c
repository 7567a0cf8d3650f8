// The forwarding shortcut's path on the input thread: see include/forward_path.h.
#include "forward_path.h"

#include <errno.h>
#include <pthread.h>
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
  bool live;
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
  pthread_mutex_t lock;
  touchd_path_entry *entries;
};

touchd_forward_path *touchd_forward_path_create(void) {
  touchd_forward_path *path = calloc(1, sizeof *path);
  if (!path) return NULL;
  pthread_mutex_init(&path->lock, NULL);
  return path;
}

void touchd_forward_path_destroy(touchd_forward_path *path) {
  if (!path) return;
  pthread_mutex_destroy(&path->lock);
  free(path);
}

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
  pthread_mutex_lock(&path->lock);
  entry->next = path->entries;
  path->entries = entry;
  pthread_mutex_unlock(&path->lock);
  return entry;
}

void touchd_forward_path_detach(touchd_forward_path *path, touchd_path_entry *entry) {
  pthread_mutex_lock(&path->lock);
  for (touchd_path_entry **at = &path->entries; *at; at = &(*at)->next) {
    if (*at == entry) {
      *at = entry->next;
      break;
    }
  }
  pthread_mutex_unlock(&path->lock);
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

/// Reads one live entry up to the end of a frame. Returns whether it wrote a frame.
static bool run_entry(touchd_path_entry *entry) {
  touchd_shortcut *s = entry->shortcut;
  if (!s->armed) {
    entry->live = false;
    return false;
  }
  while (entry->count < TOUCHD_PATH_BUFFER) {
    touchd_shortcut_event ev;
    int rc = entry->reader(entry->context, &ev);
    if (rc == -EINTR) continue;
    if (rc == -EAGAIN) {
      // Nothing (another device woke the thread): the entry stays live. Part of a frame: the
      // pipeline reads the rest.
      if (entry->count == 0) return false;
      break;
    }
    int at = (entry->head + entry->count) % TOUCHD_PATH_BUFFER;
    entry->buffer[at].status = rc;
    entry->buffer[at].event = ev;
    entry->count += 1;
    if (rc != LIBEVDEV_READ_STATUS_SUCCESS) break;  // SYN_DROPPED, or an error: the pipeline's
    if (touchd_shortcut_feed(s, ev)) {
      write_frame(entry);
      entry->live = false;
      return true;
    }
    if (ev.type == EV_SYN && ev.code == SYN_REPORT) break;  // a frame the pipeline takes
  }
  touchd_shortcut_disarm(s);
  entry->live = false;
  return false;
}

int touchd_forward_path_run(touchd_forward_path *path) {
  int frames = 0;
  pthread_mutex_lock(&path->lock);
  for (touchd_path_entry *entry = path->entries; entry; entry = entry->next) {
    if (entry->live && run_entry(entry)) frames += 1;
  }
  pthread_mutex_unlock(&path->lock);
  return frames;
}

void touchd_forward_path_publish(touchd_forward_path *path) {
  pthread_mutex_lock(&path->lock);
  for (touchd_path_entry *entry = path->entries; entry; entry = entry->next) {
    entry->live = entry->shortcut->armed && entry->count == 0;
  }
  pthread_mutex_unlock(&path->lock);
}

static int buffered_tokens(touchd_forward_path *path, uint64_t *tokens, int max, bool end_live) {
  int n = 0;
  pthread_mutex_lock(&path->lock);
  for (touchd_path_entry *entry = path->entries; entry; entry = entry->next) {
    if (end_live) entry->live = false;
    if (entry->count > 0) {
      if (n < max) tokens[n] = entry->token;
      n += 1;
    }
  }
  pthread_mutex_unlock(&path->lock);
  return n;
}

int touchd_forward_path_settle(touchd_forward_path *path, uint64_t *tokens, int max) {
  return buffered_tokens(path, tokens, max, true);
}

int touchd_forward_path_pending(touchd_forward_path *path, uint64_t *tokens, int max) {
  return buffered_tokens(path, tokens, max, false);
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
