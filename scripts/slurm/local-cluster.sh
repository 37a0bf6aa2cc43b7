#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, for trying the recipes and for the integration
# test: munged, slurmctld and slurmd (Debian's munge and slurm-wlm), this host as the only
# node, every core in one partition. Needs root. Idempotent.
#   bash scripts/slurm/local-cluster.sh start    # prints the SLURM_CONF line to export
#   bash scripts/slurm/local-cluster.sh status   # exit 0 when the node answers, 3 otherwise
#   bash scripts/slurm/local-cluster.sh stop     # stops what start started
#   bash scripts/slurm/local-cluster.sh env      # prints: export SLURM_CONF=...
# Everything lives in $DEFERRAL_SIM_SLURM_HOME (default /tmp/deferral-sim-slurm): slurm.conf,
# state, spool, logs, pid files; /etc/slurm is not touched. The configuration does without
# cgroups (proctrack/linuxproc, task/none), which containers often lack, and without
# accounting (no slurmdbd): squeue and scontrol show jobs, sacct does not.
# Exit status: 0 done; 1 the cluster did not come up (its logs are printed); 77 slurm or munge
# is not installed, or this is not root (the reason is printed).
set -euo pipefail

home=${DEFERRAL_SIM_SLURM_HOME:-/tmp/deferral-sim-slurm}
conf=$home/slurm.conf
node=$(hostname -s 2>/dev/null || uname -n)
node=${node%%.*}
ctld_port=${DEFERRAL_SIM_SLURM_PORT:-6817}
slurmd_port=$((ctld_port + 1))
export SLURM_CONF=$conf

say() { echo "local-cluster: $*" >&2; }

require() {
  local missing=()
  for tool in munged munge unmunge slurmctld slurmd sinfo sbatch squeue scontrol; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    say "skip: ${missing[*]} not found; install them with: apt-get install -y slurm-wlm munge"
    exit 77
  fi
  if [ "$(id -u)" -ne 0 ]; then
    say "skip: starting munged, slurmctld and slurmd needs root"
    exit 77
  fi
}

munge_works() { munge -n 2>/dev/null | unmunge >/dev/null 2>&1; }

alive() { # alive DIR/NAME.pid: the process in the file runs, and is NAME (not a reused pid)
  local pid
  [ -s "$1" ] || return 1
  pid=$(cat "$1")
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$(basename "$1" .pid)" ]
}

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

node_state() { sinfo -h -N -n "$node" -o %t 2>/dev/null | head -n 1 || true; }

