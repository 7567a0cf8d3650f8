// The forwarding shortcut's path (docs/forward.md, "Frames and time"): first in each input
// handler on the pipeline's queue, before any Swift reads the frame, it reads the frame of a
// forwarded device whose shortcut is armed through libevdev, composes it (CForwardShortcut) and
// writes it to the device's virtual touchscreen. The events it read stay buffered for the
// pipeline, which reads them first (`touchd_path_entry_next`) and delivers the frame as usual.
//
// Everything here runs on the pipeline's queue, the entries' and their shortcuts' owner: no lock.
// The handler arms each shortcut from the scene's state just before `touchd_forward_path_run`, and
// the run leaves every shortcut disarmed, so nothing else on the queue (a timer, a command, a
// hotplug event) ever finds one armed. The run reads at most one device, the first armed one with
// input, so the frame it composes is the first the handler delivers: composed from the very state
// the pipeline delivers it in (another device's frame first could change what it does).
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
/// shortcut's composer and a token that names it to the caller. NULL when out of memory.
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

/// The input handler's first step, once the shortcuts are armed: takes the first entry (newest
/// attached first) whose shortcut is armed and whose device has input, reads it up to the end of
/// one frame, and writes the frame the shortcut composes. Entries after it are not read. Nothing
/// is read while an entry still holds buffered events (they are the pipeline's next frame). Every
/// shortcut is disarmed when it returns. Returns the frames written: 0 or 1.
int touchd_forward_path_run(touchd_forward_path *path);

/// Stores up to `max` tokens of the entries with buffered events in `tokens` and returns how many
/// have them (after a run, at most one): read those first, their frame may be written already.
int touchd_forward_path_pending(touchd_forward_path *path, uint64_t *tokens, int max);

/// Takes the entry's oldest buffered result: returns false when nothing is buffered, otherwise
/// stores libevdev's return value in `*status` (0 for an event, 1 for SYN_DROPPED, a negative
/// errno) and the event in `*event`.
bool touchd_path_entry_next(touchd_path_entry *entry, int *status, touchd_shortcut_event *event);

/// Writes to the virtual touchscreen that failed since the entry was made.
int64_t touchd_path_entry_write_errors(const touchd_path_entry *entry);

#endif
