"""Loading exercise folders: each kind of broken exercise names the file, the line where known, and the problem."""

import shutil

import pytest

from grader.exercise import EXERCISES_DIR, ExerciseError, load_exercise


@pytest.fixture
def exercise_dir(tmp_path):
    folder = tmp_path / "sinusoidal_pe"
    shutil.copytree(EXERCISES_DIR / "sinusoidal_pe", folder)
    return folder


def replace_in(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_a_shipped_exercise_loads(exercise_dir):
    exercise = load_exercise(exercise_dir)
    assert exercise.id == "sinusoidal_pe" and exercise.track == "build-gpt" and exercise.step == 2
    assert exercise.difficulty in ("Easy", "Medium", "Hard")
    assert exercise.entry == "sinusoidal_pe"
    assert len(exercise.mutants) >= 4


@pytest.mark.parametrize("old, new, expected", [
    ('difficulty = "Easy"', 'difficulty = "easy"', r"exercise.toml:\d+: difficulty should be one of Easy, Medium, Hard"),
    ("step = 2", 'step = "two"', r"exercise.toml:\d+: step should be int, not str"),
    ('entry = "sinusoidal_pe"', 'entry = "sinusoidal-pe"', r"exercise.toml:\d+: entry .* not a valid Python function name"),
    ('title =', 'colour = "red"\ntitle =', r"exercise.toml:\d+: unknown key 'colour'"),
    ('title =', 'titel = "x"\ntitle =',
     r"exercise.toml:\d+: unknown key 'titel' \(known keys: .*\); did you mean 'title'\?"),
    ('reveal_solution = "after-pass"', 'reveal_solution = "after_pass"',
     r"reveal_solution should be one of after-pass, never, not 'after_pass'; did you mean 'after-pass'\?"),
    ('id = "sinusoidal_pe"', 'id = "other"', r"exercise.toml:\d+: id 'other' does not match the folder name"),
    ('title =', 'title = = ', r"exercise.toml:\d+: invalid TOML"),
    ('summary = "', 'summary = "  " # "', r"exercise.toml:\d+: summary should be one non-empty line"),
    ('summary = "', 'summary = "two\\nlines" # "', r"exercise.toml:\d+: summary should be one non-empty line"),
    ('summary = "', 'summary = "' + "long " * 30 + '" # "', r"exercise.toml:\d+: summary .* at most 120 characters"),
])
def test_bad_metadata_is_reported_with_file_and_line(exercise_dir, old, new, expected):
    replace_in(exercise_dir / "exercise.toml", old, new)
    with pytest.raises(ExerciseError, match=expected):
        load_exercise(exercise_dir)


def test_missing_required_key(exercise_dir):
    path = exercise_dir / "exercise.toml"
    path.write_text("\n".join(l for l in path.read_text().splitlines() if not l.startswith("entry")))
    with pytest.raises(ExerciseError, match="missing required key 'entry'"):
        load_exercise(exercise_dir)


def test_missing_file(exercise_dir):
    (exercise_dir / "starter.py").unlink()
    with pytest.raises(ExerciseError, match=r"starter.py: missing"):
        load_exercise(exercise_dir)


def test_syntax_error_in_a_mutant_names_it_and_the_line(exercise_dir):
    mutant = sorted((exercise_dir / "mutants").glob("*.py"))[0]
    mutant.write_text("def f(:\n")
    with pytest.raises(ExerciseError, match=rf"{mutant.name}:1: SyntaxError"):
        load_exercise(exercise_dir)


def test_non_utf8_statement(exercise_dir):
    (exercise_dir / "statement.md").write_bytes(b"\xff\xfe bad")
    with pytest.raises(ExerciseError, match="statement.md: not valid UTF-8"):
        load_exercise(exercise_dir)


def test_unknown_id_lists_the_known_ones():
    with pytest.raises(ExerciseError, match="no such exercise.*sinusoidal_pe"):
        load_exercise("no_such_exercise")


def test_oversized_file(exercise_dir):
    (exercise_dir / "statement.md").write_text("x" * 1_000_001)
    with pytest.raises(ExerciseError, match=r"statement.md: too large \(more than 1,000,000 bytes\); "
                                            r"an exercise file is at most 1 MB$"):
        load_exercise(exercise_dir)


def test_toml_nested_too_deeply(exercise_dir):
    path = exercise_dir / "exercise.toml"
    lines = path.read_text().count("\n")
    path.write_text(path.read_text() + "deep = " + "[" * 3000 + "]" * 3000 + "\n")
    with pytest.raises(ExerciseError, match=rf"exercise.toml:{lines + 1}: arrays or tables nested too deeply"):
        load_exercise(exercise_dir)


@pytest.mark.parametrize("statement", ["X = 1" + " + 1" * 200_000,          # RecursionError in the compiler
                                       "X = (\n" + "-" * 200_000 + "1)"],  # MemoryError in the parser
                         ids=["recursion", "memory"])
def test_statement_too_deep_to_compile(exercise_dir, statement):
    path = exercise_dir / "tests.py"
    lines = path.read_text().count("\n")
    path.write_text(path.read_text() + statement + "\n")
    with pytest.raises(ExerciseError, match=rf"tests.py:{lines + 1}: cannot be compiled: a statement is too long "
                                            r"or nested too deeply for the compiler; split it into smaller ones"):
        load_exercise(exercise_dir)


def test_every_problem_of_exercise_toml_in_one_run(exercise_dir):
    toml = exercise_dir / "exercise.toml"
    for old, new in [('title =', 'titel = "x"\ntitle ='), ('difficulty = "Easy"', 'difficulty = "easy"'),
                     ("step = 2", 'step = "2"')]:
        replace_in(toml, old, new)
    with pytest.raises(ExerciseError) as raised:
        load_exercise(exercise_dir)
    problems = [str(error) for error in raised.value.errors]
    assert str(raised.value).splitlines() == problems
    assert len(problems) == 3, problems
    assert "exercise.toml:2: unknown key 'titel'" in problems[0]
    assert "difficulty should be one of Easy, Medium, Hard, not 'easy'; did you mean 'Easy'?" in problems[1]
    assert "step should be int, not str '2'" in problems[2]


def test_wrong_entry_names_the_functions_of_the_solution(exercise_dir):
    replace_in(exercise_dir / "exercise.toml", 'entry = "sinusoidal_pe"', 'entry = "sinusoidal_p"')
    with pytest.raises(ExerciseError, match=r"exercise.toml:\d+: entry 'sinusoidal_p' is not a function of "
                                            r"solution.py \(it defines sinusoidal_pe\); "
                                            r"did you mean 'sinusoidal_pe'\?$"):
        load_exercise(exercise_dir)


def test_a_hidden_formula_in_the_starter_is_refused_at_its_line(exercise_dir):
    replace_in(exercise_dir / "exercise.toml", "hints =", 'hidden_formulas = ["10000\\\\.0 \\\\*\\\\* \\\\(two_i / C\\\\)"]\nhints =')
    assert load_exercise(exercise_dir).hidden_formulas == (r"10000\.0 \*\* \(two_i / C\)",)
    starter = exercise_dir / "starter.py"
    starter.write_text(starter.read_text() + "\n# frequencies = 1.0 / 10000.0 ** (two_i / C)\n")
    with pytest.raises(ExerciseError, match=r"starter.py:\d+: holds '10000.0 \*\* \(two_i / C\)', a formula the step "
                                            r"asks the learner to find"):
        load_exercise(exercise_dir)


@pytest.mark.parametrize("pattern, expected", [
    ("np\\\\.einsum", r"exercise.toml:\d+: hidden_formulas: 'np\\\\.einsum' is not found in solution.py"),
    ("(unclosed", r"exercise.toml:\d+: hidden_formulas: '\(unclosed' is not a regular expression"),
    ("", r"exercise.toml:\d+: every item of hidden_formulas should be a non-empty string"),
])
def test_a_hidden_formula_must_be_a_pattern_of_the_solution(exercise_dir, pattern, expected):
    replace_in(exercise_dir / "exercise.toml", "hints =", f'hidden_formulas = ["{pattern}"]\nhints =')
    with pytest.raises(ExerciseError, match=expected):
        load_exercise(exercise_dir)


def test_how_it_works_is_read_when_there(exercise_dir):
    assert load_exercise(exercise_dir).how_it_works is None
    (exercise_dir / "how_it_works.md").write_text("Each pair of columns turns at its own speed.\n")
    assert load_exercise(exercise_dir).how_it_works == "Each pair of columns turns at its own speed.\n"
