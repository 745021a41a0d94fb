/* tests/unit/test_seeds.c — players' seeds (arena/coordinator/seeds.h): SipHash-2-4 with the reference test
 * vector, the same key, game seed and colour give the same seed, other keys and the other colour give other
 * seeds, fresh keys differ, and a bot that knows its own seed can no longer compute its opponent's the way it
 * could when seeds were the invertible splitmix64 of (game seed, colour). */
#include "mix.h"
#include "seeds.h"
#include "test_util.h"

/* The modular inverse of an odd 64-bit multiplier (Newton's iteration: each step doubles the correct bits). */
static uint64_t inverse(uint64_t c)
{
    uint64_t x = c; /* right to 3 bits for any odd c */
    for (int i = 0; i < 5; i++)
        x *= 2 - c * x;
    return x;
}

/* y ^ (y >> s) undone. */
static uint64_t unshift(uint64_t z, int s)
{
    uint64_t y = z;
    for (int i = 0; i < 64 / s + 1; i++)
        y = z ^ (y >> s);
    return y;
}

/* The inverse of mix64: what a bot could compute from a seed derived with it. */
static uint64_t unmix64(uint64_t z)
{
    z = unshift(z, 31) * inverse(0x94d049bb133111ebULL);
    z = unshift(z, 27) * inverse(0xbf58476d1ce4e5b9ULL);
    return unshift(z, 30);
}

/* The derivation players' seeds had before: invertible, so not a secret. */
static uint64_t old_player_seed(uint64_t seed, int colour)
{
    return mix64(seed + MIX_GOLDEN * (uint64_t)(colour + 1));
}

/* The attack on it: White's own seed gives the game seed, and from it Black's seed. */
static uint64_t black_from_white(uint64_t white_seed)
{
    uint64_t game = unmix64(white_seed) - MIX_GOLDEN * 2;
    return old_player_seed(game, HX_BLACK);
}

static const uint8_t key_a[SEEDS_KEY_BYTES] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };

static void siphash_reference_vector(void **state)
{
    (void)state;
    /* SipHash-2-4 paper's vectors: key 00..0f, message 00 01 .. 08 (9 bytes) -> b0 e4 a9 0b df 82 00 9e. The
     * message is the game seed in little-endian order and the colour byte, so seed 0x0706050403020100 and
     * "colour" 8 are that message. */
    assert_true(seeds_player(key_a, 0x0706050403020100ULL, 8) == 0x9e0082df0ba9e4b0ULL);
}

static void same_inputs_same_seed_other_key_other_seed(void **state)
{
    (void)state;
    uint8_t key_b[SEEDS_KEY_BYTES];
    memcpy(key_b, key_a, sizeof key_b);
    key_b[SEEDS_KEY_BYTES - 1] ^= 1; /* one bit of the key */
    for (uint64_t i = 0; i < 2000; i++) {
        uint64_t game = mix_stream(42, i) >> 1; /* game seeds as a league makes them */
        for (int c = 0; c < 2; c++) {
            uint64_t s = seeds_player(key_a, game, c);
            assert_true(s == seeds_player(key_a, game, c));
            assert_true(s != seeds_player(key_b, game, c));
            assert_true(s != old_player_seed(game, c));
        }
        assert_true(seeds_player(key_a, game, HX_BLACK) != seeds_player(key_a, game, HX_WHITE));
        assert_true(seeds_player(key_a, game, HX_BLACK) != seeds_player(key_a, game + 1, HX_BLACK));
    }
}

static void fresh_keys_differ(void **state)
{
    (void)state;
    uint8_t k1[SEEDS_KEY_BYTES], k2[SEEDS_KEY_BYTES], zero[SEEDS_KEY_BYTES] = { 0 };
    assert_int_equal(seeds_new_key(k1), 0);
    assert_int_equal(seeds_new_key(k2), 0);
    assert_memory_not_equal(k1, k2, SEEDS_KEY_BYTES);
    assert_memory_not_equal(k1, zero, SEEDS_KEY_BYTES);
    assert_true(seeds_player(k1, 7, HX_BLACK) != seeds_player(k2, 7, HX_BLACK));
}

static void own_seed_does_not_give_the_opponents(void **state)
{
    (void)state;
    for (uint64_t x = 1; x < 1000000; x = x * 3 + 1)
        assert_true(unmix64(mix64(x)) == x && unmix64(mix64(~x)) == ~x);
    for (uint64_t i = 0; i < 2000; i++) {
        uint64_t game = mix_stream(7, i) >> 1;
        /* the attack works on the old derivation: the test could tell */
        assert_true(black_from_white(old_player_seed(game, HX_WHITE)) == old_player_seed(game, HX_BLACK));
        /* and does not on the keyed one, neither through the old inverse nor by the old relation itself */
        uint64_t white = seeds_player(key_a, game, HX_WHITE), black = seeds_player(key_a, game, HX_BLACK);
        assert_true(black_from_white(white) != black);
        assert_true(unmix64(white) - MIX_GOLDEN * 2 != game);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(siphash_reference_vector),
        cmocka_unit_test(same_inputs_same_seed_other_key_other_seed),
        cmocka_unit_test(fresh_keys_differ),
        cmocka_unit_test(own_seed_does_not_give_the_opponents),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
