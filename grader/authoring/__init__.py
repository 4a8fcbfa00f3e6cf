"""Checking exercises for their authors: `validate`, `new`, the rules the site build shares."""
