"""Checks that this Python has the packages a model or bench script needs, at the versions they need.

The packages, their minimum versions and why are listed once, in scripts/python-packages.txt; the environment
that has them all is made by `bash scripts/python-env.sh` (the repository's `.venv/`, over Debian's Python).

A script calls `ensure([...distribution names...])` before importing its heavy modules:
- when every package imports at its minimum version or later, nothing happens;
- otherwise, when the repository's `.venv/` exists and is not the running interpreter, the script is re-run with
  it (so `python3 scripts/models/make_x.py` works once the environment is made);
- otherwise the script stops with exit status 3 (EXIT_LACKS; `npm run bench` then tries its next interpreter)
  and a message naming each package that is missing or too old, and how to set the environment up.

`python3 scripts/models/pyenv.py --probe` prints, for every package of the list, one line
`<distribution> ok <version> <venv|system>` or `<distribution> missing <why>`: scripts/python-env.sh reads it.

Standard library only (it runs before anything is installed).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
PACKAGES_FILE = REPO_ROOT / "scripts" / "python-packages.txt"
VENV_DIR = REPO_ROOT / ".venv"
"""The repository's own environment (gitignored), made by scripts/python-env.sh."""

EXIT_LACKS = 3
"""Exit status of a script whose interpreter lacks a package (bench/support.ts EXIT_PYTHON_LACKS)."""

NOT_INSTALLED = "not installed"

_REEXEC_FLAG = "AERIE_PYENV_REEXEC"
"""Set in the environment of the re-run, so a re-run that still lacks something stops instead of looping."""

SETUP_HINT = (
    "Set up the repository's environment: bash scripts/python-env.sh (with --find-links DIR or --index-url URL "
    "to install what Debian lacks; see scripts/models/README.md)."
)


@dataclass(frozen=True)
class Package:
    """One line of scripts/python-packages.txt."""

    distribution: str
    module: str
    minimum: str
    pip: str
    debian: str


def packages(path: Path = PACKAGES_FILE) -> list[Package]:
    """Every package of the list, in its order."""
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        distribution, module, minimum, pip, debian = line.split(None, 5)[:5]
        found.append(Package(distribution, module, minimum, pip, debian))
    return found


def release(version: str) -> tuple[int, ...]:
    """The numeric release of a version ("2.13.0+cpu" -> (2, 13, 0); "1.0.0rc1" -> (1, 0, 0))."""
    match = re.match(r"\d+(\.\d+)*", version)
    return tuple(int(part) for part in match.group(0).split(".")) if match else ()


def at_least(version: str, minimum: str) -> bool:
    """Whether `version`'s release is `minimum`'s or later (missing trailing parts count as 0)."""
    a, b = release(version), release(minimum)
    width = max(len(a), len(b))
    return a + (0,) * (width - len(a)) >= b + (0,) * (width - len(b))


def _installed_version(package: Package) -> str | None:
    try:
        return importlib.metadata.version(package.distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def probe(package: Package) -> tuple[str | None, str | None]:
    """(version, None) when the package imports, else (installed version or None, why it does not)."""
    version = _installed_version(package)
    try:
        module = importlib.import_module(package.module)
    except ModuleNotFoundError as error:
        return version, NOT_INSTALLED if version is None else f"no module {error.name}"
    except Exception as error:  # noqa: BLE001 - a broken install raises more than ImportError
        return version, f"import {package.module} failed: {type(error).__name__}: {error}".replace("\n", " ")
    return version or getattr(module, "__version__", "0"), None


def problem(package: Package) -> str | None:
    """Why this interpreter does not meet the package's line, or None when it does."""
    version, failure = probe(package)
    if failure == NOT_INSTALLED:
        return f"{package.distribution} ≥ {package.minimum}"
    if failure:
        return f"{package.distribution} ≥ {package.minimum} ({version + ' installed, but ' if version else ''}{failure})"
    if not at_least(version, package.minimum):
        return f"{package.distribution} ≥ {package.minimum} (found {version})"
    return None


def _venv_python() -> Path:
    return VENV_DIR / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure(distributions: list[str]) -> None:
    """Makes sure every named package of scripts/python-packages.txt imports at its minimum version or later;
    re-runs the calling script under `.venv/` when that is where they are; else exits with EXIT_LACKS and what to
    install."""
    listed = {p.distribution: p for p in packages()}
    unknown = [d for d in distributions if d not in listed]
    if unknown:
        raise ValueError(f"not in {PACKAGES_FILE.name}: {', '.join(unknown)}")
    problems = [why for why in (problem(listed[d]) for d in distributions) if why]
    if not problems:
        return
    in_venv = Path(sys.prefix).resolve() == VENV_DIR.resolve()
    if not in_venv and not os.environ.get(_REEXEC_FLAG) and _venv_python().exists() and sys.argv and sys.argv[0]:
        sys.stdout.flush()
        sys.stderr.flush()
        script = [str(_venv_python()), *sys.argv]
        os.execve(script[0], script, {**os.environ, _REEXEC_FLAG: "1"})
    # The hint first, what is missing last: `npm run bench` quotes the last line (bench/support.ts).
    sys.stderr.write(
        f"{SETUP_HINT}\n"
        f"{sys.executable} (Python {sys.version_info.major}.{sys.version_info.minor}) lacks {', '.join(problems)}\n"
    )
    sys.exit(EXIT_LACKS)


def _print_probe() -> None:
    in_venv = sys.prefix != sys.base_prefix
    for package in packages():
        version, failure = probe(package)
        if failure:
            print(f"{package.distribution} missing {failure}")
            continue
        try:
            where = importlib.metadata.distribution(package.distribution).locate_file("")
        except importlib.metadata.PackageNotFoundError:
            where = Path(importlib.import_module(package.module).__file__ or "")
        inside = in_venv and Path(where).resolve().is_relative_to(Path(sys.prefix).resolve())
        print(f"{package.distribution} ok {version} {'venv' if inside else 'system'}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--probe"]:
        sys.exit("usage: python scripts/models/pyenv.py --probe")
    _print_probe()
