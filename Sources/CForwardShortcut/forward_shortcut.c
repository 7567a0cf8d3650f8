// The forwarding shortcut's composer: see include/forward_shortcut.h and ForwardShortcut.swift.
//
// Every expression mirrors the Swift pipeline's for the same step, in the same order, so that a
// composed frame is the pipeline's to the unit (the equivalence tests compare them frame by frame):
// no contraction into fused multiply-adds (Swift does not fuse), Swift's min/max (`min(x, y)` is
// `y < x ? y : x`, `max(x, y)` is `y >= x ? y : x`), Swift's `rounded()` (to nearest, ties away
// from zero: C's round()).
#include "forward_shortcut.h"

#include <math.h>
#include <stdlib.h>

#pragma STDC FP_CONTRACT OFF

// <linux/input-event-codes.h> values, spelled out to keep this file free of system headers.
enum {
  EV_SYN_ = 0x00, EV_ABS_ = 0x03, EV_MSC_ = 0x04,
  SYN_REPORT_ = 0,
  ABS_X_ = 0x00, ABS_Y_ = 0x01,
  ABS_MT_SLOT_ = 0x2f, ABS_MT_TOUCH_MAJOR_ = 0x30, ABS_MT_POSITION_X_ = 0x35, ABS_MT_POSITION_Y_ = 0x36,
  ABS_MT_TOOL_TYPE_ = 0x37, ABS_MT_TRACKING_ID_ = 0x39, ABS_MT_TOOL_Y_ = 0x3d,
};

static inline double swift_min(double x, double y) { return y < x ? y : x; }
static inline double swift_max(double x, double y) { return y >= x ? y : x; }

touchd_shortcut *touchd_shortcut_create(int32_t physical_slots, int32_t virtual_slots) {
  if (physical_slots < 1) physical_slots = 1;
  if (virtual_slots < 1) virtual_slots = 1;
  touchd_shortcut *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->physical_slots = physical_slots;
  s->virtual_slots = virtual_slots;
  s->slot_virtual = malloc(sizeof(int32_t) * (size_t)physical_slots);
  s->slot_x = calloc((size_t)physical_slots, sizeof(int32_t));
  s->slot_y = calloc((size_t)physical_slots, sizeof(int32_t));
  s->slot_moved = calloc((size_t)physical_slots, sizeof(bool));
  s->virtual_physical = malloc(sizeof(int32_t) * (size_t)virtual_slots);
  s->virtual_x = calloc((size_t)virtual_slots, sizeof(int32_t));
  s->virtual_y = calloc((size_t)virtual_slots, sizeof(int32_t));
  // A move frame: per virtual slot at most ABS_MT_SLOT, X and Y; then ABS_X, ABS_Y and SYN_REPORT.
  s->events = malloc(sizeof(touchd_shortcut_event) * (size_t)(3 * virtual_slots + 3));
  if (!s->slot_virtual || !s->slot_x || !s->slot_y || !s->slot_moved || !s->virtual_physical || !s->virtual_x ||
      !s->virtual_y || !s->events) {
    touchd_shortcut_destroy(s);
    return NULL;
  }
  for (int32_t i = 0; i < physical_slots; i++) s->slot_virtual[i] = -1;
  for (int32_t v = 0; v < virtual_slots; v++) s->virtual_physical[v] = -1;
  s->deadline = INFINITY;
  s->pointer_slot = -1;
  s->x_maximum = 1;
  s->y_maximum = 1;
  s->mapping.a = 1;
  s->mapping.e = 1;
  s->width = 1;
  s->height = 1;
  s->axis_x_maximum = 1;
  s->axis_y_maximum = 1;
  return s;
}

void touchd_shortcut_destroy(touchd_shortcut *s) {
  if (!s) return;
  free(s->slot_virtual);
  free(s->slot_x);
  free(s->slot_y);
  free(s->slot_moved);
  free(s->virtual_physical);
  free(s->virtual_x);
  free(s->virtual_y);
  free(s->events);
  free(s);
}

static void reset_frame(touchd_shortcut *s) {
  if (s->moved) {
    // Only armed slots are ever marked.
    for (int32_t v = 0; v < s->virtual_slots; v++) {
      int32_t slot = s->virtual_physical[v];
      if (slot >= 0) s->slot_moved[slot] = false;
    }
  }
  s->broken = false;
  s->moved = false;
}

void touchd_shortcut_disarm(touchd_shortcut *s) {
  s->armed = false;
  reset_frame(s);
}

static void read_abs(touchd_shortcut *s, uint16_t code, int32_t value) {
  switch (code) {
  case ABS_MT_SLOT_:
    // As the kernel and the assembler: a slot outside the device's is ignored.
    if (value >= 0 && value < s->physical_slots) s->current_slot = value;
    return;
  case ABS_MT_POSITION_X_:
  case ABS_MT_POSITION_Y_: {
    int32_t slot = s->current_slot;
    if (s->slot_virtual[slot] < 0) {
      s->broken = true;
      return;
    }
    int32_t *position = code == ABS_MT_POSITION_X_ ? &s->slot_x[slot] : &s->slot_y[slot];
    if (*position != value) {
      *position = value;
      s->slot_moved[slot] = true;
      s->moved = true;
    }
    return;
  }
  case ABS_MT_TRACKING_ID_:
  case ABS_MT_TOOL_TYPE_:
    s->broken = true;  // a touch begins, ends or turns palm
    return;
  default:
    // Size, pressure, orientation: no part of what is forwarded, but they move the contact in the
    // assembler, and a moved contact that is not forwarded keeps its frame from going ahead.
    if (code >= ABS_MT_TOUCH_MAJOR_ && code <= ABS_MT_TOOL_Y_ && s->slot_virtual[s->current_slot] < 0) s->broken = true;
    return;  // ABS_X/ABS_Y (the device's pointer emulation) and the like: the assembler reads none
  }
}

