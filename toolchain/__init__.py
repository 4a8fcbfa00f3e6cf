"""What the project needs from the machine it runs on: Node.js with the npm packages, and the cache folder.

The lowest layer: it imports nothing of the project, so the statements' markup (`markup`), the grader
and the site build (`sitebuild`) can all use it without importing one another.
"""
