#!/usr/bin/env bash
# tests/loggp/run.sh BUILD: the LogGP estimator against the simulator (PRTT
# exchanges as GOAL schedules, simulated by loggopsim with known parameters,
# fitted by loggp-fit), the fit on PRTT tables recorded on this machine, the
# loggp-fit command line, and an MPI smoke test of loggp-measure (skipped
# without mpirun).
set -u
B=$(cd "${1:-build}" && pwd) || exit 2
cd "$(dirname "$0")/../.." || exit 2
FIT=$B/bin/loggp-fit
SIM=$B/bin/loggopsim
MEASURE=$B/bin/loggp-measure
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
ok() { echo "ok - $1"; }
notok() { echo "not ok - $1"; shift; [ $# -gt 0 ] && printf '%s\n' "$@" | sed 's/^/    /'; status=1; }

# --- the loggp-fit command line -------------------------------------------
if "$FIT" --help | grep -q '^usage: loggp-fit'; then ok "loggp-fit --help"; else notok "loggp-fit --help"; fi
out=$("$FIT" --bogus 2>&1); rc=$?
want=$(printf '%s\n' "loggp-fit: error: unknown option '--bogus'" "Try 'loggp-fit --help'.")
[ $rc -eq 2 ] && [ "$out" = "$want" ] && ok "loggp-fit bad option" || notok "loggp-fit bad option" "rc=$rc" "$out"
out=$("$FIT" "$tmp/none.prtt" 2>&1); rc=$?
want="$tmp/none.prtt: error: cannot open: No such file or directory"
[ $rc -eq 1 ] && [ "$out" = "$want" ] && ok "loggp-fit missing table" || notok "loggp-fit missing table" "rc=$rc" "$out"
# check_error NAME FILE WANT TEXT: loggp-fit --check on a file of TEXT
# fails with exactly WANT (FILE: the file's name in $tmp).
check_error() {
	printf '%b' "$4" >"$tmp/$2"
	out=$("$FIT" --check "$tmp/$2" 2>&1); rc=$?
	[ $rc -eq 1 ] && [ "$out" = "$tmp/$2:$3" ] && ok "$1" || notok "$1" "rc=$rc" "$out"
}
check_error "loggp-fit --check error text" bad.params "2:28: error: missing field 'O'" \
	'loggp-params 1\nrange 0 inf L=1 o=2 g=3 G=4\n'
check_error "loggp-fit --check: unsorted strides" unsorted.params \
	"4:8: error: stride 8 after stride 64: strides must increase" \
	'loggp-params 1\nrange 0 inf L=1 o=2 g=3 G=4 O=5\nstride 64 o_mw=300 O_mw=0.1 l_mw=20 L_mw=0.01\nstride 8 l_mw=1 L_mw=0 o_mw=1 O_mw=0\n'
check_error "loggp-fit --check: a stride twice" twice.params \
	"4:8: error: stride 64 given twice (first on line 2)" \
	'loggp-params 1\nstride 64 o_mw=300 O_mw=0.1 l_mw=20 L_mw=0.01\nrange 0 inf L=1 o=2 g=3 G=4 O=5\nstride 64 o_mw=1 O_mw=0 l_mw=1 L_mw=0\n'
printf 'loggp-params 1\nstride 8 O_mw=0.50 o_mw=1 L_mw=0 l_mw=2 # packing\nrange 0 inf L=1 o=2 g=3 G=4 O=5\nstride 1024 o_mw=300 O_mw=0.1 l_mw=20 L_mw=0.010\n' >"$tmp/strides.params"
out=$("$FIT" --check "$tmp/strides.params" 2>&1); rc=$?
want=$(printf '%s\n' "loggp-params 1" "S 65535" "#     first       last" "range          0        inf L=1 o=2 g=3 G=4 O=5" \
	"#     stride" "stride          8 o_mw=1 O_mw=0.5 l_mw=2 L_mw=0" "stride       1024 o_mw=300 O_mw=0.1 l_mw=20 L_mw=0.01")
[ $rc -eq 0 ] && [ "$out" = "$want" ] && ok "loggp-fit --check: strides in the normal form" || notok "loggp-fit --check: strides in the normal form" "rc=$rc" "$out"

# --- against the simulator --------------------------------------------------
# prtt_goal S N D [STRIDE]: the PRTT(N,D,S) exchange.  Rank 0 sends N
# messages of S bytes, each send after the previous one (and a calc of D ns
# between them), then receives the answer; rank 1 receives all N, then
# answers with S bytes.  With STRIDE, every message is strided.
prtt_goal() {
	local s=$1 n=$2 d=$3 st=${4:+ stride $4} i
	echo "num_ranks 2"
	echo "rank 0 {"
	for ((i = 1; i <= n; i++)); do
		echo "s$i: send ${s}b to 1 tag 0$st"
		if [ "$i" -gt 1 ]; then
			if [ "$d" -gt 0 ]; then echo "s$i requires c$i"; else echo "s$i requires s$((i - 1))"; fi
		fi
		if [ "$i" -lt "$n" ] && [ "$d" -gt 0 ]; then
			echo "c$((i + 1)): calc $d"
			echo "c$((i + 1)) requires s$i"
		fi
	done
	echo "r: recv ${s}b from 1 tag 1$st"
	echo "r requires s$n"
	echo "}"
	echo "rank 1 {"
	for ((i = 1; i <= n; i++)); do echo "r$i: recv ${s}b from 0 tag 0$st"; done
	echo "a: send ${s}b to 0 tag 1$st"
	for ((i = 1; i <= n; i++)); do echo "a requires r$i"; done
	echo "}"
}

# sim_prtt S N D PARAMS...: the simulated time of PRTT(N,D,S) in ns (with
# STRIDE set: of strided messages).
sim_prtt() {
	local s=$1 n=$2 d=$3
	shift 3
	prtt_goal "$s" "$n" "$d" "${STRIDE:-}" >"$tmp/p.goal"
	"$SIM" -q "$@" "$tmp/p.goal" | sed -n 's/^Host 0: //p'
}

# sim_table NAME CHANGE "PARAMS1" "PARAMS2": the PRTT table for sizes 1..64 KiB
# (2 per octave), PARAMS1 for sizes up to CHANGE bytes, PARAMS2 above (what
# 'loggopsim -p' does with two ranges: every message of an exchange has the
# same size).  Delay d = PRTT(1,0,s), or PRTT(2,0,s) if the gap exceeds it.
sim_table() {
	local name=$1 change=$2 p1=$3 p2=$4 n=10 s i p a b c d
	{
		echo "loggp-prtt 1"
		echo "n $n"
		for i in $(seq 0 32); do
			s=$(awk -v i="$i" 'BEGIN { printf "%d", 2 ^ (i / 2) + 0.5 }')
			[ "$s" = "${last:-}" ] && continue
			last=$s
			if [ "$s" -le "$change" ]; then p=$p1; else p=$p2; fi
			# shellcheck disable=SC2086
			a=$(sim_prtt "$s" 1 0 $p); b=$(sim_prtt "$s" 2 0 $p); c=$(sim_prtt "$s" $n 0 $p)
			d=$a
			[ $(((c - a) / (n - 1))) -gt "$a" ] && d=$b
			# shellcheck disable=SC2086
			echo "$s $d $a $b $c $(sim_prtt "$s" $n "$d" $p)"
		done
	} >"$tmp/$name.prtt"
}

if [ ! -x "$SIM" ] || ! "$SIM" --help >/dev/null 2>&1; then
	echo "ok - loggp against the simulator # SKIP no $SIM"
else
	# Two protocols, change after 4096 bytes; g >= o and G >= O in both,
	# so PRTT(n,0,s) measures g + (s-1)G (else it measures the receiver's
	# o + max(sO,sG)).  The simulator's PRTT(1,0,s)/2 = L + 2o + max(sO,sG),
	# so the reported latency PRTT(1,0,1)/2 is L + 2o = 5000.  -S: no
	# rendezvous (it would hold each send until the receiver matches it).
	sim_table two 4096 "-L 3000 -o 1000 -g 1500 -G 2 -O 1 -S 1000000" \
		"-L 5000 -o 1200 -g 3000 -G 1 -O 0 -S 1000000"
	if "$FIT" -o "$tmp/two.params" "$tmp/two.prtt" >"$tmp/two.out" 2>&1; then
		grep '^range' "$tmp/two.params" | tr -s ' ' >"$tmp/got"
		printf '%s\n' "range 0 4096 L=3000 o=1000 g=1500 G=2 O=1" \
			"range 4097 inf L=5000 o=1200 g=3000 G=1 O=0" >"$tmp/want"
		if cmp -s "$tmp/got" "$tmp/want"; then
			ok "simulated PRTT: L, o, g, G, O of two protocols and the change at 4096 B recovered"
		else
			notok "simulated PRTT: two protocols" "$(diff "$tmp/want" "$tmp/got")" "$(cat "$tmp/two.out")"
		fi
		if grep -q 'reported latency L = PRTT(1,0,1)/2 = 5000.0 ns' "$tmp/two.out"; then
			ok "simulated PRTT: reported latency PRTT(1,0,1)/2 = L + 2o"
		else
			notok "simulated PRTT: reported latency" "$(cat "$tmp/two.out")"
		fi
	else
		notok "simulated PRTT: loggp-fit on two protocols" "$(cat "$tmp/two.out")"
	fi

	# Fractional per-byte rates: the simulator rounds (s-1)G and (s-1)O
	# to whole ns, so the fit is within rounding; the file still gets the
	# model's values.
	sim_table frac 0 "" "-L 2500 -o 800 -g 1000 -G 0.4 -O 0.1 -S 1000000"
	if "$FIT" -o "$tmp/frac.params" "$tmp/frac.prtt" >"$tmp/frac.out" 2>&1 &&
		[ "$(grep '^range' "$tmp/frac.params" | tr -s ' ')" = "range 0 inf L=2500 o=800 g=1000 G=0.4 O=0.1" ]; then
		ok "simulated PRTT: fractional G and O recovered"
	else
		notok "simulated PRTT: fractional G and O" "$(cat "$tmp/frac.out" "$tmp/frac.params")"
	fi

	# Strided messages (log_3 P, docs/loggp.md): the strided and the
	# contiguous round trips of every size and stride, as loggp-measure
	# --stride takes them, simulated with known middleware costs: the fit
	# recovers them (per-byte terms rounded to whole ns by the simulator,
	# which the file's rounding absorbs).
	printf '%s\n' "loggp-params 1" "range 0 inf L=2500 o=800 g=1000 G=0.4 O=0.1" \
		"stride 64 o_mw=300 O_mw=0.25 l_mw=200 L_mw=0.125" \
		"stride 1024 o_mw=1000 O_mw=0 l_mw=0 L_mw=1" >"$tmp/mw.params"
	{
		sim_table_n=10
		cat "$tmp/frac.prtt"
		for st in 64 1024; do
			for s in 1024 4096 16384 65536; do
				p="-p $tmp/mw.params -S 1000000"
				# shellcheck disable=SC2086
				c1=$(sim_prtt "$s" 1 0 $p); s1=$(STRIDE=$st sim_prtt "$s" 1 0 $p)
				# shellcheck disable=SC2086
				cd=$(sim_prtt "$s" $sim_table_n "$s1" $p); sd=$(STRIDE=$st sim_prtt "$s" $sim_table_n "$s1" $p)
				echo "stride $st $s $s1 $c1 $cd $s1 $sd"
			done
		done
	} >"$tmp/mw.prtt"
	if "$FIT" -o "$tmp/mw.params.fit" "$tmp/mw.prtt" >"$tmp/mw.out" 2>&1 &&
		[ "$(grep '^stride' "$tmp/mw.params.fit" | tr -s ' ' | paste -sd';')" = \
			"stride 64 o_mw=300 O_mw=0.25 l_mw=200 L_mw=0.125;stride 1024 o_mw=1000 O_mw=0 l_mw=0 L_mw=1" ]; then
		ok "simulated strided PRTT: o_mw, O_mw, l_mw, L_mw of two strides recovered"
	else
		notok "simulated strided PRTT: middleware costs" "$(cat "$tmp/mw.out" "$tmp/mw.params.fit")"
	fi
fi

# --- recorded measurements -------------------------------------------------
# PRTT tables measured on this project's machine (tests/loggp/data): the
# fit must find the protocol changes that every run shows (shared memory:
# after 256 and 3444 bytes; TCP: the jumps at 32 KiB and 64 KiB),
# and a simulated ping-pong with the fitted file must be within 10% of the
# measured one at every size (loggp/pingpong.sh, the check of docs/loggp.md).
recorded() {
	local f=tests/loggp/data/$1 want=$2 got first
	got=$("$FIT" -o - "$f" 2>/dev/null | awk '/^range/ { printf " %s", $2 }')
	for first in $want; do
		case "$got " in
		*" $first "*) ;;
		*) notok "recorded $1: ranges" "want ranges starting at: $want" "got:$got"; return ;;
		esac
	done
	if out=$(PRTT=$f loggp/pingpong.sh "$B" 2>&1); then
		ok "recorded $1: changes found, ping-pong $(printf '%s\n' "$out" | sed -n 's/^largest error: \([0-9.]*%\).*/within \1/p')"
	else
		notok "recorded $1: simulated ping-pong within 10%" "$out"
	fi
}
if [ ! -x "$SIM" ]; then
	echo "ok - recorded measurements # SKIP no $SIM"
