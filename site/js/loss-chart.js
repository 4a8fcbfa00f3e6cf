// The capstone's loss curve: training loss (a running mean, the per-step loss being noisy), held-out loss and
// the unigram baseline as a line, drawn as SVG. The figure's caption says the same in words, and a table
// lists every held-out measurement: what the chart shows is readable without seeing it. Whatever the losses (a
// diverging training's 4e9, 1e300, infinity), it draws a bounded number of elements: a few round ticks on each
// axis (1-2-5 steps), at most MAX_DRAWN points of the training curve, and losses beyond the axis at its edge.
const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 640; // until the chart has a width on screen: then one unit is one pixel, so labels stay readable
const HEIGHT = 260;
const PAD = { left: 44, right: 12, top: 28, bottom: 30 };
export const SMOOTHING = 20; // training steps in the running mean
const MAX_DRAWN = 400; // points of the training curve drawn, however long the training
const Y_TICKS = 5; // about as many labelled losses on the axis
// The axis goes up to OFF_SCALE times the unigram baseline's loss (at least MIN_TOP nats): above that the curve
// runs along the top edge (a learning rate too high sends the loss to thousands, or to infinity).
const OFF_SCALE = 3;
const MIN_TOP = 10;

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
    const training = this.latestTraining();
    this.heldOut.push({ step, loss, elapsed, training });
    this.addRow(this.heldOut.at(-1));
    this.draw();
  }

  addRow({ step, loss, elapsed, training }) {
    const cells = [String(step), format(training), format(loss), `${elapsed.toFixed(0)} s`];
    const row = document.createElement("tr");
    row.dataset.heldOut = String(loss); // unrounded, for benchmarks/capstone.py
    for (const text of cells) row.append(Object.assign(document.createElement("td"), { textContent: text }));
    this.rows.append(row);
  }

  /** What restore() takes: plain data (the page keeps it across reloads with the weights). */
  state() {
    return { unigram: this.unigram, train: this.train, heldOut: this.heldOut };
  }

  /** The curves of state(), as they were (the running mean starts again from the next step). */
  restore({ unigram, train, heldOut }) {
    this.reset(unigram);
    this.train = train;
    this.heldOut = heldOut;
    for (const point of heldOut) this.addRow(point);
    this.draw();
  }

  draw() {
    this.width = Math.round(this.svg.clientWidth) || WIDTH;
    const width = this.width;
    this.svg.setAttribute("viewBox", `0 0 ${width} ${HEIGHT}`);
    this.caption.textContent = this.summary();
    const lastStep = Math.max(50, this.train.at(-1)?.step ?? 0, this.heldOut.at(-1)?.step ?? 0);
    const top = Math.max(MIN_TOP, OFF_SCALE * (this.unigram ?? 0));
    const { lowest, highest } = this.finiteRange();
    // The axis spans the losses shown, with a margin, in round steps; beyond `top` (or non-finite) at the edge.
    const yTicks = niceTicks(Math.max(0, Math.min(lowest, top) - 0.25), Math.min(highest + 0.1, top), Y_TICKS);
    const [low, high] = [yTicks[0], yTicks.at(-1)];
    const offScale = highest > high
      || [...this.train, ...this.heldOut].some((point) => !Number.isFinite(point.loss));
    const x = (step) => PAD.left + (step / lastStep) * (width - PAD.left - PAD.right);
    const y = (loss) => {
      const shown = Number.isNaN(loss) ? high : Math.min(high, Math.max(low, loss));
      return PAD.top + ((high - shown) / (high - low)) * (HEIGHT - PAD.top - PAD.bottom);
    };
    const parts = [...this.axes(yTicks, lastStep, x, y, width)];
    if (offScale) {
      parts.push(node("text", { class: "chart-label chart-off-scale", x: width - PAD.right - 4, y: PAD.top + 12,
        "text-anchor": "end" }, `higher losses drawn at ${formatTick(high, high - low)}`));
    }
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

  // The lowest and highest finite loss drawn (the baseline's included): {lowest, highest}, 0 and 1 when none.
  finiteRange() {
    let lowest = Infinity;
    let highest = -Infinity;
    const take = (loss) => {
      if (!Number.isFinite(loss)) return;
      lowest = Math.min(lowest, loss);
      highest = Math.max(highest, loss);
    };
    for (const point of this.train) take(point.loss);
    for (const point of this.heldOut) take(point.loss);
    if (this.unigram !== null) take(this.unigram);
    return lowest === Infinity ? { lowest: 0, highest: 1 } : { lowest, highest };
  }

  * axes(yTicks, lastStep, x, y, width) {
    const spacing = yTicks[1] - yTicks[0];
    for (const loss of yTicks) {
      yield node("line", { class: "chart-grid", x1: PAD.left, x2: width - PAD.right, y1: y(loss), y2: y(loss) });
      yield node("text", { class: "chart-label", x: PAD.left - 6, y: y(loss) + 4, "text-anchor": "end" },
        formatTick(loss, spacing));
    }
    for (const s of niceTicks(0, lastStep, width < 480 ? 3 : 5).filter((s) => s <= lastStep)) {
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

// Round values (a step of 1, 2 or 5 times a power of ten) from at or below `low` to at or above `high`, about
// `count` + 1 of them and never more than 2 * count + 2, whatever the two finite numbers.
export function niceTicks(low, high, count) {
  const span = Math.max(high - low, Math.abs(high) * 1e-9, 1e-9);
  const raw = span / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((t) => t >= raw * (1 - 1e-12)) ?? 10 * magnitude;
  const first = Math.floor(low / step);
  const last = Math.max(Math.ceil(high / step), first + 1);
  const ticks = [];
  for (let i = first; i <= last && ticks.length <= 2 * count + 1; i += 1) ticks.push(i * step);
  return ticks;
}

// A tick's label, with as many decimals as the ticks' `spacing` needs.
function formatTick(value, spacing) {
  if (Math.abs(value) >= 1e6) return value.toExponential(1);
  return value.toFixed(Math.min(6, Math.max(0, -Math.floor(Math.log10(spacing) + 1e-9))));
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
  if (loss === null || loss === undefined) return "–";
  if (!Number.isFinite(loss)) return String(loss); // "Infinity", "NaN"
  return Math.abs(loss) >= 1e6 ? loss.toExponential(3) : loss.toFixed(3);
}
