#!/usr/bin/env bash
# scripts/deps.sh — installs the Debian packages the project needs, only when something is missing.
# Checks pkg-config modules, the GLPK header (no pkg-config module), the gnuplot binary and the Python modules of the example bot; installs
# through apt-get (sudo when not root). `scripts/deps.sh test` (what `make test` runs) also wants what only the
# tests use: Debian's chromium (the browser tests render the nightly page and the heatmaps headless) and
# libpng-dev (they read its screenshots), slurm-wlm and munge (the Slurm scripts run on a private cluster). `scripts/deps.sh fuzz` checks for clang instead (libFuzzer, for
# `make fuzz`).
set -euo pipefail

if [ "${1:-}" = fuzz ]; then
    modules=()
    packages=(clang)
    missing=()
    command -v clang >/dev/null 2>&1 || missing+=(clang)
fi

if [ "${1:-}" != fuzz ]; then
# clp: COIN-OR CLP, the sequence-form LP solver of arena classify (and arena solve --solver clp) (coinor-libclp-dev).
# gmp: GMP's exact rationals, for the value certificates' checker (arena solve --certificate, arena classify
# --check) (libgmp-dev).
# QSopt_ex: exact rational LPs, for arena solve --method sequence-oracle --exact (libqsopt-ex-dev; no
# pkg-config module: looked for by its header below).
modules=(libzmq msgpack sqlite3 cmocka libmd libsodium libseccomp xgboost fann libmicrohttpd libarchive clp gmp)
packages=(pkg-config libzmq3-dev libmsgpack-dev libsqlite3-dev gnuplot-nox libcmocka-dev libmd-dev
          libsodium-dev libseccomp-dev bubblewrap libxgboost-dev libfann-dev
          python3-zmq python3-msgpack libglpk-dev libmicrohttpd-dev libarchive-dev coinor-libclp-dev libgmp-dev
          libqsopt-ex-dev)

missing=()
if ! command -v pkg-config >/dev/null 2>&1; then
    missing+=(pkg-config)
else
    for m in "${modules[@]}"; do
        pkg-config --exists "$m" || missing+=("$m")
    done
fi
command -v gnuplot >/dev/null 2>&1 || missing+=(gnuplot)
# GLPK (arena solve's LP solver) ships no pkg-config module: look for its header.
[ -f /usr/include/glpk.h ] || missing+=(libglpk-dev)
[ -f /usr/include/qsopt_ex/QSopt_ex.h ] || missing+=(libqsopt-ex-dev)
# Every bot runs in a bubblewrap sandbox (docs/reliability.md).
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
# The example Python bot (agents/examples/random_bot.py) runs on Debian's python3 with these modules.
/usr/bin/python3 -c 'import zmq, msgpack' >/dev/null 2>&1 || missing+=(python3-zmq python3-msgpack)
if [ "${1:-}" = test ]; then
    packages+=(chromium libpng-dev slurm-wlm munge)
    [ -x /usr/bin/chromium ] || missing+=(chromium)
    # the Slurm scripts are tested against a private single-node cluster (tests/e2e/slurm_cluster.sh)
    [ -x /usr/sbin/slurmctld ] && [ -x /usr/sbin/slurmd ] && [ -x /usr/sbin/munged ] || missing+=(slurm-wlm munge)
    pkg-config --exists libpng 2>/dev/null || missing+=(libpng)
fi
fi

[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: missing ${missing[*]}; installing ${packages[*]}" >&2
sudo=()
if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
        echo "deps: not root and no sudo; install as root: apt-get install ${packages[*]}" >&2
        exit 1
    fi
    sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y --no-install-recommends "${packages[@]}"
