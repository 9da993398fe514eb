#!/usr/bin/env python3
"""Writes the scale bench's synthetic fleet: RUNS small traces over NIGHTS nights and HOSTS hosts.

fleet-traces.py BASE.txt.gz DIR RUNS NIGHTS HOSTS

Every run is BASE (a few thousand records) with its own '# hostname :' header and a comment line
naming the run, so no two runs have the same content (the archive counts one trace under two run
ids once). Files go to DIR/night-YYYY-MM-DD/HOST-YYYY-MM-DD-NNNNN.txt.gz, nights from 2026-10-01,
runs dealt round-robin over nights, then hosts.
"""
import datetime
import gzip
import os
import sys

base_file, out, runs, nights, hosts = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
body = gzip.open(base_file, "rb").read()
first = datetime.date(2026, 10, 1)
for r in range(runs):
    night = (first + datetime.timedelta(days=r % nights)).isoformat()
    host = "host%02d" % (1 + (r // nights) % hosts)
    d = os.path.join(out, "night-" + night)
    os.makedirs(d, exist_ok=True)
    name = os.path.join(d, "%s-%s-%05d.txt.gz" % (host, night, r))
    if os.path.exists(name):
        continue
    head = b"# hostname : %s\n# loadprof fleet bench run %05d\n" % (host.encode(), r)
    with open(name + ".tmp", "wb") as f:
        f.write(gzip.compress(head + body, compresslevel=1))
    os.rename(name + ".tmp", name)
print("%d runs over %d nights and %d hosts in %s" % (runs, nights, hosts, out))
