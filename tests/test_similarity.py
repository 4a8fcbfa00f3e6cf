"""`python -m grader similar`: pairs of submissions sharing code are flagged whatever the names, comments and
layout, the starter code never counts, the view marks the shared regions and escapes everything, bad input
is a clear error, and no grade or results file is touched."""

from html.parser import HTMLParser

import pytest

from grader.cli import main
from grader.exercise import load_exercise
from grader.instructor.outputs import similarity_file
from grader.instructor.similarity import boilerplate_of, document, similar_pairs

SOFTMAX = load_exercise("softmax")
ORIGINAL = '''import numpy as np


def softmax(x, axis=-1):
    """Row-wise softmax."""
    shifted = x - np.max(x, axis=axis, keepdims=True)  # stable
    exps = np.exp(shifted)
    total = np.sum(exps, axis=axis, keepdims=True)
    probabilities = exps / total
    return probabilities.astype(x.dtype)
'''
# The same code, renamed, recommented, relaid out, with Windows line ends and a byte-order mark.
DISGUISED = "\ufeff" + '''import numpy as np
# my own work!!
def softmax(scores, axis=-1):
    centred = scores - np.max(scores, axis=axis, keepdims=True)

    e = np.exp(centred)   # exponentiate
    s = np.sum(e, axis=axis, keepdims=True)
    p = e / s
    return p.astype(scores.dtype)
'''.replace("\n", "\r\n")
OWN_WAY = '''import numpy as np


def softmax(x, axis=-1):
    x = np.moveaxis(np.asarray(x, dtype=float), axis, -1)
    out = np.empty_like(x)
    for index in np.ndindex(x.shape[:-1]):
        row = x[index]
        weights = [np.exp(value - row.max()) for value in row]
        out[index] = np.array(weights) / sum(weights)
    return np.moveaxis(out, -1, axis)
'''


def starter_plus(body):
    """The starter code, left as it is, with `body` in place of its `raise NotImplementedError`."""
    return SOFTMAX.starter.replace("    raise NotImplementedError\n", body)


def test_renamed_recommented_code_is_found_whole_and_marked_in_each_file():
    boilerplate = boilerplate_of(SOFTMAX.starter)
    original, disguised, own = (document(name, source, boilerplate) for name, source in
                                (("ada", ORIGINAL), ("bob", DISGUISED), ("eve", OWN_WAY)))
    pair, = similar_pairs([original, disguised, own])
    assert (pair.first.name, pair.second.name) == ("ada", "bob")
    assert pair.similarity == (1.0, 1.0)
    first, second = ("".join(doc.source[start:end] for start, end in regions)
                     for doc, regions in zip((original, disguised), pair.regions))
    # From the starter's signature (a run across it and the learner's code is the learner's) to the end
    assert first.startswith("def softmax(x, axis=-1):") and first.endswith("probabilities.astype(x.dtype)")
    assert second.startswith("def softmax(scores, axis=-1):") and second.endswith("return p.astype(scores.dtype)")
    assert "import" not in first + second  # the starter's
    assert "my own work" not in second and "exponentiate" not in second and "Row-wise" not in first  # not compared
    assert pair.lines == ([(4, 10)], [(3, 9)])  # runs of tokens next to each other, across a docstring
    assert similar_pairs([original, own], threshold=0.2) == []  # another way to the same result is not flagged


def test_the_starter_code_never_counts():
    """Two learners who kept the starter's docstring and imports, each with code of their own, are not a pair;
    without the starter as boilerplate they would be."""
    one = starter_plus("    return np.exp(x) / np.exp(x).sum(axis=axis, keepdims=True)\n")
    two = starter_plus("    m = x.max(axis)\n    e = np.exp(x - np.expand_dims(m, axis))\n"
                       "    return e / np.expand_dims(e.sum(axis), axis)\n")
    starter = boilerplate_of(SOFTMAX.starter)
    assert similar_pairs([document("a", one, starter), document("b", two, starter)], threshold=0.01) == []
    assert similar_pairs([document("a", one), document("b", two)], threshold=0.05)
    untouched = [document(name, SOFTMAX.starter, starter) for name in "abc"]
    assert all(doc.fingerprints == set() for doc in untouched)
    assert similar_pairs(untouched, threshold=0.01) == []


def test_code_that_does_not_parse_is_compared_up_to_the_error():
    broken = ORIGINAL + 'print("unterminated\n    (\n'
    pair, = similar_pairs([document("a", ORIGINAL), document("b", broken)])
    assert pair.similarity[0] == 1.0


class _Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.text, self.marked, self.in_mark = [], [], [], False

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.in_mark = self.in_mark or tag == "mark"

    def handle_endtag(self, tag):
        self.in_mark = self.in_mark and tag != "mark"

    def handle_data(self, data):
        self.text.append(data)
        if self.in_mark:
            self.marked.append(data)


