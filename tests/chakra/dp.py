"""A data-parallel training step as a Chakra trace, one file per rank:
forward through LAYERS layers, backward from the last, each layer's
gradients all-reduced as soon as its backward is done (they overlap the
backward of the layers below), then the optimizer once every allreduce
is done.  Every rank the same; node names as PyTorch's.

    python3 dp.py DIR RANKS LAYERS GRAD_BYTES FWD_US BWD_US OPT_US

writes DIR/dp.RANK.et.  The step's time without communication is
LAYERS (FWD_US + BWD_US) + OPT_US microseconds.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import et  # noqa: E402


def step(layers, grad, fwd, bwd, opt):
    nodes, ars = [], []
    prev = None
    for k in range(layers):           # forward: ids 1 ..
        i = 1 + k
        nodes.append(et.node(i, et.COMP, dur=fwd, data=[prev] if prev else [],
                             name='aten::linear layer %d' % k))
        prev = i
    for k in reversed(range(layers)):  # backward, each with its allreduce
        i = 1 + layers + 2 * k
        nodes.append(et.node(i, et.COMP, dur=bwd, data=[prev], name='aten::mm backward layer %d' % k))
        nodes.append(et.node(i + 1, et.COLL, data=[i], name='nccl:all_reduce layer %d' % k,
                             attrs=[('comm_type', et.ALL_REDUCE), ('comm_size', grad)]))
        ars.append(i + 1)
        prev = i
    nodes.append(et.node(1 + 3 * layers, et.COMP, dur=opt, data=ars, name='optimizer.step'))
    return nodes


def main():
    if len(sys.argv) != 8:
        sys.exit(__doc__)
    out, ranks, layers, grad, fwd, bwd, opt = sys.argv[1], *map(int, sys.argv[2:])
    os.makedirs(out, exist_ok=True)
    nodes = step(layers, grad, fwd, bwd, opt)
    for r in range(ranks):
        et.write(os.path.join(out, 'dp.%d.et' % r), nodes)


if __name__ == '__main__':
    main()
