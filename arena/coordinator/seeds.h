/* arena/coordinator/seeds.h — the seed each player is sent in game_start, and the secret it is derived with.
 *
 * A game's stored seed is no secret (it derives from the league or match seed, which is in the config or on
 * the command line), and a bot knows its own seed. So a player's seed is a keyed hash of (game seed, colour)
 * under a secret the coordinator draws for each league (and each `arena match` run) and keeps in the results
 * database: without the secret, a bot can tell neither the game seed nor its opponent's seed from its own.
 * With the secret, the same game gets the same seeds again (a resumed league, a replay). The hash is SipHash-2-4
 * (libsodium's crypto_shorthash), a pseudo-random function under its 16-byte key. */
#ifndef ARENA_COORDINATOR_SEEDS_H
#define ARENA_COORDINATOR_SEEDS_H

#include <stdint.h>

#define SEEDS_KEY_BYTES 16 /* the secret: a SipHash-2-4 key */

/* Draws a fresh secret from the system's random source. Returns 0, or -1 when libsodium cannot be
 * initialised (no random source). */
int seeds_new_key(uint8_t key[SEEDS_KEY_BYTES]);

/* The seed sent to the player of `colour` (HX_BLACK or HX_WHITE) in the game whose stored seed is game_seed. */
uint64_t seeds_player(const uint8_t key[SEEDS_KEY_BYTES], uint64_t game_seed, int colour);

#endif
