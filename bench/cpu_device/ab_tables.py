#!/usr/bin/env python3
"""bench/cpu_device/ab_tables.py — the A/B of two compilers' CPU-device tables from one node call.

Reads DIR/cpudev-VARIANT-PASS.md (bench/cpu_device/corpus/run.sh's tables) and
DIR/newuser-VARIANT-PASS.md (bench/cpu_device/newuser/run.sh's) for two variants, and prints per
program and thread count each variant's times per pass, the median OpenMP time of all passes
and both ratios (OpenMP / CPU device, from the variant's median), then the geometric means.
  python3 bench/cpu_device/ab_tables.py DIR OLD NEW
"""
import glob, math, re, statistics as st, sys

def parse(path):
    rows, threads = {}, None
    for line in open(path):
        m = re.match(r'(\d+) thread', line) or re.match(r'\| program \((\d+) threads', line)
        if m:
            threads = int(m.group(1))
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        if threads is None or len(cells) < 4 or cells[0] in ('program', '---') or cells[0].startswith('program'):
            continue
        try:
            if len(cells) >= 5:  # corpus: name | args | device | openmp | ratio
                rows[(cells[0], threads)] = (float(cells[2]), float(cells[3]))
            else:                # newuser: name | device | openmp | ratio
                rows[(cells[0], threads)] = (float(cells[1]), float(cells[2]))
        except ValueError:
            rows[(cells[0], threads)] = None  # a FAIL
    return rows

def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float('nan')

def main(folder, old, new):
    for kind in ('cpudev', 'newuser'):
        tables = {v: [parse(p) for p in sorted(glob.glob(f'{folder}/{kind}-{v}-*.md'))] for v in (old, new)}
        if not tables[old] or not tables[new]:
            continue
        keys = sorted({k for t in tables[old] + tables[new] for k in t}, key=lambda k: (k[1], k[0]))
        for threads in sorted({k[1] for k in keys}):
            print(f'\n{kind}, {threads} thread(s): program | {old} ms per pass | {new} ms per pass | OpenMP median | ratio {old} | ratio {new}')
            ro, rn = [], []
            for k in (k for k in keys if k[1] == threads):
                o = [t[k] for t in tables[old] if t.get(k)]
                n = [t[k] for t in tables[new] if t.get(k)]
                if not o or not n:
                    print(f'  {k[0]:20s} FAIL or missing')
                    continue
                omp = st.median([x[1] for x in o + n])
                a, b = omp / st.median([x[0] for x in o]), omp / st.median([x[0] for x in n])
                ro.append(a); rn.append(b)
                print(f'  {k[0]:20s} {[x[0] for x in o]} {[x[0] for x in n]} {omp:.2f} {a:.2f} {b:.2f}')
            print(f'  geometric mean: {old} {geomean(ro):.3f}, {new} {geomean(rn):.3f} ({len(ro)} programs)')

if __name__ == '__main__':
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
