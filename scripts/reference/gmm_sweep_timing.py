"""Times the RAPTOR reference's BIC sweep with scikit-learn, for bench/gmm.bench.ts.

Usage: python gmm_sweep_timing.py POINTS.json
POINTS.json holds a JSON array of points (arrays of numbers). Prints one JSON object on stdout:
{"seconds": wall time of the sweep, "k": chosen k, "bics": [BIC for k = 1, 2, …], "sklearn": version}.

The sweep is parthsarthi03/raptor raptor/cluster_utils.py get_optimal_clusters, written out (same loop, same
estimator and random_state, same argmin); only the sweep is timed, not reading the file or importing.
Exits with status 3 and a message on stderr when scikit-learn is not installed.
"""

from __future__ import annotations

import json
import sys
import time

REFERENCE_RANDOM_STATE = 224  # cluster_utils.RANDOM_SEED
REFERENCE_MAX_CLUSTERS = 50
EXIT_NO_SKLEARN = 3


def main() -> None:
    try:
        import numpy as np
        import sklearn
        from sklearn.mixture import GaussianMixture
    except ImportError as error:
        print(f"scikit-learn unavailable: {error}", file=sys.stderr)
        sys.exit(EXIT_NO_SKLEARN)

    with open(sys.argv[1], encoding="utf-8") as f:
        embeddings = np.array(json.load(f), dtype=np.float64)

    start = time.perf_counter()
    max_clusters = min(REFERENCE_MAX_CLUSTERS, len(embeddings))
    n_clusters = np.arange(1, max_clusters)
    bics = []
    for n in n_clusters:
        gm = GaussianMixture(n_components=n, random_state=REFERENCE_RANDOM_STATE)
        gm.fit(embeddings)
        bics.append(gm.bic(embeddings))
    optimal_clusters = n_clusters[np.argmin(bics)]
    seconds = time.perf_counter() - start

    print(json.dumps({
        "seconds": seconds,
        "k": int(optimal_clusters),
        "bics": [float(b) for b in bics],
        "sklearn": sklearn.__version__,
    }))


if __name__ == "__main__":
    main()
