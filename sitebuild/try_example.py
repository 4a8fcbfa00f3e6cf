"""The calls an exercise page's "Try your code" box starts with, taken from the statement's examples.

The ```python blocks of statement.md that are valid Python, up to the first that calls
the entry function (the earlier ones set up its arguments), become the example, each bare
expression wrapped in print() so that running it shows something (the statement's
comments, often the expected values, stay beside it). Without such a block the box
starts with a comment naming the function.
"""

import ast
import re

FENCE = re.compile(r"^```python[ \t]*\n(.*?)^```", re.MULTILINE | re.DOTALL)


def example_calls(statement, entry):
    blocks = []
    for match in FENCE.finditer(statement):
        try:
            tree = ast.parse(match.group(1))
        except SyntaxError:
            continue  # e.g. pseudo-code
        blocks.append(_printed(match.group(1), tree))
        if any(isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == entry
               for node in ast.walk(tree)):
            text = "\n".join(blocks)
            if re.search(r"\bnp\.", text) and not re.search(r"^import numpy as np$", text, re.MULTILINE):
                text = "import numpy as np\n\n" + text
            return text
    return f"# Calls to try your code (not graded), e.g.\n# print({entry}(...))\n"


def _printed(code, tree):
    """`code` (parsed as `tree`) with its top-level expressions printed."""
    lines = code.splitlines(keepends=True)
    # From the last expression up, so that the positions of the earlier ones stay right.
    for node in reversed(tree.body):
        if not isinstance(node, ast.Expr) or _is_print(node.value):
            continue
        last, first = node.end_lineno - 1, node.lineno - 1
        lines[last] = lines[last][:node.end_col_offset] + ")" + lines[last][node.end_col_offset:]
        lines[first] = lines[first][:node.col_offset] + "print(" + lines[first][node.col_offset:]
    return "".join(lines)


def _is_print(value):
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "print"
