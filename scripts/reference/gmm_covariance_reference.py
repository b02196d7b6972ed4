"""scikit-learn's Gaussian mixtures with constrained covariances, for tests/core/cluster/gmm-covariance.test.ts.

Writes tests/fixtures/gmm-covariance-reference.json. On the data sets of tests/fixtures/gmm-reference.json (read
from that file, so both fixtures fit the very same points), for covariance_type 'diag', 'spherical' and 'tied',
GaussianMixture(n_components=k, covariance_type=…, random_state=224) with its other defaults at k = 1 and at the
true k: total log-likelihood, BIC, the number of free parameters, iterations and labels. Our fitGmm with the same
covariance family must reach at least this likelihood and find the same partition at the true k.

Run: python3 scripts/reference/gmm_covariance_reference.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import sklearn
from sklearn.mixture import GaussianMixture

ROOT = Path(__file__).resolve().parents[2]
IN_PATH = ROOT / "tests" / "fixtures" / "gmm-reference.json"
OUT_PATH = ROOT / "tests" / "fixtures" / "gmm-covariance-reference.json"

RANDOM_STATE = 224
COVARIANCE_TYPES = ["diag", "spherical", "tied"]
# Stored to 10 digits: the last bits vary with BLAS threading; the tests compare at 1e-6.
RESULT_DIGITS = 10


def result(x: float) -> float:
    return float(f"{x:.{RESULT_DIGITS}g}")


def main() -> None:
    sets = json.loads(IN_PATH.read_text(encoding="utf-8"))["sets"]
    out = []
    for s in sets:
        points = np.array(s["points"], dtype=np.float64)
        n = len(points)
        fits = []
        for covariance in COVARIANCE_TYPES:
            for k in sorted({1, s["trueK"]}):
                gm = GaussianMixture(n_components=k, covariance_type=covariance, random_state=RANDOM_STATE)
                gm.fit(points)
                fits.append(
                    {
                        "covariance": covariance,
                        "k": k,
                        "logLikelihood": result(gm.score(points) * n),
                        "bic": result(gm.bic(points)),
                        "parameters": int(gm._n_parameters()),
                        "iterations": int(gm.n_iter_),
                        "labels": gm.predict(points).tolist(),
                    }
                )
        out.append({"name": s["name"], "trueK": s["trueK"], "fits": fits})
    data = {
        "generator": "scripts/reference/gmm_covariance_reference.py",
        "points": "tests/fixtures/gmm-reference.json (same sets, same order)",
        "sklearnVersion": sklearn.__version__,
        "numpyVersion": np.__version__,
        "randomState": RANDOM_STATE,
        "sets": out,
    }
    OUT_PATH.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT_PATH.relative_to(ROOT)} ({len(out)} sets)")


if __name__ == "__main__":
    main()
