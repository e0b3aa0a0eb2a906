#!/bin/sh
# run.sh runs the go-spinbit benchmark bundle it was unpacked with: test
# binaries built by several Go toolchains, run interleaved, one benchmark at
# one GOMAXPROCS value per run, every toolchain in turn with the first one
# rotating. It needs nothing but a POSIX shell and the binaries beside it.
# ./run.sh -help lists the flags.
set -u

here=$(cd "$(dirname "$0")" && pwd) || exit 1
prog=$0

die() {
	echo "run.sh: $*" >&2
	exit 1
}

[ -r "$here/bundle.conf" ] && [ -r "$here/plan" ] ||
	die "$here lacks bundle.conf or plan: unpack the whole archive (tar xzf spinbit-bench-ARCH.tar.gz) and run run.sh from it"
# bundle.conf sets goarch and the defaults below.
. "$here/bundle.conf"

usage() {
	cat <<EOF
usage: $prog [flags]

Runs the benchmarks of this bundle (linux/$goarch) and writes their raw
go test -bench output and a description of this machine to a run folder.
An interrupted run continues where it stopped when run again with the same
-out. Send the run folder back as a tar.gz, or turn it into tables and plots
with ./bench.bash -report FOLDER in a go-spinbit checkout.

flags:
  -out DIR        run folder (default ./spinbit-run-NAME-TIME); an existing
                  run folder is resumed
  -name NAME      what to call this machine in reports (default: host name)
  -benchtime T    run time of each benchmark, a duration or Nx (default $default_benchtime)
  -count N        rounds; each runs every benchmark at every GOMAXPROCS
                  with every toolchain (default $default_count)
  -cpu LIST       comma-separated GOMAXPROCS values (default 1,2,4,... up to
                  this machine's CPU count, which it includes)
  -bench REGEXP   only the benchmarks whose names match (grep -E)
  -n              print the plan and the time estimate, run nothing

SPINBIT_BENCH_EMULATOR, if set, is a command that runs each test binary
(such as qemu-aarch64-static), for a bundle of another architecture.
EOF
}

out= name= benchtime= count= cpus= bench= dry=
while [ $# -gt 0 ]; do
	case $1 in
	-h | -help | --help)
		usage
		exit 0
		;;
	-n)
		dry=1
		shift
		continue
		;;
	-out | -name | -benchtime | -count | -cpu | -bench)
		[ $# -ge 2 ] || die "$1 needs a value (see $prog -help)"
		;;
	*) die "unknown argument $1 (see $prog -help)" ;;
	esac
	case $1 in
	-out) out=$2 ;;
	-name) name=$2 ;;
	-benchtime) benchtime=$2 ;;
	-count) count=$2 ;;
	-cpu) cpus=$2 ;;
	-bench) bench=$2 ;;
	esac
	shift 2
done

# The machine must run linux/$goarch binaries.
[ "$(uname -s)" = Linux ] || die "this bundle's binaries are for Linux, and this system is $(uname -s)"
case $(uname -m) in
x86_64 | amd64) host_goarch=amd64 ;;
aarch64 | arm64 | armv8*) host_goarch=arm64 ;;
*) host_goarch=$(uname -m) ;;
esac
emulator=${SPINBIT_BENCH_EMULATOR:-}
if [ -z "$emulator" ] && [ "$host_goarch" != "$goarch" ]; then
	die "this bundle is for linux/$goarch, but this machine is $(uname -m) ($host_goarch): use spinbit-bench-$host_goarch.tar.gz instead"
fi
if [ -n "$emulator" ] && ! command -v "$emulator" >/dev/null 2>&1; then
	die "SPINBIT_BENCH_EMULATOR=$emulator: no such command"
fi

