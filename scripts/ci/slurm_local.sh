#!/usr/bin/env bash
# A single-node Slurm cluster on localhost, for the Slurm end-to-end test
# (tests/e2e/slurm_e2e_test.cpp) in CI and on a developer machine. Needs Debian's
# slurmctld, slurmd, slurm-client and munge packages, and root (slurmd runs jobs as the
# submitting user). No systemd: the daemons are started directly, and everything they
# write (munge key and socket, Slurm state, spool, logs, pid files) lives under one folder.
#
#   scripts/ci/slurm_local.sh start [DIR]   start munged, slurmctld and slurmd; prints
#                                           `export SLURM_CONF=DIR/slurm.conf` for the shell
#   scripts/ci/slurm_local.sh stop [DIR]    stop them (by the pid files under DIR)
#   scripts/ci/slurm_local.sh status [DIR]  sinfo and squeue of that cluster
#
# DIR defaults to /tmp/workbook-slurm. Use it with: eval "$(scripts/ci/slurm_local.sh start)"
#
# Choices for a fast test: KillWait=2 (SIGKILL 2 s after SIGTERM at a time limit or
# scancel, not 30), OverTimeLimit=0 (no grace after --time), and a partition that lets
# up to 8 jobs share each CPU (OverSubscribe=FORCE:8), so the test's jobs run at once
# on a 2-CPU machine. slurmctld checks time limits every 30 s, so a job with --time 1
# ends 60 to 90 s after it starts.
set -euo pipefail

cmd=${1:-}
dir=${2:-/tmp/workbook-slurm}
ctld_port=${WORKBOOK_SLURM_PORT:-16817}

say() { echo "slurm_local: $*" >&2; }

pid_of() {  # the pid in a pid file, when that process is alive
  local f=$1
  [[ -s $f ]] || return 1
  local pid
  pid=$(<"$f")
  kill -0 "$pid" 2>/dev/null || return 1
  echo "$pid"
}

stop_one() {  # name, pid file
  local pid
  if pid=$(pid_of "$2"); then
    kill "$pid"
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
    say "stopped $1 ($pid)"
  fi
  rm -f "$2"
}

write_conf() {
  local node_line cpus mem
  # This machine as slurmd sees it: "NodeName=vm CPUs=2 ... RealMemory=24105".
  node_line=$(slurmd -C | head -1)
  cpus=$(sed -n 's/.*CPUs=\([0-9]*\).*/\1/p' <<<"$node_line")
  mem=$(sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' <<<"$node_line")
  # slurmd reserves some memory for itself: offer a little less than it reports.
  mem=$((mem > 1024 ? mem - 512 : mem))
  cat >"$dir/slurm.conf" <<EOF
# Written by scripts/ci/slurm_local.sh: a one-node cluster for tests.
ClusterName=workbook
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$((ctld_port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket.2
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
KillWait=2
OverTimeLimit=0
MinJobAge=600
InactiveLimit=0
SlurmdTimeout=60
NodeName=localhost CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:8
EOF
}

start() {
  for tool in munged slurmctld slurmd sbatch; do
    command -v "$tool" >/dev/null || { say "$tool not found: apt-get install slurmctld slurmd slurm-client munge"; exit 1; }
  done
  if pid_of "$dir/slurmctld.pid" >/dev/null; then
    say "already running under $dir"
    echo "export SLURM_CONF=$dir/slurm.conf"
    return
  fi
  mkdir -p "$dir"/{munge,state,spool,log}
  chmod 700 "$dir/munge"
  if [[ ! -s $dir/munge/munge.key ]]; then
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
    chmod 600 "$dir/munge/munge.key"
  fi
  munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket.2" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munged.seed"
  write_conf
  export SLURM_CONF=$dir/slurm.conf
  slurmctld -i   # -i: ignore state left by an earlier run in this folder
  slurmd -N localhost  # the node name in slurm.conf, whatever the host is called
  # Ready when the node is idle (slurmd registered with slurmctld).
  for _ in $(seq 60); do
    state=$(sinfo -h -N -n localhost -o %t 2>/dev/null || true)
    [[ $state == idle ]] && break
    sleep 0.5
  done
  if [[ ${state:-} != idle ]]; then
    say "the node did not come up (state '${state:-?}'); logs: $dir/log"
    tail -n 20 "$dir"/log/*.log >&2 || true
    exit 1
  fi
  say "running: slurmctld port $ctld_port, node localhost, state under $dir"
  echo "export SLURM_CONF=$dir/slurm.conf"
}

stop() {
  stop_one slurmd "$dir/slurmd.pid"
  stop_one slurmctld "$dir/slurmctld.pid"
  stop_one munged "$dir/munge/munged.pid"
}

case $cmd in
  start) start ;;
  stop) stop ;;
  status) SLURM_CONF=$dir/slurm.conf sinfo && SLURM_CONF=$dir/slurm.conf squeue ;;
  *) echo "usage: $0 start|stop|status [DIR]" >&2; exit 2 ;;
esac
