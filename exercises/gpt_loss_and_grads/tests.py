def test_placeholder(gpt_loss_and_grads):
    """Placeholder"""
