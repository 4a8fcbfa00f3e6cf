def test_placeholder(top_p_filter):
    """Placeholder"""
