"""The kernels release the GIL: a Python thread keeps running while one
works on a large array."""

import threading
import time

import pyarrow as pa
import pytest

import uriscan


@pytest.fixture(scope="module")
def big():
    # About a million URLs: a kernel takes tens of milliseconds or more.
    return pa.array(["http://www.example.com/some/path/page.html?q=1&utm_source=x"] * 1_000_000)


@pytest.mark.parametrize("name", ["check", "split", "surt"])
def test_a_thread_runs_while_the_kernel_runs(big, name):
    f = getattr(uriscan, name)
    ticks = []
    stop = threading.Event()

    def spin():
        # A timestamp every 1000 iterations: the thread's progress.
        n = 0
        while not stop.is_set():
            n += 1
            if n % 1000 == 0:
                ticks.append(time.perf_counter())

    spinner = threading.Thread(target=spin)
    spinner.start()
    time.sleep(0.02)
    start = time.perf_counter()
    f(big, threads=1)
    end = time.perf_counter()
    stop.set()
    spinner.join()
    # Ticks well inside the call: with the GIL held there are none, since
    # the spinner could not run from the call's first instruction to its
    # last.
    margin = (end - start) / 5
    inside = [t for t in ticks if start + margin < t < end - margin]
    assert end - start > 0.02, "too fast to tell"
    assert len(inside) >= 3, f"{len(inside)} ticks in {end - start:.3f} s of {name}"
