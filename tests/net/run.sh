#!/usr/bin/env bash
# Networks (docs/semantics.md section 11, docs/network.md): closed forms of
# loggopsim --topology against hand calculations, equality with plain
# LogGOPS where no link is shared, and bad topologies and mappings.
# Prints "ok - ..." / "not ok - ..." lines.
set -u
B=$(cd "${1:-build}" && pwd)
SIM=$B/bin/loggopsim
SG=$B/bin/schedgen
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok - net $1"; }
fail() { echo "not ok - net $1"; [ -s "$tmp/diff" ] && sed 's/^/    /' "$tmp/diff" | head -20; }
want() { # NAME EXPECTED ACTUAL
	if [ "$2" = "$3" ]; then ok "$1"; else echo "got '$3', want '$2'" >"$tmp/diff"; fail "$1"; fi
}
# The run's time: the "Maximum finishing time" of loggopsim's output.
T() { "$SIM" -q -b "$@" 2>"$tmp/err" | sed -n 's/^Maximum finishing time at host [0-9]*: \([0-9]*\) .*/\1/p'; }

# Every rank r in "PAIRS" ("src:dst ...") sends s bytes to dst, every
# receiver has its receive posted: a GOAL file with P ranks.
pairs_goal() { # P SIZE PAIRS
	local P=$1 s=$2 r
	echo "num_ranks $P"
	for ((r = 0; r < P; r++)); do
		echo "rank $r {"
		for pr in $3; do
			[ "${pr%%:*}" = "$r" ] && echo "send ${s}b to ${pr##*:} tag 1"
			[ "${pr##*:}" = "$r" ] && echo "recv ${s}b from ${pr%%:*} tag 1"
		done
		echo "}"
	done
}

# L=1000 o=100 g=50 G=2, 1001 bytes: sG = 2000; alone, a message takes
# 2o + L + sG = 3200.
P="-L 1000 -o 100 -g 50 -G 2"

# Incast into one host: n ranks on host 0 each receive 1001 bytes from a
# rank on a host of its own, all at once: the n flows share host 0's
# down-link, each at 1/n of its rate: 2o + L + n sG.
for n in 1 2 4; do
	pairs=""
	: >"$tmp/map"
	for ((i = 0; i < n; i++)); do pairs+="$((n + i)):$i "; echo 0 >>"$tmp/map"; done
	for ((i = 0; i < n; i++)); do echo $((i + 1)) >>"$tmp/map"; done
	pairs_goal $((2 * n)) 1001 "$pairs" >"$tmp/incast.goal"
	want "incast of $n into one host: 2o + L + n sG" $((1200 + n * 2000)) \
		"$(T $P --topology fattree:k=8,levels=1 --mapping "$tmp/map" "$tmp/incast.goal")"
done

# A permutation across the top of a fat tree (rank r to r + 8 of 16):
# no slowdown on the full tree, half the rate with taper 2 (each leaf
# switch's four flows share its two up-links): 2o + L + 2 sG.
pairs=""
for ((r = 0; r < 16; r++)); do pairs+="$r:$(((r + 8) % 16)) "; done
pairs_goal 16 1001 "$pairs" >"$tmp/perm.goal"
want "permutation, full fat tree: no slowdown" 3200 "$(T $P --topology fattree:k=4,levels=2 "$tmp/perm.goal")"
want "permutation, taper 2: each flow at half rate" 5200 \
	"$(T $P --topology fattree:k=4,levels=2,taper=2 "$tmp/perm.goal")"
want "permutation, taper 4: a quarter" 9200 \
	"$(T $P --topology fattree:k=4,levels=2,taper=4 "$tmp/perm.goal")"
# Two ranks per host (8 hosts, linear): the two flows of a host share its
# links all the way.
want "permutation, full fat tree with 2 ranks per host" 5200 \
	"$(T $P --topology fattree:k=2,levels=3 --mapping linear "$tmp/perm.goal")"

# A ring on a 4x4 torus (rank r to r + 1, one rank per router): dimension
# order uses no link twice; the longest route (3 to 4: +x, then +y) crosses
# 3 routers: 2o + L + 3 lat + sG.
pairs=""
for ((r = 0; r < 16; r++)); do pairs+="$r:$(((r + 1) % 16)) "; done
pairs_goal 16 1001 "$pairs" >"$tmp/ring.goal"
# A topology of 268 M links for 8 ranks: memory for the links their
# messages cross only (80 bytes for each link of the topology before: 21
# GB); the ring costs what it does without a network.
pairs_goal 8 1001 "0:1 1:2 2:3 3:4 4:5 5:6 6:7 7:0" >"$tmp/ring8.goal"
want "8 ranks on fattree:k=134217728,levels=1" 3200 \
	"$(T $P --topology fattree:k=134217728,levels=1 "$tmp/ring8.goal")"
