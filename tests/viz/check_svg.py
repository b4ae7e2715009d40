#!/usr/bin/env python3
# check_svg.py: parses a goalviz SVG (fails if it is not well-formed XML) and
# prints one line per bar, link load, message and mark of the critical path
# with the exact times of its data-* attributes, in document order; every
# one must carry a <title> tooltip.
import sys
import xml.etree.ElementTree as ET

NS = '{http://www.w3.org/2000/svg}'
KINDS = ('osend', 'orecv', 'loclop', 'noise', 'gsend', 'grecv')
root = ET.parse(sys.argv[1]).getroot()
if root.tag != NS + 'svg':
    sys.exit('root is not <svg>')
for e in root.iter():
    cls = e.get('class')
    if cls is None:
        continue
    if e.find(NS + 'title') is None:
        sys.exit('no <title> in a %s element' % cls)
    if cls in KINDS:
        print(cls, e.get('data-rank'), e.get('data-unit'), e.get('data-start'), e.get('data-end'))
    elif cls == 'link':
        print('link', e.get('data-link'), e.get('data-flows'), e.get('data-bytes'),
              e.get('data-start'), e.get('data-end'), e.get('fill'))
    elif cls == 'msg':
        a = lambda k: e.get('data-' + k, '-')
        print('msg', a('src'), a('dst'), 'send=' + a('send'), 'depart=' + a('depart'),
              'arrival=' + a('arrival'), 'handled=' + a('handled'), 'size=' + a('size'))
    elif cls == 'critical':
        a = lambda k: e.get('data-' + k, '-')
        print('path', a('step'), a('kind'), a('rank'), a('unit'), a('start'), a('end'),
              'peer=' + a('peer'))
