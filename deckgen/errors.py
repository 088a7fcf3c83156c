"""The one error root, its exit codes, and the located problem it reports."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input, with its place when it has one."""

    message: str
    file: str | None = None
    line: int | None = None
    col: int | None = None
    path: str | None = None

    def __str__(self) -> str:
        where = ""
        if self.file:
            where = self.file
            if self.line is not None:
                where += f":{self.line}"
                if self.col is not None:
                    where += f":{self.col}"
            where += ": "
        key = f"{self.path}: " if self.path else ""
        return f"{where}{key}{self.message}"


class DeckgenError(Exception):
    """Root of every expected failure; the CLI prints its lines and exits with `exit_code`."""

    exit_code = 1

    def __init__(self, problems: str | Problem | list[Problem]) -> None:
        if isinstance(problems, (str, Problem)):
            problems = [problems if isinstance(problems, Problem) else Problem(problems)]
        self.problems: list[Problem] = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    def lines(self) -> list[str]:
        return [str(p) for p in self.problems]


class InputError(DeckgenError):
    """The content, a template or an option is wrong: the user can fix it."""

    exit_code = 2


class RenderError(DeckgenError):
    """A renderer could not produce its file from valid input."""

    exit_code = 1


class OutputError(DeckgenError):
    """The machine refused: a read-only folder, a full disk."""

    exit_code = 1
