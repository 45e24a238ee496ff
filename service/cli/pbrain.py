"""`sanmoku pbrain`: Sanmoku as a Gomocup engine (a "brain"), speaking the Piskvork protocol
(https://plastovicka.github.io/protocl2en.htm) on standard input and output, so that Piskvork,
Yixin-Board and tournament managers can play it.

One command a line, case-insensitive; the answers end with LF, which the protocol allows. The mandatory
commands (START, BEGIN, TURN, BOARD ... DONE, INFO, END), ABOUT and the optional RECTSTART, RESTART,
TAKEBACK and PLAY are carried out; Yixin-Board's YXBOARD ... DONE (a board without a move asked for) and
YXNBEST n (the n best moves as MESSAGE lines, then the move); STOP and YXSTOP end a search early. Anything
else answers UNKNOWN; a known command that cannot be carried out answers ERROR and a sentence.

Commands are read on a thread of their own, so that END, STOP and YXSTOP reach a search under way: the
search stops within milliseconds (its cancel flag); STOP's answer is the best move found so far, and after
END nothing more is written, as the protocol asks.
"""

from __future__ import annotations

import argparse
import contextlib
import queue
import sys
import threading
from collections.abc import Callable
from importlib.metadata import version

from ..engine import compose_sources
from .pbrain_clock import Clock
from .pbrain_game import OPPONENT, OWN, Game, ProtocolError, variant_for
from .pbrain_think import Thinker, verdict

NAME = "pbrain"
HELP = "play gomoku as a Gomocup engine on standard input and output (the Piskvork protocol)"
ABOUT = f'name="Sanmoku", version="{version("sanmoku")}", author="The Sanmoku authors"'
STOPS = {"END", "STOP", "YXSTOP"}  # read even while a search runs
INFO_NUMBERS = {"timeout_turn", "timeout_match", "time_left", "max_memory", "rule", "game_type"}

Write = Callable[[str], None]
Next = Callable[[], str | None]  # the next line of input, None at its end


def _pair(text: str, command: str) -> tuple[int, int]:
    """`x,y` as two integers."""
    try:
        x, y = (int(part) for part in text.split(","))
    except ValueError:
        raise ProtocolError(f"{command} takes x,y (two numbers and a comma), not {text!r}") from None
    return x, y


