#!/usr/bin/env python3
"""Issue 21's memory-and-time check of the UCI engine at its defaults.

30 s of `go infinite` from the start, `stop`, then six `go movetime 1000`
moves with the tree kept (each position extends the last by the engine's
own move). Prints each move's wall time, the longest gap between info
lines, and the process's peak resident set (VmHWM).

    python3 docs/scripts/ucimem.py ./alicezero [extra uci options as name=value ...]
"""
import subprocess, sys, time, threading, queue

def main():
    binary = sys.argv[1]
    opts = [a.split("=", 1) for a in sys.argv[2:]]
    infinite = 30.0
    p = subprocess.Popen([binary, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    q = queue.Queue()
    def reader():
        for line in p.stdout:
            q.put((time.monotonic(), line.strip()))
        q.put((time.monotonic(), None))
    threading.Thread(target=reader, daemon=True).start()
    def send(s):
        p.stdin.write(s + "\n"); p.stdin.flush()
    def until(prefix):
        gaps, last = 0.0, time.monotonic()
        while True:
            t, line = q.get()
            if line is None:
                raise SystemExit("engine exited")
            if line.startswith("info"):
                gaps, last = max(gaps, t - last), t
            if line.startswith(prefix):
                return t, line, max(gaps, t - last)
    send("uci"); until("uciok")
    for name, value in opts:
        send(f"setoption name {name} value {value}")
    send("isready"); until("readyok")
    moves = []
    send("position startpos"); t0 = time.monotonic(); send("go infinite")
    time.sleep(infinite); send("stop")
    t, line, gap = until("bestmove")
    print(f"infinite: stopped after {t - t0:.2f} s, longest info gap {gap:.2f} s, {line}")
    maxgap, maxwall = gap, 0.0
    for i in range(6):
        moves.append(line.split()[1])
        send("position startpos moves " + " ".join(moves))
        t0 = time.monotonic(); send("go movetime 1000")
        t, line, gap = until("bestmove")
        maxgap, maxwall = max(maxgap, gap), max(maxwall, t - t0)
        print(f"move {i+1}: wall {t - t0:.3f} s, longest info gap {gap:.2f} s, {line}")
    hwm = [l for l in open(f"/proc/{p.pid}/status") if l.startswith("VmHWM")][0].split()[1]
    send("quit"); p.wait()
    print(f"peak RSS {int(hwm)/1024:.0f} MB; longest move {maxwall:.3f} s; longest info gap {maxgap:.2f} s")

main()
