#!/usr/bin/env bash
# The patterns that are Open MPI's algorithms send what Open MPI sends:
# for each (collective, coll_tuned algorithm, pattern), P ranks and a size,
# the messages and bytes of every rank pair in the schedule equal those
# Open MPI's own monitoring counts (pml_monitoring) when it runs that
# algorithm.  Skipped without mpicc, mpirun or Open MPI's monitoring.
# Prints "ok - ..." / "not ok - ...".
set -u
B=$(cd "${1:-build}" && pwd)
cd "$(dirname "$0")" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
name="Open MPI's own message counts"
if ! command -v mpicc >/dev/null || ! command -v mpirun >/dev/null ||
	! ompi_info 2>/dev/null | grep -q 'MCA pml: monitoring'; then
	echo "ok - schedgen: $name # SKIP needs Open MPI (mpicc, mpirun, its pml monitoring)"
	exit 0
fi
if ! mpicc -O1 ompi_coll.c -o "$tmp/coll" 2>"$tmp/err"; then
	echo "not ok - schedgen: $name: ompi_coll.c does not build"; sed 's/^/    /' "$tmp/err"
	exit 0
fi

# COLL ALGORITHM PATTERN SIZES: the pattern is that algorithm (sizes in
# bytes; Open MPI's barriers send 0 bytes).  From P bytes on: below that
# Open MPI's ring allreduce falls back to recursive doubling.
cases='allreduce 4 allreduce_ring 8,65536
allreduce 6 allreduce_rabenseifner 5,8,65537
allgather 2 allgather_bruck 8,65536
allgather 3 allgather_recdoub 8,65536
allgather 4 allgather_ring 8,65536
allgather 5 allgather_neighbor 8,65536
alltoall 2 alltoall_pairwise 8,65536
bcast 6 bcast_binomial 8,65536
bcast 9 bcast_scatter_allgather_ring 5,8,65537
gather 1 gather_linear 8,65536
scatter 1 scatter_linear 8,65536
barrier 1 barrier_linear 0
barrier 3 barrier_butterfly 0
barrier 4 barrier_dissemination 0'

# "SRC DST MSGS BYTES" per rank pair that Open MPI counted, sorted.
ompi_counts() { # COLL ALGORITHM P BYTES
	rm -f "$tmp"/prof.*
	timeout 60 mpirun --oversubscribe --allow-run-as-root -np "$3" \
		--mca pml_monitoring_enable 2 --mca pml_monitoring_enable_output 3 \
		--mca pml_monitoring_filename "$tmp/prof" --mca coll_tuned_use_dynamic_rules 1 \
		--mca coll_tuned_"$1"_algorithm "$2" "$tmp/coll" "$1" "$4" </dev/null >/dev/null 2>"$tmp/err" || return 1
	awk -F'\t' '$1 == "I" { split($4, b, " "); split($5, m, " "); print $2, $3, m[1], b[1] }' \
		"$tmp"/prof.* | sort -n -k1,1 -k2,2
}

# The same of the schedule.
goal_counts() { # PATTERN P BYTES
	"$B/bin/schedgen" "$1" -s "$2" -d "$3" -o - | awk '
		/^rank [0-9]+ \{/ { r = $2 }
		/: send [0-9]+b to [0-9]+/ { for (i = 1; i <= NF; i++) if ($i == "send") { s = $(i + 1); d = $(i + 3) }
			sub(/b$/, "", s); k = r " " d; n[k]++; by[k] += s }
		END { for (k in n) print k, n[k], by[k] }' | sort -n -k1,1 -k2,2
}

while read -r coll alg pat sizes; do
	bad= n=0
	for P in 3 5 6 8; do
		for d in ${sizes//,/ }; do
			[ "$pat" = allreduce_ring ] && [ "$d" -lt "$P" ] && continue
			if ! ompi_counts "$coll" "$alg" "$P" "$d" >"$tmp/ompi"; then
				bad="mpirun failed at P=$P, $d bytes: $(head -2 "$tmp/err")"
				break 2
			fi
			goal_counts "$pat" "$P" "$d" >"$tmp/goal"
			if [ ! -s "$tmp/ompi" ] || ! cmp -s "$tmp/ompi" "$tmp/goal"; then
				bad="P=$P, $d bytes: $(diff "$tmp/ompi" "$tmp/goal" | head -6 | tr '\n' ' ')"
				break 2
			fi
			n=$((n + 1))
		done
	done
	[ -z "$bad" ] && [ "$n" -eq 0 ] && bad="nothing compared"
	if [ -z "$bad" ]; then
		echo "ok - schedgen: $pat sends what Open MPI's $coll algorithm $alg sends (P = 3, 5, 6, 8; ${sizes//,/ and } B)"
	else
		echo "not ok - schedgen: $pat sends what Open MPI's $coll algorithm $alg sends"
		echo "    $bad"
	fi
done <<<"$cases"

# A control: allreduce_recdoub folds the ranks above a power of two in
# otherwise than Open MPI's recursive doubling (allreduce algorithm 3), and
# the comparison must see it at P = 6.
ompi_counts allreduce 3 6 8 >"$tmp/ompi" && goal_counts allreduce_recdoub 6 8 >"$tmp/goal"
if [ -s "$tmp/ompi" ] && ! cmp -s "$tmp/ompi" "$tmp/goal"; then
	echo "ok - schedgen: the comparison tells allreduce_recdoub from Open MPI's recursive doubling (P = 6)"
else
	echo "not ok - schedgen: the comparison tells allreduce_recdoub from Open MPI's recursive doubling (P = 6)"
fi
