"""The reference side of tests/differential.rs: amulet-nbt reads our bytes and writes the same trees.

Run as `python3 amulet_reference.py --version` it prints amulet-nbt's version. Otherwise it reads one JSON
request per line on stdin and answers each with one JSON line on stdout.

Trees are plain JSON: a tag is `[type, payload]`; integers are numbers, floats their IEEE bits (so NaN
payloads and -0.0 cross unchanged), strings the hex of their UTF-8 (a lone surrogate, which only the
reference can hold, as the 3 bytes Python's `surrogatepass` gives it), a list `[element type, [payloads]]`,
a compound `[[name, tag], ...]`; a root is `{"name": ..., "tag": ...}`.

Request: `{"variant": "java" | "java-network" | "bedrock", "tree": root, "ours": hex, "ours_gzip": hex}`.
Answer: `{"read": root | {"error": ...}, "gzip_read": ..., "written": hex | {"error": ...}, "gzip": ...}`:
the reference's reading of our bytes and of our gzip file, and its own encoding of `tree`, plain and gzip.
amulet-nbt has no unnamed root, so Java network NBT goes through the Java form with an empty name (the
same bytes with two zero bytes after the type byte).
"""

import json
import sys

import amulet_nbt as nbt


def string_hex(s):
    return s.encode("utf-8", "surrogatepass").hex()


def from_hex(h):
    return bytes.fromhex(h).decode("utf-8", "surrogatepass")


def float_tag(bits):
    # Through a Python float a signalling NaN would be quieted: load the 4 bytes as a tag instead.
    return nbt.load(b"\x05\x00\x00" + bits.to_bytes(4, "big"), compressed=False).tag


def double_tag(bits):
    return nbt.load(b"\x06\x00\x00" + bits.to_bytes(8, "big"), compressed=False).tag


def bits(tag, size):
    raw = tag.to_nbt(compressed=False, name="")
    return int.from_bytes(raw[3 : 3 + size], "big")


def build(t, p):
    if t == 1:
        return nbt.ByteTag(p)
    if t == 2:
        return nbt.ShortTag(p)
    if t == 3:
        return nbt.IntTag(p)
    if t == 4:
        return nbt.LongTag(p)
    if t == 5:
        return float_tag(p)
    if t == 6:
        return double_tag(p)
    if t == 7:
        return nbt.ByteArrayTag(p)
    if t == 8:
        return nbt.StringTag(from_hex(p))
    if t == 9:
        return nbt.ListTag([build(p[0], x) for x in p[1]], p[0])
    if t == 10:
        return nbt.CompoundTag({from_hex(k): build(*v) for k, v in p})
    if t == 11:
        return nbt.IntArrayTag(p)
    if t == 12:
        return nbt.LongArrayTag(p)
    raise ValueError("tag type %r" % t)


def dump(tag):
    t = tag.tag_id
    return [t, payload(t, tag)]


def payload(t, tag):
    if t in (1, 2, 3, 4):
        return int(tag.py_int)
    if t == 5:
        return bits(tag, 4)
    if t == 6:
        return bits(tag, 8)
    if t in (7, 11, 12):
        return [int(x) for x in tag.np_array]
    if t == 8:
        return string_hex(tag.py_str)
    if t == 9:
        return [tag.list_data_type, [payload(tag.list_data_type, x) for x in tag]]
    if t == 10:
        return [[string_hex(k), dump(v)] for k, v in tag.items()]
    raise ValueError("tag type %r" % t)


def options(variant):
    if variant == "bedrock":
        return {"little_endian": True}, {"string_decoder": nbt.utf8_decoder}, {"string_encoder": nbt.utf8_encoder}
    return {"little_endian": False}, {}, {}


def read(data, variant, compressed):
    common, decode, _ = options(variant)
    if variant == "java-network":
        data = data[:1] + b"\0\0" + data[1:]
    context = nbt.ReadContext()
    try:
        named = nbt.load(data, compressed=compressed, read_context=context, **common, **decode)
    except Exception as e:  # the verdict is what is compared, whatever the exception
        return {"error": "%s: %s" % (type(e).__name__, e)}
    if not compressed and context.offset != len(data):
        return {"error": "%d bytes after the root tag" % (len(data) - context.offset)}
    return {"name": string_hex(named.name), "tag": dump(named.tag)}


def write(tree, variant, compressed):
    common, _, encode = options(variant)
    try:
        tag = build(*tree["tag"])
        data = nbt.NamedTag(tag, from_hex(tree["name"])).to_nbt(compressed=compressed, **common, **encode)
    except Exception as e:
        return {"error": "%s: %s" % (type(e).__name__, e)}
    if variant == "java-network" and not compressed:
        data = data[:1] + data[3:]
    return data.hex()


def main():
    if sys.argv[1:] == ["--version"]:
        print(nbt.__version__)
        return
    for line in sys.stdin:
        req = json.loads(line)
        variant = req["variant"]
        answer = {
            "read": read(bytes.fromhex(req["ours"]), variant, False),
            "written": write(req["tree"], variant, False),
        }
        if "ours_gzip" in req:
            answer["gzip_read"] = read(bytes.fromhex(req["ours_gzip"]), variant, True)
            answer["gzip"] = write(req["tree"], variant, True)
        sys.stdout.write(json.dumps(answer) + "\n")


if __name__ == "__main__":
    main()
