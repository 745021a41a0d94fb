#!/usr/bin/env bash
# tests/e2e/slurm_cluster.sh — a private single-node Slurm cluster for the tests: a munge daemon with its own
# key and socket, slurmctld and slurmd on this host, every file (config, state, logs, sockets) under DIR.
#   start DIR   writes DIR/slurm.conf, starts the daemons, waits until the node is idle; prints the SLURM_CONF to
#               export; exit 0, or 77 (with the reason on stderr) when no cluster can be started here (not root,
#               Slurm or munge not installed), 1 when starting failed (the logs under DIR say why)
#   stop DIR    stops what start started
set -uo pipefail
cmd=${1:?start|stop} dir=${2:?directory}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

stop() {
    for f in slurmd.pid slurmctld.pid munged.pid; do
        [ -s "$dir/$f" ] && kill "$(cat "$dir/$f")" 2>/dev/null
    done
    sleep 1
    for f in slurmd.pid slurmctld.pid munged.pid; do
        [ -s "$dir/$f" ] && kill -9 "$(cat "$dir/$f")" 2>/dev/null
        rm -f "$dir/$f"
    done
    return 0
}

if [ "$cmd" = stop ]; then
    stop
    exit 0
fi

for p in slurmctld slurmd sbatch squeue sinfo munged; do
    command -v "$p" >/dev/null 2>&1 || [ -x "/usr/sbin/$p" ] || { echo "no $p (Debian's slurm-wlm and munge)" >&2; exit 77; }
done
[ "$(id -u)" -eq 0 ] || { echo "slurmd must run as root to start jobs; the tests are not root" >&2; exit 77; }
PATH=$PATH:/usr/sbin
host=$(hostname -s)
# two free ports
ports=($(python3 -c 'import socket
s=[socket.socket() for _ in range(2)]
[x.bind(("127.0.0.1",0)) for x in s]
print(*[x.getsockname()[1] for x in s])' 2>/dev/null || echo 16817 16818))
mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
chmod 700 "$dir/munge"
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$dir/munge/munge.key"
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.sock" \
    --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/seed" \
    || { echo "munged did not start (see $dir/munged.log)" >&2; exit 1; }
cpus=$(nproc)
cat >"$dir/slurm.conf" <<CONF
ClusterName=arenatest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=${ports[0]}
SlurmdPort=${ports[1]}
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
export SLURM_CONF=$dir/slurm.conf
slurmctld -i || { stop; echo "slurmctld did not start (see $dir/slurmctld.log)" >&2; exit 1; }
slurmd || { stop; echo "slurmd did not start (see $dir/slurmd.log)" >&2; exit 1; }
for _ in $(seq 60); do
    state=$(sinfo -h -o %T 2>/dev/null | head -1)
    case "$state" in idle*|mixed*|allocated*) echo "$SLURM_CONF"; exit 0 ;; esac
    sleep 1
done
echo "the node did not come up (state '$state'; see $dir/slurmctld.log, $dir/slurmd.log)" >&2
stop
exit 1
