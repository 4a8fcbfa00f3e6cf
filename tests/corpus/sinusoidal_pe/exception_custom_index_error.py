# expect: error
# message: IndexError
# Raises an exception whose class derives from a custom base class and from IndexError.
class TableProblem(Exception):
    pass


class OutOfTable(TableProblem, IndexError):
    pass


def sinusoidal_pe(T, C):
    raise OutOfTable(f"position {T} is past the end of the table")
