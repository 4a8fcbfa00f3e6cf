// The capstone's Learn panel (#learn): training from scratch or from the pretrained weights, through the learner's
// steps, a few steps per call (Stop acts between calls, in every loop), with the loss curve (loss-chart.js), the figures, samples
// every `sample_every` steps and the samples before and after side by side. The weights are kept every
// EVAL_EVERY steps, so that training can resume in a new session after one ended (a step over the time limit).
import { format, LossChart } from "./loss-chart.js";

const CALL_MS = 300; // aimed-at duration of one training call: short enough for Stop to feel immediate
const MAX_STEPS_PER_CALL = 50;
// Steps between held-out measurements (and kept weights), unless the page's data-eval-every says otherwise (tests).
const EVAL_EVERY = 50;
const SAMPLE_LENGTH = 200;
const SAMPLE_CHUNK = 50;
const SAMPLE_SETTINGS = { prompt: "", temperature: 0.8, topP: 0.9 };

/**
 * model: {startSession(weights), pretrained, config, showError(err), clearError(), keepWeights(bytes)}.
 * Returns {restart(), unmount()}.
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
  const chart = new LossChart(document.getElementById("loss-chart"), document.getElementById("loss-chart-caption"),
    document.getElementById("loss-rows"));
  const { max_steps: maxSteps, sample_every: sampleEvery = 100, seed = 1 } = model.config.training;
  const pretrainedChoice = document.querySelector("input[name=start-from][value=pretrained]");
  pretrainedChoice.disabled = model.pretrained === null;

  let session = null;
  let training = false;
  let stopRequested = false;
  let left = false;
  // The training shown: {steps, seconds (of training, pauses left out), kept (weights at step keptAt)}
  let run = null;

  async function start() {
    const fromPretrained = document.querySelector("input[name=start-from]:checked")?.value === "pretrained";
    session?.end();
    session = null;
    run = { steps: 0, seconds: 0, kept: null, keptAt: 0, lastEval: 0, lastSample: 0 };
    for (const pre of [before, after]) pre.textContent = "";
    sampleLog.replaceChildren();
    afterTitle.textContent = "After training";
    await train(async () => {
      session = await model.startSession(fromPretrained ? model.pretrained : null);
      if (!fromPretrained) await session.call("init_weights", seed);
      chart.reset(session.info.unigram);
      stats.unigram.textContent = format(session.info.unigram);
      showStats();
      status.textContent = "Sampling before training…";
      before.textContent = await sample();
      chart.addHeldOut(0, await session.call("held_out_loss"), 0);
      stats["held-out"].textContent = format(chart.heldOut.at(-1).loss);
    });
  }

  function resume() {
    return train(async () => {
      if (session && !session.ended) return;
      session = await model.startSession(run.kept);
      run.steps = run.keptAt; // what came after the kept weights is lost with the session that ended
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
      while (!stopRequested && !left && run.steps < maxSteps) {
        const callStarted = performance.now();
        const records = await session.call("train", Math.min(stepsPerCall, maxSteps - run.steps));
        const callMs = performance.now() - callStarted;
        stepsPerCall = Math.max(1, Math.min(MAX_STEPS_PER_CALL,
          Math.round(stepsPerCall * CALL_MS / Math.max(callMs, 1))));
        run.steps += records.length;
        chart.addTraining(records.map((record, i) => ({ step: run.steps - records.length + i + 1,
          loss: record.loss })));
        const elapsed = run.seconds + (performance.now() - startedAt) / 1000;
        showStats(elapsed);
        const evalEvery = Number(document.body.dataset.evalEvery) || EVAL_EVERY;
        if (run.steps - run.lastEval >= evalEvery) await evaluate(elapsed);
        if (run.steps - run.lastSample >= sampleEvery) await sampleAfter();
      }
      status.textContent = run.steps >= maxSteps ? `Done: the schedule's ${maxSteps} steps are over.`
        : stopRequested ? `Stopped at step ${run.steps}. Resume continues from there.` : "";
    } catch (err) {
      if (left) return;
      if (err.endedByPage) {
        status.textContent = session === null || run.kept === null && run.steps === 0
          ? "The steps changed while the model started: Start training starts with them."
          : `Stopped at step ${run.steps}: the steps changed. Resume continues with them.`;
        return;
      }
      status.textContent = `Training stopped at step ${run.steps}.`;
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
    run.kept = await session.call("weights_bytes");
    run.keptAt = run.steps;
    model.keepWeights(run.kept);
  }

  async function sampleAfter() {
    run.lastSample = run.steps;
    const text = await sample();
    after.textContent = text;
    afterTitle.textContent = `After ${run.steps} steps`;
    const item = document.createElement("li");
    const heading = Object.assign(document.createElement("p"), { className: "sample-step" });
    heading.textContent = `Step ${run.steps}`;
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
    resumeButton.hidden = on || run === null || run.steps >= maxSteps
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
