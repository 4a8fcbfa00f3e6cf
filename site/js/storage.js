// localStorage can be unavailable (privacy settings) or full; the site works without it.

export function storageGet(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Saves `value` at `key`: null when it did, else the browser's error (see isStorageFull). */
export function storageSet(key, value) {
  try {
    localStorage.setItem(key, value);
    return null;
  } catch (err) {
    console.warn(`Could not save ${key}:`, err);
    return err;
  }
}

export function storageRemove(key) {
  try {
    localStorage.removeItem(key);
  } catch {
    // unavailable storage holds nothing to remove
  }
}

/** True when `error` (from storageSet) says the site's storage is full, rather than unavailable. */
export function isStorageFull(error) {
  return error?.name === "QuotaExceededError";
}

/** Removes every entry whose key starts with `prefix`; returns how many there were. */
export function storageRemoveAll(prefix) {
  try {
    const keys = Object.keys(localStorage).filter((key) => key.startsWith(prefix));
    for (const key of keys) localStorage.removeItem(key);
    return keys.length;
  } catch {
    return 0;
  }
}
