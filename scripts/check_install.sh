#!/usr/bin/env bash
# scripts/check_install.sh — `make install` as a user of the libraries meets it: installs into a temporary
# prefix, then compiles a program that includes every installed header as <darkhex/NAME.h> and uses every
# installed library, with nothing but `pkg-config --cflags --libs darkhex` for where they are, links it, and
# runs it. Fails naming the header, library or step that broke. The headers are found only under their
# folder: darkhex.pc must not put include/darkhex/ itself on the path (a generic name such as board.h or
# json.h would then meet another library's). Run from the top of the source tree (make check-install); CC and PROBE_FLAGS
# (the build mode's link flags, e.g. the sanitizers of SAN=1) are used for the probe.
set -euo pipefail

# One function of each library, referenced by the probe so that the link really needs every archive (and
# more where one part of an archive links a system library of its own: solver's vc_check needs GMP).
uses=(base:clk_now engine:hx_variant_parse protocol:pm_encode store:store_open solver:sv_tree_build solver:vc_check solver:lx_solve
      ratings:rt_data_init sandbox:sb_available coordinator:cfg_load bot:bot_legal trainer:tc_init bridge:bb_defaults
      rl:rl_epsilon rcfr:rc_config_defaults mc:mc_choose report:doc_init server:ws_defaults
      ladder:ld_limits_default ismcts:ism_consistent)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"
make --no-print-directory -s install PREFIX="$prefix" DESTDIR= >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log" >&2; echo "check-install: make install PREFIX=$prefix failed" >&2; exit 1; }

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
pkg-config --exists darkhex || { echo "check-install: pkg-config does not find darkhex.pc" >&2; exit 1; }
flags=$(pkg-config --cflags --libs darkhex)
case " $flags " in
*"/include/darkhex "* | *"/include/darkhex/ "*)
    echo "check-install: darkhex.pc puts include/darkhex itself on the include path ($flags); it must give" \
        "include/, so that programs write #include <darkhex/NAME.h>" >&2
    exit 1
    ;;
esac

probe="$tmp/probe.c"
{
    echo '/* includes every installed header and uses every installed library */'
    for h in "$prefix"/include/darkhex/*.h; do printf '#include <darkhex/%s>\n' "$(basename "$h")"; done
    echo '#include <stdio.h>'
    echo 'typedef void (*fn)(void);'
    printf 'static volatile fn uses[] = {'
    for u in "${uses[@]}"; do printf ' (fn)%s,' "${u#*:}"; done
    echo ' };'
    echo 'int main(void)'
    echo '{'
    echo '    int ok = hx_variant_parse("abrupt-flash") >= 0 && clk_now() > 0;'
    echo '    size_t n = 0;'
    echo '    for (size_t i = 0; i < sizeof uses / sizeof uses[0]; i++) n += uses[i] != NULL;'
    echo '    printf("%zu libraries, variant %s\n", n, ok ? "parsed" : "NOT parsed");'
    echo '    return ok ? 0 : 1;'
    echo '}'
} >"$probe"

for a in "$prefix"/lib/libdarkhex-*.a; do
    lib=$(basename "$a" .a); lib=${lib#libdarkhex-}
    sym=
    for u in "${uses[@]}"; do [ "${u%%:*}" = "$lib" ] && sym=${u#*:}; done
    [ -n "$sym" ] || { echo "check-install: no function of the installed library $lib is used by the probe (add one to scripts/check_install.sh)" >&2; exit 1; }
    nm -g --defined-only "$a" 2>/dev/null | grep -w "$sym" >/dev/null ||
        { echo "check-install: $sym is not defined in $(basename "$a")" >&2; exit 1; }
done

# The paths come from pkg-config alone; the rest is the language and the warnings (and the build mode's
# sanitizers). Its flags after the source, so that its libraries come after the probe that needs them.
# shellcheck disable=SC2086
if ! ${CC:-cc} -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L ${PROBE_FLAGS:-} \
        "$probe" -o "$tmp/probe" $flags 2>"$tmp/cc.log"; then
    cat "$tmp/cc.log" >&2
    echo "check-install: a program using every installed header and library does not build with pkg-config" >&2
    exit 1
fi
out=$("$tmp/probe")
echo "check-install: $(ls "$prefix"/include/darkhex/*.h | wc -l) headers, $(ls "$prefix"/lib/libdarkhex-*.a | wc -l) libraries installed; probe: $out"
