#!/usr/bin/env bash
# The patterns that are MPICH's algorithms send what MPICH sends: for each
# (collective, MPICH algorithm, pattern), P ranks and a size, every rank of
# the schedule sends the messages MPICH 4.0.2 sends when it runs that
# algorithm (peer and bytes), in the same order, as mpich_count.c logs
# them under it; and schedgen --select mpich sends what MPICH's own choice
# sends.  MPICH
# runs flat, as --select mpich models it (one rank a node: MPIR_CVAR_NOLOCAL
# and no device collectives).  Skipped without Debian's MPICH (mpicc.mpich,
# mpiexec.mpich) and UCX's headers.  Prints "ok - ..." / "not ok - ...".
set -u
B=$(cd "${1:-build}" && pwd)
cd "$(dirname "$0")" || exit 2
. ./counts.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
name="MPICH's own messages"
if ! command -v mpicc.mpich >/dev/null || ! command -v mpiexec.mpich >/dev/null ||
	[ ! -f /usr/include/ucp/api/ucp.h ]; then
	echo "ok - schedgen: $name # SKIP needs MPICH (mpicc.mpich, mpiexec.mpich) and UCX's headers"
	exit 0
fi
if ! mpicc.mpich -O1 ompi_coll.c -o "$tmp/coll" 2>"$tmp/err" ||
	! mpicc.mpich -O1 -shared -fPIC mpich_count.c -o "$tmp/count.so" -ldl 2>>"$tmp/err"; then
	echo "not ok - schedgen: $name: ompi_coll.c or mpich_count.c does not build"
	sed 's/^/    /' "$tmp/err"
	exit 0
fi

# COLL ALGORITHM PATTERN SIZES [RANKS]: the pattern is MPICH's algorithm
# (MPIR_CVAR_COLL_INTRA_ALGORITHM's name), on P = 3, 5, 6, 8 ranks or
# RANKS.  MPICH's recursive-doubling allgather for P not a power of two is
# not a pattern here.
cases='bcast binomial bcast_binomial_mpich 8,65536
bcast scatter_recursive_doubling_allgather bcast_scatter_recdoub_mpich 3,100,65537
bcast scatter_ring_allgather bcast_scatter_ring_mpich 3,100,65537
allreduce recursive_doubling allreduce_recdoub_ompi 8,65536
allreduce reduce_scatter_allgather allreduce_rabenseifner_mpich 8,101,65537
allgather recursive_doubling allgather_recdoub 8,65536 2,4,8
allgather brucks allgather_bruck 8,65536
allgather ring allgather_ring 8,65536
alltoall brucks alltoall_bruck 8,1000
alltoall scattered alltoall_scattered 8,65536 3,5,6,8,35
alltoall pairwise alltoall_pairwise_mpich 8,65536
reduce_scatter_block recursive_halving reduce_scatter_block_rechalving 1,7,100
reduce_scatter_block pairwise reduce_scatter_pairwise 1,7,100
reduce_scatter recursive_halving reduce_scatter_block_rechalving 1,7,100
reduce_scatter pairwise reduce_scatter_pairwise 1,7,100
barrier dissemination barrier_dissemination 0'

# "SRC DST BYTES" a message MPICH sent, each rank's in its order:
# algorithm ALGORITHM forced (an abort if MPICH cannot run it; with
# FALLBACK=silent, MPICH's default, it runs its own choice instead), or
# auto for its own choice.  Its messages to itself are left out (local
# copies here).
mpich_sends() { # COLL ALGORITHM P BYTES
	local var
	var=MPIR_CVAR_$(echo "$1" | tr a-z A-Z)_INTRA_ALGORITHM
	rm -f "$tmp"/cnt.*
	timeout 120 env MPICH_COUNT="$tmp/cnt" LD_PRELOAD="$tmp/count.so" MPIR_CVAR_NOLOCAL=1 \
		MPIR_CVAR_DEVICE_COLLECTIVES=none MPIR_CVAR_COLLECTIVE_FALLBACK="${FALLBACK:-error}" "$var=$2" \
		mpiexec.mpich -n "$3" "$tmp/coll" "$1" "$4" "$(root_of "$1" "$3")" </dev/null \
		>/dev/null 2>"$tmp/err" || return 1
	for ((i = 0; i < $3; i++)); do cat "$tmp/cnt.$i" || return 1; done
}

# Compares MPICH's messages with the schedule's; sets bad on a difference.
same_sends() { # COLL ALGORITHM PATTERN P BYTES [SCHEDGEN OPTIONS]
	if ! mpich_sends "$1" "$2" "$4" "$5" >"$tmp/mpich" || grep -q error "$tmp/mpich"; then
		bad="mpiexec failed at P=$4, $5 bytes: $(head -2 "$tmp/err" "$tmp/mpich")"
		return 1
	fi
	goal_sends "$1" "$3" "$4" "$5" "${@:6}" >"$tmp/goal"
	if [ ! -s "$tmp/mpich" ] || ! cmp -s "$tmp/mpich" "$tmp/goal"; then
		bad="P=$4, $5 bytes: $(diff "$tmp/mpich" "$tmp/goal" | head -6 | tr '\n' ' ')"
		return 1
	fi
}

