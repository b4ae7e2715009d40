#!/usr/bin/env bash
# loggops-model end to end: golden outputs (cases/NAME.out made by the
# arguments in cases/NAME.cmd), a golden SVG, hand-computed times, the CSV
# shape, exact option errors with exit status 2.
set -u
B=$(cd "${1:-build}" && pwd)
M=$B/bin/loggops-model
cd "$(dirname "$0")" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok - loggops-model $1"; }
fail() { echo "not ok - loggops-model $1"; [ -s "$tmp/diff" ] && sed 's/^/    /' "$tmp/diff" | head -20; }

# Golden outputs.
for c in cases/*.cmd; do
	n=$(basename "$c" .cmd)
	# shellcheck disable=SC2046
	if "$M" $(cat "$c") >"$tmp/$n.out" 2>"$tmp/diff" && diff -u "cases/$n.out" "$tmp/$n.out" >"$tmp/diff"; then
		ok "golden $n"
	else
		fail "golden $n"
	fi
done

# The plot: golden, and the same bytes on a second run.
"$M" bcast_binomial -s 2..16 -d 64 --svg "$tmp/a.svg" >/dev/null 2>"$tmp/diff" &&
	diff -u cases/small.svg "$tmp/a.svg" >"$tmp/diff" && ok "golden SVG" || fail "golden SVG"
"$M" bcast_binomial -s 2..16 -d 64 --svg "$tmp/b.svg" >/dev/null 2>&1
cmp -s "$tmp/a.svg" "$tmp/b.svg" && ok "SVG is deterministic" || fail "SVG is deterministic"
"$M" barrier_tree -s 32 --sweep n=2..6:1 --svg "$tmp/c.svg" >/dev/null 2>"$tmp/diff" &&
	grep -q '^<svg ' "$tmp/c.svg" && grep -q '</svg>$' "$tmp/c.svg" && grep -q '>n (fan-in)</text>' "$tmp/c.svg" &&
	ok "sweep plot" || fail "sweep plot"

# Hand-computed times (defaults L=2500 o=1500 g=1000, s=1: no per-byte cost).
want() { # NAME COLUMN EXPECTED ARGS...: that column of the first CSV row
	local n=$1 col=$2 w=$3; shift 3
	local got
	got=$("$M" "$@" --csv - 2>"$tmp/diff" | sed -n 2p | cut -d, -f"$col")
	if [ "$got" = "$w" ]; then ok "$n"; else echo "got '$got', want $w" >"$tmp/diff"; fail "$n"; fi
}
want "binomial P=8: 3 (2o+L) = 16500" 2 16500 bcast_binomial -s 8
want "binomial P=8 (-P 8, the old spelling): 16500" 2 16500 bcast_binomial -P 8
want "binomial P=8 (--ranks 8 --size 1): 16500" 2 16500 bcast_binomial --ranks 8 --size 1
want "scatter P=4: 2o+L + 2 max(o,g) = 8500" 2 8500 scatter_linear -s 4
want "central barrier P=5: 2(2o+L) + 6 o = 20000" 2 20000 barrier_linear -s 5
want "chain P=6: 5 (2o+L) = 27500" 2 27500 bcast_chain -s 6
want "tournament P=16: 8 (2o+L) = 44000" 2 44000 barrier_tournament -s 16
# One MPI_Sendrecv a step: (P-1)(2o+L+sG) = 6 x 6094 for 100 bytes,
# simulated and by the formula (column 3).
want "allgather_ring P=7: simulated 36564" 2 36564 allgather_ring -s 7 -d 100
want "allgather_ring P=7: formula 36564" 3 36564 allgather_ring -s 7 -d 100
want "alltoall_pairwise P=7: formula 36564" 3 36564 alltoall_pairwise -s 7 -d 100
want "alltoall_pairwise, g + sG > h: outside the domain" 5 0 alltoall_pairwise -s 7 -d 100 -g 6000
# Exchanges of x bytes, a step 2o + max(L, xO) + max(xO, xG) each: 6094
# for 100 bytes, 6694 for 200, 7894 for 400.  The ring: 2(P-1) steps of
# s/P; Open MPI's recursive doubling: log2 P of s; Rabenseifner's: halving
# and doubling of s/2, s/4; Bruck's: min(d, P-d) blocks at distance d.
want "allreduce_ring P=4, 400 B: 6 x 6094" 3 36564 allreduce_ring -s 4 -d 400
want "allreduce_ring P=4, 400 B: simulated" 2 36564 allreduce_ring -s 4 -d 400
want "allreduce_ring P=3, 400 B: outside the domain (3 does not divide 400)" 5 0 allreduce_ring -s 3 -d 400
want "allreduce_recdoub_ompi P=8: 3 x 6094" 3 18282 allreduce_recdoub_ompi -s 8 -d 100
want "allreduce_recdoub_ompi P=6: outside the domain" 5 0 allreduce_recdoub_ompi -s 6 -d 100
want "allreduce_rabenseifner P=4, 800 B: 2 (7894 + 6694)" 3 29176 allreduce_rabenseifner -s 4 -d 800
want "allreduce_rabenseifner P=4, 800 B: simulated" 2 29176 allreduce_rabenseifner -s 4 -d 800
want "allgather_bruck P=5: 6094 + 6694 + 6094" 3 18882 allgather_bruck -s 5 -d 100
want "allgather_recdoub P=4, 100 B: 6694 + 6094" 3 12788 allgather_recdoub -s 4 -d 100
want "allgather_neighbor P=4, 100 B: 6094 + 6694" 3 12788 allgather_neighbor -s 4 -d 100
want "scan_recdoub P=4, 100 B: 2 x 6094" 3 12188 scan_recdoub -s 4 -d 100
want "reduce_scatter_ring P=5, 100 B: 4 x 6094" 3 24376 reduce_scatter_ring -s 5 -d 100
want "reduce_scatter_block_rechalving P=4, 100 B: 6694 + 6094" 3 12788 reduce_scatter_block_rechalving -s 4 -d 100
want "reduce_scatter_block_rechalving P=4, 100 B: simulated" 2 12788 reduce_scatter_block_rechalving -s 4 -d 100
# Against the simulator at every P of a range, non-powers of two among
# them: no difference where a formula claims to be exact.
inexact() { # ARGS...: rows in the domain whose formula differs from the simulation
	"$M" "$@" --csv - 2>/dev/null | awk -F, 'NR > 1 && $5 == 1 { d++; if ($2 != $3) bad++ }
		END { print (d ? bad + 0 : "none in the domain") }'
}
for a in "allreduce_ring -s 2..48:1 -d 720720 -S 1000000" "allgather_bruck -s 2..48:1 -d 100" \
	"allreduce_recdoub_ompi -s 2..1024 -d 1000" "allreduce_rabenseifner -s 2..1024 -d 65536 -G 0.5 -O 0.7" \
	"allreduce_rabenseifner_mpich -s 2..1024 -d 65536 -G 0.5 -O 0.7" \
	"reduce_scatter_block_rechalving -s 2..1024 -d 64 -G 0.5 -O 0.7" \
	"reduce_scatter_pairwise -s 2..64:1 -d 100" "alltoall_pairwise_mpich -s 2..64:1 -d 100" \
	"allgather_recdoub -s 2..1024 -d 64 -G 0.5 -O 0.7" "allgather_neighbor -s 2..64:1 -d 1000 -G 0.5 -O 2" \
	"scan_recdoub -s 2..1024 -d 1000" "exscan_recdoub -s 2..1024 -d 100 -o 200 -L 5000" \
	"reduce_scatter_ring -s 2..64:1 -d 100" "reduce_scatter_block_butterfly -s 2..1024 -d 64 -G 0.5 -O 0.7"; do
	# shellcheck disable=SC2086
	n=$(inexact $a)
	if [ "$n" = 0 ]; then ok "exact against the simulator: $a"; else echo "$n differ" >"$tmp/diff"; fail "exact against the simulator: $a"; fi
done
# 4 iterations on 2 ranks: the root sends every max(o, g) = 1500, the first
# message is handled at o + L = 4000, then one every o: 4000 + 4 o = 10000.
want "loop of 4 on 2 ranks: (o + L + 4 o) / 4 = 2500" 3 2500.000 bcast_chain -s 2 --loop 4
# Strided messages (log_3 P, docs/semantics.md section 10) with om = 500,
# lm = 1000: a message costs o_mw + l_mw + o_net = 2 om + lm + 2o + L =
# 7500, the root o + om = 2000 per send.  The paper's linear broadcast
# P (om + lm/2) + o_net is below the exact time while lm/2 <= 2000 - om,
# above it when lm = 5000.
S="--stride 64 --o-mw 500 --l-mw 1000"
# shellcheck disable=SC2086
want "strided chain P=3: 2 x 7500 = 15000" 2 15000 bcast_chain -s 3 $S
# shellcheck disable=SC2086
want "log3p_p2p P=3: 15000" 3 15000 bcast_chain -s 3 $S
# shellcheck disable=SC2086
want "strided binomial P=8: 3 x 7500 = 22500" 2 22500 bcast_binomial -s 8 $S
# shellcheck disable=SC2086
want "log3p_tree P=8: 22500" 6 22500 bcast_binomial -s 8 $S
# shellcheck disable=SC2086
want "strided scatter P=4: 7500 + 2 x 2000 = 11500" 2 11500 scatter_linear -s 4 $S
# shellcheck disable=SC2086
want "log3p_linear P=4: 4 (500 + 500) + 5500 = 9500" 15 9500 scatter_linear -s 4 $S
# shellcheck disable=SC2086
want "log3p_spec_linear P=4: 11500" 18 11500 scatter_linear -s 4 $S
want "log3p_linear P=4, lm = 5000: 17500, above 15500" 15 17500 scatter_linear -s 4 --stride 64 --o-mw 500 --l-mw 5000
want "log3p_linear P=4, lm = 5000: outside its domain" 17 0 scatter_linear -s 4 --stride 64 --o-mw 500 --l-mw 5000
# shellcheck disable=SC2086
want "spec_scatter outside its domain with middleware costs" 11 0 scatter_linear -s 4 $S

# Every range form of util/num.h, exactly: the first CSV column.
xs() { # NAME EXPECTED ARGS...
	local n=$1 w=$2; shift 2
	local got
	got=$("$M" "$@" --csv - 2>"$tmp/diff" | sed 1d | cut -d, -f1 | paste -sd' ')
	if [ "$got" = "$w" ]; then ok "values: $n"; else echo "got '$got', want '$w'" >"$tmp/diff"; fail "values: $n"; fi
}
xs "A..B doubles and ends at B" "2 4 8 16 32 48" bcast_binomial -s 2..48
xs "A..B:STEP ends at B" "4 9 14 16" bcast_binomial -s 4..16:5
xs "A..B*F up to B" "2 6 18" bcast_binomial -s 2..48*3
xs "A..B+D up to B, in a list" "4 9 14 100" bcast_binomial -s 4..16+5,100
xs "decimal steps are exact" "0.25 0.55 0.85 1" bcast_binomial --sweep G=0.25..1:0.3
xs "a list of ranges" "0 0.001 0.002 0.5 1000" bcast_binomial --sweep O=0..0.002:0.001,0.5..1000*2000

# CSV: a header and one line per P, the same columns on every line.
"$M" gather_linear -s 2..64 --csv - >"$tmp/g.csv" 2>"$tmp/diff"
if [ "$(wc -l <"$tmp/g.csv")" = 7 ] && [ "$(awk -F, '{print NF}' "$tmp/g.csv" | sort -u)" = 11 ] &&
	head -1 "$tmp/g.csv" | grep -q '^P,simulated,loggops_linear,loggops_linear_err,loggops_linear_in_domain,'; then
	ok "CSV shape"
else
	fail "CSV shape"
fi

# Option errors: exact text and the Try line, exit status 2.
err_case() { # NAME EXPECTED ARGS...
	local n=$1 want=$2; shift 2
	"$M" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	printf 'loggops-model: error: %s\nTry %s.\n' "$want" "'loggops-model --help'" >"$tmp/want"
	if [ $rc = 2 ] && diff -u "$tmp/want" "$tmp/err" >"$tmp/diff" && [ ! -s "$tmp/out" ]; then
		ok "error: $n"
	else
		echo "exit status $rc" >>"$tmp/diff"; fail "error: $n"
	fi
}
err_case "no pattern" "no pattern given (--list shows the patterns with formulas)"
err_case "unknown pattern" "unknown pattern 'nosuch' (--list shows the patterns with formulas)" nosuch
err_case "pattern without formula" "no formula covers pattern 'ring_double' (--list shows the patterns with formulas)" ring_double
err_case "P = 1" "-s must be 2..1048576 (got 1)" bcast_binomial -s 1
err_case "middleware costs without a stride" "--o-mw, --O-mw, --l-mw and --L-mw need --stride" bcast_chain --L-mw 0.5
err_case "stride 0" "--stride must be at least 1 (got 0)" bcast_chain --stride 0
err_case "stride too large" "--stride must be at most 2147483648 (got 2147483649)" bcast_chain --stride 2147483649
err_case "stride with a loop" "--loop compares contiguous messages only (no --stride)" bcast_chain --stride 8 --loop 3
err_case "bad range" "-s expects N, A..B*F, A..B+D, A..B, A..B:STEP or a list of them, not '2..x'" bcast_binomial -s 2..x
err_case "empty range" "-s: the range '8..4' is empty" bcast_binomial -s 8..4
err_case "doubling from 0" "-s: a doubling range A..B needs A > 0 (or give A..B:STEP)" bcast_binomial -s 0..8
err_case "step 0" "-s: the step after ':' must be above 0" bcast_binomial -s 2..8:0
err_case "factor 1" "-s: the factor after '*' must be an integer of at least 2" bcast_binomial -s 2..8*1
err_case "too many values" "-s: '2..20000:1' has more than 10000 values" bcast_binomial -s 2..20000:1
err_case "negative size" "--size must not be negative (got -3)" bcast_binomial -d -3
err_case "-P and -s (the old -s BYTES)" "-s and -P both give the ranks (the message size is -d BYTES)" bcast_binomial -P 2..16 -s 1024
err_case "G with 4 decimals" "-G expects a decimal (at most 3 fraction digits) number, not '0.0001'" bcast_binomial -G 0.0001
err_case "L not a number" "-L expects a number, not '1e3'" bcast_binomial -L 1e3
err_case "bad sweep variable" "--sweep expects X=RANGE with X one of L, o, g, G, O, S, s, n (got 'q=1..3')" bcast_binomial --sweep q=1..3
err_case "sweep with a P range" "with --sweep, -s takes one value (got '2..8')" bcast_binomial --sweep L=1..3 -s 2..8
err_case "fan-in 1" "--fanin must be at least 2 (got 1)" barrier_tree -n 1
err_case "loop 0" "--loop must be at least 1 (got 0)" bcast_binomial --loop 0
err_case "loop too large" "--loop 100000 with P up to 1024 is too large (P x N must be at most 50000000)" bcast_chain -s 2..1024 --loop 100000
err_case "unknown option" "unknown option '--bogus'" bcast_binomial --bogus
err_case "missing value" "option '-P' needs an argument" bcast_binomial -P
err_case "an argument to a flag" "option '--list' takes no argument" bcast_binomial --list=1
err_case "extra argument" "unexpected argument 'extra'" bcast_binomial extra
# An output that cannot be written: the library's message, exit status 1.
"$M" bcast_binomial -s 2 --svg /nonexistent-dir/p.svg >/dev/null 2>"$tmp/err"
rc=$?
echo "/nonexistent-dir/p.svg: error: cannot create: No such file or directory" >"$tmp/want"
if [ $rc = 1 ] && diff -u "$tmp/want" "$tmp/err" >"$tmp/diff"; then ok "error: cannot create the plot"; else echo "exit status $rc" >>"$tmp/diff"; fail "error: cannot create the plot"; fi

"$M" --help >"$tmp/out" 2>&1 && grep -q '^usage: loggops-model PATTERN' "$tmp/out" && ok "--help" || fail "--help"
exit 0
