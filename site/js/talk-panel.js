// The capstone's Talk panel (#talk): text from the model, written through the learner's steps (gpt_step with its
// cache, top_p_filter, sample_token), a few characters per call so that they appear as they are made and Stop
// acts at once. It has a session of its own, holding the pretrained weights, or the learner's trained ones.
const CHUNK = 8; // characters per call: a few tens of milliseconds

/**
 * model: {startSession(weights), pretrained (.npz bytes, or null), trainedWeights() (bytes or null), trainedStep()
 * (the step they were kept at, or null), keptEvery (steps between kept weights), showError(err), clearError()}.
 * Generates a first text at once. Returns {trainedChanged(), restart(), unmount()}.
 */
export function mountTalk(model) {
  const form = document.getElementById("talk-form");
  const prompt = document.getElementById("talk-prompt");
  const weightsChoice = document.getElementById("talk-model");
  const length = document.getElementById("talk-length");
  const temperature = document.getElementById("talk-temperature");
  const topP = document.getElementById("talk-top-p");
  const generateButton = document.getElementById("generate-button");
  const stopButton = document.getElementById("generate-stop");
  const output = document.getElementById("talk-output");
  const status = document.getElementById("talk-status");

  let session = null;
  let starting = null; // the session being started
  let loaded = null; // the weights (bytes) the session holds
  let generating = false;
  let stopRequested = false;
  let left = false;

  const pretrainedOption = weightsChoice.querySelector("option[value=pretrained]");
  pretrainedOption.disabled = model.pretrained === null;
  if (model.pretrained === null) pretrainedOption.textContent = "Pretrained (none in this build)";
  const trainedOption = weightsChoice.querySelector("option[value=trained]");
  showTrained();

  // The learner's weights, once training has kept some; until then the option says when it will have them.
  function showTrained() {
    const step = model.trainedStep();
    trainedOption.disabled = step === null;
    trainedOption.textContent = step === null ? `Yours: after ${model.keptEvery} steps of training below`
      : `Yours, trained ${step} steps`;
  }

  function ensureSession() {
    if (session && !session.ended) return Promise.resolve(session);
    starting ??= model.startSession(null).then((started) => {
      session = started;
      loaded = null;
      return started;
    }).finally(() => { starting = null; });
    return starting;
  }

  async function generate() {
    if (generating) return;
    const weights = weightsChoice.value === "trained" ? model.trainedWeights() : model.pretrained;
    if (weights === null) {
      status.textContent = "Train the model below first: these weights come from training.";
      return;
    }
    setGenerating(true);
    model.clearError();
    status.textContent = "Generating…";
    output.textContent = "";
    let made = 0;
    try {
      const current = await ensureSession();
      if (loaded !== weights) {
        await current.call("load_weights", weights);
        loaded = weights;
      }
      const seed = Math.floor(Math.random() * 2 ** 31);
      await current.call("start_generation", prompt.value, Number(temperature.value), Number(topP.value), seed);
      output.textContent = prompt.value;
      const wanted = Math.round(Number(length.value));
      while (made < wanted && !stopRequested && !left) {
        const text = await current.call("next_text", Math.min(CHUNK, wanted - made));
        output.append(text);
        made += text.length;
      }
      status.textContent = stopRequested ? `Stopped after ${made} characters.` : `${made} characters generated.`;
    } catch (err) {
      if (left) return;
      status.textContent = made > 0 ? `Stopped after ${made} characters.` : "";
      if (!err.endedByPage) model.showError(err);
    } finally {
      setGenerating(false);
    }
  }

  function setGenerating(on) {
    generating = on;
    stopRequested = false;
    output.setAttribute("aria-busy", String(on));
    generateButton.disabled = on;
    const focused = document.activeElement;
    stopButton.hidden = !on;
    if (on && focused === generateButton) stopButton.focus();
    if (!on && focused === stopButton) generateButton.focus();
  }

  const onSubmit = (event) => {
    event.preventDefault();
    if (form.reportValidity()) generate();
  };
  const onStop = () => {
    stopRequested = true;
    status.textContent = "Stopping…";
  };
  form.addEventListener("submit", onSubmit);
  stopButton.addEventListener("click", onStop);

  status.textContent = "Loading the model…";
  ensureSession().then(() => {
    if (left) return;
    generateButton.disabled = false;
    status.textContent = "";
    if (model.pretrained !== null) generate();
  }, (err) => {
    if (left) return;
    status.textContent = err.endedByPage ? "The steps changed while the model started: Generate writes with them."
      : "";
    generateButton.disabled = false; // Generate tries again
    if (!err.endedByPage) model.showError(err);
  });

  return {
    /** The learner's trained weights changed (or appeared). */
    trainedChanged() {
      showTrained();
    },
    /** The steps in scope changed: the next Generate starts a new session with them (the view ends one being
     * started). */
    restart() {
      stopRequested = true;
      session?.end();
    },
    unmount() {
      left = true;
      form.removeEventListener("submit", onSubmit);
      stopButton.removeEventListener("click", onStop);
      session?.end();
      starting?.then((started) => started.end(), () => {});
    },
  };
}
