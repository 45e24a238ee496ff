"""Sanmoku against Rapfi (a peer built by tests/bench/rapfi_peer.py), both driven through the Gomocup
protocol as a tournament manager drives them: Sanmoku as `sanmoku pbrain`, Rapfi as its `pbrain-rapfi`.

    python -m tests.bench.gomoku_peer puzzles --rapfi DIR [--turn-ms 1000,3000] [--rounds 1] [--limit N]
    python -m tests.bench.gomoku_peer games --rapfi DIR [--openings 5] [--turn-ms 1000] [--out DIR]
    python -m tests.bench.gomoku_peer proofs [RECORD.psq ...]     # default: tests/data/gomoku-games/

`puzzles`: the public VCF puzzles (tests/data/gomoku-puzzles/) under freestyle (`INFO rule 0`), each set
with `BOARD` (the attacker is the brain, to move) and the same `INFO timeout_turn` for both. Per engine:
whether its move wins, whether it claimed a forced win (Sanmoku: a `MESSAGE proven win ...` line;
Rapfi: its last `MESSAGE ... Eval +M<n>` line, a mate in n plies), and whether each claim is true. A
claim is checked by the bench's own search (tests/engine/search/continuous_fours.py, plain Python, apart
from both engines): a VCF from the move played, or, after a move that makes no four, a VCF after every
reply. A claim is false when the defender makes five at once after the move, or when the move makes no
four and the defender then wins by fours. A claim neither confirmed nor false is played out: the
claimant attacks from its move, Sanmoku's and then Rapfi's defence replies, up to 60 plies; the bench
says who made five. --only N,M runs those puzzles only (their numbers in the source).

`games`: games from openings of three random stones near the centre (seeded), each played twice with
the engines' sides swapped, 15x15 freestyle, a time per move, at most --max-plies plies. Each is
saved as a Piskvork record (`.psq`, the moves' times in ms) under --out.

`proofs`: for each record won by five, the position before the winner's last forced sequence: going back
over the winner's moves from its five while the bench's search confirms each as a forced win (a VCF, or
a three then a VCF after every reply). That position is given to Sanmoku's analysis (the Analyst as a
request has it, no store, the default budget): proven if its result is a win or its best move is proven
to win.

Sanmoku's proofs go to a new empty store per process (SANMOKU_TABLES_DIR in a temporary directory), so
no run inherits another's.
"""

from __future__ import annotations

import argparse
import os
import queue
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from service.engine import Budget, Result
from service.http.schemas import DEFAULT_BUDGET_MS
from tests.bench.gomoku_puzzles import warmed
from tests.bench.rapfi_peer import command as rapfi_command
from tests.engine.search.continuous_fours import Rules, Search, cells_of, proves_win, replay
from tests.engine.search.gomoku_puzzles import Puzzle, puzzles

SIZE = 15
RULES = Rules(SIZE)  # freestyle: five or more
GAMES_DIR = Path(__file__).resolve().parents[1] / "data" / "gomoku-games"
MOVE = re.compile(r"(\d{1,2}),(\d{1,2})")
MATE = re.compile(r"Eval ([+-])M(\d+|\*)")
SLACK_S = 15.0  # beyond the turn's time, before a silent engine is given up
CHECK_NODES = 200_000


def cell(x: int, y: int) -> int:
    return y * SIZE + x


def xy(c: int) -> str:
    row, col = divmod(c, SIZE)
    return f"{col},{row}"


def where(c: int) -> str:
    """As the puzzle sources and gomoku_puzzles.py write cells: (row, column) from 0."""
    row, col = divmod(c, SIZE)
    return f"({row},{col})"


