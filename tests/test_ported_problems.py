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
