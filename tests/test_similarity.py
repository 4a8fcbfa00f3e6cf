"""`python -m grader similar`: pairs of submissions sharing code are flagged whatever the names, comments,
layout, line ends, semicolons and spellings of names Python reads as one, honest solutions written apart are
not, students with the same code are one group, the starter code never counts, the view marks the shared
regions and escapes everything, bad input is a clear error, and no grade or results file is touched."""

import itertools
from html.parser import HTMLParser
from pathlib import Path

import pytest

from grader.cli import main
from grader.exercise import load_exercise
from grader.instructor.outputs import similarity_file
from grader.instructor.similarity import boilerplate_of, document, similar_code, similar_pairs

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


# Copies of ORIGINAL dodged in ways Python ignores: each runs as ORIGINAL does.
DODGED = {
    "lone \\r line ends": ORIGINAL.replace("\n", "\r"),
    "; after every statement": ORIGINAL.replace("\n    ", ";\n    ").replace("def softmax(x, axis=-1):;", "def softmax(x, axis=-1):")
                               .replace("# stable", "").replace("dtype)", "dtype);"),
    "names renamed through a middle dot": ORIGINAL.replace("shifted", "shi·fted").replace("exps", "ex·ps")
                                          .replace("total", "to·tal").replace("probabilities", "p·robabilities")
                                          .replace("(x", "(x·").replace(" x ", " x· ").replace("x.dtype", "x·.dtype"),
    "attributes and builtins in NFKC spellings": ORIGINAL.replace("np.exp", "np.𝐞𝐱𝐩").replace("np.sum", "np.ｓｕｍ")
                                                 .replace("np.max", "np.𝗆𝖺𝗑").replace(".astype", ".ａｓｔｙｐｅ"),
    "pass after every statement": ORIGINAL.replace("(shifted)\n", "(shifted)\n    pass\n")
                                  .replace("keepdims=True)\n", "keepdims=True)\n    pass\n"),
    "all at once, renamed and recommented": "\ufeff" + "\r".join([
        "import numpy as np;", "# mine", "def softmax(sc·ores, axis=-1):",
        '    """Mine."""; ...; centred = sc·ores - np.max(sc·ores, axis=axis, keepdims=True);', "",
        "    e = np.ｅｘｐ(centred)   # exponentiate", "    s = np.sum(e, axis=axis, keepdims=True); pass",
        "    p = e / s;", "    return p.astype(sc·ores.dtype);", ""]),
}


def run(source, scores):
    namespace = {}
    exec(compile(source.lstrip("\ufeff"), "<dodged>", "exec"), namespace)
    return namespace["softmax"](scores)


@pytest.mark.parametrize("dodge", DODGED)
def test_a_copy_dodged_in_a_way_python_ignores_is_the_same_code(dodge):
    """Each copy is Python that computes what ORIGINAL does; it is flagged at the default threshold, in the
    original's group."""
    import numpy as np
    scores = np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 4.0]])
    assert np.array_equal(run(DODGED[dodge], scores), run(ORIGINAL, scores))
    boilerplate = boilerplate_of(SOFTMAX.starter)
    copy, original = document("copy", DODGED[dodge], boilerplate), document("original", ORIGINAL, boilerplate)
    pair, = similar_pairs([original, copy])
    assert pair.similarity == (1.0, 1.0)
    if dodge == "lone \\r line ends":  # lines counted as Python counts them
        assert pair.lines == ([(4, 10)], [(4, 10)])
    groups, pairs = similar_code([original, copy, document("own", OWN_WAY, boilerplate)])
    assert [[doc.name for doc in group] for group in groups] == [["copy", "original"]] and pairs == []


HONEST = Path(__file__).parent / "similarity_honest"


@pytest.mark.parametrize("exercise_id", sorted(path.name for path in HONEST.iterdir()))
def test_honest_solutions_written_apart_are_not_flagged(exercise_id):
    """Correct solutions written independently in different styles (tests/similarity_honest/, each passing
    every test of its exercise), and the exercise's reference: no pair reaches the default threshold."""
    exercise = load_exercise(exercise_id)
    boilerplate = boilerplate_of(exercise.starter)
    files = [exercise.path / "solution.py", *sorted((HONEST / exercise_id).glob("*.py"))]
    documents = [document(path.name, path.read_text(), boilerplate) for path in files]
    assert len(documents) >= 5 and all(doc.fingerprints for doc in documents)
    groups, pairs = similar_code(documents)
    assert groups == [] and pairs == []
    for first, second in itertools.combinations(documents, 2):  # and none comes near it
        assert not similar_pairs([first, second], threshold=0.4)


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
    assert "softmax: 4 submission(s) compared: 1 group(s) of the same code, 0 pair(s) at or above 50%" in out
    assert "layer_norm: 2 submission(s) compared: 1 group(s) of the same code, 0 pair(s)" in out
    assert "\x1b" not in out and "\\x1b[2J" in out
    assert sorted(folder.rglob("*")) == before and not list(tmp_path.glob("*.jsonl"))  # nothing graded
    data = similarity_file.read(tmp_path / "out" / "similarity.json")
    assert data["exercises"]["softmax"] == {"compared": 4, "groups": [sorted(["ada", hostile.replace("\x1b", "\\x1b")])],
                                            "pairs": []}
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
    assert "100%  the same code (2): ada.py, bob.py" in out and "notes.txt: not a Python file" in out
    assert "\r" not in (tmp_path / "out" / "similarity.html").read_text()


