#!/usr/bin/env python3
"""Issue 29's check that the UCI engine's search keeps growing with time.

From `position startpos moves e2e4`, each in an engine process of its own
(so that no cache or tree carries over): `go movetime 2500`, `go movetime
10000`, then `go infinite` for INFINITE seconds (default 120) and `stop`.
Prints each timed search's wall time and visits (the last info line's
`nodes`), their ratio, the infinite search's visits every tenth of its
length (they must keep rising to the end), and the infinite search's
resident set before it and at its peak (VmHWM), beside the bound the Hash
option documents (Hash plus what the program holds before a search).

    python3 docs/scripts/ucigrow.py ./alicezero [INFINITE] [name=value ...]

Options after the length are set with setoption (e.g. Hash=64 Threads=2).
"""
import queue
import subprocess
import sys
import threading
import time


def rss_mb(pid, field):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(field):
            return int(line.split()[1]) / 1024
    raise SystemExit(f"no {field} in /proc/{pid}/status")



class Engine:
    """One `alicezero uci` process, handshake done and options set."""

    def __init__(self, binary, opts):
        self.p = subprocess.Popen([binary, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.q = queue.Queue()
        self.hash_default = None
        threading.Thread(target=self._read, daemon=True).start()
        self.send("uci")
        self.until("uciok")
        for name, value in opts:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.until("readyok")
        self.hash_mb = int(dict(opts).get("Hash", self.hash_default))
        self.idle = rss_mb(self.p.pid, "VmRSS")

    def _read(self):
        for line in self.p.stdout:
            self.q.put((time.monotonic(), line.strip()))
        self.q.put((time.monotonic(), None))

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def until(self, prefix, on_info=None):
        """Reads up to a line starting with prefix; returns its time, the
        line and the last info line's nodes."""
        last = None
        while True:
            t, line = self.q.get()
            if line is None:
                raise SystemExit("engine exited")
            f = line.split()
            if line.startswith("option name Hash "):
                self.hash_default = int(f[f.index("default") + 1])
            if line.startswith("info") and "nodes" in f:
                last = int(f[f.index("nodes") + 1])
                if on_info:
                    on_info(t, last)
            if line.startswith(prefix):
                return t, line, last

    def close(self):
        hwm = rss_mb(self.p.pid, "VmHWM")
        self.send("quit")
        self.p.wait()
        return hwm


def main():
    binary = sys.argv[1]
    args = sys.argv[2:]
    infinite = 120.0
    if args and "=" not in args[0]:
        infinite = float(args.pop(0))
    opts = [a.split("=", 1) for a in args]
    timed = {}
    for ms in (2500, 10000):
        e = Engine(binary, opts)
        e.send("position startpos moves e2e4")
        t0 = time.monotonic()
        e.send(f"go movetime {ms}")
        t, line, nodes = e.until("bestmove")
        timed[ms] = nodes
        print(f"go movetime {ms}: wall {t - t0:.2f} s, nodes {nodes}, {line}; peak RSS {e.close():.0f} MB")
    print(f"visits 10 s / 2.5 s: {timed[10000] / timed[2500]:.2f}")

    e = Engine(binary, opts)
    e.send("position startpos moves e2e4")
    seen = []
    t0 = time.monotonic()
    e.send("go infinite")
    threading.Timer(infinite, lambda: e.send("stop")).start()
    t, line, nodes = e.until("bestmove", lambda t, n: seen.append((t - t0, n)))
    print(f"go infinite: stopped after {t - t0:.1f} s, {line}")
    prev = 0
    for k in range(1, 11):
        m = infinite * k / 10
        at = [n for s, n in seen if s <= m + 0.5]
        n = at[-1] if at else 0
        print(f"  {m:6.1f} s: {n:>10} visits (+{n - prev})")
        prev = n
    rising = all(b[1] >= a[1] for a, b in zip(seen, seen[1:]))
    before = [n for s, n in seen if s <= infinite * 0.9]
    last_gain = seen[-1][1] - before[-1] if seen and before else 0
    print(f"  visits never fell: {rising}; added in the last tenth: {last_gain}")
    hwm = e.close()
    print(f"resident set: {e.idle:.0f} MB before the search, peak {hwm:.0f} MB; "
          f"documented bound Hash + that = {e.hash_mb + e.idle:.0f} MB (Hash {e.hash_mb})")


main()
