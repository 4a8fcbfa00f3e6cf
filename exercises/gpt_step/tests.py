def test_placeholder(gpt_step):
    """Placeholder"""
