/* evforward.c - the VM suite's minimal libevdev reader, three modes:
 *
 *   evforward NODE SOCKET   the latency baseline: listens on the Unix stream socket SOCKET, accepts
 *                           one client, then reads NODE with libevdev and writes one JSON line per
 *                           frame, {"type":"touches","time":SEC.USEC}, with the frame's kernel
 *                           timestamp (CLOCK_MONOTONIC). It does the least a daemon must do (read,
 *                           assemble a frame, write to a socket), so touchd's latency can be put
 *                           next to it as a ratio, which TCG emulation does not distort as much as
 *                           absolute times.
 *   evforward --count NODE SECONDS
 *                           the SYN_DROPPED witness: reads NODE for SECONDS (it is stopped with
 *                           SIGSTOP alongside touchd while the guest floods the device) or until
 *                           SIGTERM, resyncs through libevdev like touchd, then prints
 *                           "frames=N drops=D touches_down=T". (Also the grab witness: a reader
 *                           of a grabbed node counts no frame.)
 *   evforward --forward NODE
 *                           the minimal grab-and-forward, the forwarding latency baseline: grabs
 *                           NODE (EVIOCGRAB), creates a uinput copy of it named "NAME (evforward)",
 *                           prints "READY /dev/input/eventN" (the copy's node), then writes every
 *                           event read from NODE to the copy as it comes, SYN_REPORT included
 *                           (after a SYN_DROPPED, libevdev's resync events instead of the lost
 *                           ones), until SIGTERM or SIGINT; then removes the copy and ungrabs.
 *   evforward --stamps NODE
 *                           the forwarders' own delay: reads NODE (a forwarder's virtual node) and
 *                           records the kernel stamp (CLOCK_MONOTONIC) of each SYN_REPORT, i.e.
 *                           when the forwarder's frame reached the kernel; prints "READY", and at
 *                           SIGTERM "stamps T1 T2 ..." (seconds).
 *
 * Build: gcc -O2 -Wall -Wextra evforward.c $(pkg-config --cflags --libs libevdev) -o evforward
 */
#include <errno.h>
#include <fcntl.h>
#include <libevdev/libevdev-uinput.h>
#include <libevdev/libevdev.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static struct libevdev *open_node(const char *path, int *fd_out) {
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    struct libevdev *dev = NULL;
    if (fd < 0 || libevdev_new_from_fd(fd, &dev) < 0) {
        fprintf(stderr, "evforward: cannot open %s: %s\n", path, strerror(errno));
        exit(2);
    }
    /* Kernel timestamps on CLOCK_MONOTONIC, as touchd (EVIOCSCLOCKID); the default is REALTIME. */
    if (libevdev_set_clock_id(dev, CLOCK_MONOTONIC) < 0) {
        fprintf(stderr, "evforward: EVIOCSCLOCKID failed\n");
        exit(2);
    }
    *fd_out = fd;
    return dev;
}

static double monotonic_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Contacts down in libevdev's slot state (protocol B devices). */
static int touches_down(struct libevdev *dev) {
    int n = 0, slots = libevdev_get_num_slots(dev);
    for (int s = 0; s < slots; s++)
        if (libevdev_get_slot_value(dev, s, ABS_MT_TRACKING_ID) >= 0) n++;
    return n;
}

static volatile sig_atomic_t stop_requested;
static void request_stop(int sig) { (void)sig; stop_requested = 1; }

static int count_mode(const char *node, double seconds) {
    signal(SIGTERM, request_stop); /* the guest stops it with SIGTERM once the flood is read */
    int fd;
    struct libevdev *dev = open_node(node, &fd);
    printf("READY\n");
    fflush(stdout);
    long frames = 0, drops = 0;
    double deadline = monotonic_now() + seconds;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    while (!stop_requested && monotonic_now() < deadline) {
        poll(&p, 1, 100);
        struct input_event ev;
        int flag = LIBEVDEV_READ_FLAG_NORMAL, rc;
        while ((rc = libevdev_next_event(dev, flag, &ev)) >= 0) {
            if (rc == LIBEVDEV_READ_STATUS_SYNC) {
                /* Inside a resync: drain the synthesized state events, then back to normal. */
                if (ev.type == EV_SYN && ev.code == SYN_DROPPED) drops++;
                flag = LIBEVDEV_READ_FLAG_SYNC;
                continue;
            }
            flag = LIBEVDEV_READ_FLAG_NORMAL;
            if (ev.type == EV_SYN && ev.code == SYN_REPORT) frames++;
        }
        if (rc == -EAGAIN && flag == LIBEVDEV_READ_FLAG_SYNC) flag = LIBEVDEV_READ_FLAG_NORMAL;
        if (rc != -EAGAIN && rc < 0) break;
    }
    printf("frames=%ld drops=%ld touches_down=%d\n", frames, drops, touches_down(dev));
    return 0;
}

