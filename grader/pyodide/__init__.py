"""The browser's Python: the self-hosted Pyodide distribution the site ships (`dist`), the modules a
submission may import there (`modules`), and a runner that grades in that Pyodide under Node for
`validate --pyodide` (`node_runner.mjs`)."""
