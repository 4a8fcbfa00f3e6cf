def test_placeholder(causal_attention_backward):
    """Placeholder"""
