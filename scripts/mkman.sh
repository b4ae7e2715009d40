#!/usr/bin/env bash
# mkman.sh TOOL OUT: the man page of TOOL (a path to the program) from its
# own --help and --version, written to OUT.  The help is the page's body as
# it is (preformatted), so the page and --help never disagree.
set -eu
tool=$1 out=$2
name=$(basename "$tool")
help=$("$tool" --help)
version=$("$tool" --version | head -n 1)
# The first line after the usage lines that is prose: the NAME line.
# The first paragraph of prose after the usage lines, to its first full
# stop: the NAME line.
what=$(printf '%s\n' "$help" | awk '
	NR > 1 && !on && /^[A-Z]/ { on = 1 }
	on && /^$/ { exit }
	on { p = p (p ? " " : "") $0 }
	END { sub(/\. .*/, "", p); sub(/\.$/, "", p); print p }')
# roff: a backslash is \e; a line that starts with . or ' is escaped.
esc() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }
{
	printf '.TH %s 1 "" "%s" "User Commands"\n' "$(printf '%s' "$name" | tr a-z A-Z)" "$version"
	printf '.SH NAME\n%s \\- %s\n' "$name" "$(printf '%s' "${what:-$name}" | esc)"
	printf '.SH DESCRIPTION\n.nf\n'
	printf '%s\n' "$help" | esc
	printf '.fi\n.SH VERSION\n%s\n' "$(printf '%s' "$version" | esc)"
	printf '.SH SEE ALSO\n'
	printf '%s\n' "goalc(1), schedgen(1), loggopsim(1), goalviz(1), trace2goal(1), loggp-fit(1), loggops-model(1); the documentation in share/doc/loggopsim" |
		sed "s/$name(1), //; s/, $name(1)//"
} >"$out.tmp"
mv "$out.tmp" "$out"
