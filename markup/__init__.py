"""Statement Markdown and LaTeX math to HTML with MathML.

Shared by the site build (sitebuild) and by `python -m grader validate`, which
checks that statements render exactly as the site renders them; neither of
those imports the other, so this lives below both.
"""
