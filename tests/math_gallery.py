"""One formula per LaTeX construct the statements use, with the MathML structure each must get.

A structure is written as `tag(children)`, a token as `tag:text`, and a
`mathvariant` left on a token as `tag[variant]:text`; `<semantics>`, the LaTeX
annotation and single-child `<mrow>`s are left out.
"""

import xml.etree.ElementTree as ET

MATHML = "{http://www.w3.org/1998/Math/MathML}"

# (construct, LaTeX, display, expected structure)
GALLERY = [
    ("fraction", r"\frac{a}{b}", False, "mfrac(mi:a mi:b)"),
    ("square root", r"\sqrt{d}", False, "msqrt(mi:d)"),
    ("n-th root", r"\sqrt[3]{x}", False, "mroot(mi:x mn:3)"),
    ("sub- and superscripts", r"x_{t}^{2}", False, "msubsup(mi:x mi:t mn:2)"),
    ("transpose", r"W^\top", False, "msup(mi:W mi[normal]:⊤)"),
    ("sum with limits", r"\sum_{i=1}^{n} x_i", True,
     "mrow(munderover(mo:∑ mrow(mi:i mo:= mn:1) mi:n) msub(mi:x mi:i))"),
    ("product with limits", r"\prod_{j=0}^{C-1} a_j", True,
     "mrow(munderover(mo:∏ mrow(mi:j mo:= mn:0) mrow(mi:C mo:− mn:1)) msub(mi:a mi:j))"),
    ("operator name and a number", r"2 \ln 4", False, "mrow(mn:2 mspace mi:ln mo:\u2061 mspace mn:4)"),
    ("max under", r"\max_j x_j", True, "mrow(munder(mrow(mi:max mo:\u2061) mi:j) mspace msub(mi:x mi:j))"),
    ("text", r"x \text{ if } y", False, "mrow(mi:x mtext:\u00a0if\u00a0 mi:y)"),
    ("operator name", r"\operatorname{softmax}(z)", False, "mrow(mi[normal]:softmax mo:\u2061 mo:( mi:z mo:))"),
    ("operator name with its index under", r"\operatorname*{argmin}_j d_j", True,
     "mrow(munder(mrow(mi[normal]:argmin mo:\u2061) mi:j) mspace msub(mi:d mi:j))"),
    ("upright letters", r"\mathrm{out}", False, "mrow(mi[normal]:o mi[normal]:u mi[normal]:t)"),
    ("blackboard bold", r"\mathbb{R}^{T \times C}", False, "msup(mi:ℝ mrow(mi:T mo:× mi:C))"),
    ("bold", r"\mathbf{W} \boldsymbol{x}", False, "mrow(mi:𝐖 mi:𝒙)"),
    ("calligraphic", r"\mathcal{L}", False, "mi:ℒ"),
    ("functions", r"\sin \cos \tanh \exp \log \ln", False,  # a thin space after each name, as in TeX
     "mrow(mi:sin mo:\u2061 mspace mi:cos mo:\u2061 mspace mi:tanh mo:\u2061 mspace mi:exp mo:\u2061 mspace "
     "mi:log mo:\u2061 mspace mi:ln mo:\u2061)"),
    ("Greek letters", r"\alpha \beta \gamma \epsilon \varepsilon \theta \mu \omega \pi \sigma \tau \Phi", False,
     "mrow(mi:α mi:β mi:γ mi:ϵ mi:ε mi:θ mi:μ mi:ω mi:π mi:σ mi:τ mi[normal]:Φ)"),
    ("relations", r"a \le b \ge c \ne d \approx e \in f \to g", False,
     "mrow(mi:a mo:≤ mi:b mo:≥ mi:c mo[normal]:≠ mi:d mo:≈ mi:e mo:∈ mi:f mo:→ mi:g)"),
    ("operators", r"a \cdot b \times c \pm d \odot e", False,
     "mrow(mi:a mo:⋅ mi:b mo:× mi:c mo:± mi:d mo:⊙ mi:e)"),
    ("symbols", r"\infty \ell \partial \nabla", False, "mrow(mi[normal]:∞ mi[normal]:ℓ mi[normal]:∂ mi[normal]:∇)"),
    ("dots", r"1, \ldots, n \cdots", False, "mrow(mn:1 mo:, mo:… mo:, mi:n mo:⋯)"),
    ("accents", r"\hat{y} \tilde{z}", False, "mrow(mover(mi:y mo:^) mover(mi:z mo:~))"),
    ("growing delimiters", r"\left( \frac{1}{2} \right)", False, "mrow(mo:( mfrac(mn:1 mn:2) mo:))"),
    ("big delimiters", r"\big( x \Big)", False, "mrow(mo:( mi:x mo:))"),
    ("spaces", r"a \quad b \qquad c", False, "mrow(mi:a mspace mi:b mspace mi:c)"),
    ("aligned", r"\begin{aligned} x + y &= b \\ z &= c + d \end{aligned}", True,
     "mtable(mtr(mtd(mstyle(mrow(mi:x mo:+ mi:y))) mtd(mstyle(mrow(mrow mo:= mi:b)))) "
     "mtr(mtd(mstyle(mi:z)) mtd(mstyle(mrow(mrow mo:= mi:c mo:+ mi:d)))))"),
    ("cases", r"f(x) = \begin{cases} 1 & \text{if } x > 0 \\ 0 & \text{otherwise} \end{cases}", True,
     "mrow(mi:f mo:( mi:x mo:) mo:= mrow(mo:{ mtable(mtr(mtd(mstyle(mn:1)) mtd(mstyle(mrow(mtext:if\u00a0 mi:x mo:> mn:0)))) "
     "mtr(mtd(mstyle(mn:0)) mtd(mstyle(mtext:otherwise))))))"),
    ("matrix in parentheses", r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}", True,
     "mrow(mo:( mtable(mtr(mtd(mstyle(mi:a)) mtd(mstyle(mi:b))) mtr(mtd(mstyle(mi:c)) mtd(mstyle(mi:d)))) mo:))"),
    ("matrix in brackets", r"\begin{bmatrix} 1 \\ 2 \end{bmatrix}", True,
     "mrow(mo:[ mtable(mtr(mtd(mstyle(mn:1))) mtr(mtd(mstyle(mn:2)))) mo:])"),
]

