"""Similar submissions: pairs of learners whose code for an exercise shares long runs of tokens.

Winnowing (Schleimer, Wilkerson and Aiken, 2003; the method of MOSS) over Python's own tokenizer:
comments, docstrings, blank lines and layout are dropped, names the learner chose become one placeholder (so
renaming variables hides nothing), attribute names, keywords and builtins are kept (`np.exp` and
`x.sum(axis=-1)` are what the code does), numbers and strings become placeholders.  Every run of
K_GRAM tokens is hashed; of every WINDOW consecutive hashes the smallest is the document's
fingerprint.  A fingerprint of the exercise's starter code is boilerplate and never counts.

The tokens are read as Python reads the file, so that no spelling Python ignores hides a copy: "\r\n", a
lone "\r" and "\n" all end a line, a name is one token however the tokenize module splits it (`s·cores`),
names are compared in NFKC form as Python compares them (`np.ｅｘｐ` is `np.exp`), and what does nothing is
dropped: `;` (a line end does the same), `pass`, and constants standing as statements (docstrings, `...`).

Submissions with the same tokens (the same code but for names, comments and layout) are one group; a
pair's similarity, for each side, is the share of that side's fingerprints found in the other; a pair is
flagged when either share reaches the threshold, and only one pair is compared for each two groups.
Nothing here reads or changes a grade.
"""

import builtins
import dataclasses
import functools
import hashlib
import itertools
import keyword
import re
import tokenize
import unicodedata

K_GRAM = 12      # tokens: about one line of code; shorter runs match by chance (`return x / x.sum(...)`)
WINDOW = 4       # any shared run of K_GRAM + WINDOW - 1 tokens is sure to be found
DEFAULT_THRESHOLD = 0.5
KEPT_NAMES = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | frozenset(dir(builtins))
SKIPPED = {tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING, tokenize.ENDMARKER,
           tokenize.TYPE_COMMENT}
# Python 3.12 splits f-strings into several tokens; 3.11 has one STRING token.
# Tokens that change nothing: `;` ends a statement as a line end does, `pass` does nothing
DROPPED = {";", "pass"}
LINE_END = re.compile(r"\r\n|\r|\n")
STRINGS = {getattr(tokenize, name) for name in ("STRING", "FSTRING_START", "FSTRING_MIDDLE", "FSTRING_END")
           if hasattr(tokenize, name)}


@dataclasses.dataclass(frozen=True)
class Document:
    """One learner's code for one exercise, fingerprinted."""
    name: str
    source: str
    code: str             # a hash of its tokens as compared: the same for the same code but for names and layout
    spans: list           # each token's (start, end) character offsets in `source`
    token_lines: list     # each token's (first line, last line), 1-based
    fingerprints: set     # the winnowed hashes, which similarity counts
    runs: dict            # every hash -> [index of the first token of each K_GRAM run with it], to mark regions


@dataclasses.dataclass(frozen=True)
class Pair:
    first: Document
    second: Document
    similarity: tuple     # (share of first's fingerprints in second, share of second's in first)

    @property
    def highest(self):
        return max(self.similarity)

    @functools.cached_property
    def _matched_tokens(self):
        runs = self.first.runs.keys() & self.second.runs.keys()  # every shared run, not only the winnowed ones
        return _covered(self.first, runs), _covered(self.second, runs)

    @property
    def regions(self):
        """([(start, end)] matched characters of first.source, the same of second.source)"""
        return _regions(self.first, self._matched_tokens[0]), _regions(self.second, self._matched_tokens[1])

    @property
    def lines(self):
        """([(first line, last line)] of each matched run of first.source, the same of second.source)"""
        return _lines(self.first, self._matched_tokens[0]), _lines(self.second, self._matched_tokens[1])


def document(name, source, boilerplate=frozenset()):
    """The Document of `source`; fingerprints in `boilerplate` (see `boilerplate_of`) are left out."""
    kinds, spans, token_lines = _tokens(source)
    hashes = _hashes(kinds)
    fingerprints = _winnow(hashes) - boilerplate
    runs = {}
    for index, value in enumerate(hashes):
        if value not in boilerplate:
            runs.setdefault(value, []).append(index)
    code = hashlib.blake2b("\0".join(kinds).encode(), digest_size=16).hexdigest()
    return Document(name, source, code, spans, token_lines, fingerprints, runs)


def boilerplate_of(source):
    """Every K_GRAM hash of `source` (the starter code), not only the winnowed ones: any of them may be chosen
    as a fingerprint in a learner's file around it."""
    kinds, _, _ = _tokens(source)
    return frozenset(_hashes(kinds))


def similar_code(documents, threshold=DEFAULT_THRESHOLD):
    """([group], [Pair]): each group a list of the documents with the same code (two or more, by name; largest
    group first), and the pairs of `similar_pairs` between one document of each group and the others.
    Code that is only the starter's (no fingerprint) is no one's: never grouped."""
    by_code = {}
    for doc in sorted(documents, key=lambda doc: doc.name):
        by_code.setdefault(doc.code if doc.fingerprints else ("alone", doc.name), []).append(doc)
    groups = sorted((docs for docs in by_code.values() if len(docs) > 1), key=lambda docs: (-len(docs), docs[0].name))
    return groups, similar_pairs([docs[0] for docs in by_code.values()], threshold)


def standing_for(doc, groups):
    """`doc`'s name as a pair of `similar_code` names it: with how many more of its group it stands for."""
    others = next((len(group) - 1 for group in groups if group[0] is doc), 0)
    return doc.name + (f" (and {others} more with the same code)" if others else "")


