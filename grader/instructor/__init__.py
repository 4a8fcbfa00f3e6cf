"""Grading a class offline: hand-in folders, rosters, results records, gradebooks and reports."""
