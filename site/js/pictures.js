// Pictures of a failed comparison (a test's `comparison`, see grader/core/comparison.py):
// the learner's array, the expected one and their difference, as heatmaps (2-D) or line
// plots (1-D) on plain canvases. Each has its colour scale or value range and a text
// alternative naming the shape, the range and the worst entry. The entry under the pointer, or
// under the cursor that arrow keys move on a focused picture, is marked on every picture and
// read out below them (a polite live region, so screen readers hear it too). Reports are checked
// before they get here (report.js); a picture still never has more entries than a checked
// comparison allows, whatever it is given.
import { COMPARISON_MAX_LENGTH, COMPARISON_MAX_SIDE } from "./report.js";

const SIZE = 120; // CSS pixels of a picture's longer side
const MIN_SIDE = 40;
const PLOT_HEIGHT = 96;
// Diverging blue - white - red (ColorBrewer RdBu): negative blue, zero white, positive red.
const STOPS = [[33, 102, 172], [146, 197, 222], [247, 247, 247], [244, 165, 130], [178, 24, 43]];
const NAN_COLOUR = [20, 20, 20];
const NON_FINITE = { nan: NaN, inf: Infinity, "-inf": -Infinity };

/** A <figure> with the pictures of `comparison`, or null when there is nothing to draw. */
export function comparisonFigure(comparison) {
  const got = decode(comparison.got);
  const expected = decode(comparison.expected);
  if (!got && !expected) return null;
  const sameGrid = got && expected && same(got.shape, expected.shape) && same(got.step, expected.step);
  const difference = sameGrid ? { ...got, data: got.data.map((value, i) => value - expected.data[i]) } : null;
  // Heatmaps centre their colour scale on 0; line plots span their values. Yours and expected share one.
  const rangeOf = (arrays) => ((got ?? expected).shape.length === 2 ? symmetricRange(arrays) : valueRange(arrays));
  const shared = rangeOf([got, expected].filter(Boolean));
  const panels = [ // [label, array, value range, word in the readout]
    ["Yours", got, shared, "yours"],
    ["Expected", expected, shared, "expected"],
    ["Yours − expected", difference, difference && rangeOf([difference]), "difference"],
  ].filter(([, array]) => array);

  const readout = element("p", { className: "figure-readout" },
    "Point at or tap a picture, or focus it and use the arrow keys, to read its values.");
  readout.setAttribute("aria-live", "polite");
  const grid = got ?? expected;
  const pictures = [];
  const show = (position) => {
    const index = position.map((k, axis) => k * grid.step[axis]);
    const parts = panels.map(([, array, , word]) => `${word} ${format(array.data[flat(array, position)])}`);
    const where = index.length === 2 ? `Row ${index[0]}, column ${index[1]}` : `Entry ${index[0]}`;
    readout.textContent = `${where}: ${parts.join(", ")}`;
    for (const picture of pictures) picture.markCursor(position);
  };
  const figure = element("figure", { className: "comparison" });
  const row = element("div", { className: "comparison-panels" });
  for (const [label, array, range] of panels) {
    const picture = panel(label, array, range, show);
    pictures.push(picture);
    row.append(picture.element);
  }
  figure.append(row, readout);
  const notes = [got, expected].filter(Boolean).map(downsampleNote).filter(Boolean);
  if (!sameGrid && got && expected) notes.unshift("Shapes differ, so no difference is drawn.");
  if ([got, expected].some((array) => array?.data.some(Number.isNaN))) notes.push("Black marks NaN.");
  figure.append(element("figcaption", {}, ["Yours, expected and their difference.", ...new Set(notes)].join(" ")));
  return figure;
}

