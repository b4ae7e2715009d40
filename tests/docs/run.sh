#!/usr/bin/env bash
# The examples of README.md and docs/model.md print what the text shows,
# and the code follows the module picture of docs/architecture.dot and
# the size limits of docs/architecture.md.
# In a fenced block, a line "$ COMMAND" (continued by a trailing "\") is an
# example; the lines after it, up to the next "$" line or the fence, are its
# output, where a line "..." stands for any number of lines.  Each document's
# examples run in order in a scratch folder of their own, with build/bin,
# build/lib and build/examples (and every tool name) mapped to the build
# folder under test and tests/ to the repository's.  An example with output must print exactly that (stdout
# and stderr, without loggopsim's speed and progress lines, which are
# timings); one without must exit with status 0.
set -u
B=$(cd "${1:-build}" && pwd)
cd "$(dirname "$0")/../.." || exit 2
root=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Examples left out: COMMAND-REGEX|REASON (the first match counts); one
# skipped check per document and reason lists their lines.
excluded=(
	'^loggp/pingpong|measures the network for minutes'
	'bcast8m|8M ranks, minutes under AddressSanitizer'
	'--loop 1000|5 s under AddressSanitizer, output not shown'
	'loggp-measure --check|holds or not as the machine drifts (tests/loggp checks it)'
)
# The MPI examples (tracing, measuring, and what uses their files) run where
# mpirun and the tracer are.
command -v mpirun >/dev/null && [ -e "$B/lib/libgoaltrace.so" ] ||
	excluded+=('mpirun|GOALTRACE_DIR|out/traces|out/tr |out/shm|out/halo|need MPI (mpirun and libgoaltrace.so)')
command -v dot >/dev/null || excluded+=('--schedule|need Graphviz dot')
# The public traces are beside the checkout (../shared), where there are any.
if [ -d "$root/../shared/traces" ]; then ln -s "$root/../shared" "$tmp/shared"; else
	excluded+=('\.\./shared/|need ../shared/traces (absent)'); fi

# One record per example, ended by a NUL: its line number, the command
# (continuation lines joined) and its output lines.
examples() {
	awk '
	function flush() { if (cmd != "") printf "%s\n%s\n%s%c", line, cmd, out, 0; cmd = "" }
	/^```/ { flush(); inb = !inb; next }
	!inb { next }
	cont { sub(/\\$/, "", cmd); cmd = cmd $0; cont = /\\$/; next }
	/^\$ / { flush(); line = NR; cmd = substr($0, 3); out = ""; cont = /\\$/; next }
	cmd != "" { out = out $0 "\n" }
	END { flush() }' "$1"
}

# Does output $2 match expected $1, "..." lines matching any lines?
matches() {
	awk 'NR == FNR { e[++ne] = $0; next } { a[++na] = $0 }
	END {
		pos = 1; anchored = 1
		for (i = 1; i <= ne; i = j) {
			if (e[i] == "...") { anchored = 0; j = i + 1; continue }
			for (j = i; j <= ne && e[j] != "..."; j++) ;
			n = j - i; found = 0
			for (s = pos; s + n - 1 <= na && !found; s++) {
				if (anchored && s != pos) break
				if (j > ne && s != na - n + 1) continue
				found = 1
				for (k = 0; k < n; k++) if (a[s + k] != e[i + k]) found = 0
			}
			if (!found) exit 1
			pos = s - 1 + n; anchored = 1
		}
		exit (anchored && pos != na + 1)
	}' "$1" "$2"
}

for doc in README.md docs/model.md; do
	w=$tmp/$(basename "$doc" .md)
	mkdir -p "$w/build"
	ln -s "$B/bin" "$w/build/bin"
	ln -s "$B/lib" "$w/build/lib"
	ln -s "$B/examples" "$w/build/examples"
	ln -s "$root/tests" "$w/tests"
	ln -s "$root/loggp" "$w/loggp"
	declare -A skipped=()
	while IFS= read -r -d '' rec; do
		line=${rec%%$'\n'*}
		rest=${rec#*$'\n'}
		cmd=${rest%%$'\n'*}
		rest=${rest#*$'\n'}
		printf '%s' "$rest" >"$tmp/expected"
		name="docs: $doc:$line $(sed -E 's/ +# .*//; s/ +/ /g' <<<"$cmd")"
		skip=
		for x in "${excluded[@]}"; do
			[[ $cmd =~ ${x%|*} ]] && { skip=$x; break; }
		done
		[ -n "$skip" ] && { skipped[$skip]+=" $line"; continue; }
		(cd "$w" && PATH=$B/bin:$PATH bash -o pipefail -c "$cmd") </dev/null 2>&1 |
			grep -Ev '^loggopsim: (.* events in [0-9.]+ s|.*% of ops started)' >"$tmp/actual"
		rc=${PIPESTATUS[0]}
		if [ -s "$tmp/expected" ] && matches "$tmp/expected" "$tmp/actual"; then
			echo "ok - $name"
		elif [ ! -s "$tmp/expected" ] && [ "$rc" -eq 0 ]; then
			echo "ok - $name"
		else
			echo "not ok - $name"
			if [ -s "$tmp/expected" ]; then
				diff -u --label expected --label actual "$tmp/expected" "$tmp/actual"
			else
				echo "exit status $rc"; cat "$tmp/actual"
			fi | sed 's/^/    /' | head -40
		fi
	done < <(examples "$doc")
	for x in "${excluded[@]}"; do
		[ -n "${skipped[$x]:-}" ] && echo "ok - docs: $doc lines${skipped[$x]} # SKIP ${x##*|}"
	done
	unset skipped
done

# The picture of the modules and the size limits: the code follows them,
# and Graphviz draws the picture without a warning.
python3 tests/docs/arch.py
if command -v dot >/dev/null; then
	if dot -Tsvg docs/architecture.dot -o "$tmp/arch.svg" 2>"$tmp/err" && [ ! -s "$tmp/err" ]; then
		echo "ok - docs: architecture.dot renders without warnings"
	else
		echo "not ok - docs: architecture.dot renders without warnings"
		sed 's/^/    /' "$tmp/err"
	fi
else
	echo "ok - docs: architecture.dot renders # SKIP Graphviz dot not installed"
fi
