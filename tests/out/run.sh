#!/usr/bin/env bash
# Output files (util/out.h), tool by tool: an output that is one of the
# inputs is refused before anything is written (also through a symlink); a
# failed run (an error in the input, a file-size limit standing in for a
# full disk) leaves the old file as it was, or none, and no temporary file;
# a device given as output is written, never removed; a write error on
# standard output is an error.  Prints "ok - ..." / "not ok - ...".
set -u
B=$(cd "${1:-build}" && pwd)
cd "$(dirname "$0")/../.." || exit 2
R=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok - output: $1"; }
fail() { echo "not ok - output: $1"; [ -s "$tmp/diff" ] && sed 's/^/    /' "$tmp/diff" | head -20; }
# expect NAME STATUS WANT-STDERR COMMAND...: exit status and stderr exactly.
expect() {
	local name=$1 st=$2 want=$3
	shift 3
	"$@" >/dev/null 2>"$tmp/err"
	local rc=$?
	printf '%b' "$want" >"$tmp/want"
	{ echo "exit status $rc, want $st"; diff -u "$tmp/want" "$tmp/err"; } >"$tmp/diff"
	if [ $rc -eq "$st" ] && cmp -s "$tmp/want" "$tmp/err"; then ok "$name"; else fail "$name"; fi
}
# unchanged NAME FILE COPY: FILE still equals COPY, and no temporary file.
unchanged() {
	ls -A "$tmp/w" | grep '^\.' >"$tmp/diff"
	if cmp -s "$2" "$3" && [ ! -s "$tmp/diff" ]; then ok "$1"; else fail "$1"; fi
}
mkdir "$tmp/w"
cd "$tmp/w" || exit 2
"$B/bin/schedgen" bcast_binomial -s 4 -o a.goal
cp a.goal a.orig

expect "goalc refuses to write over its input" 1 "a.goal: error: the output is also the input a.goal\n" \
	"$B/bin/goalc" a.goal -o a.goal
unchanged "goalc: the input is unchanged" a.goal a.orig
ln -s a.goal link.goal
expect "goalc refuses a symlink to its input" 1 "link.goal: error: the output is also the input a.goal\n" \
	"$B/bin/goalc" a.goal -o link.goal
unchanged "goalc: the input behind the symlink is unchanged" a.goal a.orig
"$B/bin/goalc" a.goal -o a.bin
expect "goalc --dump refuses to write over its input" 1 "a.bin: error: the output is also the input a.bin\n" \
	"$B/bin/goalc" --dump a.bin -o a.bin
expect "loggopsim -V refuses to write over the schedule" 1 "a.goal: error: the output is also the input a.goal\n" \
	"$B/bin/loggopsim" -V a.goal a.goal
expect "loggopsim --csv refuses to write over the schedule" 1 "a.bin: error: the output is also the input a.bin\n" \
	"$B/bin/loggopsim" --csv a.bin a.bin
unchanged "loggopsim: the schedule is unchanged" a.goal a.orig
printf 'loggp-params 1\nrange 0 inf L=1 o=2 g=3 G=0 O=0\n' >p.params
cp p.params p.orig
echo "x params=p.params" >p.sweep
expect "loggopsim --sweep refuses to write over a set's parameter file" 1 "p.params: error: the output is also the input p.params\n" \
	"$B/bin/loggopsim" --sweep p.sweep --csv p.params a.goal
