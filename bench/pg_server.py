"""A throw-away PostgreSQL server for the bench scripts (issue 41), started the way the tests'
PostgresTestServer.swift starts theirs: `initdb` into a temporary folder (as `nobody` through
`runuser` when run as root: PostgreSQL refuses root), scram-sha-256 with a password, `pg_ctl -w`
on a free loopback port, one database created. Unlike the tests' server, `fsync` is ON: the bench
measures durable commits, as a deployment makes them.

    server = pg_server.start(work)       # sets PGPASSWORD in os.environ for receive and psql
    url = server.url                     # postgres://health@127.0.0.1:PORT/bench
    server.stop()                        # pg_ctl stop -m immediate, folder removed

Standard library only; binaries from the newest /usr/lib/postgresql/N/bin.
"""
import glob, os, shutil, socket, subprocess, tempfile

USER, PASSWORD = "health", "bench-" + os.urandom(8).hex()


class Server:
    def __init__(self, folder, port, bin_dir):
        self.folder, self.port, self.bin = folder, port, bin_dir
        self.url = "postgres://%s@127.0.0.1:%d/bench" % (USER, port)

    def run(self, tool, *args):
        cmd = [os.path.join(self.bin, tool)] + list(args)
        if os.getuid() == 0:
            cmd = ["/usr/sbin/runuser", "-u", "nobody", "--"] + cmd
        r = subprocess.run(cmd, capture_output=True, text=True, cwd="/", env={"PATH": "/usr/bin:/bin", "LANG": "C"})
        if r.returncode != 0:
            log = open(os.path.join(self.folder, "server.log")).read() if os.path.exists(os.path.join(self.folder, "server.log")) else ""
            raise SystemExit("%s failed: %s%s%s" % (tool, r.stdout, r.stderr, log))

    def stop(self):
        if os.path.exists(os.path.join(self.folder, "data", "postmaster.pid")):
            self.run("pg_ctl", "-D", os.path.join(self.folder, "data"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


def start(max_connections=200):
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    if not versions:
        raise SystemExit("PostgreSQL's server binaries are not installed (apt-get install postgresql)")
    folder = tempfile.mkdtemp(prefix="bench-pg-")
    os.chmod(folder, 0o755)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = Server(folder, port, os.path.dirname(versions[-1]))
    with open(os.path.join(folder, "pw"), "w") as f:
        f.write(PASSWORD + "\n")
    if os.getuid() == 0:
        subprocess.run(["chown", "-R", "nobody", folder], check=True)
    data = os.path.join(folder, "data")
    server.run("initdb", "-D", data, "-U", USER, "--auth=scram-sha-256", "--pwfile=" + os.path.join(folder, "pw"), "-E", "UTF8",
               "--no-locale")
    with open(os.path.join(data, "postgresql.conf"), "a") as f:
        f.write("listen_addresses = '127.0.0.1'\nport = %d\nunix_socket_directories = '%s'\nfsync = on\n"
                "max_connections = %d\n" % (port, folder, max_connections))
    server.run("pg_ctl", "-D", data, "-l", os.path.join(folder, "server.log"), "-w", "-t", "60", "start")
    os.environ["PGPASSWORD"] = PASSWORD
    subprocess.run(["psql", "postgres://%s@127.0.0.1:%d/postgres" % (USER, port), "-qc", "CREATE DATABASE bench"], check=True)
    return server
