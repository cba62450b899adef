"""Starts `health-import receive` for the bench scripts (fleet.py, receive_load.py), so both
start it the same way: on a free port of 127.0.0.1, its output in WORK/receive.log, the port
read from its "listening on" line.

    server, port = receive_server.start(tool, store, ["--keys", key_file], work)

Standard library only.
"""
import os, re, subprocess, sys, time


def start(tool, store, key_args, work):
    """The running `receive` process and its port; exits with its log when it does not start
    within 30 s (or ends first)."""
    log = open(os.path.join(work, "receive.log"), "w+")
    server = subprocess.Popen([tool, "receive", "--store", store] + key_args + ["--listen", "127.0.0.1:0"],
                              stderr=log, stdout=log)
    for _ in range(600):
        log.seek(0)
        m = re.search(r"listening on http://127\.0\.0\.1:(\d+) ", log.read())
        if m:
            return server, int(m.group(1))
        if server.poll() is not None:
            break
        time.sleep(0.05)
    server.kill()
    log.seek(0)
    sys.exit("receive did not start: " + log.read())
