#!/usr/bin/env bash
# Installs the Debian packages the project needs, only those that are missing.
# Safe to run again; does nothing when everything is there.
set -eu
pkgs=(flex bison graphviz clang g++ pkg-config libclang-rt-14-dev python3 time bc openmpi-bin libopenmpi-dev mpich libmpich-dev libucx-dev gfortran mumps-test parallel librsvg2-bin libgraphviz-dev libopen-trace-format2-dev python3-otf2 libsimgrid-dev netpipe-openmpi lammps hpcc scalapack-mpi-test protobuf-c-compiler libprotobuf-c-dev)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
