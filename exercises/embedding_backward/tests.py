def test_placeholder(embedding_backward):
    """Placeholder"""
