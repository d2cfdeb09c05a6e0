"""`refund-cost publish` of a finished report into SQLite and into a PostgreSQL server started
here (Debian's postgresql, as the tests start it: as the postgres user when run as root)."""
import glob
import os
import pwd
import shutil
import socket
import subprocess
import time


def _postgres_bin():
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    return os.path.dirname(found[-1]) if found else None


def _as_server_user(command):
    if os.getuid() != 0:
        return command
    user = pwd.getpwnam("postgres")
    return ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups", "--"] + command


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """A throwaway PostgreSQL server in `folder`, trust authentication on loopback."""

    def __init__(self, folder):
        self.bin = _postgres_bin()
        if self.bin is None:
            raise RuntimeError("no PostgreSQL server: apt-get install postgresql")
        self.folder = folder
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        if os.getuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(folder, user.pw_uid, user.pw_gid)
        subprocess.run(_as_server_user([self.bin + "/initdb", "-D", folder + "/data", "-U", "bench", "--auth=trust",
                                        "-E", "UTF8", "--locale=C"]), check=True, capture_output=True)
        self.port = _free_port()
        log = open(os.path.join(folder, "log"), "w")
        self.process = subprocess.Popen(_as_server_user(
            [self.bin + "/postgres", "-D", folder + "/data", "-k", folder, "-p", str(self.port),
             "-c", "listen_addresses=127.0.0.1"]), stdout=log, stderr=log)
        for _ in range(300):
            if subprocess.run([self.bin + "/pg_isready", "-q", "-h", "127.0.0.1", "-p", str(self.port)]).returncode == 0:
                return
            time.sleep(0.1)
        raise RuntimeError("PostgreSQL did not start, see " + os.path.join(folder, "log"))

    @property
    def url(self):
        return f"postgresql://bench@127.0.0.1:{self.port}/postgres"

    def stop(self):
        self.process.terminate()
        self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def publish_bench(tool, folder, report_seconds, work, timed, line):
    """Publishes `folder` (a report of the bench set) twice into each database: the first
    creates the tables, the second replaces the month in one transaction."""
    rows = sum(max(0, sum(1 for _ in open(path)) - 1) for path in glob.glob(os.path.join(folder, "*.csv")))
    rows += sum(1 for _ in open(os.path.join(folder, "consumption_responses.jsonl")))
    largest = max(glob.glob(os.path.join(folder, "*.csv")), key=os.path.getsize)
    lines = [f"publish of the report folder: {rows:,} rows, the largest file {os.path.basename(largest)} "
             f"({max(0, sum(1 for _ in open(largest)) - 1):,} rows)"]
    database = os.path.join(work, "publish-bench.db")
    for path in (database, database + "-journal"):
        if os.path.exists(path):
            os.remove(path)
    targets = [("SQLite", "sqlite:" + database, None)]
    server = None
    try:
        server = Server(os.path.join(work, "publish-bench-pg"))
        targets.append(("PostgreSQL", server.url, server))
    except (RuntimeError, subprocess.CalledProcessError) as error:
        lines.append(f"  PostgreSQL not measured: {error}")
    try:
        for name, url, _ in targets:
            seconds, peaks = [], []
            for _ in range(2):
                elapsed, peak, _ = timed([tool, "publish", "--report", folder, "--database", url, "--quiet"])
                seconds.append(elapsed)
                peaks.append(peak)
            lines.append(line(f"refund-cost publish into {name} (create, then replace)", seconds, peaks,
                              f"{rows / min(seconds):,.0f} rows/s; {min(seconds) / report_seconds * 100:.0f}% of the report's time"))
    finally:
        if server is not None:
            server.stop()
    return lines