want "ring on a torus: no slowdown" 3200 "$(T $P --topology torus:4x4 "$tmp/ring.goal")"
want "ring on a torus, 10 ns per router" 3230 "$(T $P --topology torus:4x4,lat=10 "$tmp/ring.goal")"
# Half the link bandwidth: every flow at half its rate.
want "ring on a torus, links at 0.25 bytes/ns" 5200 \
	"$(T $P --topology torus:4x4,bw=0.25,hostbw=0.25 "$tmp/ring.goal")"

# Every pattern of schedgen on a full fat tree, one rank per host: the
# same output as without the topology, unless some link carried two flows
# at once (the patterns that do are listed: their routes meet; in the split
# binary broadcast a rank's pair sends it the other half while its parent
# may still be sending; the linear alltoallv sends to every rank at once,
# in the same order from every rank; the butterfly reduce-scatter's last
# swaps cross the tree).  allgatherv_two_proc sends nothing on 64 ranks.
shared=" bcast_binary barrier_tree bcast_split_binary alltoallv_linear reduce_scatter_butterfly "
for p in $("$SG" --list | awk '/^[a-z]/ {print $1}'); do
	"$SG" "$p" -s 64 -d 1024 -o "$tmp/p.goal" >/dev/null 2>&1 || { fail "schedgen $p"; continue; }
	"$SIM" -q "$tmp/p.goal" >"$tmp/plain" 2>&1
	"$SIM" -q --topology fattree:k=4,levels=3 "$tmp/p.goal" >"$tmp/net" 2>&1
	peak=$(sed -n 's/^Network .* flows, at most \([0-9]*\) on one link.*/\1/p' "$tmp/net")
	grep -v '^Network\|^  link' "$tmp/net" >"$tmp/net2"
	if [ "${shared#* $p }" = "$shared" ]; then
		diff "$tmp/plain" "$tmp/net2" >"$tmp/diff"
		if [ "${peak:-0}" -le 1 ] && [ ! -s "$tmp/diff" ]; then ok "$p on a full fat tree: as without it"
		else echo "at most $peak flows on a link" >>"$tmp/diff"; fail "$p on a full fat tree: as without it"; fi
	elif [ "${peak:-0}" -ge 2 ] && ! cmp -s "$tmp/plain" "$tmp/net2"; then
		ok "$p on a full fat tree: slower where flows share a link"
	else
		echo "at most $peak flows on a link" >"$tmp/diff"; fail "$p on a full fat tree: slower where flows share a link"
	fi
done

# o = g = L = 0: a flow's end moves away and back within one time (two
# settles at 30: ends at 35, then at 40 again, where its first end event
# still waits); one end event counts (the queue's invariants hold: this
# runs under the checks of the sanitizer build).
"$SG" alltoall_linear -s 8 -d 11 -o "$tmp/a8.goal" >/dev/null 2>&1
want "a flow's end that moves back: one end event" 78 \
	"$(T -o 0 -g 0 -L 0 -O 0 -G 1 --topology torus:4x2 "$tmp/a8.goal")"

# Determinism: the same run twice, byte for byte (random mapping, seed).
"$SIM" -q --topology fattree:k=4,levels=2,taper=2 --mapping random --seed 7 "$tmp/perm.goal" >"$tmp/a" 2>&1
"$SIM" -q --topology fattree:k=4,levels=2,taper=2 --mapping random --seed 7 "$tmp/perm.goal" >"$tmp/b" 2>&1
if cmp -s "$tmp/a" "$tmp/b" && [ -s "$tmp/a" ]; then ok "same seed, same output"; else fail "same seed, same output"; fi

# A sweep on a network: each set as its own run, the same CSV at any -j.
for G in 2 4; do
	want "sweep on a tapered tree, G=$G: as the single run" "$(T -L 1000 -o 100 -g 50 -G $G --topology fattree:k=4,levels=2,taper=2 "$tmp/perm.goal")" \
		"$("$SIM" -q --sweep "G=2,4" -L 1000 -o 100 -g 50 --topology fattree:k=4,levels=2,taper=2 "$tmp/perm.goal" --csv - --no-wall 2>/dev/null |
			awk -F, -v G=$G '$7 == G {print $11}')"
