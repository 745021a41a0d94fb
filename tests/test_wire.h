/* tests/test_wire.h — for tests of protocol messages: send one through the wire format and back. */
#ifndef TESTS_TEST_WIRE_H
#define TESTS_TEST_WIRE_H

#include "protocol.h"
#include "test_util.h"

/* Encodes `in` and decodes it into `out`, as the receiving side would; fails the test on any error. */
static inline void through_wire(const pm_msg *in, pm_msg *out)
{
    static uint8_t bytes[PM_MAX_MESSAGE];
    static char reason[256];
    size_t n = pm_encode(in, bytes, sizeof bytes);
    assert_true(n > 0);
    if (pm_decode(bytes, n, out, reason, sizeof reason) != 0)
        fail_msg("decode failed: %s", reason);
    assert_int_equal(out->type, in->type);
}

#endif
