#include "cforward.h"

#include <linux/input.h>
#include <stdio.h>
#include <unistd.h>

void cforward_run(int in, int out) {
    struct input_event events[64];
    for (;;) {
        ssize_t n = read(in, events, sizeof events);
        if (n <= 0) return;
        for (size_t i = 0; i < (size_t)n / sizeof events[0]; i++) {
            if (events[i].type != EV_SYN || events[i].code != SYN_REPORT) continue;
            char line[96];
            int length = snprintf(line, sizeof line, "{\"type\":\"touches\",\"time\":%ld.%06ld}\n",
                                  (long)events[i].input_event_sec, (long)events[i].input_event_usec);
            if (write(out, line, (size_t)length) != length) return;
        }
    }
}