else
	for i in 1 2 3 4 5 6 7 8 9 10 11; do
		recorded "shm-$i.prtt" "257 3445"
	done
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		recorded "tcp-$i.prtt" "27555 55110"
	done
	recorded tcp-8-per-octave.prtt "30049 60098"
fi

# --- the log_3 P study's tables and charts (scripts/log3p-charts.py) ----------
# errors (predicted - measured) / measured: LogGP -50% and -30%, log_3 P
# +10% and -10% on two strided ping-pongs; the same +20% for both on the
# contiguous one
printf '%s\n' "transport,pattern,P,stride,size,measured,loggp,log3p" \
	"shm,pingpong,2,0,1024,1000,1200,1200" "shm,pingpong,2,64,1024,1000,500,1100" \
	"shm,pingpong,2,64,4096,2000,1400,1800" "shm,linear,4,64,1024,4000,2000,4400" >"$tmp/pts.csv"
if python3 scripts/log3p-charts.py "$tmp/pts.csv" "$tmp" 2>"$tmp/charts.err" &&
	grep -qxF '| pingpong | strided | 2 | 40.0% | 50.0% | 10.0% | 10.0% |' "$tmp/tables.md" &&
	grep -qxF '| pingpong | contiguous | 1 | 20.0% | 20.0% | 20.0% | 20.0% |' "$tmp/tables.md" &&
	grep -qxF '| linear | 50.0% / 10.0% |' "$tmp/tables.md" &&
	grep -qxF '| 64 | 4 KiB | 2000 | 1400 | -30.0% | 1800 | -10.0% |' "$tmp/tables.md" &&
	head -1 "$tmp/log3p-shm.svg" | grep -q '^<svg ' && tail -1 "$tmp/log3p-shm.svg" | grep -qx '</svg>'; then
	ok "log3p-charts.py: average and largest errors, by stride, point by point; the chart"
