import numpy as np


def softmax_backward():
    raise NotImplementedError
