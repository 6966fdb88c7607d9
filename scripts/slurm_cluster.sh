#!/usr/bin/env bash
# A private single-node Slurm cluster on this machine, for the split bake's test and benchmark
# (scripts/farm_bake.sh): Debian's slurm-wlm and munge, as root, without systemd, nothing written
# outside the state directory. Its own munge key and socket (munged -F --force), its own
# slurm.conf (non-default ports picked free per run, so two runs never clash), slurmctld -D and
# slurmd -D in the background, stopped by their PIDs. No accounting: job states come from
# `squeue -t all`.
#
# Usage: slurm_cluster.sh start|stop|status STATE_DIR
#   start   writes the key and config, starts munged, slurmctld, slurmd, waits (time limits) until
#           the node is idle; prints the line to source (STATE_DIR/env: SLURM_CONF=...)
#   stop    stops the three daemons by their PIDs (TERM, then KILL after a time limit)
#   status  the daemons' PIDs and `sinfo`
# Exit codes: 0 ok; 1 a daemon failed or a wait timed out (its log's tail is printed); 2 usage;
# 3 slurmd refused to start on this machine (its first error is printed, the cluster stopped).
set -euo pipefail

die() { echo "slurm_cluster: $*" >&2; exit 1; }
usage() { echo "usage: slurm_cluster.sh start|stop|status STATE_DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
cmd=$1
mkdir -p "$2"
dir=$(cd "$2" && pwd)

# wait_for SECONDS WHAT COMMAND...: runs COMMAND every 0.2 s until it succeeds; fails naming WHAT.
wait_for() {
  local limit=$1 what=$2; shift 2
  local end=$((SECONDS + limit))
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $end ] || return 1
    sleep 0.2
  done
}

alive() { [ -f "$dir/$1.pid" ] && kill -0 "$(cat "$dir/$1.pid")" 2>/dev/null; }

# The log's last lines, for a daemon that did not come up.
show_log() { echo "--- $1 (last 20 lines) ---" >&2; tail -n 20 "$1" >&2 2>/dev/null || true; }

# stop_pid NAME SECONDS: TERM, wait, then KILL (slurmd may ignore TERM for about 10 s).
stop_pid() {
  local name=$1 limit=$2
  alive "$name" || { rm -f "$dir/$name.pid"; return 0; }
  local pid; pid=$(cat "$dir/$name.pid")
  kill -TERM "$pid" 2>/dev/null || true
  if ! wait_for "$limit" "$name to exit" bash -c "! kill -0 $pid"; then
    echo "slurm_cluster: $name (pid $pid) still running after ${limit}s: KILL" >&2
    kill -KILL "$pid" 2>/dev/null || true
    wait_for 5 "$name to die" bash -c "! kill -0 $pid" || echo "slurm_cluster: $name (pid $pid) did not die" >&2
  fi
  rm -f "$dir/$name.pid"
}

# A TCP port nobody listens on, from a range Slurm and common services do not use (6817/6818 are
# Slurm's defaults: never those).
port_in_use() { grep -qi ":$(printf '%04X' "$1") " /proc/net/tcp /proc/net/tcp6 2>/dev/null; }
free_port() {
  local p tries=0
  while :; do
    p=$((20000 + (RANDOM * 32768 + RANDOM) % 12000))  # below Linux's ephemeral ports (32768 up)
    port_in_use "$p" || { echo "$p"; return; }
    tries=$((tries + 1)); [ $tries -lt 100 ] || die "no free TCP port found in 20000..31999"
  done
}