unchanged "loggopsim --sweep: the parameter file is unchanged" p.params p.orig
mkdir tr
cp "$R"/tests/trace2goal/cases/p2p/*.txt tr/
cp tr/rank-1.txt rank1.orig
expect "trace2goal refuses to write over a trace" 1 "tr/rank-1.txt: error: the output is also the input tr/rank-1.txt\n" \
	"$B/bin/trace2goal" -q tr -o tr/rank-1.txt
unchanged "trace2goal: the trace is unchanged" tr/rank-1.txt rank1.orig
# Every member of an OTF2 archive, read or not, named through its folder
# too (archives written by mkotf2.py, which needs the OTF2 library's
# Python bindings).
PY=
for p in python3 /usr/bin/python3; do
	command -v "$p" >/dev/null && "$p" -c 'import otf2' 2>/dev/null && { PY=$p; break; }
done
if [ -n "$PY" ] && "$PY" "$R/tests/trace2goal/mkotf2.py" cover oa >/dev/null 2>&1; then
	tar cf oa.tar oa
	for m in traces.def traces/1.evt traces/2.def; do
		expect "trace2goal refuses to write over $m of the OTF2 archive" 1 \
			"oa/$m: error: the output is also the input oa/$m\n" \
			"$B/bin/trace2goal" -q -o "oa/$m" oa/traces.otf2
	done
	expect "trace2goal refuses a member of the OTF2 archive in the folder it reads" 1 \
		"oa/traces/0.evt: error: the output is also the input oa/traces/0.evt\n" \
		"$B/bin/trace2goal" -q -o oa/traces/0.evt oa
	tar cf oa2.tar oa
	if cmp -s oa.tar oa2.tar; then ok "trace2goal: the OTF2 archive is unchanged"; else
		: >"$tmp/diff"; fail "trace2goal: the OTF2 archive is unchanged"; fi
	rm -rf oa oa.tar oa2.tar
else
	echo "ok - output: trace2goal refuses the members of an OTF2 archive # SKIP python3-otf2 not installed"
fi
# Two outputs of one run never share a file (exit 2, both options named).
expect "loggopsim: -V and --trace-json on one file" 2 \
	"loggopsim: error: -V and --trace-json name the same file 'F'\nTry 'loggopsim --help'.\n" \
	"$B/bin/loggopsim" -V F --trace-json F a.goal
expect "loggopsim: --csv and --critical-path on one file, spelled apart" 2 \
	"loggopsim: error: --csv and --critical-path name the same file 'F.csv'\nTry 'loggopsim --help'.\n" \
	"$B/bin/loggopsim" --csv ./tr/../F.csv --critical-path F.csv a.goal
ln -s a.orig a.link
expect "loggopsim: -V and --csv on one file through a link" 2 \
	"loggopsim: error: -V and --csv name the same file 'a.link'\nTry 'loggopsim --help'.\n" \
	"$B/bin/loggopsim" -V a.orig --csv a.link a.goal
unchanged "loggopsim: the file both named is unchanged" a.orig a.goal
if [ -x "$B/bin/loggp-measure" ]; then
	expect "loggp-measure: -o and --raw on one file" 2 \
		"loggp-measure: error: -o and --raw name the same file './m.params'\nTry 'loggp-measure --help'.\n" \
		"$B/bin/loggp-measure" -o m.params --raw ./m.params
fi
"$B/bin/loggopsim" -q -V a.tl a.goal >/dev/null
expect "goalviz refuses to write over its timeline" 1 "a.tl: error: the output is also the input a.tl\n" \
	"$B/bin/goalviz" --format svg a.tl -o a.tl

# An interrupted run removes its temporary files (SIGINT, SIGTERM,
# SIGHUP), then dies of the signal: a 10^8-rank schedule cut short, and a
# GOAL text compiled on the fly into TMPDIR.
mkdir sig
( cd sig && timeout -s INT 0.5 "$B/bin/schedgen" bcast_binomial -s 100000000 -o big.goal 2>/dev/null )
rc=$?
ls -A sig >"$tmp/diff"
if [ $rc -eq 124 ] && [ ! -s "$tmp/diff" ]; then ok "schedgen: SIGINT leaves no temporary file"; else
	echo "exit status $rc" >>"$tmp/diff"; fail "schedgen: SIGINT leaves no temporary file"; fi
"$B/bin/schedgen" bcast_binomial -s 4000000 -o sig.goal
for s in TERM HUP; do
	( TMPDIR=$tmp/w/sig timeout -s $s 0.2 "$B/bin/loggopsim" -q -V sig/t.tl sig.goal >/dev/null 2>&1 )
	rc=$?
	ls -A sig >"$tmp/diff"
	if [ $rc -eq 124 ] && [ ! -s "$tmp/diff" ]; then ok "loggopsim: SIG$s while compiling leaves no temporary file"; else
		echo "exit status $rc" >>"$tmp/diff"; fail "loggopsim: SIG$s while compiling leaves no temporary file"; fi
done
rm -rf sig sig.goal

# A failed run leaves the old output as it was, and no temporary file.
printf 'num_ranks 1\nrank 0 {\nl1: calc x\n}\n' >bad.goal
cp a.bin old.bin
"$B/bin/goalc" bad.goal -o old.bin 2>/dev/null
unchanged "goalc: an error in the input leaves the old output" old.bin a.bin
"$B/bin/schedgen" bcast_binomial -s 300000 -o big.goal
cp a.goal keep.goal
( trap '' XFSZ; ulimit -f 64; "$B/bin/schedgen" bcast_binomial -s 300000 -o keep.goal 2>"$tmp/err" )
grep -q 'keep.goal: error: .*File too large' "$tmp/err" && ok "schedgen: a file-size limit is an error" || { cp "$tmp/err" "$tmp/diff"; fail "schedgen: a file-size limit is an error"; }
unchanged "schedgen: the old output stays, no partial file" keep.goal a.goal
( trap '' XFSZ; ulimit -f 64; "$B/bin/goalc" big.goal -o old.bin 2>/dev/null )
unchanged "goalc: a file-size limit leaves the old binary" old.bin a.bin
cp a.goal keep.goal
"$B/bin/goalc" big.goal -o big.bin
( trap '' XFSZ; ulimit -f 64; "$B/bin/goalc" --dump big.bin -o keep.goal 2>/dev/null )
unchanged "goalc --dump: a file-size limit leaves the old text" keep.goal a.goal

# Every other output under a file-size limit of 0 (a full disk): exit 1,
# the old file kept, no temporary file.
printf 'a\nb L=5\n' >two.sweep
"$B/bin/goalc" a.goal -o a.bin
"$B/bin/loggopsim" -q -V a.tl a.goal >/dev/null
limited() { ( trap '' XFSZ; ulimit -f 0; "$@" ) >/dev/null 2>&1; }
for c in "loggopsim -V|keep.tl|-q -V keep.tl a.bin" "loggopsim --csv|keep.csv|-q --csv keep.csv a.bin" \
	"loggopsim --sweep --csv|keep.csv|-q --sweep two.sweep --csv keep.csv a.bin" \
	"goalviz -o|keep.svg|a.tl -o keep.svg" \
	"loggp-fit -o|keep.params|$R/tests/loggp/data/shm-1.prtt -o keep.params" \
	"loggops-model --svg|keep.svg|bcast_binomial -s 2..4 --svg keep.svg"; do
	name=${c%%|*}; rest=${c#*|}; file=${rest%%|*}; args=${rest#*|}
	echo old >"$file"
	cp "$file" "$file.orig"
	tool=${name%% *}
	# shellcheck disable=SC2086
	limited "$B/bin/$tool" $args
	rc=$?
	ls -A | grep '^\.' >"$tmp/diff"
	if [ $rc -eq 1 ] && cmp -s "$file" "$file.orig" && [ ! -s "$tmp/diff" ]; then
		ok "$name: a full disk leaves the old file"
	else
		echo "exit status $rc" >>"$tmp/diff"
		fail "$name: a full disk leaves the old file"
	fi
	rm -f "$file" "$file.orig"
done

# Devices: written directly, never removed.
if [ -c /dev/full ]; then
	expect "goalc --stats: a write error on standard output" 1 "goalc: error: write failed: No space left on device\n" \
		sh -c "'$B/bin/goalc' --stats a.bin >/dev/full"
	expect "schedgen -o /dev/full" 1 "<stdout>: error: write failed: No space left on device\n" \
		sh -c "'$B/bin/schedgen' bcast_binomial -s 4 -o - >/dev/full"
	expect "loggp-fit: a write error on standard output" 1 "loggp-fit: error: write failed on standard output\n" \
		sh -c "'$B/bin/loggp-fit' --check '$R/tests/sim/cases/ranges-two.params' >/dev/full"
fi
ln -s /dev/null null
"$B/bin/schedgen" bcast_binomial -s 4 -o null.bin --format binary 2>/dev/null
"$B/bin/schedgen" bcast_foo -o null 2>/dev/null
"$B/bin/goalc" bad.goal -o null 2>/dev/null
if [ -c /dev/null ] && [ -L null ]; then ok "a failed run does not remove a device"; else fail "a failed run does not remove a device"; fi
if "$B/bin/schedgen" bcast_binomial -s 4 -o null --format binary && "$B/bin/goalc" a.goal -o null; then
	ok "binary output to a device"; else fail "binary output to a device"; fi
exit 0