# Every file of the bundle must be whole.
if command -v sha256sum >/dev/null 2>&1; then
	if ! (cd "$here" && sha256sum -c SHA256SUMS >/dev/null 2>&1); then
		bad=$(cd "$here" && sha256sum -c SHA256SUMS 2>/dev/null | grep -v ': OK$' | sed 's/:.*//' | tr '\n' ' ')
		die "damaged bundle: ${bad:-some files} differ from SHA256SUMS (a truncated download or unpack?); download the archive again, check it with sha256sum -c spinbit-bench-$goarch.tar.gz.sha256, and unpack it into a new folder"
	fi
else
	echo "run.sh: warning: no sha256sum command, so the bundle's files are not checked against SHA256SUMS" >&2
fi

# These would tune the runtime of some toolchains differently from others,
# or override -test.cpu.
unset GOMAXPROCS GODEBUG GOGC GOMEMLIMIT GOTRACEBACK GOEXPERIMENT

ncpu=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || grep -c '^processor' /proc/cpuinfo)

# cpu_model names the processor as well as /proc/cpuinfo or lscpu can.
cpu_model() {
	m=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n 1)
	if [ -z "$m" ] && command -v lscpu >/dev/null 2>&1; then
		m=$(LC_ALL=C lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -n 1)
	fi
	if [ -z "$m" ]; then
		impl=$(sed -n 's/^CPU implementer[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n 1)
		part=$(sed -n 's/^CPU part[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n 1)
		[ -n "$impl$part" ] && m="implementer $impl part $part"
	fi
	echo "${m:-unknown}"
}

# cgroup_limit says how many CPUs this process's cgroup may use, from
# cgroup v2's cpu.max or v1's CFS quota.
cgroup_limit() {
	rel=$(sed -n 's/^0:://p' /proc/self/cgroup 2>/dev/null | head -n 1)
	for f in "/sys/fs/cgroup$rel/cpu.max" /sys/fs/cgroup/cpu.max; do
		if [ -r "$f" ]; then
			read -r quota period <"$f"
			if [ "$quota" = max ]; then
				echo none
			else
				awk -v q="$quota" -v p="$period" 'BEGIN { printf "%.2f CPUs (cpu.max %d %d)\n", q / p, q, p }'
			fi
			return
		fi
	done
	q=/sys/fs/cgroup/cpu/cpu.cfs_quota_us
	if [ -r $q ]; then
		quota=$(cat $q)
		period=$(cat /sys/fs/cgroup/cpu/cpu.cfs_period_us)
		if [ "$quota" -lt 0 ]; then
			echo none
		else
			awk -v q="$quota" -v p="$period" 'BEGIN { printf "%.2f CPUs (cfs quota %d period %d)\n", q / p, q, p }'
		fi
		return
	fi
	echo unknown
}

# describe writes the description of this machine, one "key: value" a line.
describe() {
	echo "name: $1"
	echo "goarch: $goarch"
	echo "uname-machine: $(uname -m)"
	echo "kernel: $(uname -sr)"
	echo "cpu: $(cpu_model)"
	echo "cpus: $ncpu"
	echo "cgroup-cpu-limit: $(cgroup_limit)"
	[ -n "$emulator" ] && echo "emulator: $emulator"
	return 0
}

# setting reads key=value from the run folder's settings file.
setting() { sed -n "s/^$1=//p" "$out/settings"; }

if [ -n "$out" ] && [ -f "$out/settings" ]; then
	# Resume: the settings are the run's own, and it must be this machine.
	resumed=1
	for f in name benchtime count cpus bench; do
		eval "given=\$$f"
		if [ -n "$given" ] && [ "$given" != "$(setting $f)" ]; then
			die "$out is a run with -$f $(setting $f); to resume it, leave -$f out; to measure with -$f $given, start a new run with another -out"
		fi
	done
	name=$(setting name) benchtime=$(setting benchtime) count=$(setting count) cpus=$(setting cpus) bench=$(setting bench)
	[ -f "$out/machine.txt" ] || die "$out has settings but no machine.txt: it is damaged; start a new run with another -out"
	describe "$name" >"$out/machine.now"
	for key in goarch cpu cpus kernel emulator; do
		was=$(sed -n "s/^$key: //p" "$out/machine.txt")
		now=$(sed -n "s/^$key: //p" "$out/machine.now")
		if [ "$was" != "$now" ]; then
			rm -f "$out/machine.now"
			die "$out was started on another machine ($key: ${was:-none}; here ${now:-none}): resume it there, or start a new run here with another -out"
		fi
	done
	rm -f "$out/machine.now"
	cmp -s "$here/plan" "$out/plan" || die "$out was started with another bundle (its plan differs from $here/plan): resume it with that bundle, or start a new run with another -out"
else
	resumed=
	[ -n "$out" ] && [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ] &&
		die "$out holds files but is not a run folder (no settings file): name a new or empty folder"
	[ -n "$name" ] || name=$(hostname 2>/dev/null || uname -n)
	name=$(printf '%s' "$name" | tr -c 'A-Za-z0-9._-' '-')
	case $name in "" | . | .. | -*) die "-name $name: give a name of letters, digits, dot, dash or underscore" ;; esac
	[ -n "$benchtime" ] || benchtime=$default_benchtime
	[ -n "$count" ] || count=$default_count
	if [ -z "$cpus" ]; then
		cpus=1
		c=2
		while [ "$c" -lt "$ncpu" ]; do
			cpus="$cpus,$c"
			c=$((c * 2))
		done
		[ "$ncpu" -gt 1 ] && cpus="$cpus,$ncpu"
	fi
	[ -n "$out" ] || out=$PWD/spinbit-run-$name-$(date -u +%Y%m%d-%H%M%S)
