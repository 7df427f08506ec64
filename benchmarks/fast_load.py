"""The fast path's load of a JSONL run: wall and CPU seconds, resident memory, peak.

    python benchmarks/fast_load.py /tmp/ragwidgets-benchmark/run100000.jsonl [more.jsonl ...] [--readers arrow 1 2] [--repeat 3]

Each file and reader is loaded in a fresh process (so that one load's freed memory does not hide
the next one's) by ``rw.load_samples(path)``, the readers taking turns: ``arrow``, the default
(Arrow's JSON reader, ``ragwidgets._arrowload.read_jsonl``), or msgspec's path with
``ragwidgets._fastload.PARTS`` set to a part count (the Arrow reader switched off; 1: the
single-process path; 2: the file's lines split in two, the second half read by a worker
process). Printed per load: wall seconds, CPU seconds of this process and of its worker
(``RUSAGE_CHILDREN``), resident set growth from before the load to after it (what the loaded run
holds), this process's peak resident set (``VmHWM``) and the worker's peak (``ru_maxrss`` of the
children), and the load average before and after (the machine is shared). ``--repeat``: loads per setting, each in its own
process. Write a run with ``benchmarks/dataset_explorer.py --n N`` (``rw.datasets.synthetic_run``).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time


def status_mb(field: str) -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    raise KeyError(field)


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def one(path: str, reader: str) -> None:
    import ragwidgets as rw
    from ragwidgets import _arrowload, _fastload

    if reader != "arrow":
        _arrowload.read_jsonl = lambda path: None
        _fastload.PARTS = int(reader)
    before_load, base = load(), status_mb("VmRSS")
    wall, cpu = time.perf_counter(), time.process_time()
    loaded = rw.load_samples(path)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert loaded.flat is not None, "the fast path did not take this file"
    held = status_mb("VmRSS") - base
    print(f"{os.path.basename(path)} ({os.path.getsize(path) / 2**20:,.0f} MiB, {len(loaded.samples):,} samples), "
          f"{'Arrow' if reader == 'arrow' else f'msgspec, parts {reader}'}: {wall:.2f} s wall, CPU {cpu:.2f} s here + {children.ru_utime + children.ru_stime:.2f} s "
          f"worker; +{held:,.0f} MB resident after the load, peak {status_mb('VmHWM'):,.0f} MB here, "
          f"{children.ru_maxrss / 1024:,.0f} MB worker; load average {before_load} -> {load()}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--readers", nargs="+", default=["arrow", "1", "2"])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--one", help=argparse.SUPPRESS)  # a child process: one load
    args = parser.parse_args()
    if args.one:
        one(args.paths[0], args.one)
        return
    for path in args.paths:
        for _ in range(args.repeat):
            for reader in args.readers:
                subprocess.run([sys.executable, __file__, path, "--one", reader], check=True)


if __name__ == "__main__":
    main()
