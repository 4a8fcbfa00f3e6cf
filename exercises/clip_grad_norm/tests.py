def test_placeholder(clip_grad_norm):
    """Placeholder"""