static int forward_mode(const char *node, const char *path) {
    int fd;
    struct libevdev *dev = open_node(node, &fd);
    int server = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path);
    unlink(path);
    if (bind(server, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(server, 1) < 0) {
        perror("evforward: bind/listen");
        return 2;
    }
    printf("READY\n");
    fflush(stdout);
    int client = accept(server, NULL, NULL);
    if (client < 0) {
        perror("evforward: accept");
        return 2;
    }
    struct pollfd p = {.fd = fd, .events = POLLIN};
    for (;;) {
        if (poll(&p, 1, -1) < 0) continue;
        struct timespec wake; /* when poll returned: the line carries it as "wake" */
        clock_gettime(CLOCK_MONOTONIC, &wake);
        struct input_event ev;
        int flag = LIBEVDEV_READ_FLAG_NORMAL, rc;
        while ((rc = libevdev_next_event(dev, flag, &ev)) >= 0) {
            flag = rc == LIBEVDEV_READ_STATUS_SYNC ? LIBEVDEV_READ_FLAG_SYNC : LIBEVDEV_READ_FLAG_NORMAL;
            if (ev.type != EV_SYN || ev.code != SYN_REPORT) continue;
            char line[128];
            int n = snprintf(line, sizeof line, "{\"type\":\"touches\",\"time\":%ld.%06ld,\"wake\":%ld.%06ld}\n",
                             (long)ev.input_event_sec, (long)ev.input_event_usec, (long)wake.tv_sec,
                             wake.tv_nsec / 1000);
            if (write(client, line, n) != n) return 0; /* the client went away: done */
        }
        if (rc == -ENODEV) return 0;
    }
}

static int grab_forward_mode(const char *node) {
    /* No SA_RESTART: the signal interrupts poll, and the loop ends. */
    struct sigaction sa = {.sa_handler = request_stop};
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    int fd;
    struct libevdev *dev = open_node(node, &fd);
    if (libevdev_grab(dev, LIBEVDEV_GRAB) < 0) {
        fprintf(stderr, "evforward: cannot grab %s\n", node);
        return 2;
    }
    char name[256];
    snprintf(name, sizeof name, "%s (evforward)", libevdev_get_name(dev));
    libevdev_set_name(dev, name);
    struct libevdev_uinput *uidev;
    int rc = libevdev_uinput_create_from_device(dev, LIBEVDEV_UINPUT_OPEN_MANAGED, &uidev);
    if (rc < 0) {
        fprintf(stderr, "evforward: cannot create the uinput copy: %s\n", strerror(-rc));
        return 2;
    }
    const char *devnode = libevdev_uinput_get_devnode(uidev);
    printf("READY %s\n", devnode ? devnode : "?");
    fflush(stdout);
    struct pollfd p = {.fd = fd, .events = POLLIN};
    rc = 0;
    while (!stop_requested && rc != -ENODEV) {
        if (poll(&p, 1, 500) < 0) continue; /* EINTR: the loop checks stop_requested */
        struct input_event ev;
        int flag = LIBEVDEV_READ_FLAG_NORMAL;
        while ((rc = libevdev_next_event(dev, flag, &ev)) >= 0) {
            /* After a SYN_DROPPED (not forwarded), libevdev's resync events bring the copy up to
             * date, ending with their own SYN_REPORT; then back to normal. */
            flag = rc == LIBEVDEV_READ_STATUS_SYNC ? LIBEVDEV_READ_FLAG_SYNC : LIBEVDEV_READ_FLAG_NORMAL;
            if (ev.type == EV_SYN && ev.code == SYN_DROPPED) continue;
            libevdev_uinput_write_event(uidev, ev.type, ev.code, ev.value);
        }
    }
    libevdev_uinput_destroy(uidev);
    libevdev_grab(dev, LIBEVDEV_UNGRAB);
    libevdev_free(dev);
    close(fd);
    return 0;
}

static int stamps_mode(const char *node) {
    struct sigaction sa = {.sa_handler = request_stop};
    sigaction(SIGTERM, &sa, NULL);
    int fd;
    struct libevdev *dev = open_node(node, &fd);
    printf("READY\n");
    fflush(stdout);
    size_t count = 0, capacity = 1024;
    double *stamps = malloc(capacity * sizeof *stamps);
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int rc = 0;
    while (!stop_requested && rc != -ENODEV) {
        if (poll(&p, 1, 500) < 0) continue;
        struct input_event ev;
        int flag = LIBEVDEV_READ_FLAG_NORMAL;
        while ((rc = libevdev_next_event(dev, flag, &ev)) >= 0) {
            flag = rc == LIBEVDEV_READ_STATUS_SYNC ? LIBEVDEV_READ_FLAG_SYNC : LIBEVDEV_READ_FLAG_NORMAL;
            if (rc != LIBEVDEV_READ_STATUS_SUCCESS || ev.type != EV_SYN || ev.code != SYN_REPORT) continue;
            if (count == capacity) stamps = realloc(stamps, (capacity *= 2) * sizeof *stamps);
            stamps[count++] = ev.input_event_sec + ev.input_event_usec / 1e6;
        }
    }
    printf("stamps");
    for (size_t i = 0; i < count; i++) printf(" %.6f", stamps[i]);
    printf("\n");
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "--count") == 0) return count_mode(argv[2], atof(argv[3]));
    if (argc == 3 && strcmp(argv[1], "--forward") == 0) return grab_forward_mode(argv[2]);
    if (argc == 3 && strcmp(argv[1], "--stamps") == 0) return stamps_mode(argv[2]);
    if (argc == 3) return forward_mode(argv[1], argv[2]);
    fprintf(stderr, "usage: evforward NODE SOCKET | evforward --count NODE SECONDS | evforward --forward NODE | evforward --stamps NODE\n");
    return 2;
}