class Brain:
    """The protocol's state: the game, the rule, the clock."""

    def __init__(self, thinker: Thinker, write: Write) -> None:
        self.thinker, self.write = thinker, write
        self.game: Game | None = None
        self.rule = 0
        self.clock = Clock()
        self.notes: list[str] = []  # what an INFO line could not use: said before the next answer
        self.ending = False  # END was read (by the reading thread): nothing more is written
        self.max_memory, self.memory_said = 0, True  # INFO max_memory, and whether it was checked

    def handle(self, line: str, more: Next) -> bool:
        """Carry out one command; False when the brain must end."""
        word, _, rest = line.strip().partition(" ")
        command, rest = word.upper(), rest.strip()
        if command == "END":
            return False
        if command == "INFO":  # no answer: a problem is said before the next command's answer
            self._info(rest)
            return True
        for note in [*self.notes, *self._memory_note()]:
            self.write(f"MESSAGE {note}")
        self.notes.clear()
        action = ACTIONS.get(command)
        if action is None:
            if command not in STOPS:  # STOP with no search under way: nothing to stop
                self.write(f"UNKNOWN {word} is not a command Sanmoku knows")
            return True
        try:
            action(self, rest, more)
        except ProtocolError as error:
            self.write(f"ERROR {error}")
        return True

    def _info(self, rest: str) -> None:
        key, _, value = rest.partition(" ")
        key, value = key.lower(), value.strip()
        if key not in INFO_NUMBERS:
            return  # the protocol: an INFO not needed is ignored (folder, evaluate, Yixin-Board's own)
        try:
            number = int(value)
        except ValueError:
            self.notes.append(f"INFO {key} {value!r} ignored: not a whole number")
            return
        if key == "timeout_turn":
            self.clock.turn_ms = number
        elif key == "timeout_match":
            self.clock.match_ms = number
        elif key == "time_left":
            self.clock.left_ms = number
        elif key == "rule":
            self.rule = number
        elif key == "max_memory":
            self.max_memory, self.memory_said = number, False

    def _memory_note(self) -> list[str]:
        """Once per INFO max_memory: whether the process already holds more (0: no limit). Sanmoku does
        not shrink its search's tables to fit: it says so and plays on."""
        if self.memory_said or self.max_memory <= 0 or sys.platform == "win32":
            return []
        import resource  # Unix only

        self.memory_said = True
        held = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux counts kilobytes
        if held <= self.max_memory:
            return []
        return [f"max_memory is {self.max_memory:,} bytes; Sanmoku has held {held:,}, and plays on"]

    def _started(self) -> Game:
        if self.game is None:
            raise ProtocolError("no board yet: START comes first")
        return self.game

    def start(self, rest: str, more: Next) -> None:
        try:
            size = int(rest)
        except ValueError:
            raise ProtocolError(f"START takes the board's size, not {rest!r}") from None
        self._new(size, size)

    def rect_start(self, rest: str, more: Next) -> None:
        width, height = _pair(rest, "RECTSTART")
        self._new(width, height)

    def _new(self, width: int, height: int) -> None:
        variant_for(width, height, 0)  # the size alone: INFO rule may come later
        self.game = Game(width, height)
        self._warm()
        self.write("OK")

    def restart(self, rest: str, more: Next) -> None:
        self._started().stones.clear()
        self._warm()
        self.write("OK")

    def _warm(self) -> None:
        """The search's set-up for the board under the rule as it stands, while the protocol does not
        count the time (START, RECTSTART, RESTART); a rule not served is said at the first move."""
        game = self._started()
        with contextlib.suppress(ProtocolError):
            self.thinker.warm(variant_for(game.width, game.height, self.rule))

    def begin(self, rest: str, more: Next) -> None:
        if self._started().stones:
            raise ProtocolError("BEGIN opens the game on an empty board; this one has stones (RESTART)")
        self._move()

    def turn(self, rest: str, more: Next) -> None:
        x, y = _pair(rest, "TURN")
        self._started().place(x, y, OPPONENT)
        self._move()

    def board(self, rest: str, more: Next) -> None:
        self._read_board(more)
        self._move()

    def yx_board(self, rest: str, more: Next) -> None:
        self._read_board(more)

    def _read_board(self, more: Next) -> None:
        """The lines up to DONE, all read whatever they hold; the board they give replaces the game's
        only if every line is good."""
        game = self._started()
        given = Game(game.width, game.height)
        problems = []
        while (line := more()) is not None and line.strip().upper() != "DONE":
            if not line.strip():
                continue
            try:
                x, y, who = (int(part) for part in line.split(","))
                if who not in (OWN, OPPONENT):
                    raise ProtocolError(
                        f"{line.strip()}: field {who} (3: the continuous game's or renju's marks) is not"
                        " supported; 1 is Sanmoku's stone, 2 the opponent's"
                    )
                given.place(x, y, who)
            except ValueError:
                problems.append(f"{line.strip()!r} is not x,y,field")
            except ProtocolError as error:
                problems.append(str(error))
        if problems:
            raise ProtocolError("; ".join(problems))
        game.stones = given.stones

    def take_back(self, rest: str, more: Next) -> None:
        x, y = _pair(rest, "TAKEBACK")
        self._started().take_back(x, y)
        self.write("OK")

    def play(self, rest: str, more: Next) -> None:
        """The manager's answer to a SUGGEST (which Sanmoku never sends): the move it imposes."""
        x, y = _pair(rest, "PLAY")
        game = self._started()
        game.position(self.rule)  # it must be Sanmoku's turn
        game.place(x, y, OWN)
        self.write(f"{x},{y}")

    def about(self, rest: str, more: Next) -> None:
        self.write(ABOUT)

    def n_best(self, rest: str, more: Next) -> None:
        try:
            count = max(1, int(rest or "1"))
        except ValueError:
            raise ProtocolError(f"YXNBEST takes a number of moves, not {rest!r}") from None
        self._move(listed=count)

    def _move(self, listed: int = 0) -> None:
        """Think within the clock's time, say what is proven, play the move and answer it."""
        game = self._started()
        position = game.position(self.rule)
        choice = self.thinker.choose(position, self.clock.seconds())
        if self.ending:
            return
        for rank, move in enumerate(choice.ranked[:listed], 1):
            said = verdict(move, choice.distances.get(move.cell))
            self.write(f"MESSAGE {rank}. {game.coordinates(move.cell)} {said}")
        self.write(f"MESSAGE {choice.said}")
        game.stones[choice.cell] = OWN
        self.write(game.coordinates(choice.cell))


ACTIONS: dict[str, Callable[[Brain, str, Next], None]] = {
    "START": Brain.start,
    "RECTSTART": Brain.rect_start,
    "RESTART": Brain.restart,
    "BEGIN": Brain.begin,
    "TURN": Brain.turn,
    "BOARD": Brain.board,
    "YXBOARD": Brain.yx_board,
    "YXNBEST": Brain.n_best,
    "TAKEBACK": Brain.take_back,
    "PLAY": Brain.play,
    "ABOUT": Brain.about,
}


def serve_protocol(args: argparse.Namespace) -> int:
    sources = compose_sources(foreground=True, background_builds=False)
    thinker = Thinker(sources.analyst)

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    brain = Brain(thinker, write)
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        for line in sys.stdin:
            word = line.strip().partition(" ")[0].upper()
            # Only a search that is the last command read is stopped: input piped all at once (a script,
            # a test) is carried out in order, each search in full, as a manager that waits would see it.
            if word in STOPS and thinker.busy and lines.empty():
                brain.ending = word == "END"
                thinker.cancel.set()
            lines.put(line)
            if word == "END":  # nothing follows; a thread left reading holds stdin's lock at the exit (1 s)
                return
        lines.put(None)

    threading.Thread(target=read, name="pbrain-input", daemon=True).start()
    while (line := lines.get()) is not None:
        if line.strip() and not brain.handle(line, lines.get):
            break
    return 0


def main() -> int:
    """`pbrain-sanmoku`, the same under the name Gomocup managers look for (Piskvork picks this
    protocol for a program named pbrain-*)."""
    return serve_protocol(argparse.Namespace())
