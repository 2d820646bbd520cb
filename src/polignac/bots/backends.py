"""Where batches of independent tasks run: in this process, on worker processes, or on Ray.

A :class:`Backend` has one method, ``map(fn, tasks)``, that yields
``fn(task)`` for every task in any order; callers sort the results (by a
task index they carry) before they aggregate, so a result never depends on
the order in which tasks finish.  Tournaments (:mod:`polignac.bots.tournament`)
and batches of record analyses (:mod:`polignac.bots.analysis`) use them.

:class:`RayBackend` needs the ``cluster`` extra (``pip install
polignac[cluster]``); Ray is imported only when a Ray backend is made.
"""

from __future__ import annotations

import concurrent.futures as cf
import importlib
import logging
import socket
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

T = TypeVar("T")
R = TypeVar("R")

BACKENDS = ("serial", "process", "ray")
"""The kinds :func:`make_backend` makes."""


class MissingExtraError(ImportError):
    """An optional dependency a backend needs is not installed (the message names the extra)."""


class Backend(Protocol):
    """Runs ``fn`` over ``tasks``; yields results in any order as they finish."""

    def map(self, fn: Callable[[T], R], tasks: Sequence[T]) -> Iterator[R]:
        """Yield ``fn(task)`` for every task (order not guaranteed)."""
        ...


class SerialBackend:
    """Runs the tasks one after the other in this process."""

    def map(self, fn: Callable[[T], R], tasks: Sequence[T]) -> Iterator[R]:
        """Yield ``fn(task)`` for every task, in order."""
        for task in tasks:
            yield fn(task)

    def close(self) -> None:
        """Nothing to release."""


class ProcessBackend:
    """Runs the tasks on ``jobs`` worker processes (``fn`` must be picklable)."""

    def __init__(self, jobs: int) -> None:
        """Raises: ValueError: ``jobs`` < 1."""
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, got {jobs}")
        self.jobs = jobs

    def map(self, fn: Callable[[T], R], tasks: Sequence[T]) -> Iterator[R]:
        """Yield ``fn(task)`` for every task, as workers finish them."""
        with cf.ProcessPoolExecutor(max_workers=self.jobs) as pool:
            futures = [pool.submit(fn, t) for t in tasks]
            for fut in cf.as_completed(futures):
                yield fut.result()

    def close(self) -> None:
        """Nothing to release (each ``map`` has its own pool)."""


def _call(preload: tuple[str, ...], fn: Callable[[T], R], task: T) -> R:
    """Run on a Ray worker: import ``preload`` (modules that register bots), then ``fn``."""
    for name in preload:
        importlib.import_module(name)
    return fn(task)


def probe(address: str, timeout: float = 5.0) -> None:
    """Check that something listens at a Ray ``address`` (``HOST:PORT`` or
    ``ray://HOST:PORT``; ``auto`` is left to Ray), since Ray itself retries a
    wrong address for minutes.

    Raises:
        ConnectionError: no port in the address, or nothing answers there in ``timeout`` s.
    """
    if address in ("auto", "local"):
        return
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not host or not port.isdigit():
        raise ConnectionError(f"{address!r} is not a Ray address: write HOST:PORT or auto")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        raise ConnectionError(f"no Ray cluster answers at {address}: "
                              f"{exc.strerror or exc}") from None


def import_ray() -> Any:
    """The ``ray`` module.

    Raises:
        MissingExtraError: Ray is not installed.
    """
    try:
        import ray
    except ImportError as exc:
        raise MissingExtraError(
            f"the ray backend needs Ray: pip install 'polignac[cluster]' ({exc})") from None
    return ray


