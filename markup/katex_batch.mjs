// Renders a batch of formulas with KaTeX to MathML, for markup/katex.py.
// stdin: a JSON list of [latex, display]; stdout: a JSON list, one entry per formula,
// {"mathml": "<math ...>"} or {"error": "...", "position": index in latex or null, "length": characters from there}.
import katex from "katex";
import { readFileSync } from "node:fs";

function render(latex, display) {
  const refused = [];
  const options = {
    output: "mathml",
    displayMode: display,
    throwOnError: true,
    strict: "error",
    // Links, images and raw HTML: KaTeX asks before rendering them; refusing makes it print the
    // command in red instead of failing, so remember the refusal and report it as an error.
    trust: (context) => { refused.push(context.command); return false; },
  };
  try {
    const mathml = katex.renderToString(latex, options);
    if (refused.length) {
      return { error: `${refused[0]} is not allowed in a formula`, position: latex.indexOf(refused[0]),
               length: refused[0].length };
    }
    return { mathml: mathml.replace(/^<span class="katex">|<\/span>$/g, "") };
  } catch (error) {
    if (!(error instanceof katex.ParseError)) throw error;
    return { error: error.rawMessage, position: error.position ?? null, length: error.length ?? 0 };
  }
}

const formulas = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(formulas.map(([latex, display]) => render(latex, display))));
