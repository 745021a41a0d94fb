#!/usr/bin/env bash
# scripts/check_layers.sh — proves the layering fence of the build (docs/architecture.md): for every pair of
# libraries, a header of a library that the other may not use does not even preprocess with that other
# library's compile flags, and one it may use does. Also refuses what would get around the fence or blur
# it: a quoted include with a path ("../x.h", "engine/x.h"), two files of one name in different libraries,
# a library's *_private.h included from another folder, and sqlite3.h outside the store.
# usage: scripts/check_layers.sh CC 'NAME|DIR|FLAGS' ...   (the Makefile's `make check-layers` passes these)
set -uo pipefail
cc=${1:?compiler}
shift
names=() dirs=() flags=()
for spec in "$@"; do
    IFS='|' read -r n d f <<<"$spec"
    names+=("$n") dirs+=("$d") flags+=("$f")
done
fail=0
bad() { echo "check-layers: $*" >&2; fail=1; }
pairs=0

for i in "${!names[@]}"; do
    read -ra fl <<<"${flags[$i]}"
    for j in "${!names[@]}"; do
        [ "$i" = "$j" ] && continue
        h=$(cd "${dirs[$j]}" && ls -- *.h 2>/dev/null | head -1)
        [ -n "$h" ] || continue
        allowed=0
        for f in "${fl[@]}"; do [ "$f" = "-I${dirs[$j]}" ] && allowed=1; done
        if printf '#include "%s"\n' "$h" | "$cc" "${fl[@]}" -E -x c - -o /dev/null 2>/dev/null; then
            [ $allowed = 1 ] || bad "${names[$i]} (${dirs[$i]}) can include ${dirs[$j]}/$h, which is not below it"
        else
            [ $allowed = 0 ] || bad "${names[$i]} (${dirs[$i]}) may use ${names[$j]} but cannot include ${dirs[$j]}/$h"
        fi
        pairs=$((pairs + 1))
    done
done

src_dirs=(arena agents ratings)
while IFS= read -r line; do
    bad "an include with a path reaches around the fence: $line"
done < <(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*/' "${src_dirs[@]}" --include='*.[ch]')
while IFS= read -r line; do
    bad "a library's private header is included outside its folder: $line"
done < <(grep -rnE '#[[:space:]]*include[[:space:]]*"[^"]*_private\.h"' "${src_dirs[@]}" tests --include='*.[ch]' |
         while IFS=: read -r f n rest; do
             h=$(sed -E 's/.*"([^"]*)".*/\1/' <<<"$rest")
             [ -e "$(dirname "$f")/$h" ] || echo "$f:$n:$rest"
         done)
while IFS= read -r line; do
    bad "only the store includes sqlite3.h: $line"
done < <(grep -rnE '#[[:space:]]*include[[:space:]]*<sqlite3\.h>' "${src_dirs[@]}" --include='*.[ch]' | grep -v '^arena/store/')
while IFS= read -r dup; do
    bad "two files named $dup: $(find "${src_dirs[@]}" -name "$dup" | tr '\n' ' ')"
done < <(find "${src_dirs[@]}" -name '*.[ch]' -printf '%f\n' | sort | uniq -d)

if [ $fail = 0 ]; then
    echo "check-layers: ${#names[@]} libraries, $pairs pairs checked, the fence holds"
fi
exit $fail
