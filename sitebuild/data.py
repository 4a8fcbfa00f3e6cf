"""The JSON data files the browser runtime reads (see the site contract)."""

import dataclasses

from grader.core.engine import GradingSpec


def grading_data(exercise, test_names, used):
    """Contents of exercises/<id>/grading.json: the GradingSpec fields plus what the page shows.

    `used`: the exercises it builds on (grader.track.used_steps), dependencies first. Each comes with
    its reference, which the page puts in scope when the learner has no passing code for that step
    (never shown: the used step's reveal rule does not apply).
    """
    spec = dataclasses.replace(exercise.grading_spec(), tests_filename="tests.py", track_filename="_track.py")
    data = {field.name: getattr(spec, field.name) for field in dataclasses.fields(GradingSpec)}
    uses = [{"exercise_id": step.id, "entry": step.entry, "step": step.step, "title": step.title,
             "uses": list(step.uses), "reference": step.solution} for step in used]
    return {**data, "time_limit": exercise.time_limit, "test_time_limit": exercise.test_time_limit,
            "test_names": list(test_names), "uses": uses}
