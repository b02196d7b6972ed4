"""The Python environment of the model scripts, set up from what the machine offers, with no package index.

A script calls `ensure(REQUIREMENTS)` before importing its heavy modules. When they already import (Debian's
`python3-torch`, `python3-onnx`, … installed with apt, or any environment the user activated), nothing happens.
Otherwise a virtual environment is made in the repository's `.venv/` (gitignored) that sees the system's packages
(`--system-site-packages`), the missing packages are installed into it with `pip install --no-index` from the
wheel folder(s) the user names in the standard `PIP_FIND_LINKS` variable, and the script is re-run with that
environment's interpreter. Nothing is downloaded: there is no index to download from.

Standard library only (it runs before anything is installed).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import venv
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
VENV_DIR = REPO_ROOT / ".venv"
"""The repository's own environment (gitignored)."""

_REEXEC_FLAG = "AERIE_PYENV_REEXEC"
"""Set in the environment of the re-run, so a failed set-up cannot loop."""


def _missing(requirements: dict[str, str]) -> list[str]:
    """The pip names of the requirements whose module cannot be imported by this interpreter."""
    return [pip_name for module, pip_name in requirements.items() if importlib.util.find_spec(module) is None]


def _venv_python() -> Path:
    return VENV_DIR / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _explain(missing: list[str]) -> str:
    return (
        f"Missing Python packages: {', '.join(missing)}.\n"
        "Either install them system-wide (Debian: apt-get install python3-torch python3-onnx python3-numpy …),\n"
        "or point PIP_FIND_LINKS at a folder of wheels for this Python "
        f"({sys.version_info.major}.{sys.version_info.minor}) and run the script again: they are installed into "
        f"{VENV_DIR.relative_to(REPO_ROOT)}/ with pip --no-index."
    )


def ensure(requirements: dict[str, str]) -> None:
    """Makes every module of `requirements` (module name -> pip package name) importable, re-running the calling
    script under the repository's `.venv/` when that is where they are (or can be installed). Exits with a message
    saying what to install when they cannot be found."""
    missing = _missing(requirements)
    if not missing:
        return
    if os.environ.get(_REEXEC_FLAG) or Path(sys.prefix).resolve() == VENV_DIR.resolve():
        # Already in the repository's environment: install what is missing, or give up.
        _install(missing)
        missing = _missing(requirements)
        if missing:
            sys.exit(_explain(missing))
        return
    if not _venv_python().exists():
        print(f"Creating {VENV_DIR.relative_to(REPO_ROOT)}/ (sees the system's packages)…", file=sys.stderr)
        venv.EnvBuilder(system_site_packages=True, with_pip=True).create(VENV_DIR)
    env = {**os.environ, _REEXEC_FLAG: "1"}
    script = [str(_venv_python()), *sys.argv] if sys.argv and sys.argv[0] else [str(_venv_python())]
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(script[0], script, env)


def _install(missing: list[str]) -> None:
    if not os.environ.get("PIP_FIND_LINKS"):
        sys.exit(_explain(missing))
    print(f"Installing {', '.join(missing)} from PIP_FIND_LINKS (no index)…", file=sys.stderr)
    # pip reads PIP_FIND_LINKS itself; --no-index keeps it off every network index.
    run = subprocess.run([sys.executable, "-m", "pip", "install", "--no-index", "--quiet", *missing])
    if run.returncode != 0:
        sys.exit(_explain(missing))
