#!/usr/bin/env python3
"""Production functions longer than the project's limit (80 code lines).

    scripts/long_functions.py [--limit N] [--all] [PATH ...]   (default: crates src python)
    scripts/long_functions.py --self-test                      (the lexer's hard cases)

A function's code lines are the lines from its `fn` line to its closing brace,
both included, that hold something other than blanks and comments (a line
inside a string literal counts: it is code). Bodies are found by matching
braces over a small Rust lexer that skips comments (nested block comments
too), string literals (escapes, `\\` line continuations, `{{` in format
strings), raw strings (`r#"..."#`), byte strings and character literals
(told apart from lifetimes).

Not production, hence skipped: files under a `tests/` or `benches/`
directory, `tests.rs` files, modules behind `#[cfg(test)]` (inline or in
their own file) and `#[test]` functions. A function whose comments or doc
comments just above it say "table of data" is listed as a table (allowed).

Prints one line per function over the limit: code lines, place, name, and
"table" or "NOT A TABLE". Exits 1 when a function that is not a table is over
the limit (with --all, every function is listed, sorted by length, and the
exit status is the same).
"""

import argparse
import os
import re
import sys

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def lex(text):
    """Yields (kind, value, line) for the tokens the scanner needs: 'ident',
    'punct' ({ } ( ) ; # [ ] !), 'string' and 'char'; marks the lines that hold
    code in `code_lines` (a set of 1-based numbers), returned last as
    ('end', code_lines, line)."""
    i, line, n = 0, 1, len(text)
    code_lines = set()

    def mark(start, end, first_line):
        # Every line a token spans holds code.
        for k in range(first_line, first_line + text.count("\n", start, end) + 1):
            code_lines.add(k)

    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
        elif ch in " \t\r":
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            line += text.count("\n", i, j)
            i = j
        elif (m := re.compile(r'b?r(#*)"').match(text, i)) and (
            i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")
        ):
            closing = '"' + m.group(1)
            end = text.find(closing, m.end())
            end = n if end < 0 else end + len(closing)
            mark(i, end, line)
            yield ("string", text[i:end], line)
            line += text.count("\n", i, end)
            i = end
        elif ch == '"' or text.startswith('b"', i):
            j = i + (2 if ch == "b" else 1)
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            end = min(j + 1, n)
            mark(i, end, line)
            yield ("string", text[i:end], line)
            line += text.count("\n", i, end)
            i = end
        elif ch == "'" or text.startswith("b'", i):
            j = i + (2 if ch == "b" else 1)
            # A character literal: one character or an escape, then a quote;
            # otherwise a lifetime or a label ('a, 'static).
            m = re.compile(r"(\\(x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|.)|[^\\\n])'").match(text, j)
            if m:
                mark(i, m.end(), line)
                yield ("char", text[i : m.end()], line)
                i = m.end()
            else:
                code_lines.add(line)
                i += 1
        elif ch.isalpha() or ch == "_":
            m = IDENT.match(text, i)
            code_lines.add(line)
            yield ("ident", m.group(0), line)
            i = m.end()
        else:
            code_lines.add(line)
            if ch in "{}();#[]!":
                yield ("punct", ch, line)
            i += 1
    yield ("end", code_lines, line)


def functions(text):
    """(name, first line, last line, in_test) of every function with a body."""
    tokens = list(lex(text))
    code_lines = tokens.pop()[1]
    found = []
    # `#[cfg(test)]` and `#[test]` mark the next item as test code: its braces
    # (a module, a function) open a test region; a `;` first ends the item
    # (`#[cfg(test)] mod tests;`, whose file `test_module_files` finds).
    pending_test = False
    test_until = []  # brace depths at which a test region closes
    depth = 0
    k = 0
    while k < len(tokens):
        kind, value, line = tokens[k]
        if kind == "punct" and value == "#":
            # An attribute: #[...] or #![...], read to its closing bracket.
            j = k + 1
            if j < len(tokens) and tokens[j][1] == "!":
                j += 1
            if j < len(tokens) and tokens[j][1] == "[":
                inner, level = [], 0
                while j < len(tokens):
                    v = tokens[j][1]
                    level += v == "["
                    level -= v == "]"
                    inner.append(v)
                    j += 1
                    if level == 0:
                        break
                words = [v for v in inner if isinstance(v, str)]
                joined = " ".join(words)
                if re.fullmatch(r"\[ test \]", joined) or re.match(r"\[ cfg \( test \) \]", joined):
                    pending_test = True
                k = j
                continue
        if kind == "punct" and value == "{":
            depth += 1
            if pending_test:
                test_until.append(depth)
                pending_test = False
        elif kind == "punct" and value == "}":
            if test_until and test_until[-1] == depth:
                test_until.pop()
            depth -= 1
        elif kind == "punct" and value == ";":
            pending_test = False
        elif kind == "ident" and value == "fn" and k + 1 < len(tokens) and tokens[k + 1][0] == "ident":
            name = tokens[k + 1][1]
            # The body opens at the first `{` outside parentheses and brackets
            # (a where clause or return type has none); a `;` first means none.
            j, parens = k + 2, 0
            while j < len(tokens):
                v = tokens[j][1]
                if tokens[j][0] == "punct":
                    if v in "([":
                        parens += 1
                    elif v in ")]":
                        parens -= 1
                    elif parens == 0 and v in "{;":
                        break
                j += 1
            if j < len(tokens) and tokens[j][1] == "{":
                level, e = 0, j
                while e < len(tokens):
                    if tokens[e][0] == "punct":
                        level += tokens[e][1] == "{"
                        level -= tokens[e][1] == "}"
                        if level == 0:
                            break
                    e += 1
                last = tokens[e][2] if e < len(tokens) else tokens[-1][2]
                in_test = pending_test or bool(test_until)
                found.append((name, line, last, in_test))
            # The body is scanned on: nested functions are listed too.
        k += 1
    return [(name, first, last, in_test, sum(1 for l in range(first, last + 1) if l in code_lines)) for name, first, last, in_test in found]