while read -r coll alg pat sizes ranks; do
	bad= n=0
	ranks=${ranks:-3,5,6,8}
	for P in ${ranks//,/ }; do
		for d in ${sizes//,/ }; do
			same_sends "$coll" "$alg" "$pat" "$P" "$d" || break 2
			n=$((n + 1))
		done
	done
	if [ -z "$bad" ] && [ "$n" -gt 0 ]; then
		roots=
		[ "$(root_of "$coll" 5)" = 1 ] && roots="; roots 1 at P = 5, 5 at P = 6"
		echo "ok - schedgen: $pat sends what MPICH's $coll $alg sends, in its order (P = ${ranks//,/, }; ${sizes//,/ and } B$roots)"
	else
		echo "not ok - schedgen: $pat sends what MPICH's $coll $alg sends"
		echo "    ${bad:-nothing compared}"
	fi
done <<<"$cases"

# Below P' bytes MPICH refuses its Rabenseifner allreduce when forced, and
# by default runs its own choice, recursive doubling; so does the pattern.
bad= n=0
for t in 2:1 6:3 16:8; do
	FALLBACK=silent same_sends allreduce reduce_scatter_allgather allreduce_rabenseifner_mpich \
		"${t%:*}" "${t#*:}" || break
	n=$((n + 1))
done
if [ "$n" = 3 ]; then
	echo "ok - schedgen: allreduce_rabenseifner_mpich falls back below P' bytes as MPICH does (P = 2, 6, 16)"
else
	echo "not ok - schedgen: allreduce_rabenseifner_mpich falls back below P' bytes as MPICH does"
	echo "    $bad"
fi

# A control: Open MPI's Rabenseifner allreduce folds the ranks above a
# power of two in otherwise than MPICH's, and the comparison must see it.
if ! same_sends allreduce reduce_scatter_allgather allreduce_rabenseifner 6 100 && [[ $bad == P=* ]]; then
	echo "ok - schedgen: the comparison tells allreduce_rabenseifner from MPICH's reduce_scatter_allgather (P = 6)"
else
	echo "not ok - schedgen: the comparison tells allreduce_rabenseifner from MPICH's reduce_scatter_allgather (P = 6)"
fi
# Another: Open MPI's pairwise alltoall sends to the same ranks as MPICH's
# on 8 ranks, in another order.
if ! same_sends alltoall pairwise alltoall_pairwise 8 100 && [[ $bad == P=* ]]; then
	echo "ok - schedgen: the comparison tells alltoall_pairwise from MPICH's pairwise by its order (P = 8)"
else
	echo "not ok - schedgen: the comparison tells alltoall_pairwise from MPICH's pairwise by its order (P = 8)"
fi

# MPICH's own choice against schedgen COLL --select mpich, over
# communicator sizes and bytes that cross its rules' bounds.
for coll in allreduce bcast allgather alltoall barrier reduce_scatter_block reduce_scatter; do
	bad= n=0 want=0
	for P in 3 6 8 9 12 16; do
		for d in 4 9 100 3000 20000 140000 1100000; do
			[ "$coll" = barrier ] && d=0
			want=$((want + 1))
			same_sends "$coll" auto "$coll" "$P" "$d" --select mpich || break 2
			n=$((n + 1))
			[ "$coll" = barrier ] && break
		done
	done
	sizes=$([ "$coll" = barrier ] && echo "0 B" || echo "4 B to 1.1 MB")
	if [ -z "$bad" ] && [ "$n" -eq "$want" ]; then
		echo "ok - schedgen: $coll --select mpich sends what MPICH's own choice sends (P = 3, 6, 8, 9, 12, 16; $sizes)"
	else
		echo "not ok - schedgen: $coll --select mpich sends what MPICH's own choice sends"
		echo "    ${bad:-$n of $want compared}"
	fi
done

# Its rules as the library holds them, on a finer grid (mpich_rules.py).
lib=/usr/lib/x86_64-linux-gnu/libmpich.so.12
if out=$(python3 mpich_rules.py "$B/bin/schedgen" "$lib" 2>&1); then
	echo "ok - schedgen: --select mpich picks as the rules in $lib ($(echo "$out" | awk '{ n += $2 } END { print n }') picks, 7 classes)"
else
	echo "not ok - schedgen: --select mpich picks as the rules in $lib"
	echo "$out" | sed 's/^/    /' | head -12
fi