@pytest.fixture(scope="module")
def class_folder(tmp_path_factory):
    """Per-student folders for softmax and layer_norm: two copies of softmax (one hostile name and code), one
    student of their own, one with only the starter, one without a softmax file."""
    folder = tmp_path_factory.mktemp("similar") / "class"
    hostile = '<b onclick="alert(1)">&amp;\x1b[2J'
    files = {"ada": ORIGINAL, hostile: ORIGINAL.replace("# stable", "# </code><script>bad()</script>"),
             "eve": OWN_WAY, "sam": SOFTMAX.starter}
    for student, source in files.items():
        (folder / student).mkdir(parents=True)
        (folder / student / "softmax.py").write_text(source)
    (folder / "ned").mkdir()
    layer_norm = load_exercise("layer_norm").path / "solution.py"
    for student in ("ada", "eve"):
        (folder / student / "layer_norm.py").write_bytes(layer_norm.read_bytes())
    return folder, hostile


def test_similar_writes_the_pairs_of_each_exercise_and_changes_nothing(class_folder, tmp_path, capsys):
    folder, hostile = class_folder
    before = sorted(folder.rglob("*"))
    code = main(["similar", str(folder), "--exercise", "softmax", "--exercise", "layer_norm",
                 "--reports", str(tmp_path / "out")])
    out = capsys.readouterr().out
    assert code == 0
    assert "softmax: 4 submission(s) compared, 1 pair(s) at or above 50%" in out
    assert "layer_norm: 2 submission(s) compared, 1 pair(s)" in out
    assert "\x1b" not in out and "\\x1b[2J" in out
    assert sorted(folder.rglob("*")) == before and not list(tmp_path.glob("*.jsonl"))  # nothing graded
    data = similarity_file.read(tmp_path / "out" / "similarity.json")
    softmax, = data["exercises"]["softmax"]["pairs"]
    assert {softmax["first"], softmax["second"]} == {"ada", hostile.replace("\x1b", "\\x1b")}
    assert softmax["similarity"] == [1.0, 1.0] and softmax["lines"][0] == [[4, 10]]
    page = (tmp_path / "out" / "similarity.html").read_text()
    parser = _Page()
    parser.feed(page)
    assert "script" not in parser.tags and "b" not in parser.tags and "\x1b" not in page
    text = "".join(parser.text)
    assert hostile.replace("\x1b", "\\x1b") in text and "<script>bad()</script>" in text  # shown as text
    assert any("np.exp(shifted)" in marked for marked in parser.marked)
    assert not any("bad()" in marked for marked in parser.marked)  # a comment is not compared, nor marked
    assert "@media (prefers-color-scheme: dark)" in page


def test_flat_files_of_one_exercise_are_compared(tmp_path, capsys):
    (tmp_path / "ada.py").write_text(ORIGINAL)
    (tmp_path / "bob.py").write_text(DISGUISED, newline="")
    (tmp_path / "notes.txt").write_text("hi")
    assert main(["similar", "softmax", str(tmp_path), "--reports", str(tmp_path / "out"),
                 "--threshold", "0.9"]) == 0
    out = capsys.readouterr().out
    assert "100%  ada.py and bob.py" in out and "notes.txt: not a Python file" in out
    assert "\r" not in (tmp_path / "out" / "similarity.html").read_text()


def test_an_lms_export_is_read_as_batch_reads_it(tmp_path, capsys):
    """A Canvas download (flat files name_userid_submissionid_file): the students are named as in the results."""
    (tmp_path / "lovelaceada_10000_555_softmax.py").write_text(ORIGINAL)
    (tmp_path / "hoppergrace_LATE_10001_556_softmax.py").write_text(DISGUISED, newline="")
    (tmp_path / "turingalan_10002_557_softmax.py").write_text(OWN_WAY)
    assert main(["similar", "softmax", str(tmp_path), "--reports", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "Layout: Canvas export" in out and "3 submission(s) compared, 1 pair(s)" in out
    assert "100%  hoppergrace_10001 and lovelaceada_10000" in out


@pytest.mark.parametrize("args, expected", [
    (["softmax", "EMPTY"], "EMPTY: nothing to compare: 1 softmax file(s)"),
    (["no_such_step", "EMPTY"], "no_such_step: no such exercise"),
    (["softmax", "EMPTY", "--threshold", "2"], "should be a share above 0 and at most 1"),
])
def test_bad_input_is_a_clear_error(tmp_path, capsys, args, expected):
    (tmp_path / "one.py").write_text(ORIGINAL)
    try:
        code = main(["similar", *(str(tmp_path) if arg == "EMPTY" else arg for arg in args)])
    except SystemExit as exit:  # argparse's refusal of an option
        code = exit.code
    assert code == 2
    assert expected.replace("EMPTY", str(tmp_path)) in capsys.readouterr().err
    assert not (tmp_path / "similarity").exists()


@pytest.mark.parametrize("content, expected", [
    ("{", "not JSON"),
    ('{"threshold": 0.5}', "exercises: missing"),
    ('{"threshold": 5, "exercises": {}}', "threshold: not a number from 0 to 1"),
    ('{"threshold": 0.5, "exercises": {"softmax": {"compared": 2, "pairs": [{"first": "a"}]}}}',
     "exercises.softmax.pairs[0]: not a pair"),
])
def test_a_bad_similarity_file_is_refused_naming_the_field(tmp_path, content, expected):
    path = tmp_path / "similarity.json"
    path.write_text(content)
    with pytest.raises(similarity_file.SimilarityFileError, match=r"similarity\.json: .*") as error:
        similarity_file.read(path)
    assert expected in str(error.value)
