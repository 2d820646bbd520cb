"""The table protocol's frames as protocol.js types them, read as JSON Schema.

``src/polignac/server/static/protocol.js`` is the one home of what the server sends: its
JSDoc ``@typedef``s (TypeScript's type syntax, the subset that file uses) are parsed here
into JSON Schema, every object closed (a field the typedef does not name is an error) and
every property without ``?`` required, so that a test can check real frames against them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

PROTOCOL_JS = (Path(__file__).resolve().parents[2]
               / "src" / "polignac" / "server" / "static" / "protocol.js")

_TOKEN = re.compile(r'\s*(?:(?P<str>"[^"]*")|(?P<name>[A-Za-z_$][\w$.]*)|(?P<num>\d+)'
                    r'|(?P<punct>\[\]|[{}()<>\[\],:?|&]))')
_SCALARS: dict[str, dict[str, Any]] = {
    "number": {"type": "number"}, "string": {"type": "string"}, "boolean": {"type": "boolean"},
    "null": {"type": "null"}, "object": {"type": "object"}, "unknown": {}, "any": {},
}


class TypeSyntaxError(ValueError):
    """protocol.js has a type this reader does not know."""


def _tokens(text: str) -> list[str]:
    """The tokens of a type expression.

    Raises:
        TypeSyntaxError: a character no token starts with."""
    out, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise TypeSyntaxError(f"cannot read {text[pos:pos + 20]!r}")
        out.append(m.group(m.lastgroup or "punct"))
        pos = m.end()
    return out


class _Parser:
    """A recursive-descent reader of one type expression into JSON Schema."""

    def __init__(self, text: str) -> None:
        self.toks = _tokens(text)
        self.i = 0

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, want: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (want is not None and tok != want):
            raise TypeSyntaxError(f"expected {want!r}, found {tok!r} in {' '.join(self.toks)}")
        self.i += 1
        return tok

    def whole(self) -> dict[str, Any]:
        out = self.union()
        if self.peek() is not None:
            raise TypeSyntaxError(f"left over: {self.toks[self.i:]}")
        return out

    def union(self) -> dict[str, Any]:
        if self.peek() == "|":
            self.take()
        parts = [self.intersection()]
        while self.peek() == "|":
            self.take()
            parts.append(self.intersection())
        return parts[0] if len(parts) == 1 else {"anyOf": parts}

    def intersection(self) -> dict[str, Any]:
        parts = [self.postfix()]
        while self.peek() == "&":
            self.take()
            parts.append(self.postfix())
        return parts[0] if len(parts) == 1 else {"allOf-closed": parts}

    def postfix(self) -> dict[str, Any]:
        out = self.primary()
        while self.peek() == "[]":
            self.take()
            out = {"type": "array", "items": out}
        return out

    def primary(self) -> dict[str, Any]:
        tok = self.take()
        if tok == "(":
            out = self.union()
            self.take(")")
            return out
        if tok == "{":
            return self.fields()
        if tok.startswith('"'):
            return {"const": tok[1:-1]}
        if tok in _SCALARS:
            return dict(_SCALARS[tok])
        if tok == "Record":
            self.take("<")
            self.union()  # the key type: strings in JSON
            self.take(",")
            value = self.union()
            self.take(">")
            return {"type": "object", "additionalProperties": value}
        if re.fullmatch(r"[A-Z]\w*", tok):
            return {"$ref": f"#/$defs/{tok}"}
        raise TypeSyntaxError(f"unknown type {tok!r}")

    def fields(self) -> dict[str, Any]:
        props: dict[str, Any] = {}
        required: list[str] = []
        while self.peek() != "}":
            name = self.take()
            optional = self.peek() == "?"
            if optional:
                self.take()
            self.take(":")
            props[name] = self.union()
            if not optional:
                required.append(name)
            if self.peek() == ",":
                self.take()
        self.take("}")
        return {"type": "object", "properties": props, "required": required,
                "additionalProperties": False}


def _comment_lines(source: str) -> list[list[str]]:
    """Each JSDoc comment's lines, without the leading ``*``."""
    return [[re.sub(r"^\s*\*?\s?", "", line) for line in block.splitlines()]
            for block in re.findall(r"/\*\*(.*?)\*/", source, re.S)]


def _braced(text: str, start: int) -> tuple[str, int]:
    """The text inside the braces that open at ``start``, and the index after them."""
    depth = 0
    for i in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return text[start + 1:i], i + 1
    raise TypeSyntaxError(f"unclosed brace in {text[start:start + 40]!r}")


def typedefs(source: str | None = None) -> dict[str, dict[str, Any]]:
    """protocol.js's typedefs by name, each as JSON Schema (``$ref`` to the others).

    Raises:
        TypeSyntaxError: a typedef this reader cannot read."""
    source = PROTOCOL_JS.read_text(encoding="utf-8") if source is None else source
    out: dict[str, dict[str, Any]] = {}
    for lines in _comment_lines(source):
        text = "\n".join(lines)
        for m in re.finditer(r"@typedef\s+(?=\{)", text):
            body, end = _braced(text, m.end())
            name = re.match(r"\s*(\w+)", text[end:])
            if not name:
                raise TypeSyntaxError(f"a typedef without a name: {body[:40]!r}")
            if body.strip() == "object":  # @property lines follow, up to the next tag
                rest = text[end:]
                stop = re.search(r"@typedef", rest)
                props = rest[:stop.start()] if stop else rest
                fields = []
                for p in re.finditer(r"@property\s+(?=\{)", props):
                    ptype, pend = _braced(props, p.end())
                    pname = re.match(r"\s*(\[?)(\w+)", props[pend:])
                    assert pname, props[pend:pend + 40]
                    fields.append(f"{pname.group(2)}{'?' if pname.group(1) else ''}: ({ptype})")
                body = "{" + ", ".join(fields) + "}"
            out[name.group(1)] = _Parser(body).whole()
    return out


def _close(schema: Any, defs: dict[str, dict[str, Any]]) -> Any:
    """``schema`` with each intersection merged into one closed object."""
    if isinstance(schema, list):
        return [_close(s, defs) for s in schema]
    if not isinstance(schema, dict):
        return schema
    if "allOf-closed" in schema:
        merged: dict[str, Any] = {"type": "object", "properties": {}, "required": [],
                                  "additionalProperties": False}
        for part in schema["allOf-closed"]:
            while "$ref" in part:
                part = defs[part["$ref"].rsplit("/", 1)[1]]
            part = _close(part, defs)
            merged["properties"].update(part["properties"])
            merged["required"] = sorted(set(merged["required"]) | set(part["required"]))
        return merged
    return {k: _close(v, defs) for k, v in schema.items()}


def frame_schemas() -> dict[str, dict[str, Any]]:
    """Each frame type the server sends (``type``'s value) -> the JSON Schema of its frame,
    from protocol.js's ``Frame`` union."""
    defs = typedefs()
    defs = {name: _close(s, defs) for name, s in defs.items()}

    def members(schema: dict[str, Any]) -> list[dict[str, Any]]:
        while "$ref" in schema:
            schema = defs[schema["$ref"].rsplit("/", 1)[1]]
        if "anyOf" in schema:
            return [m for part in schema["anyOf"] for m in members(part)]
        return [schema]

    out = {}
    for member in members(defs["Frame"]):
        kind = member["properties"]["type"]["const"]
        out[kind] = {**member, "$defs": defs}
    return out
