"""What the HTTP benches share: starting ``server.serve`` instances (the app, the app with its answer
cache off, the trivial Flask view as the same-run baseline), waiting for them, running wrk and
reading its figures, and the memory of a server's workers (RSS and PSS from /proc)."""
from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def ceiling_app():
    """The trivial Flask JSON view: the most a Flask view can do under this gunicorn config. Its
    POST form reads the JSON body it is sent and answers the same: the most a view answering a
    posted question can do (gunicorn reading a body costs what no GET pays)."""
    from flask import Flask, jsonify, request

    app = Flask("ceiling")

    @app.get("/json")
    def hello():
        return jsonify({"hello": "world"})

    @app.post("/json")
    def hello_posted():
        request.get_json()
        return jsonify({"hello": "world"})

    return app


def uncached_app(home: str):
    """The app with its per-process answer cache off: every request is computed (a first visit)."""
    from server import create_app
    from server.serve import warm_up

    app = create_app({"KB_HOME": home, "KB_ENSURE": False, "RESPONSE_CACHE_SIZE": 0})
    warm_up(app)
    return app


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(kind: str, port: int, workers: int, home: str | None, env: dict, **extra) -> subprocess.Popen:
    """``kind``: "app" (as ``kb serve`` runs it), "uncached" (answer cache off) or "ceiling"."""
    factory = {"ceiling": "app_factory=serving.ceiling_app, ",
               "uncached": f"app_factory=lambda: serving.uncached_app({home!r}), ",
               "app": ""}[kind]
    options = "".join(f", {key}={value!r}" for key, value in extra.items())
    code = (f"import sys; sys.path.insert(0, {str(REPO)!r})\n"
            "from bench import serving\nfrom server.serve import serve\n"
            f"serve('127.0.0.1', {port}, {workers}, {factory}home={home!r}{options})\n")
    return subprocess.Popen([sys.executable, "-c", code], cwd=REPO, env=env, start_new_session=True)


def wait(url: str, proc: subprocess.Popen, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server exited with {proc.returncode} before answering {url}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                response.read()
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"no answer from {url} within {timeout} s")


def stop(proc: subprocess.Popen) -> None:
    """Stop the server this bench started (its own process group: the master and its workers)."""
    try:
        os.killpg(proc.pid, 15)
        proc.wait(15)
    except ProcessLookupError:
        return
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        proc.wait()


def _group(proc: subprocess.Popen) -> list[Path]:
    """/proc entries of the server's processes (its own process group), the master included."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[2]) == proc.pid:
                    out.append(entry)
            except (OSError, ValueError, IndexError):
                continue
    return out


def server_cpu(proc: subprocess.Popen) -> float:
    """CPU seconds (user + system, every thread) the server's processes have used so far: read before
    and after a run, what a request costs the server under that load (in process, alone on the
    machine, a request costs less: both cores busy and many threads switching add to it)."""
    total = 0
    for entry in _group(proc):
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def workers_memory(proc: subprocess.Popen) -> dict:
    """RSS and PSS (MiB) of the server's processes other than the master, summed and the largest
    one. PSS counts pages shared since the fork once in total, so it is what the workers really add."""
    rss, pss = [], []
    for entry in _group(proc):
        if int(entry.name) == proc.pid:
            continue
        try:
            fields = dict(line.split(":", 1) for line in (entry / "smaps_rollup").read_text().splitlines()[1:])
        except (OSError, ValueError):
            continue
        rss.append(int(fields["Rss"].split()[0]) / 1024)
        pss.append(int(fields["Pss"].split()[0]) / 1024)
    return {"processes": len(rss), "rss_mib": round(sum(rss), 1), "pss_mib": round(sum(pss), 1),
            "max_rss_mib": round(max(rss, default=0), 1)}


UNITS = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 6e4}


def _ms(value: str) -> float:
    found = re.fullmatch(r"([\d.]+)(us|ms|s|m)", value.strip())
    return float(found[1]) * UNITS[found[2]]


def parse_wrk(output: str) -> dict:
    """Requests/s, p50/p99/max (ms), requests, non-2xx/3xx and socket errors from ``wrk --latency``."""
    latency = re.search(r"^\s+Latency\s+(\S+)\s+(\S+)\s+(\S+)", output, re.M)
    requests = int(re.search(r"(\d+) requests in", output)[1])
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", output)[1]),
            "p50_ms": _ms(re.search(r"^\s+50%\s+(\S+)", output, re.M)[1]),
            "p99_ms": _ms(re.search(r"^\s+99%\s+(\S+)", output, re.M)[1]),
            "max_ms": _ms(latency[3]) if latency else float("nan"),
            "requests": requests, "non_2xx": int(bad[1]) if bad else 0,
            "socket_errors": sum(int(n) for n in errors.groups()) if errors else 0}


def run_wrk(url: str, duration: int, connections: int, threads: int, method: str = "GET", body=None,
            paths: list | None = None) -> dict:
    """One bounded wrk run. ``paths``: a random one of these per request (a Lua script); each is a
    GET path or a (method, path, JSON body) triple."""
    threads = min(threads, connections)
    args = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{duration}s", "--latency", "--timeout", "5s"]
    script = None
    if method != "GET" or paths:
        script = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
        if paths:
            listed = ",\n".join(_lua_request(p) for p in paths)
            script.write(f"local requests = {{\n{listed}\n}}\n"
                         "math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16))\n"
                         "request = function() local r = requests[math.random(#requests)]\n"
                         "  if r[3] then return wrk.format(r[1], r[2], {[\"Content-Type\"] = \"application/json\"}, r[3]) end\n"
                         "  return wrk.format(r[1], r[2]) end\n")
        else:
            payload = json.dumps(body).replace("\\", "\\\\").replace('"', '\\"')
            script.write(f'wrk.method = "{method}"\nwrk.body = "{payload}"\n'
                         'wrk.headers["Content-Type"] = "application/json"\n')
        script.close()
        args += ["-s", script.name]
    try:
        output = subprocess.run(args + [url], capture_output=True, text=True, check=True,
                                timeout=duration + 30).stdout
    finally:
        if script:
            os.unlink(script.name)
    return parse_wrk(output)


def _lua_request(item) -> str:
    """A Lua table {method, path[, body]}; strings as JSON literals (valid Lua for these texts)."""
    method, path, body = ("GET", item, None) if isinstance(item, str) else item
    parts = [json.dumps(method), json.dumps(path)]
    if body is not None:
        parts.append(json.dumps(json.dumps(body, ensure_ascii=True)))
    return "{" + ", ".join(parts) + "}"


def status_of(url: str, method: str = "GET", body=None, timeout: float = 10) -> int:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code
