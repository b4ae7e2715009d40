#!/usr/bin/env bash
# What every tool shares: --version names the tool, the version and the
# commit; usage errors exit with status 2 and say what to do.  Prints
# "ok - ..." / "not ok - ...".
set -u
B=$(cd "${1:-build}" && pwd)
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok - tools: $1"; }
fail() { echo "not ok - tools: $1"; [ -s "$tmp/diff" ] && sed 's/^/    /' "$tmp/diff" | head -20; }
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

# The commit the build names: the checkout's, "-modified" when it has
# changes, "unknown" outside git (the build's own header says which).
commit=$(sed -n 's/^#define UTIL_COMMIT "\(.*\)"$/\1/p' "$B/gen/commit.h")
case $commit in
unknown | [0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]*) ok "the build names a commit ($commit)" ;;
*) : >"$tmp/diff"; fail "the build names a commit (got '$commit')" ;;
esac
head=$(git rev-parse --short=12 HEAD 2>/dev/null)
if [ -z "$head" ]; then
	ok "the commit is the checkout's # SKIP not a git checkout"
elif [ "${commit%-modified}" = "$head" ]; then
	ok "the commit is the checkout's"
else
	echo "build: $commit, checkout: $head" >"$tmp/diff"; fail "the commit is the checkout's"
fi
for t in goalc txt2bin goalviz loggops-model loggopsim loggp-fit schedgen trace2goal; do
	"$B/bin/$t" --version >"$tmp/out" 2>"$tmp/err"
	rc=$?
	{ echo "exit status $rc"; cat "$tmp/out" "$tmp/err"; } >"$tmp/diff"
	if [ $rc -eq 0 ] && [ "$(head -n 1 "$tmp/out")" = "$t 1.0 (commit $commit)" ] && [ ! -s "$tmp/err" ]; then
		ok "$t --version"
	else
		fail "$t --version"
	fi
done
"$B/bin/goalc" --version | sed -n 2p >"$tmp/out"
if [ "$(cat "$tmp/out")" = "binary schedule format version 3" ]; then ok "goalc --version names the format"; else
	cp "$tmp/out" "$tmp/diff"; fail "goalc --version names the format"; fi
expect "--version to a full disk" 1 "goalc: error: write failed: No space left on device\n" \
	sh -c "'$B/bin/goalc' --version >/dev/full"

# schedgen has no default pattern.
expect "schedgen without a pattern" 2 \
	"schedgen: error: no pattern given (schedgen --list shows them)\nTry 'schedgen --help'.\n" \
	"$B/bin/schedgen" -s 8

# A missing input reads "FILE: error: cannot open: REASON" in every tool.
for t in goalc loggopsim trace2goal goalviz loggp-fit; do
	case $t in
	loggopsim) set -- ;;
	goalviz) set -- -o "$tmp/out.svg" ;;
	*) set -- -o "$tmp/out.x" ;;
	esac
	"$B/bin/$t" "$tmp/none" "$@" >/dev/null 2>"$tmp/err"
	rc=$?
	{ echo "exit status $rc"; cat "$tmp/err"; } >"$tmp/diff"
	if [ $rc -eq 1 ] && [ "$(head -n 1 "$tmp/err")" = "$tmp/none: error: cannot open: No such file or directory" ]; then
		ok "$t names a missing input"
	else
		fail "$t names a missing input"
	fi
done

# A file of another kind is named as what it is, on its first line.
"$B/bin/schedgen" bcast_binomial -s 4 -o "$tmp/s.goal" &&
	"$B/bin/goalc" "$tmp/s.goal" -o "$tmp/s.bin" &&
	"$B/bin/loggopsim" -V "$tmp/s.tl" "$tmp/s.bin" >/dev/null 2>&1 || echo "not ok - tools: set-up"
TL="a timeline (loggopsim -V writes them; goalviz draws them)"
TXT="a GOAL schedule in text (goalc compiles it)"
BIN="a binary GOAL schedule (goalc --dump shows it as text)"
PRTT="a table of round-trip times (loggp-fit reads them)"
kind() { # NAME WANT-FIRST-LINE COMMAND...: exit status 1 and that first line of stderr
	local n=$1 want=$2
	shift 2
	"$@" >/dev/null 2>"$tmp/err"
	local rc=$?
	{ echo "exit status $rc"; echo "want: $want"; cat "$tmp/err"; } >"$tmp/diff"
	if [ $rc -eq 1 ] && [ "$(head -n 1 "$tmp/err")" = "$want" ]; then ok "$n"; else fail "$n"; fi
}
kind "goalc of a timeline" "$tmp/s.tl:1:1: error: this is $TL, not a GOAL schedule" \
	"$B/bin/goalc" "$tmp/s.tl" -o "$tmp/x.bin"
