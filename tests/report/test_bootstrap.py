import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmark.report.bootstrap import average, bootstrap_means, rng_for


def test_same_seed_same_interval_and_order_independent():
    values = np.random.default_rng(3).normal(size=(50, 2))
    a = bootstrap_means(values, 300, rng_for(0, "run", "LP", "whether_island")).estimates()
    b = bootstrap_means(values, 300, rng_for(0, "run", "LP", "whether_island")).estimates()
    c = bootstrap_means(values, 300, rng_for(1, "run", "LP", "whether_island")).estimates()
    assert a == b and a != c


def test_interval_brackets_the_mean_and_shrinks_with_n():
    rng = np.random.default_rng(0)
    small = bootstrap_means(rng.normal(1.0, 1.0, size=(30, 1)), 1000, rng_for(0, "a")).estimates()[0]
    large = bootstrap_means(rng.normal(1.0, 1.0, size=(3000, 1)), 1000, rng_for(0, "a")).estimates()[0]
    assert small.lo < small.value < small.hi
    assert large.hi - large.lo < (small.hi - small.lo) / 5
    assert large.lo < 1.0 < large.hi


def test_constant_column_has_zero_width_interval():
    est = bootstrap_means(np.full((20, 1), 100.0), 100, rng_for(0, "x")).estimates()[0]
    assert (est.value, est.lo, est.hi) == (100.0, 100.0, 100.0)


def test_average_of_groups_averages_points_and_replicates():
    a = bootstrap_means(np.zeros((10, 1)), 50, rng_for(0, "a"))
    b = bootstrap_means(np.full((10, 1), 100.0), 50, rng_for(0, "b"))
    est = average([a, b]).estimates()[0]
    assert (est.value, est.lo, est.hi) == (50.0, 50.0, 50.0)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=1, max_size=40), st.integers(0, 2**31))
def test_interval_lies_within_the_data(values, seed):
    arr = np.array(values)[:, None]
    est = bootstrap_means(arr, 100, rng_for(seed, "h")).estimates()[0]
    tol = 1e-9 * max(1.0, abs(arr).max())
    assert arr.min() - tol <= est.lo <= est.hi <= arr.max() + tol
