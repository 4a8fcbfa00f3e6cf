"""The corpus of submissions in tests/corpus/<exercise>/ and what each must get.

Each file starts with header comments:
    # expect: passed                 the report passes
    # expect: failed, error          it does not pass; every non-passing status is one of these
    # message: regex                 (optional) found, case-insensitively, in the error or a test message
                                     (re.search: ^ anchors at the start of a message)
    # where: offline                 (optional) only the offline grader guarantees the verdict: tampering
                                     that the browser, where learner code shares the tests' interpreter,
                                     does not resist (browser verdicts are practice feedback)
"""

import dataclasses
import re
from pathlib import Path

CORPUS_DIR = Path(__file__).parent / "corpus"


@dataclasses.dataclass(frozen=True)
class Case:
    path: Path
    expect: frozenset
    message: str | None
    offline_only: bool

    @property
    def name(self):
        return self.path.stem

    @property
    def source(self):
        return self.path.read_text(encoding="utf-8")


def load_cases(exercise_id):
    cases = []
    for path in sorted((CORPUS_DIR / exercise_id).glob("*.py")):
        header = dict(re.findall(r"^# (expect|message|where): (.+)$", path.read_text(encoding="utf-8"),
                                 re.MULTILINE))
        expect = frozenset(s.strip() for s in header["expect"].split(","))
        where = header.get("where", "").strip()
        if where not in ("", "offline"):
            raise ValueError(f"{path}: unknown 'where: {where}' (the only value is 'offline')")
        cases.append(Case(path, expect, header.get("message"), offline_only=where == "offline"))
    return cases


def problems(case, report):
    """What is wrong with `report` as the verdict on `case` (empty when it is right)."""
    found = []
    statuses = {t["status"] for t in report["tests"]}
    if case.expect == {"passed"}:
        if not report["passed"] or statuses != {"passed"}:
            found.append(f"expected a pass, got error={report['error']!r} statuses={statuses}")
        return found
    if report["passed"]:
        found.append("expected a non-passing verdict, got passed")
    # The corpus's exercises are sound: nothing a submission does may mark a test as the exercise's bug.
    buggy = [t["name"] for t in report["tests"] if t.get("exercise_bug")]
    if buggy:
        found.append(f"tests marked as the exercise's bug: {buggy}")
    failing = statuses - {"passed"}
    if not failing or not failing <= case.expect:
        found.append(f"expected non-passing statuses within {sorted(case.expect)}, got {sorted(statuses)}")
    if case.message:
        texts = [report["error"] or ""] + [t["message"] for t in report["tests"]]
        if not any(re.search(case.message, text, re.IGNORECASE) for text in texts):
            found.append(f"no message matches /{case.message}/: {texts}")
    return found
