import numpy as np


def gpt_loss_and_grads():
    raise NotImplementedError
