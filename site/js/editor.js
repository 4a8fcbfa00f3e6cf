// The code editor: CodeMirror 6 with Python, 4-space indentation, and a light or dark
// theme that follows the page's (data-scheme on <html>, kept by theme.js). The learner's
// settings (editor-settings.js: font size, line wrapping, compact gutter, Tab indents)
// live in compartments, so changing one reconfigures the editor and keeps its undo history.
// Tab moves the focus on, as CodeMirror's accessible default, unless "Tab indents" is on;
// then Escape then Tab leaves the editor (CodeMirror's tab-focus mode, described in #editor-keys).
import { basicSetup, EditorView } from "codemirror";
import { python } from "@codemirror/lang-python";
import { Compartment, EditorState, RangeSetBuilder, StateField } from "@codemirror/state";
import { Decoration, keymap, ViewPlugin } from "@codemirror/view";
import { indentWithTab, isolateHistory } from "@codemirror/commands";
import { HighlightStyle, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { lintGutter, setDiagnostics } from "@codemirror/lint";
import { tags as t } from "@lezer/highlight";
import { MAX_LINE_LENGTH } from "./saved-results.js";

const lightTheme = EditorView.theme({
  "&": { backgroundColor: "#ffffff", color: "#1f2328" },
  ".cm-gutters": { backgroundColor: "#f6f8fa", color: "#57606a", borderRight: "1px solid #d0d7de" },
  ".cm-activeLine": { backgroundColor: "#f3f6fa" },
  ".cm-activeLineGutter": { backgroundColor: "#e8edf3" },
}, { dark: false });

const darkTheme = EditorView.theme({
  "&": { backgroundColor: "#1e2228", color: "#d7dae0" },
  ".cm-content": { caretColor: "#f0f0f0" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "#f0f0f0" },
  ".cm-gutters": { backgroundColor: "#1a1d22", color: "#8b949e", borderRight: "1px solid #30363d" },
  ".cm-activeLine": { backgroundColor: "#262b33" },
  ".cm-activeLineGutter": { backgroundColor: "#262b33" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection":
    { backgroundColor: "#3a4a63" },
  ".cm-matchingBracket": { backgroundColor: "#3d4f3d", outline: "1px solid #6a8f6a" },
  ".cm-panels": { backgroundColor: "#1a1d22", color: "#d7dae0" },
  ".cm-tooltip": { backgroundColor: "#262b33", border: "1px solid #30363d" },
}, { dark: true });

// Colours chosen for at least 4.5:1 contrast on the dark background.
const darkHighlight = HighlightStyle.define([
  { tag: t.keyword, color: "#d2a8ff" },
  { tag: [t.string, t.special(t.string)], color: "#a5d6ff" },
  { tag: t.comment, color: "#8b949e", fontStyle: "italic" },
  { tag: [t.number, t.bool, t.null], color: "#79c0ff" },
  { tag: [t.function(t.variableName), t.function(t.propertyName)], color: "#ffa657" },
  { tag: t.definition(t.variableName), color: "#ffa657" },
  { tag: [t.className, t.typeName], color: "#7ee787" },
  { tag: [t.operator, t.punctuation], color: "#c9d1d9" },
  { tag: t.self, color: "#ff7b72" },
  { tag: t.invalid, color: "#ff7b72" },
]);

// A wrapped line continues 4 columns right of where its code starts, so a wrapped
// Python line never looks like a line of its own at a lower indentation.
const HANGING_INDENT = 4;
const wrappedLineIndent = ViewPlugin.fromClass(class {
  constructor(view) {
    this.decorations = this.build(view);
  }

  update(update) {
    if (update.docChanged || update.viewportChanged) this.decorations = this.build(update.view);
  }

  build(view) {
    const builder = new RangeSetBuilder();
    let next = 0; // a line can span two visible ranges (around folded code)
    for (const { from, to } of view.visibleRanges) {
      for (let pos = Math.max(from, next); pos <= to; pos = next) {
        const line = view.state.doc.lineAt(pos);
        const columns = /^ */.exec(line.text)[0].length + HANGING_INDENT;
        // 6px: CodeMirror's own left padding of a line
        builder.add(line.from, line.from, Decoration.line({
          attributes: { style: `padding-left: calc(${columns}ch + 6px); text-indent: -${columns}ch` },
        }));
        next = line.to + 1;
      }
    }
    return builder.finish();
  }
}, { decorations: (plugin) => plugin.decorations });

function colourScheme(dark) {
  return dark ? [darkTheme, syntaxHighlighting(darkHighlight)] : [lightTheme];
}

const pageIsDark = () => document.documentElement.dataset.scheme === "dark";

// Narrow line numbers and no fold gutter; nor the lint gutter: errors stay underlined in the code.
const compactGutterTheme = EditorView.theme({
  ".cm-foldGutter": { display: "none !important" }, // important: as CodeMirror's own display of a gutter
  ".cm-lineNumbers .cm-gutterElement": { padding: "0 2px 0 3px", minWidth: "0" },
});

// Whether the code has a line longer than MAX_LINE_LENGTH. The browser lays out a wrapped line of
// mixed-direction text in time that grows with its square (100,000 characters: 1.6 s, 180,000: 5 s), and such a
// line unwrapped in a few milliseconds (CodeMirror draws only its visible part): wrapping stops while there is one.
const hasLongLine = StateField.define({
  create: (state) => longLineIn(state.doc, 0, state.doc.length),
  update(value, transaction) {
    if (!transaction.docChanged) return value;
    const { doc } = transaction.state;
    if (value) return longLineIn(doc, 0, doc.length);
    let found = false;
    transaction.changes.iterChangedRanges((fromA, toA, from, to) => { found ||= longLineIn(doc, from, to); });
    return found;
  },
});

function longLineIn(doc, from, to) {
  for (let pos = from; pos <= to;) {
    const line = doc.lineAt(pos);
    if (line.length > MAX_LINE_LENGTH) return true;
    pos = line.to + 1;
  }
  return false;
}

const lineWrappingUnlessLong = EditorView.contentAttributes.compute([hasLongLine],
  (state) => (state.field(hasLongLine) ? {} : { class: "cm-lineWrapping" })); // as EditorView.lineWrapping

// Each setting's extensions, one compartment each.
const SETTINGS = {
  fontSize: (size) => EditorView.editorAttributes.of({ style: `font-size: ${size}px` }),
  wrap: (on) => (on ? [hasLongLine, lineWrappingUnlessLong, wrappedLineIndent] : []),
  compactGutter: (on) => (on ? compactGutterTheme : lintGutter()),
  tabIndents: (on) => (on ? keymap.of([indentWithTab]) : []),
};

/**
 * Mount an editor in `parent`; `onChange(text)` is called after every edit. `settings`:
 * {fontSize (px), wrap, compactGutter, tabIndents}, as editor-settings.js gives them.
 * Returns {view, configure(settings), destroy}: destroy() removes the editor and its watch on the page's scheme.
 */
export function createEditor(parent, doc, onChange, settings) {
  const scheme = new Compartment();
  const compartments = Object.fromEntries(Object.keys(SETTINGS).map((name) => [name, new Compartment()]));
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        basicSetup,
        python(),
        indentUnit.of("    "),
        EditorState.tabSize.of(4),
        scheme.of(colourScheme(pageIsDark())),
        Object.entries(SETTINGS).map(([name, extension]) => compartments[name].of(extension(settings[name]))),
        // tabindex: the content is focusable anyway (contenteditable); said explicitly, checkers see it too.
        EditorView.contentAttributes.of({
          "aria-label": "Python code", "aria-describedby": "editor-keys", tabindex: "0",
        }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
  const schemeWatch = new MutationObserver(() => {
    view.dispatch({ effects: scheme.reconfigure(colourScheme(pageIsDark())) });
  });
  schemeWatch.observe(document.documentElement, { attributeFilter: ["data-scheme"] });
  return {
    view,
    configure(settings) {
      view.dispatch({ effects: Object.entries(SETTINGS).map(
        ([name, extension]) => compartments[name].reconfigure(extension(settings[name]))) });
    },
    destroy() {
      schemeWatch.disconnect();
      view.destroy();
    },
  };
}

/** Replace the whole text (one undoable step: never joined with the edits just before or after it). */
export function setText(view, text) {
  view.dispatch({
    changes: { from: 0, to: view.state.doc.length, insert: text },
    annotations: isolateHistory.of("full"),
  });
}

/**
 * Mark the lines of `problems` ([{line, column, message}], 1-based; column optional) as errors
 * and scroll the first into view. An empty list clears the marks.
 */
export function showProblems(view, problems) {
  const doc = view.state.doc;
  const diagnostics = problems.filter(({ line }) => line >= 1 && line <= doc.lines).map(({ line, column, message }) => {
    const { from, to } = doc.line(line);
    // From the column to the end of the line; the whole line when the column is past its end.
    const start = column && from + column - 1 < to ? from + column - 1 : from;
    return { from: start, to, severity: "error", message };
  });
  view.dispatch(setDiagnostics(view.state, diagnostics));
  if (diagnostics.length > 0) {
    view.dispatch({ effects: EditorView.scrollIntoView(diagnostics[0].from, { y: "center" }) });
  }
}

/** Put the cursor at the start of `line` (1-based), scroll to it and focus the editor. */
export function goToLine(view, line) {
  const { from } = view.state.doc.line(Math.min(Math.max(line, 1), view.state.doc.lines));
  view.dispatch({ selection: { anchor: from }, effects: EditorView.scrollIntoView(from, { y: "center" }) });
  view.focus();
}