// {element, markCursor(position)}: one picture with its label and scale; `onPoint(position)` when the
// pointer or the keyboard picks an entry (position: [row, column] of a heatmap, [entry] of a line plot).
function panel(label, array, range, onPoint) {
  const twoD = array.shape.length === 2;
  const canvas = twoD ? heatmap(array, range) : linePlot(array, range);
  canvas.tabIndex = 0;
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", `${describe(label, array)}. Arrow keys move through the entries.`);
  const cursor = element("span", { className: "comparison-cursor", hidden: true });
  let at = null; // [row, column] of the cursor
  const pick = (row, column) => {
    at = [clamp(row, array.rows - 1), clamp(column, array.cols - 1)];
    onPoint(twoD ? at : [at[1]]);
  };
  const pointAt = (event) => {
    const box = canvas.getBoundingClientRect();
    pick(Math.floor((event.clientY - box.top) / box.height * array.rows),
      Math.floor((event.clientX - box.left) / box.width * array.cols));
  };
  canvas.addEventListener("pointermove", pointAt);
  canvas.addEventListener("pointerdown", pointAt); // touch: a tap reads the entry
  const MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  canvas.addEventListener("keydown", (event) => {
    const [row, column] = at ?? [0, 0];
    if (event.key in MOVES) {
      const [down, right] = at ? MOVES[event.key] : [0, 0]; // the first key shows the first entry
      pick(row + down, column + right);
    } else if (event.key === "Home") {
      pick(row, 0);
    } else if (event.key === "End") {
      pick(row, array.cols - 1);
    } else {
      return;
    }
    event.preventDefault(); // not a page scroll
  });
  const [low, high] = range;
  const scale = element("div", { className: "comparison-scale" },
    element("span", {}, format(low, 3)),
    twoD ? element("span", { className: "comparison-scale-bar" }) : " to ",
    element("span", {}, format(high, 3)));
  scale.setAttribute("aria-hidden", "true"); // the canvas's label says the range
  const picture = element("div", { className: "comparison-picture" }, canvas, cursor);
  return {
    element: element("div", { className: "comparison-panel" },
      element("span", { className: "comparison-label" }, label), picture, scale),
    markCursor(position) {
      at = twoD ? position : [0, position[0]];
      cursor.hidden = false;
      cursor.classList.toggle("is-column", !twoD);
      Object.assign(cursor.style, {
        left: `${(at[1] / array.cols) * 100}%`,
        width: `${100 / array.cols}%`,
        top: twoD ? `${(at[0] / array.rows) * 100}%` : "0",
        height: twoD ? `${100 / array.rows}%` : "100%",
      });
    },
  };
}

function heatmap(array, [low, high]) {
  const canvas = element("canvas", { width: array.cols, height: array.rows });
  const cell = SIZE / Math.max(array.rows, array.cols);
  canvas.style.width = `${Math.max(MIN_SIDE, array.cols * cell)}px`;
  canvas.style.height = `${Math.max(MIN_SIDE, array.rows * cell)}px`;
  const context = canvas.getContext("2d");
  const image = context.createImageData(array.cols, array.rows);
  array.data.forEach((value, i) => {
    const colour = Number.isNaN(value) ? NAN_COLOUR : colourAt((value - low) / (high - low));
    image.data.set([...colour, 255], i * 4);
  });
  context.putImageData(image, 0, 0);
  return canvas;
}

function linePlot(array, [low, high]) {
  const canvas = element("canvas");
  const ratio = window.devicePixelRatio || 1;
  canvas.width = SIZE * ratio;
  canvas.height = PLOT_HEIGHT * ratio;
  canvas.style.width = `${SIZE}px`;
  canvas.style.height = `${PLOT_HEIGHT}px`;
  const context = canvas.getContext("2d");
  context.scale(ratio, ratio);
  const x = (i) => (array.cols === 1 ? SIZE / 2 : 3 + (i / (array.cols - 1)) * (SIZE - 6));
  const y = (value) => PLOT_HEIGHT - 4 - ((clampValue(value, low, high) - low) / (high - low)) * (PLOT_HEIGHT - 8);
  if (low < 0 && high > 0) {
    context.strokeStyle = themeColour("--border");
    context.beginPath();
    context.moveTo(0, y(0));
    context.lineTo(SIZE, y(0));
    context.stroke();
  }
  context.strokeStyle = themeColour("--accent");
  context.lineWidth = 1.5;
  context.beginPath();
  let drawing = false;
  array.data.forEach((value, i) => {
    if (Number.isNaN(value)) {
      drawing = false;
      return;
    }
    if (drawing) context.lineTo(x(i), y(value));
    else context.moveTo(x(i), y(value));
    drawing = true;
  });
  context.stroke();
  return canvas;
}