print_logs() {
  for log in "$home"/log/*.log "$home"/log/*.out; do
    [ -f "$log" ] || continue
    echo "----- $log (last 40 lines)" >&2
    tail -n 40 "$log" >&2
  done
}

start_munge() {
  if munge_works; then
    return 0 # a munged is already serving the default socket: use it
  fi
  # The key: generated once, readable by munge only (munged refuses anything looser).
  install -d -o munge -g munge -m 0700 /etc/munge /var/log/munge
  install -d -o munge -g munge -m 0711 /var/lib/munge
  install -d -o munge -g munge -m 0755 /run/munge
  if [ ! -s /etc/munge/munge.key ]; then
    say "generating /etc/munge/munge.key"
    if command -v mungekey >/dev/null 2>&1; then
      mungekey --create --keyfile=/etc/munge/munge.key
    else
      dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none
    fi
  fi
  chown munge:munge /etc/munge/munge.key
  chmod 0400 /etc/munge/munge.key
  # munged forks into the background by itself; its pid goes to a file of ours, so that
  # stop ends this munged and no other.
  rm -f "$home/run/munged.pid"
  install -d -o munge -g munge -m 0755 "$home/run/munge"
  setsid runuser -u munge -- munged --pid-file="$home/run/munge/munged.pid" \
    --log-file=/var/log/munge/munged.log </dev/null >"$home/log/munged-start.log" 2>&1 || true
  for _ in $(seq 50); do
    munge_works && return 0
    sleep 0.1
  done
  say "munged did not start"
  cat "$home/log/munged-start.log" >&2 || true
  tail -n 20 /var/log/munge/munged.log >&2 || true
  exit 1
}

write_conf() {
  local cpus memory
  cpus=$(nproc)
  # RealMemory must not exceed what slurmd finds, or the node is drained: leave 5% spare.
  memory=$(awk '/^MemTotal:/ { print int($2 / 1024 * 0.95) }' /proc/meminfo)
  cat >"$conf.new" <<EOF
# Written by scripts/slurm/local-cluster.sh: a single-node cluster on $node.
ClusterName=deferral-sim
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
MailProg=/bin/true
# No cgroups: containers often have none, or a read-only hierarchy.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
SchedulerType=sched/backfill
# Cores are scheduled one by one, so the tasks of an array share the node.
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
# A merge whose shards failed is cancelled rather than left pending for ever.
DependencyParameters=kill_invalid_depend
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
MinJobAge=600
StateSaveLocation=$home/state
SlurmdSpoolDir=$home/spool
SlurmctldPidFile=$home/run/slurmctld.pid
SlurmdPidFile=$home/run/slurmd.pid
SlurmctldLogFile=$home/log/slurmctld.log
SlurmdLogFile=$home/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
  mv "$conf.new" "$conf"
}

start() {
  require
  mkdir -p "$home/state" "$home/spool" "$home/run" "$home/log"
  chmod 0755 "$home"
  local state=""
  if alive "$home/run/slurmctld.pid" && alive "$home/run/slurmd.pid"; then
    state=$(node_state)
  fi
  if [ "$state" = idle ] || [ "$state" = mix ] || [ "$state" = alloc ]; then
    say "already running ($node: $state)"
    echo "export SLURM_CONF=$conf"
    return 0
  fi
  # Another Slurm on these ports would answer in our stead: refuse, saying which to change.
  for port in "$ctld_port" "$slurmd_port"; do
    if ! alive "$home/run/slurmctld.pid" && port_busy "$port"; then
      say "port $port is in use (another Slurm?); choose others with DEFERRAL_SIM_SLURM_PORT=N"
      exit 1
    fi
  done
  start_munge
  write_conf
  # Foreground daemons (-D) put in the background, in their own session, with no terminal
  # and no inherited pipes: whoever started this script does not wait for them.
  if ! alive "$home/run/slurmctld.pid"; then
    setsid slurmctld -D -f "$conf" </dev/null >>"$home/log/slurmctld.out" 2>&1 &
    echo $! >"$home/run/slurmctld.pid"
  fi
  if ! alive "$home/run/slurmd.pid"; then
    setsid slurmd -D -f "$conf" -N "$node" </dev/null >>"$home/log/slurmd.out" 2>&1 &
    echo $! >"$home/run/slurmd.pid"
  fi
  for _ in $(seq 120); do
    for daemon in slurmctld slurmd; do
      if ! alive "$home/run/$daemon.pid"; then
        say "$daemon exited at start"
        print_logs
        exit 1
      fi
    done
    state=$(node_state)
    case $state in
      idle | mix | alloc)
        say "up: node $node $state, $(nproc) CPUs, partition debug"
        echo "export SLURM_CONF=$conf"
        return 0
        ;;
      drain* | down* | drng*)
        # A node that was down in a previous life comes back with ReturnToService=2; nudge it.
        scontrol update NodeName="$node" State=RESUME >/dev/null 2>&1 || true
        ;;
    esac
    sleep 0.5
  done
  say "the node did not become idle within 60 s (state: '${state:-no answer}')"
  sinfo -N -l >&2 2>&1 || true
  scontrol show node "$node" >&2 2>&1 || true
  print_logs
  exit 1
}

stop_pid() { # stop_pid PIDFILE NAME
  if alive "$1"; then
    local pid
    pid=$(cat "$1")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then kill -9 "$pid" 2>/dev/null || true; fi
    say "stopped $2 ($pid)"
  fi
  rm -f "$1"
}

stop() {
  stop_pid "$home/run/slurmd.pid" slurmd
  stop_pid "$home/run/slurmctld.pid" slurmctld
  # Only the munged that start launched (its pid file is ours), never one found running.
  stop_pid "$home/run/munge/munged.pid" munged
}

status() {
  require
  local state=""
  # Without our daemons, no question to sinfo (which would retry for seconds).
  if alive "$home/run/slurmctld.pid" && alive "$home/run/slurmd.pid"; then
    state=$(node_state)
  fi
  case $state in
    idle | mix | alloc)
      echo "running: node $node $state (SLURM_CONF=$conf)"
      return 0
      ;;
    *)
      echo "not running${state:+ (node $node: $state)}"
      return 3
      ;;
  esac
}

case ${1:-} in
  start) start ;;
  stop) stop ;;
  status) status ;;
  env) echo "export SLURM_CONF=$conf" ;;
  *)
    echo "usage: $0 start|stop|status|env" >&2
    exit 2
    ;;
esac
