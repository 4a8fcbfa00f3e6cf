"""Outside problems ported as a new author would: `grader new --from PROBLEM.md`, then each TODO(author) written,
with testkit's comparisons up to a symmetry; each validates unchanged."""

import re

import pytest

from grader.authoring.scaffold import create_exercise
from grader.authoring.validate import validate_exercise

PCA_PROBLEM = r"""# Principal directions

## Problem

Write `pca(x, k)` that returns the first `k` principal directions of the data `x`: the unit vectors along which the
centred data varies most, largest variance first.

## Input

- `x` (`numpy.ndarray`): a float array of shape `(N, D)`, one point per row.
- `k` (`int`): how many directions, $1 \le k \le D$.

## Output

A `numpy.ndarray` of shape `(D, k)` whose column $j$ is the $j$-th direction. A direction and its opposite are the
same direction: either sign is accepted, column by column.

## Examples

```python
x = np.array([[2.0, 0.0], [-2.0, 0.0], [0.0, 0.5], [0.0, -0.5]])
np.abs(pca(x, 1)).round(6)
# -> [[1.]
#     [0.]]
```
"""

PCA_SOLUTION = '''\
import numpy as np


def pca(x, k):
    """The first k principal directions of x (N, D), as the columns of a (D, k) array."""
    centred = x - x.mean(axis=0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    return vt[:k].T
'''

PCA_TESTS = '''\
"""Hidden tests for pca(x, k).

Expected directions come from the eigenvectors of the covariance matrix (np.linalg.eigh), not from the SVD the
reference uses; directions are compared up to the sign of each column.
"""

import numpy as np

from grader.core.testkit import call, compare_up_to_sign


def _expected(x, k):
    centred = x - x.mean(axis=0)
    values, vectors = np.linalg.eigh(centred.T @ centred)
    return vectors[:, np.argsort(values)[::-1][:k]]


def _mistakes(x, k):
    values, vectors = np.linalg.eigh(x.T @ x)
    centred = x - x.mean(axis=0)
    low_values, low_vectors = np.linalg.eigh(centred.T @ centred)
    return [(vectors[:, np.argsort(values)[::-1][:k]], "the directions of x itself: centre x (subtract each "
                                                       "column's mean) first"),
            (low_vectors[:, np.argsort(low_values)[:k]], "the directions of least variance: sort them largest "
                                                         "variance first")]


def _check(pca, x, k):
    got, precision, what = call(pca, x, k, shape=(x.shape[1], k), what=f"pca(x, {k}) for x of shape {x.shape}")
    compare_up_to_sign(got, _expected(x, k), atol=1e-6, what=what, mistakes=lambda: _mistakes(x, k))


def _data(seed, n, scales, shift):
    rng = np.random.default_rng(seed)
    rotation, _ = np.linalg.qr(rng.normal(size=(len(scales), len(scales))))
    return rng.normal(size=(n, len(scales))) * scales @ rotation.T + shift


def test_two_directions(pca):
    """The two main directions of data spread along rotated axes"""
    _check(pca, _data(0, 40, np.array([5.0, 2.0, 0.5]), 0.0), 2)


def test_off_centre(pca):
    """Data far from the origin is centred first"""
    _check(pca, _data(1, 30, np.array([3.0, 1.0, 0.2]), 10.0), 1)


def test_every_direction(pca):
    """k = D gives every direction, largest variance first"""
    _check(pca, _data(2, 25, np.array([4.0, 2.0, 1.0, 0.5]), 1.0), 4)
'''

PCA_MUTANTS = {
    "not_centred.py": '''\
# Forgets to centre the data.
# expect: centre x (subtract each column's mean) first
import numpy as np


def pca(x, k):
    _, _, vt = np.linalg.svd(x, full_matrices=False)
    return vt[:k].T
''',
    "least_variance_first.py": '''\
# Takes the directions of least variance.
# expect: sort them largest variance first
import numpy as np


def pca(x, k):
    centred = x - x.mean(axis=0)
    values, vectors = np.linalg.eigh(centred.T @ centred)
    return vectors[:, :k]
''',
}

PCA_ACCEPTED = '''\
# Eigenvectors of the covariance matrix, each with whatever sign eigh gives, negated besides: either sign is right.
import numpy as np


def pca(x, k):
    centred = x - x.mean(axis=0)
    values, vectors = np.linalg.eigh(np.cov(centred, rowvar=False))
    return -vectors[:, np.argsort(values)[::-1][:k]]
'''


