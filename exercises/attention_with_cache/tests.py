def test_placeholder(attention_with_cache):
    """Placeholder"""