# (LaTeX, what the error must say): constructs that cannot be rendered
UNSUPPORTED = [
    (r"\argmaxx_x f", r"unknown command \argmaxx"),
    (r"\begin{tabular}{cc} a & b \end{tabular}", "unknown environment tabular"),
    (r"\href{https://example.com}{x}", r"\href is not allowed in a formula"),
    (r"\frac{1}", "a command is missing an argument at the end of the formula"),
    (r"\frac{1}{C", "unbalanced braces: a '{' is never closed (at the end of the formula)"),
    (r"\sqrt", r"\sqrt is missing an argument (at the end of the formula)"),
    (r"x^", "^ is missing an argument"),
    (r"x^{2", "unbalanced braces: a '{' is never closed (at the end of the formula)"),
    (r"\left( {a \right)", r"unbalanced braces: a '{' is still open at `\right`"),
    (r"x}", "unbalanced braces: a '}' has no matching '{'"),
    (r"x_1_2", "Double subscript at `_`"),
    (r"\begin{aligned} a \end{cases}", r"Mismatch: \begin{aligned} matched by \end{cases}"),
    (r"é", 'Accented Unicode text character "é" used in math mode'),  # without KaTeX's [code]
]


def structure(mathml):
    """The structure of a <math> element's content, in the notation above."""
    semantics = ET.fromstring(mathml).find(f"{MATHML}semantics")
    return _describe(semantics[0])


def _describe(element):
    tag = element.tag.removeprefix(MATHML)
    children = list(element)
    if tag == "mrow" and len(children) == 1:
        return _describe(children[0])
    if children:
        return f"{tag}({' '.join(_describe(child) for child in children)})"
    variant = f"[{element.get('mathvariant')}]" if element.get("mathvariant") else ""
    return f"{tag}{variant}:{element.text}" if element.text else tag


def gallery_markdown():
    """A Markdown page showing every construct of the gallery, inline and on its own line."""
    sections = [f"### {name}\n\nInline: ${latex}$, as a display:\n\n$$\n{latex}\n$$\n"
                for name, latex, _, _ in GALLERY]
    return "## Math gallery\n\n" + "\n".join(sections)
