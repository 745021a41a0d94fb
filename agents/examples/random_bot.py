#!/usr/bin/python3
"""A random Dark Hex bot in Python, written from docs/protocol.md, protocol 2 (Debian: python3-zmq, python3-msgpack)."""
import os, random, sys
import msgpack, zmq

def main():
    args = sys.argv[1:]
    endpoint = args[args.index("--endpoint") + 1] if "--endpoint" in args else os.environ["ARENA_ENDPOINT"]
    sock = zmq.Context().socket(zmq.DEALER)
    if os.environ.get("ARENA_SERVER_KEY"):  # tcp:// with CurveZMQ: the pinned server key and our key pair
        sock.curve_serverkey = os.environ["ARENA_SERVER_KEY"].encode()
        sock.curve_publickey = os.environ["ARENA_PUBLIC_KEY"].encode()
        sock.curve_secretkey = os.environ["ARENA_SECRET_KEY"].encode()
    sock.connect(endpoint)
    send = lambda **msg: sock.send(msgpack.packb(msg))
    send(type="hello", protocol=2, token=os.environ.get("ARENA_TOKEN", ""), name="pyrandom",
         version="1.0", variants=[], boards=[])
    unknown, rng = set(), random.Random()
    while True:
        msg = msgpack.unpackb(sock.recv(), raw=False)
        kind = msg.get("type")
        if kind == "game_start":
            unknown = set(range(msg["rows"] * msg["cols"]))
            rng.seed(msg["seed"])
            rows, cols, color, swap = msg["rows"], msg["cols"], msg["color"], msg["swap"]
            # an opening (docs/protocol.md "Openings"): its own stones and the opponent's it is told (hex)
            unknown -= set(msg.get("own", [])) | set(msg.get("seen", []))
            stones = len(msg.get("own", [])) + len(msg.get("seen", [])) + msg.get("hidden", 0)
            moved = stones >= 2  # White's swap window: its first move, only after a 1-stone opening
        elif kind == "turn":
            # what we were told since our last turn, in order: our own last attempts' outcomes
            # (placed: ours; rejected, collided: theirs) and what we learned of the opponent's
            for event, cell in msg["events"]:
                if event in ("placed", "rejected", "collided", "opp_placed"):
                    unknown.discard(cell)
                elif event == "swap":        # White swapped: its stone is at cell, the only one on the board
                    unknown = set(range(rows * cols)) - {cell}
            options = sorted(unknown)
            if swap and color == "W" and not moved and len(unknown) == rows * cols - 1:
                options.append("swap")
            moved = True
            send(type="move", game=msg["game"], cell=rng.choice(options))
        elif kind == "ping":
            send(type="pong", nonce=msg["nonce"])
        elif kind == "shutdown":
            return 0
        elif kind == "error":
            print("coordinator says:", msg.get("message"), file=sys.stderr)

if __name__ == "__main__":
    sys.exit(main())