class RayBackend:
    """Runs each task as a Ray task, on the cluster at ``address`` or on a local one.

    Ray is started on the first ``map`` unless this process is already
    connected (then that connection is used as it is, and left open);
    :meth:`close` shuts down a connection this backend started.  Without an
    ``address`` a new local cluster is started (``num_cpus`` CPUs, default:
    all of them); with one, this package's code is shipped to the cluster
    (a ``py_modules`` runtime environment) so that its workers run the same
    code as this process.  ``preload``: modules every worker imports before
    its task (e.g. ``polignac.research.ismcts``, which registers a bot).
    """

    def __init__(self, address: str | None = None, num_cpus: int | None = None,
                 preload: Sequence[str] = ()) -> None:
        """Check the arguments, import Ray and :func:`probe` the ``address``.

        Raises:
            MissingExtraError: Ray is not installed.
            ValueError: ``num_cpus`` < 1, or ``num_cpus`` with an ``address``
                (the cluster's own CPUs are used).
            ConnectionError: nothing answers at ``address``.
        """
        if num_cpus is not None and num_cpus < 1:
            raise ValueError(f"num_cpus must be at least 1, got {num_cpus}")
        if num_cpus is not None and address is not None:
            raise ValueError("the CPUs of a cluster at an address are the cluster's own: "
                             "give num_cpus (--jobs) only for a local cluster")
        self.ray = import_ray()
        if address is not None:
            probe(address)
        self.address = address
        self.num_cpus = num_cpus
        self.preload = tuple(preload)
        self._owns = False

    def start(self) -> None:
        """Connect to the cluster, or start the local one, unless already connected.

        Raises:
            ConnectionError: Ray cannot join the cluster at ``address``.
        """
        ray = self.ray
        if ray.is_initialized():
            return
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                  "logging_level": logging.WARNING}
        if self.address is None:
            kwargs.update(address="local", num_cpus=self.num_cpus)
        else:
            package = str(Path(__file__).resolve().parents[1])  # .../polignac
            kwargs.update(address=self.address, runtime_env={"py_modules": [package]})
        ray.init(**kwargs)
        self._owns = True

    def map(self, fn: Callable[[T], R], tasks: Sequence[T]) -> Iterator[R]:
        """Yield ``fn(task)`` for every task, as the cluster finishes them.

        Raises:
            ConnectionError: no Ray cluster answers at ``address``.
            Exception: what ``fn`` raised on a worker (Ray's error is an
                instance of the original exception's class too).
        """
        if not tasks:
            return
        self.start()
        ray = self.ray
        remote = ray.remote(_call)
        pending = [remote.remote(self.preload, fn, t) for t in tasks]
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                if pending:  # and whatever else is ready, without waiting
                    more, pending = ray.wait(pending, num_returns=len(pending), timeout=0)
                    done += more
                yield from ray.get(done)
        finally:
            for ref in pending:  # the caller stopped early, or a task failed
                ray.cancel(ref)

    def close(self) -> None:
        """Shut Ray down if :meth:`start` started it (else leave the connection open)."""
        if self._owns:
            self.ray.shutdown()
            self._owns = False


def close_backend(backend: Backend) -> None:
    """Call ``backend.close()`` when it has one (a Ray backend shuts its cluster down)."""
    close = getattr(backend, "close", None)
    if callable(close):
        close()


def make_backend(jobs: int | None = 1, kind: str = "process", address: str | None = None,
                 preload: Sequence[str] = ()) -> Backend:
    """A backend of ``kind`` (:data:`BACKENDS`).

    ``process``: serial for one job (the default), else a pool of ``jobs``
    processes.  ``ray``: the cluster at ``address``, or a new local one with
    ``jobs`` CPUs (default: all); ``preload`` as for :class:`RayBackend`.

    Raises:
        ValueError: unknown kind, ``jobs`` < 1, an address for another kind than
            ray, or ``jobs`` with a Ray address.
        MissingExtraError: ``ray`` without Ray installed.
        ConnectionError: nothing answers at ``address``.
    """
    if kind not in BACKENDS:
        raise ValueError(f"unknown backend {kind!r}: one of {', '.join(BACKENDS)}")
    if jobs is not None and jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if address is not None and kind != "ray":
        raise ValueError(f"an address is for the ray backend, not {kind}")
    if kind == "ray":
        return RayBackend(address, jobs, preload)
    if kind == "serial" or jobs is None or jobs == 1:
        return SerialBackend()
    return ProcessBackend(jobs)


__all__ = [
    "BACKENDS", "Backend", "MissingExtraError", "ProcessBackend", "RayBackend",
    "SerialBackend", "close_backend", "import_ray", "make_backend", "probe",
]
