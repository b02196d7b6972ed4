"""Reference Gaussian mixture fits and BIC sweeps from scikit-learn, for tests/core/{gmm,select-k}.test.ts.

Writes tests/fixtures/gmm-reference.json. For each seeded data set (Gaussian blobs in 10-d with random
anisotropic covariances, well separated; coordinates rounded to 9 significant digits before anything is fitted,
so both sides see the same numbers):
- `fits`: scikit-learn GaussianMixture(n_components=k, random_state=224) with its defaults at the true k and at
  k = 1: total log-likelihood, BIC, weights, labels, iterations. Our fitGmm must reach at least this likelihood.
- `sweep`: the RAPTOR reference's choice of k (parthsarthi03/raptor, raptor/cluster_utils.py,
  get_optimal_clusters: GaussianMixture(n_components=n, random_state=224) for n = 1 … min(50, N) − 1, argmin of
  BIC), its BIC values and the effective size (weight × N) of its smallest component at the chosen k. On these
  sets the reference over-splits: components collapse onto one or two points, whose covariance is only reg_covar.

Run: python3 scripts/reference/gmm_reference.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import sklearn
from sklearn.mixture import GaussianMixture

ROOT = Path(__file__).resolve().parents[2]
OUT_PATH = ROOT / "tests" / "fixtures" / "gmm-reference.json"

REFERENCE_RANDOM_STATE = 224  # cluster_utils.RANDOM_SEED
REFERENCE_MAX_CLUSTERS = 50
DIM = 10
SIGNIFICANT_DIGITS = 9
# Results are stored to 10 digits: their last bits vary with BLAS threading (the 5 × 10 set's nearly singular
# covariances amplify rounding to ~1e-12 relative), and the tests compare at 1e-6.
RESULT_DIGITS = 10
# Cluster centres are drawn N(0, CENTER_SPREAD²) per coordinate; each cluster is z ↦ spread · z (I + MIX · G)
# with G standard normal, i.e. a random anisotropic covariance of roughly unit scale.
CENTER_SPREAD = 10.0
MIX = 0.3

# name, numpy seed, cluster sizes, per-cluster spreads (None: all 1)
DATA_SETS = [
    ("three-by-20", 11, [20, 20, 20], None),
    ("two-by-25", 12, [25, 25], None),
    ("four-by-15", 13, [15, 15, 15, 15], None),
    ("five-by-10", 14, [10, 10, 10, 10, 10], None),
    ("eight-varied-240", 15, [20, 25, 30, 35, 25, 40, 30, 35], [0.5, 1.0, 1.5, 2.0, 0.7, 1.2, 0.9, 1.6]),
]


def result(x: float) -> float:
    return float(f"{x:.{RESULT_DIGITS}g}")


def rounded(x: np.ndarray) -> np.ndarray:
    return np.vectorize(lambda v: float(f"{v:.{SIGNIFICANT_DIGITS}g}"))(x)


def blobs(seed: int, sizes: list[int], spreads: list[float] | None) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    points, labels = [], []
    for j, size in enumerate(sizes):
        center = rng.normal(0.0, CENTER_SPREAD, DIM)
        shape = np.eye(DIM) + MIX * rng.normal(0.0, 1.0, (DIM, DIM))
        spread = 1.0 if spreads is None else spreads[j]
        points.append(center + spread * rng.normal(0.0, 1.0, (size, DIM)) @ shape)
        labels += [j] * size
    return rounded(np.vstack(points)), np.array(labels)


def fit(points: np.ndarray, k: int) -> dict:
    gm = GaussianMixture(n_components=k, random_state=REFERENCE_RANDOM_STATE).fit(points)
    n = len(points)
    return {
        "k": k,
        "logLikelihood": result(gm.score(points) * n),
        "bic": result(gm.bic(points)),
        "parameterCount": int(gm._n_parameters()),
        "weights": [result(w) for w in gm.weights_],
        "labels": [int(v) for v in gm.predict(points)],
        "iterations": int(gm.n_iter_),
        "converged": bool(gm.converged_),
    }


def reference_sweep(points: np.ndarray) -> dict:
    """get_optimal_clusters, written out (same loop, same estimator, same argmin)."""
    max_clusters = min(REFERENCE_MAX_CLUSTERS, len(points))
    n_clusters = np.arange(1, max_clusters)
    bics, smallest = [], []
    for n in n_clusters:
        gm = GaussianMixture(n_components=n, random_state=REFERENCE_RANDOM_STATE).fit(points)
        bics.append(gm.bic(points))
        smallest.append(float(gm.weights_.min() * len(points)))
    best = int(np.argmin(bics))
    return {
        "k": int(n_clusters[best]),
        "bic": [result(b) for b in bics],
        "smallestComponentAtK": round(smallest[best], 3),
    }


def main() -> None:
    sets = []
    for name, seed, sizes, spreads in DATA_SETS:
        points, labels = blobs(seed, sizes, spreads)
        true_k = len(sizes)
        entry = {
            "name": name,
            "seed": seed,
            "trueK": true_k,
            "points": points.tolist(),
            "labels": labels.tolist(),
            "fits": [fit(points, 1), fit(points, true_k)],
            "sweep": reference_sweep(points),
        }
        sweep = entry["sweep"]
        print(f"{name}: N={len(points)} true k={true_k}, reference sweep k={sweep['k']} "
              f"(smallest component {sweep['smallestComponentAtK']} points)")
        sets.append(entry)
    out = {
        "generator": "scripts/reference/gmm_reference.py",
        "sklearnVersion": sklearn.__version__,
        "numpyVersion": np.__version__,
        "randomState": REFERENCE_RANDOM_STATE,
        "sets": sets,
    }
    OUT_PATH.write_text(json.dumps(out, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {OUT_PATH.relative_to(ROOT)} ({OUT_PATH.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