def test_module_files(path, text):
    """Files of modules declared `#[cfg(test)] mod name;` in `path`."""
    here = os.path.dirname(path)
    stem = os.path.splitext(os.path.basename(path))[0]
    # A module's own children live beside mod.rs/lib.rs/main.rs, else in a
    # folder named after the file.
    base = here if stem in ("mod", "lib", "main") else os.path.join(here, stem)
    out = set()
    for m in re.finditer(r"#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", text):
        out.add(os.path.normpath(os.path.join(base, m.group(1) + ".rs")))
        out.add(os.path.normpath(os.path.join(base, m.group(1), "mod.rs")))
    return out


def is_table(lines, first):
    """Whether the comments just above line `first` say it is a table of data."""
    k = first - 2
    comment = []
    while k >= 0 and (lines[k].strip().startswith(("//", "#[")) or lines[k].strip() == ""):
        if lines[k].strip() == "" and comment:
            break
        comment.append(lines[k])
        k -= 1
    return "table of data" in " ".join(comment).lower()


# The lexer's hard cases, and what the scanner must find in them: braces in
# strings (a `\\` continuation, `{{`, raw and byte strings), in character
# literals and in comments (nested too), lifetimes, a body-less declaration,
# test code skipped, a table marked.
SAMPLE = r'''/// A table of data, hence its length.
fn table() -> u32 {
    let a = "}}} {{ \" \
        } still the string {";
    let b = r#"a "quoted" } brace"#;
    let c = '{';
    let d = b'}';
    /* a /* nested */ } comment */
    // } line comment
    1
}

fn lifetimes<'a>(x: &'a str) -> &'a str {
    let e = '\'';
    let f = '\u{7b}';
    format!("{{}}{}", x);
    x
}

fn declared_only(x: u32);

#[cfg(test)]
mod tests {
    fn helper() {
        let x = 1;
    }
    #[test]
    fn t() {}
}

#[test]
fn outside() {
    let y = 2;
}

fn after() -> [u8; 2] {
    [1, 2]
}
'''
SAMPLE_EXPECTED = [("table", 2, 8, True), ("lifetimes", 13, 6, False), ("after", 36, 3, False)]


def self_test():
    lines = SAMPLE.split("\n")
    got = [(name, first, code, is_table(lines, first)) for name, first, _, in_test, code in functions(SAMPLE) if not in_test]
    if got != SAMPLE_EXPECTED:
        print(f"self-test failed: {got} != {SAMPLE_EXPECTED}", file=sys.stderr)
        return 1
    print("self-test passed")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="*", default=["crates", "src", "python"])
    parser.add_argument("--limit", type=int, default=80)
    parser.add_argument("--all", action="store_true", help="list every function")
    parser.add_argument("--self-test", action="store_true", help="check the scanner on its sample")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    files = []
    for root in args.paths:
        if os.path.isfile(root):
            files.append(root)
            continue
        for folder, dirs, names in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d not in ("tests", "benches", "target", ".venv", "node_modules"))
            files += [os.path.join(folder, f) for f in sorted(names) if f.endswith(".rs") and f != "tests.rs"]
    texts = {}
    for path in files:
        with open(path, encoding="utf-8") as handle:
            texts[os.path.normpath(path)] = handle.read()
    test_files = set()
    for path, text in texts.items():
        test_files |= test_module_files(path, text)
    rows = []
    for path, text in texts.items():
        if path in test_files:
            continue
        lines = text.split("\n")
        for name, first, last, in_test, code in functions(text):
            if in_test:
                continue
            rows.append((code, f"{path}:{first}", name, is_table(lines, first)))
    rows.sort(key=lambda r: (-r[0], r[1]))
    failed = False
    for code, place, name, table in rows:
        over = code > args.limit
        failed |= over and not table
        if over or args.all:
            verdict = "table" if table else ("NOT A TABLE" if over else "")
            print(f"{code:5} {place} {name} {verdict}".rstrip())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