// AbsInfo.fraction (AxisScale.swift): (min(max(value, minimum), maximum) - minimum + 0.5) /
// (maximum - minimum + 1), the centre of the value's cell.
static inline double normalized(int32_t value, double minimum, double maximum) {
  return (swift_min(swift_max((double)value, minimum), maximum) - minimum + 0.5) / (maximum - minimum + 1);
}

// CalibrationMatrix.apply.
static inline void apply(const touchd_shortcut_matrix *m, double *x, double *y) {
  double nx = m->a * *x + m->b * *y + m->c;
  double ny = m->d * *x + m->e * *y + m->f;
  *x = nx;
  *y = ny;
}

// VirtualTouchscreen.units, through AbsInfo.units(atFraction:). False for a value Int32 cannot
// hold (never for a finite window).
static inline bool units(double points, double extent, int32_t minimum, int32_t maximum, int32_t *out) {
  double fraction = extent > 0 ? swift_min(swift_max(points / extent, 0), 1) : 0;
  double count = (double)maximum - (double)minimum + 1;
  double cell = floor(swift_min(swift_max(fraction, 0), 1) * count);
  double value = (double)minimum + swift_min(swift_max(cell, 0), count - 1);
  if (!(value >= -2147483648.0 && value < 2147483648.0)) return false;
  *out = (int32_t)value;
  return true;
}

// The pipeline's position of physical slot `slot` on the virtual device: FrameAssembler
// normalization, the device calibration, ScreenMapping.map (calibration, rotation, scale), then
// VirtualTouchscreen.position.
static bool position(const touchd_shortcut *s, int32_t slot, int32_t *x, int32_t *y) {
  double nx = normalized(s->slot_x[slot], s->x_minimum, s->x_maximum);
  double ny = normalized(s->slot_y[slot], s->y_minimum, s->y_maximum);
  if (s->has_calibration) apply(&s->calibration, &nx, &ny);
  apply(&s->mapping, &nx, &ny);
  double rx, ry;
  switch (s->rotation) {
  case 90: rx = 1 - ny; ry = nx; break;
  case 180: rx = 1 - nx; ry = 1 - ny; break;
  case 270: rx = ny; ry = 1 - nx; break;
  default: rx = nx; ry = ny; break;
  }
  return units(rx * s->width, s->width, s->axis_x_minimum, s->axis_x_maximum, x)
    && units(ry * s->height, s->height, s->axis_y_minimum, s->axis_y_maximum, y);
}

static inline void emit(touchd_shortcut *s, int64_t time, uint16_t type, uint16_t code, int32_t value) {
  s->events[s->event_count++] = (touchd_shortcut_event){time, type, code, value};
}

static bool finish_frame(touchd_shortcut *s, int64_t time) {
  bool composed = false;
  // Timestamp.seconds: Double(microseconds) / 1_000_000.
  if (s->broken || !s->moved || !((double)time / 1000000 < s->deadline)) goto done;
  // The positions first: a frame the arithmetic cannot take is the pipeline's, untouched.
  s->event_count = 0;
  int32_t current = s->virtual_current_slot;
  for (int32_t v = 0; v < s->virtual_slots; v++) {
    int32_t slot = s->virtual_physical[v];
    if (slot < 0 || !s->slot_moved[slot]) continue;
    int32_t x, y;
    if (!position(s, slot, &x, &y)) goto done;
    if (x == s->virtual_x[v] && y == s->virtual_y[v]) continue;
    // ForwardEncoder's move frame: slot by slot, only what changed, then pointer emulation.
    if (v != current) {
      current = v;
      emit(s, time, EV_ABS_, ABS_MT_SLOT_, v);
    }
    if (x != s->virtual_x[v]) emit(s, time, EV_ABS_, ABS_MT_POSITION_X_, x);
    if (y != s->virtual_y[v]) emit(s, time, EV_ABS_, ABS_MT_POSITION_Y_, y);
    s->virtual_x[v] = x;
    s->virtual_y[v] = y;
  }
  if (s->pointer_slot >= 0) {
    int32_t x = s->virtual_x[s->pointer_slot], y = s->virtual_y[s->pointer_slot];
    if (!s->has_pointer || s->pointer_x != x) emit(s, time, EV_ABS_, ABS_X_, x);
    if (!s->has_pointer || s->pointer_y != y) emit(s, time, EV_ABS_, ABS_Y_, y);
    s->has_pointer = true;
    s->pointer_x = x;
    s->pointer_y = y;
  }
  s->virtual_current_slot = current;
  if (s->event_count == 0) goto done;
  emit(s, time, EV_SYN_, SYN_REPORT_, 0);
  s->composed += 1;
  s->awaits_confirmation = true;
  composed = true;
done:
  touchd_shortcut_disarm(s);
  return composed;
}

bool touchd_shortcut_feed(touchd_shortcut *s, touchd_shortcut_event event) {
  if (!s->armed) return false;
  switch (event.type) {
  case EV_SYN_:
    if (event.code == SYN_REPORT_) return finish_frame(s, event.microseconds);
    s->broken = true;
    return false;
  case EV_ABS_:
    read_abs(s, event.code, event.value);
    return false;
  case EV_MSC_:
    return false;  // MSC_TIMESTAMP and the like: the assembler reads none
  default:
    s->broken = true;  // a key (BTN_TOUCH goes with a begin or an end), or anything else
    return false;
  }
}
