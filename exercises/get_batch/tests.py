def test_placeholder(get_batch):
    """Placeholder"""
