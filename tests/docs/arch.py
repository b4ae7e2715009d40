#!/usr/bin/env python3
# arch.py: docs/architecture.dot against the code.  Every source file
# (.c .h .l .y .proto outside tests/) belongs to exactly one module (its `files`
# globs); every #include "X" of a file names a header of its own module, of a
# base module (util/), or of a module its module has a solid edge to; every
# such edge is used by some include.  Prints "ok - ..." / "not ok - ..."
# lines (the reasons indented below a failing one).  Then the size limits
# of docs/architecture.md ("Sizes"): no such file over 1,500 lines, no
# function over 120.  A function is a block from a "{" in column 0 to the
# next "}" in column 0 (the project's style); its lines are those between
# them, and its name is the first identifier before "(" in the top-level
# lines just above the brace.
import fnmatch
import os
import re
import subprocess
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
os.chdir(root)
dot = open('docs/architecture.dot').read()
dot = re.sub(r'//[^\n]*', '', dot)

# Modules: NAME [... files="GLOBS" ...]; base=1 marks one everyone may call.
mods, base = {}, set()
for m in re.finditer(r'(\w+)\s*\[([^\]]*)\]', dot):
    f = re.search(r'files="([^"]*)"', m.group(2))
    if f:
        mods[m.group(1)] = f.group(1).split()
        if re.search(r'\bbase=1\b', m.group(2)):
            base.add(m.group(1))

# Edges between modules: A -> B; or A -> { B C };
edges = set()
for m in re.finditer(r'(\w+)\s*->\s*(\{[^}]*\}|\w+)', dot):
    a = m.group(1)
    for b in m.group(2).strip('{} ').split():
        if a in mods and b in mods:
            edges.add((a, b))

try:
    files = subprocess.run(['git', 'ls-files'], capture_output=True, text=True,
                           check=True).stdout.split()
except (OSError, subprocess.CalledProcessError):
    files = [os.path.relpath(os.path.join(d, f)) for d, _, fs in os.walk('.') for f in fs]
files = sorted(f for f in files if re.search(r'\.([chly]|proto)$', f) and not f.startswith(('tests/', 'build')))

bad = []
owner = {}
for f in files:
    own = [n for n, gl in mods.items() if any(fnmatch.fnmatchcase(f, g) for g in gl)]
    if len(own) != 1:
        bad.append('%s: in %s' % (f, ' and '.join(own) if own else 'no module'))
    else:
        owner[f] = own[0]
for n, gl in mods.items():
    for g in gl:
        if not any(fnmatch.fnmatchcase(f, g) for f in files):
            bad.append('module %s: "%s" matches no file' % (n, g))
print(('ok' if not bad else 'not ok') + ' - architecture: every source file is in one module')
for b in bad:
    print('    ' + b)

# Headers by name; generated files belong to their sources (the parser
# includes the generated scanner itself; make writes the commit's header).
header = {os.path.basename(f): owner[f] for f in owner if f.endswith('.h')}
# A .c file may be part of another's compilation unit (sim.c includes its
# hot parts); it counts as its module's own.
for f in owner:
    if f.endswith('.c'):
        header.setdefault(os.path.basename(f), owner[f])
for gen, src in (('goal_parse.h', 'goal/goal_parse.y'),
                 ('goal_lex.h', 'goal/goal_lex.l'),
                 ('goal_lex.c', 'goal/goal_lex.l'),
                 ('chakra_et.pb-c.h', 'readers/chakra_et.proto'),
                 ('commit.h', 'util/version.c')):
    if src in owner:
        header[gen] = owner[src]
bad, used = [], set()
for f, a in owner.items():
    for n, line in enumerate(open(f, errors='replace'), 1):
        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if not m:
            continue
        b = header.get(os.path.basename(m.group(1)))
        if b is None:
            bad.append('%s:%d: includes "%s", which no module has' % (f, n, m.group(1)))
        elif b == a or (b in base and a not in base) or (a, b) in edges:
            used.add((a, b))
        else:
            bad.append('%s:%d: includes "%s" of %s, but there is no edge %s -> %s'
                       % (f, n, m.group(1), b, a, b))
print(('ok' if not bad else 'not ok') + ' - architecture: every #include follows an edge')
for b in bad:
    print('    ' + b)
unused = sorted(edges - used)
print(('ok' if not unused else 'not ok') + ' - architecture: every edge is used')
for a, b in unused:
    print('    %s -> %s: no file of %s includes a header of %s' % (a, b, a, b))

# The size limits.
FILE_MAX, FUNC_MAX = 1500, 120
long_files, long_funcs = [], []
for f in files:
    lines = open(f, errors='replace').read().split('\n')
    if len(lines) - 1 > FILE_MAX:
        long_files.append('%s: %d lines' % (f, len(lines) - 1))
    if not f.endswith('.c'):
        continue
    head, start = [], None
    for i, l in enumerate(lines):
        if start is None:
            if l.startswith('{'):
                names = re.findall(r'(\w+)\s*\(', ' '.join(head))
                name, start = names[0] if names else '?', i
            elif l and not l[0].isspace() and not l.startswith(('#', '/*', ' *', '}')):
                # a top-level line: the start of a declaration, or a
                # signature's continuation (the line before did not end it)
                head = head + [l] if head and not head[-1].rstrip().endswith((';', ')')) else [l]
            elif l.startswith(('}', '#')):
                head = []
        elif l.startswith('}'):
            if i - start - 1 > FUNC_MAX:
                long_funcs.append('%s:%d: %s: %d lines' % (f, start + 1, name, i - start - 1))
            start, head = None, []

for what, bad, limit in (('source file', long_files, FILE_MAX),
                         ('function', long_funcs, FUNC_MAX)):
    print('%s - sizes: no %s over %d lines' % ('not ok' if bad else 'ok', what, limit))
    for b in bad:
        print('    ' + b)
