"""Small statistics for tournaments: means with t-based confidence intervals.

>>> m = mean_ci([1.0, 2.0, 3.0])
>>> (m.mean, round(m.half_width, 3))
(2.0, 2.484)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

_T975: dict[int, float] = {
    1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
    9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131,
    16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093, 20: 2.086, 25: 2.060, 30: 2.042,
}


def t_quantile_975(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom.

    Exact to 3 decimals from a table up to 20 (and at 25, 30), then the
    Cornish-Fisher expansion around the normal quantile.

    Raises:
        ValueError: ``df`` < 1.
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {df}")
    if df in _T975:
        return _T975[df]
    if df < 30:
        lo = max(k for k in _T975 if k < df)
        hi = min(k for k in _T975 if k > df)
        return _T975[lo] + (_T975[hi] - _T975[lo]) * (df - lo) / (hi - lo)
    z = 1.959964
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


@dataclass(frozen=True)
class MeanCI:
    """A sample mean with its 95% confidence interval."""

    mean: float
    half_width: float
    n: int
    sd: float

    @property
    def low(self) -> float:
        """Lower end of the interval."""
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        """Upper end of the interval."""
        return self.mean + self.half_width

    def to_dict(self) -> dict[str, float | int | list[float]]:
        """JSON-ready form: mean, ci95 [low, high], half_width, n, sd."""
        return {"mean": self.mean, "ci95": [self.low, self.high],
                "half_width": self.half_width, "n": self.n, "sd": self.sd}


def mean_ci(values: Sequence[float]) -> MeanCI:
    """Mean and 95% t-interval of independent samples (half-width inf for one sample).

    Raises:
        ValueError: ``values`` is empty.
    """
    k = len(values)
    if k == 0:
        raise ValueError("mean_ci: no values")
    mean = math.fsum(values) / k
    if k == 1:
        return MeanCI(mean, math.inf, 1, 0.0)
    var = math.fsum((v - mean) ** 2 for v in values) / (k - 1)
    sd = math.sqrt(var)
    return MeanCI(mean, t_quantile_975(k - 1) * sd / math.sqrt(k), k, sd)


def pool(parts: Sequence[MeanCI]) -> MeanCI:
    """The mean and 95% t-interval of the union of the samples summarised by ``parts``.

    Exact: the pooled sum and sum of squares follow from each part's count,
    mean and standard deviation (so runs made in chunks can be combined).

    Raises:
        ValueError: ``parts`` is empty.
    """
    if not parts:
        raise ValueError("pool: no parts")
    k = sum(p.n for p in parts)
    mean = math.fsum(p.n * p.mean for p in parts) / k
    if k == 1:
        return MeanCI(mean, math.inf, 1, 0.0)
    ss = math.fsum((p.n - 1) * p.sd**2 + p.n * (p.mean - mean) ** 2 for p in parts)
    sd = math.sqrt(ss / (k - 1))
    return MeanCI(mean, t_quantile_975(k - 1) * sd / math.sqrt(k), k, sd)
