"""Compares rules for choosing the number of mixture components (the table in docs/clustering.md).

Each rule runs the reference's sweep (k = 1 … min(50, N) − 1, a full-covariance GaussianMixture-style EM from a
KMeans(n_init=1, random_state=224) start, argmin of BIC) with one change:
- reference:  scikit-learn GaussianMixture itself (reg_covar = 1e-6, absolute), no rule.
- size>=d+1:  only fits whose components all hold ≥ d + 1 points (weights × N, rounded) compete.
- size>=d:    the same with ≥ d points (Aerie's rule).
- floor-1e-3, floor-1e-2: no size rule, but reg_covar = 1e-3 or 1e-2 × the mean per-dimension variance.
- prior:      Fraley & Raftery (2007) conjugate prior (mclust's defaults: shrinkage 0.01, dof d + 2, scale
              cov(data) / k^(2/d)), BIC from the log-likelihood at the MAP fit.
All but "reference" use reg_covar = 1e-6 × mean per-dimension variance where not stated otherwise.
Data: the fixture generator of gmm_reference.py (anisotropic blobs, centres N(0, 10²) per coordinate).

Run: python3 scripts/reference/gmm_select_rules.py   (a few minutes)
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp
from sklearn.cluster import KMeans
from sklearn.mixture import GaussianMixture

from gmm_reference import REFERENCE_RANDOM_STATE, blobs

TOL = 1e-3
MAX_ITER = 100
MASS_EPSILON = 10 * np.finfo(float).eps
PRIOR_SHRINKAGE = 0.01
SEEDS = [101, 102, 103, 104, 105]
CASES = [
    ("3 x 20", [20] * 3, None),
    ("2 x 25", [25] * 2, None),
    ("4 x 15", [15] * 4, None),
    ("5 x 10", [10] * 5, None),
    ("1 x 60", [60], None),
]
BIG_CASE = ("8 blobs, 990 points", [90, 110, 130, 150, 100, 140, 120, 150], [0.5, 1, 1.5, 2, 2.5, 0.8, 1.2, 1.8])
RULES = ["reference", "size>=d+1", "size>=d", "floor-1e-3", "floor-1e-2", "prior"]


def log_densities(x, weights, means, covs):
    n, d = x.shape
    out = np.empty((n, len(weights)))
    for j in range(len(weights)):
        chol = np.linalg.cholesky(covs[j])
        y = np.linalg.solve(chol, (x - means[j]).T)
        out[:, j] = np.log(weights[j]) - 0.5 * (d * np.log(2 * np.pi) + (y * y).sum(0)) - np.log(np.diag(chol)).sum()
    return out


def m_step(x, resp, reg, prior):
    n, d = x.shape
    nk = resp.sum(0) + MASS_EPSILON
    means = resp.T @ x / nk[:, None]
    covs = np.empty((len(nk), d, d))
    for j in range(len(nk)):
        diff = x - means[j]
        scatter = (resp[:, j] * diff.T) @ diff
        if prior is None:
            covs[j] = scatter / nk[j] + reg * np.eye(d)
        else:
            mean_p, shrink, dof, scale = prior
            dm = means[j] - mean_p
            covs[j] = (scale + scatter + shrink * nk[j] / (shrink + nk[j]) * np.outer(dm, dm)) / (dof + nk[j] + d + 2)
            means[j] = (nk[j] * means[j] + shrink * mean_p) / (nk[j] + shrink)
    return nk / nk.sum(), means, covs


def fit(x, k, relative_reg, use_prior):
    n, d = x.shape
    reg = relative_reg * x.var(0).mean()
    prior = (x.mean(0), PRIOR_SHRINKAGE, d + 2, np.cov(x.T) / k ** (2 / d)) if use_prior else None
    labels = KMeans(n_clusters=k, n_init=1, random_state=REFERENCE_RANDOM_STATE).fit(x).labels_
    resp = np.zeros((n, k))
    resp[np.arange(n), labels] = 1
    params = m_step(x, resp, reg, prior)
    bound = -np.inf
    for _ in range(MAX_ITER):
        logp = log_densities(x, *params)
        norm = logsumexp(logp, axis=1)
        previous, bound = bound, norm.mean()
        params = m_step(x, np.exp(logp - norm[:, None]), reg, prior)
        if abs(bound - previous) < TOL:
            break
    log_likelihood = logsumexp(log_densities(x, *params), axis=1).sum()
    p = k * d * (d + 1) / 2 + k * d + k - 1
    return -2 * log_likelihood + p * np.log(n), params[0] * n


def choose(x, rule):
    n, d = x.shape
    best, best_bic = 1, np.inf
    for k in range(1, min(50, n)):
        if rule == "reference":
            gm = GaussianMixture(n_components=k, random_state=REFERENCE_RANDOM_STATE).fit(x)
            bic, ok = gm.bic(x), True
        else:
            relative = {"floor-1e-3": 1e-3, "floor-1e-2": 1e-2}.get(rule, 1e-6)
            bic, sizes = fit(x, k, relative, rule == "prior")
            minimum = {"size>=d+1": d + 1, "size>=d": d}.get(rule, 0)
            ok = k == 1 or np.round(sizes).min() >= minimum
        if ok and bic < best_bic:
            best, best_bic = k, bic
    return best


def main() -> None:
    print("| rule | " + " | ".join(name for name, _, _ in CASES) + f" | {BIG_CASE[0]} |")
    for rule in RULES:
        cells = []
        for name, sizes, spreads in CASES:
            picks = [choose(blobs(seed, sizes, spreads)[0], rule) for seed in SEEDS]
            cells.append("✓" if all(p == len(sizes) for p in picks) else ", ".join(map(str, picks)))
        big = choose(blobs(SEEDS[0], BIG_CASE[1], BIG_CASE[2])[0], rule)
        cells.append("✓" if big == len(BIG_CASE[1]) else str(big))
        print(f"| {rule} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
