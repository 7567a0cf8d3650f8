// The forwarding shortcut's path on the input thread (docs/forward.md, "Frames and time"): when
// the input thread wakes, before it enters the pipeline's queue, it reads the frame of each
// forwarded device whose shortcut is armed through libevdev, composes it (CForwardShortcut) and
// writes it to the device's virtual touchscreen. The events it read stay buffered for the
// pipeline, which reads them first (`touchd_path_entry_next`) and delivers the frame as usual.
//
// Who touches what: the path uses an entry only while it is live. An entry turns live at the end
// of an input turn on the pipeline's queue (`touchd_forward_path_publish`, when its shortcut is
// armed and nothing is buffered), and stops being live once the path has read from it or when the
// queue starts any other work (`touchd_forward_path_settle`). So the queue reads and arms an entry
// only while it is not live, and the path reads it only while it is; a mutex orders the hand-over.
#ifndef TOUCHD_FORWARD_PATH_H
#define TOUCHD_FORWARD_PATH_H

#include <stdbool.h>
#include <stdint.h>

#include "forward_shortcut.h"

struct libevdev;

typedef struct touchd_forward_path touchd_forward_path;
typedef struct touchd_path_entry touchd_path_entry;

/// A path with no entry; NULL when out of memory.
touchd_forward_path *touchd_forward_path_create(void);
/// Frees the path; detach every entry first.
void touchd_forward_path_destroy(touchd_forward_path *path);

/// Adds a forwarded device: its libevdev handle, the fd of its virtual touchscreen (uinput), its
/// shortcut's composer and a token that names it to the caller. Not live until published. NULL
/// when out of memory.
touchd_path_entry *touchd_forward_path_attach(
  touchd_forward_path *path, struct libevdev *evdev, int uinput_fd, touchd_shortcut *shortcut, uint64_t token);
/// A source of events for an entry in place of libevdev (tests): stores the next event and returns
/// what libevdev_next_event would in normal mode (0, 1 for SYN_DROPPED, a negative errno such as
/// -EAGAIN).
typedef int (*touchd_path_reader)(void *context, touchd_shortcut_event *event);

/// touchd_forward_path_attach with events from `reader` instead of a libevdev handle.
touchd_path_entry *touchd_forward_path_attach_reader(
  touchd_forward_path *path, touchd_path_reader reader, void *context, int uinput_fd, touchd_shortcut *shortcut,
  uint64_t token);

/// Removes and frees an entry; the path does not touch its device after this returns. What it
/// buffered is dropped: read it first.
void touchd_forward_path_detach(touchd_forward_path *path, touchd_path_entry *entry);

/// The input thread's turn, before the queue: for each live entry, reads through libevdev up to
/// the end of one frame, and writes the frame the shortcut composes. Returns the frames written.
int touchd_forward_path_run(touchd_forward_path *path);

/// The end of an input turn on the queue: each entry whose shortcut is armed and that has nothing
/// buffered turns live.
void touchd_forward_path_publish(touchd_forward_path *path);

/// The start of any other work on the queue: no entry is live after this returns. Stores up to
/// `max` tokens of entries with buffered events in `tokens` and returns how many have them; read
/// those first (their frames may have been written already).
int touchd_forward_path_settle(touchd_forward_path *path, uint64_t *tokens, int max);

/// Like settle, without ending anything live: the tokens of entries with buffered events (for the
/// input turn on the queue, when the path is not running).
int touchd_forward_path_pending(touchd_forward_path *path, uint64_t *tokens, int max);

/// Takes the entry's oldest buffered result: returns false when nothing is buffered, otherwise
/// stores libevdev's return value in `*status` (0 for an event, 1 for SYN_DROPPED, a negative
/// errno) and the event in `*event`.
bool touchd_path_entry_next(touchd_path_entry *entry, int *status, touchd_shortcut_event *event);

/// Writes to the virtual touchscreen that failed since the entry was made.
int64_t touchd_path_entry_write_errors(const touchd_path_entry *entry);

#endif
