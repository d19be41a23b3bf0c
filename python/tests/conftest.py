"""Shared fixtures: the repository's paths and the uriscan CLI to compare with."""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "corpora" / "sample.txt"


@pytest.fixture(scope="session")
def cli():
    """Runs the uriscan CLI (URISCAN_BIN, else target/release/uriscan) on a
    file and returns its standard output."""
    binary = pathlib.Path(os.environ.get("URISCAN_BIN", ROOT / "target" / "release" / "uriscan"))
    if not binary.is_file():
        pytest.fail(f"no uriscan binary at {binary}: run `cargo build --release` or set URISCAN_BIN")

    def run(*args):
        done = subprocess.run([str(binary), *args], capture_output=True, check=False)
        # 0: all valid, 1: some invalid; 2 would be a usage or I/O error.
        assert done.returncode in (0, 1), done.stderr.decode()
        return done.stdout

    return run


@pytest.fixture(scope="session")
def sample_lines():
    """The lines of corpora/sample.txt as the CLI reads them (LF-separated,
    a CR before the LF dropped)."""
    data = SAMPLE.read_bytes()
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return [line.removesuffix(b"\r").decode() for line in lines]
