import numpy as np


def embedding_backward():
    raise NotImplementedError
