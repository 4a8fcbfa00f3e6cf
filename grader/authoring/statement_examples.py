"""The statement's runnable examples, run against the reference: what they show must be what it gives.

A ```python block of statement.md holding a `# ->` comment is an example. The comment follows an
expression, on its last line or on the line after it, and holds what `print` shows of its value (with
what the expression printed itself first); the comment lines right after it continue the output:

    softmax(np.array([1000.0, 1001.0]))   # -> [0.26894142 0.73105858]
    softmax(x, axis=0)
    # -> [[0.5        0.73105858 0.88079708]
    #     [0.5        0.26894142 0.11920292]]

The examples of a statement run in order in one namespace holding `np`, the reference's entry function
and those of the earlier steps it uses, in a child process under the exercise's time limit
(grader/authoring/reference_runner.py). Outputs
are compared with runs of spaces (and spaces just inside brackets) ignored; a number written with `...`
(`0.306882...`) matches the printed one to within one unit of its last digit.
"""

import ast
import dataclasses
import io
import re
import tokenize

from grader.exercise import ExerciseError
from markup.markdown import code_blocks

OUTPUT_MARK = re.compile(r"#[ \t]*->[ \t]?(.*)")
NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"


@dataclasses.dataclass(frozen=True)
class Output:
    """The output an example's `# ->` comment shows for the expression on `statement_line` (its fields are
    what grader/authoring/reference_runner.py reads)."""
    statement_line: int  # where the expression starts, block-relative (1 = the block's first line)
    line: int            # the `# ->` comment's line in statement.md
    expected: str
    expression: str


@dataclasses.dataclass(frozen=True)
class Example:
    code: str
    first_line: int  # the line of statement.md where the code starts
    outputs: tuple


def find_examples(statement):
    """([Example], [(line, problem)]): the runnable blocks of a statement, and what is wrong in their marking."""
    examples, problems = [], []
    for info, code, first_line in code_blocks(statement):
        if info.split()[:1] != ["python"] or not re.search(r"#[ \t]*->", code):
            continue
        try:
            tree = ast.parse(code)
        except SyntaxError as exc:
            problems.append((first_line + (exc.lineno or 1) - 1, f"this example is not valid Python: {exc.msg}"))
            continue
        outputs, misplaced = _outputs(code, tree, first_line)
        examples.append(Example(code, first_line, tuple(outputs)))
        problems += misplaced
    return examples, problems


def _outputs(code, tree, first_line):
    comments = {token.start[0]: (token.string, token.line[:token.start[1]].strip() != "")
                for token in tokenize.generate_tokens(io.StringIO(code).readline) if token.type == tokenize.COMMENT}
    ends = {node.end_lineno: node for node in tree.body}
    outputs, problems = [], []
    for row, (comment, trailing) in sorted(comments.items()):
        mark = OUTPUT_MARK.fullmatch(comment)
        if not mark:
            continue
        expected, following = [mark.group(1)], row + 1
        while following in comments and not comments[following][1] and not OUTPUT_MARK.fullmatch(
                comments[following][0]):
            expected.append(_continued(comments[following][0], mark.start(1)))
            following += 1
        node = ends.get(row if trailing else row - 1)
        if isinstance(node, ast.Expr):
            outputs.append(Output(node.lineno, first_line + row - 1, "\n".join(expected),
                                  " ".join(ast.get_source_segment(code, node).split())))
        else:
            problems.append((first_line + row - 1, "a `# ->` output must follow a top-level expression, on its "
                                                   "last line or on the line after it"))
    return outputs, problems


def _continued(comment, column):
    """A continuation line's output: the comment from `column` (where the first line's output starts) when
    only spaces come before it, as in an aligned block, else from after its `#`."""
    return comment[column:] if comment[1:column].strip() == "" else comment[1:]


def example_problems(exercise, examples, run):
    """'statement.md:LINE: ...' for each output of `examples` that differs from what the reference shows in
    `run` (a grader.authoring.reference_runner.ReferenceRun), or whose example raises."""
    path = exercise.path / "statement.md"
    if not examples:
        return []
    if run.error:
        return [str(ExerciseError(path, f"the examples cannot run: {run.error}"))]
    if run.examples is None:
        return [str(ExerciseError(path, f"the examples did not finish: {run.stopped}"))]
    outputs = {output.line: output for example in examples for output in example.outputs}
    problems = []
    for result in run.examples:
        if "raised" in result:
            problems.append(str(ExerciseError(path, f"this example raises {result['raised']}", result["line"])))
        elif not outputs_match(outputs[result["line"]].expected, result["shown"]):
            problems.append(str(ExerciseError(path, _difference(outputs[result["line"]], result["shown"]),
                                              result["line"])))
    return problems


def _difference(output, shown):
    def block(text):
        return "\n".join(f"        {line}" for line in text.splitlines() or [""])
    return (f"`{output.expression}` shows another output than the reference gives:\n      written:\n"
            f"{block(output.expected)}\n      reference:\n{block(shown)}")


def outputs_match(expected, shown):
    """Whether `shown` is the `expected` output, spacing aside; `1.23...` stands for any number within 0.01."""
    expected, shown = _normal(expected), _normal(shown)
    if "..." not in expected:
        return expected == shown
    pieces = re.split(rf"({NUMBER})\.\.\.", expected)
    pattern = "".join(re.escape(piece) if index % 2 == 0 else f"({NUMBER})" for index, piece in enumerate(pieces))
    match = re.fullmatch(pattern, shown)
    if not match:
        return False
    return all(abs(float(got) - float(written)) <= _last_digit(written)
               for written, got in zip(pieces[1::2], match.groups()))


def _last_digit(number):
    """The value of one unit in the last digit written: 0.01 for 1.23, 1e-7 for 1.5e-6."""
    mantissa, _, exponent = number.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 10.0 ** (int(exponent or 0) - decimals) * (1 + 1e-9)


def _normal(text):
    text = " ".join(text.split())
    return re.sub(r"(?<=[\[({]) | (?=[\])}])", "", text)