def write_placeholders(folder, summary, hints):
    """What an author writes where `grader new` left TODO(author) in exercise.toml."""
    toml = (folder / "exercise.toml").read_text()
    toml = re.sub(r'^summary = .*$', f'summary = "{summary}"', toml, flags=re.MULTILINE)
    toml = re.sub(r"^hints = \[\n(.*\n)*?\]", "hints = [\n" + "".join(f"  '{hint}',\n" for hint in hints) + "]",
                  toml, flags=re.MULTILINE)
    (folder / "exercise.toml").write_text(toml)


@pytest.fixture(scope="module")
def pca_folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("ported") / "exercises"
    folder = create_exercise("pca", root, statement=(PCA_PROBLEM, "PROBLEM.md"), draft=False)
    return folder


def test_the_statement_gives_the_title_the_entry_and_skeletons_to_fill(pca_folder):
    toml = (pca_folder / "exercise.toml").read_text()
    assert 'title = "Principal directions"' in toml and 'entry = "pca"' in toml
    assert (pca_folder / "statement.md").read_text().startswith("## Problem\n")
    assert "def pca(x, k):" in (pca_folder / "starter.py").read_text()
    result = validate_exercise(pca_folder)
    placeholders = [problem for problem in result.problems if "still a placeholder of `grader new`" in problem]
    assert f"{pca_folder}/exercise.toml:6: still a placeholder of `grader new`, to write: summary = " \
           f"\"TODO(author): one line saying what the learner writes, in plain words.\"" in placeholders
    assert any(problem.startswith(f"{pca_folder}/solution.py:5: still a placeholder") for problem in placeholders)


def test_a_ported_pca_validates_with_directions_compared_up_to_sign(pca_folder):
    write_placeholders(pca_folder, "Find the directions along which the data varies most.",
                       ["Centre the data first: subtract the mean of each column.",
                        "The right singular vectors of the centred data, `np.linalg.svd`, are the directions."])
    (pca_folder / "solution.py").write_text(PCA_SOLUTION)
    (pca_folder / "starter.py").write_text('import numpy as np\n\n\ndef pca(x, k):\n    """The first k principal '
                                           'directions of x (N, D), as columns."""\n    raise NotImplementedError\n')
    (pca_folder / "tests.py").write_text(PCA_TESTS)
    (pca_folder / "mutants" / "first_mistake.py").unlink()
    for name, source in PCA_MUTANTS.items():
        (pca_folder / "mutants" / name).write_text(source)
    (pca_folder / "accepted").mkdir()
    (pca_folder / "accepted" / "covariance_eigh.py").write_text(PCA_ACCEPTED)
    result = validate_exercise(pca_folder)
    assert result.ok, result.problems
    report = "\n".join(result.lines)
    assert "mutants: 2/2 caught" in report and "accepted variants: 1/1 pass every test" in report
    assert "statement.md: 1 example output(s) checked against the reference" in report


KMEANS_PROBLEM = r"""# Two-step k-means

## Problem

Write `kmeans(x, k)` that runs Lloyd's algorithm on the points `x`, starting from the first `k` points as
centroids: assign each point to its nearest centroid, move each centroid to the mean of its points, and repeat
until the assignment no longer changes. Return `(centroids, labels)`.

## Output

`centroids` of shape `(k, D)` and `labels`, a list of `N` ints: the cluster of each point. Clusters may come in
any order and bear any numbers, as long as the same points are grouped together.

## Examples

```python
x = np.array([[0.0, 0.0], [0.0, 1.0], [9.0, 9.0], [9.0, 8.0]])
sorted(np.bincount(kmeans(x, 2)[1]).tolist())
# -> [2, 2]
```
"""

KMEANS_SOLUTION = '''\
import numpy as np


def kmeans(x, k):
    """Lloyd's algorithm from the first k points: (centroids (k, D), labels as a list of ints)."""
    centroids = x[:k].copy()
    labels = None
    while True:
        distances = ((x[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
        new = distances.argmin(axis=1)
        if labels is not None and (new == labels).all():
            return centroids, [int(label) for label in labels]
        labels = new
        centroids = np.array([x[labels == j].mean(axis=0) for j in range(k)])
'''

