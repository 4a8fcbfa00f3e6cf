def test_placeholder(bpe_encode):
    """Placeholder"""