else
	notok "log3p-charts.py" "$(cat "$tmp/charts.err" "$tmp/tables.md" 2>/dev/null | head -30)"
fi

# --- MPI smoke test ---------------------------------------------------------
if ! command -v mpirun >/dev/null 2>&1 || [ ! -x "$MEASURE" ]; then
	echo "ok - loggp-measure MPI smoke test # SKIP no mpirun or no $MEASURE (mpicc)"
else
	if [ "$(id -u)" = 0 ]; then
		export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	fi
	MPIRUN="mpirun --oversubscribe"
	# shellcheck disable=SC2086
	if timeout 60 $MPIRUN -np 2 "$MEASURE" -q --sizes 1,8,64,256,1024,4096 -r 5 \
		--raw "$tmp/m.prtt" -o "$tmp/m.params" >"$tmp/m.out" 2>&1 &&
		"$FIT" --check "$tmp/m.params" >/dev/null 2>>"$tmp/m.out" &&
		"$FIT" "$tmp/m.prtt" >/dev/null 2>>"$tmp/m.out" &&
		grep -q '^n = 10; reported latency' "$tmp/m.out"; then
		ok "loggp-measure MPI smoke test (6 sizes, 2 ranks)"
	else
		notok "loggp-measure MPI smoke test" "$(cat "$tmp/m.out")"
	fi
	# The second measurement (--repeat 2, the default) against the first: a
	# line per range of the file.
	nr=$(grep -c '^range ' "$tmp/m.params")
	if grep -q '^measurement 2 against the first' "$tmp/m.out" &&
		[ "$(sed -n '/^measurement 2 against the first/,$p' "$tmp/m.out" |
			grep -cE '^range [0-9]+ \([0-9]+\.\.([0-9]+|inf) B\): [0-9]+ sizes, largest difference ')" = "$nr" ]; then
		ok "loggp-measure measures twice: a line per range of the file ($nr)"
	else
		notok "loggp-measure measures twice: a line per range" "$(cat "$tmp/m.out")"
	fi
	# --check: the file just measured holds or not (this machine drifts: both
	# are right), with a line per size and per range; a latency of 10 ms
	# holds nowhere.
	# shellcheck disable=SC2086
	timeout 60 $MPIRUN -np 2 "$MEASURE" -q --sizes 1,8,64,256,1024,4096 -r 5 \
		--check "$tmp/m.params" >"$tmp/c.out" 2>"$tmp/c.err"
	rc=$?
	if [ $rc -le 1 ] && [ "$(grep -cE '^ +[0-9]+ +[0-9]+ ' "$tmp/c.out")" = 6 ] &&
		[ "$(grep -cE '^range [0-9]+ \(.*: (holds|does not hold)$' "$tmp/c.out")" = "$nr" ] &&
		tail -1 "$tmp/c.out" | grep -qE "^$tmp/m.params (holds|does not hold) here now: " &&
		{ [ $rc = 1 ] || tail -1 "$tmp/c.out" | grep -q ' holds here now'; }; then
		ok "loggp-measure --check of the file it wrote: a line per size and per range, exit $rc"
	else
		notok "loggp-measure --check of the file it wrote" "rc=$rc" "$(cat "$tmp/c.out" "$tmp/c.err")"
	fi
	printf 'loggp-params 1\nrange 0 inf L=10000000 o=100 g=100 G=0 O=0\n' >"$tmp/far.params"
	# shellcheck disable=SC2086
	timeout 60 $MPIRUN -np 2 "$MEASURE" -q --sizes 1,8,64 -r 3 --check "$tmp/far.params" \
		>"$tmp/f.out" 2>/dev/null
	rc=$?
	if [ $rc = 1 ] && [ "$(tail -1 "$tmp/f.out")" = "$tmp/far.params does not hold here now: 3 of 3 sizes differ by more than 10% (PRTT(1,0,s) or PRTT(n,0,s))" ]; then
		ok "loggp-measure --check: L = 10 ms does not hold (exit 1)"
	else
		notok "loggp-measure --check: L = 10 ms does not hold" "rc=$rc" "$(cat "$tmp/f.out")"
	fi
	# Strided round trips: two strides, two sizes; the table keeps them and
	# loggp-fit refits them (from the table's rounded times: not always to
	# the last digit of the file loggp-measure wrote).
	# shellcheck disable=SC2086
	if timeout 60 $MPIRUN -np 2 "$MEASURE" -q --sizes 1,8,64,1024 -r 3 --stride 8,64 \
		--stride-sizes 16,1024 --raw "$tmp/ms.prtt" -o "$tmp/ms.params" >"$tmp/ms.out" 2>&1 &&
		[ "$(grep -c '^stride ' "$tmp/ms.prtt")" = 4 ] &&
		[ "$(grep '^stride ' "$tmp/ms.params" | cut -c1-18 | tr -s ' ' | paste -sd';')" = "stride 8 ;stride 64 " ] &&
		"$FIT" --check "$tmp/ms.params" >/dev/null 2>>"$tmp/ms.out" &&
		"$FIT" -o "$tmp/ms2.params" "$tmp/ms.prtt" >/dev/null 2>>"$tmp/ms.out" &&
		[ "$(grep -c '^stride ' "$tmp/ms2.params")" = 2 ]; then
		ok "loggp-measure --stride smoke test (2 strides, 2 sizes; loggp-fit refits them)"
	else
		notok "loggp-measure --stride smoke test" "$(cat "$tmp/ms.out" "$tmp/ms.params")"
	fi
	# The study's benchmark: one line per pattern, stride and size.
	# shellcheck disable=SC2086
	if [ -x "$B/examples/log3p-bench" ] &&
		timeout 60 $MPIRUN -np 2 "$B/examples/log3p-bench" --sizes 16,1024 --strides 0,64 \
		--reps 2 --warmup 1 >"$tmp/lb.csv" 2>"$tmp/lb.err" &&
		[ "$(head -1 "$tmp/lb.csv")" = "pattern,P,stride,size,time_ns" ] &&
		[ "$(tail -n +2 "$tmp/lb.csv" | cut -d, -f1-4 | paste -sd' ')" = \
			"$(for p in pingpong linear tree; do for d in 0 64; do for s in 16 1024; do printf '%s,2,%s,%s ' $p $d $s; done; done; done | sed 's/ $//')" ]; then
		ok "log3p-bench: ping-pong, linear and tree, contiguous and strided"
	else
		notok "log3p-bench smoke test" "$(cat "$tmp/lb.csv" "$tmp/lb.err" 2>/dev/null | head)"
	fi
	# measure_err NAME STATUS EXPECTED ARGS...: rank 0's error lines (mpirun's
	# own lines left out) and the exit status mpirun passes on.
	measure_err() {
		local name=$1 st=$2 want=$3
		shift 3
		# shellcheck disable=SC2086
		out=$(timeout 60 $MPIRUN "$@" 2>&1 >/dev/null); rc=$?
		out=$(printf '%s\n' "$out" | grep -e '^loggp-measure: error: ' -e '^Try ' -e ': error: ')
		if [ $rc -eq "$st" ] && [ "$out" = "$want" ]; then ok "$name"; else notok "$name" "rc=$rc" "$out"; fi
	}
	measure_err "loggp-measure with 3 ranks: usage error" 2 "$(printf '%s\n' \
		'loggp-measure: error: needs exactly 2 ranks (mpirun -np 2), has 3' "Try 'loggp-measure --help'.")" \
		-np 3 "$MEASURE" -q --sizes 1
	measure_err "loggp-measure bad --sizes: usage error" 2 "$(printf '%s\n' \
		"loggp-measure: error: --sizes: expected increasing sizes 1..2^30, at most 4096, got '2'" \
		"Try 'loggp-measure --help'.")" -np 2 "$MEASURE" --sizes 4,2
	measure_err "loggp-measure bad --stride: usage error" 2 "$(printf '%s\n' \
		"loggp-measure: error: --stride: expected increasing strides 8..2^31, at most 64, got '4'" \
		"Try 'loggp-measure --help'.")" -np 2 "$MEASURE" --stride 8,4
	measure_err "loggp-measure bad --stride-sizes: usage error" 2 "$(printf '%s\n' \
		"loggp-measure: error: --stride-sizes: expected increasing multiples of 8, 16..2^30, at most 4096, got '100'" \
		"Try 'loggp-measure --help'.")" -np 2 "$MEASURE" --stride 8 --stride-sizes 64,100
	measure_err "loggp-measure --stride-sizes without --stride: usage error" 2 "$(printf '%s\n' \
		"loggp-measure: error: --stride-sizes needs --stride" \
		"Try 'loggp-measure --help'.")" -np 2 "$MEASURE" --stride-sizes 64
	measure_err "loggp-measure --repeat 0: usage error" 2 "$(printf '%s\n' \
		"loggp-measure: error: --repeat: expected an integer 1..100, got '0'" \
		"Try 'loggp-measure --help'.")" -np 2 "$MEASURE" --repeat 0
	measure_err "loggp-measure --check with -o: usage error" 2 "$(printf '%s\n' \
		"loggp-measure: error: --check writes no parameter file and measures no strides: not with -o" \
		"Try 'loggp-measure --help'.")" -np 2 "$MEASURE" --check "$tmp/far.params" -o "$tmp/x.params"
	measure_err "loggp-measure --check of a missing file" 1 \
		"$tmp/none.params: error: cannot open: No such file or directory" \
		-np 2 "$MEASURE" -q --sizes 1 -r 1 --check "$tmp/none.params"
	measure_err "loggp-measure: a parameter file that cannot be written" 1 \
		"/nonexistent-dir/m.params: error: cannot create: No such file or directory" \
		-np 2 "$MEASURE" -q --sizes 1,8 -r 1 --warmup 0 -o /nonexistent-dir/m.params
fi
exit $status
