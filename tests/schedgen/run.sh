#!/usr/bin/env bash
# schedgen end to end: --list, golden schedules (cases/NAME.goal made by the
# command in cases/NAME.cmd), GOAL text compiled by goalc equal to the direct
# binary for every pattern, old-style options, exact option errors, and
# simulated times equal to the closed forms of docs/semantics.md section 7.
set -u
B=$(cd "${1:-build}" && pwd)
S=$B/bin/schedgen
cd "$(dirname "$0")" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok - schedgen $1"; }
fail() { echo "not ok - schedgen $1"; [ -s "$tmp/diff" ] && sed 's/^/    /' "$tmp/diff" | head -20; }
check() { # NAME COMMAND...: passes if the command succeeds
	local n=$1; shift
	if "$@" >"$tmp/diff" 2>&1; then ok "$n"; else fail "$n"; fi
}

# --list: every pattern once, with a line about it.
"$S" --list >"$tmp/list"
n=$(grep -c '^[a-z]' "$tmp/list")
if [ "$n" = 84 ]; then ok "--list shows 84 patterns"; else echo "got $n" >"$tmp/diff"; fail "--list shows 84 patterns"; fi
patterns=$(grep '^[a-z]' "$tmp/list" | cut -d' ' -f1)

# Golden schedules.
for c in cases/*.cmd; do
	n=$(basename "$c" .cmd)
	# shellcheck disable=SC2046
	"$S" $(cat "$c") -o "$tmp/$n.goal" 2>"$tmp/diff"
	if diff -u "cases/$n.goal" "$tmp/$n.goal" >"$tmp/diff"; then ok "golden $n"; else fail "golden $n"; fi
done

# Text and binary agree, for every pattern and a few shapes.
bad=
for p in $patterns; do
	for args in "-s 1" "-s 7 --root 3 -d 10 --segment 3 --nway 2 --fanin 3" "-s 16 -d 1000" \
	            "-s 5 --iterations 3 --rotate-root --sync --nb 500 --nb-poll 200 --cpu 1" \
	            "-s 6 -d 100 --stride 64" "-s 9 -d 10 --stride 4 --block 2 --iterations 2 --sync"; do
		# shellcheck disable=SC2086
		"$S" "$p" $args -o "$tmp/t.goal" && "$S" "$p" $args -o "$tmp/d.bin" &&
			"$B/bin/goalc" "$tmp/t.goal" -o "$tmp/t.bin" && cmp -s "$tmp/t.bin" "$tmp/d.bin" ||
			bad="$bad $p($args)"
	done
done
if [ -z "$bad" ]; then ok "text through goalc equals the direct binary"; else echo "$bad" >"$tmp/diff"; fail "text through goalc equals the direct binary"; fi

# --gamma: the root of a linear reduce reduces P - 1 blocks, its own among
# them, each after the receive before it; a gamma of 0 changes nothing.
"$S" reduce_linear -s 5 -d 10 --root 2 --gamma 1.5 -o - | sed -n '/^rank 2 {/,/^}/p' >"$tmp/g"
cat >"$tmp/want" <<'EOF2'
rank 2 {
l1: recv 10b from 4 tag 0
l2: recv 10b from 3 tag 0
l2 requires l1
l3: calc 15
l3 requires l2
l4: calc 15
l4 requires l3
l5: recv 10b from 1 tag 0
l5 requires l4
l6: calc 15
l6 requires l5
l7: recv 10b from 0 tag 0
l7 requires l6
l8: calc 15
l8 requires l7
}
EOF2
if diff -u "$tmp/want" "$tmp/g" >"$tmp/diff"; then ok "gamma: the linear reduce's root reduces 4 blocks"; else fail "gamma: the linear reduce's root reduces 4 blocks"; fi
"$S" allreduce_ring_segmented -s 6 -d 1000 --segment 10 --gamma 0 -o "$tmp/g0.bin" &&
	"$S" allreduce_ring_segmented -s 6 -d 1000 --segment 10 -o "$tmp/g1.bin"
check "gamma 0 is no gamma" cmp "$tmp/g0.bin" "$tmp/g1.bin"
printf 'loggp-params 1\ngamma 1.5\nrange 0 inf L=1 o=1 g=1 G=0 O=0\n' >"$tmp/g.params"
"$S" allreduce_rabenseifner -s 6 -d 1000 --params "$tmp/g.params" -o "$tmp/gp.bin" &&
	"$S" allreduce_rabenseifner -s 6 -d 1000 --gamma 1.5 -o "$tmp/gg.bin"
check "gamma from --params is --gamma" cmp "$tmp/gp.bin" "$tmp/gg.bin"

# Deterministic output.
"$S" allreduce_ring -s 33 -d 1000 --segment 64 -o "$tmp/a.bin"
"$S" allreduce_ring -s 33 -d 1000 --segment 64 -o "$tmp/b.bin"
check "output is deterministic" cmp "$tmp/a.bin" "$tmp/b.bin"

# The published schedgen's options and names.
( cd "$tmp" && "$S" -p binomialtreebcast -s 16 -d 8 --root 0 --timemult 1000 && test -s schedule.goal ) >"$tmp/diff" 2>&1 &&
	"$S" bcast_binomial -s 16 -d 8 -o "$tmp/new.goal" &&
	cmp -s "$tmp/schedule.goal" "$tmp/new.goal" && ok "old options, default schedule.goal" || fail "old options, default schedule.goal"
"$S" --ptrn nwaydissemination --commsize 9 --datasize 4 --nway 2 --filename "$tmp/o.goal" >"$tmp/diff" 2>&1 &&
	"$S" barrier_nway -s 9 -d 4 --nway 2 -o "$tmp/n.goal" && cmp -s "$tmp/o.goal" "$tmp/n.goal" &&
	ok "old long options" || fail "old long options"

# Option errors: exact text and the Try line, exit status 2, nothing written.
err_case() { # NAME EXPECTED ARGS...
	local n=$1 want=$2; shift 2
	rm -f "$tmp/e.goal"
	"$S" -o "$tmp/e.goal" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	printf '%s\n' "$want" "Try 'schedgen --help'." >"$tmp/want"
	if [ $rc = 2 ] && diff -u "$tmp/want" "$tmp/err" >"$tmp/diff" && [ ! -e "$tmp/e.goal" ]; then
		ok "error: $n"
	else
		echo "exit status $rc" >>"$tmp/diff"; fail "error: $n"
	fi
}
err_case "P = 0" "schedgen: error: the number of ranks must be at least 1 (got 0)" bcast_binomial -s 0
err_case "P < 0" "schedgen: error: the number of ranks must be at least 1 (got -4)" bcast_binomial -s -4
err_case "P not a number" "schedgen: error: --ranks expects a number, not '8x'" bcast_binomial -s 8x
err_case "P too large" "schedgen: error: the number of ranks must be at most 4294967294 (got 4294967295)" bcast_binomial -s 4294967295
err_case "root out of range" "schedgen: error: the root 8 is not a rank (0..7)" scatter -s 8 --root 8
err_case "negative root" "schedgen: error: the root -1 is not a rank" scatter --root -1
err_case "segment size 0" "schedgen: error: the segment size must be at least 1 byte (got 0)" bcast_chain --segment 0
err_case "nway 0" "schedgen: error: --nway must be 1..4294967295 (got 0)" barrier_nway --nway 0
err_case "fan-in 0" "schedgen: error: --fanin must be 1..4294967295 (got 0)" barrier_tree --fanin 0
err_case "iterations 0" "schedgen: error: --iterations must be at least 1" bcast_binomial --iterations 0
err_case "cpu too large" "schedgen: error: --cpu must be 0..65535 (got 65536)" bcast_binomial --nb 10 --cpu 65536
err_case "nb in too many pieces" "schedgen: error: --nb 18446744073709551615 in pieces of --nb-poll 1 ns, 1 times: more calcs per rank than the 2147483647 ops a rank may have" bcast_binomial --nb 18446744073709551615 --nb-poll 1
err_case "nb pieces times iterations" "schedgen: error: --nb 100 in pieces of --nb-poll 1 ns, 100000000 times: more calcs per rank than the 2147483647 ops a rank may have" bcast_binomial --nb 100 --nb-poll 1 --iterations 100000000
err_case "unknown pattern" "schedgen: error: unknown pattern 'bcast_foo' (schedgen --list shows them)" bcast_foo
err_case "old pattern not supported" "schedgen: error: the published schedgen's pattern 'resnet' is not supported here (schedgen --list shows the patterns)" -p resnet
err_case "unknown option" "schedgen: error: unknown option '--bogus'" bcast_binomial --bogus
err_case "missing value" "schedgen: error: option '--root' needs an argument" bcast_binomial --root
err_case "bad format" "schedgen: error: --format is text or binary, not 'xml'" bcast_binomial --format xml
err_case "stride 0" "schedgen: error: --stride must be 1..2147483648 bytes (got 0)" bcast_binomial --stride 0
err_case "stride too large" "schedgen: error: --stride must be 1..2147483648 bytes (got 2147483649)" bcast_binomial --stride 2147483649
err_case "stride below the block" "schedgen: error: --stride 4 is smaller than the block size 8" bcast_binomial --stride 4
err_case "block without stride" "schedgen: error: --block needs --stride" bcast_binomial --block 4
err_case "too many tags" "schedgen: error: this schedule needs 2000000000000 distinct tags, more than the 2^31 GOAL allows (use fewer segments or iterations)" bcast_chain -d 2000000000000 --segment 1
err_case "fan-out 0" "schedgen: error: --fanout must be 1..32 (got 0)" bcast_chain_ompi --fanout 0
err_case "radix 1" "schedgen: error: --radix must be 2..256 (got 1)" bcast_knomial --radix 1
err_case "select: unknown library" "schedgen: error: --select: unknown library 'intel' (known: openmpi mpich)" allreduce --select intel
err_case "select: unknown class" "schedgen: error: --select: openmpi has no rules for 'alltoallw' here (known: allreduce bcast reduce allgather alltoall barrier gather scatter reduce_scatter_block reduce_scatter scan exscan alltoallv allgatherv)" alltoallw --select openmpi
err_case "select: algorithm out of range" "schedgen: error: --select: openmpi's bcast algorithms are 1..9 or basic_linear chain pipeline split_binary_tree binary_tree binomial knomial scatter_allgather scatter_allgather_ring (got 12)" bcast --select openmpi:12
err_case "select: algorithm 0" "schedgen: error: --select openmpi:0: the algorithm number must be 1 or more" bcast --select openmpi:0
err_case "select: no class" "schedgen: error: no collective given (one of: allreduce bcast reduce allgather alltoall barrier gather scatter reduce_scatter_block reduce_scatter scan exscan alltoallv allgatherv)" --select openmpi
err_case "gamma not a number" "schedgen: error: --gamma expects ns per byte (e.g. 0.25), not '1/2': not a number" reduce_binomial --gamma 1/2
err_case "gamma negative" "schedgen: error: --gamma expects ns per byte (e.g. 0.25), not '-1': not a number" reduce_binomial --gamma -1
err_case "select: unknown algorithm name" "schedgen: error: --select: openmpi's allreduce algorithms are 1..6 or basic_linear nonoverlapping recursive_doubling ring segmented_ring rabenseifner (got 'rabenseifer')" allreduce --select openmpi:rabenseifer
err_case "select: huge algorithm number" "schedgen: error: --select: openmpi's scan algorithms are 1..2 or linear recursive_doubling (got '99999999999')" scan --select openmpi:99999999999
err_case "explain without select" "schedgen: error: --explain needs --select" bcast_binomial --explain
err_case "select: mpich numbers none" "schedgen: error: --select: mpich's allreduce algorithms are recursive_doubling reduce_scatter_allgather (got '2')" allreduce --select mpich:2
err_case "select: mpich class" "schedgen: error: --select: mpich has no rules for 'reduce' here (known: allreduce bcast allgather alltoall barrier reduce_scatter_block reduce_scatter)" reduce --select mpich
err_case "select: mpich non-commutative reduce-scatter" "schedgen: error: --select: MPICH runs its noncommutative and recursive_doubling reduce-scatters for a non-commutative operation, which are not modelled here" reduce_scatter --select mpich --noncommutative

# --select: Open MPI's rules pick by P and bytes; --explain says which rule
# and what a fallback or a composite runs; the schedule is the pattern's.
sel() { # WANT-PATTERN CLASS ARGS...: the schedule is that pattern's, with the same args
	local want=$1 cls=$2; shift 2
	"$S" "$cls" --select "$@" -o - | sed 1d >"$tmp/sel" && "$S" "$want" "${@:2}" -o - | sed 1d >"$tmp/pat" &&
		cmp -s "$tmp/sel" "$tmp/pat"
}
check "select: allreduce of 8 B on 200 ranks is the nonoverlapping one" \
	sel allreduce_nonoverlapping allreduce openmpi -s 200 -d 8
check "select: allreduce of 1 MiB on 256 ranks is Rabenseifner's" \
	sel allreduce_rabenseifner allreduce openmpi -s 256 -d 1Mi
check "select: bcast of 60 B on 5 ranks is the binary tree" sel bcast_binary_ompi bcast openmpi -s 5 -d 60
check "select: bcast of 2 MiB on 5 ranks is one chain" sel bcast_chain_ompi bcast openmpi -s 5 -d 2Mi --fanout 1
check "select: mpich allreduce of 16 B on 8 ranks is its Rabenseifner" sel allreduce_rabenseifner_mpich allreduce mpich -s 8 -d 16
check "select: mpich allreduce of 7 B on 8 ranks is recursive doubling (8 B or less)" sel allreduce_recdoub_ompi allreduce mpich -s 8 -d 7
check "select: mpich alltoall of 100 B on 8 ranks is scattered (its P <= 8)" sel alltoall_scattered alltoall mpich -s 8 -d 100
check "select: mpich alltoall of 100 B on 9 ranks is Bruck's" sel alltoall_bruck alltoall mpich -s 9 -d 100
check "select: an allreduce of 0 bytes sends nothing (Open MPI)" sel none allreduce openmpi -s 4 -d 0
check "select: a broadcast of 0 bytes sends nothing (MPICH)" sel none bcast mpich -s 4 -d 0
check "select: Open MPI's linear alltoallv sends its 0-byte messages" sel alltoallv_linear alltoallv openmpi:1 -s 4 -d 0
check "select: a barrier is not a call of 0 bytes" sel barrier_dissemination barrier mpich -s 4 -d 0
check "select: reduce of 100000 B on 4 ranks is the binomial" sel reduce_binomial_ompi reduce openmpi -s 4 -d 100000
check "select: reduce of 300000 B on 4 ranks is the linear" sel reduce_linear reduce openmpi -s 4 -d 300000
check "select: openmpi:2 runs 4 chains" sel bcast_chain_ompi bcast openmpi:2 -s 20 -d 100 --fanout 4
check "select: an algorithm by its name" sel allreduce_rabenseifner allreduce openmpi:rabenseifner -s 12 -d 1000
check "select: scan is always the linear one" sel scan_linear scan openmpi -s 300 -d 1Mi
check "select: exscan openmpi:2 is recursive doubling" sel exscan_recdoub exscan openmpi:2 -s 6 -d 8
check "select: alltoallv on 3 ranks is pairwise" sel alltoall_pairwise alltoallv openmpi -s 3 -d 8
check "select: alltoallv on 100 ranks is pairwise" sel alltoall_pairwise alltoallv openmpi -s 100 -d 8
check "select: alltoallv on 8 ranks is the linear one" sel alltoallv_linear alltoallv openmpi -s 8 -d 8
check "select: allgatherv of 3000 B on 2 ranks is two_proc" sel allgatherv_two_proc allgatherv openmpi -s 2 -d 3000
check "select: allgatherv of 100 B on 6 ranks is the default" sel allgatherv_default allgatherv openmpi -s 6 -d 100
check "select: allgatherv of 1000 B on 6 ranks is the neighbor exchange" \
	sel allgather_neighbor allgatherv openmpi -s 6 -d 1000
"$S" allreduce --select openmpi -s 200 -d 8 --explain -o /dev/null >"$tmp/out" 2>&1
cat >"$tmp/want" <<'EOF2'
allreduce on 200 ranks, 8 bytes: allreduce_nonoverlapping, openmpi algorithm 2 (nonoverlapping).
  Open MPI 4.1 picks allreduce algorithm 2 for P 128..255, bytes < 131072 (coll_tuned_decision_fixed.c, ompi_coll_tuned_allreduce_intra_dec_fixed); it runs reduce: reduce_binomial_ompi (algorithm 5), bcast: bcast_binary_ompi (algorithm 5).
EOF2
if diff -u "$tmp/want" "$tmp/out" >"$tmp/diff"; then ok "--explain: the rule and what it runs"; else fail "--explain: the rule and what it runs"; fi
"$S" scan --select openmpi -s 4 -d 8 --explain -o /dev/null >"$tmp/out" 2>&1
"$S" allgatherv --select openmpi -s 8 -d 8 --explain -o /dev/null >>"$tmp/out" 2>&1
cat >"$tmp/want" <<'EOF2'
scan on 4 ranks, 8 bytes: scan_linear, openmpi algorithm 1 (linear).
  Open MPI 4.1 runs scan algorithm 1 for any P and bytes: without dynamic rules coll/tuned leaves scan to coll/basic (coll_tuned_module.c), whose mca_coll_basic_scan_intra calls ompi_coll_base_scan_intra_linear.
allgatherv on 8 ranks, 8 bytes: allgatherv_default, openmpi algorithm 1 (default).
  Open MPI 4.1 picks allgatherv algorithm 1 for P 8..15, bytes < 1024 (coll_tuned_decision_fixed.c, ompi_coll_tuned_allgatherv_intra_dec_fixed); it runs coll/basic's linear gatherv to rank 0 (mca_coll_basic_gatherv_intra), then bcast of one element of all P blocks: bcast_knomial (algorithm 7, unsegmented).
EOF2
if diff -u "$tmp/want" "$tmp/out" >"$tmp/diff"; then ok "--explain: scan is coll/basic's; allgatherv's broadcast"; else fail "--explain: scan is coll/basic's; allgatherv's broadcast"; fi
"$S" allreduce --select openmpi:4 -s 8 -d 5 --explain -o - 2>"$tmp/out" | grep -c ': send ' >"$tmp/n"
cat >"$tmp/want" <<'EOF2'
allreduce on 8 ranks, 5 bytes: allreduce_ring_segmented, openmpi algorithm 4 (ring).
  allreduce algorithm 4, as forced by coll_tuned_allreduce_algorithm; fewer bytes than ranks: Open MPI runs its recursive doubling instead.
EOF2
if diff -u "$tmp/want" "$tmp/out" >"$tmp/diff" && [ "$(cat "$tmp/n")" = 24 ]; then
	ok "--explain on stderr with -o -: the ring's fallback, 24 messages"
else
	echo "messages: $(cat "$tmp/n")" >>"$tmp/diff"; fail "--explain on stderr with -o -: the ring's fallback, 24 messages"
fi
"$S" bcast_binomial --format binary -o - >"$tmp/stdout.bin" 2>"$tmp/diff" && "$S" bcast_binomial -o "$tmp/file.bin" 2>>"$tmp/diff"
if cmp "$tmp/stdout.bin" "$tmp/file.bin" >>"$tmp/diff" 2>&1; then ok "binary to stdout"; else fail "binary to stdout"; fi
"$S" bcast_binomial -o /nonexistent-dir/x.bin 2>"$tmp/err"
rc=$?
echo "/nonexistent-dir/x.bin: error: cannot create: No such file or directory" >"$tmp/want"
if [ $rc = 1 ] && diff -u "$tmp/want" "$tmp/err" >"$tmp/diff"; then ok "error: cannot create"; else fail "error: cannot create"; fi

# Closed forms (docs/semantics.md section 7) with the default parameters
# L=2500 o=1500 g=1000 G=6 O=0: s = 100 bytes, max(sO, sG) = 594.
if [ -x "$B/bin/loggopsim" ]; then
	sim() { # PATTERN ARGS...: prints the simulated time
		"$S" "$@" -o "$tmp/s.bin" && "$B/bin/loggopsim" -b -q "$tmp/s.bin" |
			sed -n 's/^Maximum finishing time at host [0-9]*: \([0-9]*\) .*/\1/p'
	}
	closed() { # NAME WANT PATTERN ARGS...
		local n=$1 want=$2; shift 2
		local got; got=$(sim "$@")
		if [ "$got" = "$want" ]; then ok "closed form: $n"; else echo "got '$got', want $want" >"$tmp/diff"; fail "closed form: $n"; fi
	}
	closed "binomial broadcast P=64" $(( (2*1500 + 2500 + 594) * 6 )) bcast_binomial -s 64 -d 100
	closed "binomial broadcast P=1024 root 5" $(( (2*1500 + 2500 + 594) * 10 )) bcast_binomial -s 1024 -d 100 --root 5
	closed "dissemination P=32" $(( (2*1500 + 2500 + 594) * 5 )) allreduce_dissemination -s 32 -d 100
	closed "linear scatter P=20" $(( 2*1500 + 2500 + 594 + 18 * 1594 )) scatter_linear -s 20 -d 100
	# h = 2o + L + max(sO, sG) = 6094; X = max(o + sO, g + sG) = 1594;
	# Y = max(o + max(sO, sG), g + sG) = 2094 (docs/patterns.md).
	closed "dissemination P=100 (not a power of two)" $(( 6094 * 7 )) allreduce_dissemination -s 100 -d 100
	closed "linear gather P=20" $(( 6094 + 18 * 2094 )) gather_linear -s 20 -d 100
	closed "binary tree broadcast P=31" $(( 4 * (6094 + 1594) )) bcast_binary -s 31 -d 100
	closed "chain broadcast P=17" $(( 16 * 6094 )) bcast_chain -s 17 -d 100
	closed "linear scan P=9" $(( 8 * 6094 )) scan_linear -s 9 -d 100
	closed "pipelined ring P=13" $(( 13 * 6094 )) ring_pipelined -s 13 -d 100
	closed "recursive doubling P=32" $(( 5 * 6094 )) allreduce_recdoub -s 32 -d 100
	closed "ring allreduce P=12" $(( 2 * 11 * 6094 )) allreduce_ring -s 12 -d 1200
	closed "central counter barrier P=9" $(( 2 * 5500 + 2 * 7 * 1500 )) barrier_linear -s 9
	closed "tournament barrier P=16" $(( 2 * 4 * 5500 )) barrier_tournament -s 16
	# Two scatters back to back on 3 ranks, by hand: the root sends at 0 and
	# 1594 (its NIC), ends the first scatter at 3094 and sends again at 3188
	# and 4782; rank 2 receives at 5594 (done 7688) and 8782 (done 10876).
	closed "linear scatter twice, P=3" 10876 scatter_linear -s 3 -d 100 --iterations 2
	# Strided messages (docs/semantics.md section 10) under the defaults and
	# the costs of stride 64 (o_mw=200 O_mw=0.5 l_mw=300 L_mw=0.25): s =
	# 100, om = 200 + 50 = 250, lm = 300 + 25 = 325, so a hop takes
	# 2(o + om) + L + lm + max(sO, sG) = 6919 and the root's CPU o + om = 1750
	# per send (more than g + sG = 1594).
	printf 'loggp-params 1\nrange 0 inf L=2500 o=1500 g=1000 G=6 O=0\nstride 64 o_mw=200 O_mw=0.5 l_mw=300 L_mw=0.25\n' >"$tmp/st.params"
	simp() { # PATTERN ARGS...: the simulated time under st.params
		"$S" "$@" -o "$tmp/s.bin" && "$B/bin/loggopsim" -b -q -p "$tmp/st.params" "$tmp/s.bin" |
			sed -n 's/^Maximum finishing time at host [0-9]*: \([0-9]*\) .*/\1/p'
	}
	got=$(simp bcast_binomial -s 64 -d 100 --stride 64)
	if [ "$got" = $(( 6919 * 6 )) ]; then ok "closed form: strided binomial broadcast P=64"; else echo "got '$got'" >"$tmp/diff"; fail "closed form: strided binomial broadcast P=64"; fi
	got=$(simp scatter_linear -s 20 -d 100 --stride 100 --block 4)
	if [ "$got" = $(( 6919 + 18 * 1750 )) ]; then ok "closed form: strided linear scatter P=20"; else echo "got '$got'" >"$tmp/diff"; fail "closed form: strided linear scatter P=20"; fi
	got=$(simp scatter_linear -s 20 -d 100 --stride 32)
	if [ "$got" = $(( 6094 + 18 * 1594 )) ]; then ok "closed form: linear scatter, stride below the file's"; else echo "got '$got'" >"$tmp/diff"; fail "closed form: linear scatter, stride below the file's"; fi
	# One MPI_Sendrecv a step, P-1 steps: (P-1) h, h = 2o + L + sG = 6094
	# for 100 bytes (docs/patterns.md).
	closed "allgather_ring P=7" $(( 6 * 6094 )) allgather_ring -s 7 -d 100
	closed "alltoall_pairwise P=8" $(( 7 * 6094 )) alltoall_pairwise -s 8 -d 100
	# --gamma: each reduction of n bytes is a calc of gamma n ns, which the
	# next send waits for: a round of recursive doubling takes 6094 + 200 at
	# gamma 2; the ring reduces 100 bytes in its first P-1 steps only; a
	# barrier sharing the generator does not reduce.
	closed "recursive doubling P=32, gamma 2" $(( 5 * (6094 + 200) )) allreduce_recdoub -s 32 -d 100 --gamma 2
	closed "dissemination P=32, gamma 0.5" $(( 5 * (6094 + 50) )) allreduce_dissemination -s 32 -d 100 --gamma 0.5
	closed "ring allreduce P=12, gamma 1" $(( 11 * (6094 + 100) + 11 * 6094 )) allreduce_ring -s 12 -d 1200 --gamma 1
	closed "binomial reduce P=4, gamma 0.5" $(( 2 * (6094 + 50) )) reduce_binomial -s 4 -d 100 --gamma 0.5
	closed "dissemination barrier P=32, gamma 2" $(( 5 * 6094 )) barrier_dissemination -s 32 -d 100 --gamma 2
	# NCCL's rings (docs/patterns.md, "NCCL"): P = 4, 400 bytes, one
	# channel: 2(P-1) steps of a 100-byte chunk, one hop each; LL sends 200
	# bytes for them (h = 5500 + 199 G), LL128 128 (h = 5500 + 127 G); the
	# first P-1 steps reduce; allgather and reduce-scatter take P-1 steps.
	closed "NCCL ring allreduce P=4, Simple" $(( 6 * 6094 )) allreduce_ring_nccl -s 4 -d 400
	closed "NCCL ring allreduce P=4, LL" $(( 6 * (5500 + 199 * 6) )) allreduce_ring_nccl -s 4 -d 400 --protocol ll
	closed "NCCL ring allreduce P=4, LL128" $(( 6 * (5500 + 127 * 6) )) allreduce_ring_nccl -s 4 -d 400 --protocol LL128
	closed "NCCL ring allreduce P=4, gamma 1" $(( 3 * (6094 + 100) + 3 * 6094 )) allreduce_ring_nccl -s 4 -d 400 --gamma 1
	closed "NCCL ring allgather P=7" $(( 6 * 6094 )) allgather_ring_nccl -s 7 -d 100
	closed "NCCL ring reduce-scatter P=7, gamma 1" $(( 6 * (6094 + 100) )) reduce_scatter_ring_nccl -s 7 -d 100 --gamma 1
	# Broadcast and reduce: a chain of P - 1 hops of all 400 bytes (h = 5500
	# + 399 G; LL 799 G, LL128 511 G), each hop of the reduce reducing.
	closed "NCCL ring broadcast P=4, Simple" $(( 3 * (5500 + 399 * 6) )) bcast_ring_nccl -s 4 -d 400 --root 2
	closed "NCCL ring broadcast P=4, LL" $(( 3 * (5500 + 799 * 6) )) bcast_ring_nccl -s 4 -d 400 --protocol ll
	closed "NCCL ring reduce P=4, LL128, gamma 1" $(( 3 * (5500 + 511 * 6 + 400) )) reduce_ring_nccl -s 4 -d 400 --protocol ll128 --gamma 1
	# The tree on 4 nodes of one rank is 0 - 2 - {1, 3}: both leaves' 100
	# bytes reach rank 2 at 4000, handled one after the other (to 6094,
	# 8188); its sum reaches rank 0 at 12188 (handled to 14282), the result
	# rank 2 at 18282 (to 20376), whose two sends leave at 21876 and 23470
	# (the NIC's g + sG): rank 3 is done at 25970 + 2094.
	closed "NCCL tree allreduce P=4" 28064 allreduce_tree_nccl -s 4 -d 100
	# Rabenseifner on 8 ranks reduces 400 + 200 + 100 bytes in its halving.
	base=$(sim allreduce_rabenseifner -s 8 -d 800)
	closed "Rabenseifner P=8, gamma 1" $(( base + 700 )) allreduce_rabenseifner -s 8 -d 800 --gamma 1
