/* arena/base/isotime.h — the one ISO 8601 UTC timestamp format the project writes (database rows, log
 * lines): "YYYY-MM-DDTHH:MM:SS.mmmZ", millisecond resolution. */
#ifndef ARENA_BASE_ISOTIME_H
#define ARENA_BASE_ISOTIME_H

#define ISO_LEN 32 /* room for a timestamp and its NUL */

/* The current UTC time (CLOCK_REALTIME) as "YYYY-MM-DDTHH:MM:SS.mmmZ". */
void iso_now(char out[ISO_LEN]);

#endif
