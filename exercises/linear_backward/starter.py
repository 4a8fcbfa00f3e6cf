import numpy as np


def linear_backward():
    raise NotImplementedError
