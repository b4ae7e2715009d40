#!/usr/bin/env python3
# sizes.py: the size limits of docs/architecture.md ("Sizes") against the
# code: no source file (.c .h .l .y outside tests/) over 1,500 lines, no
# function over 120.  A function is a block from a "{" in column 0 to the
# next "}" in column 0 (the project's style); its lines are those between
# them, and its name is the first identifier before "(" in the top-level
# lines just above the brace.  Prints "ok - ..." / "not ok - ..." lines
# (the offenders indented below a failing one).
import os
import re
import subprocess
import sys

FILE_MAX, FUNC_MAX = 1500, 120

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
os.chdir(root)
try:
    files = subprocess.run(['git', 'ls-files'], capture_output=True, text=True,
                           check=True).stdout.split()
except (OSError, subprocess.CalledProcessError):
    files = [os.path.relpath(os.path.join(d, f)) for d, _, fs in os.walk('.') for f in fs]
files = sorted(f for f in files if re.search(r'\.[chly]$', f) and not f.startswith(('tests/', 'build')))

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
sys.exit(1 if long_files or long_funcs else 0)
