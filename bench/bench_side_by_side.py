"""Two versions of the service under the same load at the same time: what a change saves.

This VM's speed drifts ±20% within minutes, so two runs minutes apart cannot tell a 5% change from
no change (bench_http pairs each run with a baseline for that reason, but a baseline is another
app). Here the code of ``--base`` (a git revision, checked out in a temporary worktree, or a
folder) and this checkout each serve the built snapshot from one gunicorn worker with the answer
cache off, and one wrk per server drives both at once with the same random URLs: both see the same
machine, so the ratio of their CPU per request is the change's. Printed per run: req/s, p50/p99 ms
and server CPU ms a request of each, and the ratio; then the median ratio.

    python bench/bench_side_by_side.py --base HEAD~3                  # random searches of the bench
    python bench/bench_side_by_side.py --base main --kind rules --repeat 7
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.bench_http import _mechanic_paths, _questions, _rule_paths, _search_paths  # noqa: E402
from bench.serving import free_port, run_wrk, server_cpu, stop, wait  # noqa: E402


def _start(repo: Path, home: str, env: dict) -> tuple[subprocess.Popen, str]:
    """One gunicorn worker of ``repo``'s code, answer cache off, on the snapshot in ``home``."""
    port = free_port()
    code = (f"import sys; sys.path.insert(0, {str(repo)!r})\n"
            "from bench import serving\nfrom server.serve import serve\n"
            f"assert serving.__file__.startswith({str(repo)!r}), serving.__file__\n"
            f"serve('127.0.0.1', {port}, 1, app_factory=lambda: serving.uncached_app({home!r}), home={home!r})\n")
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=repo, env=env, start_new_session=True)
    return proc, f"http://127.0.0.1:{port}"


def _paths(kind: str, home: str, env: dict) -> list:
    if kind == "searches":
        return _search_paths()
    if kind == "rules":
        return _rule_paths(home, env)
    if kind == "mechanics":
        return _mechanic_paths(home, env)
    return _questions()


def _together(servers: dict, paths: list, duration: int, connections: int) -> dict:
    """One wrk run per server, all at once: {name: (req/s, p50, p99, server CPU ms a request)}."""
    out = {}

    def drive(name, proc, base):
        before = server_cpu(proc)
        got = run_wrk(base + "/", duration, connections, 1, paths=paths)
        out[name] = (got["rps"], got["p50_ms"], got["p99_ms"],
                     (server_cpu(proc) - before) / max(1, got["requests"]) * 1000,
                     got["non_2xx"] + got["socket_errors"])
    threads = [threading.Thread(target=drive, args=(name, *server)) for name, server in servers.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="a git revision of this repository, or a folder with the code")
    parser.add_argument("--kind", choices=("searches", "rules", "mechanics", "questions"), default="searches")
    parser.add_argument("-d", "--duration", type=int, default=8)
    parser.add_argument("-c", "--connections", type=int, default=32, help="per server")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--home", help="the KB home with the snapshot (default: kb.config.home_dir())")
    args = parser.parse_args(argv)
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed")
    from kb import config as settings

    home = args.home or str(settings.home_dir())
    env = dict(os.environ)
    worktree = None
    base = Path(args.base)
    if not base.is_dir():
        worktree = Path(tempfile.mkdtemp(prefix="mtg-kb-side-by-side-")) / "base"
        made = subprocess.run(["git", "worktree", "add", "--detach", str(worktree), args.base], cwd=REPO,
                              capture_output=True, text=True)
        if made.returncode:
            shutil.rmtree(worktree.parent, ignore_errors=True)
            raise SystemExit(f"bench_side_by_side: cannot check out {args.base!r}: {made.stderr.strip()}")
        base = worktree
    servers = {}
    try:
        servers = {"base": _start(base.resolve(), home, env), "this": _start(REPO, home, env)}
        for proc, url in servers.values():
            wait(url + "/api/editions", proc)
        paths = _paths(args.kind, home, env)
        _together(servers, paths, 5, 8)  # warm both: first visits, page faults
        print(f"{args.kind} (random of {len(paths)}), one worker each, {args.connections} connections each, "
              f"{args.duration} s runs at once; base = {args.base}")
        print(f"{'run':>4} | {'base req/s':>10}{'p50':>7}{'p99':>7}{'cpu':>6} | {'this req/s':>10}{'p50':>7}{'p99':>7}"
              f"{'cpu':>6} | this/base cpu (ms; cpu: server CPU ms a request)")
        ratios, errors = [], 0
        for run in range(1, args.repeat + 1):
            got = _together(servers, paths, args.duration, args.connections)
            (b_rps, b50, b99, b_cpu, b_err), (t_rps, t50, t99, t_cpu, t_err) = got["base"], got["this"]
            errors += b_err + t_err
            ratios.append(t_cpu / b_cpu)
            print(f"{run:>4} | {b_rps:>10.0f}{b50:>7.1f}{b99:>7.1f}{b_cpu:>6.2f} | {t_rps:>10.0f}{t50:>7.1f}{t99:>7.1f}"
                  f"{t_cpu:>6.2f} | {ratios[-1]:.3f}")
        ratios.sort()
        print(f"median this/base CPU a request: {ratios[len(ratios) // 2]:.3f} (range {ratios[0]:.3f}-{ratios[-1]:.3f});"
              f" errors {errors}")
        return 0 if errors == 0 else 1
    finally:
        for proc, _ in servers.values():
            stop(proc)
        if worktree is not None:
            subprocess.run(["git", "worktree", "remove", "--force", str(worktree)], cwd=REPO, capture_output=True)
            shutil.rmtree(worktree.parent, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
