"""A game's tag pairs: the Seven Tag Roster first, then the others in the order given."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, MutableMapping
from typing import (
    TYPE_CHECKING,
    Any,
)

from .._core import (
    STARTING_FEN,
    Board,
)

if TYPE_CHECKING:
    pass


TAG_ROSTER = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
_ROSTER_DEFAULTS = {
    "Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?", "Result": "*",
}  # fmt: skip
TAG_NAME_REGEX = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_+#=:-]*\Z")


class Headers(MutableMapping[str, str]):
    """Tag pairs: the seven-tag roster first, in its order, then the others as added."""

    def __init__(
        self, data: Mapping[str, str] | Iterable[tuple[str, str]] | None = None, **kwargs: str
    ) -> None:
        self._tag_roster: dict[str, str] = {}
        self._others: dict[str, str] = {}
        if data is None:
            data = dict(_ROSTER_DEFAULTS)
        self.update(data, **kwargs)

    @classmethod
    def _from_tags(cls, tags: list[tuple[str, str]]) -> Headers:
        """Defaults, then the file's tags: what python-chess's builder makes (names are valid)."""
        headers = cls.__new__(cls)
        roster = dict(_ROSTER_DEFAULTS)
        others: dict[str, str] = {}
        for name, value in tags:
            if name in roster:
                roster[name] = value
            else:
                others[name] = value
        headers._tag_roster = roster
        headers._others = others
        return headers

    def is_chess960(self) -> bool:
        return self.get("Variant", "").lower() in [
            "chess960",
            "chess 960",
            "fischerandom",
            "fischerrandom",
            "fischer random",
        ]

    def is_wild(self) -> bool:
        """Whether the ``Variant`` tag names an ICS wild variant (``wild/…``, ``pawns/…``,
        ``odds/…``, ``misc/…``, ``fr``)."""
        variant = self.get("Variant", "").lower()
        return variant in ("wild/fr", "fr") or variant.startswith(
            ("wild/", "pawns/", "odds/", "misc/")
        )

    def variant(self) -> type[Any]:
        """The board class of the ``Variant`` tag, as python-chess reads it: :class:`Board`
        without the tag, for Chess960 and for ICS wild variants; else the
        :mod:`shatranj.variant` class of that name (``ValueError`` for a name no variant has)."""
        if "Variant" not in self or self.is_chess960() or self.is_wild():
            return Board
        from ..variant import find_variant

        return find_variant(self["Variant"])

    def board(self) -> Any:
        """The start position: the ``FEN`` tag's, else the standard one (a Chess960 board
        when the ``Variant`` tag says so); for a lichess variant, a board of its
        :mod:`shatranj.variant` class, in Chess960 mode when the castling rights are not
        standard chess's (as python-chess sets ``chess960``)."""
        cls = self.variant()
        if cls is Board:
            return Board(self.get("FEN", STARTING_FEN), chess960=self.is_chess960())
        return _variant_board(cls, self.get("FEN", cls.starting_fen))

    def __setitem__(self, key: str, value: str) -> None:
        if key in _ROSTER_DEFAULTS:
            self._tag_roster[key] = value
        elif not TAG_NAME_REGEX.match(key):
            raise ValueError(f"invalid pgn header tag: {key!r}")
        elif "\n" in value or "\r" in value:
            raise ValueError(f"line break in pgn header {key}: {value!r}")
        else:
            self._others[key] = value

    def __getitem__(self, key: str) -> str:
        return self._tag_roster[key] if key in _ROSTER_DEFAULTS else self._others[key]

    def __delitem__(self, key: str) -> None:
        if key in _ROSTER_DEFAULTS:
            del self._tag_roster[key]
        else:
            del self._others[key]

    def __iter__(self) -> Iterator[str]:
        for key in TAG_ROSTER:
            if key in self._tag_roster:
                yield key
        yield from self._others

    def __len__(self) -> int:
        return len(self._tag_roster) + len(self._others)

    def copy(self) -> Headers:
        return type(self)(self)

    def __copy__(self) -> Headers:
        return self.copy()

    def __repr__(self) -> str:
        return "{}({})".format(
            type(self).__name__, ", ".join(f"{key}={value!r}" for key, value in self.items())
        )


def _variant_board(cls: type[Any], fen: str) -> Any:
    """A variant board of ``fen``, in Chess960 mode when castling rights read as X-FEN differ
    from (or are refused as) standard chess's: python-chess's ``has_chess960_castling_rights()``."""
    try:
        board = cls(fen)
    except ValueError:
        return cls(fen, chess960=True)
    try:
        chess960 = cls(fen, chess960=True)
    except ValueError:
        return board
    return chess960 if chess960.fen() != board.fen() else board
