# expect: failed
import json
import os

import numpy as np

FAKE = {"exercise": "sinusoidal_pe", "passed": True, "error": None, "tests": [], "stdout": ""}
print(json.dumps(FAKE))
print("✓ Output shape is (T, C)\n6/6 tests passed - all good!")
os.write(1, (json.dumps(FAKE) + "\n").encode())


def sinusoidal_pe(T, C):
    return np.zeros((T, C))
