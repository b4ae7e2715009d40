# Cuts HPCC's LatencyBandwidth section out of one rank's goaltrace file
# (how tests/trace2goal/apps/hpcc was made from a run of 2 ranks; see
# real-app.sh). The section's loop counts are fixed in HPCC's code, not
# read from its input: some 11 000 calls per rank at least (29 653 in the
# recorded run), against under 1 000 for the rest at N = 8. It is
# self-contained: it starts after HPCC's MPI_Barrier before it, and ends
# with an MPI_Reduce and 10 MPI_Bcast on the world, all its messages
# received by then. Its calls are replaced by
# a '# cut' comment and a '# flush: START END' line spanning them, so that
# trace2goal leaves their time out, as it does the recorder's own writes.
# Usage: awk -f hpcc-cut.awk FILE FILE >OUT   (the file twice: two passes)
# Exits 1 without output when the trace does not look like that.
BEGIN { FS = ":" }
function die(msg) {
	print "hpcc-cut.awk: " FILENAME ": " msg > "/dev/stderr"
	bad = 1
	exit 1
}
# first pass: find the section
NR == FNR {
	if ($0 ~ /^MPI_Barrier:/ && !ping) bar = FNR
	if ($0 ~ /^MPI_(Send|Recv):/ && $7 == 100 && !ping) ping = FNR
	if ($0 ~ /^MPI_(Sendrecv|Isend|Irecv):/ && ($7 == 200 || $7 == 201)) ring = FNR
	name[FNR] = $1
	next
}
FNR == 1 {
	if (!ping || !bar || !ring || ring < ping)
		die("no LatencyBandwidth section (ping-pong with tag 100, rings with tags 200 and 201)")
	s = bar + 1
	for (i = s; i < ping; i++)
		if (name[i] !~ /^MPI_(Comm_size|Comm_rank|Allreduce)$/)
			die("line " i ": " name[i] " between the MPI_Barrier and the first ping-pong")
	for (r = ring + 1; name[r] == "MPI_Waitall"; r++)
		;
	if (name[r] != "MPI_Reduce")
		die("line " r ": " name[r] " after the last ring, expected MPI_Reduce")
	for (e = r + 1; e <= r + 10; e++)
		if (name[e] != "MPI_Bcast")
			die("line " e ": " name[e] ", expected the 10th MPI_Bcast after the MPI_Reduce")
	e = r + 10
	for (i = s; i <= e; i++)
		if (name[i] !~ /^MPI_/)
			die("line " i ": a '#' line inside the section")
}
FNR < s || FNR > e { print; next }
FNR == s { t0 = $2 }
FNR == e {
	print "# cut: HPCC's LatencyBandwidth section, " (e - s + 1) " calls (lines " s "-" e " of the recorded file); the flush line spans them"
	print "# flush: " t0 " " $NF
}
END { if (!bad && FNR < e) exit 1 }
