"""Checks an OFFLOAD_TRACE file against the Chrome trace-event format (issue 19): it parses as
JSON; every event has name, ph, ts, pid and tid; complete events ("X") have dur >= 0; kernel
events carry their launch site (in SOURCE) and grid; every track is named; nested ranges nest;
no FILE.json.tmp is left beside it. With a third argument "profile.cpp-ranges", the ranges of
tests/lit/e2e/profile.cpp must be there, nested. Prints a summary line; exits 1 with the first
problem. Usage: check_trace.py FILE.json SOURCE_FILE_NAME [profile.cpp-ranges]"""
import collections
import json
import os
import re
import sys


def fail(why):
    print("check_trace: " + why)
    sys.exit(1)


path, source = sys.argv[1], sys.argv[2]
expect_ranges = sys.argv[3:] == ["profile.cpp-ranges"]
if os.path.exists(path + ".tmp"):
    fail(path + ".tmp was left behind")
with open(path) as f:
    trace = json.load(f)
events = trace["traceEvents"]
names = {}
for e in events:
    for key in ("name", "ph", "ts", "pid", "tid"):
        if key not in e:
            fail("an event lacks %r: %r" % (key, e))
    if not isinstance(e["ts"], (int, float)) or e["ts"] < 0:
        fail("bad ts: %r" % e)
    if e["ph"] == "M":
        if e["name"] not in ("process_name", "thread_name", "process_sort_index"):
            fail("unexpected metadata: %r" % e)
        if e["name"] != "process_sort_index":
            names[(e["name"], e["pid"], e["tid"] if e["name"] == "thread_name" else 0)] = e["args"]["name"]
    elif e["ph"] == "X":
        if not isinstance(e.get("dur"), (int, float)) or e["dur"] < 0:
            fail("an X event without dur >= 0: %r" % e)
    else:
        fail("unexpected phase: %r" % e)
xs = [e for e in events if e["ph"] == "X"]
kernels = [e for e in xs if e["cat"] == "kernel"]
copies = [e for e in xs if e["cat"] == "copy"]
ranges = [e for e in xs if e["cat"] == "range"]
for e in kernels:
    site = e["args"].get("site", "")
    if not re.fullmatch(re.escape(source) + r":\d+", site):
        fail("a kernel event without its launch site: %r" % e)
    if len(e["args"].get("grid", [])) != 3 or len(e["args"].get("block", [])) != 3:
        fail("a kernel event without grid and block: %r" % e)
for e in xs:
    if ("process_name", e["pid"], 0) not in names:
        fail("a process without a name: %r" % e)
    if ("thread_name", e["pid"], e["tid"]) not in names:
        fail("a track without a name: %r" % e)
for e in copies:
    if e["args"].get("bytes", 0) <= 0:
        fail("a copy without bytes: %r" % e)
# Ranges on one thread nest: each lies within any that it overlaps.
by_track = collections.defaultdict(list)
for e in ranges:
    by_track[(e["pid"], e["tid"])].append(e)
for track in by_track.values():
    for a in track:
        for b in track:
            a0, a1, b0, b1 = a["ts"], a["ts"] + a["dur"], b["ts"], b["ts"] + b["dur"]
            if a0 < b0 < a1 and b1 > a1 + 0.002:
                fail("ranges overlap without nesting: %r %r" % (a, b))
outer = [e for e in ranges if e["name"] == "solver step"]
inner = [e for e in ranges if e["name"] == "inner phase"]
if expect_ranges and (len(outer) != 1 or len(inner) != 3):
    fail("expected 1 'solver step' and 3 'inner phase' ranges, got %d and %d" % (len(outer), len(inner)))
for e in inner if outer else []:
    o = outer[0]
    if not (o["ts"] <= e["ts"] + 0.002 and e["ts"] + e["dur"] <= o["ts"] + o["dur"] + 0.002):
        fail("'inner phase' is not inside 'solver step'")
counts = collections.Counter(e["name"] for e in kernels)
print("check_trace: %d events, kernels %s, %d copies, %d ranges, %d processes" % (
    len(events), dict(sorted(counts.items())), len(copies), len(ranges),
    len({k[1] for k in names if k[0] == "process_name"})))
