"""Chakra execution trace files for the tests: the protobuf wire format of
the schema's GlobalMetadata, Node and attributes (field numbers as in
readers/chakra_et.proto), each message after a varint of its length.

    import et
    et.write('dir/t.0.et', [et.node(1, et.COMP, dur=5),
                            et.node(2, et.SEND, data=[1], attrs=[('comm_dst', 1), ('comm_size', 1000)])])
"""
import struct

METADATA, MEM_LOAD, MEM_STORE, COMP, SEND, RECV, COLL, STORAGE = 1, 2, 3, 4, 5, 6, 7, 8
ALL_REDUCE, REDUCE, ALL_GATHER, GATHER, SCATTER, BROADCAST, ALL_TO_ALL = 0, 1, 2, 3, 4, 5, 6


def varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def key(field, wire):
    return varint(field << 3 | wire)


def vfield(field, v):
    return key(field, 0) + varint(v)


def bfield(field, data):
    if isinstance(data, str):
        data = data.encode()
    return key(field, 2) + varint(len(data)) + data


def attr(name, value):
    """An attribute: int64 (9), bool (27) or string (29) by value's type."""
    body = bfield(1, name)
    if isinstance(value, bool):
        body += vfield(27, int(value))
    elif isinstance(value, int):
        body += vfield(9, value)
    elif isinstance(value, float):
        body += key(3, 1) + struct.pack('<d', value)
    else:
        body += bfield(29, value)
    return body


def node(id, type, dur=0, ctrl=(), data=(), attrs=(), name=None):
    body = vfield(1, id) + bfield(2, name or 'n%d' % id) + vfield(3, type)
    if ctrl:
        body += bfield(4, b''.join(varint(d) for d in ctrl))
    if data:
        body += bfield(5, b''.join(varint(d) for d in data))
    body += vfield(7, dur)
    for a in attrs:
        body += bfield(10, attr(*a))
    return body


def metadata(version='0.0.4'):
    return bfield(1, version)


def framed(messages):
    return b''.join(varint(len(m)) + m for m in messages)


def write(path, nodes, tail=b''):
    with open(path, 'wb') as f:
        f.write(framed([metadata()] + list(nodes)) + tail)