def similar_pairs(documents, threshold=DEFAULT_THRESHOLD):
    """[Pair] of the documents whose similarity reaches `threshold` on either side, most similar first."""
    pairs = []
    for first, second in itertools.combinations(documents, 2):
        shared = first.fingerprints & second.fingerprints
        if not shared:
            continue
        similarity = (len(shared) / len(first.fingerprints), len(shared) / len(second.fingerprints))
        if max(similarity) >= threshold:
            pairs.append(Pair(first, second, similarity))
    return sorted(pairs, key=lambda pair: (-pair.highest, pair.first.name, pair.second.name))


def _tokens(source):
    """([token as compared], [(start, end) offsets in `source`], [(first line, last line)]); code after a
    tokenizing error is left out (a file that does not parse is still compared on what comes before it)."""
    skip = 1 if source.startswith("\ufeff") else 0  # a byte-order mark is not code (Python skips it too)
    lines, line_starts = _lines_read(source, skip)
    raw = []
    try:
        raw += (token for token in tokenize.generate_tokens(functools.partial(next, iter(lines), ""))
                if token.type not in (tokenize.COMMENT, tokenize.NL))
    except (tokenize.TokenError, SyntaxError):
        pass  # `raw` holds the tokens before the error
    raw = _whole_names(raw)
    kinds, spans, token_lines, previous = [], [], [], None
    for index, token in enumerate(raw):
        if token.type in SKIPPED or token.string in DROPPED or _no_op(raw, index):
            continue
        kinds.append(_kind(token, previous))
        spans.append((line_starts[token.start[0] - 1] + token.start[1],
                      line_starts[token.end[0] - 1] + token.end[1]))
        token_lines.append((token.start[0], token.end[0]))
        previous = token
    return kinds, spans, token_lines


def _lines_read(source, skip):
    """(source[skip:]'s lines as Python reads them, each ended by "\n", [each line's offset in `source`]):
    "\r\n", a lone "\r" and "\n" each end a line, as they do for `python3 file.py`."""
    lines, starts, at = [], [], skip
    for end in LINE_END.finditer(source, skip):
        lines.append(source[at:end.start()] + "\n")
        starts.append(at)
        at = end.end()
    if at < len(source):
        lines.append(source[at:])
        starts.append(at)
    return lines, starts + [len(source)]


def _whole_names(raw):
    """`raw` with each name the tokenize module split in pieces made one NAME token again: Python 3.11's
    tokenize takes `s·cores` (a middle dot, a character names may hold) for three tokens, Python one name."""
    joined, index = [], 0
    while index < len(raw):
        token = raw[index]
        if token.type in (tokenize.NAME, tokenize.ERRORTOKEN):
            text, end, last = token.string, token.end, index
            while (last + 1 < len(raw) and raw[last + 1].start == end
                   and raw[last + 1].type in (tokenize.NAME, tokenize.NUMBER, tokenize.ERRORTOKEN)
                   and (text + raw[last + 1].string).isidentifier()):
                last += 1
                text, end = text + raw[last].string, raw[last].end
            if last > index:
                token = tokenize.TokenInfo(tokenize.NAME, text, token.start, end, token.line)
            index = last
        joined.append(token)
        index += 1
    return joined


def _no_op(raw, index):
    """Whether raw[index] is a constant standing as a statement of its own (a docstring, `...`): like a
    comment."""
    before = raw[index - 1] if index else None
    after = raw[index + 1] if index + 1 < len(raw) else None
    return ((raw[index].type in (tokenize.STRING, tokenize.NUMBER) or raw[index].string == "...")
            and (after is None or after.type in (tokenize.NEWLINE, tokenize.ENDMARKER) or after.string == ";")
            and (before is None or before.type in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
                                                    tokenize.ENCODING) or before.string in (";", ":")))


def _kind(token, previous):
    if token.type == tokenize.NAME:
        name = unicodedata.normalize("NFKC", token.string)  # as Python reads names: `np.ｅｘｐ` is `np.exp`
        attribute = previous is not None and previous.string == "."
        return name if attribute or name in KEPT_NAMES else "NAME"
    if token.type == tokenize.NUMBER:
        return "NUMBER"
    if token.type in STRINGS:
        return "STRING"
    return token.string


def _hashes(kinds):
    """The stable hash of each run of K_GRAM tokens (the same in every process, unlike hash())."""
    return [int.from_bytes(hashlib.blake2b("\0".join(kinds[i:i + K_GRAM]).encode(), digest_size=8).digest(), "big")
            for i in range(len(kinds) - K_GRAM + 1)]


def _winnow(hashes):
    """{the smallest hash of every WINDOW consecutive ones}: the document's fingerprints."""
    return {min(hashes[start:start + WINDOW]) for start in range(max(len(hashes) - WINDOW + 1, 1 if hashes else 0))}


def _covered(doc, shared):
    """The indexes of the tokens of `doc` in its runs whose hash is `shared`, in order."""
    return sorted({i for value in shared for start in doc.runs[value] for i in range(start, start + K_GRAM)})


def _regions(doc, covered):
    """[(start, end)] of the characters of the `covered` tokens; tokens next to each other are one region unless
    a comment or a docstring (which are not compared) lies between."""
    regions, last = [], None
    for index in covered:
        start, end = doc.spans[index]
        if regions and index - 1 == last and not doc.source[regions[-1][1]:start].strip():
            regions[-1] = (regions[-1][0], end)
        else:
            regions.append((start, end))
        last = index
    return regions


def _lines(doc, covered):
    """[(first line, last line)] (1-based) of each run of consecutive `covered` tokens."""
    runs = []
    for index in covered:
        first, last = doc.token_lines[index]
        if runs and index - 1 == runs[-1][2]:
            runs[-1] = (runs[-1][0], last, index)
        else:
            runs.append((first, last, index))
    return [(first, last) for first, last, _ in runs]
