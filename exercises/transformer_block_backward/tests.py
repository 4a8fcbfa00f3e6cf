def test_placeholder(transformer_block_backward):
    """Placeholder"""
