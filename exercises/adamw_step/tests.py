def test_placeholder(adamw_step):
    """Placeholder"""
