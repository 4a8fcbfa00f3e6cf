def test_placeholder(train_step):
    """Placeholder"""
