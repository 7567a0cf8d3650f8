#ifndef CHEAP_H
#define CHEAP_H
#include <stddef.h>

/// Bytes the process's heap has handed out and not taken back (glibc's mallinfo2().uordblks): what
/// the scene memory benchmark reads before and after building a scene. Swift's Glibc module does
/// not carry <malloc.h>.
size_t cheap_bytes_in_use(void);

#endif
