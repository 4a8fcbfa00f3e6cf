import numpy as np


def gelu_backward():
    raise NotImplementedError
