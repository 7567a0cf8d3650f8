// The forwarding shortcut's composer (docs/forward.md, "Frames and time"): a forwarded protocol B
// touchscreen's motion frame composed for its virtual touchscreen from the raw events, with the
// pipeline's own arithmetic. Plain C with no system dependency, so the live input thread can run it
// before it enters the pipeline's queue (CForwardPath), and tests run it anywhere. Armed and read
// from Swift by `ForwardShortcut` (TouchdInput), which documents the rules.
#ifndef TOUCHD_FORWARD_SHORTCUT_H
#define TOUCHD_FORWARD_SHORTCUT_H

#include <stdbool.h>
#include <stdint.h>

/// One event as the shortcut reads and writes it: a kernel stamp in microseconds, type, code, value.
typedef struct touchd_shortcut_event {
  int64_t microseconds;
  uint16_t type;
  uint16_t code;
  int32_t value;
} touchd_shortcut_event;

/// A 2D affine matrix `a b c / d e f`, applied as `(a*x + b*y + c, d*x + e*y + f)`.
typedef struct touchd_shortcut_matrix {
  double a, b, c, d, e, f;
} touchd_shortcut_matrix;

/// The composer of one forwarded device. Its plan fields are written by `ForwardShortcut.arm` in
/// Swift; `touchd_shortcut_feed` reads them and keeps the per-frame fields.
typedef struct touchd_shortcut {
  // Sizes, fixed at creation.
  int32_t physical_slots;
  int32_t virtual_slots;

  // The plan (ForwardShortcut.arm).
  bool armed;
  /// Frames stamped at or after it (seconds, Timestamp.seconds) are left to the pipeline.
  double deadline;
  int32_t current_slot;
  int32_t virtual_current_slot;
  /// The virtual slot whose touch the pointer emulation follows, -1 for none.
  int32_t pointer_slot;
  bool has_pointer;
  int32_t pointer_x, pointer_y;
  /// FrameAssembler's normalization (AbsInfo.fraction): the centre of the value's cell on an axis
  /// from minimum to maximum.
  double x_minimum, x_maximum, y_minimum, y_maximum;
  /// The device's calibration (udev's matrix), applied before the mapping.
  bool has_calibration;
  touchd_shortcut_matrix calibration;
  /// ScreenMapping: its calibration, rotation (0, 90, 180, 270 clockwise) and window size.
  touchd_shortcut_matrix mapping;
  int32_t rotation;
  double width, height;
  /// The virtual device's position axes.
  int32_t axis_x_minimum, axis_x_maximum, axis_y_minimum, axis_y_maximum;

  /// Per physical slot: the virtual slot it is armed for (-1: not armed), its raw position, and
  /// whether the frame being read moved it.
  int32_t *slot_virtual;
  int32_t *slot_x, *slot_y;
  bool *slot_moved;
  /// Per virtual slot: the physical slot armed for it (-1: none) and its last position as sent.
  int32_t *virtual_physical;
  int32_t *virtual_x, *virtual_y;

  // The frame being read.
  bool broken;
  bool moved;

  /// The last composed frame, ending in SYN_REPORT.
  touchd_shortcut_event *events;
  int32_t event_count;
  /// Frames composed since creation.
  int64_t composed;
  /// Whether a composed frame waits for the pipeline's own events for it.
  bool awaits_confirmation;
  /// When the composed frame was written (µs on CLOCK_MONOTONIC), 0 for not written.
  int64_t written_at;
} touchd_shortcut;

/// A composer for `physical_slots` physical and `virtual_slots` virtual slots (each at least 1),
/// disarmed; NULL when out of memory.
touchd_shortcut *touchd_shortcut_create(int32_t physical_slots, int32_t virtual_slots);
void touchd_shortcut_destroy(touchd_shortcut *s);

/// Leaves the next frames to the pipeline until armed again.
void touchd_shortcut_disarm(touchd_shortcut *s);

/// Reads one event, as libevdev hands it over in normal mode. Returns true at a SYN_REPORT that
/// completes a frame for the shortcut: its events are then in `events`. Every SYN_REPORT disarms.
bool touchd_shortcut_feed(touchd_shortcut *s, touchd_shortcut_event event);

#endif
