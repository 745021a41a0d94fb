/* tests/mixcert_kit.h — for the tests of the tree-free oracles (test_dowalk, test_doseq): the value
 * certificate of a pair of kept mixtures (dowalk_cert.h), written, verified by the checker, its bounds the
 * solver's own and holding the game's value. */
#ifndef TESTS_MIXCERT_KIT_H
#define TESTS_MIXCERT_KIT_H

#include <math.h>
#include <stdio.h>
#include <unistd.h>

#include "dowalk_cert.h"
#include "test_util.h"
#include "valcert.h"

/* Writes the certificate of mix (freed here) for the R x C board of v and checks it: the checker verifies it,
 * its bounds are at least as tight as the solver's lower and upper, within 1e-6 (the rounding of the weights;
 * the writer keeps the best rounding, which may guarantee more than the solver's mixture) and hold value; when
 * the solver's bounds met, it is exact at value. */
static inline void mixcert_check(hx_variant v, int rows, int cols, dw_mixture mix[2], double value, double lower,
                                 double upper)
{
    char path[64], err[700] = "", msg[1200];
    snprintf(path, sizeof path, "/tmp/mixcert_%d.value", (int)getpid());
    vw_options vo;
    vw_options_default(&vo);
    vw_result vr;
    if (dw_write_certificate(v, rows, cols, mix, &vo, path, &vr, err, sizeof err) != 0)
        fail_msg("dw_write_certificate %s %dx%d: %s", hx_variant_name(v), rows, cols, err);
    dw_mixture_free(&mix[0]);
    dw_mixture_free(&mix[1]);
    assert_int_equal(vc_check_file(path, 0, msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "verified"));
    if (!(vr.lower_d > lower - 1e-6 && vr.upper_d < upper + 1e-6))
        fail_msg("%s %dx%d: the certificate's bounds [%.12f, %.12f], the solver's [%.12f, %.12f]", hx_variant_name(v),
                 rows, cols, vr.lower_d, vr.upper_d, lower, upper);
    assert_true(vr.lower_d <= value + 1e-9 && vr.upper_d >= value - 1e-9);
    if (upper - lower < 1e-10) {
        assert_true(vr.exact);
        assert_true(fabs(vr.lower_d - value) < 1e-9);
    }
    vw_result_free(&vr);
    unlink(path);
}

#endif
