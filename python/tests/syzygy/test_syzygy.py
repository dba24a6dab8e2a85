"""shatranj.syzygy: python-chess's ``chess.syzygy`` interface over the native prober.

- a seeded differential against python-chess's own ``chess.syzygy`` (the oracle, GPL, never
  a source) over random positions from every 3-4-man table, both sides to move, with
  en passant cases: WDL and DTZ equal (``SHATRANJ_SYZYGY_POSITIONS`` sets how many; the issue's
  100,000 run is recorded in benchmarks/RESULTS.md);
- ``data/syzygy/endgame.epd``: all 200 positions' ``wdl_table``, ``wdl`` and ``dtz``;
- damaged tables (truncated, bytes flipped) raise typed errors, and fuzzed FENs only typed
  errors;
- the batch probes (boards, FENs, ``pack_positions`` arrays) equal the single ones;
- the table-name functions equal python-chess's on every name it generates.

python-chess's own ``SyzygyTestCase`` runs in ``compat/test_python_chess_suite.py``.
"""

from __future__ import annotations

import os
import random
import shutil
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest

import shatranj
import shatranj.syzygy as syzygy
from support.repo import ROOT

TABLES = ROOT / "data" / "syzygy" / "regular"
EPD = ROOT / "data" / "syzygy" / "endgame.epd"
SEED = 49
TABLE_NAMES = sorted(p.stem for p in TABLES.glob("*.rtbw"))

# Errors a probe may raise: the typed ones (MissingTableError and the castling KeyError are
# KeyErrors; Corrupt/TruncatedTableError and bad boards ValueErrors; unreadable files OSError).
TYPED = (KeyError, ValueError, OSError, TypeError)


@pytest.fixture(scope="module")
def tables() -> syzygy.Tablebase:
    return syzygy.open_tablebase(TABLES)


def board(fen: str) -> shatranj.Board:
    return shatranj.Board(fen)


# --- python-chess's vectors and the API -------------------------------------------------


def test_known_values(tables: syzygy.Tablebase) -> None:
    knb = board("8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1")
    assert tables.probe_wdl(knb) == -2
    assert tables.probe_dtz(knb) == -53
    # A draw in the table, a win by capturing en passant.
    ep = board("8/8/8/k2Pp3/8/8/8/4K3 w - e6 0 2")
    assert tables.probe_wdl_table(ep) == 0
    assert tables.probe_wdl(ep) == 2
    # DTZ -1 without the en passant square, 1 with it.
    ep2 = board("8/8/8/8/2pP4/2K5/4k3/8 b - d3 0 1")
    assert tables.probe_dtz_no_ep(ep2) == -1
    assert tables.probe_dtz(ep2) == 1
    # KvK has no file and is a draw.
    kvk = board("8/8/8/8/8/8/8/K1k5 w - - 0 1")
    assert (tables.probe_wdl(kvk), tables.probe_dtz(kvk)) == (0, 0)
    assert tables.max_pieces == 4


def test_missing_tables_and_castling_rights(tables: syzygy.Tablebase) -> None:
    five = board("3K4/8/3k4/8/4p3/4B3/5P2/8 w - - 0 5")
    with pytest.raises(syzygy.MissingTableError, match="KBPvKP"):
        tables.probe_wdl(five)
    with pytest.raises(KeyError):
        tables.probe_dtz(five)
    assert tables.get_wdl(five) is None and tables.get_dtz(five, 7) == 7
    start = shatranj.Board()
    with pytest.raises(KeyError, match="castling rights: rnbqkbnr"):
        tables.probe_wdl(start)
    assert not isinstance(_raised(lambda: tables.probe_wdl(start)), syzygy.MissingTableError)
    assert tables.get_dtz(start, tables.get_wdl(start)) is None


def _raised(f: Callable[[], object]) -> BaseException:
    try:
        f()
    except BaseException as e:  # noqa: BLE001 - the test looks at the type
        return e
    raise AssertionError("did not raise")


