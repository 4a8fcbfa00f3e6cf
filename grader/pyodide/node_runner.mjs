// Run Python in real Pyodide under Node, offline, from a folder made by grader.pyodide.dist.ensure_dist.
//
//   node grader/pyodide/node_runner.mjs DIST_DIR < request.json
//
// request.json: {"files": {"relative/path.py": "source", ...}, "code": "python code"}
// The files are written under /home/pyodide/, which is put on sys.path; `code`
// runs with runPythonAsync and must end with an expression that evaluates to a
// str (e.g. json.dumps(...)). That str is printed as the last line of stdout.
// Python's own print output goes to stderr so stdout holds only the result.
// Errors go to stderr, exit code 1.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const HOME = "/home/pyodide";

async function main() {
  const distDir = process.argv[2];
  if (!distDir) throw new Error("usage: node node_runner.mjs DIST_DIR < request.json");
  const indexURL = path.resolve(distDir) + path.sep;
  const request = JSON.parse(readFileSync(0, "utf8"));

  const toStderr = (line) => process.stderr.write(line + "\n");
  const { loadPyodide } = await import(pathToFileURL(path.join(indexURL, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({ indexURL, stdout: toStderr, stderr: toStderr });
  await pyodide.loadPackage("numpy", { messageCallback: () => {}, errorCallback: toStderr });

  for (const [relPath, source] of Object.entries(request.files ?? {})) {
    const file = path.posix.join(HOME, relPath);
    pyodide.FS.mkdirTree(path.posix.dirname(file));
    pyodide.FS.writeFile(file, source);
  }
  // invalidate_caches: the import system may have listed HOME before the files were written.
  pyodide.runPython(`import importlib, sys; sys.path.insert(0, "${HOME}"); importlib.invalidate_caches()`);

  const result = await pyodide.runPythonAsync(request.code);
  if (typeof result !== "string") {
    result?.destroy?.();
    throw new Error(`code must end with an expression that evaluates to a str, got ${typeof result}`);
  }
  // process.exit() does not wait for a pipe to take a long line (over 64 kB): wait for it.
  await new Promise((resolve) => process.stdout.write(result + "\n", resolve));
}

function fail(err) {
  process.stderr.write(`${err?.message ?? err}\n`);
  process.exit(1);
}

// SystemExit and os._exit() escape runPythonAsync's promise: Pyodide's event loop
// rethrows them from a setImmediate callback. Without this handler Node would
// print the 1 MB minified source line of pyodide.asm.js to stderr.
process.on("uncaughtException", fail);
main().then(() => process.exit(0), fail);
