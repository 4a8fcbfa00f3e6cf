"""Where the project keeps what it can reuse across runs (Pyodide packages, rendered formulas, validations)."""
import os
from pathlib import Path


def cache_root():
    """$ML_EXERCISES_CACHE, else ~/.cache/ml-exercises."""
    if os.environ.get("ML_EXERCISES_CACHE"):
        return Path(os.environ["ML_EXERCISES_CACHE"])
    return Path.home() / ".cache" / "ml-exercises"