done
"$SIM" -q --sweep "G=1..8*2 L=100,1000" -j 1 --topology fattree:k=4,levels=2,taper=4 --mapping random "$tmp/perm.goal" --csv "$tmp/j1.csv" --no-wall >/dev/null 2>&1
"$SIM" -q --sweep "G=1..8*2 L=100,1000" -j 2 --topology fattree:k=4,levels=2,taper=4 --mapping random "$tmp/perm.goal" --csv "$tmp/j2.csv" --no-wall >/dev/null 2>&1
if cmp -s "$tmp/j1.csv" "$tmp/j2.csv" && grep -q ',"fattree:k=4,levels=2,taper=4"$' "$tmp/j1.csv"; then
	ok "sweep on a network: the same CSV with -j 1 and -j 2, the network column"
else cp "$tmp/j1.csv" "$tmp/diff"; fail "sweep on a network: the same CSV with -j 1 and -j 2, the network column"; fi

# Bad input: flags exit 2, files exit 1, with the message.
err_case() { # NAME STATUS MESSAGE ARGS...
	local name=$1 st=$2 msg=$3
	shift 3
	"$SIM" -q "$@" >/dev/null 2>"$tmp/err"
	local rc=$?
	if [ $rc -eq "$st" ] && grep -qF -- "$msg" "$tmp/err"; then ok "$name"
	else { echo "exit $rc"; cat "$tmp/err"; } >"$tmp/diff"; fail "$name"; fi
}
err_case "unknown topology: exit 2" 2 "loggopsim: error: --topology: unknown kind 'mesh'" \
	--topology mesh:4 "$tmp/perm.goal"
err_case "more ranks than hosts: exit 2" 2 "--mapping: 16 ranks on 4 hosts" \
	--topology fattree:k=4,levels=1 "$tmp/perm.goal"
err_case "--mapping without --topology: exit 2" 2 "--mapping needs --topology" --mapping linear "$tmp/perm.goal"
err_case "--topology with --critical-path: exit 2" 2 "loggopsim: error: a network (--topology, --network-file) cannot be combined with the critical path (--critical-path, --sensitivity, --tolerance, --trace-json)" \
	--topology torus:4x4 --critical-path "$tmp/cp" "$tmp/perm.goal"
err_case "--topology with --slow: exit 2" 2 "loggopsim: error: a network (--topology, --network-file) cannot be combined with slow ranks (--slow)" \
	--topology torus:4x4 --slow 1:2 "$tmp/perm.goal"
printf '0\n1\n' >"$tmp/short.map"
err_case "a mapping file that misses ranks: exit 1" 1 "$tmp/short.map" \
	--topology torus:4x4 --mapping "$tmp/short.map" "$tmp/perm.goal"
printf '0\n99\n' >"$tmp/bad.map"
err_case "a host out of range: exit 1" 1 "$tmp/bad.map:2:1: error:" \
	--topology torus:4x4 --mapping "$tmp/bad.map" "$tmp/perm.goal"

# Dot files (docs/network.md, "Dot files" and "The simple rule"):
# share.dot and share.goal, L=100 o=10 g=0 G=1, sG = 3000.  Rank 2's
# message shares S0 -> S1 with rank 1's, which shares S1 -> S2 with two
# more: max-min gives it 2/3 of its rate (2o + L + 1.5 sG = 4620), the
# simple rule 1/2 (2o + L + 2 sG = 6120), no network 3120.  The three on
# S1 -> S2 run at 1/3: 2o + L + 3 sG = 9120 under both.
host_time() { sed -n "s/^Host $1: \([0-9]*\)$/\1/p"; }
D="-L 100 -o 10 -g 0 -G 1 --network-file tests/net/share.dot tests/net/share.goal"
if "$SIM" -q -b --network-file tests/net/share.dot tests/net/share.goal 2>&1 >/dev/null |
	grep -q "cannot read dot files"; then
	echo "ok - net dot files # SKIP built without Graphviz's cgraph (libgraphviz-dev)"
