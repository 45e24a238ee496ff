"""The game a Gomocup manager plays with `sanmoku pbrain`: the board's size, the stones in the order they
came, the rule (INFO rule), and the engine's position for Sanmoku to move.

Coordinates are the protocol's: x the column and y the row, from 0 at the top left. The engine's cells
are numbered row by row, so cell = y * width + x. Sanmoku's stones are X and the opponent's O in the
engine's position, whoever opened: the values are the same either way (X moves first in every table,
and a game that O opened is the same game with the colours swapped).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine import EngineError, InvalidPositionError, Position, Status, Variant, get_variant

OWN, OPPONENT = 1, 2  # the BOARD command's field values
K = 5  # five in a row
# INFO rule is a sum of these bits.
EXACT, CONTINUOUS, RENJU, CARO = 1, 2, 4, 8
SUPPORTED = "freestyle (rule 0), exactly five (rule 1) and renju (rule 4)"
UNSUPPORTED = {
    CONTINUOUS: "rule 2 (the continuous game) is not supported: the game ends at the first five",
    CARO: f"rule 8 (caro) is not supported: Sanmoku plays {SUPPORTED}",
}


class ProtocolError(Exception):
    """A command Sanmoku understands but cannot carry out; the sentence follows ERROR."""


def variant_for(width: int, height: int, rule: int) -> Variant:
    """The engine's board for a width x height board under INFO `rule`."""
    for bit, why in UNSUPPORTED.items():
        if rule & bit:
            raise ProtocolError(why)
    # Renju's black wins with exactly five anyway: rule 5 (renju and exactly five) is renju.
    option = "-renju" if rule & RENJU else "-exact" if rule & EXACT else ""
    name = f"{height}x{width}k{K}{option}"
    try:
        return get_variant(name)
    except EngineError as error:
        raise ProtocolError(f"a {width}x{height} board is not served: {error.message}") from None


@dataclass
class Game:
    width: int
    height: int
    stones: dict[int, int] = field(default_factory=dict)  # cell -> OWN or OPPONENT, in the order played

    def cell(self, x: int, y: int) -> int:
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise ProtocolError(f"{x},{y} is off the {self.width}x{self.height} board")
        return y * self.width + x

    def coordinates(self, cell: int) -> str:
        y, x = divmod(cell, self.width)
        return f"{x},{y}"

    def place(self, x: int, y: int, who: int) -> int:
        cell = self.cell(x, y)
        if cell in self.stones:
            raise ProtocolError(f"{x},{y} is already taken")
        self.stones[cell] = who
        return cell

    def take_back(self, x: int, y: int) -> None:
        cell = self.cell(x, y)
        if self.stones.pop(cell, None) is None:
            raise ProtocolError(f"there is no stone on {x},{y} to take back")

    def position(self, rule: int) -> Position:
        """The engine's position with Sanmoku (X) to move; ProtocolError when it cannot be one of play or
        the game is over."""
        variant = variant_for(self.width, self.height, rule)
        own = sum(1 for who in self.stones.values() if who == OWN)
        theirs = len(self.stones) - own
        if own > theirs:
            raise ProtocolError(
                f"Sanmoku has {own} stones and the opponent {theirs}: it is not Sanmoku's turn"
            )
        if theirs > own + 1:
            raise ProtocolError(f"the opponent has {theirs} stones and Sanmoku {own}: one side played twice")
        cells = ["."] * variant.cells
        for cell, who in self.stones.items():
            cells[cell] = "X" if who == OWN else "O"
        try:
            position = Position.parse("".join(cells), to_move="X", variant=variant)
        except InvalidPositionError as error:
            raise ProtocolError(_over(error)) from None
        if position.status is Status.O_WON:
            raise ProtocolError("the game is over: the opponent has five in a row")
        if position.status is Status.DRAW:
            raise ProtocolError("the game is over: the board is full")
        return position


def _over(error: InvalidPositionError) -> str:
    """The engine's reason, in the protocol's words (its X is Sanmoku, its O the opponent)."""
    if error.code == "line_by_side_to_move":
        return "the game is over: Sanmoku's stones already make five in a row"
    if error.code == "both_lines":
        return "the game is over: both sides have five in a row"
    if error.code == "unreachable":
        return "the opponent's rows of five share no stone: no single last move made them"
    return f"the stones are not a position of play: {error.message} (X: Sanmoku, O: the opponent)"
