"""similarity.json: what `python -m grader similar` flagged, read back by `report --similarity FILE`.

    {"threshold": 0.5, "exercises": {"softmax": {"compared": 30,
        "groups": [["cy", "dee", "fay"]],
        "pairs": [{"first": "ada", "second": "cy", "similarity": [0.92, 0.88],
                   "lines": [[[3, 9]], [[4, 10]]]}]}}}

"groups": the students with the same code but for names, comments and layout, each group once (a name is in
one group at most); "pairs": the pairs flagged between different code, a group standing for its members by
its first name (the same code: the same similarity), each two groups once.  "lines": each side's matched
regions as (first line, last line), 1-based.
"""

import json
import math

from grader.submission import SubmissionError, display, read_bytes

MAX_BYTES = 64 << 20


class SimilarityFileError(Exception):
    """A similarity file that cannot be used; the message names it and the field."""


def render(results, threshold):
    """`results`: {exercise id: (number of submissions compared, [group], [Pair]), as
    grader.instructor.similarity.similar_code gives them}."""
    exercises = {exercise_id: {"compared": compared, "groups": [[doc.name for doc in group] for group in groups],
                               "pairs": [_pair(pair) for pair in pairs]}
                 for exercise_id, (compared, groups, pairs) in results.items()}
    return json.dumps({"threshold": threshold, "exercises": exercises}, indent=1, ensure_ascii=True) + "\n"


def _pair(pair):
    return {"first": pair.first.name, "second": pair.second.name,
            "similarity": [round(share, 4) for share in pair.similarity],
            "lines": [[list(lines) for lines in side] for side in pair.lines]}


def read(path):
    """{"threshold": float, "exercises": {id: {"compared": int, "pairs": [...]}}} of a file `render` wrote;
    SimilarityFileError naming the file and what is wrong."""
    shown = display(path)
    try:
        data = json.loads(read_bytes(path, MAX_BYTES, too_large_note="not a similarity file").decode("utf-8"))
    except SubmissionError as exc:
        raise SimilarityFileError(str(exc)) from None
    except (ValueError, RecursionError):
        raise SimilarityFileError(f"{shown}: not JSON (a similarity.json written by `python -m grader similar`)")
    problem = _problem(data)
    if problem:
        raise SimilarityFileError(f"{shown}: not a similarity file written by `python -m grader similar` ({problem})")
    return data


def _problem(data):
    if not isinstance(data, dict) or not isinstance(data.get("exercises"), dict):
        return "exercises: missing or not an object"
    if not _share(data.get("threshold")):
        return "threshold: not a number from 0 to 1"
    for exercise_id, found in data["exercises"].items():
        where = f"exercises.{exercise_id}"
        if not isinstance(found, dict) or not isinstance(found.get("pairs"), list):
            return f"{where}.pairs: missing or not a list"
        if not isinstance(found.get("compared"), int) or isinstance(found["compared"], bool):
            return f"{where}.compared: not a whole number"
        problem = _groups_problem(found.get("groups"))
        if problem:
            return f"{where}.groups{problem}"
        for index, pair in enumerate(found["pairs"]):
            if not (isinstance(pair, dict) and isinstance(pair.get("first"), str)
                    and isinstance(pair.get("second"), str) and isinstance(pair.get("similarity"), list)
                    and len(pair["similarity"]) == 2 and all(map(_share, pair["similarity"]))):
                return f"{where}.pairs[{index}]: not a pair (first, second, similarity [two numbers from 0 to 1])"
            if not _lines(pair.get("lines")):
                return f"{where}.pairs[{index}].lines: not two lists of [first line, last line]"
    return None


def _groups_problem(groups):
    """What makes `groups` not a list of groups (where in it, and why), or None."""
    if not isinstance(groups, list):
        return ": missing or not a list"
    seen = set()
    for index, group in enumerate(groups):
        if not (isinstance(group, list) and len(group) >= 2 and all(isinstance(name, str) for name in group)):
            return f"[{index}]: not a list of two or more names"
        if seen & set(group) or len(set(group)) < len(group):
            return f"[{index}]: names a student already in a group"
        seen.update(group)
    return None


def _lines(value):
    return (isinstance(value, list) and len(value) == 2 and all(isinstance(side, list) for side in value)
            and all(isinstance(lines, list) and len(lines) == 2 and all(type(n) is int and n > 0 for n in lines)
                    for side in value for lines in side))


def _share(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and 0 <= value <= 1
