/* arena/coordinator/seeds.c — players' seeds as SipHash-2-4 of (game seed, colour) under the league's or match's
 * secret, and drawing secrets (see seeds.h). libsodium is initialised once, on first use. */
#include "seeds.h"

#include <pthread.h>
#include <stdbool.h>

#include <sodium.h>

_Static_assert(SEEDS_KEY_BYTES == crypto_shorthash_KEYBYTES, "the secret is a crypto_shorthash key");
_Static_assert(crypto_shorthash_BYTES == 8, "a player's seed is one 64-bit hash");

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool ready;

static void init(void)
{
    ready = sodium_init() >= 0; /* 1: already initialised, also fine */
}

int seeds_new_key(uint8_t key[SEEDS_KEY_BYTES])
{
    pthread_once(&once, init);
    if (!ready)
        return -1;
    randombytes_buf(key, SEEDS_KEY_BYTES);
    return 0;
}

uint64_t seeds_player(const uint8_t key[SEEDS_KEY_BYTES], uint64_t game_seed, int colour)
{
    pthread_once(&once, init); /* SipHash itself needs nothing of the initialisation; libsodium asks for it first */
    /* the message: the game seed in little-endian order, then the colour, so the value is the same on any host */
    unsigned char in[9], out[crypto_shorthash_BYTES];
    for (int i = 0; i < 8; i++)
        in[i] = (unsigned char)(game_seed >> (8 * i));
    in[8] = (unsigned char)colour;
    crypto_shorthash(out, in, sizeof in, key);
    uint64_t seed = 0;
    for (int i = 0; i < 8; i++)
        seed |= (uint64_t)out[i] << (8 * i);
    return seed;
}
