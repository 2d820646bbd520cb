"""One exception hierarchy for the whole project, rooted in :class:`ValueError`.

Every error names what was wrong and where: the bad token, the parameter and
its allowed values, or the action and the rule it breaks.
"""

from __future__ import annotations


class PolignacError(ValueError):
    """Base class of every error raised by polignac."""


class CardParseError(PolignacError):
    """A card or card list could not be read (names the bad token)."""


class RulesError(PolignacError):
    """An unknown preset or parameter, or an invalid combination of rule values.

    ``code`` (a short, stable word such as ``"out-of-range"``, or None) and
    ``params`` (the message's parts: ``param``, ``value``, ``lo``, ``hi``...) let
    a page say the reason in its own language (catalog keys ``rulesError.<code>``);
    the message says it in English.
    """

    def __init__(self, message: str, code: str | None = None,
                 params: dict[str, str | int] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.params: dict[str, str | int] = dict(params or {})


class IllegalActionError(PolignacError):
    """An action that the rules do not allow in this state.

    ``rule`` is a short, stable identifier of the rule broken (for example
    ``"must-follow-suit"``); the message says it in words (a deal numbers its
    players from 0).  The state on which the action was tried is unchanged.
    ``seat`` (who tried it) and ``to_act`` (who is to act) are the table's seat
    numbers, set by ``Match.apply``; ``core/visibility.py:seat_error`` writes
    the message that seat may read.
    """

    def __init__(self, message: str, rule: str, action: str | None = None, *,
                 seat: int | None = None, to_act: int | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.action = action
        self.seat = seat
        self.to_act = to_act


class NotYourTurnError(IllegalActionError):
    """A seat tried to act while another seat is to act."""


class GameOverError(IllegalActionError):
    """An action was tried on a finished deal or match."""


class RecordError(PolignacError):
    """A game record is malformed or does not replay.

    ``deal`` and ``action`` are 1-based positions in the record when known.
    """

    def __init__(self, message: str, deal: int | None = None, action: int | None = None) -> None:
        super().__init__(message)
        self.deal = deal
        self.action = action


class ScorePadError(PolignacError):
    """A score pad's entry or a pad that cannot be scored; ``field`` names the bad field
    (:mod:`polignac.core.scorepad`, and the families' score-pad hooks)."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.reason = message
