// The capstone's Learn panel (#learn): training from scratch or from the pretrained weights, through the learner's
// steps, a few steps per call (Stop acts between calls, in every loop), with the loss curve (loss-chart.js), the figures, samples
// every `sample_every` steps and the samples before and after side by side. The weights are kept every
// EVAL_EVERY steps with their training state (schedule step, optimiser), so that training can resume in a new
// session after one ended (a step over the time limit), and in this browser (training-store.js), so that a
// reload restores it. From random weights training follows [training]'s schedule; from the pretrained weights,
// [fine_tuning]'s (a lower rate, no warm-up: the session picks it for weights loaded without a schedule).
// A failing step is named here too, in the status under the buttons, where the learner is looking.
import { format, LossChart } from "./loss-chart.js";
import { forgetTraining, loadTraining, saveTraining } from "./training-store.js";

const CALL_MS = 300; // aimed-at duration of one training call: short enough for Stop to feel immediate
const MAX_STEPS_PER_CALL = 50;
// Steps between held-out measurements (and kept weights), unless the page's data-eval-every says otherwise (tests).
const EVAL_EVERY = 50;

/** Steps between kept weights (and held-out measurements). */
export function keptEvery() {
  return Number(document.body.dataset.evalEvery) || EVAL_EVERY;
}
const SAMPLE_LENGTH = 200;
const SAMPLE_CHUNK = 50;
const SAMPLE_SETTINGS = { prompt: "", temperature: 0.8, topP: 0.9 };
const TIMES_EVERY_MS = 2000; // how often the steps' times are asked for while training
const RECORD_VERSION = 1; // of what is kept in this browser

/**
 * model: {startSession(weights), pretrained, config, storeKey, showError(err), clearError(), keepWeights(bytes,
 * step), showStepTimes(times)}. Returns {restart(), unmount()}.
 */
