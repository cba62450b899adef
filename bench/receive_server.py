"""Starts `health-import receive` for the bench scripts (fleet.py, receive_load.py,
receive_fleet_load.py), so all start it the same way: on a free port of 127.0.0.1, its output in
WORK/LOG_NAME, the port read from its "listening on" line.

    server, port = receive_server.start(tool, store, ["--keys", key_file], work)

Standard library only.
"""
import os, re, subprocess, sys, time


def start(tool, store, key_args, work, log_name="receive.log", on_failure=None):
    """The running `receive` process and its port; exits with its log when it does not start
    within 30 s (or ends first), after calling `on_failure` (say, to stop a server the script
    started). `key_args` may carry other options of receive too (`--max-body`)."""
    log = open(os.path.join(work, log_name), "w+")
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
    if on_failure:
        on_failure()
    sys.exit("receive did not start: " + log.read())