KMEANS_TESTS = '''\
"""Hidden tests for kmeans(x, k): clusters compared up to their order and their numbers.

Expected clusters come from a plain-Python Lloyd's algorithm on small, well separated blobs.
"""

import numpy as np

from grader.core.checks import precision_of
from grader.core.testkit import as_int_list, checked_array, compare_up_to_order, expect_same_partition, items


def _lloyd(points, k):
    centroids = [list(point) for point in points[:k]]
    labels = None
    while True:
        new = [min(range(k), key=lambda j: sum((a - b) ** 2 for a, b in zip(point, centroids[j])))
               for point in points]
        if new == labels:
            return centroids, labels
        labels = new
        for j in range(k):
            members = [point for point, label in zip(points, labels) if label == j]
            centroids[j] = [sum(column) / len(members) for column in zip(*members)]


def _blobs(seed, centres, n):
    rng = np.random.default_rng(seed)
    points = np.concatenate([rng.normal(centre, 0.3, size=(n, len(centre))) for centre in centres])
    return points[rng.permutation(len(points))]


def _check(kmeans, x, k):
    what = f"kmeans(x, {k}) for x of shape {x.shape}"
    centroids, labels = items(kmeans(x, k), what, names=("centroids", "labels"))
    expected_centroids, expected_labels = _lloyd(x.tolist(), k)
    got = checked_array(centroids, precision_of(x), what=f"centroids of {what}", shape=(k, x.shape[1]))
    compare_up_to_order(got, expected_centroids, atol=1e-6, what=f"centroids of {what}")
    expect_same_partition(as_int_list(labels, f"labels of {what}"), expected_labels, what=f"labels of {what}")


def test_three_blobs(kmeans):
    """Three well separated blobs are found"""
    _check(kmeans, _blobs(0, [(0.0, 0.0), (5.0, 5.0), (0.0, 5.0)], 6), 3)


def test_four_blobs(kmeans):
    """Four blobs in three dimensions"""
    _check(kmeans, _blobs(1, [(0.0, 0.0, 0.0), (4.0, 0.0, 0.0), (0.0, 4.0, 0.0), (0.0, 0.0, 4.0)], 5), 4)
'''

KMEANS_MUTANTS = {
    "centroids_never_move.py": '''\
# Assigns the points once and returns the starting centroids.
# expect: centroids of kmeans
import numpy as np


def kmeans(x, k):
    centroids = x[:k].copy()
    labels = ((x[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2).argmin(axis=1)
    return centroids, [int(label) for label in labels]
''',
    "one_iteration.py": '''\
# Stops after one update of the centroids, before the assignment settles.
# expect: centroids of kmeans
import numpy as np


def kmeans(x, k):
    centroids = x[:k].copy()
    labels = ((x[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2).argmin(axis=1)
    centroids = np.array([x[labels == j].mean(axis=0) for j in range(k)])
    return centroids, [int(label) for label in labels]
''',
}

KMEANS_ACCEPTED = '''\
# Numbers the clusters from the last to the first, centroids in that order too.
import numpy as np


def kmeans(x, k):
    centroids = x[:k].copy()
    labels = None
    while True:
        new = ((x[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2).argmin(axis=1)
        if labels is not None and (new == labels).all():
            return centroids[::-1], [int(k - 1 - label) for label in labels]
        labels = new
        centroids = np.array([x[labels == j].mean(axis=0) for j in range(k)])
'''

KMEANS_STARTER = '''\
import numpy as np


def kmeans(x, k):
    """(centroids of shape (k, D), labels as a list of N ints): Lloyd's algorithm from the first k points."""
    raise NotImplementedError
'''


def test_a_ported_kmeans_validates_with_clusters_compared_up_to_renaming(tmp_path):
    folder = create_exercise("kmeans", tmp_path / "exercises", statement=(KMEANS_PROBLEM, "PROBLEM.md"), draft=False)
    write_placeholders(folder, "Group points around k centroids with Lloyd's algorithm.",
                       ["Assign, then move each centroid to the mean of its points; stop when nothing changes."])
    (folder / "solution.py").write_text(KMEANS_SOLUTION)
    (folder / "starter.py").write_text(KMEANS_STARTER)
    (folder / "tests.py").write_text(KMEANS_TESTS)
    (folder / "mutants" / "first_mistake.py").unlink()
    for name, source in KMEANS_MUTANTS.items():
        (folder / "mutants" / name).write_text(source)
    (folder / "accepted").mkdir()
    (folder / "accepted" / "numbered_backwards.py").write_text(KMEANS_ACCEPTED)
    result = validate_exercise(folder)
    assert result.ok, result.problems
    report = "\n".join(result.lines)
    assert "mutants: 2/2 caught" in report and "accepted variants: 1/1 pass every test" in report
