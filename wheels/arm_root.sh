#!/usr/bin/env bash
# Unpacks Debian bookworm's Python 3.11 + numpy for arm64 or armhf into a folder
# (the recipe of shared/docs/arm-emulation.md), for cross-building against the
# target's headers and running under qemu-user:
#   wheels/arm_root.sh arm64|armhf DIR    -> DIR/root/usr/bin/python3.11
set -euo pipefail
A=$1; R=$2; mkdir -p $R/lists/partial $R/debs $R/root
o="-oAPT::Architecture=$A -oAPT::Architectures=$A -oDir::State::Lists=$R/lists -oDir::Cache=$R/cache"
mkdir -p $R/cache/archives/partial
apt-get $o update -qq || apt-get $o update -qq || true
cd $R/debs && apt-get $o download python3.11-minimal libpython3.11-minimal libpython3.11-stdlib \
  libpython3.11-dev python3.11-dev libc6 libexpat1 zlib1g libssl3 libffi8 libgcc-s1 libstdc++6 \
  python3-numpy libblas3 liblapack3 libgfortran5 libopenblas0-pthread libopenblas0
for f in $R/debs/*.deb; do dpkg -x $f $R/root; done
case $A in arm64) T=aarch64-linux-gnu;; armhf) T=arm-linux-gnueabihf;; esac
L=$R/root/usr/lib/$T
ln -sf openblas-pthread/libblas.so.3 $L/libblas.so.3
ln -sf openblas-pthread/liblapack.so.3 $L/liblapack.so.3
ln -sf openblas-pthread/libopenblas.so.0 $L/libopenblas.so.0
echo done $A