else
	want "dot file, max-min: rank 2 at 2o + L + 1.5 sG" 4620 "$("$SIM" -q $D | host_time 2)"
	want "dot file, max-min: ranks on S1 -> S2 at 2o + L + 3 sG" 9120 "$("$SIM" -q $D | host_time 4)"
	want "dot file, simple rule: rank 2 at 2o + L + 2 sG" 6120 "$("$SIM" -q -n simple $D | host_time 2)"
	want "dot file, simple rule: ranks on S1 -> S2 at 2o + L + 3 sG" 9120 \
		"$("$SIM" -q --network-type simple $D | host_time 6)"
	want "dot file, --network-type LogGP: no network" 3120 "$("$SIM" -q -n LogGP $D 2>/dev/null | host_time 2)"
	want "dot file: the most loaded link" "  link S1 -> S2: 9000 bytes, busy 9000 ns, at most 3 flows" \
		"$("$SIM" -q $D | grep '^  link' | head -1)"
	want "dot file, simple rule: named in the summary and the JSON" "Network dot:tests/net/share.dot (simple rule): 4 flows, at most 3 on one link|\"rule\": \"simple\"" \
		"$("$SIM" -q -n simple $D | sed -n 's/^\(Network.*\), at most.*/\1/p')|$("$SIM" -q -b --json -n simple $D | grep -o '"rule": "simple"')"
	# The timeline's link loads: link 10 (S0 -> S1) carries 2 flows until
	# rank 2's ends at 4610, then 1; link 15 (S1 -> S2) 3 flows until 9110.
	"$SIM" -q $D -V "$tmp/v.txt" >/dev/null 2>&1
	want "dot file: link loads in the -V timeline" "link 10 110 4610 2 4500|link 10 4610 9110 1 1500|link 15 110 9110 3 9000" \
		"$(grep -E '^link 1[05] ' "$tmp/v.txt" | paste -sd'|')"
	"$B/bin/goalviz" "$tmp/v.txt" -o "$tmp/v.svg" 2>"$tmp/diff" && ok "goalviz reads link lines" || fail "goalviz reads link lines"
	"$B/bin/goalviz" "$tmp/v.txt" -o "$tmp/v.json" 2>"$tmp/diff"
	want "link loads in the trace JSON" '{"ph":"X","name":"2 flows","pid":4294967294,"tid":11,"ts":0.110,"dur":4.500,"args":{"flows":2,"bytes":4500}}' \
		"$(grep -F '"tid":11,' "$tmp/v.json" | grep -F '"name":"2 flows"' | sed 's/,$//')"
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp/v.json" 2>"$tmp/diff" && ok "the trace JSON with links parses" ||
		fail "the trace JSON with links parses"
	head -2 "$tmp/v.txt" >"$tmp/bad.txt"
	echo "link 3 5 5 1 0" >>"$tmp/bad.txt"
	"$B/bin/goalviz" "$tmp/bad.txt" -o "$tmp/v.svg" 2>"$tmp/err"
	want "a link line that ends at its start: an error" "$tmp/bad.txt:3:10: error: end 5 not after start 5" "$(cat "$tmp/err")"
	err_case "--network-type LogGP with a network: a warning" 0 \
		"loggopsim: warning: --network-type LogGP: the network of --network-file is not used" -n LogGP $D
	dot_err() { # NAME MESSAGE DOT
		printf '%s' "$3" >"$tmp/n.dot"
		err_case "dot file, $1: exit 1" 1 "$tmp/n.dot$2" --network-file "$tmp/n.dot" "$tmp/two.goal"
	}
	pairs_goal 2 8 "0:1" >"$tmp/two.goal"
	dot_err "syntax" ":3: error: syntax error near ';'" $'digraph {\n H0 -> S0\n S0 -> ; }\n'
	dot_err "empty" ": error: no graph in the file" ""
	dot_err "no host" ": error: no host (the hosts are the nodes whose names begin with H)" \
		'digraph { S0 -> S1 }'
	dot_err "a comment naming no node" ": error: edge S0 -> H1: its comment names 'H9', which is no node of the graph" \
		'digraph { H0 -> S0; H1 -> S0; S0 -> H0 [comment="H0"]; S0 -> H1 [comment="H9"] }'
	dot_err "two routes for one host" ": error: node S0 routes H0 over two edges (to H0 and to H1)" \
		'digraph { H0 -> S0; H1 -> S0; S0 -> H0 [comment="H0"]; S0 -> H1 [comment="H0"] }'
	dot_err "two '*' edges" ": error: node S0: two out-edges with '*' in their comments" \
		'digraph { H0 -> S0; H1 -> S0; S0 -> H0 [comment="*"]; S0 -> H1 [comment="*"] }'
	dot_err "a bad bw" ': error: edge H0 -> H1: bw="0": not above 0' 'digraph { H0 -> H1 [bw="0"]; H1 -> H0 }'
	dot_err "no route for a pair that communicates" \
		": error: no route from H0 to H1: none of the 2 out-edges of S0 has a comment that names H1 (or '*') (rank 0 sends to rank 1)" \
		'digraph { H0 -> S0; H1 -> S0; H2; S0 -> H0 [comment="H0"]; S0 -> H2 [comment="H2"] }'
	dot_err "a loop" ": error: the route from H0 to H1 is longer than 64 links (a loop through S1?) (rank 0 sends to rank 1)" \
		'digraph { H0 -> S0; H1 -> S1; S0 -> S1 [comment="*"]; S0 -> H0 [comment="H0"]; S1 -> S0 [comment="*"]; S1 -> H1 [comment="H0"] }'
	# A switch with 600,000 edges in and out (cdt counted them recursively:
	# a stack overflow): read, and the message between H0 and H1 routed.
	awk 'BEGIN { print "digraph G {"; for (i = 0; i < 600000; i++) printf "h%d -> s;\ns -> h%d;\n", i, i
		print "H0 -> s; H1 -> s; s -> H0 [comment=\"H0\"]; s -> H1 [comment=\"H1\"] }" }' >"$tmp/big.dot"
	want "dot file: a node of 600,000 out-edges (T = 2o + L + 7G)" 1214 \
		"$(T -L 1000 -o 100 -g 50 -G 2 --network-file "$tmp/big.dot" "$tmp/two.goal")"
	rm -f "$tmp/big.dot"
	# Routes only for the pairs that communicate: rank 1 never sends.
	printf 'digraph { H0 -> H1; H1 -> S0; S0 -> H1 [comment="H9x"]; H9x }' >"$tmp/n.dot"
	want "dot file: no route needed where no send goes" 0 \
		"$("$SIM" -q -b --network-file "$tmp/n.dot" --mapping roundrobin "$tmp/two.goal" >/dev/null 2>&1; echo $?)"
	err_case "a dot file that does not exist: exit 1" 1 "$tmp/none.dot: error: cannot open: No such file or directory" \
		--network-file "$tmp/none.dot" "$tmp/two.goal"