fi
# NCCL's rings in loops and channels: LL's chunk is 32768 bytes, so 131072
# bytes on 2 ranks are two loops of two steps, each step one message of
# 65536 wire bytes; two channels halve each chunk, each channel on a cpu.
"$S" allreduce_ring_nccl -s 2 -d 131072 --protocol ll -o "$tmp/n.bin"
got=$("$B/bin/goalc" --stats "$tmp/n.bin" | awk '/^  send/ { s = $2 } /^bytes sent/ { b = $3 } END { print s, b }')
if [ "$got" = "8 524288" ]; then ok "NCCL ring: LL in loops of 32768-byte chunks"; else
	echo "got '$got'" >"$tmp/diff"; fail "NCCL ring: LL in loops of 32768-byte chunks"; fi
got=$("$S" allreduce_ring_nccl -s 4 -d 800 --channels 2 -o - | sed -n '/^rank 0 /,/^}/p' |
	awk '/send/ { n[$NF == 1 ? 1 : 0]++; b[$2]++ } END { print n[0], n[1], length(b) }')
if [ "$got" = "6 6 1" ]; then ok "NCCL ring: two channels, a cpu each, chunks halved"; else
	echo "got '$got'" >"$tmp/diff"; fail "NCCL ring: two channels"; fi
# The chains: from the root (broadcast), to the root (reduce); Simple's
# chunk is one step, 524288 bytes, a message each: 1048577 bytes are three.
chain() { "$S" "$@" -o - | awk '/^rank/ { r = $2 } /send/ { s = s " " r ">" $5 }
	/recv/ { n++ } END { print s, n }'; }
check "NCCL ring: the broadcast's chain from the root" test "$(chain bcast_ring_nccl -s 4 -d 8 --root 2)" = " 0>1 2>3 3>0 3"
check "NCCL ring: the reduce's chain to the root" test "$(chain reduce_ring_nccl -s 4 -d 8 --root 2)" = " 0>1 1>2 3>0 3"
got=$("$S" bcast_ring_nccl -s 3 -d 1048577 -o - | sed -n '/^rank 0 /,/^}/p' | awk '/send/ { n++; b += $3 } END { print n, b }')
if [ "$got" = "3 1048577" ]; then ok "NCCL ring: the broadcast's chunk is one step"; else
	echo "got '$got'" >"$tmp/diff"; fail "NCCL ring: the broadcast's chunk is one step"; fi
# On nodes, channel c enters and leaves a node at local rank c: on 2
# nodes of 4, channel 1's ring is 1 2 3 0 5 6 7 4, so rank 0 sends to 5
# and receives from 3 (channel 0: to 1, from 7).
got=$("$S" allreduce_ring_nccl -s 8 --ranks-per-node 4 --channels 2 -d 64 -o - | sed -n '/^rank 0 /,/^}/p' |
	awk '/send|recv/ { ch = / cpu 1$/ ? 1 : 0 } /send|recv/ && !seen[ch $2]++ { printf " %s%s>%s", ch, $2, $5 }')
check "NCCL ring: a channel's order on nodes" test "$got" = " 0send>1 0recv>7 1send>5 1recv>3"
# Step by step: every channel's step before the next step, so that a
# rank's receives are posted in the order their messages come.
got=$("$S" allreduce_ring_nccl -s 4 -d 800 --channels 2 -o - | sed -n '/^rank 0 /,/^}/p' |
	awk '/recv/ { printf "%s", ($NF == 1 ? 1 : 0) }')
check "NCCL ring: the channels' steps interleaved" test "$got" = 010101010101
# The tree on 4 nodes of 4 ranks: chains within the nodes; between them
# NCCL's trees (channel 0: node 0 - 2 - {1, 3}; channel 1, mirrored: node
# 3 - 1 - {2, 0}), each node facing its parent with its first rank and
# its first child with its second, in the channel's order of the node's
# ranks (channel 1: local ranks 1, 2, 3, 0).
tree_edges() { "$S" allreduce_tree_nccl -s 16 -d 64 --ranks-per-node 4 --channels 2 -o - |
	awk -v tag="$1" '/^rank/ { r = $2 } /send/ && $7 == tag { s = s " " r ">" $5 } END { print s }'; }
check "NCCL tree: the first tree, up" test "$(tree_edges 0)" = " 1>0 2>1 3>2 4>9 5>4 6>5 7>6 8>0 9>8 10>9 11>10 12>8 13>12 14>13 15>14"
check "NCCL tree: the second tree, up" test "$(tree_edges 2)" = " 0>3 1>5 2>1 3>2 4>7 5>13 6>5 7>6 8>11 9>6 10>9 11>10 12>15 14>13 15>14"
# LL128's tree chunk (enqueue.cc): on 2 nodes of 8, steps = 1 + log2 2 +
# 8/10 = 2.8; 4 MiB on one channel is 6 chunks of 614400 wire bytes, below
# 2.8 * 64 / 8 = 22.4, 13 at 307200, 27 at 153600: chunks of 144000 data
# bytes, 29 and 18304 bytes (153 lines of 128), each up and down.
got=$("$S" allreduce_tree_nccl -s 16 --ranks-per-node 8 -d 4Mi --protocol ll128 -o - |
	sed -n '/^rank 1 /,/^}/p' | awk '/send/ { b[$3]++ } END { print b["153600b"], b["19584b"] }')
check "NCCL tree: LL128's chunk halved as enqueue.cc does" test "$got" = "58 2"
# Open MPI's coll/han on 2 nodes of 2, 100 bytes (one segment): rank 1
# reduces into 0 and 3 into 2 (2o + L + 99G = 219 at L=100, o=10, G=1),
# 2 sends to 0 (libnbc on 2 nodes: its binomial tree; 219 .. 438), 0
# sends back to 2 (libnbc's linear broadcast: its NIC frees at 537, 2 has
# it at 657) and 2 to 3: 876.
"$S" allreduce_han -s 4 --ranks-per-node 2 -d 100 -o "$tmp/han.goal"
check "coll/han allreduce on 2 nodes of 2: 876 ns" test \
	"$("$B/bin/loggopsim" -q -b -L 100 -o 10 -g 0 -G 1 "$tmp/han.goal" | sed -n 's/^Maximum.*: \([0-9]*\) .*/\1/p')" = 876
# The broadcast: every rank but the root receives each byte once, whatever
# the levels' algorithms (libnbc's linear, binomial and chains, tuned's
# picks), nodes and root; 65536-byte segments.
han_ok=1
for args in "-s 8 --ranks-per-node 4 -d 200000 --root 5" "-s 12 --ranks-per-node 3 -d 1000000 --root 4" \
	"-s 32 --ranks-per-node 4 -d 100 --root 31" "-s 48 --ranks-per-node 8 -d 65536 --root 9"; do
	set -- $args
	"$S" bcast_han $args -o "$tmp/hb.goal" || han_ok=0
	got=$(awk -v root="$8" '/^rank/ { r = $2 } /recv/ { sub("b", "", $3); s[r] += $3 }
		END { for (r in s) if (r != root) print s[r] }' "$tmp/hb.goal" | sort -u)
	[ "$got" = "$6" ] && [ "$(grep -c recv "$tmp/hb.goal")" -ge $(($2 - 1)) ] || han_ok=0
	"$B/bin/loggopsim" -q -b "$tmp/hb.goal" >/dev/null || han_ok=0
done
check "coll/han broadcast: every rank gets every byte once" test $han_ok = 1
check "NCCL ring: the comment names channels and protocol" sh -c \
	"'$S' allgather_ring_nccl -s 3 --channels 4 --protocol ll128 -o - | head -1 | grep -qx '// schedgen allgather_ring_nccl: 3 ranks, 1 bytes, 4 channels, ll128'"
check "NCCL ring: 0 bytes, no message" sh -c "! '$S' allreduce_ring_nccl -s 4 -d 0 -o - | grep -q send"
expect_err() { # NAME MESSAGE ARGS...
	local name=$1 msg=$2; shift 2
	"$S" "$@" -o "$tmp/x.goal" >/dev/null 2>"$tmp/err"
	if [ $? -eq 2 ] && [ "$(head -1 "$tmp/err")" = "$msg" ]; then ok "$name"; else
		cp "$tmp/err" "$tmp/diff"; fail "$name"; fi
}
expect_err "--channels 65" "schedgen: error: --channels must be 1..64 (got 65)" allreduce_ring_nccl --channels 65
expect_err "--protocol bad" "schedgen: error: --protocol is simple, ll or ll128, not 'fast'" allreduce_ring_nccl --protocol fast
expect_err "coll/han: nodes of unequal size" "schedgen: error: allreduce_han needs nodes of equal size: 6 ranks are no multiple of --ranks-per-node 4" allreduce_han -s 6 --ranks-per-node 4
# --select nccl: NCCL's tuning model (docs/patterns.md, "NCCL's choice").
# 8 bytes on one node of 8 (the default system): the ring with LL costs
# 6.6 us + 14 steps x 0.6 us = 15.0 us, the tree 6.8 + 2 x 7 x 0.6 =
# 15.2 (plus the bytes); 8 bytes are fewer than 512 threads x 64 (LL's 8
# bytes a thread on each of 8 ranks), so one channel.
check "--select nccl: 8 bytes on a node of 8" test "$("$S" allreduce --select nccl -s 8 --ranks-per-node 8 -d 8 -o - | head -1)" = \
	"// schedgen allreduce_ring_nccl: 8 ranks, 8 bytes (nccl's allreduce ring), 1 channel, ll, 8 ranks a node"
check "--select nccl: why" sh -c "'$S' allreduce --select nccl -s 8 --ranks-per-node 8 -d 8 --explain -o /dev/null | grep -q 'ring/LL takes 15.0 us the least of tree/LL 15.2 '"
# 1 GiB on 512 nodes of 8: the ring's 8190 steps cost more than the
# tree's halved bandwidth.
check "--select nccl: 1 GiB on 4096 GPUs" test "$("$S" allreduce --select nccl -s 4096 --ranks-per-node 8 -d 1Gi -o - | head -1)" = \
	"// schedgen allreduce_tree_nccl: 4096 ranks, 1073741824 bytes (nccl's allreduce tree), 8 channels, simple, 8 ranks a node"
check "--select nccl: --protocol and --channels win" test "$("$S" allreduce --select nccl -s 8 --ranks-per-node 8 -d 8 --protocol simple --channels 2 -o - | head -1)" = \
	"// schedgen allreduce_ring_nccl: 8 ranks, 8 bytes (nccl's allreduce ring), 2 channels, simple, 8 ranks a node"
expect_err "--select nccl: no algorithm number" "schedgen: error: --select nccl takes no algorithm (give the pattern itself)" allreduce --select nccl:ring
expect_err "--select nccl: a class it lacks" "schedgen: error: --select: nccl has no 'alltoall' (it has bcast, reduce, allgather, reduce_scatter, allreduce)" alltoall --select nccl
expect_err "--nccl-system: a bad value" "schedgen: error: --nccl-system: bad 'sm' in 'sm=75' (keys: channels=1..64, bwintra=GB/s, bwinter=GB/s, latinter=us, sm=70|80|90, cpu=intel|amd, link=nvlink|pci, ll128=0|1, same=0|1)" allreduce --select nccl --nccl-system sm=75
expect_err "--nccl-system alone" "schedgen: error: --nccl-system needs --select nccl" allreduce --select openmpi --nccl-system sm=80
# The patterns that are Open MPI's algorithms, against its own counts.
"$(pwd)/ompi.sh" "$B"
# The patterns that are MPICH's algorithms, against what it sends.
"$(pwd)/mpich.sh" "$B"
exit 0