fi

case $count in '' | *[!0-9]* | 0) die "-count $count: give a positive number" ;; esac
case $benchtime in
[0-9]*x | [0-9]*s | [0-9]*ms | [0-9]*m) ;;
*) die "-benchtime $benchtime: give a duration such as 150ms or 1s, or an iteration count such as 100x" ;;
esac
cpulist=$(echo "$cpus" | tr ',' ' ')
for c in $cpulist; do
	case $c in *[!0-9]* | 0) die "-cpu $cpus: give positive numbers separated by commas" ;; esac
done

# The benchmarks to run: the plan's lines, "suite benchmark toolchain...".
selected=$(while read -r suite bm tcs; do
	if [ -z "$bench" ] || printf '%s\n' "$bm" | grep -Eq -- "$bench"; then
		echo "$suite $bm $tcs"
	fi
done <"$here/plan")
[ -n "$selected" ] || die "-bench $bench matches no benchmark; the bundle has: $(awk '{print $2}' "$here/plan" | tr '\n' ' ')"

ncpus=$(echo $cpulist | wc -w)
per_round=$(echo "$selected" | awk -v n="$ncpus" '{ t += (NF - 2) * n } END { print t }')
total=$((per_round * count))
case $benchtime in
*ms) bt_ms=${benchtime%ms} ;;
*m) bt_ms=$((${benchtime%m} * 60000)) ;;
*s) bt_ms=$((${benchtime%s} * 1000)) ;;
*) bt_ms= ;;
esac
# A run of a test binary takes about 1.5 x benchtime + 175ms.
if [ -n "$bt_ms" ]; then
	estimate="about $(((total * (bt_ms * 3 / 2 + 175) + 59999) / 60000))m"
else
	estimate="the time left is estimated as it goes"
fi
echo "bundle linux/$goarch; machine $name: $(cpu_model), $ncpu CPUs"
echo "plan: $(echo "$selected" | wc -l) benchmarks x GOMAXPROCS $cpus x count $count = $total runs of a test binary (benchtime $benchtime): $estimate"
[ -z "$dry" ] || exit 0

