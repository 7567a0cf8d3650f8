#ifndef CFORWARD_H
#define CFORWARD_H

/// The latency benchmark's baseline: a minimal C reader, as scripts/vm/evforward.c is in the VM.
/// Blocks in read(2) on `in` (raw `struct input_event`s, as an evdev node gives them), and for
/// each SYN_REPORT writes `{"type":"touches","time":SEC.USEC}\n` to `out`. Returns when `in`
/// reaches its end or a read or write fails.
void cforward_run(int in, int out);

#endif
