"""A benchmark's baseline from a git revision's own code: the revision's files are extracted to a
temporary directory (the working tree is not touched) and the command runs there with that
directory first on PYTHONPATH, so both figures of a run come from one machine state."""
from __future__ import annotations

import io
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_at(rev: str, args: list[str], paths: tuple[str, ...] = ("kb",), capture: bool = True,
           ) -> subprocess.CompletedProcess | None:
    """``python *args`` with revision ``rev``'s ``paths`` (all files when empty); ``{rev_root}`` in
    an argument is the extracted tree. None, with the reason printed, when git can't give it."""
    try:
        blob = subprocess.run(["git", "archive", "--format=tar", rev, *paths], cwd=ROOT, capture_output=True,
                              check=True).stdout
    except (subprocess.CalledProcessError, FileNotFoundError) as exc:
        print(f"baseline {rev}: cannot read it from git ({exc})")
        return None
    with tempfile.TemporaryDirectory(prefix="bench-baseline-") as tmp:
        with tarfile.open(fileobj=io.BytesIO(blob)) as tar:
            tar.extractall(tmp, filter="data")
        argv = [sys.executable, *(a.replace("{rev_root}", tmp) for a in args)]
        return subprocess.run(argv, cwd=tmp, env=dict(os.environ, PYTHONPATH=tmp), capture_output=capture,
                              text=True, check=False)