def test_close_context_manager_and_arguments() -> None:
    knb = board("8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1")
    with syzygy.open_tablebase(str(TABLES), max_fds=None, VariantBoard=shatranj.Board) as t:
        assert isinstance(t, syzygy.Tablebase)
        assert t.probe_wdl(knb) == -2
    with pytest.raises(syzygy.MissingTableError):
        t.probe_wdl(knb)
    t.add_directory(TABLES)  # a closed tablebase can be filled again
    assert t.probe_dtz(knb) == -53
    with pytest.raises(ValueError, match="VariantBoard"):
        syzygy.Tablebase(VariantBoard=int)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_fds"):
        syzygy.Tablebase(max_fds=0)
    with pytest.raises(FileNotFoundError):
        syzygy.open_tablebase(TABLES / "no such directory")
    with pytest.raises(TypeError, match="shatranj.Board"):
        t.probe_wdl("8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="wdl"):
        t.probe_dtz_table(knb, 3)


def test_load_wdl_and_load_dtz() -> None:
    knb = board("8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1")
    t = syzygy.open_tablebase(TABLES, load_dtz=False)
    assert t.probe_wdl(knb) == -2
    with pytest.raises(syzygy.MissingTableError, match="rtbz"):
        t.probe_dtz(knb)
    assert t.add_directory(TABLES, load_wdl=False) == 35
    assert t.probe_dtz(knb) == -53
    assert t.add_file(TABLES / "KBNvK.rtbz") == 0  # already known


def test_single_table_files() -> None:
    wdl = syzygy.WdlTable(TABLES / "KBNvK.rtbw")
    wdl.init_table_wdl()
    assert wdl.probe_wdl_table(board("8/8/8/5N2/5K2/2kB4/8/8 b - - 0 1")) == -2
    wdl.close()
    with syzygy.DtzTable(str(TABLES / "KRvKN.rtbz")) as dtz:
        dtz.init_table_dtz()
        assert dtz.probe_dtz_table(board("7n/6k1/4R3/4K3/8/8/8/8 w - - 0 1"), 2) == (0, -1)
        assert dtz.probe_dtz_table(board("7n/6k1/4R3/4K3/8/8/8/8 b - - 1 1"), -2) == (8, 1)
    with pytest.raises(ValueError, match="table file name"):
        syzygy.WdlTable(TABLES / "SOURCE.txt")
    with pytest.raises(ValueError, match="table file name"):
        syzygy.WdlTable(TABLES / "KBNvK.rtbz")


def test_endgame_epd_all_equal(tables: syzygy.Tablebase) -> None:
    lines = [line for line in EPD.read_text().splitlines() if line.strip()]
    assert len(lines) == 200
    for line in lines:
        fields = line.split()
        b = board(" ".join(fields[:4]) + " 0 1")
        ops = dict(op.strip().split(" ", 1) for op in " ".join(fields[4:]).split(";") if op.strip())
        got = (tables.probe_wdl_table(b), tables.probe_wdl(b), tables.probe_dtz(b))
        want = (int(ops["wdl_table"]), int(ops["wdl"]), int(ops["dtz"]))
        assert got == want, f"{b.fen()}: got {got}, endgame.epd says {want}"


# --- the differential against python-chess ----------------------------------------------


def random_positions(count: int, seed: int, names: Sequence[str] = TABLE_NAMES) -> list[str]:
    """``count`` legal positions (FENs) drawn round-robin from the tables ``names`` (every
    3-4-man table by default): random
    colouring and side to move; one in five built to have an en passant square (kept only
    where python-chess accepts it). Legality is python-chess's ``Board.is_valid``."""
    import chess

    rng = random.Random(seed)
    out: list[str] = []
    attempt = 0
    while len(out) < count:
        name = names[attempt % len(names)]
        attempt += 1
        strong, weak = name.split("v")
        white, black = (strong, weak) if rng.random() < 0.5 else (weak, strong)
        b = chess.Board(None)
        turn = rng.random() < 0.5
        b.turn = turn
        want_ep = rng.random() < 0.2
        free = set(range(64))
        ep_square = None
        if want_ep:
            # The side not to move has just pushed a pawn two squares.
            mover_pieces = white if not turn else black
            if "P" in mover_pieces:
                file = rng.randrange(8)
                rank = 3 if not turn else 4  # the pushed pawn's rank (0-based)
                pawn = chess.square(file, rank)
                behind = chess.square(file, rank - 1 if not turn else rank + 1)
                origin = chess.square(file, rank - 2 if not turn else rank + 2)
                b.set_piece_at(pawn, chess.Piece(chess.PAWN, not turn))
                free -= {pawn, behind, origin}
                ep_square = behind
                if not turn:
                    white = white.replace("P", "", 1)
                else:
                    black = black.replace("P", "", 1)
        for color, pieces in ((chess.WHITE, white), (chess.BLACK, black)):
            for ch in pieces:
                ptype = chess.PIECE_SYMBOLS.index(ch.lower())
                squares = [
                    s for s in free if not (ptype == chess.PAWN and chess.square_rank(s) in (0, 7))
                ]
                sq = rng.choice(squares)
                free.discard(sq)
                b.set_piece_at(sq, chess.Piece(ptype, color))
        b.ep_square = ep_square
        if b.is_valid():
            out.append(b.fen(en_passant="fen"))
    return out


def test_differential_against_python_chess(tables: syzygy.Tablebase) -> None:
    import chess
    import chess.syzygy

    count = int(os.environ.get("SHATRANJ_SYZYGY_POSITIONS", "3000"))
    print(f"syzygy differential: seed {SEED}, {count} positions")
    fens = random_positions(count, SEED)
    with_ep = sum(1 for f in fens if f.split()[3] != "-")
    assert with_ep >= count // 50, f"only {with_ep} positions with an en passant square"
    oracle = chess.syzygy.open_tablebase(str(TABLES))
    mismatches = []
    for fen in fens:
        theirs = chess.Board(fen)
        ours = shatranj.Board(fen)
        want = (oracle.probe_wdl(theirs), oracle.probe_dtz(theirs))
        got = (tables.probe_wdl(ours), tables.probe_dtz(ours))
        if got != want:
            mismatches.append(f"{fen}: shatranj {got}, python-chess {want}")
    oracle.close()
    # The batches agree with the single probes on the same positions.
    wdl = tables.probe_wdl_many(fens)
    dtz = tables.probe_dtz_many([shatranj.Board(f) for f in fens])
    single = [
        (tables.probe_wdl(shatranj.Board(f)), tables.probe_dtz(shatranj.Board(f))) for f in fens
    ]
    assert list(zip(wdl.tolist(), dtz.tolist())) == single
    print(f"{len(fens)} positions ({with_ep} with en passant), {len(mismatches)} mismatches")
    assert not mismatches, "\n".join(mismatches[:20])


# --- batches -----------------------------------------------------------------------------


def test_batches_from_boards_fens_and_packed_arrays(tables: syzygy.Tablebase) -> None:
    fens = random_positions(400, SEED + 1)
    # Packed records keep no en passant square; compare with the boards without it.
    plain = [f for f in fens if f.split()[3] == "-"]
    boards = [shatranj.Board(f) for f in plain]
    packed = shatranj.pack_positions(boards)
    wdl = tables.probe_wdl_many(packed)
    dtz = tables.probe_dtz_many(packed)
    assert wdl.dtype == np.int8 and dtz.dtype == np.int32
    assert wdl.shape == dtz.shape == (len(plain),)
    assert wdl.tolist() == [tables.probe_wdl(b) for b in boards]
    assert dtz.tolist() == [tables.probe_dtz(b) for b in boards]
    assert tables.probe_wdl_many(plain).tolist() == wdl.tolist()
    assert tables.probe_wdl_many([]).shape == (0,)


def test_batch_defaults_and_errors(tables: syzygy.Tablebase) -> None:
    five = "3K4/8/3k4/8/4p3/4B3/5P2/8 w - - 0 5"
    knb = "8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1"
    start = shatranj.STARTING_FEN
    with pytest.raises(syzygy.MissingTableError, match=r"positions\[1\]"):
        tables.probe_wdl_many([knb, five])
    with pytest.raises(KeyError, match=r"positions\[0\].*castling"):
        tables.probe_dtz_many([start])
    assert tables.probe_wdl_many([knb, five, start], default=-128).tolist() == [-2, -128, -128]
    assert tables.probe_dtz_many([knb, five], default=1000).tolist() == [-53, 1000]
    with pytest.raises(ValueError, match=r"boards\[1\]"):
        tables.probe_wdl_many([knb, "not a fen"])
    with pytest.raises(ValueError, match="int8"):
        tables.probe_wdl_many([knb], default=1000)
    bad = np.zeros((1, 32), dtype=np.uint8)
    with pytest.raises(ValueError, match=r"positions\[0\]"):
        tables.probe_wdl_many(bad)
    with pytest.raises(TypeError):
        tables.probe_wdl_many(np.zeros((1, 32), dtype=np.float32))
    with pytest.raises(TypeError, match="Board or a FEN"):
        tables.probe_wdl_many([1, 2])  # type: ignore[list-item]


def test_batches_from_threads_share_one_tablebase(tables: syzygy.Tablebase) -> None:
    fens = random_positions(300, SEED + 2)
    want = [tables.probe_dtz(shatranj.Board(f)) for f in fens]
    results: list[list[int]] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(5):
                results.append(tables.probe_dtz_many(fens).tolist())
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(results) == 20 and all(r == want for r in results)


# --- damaged files and fuzzed input ------------------------------------------------------


def test_truncated_tables_raise_typed_errors(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    print(f"truncation seed {SEED}")
    names = ["KQvK", "KRvKP", "KBNvK", "KPvKP"]
    for name in names:
        fens = random_positions(20, SEED + 3, [name])
        for ext in ("rtbw", "rtbz"):
            source = TABLES / f"{name}.{ext}"
            size = source.stat().st_size
            for cut in sorted({0, 3, 15, 16, 40, size // 2, size - 1, rng.randrange(1, size)}):
                directory = tmp_path / f"{name}-{ext}-{cut}"
                directory.mkdir()
                for other in TABLES.glob("*.rtb?"):
                    if other.stem != name:
                        os.symlink(other, directory / other.name)
                shutil.copy(TABLES / f"{name}.{'rtbz' if ext == 'rtbw' else 'rtbw'}", directory)
                (directory / source.name).write_bytes(source.read_bytes()[:cut])
                t = syzygy.open_tablebase(directory)
                errors = 0
                for fen in fens:
                    try:
                        t.probe_dtz(shatranj.Board(fen))
                    except syzygy.CorruptTableError:
                        errors += 1
                    except syzygy.MissingTableError:
                        pass  # e.g. a damaged DTZ table never read for this position
                if cut < size // 2:
                    assert errors > 0, f"{source.name} cut to {cut} bytes read without an error"
                with pytest.raises(syzygy.CorruptTableError) as info:
                    t.open_table(name, "wdl" if ext == "rtbw" else "dtz")
                if cut < 16:
                    assert isinstance(info.value, syzygy.TruncatedTableError), str(info.value)
                assert source.name in str(info.value)


def test_flipped_bytes_never_crash(tmp_path: Path) -> None:
    seed = SEED + 4
    rng = random.Random(seed)
    print(f"byte flip seed {seed}")
    outcomes = {"value": 0, "corrupt": 0}
    for name in ["KQvK", "KRvKB", "KPvK", "KNPvK", "KPvKP", "KRvKN"]:
        fens = random_positions(15, SEED + 5, [name])
        for trial in range(6):
            directory = tmp_path / f"{name}-{trial}"
            directory.mkdir()
            for other in TABLES.glob("*.rtb?"):
                if other.stem != name:
                    os.symlink(other, directory / other.name)
            for ext in ("rtbw", "rtbz"):
                data = bytearray((TABLES / f"{name}.{ext}").read_bytes())
                # Header bytes more often: they steer every offset.
                for _ in range(rng.randint(1, 8)):
                    at = (
                        rng.randrange(min(len(data), 256))
                        if rng.random() < 0.6
                        else rng.randrange(len(data))
                    )
                    data[at] ^= 1 << rng.randrange(8)
                (directory / f"{name}.{ext}").write_bytes(bytes(data))
            t = syzygy.open_tablebase(directory)
            for fen in fens:
                b = shatranj.Board(fen)
                for probe in (t.probe_wdl, t.probe_dtz):
                    try:
                        v = probe(b)
                        assert isinstance(v, int)
                        outcomes["value"] += 1
                    except (syzygy.CorruptTableError, syzygy.MissingTableError):
                        outcomes["corrupt"] += 1
            try:
                assert t.probe_wdl_many(fens, default=-128).shape == (len(fens),)
            except syzygy.CorruptTableError:
                pass
    print(outcomes)
    assert outcomes["corrupt"] > 0


def test_fuzzed_fens_raise_only_typed_errors(tables: syzygy.Tablebase) -> None:
    seed = SEED + 6
    rng = random.Random(seed)
    print(f"FEN fuzz seed {seed}")
    base = random_positions(200, seed) + ["8/8/8/k2Pp3/8/8/8/4K3 w - e6 0 2", shatranj.STARTING_FEN]
    alphabet = "kqrbnpKQRBNP12345678/ -wbeKQkqa-h0123456789"
    probed = 0
    for _ in range(3000):
        fen = list(rng.choice(base))
        for _ in range(rng.randint(1, 4)):
            op = rng.random()
            at = rng.randrange(len(fen) + 1)
            if op < 0.4 and fen:
                fen[min(at, len(fen) - 1)] = rng.choice(alphabet)
            elif op < 0.7:
                fen.insert(at, rng.choice(alphabet))
            elif fen:
                del fen[min(at, len(fen) - 1)]
        text = "".join(fen)
        try:
            b = shatranj.Board(text)
        except ValueError:
            continue
        for probe in (
            tables.probe_wdl,
            tables.probe_dtz,
            tables.probe_wdl_table,
            tables.probe_dtz_no_ep,
        ):
            try:
                assert isinstance(probe(b), int)
                probed += 1
            except TYPED:
                pass
        try:
            tables.probe_wdl_many([text, b], default=-128)
        except TYPED:
            pass
    print(f"{probed} probes of fuzzed positions answered")
    assert probed > 100


# --- table names, against python-chess ---------------------------------------------------


@pytest.mark.parametrize("one_king", [True, False])
def test_table_names_equal_python_chess(one_king: bool) -> None:
    import chess.syzygy

    ours = list(syzygy.tablenames(one_king=one_king))
    theirs = list(chess.syzygy.tablenames(one_king=one_king))
    assert set(ours) == set(theirs) and len(ours) == len(theirs)
    # Every name for chess; every ninth of the 8,400 suicide names (python-chess's own
    # functions take most of the time).
    for name in theirs[:: 1 if one_king else 9]:
        white, black = name.split("v")
        for text in (name, f"{black}v{white}"):
            for mirror in (False, True):
                assert syzygy.normalize_tablename(
                    text, mirror=mirror
                ) == chess.syzygy.normalize_tablename(text, mirror=mirror)
            for normalized in (False, True):
                for count in (None, 4, 7):
                    got = syzygy.is_tablename(
                        text, one_king=one_king, piece_count=count, normalized=normalized
                    )
                    assert got == chess.syzygy.is_tablename(
                        text, one_king=one_king, piece_count=count, normalized=normalized
                    ), text
        assert sorted(syzygy.dependencies(name, one_king=one_king)) == sorted(
            chess.syzygy.dependencies(name, one_king=one_king)
        ), name
    # Closures of suicide tables reach thousands of names: fewer groups there.
    for i in range(0, len(theirs), 53 if one_king else 997):
        group = theirs[i : i + 4]
        assert set(syzygy.all_dependencies(group, one_king=one_king)) == set(
            chess.syzygy.all_dependencies(group, one_king=one_king)
        )


def test_calc_key_and_dtz_before_zeroing() -> None:
    import chess
    import chess.syzygy

    for fen in random_positions(200, SEED + 7):
        for mirror in (False, True):
            assert syzygy.calc_key(shatranj.Board(fen), mirror=mirror) == chess.syzygy.calc_key(
                chess.Board(fen), mirror=mirror
            )
    for wdl in range(-2, 3):
        assert syzygy.dtz_before_zeroing(wdl) == chess.syzygy.dtz_before_zeroing(wdl)
    with pytest.raises(ValueError, match="table name"):
        syzygy.normalize_tablename("kqvk")


def test_batches_release_the_gil(tables: syzygy.Tablebase) -> None:
    """While a batch runs in a thread, this thread keeps running: its longest pause is far
    shorter than the batch (a batch holding the GIL would stall it for the whole call)."""
    boards = [shatranj.Board(f) for f in random_positions(2000, SEED + 8)] * 10
    span: list[float] = []

    def work() -> None:
        start = time.perf_counter()
        tables.probe_dtz_many(boards)
        span.append(time.perf_counter() - start)

    worker = threading.Thread(target=work)
    worker.start()
    last = time.perf_counter()
    longest = 0.0
    while worker.is_alive():
        now = time.perf_counter()
        longest = max(longest, now - last)
        last = now
    worker.join()
    print(f"batch {span[0]:.3f} s, longest pause of this thread {longest:.3f} s")
    assert span[0] > 0.05, "the batch is too short to tell"
    assert longest < span[0] / 2