start() {
  for exe in munged slurmctld slurmd sinfo; do
    command -v "$exe" >/dev/null 2>&1 || [ -x "/usr/sbin/$exe" ] ||
      die "$exe not found (install slurm-wlm and munge: scripts/setup.sh)"
  done
  export PATH="$PATH:/usr/sbin"
  [ "$(id -u)" -eq 0 ] || die "run as root (slurmd starts jobs as their user; this cluster's SlurmUser is root)"
  if alive munged || alive slurmctld || alive slurmd; then die "a cluster is already running in $dir (stop it first)"; fi
  mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
  chmod 700 "$dir/munge"
  # munged refuses a key or socket directory others can write; --force lets it run as root with
  # the key in a private directory.
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1 count=1024 status=none
  chmod 400 "$dir/munge/munge.key"
  local host; host=$(uname -n); host=${host%%.*}  # the short name, without a DNS look-up
  local ctld_port slurmd_port
  ctld_port=$(free_port)
  slurmd_port=$(free_port)
  [ "$slurmd_port" != "$ctld_port" ] || slurmd_port=$((ctld_port + 1))
  local cpus; cpus=$(nproc)
  cat >"$dir/slurm.conf" <<EOF
# Written by scripts/slurm_cluster.sh: a private single-node cluster (state in $dir).
ClusterName=navkit$$
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.slurmpid
SlurmdPidFile=$dir/slurmd.slurmpid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=600
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  # slurmd (22.05) initialises its cgroup plugin even with the cgroup-free plugins above, and its
  # default CgroupPlugin=autodetect fails where /sys/fs/cgroup has no cgroup filesystem (a chroot,
  # a restricted container): naming the plugin skips the detection, and nothing above uses it.
  echo "CgroupPlugin=cgroup/v1" >"$dir/cgroup.conf"
  printf 'export SLURM_CONF=%s\n' "$dir/slurm.conf" >"$dir/env"
  export SLURM_CONF="$dir/slurm.conf"

  munged -F --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.sock" \
    --pid-file="$dir/munge/munged.mungepid" --log-file="$dir/munge/munged.log" \
    --seed-file="$dir/munge/munged.seed" >"$dir/munged.out" 2>&1 &
  echo $! >"$dir/munged.pid"
  wait_for 10 "munge socket" test -S "$dir/munge/munge.sock" ||
    { show_log "$dir/munge/munged.log"; show_log "$dir/munged.out"; die "munged did not create its socket within 10 s"; }

  slurmctld -D -f "$dir/slurm.conf" >"$dir/slurmctld.out" 2>&1 &
  echo $! >"$dir/slurmctld.pid"
  # the controller answers once it has read its state
  wait_for 20 "slurmctld" scontrol ping ||
    { show_log "$dir/slurmctld.log"; show_log "$dir/slurmctld.out"; die "slurmctld did not answer within 20 s (port $ctld_port)"; }

  slurmd -D -f "$dir/slurm.conf" -N "$host" >"$dir/slurmd.out" 2>&1 &
  echo $! >"$dir/slurmd.pid"
  # the node registers and goes idle
  if ! wait_for 30 "node idle" bash -c "sinfo -h -n '$host' -o %t | grep -qx 'idle'" && ! alive slurmd &&
     grep -qs "slurmd initialization failed" "$dir/slurmd.out" "$dir/slurmd.log"; then
    # slurmd itself refused this machine (a missing kernel facility, say): not a fault of this cluster
    echo "slurm_cluster: slurmd cannot start on this machine: $(grep -hs 'error:' "$dir/slurmd.out" | head -1 | sed 's/.*error: //')" >&2
    stop
    exit 3
  fi
  sinfo -h -n "$host" -o %t | grep -qx 'idle' ||
    { show_log "$dir/slurmd.log"; show_log "$dir/slurmd.out"; show_log "$dir/slurmctld.log";
      sinfo -N >&2 || true; die "node $host did not become idle within 30 s"; }
  echo "slurm_cluster: up in $dir (controller port $ctld_port, slurmd port $slurmd_port, $cpus CPUs)"
  echo "slurm_cluster: source $dir/env  (SLURM_CONF=$dir/slurm.conf)"
}

stop() {
  # Jobs first, while the controller is up: a job step (slurmstepd) outlives slurmd, so stopping
  # the daemons alone would leave navbake running. Then the controller (no new job starts),
  # slurmd, and munge last (they talk to it).
  if alive slurmctld && [ -f "$dir/slurm.conf" ]; then
    SLURM_CONF="$dir/slurm.conf" timeout 10 scancel --full --quiet --user=root 2>/dev/null || true
    local t=0
    while [ $t -lt 20 ] && [ -n "$(SLURM_CONF="$dir/slurm.conf" timeout 5 squeue -h -t running,pending,completing 2>/dev/null)" ]; do
      sleep 0.5; t=$((t + 1))
    done
  fi
  stop_pid slurmctld 15
  stop_pid slurmd 20
  stop_pid munged 10
  echo "slurm_cluster: stopped ($dir)"
}

status() {
  local rc=0
  for d in munged slurmctld slurmd; do
    if alive "$d"; then echo "$d: running (pid $(cat "$dir/$d.pid"))"; else echo "$d: not running"; rc=1; fi
  done
  if [ $rc -eq 0 ]; then SLURM_CONF="$dir/slurm.conf" sinfo -N || rc=1; fi
  return $rc
}

case "$cmd" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) usage ;;
esac
