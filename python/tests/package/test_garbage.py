"""Garbage into every parser raises typed Python exceptions only, and never crashes.

Each parser gets many thousands of seeded random strings (mutated FENs, SAN and UCI
lookalikes, random bytes-as-text) in a child process: a Rust panic or a crash would kill the
child, so the test asserts the child exits normally and reports only the expected exceptions.
The parsers of issue 20 are in too: X-FEN/Shredder-FEN (Chess960 boards), EPD operations,
PGN time controls and comment annotations, and Polyglot books truncated or bit-flipped.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

SEED = 4242
CASES = 20000

CHILD = textwrap.dedent(
    """
    import os, random, struct, sys, tempfile
    import shatranj, shatranj.pgn, shatranj.polyglot

    seed, cases = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    FENS = [
        shatranj.STARTING_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ]
    ALPHABET = "KQRBNPkqrbnp12345678/ -wabcdefgh0x=+#O!?@:é\\u0000\\u2654\\n\\t"
    SAN = ["e4", "Nf3", "O-O", "O-O-O", "exd5", "e8=Q", "Nbd2", "Qh4#", "0-0", "a1", "Kxe2+"]
    UCI = ["e2e4", "e7e8q", "e1g1", "0000", "a1a1", "h7h8k", "e2e4p", "P@e4", "N@f3"]
    EPD_OPS = ['bm Nf3; id "x";', "pv e4 e5 Nf3;", 'c0 "a b";', "ce 55; acd 12.5;", "noop;", "am Qh4#"]
    EPD_LINE = 'r2qk2r/ppp1b1pp/2n1p3/3pP1n1/3P2b1/2PB1NN1/PP4PP/R1BQK2R w KQkq - bm Nxg5; id "ERET";'
    TIME_CONTROLS = ["40/7200:20/3600:900+30", "300+3", "60", "-", "?", "10+0.05", "600:20/180"]
    ANNOTATIONS = ["[%clk 1:02:03]", "[%eval -0.80,12]", "[%eval #-3]", "[%emt 0:00:01.5]", "[%csl Ga1][%cal Ra1h8]"]
    # A small book: the start position's key with e2e4 and d2d4, then random entries.
    start = shatranj.Board().zobrist_hash()
    BOOK = b"".join(struct.pack(">QHHI", start, m, w, 0) for m, w in ((0x031C, 10), (0x02DB, 5)))
    BOOK += bytes(rng.randrange(256) for _ in range(16 * 8))
    book_path = os.path.join(tempfile.mkdtemp(), "book.bin")

    def mutate(text):
        chars = list(text)
        for _ in range(rng.randrange(1, 6)):
            op = rng.randrange(4)
            i = rng.randrange(len(chars) + 1)
            if op == 0 and chars:
                del chars[min(i, len(chars) - 1)]
            elif op == 1:
                chars.insert(i, rng.choice(ALPHABET))
            elif op == 2 and chars:
                chars[min(i, len(chars) - 1)] = rng.choice(ALPHABET)
            else:
                j = rng.randrange(len(chars) + 1)
                chars[i:j] = chars[j:i]
        return "".join(chars)

    def garbage(pool):
        kind = rng.randrange(3)
        if kind == 0:
            return mutate(rng.choice(pool))
        if kind == 1:
            return "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(0, 90)))
        return "".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randrange(0, 12)))

    expected = {
        "Board": ValueError, "set_fen": ValueError, "push_san": ValueError, "parse_san": ValueError,
        "push_uci": ValueError, "parse_uci": ValueError, "Move.from_uci": ValueError,
        "Piece.from_symbol": ValueError, "Board960": ValueError, "set_epd": ValueError,
        "parse_time_control": ValueError, "polyglot": ValueError,
    }
    counts = {name: [0, 0] for name in expected}

    def attempt(name, call):
        try:
            call()
            counts[name][0] += 1
        except expected[name]:
            counts[name][1] += 1

    boards = [shatranj.Board(f) for f in FENS]
    for _ in range(cases):
        fen = garbage(FENS)
        attempt("Board", lambda: shatranj.Board(fen))
        attempt("set_fen", lambda: shatranj.Board().set_fen(fen))
        board = rng.choice(boards).copy()
        san = garbage(SAN)
        attempt("parse_san", lambda: board.parse_san(san))
        attempt("push_san", lambda: board.push_san(san))
        uci = garbage(UCI)
        attempt("parse_uci", lambda: board.parse_uci(uci))
        attempt("push_uci", lambda: board.push_uci(uci))
        attempt("Move.from_uci", lambda: shatranj.Move.from_uci(uci))
        attempt("Piece.from_symbol", lambda: shatranj.Piece.from_symbol(san[:2]))
        # Whatever got pushed, the board is still a consistent position.
        assert shatranj.Board(board.fen()).fen() == board.fen()
        # X-FEN and Shredder-FEN (Chess960 boards are played in setup mode).
        attempt("Board960", lambda: shatranj.Board(fen, chess960=True).fen())
        # EPD operations after a good position, and the whole line mutated.
        ops = garbage(EPD_OPS)
        attempt("set_epd", lambda: shatranj.Board().set_epd(rng.choice([FENS[1].rsplit(" ", 2)[0] + " " + ops, mutate(EPD_LINE)])))
        attempt("parse_time_control", lambda: shatranj.pgn.parse_time_control(garbage(TIME_CONTROLS)))
        # Annotations never raise: a malformed one is no annotation.
        node = shatranj.pgn.Game()
        node.comment = garbage(ANNOTATIONS)
        node.clock(), node.emt(), node.eval(), node.eval_depth(), node.arrows()
        node.set_clock(rng.uniform(-100, 1e6))
        node.set_eval(None)
        node.set_arrows([(rng.randrange(64), rng.randrange(64))])
        # Polyglot books: random, truncated and bit-flipped entries.
        data = bytearray(BOOK)
        cut = rng.randrange(len(data) + 1)
        data = data[:cut] if rng.random() < 0.5 else data
        for _ in range(rng.randrange(4)):
            if data:
                data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        with open(book_path, "wb") as f:
            f.write(bytes(data))

        def read_book():
            with shatranj.polyglot.open_reader(book_path) as book:
                list(book.find_all(shatranj.Board()))
                for entry in book:
                    entry.move.uci()
                book.get(rng.randrange(1 << 64))  # find() raises IndexError when absent, as python-chess

        attempt("polyglot", read_book)
    print(counts)
    """
)


def test_parsers_raise_only_value_errors_and_never_crash() -> None:
    print(f"seed {SEED}, {CASES} cases per parser")
    child = subprocess.run(
        [sys.executable, "-c", CHILD, str(SEED), str(CASES)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert child.returncode == 0, f"child died with {child.returncode}:\n{child.stderr[-3000:]}"
    counts = eval(child.stdout.strip().splitlines()[-1])  # the child's own repr of a dict
    print(counts)
    for name, (accepted, rejected) in counts.items():
        assert accepted + rejected == CASES, name
        assert rejected > 0, f"{name} accepted all garbage"
    # Mutated FENs and SANs are sometimes still valid: the parsers are not just refusing all.
    assert counts["Board"][0] > 0 and counts["parse_san"][0] > 0
    assert counts["Board960"][0] > 0 and counts["set_epd"][0] > 0 and counts["polyglot"][0] > 0