mkdir -p "$out" || die "cannot make $out"
out=$(cd "$out" && pwd)
# One run.sh at a time per run folder: two would write the same files,
# and disturb each other's measurements.
if ! mkdir "$out/.lock" 2>/dev/null; then
	die "another run.sh (pid $(cat "$out/.lock/pid" 2>/dev/null || echo unknown)) is measuring into $out: wait for it to finish; if none runs any more, remove $out/.lock and start again"
fi
echo $$ >"$out/.lock/pid"
trap 'rm -rf "$out/.lock"' EXIT
if [ -z "$resumed" ]; then
	describe "$name" >"$out/machine.txt"
	{
		echo "name=$name"
		echo "benchtime=$benchtime"
		echo "count=$count"
		echo "cpus=$cpus"
		echo "bench=$bench"
	} >"$out/settings"
	cp "$here/plan" "$here/bundle.json" "$out/"
	date -u +%Y-%m-%dT%H:%M:%SZ >"$out/started"
fi
rm -f "$out/complete"
echo "run folder: $out"

if [ -t 1 ]; then tty=1; else tty=; fi
done_runs=0 ran=0 failed=0 cur=
start=$(date +%s)
trap 'rm -f "$cur.tmp"; echo; echo "run.sh: interrupted after $done_runs of $total runs; resume with: $prog -out $out" >&2; exit 130' INT TERM

progress() {
	left=
	if [ "$ran" -gt 0 ]; then
		el=$(($(date +%s) - start))
		s=$((el * (total - done_runs) / ran))
		left=", about $((s / 60))m$((s % 60))s left"
	fi
	line="[$done_runs/$total] round $rep/$count $bm GOMAXPROCS $c$left"
	if [ -n "$tty" ]; then
		printf '\r%s\033[K' "$line"
	else
		echo "$line"
	fi
}

rep=1
while [ "$rep" -le "$count" ]; do
	slot=0
	echo "$selected" >"$out/.selected"
	while read -r suite bm tcs; do
		for c in $cpulist; do
			# shellcheck disable=SC2086
			set -- $tcs
			n=$#
			k=0
			while [ "$k" -lt "$n" ]; do
				i=$(((rep - 1 + slot + k) % n + 1))
				eval "tc=\${$i}"
				dir=$out/turns/$suite/$tc
				cur=$dir/r$rep.$bm.$c
				k=$((k + 1))
				done_runs=$((done_runs + 1))
				[ -f "$cur.txt" ] && continue
				mkdir -p "$dir"
				bin=$here/bin/$suite-$tc.test
				if $emulator "$bin" -test.run='^$' -test.bench="^$bm\$" -test.benchtime="$benchtime" \
					-test.cpu="$c" -test.count=1 -test.benchmem -test.timeout=15m >"$cur.tmp" 2>&1 </dev/null; then
					mv "$cur.tmp" "$cur.txt"
					rm -f "$cur.failed"
				else
					mv "$cur.tmp" "$cur.failed"
					failed=$((failed + 1))
					[ -n "$tty" ] && echo
					echo "run.sh: $tc $bm at GOMAXPROCS $c failed; its output is in $cur.failed" >&2
				fi
				ran=$((ran + 1))
			done
			slot=$((slot + 1))
			progress
		done
	done <"$out/.selected"
	rep=$((rep + 1))
done
rm -f "$out/.selected"
[ -n "$tty" ] && echo
el=$(($(date +%s) - start))
if [ "$failed" -gt 0 ]; then
	echo "run.sh: $failed of $total runs failed (their output is in $out/turns/*/*/*.failed); run $prog -out $out again to retry them" >&2
	exit 1
fi
date -u +%Y-%m-%dT%H:%M:%SZ >"$out/complete"
echo "done: $total runs in $((el / 60))m$((el % 60))s, in $out"
echo "send it back: tar czf $(basename "$out").tar.gz -C $(dirname "$out") $(basename "$out")"
echo "or, in a go-spinbit checkout: ./bench.bash -report $out"