kind "loggopsim of a timeline" "$tmp/s.tl:1:1: error: this is $TL, not a GOAL schedule" \
	"$B/bin/loggopsim" "$tmp/s.tl"
kind "goalc of a PRTT table" "tests/loggp/data/shm-1.prtt:1:1: error: this is $PRTT, not a GOAL schedule" \
	"$B/bin/goalc" tests/loggp/data/shm-1.prtt -o "$tmp/x.bin"
kind "goalc --dump of GOAL text" "$tmp/s.goal: error: not a binary GOAL schedule: this is $TXT" \
	"$B/bin/goalc" --dump "$tmp/s.goal"
kind "loggopsim -p with a timeline" "$tmp/s.tl:1:1: error: this is $TL, not a parameter file" \
	"$B/bin/loggopsim" -p "$tmp/s.tl" "$tmp/s.bin"
kind "goalviz of GOAL text" "$tmp/s.goal:1:1: error: this is $TXT, not a timeline" \
	"$B/bin/goalviz" "$tmp/s.goal" -o "$tmp/x.svg"
kind "goalviz of a binary schedule" "$tmp/s.bin:1:1: error: this is $BIN, not a timeline" \
	"$B/bin/goalviz" "$tmp/s.bin" -o "$tmp/x.svg"
kind "loggp-fit of a timeline" "$tmp/s.tl:1:1: error: this is $TL, not a table of round-trip times" \
	"$B/bin/loggp-fit" "$tmp/s.tl" -o "$tmp/x.params"
kind "trace2goal of GOAL text" "$tmp/s.goal:1:1: error: this is $TXT, not an MPI trace" \
	"$B/bin/trace2goal" "$tmp/s.goal" -o "$tmp/x.goal"

# An output that cannot be made is refused before the run (nothing else on
# stderr: the simulation has not started).
expect "loggopsim --critical-path into a missing folder" 1 \
	"$tmp/no/x.csv: error: cannot create: No such file or directory\n" \
	"$B/bin/loggopsim" --critical-path "$tmp/no/x.csv" "$tmp/s.bin"
expect "loggopsim --csv of a sweep into a missing folder" 1 \
	"$tmp/no/x.csv: error: cannot create: No such file or directory\n" \
	"$B/bin/loggopsim" --sweep L=1..100 --csv "$tmp/no/x.csv" "$tmp/s.bin"
expect "loggops-model --svg into a missing folder" 1 \
	"$tmp/no/x.svg: error: cannot create: No such file or directory\n" \
	"$B/bin/loggops-model" bcast_binomial --svg "$tmp/no/x.svg"
expect "schedgen -o into a missing folder" 1 \
	"$tmp/no/x.goal: error: cannot create: No such file or directory\n" \
	"$B/bin/schedgen" bcast_binomial -o "$tmp/no/x.goal"

# loggopsim -V takes a file name: a schedule given only there is named.
expect "loggopsim -V SCHEDULE" 2 \
	"loggopsim: error: no schedule given (-V takes the timeline's output file, so '$tmp/s.goal' was taken as that: loggopsim -V OUT.tl $tmp/s.goal)\nTry 'loggopsim --help'.\n" \
	"$B/bin/loggopsim" -V "$tmp/s.goal"

# The man pages (make install): made from each tool's --help, which they
# show whole, under the NAME line of the help's first sentence.
for t in goalc loggopsim schedgen; do
	scripts/mkman.sh "$B/bin/$t" "$tmp/$t.1" 2>"$tmp/diff"
	"$B/bin/$t" --help | head -n 1 | sed 's/\\/\\e/g' >"$tmp/first"
	if sed -n 2p "$tmp/$t.1" | grep -qx '.SH NAME' && sed -n 3p "$tmp/$t.1" | grep -q "^$t \\\\- [A-Z]" &&
		grep -qxF -f "$tmp/first" "$tmp/$t.1"; then
		ok "the man page of $t"
	else
		head -5 "$tmp/$t.1" >>"$tmp/diff"; fail "the man page of $t"
	fi
done
if command -v man >/dev/null && command -v groff >/dev/null; then
	MANWIDTH=80 man --warnings -l "$tmp/loggopsim.1" >/dev/null 2>"$tmp/diff"
	if [ ! -s "$tmp/diff" ]; then ok "man renders loggopsim.1 without a warning"; else fail "man renders loggopsim.1 without a warning"; fi
else
	ok "man renders loggopsim.1 without a warning # SKIP man or groff not installed"
fi

