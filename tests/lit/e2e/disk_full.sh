#!/bin/bash
# disk_full.test's steps: SOURCE WORK DRIVER... (the driver with its options: lit's %offload-cxx
# is several words under the sm_90 configuration); a 64 KiB tmpfs at WORK/full, filled,
# unmounted at the end whatever happens.
src=$1 w=$2
shift 2
oc=("$@")
cd "$w" && cp "$src" k.cpp || exit 1
mount -t tmpfs -o size=64k tmpfs full || exit 1
trap 'umount "$w/full"' EXIT
dd if=/dev/zero of=full/filler bs=1k count=200 2>/dev/null
export TMPDIR=$w/tmp
echo old > k.o
"${oc[@]}" -c k.cpp -MMD -MF full/k.d -o k.o; echo "dep rc=$?"
echo "object: $(ls k.o 2>/dev/null || echo none)"
"${oc[@]}" --pass=host-metadata k.cpp -o full/k.manifest; echo "manifest rc=$?"
"${oc[@]}" --pass=host-metadata k.cpp -o k.manifest && "${oc[@]}" --pass=device --manifest=k.manifest --offload-arch=host -o full/dev.bin; echo "device rc=$?"
echo "left in full: $(ls full | tr '\n' ' ' | sed 's/ $//')"
echo "temporary folders left: $(ls tmp | wc -l)"
TMPDIR=$w/full "${oc[@]}" -c k.cpp -o kt.o; echo "full TMPDIR rc=$?"
echo "left in full: $(ls full | tr '\n' ' ' | sed 's/ $//')"