// The colour a custom property of style.css gives now: its light-dark() pairs resolve on an element only.
function themeColour(variable) {
  const probe = document.body.appendChild(element("span"));
  probe.style.color = `var(${variable})`;
  const colour = getComputedStyle(probe).color;
  probe.remove();
  return colour;
}

// --- data ---

// {shape, step, rows, cols, data}, or null when there is nothing to draw or more than allowed.
function decode(array) {
  if (!array) return null;
  const rows = array.shape.length === 2 ? array.values : [array.values];
  const [maxRows, maxCols] = array.shape.length === 2 ? [COMPARISON_MAX_SIDE, COMPARISON_MAX_SIDE]
    : [1, COMPARISON_MAX_LENGTH];
  if (!Array.isArray(rows) || rows.length < 1 || rows.length > maxRows
      || !rows.every((row) => Array.isArray(row) && row.length === rows[0].length && row.length <= maxCols)) {
    return null;
  }
  const data = rows.flat().map((value) => (typeof value === "string" ? NON_FINITE[value] : Number(value)));
  return { shape: array.shape, step: array.step, rows: rows.length, cols: rows[0].length, data };
}

function flat(array, position) {
  return array.shape.length === 2 ? position[0] * array.cols + position[1] : position[0];
}

// [-m, m] with m the largest finite magnitude among the arrays (1 when all are 0).
function symmetricRange(arrays) {
  let largest = 0;
  for (const array of arrays) {
    for (const value of array.data) if (Number.isFinite(value)) largest = Math.max(largest, Math.abs(value));
  }
  return largest > 0 ? [-largest, largest] : [-1, 1];
}

// [min, max] of the finite values (widened when flat; [-1, 1] when there are none).
function valueRange(arrays) {
  const finite = arrays.flatMap((array) => array.data.filter(Number.isFinite));
  if (finite.length === 0) return [-1, 1];
  let low = Math.min(...finite);
  let high = Math.max(...finite);
  if (low === high) [low, high] = [low - 1, high + 1];
  return [low, high];
}

function describe(label, array) {
  const kind = array.shape.length === 2 ? "Heatmap" : "Line plot";
  const finite = array.data.filter(Number.isFinite);
  let text = `${label}: ${kind.toLowerCase()} of an array of shape (${array.shape.join(", ")})`;
  if (finite.length) text += `, values from ${format(Math.min(...finite))} to ${format(Math.max(...finite))}`;
  const bad = array.data.length - finite.length;
  if (bad) text += `, ${bad} not finite`;
  let worst = 0;
  array.data.forEach((value, i) => {
    const size = Number.isNaN(value) ? Infinity : Math.abs(value);
    if (size > Math.abs(array.data[worst]) || (Number.isNaN(value) && !Number.isNaN(array.data[worst]))) worst = i;
  });
  const position = array.shape.length === 2 ? [Math.floor(worst / array.cols), worst % array.cols] : [worst];
  const index = position.map((k, axis) => k * array.step[axis]);
  return `${text}; largest in size ${format(array.data[worst])} at [${index.join(", ")}]`;
}

function downsampleNote(array) {
  const parts = array.shape.map((n, axis) => (array.step[axis] > 1
    ? `every ${ordinal(array.step[axis])} ${array.shape.length === 2 ? ["row", "column"][axis] : "entry"} of ${n}`
    : null)).filter(Boolean);
  return parts.length ? `Large arrays are shown in part: ${parts.join(", ")}.` : null;
}

function colourAt(fraction) {
  const position = clampValue(Number.isFinite(fraction) ? fraction : fraction > 0 ? 1 : 0, 0, 1) * (STOPS.length - 1);
  const index = Math.min(Math.floor(position), STOPS.length - 2);
  const t = position - index;
  return STOPS[index].map((channel, c) => Math.round(channel + (STOPS[index + 1][c] - channel) * t));
}

function format(value, digits = 4) {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  return Number(value.toPrecision(digits)).toString();
}

function ordinal(n) {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] ?? "th");
  return `${n}${suffix}`;
}

const same = (a, b) => a.length === b.length && a.every((n, i) => n === b[i]);
const clamp = (k, max) => Math.min(Math.max(k, 0), max);
const clampValue = (value, low, high) => Math.min(Math.max(value, low), high);

function element(tag, properties, ...children) {
  const node = Object.assign(document.createElement(tag), properties);
  node.append(...children);
  return node;
}