class Engine:
    """One brain: a process, its lines read by a thread so that every wait has a timeout."""

    def __init__(
        self, name: str, argv: Sequence[str], cwd: Path | None = None, env: dict[str, str] | None = None
    ):
        self.name = name
        self.process = subprocess.Popen(
            list(argv),
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, *lines: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("".join(f"{line}\n" for line in lines))
        self.process.stdin.flush()

    def until(self, wanted: re.Pattern[str] | str, seconds: float) -> tuple[str, list[str]]:
        """The first line that matches (fully), and the MESSAGE lines before it."""
        deadline, said = time.monotonic() + seconds, list[str]()
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise TimeoutError(f"{self.name}: no {wanted!r} within {seconds:.0f} s") from None
            if line is None:
                raise EOFError(f"{self.name} ended")
            if re.fullmatch(wanted, line):
                return line, said
            if line.startswith("ERROR"):
                raise RuntimeError(f"{self.name}: {line}")
            if line.startswith("MESSAGE"):
                said.append(line[len("MESSAGE ") :])

    def start(self, turn_ms: int) -> None:
        self.send(f"START {SIZE}")
        self.until("OK", 120)
        self.send(f"INFO timeout_turn {turn_ms}", "INFO timeout_match 0", "INFO rule 0")

    def move(self, turn_ms: int) -> tuple[int, list[str], float]:
        started = time.monotonic()
        line, said = self.until(MOVE, turn_ms / 1000 + SLACK_S)
        x, y = map(int, line.split(","))
        return cell(x, y), said, time.monotonic() - started

    def board(self, own: Sequence[int], other: Sequence[int], turn_ms: int) -> tuple[int, list[str], float]:
        """Set the stones (the brain to move) and take its move. Stones go in turn, the longer list first."""
        first, second = (own, other) if len(own) >= len(other) else (other, own)
        lines = ["BOARD"]
        for i in range(max(len(first), len(second))):
            for stones in (first, second):
                if i < len(stones):
                    lines.append(f"{xy(stones[i])},{1 if stones is own else 2}")
        self.send(*lines, "DONE")
        return self.move(turn_ms)

    def close(self) -> None:
        try:
            self.send("END")
            self.process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()


def claim(name: str, said: list[str]) -> str | None:
    """The forced win an engine's messages claim for its move, as it says it; None without one."""
    if name == "Sanmoku":
        return next((s for s in said if s.startswith("proven win")), None)
    evals = [s for s in said if "Eval" in s]
    found = MATE.search(evals[-1]) if evals else None
    return f"+M{found[2]}" if found and found[1] == "+" else None


def sanmoku(store: str) -> Engine:
    env = dict(os.environ, SANMOKU_TABLES_DIR=store)
    return Engine("Sanmoku", [str(Path(sys.executable).parent / "sanmoku"), "pbrain"], env=env)


def rapfi(rapfi_dir: Path) -> Engine:
    return Engine("Rapfi", rapfi_command(rapfi_dir), cwd=rapfi_dir)


def bits(cells: Sequence[int]) -> int:
    return sum(1 << c for c in cells)


@dataclass(frozen=True)
class Outcome:
    engine: str
    puzzle: str
    move: int
    wins: bool  # the bench's search confirms the move played wins
    claimed: str | None
    false_claim: str | None
    seconds: float


def refuted(attacker: int, defender: int, move: int) -> str | None:
    """Why a move claimed to win does not, when the bench's search can say so (None: it cannot)."""
    after = attacker | 1 << move
    if RULES.completions(defender, after) and not RULES.has_five(after):
        return "the defender makes five at once"
    if RULES.completions(after, defender):
        return None  # a four: the search followed it and found no VCF, which proves nothing
    line = Search(RULES, nodes_left=CHECK_NODES).win(defender, after)
    if line is not None and replay(RULES, defender, after, line).five:
        return "the defender wins by fours"  # the move makes no four, so the defender's fours come first
    return None


def solve_puzzles(engines: dict[str, Engine], chosen: Sequence[Puzzle], turn_ms: int) -> list[Outcome]:
    out = []
    for puzzle in chosen:
        own, other = cells_of(puzzle.attacker), cells_of(puzzle.defender)
        checked: dict[int, bool] = {}  # the moves checked, whether each wins: both engines often agree
        for name, engine in engines.items():
            engine.send("RESTART")
            engine.until("OK", 60)
            engine.send(f"INFO timeout_turn {turn_ms}", "INFO rule 0")
            move, said, seconds = engine.board(own, other, turn_ms)
            if move not in checked:
                checked[move] = proves_win(RULES, puzzle.attacker, puzzle.defender, move, CHECK_NODES)
            wins = checked[move]
            claimed = claim(name, said)
            false_claim = None
            if claimed and not wins:
                false_claim = refuted(puzzle.attacker, puzzle.defender, move)
            out.append(Outcome(name, puzzle.name, move, wins, claimed, false_claim, seconds))
            print(
                f"{puzzle.name} {name} {where(move)} wins={wins} claim={claimed}", file=sys.stderr, flush=True
            )
    return out


def report_puzzles(outcomes: list[Outcome], turn_ms: int, round_: int) -> None:
    names = sorted({o.engine for o in outcomes}, reverse=True)
    print(f"timeout_turn {turn_ms} ms, round {round_}, load average {os.getloadavg()[0]:.1f}")
    print("  engine   | winning move | claimed | claims confirmed | false | unconfirmed | median move")
    for name in names:
        mine = [o for o in outcomes if o.engine == name]
        claims = [o for o in mine if o.claimed]
        print(
            f"  {name:8} | {sum(o.wins for o in mine):3} of {len(mine)} | {len(claims):3}"
            f" | {sum(o.wins for o in claims):3} | {sum(bool(o.false_claim) for o in claims)}"
            f" | {sum(not o.wins and not o.false_claim for o in claims)}"
            f" | {statistics.median(o.seconds for o in mine):.2f} s"
        )
    by_puzzle: dict[str, dict[str, Outcome]] = {}
    for o in outcomes:
        by_puzzle.setdefault(o.puzzle, {})[o.engine] = o
    for puzzle, row in by_puzzle.items():
        for o in row.values():
            if o.claimed and not o.wins:
                kind = f"FALSE ({o.false_claim})" if o.false_claim else "unconfirmed"
                print(f"  {kind} claim {o.engine} {puzzle}: {where(o.move)} '{o.claimed}'")
        found = {n for n, o in row.items() if o.claimed and o.wins}
        if "Rapfi" in found and "Sanmoku" not in found:
            s = row["Sanmoku"]
            print(
                f"  Rapfi only {puzzle}: Rapfi {where(row['Rapfi'].move)} {row['Rapfi'].claimed};"
                f" Sanmoku {where(s.move)} wins={s.wins} '{s.claimed}'"
            )
        if "Sanmoku" in found and not row["Rapfi"].claimed:
            print(f"  Sanmoku only {puzzle}")
    sys.stdout.flush()


def run_puzzles(args: argparse.Namespace) -> None:
    chosen = [
        p for p in puzzles()[: args.limit] if not args.only or p.name.split("#")[1] in args.only.split(",")
    ]
    for turn_ms in (int(t) for t in args.turn_ms.split(",")):
        for round_ in range(1, args.rounds + 1):
            with tempfile.TemporaryDirectory() as store:
                engines = {"Sanmoku": sanmoku(store), "Rapfi": rapfi(args.rapfi)}
                try:
                    for engine in engines.values():
                        engine.start(turn_ms)
                    outcomes = solve_puzzles(engines, chosen, turn_ms)
                finally:
                    for engine in engines.values():
                        engine.close()
            report_puzzles(outcomes, turn_ms, round_)
            for o in outcomes:
                if o.claimed and not o.wins and not o.false_claim:
                    puzzle = next(p for p in chosen if p.name == o.puzzle)
                    for defender in ("Sanmoku", "Rapfi"):
                        game = play_out(args.rapfi, o.engine, defender, puzzle, o.move, turn_ms)
                        print(
                            f"  played out: {o.engine}'s {where(o.move)} in {o.puzzle} against {defender}'s"
                            f" defence: {len(game.cells) - bits_count(puzzle) - 1} plies after it,"
                            f" {'the claimant' if game.winner == 'claimant' else game.winner or 'nobody'}"
                            f" won ({game.why})",
                            flush=True,
                        )


def bits_count(puzzle: Puzzle) -> int:
    return puzzle.attacker.bit_count() + puzzle.defender.bit_count()


def play_out(rapfi_dir: Path, claimant: str, defender: str, puzzle: Puzzle, move: int, turn_ms: int) -> Game:
    """The claimed move played on: the defender's engine to move, the claimant's to attack, until a five
    or 60 plies; the game's winner is named "claimant" or "defender"."""
    attacker = cells_of(puzzle.attacker | 1 << move)
    opponent = cells_of(puzzle.defender)
    first, second = (attacker, opponent) if len(attacker) > len(opponent) else (opponent, attacker)
    opening = [c for pair in zip(first, second, strict=False) for c in pair] + first[len(second) :]
    with tempfile.TemporaryDirectory() as store:
        made = {"Sanmoku": lambda: sanmoku(store), "Rapfi": lambda: rapfi(rapfi_dir)}
        engines = {"claimant": made[claimant](), "defender": made[defender]()}
        for key, name in (("claimant", claimant), ("defender", defender)):
            engines[key].name = name
        try:
            for engine in engines.values():
                engine.start(turn_ms)
            return play(engines, opening, "defender", turn_ms, len(opening) + 60)
        finally:
            for engine in engines.values():
                engine.close()


@dataclass
class Game:
    black: str
    white: str
    cells: list[int]
    times_ms: list[int]
    claims: list[str | None]
    winner: str | None
    why: str


def five(cells: Sequence[int], ply: int) -> bool:
    return RULES.has_five(bits(cells[ply % 2 :: 2][: ply // 2 + 1]))


def play(engines: dict[str, Engine], opening: list[int], first: str, turn_ms: int, max_plies: int) -> Game:
    """One game from `opening` (black's stone first), `first` to move after it."""
    names = list(engines)
    second = next(n for n in names if n != first)
    order = [first, second]
    black = first if len(opening) % 2 == 0 else second
    game = Game(
        black,
        second if black == first else first,
        list(opening),
        [0] * len(opening),
        [None] * len(opening),
        None,
        "",
    )
    started = set()
    for ply in range(len(opening), max_plies):
        name = order[(ply - len(opening)) % 2]
        engine = engines[name]
        if name not in started:
            mine = game.cells[ply % 2 :: 2]  # the mover's stones: every other from its colour's first
            theirs = game.cells[(ply + 1) % 2 :: 2]
            move, said, seconds = engine.board(mine, theirs, turn_ms)
            started.add(name)
        else:
            engine.send(f"TURN {xy(game.cells[-1])}")
            move, said, seconds = engine.move(turn_ms)
        if move in game.cells or not 0 <= move < SIZE * SIZE:
            game.winner, game.why = order[(ply - len(opening) + 1) % 2], f"{name} played {xy(move)}, taken"
            return game
        game.cells.append(move)
        game.times_ms.append(round(seconds * 1000))
        game.claims.append(claim(engine.name, said))
        if five(game.cells, ply):
            game.winner, game.why = name, "five"
            return game
    game.why = f"{max_plies} plies"
    return game


def psq(game: Game) -> str:
    lines = [f"Piskvork {SIZE}x{SIZE}, 11:11, 0"]
    for c, ms in zip(game.cells, game.times_ms, strict=True):
        row, col = divmod(c, SIZE)
        lines.append(f"{col + 1},{row + 1},{ms}")
    lines += [
        f"black {game.black}",
        f"white {game.white}",
        f"winner {game.winner or 'none'} ({game.why})",
        "-1",
    ]
    return "\n".join(lines) + "\n"


def openings(count: int, seed: int) -> list[list[int]]:
    """Three stones (black, white, black) on distinct cells of the centre's 5x5 square."""
    rng = random.Random(seed)
    centre = [cell(x, y) for y in range(5, 10) for x in range(5, 10)]
    return [rng.sample(centre, 3) for _ in range(count)]


def run_games(args: argparse.Namespace) -> None:
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as store:
        engines = {"Sanmoku": sanmoku(store), "Rapfi": rapfi(args.rapfi)}
        try:
            for engine in engines.values():
                engine.start(args.turn_ms)
            for number, opening in enumerate(openings(args.openings, args.seed), 1):
                for first in ("Sanmoku", "Rapfi"):
                    for engine in engines.values():
                        engine.send("RESTART")
                        engine.until("OK", 60)
                        engine.send(f"INFO timeout_turn {args.turn_ms}", "INFO rule 0")
                    game = play(engines, opening, first, args.turn_ms, args.max_plies)
                    path = args.out / f"opening{number}-{game.black.lower()}-black.psq"
                    path.write_text(psq(game), encoding="utf-8")
                    moves = len(game.cells) - len(opening)
                    median = statistics.median(game.times_ms[len(opening) :]) if moves else 0
                    print(
                        f"{path.name}: black {game.black}, {moves} moves after the opening, winner"
                        f" {game.winner} ({game.why}), median move {median} ms",
                        flush=True,
                    )
        finally:
            for engine in engines.values():
                engine.close()


def read_record(path: Path) -> tuple[list[int], str | None]:
    cells, winner = [], None
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        if m := re.fullmatch(r"(\d+),(\d+),-?\d+", line.strip()):
            cells.append(cell(int(m[1]) - 1, int(m[2]) - 1))
        elif line.startswith("winner "):
            winner = line.split()[1]
    return cells, winner


def forced_start(cells: list[int]) -> int | None:
    """The ply of the winner's first move in its last forced sequence (the last ply is its five)."""
    last = len(cells) - 1
    start = None
    for ply in range(last, -1, -2):
        mover, other = bits(cells[ply % 2 : ply : 2]), bits(cells[(ply + 1) % 2 : ply : 2])
        if not proves_win(RULES, mover, other, cells[ply], CHECK_NODES):
            break
        start = ply
    return start


def run_proofs(args: argparse.Namespace) -> None:
    paths = args.records or sorted(GAMES_DIR.glob("*.psq"))
    analyst = warmed("15x15k5")
    budget = args.budget_ms / 1000
    proven = decided = 0
    for path in paths:
        cells, _ = read_record(path)
        if not five(cells, len(cells) - 1):
            print(f"{path.name}: not decided by five")
            continue
        decided += 1
        start = forced_start(cells)
        assert start is not None  # the five itself is a forced win
        ply = start
        mover, other = bits(cells[ply % 2 : ply : 2]), bits(cells[(ply + 1) % 2 : ply : 2])
        position = Puzzle(path.stem, 0, 0, mover, other, (cells[ply],)).position("15x15k5")
        begun = time.perf_counter()
        answer = analyst.analyze(position, Budget(budget))
        seconds = time.perf_counter() - begun
        ok = answer.result is Result.WIN or answer.moves[0].lower == 1
        proven += ok
        best = answer.moves[0]
        moves = (len(cells) - ply + 1) // 2
        verb = "proves" if ok else "does not prove"
        print(
            f"{path.name}: forced sequence from ply {ply + 1} of {len(cells)} ({moves} moves of the"
            f" winner's), the game's move {where(cells[ply])}; Sanmoku {verb} the win in {seconds:.2f} s"
            f" (result {answer.result}, best {where(best.cell)} [{best.lower}, {best.upper}])",
            flush=True,
        )
    print(
        f"proven: {proven} of {decided} games decided by five, budget {args.budget_ms} ms,"
        f" load average {os.getloadavg()[0]:.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("puzzles")
    p.add_argument("--rapfi", type=Path, required=True, help="a checkout built by rapfi_peer.py")
    p.add_argument("--turn-ms", default="1000,3000")
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--limit", type=int, default=None)
    p.add_argument("--only", default="", help="these puzzles' numbers only, e.g. 14,53")
    g = sub.add_parser("games")
    g.add_argument("--rapfi", type=Path, required=True)
    g.add_argument("--openings", type=int, default=5)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--turn-ms", type=int, default=1000)
    g.add_argument("--max-plies", type=int, default=120)
    g.add_argument("--out", type=Path, default=GAMES_DIR)
    r = sub.add_parser("proofs")
    r.add_argument("records", type=Path, nargs="*")
    r.add_argument("--budget-ms", type=int, default=DEFAULT_BUDGET_MS)
    args = parser.parse_args()
    print(f"nice {os.nice(0)}, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
    {"puzzles": run_puzzles, "games": run_games, "proofs": run_proofs}[args.what](args)


if __name__ == "__main__":
    main()