def test_a_class_that_handed_in_one_code_is_one_group_not_every_pair(tmp_path, capsys):
    """16 students hand in ORIGINAL, each dodged another way; one reworks half of it; one writes their own: one
    group and one pair are printed and written (not the 120 pairs of the 16, nor 16 pairs with the reworker)."""
    copies = [ORIGINAL, DISGUISED, *DODGED.values()]
    for index in range(16):
        (tmp_path / f"s{index:02}.py").write_text(copies[index % len(copies)], newline="")
    reworked = ORIGINAL.replace("    probabilities = exps / total\n    return probabilities.astype(x.dtype)\n",
                                "    out = np.empty_like(exps)\n    for i in np.ndindex(out.shape):\n"
                                "        out[i] = exps[i] / total[i[:-1] + (0,)]\n    return out\n")
    (tmp_path / "rework.py").write_text(reworked)
    (tmp_path / "own.py").write_text(OWN_WAY)
    assert main(["similar", "softmax", str(tmp_path), "--reports", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    names = ", ".join(f"s{index:02}.py" for index in range(16))
    assert f"softmax: 18 submission(s) compared: 1 group(s) of the same code, 1 pair(s) at or above 50%\n" \
           f"  100%  the same code (16): {names}\n" in out
    pair_line, = (line for line in out.splitlines() if "rework.py" in line)
    assert "rework.py and s00.py (and 15 more with the same code)" in pair_line
    data = similarity_file.read(tmp_path / "out" / "similarity.json")["exercises"]["softmax"]
    assert data["groups"] == [[f"s{index:02}.py" for index in range(16)]]
    assert [(pair["first"], pair["second"]) for pair in data["pairs"]] == [("rework.py", "s00.py")]
    page = (tmp_path / "out" / "similarity.html").read_text()
    assert page.count('<section class="pair">') == 2
    assert "16 students with the same code: s00.py, s01.py" in page


def test_an_lms_export_is_read_as_batch_reads_it(tmp_path, capsys):
    """A Canvas download (flat files name_userid_submissionid_file): the students are named as in the results."""
    (tmp_path / "lovelaceada_10000_555_softmax.py").write_text(ORIGINAL)
    (tmp_path / "hoppergrace_LATE_10001_556_softmax.py").write_text(DISGUISED, newline="")
    (tmp_path / "turingalan_10002_557_softmax.py").write_text(OWN_WAY)
    assert main(["similar", "softmax", str(tmp_path), "--reports", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "Layout: Canvas export" in out and "3 submission(s) compared: 1 group(s) of the same code, 0 pair(s)" in out
    assert "100%  the same code (2): hoppergrace_10001, lovelaceada_10000" in out


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
    ('{"threshold": 0.5, "exercises": {"softmax": {"compared": 2, "groups": [], "pairs": [{"first": "a"}]}}}',
     "exercises.softmax.pairs[0]: not a pair"),
    ('{"threshold": 0.5, "exercises": {"softmax": {"compared": 2, "pairs": []}}}',
     "exercises.softmax.groups: missing or not a list"),
    ('{"threshold": 0.5, "exercises": {"softmax": {"compared": 2, "groups": [["a"]], "pairs": []}}}',
     "exercises.softmax.groups[0]: not a list of two or more names"),
    ('{"threshold": 0.5, "exercises": {"softmax": {"compared": 4, "groups": [["a", "b"], ["c", "a"]], "pairs": []}}}',
     "exercises.softmax.groups[1]: names a student already in a group"),
])
def test_a_bad_similarity_file_is_refused_naming_the_field(tmp_path, content, expected):
    path = tmp_path / "similarity.json"
    path.write_text(content)
    with pytest.raises(similarity_file.SimilarityFileError, match=r"similarity\.json: .*") as error:
        similarity_file.read(path)
    assert expected in str(error.value)
