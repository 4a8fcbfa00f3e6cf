def test_placeholder(lr_at):
    """Placeholder"""
