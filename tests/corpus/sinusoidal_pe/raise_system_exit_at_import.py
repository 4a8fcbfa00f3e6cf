# expect: error
# message: exit
raise SystemExit("bye")
