// Inlined in the head of the pages that grade (an exercise, the capstone), as a classic script before the
// stylesheet: starts the page's first grading worker before the page's own script (page.js) is fetched and
// run. The script element carries the runtime's URLs, as the body does for page.js.
import { startEarlyWorker } from "./python-worker-start.js";

startEarlyWorker(document.currentScript);
