import re,statistics,sys,math
rows={}
for f in sys.argv[1:]:
    for line in open(f):
        m=re.match(r'T (\d+) (\S+) r\d+ \| old: (.*?)\| new: (.*?)(?:\| omp: (.*))?$',line.strip())
        if not m: continue
        t,n,o,w,p=m.groups()
        def val(s):
            if s is None: return None
            if 'FAIL' in s or ('CHECK' in s and 'CHECK ok' not in s): return float('nan')
            mm=re.search(r'time_ms: ([\d.]+)',s) or re.search(r' ([\d.]+) ms',s)
            return float(mm.group(1)) if mm else float('nan')
        rows.setdefault((int(t),n),[]).append((val(o),val(w),val(p)))
geo={}
for (t,n),v in sorted(rows.items()):
    o=statistics.median(x[0] for x in v); w=statistics.median(x[1] for x in v)
    ps=[x[2] for x in v if x[2] is not None]
    p=statistics.median(ps) if ps else None
    r1=f"{p/o:.2f}" if p else "-"; r2=f"{p/w:.2f}" if p else "-"
    if p: geo.setdefault(t,[]).append((p/o,p/w))
    print(f"| {n} | {t} | {o:.2f} | {w:.2f} | {p if p is None else round(p,2)} | {r1} | {r2} | n={len(v)}")
for t,l in sorted(geo.items()):
    g=lambda i: math.exp(sum(math.log(x[i]) for x in l)/len(l))
    print(f"geomean T{t}: old {g(0):.3f} new {g(1):.3f} ({len(l)} programs)")
