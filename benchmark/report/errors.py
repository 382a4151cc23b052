"""The one error type of the report package: a message for a person, no traceback."""


class ReportError(Exception):
    """A problem with the inputs of a report (missing file, not a run folder, bad column)."""
