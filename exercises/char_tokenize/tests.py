def test_placeholder(char_tokenize):
    """Placeholder"""