fi
err_case "--topology and --network-file: exit 2" 2 "give --topology or --network-file, not both" \
	--topology torus:4x4 --network-file tests/net/share.dot "$tmp/perm.goal"
err_case "an unknown --network-type: exit 2" 2 "--network-type: unknown type 'flat' (expected maxmin, simple or LogGP)" \
	-n flat --topology torus:4x4 "$tmp/perm.goal"
err_case "--network-type simple without a network: exit 2" 2 "--network-type simple needs --topology or --network-file" \
	-n simple "$tmp/perm.goal"

# --- the chart of tests/bench-net.sh (scripts/net-cost-chart.py) -------------
# A table as bench-net prints it: a series of two P with a run over the
# limit and a failed one, and a series of one P (left out).
cat >"$tmp/bn.txt" <<'TABLE'
== loggopsim on networks (at most 60 s a run; a series stops at its first run over that)
schedule, network                       P       T (ns)     events   wall s   ns/ev     flows most/l  solved
alltoall_linear 32 KiB                128     25666954      48768     0.01     144         -      -       -
  fattree:k=16,levels=3,taper=1       128     25666954      48768     0.01     164     16256      1     128
  fattree:k=16,levels=3,taper=4       128     88719063      48768     0.63   12959     16256    430   14432
  torus:4x4x4,p=2                     128 failed: out of memory
alltoall_linear 32 KiB                256     51536010     195840     0.02     117         -      -       -
  fattree:k=16,levels=3,taper=1       256     51536010     195840     0.04     230     65280      1     256
  fattree:k=16,levels=3,taper=4       256                             > 60
alltoall_linear 8 B                  4096     12456990   50319360     3.69      73         -      -       -
TABLE
if python3 scripts/net-cost-chart.py "$tmp/bn.txt" "$tmp/bn.svg" 2>"$tmp/diff"; then
	got=$(printf '%s panels, %s lines, %s marks, %s hollow' \
		"$(grep -c 'font-weight="bold">alltoall' "$tmp/bn.svg")" "$(grep -c '<polyline' "$tmp/bn.svg")" \
		"$(grep -c '<circle .* r="3"' "$tmp/bn.svg")" "$(grep -c 'fill="white" stroke=' "$tmp/bn.svg")")
	want "net-cost-chart.py: one panel, a line per network of two runs, the run over the limit hollow" \
		"1 panels, 2 lines, 5 marks, 1 hollow" "$got"
else
	fail "net-cost-chart.py"
fi
