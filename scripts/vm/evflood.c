/* evflood.c - the VM suite's event flood writer: a uinput protocol-B touchscreen that writes raw
 * `struct input_event`s in big batches, far faster than python-libevdev can.
 *
 *   evflood [SLOTS]         creates "touchd VM flood" (SLOTS slots, default 10; 1920x1080 units,
 *                           INPUT_PROP_DIRECT, BTN_TOUCH), prints "created /dev/input/eventN", then
 *                           reads one command per line on stdin and answers "ok COMMAND ..." (as
 *                           uinput.py does, so lib.sh's `ui` drives it):
 *     flood N               N events (rounded up to whole frames) as fast as write(2) takes them, in
 *                           batches of 4096: every frame moves all the fingers (ABS_MT_SLOT,
 *                           ABS_MT_POSITION_X, ABS_MT_POSITION_Y for each, then SYN_REPORT); every 100
 *                           frames they lift and land again with new tracking ids; at the end they
 *                           all lift. Answers "ok flood N events=E seconds=S rate=R" (events/s).
 *     quit                  destroys the device and exits (so does end of input)
 *
 * The kernel stamps each event when it arrives (the time field is ignored), so N events written in
 * S seconds are stamped within S seconds. The flood is ~31 events per frame on 10 slots, which fits
 * the input core's packet (no SYN_REPORT of its own), and every frame changes every value it sends,
 * so the core filters nothing out.
 *
 * Build: gcc -O2 -Wall -Wextra evflood.c -o evflood
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <linux/uinput.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define BATCH 4096

static int fd = -1;
static struct input_event batch[BATCH];
static int queued = 0;
static long long written = 0;

static void die(const char *what) {
    fprintf(stdout, "error %s: %s\n", what, strerror(errno));
    fflush(stdout);
    exit(2);
}

static void flush_batch(void) {
    size_t bytes = (size_t)queued * sizeof(struct input_event);
    const char *p = (const char *)batch;
    while (bytes > 0) {
        ssize_t n = write(fd, p, bytes);
        if (n < 0) {
            if (errno == EINTR) continue;
            die("write");
        }
        p += n;
        bytes -= (size_t)n;
    }
    written += queued;
    queued = 0;
}

static void emit(unsigned short type, unsigned short code, int value) {
    struct input_event *e = &batch[queued++];
    memset(e, 0, sizeof(*e));
    e->type = type;
    e->code = code;
    e->value = value;
    if (queued == BATCH) flush_batch();
}

static void abs_setup(unsigned short code, int minimum, int maximum) {
    struct uinput_abs_setup abs;
    memset(&abs, 0, sizeof(abs));
    abs.code = code;
    abs.absinfo.minimum = minimum;
    abs.absinfo.maximum = maximum;
    abs.absinfo.resolution = 10;
    if (ioctl(fd, UI_SET_ABSBIT, code) < 0 || ioctl(fd, UI_ABS_SETUP, &abs) < 0) die("UI_ABS_SETUP");
}

/* The event node of the uinput device (UI_GET_SYSNAME names /sys/devices/virtual/input/inputN). */
static void print_node(void) {
    char sysname[64] = "", path[160];
    if (ioctl(fd, UI_GET_SYSNAME(sizeof(sysname)), sysname) < 0) die("UI_GET_SYSNAME");
    snprintf(path, sizeof(path), "/sys/devices/virtual/input/%s", sysname);
    for (int attempt = 0; attempt < 100; attempt++) {
        DIR *dir = opendir(path);
        struct dirent *entry;
        while (dir && (entry = readdir(dir)) != NULL) {
            if (strncmp(entry->d_name, "event", 5) == 0) {
                printf("created /dev/input/%s\n", entry->d_name);
                fflush(stdout);
                closedir(dir);
                return;
            }
        }
        if (dir) closedir(dir);
        usleep(50000);
    }
    errno = ENOENT;
    die("no event node");
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int slots = 10;
static int next_id = 1;

static void flood(long long events) {
    long long start = written;
    double t0 = now();
    int frame = 0;
    while (written + queued - start < events) {
        int cycle = frame % 100;
        for (int s = 0; s < slots; s++) {
            emit(EV_ABS, ABS_MT_SLOT, s);
            if (cycle == 0) emit(EV_ABS, ABS_MT_TRACKING_ID, next_id++ & 0xffff);
            if (cycle == 99) {
                emit(EV_ABS, ABS_MT_TRACKING_ID, -1);
            } else {
                emit(EV_ABS, ABS_MT_POSITION_X, 100 + (s * 170) % 1700 + cycle * 2);
                emit(EV_ABS, ABS_MT_POSITION_Y, 200 + cycle * 7);
            }
        }
        if (cycle == 0) emit(EV_KEY, BTN_TOUCH, 1);
        if (cycle == 99) emit(EV_KEY, BTN_TOUCH, 0);
        emit(EV_SYN, SYN_REPORT, 0);
        frame++;
    }
    /* Every finger lifts at the end. */
    if (frame % 100 != 0) {
        for (int s = 0; s < slots; s++) {
            emit(EV_ABS, ABS_MT_SLOT, s);
            emit(EV_ABS, ABS_MT_TRACKING_ID, -1);
        }
        emit(EV_KEY, BTN_TOUCH, 0);
        emit(EV_SYN, SYN_REPORT, 0);
    }
    flush_batch();
    double seconds = now() - t0;
    long long n = written - start;
    printf("ok flood %lld events=%lld seconds=%.3f rate=%.0f\n", events, n, seconds, n / seconds);
    fflush(stdout);
}

int main(int argc, char **argv) {
    if (argc > 1) slots = atoi(argv[1]);
    if (slots < 1 || slots > 64) {
        fprintf(stderr, "evflood: SLOTS must be 1...64\n");
        return 2;
    }
    fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK);
    if (fd < 0) die("open /dev/uinput");
    if (ioctl(fd, UI_SET_EVBIT, EV_SYN) < 0 || ioctl(fd, UI_SET_EVBIT, EV_KEY) < 0 ||
        ioctl(fd, UI_SET_EVBIT, EV_ABS) < 0 || ioctl(fd, UI_SET_KEYBIT, BTN_TOUCH) < 0 ||
        ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT) < 0)
        die("UI_SET_*BIT");
    abs_setup(ABS_X, 0, 1919);
    abs_setup(ABS_Y, 0, 1079);
    abs_setup(ABS_MT_SLOT, 0, slots - 1);
    abs_setup(ABS_MT_TRACKING_ID, 0, 65535);
    abs_setup(ABS_MT_POSITION_X, 0, 1919);
    abs_setup(ABS_MT_POSITION_Y, 0, 1079);
    struct uinput_setup setup;
    memset(&setup, 0, sizeof(setup));
    setup.id.bustype = BUS_VIRTUAL;
    setup.id.vendor = 0x1234;
    setup.id.product = 0x5679;
    snprintf(setup.name, sizeof(setup.name), "touchd VM flood");
    if (ioctl(fd, UI_DEV_SETUP, &setup) < 0 || ioctl(fd, UI_DEV_CREATE) < 0) die("UI_DEV_CREATE");
    print_node();
    char line[256];
    while (fgets(line, sizeof(line), stdin)) {
        long long n;
        if (strncmp(line, "quit", 4) == 0) break;
        if (sscanf(line, "flood %lld", &n) == 1 && n > 0) {
            flood(n);
        } else {
            line[strcspn(line, "\n")] = 0;
            printf("error %s: unknown command\n", line);
            fflush(stdout);
        }
    }
    ioctl(fd, UI_DEV_DESTROY);
    close(fd);
    return 0;
}
