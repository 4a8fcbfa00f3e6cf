// Python highlighted by the editor's own parser (@lezer/python, in the editor's chunk already),
// with the Pygments classes of the statement's code blocks (markup/markdown.py), so that
// style.css colours both alike.
import { parser } from "@lezer/python";
import { highlightCode, tagHighlighter, tags as t } from "@lezer/highlight";

// Lezer's tags, as the Pygments classes of the statement's code blocks.
const highlighter = tagHighlighter([
  { tag: [t.keyword, t.bool, t.null, t.operatorKeyword, t.controlKeyword, t.definitionKeyword], class: "hl-k" },
  { tag: [t.string, t.special(t.string)], class: "hl-s" },
  { tag: t.comment, class: "hl-c" },
  { tag: t.number, class: "hl-m" },
  { tag: [t.function(t.definition(t.variableName)), t.meta], class: "hl-nf" },
  { tag: t.definition(t.className), class: "hl-nc" },
  { tag: t.self, class: "hl-bp" },
]);

// The lines of `source`, each an array of text nodes and highlighted <span>s.
export function highlightedLines(source) {
  const lines = [[]];
  highlightCode(source, parser.parse(source), highlighter, (text, classes) => {
    lines[lines.length - 1].push(classes ? element("span", classes, text) : text);
  }, () => lines.push([]));
  return lines;
}

function element(tag, className, text) {
  return Object.assign(document.createElement(tag), { className, textContent: text });
}
