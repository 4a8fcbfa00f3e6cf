// The capstone's training, kept in this browser across reloads: one record per track (the weights with their
// training state, ~1 MB, and what the Learn panel showed), in IndexedDB (localStorage holds a few MB of text at
// most, shared with the learner's code). Every call resolves; a browser without IndexedDB (some private modes)
// keeps nothing: load() gives null and save() the error, which the page states.
const DB_NAME = "mlex-capstone";
const STORE = "training";

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error("the database is blocked by another tab"));
  });
}

// Runs `act(store)` in a transaction; resolves to its request's result when the transaction completes.
async function transact(mode, act) {
  const db = await open();
  try {
    return await new Promise((resolve, reject) => {
      const transaction = db.transaction(STORE, mode);
      const request = act(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error ?? new Error("the transaction was aborted"));
    });
  } finally {
    db.close();
  }
}

/** The record saved for `key`, or null (none, or storage unavailable). */
export async function loadTraining(key) {
  try {
    return (await transact("readonly", (store) => store.get(key))) ?? null;
  } catch (err) {
    console.warn("The saved training could not be read:", err);
    return null;
  }
}

/** Saves `record` at `key`: null when it did, else the error. */
export async function saveTraining(key, record) {
  try {
    await transact("readwrite", (store) => store.put(record, key));
    return null;
  } catch (err) {
    return err ?? new Error("unknown error");
  }
}

export async function forgetTraining(key) {
  try {
    await transact("readwrite", (store) => store.delete(key));
  } catch (err) {
    console.warn("The saved training could not be removed:", err);
  }
}