export function mountLearn(model) {
  const startButton = document.getElementById("train-start");
  const stopButton = document.getElementById("train-stop");
  const resumeButton = document.getElementById("train-resume");
  const status = document.getElementById("learn-status");
  const stats = Object.fromEntries(["step", "loss", "held-out", "unigram", "speed", "elapsed"]
    .map((name) => [name, document.getElementById(`stat-${name}`)]));
  const before = document.getElementById("sample-before");
  const after = document.getElementById("sample-after");
  const afterTitle = document.getElementById("sample-after-title");
  const sampleLog = document.getElementById("sample-log");
  const kept = document.getElementById("learn-kept");
  const chart = new LossChart(document.getElementById("loss-chart"), document.getElementById("loss-chart-caption"),
    document.getElementById("loss-rows"));
  const { sample_every: sampleEvery = 100, seed = 1 } = model.config.training;
  const schedules = { scratch: model.config.training, pretrained: { ...model.config.training,
    ...model.config.fine_tuning } };
  const pretrainedChoice = document.querySelector("input[name=start-from][value=pretrained]");
  pretrainedChoice.disabled = model.pretrained === null;

  let session = null;
  let training = false;
  let stopRequested = false;
  let left = false;
  // The training shown: {from ("scratch" or "pretrained"), maxSteps (its schedule's), steps, seconds (of training,
  // pauses left out), kept (weights with their training state at step keptAt, after keptSeconds), samples}
  let run = null;
  let timesAsked = 0;
  showPlaceholders();
  loadTraining(model.storeKey).then((record) => {
    if (record !== null && run === null && !left) restore(record);
  });

  async function start() {
    const from = document.querySelector("input[name=start-from]:checked")?.value === "pretrained"
      ? "pretrained" : "scratch";
    const fromPretrained = from === "pretrained";
    session?.end();
    session = null;
    run = { from, maxSteps: schedules[from].max_steps, steps: 0, seconds: 0, kept: null, keptAt: 0, keptSeconds: 0,
      lastEval: 0, lastSample: 0, samples: [] };
    forgetTraining(model.storeKey);
    kept.textContent = "";
    showPlaceholders();
    sampleLog.replaceChildren();
    await train(async () => {
      session = await model.startSession(fromPretrained ? model.pretrained : null);
      if (!fromPretrained) await session.call("init_weights", seed);
      chart.reset(session.info.unigram);
      stats.unigram.textContent = format(session.info.unigram);
      showStats();
      status.textContent = "Sampling before training…";
      before.textContent = await sample();
      before.classList.remove("is-placeholder");
      chart.addHeldOut(0, await session.call("held_out_loss"), 0);
      stats["held-out"].textContent = format(chart.heldOut.at(-1).loss);
    });
  }

  function resume() {
    return train(async () => {
      if (session && !session.ended) return;
      session = await model.startSession(run.kept);
      run.steps = run.keptAt; // what came after the kept weights is lost with the session that ended
      run.seconds = run.keptSeconds;
      run.lastEval = run.keptAt;
      run.lastSample = Math.min(run.lastSample, run.keptAt);
      chart.rollBack(run.keptAt);
    });
  }

  // Starts (or continues) training after `prepare()`, until Stop, an error or the end of the schedule.
  async function train(prepare) {
    setTraining(true);
    model.clearError();
    status.textContent = "Starting…";
    let startedAt = performance.now();
    let stepsPerCall = 1;
    try {
      await prepare();
      startedAt = performance.now();
      status.textContent = "Training…";
      await showStepTimes();
      while (!stopRequested && !left && run.steps < run.maxSteps) {
        const callStarted = performance.now();
        const records = await session.call("train", Math.min(stepsPerCall, run.maxSteps - run.steps));
        const callMs = performance.now() - callStarted;
        stepsPerCall = Math.max(1, Math.min(MAX_STEPS_PER_CALL,
          Math.round(stepsPerCall * CALL_MS / Math.max(callMs, 1))));
        run.steps += records.length;
        chart.addTraining(records.map((record, i) => ({ step: run.steps - records.length + i + 1,
          loss: record.loss })));
        const elapsed = run.seconds + (performance.now() - startedAt) / 1000;
        showStats(elapsed);
        if (run.steps - run.lastEval >= keptEvery()) await evaluate(elapsed);
        if (run.steps - run.lastSample >= sampleEvery) await sampleAfter();
        if (performance.now() - timesAsked >= TIMES_EVERY_MS) await showStepTimes();
      }
      await showStepTimes();
      status.textContent = run.steps >= run.maxSteps ? `Done: the schedule's ${run.maxSteps} steps are over.`
        : stopRequested ? `Stopped at step ${run.steps}. Resume continues from there.` : "";
    } catch (err) {
      if (left) return;
      if (err.endedByPage) {
        status.textContent = session === null || run.kept === null && run.steps === 0
          ? "The steps changed while the model started: Start training starts with them."
          : `Stopped at step ${run.steps}: the steps changed. Resume continues with them.`;
        return;
      }
      showFailure(err);
      model.showError(err);
    } finally {
      run.seconds += (performance.now() - startedAt) / 1000;
      setTraining(false);
    }
  }

  async function evaluate(elapsed) {
    run.lastEval = run.steps;
    const loss = await session.call("held_out_loss");
    chart.addHeldOut(run.steps, loss, elapsed);
    stats["held-out"].textContent = format(loss);
    run.kept = await session.call("weights_bytes", true);
    run.keptAt = run.steps;
    run.keptSeconds = elapsed;
    model.keepWeights(run.kept, run.keptAt);
    const record = { version: RECORD_VERSION, savedAt: Date.now(), from: run.from, steps: run.keptAt,
      seconds: elapsed, weights: run.kept, chart: chart.state(), lastSample: run.lastSample, samples: run.samples,
      before: before.textContent };
    const keptAt = run.keptAt;
    saveTraining(model.storeKey, record).then((error) => {
      if (left) return;
      kept.textContent = error === null
        ? `Kept in this browser at step ${keptAt}: a reload continues from there.`
        : `This browser did not keep the training (${error.message}): a reload starts again.`;
    });
  }

  // A record saved by evaluate(): the panel as it was then, ready to resume (Start over forgets it).
  function restore(record) {
    const valid = record.version === RECORD_VERSION && record.weights instanceof Uint8Array
      && schedules[record.from] !== undefined && Number.isSafeInteger(record.steps)
      && Array.isArray(record.samples) && Array.isArray(record.chart?.train) && Array.isArray(record.chart?.heldOut);
    if (!valid) {
      console.warn("Ignoring the saved training: not what this page saves.");
      return;
    }
    run = { from: record.from, maxSteps: schedules[record.from].max_steps, steps: record.steps,
      seconds: record.seconds, kept: record.weights, keptAt: record.steps, keptSeconds: record.seconds,
      lastEval: record.steps, lastSample: record.lastSample, samples: [] };
    document.querySelector(`input[name=start-from][value=${record.from}]`).checked = true;
    chart.restore(record.chart);
    stats.unigram.textContent = format(record.chart.unigram);
    stats["held-out"].textContent = format(record.chart.heldOut.at(-1)?.loss ?? null);
    showStats(record.seconds);
    before.textContent = record.before;
    before.classList.toggle("is-placeholder", !record.before);
    for (const { step, text } of record.samples) addSample(step, text);
    model.keepWeights(run.kept, run.keptAt);
    const when = new Date(record.savedAt).toLocaleString();
    status.textContent = `Restored from this browser: training from ${record.from === "scratch" ? "random weights"
      : "the pretrained weights"}, at step ${record.steps} (kept ${when}). Resume continues from there; `
      + "Start over begins again and forgets it.";
    setTraining(false);
  }

  // The failing step and why, in the Learn card (the whole message is in the error box above).
  function showFailure(err) {
    const lines = err.message.split("\n").filter((line) => line.trim());
    const first = lines[0] ?? "";
    const label = typeof err.label === "string" ? err.label : null;
    const named = label === null ? first
      : first.startsWith(capitalized(label)) ? `${label}${first.slice(label.length)}` : `${label} failed. ${first}`;
    const link = Object.assign(document.createElement("a"), { href: "#capstone-error",
      textContent: "The whole message is above." });
    status.replaceChildren(`Training stopped at step ${run.steps}: ${named}`, ...(lines.length > 1 ? [" ", link] : []));
  }

  async function showStepTimes() {
    timesAsked = performance.now();
    model.showStepTimes(await session.call("step_times"));
  }

  // What the empty sample panels will hold, and when.
  function showPlaceholders() {
    before.textContent = "Written when training starts: the model's text before its first step.";
    after.textContent = `Written every ${sampleEvery} training steps, the first after step ${sampleEvery}.`;
    afterTitle.textContent = "After training";
    for (const pre of [before, after]) pre.classList.add("is-placeholder");
  }

  async function sampleAfter() {
    run.lastSample = run.steps;
    const text = await sample();
    addSample(run.steps, text);
  }

  // A sample after `step`: in the After panel and the log of every sample.
  function addSample(step, text) {
    run.samples.push({ step, text });
    after.textContent = text;
    after.classList.remove("is-placeholder");
    afterTitle.textContent = `After ${step} steps`;
    const item = document.createElement("li");
    const heading = Object.assign(document.createElement("p"), { className: "sample-step" });
    heading.textContent = `Step ${step}`;
    const pre = Object.assign(document.createElement("pre"), { className: "capstone-text" });
    pre.textContent = text;
    item.append(heading, pre);
    sampleLog.append(item);
  }

  async function sample() {
    const { prompt, temperature, topP } = SAMPLE_SETTINGS;
    await session.call("start_generation", prompt, temperature, topP, run.steps + seed);
    let text = "";
    while (text.length < SAMPLE_LENGTH && !stopRequested && !left) {
      text += await session.call("next_text", SAMPLE_CHUNK);
    }
    return text;
  }

  function showStats(elapsed = 0) {
    stats.step.textContent = String(run.steps);
    stats.loss.textContent = format(chart.latestTraining());
    stats.speed.textContent = elapsed > 0 ? (run.steps / elapsed).toFixed(1) : "–";
    const seconds = String(Math.floor(elapsed % 60)).padStart(2, "0");
    stats.elapsed.textContent = `${Math.floor(elapsed / 60)} min ${seconds} s`;
    stats.elapsed.dataset.seconds = elapsed.toFixed(1);
  }

  function setTraining(on) {
    training = on;
    stopRequested = false;
    const focused = document.activeElement;
    startButton.disabled = on;
    stopButton.hidden = !on;
    resumeButton.hidden = on || run === null || run.steps >= run.maxSteps
      || ((session === null || session.ended) && run.kept === null);
    startButton.textContent = run === null ? "Start training" : "Start over";
    if (on && (focused === startButton || focused === resumeButton)) stopButton.focus();
    if (!on && focused === stopButton) (resumeButton.hidden ? startButton : resumeButton).focus();
  }

  const onStart = () => start();
  const onStop = () => {
    stopRequested = true;
    status.textContent = "Stopping after this call…";
  };
  const onResume = () => resume();
  startButton.addEventListener("click", onStart);
  stopButton.addEventListener("click", onStop);
  resumeButton.addEventListener("click", onResume);
  startButton.disabled = false;

  function capitalized(text) {
    return text[0].toUpperCase() + text.slice(1);
  }

  return {
    /** The steps in scope changed: training stops; Resume continues in a new session from the weights kept. */
    restart() {
      if (session === null) return;
      stopRequested = true;
      session.end();
      if (!training) setTraining(false);
    },
    unmount() {
      left = true;
      session?.end();
      chart.disconnect();
      startButton.removeEventListener("click", onStart);
      stopButton.removeEventListener("click", onStop);
      resumeButton.removeEventListener("click", onResume);
    },
  };
}
