#!/usr/bin/env python3
# check_trace.py: checks a trace-event JSON file written by goalviz or
# loggopsim --trace-json (docs/perfetto.md) the way the viewers read it, and
# prints one line per event, in file order, for golden comparisons:
#   X NAME pid/tid TS+DUR {args}       a slice (times in ns)
#   i NAME pid/tid TS {args}           an instant
#   s|f ID pid/tid TS -> NAME@TS       a flow event and the slice it binds
# Checks (exit 1 with the reason): a JSON object with "traceEvents" only
# (no arrays in events); every ts and dur written as microseconds with
# three decimals; pid and tid from 1 to 2^32-1, a tid in one pid only, a
# thread and a process named before their first event; on each thread the
# slices nested or disjoint (a viewer drops a slice that overlaps another
# partly); each flow event bound, as Perfetto binds it (the topmost slice
# of its thread open at its time, events taken in time order, ties in file
# order), to a slice that starts at its time: an "s" to an osend (or a path
# link), an "f" to an orecv (or the next path link), or to a slice named by
# its op's label whose args' kind says so.  With --paired every
# flow has exactly one "s" and one "f".
import json
import re
import sys

paired = '--paired' in sys.argv
path = [a for a in sys.argv[1:] if not a.startswith('--')][0]
text = open(path, encoding='utf-8').read()


def fail(msg):
    sys.exit('%s: %s' % (path, msg))


doc = json.loads(text)
if not isinstance(doc, dict) or 'traceEvents' not in doc:
    fail('not a JSON object with traceEvents')
# Exact times: every ts and dur is digits '.' three digits.
for m in re.finditer(r'"(ts|dur)":([^,}]*)', text):
    if not re.fullmatch(r'\d+\.\d{3}', m.group(2)):
        fail('%s written as %s' % (m.group(1), m.group(2)))
ev = doc['traceEvents']


def ns(v):
    return round(v * 1000)


owner = {}          # tid -> pid
named_t, named_p = set(), set()
for k, e in enumerate(ev):
    for v in e.values():
        if isinstance(v, list):
            fail('event %d holds an array' % k)
    pid, tid = e.get('pid'), e.get('tid')
    if not (isinstance(pid, int) and 1 <= pid < 2**32 and isinstance(tid, int) and 1 <= tid < 2**32):
        fail('event %d: bad pid/tid %r/%r' % (k, pid, tid))
    if owner.setdefault(tid, pid) != pid:
        fail('tid %d in pids %d and %d' % (tid, owner[tid], pid))
    if e['ph'] == 'M':
        if e['name'] == 'thread_name':
            named_t.add(tid)
        if e['name'] == 'process_name':
            named_p.add(pid)
        continue
    if tid not in named_t or pid not in named_p:
        fail('event %d (%s) before its thread or process is named' % (k, e['name']))

# Perfetto's order: time, then file order; one stack of open slices per
# thread.
order = sorted((ns(e['ts']), k) for k, e in enumerate(ev) if e['ph'] != 'M')
stack = {}
bound = {}
for ts, k in order:
    e = ev[k]
    st = stack.setdefault(e['tid'], [])
    if e['ph'] in ('X', 'i'):
        dur = ns(e['dur']) if e['ph'] == 'X' else 0
        while st:
            end, d = st[-1][0], st[-1][1]
            if end < ts or (end == ts and not (d == 0 and dur == 0)):
                st.pop()
            else:
                break
        if st and ts + dur > st[-1][0]:
            fail('slice %s at %d on tid %d overlaps %s partly' %
                 (e['name'], ts, e['tid'], ev[st[-1][2]]['name']))
        st.append((ts + dur, dur, k))
    elif e['ph'] in ('s', 'f'):
        if not st:
            fail('flow event %d has no enclosing slice' % k)
        b = ev[st[-1][2]]
        if ns(b['ts']) != ts:
            fail('flow event %d binds %s, which starts at %d, not %d' % (k, b['name'], ns(b['ts']), ts))
        bound[k] = st[-1][2]

flows = {}
for k, e in enumerate(ev):
    if e['ph'] in ('s', 'f'):
        key = (e['cat'], e['name'], e['id'])
        flows.setdefault(key, []).append(k)
        b = ev[bound[k]]
        if e['cat'] == 'message':
            want = 'osend' if e['ph'] == 's' else 'orecv'
            a = b.get('args', {})
            src = e['pid'] - 1 if e['ph'] == 's' else a.get('peer')
            kind = a.get('kind', b['name'])  # a labelled slice: its keyword in args
            if kind != want or int(e['id'], 16) != (src << 32) + a.get('op', -1):
                fail('flow %s %s binds %s %r' % (e['ph'], e['id'], b['name'], a))
for key, ks in flows.items():
    phs = sorted(ev[k]['ph'] for k in ks)
    if phs not in (['f', 's'], ['s'], ['f']) or (paired and phs != ['f', 's']):
        fail('flow %s has events %s' % (key[2], phs))
    if phs == ['f', 's']:
        s, f = sorted(ks, key=lambda k: ev[k]['ph'] == 'f')
        if ns(ev[s]['ts']) > ns(ev[f]['ts']):
            fail('flow %s ends before it starts' % key[2])


def args(e):
    a = e.get('args', {})
    return '{' + ', '.join('%s=%s' % (k, a[k]) for k in sorted(a)) + '}' if a else ''


for k, e in enumerate(ev):
    where = '%d/%d' % (e['pid'], e['tid'])
    if e['ph'] == 'X':
        line = ['X', e['name'], where, '%d+%d' % (ns(e['ts']), ns(e['dur'])), args(e)]
    elif e['ph'] == 'i':
        line = ['i', e['name'], where, str(ns(e['ts'])), args(e)]
    elif e['ph'] in ('s', 'f'):
        b = ev[bound[k]]
        line = [e['ph'], e['id'], where, str(ns(e['ts'])), '->', '%s@%d' % (b['name'], ns(b['ts']))]
    else:
        continue
    print(' '.join(x for x in line if x))
