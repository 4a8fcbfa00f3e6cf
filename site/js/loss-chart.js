// The capstone's loss curve: training loss (a running mean, the per-step loss being noisy), held-out loss and
// the unigram baseline as a line, drawn as SVG. The figure's caption says the same in words, and a table
// lists every held-out measurement: what the chart shows is readable without seeing it.
const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 640; // until the chart has a width on screen: then one unit is one pixel, so labels stay readable
const HEIGHT = 260;
const PAD = { left: 44, right: 12, top: 28, bottom: 30 };
export const SMOOTHING = 20; // training steps in the running mean
const MAX_DRAWN = 400; // points of the training curve drawn, however long the training

export class LossChart {
  /** svg: the chart's <svg>; caption: its <figcaption> (its accessible name); rows: the table's <tbody>. */
  constructor(svg, caption, rows) {
    this.svg = svg;
    this.caption = caption;
    this.rows = rows;
    this.width = WIDTH;
    this.resizing = new ResizeObserver(() => {
      const width = Math.round(svg.clientWidth);
      if (width > 0 && width !== this.width) this.draw();
    });
    this.resizing.observe(svg);
    this.reset(null);
  }

  /** Stops following the chart's size (the page is left). */
  disconnect() {
    this.resizing.disconnect();
  }

  /** Forgets the curves; `unigram`: the baseline's loss (nats per character), or null. */
  reset(unigram) {
    this.unigram = unigram;
    this.train = []; // {step, loss}: the running mean at each step
    this.recent = []; // the last SMOOTHING per-step losses
    this.heldOut = []; // {step, loss}
    this.rows.replaceChildren();
    this.draw();
  }

  /** Adds the training steps `records` ([{step, loss}], as Session.train returns them). */
  addTraining(records) {
    for (const { step, loss } of records) {
      this.recent.push(loss);
      if (this.recent.length > SMOOTHING) this.recent.shift();
      this.train.push({ step, loss: mean(this.recent) });
    }
    this.draw();
  }

  /** Forgets the training after `step` (a new session resumes from weights kept then). */
  rollBack(step) {
    this.train = this.train.filter((point) => point.step <= step);
    this.recent = [];
    this.heldOut = this.heldOut.filter((point) => point.step <= step);
    this.draw();
  }

  /** The running mean of the training loss at the last step, or null. */
  latestTraining() {
    return this.train.at(-1)?.loss ?? null;
  }

  /** Adds a held-out measurement after `step`, with its row in the table (`elapsed`: seconds of training). */
  addHeldOut(step, loss, elapsed) {
    this.heldOut.push({ step, loss });
    const cells = [String(step), format(this.latestTraining()), format(loss), `${elapsed.toFixed(0)} s`];
    const row = document.createElement("tr");
    for (const text of cells) row.append(Object.assign(document.createElement("td"), { textContent: text }));
    this.rows.append(row);
    this.draw();
  }

  draw() {
    this.width = Math.round(this.svg.clientWidth) || WIDTH;
    const width = this.width;
    this.svg.setAttribute("viewBox", `0 0 ${width} ${HEIGHT}`);
    this.caption.textContent = this.summary();
    const all = [...this.train, ...this.heldOut].map((point) => point.loss);
    if (this.unigram !== null) all.push(this.unigram);
    const lastStep = Math.max(50, this.train.at(-1)?.step ?? 0, this.heldOut.at(-1)?.step ?? 0);
    // The axis spans the losses shown, in half-nats, with a margin.
    const low = all.length ? Math.max(0, Math.floor((Math.min(...all) - 0.25) * 2) / 2) : 0;
    const high = Math.max(Math.ceil((Math.max(...all, 0) + 0.1) * 2) / 2, low + 1);
    const x = (step) => PAD.left + (step / lastStep) * (width - PAD.left - PAD.right);
    const y = (loss) => PAD.top + ((high - loss) / (high - low)) * (HEIGHT - PAD.top - PAD.bottom);
    const parts = [...this.axes(low, high, lastStep, x, y, width)];
    if (this.unigram !== null) {
      parts.push(node("line", { class: "chart-unigram", x1: x(0), x2: x(lastStep), y1: y(this.unigram),
        y2: y(this.unigram) }));
    }
    const every = Math.max(1, Math.ceil(this.train.length / MAX_DRAWN));
    const drawn = this.train.filter((_, i) => i % every === 0 || i === this.train.length - 1);
    if (drawn.length > 0) parts.push(node("polyline", { class: "chart-train", points: pointsOf(drawn, x, y) }));
    if (this.heldOut.length > 0) {
      parts.push(node("polyline", { class: "chart-held-out", points: pointsOf(this.heldOut, x, y) }));
      for (const point of this.heldOut) {
        parts.push(node("circle", { class: "chart-held-out-point", cx: x(point.step), cy: y(point.loss), r: 3 }));
      }
    }
    parts.push(...legend(width));
    this.svg.replaceChildren(...parts);
  }

  * axes(low, high, lastStep, x, y, width) {
    const step = high - low > 3 ? 1 : 0.5;
    for (let loss = low; loss <= high + 1e-9; loss += step) {
      yield node("line", { class: "chart-grid", x1: PAD.left, x2: width - PAD.right, y1: y(loss), y2: y(loss) });
      yield node("text", { class: "chart-label", x: PAD.left - 6, y: y(loss) + 4, "text-anchor": "end" },
        loss.toFixed(1));
    }
    const tick = niceTick(lastStep, width < 480 ? 3 : 5);
    for (let s = 0; s <= lastStep; s += tick) {
      yield node("text", { class: "chart-label", x: x(s), y: HEIGHT - 10, "text-anchor": "middle" }, String(s));
    }
  }

  summary() {
    const unigram = this.unigram === null ? ""
      : ` The unigram baseline (letter frequencies alone) is ${format(this.unigram)}.`;
    if (this.train.length === 0) return `Loss (nats per character) against training steps: no training yet.${unigram}`;
    const first = this.train[0];
    const last = this.train.at(-1);
    const heldOut = this.heldOut.at(-1);
    const below = this.unigram !== null && last.loss < this.unigram ? " It is below the unigram baseline." : "";
    return `Loss (nats per character) against training steps. Training loss (mean of the last ${SMOOTHING} steps) `
      + `${format(last.loss)} at step ${last.step}, from ${format(first.loss)} at step ${first.step}`
      + (heldOut ? `; held-out loss ${format(heldOut.loss)} at step ${heldOut.step}.` : ".") + unigram + below;
  }
}

function* legend(width) {
  const unigram = width < 400 ? "unigram" : "unigram baseline"; // a phone's chart has room for the short name
  const items = [["chart-train", "training"], ["chart-held-out", "held-out"], ["chart-unigram", unigram]];
  let left = PAD.left;
  for (const [kind, label] of items) {
    yield node("line", { class: kind, x1: left, x2: left + 18, y1: 12, y2: 12 });
    yield node("text", { class: "chart-label", x: left + 24, y: 16 }, label);
    left += 36 + label.length * 7;
  }
}

// A round step between x labels, for about `count` of them.
function niceTick(lastStep, count) {
  const raw = lastStep / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * magnitude).find((t) => t >= raw);
}

function pointsOf(points, x, y) {
  return points.map((point) => `${x(point.step).toFixed(1)},${y(point.loss).toFixed(1)}`).join(" ");
}

function node(tag, attributes, text = null) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  if (text !== null) element.textContent = text;
  return element;
}

function mean(values) {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

export function format(loss) {
  return loss === null || loss === undefined ? "–" : loss.toFixed(3);
}
