"""The Python API agrees with the uriscan CLI on corpora/sample.txt, value
for value: check, split, normalize (every profile, with switches), surt,
resolve and extract."""

import json

import pyarrow as pa
import pytest

import uriscan

from conftest import SAMPLE


def records(output):
    return [json.loads(line) for line in output.decode().splitlines()]


@pytest.fixture(scope="module")
def sample(sample_lines):
    return pa.array(sample_lines)


def test_sample_has_invalid_lines(sample):
    # Else the comparisons below would not cover errors.
    assert 50 < uriscan.check(sample).false_count < len(sample) // 2


@pytest.mark.parametrize("mode", ["reference", "uri", "absolute"])
def test_check_and_split(cli, sample, mode):
    expected = records(cli("split", "--format", "json", "--mode", mode, str(SAMPLE)))
    assert len(expected) == len(sample)
    assert uriscan.check(sample, mode).to_pylist() == [r["valid"] for r in expected]
    got = uriscan.split(sample, mode).to_pylist()
    for row, want in zip(got, expected):
        error = want["error"] and f"{want['error']['message']} at byte {want['error']['offset']}"
        assert row == {
            "valid": want["valid"],
            "error": error,
            **{k: want[k] for k in uriscan.SPLIT_FIELDS[2:]},
        }, want["line"]


def test_check_errors_match_check(cli, sample):
    # `uriscan check` prints FILE:LINE:COL: message for each invalid line.
    out = cli("check", str(SAMPLE)).decode().splitlines()
    errors = {}
    for line in out:
        _, number, column, message = line.split(":", 3)
        errors[int(number) - 1] = f"{message.strip()} at byte {int(column) - 1}"
    split = uriscan.split(sample)
    got = {i: e for i, e in enumerate(split.field("error").to_pylist()) if e is not None}
    assert got == errors


@pytest.mark.parametrize(
    "args, kwargs",
    [
        ([], {}),
        (["--profile", "web"], {"profile": "web"}),
        (["--profile", "surt"], {"profile": "surt"}),
        (["--strip-fragment", "--strip-www"], {"strip_fragment": True, "strip_www": True}),
        (["--sort-query", "--drop-params", "utm_*,fbclid"], {"sort_query": True, "drop_params": ["utm_*", "fbclid"]}),
        (["--profile", "surt", "--drop-params", "utm_*"], {"profile": "surt", "drop_params": ["utm_*"]}),
        (["--mode", "absolute"], {"mode": "absolute"}),
    ],
)
def test_normalize(cli, sample, args, kwargs):
    expected = records(cli("normalize", "--format", "json", "--invalid", "pass", *args, str(SAMPLE)))
    assert len(expected) == len(sample)
    assert uriscan.normalize(sample, **kwargs).to_pylist() == [r["normalized"] for r in expected]


def test_surt_is_the_cli_key_of_every_line(cli, sample):
    expected = cli("normalize", "--profile", "surt", "--invalid", "key", str(SAMPLE)).decode().splitlines()
    assert len(expected) == len(sample)
    assert uriscan.surt(sample).to_pylist() == expected
    # One value at a time gives the same keys.
    assert [uriscan.surt(v) for v in sample.to_pylist()[:500]] == expected[:500]


def test_resolve(cli, sample):
    base = "http://a/b/c/d;p?q"
    expected = records(cli("resolve", "--base", base, "--format", "json", "--invalid", "pass", str(SAMPLE)))
    assert uriscan.resolve(base, sample).to_pylist() == [r["target"] for r in expected]


def test_extract(cli, sample):
    expected = [[] for _ in range(len(sample))]
    for r in records(cli("extract", "--format", "json", str(SAMPLE))):
        expected[r["line"] - 1].append(r["uri"])
    assert uriscan.extract(sample).to_pylist() == expected