# Units: a size or time with a unit is the plain number.
"$B/bin/schedgen" bcast_binomial -s 8 -d 64Ki -o "$tmp/u1.goal" && "$B/bin/schedgen" bcast_binomial -s 8 -d 65536 -o "$tmp/u2.goal"
if cmp -s "$tmp/u1.goal" "$tmp/u2.goal"; then ok "schedgen -d 64Ki is -d 65536"; else : >"$tmp/diff"; fail "schedgen -d 64Ki is -d 65536"; fi
"$B/bin/loggopsim" -L 2.5us -o 1.5us -g 1us -S 64KiB "$tmp/u1.goal" >"$tmp/u1.out" 2>/dev/null
"$B/bin/loggopsim" -L 2500 -o 1500 -g 1000 -S 65536 "$tmp/u1.goal" >"$tmp/u2.out" 2>/dev/null
if cmp -s "$tmp/u1.out" "$tmp/u2.out" && [ -s "$tmp/u1.out" ]; then ok "loggopsim -L 2.5us -S 64KiB is -L 2500 -S 65536"; else
	diff "$tmp/u1.out" "$tmp/u2.out" >"$tmp/diff"; fail "loggopsim -L 2.5us -S 64KiB is -L 2500 -S 65536"; fi
"$B/bin/loggops-model" bcast_binomial -s 8 -d 1Ki --csv - >"$tmp/u1.csv" 2>/dev/null
"$B/bin/loggops-model" bcast_binomial -s 8 -d 1024 --csv - >"$tmp/u2.csv" 2>/dev/null
if cmp -s "$tmp/u1.csv" "$tmp/u2.csv" && [ -s "$tmp/u1.csv" ]; then ok "loggops-model -d 1Ki is -d 1024"; else : >"$tmp/diff"; fail "loggops-model -d 1Ki is -d 1024"; fi
expect "schedgen -d 1.5 (a fraction of a byte)" 2 \
	"schedgen: error: --size expects a size in bytes (e.g. 1024 or 64Ki), not '1.5'\nTry 'schedgen --help'.\n" \
	"$B/bin/schedgen" bcast_binomial -d 1.5

# One --help layout: the usage line first, an example, the exit statuses.
for t in goalc goalviz loggops-model loggopsim loggp-fit schedgen trace2goal; do
	"$B/bin/$t" --help >"$tmp/help" 2>&1
	{ echo "first line: $(head -n 1 "$tmp/help")"; grep -c '^Example: ' "$tmp/help"; grep -c '^Exit status: ' "$tmp/help"; } >"$tmp/diff"
	if head -n 1 "$tmp/help" | grep -q "^usage: $t " && [ "$(grep -c "^Example: $t " "$tmp/help")" = 1 ] &&
		[ "$(grep -c '^Exit status: 0 ' "$tmp/help")" = 1 ]; then
		ok "$t --help: usage, one example, exit statuses"
	else
		fail "$t --help: usage, one example, exit statuses"
	fi
done

# --csv FILE means the same in loggopsim and loggops-model: the table stays
# on stdout, the CSV goes to FILE ('-': instead of the table).
"$B/bin/loggops-model" bcast_binomial -s 2..8 --csv "$tmp/m.csv" >"$tmp/m.out" 2>/dev/null
"$B/bin/loggops-model" bcast_binomial -s 2..8 --csv - >"$tmp/m2.csv" 2>/dev/null
"$B/bin/loggops-model" bcast_binomial -s 2..8 >"$tmp/m2.out" 2>/dev/null
if cmp -s "$tmp/m.csv" "$tmp/m2.csv" && cmp -s "$tmp/m.out" "$tmp/m2.out" && head -n 1 "$tmp/m.csv" | grep -q '^P,simulated,'; then
	ok "loggops-model --csv FILE: the CSV there, the table on stdout"
else
	: >"$tmp/diff"; fail "loggops-model --csv FILE: the CSV there, the table on stdout"
fi

# --stats prints on stdout in goalc and trace2goal alike (trace2goal: on
# stderr when the schedule itself goes to stdout).
"$B/bin/trace2goal" -q --stats tests/trace2goal/cases/p2p -o "$tmp/p.goal" >"$tmp/st.out" 2>"$tmp/st.err"
if grep -q '^ranks          2$' "$tmp/st.out" && [ ! -s "$tmp/st.err" ]; then ok "trace2goal --stats -o FILE: on stdout"; else
	cat "$tmp/st.out" "$tmp/st.err" >"$tmp/diff"; fail "trace2goal --stats -o FILE: on stdout"; fi
"$B/bin/trace2goal" -q --stats tests/trace2goal/cases/p2p >"$tmp/st.out" 2>"$tmp/st.err"
if grep -q '^ranks          2$' "$tmp/st.err" && ! grep -q '^ranks ' "$tmp/st.out"; then ok "trace2goal --stats, the schedule on stdout: on stderr"; else
	cat "$tmp/st.err" >"$tmp/diff"; fail "trace2goal --stats, the schedule on stdout: on stderr"; fi
