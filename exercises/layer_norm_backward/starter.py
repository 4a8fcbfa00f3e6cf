import numpy as np


def layer_norm_backward():
    raise NotImplementedError
