def test_placeholder(bpe_train):
    """Placeholder"""
