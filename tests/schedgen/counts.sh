# The messages of a schedule, per rank pair, for ompi.sh and mpich.sh to
# compare with what an MPI library counts of its own.  Needs $B (the build).

# The root of collective COLL on P ranks: 1 at P = 5 and 5 at P = 6 for the
# rooted ones, else 0.
root_of() { # COLL P
	case $1:$2 in bcast:5 | reduce:5 | gather:5 | scatter:5) echo 1 ;;
	bcast:6 | reduce:6 | gather:6 | scatter:6) echo 5 ;; *) echo 0 ;; esac
}

# "SRC DST MSGS BYTES" per rank pair of schedgen PATTERN on P ranks, BYTES
# and COLL's root, sorted.
goal_counts() { # COLL PATTERN P BYTES [SCHEDGEN OPTIONS]
	"$B/bin/schedgen" "$2" -s "$3" -d "$4" --root "$(root_of "$1" "$3")" "${@:5}" -o - | awk '
		/^rank [0-9]+ \{/ { r = $2 }
		/: send [0-9]+b to [0-9]+/ { for (i = 1; i <= NF; i++) if ($i == "send") { s = $(i + 1); d = $(i + 3) }
			sub(/b$/, "", s); k = r " " d; n[k]++; by[k] += s }
		END { for (k in n) print k, n[k], by[k] }' | sort -n -k1,1 -k2,2
}

# "SRC DST BYTES" a message of the schedule, each rank's in the order it
# sends them (its ops' order).
goal_sends() { # COLL PATTERN P BYTES [SCHEDGEN OPTIONS]
	"$B/bin/schedgen" "$2" -s "$3" -d "$4" --root "$(root_of "$1" "$3")" "${@:5}" -o - | awk '
		/^rank [0-9]+ \{/ { r = $2 }
		/: send [0-9]+b to [0-9]+/ { for (i = 1; i <= NF; i++) if ($i == "send") { s = $(i + 1); d = $(i + 3) }
			sub(/b$/, "", s); print r, d, s }'
}
